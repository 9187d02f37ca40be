//! Browser-wide mutual exclusion with the Web Locks API.
//!
//! `navigator.locks.request(name, callback)` holds the named lock for every
//! tab and worker of the origin until the promise returned by the callback
//! settles. [`acquire`] turns that into a guard: the callback returns a
//! promise that only [`LockGuard`]'s drop resolves. The API is reached
//! through `js_sys::Reflect` because web-sys ships its bindings behind an
//! unstable-API flag. Where there is no `navigator.locks` (an insecure
//! context, an old browser) the lock falls back to an in-page async mutex:
//! still correct within the tab, and said so by [`LockGuard::shared`].

use futures::channel::oneshot;
use futures::lock::{Mutex, OwnedMutexGuard};
use js_sys::{Function, Promise, Reflect};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A held lock; released when dropped.
pub struct LockGuard {
    release: Option<Function>,
    _local: Option<OwnedMutexGuard<()>>,
}

impl LockGuard {
    /// Whether the lock is held for the whole browser (Web Locks), not only this tab.
    pub fn shared(&self) -> bool {
        self.release.is_some()
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        if let Some(f) = self.release.take() {
            let _ = f.call0(&JsValue::NULL);
        }
    }
}

thread_local! {
    static LOCAL: RefCell<HashMap<String, Arc<Mutex<()>>>> = RefCell::new(HashMap::new());
}

fn lock_manager() -> Option<(JsValue, Function)> {
    let nav = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let locks = Reflect::get(&nav, &"locks".into()).ok()?;
    if !locks.is_object() {
        return None;
    }
    let request = Reflect::get(&locks, &"request".into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    Some((locks, request))
}

/// Whether this browser offers the Web Locks API here.
pub fn web_locks_available() -> bool {
    lock_manager().is_some()
}

/// Acquires the exclusive lock `name`, waiting for its holder in any tab.
pub async fn acquire(name: &str) -> LockGuard {
    if let Some((locks, request)) = lock_manager() {
        let mut release: Option<Function> = None;
        let held = Promise::new(&mut |resolve, _reject| release = Some(resolve));
        let (tx, rx) = oneshot::channel::<()>();
        let callback = Closure::once_into_js(move |_lock: JsValue| -> JsValue {
            match tx.send(()) {
                Ok(()) => held.into(),
                // The waiter went away: give the lock back at once.
                Err(()) => Promise::resolve(&JsValue::UNDEFINED).into(),
            }
        });
        let called = request
            .call2(&locks, &JsValue::from_str(name), &callback)
            .is_ok();
        if called && rx.await.is_ok() {
            return LockGuard {
                release,
                _local: None,
            };
        }
    }
    let mutex = LOCAL.with(|m| m.borrow_mut().entry(name.to_string()).or_default().clone());
    LockGuard {
        release: None,
        _local: Some(mutex.lock_owned().await),
    }
}
