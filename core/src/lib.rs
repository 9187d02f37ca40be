//! citegate's core: the logic of checking a paper's citations, with no IO.
//!
//! Everything here is a pure function of its inputs. The core reads no file,
//! makes no request and reads no clock: the browser app (`citegate-web`) and
//! the command-line tool (`citegate-cli`) fetch, read and time things, and
//! hand the data in as values. That is what lets the same code run natively,
//! in wasm32 inside a browser, and under `cargo test` on recorded responses.
//!
//! The crate is split by domain:
//!
//! | module | what it decides |
//! |---|---|
//! | [`archive`] | a dropped `.zip` project as its files and paths |
//! | [`title`] | normalized titles and python-Levenshtein's `ratio` |
//! | [`cutoff`] | paper dates and the strict research-cutoff rule; the deadline miner |
//! | [`latex`] | LaTeX text decoded to Unicode for matching |
//! | [`candidates`] | `raw_candidates.json`, `outline.json`, pre-dedup |
//! | [`stepwise`] | long jobs a step at a time, for callers that must not block |
//! | [`verify`] | accepting or rejecting a candidate against Semantic Scholar |
//! | [`pool`] | `citation_pool.json`, dedup, validation |
//! | [`bibtex`] | reading any `.bib`, writing `refs.bib`, the four check layers |
//! | [`tex`] | cite commands in LaTeX sources, key sync |
//! | [`coverage`] | the ≥ 90 % citation gate and its re-prompt |
//! | [`ids`] | DOIs and arXiv ids: parsed from any form, compared, version-free |
//! | [`resolve`] | the verification engine: routes, batching, retries, one decision per reference |
//! | [`works`] | Semantic Scholar, Crossref and OpenAlex bodies as one `Work` |
//! | [`crossindex`] | cross-checking a pool against Crossref and OpenAlex |
//! | [`search`] | request plans, rank fusion, honest status, zero-result probe |
//! | [`library`] | the `refs.jsonl` reference library |
//! | [`prompt`] | the writing prompt filled from a pool |
//! | [`settings`] | what a base url or contact address may hold |
//! | [`relay`] | where `citegate relay` forwards a browser's request, with which key, and who may read the answer |
//! | [`text`] | a dropped file's bytes as text, or what it is instead |
//! | [`pdf`] | a PDF's references: text with positions, reading order, the bibliography split |
//! | [`paper`] | a paper's references (`.bbl`, `thebibliography`, a text list) read into fields |
//! | [`write`] | the writing step: the model loop, its four checks, provider requests |
//!
//! # One entry point per user question
//!
//! Each question a researcher asks has one function (or step machine) here
//! that returns one report type; the CLI, the app and the JavaScript package
//! only convert their inputs, call it, and render the report. No edge
//! assembles a check from finer calls.
//!
//! | question | entry point | report |
//! |---|---|---|
//! | Does my `.bib` hold up against my `.tex`? (layer 1) | [`bibtex::check::check_file`] | [`bibtex::check::FileReport`] |
//! | Which references does this paper give, field by field? | [`paper::read`] | [`paper::PaperRefs`] |
//! | Do my `.bib` files, as one bibliography, hold up against my `.tex`? | [`bibtex::check::check_files`] | one [`bibtex::check::FileReport`] per file |
//! | … and is each entry a real work that says what its record says? (layers 2–4) | [`resolve::Run`] over [`bibtex::check::references`], then [`bibtex::check::online_report`] | [`bibtex::check::OnlineReport`] |
//! | Which of these many papers cite works that are not there, or not as they are? | each paper as above, then [`paper::batch::Paper::checked`] | [`paper::batch::Report`] |
//! | Does my draft cite enough of the pool (or of a `.bib`)? | [`coverage::gate`] | [`coverage::GateReport`] |
//! | Is this candidate a real paper from before the cutoff? | [`verify::decide_body`]; a whole candidate list: [`verify::run::VerifyRun`] | [`verify::Decision`] ([`verify::Rejection::describe`]) |
//! | Does my pool agree with Crossref and OpenAlex? | [`crossindex::verify`]; planned and resumable: [`crossindex::CrossRun`] | [`crossindex::Report`] |
//! | Which keys do my LaTeX sources cite? | [`tex::scan_project`] | [`tex::Project`] |
//! | Which references does this PDF print? | [`pdf::references`] | [`pdf::PdfRefs`] |
//! | Do these two titles name the same paper? | [`title::match_titles`] | [`title::TitleMatch`] |
//! | Is this paper before the cutoff? | [`cutoff::check`] | [`cutoff::CutoffCheck`] |
//! | Draft the Introduction and Related Work, held to the pool | [`write::WriteLoop`] | [`write::Report`] |
//!
//! # Example
//!
//! ```
//! use citegate_core::{title, cutoff};
//!
//! let m = title::match_titles("Attention is all you need", "Attention Is All You Need", false, 70);
//! assert!(m.pass);
//!
//! let c = cutoff::check(cutoff::PaperDate::parse("2017-06-12").unwrap(),
//!                       cutoff::Date::parse_iso("2024-10-01").unwrap());
//! assert!(c.pass);
//! ```
#![deny(missing_docs)]

pub mod archive;
pub mod bibtex;
pub mod candidates;
pub mod coverage;
pub mod crossindex;
pub mod cutoff;
pub mod error;
pub mod fetch;
pub mod ids;
pub mod inert;
pub mod latex;
pub mod library;
pub mod names;
pub mod paper;
pub mod pdf;
pub mod pool;
pub mod prompt;
pub mod relay;
pub mod resolve;
pub mod search;
pub mod settings;
mod short_keys;
pub mod stepwise;
pub mod tex;
pub mod text;
pub mod title;
mod unicode;
pub mod verify;
pub mod works;
pub mod write;

pub use error::{Error, ErrorKind, Location, Result};
