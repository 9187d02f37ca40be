//! The BibTeX check's results as a researcher reads and keeps them: each
//! entry's status in words ([`Status`]: "not found anywhere", "found but
//! differs", "could not check" …), links to the records the sources hold
//! ([`links`]), the verdict counts ([`tally`]), the `.bib` with its
//! corrections applied ([`fixed_bib`]) and the report as JSON, CSV and
//! Markdown ([`to_json`], [`to_csv`], [`to_markdown`]).
//!
//! Everything here is built from a [`FileReport`] (and the
//! [`Bibliography`] it was made from), so every surface exports the same
//! thing. Links are built from identifiers, never taken from an answer's
//! HTML, and always point at the service's own https page.

use super::check::{FileReport, OnlineEntry, OnlineReport};
pub use super::edit::locate;
use super::parse::Bibliography;
use super::verdict::{self, Class, ReasonKind};
use crate::resolve::{self, Answer};
use crate::works::{ApiErrorKind, Work};
use serde::Serialize;

/// An entry's status as the page and the exports show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every source that answered agrees: no index has the work.
    NotFound,
    /// The cited work has been retracted.
    Retracted,
    /// A record is the cited work, but the entry misstates it.
    Differs,
    /// Nothing was found against it, yet the entry itself is implausible
    /// (a placeholder author, a year after today) and no search settled it.
    Doubtful,
    /// A source could not be asked, or the entry has nothing to look up.
    Unchecked,
    /// The entry says what its record says.
    Matches,
}

impl Status {
    /// Every status, worst first (the order of the chart and of a sort).
    pub const ALL: [Status; 6] = [
        Status::NotFound,
        Status::Retracted,
        Status::Differs,
        Status::Doubtful,
        Status::Unchecked,
        Status::Matches,
    ];

    /// The status in words.
    pub fn label(self) -> &'static str {
        match self {
            Status::NotFound => "not found anywhere",
            Status::Retracted => "retracted",
            Status::Differs => "found but differs",
            Status::Doubtful => "doubtful on its face",
            Status::Unchecked => "could not check",
            Status::Matches => "matches its record",
        }
    }

    /// What the status means, for the page's legend: what was asked and
    /// what a person does about it.
    pub fn meaning(self) -> &'static str {
        match self {
            Status::NotFound => "every source was asked and answered, and none holds this work: check that it exists before citing it",
            Status::Retracted => "a source records that the cited work has been retracted (the notice, its date and link are shown): cite it only to discuss the retraction",
            Status::Differs => "a source holds the cited work, but the entry misstates some of it (title, authors, year, venue or identifier): fix the entry",
            Status::Doubtful => "no source settled it and the entry itself looks wrong (a placeholder author, a date after today): look at it by hand",
            Status::Unchecked => "a source could not be asked, or the entry has nothing to look up: this says nothing against the work",
            Status::Matches => "a source holds the cited work and the entry agrees with it",
        }
    }

    /// A stable name for programs (CSV, `data-` attributes, CSS classes).
    pub fn name(self) -> &'static str {
        match self {
            Status::NotFound => "not_found",
            Status::Retracted => "retracted",
            Status::Differs => "differs",
            Status::Doubtful => "doubtful",
            Status::Unchecked => "unchecked",
            Status::Matches => "matches",
        }
    }

    /// The status named `name` (as [`Status::name`] writes it).
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The status of one judged entry.
///
/// "Not found anywhere" is a claim: only an entry judged a fabrication
/// after every source answered gets it (the verdict rules give
/// [`ReasonKind::PlausibleFabrication`] only then).
pub fn status(entry: &OnlineEntry) -> Status {
    match entry.class {
        Class::Retracted => Status::Retracted,
        Class::Valid => Status::Matches,
        Class::Unverified => Status::Unchecked,
        Class::Miscited => Status::Differs,
        Class::Fabricated => {
            // The class says no record is the cited work; the status tells
            // a search that found a record the entry borrows from, one that
            // found nothing, and an entry judged on its face.
            let record = matches!(entry.outcome, "found" | "wrong_id")
                || entry.reasons.iter().any(|r| {
                    !matches!(
                        r.kind,
                        ReasonKind::PlausibleFabrication
                            | ReasonKind::PlaceholderAuthors
                            | ReasonKind::FutureDate
                            | ReasonKind::NotChecked
                    )
                });
            if record {
                Status::Differs
            } else if entry
                .reasons
                .iter()
                .any(|r| r.kind == ReasonKind::PlausibleFabrication)
            {
                Status::NotFound
            } else {
                Status::Doubtful
            }
        }
    }
}

/// A link to a record on a service's own page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// Who holds the page: `DOI`, `Semantic Scholar`, `OpenAlex`, `DBLP`, `arXiv`.
    pub source: &'static str,
    /// The https address.
    pub url: String,
}

/// The address of a DOI's page (`https://doi.org/…`, the DOI percent-encoded).
pub fn doi_url(doi: &str) -> Option<String> {
    link("DOI", "https://doi.org/", doi).map(|l| l.url)
}

fn link(source: &'static str, base: &str, id: &str) -> Option<Link> {
    let id = id.trim();
    // An id is a path below the service's address: nothing that climbs out.
    if id.is_empty() || id.split('/').any(|p| p == "..") {
        return None;
    }
    Some(Link {
        source,
        url: format!("{base}{}", crate::works::request::path(id)),
    })
}

/// The links to one record: its DOI, and its page on the service that
/// holds it (Semantic Scholar, OpenAlex, DBLP) and on arXiv.
///
/// ```
/// use citegate_core::bibtex::report::record_links;
/// use citegate_core::works::{Service, Work};
/// let mut w = Work::empty(Service::Dblp);
/// w.id = Some("conf/nips/VaswaniSPUJGKP17".into());
/// w.doi = Some("10.5555/3295222.3295349".into());
/// let urls: Vec<String> = record_links(&w).into_iter().map(|l| l.url).collect();
/// assert_eq!(urls, ["https://doi.org/10.5555/3295222.3295349", "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17"]);
/// ```
pub fn record_links(w: &Work) -> Vec<Link> {
    use crate::works::Service;
    let mut out = Vec::new();
    if let Some(d) = &w.doi {
        out.extend(link("DOI", "https://doi.org/", d));
    }
    let s2 = w.s2_id.as_deref().or(w
        .id
        .as_deref()
        .filter(|_| w.source == Service::SemanticScholar));
    if let Some(id) = s2 {
        out.extend(link(
            "Semantic Scholar",
            "https://www.semanticscholar.org/paper/",
            id,
        ));
    }
    let oa = w
        .openalex_id
        .as_deref()
        .or(w.id.as_deref().filter(|_| w.source == Service::OpenAlex));
    if let Some(id) = oa {
        let id = id.rsplit('/').next().unwrap_or(id);
        out.extend(link("OpenAlex", "https://openalex.org/", id));
    }
    if w.source == Service::Dblp {
        if let Some(id) = &w.id {
            out.extend(link("DBLP", "https://dblp.org/rec/", id));
        }
    }
    if let Some(a) = &w.arxiv_id {
        out.extend(link("arXiv", "https://arxiv.org/abs/", a));
    }
    out
}

/// The links to the records that are the cited work: every record a
/// source returned for the entry's identifier, and every search hit with
/// the entry's title (`title`). Each address once.
pub fn links(entry: &OnlineEntry, title: Option<&str>) -> Vec<Link> {
    let mut out: Vec<Link> = Vec::new();
    for e in &entry.evidence {
        for w in &e.records {
            let same = match e.answered {
                "found" => true,
                _ => title.is_some_and(|t| verdict::same_title(t, &w.title)),
            };
            if !same {
                continue;
            }
            for l in record_links(w) {
                if !out.iter().any(|o| o.url == l.url) {
                    out.push(l);
                }
            }
        }
    }
    out
}

/// The number of entries in each status, in [`Status::ALL`] order (zeros
/// included, so a chart always has the same bars).
pub fn tally(online: &OnlineReport) -> Vec<(Status, usize)> {
    Status::ALL
        .into_iter()
        .map(|s| (s, online.entries.iter().filter(|e| status(e) == s).count()))
        .collect()
}

/// Every corrected entry, in file order, separated by a blank line (what
/// "copy all corrections" copies).
pub fn corrections(online: &OnlineReport) -> String {
    let all: Vec<&str> = online
        .entries
        .iter()
        .filter_map(|e| e.corrected.as_deref())
        .map(str::trim_end)
        .collect();
    if all.is_empty() {
        String::new()
    } else {
        format!("{}\n", all.join("\n\n"))
    }
}

/// The `.bib` with its corrections applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FixedBib {
    /// The file: corrected entries in place of the cited ones, every other
    /// byte as it was.
    pub text: String,
    /// Keys whose entry was changed, in file order.
    pub replaced: Vec<String>,
    /// Keys with a correction whose entry could not be located in the
    /// text (left as they were).
    pub not_located: Vec<String>,
}

/// `source` (the text `bib` was read from) with every change of every
/// entry applied (see [`fixed_bib_accepting`]).
///
/// ```
/// use citegate_core::bibtex::{check::OnlineReport, parse, report};
/// let src = "% mine\n@misc{a, title={Old}}\n@misc{b, title={Kept}}\n";
/// let bib = parse::parse(src);
/// let mut online = OnlineReport { valid: 0, hallucinated: 0, uncertain: 0, classes: Default::default(), requests: 0, from_cache: 0, stale_marks: vec![], entries: vec![] };
/// let fixed = report::fixed_bib(src, &bib, &online);
/// assert_eq!(fixed.text, src);
/// ```
pub fn fixed_bib(source: &str, bib: &Bibliography, online: &OnlineReport) -> FixedBib {
    fixed_bib_accepting(source, bib, online, |_, _| true)
}

/// `source` with the changes `accept(key, change)` keeps set in place,
/// field by field. A change exists only when a record is the cited work,
/// so every other entry — not found, could not check, matches — stays as
/// written; in a changed entry, every field not changed keeps its bytes
/// (comments, spacing, braces and the characters typed).
pub fn fixed_bib_accepting(
    source: &str,
    bib: &Bibliography,
    online: &OnlineReport,
    accept: impl Fn(&str, &verdict::Change) -> bool,
) -> FixedBib {
    let mut edits: Vec<(std::ops::Range<usize>, String, &str)> = Vec::new();
    let mut not_located = Vec::new();
    for (entry, judged) in bib.entries.iter().zip(&online.entries) {
        let kept: Vec<&verdict::Change> = judged
            .changes
            .iter()
            .filter(|c| accept(&entry.key, c))
            .collect();
        if kept.is_empty() {
            continue;
        }
        match super::edit::set_fields(source, entry.line, &entry.key, &kept) {
            Some((r, text)) => edits.push((r, text, entry.key.as_str())),
            None => not_located.push(entry.key.clone()),
        }
    }
    edits.sort_by_key(|(r, _, _)| r.start);
    let mut text = String::with_capacity(source.len());
    let mut at = 0;
    let mut replaced = Vec::new();
    for (r, new, key) in edits {
        // Two entries never overlap; a second claim on the same bytes is
        // left as written.
        if r.start < at {
            not_located.push(key.to_string());
            continue;
        }
        text.push_str(&source[at..r.start]);
        text.push_str(&new);
        at = r.end;
        replaced.push(key.to_string());
    }
    text.push_str(&source[at..]);
    FixedBib {
        text,
        replaced,
        not_located,
    }
}

/// True when a run asked something and no service gave a readable answer
/// to anything: every answer is a failure with no response read (status
/// 0: offline, a firewall, a blocked request). The app then says once
/// that the services cannot be reached, instead of a fetch error per entry.
pub fn unreachable(run: &resolve::Report) -> bool {
    let mut answers = run.resolutions.iter().flat_map(|r| &r.evidence).peekable();
    answers.peek().is_some()
        && answers.all(|e| {
            matches!(&e.answer, Answer::Failed { error } if error.kind == ApiErrorKind::Network)
        })
}

/// A service whose allowance ran out during a run, for the page's one
/// banner ([`spent_allowances`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Spent {
    /// The service.
    pub service: crate::works::Service,
    /// When the allowance comes back, in words.
    pub until: &'static str,
}

impl Spent {
    /// The banner's sentence: which service, until when, that nothing was
    /// counted against any entry, and that a free key raises the allowance
    /// (the page links to Settings after it).
    pub fn words(&self) -> String {
        format!(
            "{}'s free daily allowance is spent until {}: the entries it was to check say 'could not check', and nothing was counted against any of them. A free {} key, added in Settings, raises the allowance.",
            self.service.label(),
            self.until,
            self.service.label()
        )
    }
}

/// Whether `error` says its service's allowance for the day is spent (see
/// [`spent_allowances`]).
pub fn is_spent(error: &crate::works::ApiError) -> bool {
    crate::fetch::fault_of(error.status, None)
        .is_some_and(|f| crate::fetch::day_spent(error.service, f))
}

/// The services whose allowance for the day ran out during `run`, each
/// once ([`crate::fetch::day_spent`]: OpenAlex's 429; a 429 of another
/// service is a pause the run waits out, not a spent day).
pub fn spent_allowances(run: &resolve::Report) -> Vec<Spent> {
    let mut out: Vec<Spent> = Vec::new();
    for e in run.resolutions.iter().flat_map(|r| &r.evidence) {
        if let Answer::Failed { error } = &e.answer {
            if is_spent(error) && !out.iter().any(|s| s.service == error.service) {
                out.push(Spent {
                    service: error.service,
                    until: crate::fetch::DAY_RESETS,
                });
            }
        }
    }
    out
}

/// How many references of `run` a page left for DBLP: those whose
/// evidence names DBLP as not asked ([`resolve::NOT_FROM_A_PAGE`]), where
/// its answer could change the verdict.
pub fn left_to_dblp(run: &resolve::Report) -> usize {
    run.resolutions
        .iter()
        .filter(|r| {
            r.evidence.iter().any(|e| {
                matches!(&e.answer, Answer::Failed { error } if error.message == resolve::NOT_FROM_A_PAGE)
            })
        })
        .count()
}

/// The banner for [`left_to_dblp`]'s count, or `None` when it is zero.
pub fn left_to_dblp_words(n: usize) -> Option<String> {
    let (entries, them) = match n {
        0 => return None,
        1 => ("1 entry".to_string(), "it"),
        n => (format!("{n} entries"), "them"),
    };
    Some(format!(
        "{entries} could not be settled here: no index this page reached has {them} as cited, and DBLP, which may, cannot be asked by a web page. Open the app through citegate relay (?relay=) or run citegate check to settle {them}; until then none is called fabricated"
    ))
}

/// The report as pretty JSON (the [`FileReport`] schema of the CLI's
/// `bibcheck --json`).
pub fn to_json(report: &FileReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_default()
}

/// One CSV field: quoted when it holds a comma, a quote or a line break,
/// quotes doubled (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_row(fields: &[&str]) -> String {
    let cells: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
    format!("{}\r\n", cells.join(","))
}

/// The layer-1 problems of one entry, in words.
fn problems_of(report: &FileReport, key: &str) -> Vec<String> {
    report
        .findings
        .iter()
        .filter(|f| f.key.as_deref() == Some(key))
        .map(|f| match &f.field {
            Some(field) => format!("{field}: {}", f.message),
            None => f.message.clone(),
        })
        .collect()
}

/// The report as CSV, one row per entry (CRLF line ends, RFC 4180
/// quoting): key, line, type, status, verdict, reasons, sources' links,
/// layer-1 problems and the corrected entry. Without the online layers the
/// status columns are empty.
pub fn to_csv(report: &FileReport, bib: &Bibliography) -> String {
    let mut out = csv_row(&[
        "key",
        "line",
        "type",
        "status",
        "verdict",
        "reasons",
        "links",
        "format problems",
        "corrected",
    ]);
    for (i, entry) in bib.entries.iter().enumerate() {
        let online = report.online.as_ref().and_then(|o| o.entries.get(i));
        let line = entry.line.to_string();
        let (status, verdict, reasons, links_, corrected) = match online {
            Some(o) => (
                status(o).label(),
                o.verdict.label(),
                o.reasons
                    .iter()
                    .map(|r| r.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
                links(o, entry.get("title"))
                    .into_iter()
                    .map(|l| l.url)
                    .collect::<Vec<_>>()
                    .join(" "),
                o.corrected.clone().unwrap_or_default(),
            ),
            None => ("", "", String::new(), String::new(), String::new()),
        };
        out.push_str(&csv_row(&[
            &entry.key,
            &line,
            &entry.kind,
            status,
            verdict,
            &reasons,
            &links_,
            &problems_of(report, &entry.key).join("; "),
            corrected.trim_end(),
        ]));
    }
    out
}

/// Text for a Markdown table cell: the characters Markdown reads as markup
/// escaped, line breaks as spaces.
pub fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '|' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The report as Markdown: the figures, the verdict counts, one table row
/// per entry (status, reasons, links) and the layer-1 findings.
pub fn to_markdown(report: &FileReport, bib: &Bibliography) -> String {
    let mut out = format!(
        "# BibTeX check: {}\n\n{}.\n",
        md_cell(&report.bib),
        report.summary()
    );
    if let Some(online) = &report.online {
        out.push_str("\n## Verdicts\n\n| status | entries |\n|---|---:|\n");
        for (s, n) in tally(online) {
            out.push_str(&format!("| {} | {n} |\n", s.label()));
        }
        out.push_str(
            "\n## Entries\n\n| key | line | status | why | links |\n|---|---:|---|---|---|\n",
        );
        for (entry, o) in bib.entries.iter().zip(&online.entries) {
            let why: Vec<String> = o.reasons.iter().map(|r| md_cell(&r.message)).collect();
            let why = if why.is_empty() {
                md_cell(&o.summary)
            } else {
                why.join("; ")
            };
            let links: Vec<String> = links(o, entry.get("title"))
                .into_iter()
                .map(|l| format!("[{}](<{}>)", l.source, l.url))
                .collect();
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                md_cell(&o.key),
                entry.line,
                status(o).label(),
                why,
                links.join(" · ")
            ));
        }
    }
    if !report.findings.is_empty() {
        out.push_str("\n## Format findings\n\n| severity | where | key | problem | fix |\n|---|---|---|---|---|\n");
        for f in &report.findings {
            let place = match (&f.file, f.line) {
                (Some(file), Some(l)) => format!("{file}:{l}"),
                (None, Some(l)) => format!("line {l}"),
                _ => String::new(),
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                match f.severity {
                    super::format::Severity::Error => "error",
                    super::format::Severity::Warning => "warning",
                },
                md_cell(&place),
                md_cell(f.key.as_deref().unwrap_or("")),
                md_cell(&f.message),
                md_cell(f.suggestion.as_deref().unwrap_or(""))
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
