//! Error bodies of the literature APIs, read into one typed [`ApiError`].
//!
//! Each service says "no" in its own dialect: Semantic Scholar answers
//! `{"error": …}` from its own servers and `{"message": …, "code": …}` from
//! the gateway in front of them; Crossref sends a plain-text 404 and a JSON
//! `validation-failure` 400; OpenAlex sends `{"error": …, "message": …}`. The
//! kind is decided by the HTTP status alone, because that is the one thing all
//! services agree on; the body only supplies the human sentence. A body that
//! cannot be read still yields an error of the right kind, so a caller never
//! has to treat an error response as a parse failure.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A literature service citegate talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Service {
    /// Semantic Scholar Graph API.
    SemanticScholar,
    /// OpenAlex.
    #[serde(rename = "openalex")]
    OpenAlex,
    /// Crossref REST API.
    Crossref,
    /// arXiv export API (not callable from a browser).
    Arxiv,
    /// ASTA (needs a key and a relay).
    Asta,
    /// DataCite REST API (Zenodo, figshare, arXiv's own DOIs…).
    #[serde(rename = "datacite")]
    DataCite,
    /// DBLP's publication search.
    Dblp,
}

impl Service {
    /// Short stable name, as used in JSON output (`semantic_scholar`, `openalex`, …).
    pub fn name(self) -> &'static str {
        match self {
            Service::SemanticScholar => "semantic_scholar",
            Service::OpenAlex => "openalex",
            Service::Crossref => "crossref",
            Service::Arxiv => "arxiv",
            Service::Asta => "asta",
            Service::DataCite => "datacite",
            Service::Dblp => "dblp",
        }
    }

    /// Name for people (`Semantic Scholar`).
    pub fn label(self) -> &'static str {
        match self {
            Service::SemanticScholar => "Semantic Scholar",
            Service::OpenAlex => "OpenAlex",
            Service::Crossref => "Crossref",
            Service::Arxiv => "arXiv",
            Service::Asta => "ASTA",
            Service::DataCite => "DataCite",
            Service::Dblp => "DBLP",
        }
    }
}

impl fmt::Display for Service {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What kind of failure an API reported, decided by the HTTP status.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ApiErrorKind {
    /// 429: too many requests; wait and retry.
    RateLimited,
    /// 400 or 422: the request itself is wrong (bad field, bad filter, bad id).
    BadRequest,
    /// 401 or 403: missing or invalid credentials.
    Forbidden,
    /// 404: the work or route does not exist.
    NotFound,
    /// 5xx: the service failed; retrying later may help.
    Server,
    /// Status 0: no response could be read (network failure, or a browser
    /// blocked the response because it lacked CORS headers).
    Network,
    /// A success status whose body is not the expected shape.
    Malformed,
    /// Any other status.
    Other,
}

impl ApiErrorKind {
    /// The kind for an HTTP status (`0` means no response was read).
    pub fn from_status(status: u16) -> Self {
        match status {
            0 => ApiErrorKind::Network,
            429 => ApiErrorKind::RateLimited,
            400 | 422 => ApiErrorKind::BadRequest,
            401 | 403 => ApiErrorKind::Forbidden,
            404 | 410 => ApiErrorKind::NotFound,
            500..=599 => ApiErrorKind::Server,
            200..=299 => ApiErrorKind::Malformed,
            _ => ApiErrorKind::Other,
        }
    }

    /// Whether the same request may succeed later unchanged.
    pub fn is_transient(self) -> bool {
        matches!(
            self,
            ApiErrorKind::RateLimited | ApiErrorKind::Server | ApiErrorKind::Network
        )
    }

    fn describe(self) -> &'static str {
        match self {
            ApiErrorKind::RateLimited => "rate limited",
            ApiErrorKind::BadRequest => "bad request",
            ApiErrorKind::Forbidden => "forbidden",
            ApiErrorKind::NotFound => "not found",
            ApiErrorKind::Server => "server error",
            ApiErrorKind::Network => "no response",
            ApiErrorKind::Malformed => "malformed response",
            ApiErrorKind::Other => "unexpected status",
        }
    }
}

/// An error answered by (or about) one service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ApiError {
    /// Which service.
    pub service: Service,
    /// HTTP status (0 when no response was read).
    pub status: u16,
    /// What kind of failure.
    pub kind: ApiErrorKind,
    /// The service's own words, trimmed (may be empty).
    pub message: String,
}

impl ApiError {
    /// A new error; the kind follows from the status.
    pub fn new(service: Service, status: u16, message: impl Into<String>) -> Self {
        ApiError {
            service,
            status,
            kind: ApiErrorKind::from_status(status),
            message: message.into(),
        }
    }

    /// A success response whose body could not be read as expected.
    pub fn malformed(service: Service, status: u16, message: impl Into<String>) -> Self {
        ApiError {
            service,
            status,
            kind: ApiErrorKind::Malformed,
            message: message.into(),
        }
    }

    /// This error as the core's general [`crate::Error`] (kind `Api`).
    pub fn to_error(&self) -> crate::Error {
        crate::Error::new(crate::ErrorKind::Api, self.to_string())
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} answered {} ({})",
            self.service.name(),
            self.status,
            self.kind.describe()
        )?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

/// Longest service message kept, in characters (HTML error pages are long).
const MAX_MESSAGE: usize = 300;

/// Reads an error response of `service` with HTTP `status` into an [`ApiError`].
///
/// The kind comes from the status; the message from the body: `error` and
/// `message` strings (both, joined, when both are present and differ), a
/// Crossref `message` list of `{message}` items, or else the trimmed text.
pub fn parse_error(service: Service, status: u16, body: &str) -> ApiError {
    ApiError::new(service, status, body_message(body))
}

fn body_message(body: &str) -> String {
    let text = body.trim();
    let msg = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(map)) => {
            let error = map.get("error").and_then(string_of);
            let message = map.get("message").and_then(|m| match m {
                serde_json::Value::Array(items) => {
                    let parts: Vec<String> = items
                        .iter()
                        .filter_map(|i| match i {
                            serde_json::Value::Object(o) => o.get("message").and_then(string_of),
                            other => string_of(other),
                        })
                        .collect();
                    (!parts.is_empty()).then(|| parts.join("; "))
                }
                other => string_of(other),
            });
            match (error, message) {
                (Some(e), Some(m)) if e != m => format!("{e}: {m}"),
                (Some(e), _) => e,
                (None, Some(m)) => m,
                (None, None) => text.to_string(),
            }
        }
        Ok(serde_json::Value::String(s)) => s,
        _ => text.to_string(),
    };
    let msg = msg.trim();
    if msg.chars().count() > MAX_MESSAGE {
        let cut: String = msg.chars().take(MAX_MESSAGE).collect();
        format!("{cut}…")
    } else {
        msg.to_string()
    }
}

fn string_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(service: Service, status: u16, body: &str, kind: ApiErrorKind, message: &str) {
        let e = parse_error(service, status, body);
        assert_eq!(e.kind, kind, "{body}");
        assert_eq!(e.message, message, "{body}");
        assert_eq!(e.status, status);
        assert_eq!(e.service, service);
    }

    #[test]
    fn error_bodies() {
        use ApiErrorKind::*;
        use Service::*;
        check(
            SemanticScholar,
            404,
            r#"{"error":"Paper with id 0 not found"}"#,
            NotFound,
            "Paper with id 0 not found",
        );
        check(
            SemanticScholar,
            403,
            r#"{"message":"Forbidden"}"#,
            Forbidden,
            "Forbidden",
        );
        check(
            SemanticScholar,
            429,
            r#"{"message": "Too Many Requests.", "code": "429"}"#,
            RateLimited,
            "Too Many Requests.",
        );
        check(
            Crossref,
            404,
            "Resource not found.\n",
            NotFound,
            "Resource not found.",
        );
        check(
            Crossref,
            400,
            r#"{"status":"failed","message-type":"validation-failure","message":[{"type":"x","message":"A"},{"message":"B"}]}"#,
            BadRequest,
            "A; B",
        );
        check(
            OpenAlex,
            400,
            r#"{"error":"Invalid query parameters error.","message":"filter bad"}"#,
            BadRequest,
            "Invalid query parameters error.: filter bad",
        );
        check(OpenAlex, 503, "", Server, "");
        check(OpenAlex, 0, "", Network, "");
        check(
            Crossref,
            418,
            "<html>teapot</html>",
            Other,
            "<html>teapot</html>",
        );
        check(Crossref, 500, r#""oops""#, Server, "oops");
    }

    #[test]
    fn long_html_body_is_cut() {
        let body = "x".repeat(1000);
        let e = parse_error(Service::Crossref, 502, &body);
        assert_eq!(e.message.chars().count(), MAX_MESSAGE + 1);
    }

    #[test]
    fn display_is_lowercase_prefix() {
        let e = parse_error(
            Service::SemanticScholar,
            429,
            r#"{"message":"Too Many Requests"}"#,
        );
        assert_eq!(
            e.to_string(),
            "semantic_scholar answered 429 (rate limited): Too Many Requests"
        );
        assert!(e.kind.is_transient());
    }
}
