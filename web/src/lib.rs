//! citegate's browser app: a Leptos client-side-rendered single-page app.
//!
//! The app is glue over `citegate-core`: components read inputs, call the
//! core, and show what it returns. Decisions live in the core, where native
//! tests reach them; the browser side adds only what needs a browser (files,
//! requests, storage, timing).
//!
//! Navigation uses the URL fragment (`#/match`, `#/pool`, …) so the built
//! `dist/` works from any static host and any sub-path without rewrite rules.
//!
//! The app ships as two modules (`split`): a small start module that index.html
//! loads, and the whole app, loaded when a page outside the start module opens.

pub mod api;
pub mod app;
pub mod components;
pub mod pages;
pub mod route;
pub mod services;
pub mod split;

pub use app::App;
