//! Pool verification on OpenAlex once Semantic Scholar stays shut.
//!
//! Keyless, OpenAlex's daily allowance pays for ten searches, so titles go
//! twenty to a phrase search first ([`request::openalex_phrases`]); a
//! candidate whose phrase the shared page does not hold gets a relevance
//! search of its own.
//!
//! OpenAlex's records can accept a candidate (the same title, abstract and
//! date rules) but never reject one: the seed's gate is Semantic Scholar,
//! and OpenAlex lacking a paper, its abstract, or dating its journal
//! version after the cutoff says nothing of what Semantic Scholar holds. A
//! candidate OpenAlex cannot accept stays unverified with what OpenAlex
//! found, and a later run asks Semantic Scholar again.

use super::{Ask, Fetched, Next, Settled, VerifyRun, SEARCH_LIMIT};
use crate::error::Error;
use crate::verify::{decide_works, Decision, Rejection};
use crate::works::request;
use crate::works::{parse_response, ApiErrorKind, Service, Work};

const PREFLIGHT: &str = "openalex refused the request's preflight";

impl VerifyRun {
    /// Semantic Scholar is out for the rest of the run (`reason`): the
    /// candidates of the failed request and every one still waiting for
    /// Semantic Scholar go to OpenAlex. Nothing is settled yet.
    pub(super) fn s2_out(
        &mut self,
        reason: String,
        affected: impl IntoIterator<Item = usize>,
    ) -> Vec<(usize, Settled)> {
        if self.s2_down.is_none() {
            self.s2_down = Some(reason);
        }
        let mut waiting: Vec<usize> = affected.into_iter().collect();
        waiting.extend(self.singles.drain(..).map(|(i, _)| i));
        for chunk in self.chunks.iter().skip(self.next_chunk) {
            waiting.extend(chunk.iter().map(|(i, _)| *i));
        }
        self.next_chunk = self.chunks.len();
        waiting.extend(std::mem::take(&mut self.titles));
        for i in waiting {
            if self.todo(i) {
                self.openalex.insert(i);
            }
        }
        Vec::new()
    }

    /// OpenAlex could not be asked either: every candidate waiting for it is
    /// unverified, with both reasons.
    fn openalex_out(&mut self, reason: &str) -> Vec<(usize, Settled)> {
        let s2 = self.s2_down.clone().unwrap_or_default();
        let why = format!(
            "{s2}; then {}",
            reason.strip_prefix("unverified: ").unwrap_or(reason)
        );
        std::mem::take(&mut self.openalex)
            .into_iter()
            .filter(|&i| self.todo(i))
            .map(|i| (i, Settled::Unverified(why.clone())))
            .collect()
    }

    /// The next OpenAlex request: a phrase search for the titles not yet in
    /// one (when two or more fit), else a relevance search for one title.
    pub(super) fn next_openalex(&mut self) -> Result<Next, Error> {
        let waiting = self
            .openalex
            .iter()
            .filter(|&&i| !self.phrased.contains(&i) && self.todo(i))
            .filter_map(|&i| Some((i, self.candidates.get(i)?.title.as_str())));
        if let Some((asked, req)) = request::openalex_phrase_batch(&self.endpoints, waiting) {
            self.out = Some(Ask::Phrases(asked));
            return Ok(Next::Ask(req));
        }
        while let Some(i) = self.openalex.first().copied() {
            let Some(c) = self.candidates.get(i).filter(|_| self.todo(i)) else {
                self.openalex.remove(&i);
                continue;
            };
            let req = request::search(
                Service::OpenAlex,
                &self.endpoints,
                &c.title,
                SEARCH_LIMIT,
                None,
            )?;
            self.out = Some(Ask::OpenAlex(i));
            return Ok(Next::Ask(req));
        }
        Ok(Next::Done)
    }

    /// A phrase search's answer: each candidate whose phrase a record holds
    /// is decided on those records; the others wait for their own search.
    pub(super) fn answer_phrases(
        &mut self,
        asked: &[usize],
        fetched: Fetched,
    ) -> Vec<(usize, Settled)> {
        self.phrased.extend(asked.iter().copied());
        let works = match fetched {
            Fetched::Answer { status, body } => {
                match parse_response(Service::OpenAlex, status, &body) {
                    Ok(page) => page.works,
                    Err(e) if super::shut(status) => return self.openalex_out(&e.to_string()),
                    // An answer that decides nothing: the titles go on alone.
                    Err(_) => return Vec::new(),
                }
            }
            Fetched::Failed { reason } => return self.openalex_out(&reason),
            Fetched::PreflightRefused => return self.openalex_out(PREFLIGHT),
        };
        let mut out = Vec::new();
        for &i in asked {
            let Some(c) = self.candidates.get(i).filter(|_| self.todo(i)) else {
                continue;
            };
            let phrase = request::title_phrase(&c.title).unwrap_or_default();
            let hits: Vec<Work> = works
                .iter()
                .filter(|w| request::holds_phrase(&w.title, &phrase))
                .cloned()
                .collect();
            if hits.is_empty() {
                continue;
            }
            let decision = decide_works(c, &hits, &self.opts);
            self.openalex.remove(&i);
            out.push((i, self.settle(decision)));
        }
        out
    }

    /// A relevance search's answer decides its candidate (no hit included).
    pub(super) fn answer_openalex(&mut self, i: usize, fetched: Fetched) -> Vec<(usize, Settled)> {
        let Some(c) = self.candidates.get(i) else {
            self.openalex.remove(&i);
            return Vec::new();
        };
        let works = match fetched {
            Fetched::Answer { status, body } => {
                match parse_response(Service::OpenAlex, status, &body) {
                    Ok(page) => page.works,
                    Err(e) if e.kind == ApiErrorKind::NotFound => Vec::new(),
                    Err(e) if super::shut(status) => return self.openalex_out(&e.to_string()),
                    Err(e) => {
                        self.openalex.remove(&i);
                        let s2 = self.s2_down.clone().unwrap_or_default();
                        return vec![(i, Settled::Unverified(format!("{s2}; then {e}")))];
                    }
                }
            }
            Fetched::Failed { reason } => return self.openalex_out(&reason),
            Fetched::PreflightRefused => return self.openalex_out(PREFLIGHT),
        };
        let decision = decide_works(c, &works, &self.opts);
        self.openalex.remove(&i);
        vec![(i, self.settle(decision))]
    }

    /// An acceptance on OpenAlex's records stands; anything else leaves the
    /// candidate unverified with what OpenAlex found.
    fn settle(&self, decision: Decision) -> Settled {
        let found = match &decision {
            Decision::Accepted { .. } => {
                return Settled::DecidedBy {
                    decision,
                    service: Service::OpenAlex,
                }
            }
            Decision::Rejected(Rejection::NoHit) => {
                "openalex found no paper with this title".to_string()
            }
            Decision::Rejected(r) => format!("openalex: {}", r.describe()),
        };
        let s2 = self.s2_down.clone().unwrap_or_default();
        Settled::Unverified(format!(
            "{s2}; then {found} (only semantic scholar's records reject a candidate: resume when it answers)"
        ))
    }
}
