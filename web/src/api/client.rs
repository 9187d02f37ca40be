//! Executing planned requests: cache, throttle, retries, and typed failures.
//!
//! [`Client::execute`] is the one road from a core [`Request`] to an answer.
//! A cached answer returns at once — it never waits for the throttle. A miss
//! takes a [`Permit`](crate::services::throttle::Permit) for the service,
//! sends, and then does what the core's per-service rules say
//! ([`citegate_core::fetch::RetryPolicy::action`]): rate limits wait for
//! `Retry-After` (5 s when unreadable), server errors back off, three tries
//! each; a network failure is retried once and then the service is marked
//! unavailable for the client's life (one run), so later requests to it fail
//! fast with [`ClientError::Unavailable`] and the run goes on elsewhere.
//! Semantic Scholar's unreadable answers (its 429s carry no CORS headers)
//! back off 5, 10, 20, 40 s first (`?s2_backoff_ms=` shortens the base for
//! tests), and an OpenAlex 429 (the day's budget spent) makes OpenAlex
//! unavailable at once. An unavailable service is never evidence against a
//! paper: callers record "unverified: service unavailable", not "not
//! found". A request that needs a CORS preflight and gets no readable
//! response before any preflight to its service has passed most likely
//! failed that preflight: with the Semantic Scholar key it fails with
//! [`ClientError::KeyPreflight`], which the UI answers by calling
//! [`Client::continue_without_s2_key`]; without a key (the batch's JSON
//! body) with [`ClientError::Preflight`], and the caller sends the request's
//! simple form instead. Every error names the service and the request (URL
//! with credentials redacted).

use super::transport::{RawResponse, Transport, TransportError};
use crate::services::cache::ResponseCache;
use crate::services::clock::{sleep_ms, wall_now};
use crate::services::throttle::Throttle;
use citegate_core::fetch::{self, Action, RetryPolicy, Seen};
use citegate_core::resolve::Reply;
use citegate_core::works::request::Request;
use citegate_core::works::{parse_response, ApiError, Page, Service};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

/// An answer the service gave (after retries), or read from the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// HTTP status.
    pub status: u16,
    /// Body text.
    pub body: String,
    /// Whether it came from the cache.
    pub from_cache: bool,
}

/// Why a request produced no usable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientError {
    /// The service is unreachable for this run; items it should check are
    /// "unverified: service unavailable".
    Unavailable {
        /// The service.
        service: Service,
        /// Why, for people.
        message: String,
    },
    /// A keyed Semantic Scholar request got no readable response: the key's
    /// header likely failed the CORS preflight. The UI may offer to continue
    /// without the key ([`Client::continue_without_s2_key`]).
    KeyPreflight {
        /// The request (redacted URL).
        request: String,
    },
    /// A keyless request that needs a CORS preflight (Semantic Scholar's
    /// batch, for its JSON body) got no readable response and no preflight
    /// to the service has passed: the caller sends the simple form instead
    /// (one GET per id). The service stays usable.
    Preflight {
        /// The service.
        service: Service,
        /// The request (redacted URL).
        request: String,
    },
    /// The service kept failing (429 or 5xx) after all tries, or answered an
    /// error status (for [`Client::page`]).
    Api {
        /// The request (redacted URL).
        request: String,
        /// The service's error, read by the core.
        error: ApiError,
    },
    /// A success body that the core could not read.
    Malformed {
        /// The service.
        service: Service,
        /// The request (redacted URL).
        request: String,
        /// What was wrong.
        message: String,
    },
    /// The request could not be sent at all (bad URL or header).
    Invalid {
        /// The service.
        service: Service,
        /// The request (redacted URL).
        request: String,
        /// What was wrong.
        message: String,
    },
}

impl ClientError {
    /// The service concerned.
    pub fn service(&self) -> Service {
        match self {
            ClientError::Unavailable { service, .. }
            | ClientError::Malformed { service, .. }
            | ClientError::Invalid { service, .. }
            | ClientError::Preflight { service, .. } => *service,
            ClientError::KeyPreflight { .. } => Service::SemanticScholar,
            ClientError::Api { error, .. } => error.service,
        }
    }

    /// Whether the item stays unverified because the service could not be
    /// asked (as opposed to an answer about the item).
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            ClientError::Unavailable { .. }
                | ClientError::KeyPreflight { .. }
                | ClientError::Preflight { .. }
        )
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Unavailable { service, message } => {
                write!(f, "{} unavailable for this run: {message}", service.name())
            }
            ClientError::KeyPreflight { request } => write!(
                f,
                "semantic_scholar gave no readable response to a request with the api key \
                 (the browser's cors preflight for the x-api-key header probably failed); \
                 continue without the key? request: {request}"
            ),
            ClientError::Preflight { service, request } => write!(
                f,
                "{} gave no readable response to a request that needs a cors preflight \
                 (the service does not allow it from a page); request: {request}",
                service.name()
            ),
            ClientError::Api { request, error } => write!(f, "{error}; request: {request}"),
            ClientError::Malformed {
                service,
                request,
                message,
            } => write!(
                f,
                "{} sent a malformed response: {message}; request: {request}",
                service.name()
            ),
            ClientError::Invalid {
                service,
                request,
                message,
            } => write!(
                f,
                "{} request could not be sent: {message}; request: {request}",
                service.name()
            ),
        }
    }
}

impl std::error::Error for ClientError {}

/// Executes requests for one run (or one page's life).
pub struct Client {
    transport: Rc<dyn Transport>,
    throttle: Rc<Throttle>,
    cache: Option<Rc<ResponseCache>>,
    policy: RetryPolicy,
    unavailable: RefCell<BTreeMap<Service, String>>,
    sent: RefCell<BTreeMap<Service, u32>>,
    drop_s2_key: Cell<bool>,
    preflight_passed: RefCell<BTreeSet<Service>>,
    s2_backoff_ms: u64,
}

thread_local! {
    static S2_BACKOFF_MS: Cell<u64> = const { Cell::new(fetch::S2_UNREADABLE_BACKOFF_MS) };
}

/// Sets the first back-off after an unreadable Semantic Scholar answer for
/// every client made later (the page URL's `?s2_backoff_ms=`, for tests).
pub fn set_s2_backoff_ms(ms: u64) {
    S2_BACKOFF_MS.with(|b| b.set(ms));
}

/// The first back-off after an unreadable Semantic Scholar answer in force.
pub fn s2_backoff_ms() -> u64 {
    S2_BACKOFF_MS.with(Cell::get)
}

fn has_s2_key(req: &Request) -> bool {
    req.service == Service::SemanticScholar
        && req
            .headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("x-api-key"))
}

fn retry_after_ms(raw: &RawResponse) -> Option<u64> {
    let h = raw.retry_after.as_deref()?;
    fetch::retry_after_delta_ms(h).or_else(|| {
        let at = js_sys::Date::parse(h);
        at.is_finite().then(|| (at - wall_now()).max(0.0) as u64)
    })
}

impl Client {
    /// A client over `transport`, spaced by `throttle`, with an optional cache.
    pub fn new(
        transport: Rc<dyn Transport>,
        throttle: Rc<Throttle>,
        cache: Option<Rc<ResponseCache>>,
    ) -> Self {
        Client {
            transport,
            throttle,
            cache,
            policy: RetryPolicy::default(),
            unavailable: RefCell::new(BTreeMap::new()),
            sent: RefCell::new(BTreeMap::new()),
            drop_s2_key: Cell::new(false),
            preflight_passed: RefCell::new(BTreeSet::new()),
            s2_backoff_ms: S2_BACKOFF_MS.with(Cell::get),
        }
    }

    /// Replaces the first back-off after an unreadable Semantic Scholar answer.
    pub fn with_s2_backoff_ms(mut self, ms: u64) -> Self {
        self.s2_backoff_ms = ms;
        self
    }

    /// Replaces the retry numbers (tests shorten the waits).
    pub fn with_policy(mut self, policy: RetryPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Sends `req` once as it is, past the cache and the throttle: for the
    /// relay's own routes (its local index), which no service's limit
    /// paces and no cache keeps.
    pub async fn send_direct(&self, req: &Request) -> Result<RawResponse, TransportError> {
        self.transport.send(req).await
    }

    /// The throttle.
    pub fn throttle(&self) -> &Rc<Throttle> {
        &self.throttle
    }

    /// Why `service` is unavailable for this run, if it is.
    pub fn unavailable(&self, service: Service) -> Option<String> {
        self.unavailable.borrow().get(&service).cloned()
    }

    /// Every unavailable service with its reason.
    pub fn unavailable_services(&self) -> Vec<(Service, String)> {
        self.unavailable
            .borrow()
            .iter()
            .map(|(s, m)| (*s, m.clone()))
            .collect()
    }

    /// Requests sent over the network to `service` (retries included, cache hits not).
    pub fn sent(&self, service: Service) -> u32 {
        self.sent.borrow().get(&service).copied().unwrap_or(0)
    }

    /// The user chose to go on without the Semantic Scholar key: it is
    /// removed from every later request and the service is usable again.
    pub fn continue_without_s2_key(&self) {
        self.drop_s2_key.set(true);
        self.unavailable
            .borrow_mut()
            .remove(&Service::SemanticScholar);
    }

    /// Whether the Semantic Scholar key is being left out.
    pub fn s2_key_dropped(&self) -> bool {
        self.drop_s2_key.get()
    }

    /// Sends `req` (or reads it from the cache) and returns the service's
    /// answer, whatever its status, unless the service is unreachable or
    /// kept failing with 429/5xx.
    pub async fn execute(&self, req: &Request) -> Result<Fetched, ClientError> {
        let mut req = req.clone();
        if self.drop_s2_key.get() && req.service == Service::SemanticScholar {
            req.headers
                .retain(|(k, _)| !k.eq_ignore_ascii_case("x-api-key"));
        }
        let service = req.service;
        let shown = fetch::redact_url(&req.url);
        if let Some(message) = self.unavailable(service) {
            return Err(ClientError::Unavailable { service, message });
        }
        if let Some(cache) = &self.cache {
            if let Some(hit) = cache.get(&req).await {
                return Ok(Fetched {
                    status: hit.status,
                    body: hit.body,
                    from_cache: true,
                });
            }
        }
        let mut tries = 0u32;
        loop {
            tries += 1;
            let permit = self.throttle.acquire(service).await;
            *self.sent.borrow_mut().entry(service).or_insert(0) += 1;
            let result = self.transport.send(&req).await;
            drop(permit);
            let (fault, last) = match result {
                Ok(raw) => match fetch::fault_of(raw.status, retry_after_ms(&raw)) {
                    None => {
                        if fetch::needs_preflight(&req) {
                            self.preflight_passed.borrow_mut().insert(service);
                        }
                        if let Some(cache) = &self.cache {
                            // A failed cache write costs a repeat request later, nothing more.
                            let _ = cache.put(&req, raw.status, &raw.body).await;
                        }
                        return Ok(Fetched {
                            status: raw.status,
                            body: raw.body,
                            from_cache: false,
                        });
                    }
                    Some(f) => (f, Ok(raw)),
                },
                Err(TransportError::Invalid { message }) => {
                    return Err(ClientError::Invalid {
                        service,
                        request: shown,
                        message,
                    })
                }
                Err(TransportError::Blocked { message }) => {
                    // Asking again cannot help: the page itself forbids it.
                    self.unavailable
                        .borrow_mut()
                        .insert(service, message.clone());
                    return Err(ClientError::Unavailable { service, message });
                }
                Err(e @ TransportError::Network { .. }) => (fetch::Fault::Network, Err(e)),
            };
            if last.is_ok() && fetch::needs_preflight(&req) {
                // A readable error answer: the preflight passed.
                self.preflight_passed.borrow_mut().insert(service);
            }
            let seen = Seen {
                preflight_passed: self.preflight_passed.borrow().contains(&service),
            };
            match self
                .policy
                .action(&req, fault, tries, seen, self.s2_backoff_ms)
            {
                Action::Retry { after_ms } => sleep_ms(after_ms as f64).await,
                Action::GiveUp => {
                    let raw = last.unwrap_or_else(|_| RawResponse::new(0, ""));
                    return Err(ClientError::Api {
                        request: shown,
                        error: citegate_core::works::parse_error(service, raw.status, &raw.body),
                    });
                }
                Action::PreflightFailed if has_s2_key(&req) => {
                    self.unavailable.borrow_mut().insert(
                        service,
                        "the api key's cors preflight failed; continue without the key".into(),
                    );
                    return Err(ClientError::KeyPreflight { request: shown });
                }
                Action::PreflightFailed => {
                    return Err(ClientError::Preflight {
                        service,
                        request: shown,
                    })
                }
                Action::Unavailable => {
                    let last = last
                        .as_ref()
                        .map(|raw| raw.status)
                        .map_err(ToString::to_string);
                    let message = fetch::unavailable_message(
                        last.as_ref().copied().map_err(String::as_str),
                        tries,
                    );
                    self.unavailable
                        .borrow_mut()
                        .insert(service, message.clone());
                    return Err(ClientError::Unavailable { service, message });
                }
            }
        }
    }

    /// Sends `req` once (or reads it from the cache) for a caller that
    /// retries and paces by the core's rules itself, such as the
    /// verification engine ([`citegate_core::resolve::Run`]): the answer as
    /// the core's [`Reply`] — status 0 when none could be read, with
    /// `blocked_by_policy` when the page's CSP refused it. Only answers that
    /// are not faults (no 429, 5xx or unreadable one) go into the cache.
    pub async fn send_once(&self, req: &Request) -> Reply {
        let mut req = req.clone();
        if self.drop_s2_key.get() && req.service == Service::SemanticScholar {
            req.headers
                .retain(|(k, _)| !k.eq_ignore_ascii_case("x-api-key"));
        }
        if let Some(cache) = &self.cache {
            if let Some(hit) = cache.get(&req).await {
                return Reply {
                    status: hit.status,
                    body: hit.body,
                    ..Reply::default()
                };
            }
        }
        let service = req.service;
        let permit = self.throttle.acquire(service).await;
        *self.sent.borrow_mut().entry(service).or_insert(0) += 1;
        let result = self.transport.send(&req).await;
        drop(permit);
        match result {
            Ok(raw) => {
                let retry_after_ms = retry_after_ms(&raw);
                if fetch::fault_of(raw.status, retry_after_ms).is_none() {
                    if let Some(cache) = &self.cache {
                        let _ = cache.put(&req, raw.status, &raw.body).await;
                    }
                }
                Reply {
                    status: raw.status,
                    body: raw.body,
                    retry_after_ms,
                    ..Reply::default()
                }
            }
            Err(TransportError::Blocked { message }) => Reply {
                body: message,
                blocked_by_policy: true,
                ..Reply::default()
            },
            Err(TransportError::Network { .. } | TransportError::Invalid { .. }) => {
                Reply::default()
            }
        }
    }

    /// Executes `req` and reads the answer with the core's parser: an error
    /// status becomes [`ClientError::Api`], an unreadable success body
    /// [`ClientError::Malformed`].
    pub async fn page(&self, req: &Request) -> Result<Page, ClientError> {
        let f = self.execute(req).await?;
        parse_response(req.service, f.status, &f.body).map_err(|error| {
            let request = fetch::redact_url(&req.url);
            if (200..300).contains(&f.status) {
                ClientError::Malformed {
                    service: req.service,
                    request,
                    message: error.message,
                }
            } else {
                ClientError::Api { request, error }
            }
        })
    }
}
