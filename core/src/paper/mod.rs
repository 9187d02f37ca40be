//! A paper's references, read from what reviewers, chairs and moderators
//! hold: a `.bbl`, a `.tex` with a `thebibliography`, a pasted list or a
//! text file or a PDF (through [`pdf_refs`]). Each reference becomes a [`Reference`] with its raw text and
//! fields, and through [`Reference::to_entry`] a BibTeX entry marked as
//! parsed, so the same resolver and verdict rules check it as a `.bib` entry.
//!
//! One entry point, [`read`], picks the reader by name and content:
//!
//! | input | reader |
//! |---|---|
//! | `.bbl`, or text holding `\begin{thebibliography}` / `\entry{` | [`bbl`]: exact fields from biblatex, `\newblock` blocks and `\bibinfo` from BibTeX styles |
//! | `.tex` | [`bbl`] on its `thebibliography` environment |
//! | `.bib`, CSL-JSON, RIS | [`crate::bibtex::read_bibliography`] |
//! | `.txt`, `.md`, pasted text | [`plain`] splits, [`fields`] parses each string |
//! | `%PDF` bytes | [`pdf_refs`] |
//!
//! **Invariant:** a reference is never dropped for being noisy. A string the
//! parser cannot split into fields is kept with its raw text and whatever
//! fields were found, each with a confidence.

pub mod batch;
pub mod bbl;
pub mod check;
pub mod fields;
pub mod not_title;
pub mod plain;
#[cfg(test)]
mod tests;
pub mod untitled;

use crate::bibtex::parse::{Bibliography, Entry, Field};
use crate::error::{Error, ErrorKind, Result};
use crate::ids::{ArxivId, Doi};
use serde::Serialize;

/// One author as read: family name and given names (or initials).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "PaperAuthor"))]
pub struct Author {
    /// Family name (`Knuth`, `van der Walt`).
    pub family: String,
    /// Given names or initials (`Donald E.`, `D. E.`); empty when unknown.
    pub given: String,
}

/// How sure the reader is of each field, from 0 (a guess) to 1 (read from
/// a field the file names, as in biblatex's `.bbl`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "ReadConfidence"))]
pub struct Confidence {
    /// Of the title's extent.
    pub title: f32,
    /// Of the author list.
    pub authors: f32,
    /// Of the year.
    pub year: f32,
    /// Of the venue.
    pub venue: f32,
}

impl Confidence {
    /// Every field read exactly.
    pub const EXACT: Confidence = Confidence {
        title: 1.0,
        authors: 1.0,
        year: 1.0,
        venue: 1.0,
    };
}

/// Where a reference was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "ReadSource"))]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// biblatex's `.bbl` (`\entry` with fields).
    Biblatex,
    /// A `thebibliography` environment (BibTeX's `.bbl`, or written in a `.tex`).
    Thebibliography,
    /// A plain-text list.
    Text,
    /// A `.bib`, CSL-JSON or RIS entry.
    Bibliography,
    /// A PDF's text.
    Pdf,
}

/// One reference of a paper: its raw text and the fields read from it.
/// The JSON names `raw`, `title`, `authors` (`family`, `given`), `year`,
/// `venue`, `doi`, `arxiv`, `url` and `page` are a promise to scripts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "PaperReference"))]
pub struct Reference {
    /// The reference as written (LaTeX for a `.bbl`, text otherwise).
    pub raw: String,
    /// The title, decoded to Unicode.
    pub title: Option<String>,
    /// The authors in order.
    pub authors: Vec<Author>,
    /// The list ends in "et al." (or BibTeX's `and others`).
    pub others: bool,
    /// The year.
    pub year: Option<i32>,
    /// Journal, proceedings, publisher or other container.
    pub venue: Option<String>,
    /// The volume.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub volume: Option<String>,
    /// The pages (`31--39`, `A33`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub pages: Option<String>,
    /// The DOI.
    pub doi: Option<Doi>,
    /// The arXiv id, without version.
    pub arxiv: Option<ArxivId>,
    /// The first URL that is neither a DOI nor an arXiv link.
    pub url: Option<String>,
    /// The 1-based page of the document the reference is on (PDFs).
    pub page: Option<u32>,
    /// The citation key (`\bibitem{key}`, `\entry{key}`), when the file names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub key: Option<String>,
    /// 1-based line in the file where the reference starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub line: Option<usize>,
    /// Which reader read it.
    pub source: Source,
    /// How sure the reader is of each field.
    pub confidence: Confidence,
}

impl Reference {
    /// An empty reference of `raw` text read by `source`.
    pub fn new(raw: impl Into<String>, source: Source) -> Reference {
        Reference {
            raw: raw.into(),
            title: None,
            authors: Vec::new(),
            others: false,
            year: None,
            venue: None,
            volume: None,
            pages: None,
            doi: None,
            arxiv: None,
            url: None,
            page: None,
            key: None,
            line: None,
            source,
            confidence: Confidence::default(),
        }
    }

    /// The BibTeX entry this reference stands for, keyed `key`, marked
    /// [`Entry::parsed`] unless it came from a bibliography file, so the
    /// verdict rules allow for what a parse loses (initials, "et al.",
    /// abbreviated venues, a cut title). Values are plain text with BibTeX's
    /// specials braced, so decoding them gives the text back.
    pub fn to_entry(&self, key: &str) -> Entry {
        let mut fields = Vec::new();
        let mut put = |name: &str, value: String| {
            if !value.trim().is_empty() {
                fields.push(Field {
                    name: name.to_string(),
                    raw: format!("{{{value}}}"),
                    value,
                    line: self.line.unwrap_or(0),
                });
            }
        };
        if let Some(t) = &self.title {
            put("title", protect(t));
        }
        let mut names: Vec<String> = self
            .authors
            .iter()
            .map(|a| {
                if a.given.is_empty() {
                    format!("{{{}}}", protect(&a.family))
                } else {
                    format!("{{{}}}, {}", protect(&a.family), protect(&a.given))
                }
            })
            .collect();
        if self.others {
            names.push("others".into());
        }
        put("author", names.join(" and "));
        if let Some(y) = self.year {
            put("year", y.to_string());
        }
        if let Some(v) = &self.venue {
            put("journal", protect(v));
        }
        if let Some(v) = &self.volume {
            put("volume", protect(v));
        }
        if let Some(p) = &self.pages {
            put("pages", protect(p));
        }
        if let Some(d) = &self.doi {
            put("doi", d.as_str().to_string());
        }
        if let Some(a) = &self.arxiv {
            put("eprint", a.as_str().to_string());
            put("archiveprefix", "arXiv".into());
        }
        if let Some(u) = &self.url {
            put("url", u.clone());
        }
        // A thesis or a report says so in print; no index we reach holds
        // most of them, so its kind decides that an unfound one is
        // unverified, never fabricated.
        let kind = match self.printed_kind() {
            Some(kind) => kind,
            None if self.venue.is_some() => "article",
            None => "misc",
        };
        Entry {
            kind: kind.into(),
            key: key.to_string(),
            line: self.line.unwrap_or(0),
            fields,
            parsed: self.source != Source::Bibliography,
        }
    }

    /// The BibTeX kind the printed text names: a thesis
    /// (`Ph.D. thesis`, `Doctoral dissertation`, `Master's thesis`) or a
    /// technical report (`Tech. Rep.`, `Technical report`).
    pub fn printed_kind(&self) -> Option<&'static str> {
        // The whole text, title included: a title the parse ran on into
        // `tech. rep. MIT/LCS/TR-504` still names the kind, and a title that
        // names one itself is rare and, unfound, better unverified.
        let text = self.raw.to_lowercase().replace(['’', '`'], "'");
        const PHD: &[&str] = &[
            "ph.d. thesis",
            "ph. d. thesis",
            "phd thesis",
            "ph.d thesis",
            "doctoral thesis",
            "doctoral dissertation",
            "ph.d. dissertation",
            "phd dissertation",
            "dissertation,",
            "dissertation.",
        ];
        const MASTERS: &[&str] = &[
            "master's thesis",
            "masters thesis",
            "master thesis",
            "m.s. thesis",
            "m.sc. thesis",
            "msc thesis",
            "diploma thesis",
            "bachelor's thesis",
            "bachelor thesis",
        ];
        const REPORT: &[&str] = &[
            "tech. rep",
            "technical report",
            "tech. report",
            "tech report",
            "research report",
            "technical memo",
        ];
        if MASTERS.iter().any(|w| text.contains(w)) {
            Some("mastersthesis")
        } else if PHD.iter().any(|w| text.contains(w)) {
            Some("phdthesis")
        } else if REPORT.iter().any(|w| text.contains(w)) {
            Some("techreport")
        } else {
            None
        }
    }

    /// The reference the verification engine looks up
    /// ([`crate::resolve::Reference::from_entry`] of [`Reference::to_entry`]).
    pub fn to_resolve(&self, key: &str) -> crate::resolve::Reference {
        crate::resolve::Reference::from_entry(&self.to_entry(key))
    }
}

/// Text with BibTeX's specials escaped so [`crate::latex::decode`] gives it
/// back: braces dropped, `\`, `$`, `~`, `%`, `&` and `#` escaped.
fn protect(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '{' | '}' => {}
            '\\' => out.push('/'),
            '$' | '%' | '&' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\~{}"),
            _ => out.push(c),
        }
    }
    out
}

/// What a file held, as the reader saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "PaperFormat"))]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// biblatex's `.bbl`.
    Biblatex,
    /// A `thebibliography` environment.
    Thebibliography,
    /// A `.bib`, CSL-JSON or RIS file.
    Bibliography,
    /// A plain-text list.
    Text,
    /// A PDF.
    Pdf,
}

/// A paper's references as read from one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PaperRefs {
    /// The file's name as given.
    pub file: String,
    /// What the file held.
    pub format: Format,
    /// The references, in the file's order.
    pub references: Vec<Reference>,
    /// What could not be read (a broken `.bib` entry, an unclosed
    /// environment); the references read are kept.
    pub problems: Vec<Error>,
    /// The file as read, when it was a bibliography file: its entries are
    /// checked as written, not as rebuilt from the references.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub source_bibliography: Option<Bibliography>,
}

impl PaperRefs {
    /// The references as one bibliography (a bibliography file as read),
    /// each an entry keyed by its own key or `ref<N>` (1-based), in order, so the `.bib` checks and the
    /// verification engine run on it unchanged.
    pub fn bibliography(&self) -> Bibliography {
        if let Some(bib) = &self.source_bibliography {
            return bib.clone();
        }
        let mut bib = Bibliography::default();
        let mut seen = std::collections::HashSet::new();
        for (i, r) in self.references.iter().enumerate() {
            let key = r
                .key
                .clone()
                .filter(|k| !k.is_empty() && seen.insert(k.clone()))
                .unwrap_or_else(|| format!("ref{}", i + 1));
            bib.entries.push(r.to_entry(&key));
        }
        bib
    }
}

impl PaperRefs {
    /// The references as BibTeX text ([`PaperRefs::bibliography`], one
    /// entry each), headed by a comment naming the file: what a page that
    /// works on `.bib` text shows and checks. Entries read back from it are
    /// a paper's parsed references again only when the reader marks them
    /// so ([`crate::bibtex::parse::Entry::parsed`]).
    pub fn to_bibtex(&self) -> String {
        let mut out = format!(
            "% {} references read from {} by citegate\n",
            self.references.len(),
            self.file.replace('\n', " ")
        );
        for mut e in self.bibliography().entries {
            // Print can hold a lone brace; braces a value does not balance
            // would end the entry early, so such a value loses its braces.
            for f in &mut e.fields {
                if !balanced(&f.value) {
                    f.value.retain(|c| c != '{' && c != '}');
                    f.raw = format!("{{{}}}", f.value);
                }
            }
            out.push('\n');
            out.push_str(&crate::bibtex::edit::rewrite(&e, &[]));
            out.push('\n');
        }
        out
    }
}

/// Whether every `}` of `s` closes a `{` and every `{` is closed.
fn balanced(s: &str) -> bool {
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// The reader [`read`] picks for a file.
fn format_of(name: &str, bytes: &[u8]) -> Format {
    if bytes.starts_with(b"%PDF") {
        return Format::Pdf;
    }
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "pdf" => return Format::Pdf,
        "bib" | "bibtex" | "biblatex" | "json" | "csl" | "csljson" | "ris" => {
            return Format::Bibliography
        }
        _ => {}
    }
    let head = String::from_utf8_lossy(bytes.get(..bytes.len().min(1 << 16)).unwrap_or(bytes));
    if bbl::is_biblatex(&head) {
        Format::Biblatex
    } else if ext == "bbl" || ext == "tex" || head.contains("\\begin{thebibliography}") {
        Format::Thebibliography
    } else if head.lines().any(|l| l.starts_with("TY  -"))
        || head.trim_start().starts_with('@')
        || head.trim_start().starts_with('[') && head.contains("\"title\"")
    {
        Format::Bibliography
    } else {
        Format::Text
    }
}

/// Reads a paper's references from a file's bytes; `name` picks the reader
/// with the content (see the module's table). Errors: a file that is not
/// text, a PDF that cannot be read (see [`pdf_refs`]), a `.bbl` or `.tex`
/// with no bibliography in it.
pub fn read(name: &str, bytes: &[u8]) -> Result<PaperRefs> {
    let format = format_of(name, bytes);
    if format == Format::Pdf {
        return pdf_refs(name, bytes);
    }
    if format == Format::Bibliography {
        let bib = crate::bibtex::read_bibliography_bytes(name, bytes)?;
        return Ok(PaperRefs {
            file: name.to_string(),
            format,
            references: bib.entries.iter().map(from_entry).collect(),
            problems: bib.problems.iter().map(|p| p.error.clone()).collect(),
            source_bibliography: Some(bib),
        });
    }
    let text = crate::text::decode(bytes).map_err(|e| e.in_file(name))?;
    let (references, problems) = match format {
        Format::Biblatex => (bbl::read_biblatex(text), Vec::new()),
        Format::Thebibliography => {
            let refs = bbl::read_thebibliography(text);
            if refs.is_empty() {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    "no bibliography found: no \\bibitem in a thebibliography environment",
                )
                .in_file(name));
            }
            (refs, Vec::new())
        }
        _ => (plain::read(text), Vec::new()),
    };
    Ok(PaperRefs {
        file: name.to_string(),
        format,
        references,
        problems: problems
            .into_iter()
            .map(|e: Error| e.in_file(name))
            .collect(),
        source_bibliography: None,
    })
}

/// A paper's bytes as they come, under `name`: a `.zip` or a tar archive
/// of its source, gzip data (a `.tar.gz` source, or one gzipped `.tex` as
/// arXiv sends a one-file e-print), or one file ([`read`]). The CLI reads
/// a target and an arXiv e-print through it, and a page an e-print
/// fetched through the relay.
pub fn read_any(name: &str, bytes: &[u8]) -> Result<PaperRefs> {
    use crate::archive;
    if archive::is_zip(bytes) {
        let files = archive::unzip(bytes).map_err(|e| e.in_file(name))?;
        return read_source(name, &files);
    }
    if archive::is_gzip(bytes) {
        let inner = archive::gunzip(bytes).map_err(|e| e.in_file(name))?;
        if archive::is_tar(&inner) {
            let files = archive::untar(&inner).map_err(|e| e.in_file(name))?;
            return read_source(name, &files);
        }
        return read_source(name, &[("main.tex".to_string(), inner)]);
    }
    if archive::is_tar(bytes) {
        let files = archive::untar(bytes).map_err(|e| e.in_file(name))?;
        return read_source(name, &files);
    }
    read(name, bytes)
}

/// A paste that names one paper rather than listing references: a lone
/// arXiv id or link (`arXiv:2401.12345`, `https://arxiv.org/abs/…`). The
/// CLI fetches such a paper; a page cannot (arXiv sends no CORS headers)
/// and says how to get its PDF.
pub fn pasted_arxiv(text: &str) -> Option<crate::ids::ArxivId> {
    let t = text.trim();
    if t.is_empty() || t.contains(char::is_whitespace) {
        return None;
    }
    crate::ids::ArxivId::parse(t)
}

/// A paper's source files (an Overleaf `.zip`, an arXiv e-print) as one
/// reference list: its `.bib` files if it has any (read as one
/// bibliography, in path order), else its `.bbl`, else the
/// `thebibliography` of a `.tex`. `name` names the whole source in the
/// result and in errors; each file is `(path, bytes)`.
pub fn read_source(name: &str, files: &[(String, Vec<u8>)]) -> Result<PaperRefs> {
    let ext = |p: &str| {
        p.rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default()
    };
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let bibs: Vec<&&(String, Vec<u8>)> = sorted.iter().filter(|(p, _)| ext(p) == "bib").collect();
    if !bibs.is_empty() {
        let mut merged = Bibliography::default();
        let mut macros: Vec<(String, String)> = Vec::new();
        for (path, bytes) in bibs {
            let bib = crate::bibtex::read_bibliography_bytes_after(path, bytes, &macros)
                .map_err(|e| e.in_file(format!("{name}:{path}")))?;
            macros.extend(bib.strings.iter().cloned());
            merged.entries.extend(bib.entries);
            merged.problems.extend(bib.problems);
        }
        return Ok(PaperRefs {
            file: name.to_string(),
            format: Format::Bibliography,
            references: merged.entries.iter().map(from_entry).collect(),
            problems: merged.problems.iter().map(|p| p.error.clone()).collect(),
            source_bibliography: Some(merged),
        });
    }
    let pick = sorted.iter().find(|(p, _)| ext(p) == "bbl").or_else(|| {
        sorted.iter().find(|(p, b)| {
            ext(p) == "tex" && String::from_utf8_lossy(b).contains("\\begin{thebibliography}")
        })
    });
    match pick {
        Some((path, bytes)) => {
            let mut refs = read(path, bytes).map_err(|e| e.in_file(format!("{name}:{path}")))?;
            refs.file = format!("{name}:{path}");
            Ok(refs)
        }
        None => Err(Error::new(
            ErrorKind::InvalidValue,
            "the source has no .bib, no .bbl and no thebibliography environment",
        )
        .in_file(name)),
    }
}

/// A PDF's references ([`crate::pdf::references`]), each raw string parsed
/// into fields ([`fields::parse`]) and kept with the page it starts on.
/// Errors: those of the PDF reader (not a PDF, encrypted, no text layer,
/// damaged), and a PDF in which no bibliography heading is found.
pub fn pdf_refs(name: &str, bytes: &[u8]) -> Result<PaperRefs> {
    let read = crate::pdf::references(bytes).map_err(|e| e.in_file(name))?;
    if read.references.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "no bibliography found in the pdf's {} pages: no heading such as references or bibliography",
                read.pages
            ),
        )
        .in_file(name));
    }
    let references = read
        .references
        .into_iter()
        .map(|r| {
            let mut out = fields::parse(&r.raw);
            out.raw = r.raw;
            out.page = Some(r.page);
            out.source = Source::Pdf;
            out
        })
        .collect();
    Ok(PaperRefs {
        file: name.to_string(),
        format: Format::Pdf,
        references,
        problems: Vec::new(),
        source_bibliography: None,
    })
}

/// A `.bib` (CSL-JSON, RIS) entry as a reference: fields exact.
fn from_entry(e: &Entry) -> Reference {
    let r = crate::resolve::Reference::from_entry(e);
    let (people, others) = e
        .get("author")
        .or_else(|| e.get("editor"))
        .map(crate::names::split)
        .unwrap_or_default();
    let mut out = Reference::new(format!("@{}{{{}}}", e.kind, e.key), Source::Bibliography);
    out.title = r.title;
    out.authors = people
        .iter()
        .map(|p| Author {
            family: crate::latex::decode(
                &[p.prefix.as_str(), p.family.as_str()]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            given: crate::latex::decode(&p.given),
        })
        .collect();
    out.others = others;
    out.year = r.year;
    out.venue = r.venue;
    out.volume = e.decoded("volume");
    out.pages = e.decoded("pages");
    out.doi = r.doi;
    out.arxiv = r.arxiv;
    out.url = e.decoded("url");
    out.key = Some(e.key.clone());
    out.line = Some(e.line);
    out.confidence = Confidence::EXACT;
    out
}
