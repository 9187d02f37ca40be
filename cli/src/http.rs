//! The blocking HTTP client: a core [`Request`] in, a core [`Reply`] out.
//!
//! One `ureq` agent (rustls, no async runtime) with a connect timeout and an
//! overall timeout per request, so a service that accepts the connection and
//! then says nothing is a failure after `timeout`, never a stall. Every
//! status comes back as a reply (`http_status_as_error` is off): deciding
//! what a 429 or a 503 means is the core's job. When no response could be
//! read — refused, timed out, dropped mid-body — the reply has status 0 and
//! a lowercase description naming the service; the URL in it has its
//! credentials replaced (`api_key=***`), and the `x-api-key` header is never
//! part of a message.

use citegate_core::fetch::queue::Reply;
use citegate_core::fetch::{redact_url, retry_after_delta_ms};
use citegate_core::works::request::{Method, Request};
use std::time::Duration;

/// Largest body read, in bytes (an OpenAlex page of 200 works is ~2 MB).
const MAX_BODY: u64 = 64 * 1024 * 1024;

/// A `Retry-After` value in ms: delta-seconds (read by the core), or an
/// HTTP date, which needs the clock (`now`); a date in the past is 0.
pub fn retry_after_ms(value: &str, now: std::time::SystemTime) -> Option<u64> {
    retry_after_delta_ms(value).or_else(|| {
        let at = httpdate::parse_http_date(value.trim()).ok()?;
        Some(
            at.duration_since(now)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0),
        )
    })
}

/// A service's answer as the relay passes it on.
pub struct Forwarded {
    /// The HTTP status.
    pub status: u16,
    /// The headers asked for that the answer carried.
    pub headers: Vec<(String, String)>,
    /// The body as sent.
    pub body: Vec<u8>,
}

/// The client; cheap to share by reference.
pub struct Client {
    agent: ureq::Agent,
    timeout_ms: u64,
}

impl Client {
    /// A client whose connects and whole requests end after `timeout_ms`.
    pub fn new(timeout_ms: u64) -> Client {
        let t = Duration::from_millis(timeout_ms.max(1));
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(t))
            .timeout_global(Some(t))
            .user_agent(concat!("citegate/", env!("CARGO_PKG_VERSION")))
            .build();
        Client {
            agent: config.into(),
            timeout_ms,
        }
    }

    /// Sends `req` as it is: its method, headers and, for a POST, its JSON body.
    fn call(&self, req: &Request) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        match req.method {
            Method::Get => {
                let mut b = self.agent.get(&req.url);
                for (k, v) in &req.headers {
                    b = b.header(k, v);
                }
                b.call()
            }
            Method::Post => {
                let mut b = self.agent.post(&req.url);
                for (k, v) in &req.headers {
                    b = b.header(k, v);
                }
                if req.body.is_some() {
                    b = b.header("content-type", "application/json");
                }
                b.send(req.body.clone().unwrap_or_default())
            }
        }
    }

    /// Sends `req` and reads the whole answer.
    pub fn send(&self, req: &Request) -> Reply {
        let result = self.call(req);
        let mut response = match result {
            Ok(r) => r,
            Err(e) => return self.failure(req, &e),
        };
        let status = response.status().as_u16();
        let retry_after_ms = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after_ms(v, std::time::SystemTime::now()));
        match response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string()
        {
            Ok(body) => Reply {
                status,
                body,
                retry_after_ms,
                blocked_by_policy: false,
            },
            // A body cut short is no answer: the status alone says nothing
            // about the work.
            Err(e) => self.failure(req, &e),
        }
    }

    /// The bytes at `url` (a paper's e-print source), or a lowercase
    /// description of why none could be read; `what` names the source.
    pub fn get_bytes(&self, url: &str, what: &str) -> Result<Vec<u8>, String> {
        let describe = |e: &ureq::Error| match e {
            ureq::Error::Timeout(_) => format!("no answer within {} ms", self.timeout_ms),
            ureq::Error::HostNotFound => "host not found".to_string(),
            ureq::Error::ConnectionFailed => "connection failed".to_string(),
            ureq::Error::Io(io) => format!("connection error: {}", io.kind()).to_lowercase(),
            other => other.to_string().to_lowercase(),
        };
        let mut response = self
            .agent
            .get(url)
            .call()
            .map_err(|e| format!("{what}: {} ({})", describe(&e), redact_url(url)))?;
        let status = response.status().as_u16();
        if status != 200 {
            return Err(format!("{what} answered {status} ({})", redact_url(url)));
        }
        response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_vec()
            .map_err(|e| format!("{what}: {} ({})", describe(&e), redact_url(url)))
    }

    /// Sends `req` and reads the answer as bytes with the headers named in
    /// `keep` (lowercase), for the relay: any body, text or an arXiv
    /// source. `Err` is a lowercase description naming the service, the
    /// URL's credentials masked.
    pub fn forward(&self, req: &Request, keep: &[&str]) -> Result<Forwarded, String> {
        let result = self.call(req);
        let mut response = result.map_err(|e| self.failure(req, &e).body)?;
        let status = response.status().as_u16();
        let headers = keep
            .iter()
            .filter_map(|k| {
                let v = response.headers().get(*k)?.to_str().ok()?;
                Some((k.to_string(), v.to_string()))
            })
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_vec()
            .map_err(|e| self.failure(req, &e).body)?;
        Ok(Forwarded {
            status,
            headers,
            body,
        })
    }

    fn failure(&self, req: &Request, e: &ureq::Error) -> Reply {
        let what = match e {
            ureq::Error::Timeout(_) => format!("no answer within {} ms", self.timeout_ms),
            ureq::Error::HostNotFound => "host not found".to_string(),
            ureq::Error::ConnectionFailed => "connection failed".to_string(),
            ureq::Error::Io(io) => format!("connection error: {}", io.kind()).to_lowercase(),
            other => other.to_string().to_lowercase(),
        };
        Reply {
            status: 0,
            body: format!("{}: {what} ({})", req.service.name(), redact_url(&req.url)),
            retry_after_ms: None,
            blocked_by_policy: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::retry_after_ms;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn retry_after_values() {
        // 2015-10-21T07:28:00Z
        let now = UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        for (value, want) in [
            ("3", Some(3000)),
            (" 0 ", Some(0)),
            ("Wed, 21 Oct 2015 07:28:30 GMT", Some(30_000)),
            ("Wed, 21 Oct 2015 07:00:00 GMT", Some(0)),
            ("soon", None),
            ("", None),
        ] {
            assert_eq!(retry_after_ms(value, now), want, "{value:?}");
        }
    }
}
