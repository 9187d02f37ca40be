//! Time for the services: the shared wall clock, the page's monotonic clock
//! and a timer.
//!
//! Two clocks on purpose. Throttle timestamps shared between tabs use
//! `Date.now()`, the only clock every tab of a browser agrees on;
//! `performance.now()` starts at each page's load and is only used to
//! measure intervals inside one page (tests, progress display).

use js_sys::{Date, Promise};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Milliseconds since the Unix epoch (`Date.now()`), shared by all tabs.
pub fn wall_now() -> f64 {
    Date::now()
}

/// Milliseconds since this page loaded (`performance.now()`); falls back to
/// the wall clock where there is no `performance`.
pub fn perf_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(Date::now)
}

/// Waits `ms` milliseconds (at once when `ms` ≤ 0).
pub async fn sleep_ms(ms: f64) {
    if ms.is_nan() || ms <= 0.0 {
        return;
    }
    let promise = Promise::new(&mut |resolve, _reject| {
        let global = js_sys::global();
        let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        match set_timeout {
            Some(f) => {
                if f.call2(&global, &resolve, &ms.ceil().into()).is_err() {
                    let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
                }
            }
            None => {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
        }
    });
    let _ = JsFuture::from(promise).await;
}
