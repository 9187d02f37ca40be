//! Literature search: backend plans, rank fusion and an honest status.
//!
//! The backends score hits on scales that cannot be compared, so results are
//! merged by reciprocal-rank fusion: each backend that returned a paper adds
//! `1 / (60 + rank)` with its 1-based rank there, and a backend that did not
//! return it adds nothing. Agreement between backends therefore wins, and a
//! paper is never charged an invented rank for being absent. The other design
//! decision is that the response states its own completeness: `status` is
//! `ok`, `partial` or `error`, and an error carries no `count` and no
//! `results` at all, because an empty list is exactly how a failed search
//! gets read as an empty literature. A zero is never called verified; the
//! [`probe`] decides whether it may be an over-constrained query instead.

pub mod probe;

use crate::title;
use crate::works::{ApiError, ApiErrorKind, Service, Work};
use probe::{Probe, ProbeReason, ProbeState};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

pub use probe::{ProbeConfig, ProbeMachine, ProbeOutcome, ProbeRequest};

/// The RRF constant.
pub const RRF_K: f64 = 60.0;
/// Longest query accepted, in characters (OpenAlex's ceiling).
pub const MAX_QUERY_CHARS: usize = 1500;

/// Hits asked of each backend when the user names no number.
pub const PER_BACKEND_DEFAULT: usize = 10;
/// Most hits asked of one backend for one query (the services' page size:
/// Semantic Scholar and Crossref serve at most 100 a page).
pub const PER_BACKEND_MAX: usize = 100;

/// The hits to ask of each backend from what a user typed: a number from
/// 1 to [`PER_BACKEND_MAX`], [`PER_BACKEND_DEFAULT`] when it is not one.
pub fn per_backend(text: &str) -> usize {
    text.trim()
        .parse::<usize>()
        .unwrap_or(PER_BACKEND_DEFAULT)
        .clamp(1, PER_BACKEND_MAX)
}

/// One query's results from the backends that answered, as one list: a
/// single backend's first `per_backend` works, or several fused
/// ([`fuse`]). The limit is per backend, so a fused list is not cut:
/// cutting it would drop a backend's papers whenever the indexes share no
/// id for them.
pub fn query_results(lists: &[(Service, Vec<Work>)], per_backend: usize) -> Vec<Work> {
    match lists {
        [(_, only)] => only.iter().take(per_backend).cloned().collect(),
        _ => {
            let refs: Vec<(Service, &[Work])> =
                lists.iter().map(|(s, w)| (*s, w.as_slice())).collect();
            fuse(&refs, &HashSet::new())
                .into_iter()
                .map(|f| f.work)
                .collect()
        }
    }
}

/// Short backend name used in results: `s2`, `asta`, `openalex`, `crossref`.
pub fn backend_name(service: Service) -> &'static str {
    match service {
        Service::SemanticScholar => "s2",
        Service::Asta => "asta",
        Service::OpenAlex => "openalex",
        Service::Crossref => "crossref",
        Service::Arxiv => "arxiv",
        Service::DataCite => "datacite",
        Service::Dblp => "dblp",
    }
}

/// Which backends a search asks for (`--source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// Every backend: S2, ASTA, OpenAlex, Crossref.
    All,
    /// S2 and ASTA.
    Both,
    /// One backend.
    One(Service),
}

impl Selection {
    /// Reads `all`, `both`, `s2`, `asta`, `openalex`, `crossref`.
    pub fn parse(text: &str) -> Option<Selection> {
        Some(match text.trim().to_ascii_lowercase().as_str() {
            "all" => Selection::All,
            "both" => Selection::Both,
            "s2" => Selection::One(Service::SemanticScholar),
            "asta" => Selection::One(Service::Asta),
            "openalex" => Selection::One(Service::OpenAlex),
            "crossref" => Selection::One(Service::Crossref),
            _ => return None,
        })
    }

    fn services(self) -> Vec<Service> {
        match self {
            Selection::All => vec![
                Service::SemanticScholar,
                Service::Asta,
                Service::OpenAlex,
                Service::Crossref,
            ],
            Selection::Both => vec![Service::SemanticScholar, Service::Asta],
            Selection::One(s) => vec![s],
        }
    }
}

/// What is configured for the keyed backend. ASTA needs both a key and a
/// relay (it does not answer browsers directly); S2 works without a key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// ASTA key present.
    pub asta_key: bool,
    /// ASTA relay URL present.
    pub asta_relay: bool,
}

/// The backends to search and those skipped, with a note each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Backends to search, in order.
    pub run: Vec<Service>,
    /// Backends requested but unusable, with why.
    pub skipped: Vec<(Service, String)>,
}

/// Plans a search over `selection`.
pub fn plan(selection: Selection, creds: &Credentials) -> Plan {
    let mut p = Plan {
        run: Vec::new(),
        skipped: Vec::new(),
    };
    for s in selection.services() {
        if s == Service::Asta && !(creds.asta_key && creds.asta_relay) {
            let missing = match (creds.asta_key, creds.asta_relay) {
                (false, false) => "no asta key and no relay configured",
                (false, true) => "no asta key configured",
                _ => "no relay configured for asta (it does not answer browsers)",
            };
            p.skipped.push((s, missing.to_string()));
        } else {
            p.run.push(s);
        }
    }
    p
}

/// Checks a query before any request is spent on it.
pub fn preflight(query: &str) -> Result<(), SearchError> {
    let n = query.chars().count();
    if query.trim().is_empty() {
        return Err(SearchError::new(
            ErrorKindName::QueryRejected,
            "the query is empty",
        ));
    }
    if n > MAX_QUERY_CHARS {
        return Err(SearchError::new(
            ErrorKindName::QueryTooLong,
            format!("the query has {n} characters, over the {MAX_QUERY_CHARS}-character limit; no request was sent"),
        ));
    }
    Ok(())
}

/// What one backend's search produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It answered with these works, in its rank order.
    Results(Vec<Work>),
    /// It was attempted and failed.
    Failed(ApiError),
    /// It was requested but not usable (note says why).
    Skipped(String),
}

/// One backend and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendRun {
    /// The backend.
    pub backend: Service,
    /// What happened.
    pub outcome: Outcome,
}

/// One fused result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fused {
    /// The merged work (the record of the first backend in [`Service`]
    /// order, gaps filled from the others).
    #[serde(flatten)]
    pub work: Work,
    /// Sum of `1 / (60 + rank)` over the backends that returned it.
    pub rrf: f64,
    /// Best (lowest) rank in any backend.
    pub rank: usize,
    /// Mean of its ranks over the backends that returned it.
    pub mean_rank: f64,
    /// Backends that returned it, sorted.
    pub sources: Vec<String>,
    /// How many backends returned it.
    pub found_by: usize,
    /// Its DOI is in the reference library.
    pub in_library: bool,
}

/// The dedup key: case-folded DOI, else the backend id, else the normalized title.
pub fn dedup_key(w: &Work) -> Option<String> {
    if let Some(d) = w.doi_key() {
        return Some(format!("doi:{d}"));
    }
    if let Some(id) = w
        .s2_id
        .as_ref()
        .or(w.openalex_id.as_ref())
        .or(w.id.as_ref())
    {
        let ns = match w.source {
            Service::SemanticScholar | Service::Asta => "s2",
            other => backend_name(other),
        };
        return Some(format!("{ns}:{id}"));
    }
    let t = title::normalize(&w.title);
    (!t.is_empty()).then(|| format!("title:{t}"))
}

fn fill(into: &mut Work, from: &Work) {
    macro_rules! gap {
        ($($f:ident),*) => {$(
            if into.$f.is_none() { into.$f = from.$f.clone(); }
        )*};
    }
    gap!(
        doi,
        arxiv_id,
        s2_id,
        openalex_id,
        pmid,
        pmcid,
        published,
        venue,
        abstract_text,
        citation_count,
        kind
    );
    if into.title.is_empty() {
        into.title = from.title.clone();
    }
    if into.authors.is_empty() {
        into.authors = from.authors.clone();
    }
}

/// True when the backends that were asked all failed with no readable
/// answer (status 0: offline, a firewall, a blocked request), so the app
/// can say once that the services cannot be reached. Skipped backends were
/// not asked and do not count; a search that asked none is not unreachable.
pub fn unreachable(runs: &[BackendRun]) -> bool {
    let mut asked = runs
        .iter()
        .filter(|r| !matches!(r.outcome, Outcome::Skipped(_)))
        .peekable();
    asked.peek().is_some()
        && asked.all(|r| {
            matches!(&r.outcome, Outcome::Failed(e) if e.kind == crate::works::ApiErrorKind::Network)
        })
}

/// Every identity a work can be recognised by across backends: its
/// case-folded DOI, arXiv id, backend ids and normalized title (a title of
/// at least three words: a one-word title names many papers).
pub fn identities(w: &Work) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(d) = w.doi_key() {
        keys.push(format!("doi:{d}"));
    }
    if let Some(a) = &w.arxiv_id {
        keys.push(format!("arxiv:{}", a.trim().to_ascii_lowercase()));
    }
    if let Some(id) = &w.s2_id {
        keys.push(format!("s2:{id}"));
    }
    if let Some(id) = &w.openalex_id {
        keys.push(format!("openalex:{id}"));
    }
    if let Some(id) = &w.id {
        let ns = match w.source {
            Service::SemanticScholar | Service::Asta => "s2",
            other => backend_name(other),
        };
        keys.push(format!("{ns}:{id}"));
    }
    let t = title::normalize(&w.title);
    if t.split(' ').filter(|x| !x.is_empty()).count() >= 3 {
        keys.push(format!("title:{t}"));
    }
    keys
}

/// Fuses ranked lists. `library` holds case-folded DOIs of the library.
///
/// The same paper from several backends is one result listing them all: two
/// records are the same paper when they share a DOI, an arXiv id, a backend
/// id or a normalized title — except that records with two different DOIs
/// are never merged on their title alone (a paper and its erratum, or two
/// papers with one title). The lists are read in [`Service`] order, so the
/// result does not depend on the order they are given in; a merged result
/// is the first such service's record with gaps filled from the others.
pub fn fuse(lists: &[(Service, &[Work])], library: &HashSet<String>) -> Vec<Fused> {
    struct Acc {
        work: Work,
        ranks: HashMap<&'static str, usize>,
        first: usize,
    }
    let mut order: Vec<Acc> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    // The lists are read in the services' fixed order, whatever order they
    // came in: which records merge, and whose record leads, never depend on
    // which backend answered first.
    let mut lists: Vec<&(Service, &[Work])> = lists.iter().collect();
    lists.sort_by_key(|(s, _)| *s);
    for (service, works) in lists {
        let name = backend_name(*service);
        for (i, w) in works.iter().enumerate() {
            let rank = i + 1;
            let mut keys = identities(w);
            if keys.is_empty() {
                keys.push(dedup_key(w).unwrap_or_else(|| format!("anon:{name}:{rank}")));
            }
            let doi = w.doi_key();
            let found = keys.iter().find_map(|k| {
                let slot = *index.get(k)?;
                let other = order.get(slot)?.work.doi_key();
                let clash = k.starts_with("title:")
                    && matches!((&doi, &other), (Some(a), Some(b)) if a != b);
                (!clash).then_some(slot)
            });
            let slot = match found {
                Some(s) => s,
                None => {
                    order.push(Acc {
                        work: w.clone(),
                        ranks: HashMap::new(),
                        first: order.len(),
                    });
                    order.len() - 1
                }
            };
            if let Some(acc) = order.get_mut(slot) {
                fill(&mut acc.work, w);
                let r = acc.ranks.entry(name).or_insert(rank);
                *r = (*r).min(rank);
                for k in identities(&acc.work).into_iter().chain(keys) {
                    index.entry(k).or_insert(slot);
                }
            }
        }
    }
    let mut out: Vec<(usize, Fused)> = order
        .into_iter()
        .map(|acc| {
            let mut sources: Vec<String> = acc.ranks.keys().map(|s| s.to_string()).collect();
            sources.sort();
            // Sum in source order so the float result does not depend on hashing.
            let mut ranks: Vec<(&str, usize)> = acc.ranks.iter().map(|(k, v)| (*k, *v)).collect();
            ranks.sort();
            let rrf = ranks.iter().map(|(_, r)| 1.0 / (RRF_K + *r as f64)).sum();
            let best = ranks.iter().map(|(_, r)| *r).min().unwrap_or(0);
            let mean = if ranks.is_empty() {
                0.0
            } else {
                ranks.iter().map(|(_, r)| *r as f64).sum::<f64>() / ranks.len() as f64
            };
            let in_library = acc.work.doi_key().is_some_and(|d| library.contains(&d));
            (
                acc.first,
                Fused {
                    work: acc.work,
                    rrf,
                    rank: best,
                    mean_rank: mean,
                    found_by: sources.len(),
                    sources,
                    in_library,
                },
            )
        })
        .collect();
    out.sort_by(|(fa, a), (fb, b)| {
        b.rrf
            .total_cmp(&a.rrf)
            .then(a.rank.cmp(&b.rank))
            .then(fa.cmp(fb))
    });
    out.into_iter().map(|(_, f)| f).collect()
}

/// Error kinds of a failed search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorKindName {
    /// Over the 1500-character ceiling; no request was sent.
    QueryTooLong,
    /// A backend rejected the query itself (bad request).
    QueryRejected,
    /// No backend was searched at all.
    NoBackendSearched,
    /// The zero may come from an over-specific query: a relaxation hit.
    QueryOverConstrained,
}

/// The `error` object of a failed search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchError {
    /// Kind.
    pub kind: ErrorKindName,
    /// For people.
    pub message: String,
    /// For `query_over_constrained`: the term whose drop recovered hits.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub dropped_term: Option<String>,
    /// For `query_over_constrained`: the near-query to retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub query: Option<String>,
}

impl SearchError {
    fn new(kind: ErrorKindName, message: impl Into<String>) -> Self {
        SearchError {
            kind,
            message: message.into(),
            dropped_term: None,
            query: None,
        }
    }
}

/// Overall status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "SearchStatus"))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every requested backend was searched.
    Ok,
    /// Some backend failed or was skipped, or the probe could not run.
    Partial,
    /// The query itself failed.
    Error,
}

/// A failed or skipped backend with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BackendNote {
    /// Backend name.
    pub backend: String,
    /// Why.
    pub note: String,
}

/// A search response. Field order is the output order; `status` first.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchResponse {
    /// `ok`, `partial` or `error`.
    pub status: Status,
    /// One sentence for an agent.
    pub summary: String,
    /// Number of results (absent on error).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub count: Option<usize>,
    /// Fused results (absent on error).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub results: Option<Vec<Fused>>,
    /// Requested, attempted and errored.
    pub failed_backends: Vec<String>,
    /// Requested but unusable.
    pub skipped_backends: Vec<String>,
    /// `status != ok`.
    pub partial: bool,
    /// Every requested backend contributed.
    pub complete: bool,
    /// What the zero-result probe did.
    pub probe: Probe,
    /// On error: what failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<SearchError>,
    /// Per-backend notes for failures and skips.
    pub notes: Vec<BackendNote>,
}

/// The backends that answered, in run order (the probe's candidates).
pub fn answered(runs: &[BackendRun]) -> Vec<Service> {
    runs.iter()
        .filter(|r| matches!(r.outcome, Outcome::Results(_)))
        .map(|r| r.backend)
        .collect()
}

/// Total hits over the backends that answered.
pub fn total_hits(runs: &[BackendRun]) -> usize {
    runs.iter()
        .map(|r| match &r.outcome {
            Outcome::Results(w) => w.len(),
            _ => 0,
        })
        .sum()
}

/// Builds the response for `query` from the backends' outcomes and the probe
/// report (from [`ProbeMachine`]; pass its initial report when it has none).
pub fn respond(
    query: &str,
    runs: &[BackendRun],
    probe: Probe,
    library: &HashSet<String>,
    limit: Option<usize>,
) -> SearchResponse {
    let mut failed = Vec::new();
    let mut skipped = Vec::new();
    let mut notes = Vec::new();
    let mut rejected: Option<&ApiError> = None;
    let mut lists: Vec<(Service, &[Work])> = Vec::new();
    for r in runs {
        let name = backend_name(r.backend).to_string();
        match &r.outcome {
            Outcome::Results(w) => lists.push((r.backend, w.as_slice())),
            Outcome::Failed(e) => {
                if e.kind == ApiErrorKind::BadRequest && rejected.is_none() {
                    rejected = Some(e);
                }
                failed.push(name.clone());
                notes.push(BackendNote {
                    backend: name,
                    note: e.to_string(),
                });
            }
            Outcome::Skipped(why) => {
                skipped.push(name.clone());
                notes.push(BackendNote {
                    backend: name,
                    note: why.clone(),
                });
            }
        }
    }
    let complete = failed.is_empty() && skipped.is_empty();
    let error = if let Err(e) = preflight(query) {
        Some(e)
    } else if let Some(e) = rejected {
        Some(SearchError::new(
            ErrorKindName::QueryRejected,
            format!("{} rejected the query ({e}); every backend got the same query, so the search failed", backend_name(e.service)),
        ))
    } else if lists.is_empty() {
        Some(SearchError::new(
            ErrorKindName::NoBackendSearched,
            "no backend was searched, so nothing was established",
        ))
    } else if probe.state == ProbeState::Hits {
        let mut e = SearchError::new(ErrorKindName::QueryOverConstrained, "");
        e.query = probe.query.clone();
        e.message = match &probe.dropped_term {
            Some(t) => format!(
                "the search found nothing, but dropping `{t}` finds papers: the zero may reflect an over-specific query rather than an empty literature; retry the near-query"
            ),
            None => "the search found nothing, but its content terms alone find papers: no single content term accounts for this, a stopword, quote or punctuation narrowed the query".to_string(),
        };
        e.dropped_term = probe.dropped_term.clone();
        Some(e)
    } else {
        None
    };
    if let Some(error) = error {
        return SearchResponse {
            status: Status::Error,
            summary: format!(
                "SEARCH FAILED ({}): {}",
                kind_text(error.kind),
                error.message
            ),
            count: None,
            results: None,
            failed_backends: failed,
            skipped_backends: skipped,
            partial: true,
            complete,
            probe,
            error: Some(error),
            notes,
        };
    }
    let mut results = fuse(&lists, library);
    if let Some(n) = limit {
        results.truncate(n);
    }
    let inconclusive = probe.state == ProbeState::Inconclusive;
    let status = if complete && !inconclusive {
        Status::Ok
    } else {
        Status::Partial
    };
    let searched: Vec<&str> = lists.iter().map(|(s, _)| backend_name(*s)).collect();
    let mut summary = match results.len() {
        0 => format!("no papers matched the query as asked in {}; this is an observation, not a verified absence", searched.join(", ")),
        n => format!("{n} papers from {}", searched.join(", ")),
    };
    if !failed.is_empty() {
        summary.push_str(&format!("; INCOMPLETE: {} failed", failed.join(", ")));
    }
    if !skipped.is_empty() {
        summary.push_str(&format!("; {} skipped", skipped.join(", ")));
    }
    if inconclusive {
        let why = match probe.reason {
            Some(ProbeReason::QuotedPhrase) => "the query has a quoted phrase",
            Some(ProbeReason::BackendError) => "a probe request failed",
            _ => "no backend could be probed",
        };
        summary.push_str(&format!(
            "; UNVERIFIED zero: the over-constraint probe could not run ({why})"
        ));
    } else if probe.state == ProbeState::Empty {
        summary.push_str(&format!(
            "; no single-term drop among the {} tried of {} content terms found papers",
            probe.drops_tried, probe.content_terms
        ));
    }
    SearchResponse {
        status,
        summary,
        count: Some(results.len()),
        results: Some(results),
        failed_backends: failed,
        skipped_backends: skipped,
        partial: status != Status::Ok,
        complete,
        probe,
        error: None,
        notes,
    }
}

fn kind_text(k: ErrorKindName) -> &'static str {
    match k {
        ErrorKindName::QueryTooLong => "query_too_long",
        ErrorKindName::QueryRejected => "query_rejected",
        ErrorKindName::NoBackendSearched => "no_backend_searched",
        ErrorKindName::QueryOverConstrained => "query_over_constrained",
    }
}

/// The probe report for a search that needs no probe requests (or whose
/// machine is already finished); `None` when requests are still needed.
pub fn probe_without_requests(query: &str, runs: &[BackendRun], cfg: ProbeConfig) -> Option<Probe> {
    ProbeMachine::new(query, total_hits(runs), &answered(runs), cfg)
        .result()
        .cloned()
}

#[cfg(test)]
mod tests;
