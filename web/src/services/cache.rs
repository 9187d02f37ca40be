//! The response cache: answers already fetched are never fetched again.
//!
//! Entries live in IndexedDB under [`citegate_core::fetch::cache_key`]:
//! service, method, URL without credentials, sorted query and body, so a
//! re-run of a verification after a reload costs no request for anything
//! already answered, and a key change does not throw answers away. Only
//! answers that say something about the literature are kept, by the core's
//! rule ([`fetch::cache_keeps`]), and a kept 404 expires after a week
//! ([`fetch::cache_fresh`]). The export file has two parts:
//! `entries` (every other request, by key) and `s2_cache`, Semantic Scholar
//! title searches in the layout of the reference scripts' `s2_cache.json`
//! (normalized title → response JSON), so a cache moves between citegate
//! and those scripts in both directions; a bare `s2_cache.json` imports too.
//! No header is stored and URLs are stored redacted, so an export holds no
//! API key.

use super::clock::wall_now;
use super::db::{Db, StoreError, CACHE_STORE};
use super::unsaved::{Unsaved, CACHE_DOCUMENT};
use citegate_core::fetch;
use citegate_core::works::request::Request;
use citegate_core::works::Service;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cell::Cell;
use std::rc::Rc;

/// One cached answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CachedResponse {
    /// The service that answered.
    pub service: Service,
    /// The request URL, credentials redacted.
    pub url: String,
    /// HTTP status.
    pub status: u16,
    /// Body text.
    pub body: String,
    /// `Date.now()` when it was fetched (or imported).
    pub fetched_at: f64,
}

/// Hit and miss counts since the page opened, and the number of entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct CacheStats {
    /// Lookups answered from the cache.
    pub hits: u32,
    /// Lookups that had to go to the network.
    pub misses: u32,
    /// Entries stored.
    pub entries: usize,
}

/// The response cache.
pub struct ResponseCache {
    db: Rc<Db>,
    hits: Cell<u32>,
    misses: Cell<u32>,
    /// Where a failed write is filed (shared with the workspace).
    unsaved: Unsaved,
}

impl ResponseCache {
    /// The cache in `db`.
    pub fn new(db: Rc<Db>) -> Self {
        ResponseCache::reporting_to(db, Unsaved::default())
    }

    /// A cache whose failed writes are filed with `unsaved`.
    pub fn reporting_to(db: Rc<Db>, unsaved: Unsaved) -> Self {
        ResponseCache {
            db,
            hits: Cell::new(0),
            misses: Cell::new(0),
            unsaved,
        }
    }

    /// The cached answer to `req`, counting a hit or a miss.
    pub async fn get(&self, req: &Request) -> Option<CachedResponse> {
        let key = fetch::cache_key(req);
        let found = self
            .db
            .get(CACHE_STORE, &key)
            .await
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str::<CachedResponse>(&t).ok())
            .filter(|c| fetch::cache_fresh(c.status, Some(c.fetched_at), wall_now()));
        match found {
            Some(_) => self.hits.set(self.hits.get() + 1),
            None => self.misses.set(self.misses.get() + 1),
        }
        found
    }

    /// Stores the answer to `req` when the core's rule keeps it
    /// ([`fetch::cache_keeps`]).
    pub async fn put(&self, req: &Request, status: u16, body: &str) -> Result<(), StoreError> {
        if !fetch::cache_keeps(req.service, status, body) {
            return Ok(());
        }
        let entry = CachedResponse {
            service: req.service,
            url: fetch::redact_url(&req.url),
            status,
            body: body.to_string(),
            fetched_at: wall_now(),
        };
        let text = serde_json::to_string(&entry).map_err(|e| StoreError {
            message: e.to_string(),
        })?;
        let result = self
            .db
            .put(CACHE_STORE, &fetch::cache_key(req), &text)
            .await;
        self.unsaved.note(CACHE_DOCUMENT, &result);
        result
    }

    /// Hits, misses and the entry count.
    pub async fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.get(),
            misses: self.misses.get(),
            entries: self.db.count(CACHE_STORE).await.map_or(0, |n| n as usize),
        }
    }

    /// Removes every entry and resets the counts.
    pub async fn clear(&self) -> Result<(), StoreError> {
        self.hits.set(0);
        self.misses.set(0);
        self.db.clear(CACHE_STORE).await
    }

    /// The cache as a JSON document: `{"format", "entries", "s2_cache"}`.
    pub async fn export_json(&self) -> Result<String, StoreError> {
        let mut entries = Map::new();
        let mut s2 = Map::new();
        for (key, text) in self.db.entries(CACHE_STORE).await? {
            let Ok(entry) = serde_json::from_str::<CachedResponse>(&text) else {
                continue;
            };
            let title = fetch::s2_title_of_cache_key(&key);
            match (title, serde_json::from_str::<Value>(&entry.body)) {
                (Some(t), Ok(v)) if entry.status == 200 => {
                    s2.insert(t.to_string(), v);
                }
                _ => {
                    if let Ok(v) = serde_json::to_value(&entry) {
                        entries.insert(key, v);
                    }
                }
            }
        }
        let doc = serde_json::json!({
            "format": "citegate-cache/1",
            "entries": entries,
            "s2_cache": s2,
        });
        serde_json::to_string_pretty(&doc).map_err(|e| StoreError {
            message: e.to_string(),
        })
    }

    /// Imports an export of [`ResponseCache::export_json`] or a bare
    /// `s2_cache.json`; returns how many entries were stored.
    pub async fn import_json(&self, text: &str) -> Result<usize, StoreError> {
        let doc: Value = serde_json::from_str(text).map_err(|e| StoreError {
            message: format!("cache file is not json: {e}"),
        })?;
        let Value::Object(doc) = doc else {
            return Err(StoreError {
                message: "cache file is not a json object".into(),
            });
        };
        let ours = doc.contains_key("format");
        let s2 = if ours {
            doc.get("s2_cache").and_then(Value::as_object).cloned()
        } else {
            Some(doc.clone())
        };
        let mut n = 0;
        let now = wall_now();
        for (title_key, response) in s2.unwrap_or_default() {
            let entry = CachedResponse {
                service: Service::SemanticScholar,
                url: String::new(),
                status: 200,
                body: response.to_string(),
                fetched_at: now,
            };
            let key = fetch::s2_title_cache_key(&title_key);
            self.store(&key, &entry).await?;
            n += 1;
        }
        if ours {
            if let Some(entries) = doc.get("entries").and_then(Value::as_object) {
                for (key, v) in entries {
                    if let Ok(entry) = serde_json::from_value::<CachedResponse>(v.clone()) {
                        self.store(key, &entry).await?;
                        n += 1;
                    }
                }
            }
        }
        Ok(n)
    }

    async fn store(&self, key: &str, entry: &CachedResponse) -> Result<(), StoreError> {
        let text = serde_json::to_string(entry).map_err(|e| StoreError {
            message: e.to_string(),
        })?;
        self.db.put(CACHE_STORE, key, &text).await
    }
}
