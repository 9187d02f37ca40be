//! The workspace: everything a person built in the app survives a reload.
//!
//! The work is kept per paper: the pool, the `.tex` files, the `.bib` and
//! every page's results belong to the current paper, stored under
//! `paper:<id>:<name>`; the settings, the reference library and the list of
//! papers ([`keys::PAPERS`]) are shared. Pages name documents as before and
//! never see the prefix. A database from before papers existed is moved
//! into a first paper when it is opened.
//!
//! One IndexedDB object store holds one JSON document per part of the work —
//! candidates, pool, reports, library, settings, and one progress record per
//! run — under the names in [`keys`]. Whole-document writes are deliberate:
//! each part is small (hundreds of papers), a write is one transaction, and
//! a reader never sees half an update. Only serializable types go in, and
//! the secrets type is not one, so the store cannot hold an API key.

use super::db::{Db, StoreError, WORKSPACE_STORE};
use super::unsaved::Unsaved;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cell::RefCell;
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
    /// The list of papers and the current one (shared).
    pub const PAPERS: &str = "papers";

    /// Documents shared by every paper; all others belong to one paper.
    pub const SHARED: [&str; 3] = [SETTINGS, LIBRARY, PAPERS];
}

/// One paper's workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paper {
    /// Stable id (`p1`, `p2`, …).
    pub id: String,
    /// The name the researcher gave it.
    pub name: String,
}

/// The papers and which one is open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Papers {
    /// The open paper's id.
    pub current: String,
    /// Every paper, in the order created.
    pub papers: Vec<Paper>,
}

impl Papers {
    /// The first paper, for a new or migrated database.
    pub fn first() -> Papers {
        Papers {
            current: "p1".into(),
            papers: vec![Paper {
                id: "p1".into(),
                name: "My paper".into(),
            }],
        }
    }

    /// An id no paper has (`p<n>`, one above the highest).
    pub fn next_id(&self) -> String {
        let n = self
            .papers
            .iter()
            .filter_map(|p| p.id.strip_prefix('p')?.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        format!("p{}", n + 1)
    }

    /// Adds a paper named `name` (trimmed; a default when empty), makes it
    /// current and returns its id.
    pub fn add(&mut self, name: &str) -> String {
        let id = self.next_id();
        let name = name.trim();
        let name = if name.is_empty() {
            format!("Paper {}", self.papers.len() + 1)
        } else {
            name.to_string()
        };
        self.papers.push(Paper {
            id: id.clone(),
            name,
        });
        self.current = id.clone();
        id
    }

    /// The open paper.
    pub fn current_paper(&self) -> Option<&Paper> {
        self.papers.iter().find(|p| p.id == self.current)
    }
}

/// Whether `key` is shared by every paper.
pub fn is_shared(key: &str) -> bool {
    keys::SHARED.contains(&key)
}

/// The stored name of `key` in paper `paper`.
pub fn scoped(paper: &str, key: &str) -> String {
    if is_shared(key) {
        key.to_string()
    } else {
        format!("paper:{paper}:{key}")
    }
}

/// The moves that put a database from before papers into paper `paper`:
/// every document that is neither shared nor already a paper's.
pub fn migration(stored: &[String], paper: &str) -> Vec<(String, String)> {
    stored
        .iter()
        .filter(|k| !is_shared(k) && !k.starts_with("paper:"))
        .map(|k| (k.clone(), scoped(paper, k)))
        .collect()
}

/// The workspace store.
pub struct Workspace {
    db: Rc<Db>,
    /// The open paper's id.
    paper: RefCell<String>,
    /// Documents whose last write failed (shown by the frame's banner).
    unsaved: Unsaved,
}

fn ser_err(e: serde_json::Error) -> StoreError {
    StoreError {
        message: format!("cannot encode or decode a workspace document: {e}"),
    }
}

impl Workspace {
    /// The workspace in `db`, open on its first paper (see [`Workspace::open`]).
    pub fn new(db: Rc<Db>) -> Self {
        Workspace {
            db,
            paper: RefCell::new("p1".into()),
            unsaved: Unsaved::default(),
        }
    }

    /// The workspace in `db`, open on the current paper; a database from
    /// before papers has its documents moved into a first paper.
    pub async fn open(db: Rc<Db>) -> Result<Self, StoreError> {
        let ws = Workspace::new(db);
        let papers = match ws.get::<Papers>(keys::PAPERS).await? {
            Some(p) if p.current_paper().is_some() => p,
            _ => {
                let first = Papers::first();
                let stored: Vec<String> = ws
                    .db
                    .entries(WORKSPACE_STORE)
                    .await?
                    .into_iter()
                    .map(|(k, _)| k)
                    .collect();
                for (from, to) in migration(&stored, &first.current) {
                    if let Some(text) = ws.db.get(WORKSPACE_STORE, &from).await? {
                        ws.db.put(WORKSPACE_STORE, &to, &text).await?;
                        ws.db.delete_key(WORKSPACE_STORE, &from).await?;
                    }
                }
                ws.put(keys::PAPERS, &first).await?;
                first
            }
        };
        *ws.paper.borrow_mut() = papers.current;
        Ok(ws)
    }

    /// The open paper's id.
    pub fn paper(&self) -> String {
        self.paper.borrow().clone()
    }

    /// The papers and which one is open.
    pub async fn papers(&self) -> Result<Papers, StoreError> {
        Ok(self
            .get::<Papers>(keys::PAPERS)
            .await?
            .unwrap_or_else(Papers::first))
    }

    /// Makes `papers.current` the open paper and saves the list (the page
    /// is reloaded after, so every page starts from that paper's work).
    pub async fn save_papers(&self, papers: &Papers) -> Result<(), StoreError> {
        self.put(keys::PAPERS, papers).await?;
        *self.paper.borrow_mut() = papers.current.clone();
        Ok(())
    }

    fn key(&self, key: &str) -> String {
        scoped(&self.paper.borrow(), key)
    }

    /// The document `key` of the open paper (or a shared one), if stored.
    pub async fn get<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, StoreError> {
        let key = self.key(key);
        match self.db.get(WORKSPACE_STORE, &key).await? {
            Some(t) => serde_json::from_str(&t).map(Some).map_err(ser_err),
            None => Ok(None),
        }
    }

    /// Stores `value` as the document `key`. A failure is also filed with
    /// [`Workspace::unsaved`], so it reaches the person even where the
    /// caller has nothing to say about it.
    pub async fn put<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<(), StoreError> {
        let result = match serde_json::to_string(value).map_err(ser_err) {
            Ok(text) => self.db.put(WORKSPACE_STORE, &self.key(key), &text).await,
            Err(e) => Err(e),
        };
        self.unsaved.note(key, &result);
        result
    }

    /// Removes the document `key` (a failure is filed like a write's).
    pub async fn remove(&self, key: &str) -> Result<(), StoreError> {
        let result = self.db.delete_key(WORKSPACE_STORE, &self.key(key)).await;
        self.unsaved.note(key, &result);
        result
    }

    /// The documents whose last write failed.
    pub fn unsaved(&self) -> Unsaved {
        self.unsaved
    }

    /// The names of the open paper's documents that start with `prefix`
    /// (as pages name them, without the paper's prefix), in key order.
    pub async fn keys_with_prefix(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let scope = scoped(&self.paper.borrow(), "");
        Ok(self
            .db
            .keys(WORKSPACE_STORE)
            .await?
            .into_iter()
            .filter_map(|k| {
                let name = k.strip_prefix(&scope)?;
                (name.starts_with(prefix) && !is_shared(name)).then(|| name.to_string())
            })
            .collect())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check_scoped(paper: &str, key: &str, expected: &str) {
        assert_eq!(scoped(paper, key), expected);
    }

    #[test]
    fn shared_and_paper_documents() {
        check_scoped("p1", "pool", "paper:p1:pool");
        check_scoped("p2", "page:bibtex", "paper:p2:page:bibtex");
        check_scoped("p2", "run:abc-1", "paper:p2:run:abc-1");
        check_scoped("p2", "settings", "settings");
        check_scoped("p2", "library", "library");
        check_scoped("p2", "papers", "papers");
    }

    #[test]
    fn migration_moves_only_unscoped_paper_documents() {
        let stored: Vec<String> = [
            "settings",
            "pool",
            "page:coverage",
            "library",
            "paper:p1:write",
            "run:x",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let moves: Vec<(String, String)> = migration(&stored, "p1");
        let expect = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            moves,
            [
                expect("pool", "paper:p1:pool"),
                expect("page:coverage", "paper:p1:page:coverage"),
                expect("run:x", "paper:p1:run:x")
            ]
        );
        assert!(migration(&[], "p1").is_empty());
    }

    #[test]
    fn new_papers_get_fresh_ids_and_names() {
        let mut p = Papers::first();
        assert_eq!(p.current_paper().map(|x| x.name.as_str()), Some("My paper"));
        assert_eq!(p.add("  Survey of X "), "p2");
        assert_eq!(p.current, "p2");
        assert_eq!(
            p.current_paper().map(|x| x.name.as_str()),
            Some("Survey of X")
        );
        assert_eq!(p.add(""), "p3");
        assert_eq!(p.papers[2].name, "Paper 3");
        p.papers.remove(1);
        assert_eq!(p.next_id(), "p4");
    }
}
