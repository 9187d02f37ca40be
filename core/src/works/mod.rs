//! Semantic Scholar, Crossref and OpenAlex bodies as one normalized `Work`.
//!
//! The browser executes requests; the core plans them and reads what came
//! back. Requests are therefore plain data ([`request::Request`]: method, URL,
//! headers, body) built from parameters that include the base URL, and every
//! response body — success or error — is read by a function of `(status,
//! body)`. Keeping both halves pure lets the same code run on recorded
//! fixtures under `cargo test` and on live responses in wasm32.

pub mod error;

pub use error::{parse_error, ApiError, ApiErrorKind, Service};
