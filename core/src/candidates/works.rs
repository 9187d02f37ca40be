//! Search results to candidates: snippets, stable URLs, merging what is
//! certainly the same paper, and the summary of a discovery run.

use super::{merge_into, Candidate};
use crate::works::Work;
use serde_json::Value;

/// Characters of an abstract kept in a discovered candidate's snippet.
pub const SNIPPET_CHARS: usize = 240;

/// The snippet of a search result: the start of its abstract (cut at a word
/// boundary within [`SNIPPET_CHARS`], with `…` when cut), else `venue, year`
/// (or whichever of the two is known), else nothing.
pub fn work_snippet(work: &Work) -> Option<String> {
    if let Some(text) = work.abstract_text.as_deref() {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !flat.is_empty() {
            if flat.chars().count() <= SNIPPET_CHARS {
                return Some(flat);
            }
            let head: String = flat.chars().take(SNIPPET_CHARS).collect();
            let cut = match head.rfind(' ') {
                Some(at) if at > 0 => head.get(..at).unwrap_or(&head),
                _ => head.as_str(),
            };
            return Some(format!("{}…", cut.trim_end_matches([',', ';', ':', ' '])));
        }
    }
    let venue = work
        .venue
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty());
    match (venue, work.year()) {
        (Some(v), Some(y)) => Some(format!("{v}, {y}")),
        (Some(v), None) => Some(v.to_string()),
        (None, Some(y)) => Some(y.to_string()),
        (None, None) => None,
    }
}

/// The page a search result points to, most stable first: its DOI
/// (`https://doi.org/…`), its arXiv abstract page, its Semantic Scholar page,
/// its OpenAlex page. The arXiv page comes before the index pages because
/// pre-dedup and the verifier's batch lookup read the arXiv id from this URL.
pub fn work_url(work: &Work) -> Option<String> {
    if let Some(doi) = work.doi.as_deref().and_then(crate::works::bare_doi) {
        return Some(format!("https://doi.org/{doi}"));
    }
    if let Some(id) = work.arxiv_id.as_deref().filter(|s| !s.trim().is_empty()) {
        return Some(format!("https://arxiv.org/abs/{}", id.trim()));
    }
    if let Some(id) = work.s2_id.as_deref().filter(|s| !s.trim().is_empty()) {
        return Some(format!(
            "https://www.semanticscholar.org/paper/{}",
            id.trim()
        ));
    }
    let oa = work
        .openalex_id
        .as_deref()
        .filter(|s| !s.trim().is_empty())?;
    let oa = oa.trim();
    Some(if oa.starts_with("http") {
        oa.to_string()
    } else {
        format!("https://openalex.org/{oa}")
    })
}

/// A candidate for one search result found by a query tagged `tag`. The
/// DOI, when known, is kept as an extra `doi` field so verification can look
/// the paper up by it instead of searching its title.
pub fn candidate_from_work(work: &Work, tag: &str) -> Candidate {
    let mut c = Candidate::titled(work.title.trim());
    c.snippet = work_snippet(work);
    c.source_url = work_url(work);
    c.discovered_for = Some(vec![tag.to_string()]);
    if let Some(doi) = work.doi.as_deref().and_then(crate::works::bare_doi) {
        c.extra.insert("doi".into(), Value::String(doi));
    }
    c
}

/// The keys under which two results are the same paper: the DOI (case
/// folded), the arXiv id, the Semantic Scholar id, the OpenAlex id and the
/// normalized title. Sharing any one is enough.
fn work_keys(work: &Work) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(d) = work.doi_key() {
        keys.push(format!("doi:{d}"));
    }
    if let Some(a) = work.arxiv_id.as_deref().filter(|s| !s.trim().is_empty()) {
        keys.push(format!(
            "arxiv:{}",
            crate::works::strip_arxiv_version(a).to_lowercase()
        ));
    }
    if let Some(s) = work.s2_id.as_deref().filter(|s| !s.trim().is_empty()) {
        keys.push(format!("s2:{}", s.trim()));
    }
    if let Some(o) = work.openalex_id.as_deref().filter(|s| !s.trim().is_empty()) {
        let o = o.trim();
        keys.push(format!("openalex:{}", o.rsplit('/').next().unwrap_or(o)));
    }
    let t = crate::title::normalize(&work.title);
    if !t.is_empty() {
        keys.push(format!("title:{t}"));
    }
    keys
}

/// Turns search results into candidates, in the order they were found.
///
/// `found` lists, query by query, the query's tag and the works it returned
/// (one backend's list, or the fused list of several). Each titled work
/// becomes a candidate ([`candidate_from_work`]); a paper found again —
/// same DOI, arXiv id, index id or normalized title as an earlier result —
/// keeps its first candidate, gains the new tag after the earlier ones (no
/// repeats), and fills a missing snippet, URL or DOI from the new record.
/// Works without a title are skipped: a candidate is identified by it.
pub fn from_works<'a, I>(found: I) -> Vec<Candidate>
where
    I: IntoIterator<Item = (&'a str, &'a [Work])>,
{
    let mut out: Vec<Candidate> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (tag, works) in found {
        for work in works {
            if work.title.trim().is_empty() {
                continue;
            }
            let keys = work_keys(work);
            let new = candidate_from_work(work, tag);
            let at = keys.iter().find_map(|k| seen.get(k).copied());
            let index = match at.and_then(|i| out.get_mut(i).map(|c| (i, c))) {
                Some((i, c)) => {
                    merge_into(c, &new);
                    if c.snippet.is_none() {
                        c.snippet = new.snippet;
                    }
                    if c.source_url.is_none() {
                        c.source_url = new.source_url;
                    }
                    if let (false, Some(d)) = (c.extra.contains_key("doi"), new.extra.get("doi")) {
                        c.extra.insert("doi".into(), d.clone());
                    }
                    i
                }
                None => {
                    out.push(new);
                    out.len() - 1
                }
            };
            for k in keys {
                seen.entry(k).or_insert(index);
            }
        }
    }
    out
}

/// How a discovery run from an outline went, for its summary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiscoveryCounts {
    /// Candidates found.
    pub candidates: usize,
    /// Queries in the outline.
    pub queries: usize,
    /// Queries sent before the run ended (fewer than `queries` when stopped).
    pub asked: usize,
    /// Queries that failed on every backend asked.
    pub failed_queries: usize,
    /// Single searches (one backend, one query) that failed.
    pub failed_searches: usize,
}

/// The overall outcome of a discovery run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscoveryOutcome {
    /// Every query asked answered on every backend, and all were asked.
    Ok,
    /// Some searches failed, or the run was stopped before the end.
    Partial,
    /// Every query asked failed on every backend.
    Error,
}

/// The outcome and the summary line of a discovery run. A failed search is
/// said, never read as "nothing found"; a stopped run says how far it got.
pub fn discovery_summary(c: DiscoveryCounts) -> (DiscoveryOutcome, String) {
    let DiscoveryCounts {
        candidates: n,
        queries: total,
        asked,
        failed_queries,
        failed_searches,
    } = c;
    let stopped = asked < total;
    let outcome = if asked > 0 && failed_queries == asked {
        DiscoveryOutcome::Error
    } else if failed_searches > 0 || stopped {
        DiscoveryOutcome::Partial
    } else {
        DiscoveryOutcome::Ok
    };
    let mut text = if failed_searches > 0 {
        format!(
            "INCOMPLETE: {n} candidates from {} of {total} queries; {failed_queries} queries failed on every backend asked, {failed_searches} searches failed (listed below)",
            asked.saturating_sub(failed_queries)
        )
    } else if stopped {
        format!("{n} candidates from {asked} of {total} queries")
    } else {
        format!("{n} candidates from {total} queries")
    };
    if stopped {
        text.push_str(&format!(
            "; stopped by you before the other {} queries (press Discover to run them all)",
            total - asked
        ));
    }
    (outcome, text)
}
