//! The app's IndexedDB database: one database, one store per purpose.
//!
//! Values are stored as JSON text under string keys. IndexedDB could hold
//! structured clones, but JSON text is what export files contain anyway,
//! keeps the Rust types the single schema (serde on both sides), and makes
//! a stored value readable in the browser's devtools. The `idb` crate wraps
//! the request/event API into futures; we picked it over `rexie` (which is
//! built on `idb`) because we need nothing beyond get/put/delete/clear and
//! key listing, and it builds against the workspace's wasm-bindgen as is.

use futures::channel::oneshot;
use idb::{
    Database, DatabaseEvent, Factory, ObjectStore, ObjectStoreParams, Transaction, TransactionMode,
};
use std::cell::Cell;
use std::fmt;
use std::future::IntoFuture;
use std::rc::Rc;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The response cache store.
pub const CACHE_STORE: &str = "cache";
/// The workspace store (candidates, pool, runs, reports, library, settings).
pub const WORKSPACE_STORE: &str = "workspace";
const VERSION: u32 = 1;

/// A storage failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// What failed, lowercase.
    pub message: String,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

fn err(what: &str, e: impl fmt::Display) -> StoreError {
    StoreError {
        message: format!("{what}: {}", e.to_string().to_lowercase()),
    }
}

/// Waits until `tx`, whose requests have just been issued, has committed.
///
/// Call it in the same turn as the requests, before anything else is
/// awaited: the transaction's listeners must be in place before it can
/// finish. A caller that resumed only after the transaction had committed
/// (a busy page) once missed the `complete` event and waited forever, and
/// an explicit `commit()` then failed on the finished transaction
/// (wasm-tests' `a_store_call_resumed_after_its_transaction_completed_still_finishes`).
///
/// A failed request aborts the transaction, so `complete` and `abort` are
/// all there is to hear. The listeners are this function's own (not the
/// `idb` crate's future, which also listens for `error` and, resolving
/// there, would drop the `abort` listener before that event came) and are
/// taken off when it returns or is dropped, so the browser never calls a
/// listener that is gone.
async fn committed(tx: Transaction, what: &str) -> Result<(), StoreError> {
    let tx = web_sys::IdbTransaction::from(tx);
    let (settle, settled) = oneshot::channel::<bool>();
    let settle = Rc::new(Cell::new(Some(settle)));
    let on = |ok: bool| {
        let settle = Rc::clone(&settle);
        Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            if let Some(s) = settle.take() {
                let _ = s.send(ok);
            }
        })
    };
    let (complete, abort) = (on(true), on(false));
    tx.set_oncomplete(Some(complete.as_ref().unchecked_ref()));
    tx.set_onabort(Some(abort.as_ref().unchecked_ref()));
    let listening = Listening(&tx);
    let ok = settled.await.unwrap_or(false);
    drop(listening);
    if ok {
        Ok(())
    } else {
        let why = tx.error().map_or_else(
            || "the transaction was aborted".to_string(),
            |e| e.message(),
        );
        Err(err(what, why))
    }
}

/// Takes a transaction's `complete` and `abort` listeners off when dropped.
struct Listening<'t>(&'t web_sys::IdbTransaction);

impl Drop for Listening<'_> {
    fn drop(&mut self) {
        self.0.set_oncomplete(None);
        self.0.set_onabort(None);
    }
}

/// An open database.
pub struct Db {
    db: Database,
    name: String,
}

impl Db {
    /// Opens (creating or upgrading) the database `name`.
    pub async fn open(name: &str) -> Result<Db, StoreError> {
        let factory = Factory::new().map_err(|e| err("indexeddb unavailable", e))?;
        let mut req = factory
            .open(name, Some(VERSION))
            .map_err(|e| err("cannot open database", e))?;
        req.on_upgrade_needed(|event| {
            if let Ok(db) = event.database() {
                let names = db.store_names();
                for store in [CACHE_STORE, WORKSPACE_STORE] {
                    if !names.iter().any(|n| n == store) {
                        let _ = db.create_object_store(store, ObjectStoreParams::new());
                    }
                }
            }
        });
        let db = req.await.map_err(|e| err("cannot open database", e))?;
        Ok(Db {
            db,
            name: name.to_string(),
        })
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Closes the connection (as a page unload would).
    pub fn close(&self) {
        self.db.close();
    }

    /// Deletes the database `name` (tests start from nothing).
    pub async fn delete(name: &str) -> Result<(), StoreError> {
        let factory = Factory::new().map_err(|e| err("indexeddb unavailable", e))?;
        factory
            .delete(name)
            .map_err(|e| err("cannot delete database", e))?
            .await
            .map_err(|e| err("cannot delete database", e))
    }

    /// A transaction on `store` and the store in it; a failure is named
    /// `what`.
    fn begin(
        &self,
        store: &str,
        mode: TransactionMode,
        what: &str,
    ) -> Result<(Transaction, ObjectStore), StoreError> {
        let tx = self
            .db
            .transaction(&[store], mode)
            .map_err(|e| err(what, e))?;
        let st = tx.object_store(store).map_err(|e| err(what, e))?;
        Ok((tx, st))
    }

    /// The text stored under `key` in `store`.
    pub async fn get(&self, store: &str, key: &str) -> Result<Option<String>, StoreError> {
        let (_tx, st) = self.begin(store, TransactionMode::ReadOnly, "read")?;
        // The read's answer is final once it succeeds: a read-only
        // transaction has nothing to commit, so its end is not awaited
        // (see [`committed`] for why a late wait could hang).
        let v = st
            .get(JsValue::from_str(key))
            .map_err(|e| err("read", e))?
            .await
            .map_err(|e| err("read", e))?;
        Ok(v.and_then(|v| v.as_string()))
    }

    /// Stores `text` under `key` in `store`, committed before returning.
    pub async fn put(&self, store: &str, key: &str, text: &str) -> Result<(), StoreError> {
        let (tx, st) = self.begin(store, TransactionMode::ReadWrite, "write")?;
        st.put(&JsValue::from_str(text), Some(&JsValue::from_str(key)))
            .map_err(|e| err("write", e))?;
        committed(tx, "write").await
    }

    /// Removes `key` from `store`.
    pub async fn delete_key(&self, store: &str, key: &str) -> Result<(), StoreError> {
        let (tx, st) = self.begin(store, TransactionMode::ReadWrite, "delete")?;
        st.delete(JsValue::from_str(key))
            .map_err(|e| err("delete", e))?;
        committed(tx, "delete").await
    }

    /// Empties `store`.
    pub async fn clear(&self, store: &str) -> Result<(), StoreError> {
        let (tx, st) = self.begin(store, TransactionMode::ReadWrite, "clear")?;
        st.clear().map_err(|e| err("clear", e))?;
        committed(tx, "clear").await
    }

    /// Every key of `store`, in key order (the values are not read).
    pub async fn keys(&self, store: &str) -> Result<Vec<String>, StoreError> {
        Ok(self
            .list(store, false)
            .await?
            .into_iter()
            .map(|(k, _)| k)
            .collect())
    }

    /// How many records `store` holds (IndexedDB's `count`: no key or
    /// text is read).
    pub async fn count(&self, store: &str) -> Result<u32, StoreError> {
        let (_tx, st) = self.begin(store, TransactionMode::ReadOnly, "count")?;
        st.count(None)
            .map_err(|e| err("count", e))?
            .await
            .map_err(|e| err("count", e))
    }

    /// Every key and text of `store`, in key order.
    pub async fn entries(&self, store: &str) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .list(store, true)
            .await?
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .collect())
    }

    /// Every key of `store` in key order, with its text when `values`.
    async fn list(
        &self,
        store: &str,
        values: bool,
    ) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let (_tx, st) = self.begin(store, TransactionMode::ReadOnly, "list")?;
        // Both requests go out, each with its listener, before either is
        // awaited: a transaction whose requests are all answered ends, so a
        // request made after the first answer could find it finished.
        let keys = st
            .get_all_keys(None, None)
            .map_err(|e| err("list", e))?
            .into_future();
        let texts = if values {
            Some(
                st.get_all(None, None)
                    .map_err(|e| err("list", e))?
                    .into_future(),
            )
        } else {
            None
        };
        let keys = keys.await.map_err(|e| err("list", e))?;
        let texts: Vec<Option<String>> = match texts {
            Some(texts) => texts
                .await
                .map_err(|e| err("list", e))?
                .into_iter()
                .map(|v| v.as_string())
                .collect(),
            None => Vec::new(),
        };
        let mut texts = texts.into_iter();
        Ok(keys
            .into_iter()
            .filter_map(|k| {
                let text = texts.next().flatten();
                Some((k.as_string()?, text))
            })
            .collect())
    }
}
