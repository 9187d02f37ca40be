//! BibTeX: reading any `.bib` tolerantly, writing `refs.bib`, and the four check layers.

pub mod existence;
pub mod format;
pub mod matching;
pub mod parse;
pub mod write;
