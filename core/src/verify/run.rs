//! A pool verification as a step machine: which Semantic Scholar request
//! goes next, and what each answer decides.
//!
//! The edge (the app's Pool page, a test) asks [`VerifyRun::next_ask`] for one
//! request at a time, sends it, and hands back what came of it as a
//! [`Fetched`]; [`VerifyRun::answer`] returns the candidates that answer
//! settled. The order is the one [`super::plan_batch`] gives: batches of at
//! most 500 ids in candidate order, then one title search per candidate
//! without an id — or whose id the batch did not know, since an unknown id
//! says nothing about the paper. When the keyless batch's CORS preflight is
//! refused, the same ids are asked one `GET /paper/{id}` at a time, for that
//! chunk and every later one. A request that got no usable answer leaves
//! its candidates unverified with the reason (tried again on resume), never
//! rejected.
//!
//! When Semantic Scholar stays shut (the edge's retries spent: no readable
//! answer, a 429, a 403, a server error), the run goes on with OpenAlex for
//! every candidate not yet decided ([`openalex`]): shared phrase searches,
//! then a relevance search for each title a phrase search did not return,
//! accepted by the same rules on OpenAlex's records (abstracts rebuilt
//! from `abstract_inverted_index`) and settled as [`Settled::DecidedBy`]
//! naming OpenAlex; a candidate OpenAlex cannot accept stays unverified
//! with what OpenAlex found (only Semantic Scholar's records reject). If
//! OpenAlex fails too, what is left is unverified with both reasons. While
//! Semantic Scholar answers, the seed's gate is the only one.
//!
//! Resuming: build the run again with the positions already decided; it
//! cuts the same chunks over the whole list, so every request it sends is
//! byte-identical to the first run's and the edge's response cache answers
//! what was fetched before.

use super::{decide, decide_batch_record, decide_body, plan_batch, read_s2_body};
use super::{Decision, S2Body, VerifyOptions};
use crate::candidates::Candidate;
use crate::error::{Error, ErrorKind};
use crate::works::request::{self, Endpoints, Request, WorkId};
use crate::works::Service;
use std::collections::{BTreeSet, VecDeque};

mod openalex;

/// Hits asked of a title search.
pub const SEARCH_LIMIT: usize = 5;

/// What came of one request, as the edge saw it.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    /// A readable answer (any status).
    Answer {
        /// HTTP status.
        status: u16,
        /// The body.
        body: String,
    },
    /// The request's CORS preflight was refused (the keyless batch): the
    /// run asks the same ids one by one instead.
    PreflightRefused,
    /// No usable answer; `reason` names the service and what happened
    /// (`unverified: service unavailable (…)`).
    Failed {
        /// Why, in the words shown to the user.
        reason: String,
    },
}

/// One candidate settled by an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Settled {
    /// Accepted or rejected by the core's rule, on Semantic Scholar's answer.
    Decided(Decision),
    /// Accepted or rejected by the same rule on another index's records
    /// (OpenAlex, once Semantic Scholar stayed shut); an accepted paper also
    /// carries `verified_by`.
    DecidedBy {
        /// The decision.
        decision: Decision,
        /// The index whose records made it.
        service: Service,
    },
    /// Not checked (the reason); tried again on resume.
    Unverified(String),
}

/// What the run wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Send this and hand what came of it to [`VerifyRun::answer`].
    Ask(Request),
    /// A request is out: answer it first.
    AwaitReply,
    /// Every candidate has had its requests.
    Done,
}

#[derive(Debug, Clone, PartialEq)]
enum Ask {
    Batch(usize),
    One(usize),
    Title(usize),
    /// An OpenAlex phrase search for these candidates (S2 is out).
    Phrases(Vec<usize>),
    /// An OpenAlex relevance search for one candidate (S2 is out).
    OpenAlex(usize),
}

/// A pool verification run; see the module documentation.
#[derive(Debug, Clone)]
pub struct VerifyRun {
    candidates: Vec<Candidate>,
    endpoints: Endpoints,
    opts: VerifyOptions,
    chunks: Vec<Vec<(usize, WorkId)>>,
    next_chunk: usize,
    singles: VecDeque<(usize, WorkId)>,
    titles: BTreeSet<usize>,
    settled: BTreeSet<usize>,
    batch_refused: bool,
    out: Option<Ask>,
    /// Why Semantic Scholar is out for the rest of the run.
    s2_down: Option<String>,
    /// Candidates waiting for OpenAlex (S2 is out).
    openalex: BTreeSet<usize>,
    /// Candidates an OpenAlex phrase search has asked about.
    phrased: BTreeSet<usize>,
}

impl VerifyRun {
    /// A run over `candidates`; positions in `decided` (a resumed run's
    /// checkpoint) are skipped.
    pub fn new(
        candidates: Vec<Candidate>,
        endpoints: Endpoints,
        opts: VerifyOptions,
        decided: &BTreeSet<usize>,
    ) -> VerifyRun {
        let plan = plan_batch(&candidates);
        VerifyRun {
            candidates,
            endpoints,
            opts,
            chunks: plan.chunks,
            next_chunk: 0,
            singles: VecDeque::new(),
            titles: plan.titles.into_iter().collect(),
            settled: decided.clone(),
            batch_refused: false,
            out: None,
            s2_down: None,
            openalex: BTreeSet::new(),
            phrased: BTreeSet::new(),
        }
    }

    /// Whether S2's batch was refused at its preflight this run.
    pub fn batch_refused(&self) -> bool {
        self.batch_refused
    }

    fn todo(&self, i: usize) -> bool {
        !self.settled.contains(&i)
    }

    /// The next request, or why there is none. An error means a request
    /// could not be built (a base URL the settings let through but a URL
    /// cannot hold); the run cannot go on.
    pub fn next_ask(&mut self) -> Result<Next, Error> {
        if self.out.is_some() {
            return Ok(Next::AwaitReply);
        }
        if self.s2_down.is_some() {
            return self.next_openalex();
        }
        // A single lookup stays at the queue's front until answered.
        while let Some((i, id)) = self.singles.front() {
            if self.todo(*i) {
                let req = request::lookup(Service::SemanticScholar, &self.endpoints, id)?;
                self.out = Some(Ask::One(*i));
                return Ok(Next::Ask(req));
            }
            self.singles.pop_front();
        }
        while let Some(chunk) = self.chunks.get(self.next_chunk) {
            let c = self.next_chunk;
            self.next_chunk += 1;
            let todo: Vec<(usize, WorkId)> = chunk
                .iter()
                .filter(|(i, _)| self.todo(*i))
                .cloned()
                .collect();
            if todo.is_empty() {
                continue;
            }
            if self.batch_refused {
                self.singles.extend(todo);
                return self.next_ask();
            }
            // The whole chunk as planned, so a resumed run sends the same
            // request (its answer may be in the edge's cache).
            let ids: Vec<WorkId> = chunk.iter().map(|(_, id)| id.clone()).collect();
            let reqs = request::batch(Service::SemanticScholar, &self.endpoints, &ids)?;
            if let Some(req) = reqs.into_iter().next() {
                self.out = Some(Ask::Batch(c));
                return Ok(Next::Ask(req));
            }
        }
        while let Some(i) = self.titles.pop_first() {
            if !self.todo(i) {
                continue;
            }
            let Some(c) = self.candidates.get(i) else {
                continue;
            };
            let req = request::search(
                Service::SemanticScholar,
                &self.endpoints,
                &c.title,
                SEARCH_LIMIT,
                None,
            )?;
            self.titles.insert(i);
            self.out = Some(Ask::Title(i));
            return Ok(Next::Ask(req));
        }
        Ok(Next::Done)
    }

    /// Takes what came of the request [`VerifyRun::next_ask`] handed out and
    /// returns the candidates it settled, by position. An answer with no
    /// request out settles nothing.
    pub fn answer(&mut self, fetched: Fetched) -> Vec<(usize, Settled)> {
        let Some(ask) = self.out.take() else {
            return Vec::new();
        };
        let settled = match ask {
            Ask::Batch(c) => self.answer_batch(c, fetched),
            Ask::One(i) => {
                self.singles.pop_front();
                self.answer_one(i, fetched)
            }
            Ask::Title(i) => {
                self.titles.remove(&i);
                self.answer_title(i, fetched)
            }
            Ask::Phrases(asked) => self.answer_phrases(&asked, fetched),
            Ask::OpenAlex(i) => self.answer_openalex(i, fetched),
        };
        // Unverified ones too: each candidate is asked once per run.
        for (i, _) in &settled {
            self.settled.insert(*i);
        }
        settled
    }

    fn answer_batch(&mut self, c: usize, fetched: Fetched) -> Vec<(usize, Settled)> {
        let chunk: Vec<(usize, WorkId)> = self
            .chunks
            .get(c)
            .map(|ch| ch.iter().filter(|(i, _)| self.todo(*i)).cloned().collect())
            .unwrap_or_default();
        let positions = self.chunks.get(c).cloned().unwrap_or_default();
        let (status, body) = match fetched {
            Fetched::PreflightRefused => {
                self.batch_refused = true;
                for entry in chunk.into_iter().rev() {
                    self.singles.push_front(entry);
                }
                return Vec::new();
            }
            Fetched::Failed { reason } => {
                return self.s2_out(reason, chunk.iter().map(|(i, _)| *i));
            }
            Fetched::Answer { status, body } => (status, body),
        };
        let all = |why: String| -> Vec<(usize, Settled)> {
            chunk
                .iter()
                .map(|(i, _)| (*i, Settled::Unverified(why.clone())))
                .collect()
        };
        let records = match read_s2_body(&body, Some(status)) {
            Ok(S2Body::Batch(r)) => r,
            Ok(S2Body::Error(e)) if shut(status) => {
                let why = format!("unverified: {}", e.to_error());
                return self.s2_out(why, chunk.iter().map(|(i, _)| *i));
            }
            Ok(S2Body::Error(e)) => return all(format!("unverified: {}", e.to_error())),
            Ok(_) => {
                return all(format!(
                    "unverified: {} batch answer is not a list",
                    Service::SemanticScholar.name()
                ))
            }
            Err(e) => return all(unreadable(&e)),
        };
        let mut out = Vec::new();
        for (pos, (i, _)) in positions.iter().enumerate() {
            if !self.todo(*i) {
                continue;
            }
            let Some(cand) = self.candidates.get(*i) else {
                continue;
            };
            let record = records.get(pos).cloned().flatten();
            match decide_batch_record(cand, record.as_ref(), &self.opts) {
                Some(d) => out.push((*i, Settled::Decided(d))),
                // An id the service does not know: its title decides.
                None => {
                    self.titles.insert(*i);
                }
            }
        }
        out
    }

    fn answer_one(&mut self, i: usize, fetched: Fetched) -> Vec<(usize, Settled)> {
        let Some(cand) = self.candidates.get(i) else {
            return Vec::new();
        };
        let settled = match fetched {
            Fetched::Answer { status, body } => match read_s2_body(&body, Some(status)) {
                Ok(S2Body::Paper(p)) => {
                    Settled::Decided(decide(cand, std::slice::from_ref(p.as_ref()), &self.opts))
                }
                Ok(S2Body::Error(e)) if e.status == Some(404) => {
                    self.titles.insert(i);
                    return Vec::new();
                }
                Ok(S2Body::Error(e)) if shut(status) => {
                    return self.s2_out(format!("unverified: {}", e.to_error()), [i]);
                }
                Ok(S2Body::Error(e)) => {
                    Settled::Unverified(format!("unverified: {}", e.to_error()))
                }
                Ok(_) => Settled::Unverified(format!(
                    "unverified: {} paper answer is not a record",
                    Service::SemanticScholar.name()
                )),
                Err(e) => Settled::Unverified(unreadable(&e)),
            },
            Fetched::PreflightRefused => Settled::Unverified(format!(
                "unverified: {} refused the request's preflight",
                Service::SemanticScholar.name()
            )),
            Fetched::Failed { reason } => return self.s2_out(reason, [i]),
        };
        vec![(i, settled)]
    }

    fn answer_title(&mut self, i: usize, fetched: Fetched) -> Vec<(usize, Settled)> {
        let Some(cand) = self.candidates.get(i) else {
            return Vec::new();
        };
        let settled = match fetched {
            Fetched::Answer { status, body } => {
                match decide_body(cand, &body, Some(status), 0, &self.opts) {
                    Ok(d) => Settled::Decided(d),
                    Err(e) if shut(status) => return self.s2_out(unreadable(&e), [i]),
                    Err(e) => Settled::Unverified(unreadable(&e)),
                }
            }
            Fetched::PreflightRefused => Settled::Unverified(format!(
                "unverified: {} refused the request's preflight",
                Service::SemanticScholar.name()
            )),
            Fetched::Failed { reason } => return self.s2_out(reason, [i]),
        };
        vec![(i, settled)]
    }
}

/// Whether an answer with `status` says the service is shut rather than
/// answering about the paper: no readable answer, rate limited, refused,
/// or a server error (the edge has spent its retries on it by now).
fn shut(status: u16) -> bool {
    matches!(status, 0 | 403 | 429) || status >= 500
}

/// The reason for an answer the core could not read; the service is named,
/// as in every other unverified reason (an error answer already names it).
pub fn unreadable(e: &Error) -> String {
    if e.kind == ErrorKind::Api {
        format!("unverified: {e}")
    } else {
        format!(
            "unverified: {} sent an unreadable answer: {e}",
            Service::SemanticScholar.name()
        )
    }
}

#[cfg(test)]
mod tests;
