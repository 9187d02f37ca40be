//! BibTeX: reading any `.bib` tolerantly, writing `refs.bib`, and the four
//! check layers.
//!
//! A bibliography is checked in four layers, each a pure function so that
//! the browser, the command line and the tests run the same code. [`parse`]
//! reads a file the way a forgiving human would: a broken entry is reported
//! with its line and the rest of the file is still read. [`format`] (layer 1)
//! needs nothing but the file and the `.tex` cites: required fields, year and
//! DOI shape, duplicates, undefined and unused keys. [`existence`] (layer 2)
//! turns an entry into one lookup — Crossref for a DOI, Semantic Scholar for
//! an arXiv id or a title — and reads the answer into exists / not found /
//! could not ask, without ever confusing the last two. [`matching`] (layers 3
//! and 4) compares the entry with the record field by field and gives a
//! weighted verdict with its evidence and, when the entry is wrong, a
//! corrected one. The network sits between layers 2 and 3 and belongs to the
//! caller.

pub mod existence;
pub mod format;
pub mod matching;
pub mod parse;
pub mod venues;
pub mod verdict;
pub mod write;
