//! One module a page. Pages are thin: they read inputs and show what the core returns.

pub mod bibtex;
pub mod coverage;
pub mod crosscheck;
pub mod discover;
pub mod library;
pub mod pool;
pub mod search;
pub mod settings;
pub mod start;
pub mod title_match;
pub mod write;
