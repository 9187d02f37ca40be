//! Layer 1: checks a bibliography can pass without asking anyone — required
//! fields, year and DOI shape, duplicates, and agreement with the `.tex` cites.
//!
//! Every check yields [`Finding`]s, never a pass/fail boolean: a finding names
//! the entry, its line and the field, says what is wrong in one lowercase
//! sentence and, where a fix is mechanical (a DOI written as a URL), carries
//! the fixed value. Required fields are a table per entry type with
//! alternatives (`author` or `editor`; `journal` or biblatex's
//! `journaltitle`; `year` or `date`), so BibTeX and biblatex files are judged
//! by the same rules. The current year is a parameter: the core reads no
//! clock, and a year one past it is allowed (papers in press).

use super::inherit::{parent_keys, Index};
use super::parse::{Bibliography, Entry};
use std::collections::{BTreeMap, BTreeSet};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "FindingSeverity"))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The bibliography is wrong or an entry was lost.
    Error,
    /// Probably a mistake, or a form other tools handle badly.
    Warning,
}

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "FindingCode"))]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// The reader met a problem (see [`super::parse::ProblemKind`]).
    Parse,
    /// A field the entry type requires is missing or empty.
    MissingField,
    /// The year is not four digits (or a biblatex date).
    InvalidYear,
    /// The year is before 1900 or after next year.
    YearOutOfRange,
    /// The DOI does not look like `10.<registrant>/<suffix>`.
    InvalidDoi,
    /// The DOI is written as a URL or with a `doi:` prefix.
    DoiNotBare,
    /// Two entries share a citation key.
    DuplicateKey,
    /// Two entries have the same DOI or the same normalized title.
    DuplicateEntry,
    /// A key cited in the `.tex` files is not in the bibliography.
    UndefinedCite,
    /// An entry no `.tex` file cites.
    UnusedEntry,
    /// A `crossref` or `xdata` names no entry of the bibliography.
    MissingParent,
}

/// One thing found wrong.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Finding {
    /// How bad.
    pub severity: Severity,
    /// What kind.
    pub code: Code,
    /// The citation key concerned, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub key: Option<String>,
    /// The file: the `.tex` file for an undefined cite, else none (the `.bib`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub file: Option<String>,
    /// 1-based line in that file (or in the `.bib`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub line: Option<usize>,
    /// The field concerned, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub field: Option<String>,
    /// Lowercase, no trailing period.
    pub message: String,
    /// A value to put instead, when the fix is mechanical.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub suggestion: Option<String>,
}

impl Finding {
    fn entry(severity: Severity, code: Code, entry: &Entry, message: String) -> Self {
        Finding {
            severity,
            code,
            key: Some(entry.key.clone()),
            file: None,
            line: Some(entry.line),
            field: None,
            message,
            suggestion: None,
        }
    }

    /// The finding concerns the field `name` of `entry`: its line is the
    /// field's when the entry has it (a missing field keeps the entry's).
    fn field(mut self, entry: &Entry, name: &str) -> Self {
        if let Some(f) = entry
            .fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
        {
            self.line = Some(f.line);
        }
        self.field = Some(name.to_string());
        self
    }
}

/// One use of a key in a `.tex` file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CiteUse {
    /// The cited key.
    pub key: String,
    /// The `.tex` file's name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
}

/// The required fields of an entry type: each inner list is a set of
/// alternatives, one of which must be present. `None` for an unknown type.
pub fn required_fields(kind: &str) -> Option<&'static [&'static [&'static str]]> {
    const AUTHOR: &[&str] = &["author"];
    const AUTHOR_EDITOR: &[&str] = &["author", "editor"];
    const TITLE: &[&str] = &["title"];
    const YEAR: &[&str] = &["year", "date"];
    const JOURNAL: &[&str] = &["journal", "journaltitle"];
    const BOOKTITLE: &[&str] = &["booktitle"];
    const PUBLISHER: &[&str] = &["publisher"];
    const SCHOOL: &[&str] = &["school", "institution"];
    const INSTITUTION: &[&str] = &["institution", "school"];
    Some(match kind {
        "article" => &[AUTHOR, TITLE, JOURNAL, YEAR],
        "inproceedings" | "conference" => &[AUTHOR, TITLE, BOOKTITLE, YEAR],
        "book" => &[AUTHOR_EDITOR, TITLE, PUBLISHER, YEAR],
        "misc" => &[TITLE],
        "incollection" => &[AUTHOR, TITLE, BOOKTITLE, PUBLISHER, YEAR],
        "inbook" => &[AUTHOR_EDITOR, TITLE, &["chapter", "pages"], PUBLISHER, YEAR],
        "phdthesis" | "mastersthesis" | "thesis" => &[AUTHOR, TITLE, SCHOOL, YEAR],
        "techreport" | "report" => &[AUTHOR, TITLE, INSTITUTION, YEAR],
        "proceedings" => &[TITLE, YEAR],
        "unpublished" => &[AUTHOR, TITLE, &["note"]],
        "manual" | "booklet" => &[TITLE],
        "online" | "electronic" | "www" => &[AUTHOR_EDITOR, TITLE, YEAR, &["url", "doi", "eprint"]],
        _ => return None,
    })
}

/// The DOI of a value written bare, as a URL or with a `doi:` prefix,
/// trimmed, and whether a prefix was removed.
pub fn bare_doi(value: &str) -> (String, bool) {
    let (rest, had_prefix) = crate::ids::strip_doi_prefix(value);
    (rest.to_string(), had_prefix)
}

/// Whether `s` is a bare arXiv id (`YYMM.NNNN(N)` or `archive/YYMMNNN`,
/// optionally with a version); see [`crate::ids::ArxivId::parse`].
fn is_arxiv_id(s: &str) -> bool {
    let s = s.trim();
    // The text must be the id itself, not a URL or a DOI that contains one.
    crate::ids::ArxivId::parse(s).is_some_and(|a| {
        a.as_str()
            .eq_ignore_ascii_case(&crate::ids::strip_arxiv_version(s))
    })
}

/// The id that follows `marker` in `text` (case-insensitive), if it is one.
fn arxiv_after(text: &str, marker: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower.get(from..)?.find(marker) {
        let start = from + i + marker.len();
        let rest = text.get(start..)?.trim_start();
        let id: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-'))
            .collect();
        let id = id.trim_end_matches(['.', '/']);
        let id = id.strip_suffix(".pdf").unwrap_or(id);
        if is_arxiv_id(id) {
            return Some(crate::ids::strip_arxiv_version(id));
        }
        from = start;
    }
    None
}

/// The entry's arXiv id, version removed: `eprint` (when `archiveprefix` or
/// `eprinttype` is arXiv, or the value itself looks like an arXiv id), an
/// arxiv.org `url`, or "arXiv:…" in `journal`, `note` or `howpublished`.
pub fn arxiv_id(entry: &Entry) -> Option<String> {
    if let Some(ep) = entry.decoded("eprint") {
        let declared = ["archiveprefix", "eprinttype"].iter().any(|f| {
            entry
                .decoded(f)
                .is_some_and(|v| v.eq_ignore_ascii_case("arxiv"))
        });
        let ep = ep.strip_prefix("arXiv:").unwrap_or(&ep).trim().to_string();
        if is_arxiv_id(&ep) || (declared && !ep.is_empty()) {
            return Some(crate::ids::strip_arxiv_version(&ep));
        }
    }
    if let Some(url) = entry.decoded("url") {
        for marker in ["arxiv.org/abs/", "arxiv.org/pdf/"] {
            if let Some(id) = arxiv_after(&url, marker) {
                return Some(id);
            }
        }
    }
    for field in ["journal", "journaltitle", "note", "howpublished"] {
        if let Some(v) = entry.decoded(field) {
            if let Some(id) = arxiv_after(&v, "arxiv:") {
                return Some(id);
            }
        }
    }
    None
}

/// The year of an entry as a number: the `year` field if four digits, else the
/// leading year of a biblatex `date` (`2024`, `2024-10`, `2024-10-05`, ranges
/// `2020/2021`). `Err` holds the text that is not a year.
pub fn entry_year(entry: &Entry) -> Option<Result<i32, (String, String)>> {
    // Parsed from the decoded text; reported as written.
    let shown = |f: &str| entry.get(f).unwrap_or_default().trim().to_string();
    if let Some(y) = entry.decoded("year") {
        return Some(parse_year(&y, false).ok_or(("year".to_string(), shown("year"))));
    }
    let d = entry.decoded("date")?;
    Some(parse_year(&d, true).ok_or(("date".to_string(), shown("date"))))
}

fn parse_year(text: &str, is_date: bool) -> Option<i32> {
    let text = text.trim();
    if !is_date {
        return (text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().ok())
            .flatten();
    }
    date_year(text)
}

/// The year of a biblatex `date` (biblatex manual, "Date Specifications":
/// ISO 8601-2 level 1): `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, a time after `T`,
/// a range `A/B` (the year of its start; of its end when the start is open,
/// `../B`), `?`, `~` or `%` for an uncertain or approximate date, `X` for
/// unspecified digits (`199X` is read as 1990), a minus sign before a year
/// BCE, and seasons as months 21 to 24.
fn date_year(text: &str) -> Option<i32> {
    let mut parts = text.split('/');
    let first = parts.next()?;
    let date = if first.is_empty() || first == ".." {
        parts.next()?
    } else {
        first
    };
    let date = date.trim_end_matches(['?', '~', '%']);
    // A time (`T15:00:00`, `T15:00:00Z`, `T15:00:00+01:00`) says nothing of
    // the year; its characters are checked loosely.
    let date = match date.split_once('T') {
        Some((day, time))
            if !time.is_empty()
                && time
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b":.Z+-".contains(&b)) =>
        {
            day
        }
        Some(_) => return None,
        None => date,
    };
    let (negative, date) = match date.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, date),
    };
    let (year, rest) = (date.get(..4)?, date.get(4..)?);
    let digit_or_x = |b: u8| b.is_ascii_digit() || b == b'X';
    // Unspecified digits may end a year (`199X`, `19XX`), not start it.
    let known = year.bytes().take_while(u8::is_ascii_digit).count();
    if known < 2 || !year.bytes().skip(known).all(|b| b == b'X') {
        return None;
    }
    let parts: Vec<&str> = rest.split('-').collect();
    let rest_ok = rest.is_empty()
        || (parts.first() == Some(&"")
            && parts.len() <= 3
            && parts
                .iter()
                .skip(1)
                .all(|p| p.len() == 2 && p.bytes().all(digit_or_x)));
    if !rest_ok {
        return None;
    }
    let year: i32 = year.replace('X', "0").parse().ok()?;
    Some(if negative { -year } else { year })
}

/// The latest year an entry may carry in `now_year`: next year's, for a
/// paper in press or accepted at next year's conference.
pub fn latest_year(now_year: i32) -> i32 {
    now_year.saturating_add(1)
}

/// Checks every entry on its own and the entries against each other.
/// `now_year` is the current year; a year up to `now_year + 1` is accepted.
pub fn check_entries(bib: &Bibliography, now_year: i32) -> Vec<Finding> {
    Layer1::new(bib, now_year).finish()
}

/// [`check_entries`] of one file of several read as one database (`all`,
/// this one among them): an entry's `crossref` and `xdata` parents are
/// looked for in every file.
pub fn check_entries_among(
    bib: &Bibliography,
    all: &[&Bibliography],
    now_year: i32,
) -> Vec<Finding> {
    Layer1::among(bib, all, now_year).finish()
}

/// Layer 1 run a few entries at a time (see [`super::parse::Incremental`]);
/// any sequence of [`Layer1::step`] calls then [`Layer1::finish`] gives
/// exactly what [`check_entries`] gives.
pub struct Layer1<'b> {
    bib: &'b Bibliography,
    now_year: i32,
    next: usize,
    out: Vec<Finding>,
    duplicates: Duplicates<'b>,
    /// Duplicate findings, reported after all the per-entry ones.
    repeated: Vec<Finding>,
    /// The entries by key, for `crossref`/`xdata` inheritance.
    parents: Index<'b>,
}

impl<'b> Layer1<'b> {
    /// Starts the checks; the reader's problems are the first findings.
    pub fn new(bib: &'b Bibliography, now_year: i32) -> Self {
        Layer1::among(bib, &[bib], now_year)
    }

    /// [`Layer1::new`] for one file of several read as one database
    /// (`all`): parents are looked for in every file.
    fn among(bib: &'b Bibliography, all: &[&'b Bibliography], now_year: i32) -> Self {
        let out = bib
            .problems
            .iter()
            .map(|p| Finding {
                severity: if p.kind.is_error() {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                code: Code::Parse,
                key: None,
                file: None,
                line: p.error.location.line,
                field: p.error.location.field.clone(),
                message: p.error.message.clone(),
                suggestion: None,
            })
            .collect();
        Layer1 {
            bib,
            now_year,
            next: 0,
            out,
            duplicates: Duplicates::default(),
            repeated: Vec::new(),
            parents: Index::of_all(all),
        }
    }

    /// Checks up to `n` more entries (at least one); `true` once all are.
    pub fn step(&mut self, n: usize) -> bool {
        let end = self
            .next
            .saturating_add(n.max(1))
            .min(self.bib.entries.len());
        for e in self.bib.entries.get(self.next..end).unwrap_or_default() {
            // Required fields and the year count what the entry inherits
            // through `crossref` and `xdata`; the rest judge it as written.
            check_parents(e, &self.parents, &mut self.out);
            let resolved = self.parents.resolve(e);
            check_required(&resolved, &mut self.out);
            check_year(&resolved, self.now_year, &mut self.out);
            check_doi(e, &mut self.out);
            self.duplicates.see(e, &mut self.repeated);
        }
        self.next = end;
        self.next >= self.bib.entries.len()
    }

    /// Entries checked so far and their number.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.bib.entries.len())
    }

    /// Checks the rest; the duplicates across the file come last.
    pub fn finish(mut self) -> Vec<Finding> {
        while !self.step(usize::MAX) {}
        self.out.append(&mut self.repeated);
        self.out
    }
}

/// A `crossref` or `xdata` naming no entry: BibTeX warns of "a bad cross
/// reference" and the child gets none of the fields it expected.
fn check_parents(e: &Entry, parents: &Index<'_>, out: &mut Vec<Finding>) {
    for (field, key) in parent_keys(e).filter(|(_, k)| parents.get(k).is_none()) {
        out.push(
            Finding::entry(
                Severity::Warning,
                Code::MissingParent,
                e,
                format!(
                    "entry `{}`: `{field}` names `{key}`, which is not in the bibliography",
                    e.key
                ),
            )
            .field(e, field),
        );
    }
}

fn check_required(e: &Entry, out: &mut Vec<Finding>) {
    let Some(required) = required_fields(&e.kind) else {
        return;
    };
    for alternatives in required {
        if !alternatives.iter().any(|f| e.has(f)) {
            let names = alternatives
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(" or ");
            let first = alternatives.first().copied().unwrap_or("");
            out.push(
                Finding::entry(
                    Severity::Error,
                    Code::MissingField,
                    e,
                    format!("`@{}` entry `{}` needs {names}", e.kind, e.key),
                )
                .field(e, first),
            );
        }
    }
}

fn check_year(e: &Entry, now_year: i32, out: &mut Vec<Finding>) {
    match entry_year(e) {
        None => {}
        Some(Err((field, text))) => out.push(
            Finding::entry(
                Severity::Error,
                Code::InvalidYear,
                e,
                if field == "date" {
                    format!(
                        "entry `{}`: date `{text}` is not a date biblatex reads",
                        e.key
                    )
                } else {
                    format!("entry `{}`: `{text}` is not a four-digit year", e.key)
                },
            )
            .field(e, &field),
        ),
        Some(Ok(y)) if !(1900..=latest_year(now_year)).contains(&y) => {
            let field = if e.has("year") { "year" } else { "date" };
            out.push(
                Finding::entry(
                    Severity::Error,
                    Code::YearOutOfRange,
                    e,
                    format!(
                        "entry `{}`: year {y} is outside 1900 to {}",
                        e.key,
                        latest_year(now_year)
                    ),
                )
                .field(e, field),
            )
        }
        Some(Ok(_)) => {}
    }
}

fn check_doi(e: &Entry, out: &mut Vec<Finding>) {
    let Some(raw) = e.decoded("doi") else {
        return;
    };
    let (doi, prefixed) = bare_doi(&raw);
    if !crate::ids::is_doi(&doi) {
        out.push(
            Finding::entry(
                Severity::Error,
                Code::InvalidDoi,
                e,
                format!(
                    "entry `{}`: `{raw}` is not a DOI of the form 10.<registrant>/<suffix>",
                    e.key
                ),
            )
            .field(e, "doi"),
        );
    } else if prefixed {
        let mut f = Finding::entry(
            Severity::Warning,
            Code::DoiNotBare,
            e,
            // The bare DOI is the suggestion, shown beside the message.
            format!(
                "entry `{}`: write the DOI bare, without a resolver or `doi:` prefix",
                e.key
            ),
        )
        .field(e, "doi");
        f.suggestion = Some(doi);
        out.push(f);
    }
}

/// Repeated keys, DOIs and titles, seen one entry at a time in file order
/// (the first of a repeated group is the one the others are compared to).
#[derive(Default)]
struct Duplicates<'b> {
    by_key: BTreeMap<&'b str, &'b Entry>,
    by_folded_key: BTreeMap<String, &'b Entry>,
    by_doi: BTreeMap<String, &'b Entry>,
    by_title: BTreeMap<String, &'b Entry>,
}

impl<'b> Duplicates<'b> {
    fn see(&mut self, e: &'b Entry, out: &mut Vec<Finding>) {
        if e.key.is_empty() {
            return;
        }
        if let Some(first) = self.by_key.get(e.key.as_str()) {
            out.push(Finding::entry(
                Severity::Error,
                Code::DuplicateKey,
                e,
                format!("key `{}` is already used at line {}", e.key, first.line),
            ));
            return;
        }
        self.by_key.insert(&e.key, e);
        let folded = e.key.to_lowercase();
        if let Some(first) = self.by_folded_key.get(&folded) {
            out.push(Finding::entry(
                Severity::Warning,
                Code::DuplicateKey,
                e,
                format!(
                    "key `{}` differs from `{}` (line {}) only in letter case; BibTeX treats them as one",
                    e.key, first.key, first.line
                ),
            ));
        } else {
            self.by_folded_key.insert(folded, e);
        }
        let doi = e.decoded("doi").map(|d| bare_doi(&d).0.to_lowercase());
        let mut reported = false;
        if let Some(doi) = doi.filter(|d| crate::ids::is_doi(d)) {
            if let Some(first) = self.by_doi.get(&doi) {
                out.push(
                    Finding::entry(
                        Severity::Warning,
                        Code::DuplicateEntry,
                        e,
                        format!(
                            "entry `{}` has the same DOI as `{}` (line {})",
                            e.key, first.key, first.line
                        ),
                    )
                    .field(e, "doi"),
                );
                reported = true;
            } else {
                self.by_doi.insert(doi, e);
            }
        }
        if let Some(title) = e.get("title").map(crate::title::normalize) {
            if title.is_empty() {
                return;
            }
            match self.by_title.get(&title) {
                Some(first) if !reported => out.push(
                    Finding::entry(
                        Severity::Warning,
                        Code::DuplicateEntry,
                        e,
                        format!(
                            "entry `{}` has the same title as `{}` (line {})",
                            e.key, first.key, first.line
                        ),
                    )
                    .field(e, "title"),
                ),
                Some(_) => {}
                None => {
                    self.by_title.insert(title, e);
                }
            }
        }
    }
}

/// Compares the keys cited in `.tex` files with the bibliography: each
/// cited key missing from it (one finding per use, with file and line) and
/// each entry never cited. With `cite_all` (a `\nocite{*}`), no entry is
/// unused.
pub fn check_cites(bib: &Bibliography, cites: &[CiteUse], cite_all: bool) -> Vec<Finding> {
    check_cites_in(&[bib], cites, cite_all)
        .pop()
        .unwrap_or_default()
}

/// [`check_cites`] over several files read as one database: a cited key
/// is missing only when no file has it (those findings go with the first
/// file), and an entry is never cited only when no cite reaches it,
/// directly or as the parent of a cited entry in any file. One list of
/// findings per file, in the order given.
pub fn check_cites_in(
    bibs: &[&Bibliography],
    cites: &[CiteUse],
    cite_all: bool,
) -> Vec<Vec<Finding>> {
    let keys: BTreeSet<&str> = bibs
        .iter()
        .flat_map(|b| &b.entries)
        .map(|e| e.key.as_str())
        .collect();
    let cited: BTreeSet<&str> = cites.iter().map(|c| c.key.as_str()).collect();
    let mut out: Vec<Vec<Finding>> = vec![Vec::new(); bibs.len()];
    if let Some(first) = out.first_mut() {
        for c in cites.iter().filter(|c| !keys.contains(c.key.as_str())) {
            first.push(Finding {
                severity: Severity::Error,
                code: Code::UndefinedCite,
                key: Some(c.key.clone()),
                file: Some(c.file.clone()),
                line: Some(c.line),
                field: None,
                message: format!("`{}` is cited but not in the bibliography", c.key),
                suggestion: None,
            });
        }
    }
    if !cite_all {
        let parents = parents_in_use(bibs, &cited);
        let mut seen = BTreeSet::new();
        for (bib, found) in bibs.iter().zip(&mut out) {
            for e in &bib.entries {
                if !e.key.is_empty()
                    && !cited.contains(e.key.as_str())
                    && !parents.contains(&e.key.to_lowercase())
                    && seen.insert(e.key.as_str())
                {
                    found.push(Finding::entry(
                        Severity::Warning,
                        Code::UnusedEntry,
                        e,
                        format!("entry `{}` is never cited", e.key),
                    ));
                }
            }
        }
    }
    out
}

/// The keys (lowercased, as BibTeX finds a parent) of the entries that
/// cited entries name in `crossref` or `xdata`, and those their parents
/// name in turn: they are in use, since the cited entries take fields from
/// them, and deleting one would break its children.
fn parents_in_use(bibs: &[&Bibliography], cited: &BTreeSet<&str>) -> BTreeSet<String> {
    let index = Index::of_all(bibs);
    let mut used = BTreeSet::new();
    let mut todo: Vec<&Entry> = bibs
        .iter()
        .flat_map(|b| &b.entries)
        .filter(|e| cited.contains(e.key.as_str()))
        .collect();
    while let Some(e) = todo.pop() {
        for (_, key) in parent_keys(e) {
            if let Some(parent) = index.get(key) {
                if used.insert(parent.key.to_lowercase()) {
                    todo.push(parent);
                }
            }
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bibtex::parse::parse;

    const NOW: i32 = 2025;

    /// A `crossref` or `xdata` key that names no entry is reported on the
    /// field's line; one that names an entry in any letter case is not.
    #[test]
    fn parents_that_do_not_exist() {
        use Code::MissingParent as P;
        let pro = "@proceedings{conf, title={C}, year=2020}";
        let child = |x: &str| format!("{pro}\n@inproceedings{{c, author={{A}}, title={{T}}, {x}}}");
        check(&child("crossref={CONF}"), &[]);
        check(
            &child("booktitle={B}, year=2020, crossref={nowhere}"),
            &[(P, "c", Some("crossref"))],
        );
        check(
            &child("crossref={conf}, xdata={conf, gone}"),
            &[(P, "c", Some("xdata"))],
        );
        let f = check_entries(
            &parse(&child("booktitle={B}, year=2020,\n crossref={nowhere}")),
            NOW,
        );
        assert_eq!(
            (f[0].line, f[0].message.as_str()),
            (
                Some(3),
                "entry `c`: `crossref` names `nowhere`, which is not in the bibliography"
            )
        );
        // In another file of the same database, the parent is found.
        let (parent, kid) = (
            parse(pro),
            parse("@inproceedings{c, author={A}, title={T}, crossref={conf}}"),
        );
        assert_eq!(check_entries_among(&kid, &[&parent, &kid], NOW), []);
        assert_eq!(
            check_entries(&kid, NOW)
                .iter()
                .map(|f| f.code)
                .collect::<Vec<_>>(),
            [P, Code::MissingField, Code::MissingField]
        );
    }

    /// An entry a cited entry takes fields from (`crossref`, `xdata`, and
    /// their own parents in turn, keys in any case) is in use, not "never
    /// cited"; a parent no cited entry names still is.
    #[test]
    fn parents_of_cited_entries_are_in_use() {
        let bib = parse(
            "@inproceedings{child, title={T}, crossref={Conf}}\n\
             @proceedings{conf, title={C}, crossref={series}}\n\
             @book{series, title={S}}\n\
             @xdata{pub, publisher={P}}\n\
             @book{b, title={B}, xdata={pub, other}}\n\
             @proceedings{orphan, title={O}}\n\
             @inproceedings{lone, title={L}, crossref={orphan}}",
        );
        let cites: Vec<CiteUse> = ["child", "b"]
            .iter()
            .map(|k| CiteUse {
                key: k.to_string(),
                file: "main.tex".into(),
                line: 1,
            })
            .collect();
        let unused: Vec<String> = check_cites(&bib, &cites, false)
            .into_iter()
            .filter(|f| f.code == Code::UnusedEntry)
            .filter_map(|f| f.key)
            .collect();
        assert_eq!(unused, ["orphan", "lone"]);
    }

    /// Checks `bib` and compares `(code, key, field)` of every finding.
    fn check(bib: &str, expected: &[(Code, &str, Option<&str>)]) {
        let found = check_entries(&parse(bib), NOW);
        let got: Vec<(Code, String, Option<String>)> = found
            .iter()
            .map(|f| (f.code, f.key.clone().unwrap_or_default(), f.field.clone()))
            .collect();
        let want: Vec<(Code, String, Option<String>)> = expected
            .iter()
            .map(|(c, k, f)| (*c, k.to_string(), f.map(str::to_string)))
            .collect();
        assert_eq!(got, want, "findings of {bib:?}: {found:#?}");
    }

    const ART: &str = "author={A}, title={T}, journal={J}";

    /// A finding about a field points at the field's line, so an annotation
    /// lands on the line to change; a missing field points at the entry.
    #[test]
    fn field_findings_point_at_the_field() {
        let bib = "@article{a,\n author={A},\n title={T},\n year={20x1},\n doi={https://doi.org/10.1/x}\n}";
        let lines: Vec<(Code, Option<usize>)> = check_entries(&parse(bib), NOW)
            .iter()
            .map(|f| (f.code, f.line))
            .collect();
        assert_eq!(
            lines,
            [
                (Code::MissingField, Some(1)),
                (Code::InvalidYear, Some(4)),
                (Code::DoiNotBare, Some(5)),
            ]
        );
    }

    #[test]
    fn required_fields_by_type() {
        use Code::MissingField as M;
        check(&format!("@article{{a, {ART}, year=2020}}"), &[]);
        check(
            "@article{a, title={T}, year=2020}",
            &[(M, "a", Some("author")), (M, "a", Some("journal"))],
        );
        check(
            "@article{a, author={A}, title={T}, journaltitle={J}, date={2020-01}}",
            &[],
        );
        check(
            "@inproceedings{a, author={A}, title={T}, year=2020}",
            &[(M, "a", Some("booktitle"))],
        );
        check(
            "@book{a, editor={E}, title={T}, publisher={P}, year=2020}",
            &[],
        );
        check(
            "@book{a, title={T}, publisher={P}, year=2020}",
            &[(M, "a", Some("author"))],
        );
        check("@misc{a}", &[(M, "a", Some("title"))]);
        check("@misc{a, title={ {} }}", &[(M, "a", Some("title"))]);
        check(
            "@phdthesis{a, author={A}, title={T}, school={S}, year=2020}",
            &[],
        );
        check(
            "@thesis{a, author={A}, title={T}, institution={S}, date={2020}}",
            &[],
        );
        check(
            "@techreport{a, author={A}, title={T}, year=2020}",
            &[(M, "a", Some("institution"))],
        );
        check(
            "@inbook{a, author={A}, title={T}, pages={1--2}, publisher={P}, year=2020}",
            &[],
        );
        check(
            "@inbook{a, author={A}, title={T}, publisher={P}, year=2020}",
            &[(M, "a", Some("chapter"))],
        );
        check(
            "@unpublished{a, author={A}, title={T}}",
            &[(M, "a", Some("note"))],
        );
        check(
            "@online{a, author={A}, title={T}, date={2024-10-05}}",
            &[(M, "a", Some("url"))],
        );
        check("@proceedings{a, title={T}, year=2020}", &[]);
        check("@manual{a, title={T}}", &[]);
        check("@booklet{a, title={T}}", &[]);
        check(
            "@mastersthesis{a, author={A}, title={T}, school={S}, year=2020}",
            &[],
        );
        check(
            "@incollection{a, author={A}, title={T}, booktitle={B}, year=2020}",
            &[(M, "a", Some("publisher"))],
        );
        check(
            "@report{a, author={A}, title={T}, institution={I}, year=2020}",
            &[],
        );
        // An unknown type has no requirements.
        check("@dataset{a}", &[]);
    }

    #[test]
    fn years() {
        let y = |v: &str| format!("@article{{a, {ART}, year={{{v}}}}}");
        let d = |v: &str| format!("@article{{a, {ART}, date={{{v}}}}}");
        check(&y("2020"), &[]);
        check(&y("2026"), &[]); // next year: in press
        check(&y("1900"), &[]);
        check(&y("2027"), &[(Code::YearOutOfRange, "a", Some("year"))]);
        check(&y("1899"), &[(Code::YearOutOfRange, "a", Some("year"))]);
        check(&y("20"), &[(Code::InvalidYear, "a", Some("year"))]);
        check(&y("2020a"), &[(Code::InvalidYear, "a", Some("year"))]);
        let f = check_entries(&parse(&y("2001--")), NOW);
        assert_eq!(f[0].message, "entry `a`: `2001--` is not a four-digit year");
        check(&y("in press"), &[(Code::InvalidYear, "a", Some("year"))]);
        check(&y("2024-10-05"), &[(Code::InvalidYear, "a", Some("year"))]);
        check(&d("2024-10-05"), &[]);
        check(&d("2024-10"), &[]);
        check(&d("2020/2021"), &[]);
        check(&d("2024-1-5"), &[(Code::InvalidYear, "a", Some("date"))]);
        // biblatex's ISO 8601-2 dates (biber's own `dateformats.bib`).
        for ok in [
            "2001-01-03T15:00:00",
            "2001-01-03T15:00:00Z",
            "199X",
            "2009-02?",
            "2009~",
            "2004-04-05%",
            "../2009",
            "2009/..",
            "2020-XX",
            "2009-21",
        ] {
            check(&d(ok), &[]);
        }
        for bad in ["X999", "1XX9", "2001-01-03T", "2001-01-03Tnoon", "20"] {
            check(&d(bad), &[(Code::InvalidYear, "a", Some("date"))]);
        }
        let f = check_entries(&parse(&d("2024-1-5")), NOW);
        assert_eq!(
            f[0].message,
            "entry `a`: date `2024-1-5` is not a date biblatex reads"
        );
        // A year before the era is a date, then out of the range rule's years.
        check(&d("-0379-02"), &[(Code::YearOutOfRange, "a", Some("date"))]);
        check(
            &d("1850-01-01"),
            &[(Code::YearOutOfRange, "a", Some("date"))],
        );
    }

    #[test]
    fn dois() {
        let doi = |v: &str| format!("@article{{a, {ART}, year=2020, doi={{{v}}}}}");
        check(&doi("10.1038/srep16696"), &[]);
        check(&doi("10.1000.10/xyz"), &[]);
        check(
            &doi("https://doi.org/10.1038/srep16696"),
            &[(Code::DoiNotBare, "a", Some("doi"))],
        );
        check(
            &doi("doi:10.1038/srep16696"),
            &[(Code::DoiNotBare, "a", Some("doi"))],
        );
        check(&doi("11.1038/x"), &[(Code::InvalidDoi, "a", Some("doi"))]);
        check(&doi("10.abc/x"), &[(Code::InvalidDoi, "a", Some("doi"))]);
        check(&doi("10.1038/"), &[(Code::InvalidDoi, "a", Some("doi"))]);
        check(&doi("10.1038"), &[(Code::InvalidDoi, "a", Some("doi"))]);
        // The rule is ids::is_doi's: an empty registrant part is no DOI here
        // nor in a lookup.
        check(&doi("10../x"), &[(Code::InvalidDoi, "a", Some("doi"))]);
        check(
            &doi("https://doi.org/nonsense"),
            &[(Code::InvalidDoi, "a", Some("doi"))],
        );
        let f = check_entries(&parse(&doi("https://dx.doi.org/10.1038/srep16696")), NOW);
        assert_eq!(f[0].suggestion.as_deref(), Some("10.1038/srep16696"));
    }

    #[test]
    fn duplicates() {
        let e =
            |k: &str, t: &str, doi: &str| format!("@misc{{{k}, title={{{t}}}, doi={{{doi}}}}}\n");
        check(
            &(e("a", "One", "10.1/x") + &e("a", "Two", "10.1/y")),
            &[(Code::DuplicateKey, "a", None)],
        );
        check(
            &(e("a", "One", "10.1/x") + &e("A", "Two", "10.1/y")),
            &[(Code::DuplicateKey, "A", None)],
        );
        check(
            &(e("a", "One", "10.1/X") + &e("b", "Two", "https://doi.org/10.1/x")),
            &[
                (Code::DoiNotBare, "b", Some("doi")),
                (Code::DuplicateEntry, "b", Some("doi")),
            ],
        );
        check(
            &(e("a", "The {Title}!", "10.1/x") + &e("b", "the title", "10.1/y")),
            &[(Code::DuplicateEntry, "b", Some("title"))],
        );
        check(&(e("a", "One", "10.1/x") + &e("b", "Two", "10.1/y")), &[]);
    }

    #[test]
    fn parse_problems_become_findings() {
        let f = check_entries(
            &parse("@misc{a, title={x}, title={y}}\n@misc{b, = }\n"),
            NOW,
        );
        let got: Vec<(Code, Severity, Option<usize>)> =
            f.iter().map(|f| (f.code, f.severity, f.line)).collect();
        assert_eq!(
            got,
            vec![
                (Code::Parse, Severity::Warning, Some(1)),
                (Code::Parse, Severity::Error, Some(2)),
                // `b` broke after its key, so it is kept (as BibTeX keeps
                // it) and checked like any entry.
                (Code::MissingField, Severity::Error, Some(2)),
            ]
        );
    }

    #[test]
    fn cites_against_entries() {
        let bib = parse("@misc{a, title={A}}\n@misc{b, title={B}}\n");
        let uses = |keys: &[(&str, usize)]| -> Vec<CiteUse> {
            keys.iter()
                .map(|(k, l)| CiteUse {
                    key: k.to_string(),
                    file: "main.tex".into(),
                    line: *l,
                })
                .collect()
        };
        let summary = |f: Vec<Finding>| -> Vec<(Code, String, Option<usize>)> {
            f.into_iter()
                .map(|f| (f.code, f.key.unwrap_or_default(), f.line))
                .collect()
        };
        assert_eq!(
            summary(check_cites(
                &bib,
                &uses(&[("a", 3), ("zz", 7), ("zz", 9)]),
                false
            )),
            vec![
                (Code::UndefinedCite, "zz".to_string(), Some(7)),
                (Code::UndefinedCite, "zz".to_string(), Some(9)),
                (Code::UnusedEntry, "b".to_string(), Some(2)),
            ]
        );
        assert_eq!(summary(check_cites(&bib, &uses(&[("a", 3)]), true)), vec![]);
        // Keys are case-sensitive for biber and LaTeX's \cite.
        assert_eq!(
            summary(check_cites(&bib, &uses(&[("A", 1), ("b", 1)]), false)),
            vec![
                (Code::UndefinedCite, "A".to_string(), Some(1)),
                (Code::UnusedEntry, "a".to_string(), Some(1)),
            ]
        );
    }
}
