//! The workspace: everything a person built in the app survives a reload.
//!
//! One IndexedDB object store holds one JSON document per part of the work —
//! candidates, pool, reports, library, settings, and one progress record per
//! run — under the names in [`keys`]. Whole-document writes are deliberate:
//! each part is small (hundreds of papers), a write is one transaction, and
//! a reader never sees half an update. Only serializable types go in, and
//! the secrets type is not one, so the store cannot hold an API key.

use super::db::{Db, StoreError, WORKSPACE_STORE};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::rc::Rc;

/// The workspace's document names.
pub mod keys {
    /// Phase-1 candidates (`raw_candidates.json`).
    pub const CANDIDATES: &str = "candidates";
    /// The verified pool (`citation_pool.json`).
    pub const POOL: &str = "pool";
    /// Reports (verification, cross-check, BibTeX).
    pub const REPORTS: &str = "reports";
    /// The reference library (`refs.jsonl` records).
    pub const LIBRARY: &str = "library";
    /// Settings without secrets.
    pub const SETTINGS: &str = "settings";
    /// Prefix of run progress records (`run:<id>`).
    pub const RUN_PREFIX: &str = "run:";
}

/// The workspace store.
pub struct Workspace {
    db: Rc<Db>,
}

fn ser_err(e: serde_json::Error) -> StoreError {
    StoreError {
        message: format!("cannot encode or decode a workspace document: {e}"),
    }
}

impl Workspace {
    /// The workspace in `db`.
    pub fn new(db: Rc<Db>) -> Self {
        Workspace { db }
    }

    /// The document `key`, if stored.
    pub async fn get<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, StoreError> {
        match self.db.get(WORKSPACE_STORE, key).await? {
            Some(t) => serde_json::from_str(&t).map(Some).map_err(ser_err),
            None => Ok(None),
        }
    }

    /// Stores `value` as the document `key`.
    pub async fn put<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<(), StoreError> {
        let text = serde_json::to_string(value).map_err(ser_err)?;
        self.db.put(WORKSPACE_STORE, key, &text).await
    }

    /// Removes the document `key`.
    pub async fn remove(&self, key: &str) -> Result<(), StoreError> {
        self.db.delete_key(WORKSPACE_STORE, key).await
    }

    /// Every document, as one JSON object (name → document).
    pub async fn export_json(&self) -> Result<String, StoreError> {
        let mut all = Map::new();
        for (k, t) in self.db.entries(WORKSPACE_STORE).await? {
            all.insert(k, serde_json::from_str(&t).unwrap_or(Value::String(t)));
        }
        serde_json::to_string_pretty(&Value::Object(all)).map_err(ser_err)
    }
}
