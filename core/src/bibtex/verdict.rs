//! Is this entry a hallucinated citation? The rules, one per kind of fake.
//!
//! The indexes' answers for an entry ([`Findings`]: what its DOI or arXiv id
//! resolved to, the records a title search came back with, which services
//! could not be asked) are compared with the entry field by field, and every
//! disagreement becomes a [`Reason`] in a researcher's words: which words of
//! the title differ, which authors are missing, swapped or not on the paper,
//! where the paper really appeared, which DOI is the right one. The kinds are
//! the fourteen types of the HALLMARK benchmark, so a program can count them.
//!
//! Three principles hold the rules together:
//!
//! * A record *is* the cited work only when its title is the entry's title
//!   (case, accents, LaTeX and punctuation aside). Everything else about the
//!   entry — authors and their order, venue, year, DOI — is then held to that
//!   record. A near title is never silently accepted.
//! * Missing evidence is never a fake: when no record matches and a service
//!   could not be asked, the verdict is [`Verdict::Uncertain`], not
//!   hallucinated. A positive disagreement (the DOI belongs to another
//!   paper; the year is in the future) needs no complete search.
//! * Venue names are compared through the venue table ([`super::venues`]),
//!   so "NIPS" and "Advances in Neural Information Processing Systems" agree
//!   and "ICML" and "AAAI" do not. A preprint of a published paper may be
//!   cited as a preprint; a paper only known as a preprint may not be cited
//!   as published.

use super::parse::Entry;
use super::venues::{self, VenueKind};
use crate::cutoff::Date;
use crate::names::{self, Person};
use crate::resolve::{Answer, Outcome, Resolution, Route};
use crate::title;
use crate::works::{Notice, NoticeKind, Work};
use serde::Serialize;

pub mod fix;
pub use fix::Change;

/// The verdict on one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "HallmarkVerdict"))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The entry is a real paper and says what its record says.
    Valid,
    /// The entry is not a real paper, or misstates one.
    Hallucinated,
    /// The sources could not settle it.
    Uncertain,
}

impl Verdict {
    /// The verdict in a researcher's words, for a badge or a summary line.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Valid => "matches its record",
            Verdict::Hallucinated => "likely hallucinated",
            Verdict::Uncertain => "could not be checked",
        }
    }
}

/// What a chair does with an entry: the verdict told apart by what the
/// sources showed. [`Verdict`] stays the benchmark's three-way answer; the
/// class says whether a hallucinated entry names no work at all
/// (fabricated) or a real work with wrong fields (miscited), and whether an
/// unchecked one could not be asked or is of a kind no index holds
/// (unverified, with the reason saying which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "VerdictClass"))]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// No such work: every source that could hold it answered, none has
    /// it, or the entry itself shows it is made up (a future year, a
    /// placeholder author).
    Fabricated,
    /// The work exists, and fields of the entry differ from its record
    /// (the reasons name them; `corrected` is the entry rebuilt).
    Miscited,
    /// The work exists and has been retracted (the verdict's `notices`
    /// give the notice's DOI, date and link).
    Retracted,
    /// Not settled: a source could not be asked, or the entry is of a kind
    /// no index we reach lists.
    Unverified,
    /// The work exists and the entry says what its record says.
    Valid,
}

impl Class {
    /// Every class, worst first (the order a triage list takes).
    pub const ALL: [Class; 5] = [
        Class::Fabricated,
        Class::Retracted,
        Class::Miscited,
        Class::Unverified,
        Class::Valid,
    ];

    /// The class's name as the JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Fabricated => "fabricated",
            Class::Miscited => "miscited",
            Class::Retracted => "retracted",
            Class::Unverified => "unverified",
            Class::Valid => "valid",
        }
    }

    /// The class in a chair's words, for a badge, an annotation or a
    /// summary line: what the class means and what to do about it.
    pub fn words(self) -> &'static str {
        match self {
            Class::Fabricated => "no such work: no source has it",
            Class::Miscited => "a real work, cited with fields that differ from its record",
            Class::Retracted => "a real work that has been retracted",
            Class::Unverified => {
                "not verified: a source could not be asked or lists no works of this kind"
            }
            Class::Valid => "a real work, cited as its record says",
        }
    }

    /// The class of a verdict, in the one place it is decided: a valid or
    /// uncertain verdict keeps its meaning; a hallucinated one is miscited
    /// when a record is the cited work (the rules then rebuilt the entry
    /// from it) and fabricated when none is.
    ///
    /// A retraction of the cited work outranks the rest: whatever else is
    /// right or wrong with the entry, a chair must know it cites a
    /// retracted work.
    fn of(verdict: Verdict, cited_work_found: bool, retracted: bool) -> Class {
        match verdict {
            _ if retracted => Class::Retracted,
            Verdict::Valid => Class::Valid,
            Verdict::Uncertain => Class::Unverified,
            Verdict::Hallucinated if cited_work_found => Class::Miscited,
            Verdict::Hallucinated => Class::Fabricated,
        }
    }
}

/// How many entries fell in each class; every class is written, zeros
/// included, so the JSON has one shape.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClassCounts {
    /// No such work.
    pub fabricated: usize,
    /// A real work with wrong fields.
    pub miscited: usize,
    /// A retracted work.
    pub retracted: usize,
    /// Not settled.
    pub unverified: usize,
    /// Matches its record.
    pub valid: usize,
}

impl ClassCounts {
    /// Counts one more entry of class `c`.
    pub fn add(&mut self, c: Class) {
        *self.slot(c) += 1;
    }

    /// The number of entries of class `c`.
    pub fn get(mut self, c: Class) -> usize {
        *self.slot(c)
    }

    fn slot(&mut self, c: Class) -> &mut usize {
        match c {
            Class::Fabricated => &mut self.fabricated,
            Class::Miscited => &mut self.miscited,
            Class::Retracted => &mut self.retracted,
            Class::Unverified => &mut self.unverified,
            Class::Valid => &mut self.valid,
        }
    }

    /// The report's first line, what a person acts on, worst first in
    /// [`Class::ALL`] order: `1 likely fabricated, 0 retracted, 2 need their
    /// metadata fixed, 0 could not be checked, 2 valid` (every class, zeros
    /// included, so the line keeps its shape).
    pub fn triage(self) -> String {
        Class::ALL
            .into_iter()
            .map(|c| {
                let n = self.get(c);
                let words = match c {
                    Class::Fabricated => "likely fabricated",
                    Class::Retracted => "retracted",
                    Class::Miscited if n == 1 => "needs its metadata fixed",
                    Class::Miscited => "need their metadata fixed",
                    Class::Unverified => "could not be checked",
                    Class::Valid => "valid",
                };
                format!("{n} {words}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `2 valid, 1 fabricated, …` in [`Class::ALL`] order, valid first.
    pub fn describe(self) -> String {
        let mut order = vec![Class::Valid];
        order.extend(Class::ALL.into_iter().filter(|c| *c != Class::Valid));
        order
            .into_iter()
            .map(|c| format!("{} {}", self.get(c), c.name()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What is wrong with an entry: HALLMARK's types, plus `not_checked`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ReasonKind {
    /// The DOI resolves nowhere (or to another paper) while the title exists.
    FabricatedDoi,
    /// The venue is not a venue we know and not the paper's.
    NonexistentVenue,
    /// The authors are placeholders (`John Doe`, `Author Name`).
    PlaceholderAuthors,
    /// The year is after today.
    FutureDate,
    /// Real authors under a title no index has.
    ChimericTitle,
    /// The paper appeared at another venue.
    WrongVenue,
    /// Authors that are not the paper's, or in another order.
    SwappedAuthors,
    /// A paper only known as a preprint, cited as published.
    PreprintAsPublished,
    /// A real paper's id or near title with fabricated parts.
    HybridFabrication,
    /// A title close to a real paper's but not equal.
    NearMissTitle,
    /// No index knows the paper.
    PlausibleFabrication,
    /// Title of one paper, authors or DOI of another.
    MergedCitation,
    /// Fewer authors than the paper has, without `and others`.
    PartialAuthorList,
    /// Year and venue of different versions of the paper.
    ArxivVersionMismatch,
    /// Not enough evidence to decide (a source could not be asked).
    NotChecked,
}

/// One finding, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Reason {
    /// Machine-readable kind.
    pub kind: ReasonKind,
    /// What is wrong, for people.
    pub message: String,
}

/// The verdict with its reasons and, when a record is the cited work, the
/// entry rebuilt from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryVerdict {
    /// Valid, hallucinated or uncertain.
    pub verdict: Verdict,
    /// What a chair does with it: fabricated, miscited, retracted,
    /// unverified or valid.
    pub class: Class,
    /// Why; empty for a valid entry.
    pub reasons: Vec<Reason>,
    /// The entry with every change applied, when a record is the cited
    /// work and the entry misstates it in a field that can be corrected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected: Option<String>,
    /// The corrections one field at a time, for a person to accept or
    /// refuse ([`fix`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// Editorial notices about the cited work: a retraction, an expression
    /// of concern, a correction.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<NoticeNote>,
}

/// An editorial notice about the cited work, for people: what it is, its
/// DOI, date and link, and a sentence saying so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NoticeNote {
    /// Retraction, expression of concern or correction.
    pub kind: NoticeKind,
    /// The notice's DOI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub doi: Option<String>,
    /// When it was issued (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub date: Option<String>,
    /// The notice's page (its DOI's address).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub link: Option<String>,
    /// Who recorded it (`retraction-watch`, `publisher`, `openalex`, `title`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub source: Option<String>,
    /// The notice in a sentence.
    pub message: String,
}

impl NoticeNote {
    fn of(n: &Notice) -> NoticeNote {
        let date = n.date.map(|d| match (d.month, d.day) {
            (Some(m), Some(day)) => format!("{:04}-{m:02}-{day:02}", d.year),
            (Some(m), None) => format!("{:04}-{m:02}", d.year),
            _ => format!("{:04}", d.year),
        });
        let link = n.doi.as_deref().and_then(super::report::doi_url);
        let what = match n.kind {
            NoticeKind::Retraction => "the work has been retracted",
            NoticeKind::ExpressionOfConcern => {
                "the publisher has issued an expression of concern about the work (it is not retracted)"
            }
            NoticeKind::Correction => "the work has been corrected (it is not retracted)",
        };
        let mut said = match &n.doi {
            Some(d) => format!("{} notice {d}", n.kind.label()),
            None => match n.source.as_deref() {
                Some("title") => "the record's title says so".to_string(),
                Some(s) => format!("recorded by {s}"),
                None => "recorded by an index".to_string(),
            },
        };
        if let Some(d) = &date {
            said.push_str(&format!(" of {d}"));
        }
        if let Some(l) = &link {
            said.push_str(&format!(" ({l})"));
        }
        NoticeNote {
            kind: n.kind,
            doi: n.doi.clone(),
            date,
            link,
            source: n.source.clone(),
            message: format!("{what}: {said}"),
        }
    }
}

/// The notices of the records that are the cited work, retractions first,
/// one per kind and DOI; a notice without a DOI only when no notice of its
/// kind has one.
fn notices_of(records: &[&Work]) -> Vec<NoticeNote> {
    let mut all: Vec<&Notice> = records.iter().flat_map(|w| &w.updated_by).collect();
    all.sort_by_key(|n| (n.kind != NoticeKind::Retraction, n.doi.is_none()));
    let mut kept: Vec<&Notice> = Vec::new();
    for n in all {
        let dup = kept
            .iter()
            .any(|k| k.same_as(n) || (k.kind == n.kind && n.doi.is_none()));
        if !dup {
            kept.push(n);
        }
    }
    kept.into_iter().map(NoticeNote::of).collect()
}

/// What looking up the entry's own id (DOI or arXiv id) gave.
#[derive(Debug, Clone, PartialEq)]
pub enum IdAnswer {
    /// The entry cites no id (or it was not looked up).
    NoId,
    /// The id resolved to this record.
    Found(Box<Work>),
    /// Every service asked says the id does not exist.
    NotFound,
    /// The id could not be checked (the reason).
    Failed(String),
}

/// What the indexes said about one entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// The entry's DOI or arXiv id, looked up.
    pub by_id: IdAnswer,
    /// Records found by title search (nearest first), from every service.
    pub hits: Vec<Work>,
    /// Services that could not be asked or failed, each with the reason.
    pub unanswered: Vec<String>,
    /// When the resolver took one source's title hit for the work and asked
    /// no further: that record, named (`DBLP's record “…”`). If the rules
    /// then find it is not the cited work, the sources after it were never
    /// asked, so its absence is not established (an offline run against a
    /// local index stops so; two sources without the work are taken as
    /// having searched).
    pub stopped_on: Option<String>,
}

impl Findings {
    /// What a resolver run learned about one reference, as findings: the
    /// id routes' answers (a record if any source had it; not found only
    /// when every source asked said so), every title search's hits, and
    /// every failed source.
    pub fn from_resolution(res: &Resolution) -> Findings {
        let mut by_id = IdAnswer::NoId;
        let mut hits = Vec::new();
        let mut unanswered = Vec::new();
        for e in &res.evidence {
            let on_id = e.route != Route::Title;
            match &e.answer {
                Answer::Found { work } if on_id => {
                    if !matches!(by_id, IdAnswer::Found(_)) {
                        by_id = IdAnswer::Found(Box::new(work.clone()));
                    }
                }
                Answer::Found { work } => hits.push(work.clone()),
                Answer::Hits { works } => hits.extend(works.iter().cloned()),
                Answer::NotHere if on_id => {
                    if matches!(by_id, IdAnswer::NoId) {
                        by_id = IdAnswer::NotFound;
                    }
                }
                Answer::NotHere => {}
                Answer::Failed { error } => {
                    let why = format!(
                        "{} could not be asked about the {} ({})",
                        error.service.label(),
                        match e.route {
                            Route::Doi => "DOI",
                            Route::Arxiv => "arXiv id",
                            Route::Title => "title",
                        },
                        if error.message.is_empty() {
                            format!("status {}", error.status)
                        } else {
                            error.message.clone()
                        }
                    );
                    if on_id && !matches!(by_id, IdAnswer::Found(_)) {
                        by_id = IdAnswer::Failed(why.clone());
                    }
                    unanswered.push(why);
                }
            }
        }
        match &res.outcome {
            Outcome::Unverified { reasons } if unanswered.is_empty() => {
                unanswered.extend(reasons.iter().cloned());
            }
            Outcome::WrongId { record, .. } | Outcome::Found { work: record, .. }
                if !hits.contains(record) =>
            {
                hits.push(record.clone());
            }
            _ => {}
        }
        // Two sources that both answered the title search without the work
        // say more than one: the resolver stops there too.
        let mut title_answers: Vec<_> = res
            .evidence
            .iter()
            .filter(|e| e.route == Route::Title && !matches!(e.answer, Answer::Failed { .. }))
            .map(|e| e.service)
            .collect();
        title_answers.sort_by_key(|s| s.label());
        title_answers.dedup();
        let stopped_on = match &res.outcome {
            Outcome::Found { work, via }
                if !matches!(by_id, IdAnswer::Found(_)) && title_answers.len() < 2 =>
            {
                Some(format!("{}'s record “{}”", via.label(), work.title))
            }
            _ => None,
        };
        Findings {
            by_id,
            hits,
            unanswered,
            stopped_on,
        }
    }
}

/// Judges an entry against a resolver run's record of it ([`Findings::from_resolution`]).
pub fn judge(entry: &Entry, resolution: &Resolution, today: Date) -> EntryVerdict {
    judge_findings(entry, &Findings::from_resolution(resolution), today)
}

/// A record with at least this many authors may be a cut list.
pub const TRUNCATED_AUTHORS: usize = 10;

/// Titles this close (python-Levenshtein ratio of normalized titles, 0–100)
/// to a record's are a near miss, not another paper.
pub const NEAR_TITLE: f64 = 85.0;

/// Judges an entry against what the indexes said. `today` is the date the
/// check runs (a year after it is a future date).
pub fn judge_findings(entry: &Entry, findings: &Findings, today: Date) -> EntryVerdict {
    let cited = Cited::read(entry);
    let mut reasons = Vec::new();
    let mut corrected = None;

    if let Some(y) = cited.year {
        // Next year's is an accepted paper's year when the entry names
        // where it appears (layer 1's year rule, format::latest_year).
        let latest = if cited.venue.is_some() {
            super::format::latest_year(today.year())
        } else {
            today.year()
        };
        if y > latest {
            reasons.push(reason(
                ReasonKind::FutureDate,
                format!("the year {y} is after today ({today})"),
            ));
        }
    }
    if let Some(p) = placeholder(&cited.authors).filter(|_| !under_review(entry)) {
        reasons.push(reason(
            ReasonKind::PlaceholderAuthors,
            format!("“{p}” is a placeholder, not an author"),
        ));
    }

    let id_work = match &findings.by_id {
        IdAnswer::Found(w) => Some(&**w),
        _ => None,
    };
    let candidates: Vec<&Work> = id_work.into_iter().chain(findings.hits.iter()).collect();
    let matched: Vec<&Work> = match cited.title.as_deref() {
        Some(t) => candidates
            .iter()
            .copied()
            .filter(|w| same_title(t, &w.title) || cited.parsed && cut_title(t, &w.title))
            .collect(),
        // No title printed (the physics styles): the identifier's record is
        // the cited work when it is by the cited authors.
        None => id_work
            .filter(|w| cited.authors.is_empty() || author_overlap(&cited.authors, w) > 0)
            .into_iter()
            .collect(),
    };

    // The records that are the cited work: every record with its title,
    // or the near-titled one the rules rebuild the entry from.
    let mut cited_work: Vec<&Work> = matched.clone();
    if let Some(&record) = matched.first() {
        // Prefer the record that agrees on authors (an index may hold a
        // namesake paper); then check everything against the matched set.
        let record = matched
            .iter()
            .copied()
            .max_by_key(|w| author_overlap(&cited.authors, w))
            .unwrap_or(record);
        id_rules(&cited, findings, record, &mut reasons);
        let authors = author_rules(&cited, record);
        let strangers_only = author_overlap(&cited.authors, record) == 0 && !authors.is_empty();
        let complete = findings.unanswered.is_empty();
        let venue_year = venue_year_rules(&cited, &matched, complete);
        if strangers_only && !venue_year.is_empty() {
            // Not one wrong field but two papers: this title with another
            // paper's authors and venue or year.
            reasons.push(reason(
                ReasonKind::MergedCitation,
                "the entry merges two papers: the title is this paper's, the authors and the venue or year are another's"
                    .to_string(),
            ));
        }
        reasons.extend(authors);
        reasons.extend(venue_year);
        if !reasons.is_empty() {
            corrected = Some(super::matching::corrected_entry(&entry.key, record));
        }
        // The record the rules held the entry to first, then its other versions.
        cited_work = std::iter::once(record)
            .chain(
                matched
                    .iter()
                    .copied()
                    .filter(|w| !std::ptr::eq(*w, record)),
            )
            .collect();
    } else if let Some(t) = cited.title.as_deref() {
        let nearest = candidates
            .iter()
            .copied()
            .map(|w| (title::ratio(t, &w.title), w))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let positive = unmatched_rules(
            &cited,
            findings,
            nearest,
            &mut reasons,
            &mut corrected,
            entry,
        );
        if corrected.is_some() {
            cited_work.extend(nearest.map(|(_, w)| w));
        }
        if !positive && reasons.is_empty() {
            if let Some(kind) = unindexed_kind(entry) {
                // Absence from indexes that do not list such works is no
                // evidence: the entry stays unverified, in those words.
                reasons.push(reason(
                    ReasonKind::NotChecked,
                    format!("no index we can reach lists {kind}, so no source having this one says nothing about whether it exists"),
                ));
            } else if let Some(record) = findings
                .stopped_on
                .as_ref()
                .filter(|_| findings.unanswered.is_empty())
            {
                // The search ended on a record that is not this work: the
                // sources it would have asked next never were.
                reasons.push(reason(
                    ReasonKind::NotChecked,
                    format!("the title search ended at {record}, which is not this paper, so the other sources were not asked about it"),
                ));
            } else if findings.unanswered.is_empty()
                && !matches!(findings.by_id, IdAnswer::Failed(_))
            {
                let near = nearest
                    .filter(|(r, _)| *r >= 60.0)
                    .map(|(_, w)| format!("; the nearest record is “{}”", w.title))
                    .unwrap_or_default();
                let doi = if matches!(findings.by_id, IdAnswer::NotFound) {
                    ", and its identifier resolves nowhere"
                } else {
                    ""
                };
                reasons.push(reason(
                    ReasonKind::PlausibleFabrication,
                    format!("no index has a paper with this title{doi}{near}"),
                ));
            } else {
                return uncertain(reasons, findings);
            }
        }
    } else if let (Some(w), true) = (id_work, reasons.is_empty()) {
        // Only this reason: the verdict below is uncertain, nothing corrected.
        reasons.push(reason(
            ReasonKind::NotChecked,
            format!(
                "its identifier is that of “{}”, by other authors; with no title printed, whether that is the cited work cannot be told",
                w.title
            ),
        ));
    } else if reasons.is_empty() {
        return uncertain(reasons, findings);
    }

    let verdict = if reasons.is_empty() {
        Verdict::Valid
    } else if reasons.iter().all(|r| r.kind == ReasonKind::NotChecked) {
        Verdict::Uncertain
    } else {
        Verdict::Hallucinated
    };
    let found = corrected.is_some();
    let changes = if found {
        fix::changes(entry, &reasons, &cited_work)
    } else {
        Vec::new()
    };
    let mut v = EntryVerdict::new(verdict, reasons, found, notices_of(&cited_work));
    v.corrected = (!changes.is_empty()).then(|| super::edit::rewrite(entry, &changes));
    v.changes = changes;
    v
}

impl EntryVerdict {
    /// A verdict with its class, no corrections yet. `found` is true
    /// exactly when a record is the cited work and the entry misstates it;
    /// `notices` are the cited work's.
    fn new(
        verdict: Verdict,
        reasons: Vec<Reason>,
        found: bool,
        notices: Vec<NoticeNote>,
    ) -> EntryVerdict {
        let retracted = notices.iter().any(|n| n.kind == NoticeKind::Retraction);
        EntryVerdict {
            verdict,
            class: Class::of(verdict, found, retracted),
            reasons,
            corrected: None,
            changes: Vec::new(),
            notices,
        }
    }
}

fn uncertain(mut reasons: Vec<Reason>, findings: &Findings) -> EntryVerdict {
    let mut why: Vec<String> = findings.unanswered.clone();
    if let IdAnswer::Failed(e) = &findings.by_id {
        if !why.contains(e) {
            why.push(e.clone());
        }
    }
    let message = if why.is_empty() {
        "the entry has neither a title nor an identifier to look up".to_string()
    } else {
        format!(
            "no source that answered has this paper, and {}",
            why.join("; ")
        )
    };
    reasons.push(reason(ReasonKind::NotChecked, message));
    EntryVerdict::new(Verdict::Uncertain, reasons, false, Vec::new())
}

fn reason(kind: ReasonKind, message: String) -> Reason {
    Reason { kind, message }
}

/// The parts of an entry the rules look at, decoded.
#[derive(Clone)]
struct Cited {
    title: Option<String>,
    authors: Vec<Person>,
    others: bool,
    year: Option<i32>,
    venue: Option<String>,
    doi: Option<String>,
    /// Read from a paper's text, not written as BibTeX ([`Entry::parsed`]):
    /// initials, a cut list, an abbreviated venue and a title cut at a
    /// line end are what a parse gives, not signs of a fake.
    parsed: bool,
}

impl Cited {
    fn read(entry: &Entry) -> Cited {
        let (authors, others) = entry.get("author").map(names::split).unwrap_or_default();
        let year = entry.decoded("year").and_then(|y| {
            let digits: String = y.chars().filter(char::is_ascii_digit).take(4).collect();
            (digits.len() == 4).then(|| digits.parse().ok()).flatten()
        });
        let venue = ["booktitle", "journal"]
            .iter()
            .find_map(|f| entry.decoded(f));
        let doi = entry
            .decoded("doi")
            .and_then(|d| crate::works::bare_doi(&d));
        Cited {
            title: entry.decoded("title"),
            authors,
            others,
            year,
            venue,
            doi,
            parsed: entry.parsed,
        }
    }
}

/// A parsed title that is the record's cut short (a line end, a column
/// break) or with text run on after it (the venue): one is the other's
/// start, and the shorter has at least four words.
fn cut_title(parsed: &str, record: &str) -> bool {
    let (a, b) = (title::normalize(parsed), title::normalize(record));
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.split(' ').count() >= 4 && long.starts_with(&short)
}

/// Titles equal up to case, accents, LaTeX, punctuation and spacing.
pub fn same_title(a: &str, b: &str) -> bool {
    let squash = |t: &str| -> String { title::normalize(t).replace(' ', "") };
    let (x, y) = (squash(a), squash(b));
    !x.is_empty() && x == y
}

/// The words that differ between two titles: (only in `ours`, only in `theirs`).
pub fn title_diff(ours: &str, theirs: &str) -> (Vec<String>, Vec<String>) {
    let a: Vec<&str> = ours.split_whitespace().collect();
    let b: Vec<&str> = theirs.split_whitespace().collect();
    let key = |w: &str| title::normalize(w);
    let (n, m) = (a.len(), b.len());
    // Longest common subsequence of normalized words.
    let mut t = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i][j] = if key(a[i]) == key(b[j]) {
                t[i + 1][j + 1] + 1
            } else {
                t[i + 1][j].max(t[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && key(a[i]) == key(b[j]) {
            i += 1;
            j += 1;
        } else if j < m && (i == n || t[i][j + 1] >= t[i + 1][j]) {
            only_b.push(b[j].to_string());
            j += 1;
        } else {
            only_a.push(a[i].to_string());
            i += 1;
        }
    }
    (only_a, only_b)
}

/// The works an entry's kind names when no index we reach lists them
/// (theses, technical reports, software, web pages, standards, manuals,
/// papers under review):
/// the words the unverified reason uses. A `@misc` is a web page when it
/// has a URL and neither a DOI nor a journal or proceedings.
fn unindexed_kind(entry: &Entry) -> Option<&'static str> {
    if under_review(entry) {
        return Some("papers under review");
    }
    match entry.kind.as_str() {
        "phdthesis" | "mastersthesis" | "thesis" => Some("theses"),
        "techreport" | "report" => Some("technical reports"),
        "software" | "softwareversion" | "softwaremodule" | "codefragment" => Some("software"),
        "online" | "www" | "electronic" | "webpage" => Some("web pages"),
        "standard" => Some("standards"),
        "manual" => Some("manuals"),
        "misc" => {
            let url = entry.has("url")
                || entry
                    .get("howpublished")
                    .is_some_and(|h| h.contains("\\url") || h.contains("http"));
            let published = ["doi", "journal", "booktitle"].iter().any(|f| entry.has(f));
            (url && !published).then_some("web pages")
        }
        _ => None,
    }
}

/// Whether the entry is a paper under review: it says so ("under
/// review", "anonymous submission"), or it is an OpenReview submission
/// whose authors are `Anonymous` (a published OpenReview paper names its
/// authors, and an index should hold it).
fn under_review(entry: &Entry) -> bool {
    let text = |fields: &[&str]| -> String {
        fields
            .iter()
            .filter_map(|f| entry.get(f))
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let said = text(&["note", "howpublished", "booktitle", "journal", "publisher"]);
    if said.contains("under review") || said.contains("anonymous submission") {
        return true;
    }
    let anonymous = entry.get("author").is_some_and(|a| {
        let (people, _) = names::split(a);
        !people.is_empty()
            && people
                .iter()
                .all(|p| title::normalize(&p.display()) == "anonymous")
    });
    anonymous && text(&["url", "howpublished", "note"]).contains("openreview")
}

/// Names that are placeholders, not people.
fn placeholder(authors: &[Person]) -> Option<String> {
    const FAKE: &[&str] = &[
        "john doe",
        "jane doe",
        "j doe",
        "author name",
        "first author",
        "second author",
        "firstname lastname",
        "first last",
        "anonymous",
        "anonymous author",
        "unknown",
        "unknown author",
        "a author",
        "author",
        "authors",
        "name surname",
        "your name",
    ];
    authors.iter().find_map(|p| {
        let shown = p.display();
        let key = title::normalize(&shown);
        FAKE.contains(&key.as_str()).then_some(shown)
    })
}

/// One record author as a person.
pub(crate) fn record_person(a: &crate::works::Author) -> Person {
    match (&a.family, &a.given) {
        (Some(f), g) if !f.trim().is_empty() => Person {
            given: g.clone().unwrap_or_default(),
            family: f.clone(),
            ..Person::default()
        },
        _ => Person::parse(&a.name),
    }
}

/// Whether two people can be the same author: same family name and, when
/// both have given names, compatible initials. A name written family-first
/// (`Wang Yining`) is tried both ways.
fn same_person(a: &Person, b: &Person) -> bool {
    let compatible = |x: &Person, y: &Person| {
        if !names::same_family(x, y) {
            return false;
        }
        let (ix, iy) = (x.initials(), y.initials());
        ix.is_empty()
            || iy.is_empty()
            || ix.starts_with(&iy)
            || iy.starts_with(&ix)
            || ix.chars().next() == iy.chars().next()
    };
    if compatible(a, b) {
        return true;
    }
    // Family and given swapped (common for East Asian names in some indexes).
    let swapped = Person {
        given: b.family.clone(),
        family: b.given.clone(),
        ..Person::default()
    };
    !b.given.is_empty() && compatible(a, &swapped)
}

/// For each cited author, the index of the record author it matches.
fn align(cited: &[Person], record: &[Person]) -> Vec<Option<usize>> {
    let mut used = vec![false; record.len()];
    cited
        .iter()
        .map(|c| {
            let hit = record
                .iter()
                .enumerate()
                .position(|(j, r)| !used[j] && same_person(c, r));
            if let Some(j) = hit {
                used[j] = true;
            }
            hit
        })
        .collect()
}

fn author_overlap(cited: &[Person], w: &Work) -> usize {
    let rec: Vec<Person> = w.authors.iter().map(record_person).collect();
    align(cited, &rec).iter().flatten().count()
}

fn list(people: &[&Person]) -> String {
    let names: Vec<String> = people.iter().map(|p| p.display()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Authors against the record: identity, completeness, order.
fn author_rules(cited: &Cited, record: &Work) -> Vec<Reason> {
    let rec: Vec<Person> = record.authors.iter().map(record_person).collect();
    if cited.authors.is_empty() || rec.is_empty() {
        return Vec::new();
    }
    let al = align(&cited.authors, &rec);
    let common = al.iter().flatten().count();
    let strangers: Vec<&Person> = cited
        .authors
        .iter()
        .zip(&al)
        .filter(|(_, m)| m.is_none())
        .map(|(p, _)| p)
        .collect();
    let missing: Vec<&Person> = rec
        .iter()
        .enumerate()
        .filter(|(j, _)| !al.contains(&Some(*j)))
        .map(|(_, p)| p)
        .collect();
    if common == 0 {
        return vec![reason(
            ReasonKind::SwappedAuthors,
            format!(
                "none of the cited authors wrote this paper: it is by {}, not {}",
                list(&rec.iter().collect::<Vec<_>>()),
                list(&cited.authors.iter().collect::<Vec<_>>())
            ),
        )];
    }
    // Indexes cut long author lists (OpenAlex keeps 100, a DBLP export may
    // end in "and others"): a long record whose every author is cited, in
    // order and first, is a shortened record, not a wrong entry.
    let record_is_cut = rec.len() >= TRUNCATED_AUTHORS
        && common == rec.len()
        && al
            .iter()
            .take(rec.len())
            .enumerate()
            .all(|(i, m)| *m == Some(i));
    if cited.parsed && common > 0 {
        // A parsed list may have split or joined names, or stopped early;
        // one cited author on the paper is as much as a parse can show.
        return Vec::new();
    }
    if !strangers.is_empty() && !record_is_cut {
        let mut m = format!(
            "{} {} not among this paper's authors",
            list(&strangers),
            if strangers.len() == 1 { "is" } else { "are" }
        );
        if !missing.is_empty() {
            m.push_str(&format!("; missing {}", list(&missing)));
        }
        return vec![reason(ReasonKind::SwappedAuthors, m)];
    }
    let in_order = al.iter().flatten().enumerate().all(|(i, &j)| i == j);
    if !missing.is_empty() {
        if cited.others && in_order {
            return Vec::new();
        }
        if !cited.others {
            return vec![reason(
                ReasonKind::PartialAuthorList,
                format!(
                    "the paper has {} authors, the entry lists {}: missing {}",
                    rec.len(),
                    cited.authors.len(),
                    list(&missing)
                ),
            )];
        }
    }
    if !in_order {
        let ordered: Vec<&Person> = rec.iter().collect();
        return vec![reason(
            ReasonKind::SwappedAuthors,
            format!(
                "the authors are in another order: the paper lists {}",
                list(&ordered)
            ),
        )];
    }
    Vec::new()
}

/// Venue and year against every record of the paper.
fn venue_year_rules(cited: &Cited, matched: &[&Work], complete: bool) -> Vec<Reason> {
    let mut out = Vec::new();
    let year_ok = |w: &&Work| match (cited.year, w.year()) {
        (Some(a), Some(b)) => (a - b).abs() <= 1,
        _ => true,
    };
    let Some(venue) = cited.venue.as_deref() else {
        if let Some(w) = matched.iter().find(|w| w.year().is_some()) {
            if !matched.iter().any(year_ok) {
                out.push(year_reason(cited, w));
            }
        }
        return out;
    };
    let known = venues::lookup(venue);
    if cited.parsed && known.is_none() {
        // A venue read from text (abbreviated, cut, with a series or
        // address run on) is compared only when the venue table knows it.
        let cited = Cited {
            venue: None,
            ..cited.clone()
        };
        return venue_year_rules(&cited, matched, complete);
    }
    if known.is_some_and(|v| v.kind == VenueKind::Preprint) {
        // A preprint of a paper is always citable as a preprint, but not
        // under a year none of its versions has.
        if let Some(w) = matched.iter().find(|w| w.year().is_some()) {
            if !matched.iter().any(year_ok) {
                out.push(year_reason(cited, w));
            }
        }
        return out;
    }
    let with_venue: Vec<&&Work> = matched
        .iter()
        .filter(|w| w.venue.as_deref().is_some_and(|v| !v.trim().is_empty()))
        .collect();
    if with_venue.is_empty() {
        return out;
    }
    let venue_ok = |w: &&&Work| w.venue.as_deref().is_some_and(|v| venues::same(venue, v));
    if with_venue.iter().any(|w| venue_ok(w) && year_ok(w)) {
        return out;
    }
    let published: Vec<&&&Work> = with_venue
        .iter()
        .filter(|w| {
            !w.venue
                .as_deref()
                .and_then(venues::lookup)
                .is_some_and(|v| v.kind == VenueKind::Preprint)
        })
        .collect();
    if published.is_empty() && !complete {
        // "Only a preprint" is a claim about every index: not made while one
        // could not be asked.
        let server = with_venue[0]
            .venue
            .as_deref()
            .unwrap_or("a preprint server");
        out.push(reason(
            ReasonKind::NotChecked,
            format!("the sources that answered know the paper only as a preprint ({server}); whether it appeared at {venue} could not be checked"),
        ));
        return out;
    }
    if published.is_empty() {
        let server = with_venue[0]
            .venue
            .as_deref()
            .unwrap_or("a preprint server");
        out.push(if known.is_none() {
            // Both are true; the venue no table holds is the stronger sign.
            reason(
                ReasonKind::NonexistentVenue,
                format!("“{venue}” is not a venue we know, and the paper is only known as a preprint ({server})"),
            )
        } else {
            reason(
                ReasonKind::PreprintAsPublished,
                format!(
                    "the paper is only known as a preprint ({server}), not as published at {venue}"
                ),
            )
        });
        return out;
    }
    if let Some(w) = with_venue.iter().find(|w| venue_ok(w)) {
        out.push(year_reason(cited, w));
        return out;
    }
    // A venue the table knows, held against a record venue it does not
    // know (a series such as "Lecture Notes in Computer Science", a
    // publisher), proves nothing: only comparable names count.
    let comparable: Vec<&&&Work> = published
        .iter()
        .copied()
        .filter(|w| known.is_none() || w.venue.as_deref().and_then(venues::lookup).is_some())
        .collect();
    let Some(&w) = comparable.first() else {
        if let Some(w) = matched.iter().find(|w| w.year().is_some()) {
            if !matched.iter().any(year_ok) {
                out.push(year_reason(cited, w));
            }
        }
        return out;
    };
    let real = venue_name(w.venue.as_deref().unwrap_or(""));
    let year_differs = !year_ok(w) || cited.year.zip(w.year()).is_some_and(|(a, b)| a != b);
    if year_differs {
        out.push(reason(
            ReasonKind::ArxivVersionMismatch,
            format!(
                "the entry mixes versions: it says {venue} {}, but the paper appeared at {real} in {}",
                cited.year.map(|y| y.to_string()).unwrap_or_default(),
                w.year().map(|y| y.to_string()).unwrap_or_default()
            ),
        ));
    } else if known.is_none() && w.venue.as_deref().and_then(venues::lookup).is_some() {
        // The table holds the venues of the field the record is in, and
        // not the cited one: an invented venue is likely. Where it knows
        // neither (a field it does not cover), the cited venue may be a
        // real journal it lacks, and only the difference is certain.
        out.push(reason(
            ReasonKind::NonexistentVenue,
            format!("“{venue}” is not a venue we know, and the paper appeared at {real}"),
        ));
    } else {
        out.push(reason(
            ReasonKind::WrongVenue,
            format!("the paper appeared at {real}, not {venue}"),
        ));
    }
    out
}

/// A venue as people name it: the table's short name when it knows the venue.
fn venue_name(v: &str) -> String {
    venues::lookup(v)
        .map(|x| x.name.to_string())
        .unwrap_or_else(|| v.to_string())
}

fn year_reason(cited: &Cited, w: &Work) -> Reason {
    reason(
        ReasonKind::ArxivVersionMismatch,
        format!(
            "the entry says {}, but the paper is from {}",
            cited.year.map(|y| y.to_string()).unwrap_or_default(),
            w.year().map(|y| y.to_string()).unwrap_or_default()
        ),
    )
}

/// The cited id against the matched record.
fn id_rules(cited: &Cited, findings: &Findings, record: &Work, reasons: &mut Vec<Reason>) {
    let Some(doi) = cited.doi.as_deref() else {
        return;
    };
    let right = record
        .doi
        .as_deref()
        .map(|d| format!("; the paper's DOI is {d}"))
        .unwrap_or_else(|| "; the paper's record has no DOI".into());
    // The registries asked (Crossref, DataCite) do not hold every agency's
    // DOIs (JaLC, mEDRA, KISTI): a DOI they do not resolve that an index's
    // record of the paper carries is the paper's own, not a fabrication.
    let records_own = record
        .doi_key()
        .is_some_and(|k| crate::works::doi_key(doi) == Some(k));
    match &findings.by_id {
        IdAnswer::NotFound if records_own => {}
        IdAnswer::NotFound => reasons.push(reason(
            ReasonKind::FabricatedDoi,
            format!("the DOI {doi} resolves nowhere{right}"),
        )),
        IdAnswer::Found(w) if !same_title(&w.title, &record.title) => {
            let kind = if author_overlap(&cited.authors, record) > 0 {
                ReasonKind::FabricatedDoi
            } else {
                ReasonKind::MergedCitation
            };
            reasons.push(reason(
                kind,
                format!(
                    "the DOI {doi} belongs to another paper, “{}”{right}",
                    w.title
                ),
            ));
        }
        _ => {}
    }
}

/// Rules for an entry no record has the title of. Returns whether a
/// positive finding (evidence of a fake, not absence of evidence) was made.
fn unmatched_rules(
    cited: &Cited,
    findings: &Findings,
    nearest: Option<(f64, &Work)>,
    reasons: &mut Vec<Reason>,
    corrected: &mut Option<String>,
    entry: &Entry,
) -> bool {
    let t = cited.title.as_deref().unwrap_or("");
    if cited.parsed {
        if let Some((_, w)) = nearest.filter(|(r, _)| *r >= NEAR_TITLE) {
            reasons.push(reason(
                ReasonKind::NotChecked,
                format!(
                    "the title read from the paper is close to “{}”; a reference read from text can lose or gain words, so it is not called a fake",
                    w.title
                ),
            ));
            return true;
        }
        if let IdAnswer::Found(w) = &findings.by_id {
            if author_overlap(&cited.authors, w) > 0 {
                reasons.push(reason(
                    ReasonKind::NotChecked,
                    format!(
                        "its identifier and authors are those of “{}”; the title read from the paper differs, which a parse can cause",
                        w.title
                    ),
                ));
                return true;
            }
        }
        // A record by the same authors from the same year: the title read
        // is likely not the title (a book's title or a report number read
        // where the style printed the chapter's or none at all).
        let needed = cited.authors.len().min(2);
        let same_work = |w: &&Work| {
            needed > 0
                && author_overlap(&cited.authors, w) >= needed
                && cited
                    .year
                    .zip(w.year())
                    .is_some_and(|(a, b)| (a - b).abs() <= 1)
        };
        if let Some(w) = findings.hits.iter().find(same_work) {
            reasons.push(reason(
                ReasonKind::NotChecked,
                format!(
                    "its authors and year are those of “{}”; the title read from the paper differs, which a parse can cause",
                    w.title
                ),
            ));
            return true;
        }
    }
    if let Some((r, w)) = nearest.filter(|(r, _)| *r >= NEAR_TITLE) {
        let (ours, theirs) = title_diff(t, &w.title);
        let words = |v: &[String]| {
            v.iter()
                .map(|s| format!("“{s}”"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let what = match (ours.is_empty(), theirs.is_empty()) {
            (false, false) => format!("{} where the paper has {}", words(&ours), words(&theirs)),
            (false, true) => format!("{} that the paper's title lacks", words(&ours)),
            (true, false) => format!("no {} that the paper's title has", words(&theirs)),
            (true, true) => "different spelling".to_string(),
        };
        let overlap = author_overlap(&cited.authors, w);
        if overlap > 0 || cited.authors.is_empty() {
            reasons.push(reason(
                ReasonKind::NearMissTitle,
                format!("the title is close to “{}” but not equal: {what}", w.title),
            ));
            *corrected = Some(super::matching::corrected_entry(&entry.key, w));
        } else {
            reasons.push(reason(
                ReasonKind::HybridFabrication,
                format!(
                    "the title is a changed copy of “{}” ({what}, ratio {r:.0}), and none of the cited authors wrote it",
                    w.title
                ),
            ));
        }
        return true;
    }
    if let IdAnswer::Found(w) = &findings.by_id {
        let id = cited
            .doi
            .as_deref()
            .map(|d| format!("DOI {d}"))
            .unwrap_or_else(|| "identifier".into());
        if author_overlap(&cited.authors, w) > 0 {
            reasons.push(reason(
                ReasonKind::ChimericTitle,
                format!(
                    "no paper has this title; its {id} and its authors belong to “{}”",
                    w.title
                ),
            ));
        } else {
            reasons.push(reason(
                ReasonKind::HybridFabrication,
                format!(
                    "no paper has this title, and its {id} belongs to another paper, “{}”, by other authors",
                    w.title
                ),
            ));
        }
        return true;
    }
    false
}

#[cfg(test)]
mod tests;
