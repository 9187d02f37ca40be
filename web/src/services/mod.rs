//! Browser services: throttle, cache, workspace store, settings and runs.
//!
//! Everything here is IO that a browser owns — timers, locks, IndexedDB,
//! `localStorage` — wrapped so that the pages never touch it directly and
//! the decisions stay in `citegate-core`. Pages get one [`Services`] value
//! from context:
//!
//! ```text
//! // main.rs: open the database first, then mount with the services provided.
//! wasm_bindgen_futures::spawn_local(async {
//!     let services = Services::open_default().await.expect("indexeddb");
//!     leptos::mount::mount_to_body(move || {
//!         provide_context(services.clone());
//!         view! { <App/> }
//!     });
//! });
//! // a page:
//! let services = expect_context::<Services>();
//! let ep = services.endpoints();          // core Endpoints with settings + secrets
//! let client = services.run_client();     // fresh per run: unavailability resets
//! let state = run::verify_run(&client, &services.workspace(), &ep, "verify", &cands, &opts, |i, item| .., || false).await;
//! ```
//!
//! Modules: [`throttle`] (one rate per service for the whole browser, via
//! Web Locks), [`cache`] (IndexedDB response cache with `s2_cache.json`
//! export), [`store`] (workspace documents), [`settings`] (persistent
//! settings; secrets kept apart by type), [`run`] (checkpointed drivers),
//! [`prune`] (old `.bib` run checkpoints deleted, the few most recent kept),
//! [`sliced`] (long work a slice at a time, with a cancel token),
//! and the plumbing [`db`], [`lock`], [`clock`].

pub mod cache;
pub mod clock;
pub mod db;
pub mod lock;
pub mod prune;
pub mod resolve;
pub mod run;
pub mod settings;
pub mod sliced;
pub mod store;
pub mod throttle;
pub mod unsaved;

use crate::api::{Client, FetchTransport, Transport};
use cache::ResponseCache;
use citegate_core::works::request::Endpoints;
use db::{Db, StoreError};
use leptos::prelude::*;
use settings::{Secrets, Settings};
use std::cell::RefCell;
use std::rc::Rc;
use store::{keys, Workspace};
use throttle::Throttle;

/// The app's IndexedDB database name.
pub const DB_NAME: &str = "citegate";

struct Inner {
    db: Rc<Db>,
    cache: Rc<ResponseCache>,
    workspace: Rc<Workspace>,
    throttle: Rc<Throttle>,
    transport: Rc<dyn Transport>,
    secrets: RefCell<Secrets>,
}

/// The services a page needs; cheap to copy, provided through context.
#[derive(Clone, Copy)]
pub struct Services {
    /// The settings (without secrets); save with [`Services::save_settings`].
    pub settings: RwSignal<Settings>,
    inner: StoredValue<Rc<Inner>, LocalStorage>,
}

impl Services {
    /// Opens the app's database with the real network transport.
    pub async fn open_default() -> Result<Services, StoreError> {
        Services::open(DB_NAME, "citegate", Rc::new(FetchTransport)).await
    }

    /// Opens database `db_name`, loads the saved settings and remembered
    /// keys; locks and throttle timestamps are named with `prefix`.
    pub async fn open(
        db_name: &str,
        prefix: &str,
        transport: Rc<dyn Transport>,
    ) -> Result<Services, StoreError> {
        let db = Rc::new(Db::open(db_name).await?);
        let workspace = Rc::new(Workspace::open(db.clone()).await?);
        let settings: Settings = workspace.get(keys::SETTINGS).await?.unwrap_or_default();
        let throttle = Rc::new(Throttle::new(prefix));
        throttle.configure(!settings.mailto.trim().is_empty(), settings.s2_interval_ms);
        let inner = Inner {
            cache: Rc::new(ResponseCache::reporting_to(db.clone(), workspace.unsaved())),
            db,
            workspace,
            throttle,
            transport,
            secrets: RefCell::new(Secrets::load_remembered()),
        };
        Ok(Services {
            settings: RwSignal::new(settings),
            inner: StoredValue::new_local(Rc::new(inner)),
        })
    }

    fn inner(&self) -> Rc<Inner> {
        self.inner.get_value()
    }

    /// The core endpoints for the current settings and keys.
    pub fn endpoints(&self) -> Endpoints {
        self.settings
            .get_untracked()
            .endpoints(&self.inner().secrets.borrow())
    }

    /// A fresh client for one run (unavailable services reset), sharing the
    /// page's throttle and cache.
    pub fn run_client(&self) -> Client {
        let i = self.inner();
        Client::new(
            i.transport.clone(),
            i.throttle.clone(),
            Some(i.cache.clone()),
        )
    }

    /// The response cache.
    pub fn cache(&self) -> Rc<ResponseCache> {
        self.inner().cache.clone()
    }

    /// The workspace store.
    pub fn workspace(&self) -> Rc<Workspace> {
        self.inner().workspace.clone()
    }

    /// The documents whose last write failed (workspace and cache).
    pub fn unsaved(&self) -> unsaved::Unsaved {
        self.inner().workspace.unsaved()
    }

    /// The database (to close it, or for its name).
    pub fn db(&self) -> Rc<Db> {
        self.inner().db.clone()
    }

    /// Whether each key is set: (Semantic Scholar, OpenAlex, remembered).
    pub fn secrets_state(&self) -> (bool, bool, bool) {
        let i = self.inner();
        let s = i.secrets.borrow();
        (
            s.s2_api_key.is_some(),
            s.openalex_api_key.is_some(),
            s.remember,
        )
    }

    /// The keys in use (for the Settings page to keep a key whose field is
    /// left empty); never shown or stored by the caller.
    pub fn current_secrets(&self) -> Secrets {
        self.inner().secrets.borrow().clone()
    }

    /// Replaces the keys; they go to `localStorage` only when `remember` is set.
    pub fn set_secrets(&self, secrets: Secrets) {
        secrets.persist();
        *self.inner().secrets.borrow_mut() = secrets;
    }

    /// Applies the settings in memory to the throttle (the contact email's
    /// pool, Semantic Scholar's interval) without saving them: what
    /// `?s2_interval=` needs, since it holds for the visit only.
    pub fn apply_limits(&self) {
        let s = self.settings.get_untracked();
        self.inner()
            .throttle
            .configure(!s.mailto.trim().is_empty(), s.s2_interval_ms);
    }

    /// Saves the settings to the workspace and applies the new limits.
    pub async fn save_settings(&self) -> Result<(), StoreError> {
        self.apply_limits();
        let s = self.settings.get_untracked();
        self.inner().workspace.put(keys::SETTINGS, &s).await
    }
}
