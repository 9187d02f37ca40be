//! Talking to a language model, as values: the HTTP request to send, the
//! streamed answer read back, and error bodies turned into clear messages.
//!
//! Two API shapes cover the providers a user is likely to have: OpenAI's
//! chat completions (`POST …/v1/chat/completions`, also served by
//! OpenRouter, Ollama, llama.cpp, vLLM and most hosted services) and
//! Anthropic's Messages API (`POST …/v1/messages`). Both stream Server-Sent
//! Events when asked with `"stream": true`: chat completions sends
//! `data: {"choices":[{"delta":{"content":"…"}}]}` lines and ends with
//! `data: [DONE]`; Messages sends typed events, the text in
//! `content_block_delta` events (`delta.type = "text_delta"`) and the end in
//! `message_stop`. [`Stream`] reads either incrementally from raw bytes, in
//! chunks of any size, and also accepts a server that ignores `stream` and
//! answers with one JSON body.
//!
//! The key goes into the request's headers for that endpoint only. The
//! request's `Debug` output hides it, and error messages replace any echo of
//! it, so neither can carry it into a log.

use crate::inert::one_line;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

use super::{Message, Role};

/// The `anthropic-version` header value the request shapes here follow.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// Output tokens asked of Anthropic's API (it requires a limit).
pub const DEFAULT_MAX_TOKENS: u32 = 8192;

/// Which API shape the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Api {
    /// OpenAI-compatible chat completions.
    #[serde(rename = "openai")]
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
}

impl Api {
    /// Parses `openai` or `anthropic`.
    pub fn parse(text: &str) -> Option<Api> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" => Some(Api::OpenAi),
            "anthropic" => Some(Api::Anthropic),
            _ => None,
        }
    }

    /// The environment variable the key is read from, by convention.
    pub fn key_variable(self) -> &'static str {
        match self {
            Api::OpenAi => "OPENAI_API_KEY",
            Api::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

/// Where and what to ask.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provider {
    /// The API shape.
    pub api: Api,
    /// The base URL (`https://api.openai.com/v1`, `http://localhost:11434`, …).
    pub base_url: String,
    /// The model name.
    pub model: String,
    /// The output limit sent to Anthropic's API.
    pub max_tokens: u32,
}

/// An HTTP request as a value.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// Always `POST` here.
    pub method: &'static str,
    /// The full URL.
    pub url: String,
    /// Header names (lowercase) and values; the key is among them.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: String,
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(k, v)| {
                let secret = k == "authorization" || k == "x-api-key";
                (k.as_str(), if secret { "[hidden]" } else { v.as_str() })
            })
            .collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body_len", &self.body.len())
            .finish()
    }
}

/// Why the endpoint could not be used, in a class a program can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The base URL is not an http(s) URL.
    BadUrl,
    /// 401/403: the key was refused.
    BadKey,
    /// 429: rate limited or out of quota.
    RateLimit,
    /// The prompt does not fit the model's context.
    ContextLength,
    /// 404: wrong base URL or model name.
    NotFound,
    /// 529 or `overloaded_error`: the service is busy.
    Overloaded,
    /// Another 5xx.
    Server,
    /// The stream broke off or could not be read.
    Stream,
    /// Any other error answer.
    Other,
}

/// An error from the model endpoint, with a message for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderError {
    /// The class.
    pub failure: Failure,
    /// The HTTP status, if there was one.
    pub status: Option<u16>,
    /// What happened and what to do, lowercase, no final period.
    pub message: String,
}

impl ProviderError {
    fn new(failure: Failure, status: Option<u16>, message: impl Into<String>) -> Self {
        ProviderError {
            failure,
            status,
            message: message.into(),
        }
    }

    /// Whether asking again later may succeed.
    pub fn retryable(&self) -> bool {
        matches!(
            self.failure,
            Failure::RateLimit | Failure::Overloaded | Failure::Server | Failure::Stream
        )
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn endpoint(base: &str, api: Api) -> Result<String, ProviderError> {
    let b = base.trim().trim_end_matches('/');
    let lower = b.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) || b.len() < 9 {
        return Err(ProviderError::new(
            Failure::BadUrl,
            None,
            format!(
                "the model base url `{}` must start with http:// or https://",
                one_line(base)
            ),
        ));
    }
    let path = match api {
        Api::OpenAi => "/chat/completions",
        Api::Anthropic => "/messages",
    };
    Ok(if lower.ends_with(path) {
        b.to_string()
    } else if lower.ends_with("/v1") {
        format!("{b}{path}")
    } else {
        format!("{b}/v1{path}")
    })
}

/// The streaming request for `messages`.
///
/// ```
/// use citegate_core::write::provider::{request, Api, Provider};
/// use citegate_core::write::{Message, Role};
/// let p = Provider { api: Api::OpenAi, base_url: "http://localhost:11434".into(), model: "llama3".into(), max_tokens: 8192 };
/// let r = request(&p, &[Message { role: Role::User, content: "hi".into() }], "").unwrap();
/// assert_eq!(r.url, "http://localhost:11434/v1/chat/completions");
/// assert!(r.body.contains("\"stream\":true"));
/// ```
pub fn request(
    p: &Provider,
    messages: &[Message],
    key: &str,
) -> Result<HttpRequest, ProviderError> {
    let url = endpoint(&p.base_url, p.api)?;
    let mut headers = vec![
        ("content-type".to_string(), "application/json".to_string()),
        ("accept".to_string(), "text/event-stream".to_string()),
    ];
    let key = key.trim();
    let body = match p.api {
        Api::OpenAi => {
            if !key.is_empty() {
                headers.push(("authorization".into(), format!("Bearer {key}")));
            }
            let msgs: Vec<Value> = messages
                .iter()
                .map(|m| json!({"role": m.role, "content": m.content}))
                .collect();
            json!({"model": p.model, "messages": msgs, "stream": true})
        }
        Api::Anthropic => {
            if !key.is_empty() {
                headers.push(("x-api-key".into(), key.to_string()));
            }
            headers.push(("anthropic-version".into(), ANTHROPIC_VERSION.into()));
            // Without it Anthropic refuses a request made from a web page (CORS).
            headers.push((
                "anthropic-dangerous-direct-browser-access".into(),
                "true".into(),
            ));
            let system: Vec<&str> = messages
                .iter()
                .filter(|m| m.role == Role::System)
                .map(|m| m.content.as_str())
                .collect();
            let msgs: Vec<Value> = messages
                .iter()
                .filter(|m| m.role != Role::System)
                .map(|m| json!({"role": m.role, "content": m.content}))
                .collect();
            let mut body = json!({"model": p.model, "max_tokens": p.max_tokens, "messages": msgs, "stream": true});
            if !system.is_empty() {
                body["system"] = Value::String(system.join("\n\n"));
            }
            body
        }
    };
    Ok(HttpRequest {
        method: "POST",
        url,
        headers,
        body: body.to_string(),
    })
}

/// The human part of an error body: `error.message`, `error` as a string,
/// `message` or `detail`; else the body itself, shortened.
fn error_detail(body: &str) -> String {
    let v: Option<Value> = serde_json::from_str(body).ok();
    let pick = v.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let text = pick.unwrap_or_else(|| body.trim().to_string());
    let mut t = one_line(&text);
    if t.chars().count() > 300 {
        t = t.chars().take(300).collect::<String>() + "…";
    }
    t
}

fn error_code(body: &str) -> String {
    let v: Option<Value> = serde_json::from_str(body).ok();
    v.as_ref()
        .and_then(|v| {
            v.pointer("/error/code")
                .or_else(|| v.pointer("/error/type"))
                .and_then(Value::as_str)
        })
        .unwrap_or("")
        .to_string()
}

fn is_context_length(detail: &str, code: &str) -> bool {
    let d = detail.to_lowercase();
    code == "context_length_exceeded"
        || [
            "context length",
            "context_length",
            "context window",
            "maximum context",
            "prompt is too long",
            "too many tokens",
            "reduce the length",
            "exceeds the context",
        ]
        .iter()
        .any(|n| d.contains(n))
}

/// Replaces every occurrence of the key (when it is long enough to be one) in `text`.
pub fn redact(text: &str, key: &str) -> String {
    let key = key.trim();
    if key.len() < 8 {
        text.to_string()
    } else {
        text.replace(key, "[key]")
    }
}

/// An error answer (status ≥ 400, or an error event in a stream) as a clear message.
///
/// ```
/// use citegate_core::write::provider::{error_from_response, Api, Failure};
/// let e = error_from_response(Api::Anthropic, 429,
///     r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#, "");
/// assert_eq!(e.failure, Failure::RateLimit);
/// assert!(e.message.starts_with("rate limited by the model endpoint (http 429)"));
/// ```
pub fn error_from_response(_api: Api, status: u16, body: &str, key: &str) -> ProviderError {
    let detail = redact(&error_detail(body), key);
    let code = error_code(body);
    let s = Some(status);
    if is_context_length(&detail, &code) {
        return ProviderError::new(
            Failure::ContextLength,
            s,
            format!("the prompt is too long for this model (http {status}): {detail}; choose a model with a longer context, or shorten the idea, the log or the pool"),
        );
    }
    match status {
        401 | 403 => ProviderError::new(
            Failure::BadKey,
            s,
            format!("the model endpoint refused the api key (http {status}): {detail}; check the key and that it belongs to this endpoint"),
        ),
        429 if code == "insufficient_quota" => ProviderError::new(
            Failure::RateLimit,
            s,
            format!("the account has no quota left (http 429): {detail}"),
        ),
        429 => ProviderError::new(
            Failure::RateLimit,
            s,
            format!("rate limited by the model endpoint (http 429): {detail}; wait a minute and ask again"),
        ),
        404 => ProviderError::new(
            Failure::NotFound,
            s,
            format!("the model endpoint answered 404: {detail}; check the base url and the model name"),
        ),
        529 => ProviderError::new(Failure::Overloaded, s, format!("the model service is overloaded (http 529): {detail}; ask again later")),
        _ if code == "overloaded_error" => {
            ProviderError::new(Failure::Overloaded, s, format!("the model service is overloaded: {detail}; ask again later"))
        }
        500..=599 => ProviderError::new(Failure::Server, s, format!("the model endpoint failed (http {status}): {detail}")),
        _ => ProviderError::new(Failure::Other, s, format!("the model endpoint answered http {status}: {detail}")),
    }
}

/// One Server-Sent Event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// An incremental Server-Sent Events reader: feed it bytes as they come.
#[derive(Debug, Default, Clone)]
pub struct SseParser {
    buf: Vec<u8>,
    event: Option<String>,
    data: Option<String>,
}

impl SseParser {
    /// Reads `bytes` and returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < self.buf.len() {
            let c = self.buf[i];
            if c == b'\n' || c == b'\r' {
                if c == b'\r' && i + 1 == self.buf.len() {
                    break; // a \r\n may be split across chunks
                }
                let line = String::from_utf8_lossy(&self.buf[start..i]).into_owned();
                self.line(&line, &mut out);
                i += if c == b'\r' && self.buf.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            } else {
                i += 1;
            }
        }
        self.buf.drain(..start);
        out
    }

    /// Ends the stream: a last event not followed by a blank line is still dispatched.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.buf.is_empty() {
            let line = String::from_utf8_lossy(&self.buf)
                .trim_end_matches('\r')
                .to_string();
            self.buf.clear();
            self.line(&line, &mut out);
        }
        self.line("", &mut out);
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                out.push(SseEvent {
                    event: self.event.take(),
                    data,
                });
            }
            self.event = None;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => match &mut self.data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            "event" => self.event = Some(value.to_string()),
            _ => {}
        }
    }
}

/// A streamed answer being read: text so far, and whether the model finished.
#[derive(Debug, Clone)]
pub struct Stream {
    api: Api,
    key: String,
    sse: SseParser,
    json_body: Option<Vec<u8>>,
    started: bool,
    text: String,
    done: bool,
    stop_reason: Option<String>,
    error: Option<ProviderError>,
}

impl Stream {
    /// A reader for an answer from `api`; `key` is only used to redact echoes of it.
    pub fn new(api: Api, key: &str) -> Self {
        Stream {
            api,
            key: key.to_string(),
            sse: SseParser::default(),
            json_body: None,
            started: false,
            text: String::new(),
            done: false,
            stop_reason: None,
            error: None,
        }
    }

    /// Reads more bytes of a 2xx response body; returns the text they add.
    /// An error event in the stream is returned as the error.
    pub fn push(&mut self, bytes: &[u8]) -> Result<String, ProviderError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if !self.started {
            if let Some(first) = bytes.iter().find(|b| !b.is_ascii_whitespace()) {
                self.started = true;
                if *first == b'{' {
                    self.json_body = Some(Vec::new());
                }
            }
        }
        if let Some(body) = &mut self.json_body {
            body.extend_from_slice(bytes);
            return Ok(String::new());
        }
        let events = self.sse.push(bytes);
        self.events(events)
    }

    fn events(&mut self, events: Vec<SseEvent>) -> Result<String, ProviderError> {
        let mut added = String::new();
        for ev in events {
            match self.event(&ev) {
                Ok(t) => added.push_str(&t),
                Err(e) => {
                    self.error = Some(e.clone());
                    return Err(e);
                }
            }
        }
        self.text.push_str(&added);
        Ok(added)
    }

    fn event(&mut self, ev: &SseEvent) -> Result<String, ProviderError> {
        let data = ev.data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(String::new());
        }
        let Ok(v) = serde_json::from_str::<Value>(data) else {
            return Ok(String::new()); // keep-alives and other non-JSON lines
        };
        if v.get("error").is_some()
            || v.get("type").and_then(Value::as_str) == Some("error")
            || ev.event.as_deref() == Some("error")
        {
            let status = match v.pointer("/error/type").and_then(Value::as_str) {
                Some("overloaded_error") => 529,
                Some("rate_limit_error") => 429,
                Some("authentication_error") => 401,
                _ => v
                    .pointer("/error/code")
                    .and_then(Value::as_u64)
                    .and_then(|c| u16::try_from(c).ok())
                    .unwrap_or(500),
            };
            let mut e = error_from_response(self.api, status, data, &self.key);
            e.message = format!("{} (reported in the stream)", e.message);
            return Err(e);
        }
        match self.api {
            Api::OpenAi => {
                if let Some(r) = v
                    .pointer("/choices/0/finish_reason")
                    .and_then(Value::as_str)
                {
                    self.stop_reason = Some(r.to_string());
                }
                Ok(v.pointer("/choices/0/delta/content")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string())
            }
            Api::Anthropic => match v.get("type").and_then(Value::as_str) {
                Some("content_block_delta") => Ok(
                    if v.pointer("/delta/type").and_then(Value::as_str) == Some("text_delta") {
                        v.pointer("/delta/text")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string()
                    } else {
                        String::new()
                    },
                ),
                Some("message_delta") => {
                    if let Some(r) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                        self.stop_reason = Some(r.to_string());
                    }
                    Ok(String::new())
                }
                Some("message_stop") => {
                    self.done = true;
                    Ok(String::new())
                }
                _ => Ok(String::new()),
            },
        }
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why the model stopped (`stop`, `length`, `end_turn`, `max_tokens`), if it said.
    pub fn stop_reason(&self) -> Option<&str> {
        self.stop_reason.as_deref()
    }

    /// Ends the body: the whole answer, or why there is none. A stream that
    /// ends without its end marker broke off; one that stopped at the output
    /// limit is returned as it is (the LaTeX check then reports the cut).
    pub fn finish(&mut self) -> Result<String, ProviderError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if let Some(body) = self.json_body.take() {
            let text = String::from_utf8_lossy(&body);
            let v: Value = serde_json::from_str(&text).map_err(|_| {
                ProviderError::new(
                    Failure::Stream,
                    None,
                    "the model endpoint's answer is neither an event stream nor JSON",
                )
            })?;
            if v.get("error").is_some() {
                return Err(error_from_response(self.api, 500, &text, &self.key));
            }
            let content = match self.api {
                Api::OpenAi => v
                    .pointer("/choices/0/message/content")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                Api::Anthropic => v.get("content").and_then(Value::as_array).map(|blocks| {
                    blocks
                        .iter()
                        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                        .filter_map(|b| b.get("text").and_then(Value::as_str))
                        .collect::<String>()
                }),
            };
            self.done = true;
            self.text = content.ok_or_else(|| {
                ProviderError::new(
                    Failure::Stream,
                    None,
                    "the model endpoint's JSON answer holds no message text",
                )
            })?;
            return Ok(self.text.clone());
        }
        let events = self.sse.finish();
        self.events(events)?;
        if !self.done && self.stop_reason.is_none() {
            return Err(ProviderError::new(
                Failure::Stream,
                None,
                "the answer stream broke off before the model finished; ask again",
            ));
        }
        Ok(self.text.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(api: Api, base: &str) -> Provider {
        Provider {
            api,
            base_url: base.into(),
            model: "m".into(),
            max_tokens: 100,
        }
    }

    #[test]
    fn endpoints() {
        let check = |api, base: &str, want: Result<&str, ()>| {
            assert_eq!(
                endpoint(base, api).as_deref().map_err(|_| ()),
                want,
                "{base}"
            );
        };
        check(
            Api::OpenAi,
            "https://api.openai.com/v1",
            Ok("https://api.openai.com/v1/chat/completions"),
        );
        check(
            Api::OpenAi,
            "https://openrouter.ai/api/v1/",
            Ok("https://openrouter.ai/api/v1/chat/completions"),
        );
        check(
            Api::OpenAi,
            "http://127.0.0.1:8080",
            Ok("http://127.0.0.1:8080/v1/chat/completions"),
        );
        check(
            Api::OpenAi,
            "http://x/v1/chat/completions",
            Ok("http://x/v1/chat/completions"),
        );
        check(
            Api::Anthropic,
            "https://api.anthropic.com",
            Ok("https://api.anthropic.com/v1/messages"),
        );
        check(
            Api::Anthropic,
            "https://api.anthropic.com/v1",
            Ok("https://api.anthropic.com/v1/messages"),
        );
        check(Api::OpenAi, "api.openai.com", Err(()));
        check(Api::OpenAi, "", Err(()));
        check(Api::OpenAi, "javascript:alert(1)", Err(()));
    }

    #[test]
    fn request_shapes() {
        let msgs = [
            Message {
                role: Role::System,
                content: "rules".into(),
            },
            Message {
                role: Role::User,
                content: "go".into(),
            },
        ];
        let r = request(
            &provider(Api::OpenAi, "https://h/v1"),
            &msgs,
            "sk-secret-123",
        )
        .unwrap();
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["stream"], true);
        assert!(r
            .headers
            .contains(&("authorization".into(), "Bearer sk-secret-123".into())));
        assert!(!format!("{r:?}").contains("sk-secret-123"));

        let r = request(
            &provider(Api::Anthropic, "https://h"),
            &msgs,
            "ak-secret-456",
        )
        .unwrap();
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["system"], "rules");
        assert_eq!(body["messages"].as_array().unwrap().len(), 1);
        assert_eq!(body["max_tokens"], 100);
        for h in [
            ("x-api-key", "ak-secret-456"),
            ("anthropic-version", ANTHROPIC_VERSION),
            ("anthropic-dangerous-direct-browser-access", "true"),
        ] {
            assert!(r.headers.contains(&(h.0.into(), h.1.into())), "{h:?}");
        }
        assert!(!format!("{r:?}").contains("ak-secret-456"));
        // No key (a local server): no auth header at all.
        let r = request(&provider(Api::OpenAi, "http://localhost:11434"), &msgs, "").unwrap();
        assert!(r.headers.iter().all(|(k, _)| k != "authorization"));
    }

    fn check_error(api: Api, status: u16, body: &str, failure: Failure, has: &str) {
        let e = error_from_response(api, status, body, "sk-live-abcdefgh");
        assert_eq!(e.failure, failure, "{body}");
        assert!(e.message.contains(has), "{body}: {}", e.message);
        assert!(!e.message.contains("sk-live-abcdefgh"));
    }

    #[test]
    fn error_bodies() {
        use Failure::*;
        check_error(
            Api::OpenAi,
            401,
            r#"{"error":{"message":"Incorrect API key provided: sk-live-abcdefgh.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
            BadKey,
            "refused the api key (http 401): Incorrect API key provided: [key].",
        );
        check_error(
            Api::Anthropic,
            401,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
            BadKey,
            "invalid x-api-key",
        );
        check_error(
            Api::OpenAi,
            429,
            r#"{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","code":"rate_limit_exceeded"}}"#,
            RateLimit,
            "rate limited",
        );
        check_error(
            Api::OpenAi,
            429,
            r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#,
            RateLimit,
            "no quota left",
        );
        check_error(
            Api::OpenAi,
            400,
            r#"{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
            ContextLength,
            "too long for this model",
        );
        check_error(
            Api::Anthropic,
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208656 tokens > 200000 maximum"}}"#,
            ContextLength,
            "208656 tokens",
        );
        check_error(
            Api::Anthropic,
            529,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            Overloaded,
            "overloaded",
        );
        check_error(
            Api::OpenAi,
            404,
            r#"{"error":"model 'llama9' not found"}"#,
            NotFound,
            "model 'llama9' not found",
        );
        check_error(
            Api::OpenAi,
            502,
            "<html>Bad Gateway</html>",
            Server,
            "<html>Bad Gateway</html>",
        );
        check_error(Api::OpenAi, 400, "", Other, "http 400");
    }

    fn stream_all(api: Api, body: &str, chunk: usize) -> (Result<String, ProviderError>, String) {
        let mut s = Stream::new(api, "");
        let mut pieces = String::new();
        for c in body.as_bytes().chunks(chunk.max(1)) {
            match s.push(c) {
                Ok(t) => pieces.push_str(&t),
                Err(e) => return (Err(e), pieces),
            }
        }
        (s.finish(), pieces)
    }

    const OPENAI: &str = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n: keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"lo ü\"},\"finish_reason\":null}]}\r\n\r\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    const ANTHROPIC: &str = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[]}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"lo ü\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    #[test]
    fn streams_in_any_chunking() {
        for chunk in [1, 2, 3, 7, 64, 10_000] {
            for (api, body) in [(Api::OpenAi, OPENAI), (Api::Anthropic, ANTHROPIC)] {
                let (r, pieces) = stream_all(api, body, chunk);
                assert_eq!(r.unwrap(), "Hello ü", "{api:?} chunk {chunk}");
                assert_eq!(pieces, "Hello ü");
            }
        }
    }

    #[test]
    fn stream_failures() {
        // Cut before [DONE] / message_stop.
        let cut = &OPENAI[..OPENAI.find("data: {\"choices\":[{\"delta\":{},").unwrap()];
        assert_eq!(
            stream_all(Api::OpenAi, cut, 5).0.unwrap_err().failure,
            Failure::Stream
        );
        let cut = &ANTHROPIC[..ANTHROPIC.find("event: message_delta").unwrap()];
        assert_eq!(
            stream_all(Api::Anthropic, cut, 5).0.unwrap_err().failure,
            Failure::Stream
        );
        // An error event mid-stream.
        let e = stream_all(Api::Anthropic, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", 4).0.unwrap_err();
        assert_eq!(e.failure, Failure::Overloaded);
        let e = stream_all(
            Api::OpenAi,
            "data: {\"error\":{\"message\":\"Rate limit reached\",\"code\":429}}\n\n",
            4,
        )
        .0
        .unwrap_err();
        assert_eq!(e.failure, Failure::RateLimit);
        // A server that ignores "stream": one JSON body.
        let (r, _) = stream_all(
            Api::OpenAi,
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"whole\"}}]}",
            3,
        );
        assert_eq!(r.unwrap(), "whole");
        let (r, _) = stream_all(
            Api::Anthropic,
            "{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}",
            3,
        );
        assert_eq!(r.unwrap(), "ab");
        assert_eq!(
            stream_all(Api::OpenAi, "<html>", 3).0.unwrap_err().failure,
            Failure::Stream
        );
        // Stopped at the output limit: the text is kept.
        let (r, _) = stream_all(Api::OpenAi, "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"length\"}]}\n\n", 3);
        assert_eq!(r.unwrap(), "x");
    }
}
