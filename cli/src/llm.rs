//! Sending one request to a language model and reading its streamed answer.
//!
//! The request is built by the core (`write::provider::request`); this module
//! only moves bytes: it posts the body with `ureq` (blocking, rustls), reads
//! the response body in chunks as they arrive and hands each chunk to the
//! core's `Stream`, so progress can be shown while the model writes. Kept
//! separate from the scholarly-API transport so each can change alone.

use citegate_core::write::provider::{
    error_from_response, Api, Failure, HttpRequest, ProviderError, Stream,
};
use std::io::Read;
use std::time::Duration;

/// A blocking client for model endpoints.
pub struct Llm {
    agent: ureq::Agent,
}

/// A failed request, with the `Retry-After` delay when the server gave one.
pub struct LlmError {
    /// What went wrong, for people and for the retry decision.
    pub error: ProviderError,
    /// Seconds the server asked to wait.
    pub retry_after: Option<u64>,
}

impl Llm {
    /// A client that waits up to 30 s to connect and as long as the model needs to answer.
    pub fn new() -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(30)))
            .build();
        Llm {
            agent: config.into(),
        }
    }

    /// Sends `req` and streams the answer, calling `progress` with the
    /// characters received so far.
    pub fn ask(
        &self,
        api: Api,
        key: &str,
        req: &HttpRequest,
        progress: &mut dyn FnMut(usize),
    ) -> Result<String, LlmError> {
        let mut builder = self.agent.post(&req.url);
        for (name, value) in &req.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        let mut response = builder.send(req.body.as_bytes()).map_err(|e| LlmError {
            error: ProviderError {
                failure: Failure::Stream,
                status: None,
                message: format!(
                    "cannot reach the model endpoint {}: {}",
                    req.url,
                    e.to_string().to_lowercase()
                ),
            },
            retry_after: None,
        })?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let mut reader = response.body_mut().as_reader();
        if status >= 400 {
            let mut body = Vec::new();
            let _ = reader.take(64 * 1024).read_to_end(&mut body);
            return Err(LlmError {
                error: error_from_response(api, status, &String::from_utf8_lossy(&body), key),
                retry_after,
            });
        }
        let mut stream = Stream::new(api, key);
        let mut buf = [0u8; 8192];
        let mut chars = 0usize;
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    return Err(LlmError {
                        error: ProviderError {
                            failure: Failure::Stream,
                            status: Some(status),
                            message: format!(
                                "the answer stream broke off: {}",
                                e.to_string().to_lowercase()
                            ),
                        },
                        retry_after: None,
                    })
                }
            };
            let added = stream.push(&buf[..n]).map_err(|error| LlmError {
                error,
                retry_after: None,
            })?;
            chars += added.chars().count();
            progress(chars);
        }
        stream.finish().map_err(|error| LlmError {
            error,
            retry_after: None,
        })
    }
}
