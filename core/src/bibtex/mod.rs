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

pub mod accept;
pub mod check;
pub mod csl;
pub mod edit;
pub mod existence;
pub mod format;
pub mod inherit;
pub mod matching;
pub mod parse;
pub mod report;
pub mod review;
pub mod ris;
pub mod venues;
pub mod verdict;
pub mod write;

use parse::Bibliography;

/// The bibliography formats citegate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// BibTeX or biblatex (`.bib`).
    Bibtex,
    /// CSL-JSON (`.json`), as Zotero, Better BibTeX and citation.js export it.
    CslJson,
    /// RIS (`.ris`).
    Ris,
}

/// The format of a bibliography file: by its extension (`.bib`, `.json` /
/// `.csl` / `.csljson`, `.ris`, `.txt` by content), else by its content (a
/// JSON list or object is CSL-JSON, a line starting `TY  - ` is RIS, the rest
/// is BibTeX).
///
/// ```
/// use citegate_core::bibtex::{detect_format, Format};
/// assert_eq!(detect_format("refs.bib", "[]"), Format::Bibtex);
/// assert_eq!(detect_format("zotero.json", ""), Format::CslJson);
/// assert_eq!(detect_format("-", "TY  - JOUR\nER  - "), Format::Ris);
/// assert_eq!(detect_format("export", " [{\"id\": \"a\"}]"), Format::CslJson);
/// ```
pub fn detect_format(name: &str, text: &str) -> Format {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "bib" | "bibtex" | "biblatex" => return Format::Bibtex,
        "json" | "csl" | "csljson" => return Format::CslJson,
        "ris" => return Format::Ris,
        _ => {}
    }
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('[') || body.starts_with('{') {
        Format::CslJson
    } else if body.lines().any(|l| l.starts_with("TY  -")) {
        Format::Ris
    } else {
        Format::Bibtex
    }
}

/// Reads a bibliography in any format citegate knows, picked by
/// [`detect_format`], into the same entries, so every check applies
/// unchanged. The CLI, the app and the JavaScript package read bibliographies
/// through this one function. Never fails: problems are in
/// [`Bibliography::problems`].
pub fn read_bibliography(name: &str, text: &str) -> Bibliography {
    read_bibliography_after(name, text, &[])
}

/// [`read_bibliography`] of a file read after others in one database: a
/// `.bib` knows the `@string` macros `earlier` files defined
/// ([`parse::parse_after`]); CSL-JSON and RIS have none.
pub fn read_bibliography_after(
    name: &str,
    text: &str,
    earlier: &[(String, String)],
) -> Bibliography {
    match detect_format(name, text) {
        Format::Bibtex => parse::parse_after(text, earlier),
        Format::CslJson => csl::parse(text),
        Format::Ris => ris::parse(text),
    }
}

/// [`read_bibliography`] on a file's bytes. A file that is not UTF-8 is
/// read as Windows-1252 or Latin-1, as BibTeX reads it, with an encoding
/// problem first that names the encoding; UTF-16, archives and NUL bytes
/// are an encoding error.
///
/// ```
/// use citegate_core::bibtex::{read_bibliography_bytes, parse::ProblemKind};
/// let bib = read_bibliography_bytes("refs.bib", b"@misc{a, title={caf\xe9}}").unwrap();
/// assert_eq!(bib.entries[0].get("title"), Some("caf\u{e9}"));
/// assert_eq!(bib.problems[0].kind, ProblemKind::Encoding);
/// ```
pub fn read_bibliography_bytes(name: &str, bytes: &[u8]) -> crate::error::Result<Bibliography> {
    read_bibliography_bytes_after(name, bytes, &[])
}

/// [`read_bibliography_bytes`] of a file read after others in one database
/// (see [`read_bibliography_after`]).
pub fn read_bibliography_bytes_after(
    name: &str,
    bytes: &[u8],
    earlier: &[(String, String)],
) -> crate::error::Result<Bibliography> {
    let (text, warning) = crate::text::decode_or_8bit(bytes)?;
    let mut bib = read_bibliography_after(name, &text, earlier);
    if let Some(error) = warning {
        bib.problems.insert(
            0,
            parse::Problem {
                kind: parse::ProblemKind::Encoding,
                error,
            },
        );
    }
    Ok(bib)
}
