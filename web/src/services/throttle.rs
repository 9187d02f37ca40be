//! One request rate per service for the whole browser, not per tab.
//!
//! Two open tabs of the app must together still send Semantic Scholar at
//! most one request per second. We use the Web Locks API rather than a
//! BroadcastChannel: a lock is a real mutual exclusion that the browser
//! releases by itself when a tab closes or crashes, while a channel would
//! need an election protocol and timeouts to survive a tab that vanished
//! mid-request. Each send takes two locks. The *flight* lock
//! (`citegate:<service>:flight<k>`, with `k` below the service's in-flight
//! limit) is held until the response is read, which bounds concurrency:
//! one slot for Semantic Scholar, so its requests are strictly sequential,
//! three for Crossref's polite pool. The *schedule* lock guards the shared
//! last-send time kept in `localStorage`: its holder reads that time, waits
//! until [`citegate_core::fetch::next_send_at`] allows, writes the new time
//! and lets go. The arithmetic is the core's; this module only owns the
//! locks, the clock and the timer. A cache hit never calls the throttle.

use super::clock::{perf_now, sleep_ms, wall_now};
use super::lock::{self, LockGuard};
use citegate_core::fetch::{self, Limits};
use citegate_core::works::Service;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

/// Added to the shared wall-clock last-send time; see [`Throttle::acquire`].
const WALL_MARGIN_MS: f64 = 5.0;

/// Permission to send one request; hold it until the response is read.
pub struct Permit {
    _flight: LockGuard,
    /// `Date.now()` when the send was allowed.
    pub at: f64,
}

/// The per-service throttle shared by every client of a page.
pub struct Throttle {
    prefix: String,
    limits: RefCell<BTreeMap<Service, Limits>>,
    /// Used when `localStorage` is unavailable.
    fallback_last: RefCell<BTreeMap<Service, f64>>,
    /// This page's last send per service on the monotonic clock. The wall
    /// clock can be slewed (NTP) by a millisecond or two per second, so sends
    /// from one page are also spaced on `performance.now()`.
    page_last: RefCell<BTreeMap<Service, f64>>,
    slot: Cell<u32>,
}

impl Throttle {
    /// A throttle whose lock and storage names start with `prefix`
    /// (`citegate` in the app; tests use their own to stay apart).
    pub fn new(prefix: &str) -> Self {
        Throttle {
            prefix: prefix.to_string(),
            limits: RefCell::new(BTreeMap::new()),
            fallback_last: RefCell::new(BTreeMap::new()),
            page_last: RefCell::new(BTreeMap::new()),
            slot: Cell::new(0),
        }
    }

    /// Sets the limits of the services from the settings.
    pub fn configure(&self, mailto: bool, s2_interval_ms: u64) {
        let mut l = self.limits.borrow_mut();
        for s in [
            Service::SemanticScholar,
            Service::Crossref,
            Service::OpenAlex,
            Service::Asta,
        ] {
            l.insert(s, fetch::limits(s, mailto, s2_interval_ms));
        }
    }

    /// Overrides one service's limits.
    pub fn set_limits(&self, service: Service, limits: Limits) {
        self.limits.borrow_mut().insert(service, limits);
    }

    /// The limits in force for `service`.
    pub fn limits(&self, service: Service) -> Limits {
        self.limits
            .borrow()
            .get(&service)
            .copied()
            .unwrap_or_else(|| fetch::limits(service, false, fetch::DEFAULT_S2_INTERVAL_MS))
    }

    fn last_key(&self, service: Service) -> String {
        format!("{}:{}:last-send", self.prefix, service.name())
    }

    fn read_last(&self, service: Service) -> Option<f64> {
        match local_storage() {
            Some(st) => st
                .get_item(&self.last_key(service))
                .ok()
                .flatten()
                .and_then(|v| v.parse().ok()),
            None => self.fallback_last.borrow().get(&service).copied(),
        }
    }

    fn write_last(&self, service: Service, at: f64) {
        match local_storage() {
            Some(st) => {
                let _ = st.set_item(&self.last_key(service), &at.to_string());
            }
            None => {
                self.fallback_last.borrow_mut().insert(service, at);
            }
        }
    }

    /// Waits until `service` may be sent another request, browser-wide.
    pub async fn acquire(&self, service: Service) -> Permit {
        let limits = self.limits(service);
        let slots = limits.max_in_flight.max(1);
        let k = self.slot.get() % slots;
        self.slot.set(self.slot.get().wrapping_add(1));
        let flight = lock::acquire(&format!("{}:{}:flight{k}", self.prefix, service.name())).await;
        let schedule = lock::acquire(&format!("{}:{}:schedule", self.prefix, service.name())).await;
        let now = wall_now();
        let at = fetch::next_send_at(self.read_last(service), now, &limits);
        sleep_ms(at - now).await;
        let page_last = self.page_last.borrow().get(&service).copied();
        let mono = perf_now();
        let mono_at = fetch::next_send_at(page_last, mono, &limits);
        sleep_ms(mono_at - mono).await;
        // One millisecond of margin, as for the wall clock below: the caller
        // stamps its send a few microseconds after this point.
        self.page_last
            .borrow_mut()
            .insert(service, perf_now() + 1.0);
        let at = wall_now();
        // `Date.now()` truncates to whole milliseconds and may be slewed
        // against real time (a CI run once saw 999.8 ms of monotonic time
        // between two sends 1001 wall-clock ms apart): record the send 5 ms
        // late, which costs 0.5 % of the rate and keeps every tab's gap real.
        self.write_last(service, at + WALL_MARGIN_MS);
        drop(schedule);
        Permit {
            _flight: flight,
            at,
        }
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}
