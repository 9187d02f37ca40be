//! BibTeX: reading any `.bib` tolerantly, writing `refs.bib`, and the four check layers.

pub mod parse;
pub mod write;
