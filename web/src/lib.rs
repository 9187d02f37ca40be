//! citegate's browser app.
pub mod app;
