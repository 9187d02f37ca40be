//! The JavaScript boundary: the core's functions under camelCase names, with
//! values converted and nothing else.
//!
//! This module decides nothing. Each export reads its arguments, calls one
//! or a few core functions, and hands back what they return; the logic a
//! reader wants to check lives in the domain modules, where the native tests
//! cover it. Values cross the boundary as JSON text (`JSON.stringify` /
//! `serde_json` in, `serde_json` / `JSON.parse` out; see [`from_js`] and
//! [`to_js`] for why not `serde-wasm-bindgen`), so a result has exactly the
//! shape the CLI
//! prints with `--json` (field names as in the files citegate reads and
//! writes, maps as plain objects, absent values as `null`). Inputs that
//! citegate usually reads from files (a pool, a candidate list, a `.bib`)
//! may be given either as that file's text, read by the same parser the CLI
//! uses (so a mistake comes back with its line and column), or as an already
//! parsed object. Every failure is thrown as one kind of JS `Error` whose
//! `kind` and `location` properties carry the core error's kind and
//! location, so a caller can branch on `e.kind === "json"` without parsing
//! the message. The TypeScript types of every argument and result are
//! generated from the Rust types (`citegate.d.ts`, written by the test in
//! `src/types.rs`) and put into wasm-bindgen's `.d.ts` by the custom section
//! below.

#![deny(missing_docs)]

#[cfg(test)]
mod types;

use citegate_core::bibtex::{existence, matching, parse as bibparse, write as bibwrite};
use citegate_core::candidates::{self, Candidate};
use citegate_core::error::{Error, ErrorKind, Location};
use citegate_core::pool::{self, Pool, PoolPaper};
use citegate_core::search::{self, BackendRun, Outcome, ProbeConfig, ProbeMachine, ProbeOutcome};
use citegate_core::works::{self, Service, Work};
use citegate_core::{coverage, crossindex, cutoff, library, tex, title, verify};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use wasm_bindgen::prelude::*;

/// The TypeScript types of every argument and result, generated from the
/// Rust types by ts-rs (`src/types.rs`, whose test keeps the file current).
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = include_str!("../citegate.d.ts");

#[wasm_bindgen]
extern "C" {
    /// JavaScript's own `Error`, with the two properties citegate adds.
    #[wasm_bindgen(js_name = Error)]
    type JsError;

    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new(message: &str) -> JsError;

    #[wasm_bindgen(method, setter = kind)]
    fn set_kind(this: &JsError, kind: &str);

    #[wasm_bindgen(method, setter = location)]
    fn set_location(this: &JsError, location: JsValue);

    /// `JSON.parse` of text `serde_json` wrote.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;

    /// `JSON.stringify`; throws on cycles and BigInts.
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// The error adapter: a core error as a JS `Error` with `kind` and `location`.
/// The message is the core's `Display` (location first, then the sentence).
fn throw(e: Error) -> JsValue {
    let err = JsError::new(&e.to_string());
    let kind = serde_json::to_value(e.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    err.set_kind(&kind);
    err.set_location(to_js(&*e.location).unwrap_or(JsValue::UNDEFINED));
    err.into()
}

type JsResult = Result<JsValue, JsValue>;

/// A Rust value as a plain JS value (objects, arrays, numbers, `null`).
///
/// Written as JSON text by `serde_json` and read by the engine's
/// `JSON.parse`, not built field by field with `serde_wasm_bindgen` (which
/// this module used first): one boundary crossing per result instead of
/// several per field. Measured with `js/bench/chromium.mjs`, the fusion of
/// 3 × 100 works (276 results) went from 4.1 ms to 2.7 ms in Chromium, the
/// other workloads unchanged. The values are the same: the crate's
/// `json_compatible` serializer was chosen precisely to produce what JSON
/// would.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult {
    let text = serde_json::to_string(value).map_err(|e| {
        throw(Error::new(
            ErrorKind::Shape,
            format!("result cannot be given to javascript: {e}"),
        ))
    })?;
    json_parse(&text)
}

/// A JS value read as `T`; a mismatch names the argument.
///
/// The value goes through `JSON.stringify` and `serde_json`, not
/// `serde_wasm_bindgen::from_value`: the core's types keep unknown fields
/// with `#[serde(flatten)]`, which the direct reader does not support, and
/// this way an object is read exactly as the same JSON in a file would be.
fn from_js<T: DeserializeOwned>(value: JsValue, arg: &str) -> Result<T, JsValue> {
    if value.is_undefined() {
        return Err(throw(
            Error::new(
                ErrorKind::MissingField,
                format!("argument `{arg}` is missing"),
            )
            .at(Location::default().field(arg)),
        ));
    }
    let text = json_stringify(&value)
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_else(|| "null".to_string());
    serde_json::from_str(&text).map_err(|e| {
        throw(
            Error::new(ErrorKind::Shape, format!("argument `{arg}`: {e}"))
                .at(Location::default().field(arg)),
        )
    })
}

/// An optional JS value (`undefined` and `null` are absent).
fn opt_js<T: DeserializeOwned>(value: JsValue, arg: &str) -> Result<Option<T>, JsValue> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        from_js(value, arg).map(Some)
    }
}

/// A file's text (read with the core's parser) or the parsed object.
fn text_or<T: DeserializeOwned>(
    value: JsValue,
    arg: &str,
    parse: impl FnOnce(&str) -> citegate_core::Result<T>,
) -> Result<T, JsValue> {
    match value.as_string() {
        Some(text) => parse(&text).map_err(throw),
        None => from_js(value, arg),
    }
}

fn pool_arg(value: JsValue) -> Result<Pool, JsValue> {
    text_or(value, "pool", pool::parse_pool)
}

/// Pool papers: a pool (object or text) or a bare array of papers.
fn papers_arg(value: JsValue) -> Result<Vec<PoolPaper>, JsValue> {
    if let Some(text) = value.as_string() {
        return pool::parse_dedupe_input(&text).map_err(throw);
    }
    if value.is_array() {
        return from_js(value, "papers");
    }
    pool_arg(value).map(|p| p.papers)
}

fn bib_arg(value: JsValue) -> Result<bibparse::Bibliography, JsValue> {
    match value.as_string() {
        // BibTeX, CSL-JSON or RIS, told apart by the content.
        Some(text) => Ok(citegate_core::bibtex::read_bibliography("", &text)),
        None => Err(throw(Error::new(
            ErrorKind::Shape,
            "argument `bib` must be the text of a .bib, CSL-JSON or RIS file",
        ))),
    }
}

fn date_arg(text: &str) -> Result<cutoff::Date, JsValue> {
    cutoff::Date::parse_iso(text).map_err(throw)
}

// ---------------------------------------------------------------- titles, dates

/// The integer title score (0–100) of python-Levenshtein's ratio on
/// normalized titles, with the optional substring bypass.
#[wasm_bindgen(js_name = titleScore)]
pub fn title_score(candidate: &str, found: &str, substring_bypass: Option<bool>) -> i32 {
    // 0–100 always fits; i32 keeps it a JS number (an i64 would be a BigInt).
    i32::try_from(title::score(
        candidate,
        found,
        substring_bypass.unwrap_or(false),
    ))
    .unwrap_or(0)
}

/// The exact ratio (0–100) of two strings, without normalizing them.
#[wasm_bindgen(js_name = titleRatio)]
pub fn title_ratio(a: &str, b: &str) -> f64 {
    title::ratio(a, b)
}

/// Matches two titles against a threshold (default 70).
#[wasm_bindgen(js_name = matchTitles, unchecked_return_type = "TitleMatch")]
pub fn match_titles(
    candidate: &str,
    found: &str,
    substring_bypass: Option<bool>,
    threshold: Option<i32>,
) -> JsResult {
    to_js(&title::match_titles(
        candidate,
        found,
        substring_bypass.unwrap_or(false),
        threshold.map_or(title::DEFAULT_THRESHOLD, i64::from),
    ))
}

/// Checks a paper date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) against a cutoff
/// day: it passes iff strictly before.
#[wasm_bindgen(js_name = checkCutoff, unchecked_return_type = "CutoffCheck")]
pub fn check_cutoff(paper_date: &str, cutoff_date: &str) -> JsResult {
    let paper = cutoff::PaperDate::parse(paper_date).map_err(throw)?;
    to_js(&cutoff::check(paper, date_arg(cutoff_date)?))
}

// ---------------------------------------------------------------- PDF

/// The references printed in a PDF, from its bytes (nothing leaves the
/// page). Throws `not_pdf`, `pdf_encrypted`, `pdf_no_text` or `pdf_damaged`.
#[wasm_bindgen(js_name = readPdfReferences, unchecked_return_type = "PdfRefs")]
pub fn read_pdf_references(bytes: &[u8]) -> JsResult {
    to_js(&citegate_core::pdf::references(bytes).map_err(throw)?)
}

// ---------------------------------------------------------------- candidates, verification, pool

/// Reads `raw_candidates.json` text.
#[wasm_bindgen(js_name = parseCandidates, unchecked_return_type = "Candidate[]")]
pub fn parse_candidates(text: &str) -> JsResult {
    to_js(&candidates::parse_candidates(text).map_err(throw)?)
}

/// Pre-dedup of candidates (text of `raw_candidates.json` or an array),
/// fuzzy threshold default 92.
#[wasm_bindgen(js_name = preDedup, unchecked_return_type = "PreDedup")]
pub fn pre_dedup(
    #[wasm_bindgen(unchecked_param_type = "string | Candidate[]")] candidates: JsValue,
    threshold: Option<f64>,
) -> JsResult {
    let list: Vec<Candidate> = text_or(candidates, "candidates", candidates::parse_candidates)?;
    let threshold = threshold.unwrap_or(candidates::PRE_DEDUP_THRESHOLD);
    to_js(&candidates::pre_dedup_with(list, threshold))
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "VerifyOptions", optional_fields))]
#[serde(rename_all = "camelCase")]
struct VerifyOptionsIn {
    cutoff: String,
    threshold: Option<i64>,
    substring_bypass: Option<bool>,
    paper_faithful: Option<bool>,
}

/// Decides one candidate from a raw Semantic Scholar answer (search, single
/// record, or batch with `batchIndex`). An error body throws kind `api`.
#[wasm_bindgen(js_name = decide, unchecked_return_type = "Decision")]
pub fn decide(
    #[wasm_bindgen(unchecked_param_type = "Candidate")] candidate: JsValue,
    body: &str,
    status: Option<u16>,
    #[wasm_bindgen(unchecked_param_type = "VerifyOptions")] options: JsValue,
    batch_index: Option<usize>,
) -> JsResult {
    let candidate: Candidate = from_js(candidate, "candidate")?;
    let o: VerifyOptionsIn = from_js(options, "options")?;
    let mut opts = verify::VerifyOptions::new(date_arg(&o.cutoff)?);
    if let Some(t) = o.threshold {
        opts.threshold = t;
    }
    if let Some(b) = o.substring_bypass {
        opts.substring_bypass = b;
    }
    if let Some(b) = o.paper_faithful {
        opts.paper_faithful = b;
    }
    let d = verify::decide_body(&candidate, body, status, batch_index.unwrap_or(0), &opts)
        .map_err(throw)?;
    to_js(&d)
}

/// Deduplicates accepted papers (pool text, a pool, or an array of papers),
/// optionally recording the cutoff in the result.
#[wasm_bindgen(js_name = dedupe, unchecked_return_type = "Deduped")]
pub fn dedupe(
    #[wasm_bindgen(unchecked_param_type = "string | Pool | PoolPaper[]")] papers: JsValue,
    cutoff_date: Option<String>,
) -> JsResult {
    to_js(&pool::dedupe(papers_arg(papers)?, cutoff_date))
}

/// Reads `citation_pool.json` text into a pool object (errors with line and column).
#[wasm_bindgen(js_name = parsePool, unchecked_return_type = "Pool")]
pub fn parse_pool(text: &str) -> JsResult {
    to_js(&pool::parse_pool(text).map_err(throw)?)
}

// ---------------------------------------------------------------- BibTeX

/// `refs.bib` written from a pool; `pool` has each paper's `bibtex_key` set.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct WrittenBib<'a> {
    text: String,
    keys: Vec<String>,
    pool: &'a Pool,
}

/// Writes `refs.bib` for a pool: unique keys, one entry per paper. The
/// returned pool has every paper's `bibtex_key` set.
#[wasm_bindgen(js_name = writeBib, unchecked_return_type = "WrittenBib")]
pub fn write_bib(
    #[wasm_bindgen(unchecked_param_type = "string | Pool")] pool: JsValue,
) -> JsResult {
    let mut pool = pool_arg(pool)?;
    let bib = bibwrite::write_bib(&mut pool);
    to_js(&WrittenBib {
        text: bib.text,
        keys: bib.keys,
        pool: &pool,
    })
}

/// Reads any `.bib` text. Reading never stops at a broken entry: problems
/// are listed in `problems`.
#[wasm_bindgen(js_name = parseBib, unchecked_return_type = "Bibliography")]
pub fn parse_bib(text: &str) -> JsResult {
    to_js(&bibparse::parse(text))
}

/// Reads a bibliography in any format citegate knows (`.bib`, CSL-JSON,
/// RIS), picked by the file name's extension or else the content; the
/// entries are the ones `parseBib` gives for the same records.
#[wasm_bindgen(js_name = readBibliography, unchecked_return_type = "Bibliography")]
pub fn read_bibliography(name: &str, text: &str) -> JsResult {
    to_js(&citegate_core::bibtex::read_bibliography(name, text))
}

/// A bibliography in any format (as `readBibliography` reads it) written
/// as CSL-JSON text.
#[wasm_bindgen(js_name = toCslJson)]
pub fn to_csl_json(name: &str, text: &str) -> String {
    citegate_core::bibtex::csl::write(&citegate_core::bibtex::read_bibliography(name, text).entries)
}

// ---------------------------------------------------------------- LaTeX, coverage, keys

/// Every cite of one LaTeX source, in order.
#[wasm_bindgen(js_name = extractCites, unchecked_return_type = "Cite[]")]
pub fn extract_cites(source: &str) -> JsResult {
    to_js(&tex::extract_cites(source))
}

fn project_arg(files: JsValue, roots: JsValue) -> Result<tex::Project, JsValue> {
    let files: BTreeMap<String, String> = from_js(files, "files")?;
    let roots: Vec<String> = match opt_js(roots, "roots")? {
        Some(r) => r,
        None => files.keys().cloned().collect(),
    };
    Ok(tex::scan_project(&roots, &files))
}

/// Scans LaTeX sources from their roots (default: every file), following
/// `\input`/`\include` among the files given.
#[wasm_bindgen(js_name = scanProject, unchecked_return_type = "TexProject")]
pub fn scan_project(
    #[wasm_bindgen(unchecked_param_type = "TexFiles")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] roots: JsValue,
) -> JsResult {
    to_js(&project_arg(files, roots)?)
}

/// The citation gate: how many pool papers the sources cite, against a
/// threshold (`"0.90"`, `"90%"`; default 90 %): the report of
/// [`coverage::gate`], the same as `citegate coverage --json`.
#[wasm_bindgen(js_name = coverage, unchecked_return_type = "CoverageResult")]
pub fn coverage_check(
    #[wasm_bindgen(unchecked_param_type = "string | Pool | PoolPaper[]")] pool: JsValue,
    #[wasm_bindgen(unchecked_param_type = "TexFiles")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] roots: JsValue,
    threshold: Option<String>,
) -> JsResult {
    let against = coverage::Against::Pool(papers_arg(pool)?);
    let project = project_arg(files, roots)?;
    let threshold = match threshold.as_deref() {
        Some(t) => coverage::Threshold::parse(t).map_err(throw)?,
        None => coverage::Threshold::default(),
    };
    to_js(&coverage::gate(&project, &against, &threshold).map_err(throw)?)
}

/// The citation gate against a bibliography's entries (`.bib`, CSL-JSON or
/// RIS text) standing for the pool; the same report as [`coverage_check`].
#[wasm_bindgen(js_name = coverageAgainstBib, unchecked_return_type = "CoverageResult")]
pub fn coverage_against_bib(
    bib: JsValue,
    #[wasm_bindgen(unchecked_param_type = "TexFiles")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] roots: JsValue,
    threshold: Option<String>,
) -> JsResult {
    let against = coverage::Against::Bib(bib_arg(bib)?);
    let project = project_arg(files, roots)?;
    let threshold = match threshold.as_deref() {
        Some(t) => coverage::Threshold::parse(t).map_err(throw)?,
        None => coverage::Threshold::default(),
    };
    to_js(&coverage::gate(&project, &against, &threshold).map_err(throw)?)
}

/// A source with its cite keys rewritten, and each replacement.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct KeySync {
    text: String,
    replacements: Vec<tex::Replacement>,
}

/// Rewrites cite keys of a source to the pool's `bibtex_key`s.
#[wasm_bindgen(js_name = syncKeys, unchecked_return_type = "KeySync")]
pub fn sync_keys(
    source: &str,
    #[wasm_bindgen(unchecked_param_type = "string | Pool | PoolPaper[]")] pool: JsValue,
) -> JsResult {
    let map = tex::pool_key_map(&papers_arg(pool)?);
    let (text, replacements) = tex::sync_keys(source, &map);
    to_js(&KeySync { text, replacements })
}

// ---------------------------------------------------------------- cross-index

#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "IndexAnswer", optional_fields))]
#[serde(rename_all = "camelCase")]
struct IndexAnswerIn {
    service: Service,
    #[serde(default)]
    #[cfg_attr(test, ts(optional = nullable))]
    unavailable: bool,
    by_doi: Option<Work>,
    #[serde(default)]
    #[cfg_attr(test, ts(optional = nullable))]
    search: Vec<Work>,
}

#[derive(Deserialize, Default)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "CrossConfig", optional_fields))]
#[serde(rename_all = "camelCase")]
struct CrossConfigIn {
    threshold: Option<i64>,
    strong_threshold: Option<i64>,
    year_tolerance: Option<i64>,
}

/// Classifies one pool paper from what Crossref, OpenAlex, … answered.
#[wasm_bindgen(js_name = crossClassify, unchecked_return_type = "CrossVerdict")]
pub fn cross_classify(
    #[wasm_bindgen(unchecked_param_type = "PoolPaper")] paper: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IndexAnswer[]")] answers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CrossConfig | undefined")] config: JsValue,
) -> JsResult {
    let paper: PoolPaper = from_js(paper, "paper")?;
    let answers: Vec<IndexAnswerIn> = from_js(answers, "answers")?;
    let c: CrossConfigIn = opt_js(config, "config")?.unwrap_or_default();
    let d = crossindex::Config::default();
    let cfg = crossindex::Config {
        threshold: c.threshold.unwrap_or(d.threshold),
        strong_threshold: c.strong_threshold.unwrap_or(d.strong_threshold),
        year_tolerance: c.year_tolerance.unwrap_or(d.year_tolerance),
    };
    let results: Vec<(Service, crossindex::IndexResult)> = answers
        .into_iter()
        .map(|a| {
            let answer = if a.unavailable {
                crossindex::IndexAnswer::Unavailable
            } else {
                crossindex::IndexAnswer::Answered {
                    by_doi: a.by_doi.map(Box::new),
                    search: a.search,
                }
            };
            let expected =
                a.service != Service::Crossref || crossindex::expected_in_crossref(&paper);
            let r = crossindex::check_index(&paper, &answer, expected, &cfg);
            (a.service, r)
        })
        .collect();
    to_js(&crossindex::classify(&paper, &results, &cfg))
}

// ---------------------------------------------------------------- a paper's references

/// A paper's references read from a file ([`citegate_core::paper::read`]): a
/// `.bbl`, a `.tex`, a text list, a `.bib`/CSL-JSON/RIS; `name` picks the
/// reader with the content (a string: `new TextEncoder().encode(text)`).
/// The same as `citegate refs --json`.
#[wasm_bindgen(js_name = readReferences, unchecked_return_type = "PaperRefs")]
pub fn read_references(name: &str, bytes: &[u8]) -> JsResult {
    to_js(&citegate_core::paper::read(name, bytes).map_err(throw)?)
}

/// One reference string parsed into fields ([`citegate_core::paper::fields::parse`]).
#[wasm_bindgen(js_name = parseReference, unchecked_return_type = "PaperReference")]
pub fn parse_reference(text: &str) -> JsResult {
    to_js(&citegate_core::paper::fields::parse(text))
}

// ---------------------------------------------------------------- bibcheck layers

/// Layer 1: format checks of a `.bib` (required fields, year, DOI,
/// duplicates) and, with LaTeX sources, cite consistency: the report of
/// [`citegate_core::bibtex::check::check_file`], the same as `citegate bibcheck --json`.
#[wasm_bindgen(js_name = bibCheckFormat, unchecked_return_type = "BibCheck")]
pub fn bib_check_format(
    bib: JsValue,
    now_year: i32,
    #[wasm_bindgen(unchecked_param_type = "TexFiles | undefined")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] roots: JsValue,
) -> JsResult {
    let parsed = bib_arg(bib)?;
    let project = if files.is_undefined() || files.is_null() {
        None
    } else {
        Some(project_arg(files, roots)?)
    };
    to_js(&citegate_core::bibtex::check::check_file(
        "",
        &parsed,
        project.as_ref(),
        now_year,
    ))
}

/// The lookup an entry needs (`null` when it has nothing to look up by).
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct PlannedLookup {
    key: String,
    lookup: Option<existence::Lookup>,
}

/// Layer 2, first half: the lookup each entry needs (`null` when an entry
/// has nothing to look up by).
///
/// @deprecated One lookup per entry, so a DOI Crossref does not hold
/// (Zenodo's, arXiv's own) reads as missing: use `VerificationRun`, which
/// falls through every source and says "not found" only when all answered.
#[wasm_bindgen(js_name = bibPlan, unchecked_return_type = "Array<{ key: string; lookup: Lookup | null }>")]
pub fn bib_plan(bib: JsValue) -> JsResult {
    let parsed = bib_arg(bib)?;
    let out: Vec<PlannedLookup> = parsed
        .entries
        .iter()
        .map(|e| PlannedLookup {
            key: e.key.clone(),
            lookup: existence::plan(e),
        })
        .collect();
    to_js(&out)
}

/// One entry's lookup, what it found and the verdict.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct BibVerification {
    key: String,
    lookup: Option<existence::Lookup>,
    existence: Option<existence::Existence>,
    verdict: matching::Verdict,
}

/// Layers 2–4 for one entry: reads the answer (`status`, `body`) to the
/// entry's planned lookup and matches the record against the entry.
///
/// @deprecated See `bibPlan`: use `VerificationRun`.
#[wasm_bindgen(js_name = bibVerify, unchecked_return_type = "BibVerification")]
pub fn bib_verify(
    bib: JsValue,
    key: &str,
    status: u16,
    body: &str,
    #[wasm_bindgen(unchecked_param_type = "MatchMode | undefined")] mode: JsValue,
) -> JsResult {
    let parsed = bib_arg(bib)?;
    let mode: matching::Mode = opt_js(mode, "mode")?.unwrap_or_default();
    let Some(entry) = parsed.entries.iter().find(|e| e.key == key) else {
        return Err(throw(
            Error::new(
                ErrorKind::InvalidValue,
                format!("no entry has the key `{key}`"),
            )
            .at(Location::default().field("key")),
        ));
    };
    let lookup = existence::plan(entry);
    let found = lookup
        .as_ref()
        .map(|l| existence::outcome(l, entry.get("title"), status, body));
    let verdict = match &found {
        Some(ex) => matching::verify(entry, ex, mode),
        None => matching::verify(
            entry,
            &existence::Existence::NotFound {
                reason: citegate_core::bibtex::check::NOTHING_TO_LOOK_UP.to_string(),
            },
            mode,
        ),
    };
    to_js(&BibVerification {
        key: key.to_string(),
        lookup,
        existence: found,
        verdict,
    })
}

/// The references a `VerificationRun` over the bibliography takes, one per
/// entry in file order ([`citegate_core::bibtex::check::references`]).
#[wasm_bindgen(js_name = bibReferences, unchecked_return_type = "Reference[]")]
pub fn bib_references(bib: JsValue) -> JsResult {
    to_js(&citegate_core::bibtex::check::references(&bib_arg(bib)?))
}

/// Layers 2–4: each entry judged against a finished `VerificationRun`'s
/// report over `bibReferences(bib)`, on the day `today` (`YYYY-MM-DD`):
/// the report of [`citegate_core::bibtex::check::online_report`], the same as the
/// `online` part of `citegate bibcheck --online --json`.
#[wasm_bindgen(js_name = bibJudge, unchecked_return_type = "OnlineReport")]
pub fn bib_judge(
    bib: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RunReport")] report: JsValue,
    today: &str,
) -> JsResult {
    let parsed = bib_arg(bib)?;
    let report: citegate_core::resolve::Report = from_js(report, "report")?;
    if report.resolutions.len() != parsed.entries.len() {
        return Err(throw(
            Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "the run has {} resolutions for {} entries: run it over bibReferences(bib)",
                    report.resolutions.len(),
                    parsed.entries.len()
                ),
            )
            .at(Location::default().field("report")),
        ));
    }
    let requests = usize::try_from(report.requests).unwrap_or(usize::MAX);
    to_js(&citegate_core::bibtex::check::online_report(
        &parsed,
        &report,
        date_arg(today)?,
        requests,
        0,
    ))
}

/// A corrected BibTeX entry under `key` from a found record.
#[wasm_bindgen(js_name = correctedEntry)]
pub fn corrected_entry(
    key: &str,
    #[wasm_bindgen(unchecked_param_type = "Work")] work: JsValue,
) -> Result<String, JsValue> {
    let work: Work = from_js(work, "work")?;
    Ok(matching::corrected_entry(key, &work))
}

// ---------------------------------------------------------------- search: responses, fusion, status, probe

/// Reads one backend's answer (HTTP status and body) as works; an error
/// answer throws kind `api`.
#[wasm_bindgen(js_name = parseResponse, unchecked_return_type = "Page")]
pub fn parse_response(
    #[wasm_bindgen(unchecked_param_type = "Service")] service: JsValue,
    status: u16,
    body: &str,
) -> JsResult {
    let service: Service = from_js(service, "service")?;
    let page = works::parse_response(service, status, body).map_err(|e| throw(e.to_error()))?;
    to_js(&page)
}

/// One backend's answer: the HTTP status and body, or why it was skipped.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields))]
struct BackendAnswer {
    service: Service,
    status: Option<u16>,
    body: Option<String>,
    skipped: Option<String>,
}

fn runs_arg(answers: JsValue) -> Result<Vec<BackendRun>, JsValue> {
    let answers: Vec<BackendAnswer> = from_js(answers, "answers")?;
    Ok(answers
        .into_iter()
        .map(|a| {
            let outcome = match (a.skipped, a.body) {
                (Some(why), _) => Outcome::Skipped(why),
                (None, body) => {
                    let body = body.unwrap_or_default();
                    match works::parse_response(a.service, a.status.unwrap_or(200), &body) {
                        Ok(page) => Outcome::Results(page.works),
                        Err(e) => Outcome::Failed(e),
                    }
                }
            };
            BackendRun {
                backend: a.service,
                outcome,
            }
        })
        .collect())
}

/// The works one backend returned.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct ServiceWorks {
    service: Service,
    works: Vec<Work>,
}

/// Reciprocal-rank fusion of several backends' works; `libraryDois` marks
/// results already in the reference library.
#[wasm_bindgen(js_name = fuse, unchecked_return_type = "Fused[]")]
pub fn fuse(
    #[wasm_bindgen(unchecked_param_type = "Array<{ service: Service; works: Work[] }>")]
    lists: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] library_dois: JsValue,
) -> JsResult {
    let lists: Vec<ServiceWorks> = from_js(lists, "lists")?;
    let library = doi_set(library_dois)?;
    let refs: Vec<(Service, &[Work])> = lists
        .iter()
        .map(|l| (l.service, l.works.as_slice()))
        .collect();
    to_js(&search::fuse(&refs, &library))
}

fn doi_set(value: JsValue) -> Result<HashSet<String>, JsValue> {
    let dois: Vec<String> = opt_js(value, "libraryDois")?.unwrap_or_default();
    Ok(dois.iter().filter_map(|d| works::doi_key(d)).collect())
}

/// The honest search response for a query from every backend's answer:
/// status `ok`/`partial`/`error`, fused results, notes. Without a finished
/// `probe`, a zero that needs probe requests is reported inconclusive.
#[wasm_bindgen(js_name = searchStatus, unchecked_return_type = "SearchResponse")]
pub fn search_status(
    query: &str,
    #[wasm_bindgen(unchecked_param_type = "BackendAnswer[]")] answers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] library_dois: JsValue,
    limit: Option<usize>,
    #[wasm_bindgen(unchecked_param_type = "Probe | undefined")] probe: JsValue,
) -> JsResult {
    if let Err(e) = search::preflight(query) {
        return Err(throw(Error::new(ErrorKind::Query, e.message)));
    }
    let runs = runs_arg(answers)?;
    let library = doi_set(library_dois)?;
    let probe = match opt_js::<search::probe::Probe>(probe, "probe")? {
        Some(p) => p,
        None => search::probe_without_requests(query, &runs, ProbeConfig::default())
            .unwrap_or_else(|| search::probe::Probe::no_backend(query, ProbeConfig::default())),
    };
    to_js(&search::respond(query, &runs, probe, &library, limit))
}

/// The zero-result probe as a machine the caller drives: ask
/// `nextRequest()`, send it, `consume()` the hit count (or `undefined` on
/// failure), until `result()` is set.
#[wasm_bindgen(js_name = ProbeSession)]
pub struct ProbeSession {
    machine: ProbeMachine,
}

#[wasm_bindgen(js_class = ProbeSession)]
impl ProbeSession {
    /// A probe for `query` after a search that found `totalHits` over the
    /// backends that answered.
    #[wasm_bindgen(constructor)]
    pub fn new(
        query: &str,
        total_hits: usize,
        #[wasm_bindgen(unchecked_param_type = "Service[]")] answered: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ProbeSettings | undefined")] settings: JsValue,
    ) -> Result<ProbeSession, JsValue> {
        let answered: Vec<Service> = from_js(answered, "answered")?;
        let cfg: ProbeConfig = opt_js(settings, "settings")?.unwrap_or_default();
        Ok(ProbeSession {
            machine: ProbeMachine::new(query, total_hits, &answered, cfg),
        })
    }

    /// The next request to make, or `null` when the probe is over.
    #[wasm_bindgen(js_name = nextRequest, unchecked_return_type = "ProbeRequest | null")]
    pub fn next_request(&self) -> JsResult {
        to_js(&self.machine.next_request())
    }

    /// Feeds the answer to the last request: its hit count, or nothing when it failed.
    pub fn consume(&mut self, hits: Option<f64>) {
        let outcome = match hits {
            Some(n) if n.is_finite() && n >= 0.0 => ProbeOutcome::Hits(n as u64),
            _ => ProbeOutcome::Failed,
        };
        self.machine.consume(outcome);
    }

    /// The report, once the probe is over (`null` before).
    #[wasm_bindgen(unchecked_return_type = "Probe | null")]
    pub fn result(&self) -> JsResult {
        to_js(&self.machine.result())
    }
}

// ---------------------------------------------------------------- refs.jsonl

/// `refs.jsonl` read: its records, and the lines that could not be read.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct LibraryRead<'a> {
    records: Vec<&'a library::Record>,
    errors: Vec<Error>,
}

/// Reads `refs.jsonl`; unreadable lines are listed in `errors` and skipped.
#[wasm_bindgen(js_name = libraryParse, unchecked_return_type = "LibraryRead")]
pub fn library_parse(text: &str) -> JsResult {
    let (lib, errors) = library::Library::parse(text);
    to_js(&LibraryRead {
        records: lib.records().collect(),
        errors,
    })
}

/// The id a work was added under, and the new `refs.jsonl` text.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct LibraryAdded {
    id: String,
    text: String,
}

/// Adds a work to `refs.jsonl` text: refuses a DOI already there (kind
/// `invalid_value`), makes the id unique, returns the id and the new text
/// (unchanged lines kept byte for byte).
#[wasm_bindgen(js_name = libraryAdd, unchecked_return_type = "LibraryAdded")]
pub fn library_add(
    text: &str,
    #[wasm_bindgen(unchecked_param_type = "Work")] work: JsValue,
) -> JsResult {
    let work: Work = from_js(work, "work")?;
    let (mut lib, _) = library::Library::parse(text);
    let id = lib.add(library::record_from_work(&work)).map_err(throw)?;
    to_js(&LibraryAdded {
        id,
        text: lib.to_jsonl(),
    })
}

// ---------------------------------------------------------------- resolver

/// The settings a `VerificationRun` is built from.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields))]
struct RunSettings {
    endpoints: works::request::Endpoints,
    surface: citegate_core::resolve::Surface,
    s2_interval_ms: Option<u64>,
    s2_backoff_ms: Option<u64>,
    title_hits: Option<usize>,
    batch: Option<bool>,
}

/// [`citegate_core::resolve::Next`] in a JSON shape.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
enum RunNext {
    Send {
        requests: Vec<citegate_core::resolve::Outgoing>,
    },
    WaitUntil {
        at: f64,
    },
    AwaitReplies,
    Done,
}

/// The verification engine ([`citegate_core::resolve::Run`]) as a machine the
/// caller drives: `next(nowMs)`, send what it gives, `answer(id, reply,
/// nowMs)`, until `next` says `done`; then `report()`.
#[wasm_bindgen(js_name = VerificationRun)]
pub struct VerificationRun {
    run: citegate_core::resolve::Run,
}

#[wasm_bindgen(js_class = VerificationRun)]
impl VerificationRun {
    /// A run over `refs` with `settings`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Reference[]")] refs: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunSettings")] settings: JsValue,
    ) -> Result<VerificationRun, JsValue> {
        let refs: Vec<citegate_core::resolve::Reference> = from_js(refs, "refs")?;
        let s: RunSettings = from_js(settings, "settings")?;
        let mut opts = citegate_core::resolve::Options::new(s.endpoints, s.surface);
        if let Some(v) = s.s2_interval_ms {
            opts.s2_interval_ms = v;
        }
        if let Some(v) = s.s2_backoff_ms {
            opts.s2_backoff_ms = v;
        }
        if let Some(v) = s.title_hits {
            opts.title_hits = v;
        }
        if let Some(v) = s.batch {
            opts.batch = v;
        }
        Ok(VerificationRun {
            run: citegate_core::resolve::Run::new(refs, opts),
        })
    }

    /// What to do next at time `nowMs`.
    #[wasm_bindgen(unchecked_return_type = "RunNext")]
    pub fn next(&mut self, now_ms: f64) -> JsResult {
        let next = match self.run.next(now_ms) {
            citegate_core::resolve::Next::Send(requests) => RunNext::Send { requests },
            citegate_core::resolve::Next::WaitUntil(at) => RunNext::WaitUntil { at },
            citegate_core::resolve::Next::AwaitReplies => RunNext::AwaitReplies,
            citegate_core::resolve::Next::Done => RunNext::Done,
        };
        to_js(&next)
    }

    /// Hands back the reply to request `id`.
    pub fn answer(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "RunReply")] reply: JsValue,
        now_ms: f64,
    ) -> Result<(), JsValue> {
        let reply: citegate_core::resolve::Reply = from_js(reply, "reply")?;
        self.run.answer(id as u64, reply, now_ms);
        Ok(())
    }

    /// `[decided, total]`.
    #[wasm_bindgen(unchecked_return_type = "[number, number]")]
    pub fn progress(&self) -> JsResult {
        to_js(&self.run.progress())
    }

    /// One resolution per reference, in input order.
    #[wasm_bindgen(unchecked_return_type = "RunReport")]
    pub fn report(&self) -> JsResult {
        to_js(&self.run.report())
    }
}
