//! Sending one planned request: the only place the app touches the network.
//!
//! [`Transport`] is the seam between the request plans of `citegate-core`
//! and the browser. It sends a [`Request`] exactly as planned — method, URL,
//! headers, body — and returns what came back without interpreting it: the
//! status, the `Retry-After` header when the browser lets us read it, and the
//! body text. Retrying, throttling, caching and parsing happen above it, so a
//! test can swap in [`ScriptedTransport`] and observe every request the app
//! would have made (and when) without a network. A browser reports an
//! offline host, a DNS failure and a response blocked for lack of CORS
//! headers as the same opaque `TypeError`; [`TransportError::Network`] keeps
//! that honesty instead of guessing which one it was. A request that hangs
//! is cut off after [`timeout_ms`] (30 s unless the page URL says
//! `?timeout_ms=MS`, which the end-to-end tests use) and reported the same
//! way, so a stalled socket is retried and then marks the service
//! unavailable instead of stopping a run for ever. A request the page's own
//! Content-Security-Policy refuses (`connect-src` does not name its origin,
//! say a relay the deployer did not declare) fails the same opaque way, but
//! the browser also fires a `securitypolicyviolation` event naming the URL:
//! [`watch_policy`] records those, and such a failure becomes
//! [`TransportError::Blocked`] — the page's own policy, not the service.

use async_trait::async_trait;
use citegate_core::works::request::{Method, Request};
use std::cell::{Cell, RefCell};
use std::fmt;

/// How long [`FetchTransport`] waits for a whole answer (headers and body).
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;

thread_local! {
    static TIMEOUT_MS: Cell<u32> = const { Cell::new(DEFAULT_TIMEOUT_MS) };
    static BLOCKED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Starts recording the URLs the page's Content-Security-Policy blocks
/// (`securitypolicyviolation` events), once per page.
pub fn watch_policy() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    if WATCHING.with(|w| w.replace(true)) {
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let on = Closure::<dyn Fn(web_sys::SecurityPolicyViolationEvent)>::new(
        |ev: web_sys::SecurityPolicyViolationEvent| {
            BLOCKED.with(|b| {
                let mut b = b.borrow_mut();
                // The last few are enough to match a failure to its cause.
                if b.len() >= 64 {
                    b.remove(0);
                }
                b.push(ev.blocked_uri());
            });
        },
    );
    let _ = doc
        .add_event_listener_with_callback("securitypolicyviolation", on.as_ref().unchecked_ref());
    on.forget();
}

/// The scheme, host and port of `url` (`https://api.example.org:8443`).
fn origin_of(url: &str) -> &str {
    let after = url.find("://").map_or(0, |i| i + 3);
    let end = url[after..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| after + i);
    &url[..end]
}

/// Whether the page's policy blocked a request to `url`'s origin.
pub fn blocked_by_policy(url: &str) -> bool {
    let origin = origin_of(url);
    BLOCKED.with(|b| b.borrow().iter().any(|u| origin_of(u) == origin))
}

/// The current request timeout in milliseconds.
pub fn timeout_ms() -> u32 {
    TIMEOUT_MS.with(Cell::get)
}

/// Sets the request timeout (at least 1 ms) for every later request.
pub fn set_timeout_ms(ms: u32) {
    TIMEOUT_MS.with(|t| t.set(ms.max(1)));
}

/// What a service answered, unread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawResponse {
    /// HTTP status.
    pub status: u16,
    /// The `Retry-After` header, when present and exposed to scripts.
    pub retry_after: Option<String>,
    /// The body as text.
    pub body: String,
}

impl RawResponse {
    /// A response with a status and a body and no `Retry-After`.
    pub fn new(status: u16, body: impl Into<String>) -> Self {
        RawResponse {
            status,
            retry_after: None,
            body: body.into(),
        }
    }
}

/// Why no response could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// No readable response: offline, DNS failure, or a response the browser
    /// withheld because it lacked CORS headers (the browser does not say which).
    Network {
        /// The browser's message.
        message: String,
    },
    /// The request could not be built (an invalid URL or header).
    Invalid {
        /// What was wrong.
        message: String,
    },
    /// The page's own Content-Security-Policy refused the request.
    Blocked {
        /// Which origin, for people.
        message: String,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Network { message } => write!(f, "no response: {message}"),
            TransportError::Invalid { message } => write!(f, "request not sent: {message}"),
            TransportError::Blocked { message } => write!(f, "request not sent: {message}"),
        }
    }
}

/// Sends one request and returns the raw answer.
#[async_trait(?Send)]
pub trait Transport {
    /// Sends `req` as planned.
    async fn send(&self, req: &Request) -> Result<RawResponse, TransportError>;
}

/// The browser's `fetch`, through `gloo-net`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FetchTransport;

#[async_trait(?Send)]
impl Transport for FetchTransport {
    async fn send(&self, req: &Request) -> Result<RawResponse, TransportError> {
        use gloo_net::http::{Method as M, RequestBuilder};
        let method = match req.method {
            Method::Get => M::GET,
            Method::Post => M::POST,
        };
        let limit = timeout_ms();
        // Aborts the fetch and the body read alike once the time is up.
        let signal = web_sys::AbortSignal::timeout_with_u32(limit);
        let network = |e: gloo_net::Error| TransportError::Network {
            message: if signal.aborted() {
                format!("no answer within {limit} ms")
            } else {
                e.to_string().to_lowercase()
            },
        };
        let mut builder = RequestBuilder::new(&req.url)
            .method(method)
            .abort_signal(Some(&signal));
        for (k, v) in &req.headers {
            builder = builder.header(k, v);
        }
        let built = match &req.body {
            Some(body) => builder.body(body.as_str()),
            None => builder.build(),
        }
        .map_err(|e| TransportError::Invalid {
            message: e.to_string().to_lowercase(),
        })?;
        let resp = match built.send().await {
            Ok(r) => r,
            Err(e) => {
                // The violation event is queued before the fetch fails; one
                // task later it has been recorded.
                crate::services::clock::sleep_ms(1.0).await;
                if blocked_by_policy(&req.url) {
                    return Err(TransportError::Blocked {
                        message: format!(
                            "blocked by the page's content security policy \
                             (connect-src does not name {})",
                            origin_of(&req.url)
                        ),
                    });
                }
                return Err(network(e));
            }
        };
        let status = resp.status();
        let retry_after = resp.headers().get("retry-after");
        let body = resp.text().await.map_err(network)?;
        Ok(RawResponse {
            status,
            retry_after,
            body,
        })
    }
}

/// The bytes at `url` (an arXiv e-print through the relay), with the
/// status, or why nothing could be read. Bounded by the same timeout as
/// the services' requests.
pub async fn fetch_bytes(url: &str) -> Result<(u16, Vec<u8>), String> {
    let limit = timeout_ms();
    let signal = web_sys::AbortSignal::timeout_with_u32(limit);
    let why = |e: gloo_net::Error| {
        if signal.aborted() {
            format!("no answer within {limit} ms")
        } else {
            e.to_string().to_lowercase()
        }
    };
    let resp = gloo_net::http::RequestBuilder::new(url)
        .abort_signal(Some(&signal))
        .send()
        .await
        .map_err(why)?;
    let status = resp.status();
    let body = resp.binary().await.map_err(why)?;
    Ok((status, body))
}

/// One request a [`ScriptedTransport`] received.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    /// The request, exactly as it would have gone out.
    pub request: Request,
    /// `performance.now()` when it arrived, in milliseconds.
    pub at_ms: f64,
}

type Script = Box<dyn Fn(&Request, usize) -> Result<RawResponse, TransportError>>;

/// A transport that answers from a script and records every request, for
/// tests. The script receives the request and its 0-based arrival number.
pub struct ScriptedTransport {
    script: Script,
    log: RefCell<Vec<Sent>>,
}

impl ScriptedTransport {
    /// A transport that answers with `script`.
    pub fn new(
        script: impl Fn(&Request, usize) -> Result<RawResponse, TransportError> + 'static,
    ) -> Self {
        ScriptedTransport {
            script: Box::new(script),
            log: RefCell::new(Vec::new()),
        }
    }

    /// Every request received so far, in order.
    pub fn sent(&self) -> Vec<Sent> {
        self.log.borrow().clone()
    }

    /// How many requests were received.
    pub fn count(&self) -> usize {
        self.log.borrow().len()
    }
}

#[async_trait(?Send)]
impl Transport for ScriptedTransport {
    async fn send(&self, req: &Request) -> Result<RawResponse, TransportError> {
        let n = {
            let mut log = self.log.borrow_mut();
            log.push(Sent {
                request: req.clone(),
                at_ms: crate::services::clock::perf_now(),
            });
            log.len() - 1
        };
        (self.script)(req, n)
    }
}
