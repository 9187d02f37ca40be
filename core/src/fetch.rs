//! Fetch policy: when a request may go out, whether a failure is retried,
//! and which requests count as the same one — arithmetic only.
//!
//! The browser owns the clock, the timers and the sockets; this module owns
//! the rules, so they can be tested natively without waiting a second. Every
//! time is a number of milliseconds passed in by the caller (`Date.now()` in
//! the app, because that clock is shared by all tabs of a browser, unlike
//! `performance.now()`). Spacing is a minimum interval between the starts of
//! two sends to one service, derived from each service's published limit
//! (Semantic Scholar one per second, Crossref five per second in its public
//! pool and ten with a contact address, OpenAlex ten). A shared last-send
//! time that lies in the future — another tab's clock, or a clock set back —
//! never makes a caller wait more than one interval. Faults follow one
//! table: a rate limit waits for `Retry-After` (else 5 s), a server error
//! backs off exponentially, both up to three tries; a response that could not
//! be read at all (offline, or blocked for want of CORS headers) is retried
//! once and then marks the service unavailable for the run, because hammering
//! an unreachable host only delays the items other services can still check.
//! [`RetryPolicy::action`] adds what each service does: Semantic Scholar
//! answers its 429s without CORS headers, so its unreadable answers back off
//! 5 → 10 → 20 → 40 s; an OpenAlex 429 is the day's budget spent; a request
//! that needs a CORS preflight ([`needs_preflight`]) and fails before any
//! preflight to the service passed is a failed preflight, not an outage.
//! Cache keys drop credentials (`api_key`, `mailto`) and sort the query, so a
//! key rotation does not empty the cache and no secret is ever part of a key;
//! a Semantic Scholar title search is keyed by its normalized title alone,
//! the layout of the reference `s2_cache.json`, so caches move between tools.

pub mod queue;

use crate::works::request::{Method, Request};
use crate::works::Service;

/// The Semantic Scholar interval of the paper's rule: one request per second.
pub const DEFAULT_S2_INTERVAL_MS: u64 = 1000;

/// How often and how concurrently one service may be asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Minimum time between the starts of two sends, in milliseconds.
    pub min_interval_ms: u64,
    /// Most requests in flight at once (across all tabs).
    pub max_in_flight: u32,
}

/// The limits for `service`: `mailto` says whether a contact address is
/// sent (Crossref's polite pool), `s2_interval_ms` is the user's setting
/// for Semantic Scholar (at least 1 ms).
pub fn limits(service: Service, mailto: bool, s2_interval_ms: u64) -> Limits {
    match service {
        Service::SemanticScholar | Service::Asta => Limits {
            min_interval_ms: s2_interval_ms.max(1),
            max_in_flight: 1,
        },
        // 10/s with 3 in flight in the polite pool; 5/s with 1 in the public one.
        Service::Crossref if mailto => Limits {
            min_interval_ms: 100,
            max_in_flight: 3,
        },
        Service::Crossref => Limits {
            min_interval_ms: 200,
            max_in_flight: 1,
        },
        Service::OpenAlex => Limits {
            min_interval_ms: 100,
            max_in_flight: 1,
        },
        Service::Arxiv => Limits {
            min_interval_ms: 3000,
            max_in_flight: 1,
        },
        // DataCite: 3,000 requests per 5 minutes per client (its REST API guide).
        Service::DataCite => Limits {
            min_interval_ms: 100,
            max_in_flight: 1,
        },
        // DBLP asks for moderation and answers bursts with 429 and a Retry-After.
        Service::Dblp => Limits {
            min_interval_ms: 1000,
            max_in_flight: 1,
        },
    }
}

/// A pacing lane: one service, or one class of its requests when the
/// service limits them separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lane {
    /// The service.
    pub service: Service,
    /// A Crossref list query (`query…` or `filter=`), limited apart from
    /// single-DOI lookups since December 2025.
    pub list: bool,
}

/// Whether `req` is a Crossref list query: `/works?` with a `query…` or
/// `filter` parameter (searches and `filter=doi:` batches).
pub fn is_crossref_list(req: &Request) -> bool {
    if req.service != Service::Crossref {
        return false;
    }
    let (base, query) = split_url(&req.url);
    base.ends_with("/works")
        && query
            .iter()
            .any(|(k, _)| k.starts_with("query") || k == "filter")
}

/// The lane `req` is paced in.
pub fn lane(req: &Request) -> Lane {
    Lane {
        service: req.service,
        list: is_crossref_list(req),
    }
}

/// The limits of one lane. Crossref since December 2025: list queries one
/// per second in the public pool and three with a contact address
/// (`mailto`); single-DOI lookups five and ten per second. Crossref sends
/// no rate-limit header a page can read cross-origin, so these documented
/// numbers are all there is to pace by.
pub fn lane_limits(lane: Lane, mailto: bool, s2_interval_ms: u64) -> Limits {
    match lane {
        Lane {
            service: Service::Crossref,
            list: true,
        } => Limits {
            min_interval_ms: if mailto { 334 } else { 1000 },
            max_in_flight: 1,
        },
        Lane { service, .. } => limits(service, mailto, s2_interval_ms),
    }
}

/// The earliest time (ms) the next send may start, given the start of the
/// last send to the same service (`None`: never) and the current time.
///
/// Never earlier than `now`, and never more than one interval after it, so
/// a last-send time in the future (clock skew) cannot stall a run.
pub fn next_send_at(last_send: Option<f64>, now: f64, limits: &Limits) -> f64 {
    let interval = limits.min_interval_ms as f64;
    match last_send.filter(|t| t.is_finite()) {
        Some(last) => (last + interval).max(now).min(now + interval),
        None => now,
    }
}

/// A failed attempt, as far as retrying is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// HTTP 429, with the `Retry-After` delay when it could be read.
    RateLimited {
        /// The delay the service asked for, in milliseconds.
        retry_after_ms: Option<u64>,
    },
    /// HTTP 5xx.
    Server,
    /// No readable response: offline, DNS, or blocked by CORS.
    Network,
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Send the same request again after this many milliseconds.
    Retry {
        /// The wait before the next try.
        after_ms: u64,
    },
    /// Stop and report the last failure for this request.
    GiveUp,
    /// Stop and treat the service as unreachable for the rest of the run.
    Unavailable,
}

/// The retry table's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries per request for rate limits and server errors, the first included.
    pub max_tries: u32,
    /// Wait after a 429 without a readable `Retry-After`.
    pub default_retry_after_ms: u64,
    /// First back-off after a server or network failure; doubled per try.
    pub backoff_ms: u64,
    /// Longest wait ever taken (a `Retry-After` of an hour is capped).
    pub max_wait_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_tries: 3,
            default_retry_after_ms: 5000,
            backoff_ms: 1000,
            max_wait_ms: 60_000,
        }
    }
}

impl RetryPolicy {
    /// The step after `tries` attempts (1 after the first) ended in `fault`.
    pub fn next_step(&self, fault: Fault, tries: u32) -> Step {
        let backoff = |n: u32| {
            let shift = n.saturating_sub(1).min(16);
            self.backoff_ms
                .saturating_mul(1u64 << shift)
                .min(self.max_wait_ms)
        };
        match fault {
            Fault::RateLimited { .. } | Fault::Server if tries >= self.max_tries => Step::GiveUp,
            Fault::RateLimited { retry_after_ms } => Step::Retry {
                after_ms: retry_after_ms
                    .unwrap_or(self.default_retry_after_ms)
                    .min(self.max_wait_ms),
            },
            Fault::Server => Step::Retry {
                after_ms: backoff(tries),
            },
            // One back-off, then the service is out for the run.
            Fault::Network if tries >= 2 => Step::Unavailable,
            Fault::Network => Step::Retry {
                after_ms: backoff(1),
            },
        }
    }
}

/// First wait after an unreadable Semantic Scholar answer: 5 s, doubled per try.
pub const S2_UNREADABLE_BACKOFF_MS: u64 = 5000;
/// Waits after unreadable Semantic Scholar answers before it is declared
/// unavailable (5 → 10 → 20 → 40 s with the default base).
pub const S2_UNREADABLE_WAITS: u32 = 4;

/// The step after `tries` attempts of a request to `service` ended in
/// `fault`, with the services' known behaviour on top of the general table:
///
/// - Semantic Scholar's gateway answers 429 (and 403 for a bad or pruned
///   key) without `Access-Control-Allow-Origin`, so a browser sees no
///   readable response where there was a rate limit. An unreadable S2
///   answer is therefore waited out like a rate limit: `s2_backoff_ms`,
///   doubled per try, [`S2_UNREADABLE_WAITS`] times, before S2 is
///   unavailable for the run.
/// - OpenAlex answers 429 when the day's budget of a keyless caller is
///   spent; it comes back at midnight UTC, so OpenAlex is unavailable for
///   the run at once instead of being retried request by request.
pub fn service_step(
    policy: &RetryPolicy,
    service: Service,
    fault: Fault,
    tries: u32,
    s2_backoff_ms: u64,
) -> Step {
    match (service, fault) {
        _ if day_spent(service, fault) => Step::Unavailable,
        (Service::SemanticScholar, Fault::Network) if tries > S2_UNREADABLE_WAITS => {
            Step::Unavailable
        }
        (Service::SemanticScholar, Fault::Network) => {
            let shift = tries.saturating_sub(1).min(16);
            Step::Retry {
                after_ms: s2_backoff_ms.saturating_mul(1u64 << shift),
            }
        }
        _ => policy.next_step(fault, tries),
    }
}

/// When a spent daily allowance comes back, in words ([`day_spent`]).
pub const DAY_RESETS: &str = "midnight UTC";

/// Whether `fault` means `service`'s allowance for the day is spent: an
/// OpenAlex 429 (its keyless budget; back at [`DAY_RESETS`]).
pub fn day_spent(service: Service, fault: Fault) -> bool {
    matches!(
        (service, fault),
        (Service::OpenAlex, Fault::RateLimited { .. })
    )
}

/// The fault of an HTTP status, if it is one that may be retried.
pub fn fault_of(status: u16, retry_after_ms: Option<u64>) -> Option<Fault> {
    match status {
        0 => Some(Fault::Network),
        429 => Some(Fault::RateLimited { retry_after_ms }),
        500..=599 => Some(Fault::Server),
        _ => None,
    }
}

/// Whether a browser sends a CORS preflight (`OPTIONS`) before `req`: a
/// method other than GET, HEAD and POST, a header outside the CORS
/// safelist (`x-api-key`), or a `content-type` other than the three a form
/// may send (`application/json` is not one of them). A preflight the
/// service does not answer with CORS headers fails the request before it
/// is sent, and the page sees the same opaque error as for a blocked
/// answer.
pub fn needs_preflight(req: &Request) -> bool {
    req.headers.iter().any(|(k, v)| {
        let k = k.to_ascii_lowercase();
        match k.as_str() {
            "accept" | "accept-language" | "content-language" => v.len() > 128,
            "content-type" => {
                let essence = v
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                !matches!(
                    essence.as_str(),
                    "application/x-www-form-urlencoded" | "multipart/form-data" | "text/plain"
                )
            }
            _ => true,
        }
    })
}

/// What a session has seen so far, as far as reading a failure goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// A request to this service that needed a preflight got a readable
    /// answer: its preflights pass, so a later unreadable answer is not one.
    pub preflight_passed: bool,
}

/// What to do after an attempt failed, service by service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Send the same request again after this many milliseconds.
    Retry {
        /// The wait before the next try.
        after_ms: u64,
    },
    /// Stop and report the last failure for this request.
    GiveUp,
    /// Stop and treat the service as unreachable for the rest of the run.
    Unavailable,
    /// The request's CORS preflight most likely failed (it needs one and no
    /// preflight to the service has passed this session): a keyed request
    /// blames the key's header, a keyless one is sent in its simple form
    /// instead (Semantic Scholar's batch becomes one GET per id). The
    /// service itself stays usable.
    PreflightFailed,
}

impl From<Step> for Action {
    fn from(s: Step) -> Self {
        match s {
            Step::Retry { after_ms } => Action::Retry { after_ms },
            Step::GiveUp => Action::GiveUp,
            Step::Unavailable => Action::Unavailable,
        }
    }
}

impl RetryPolicy {
    /// The action after `tries` attempts (1 after the first) of `req` ended
    /// in `fault`, by the service's own rules:
    ///
    /// - an unreadable answer to a request that needs a preflight, when no
    ///   preflight to the service has passed, is retried once and then
    ///   read as a failed preflight;
    /// - everything else follows [`service_step`] (Semantic Scholar's
    ///   unreadable answers back off 5, 10, 20, 40 s; an OpenAlex 429 ends
    ///   it for the run; the general table for the rest).
    pub fn action(
        &self,
        req: &Request,
        fault: Fault,
        tries: u32,
        seen: Seen,
        s2_backoff_ms: u64,
    ) -> Action {
        match (req.service, fault) {
            (_, Fault::Network) if needs_preflight(req) && !seen.preflight_passed => {
                if tries >= 2 {
                    Action::PreflightFailed
                } else {
                    self.next_step(fault, tries).into()
                }
            }
            _ => service_step(self, req.service, fault, tries, s2_backoff_ms).into(),
        }
    }
}

/// Reads a `Retry-After` header given as delta-seconds (`"3"`, `" 2.5 "`)
/// and returns the wait in milliseconds (`"2.5"` → 2500). An HTTP date is
/// not read here (it needs the clock): `None`.
pub fn retry_after_delta_ms(header: &str) -> Option<u64> {
    let secs: f64 = header.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

/// The reference `s2_cache.json` key of a title: lowercased, with every
/// character other than `a`–`z` and `0`–`9` removed.
pub fn s2_title_key(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect()
}

/// Query parameters that carry credentials; never part of a key or a message.
const CREDENTIAL_PARAMS: [&str; 2] = ["api_key", "mailto"];

fn split_url(url: &str) -> (&str, Vec<(String, String)>) {
    match url.split_once('?') {
        Some((base, q)) => (
            base,
            form_urlencoded::parse(q.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        ),
        None => (url, Vec::new()),
    }
}

/// The normalized title of a Semantic Scholar `/paper/search` request with
/// no year filter: the only requests stored in `s2_cache.json`'s layout.
pub fn s2_title_search(req: &Request) -> Option<String> {
    if req.service != Service::SemanticScholar || req.method != Method::Get {
        return None;
    }
    let (base, query) = split_url(&req.url);
    if !base.ends_with("/paper/search") || query.iter().any(|(k, _)| k == "year") {
        return None;
    }
    query
        .iter()
        .find(|(k, _)| k == "query")
        .map(|(_, v)| s2_title_key(v))
}

/// Why a service is out of a run when the retry rules gave it up
/// ([`Action::Unavailable`]), from its last answer: `Ok(status)`, or
/// `Err(why)` when nothing readable came back. A 429 there is OpenAlex's
/// spent daily budget, which comes back at midnight UTC. The one wording of
/// both surfaces.
pub fn unavailable_message(last: std::result::Result<u16, &str>, tries: u32) -> String {
    match last {
        Ok(429) => "answered 429: its daily request budget is spent until midnight utc; \
                    items it should check stay unverified"
            .to_string(),
        Ok(status) => format!(
            "no usable response after {tries} tries (status {status}); \
             items it should check stay unverified"
        ),
        Err(why) => format!(
            "no readable response after {tries} tries ({why}); \
             items it should check stay unverified"
        ),
    }
}

/// How long a cached "not found" (404) answer is used: seven days. A 404
/// says the service did not hold the work when asked, which stops being
/// true: a DOI is deposited days after its article appears, a new arXiv
/// paper is announced the next day, and the indexes take in new works over
/// days to weeks. A week keeps reruns within a working session free of
/// repeat requests, and a paper the user cites is asked again at most a
/// week after it was missing, so a stale 404 never stands as a verdict
/// for long. Successes do not expire: a work, once found, stays found.
pub const NOT_FOUND_KEEP_MS: f64 = 7.0 * 24.0 * 60.0 * 60.0 * 1000.0;

/// Whether a response cache keeps an answer: one that says something about
/// the literature. A success (2xx) whose body is JSON (any body from arXiv's
/// Atom feed), or a 404; never a rate limit, a server error or a success
/// body that is not JSON: a truncated or garbled body, kept, would be
/// replayed as the service's verdict on every resume. The one rule for the
/// app's and the CLI's caches.
pub fn cache_keeps(service: Service, status: u16, body: &str) -> bool {
    let success = (200..300).contains(&status);
    (success || status == 404)
        && (service == Service::Arxiv
            || !success
            || serde_json::from_str::<serde::de::IgnoredAny>(body).is_ok())
}

/// Whether a cached answer still stands at `now_ms` (milliseconds since the
/// Unix epoch, the caller's clock): a 404 for [`NOT_FOUND_KEEP_MS`] after
/// `fetched_at_ms`, any other kept answer always. A 404 with no time (a
/// cache written before 404s expired) or one from the future (a clock set
/// back) is asked again.
pub fn cache_fresh(status: u16, fetched_at_ms: Option<f64>, now_ms: f64) -> bool {
    if status != 404 {
        return true;
    }
    fetched_at_ms.is_some_and(|at| at <= now_ms && now_ms - at < NOT_FOUND_KEEP_MS)
}

/// The version of request building. Every cache key starts with
/// `v<CACHE_VERSION>|`, so an answer cached before a fix to how queries are
/// built (a zero-hit search for a query the fix changes) is never served
/// for the fixed request. Bump it whenever query building changes.
///
/// History: 2 — Semantic Scholar title queries replace a hyphen between
/// word characters with a space; arXiv versions are stripped everywhere.
pub const CACHE_VERSION: u32 = 2;

/// The cache-key prefix of Semantic Scholar title searches:
/// `v<CACHE_VERSION>|semantic_scholar|title|`.
pub fn s2_title_key_prefix() -> String {
    format!("v{CACHE_VERSION}|semantic_scholar|title|")
}

/// The cache key of a Semantic Scholar title search for `title` (any form;
/// it is normalized with [`s2_title_key`]).
pub fn s2_title_cache_key(title: &str) -> String {
    format!("{}{}", s2_title_key_prefix(), s2_title_key(title))
}

/// The normalized title of a cache key made by [`s2_title_cache_key`] (of
/// this version), for exporting in `s2_cache.json`'s layout.
pub fn s2_title_of_cache_key(key: &str) -> Option<&str> {
    key.strip_prefix(s2_title_key_prefix().as_str())
}

/// The cache key of a request: the version, service, method, URL without
/// credentials and with its query sorted, and the body. A Semantic Scholar
/// title search is keyed `v<N>|semantic_scholar|title|<normalized title>`.
pub fn cache_key(req: &Request) -> String {
    if let Some(t) = s2_title_search(req) {
        return s2_title_cache_key(&t);
    }
    let (base, mut query) = split_url(&req.url);
    query.retain(|(k, _)| !CREDENTIAL_PARAMS.contains(&k.as_str()));
    query.sort();
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in &query {
        ser.append_pair(k, v);
    }
    let method = match req.method {
        Method::Get => "GET",
        Method::Post => "POST",
    };
    let mut key = format!("v{CACHE_VERSION}|{}|{method}|{base}", req.service.name());
    let q = ser.finish();
    if !q.is_empty() {
        key.push('?');
        key.push_str(&q);
    }
    if let Some(body) = &req.body {
        key.push('|');
        key.push_str(body);
    }
    key
}

/// The request's URL with credential values replaced by `***`, for messages
/// and logs.
pub fn redact_url(url: &str) -> String {
    let (base, query) = split_url(url);
    if query.is_empty() {
        return base.to_string();
    }
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in &query {
        if CREDENTIAL_PARAMS.contains(&k.as_str()) {
            ser.append_pair(k, "***");
        } else {
            ser.append_pair(k, v);
        }
    }
    format!("{base}?{}", ser.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::works::request::{self, Endpoints, WorkId};

    fn lim(ms: u64) -> Limits {
        Limits {
            min_interval_ms: ms,
            max_in_flight: 1,
        }
    }

    fn check_next(last: Option<f64>, now: f64, interval: u64, expected: f64) {
        assert_eq!(
            next_send_at(last, now, &lim(interval)),
            expected,
            "{last:?} {now}"
        );
    }

    #[test]
    fn spacing() {
        check_next(None, 50.0, 1000, 50.0);
        check_next(Some(0.0), 200.0, 1000, 1000.0);
        check_next(Some(0.0), 1000.0, 1000, 1000.0);
        check_next(Some(0.0), 5000.0, 1000, 5000.0);
        check_next(Some(0.0), 0.0, 200, 200.0);
        // Regression: a last send far in the future (clock set back) waits one interval only.
        check_next(Some(1.0e12), 0.0, 1000, 1000.0);
        check_next(Some(f64::NAN), 7.0, 1000, 7.0);
    }

    #[test]
    fn service_limits() {
        for (s, mailto, interval, flight) in [
            (Service::SemanticScholar, true, 1000, 1),
            (Service::Crossref, false, 200, 1),
            (Service::Crossref, true, 100, 3),
            (Service::OpenAlex, false, 100, 1),
        ] {
            assert_eq!(
                limits(s, mailto, DEFAULT_S2_INTERVAL_MS),
                Limits {
                    min_interval_ms: interval,
                    max_in_flight: flight
                },
                "{s:?}"
            );
        }
        assert_eq!(
            limits(Service::SemanticScholar, false, 0).min_interval_ms,
            1
        );
    }

    fn check_step(fault: Fault, tries: u32, expected: Step) {
        assert_eq!(
            RetryPolicy::default().next_step(fault, tries),
            expected,
            "{fault:?} after {tries}"
        );
    }

    #[test]
    fn retry_table() {
        let rl = |ms| Fault::RateLimited { retry_after_ms: ms };
        check_step(rl(None), 1, Step::Retry { after_ms: 5000 });
        check_step(rl(Some(2000)), 2, Step::Retry { after_ms: 2000 });
        check_step(rl(Some(2000)), 3, Step::GiveUp);
        check_step(rl(Some(3_600_000)), 1, Step::Retry { after_ms: 60_000 });
        check_step(Fault::Server, 1, Step::Retry { after_ms: 1000 });
        check_step(Fault::Server, 2, Step::Retry { after_ms: 2000 });
        check_step(Fault::Server, 3, Step::GiveUp);
        check_step(Fault::Network, 1, Step::Retry { after_ms: 1000 });
        check_step(Fault::Network, 2, Step::Unavailable);
    }

    fn check_service_step(service: Service, fault: Fault, tries: u32, expected: Step) {
        assert_eq!(
            service_step(&RetryPolicy::default(), service, fault, tries, 5000),
            expected,
            "{service:?} {fault:?} after {tries}"
        );
    }

    #[test]
    fn services_behave_as_documented() {
        use Service::*;
        let rl = Fault::RateLimited {
            retry_after_ms: None,
        };
        // S2 unreadable: 5 → 10 → 20 → 40 s, then unavailable (issue 19, item 1).
        check_service_step(
            SemanticScholar,
            Fault::Network,
            1,
            Step::Retry { after_ms: 5000 },
        );
        check_service_step(
            SemanticScholar,
            Fault::Network,
            2,
            Step::Retry { after_ms: 10_000 },
        );
        check_service_step(
            SemanticScholar,
            Fault::Network,
            3,
            Step::Retry { after_ms: 20_000 },
        );
        check_service_step(
            SemanticScholar,
            Fault::Network,
            4,
            Step::Retry { after_ms: 40_000 },
        );
        check_service_step(SemanticScholar, Fault::Network, 5, Step::Unavailable);
        // The base is a parameter (tests and the e2e suite shrink it).
        assert_eq!(
            service_step(
                &RetryPolicy::default(),
                SemanticScholar,
                Fault::Network,
                3,
                10
            ),
            Step::Retry { after_ms: 40 }
        );
        // OpenAlex 429: the day's budget is spent; no retry (item 5).
        check_service_step(OpenAlex, rl, 1, Step::Unavailable);
        // Others keep the general table.
        check_service_step(OpenAlex, Fault::Network, 1, Step::Retry { after_ms: 1000 });
        check_service_step(OpenAlex, Fault::Network, 2, Step::Unavailable);
        check_service_step(Crossref, rl, 1, Step::Retry { after_ms: 5000 });
        check_service_step(SemanticScholar, rl, 3, Step::GiveUp);
    }

    fn check_lane(req: Request, list: bool, mailto: bool, interval: u64) {
        let l = lane(&req);
        assert_eq!(l.list, list, "{}", req.url);
        assert_eq!(
            lane_limits(l, mailto, DEFAULT_S2_INTERVAL_MS).min_interval_ms,
            interval,
            "{}",
            req.url
        );
    }

    #[test]
    fn crossref_lists_are_paced_apart() {
        let ep = Endpoints::public();
        let search = || request::search(Service::Crossref, &ep, "x", 5, None).unwrap();
        let single =
            || request::lookup(Service::Crossref, &ep, &WorkId::Doi("10.1/a".into())).unwrap();
        let batch = || {
            request::batch(Service::Crossref, &ep, &[WorkId::Doi("10.1/a".into())]).unwrap()[0]
                .clone()
        };
        check_lane(search(), true, false, 1000);
        check_lane(search(), true, true, 334);
        check_lane(batch(), true, false, 1000);
        check_lane(single(), false, false, 200);
        check_lane(single(), false, true, 100);
        let oa = request::search(Service::OpenAlex, &ep, "x", 5, None).unwrap();
        check_lane(oa, false, false, 100);
    }

    #[test]
    fn faults_and_retry_after() {
        assert_eq!(fault_of(0, None), Some(Fault::Network));
        assert_eq!(
            fault_of(429, Some(3)),
            Some(Fault::RateLimited {
                retry_after_ms: Some(3)
            })
        );
        assert_eq!(fault_of(503, None), Some(Fault::Server));
        assert_eq!(fault_of(404, None), None);
        assert_eq!(fault_of(200, None), None);
        for (h, ms) in [
            ("3", Some(3000)),
            (" 2.5 ", Some(2500)),
            ("-1", None),
            ("Wed, 21 Oct 2015 07:28:00 GMT", None),
            ("", None),
        ] {
            assert_eq!(retry_after_delta_ms(h), ms, "{h}");
        }
    }

    fn check_action(req: &Request, fault: Fault, tries: u32, seen: bool, expected: Action) {
        let seen = Seen {
            preflight_passed: seen,
        };
        assert_eq!(
            RetryPolicy::default().action(req, fault, tries, seen, S2_UNREADABLE_BACKOFF_MS),
            expected,
            "{} {fault:?} after {tries}, preflight passed {}",
            req.url,
            seen.preflight_passed
        );
    }

    #[test]
    fn preflights() {
        let public = Endpoints::public();
        let id = [WorkId::Arxiv("1706.03762".into())];
        let search = request::search(Service::SemanticScholar, &public, "x", 5, None).unwrap();
        let batch = request::batch(Service::SemanticScholar, &public, &id).unwrap();
        let keyed = request::search(Service::SemanticScholar, &ep(), "x", 5, None).unwrap();
        let crossref = request::search(Service::Crossref, &ep(), "x", 5, None).unwrap();
        for (req, expected) in [
            (&search, false),
            (&batch[0], true),
            (&keyed, true),
            (&crossref, false),
        ] {
            assert_eq!(needs_preflight(req), expected, "{req:?}");
        }
        let mut plain = batch[0].clone();
        plain.headers = vec![("Content-Type".into(), "text/plain;charset=UTF-8".into())];
        assert!(!needs_preflight(&plain));
    }

    #[test]
    fn actions_by_service() {
        let public = Endpoints::public();
        let id = [WorkId::Arxiv("1706.03762".into())];
        let s2 = request::lookup(Service::SemanticScholar, &public, &id[0]).unwrap();
        let batch = &request::batch(Service::SemanticScholar, &public, &id).unwrap()[0];
        let oa = request::search(Service::OpenAlex, &public, "x", 5, None).unwrap();
        let cr = request::search(Service::Crossref, &public, "x", 5, None).unwrap();
        let net = Fault::Network;
        let retry = |ms| Action::Retry { after_ms: ms };
        // S2: an unreadable answer may be a 429 without CORS headers.
        check_action(&s2, net, 1, false, retry(5000));
        check_action(&s2, net, 2, false, retry(10_000));
        check_action(&s2, net, 3, false, retry(20_000));
        check_action(&s2, net, 4, false, retry(40_000));
        check_action(&s2, net, 5, false, Action::Unavailable);
        // The keyless batch needs a preflight: one retry, then its simple form.
        check_action(batch, net, 1, false, retry(1000));
        check_action(batch, net, 2, false, Action::PreflightFailed);
        // Once a preflight passed, the batch backs off like any S2 request.
        check_action(batch, net, 2, true, retry(10_000));
        // OpenAlex: a 429 is the day's budget spent.
        let rl = Fault::RateLimited {
            retry_after_ms: Some(1000),
        };
        check_action(&oa, rl, 1, false, Action::Unavailable);
        check_action(&oa, net, 2, false, Action::Unavailable);
        check_action(&cr, rl, 1, false, retry(1000));
        check_action(&cr, Fault::Server, 3, false, Action::GiveUp);
        // A short base for tests halves nothing else.
        assert_eq!(
            RetryPolicy::default().action(&s2, net, 3, Seen::default(), 10),
            retry(40)
        );
    }

    fn ep() -> Endpoints {
        Endpoints {
            s2_api_key: Some("S2SECRET".into()),
            openalex_api_key: Some("OASECRET".into()),
            mailto: Some("me@x.org".into()),
            ..Endpoints::public()
        }
    }

    #[test]
    fn title_keys_match_the_reference_script() {
        // norm_key = re.sub(r"[^a-z0-9]", "", title.lower())
        for (t, k) in [
            ("Attention Is All You Need", "attentionisallyouneed"),
            ("BERT: Pre-training (2019)", "bertpretraining2019"),
            ("Schrödinger’s cat", "schrdingerscat"),
            ("", ""),
        ] {
            assert_eq!(s2_title_key(t), k, "{t}");
        }
    }

    #[test]
    fn unavailable_messages_name_the_budget_or_the_last_answer() {
        assert_eq!(unavailable_message(Ok(429), 1), "answered 429: its daily request budget is spent until midnight utc; items it should check stay unverified");
        assert_eq!(
            unavailable_message(Ok(503), 3),
            "no usable response after 3 tries (status 503); items it should check stay unverified"
        );
        assert_eq!(unavailable_message(Err("connection reset"), 2), "no readable response after 2 tries (connection reset); items it should check stay unverified");
    }

    #[test]
    fn caches_keep_what_speaks_of_the_literature() {
        use Service::*;
        for (service, status, body, kept) in [
            (Crossref, 200, "{\"message\":{}}", true),
            (Crossref, 200, "{\"message\":", false),
            (Crossref, 404, "Resource not found.", true),
            (Crossref, 429, "{}", false),
            (Crossref, 500, "{}", false),
            (Crossref, 301, "{}", false),
            (Arxiv, 200, "<feed>", true),
        ] {
            assert_eq!(
                cache_keeps(service, status, body),
                kept,
                "{service:?} {status} {body}"
            );
        }
    }

    #[test]
    fn cached_not_found_answers_expire_after_a_week() {
        let day = 24.0 * 60.0 * 60.0 * 1000.0;
        let at = 1_796_515_200_000.0;
        for (status, fetched, now, fresh) in [
            (404, Some(at), at + 6.9 * day, true),
            (404, Some(at), at + 7.0 * day, false),
            (404, Some(at), at - 1.0, false),
            (404, None, at, false),
            (200, Some(at), at + 400.0 * day, true),
            (200, None, at, true),
        ] {
            assert_eq!(
                cache_fresh(status, fetched, now),
                fresh,
                "{status} {fetched:?} {now}"
            );
        }
    }

    #[test]
    fn keys_drop_credentials() {
        let with = request::search(Service::OpenAlex, &ep(), "graph", 5, None).unwrap();
        let without =
            request::search(Service::OpenAlex, &Endpoints::public(), "graph", 5, None).unwrap();
        assert_eq!(cache_key(&with), cache_key(&without));
        assert!(!cache_key(&with).contains("OASECRET"));
        assert!(!cache_key(&with).contains("me@x.org"));
        let s2 =
            request::search(Service::SemanticScholar, &ep(), "Attention is all", 5, None).unwrap();
        assert_eq!(cache_key(&s2), "v2|semantic_scholar|title|attentionisall");
        assert_eq!(
            s2_title_of_cache_key(&cache_key(&s2)),
            Some("attentionisall")
        );
        assert_eq!(s2_title_of_cache_key("semantic_scholar|title|x"), None);
        let yr = request::search(
            Service::SemanticScholar,
            &ep(),
            "Attention",
            5,
            request::YearRange::parse("2017").ok(),
        )
        .unwrap();
        assert!(s2_title_search(&yr).is_none());
        assert!(cache_key(&yr).starts_with("v2|semantic_scholar|GET|"));
        let batch = request::batch(
            Service::SemanticScholar,
            &ep(),
            &[WorkId::Doi("10.1/a".into())],
        )
        .unwrap();
        let k = cache_key(&batch[0]);
        assert!(
            k.starts_with("v2|semantic_scholar|POST|") && k.ends_with(r#"{"ids":["DOI:10.1/a"]}"#)
        );
        assert!(!k.contains("S2SECRET"));
    }

    #[test]
    fn redaction() {
        let r = request::search(Service::OpenAlex, &ep(), "x", 5, None).unwrap();
        let red = redact_url(&r.url);
        assert!(
            !red.contains("OASECRET") && !red.contains("me%40x.org"),
            "{red}"
        );
        assert!(red.contains("api_key=***") || red.contains("api_key=%2A%2A%2A"));
        assert_eq!(redact_url("https://a.test/x"), "https://a.test/x");
    }
}
