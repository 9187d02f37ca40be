//! The use case "check my `.bib` against my `.tex`": one entry point,
//! [`check_file`], returning one report type, [`FileReport`], that the CLI
//! (`citegate bibcheck --json`), the JavaScript package (`bibCheckFormat`)
//! and the app all render. No edge assembles the check itself.
//!
//! Layer 1 needs nothing but the file and the cites: the format findings,
//! the cites missing from the `.bib` (`undefined`), the entries never cited
//! (`unused`) and the entries with nothing to look up (no DOI, arXiv id or
//! title), which the online layers can only call unverified. The online
//! layers (2–4) add an [`OnlineReport`] built by [`online_report`] from a
//! resolver run the caller drove.

use super::accept::{Accepted, MarkStatus, StaleMark};
use super::format::{self, CiteUse, Code, Finding, Severity};
use super::matching::Mode;
use super::parse::{Bibliography, Entry, Problem};
use super::verdict::{self, Class, ClassCounts, NoticeNote, Reason, Verdict};
use crate::cutoff::Date;
use crate::resolve::{self, Answer, Outcome, Reference, Resolution, Route};
use crate::tex::Project;
use crate::works::{ApiError, Work};
use serde::Serialize;

/// An `\input`/`\include` whose file was not supplied: its cites are not
/// checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MissingFile {
    /// The file holding the command.
    pub file: String,
    /// 1-based line of the command.
    pub line: usize,
    /// The name as written.
    pub name: String,
}

impl MissingFile {
    /// The warning the surfaces show for it.
    pub fn describe(&self) -> String {
        format!(
            "{}:{}: included file `{}` not found; its cites are not checked",
            self.file, self.line, self.name
        )
    }
}

/// The BibTeX report, one shape on every surface.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "BibCheck"))]
pub struct FileReport {
    /// The bibliography's name as given.
    pub bib: String,
    /// Matching thresholds of the online layers (recorded; layer 1 does not
    /// depend on them).
    pub mode: Mode,
    /// Entries read.
    pub entries: usize,
    /// The LaTeX files read, roots first then included files.
    pub tex_files: Vec<String>,
    /// Includes whose file was not supplied.
    pub missing_includes: Vec<MissingFile>,
    /// Findings of severity error.
    pub errors: usize,
    /// Findings of severity warning.
    pub warnings: usize,
    /// Keys cited but not in the `.bib`, sorted.
    pub undefined: Vec<String>,
    /// Entries never cited, sorted (empty when a `\nocite{*}` cites all).
    pub unused: Vec<String>,
    /// Entries with no DOI, arXiv id or title, in file order: nothing to
    /// look up, so the online layers can only call them unverified.
    pub nothing_to_look_up: Vec<String>,
    /// Every layer-1 finding.
    pub findings: Vec<Finding>,
    /// What the reader could not read (each is also a `parse` finding).
    pub problems: Vec<Problem>,
    /// Layers 2–4, when they were run.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub online: Option<OnlineReport>,
}

impl FileReport {
    /// True when no finding is as bad as `fail_at` (a warning: any finding;
    /// an error: errors only) and every entry checked online is valid or
    /// accepted by a reviewer as a false alarm.
    pub fn passes(&self, fail_at: Severity) -> bool {
        let offline = !self
            .findings
            .iter()
            .any(|f| fail_at == Severity::Warning || f.severity == Severity::Error);
        let online = self.online.as_ref().is_none_or(OnlineReport::passes);
        offline && online
    }

    /// The figures line: `N entries, N errors, …`.
    pub fn summary(&self) -> String {
        format!(
            "{} entries, {} errors, {} warnings, {} undefined keys, {} unused entries",
            self.entries,
            self.errors,
            self.warnings,
            self.undefined.len(),
            self.unused.len()
        )
    }
}

/// The reason an entry with no DOI, arXiv id or title stays unverified.
pub const NOTHING_TO_LOOK_UP: &str = "nothing to look up: no doi, arxiv id or title";

/// True when an entry has no DOI, arXiv id or title to look up by.
pub fn has_nothing_to_look_up(reference: &Reference) -> bool {
    reference.doi.is_none() && reference.arxiv.is_none() && reference.title.is_none()
}

/// The cites of a scanned LaTeX project as layer 1 reads them, and whether
/// a `\nocite{*}` cites every entry.
pub fn cite_uses(project: &Project) -> (Vec<CiteUse>, bool) {
    let uses = project
        .cites()
        .map(|(file, c)| CiteUse {
            key: c.key.to_string(),
            file: file.to_string(),
            line: c.line,
        })
        .collect();
    (uses, project.nocites_all())
}

/// The `.bib` against `.tex` findings alone (undefined cites, unused
/// entries); fast, for a page that re-runs them when only the sources change.
pub fn cite_findings(bib: &Bibliography, project: &Project) -> Vec<Finding> {
    let (uses, cite_all) = cite_uses(project);
    format::check_cites(bib, &uses, cite_all)
}

/// Layer 1 of a bibliography named `bib_name`, against the scanned LaTeX
/// `project` when there is one. `now_year` bounds the year rule.
///
/// ```
/// use citegate_core::bibtex::{check, parse};
/// use std::collections::BTreeMap;
/// let bib = parse::parse("@article{a, title={A}, author={X}, journal={J}, year={2020}}\n@misc{b, note={n}}");
/// let files = BTreeMap::from([("main.tex".to_string(), r"\cite{a,ghost}".to_string())]);
/// let project = citegate_core::tex::scan_project(&["main.tex".to_string()], &files);
/// let r = check::check_file("refs.bib", &bib, Some(&project), 2025);
/// assert_eq!(r.undefined, ["ghost"]);
/// assert_eq!(r.unused, ["b"]);
/// assert_eq!(r.nothing_to_look_up, ["b"]);
/// ```
pub fn check_file(
    bib_name: &str,
    bib: &Bibliography,
    project: Option<&Project>,
    now_year: i32,
) -> FileReport {
    let findings = format::check_entries(bib, now_year);
    finish(bib_name, bib, project, findings)
}

/// [`check_file`] with the entry findings already computed (a page that
/// runs [`format::Layer1`] a slice at a time).
pub fn finish(
    bib_name: &str,
    bib: &Bibliography,
    project: Option<&Project>,
    findings: Vec<Finding>,
) -> FileReport {
    let cites = project.map(|p| cite_findings(bib, p)).unwrap_or_default();
    report(bib_name, bib, project, findings, cites)
}

/// Layer 1 of several files read as one database, in the order given
/// (BibTeX's `\bibliography{abbrev,refs}`; read each with
/// [`super::read_bibliography_after`] so that its macros are known): one
/// report per file, its entries checked as [`check_file`] checks them,
/// while the checks against the `.tex` files see every file. A key cited
/// but in no file is reported once, in the first file's report.
///
/// ```
/// use citegate_core::bibtex::{check, parse};
/// use std::collections::BTreeMap;
/// let a = parse::parse("@misc{a, title={A}}");
/// let b = parse::parse("@misc{b, title={B}}\n@misc{c, title={C}}");
/// let files = BTreeMap::from([("main.tex".to_string(), r"\cite{a,b,ghost}".to_string())]);
/// let project = citegate_core::tex::scan_project(&["main.tex".to_string()], &files);
/// let r = check::check_files(&[("a.bib", &a), ("b.bib", &b)], Some(&project), 2025);
/// assert_eq!((r[0].undefined.clone(), r[1].undefined.clone()), (vec!["ghost".to_string()], vec![]));
/// assert_eq!((r[0].unused.len(), r[1].unused.clone()), (0, vec!["c".to_string()]));
/// ```
pub fn check_files(
    files: &[(&str, &Bibliography)],
    project: Option<&Project>,
    now_year: i32,
) -> Vec<FileReport> {
    let bibs: Vec<&Bibliography> = files.iter().map(|(_, b)| *b).collect();
    let mut cites = match project {
        Some(p) => {
            let (uses, cite_all) = cite_uses(p);
            format::check_cites_in(&bibs, &uses, cite_all)
        }
        None => vec![Vec::new(); files.len()],
    };
    files
        .iter()
        .zip(cites.iter_mut())
        .map(|((name, bib), cites)| {
            let findings = format::check_entries_among(bib, &bibs, now_year);
            report(name, bib, project, findings, std::mem::take(cites))
        })
        .collect()
}

/// A file's report from its entry findings and its findings against the
/// `.tex` files.
fn report(
    bib_name: &str,
    bib: &Bibliography,
    project: Option<&Project>,
    mut findings: Vec<Finding>,
    cites: Vec<Finding>,
) -> FileReport {
    let mut tex_files = Vec::new();
    let mut missing_includes = Vec::new();
    findings.extend(cites);
    if let Some(p) = project {
        tex_files = p.files.iter().map(|f| f.name.clone()).collect();
        missing_includes = p
            .missing
            .iter()
            .map(|m| MissingFile {
                file: m.file.clone(),
                line: m.line,
                name: m.name.clone(),
            })
            .collect();
    }
    let keys_of = |code: Code| -> Vec<String> {
        let mut v: Vec<String> = findings
            .iter()
            .filter(|f| f.code == code)
            .filter_map(|f| f.key.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    FileReport {
        bib: bib_name.to_string(),
        mode: Mode::default(),
        entries: bib.entries.len(),
        tex_files,
        missing_includes,
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        undefined: keys_of(Code::UndefinedCite),
        unused: keys_of(Code::UnusedEntry),
        nothing_to_look_up: bib
            .entries
            .iter()
            .filter(|e| has_nothing_to_look_up(&Reference::from_entry(e)))
            .map(|e| e.key.clone())
            .collect(),
        problems: bib.problems.clone(),
        findings,
        online: None,
    }
}

/// The online layers' part of the report; the schema is in the README and
/// stable.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OnlineReport {
    /// Entries the sources confirm.
    pub valid: usize,
    /// Entries no source has, or that misstate their record.
    pub hallucinated: usize,
    /// Entries that could not be decided.
    pub uncertain: usize,
    /// Entries in each class (fabricated, miscited, retracted, unverified,
    /// valid).
    pub classes: ClassCounts,
    /// Requests sent to the services (retries included).
    pub requests: usize,
    /// Requests answered from a cache.
    pub from_cache: usize,
    /// Reviewer marks not applied: on no entry, or on an entry that changed
    /// since ([`super::accept::apply`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub stale_marks: Vec<StaleMark>,
    /// One per entry, in file order.
    pub entries: Vec<OnlineEntry>,
}

impl OnlineReport {
    /// True when every entry is valid or a reviewer accepted it as a false
    /// alarm.
    pub fn passes(&self) -> bool {
        self.entries.iter().all(OnlineEntry::passes)
    }
}

/// The online verdict on one entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OnlineEntry {
    /// The entry's key.
    pub key: String,
    /// 1-based line of the entry's `@`.
    pub line: usize,
    /// Valid, hallucinated or uncertain.
    pub verdict: Verdict,
    /// What a chair does with it: fabricated, miscited, retracted,
    /// unverified or valid ([`Class::words`] says it in words).
    pub class: Class,
    /// Why, in words.
    pub reasons: Vec<Reason>,
    /// The resolver's decision: found, wrong_id, not_found or unverified.
    pub outcome: &'static str,
    /// The decision in words.
    pub summary: String,
    /// The entry with every change applied, when it misstates its record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub corrected: Option<String>,
    /// The corrections one field at a time (field, the entry's value, the
    /// record's, where it comes from, why), each for a person to accept or
    /// refuse.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub changes: Vec<verdict::Change>,
    /// Retractions, expressions of concern and corrections of the cited
    /// work, each with its DOI, date and link.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub notices: Vec<NoticeNote>,
    /// The entry's [`super::accept::fingerprint`], for a reviewer's mark.
    pub fingerprint: String,
    /// A reviewer's mark on the entry ([`super::accept::apply`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub accepted: Option<Accepted>,
    /// What each source answered.
    pub evidence: Vec<SourceEvidence>,
    /// The reference as the paper printed it, when it was read from a
    /// paper's text ([`crate::paper`]) rather than a `.bib`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub raw: Option<String>,
}

impl OnlineEntry {
    /// True when the entry is valid or a reviewer accepted it as a false
    /// alarm.
    pub fn passes(&self) -> bool {
        self.class == Class::Valid
            || self
                .accepted
                .as_ref()
                .is_some_and(|a| a.status == MarkStatus::FalseAlarm)
    }

    /// The verdict part of the entry, as [`verdict::judge`] gave it.
    pub fn judged(&self) -> verdict::EntryVerdict {
        verdict::EntryVerdict {
            verdict: self.verdict,
            class: self.class,
            reasons: self.reasons.clone(),
            corrected: self.corrected.clone(),
            changes: self.changes.clone(),
            notices: self.notices.clone(),
        }
    }
}

/// What one source answered about one entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SourceEvidence {
    /// The service's name.
    pub source: &'static str,
    /// The route the question came from.
    pub route: Route,
    /// What was asked (the DOI, arXiv id or title).
    pub asked: String,
    /// found, hits, not_here or failed.
    pub answered: &'static str,
    /// The records it answered with.
    pub records: Vec<Work>,
    /// Why it could not be asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<ApiError>,
    /// The local dump that answered, with its date, when not the service.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub dump: Option<String>,
}

/// The outcome's name as the report writes it.
pub fn outcome_name(o: &Outcome) -> &'static str {
    match o {
        Outcome::Found { .. } => "found",
        Outcome::WrongId { .. } => "wrong_id",
        Outcome::NotFound => "not_found",
        Outcome::Unverified { .. } => "unverified",
    }
}

fn evidence_of(res: &Resolution) -> Vec<SourceEvidence> {
    res.evidence
        .iter()
        .map(|e| {
            let (answered, records, error) = match &e.answer {
                Answer::Found { work } => ("found", vec![work.clone()], None),
                Answer::Hits { works } => ("hits", works.clone(), None),
                Answer::NotHere => ("not_here", Vec::new(), None),
                Answer::Failed { error } => ("failed", Vec::new(), Some(error.clone())),
            };
            SourceEvidence {
                source: e.service.name(),
                route: e.route,
                asked: e.asked.clone(),
                answered,
                records,
                error,
                dump: e.dump.clone(),
            }
        })
        .collect()
}

/// The references a resolver run over `bib` takes, in file order.
pub fn references(bib: &Bibliography) -> Vec<Reference> {
    bib.entries.iter().map(Reference::from_entry).collect()
}

/// Layers 2–4 from a finished resolver run over [`references`]`(bib)`:
/// each entry judged by the verdict rules on `today`. `requests` and
/// `from_cache` are the driver's counts.
pub fn online_report(
    bib: &Bibliography,
    run: &resolve::Report,
    today: Date,
    requests: usize,
    from_cache: usize,
) -> OnlineReport {
    let mut online = OnlineReport {
        valid: 0,
        hallucinated: 0,
        uncertain: 0,
        classes: ClassCounts::default(),
        requests,
        from_cache,
        stale_marks: Vec::new(),
        entries: Vec::new(),
    };
    for (entry, res) in bib.entries.iter().zip(&run.resolutions) {
        let e = online_entry(entry, res, today);
        match e.verdict {
            Verdict::Valid => online.valid += 1,
            Verdict::Hallucinated => online.hallucinated += 1,
            Verdict::Uncertain => online.uncertain += 1,
        }
        online.classes.add(e.class);
        online.entries.push(e);
    }
    online
}

/// One entry of [`online_report`]: `entry` judged from its resolution on
/// `today` (a page shows each entry with it as soon as it is decided).
pub fn online_entry(entry: &Entry, res: &Resolution, today: Date) -> OnlineEntry {
    let v = verdict::judge(entry, res, today);
    OnlineEntry {
        key: entry.key.clone(),
        line: entry.line,
        verdict: v.verdict,
        class: v.class,
        reasons: v.reasons,
        outcome: outcome_name(&res.outcome),
        summary: res.outcome.describe(),
        corrected: v.corrected,
        changes: v.changes,
        notices: v.notices,
        fingerprint: super::accept::fingerprint(entry),
        accepted: None,
        evidence: evidence_of(res),
        raw: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bibtex::parse;
    use std::collections::BTreeMap;

    const BIB: &str = "@article{ok, title={A Title}, author={Doe, J.}, journal={J}, year={2020}}\n\
                       @misc{bare, note={a web page}}\n\
                       @article{bad, title={B}, author={Roe, R.}, journal={J}}\n";

    fn project(files: &[(&str, &str)]) -> Project {
        let map: BTreeMap<String, String> = files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let roots: Vec<String> = files.iter().take(1).map(|(n, _)| n.to_string()).collect();
        crate::tex::scan_project(&roots, &map)
    }

    /// (tex files, expected undefined, unused, nothing to look up, missing includes)
    fn check(
        tex: Option<&[(&str, &str)]>,
        undefined: &[&str],
        unused: &[&str],
        nothing: &[&str],
        missing: usize,
    ) {
        let bib = parse::parse(BIB);
        let p = tex.map(project);
        let r = check_file("refs.bib", &bib, p.as_ref(), 2025);
        assert_eq!(r.entries, 3);
        assert_eq!(r.undefined, undefined, "{tex:?}");
        assert_eq!(r.unused, unused, "{tex:?}");
        assert_eq!(r.nothing_to_look_up, nothing, "{tex:?}");
        assert_eq!(r.missing_includes.len(), missing, "{tex:?}");
        assert_eq!(
            r.errors + r.warnings,
            r.findings.len(),
            "every finding is counted once"
        );
    }

    #[test]
    fn layer_one_cases() {
        check(None, &[], &[], &["bare"], 0);
        check(
            Some(&[("main.tex", r"\cite{ok,ghost}")]),
            &["ghost"],
            &["bad", "bare"],
            &["bare"],
            0,
        );
        check(
            Some(&[("main.tex", r"\nocite{*}\cite{ok}")]),
            &[],
            &[],
            &["bare"],
            0,
        );
        check(
            Some(&[("main.tex", r"\input{gone}\cite{ok,bad,bare}")]),
            &[],
            &[],
            &["bare"],
            1,
        );
    }

    #[test]
    fn tex_files_and_missing_include_words() {
        let bib = parse::parse(BIB);
        let p = project(&[
            ("main.tex", "\\input{sec}\n\\input{gone}"),
            ("sec.tex", r"\cite{ok}"),
        ]);
        let r = check_file("refs.bib", &bib, Some(&p), 2025);
        assert_eq!(r.tex_files, ["main.tex", "sec.tex"]);
        assert_eq!(
            r.missing_includes[0].describe(),
            "main.tex:2: included file `gone` not found; its cites are not checked"
        );
    }

    #[test]
    fn passes_by_severity() {
        let bib = parse::parse(BIB);
        let r = check_file("refs.bib", &bib, None, 2025);
        // `bad` has no year: an error, so it fails at warning and at error.
        assert!(!r.passes(Severity::Warning));
        assert!(!r.passes(Severity::Error));
        let clean = check_file("x.bib", &parse::parse(""), None, 2025);
        assert!(clean.passes(Severity::Warning));
    }

    #[test]
    fn parse_problems_travel_with_the_report() {
        let bib = parse::parse("@article{a, title={x}");
        let r = check_file("x.bib", &bib, None, 2025);
        assert_eq!(r.problems.len(), bib.problems.len());
        assert!(!r.problems.is_empty());
    }
}
