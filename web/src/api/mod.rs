//! Clients for the literature services: the app's IO, none of its decisions.
//!
//! `citegate-core` plans every request as data
//! ([`citegate_core::works::request`]: search, lookup and batch builders that
//! place each credential where its service reads it) and reads every body
//! ([`citegate_core::works::parse_response`], `verify`, `bibtex::existence`,
//! `crossindex`). This module executes those plans and nothing else:
//!
//! - [`transport`]: the [`Transport`](transport::Transport) trait
//!   (`async fn send(&self, &Request) -> Result<RawResponse, TransportError>`),
//!   [`FetchTransport`](transport::FetchTransport) on `gloo-net` for the app,
//!   [`ScriptedTransport`](transport::ScriptedTransport) for tests.
//! - [`client`]: [`Client`](client::Client) — cache first (a hit never waits),
//!   then the browser-wide throttle, then the core's retry table; typed
//!   [`ClientError`](client::ClientError)s (`Unavailable`, `KeyPreflight`,
//!   `Api`, `Malformed`, `Invalid`) that name the service and the request.
//!   `Client::execute` returns the raw answer (any status) for callers that
//!   hand `(status, body)` to a core reader such as
//!   `bibtex::existence::outcome`; `Client::page` parses it into a `Page`.
//! - Batching (which items go in which batch request, and the title searches
//!   for the rest) is planned in the core: `verify::run::VerifyRun` (over `verify::plan_batch`) for
//!   verification, `crossindex::CrossRun` for the cross-check.
//!
//! - [`llm`]: one streamed request to a language model (the Write page).
//!
//! Pages normally do not build a client themselves: they take
//! [`Services`](crate::services::Services) from context and run
//! [`services::run`](crate::services::run) drivers.

pub mod client;
pub mod llm;
pub mod transport;

pub use client::{Client, ClientError, Fetched};
pub use transport::{FetchTransport, RawResponse, ScriptedTransport, Transport, TransportError};
