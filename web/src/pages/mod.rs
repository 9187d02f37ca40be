//! One module a page. Pages are thin: they read inputs and show what the core returns.

pub mod not_yet;
pub mod title_match;
