//! BibTeX: reading any `.bib` tolerantly, writing `refs.bib`, and the four check layers.

pub mod format;
pub mod parse;
pub mod write;
