//! The cross-check as a step machine: which request goes out next, what each
//! answer means for the papers that were waiting on it, and the report.
//!
//! [`CrossRun`] plans every request of a cross-check and takes every
//! decision about the answers; the caller only sends the requests (with its
//! own transport, pacing, retries and cache) and hands the outcome back as a
//! [`Reply`]. Papers with a DOI go out in each index's batch form
//! (Crossref `filter=doi:…` and OpenAlex `filter=doi:a|b`, 50 DOIs each),
//! cut from the *whole* paper list in its order, never from the papers still
//! to do, so a resumed run rebuilds byte-identical requests and a cache
//! answers them. A paper without a DOI, or whose DOI an index does not hold,
//! gets one title search in that index. The batches go first, then the
//! searches paper by paper, so papers complete in order as answers arrive.
//!
//! An index that answers "unavailable" (offline, refused, rate-limited after
//! the caller's retries) is not asked again in this run: every paper still
//! waiting on it is recorded as unavailable there, and its silence is never
//! read as "not found" ([`super::verify`] leaves it out). A resumed run asks
//! again what was stored as unavailable.

use super::{pool_doi, verify, Confidence, Config, Flag, IndexAnswer, Report, Verdict};
use crate::pool::PoolPaper;
use crate::works::request::{self, Endpoints, Request, WorkId};
use crate::works::{parse_response, ApiError, ApiErrorKind, Page, Service, Work};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// Hits asked of each title search.
pub const SEARCH_LIMIT: usize = 5;

/// Ids per batch request of `service`: Semantic Scholar `POST /paper/batch`
/// 500, OpenAlex `filter=doi:a|b|…` 50 (its OR-filter limit), Crossref
/// `filter=doi:…,doi:…` 50, DataCite `ids=` 50; 1 for a service without a
/// batch form.
pub fn batch_size(service: Service) -> usize {
    match service {
        Service::SemanticScholar => request::S2_BATCH_MAX,
        Service::OpenAlex => request::OPENALEX_BATCH_MAX,
        Service::Crossref => request::CROSSREF_BATCH_MAX,
        Service::DataCite => request::DATACITE_BATCH_MAX,
        Service::Arxiv => request::ARXIV_BATCH_MAX,
        _ => 1,
    }
}

/// Papers split for one index: DOI-bearing chunks of at most
/// [`batch_size`] (positions in the whole list, with the DOI), and the
/// positions without a DOI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunks {
    /// `(position, bare lowercased DOI)`, in list order.
    pub chunks: Vec<Vec<(usize, String)>>,
    /// Positions of papers without a DOI.
    pub without: Vec<usize>,
}

/// Cuts the DOI-bearing papers into chunks of `size` over the whole list.
pub fn plan_chunks(papers: &[PoolPaper], size: usize) -> Chunks {
    let mut with = Vec::new();
    let mut without = Vec::new();
    for (i, p) in papers.iter().enumerate() {
        match pool_doi(p) {
            Some(d) => with.push((i, d)),
            None => without.push(i),
        }
    }
    Chunks {
        chunks: with.chunks(size.max(1)).map(<[_]>::to_vec).collect(),
        without,
    }
}

/// One index's stored answer for one paper: the checkpoint form of
/// [`IndexAnswer`], with the error kept for the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum StoredAnswer {
    /// The index could not be reached, or kept failing.
    Unavailable {
        /// The service's error (empty in checkpoints written before it was kept).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        error: String,
    },
    /// The index answered.
    Answered {
        /// The work found by DOI.
        by_doi: Option<Box<Work>>,
        /// Title-search hits.
        search: Vec<Work>,
    },
}

impl StoredAnswer {
    /// The form [`super::verify`] reads.
    pub fn to_core(&self) -> IndexAnswer {
        match self {
            StoredAnswer::Unavailable { .. } => IndexAnswer::Unavailable,
            StoredAnswer::Answered { by_doi, search } => IndexAnswer::Answered {
                by_doi: by_doi.clone(),
                search: search.clone(),
            },
        }
    }

    fn answered(&self) -> bool {
        matches!(self, StoredAnswer::Answered { .. })
    }
}

/// What came back for one request, as the caller's transport saw it.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A readable answer.
    Page(Page),
    /// The service cannot be reached for now (offline, blocked, refused,
    /// rate-limited after the caller's retries): it is out for this run.
    Unavailable(String),
    /// This request failed (a rejected query, an unreadable body); the
    /// service stays in the run.
    Failed(String),
}

impl Reply {
    /// How the run reads the final answer to one of its requests, once the
    /// caller's transport has retried it as the fetch policy says: a
    /// readable list is a [`Reply::Page`]; no response (status 0), a rate
    /// limit or a server error still standing after the retries, or a
    /// refusal (401, 403) is [`Reply::Unavailable`], the index is out for
    /// the run; any other status (a rejected query, a 404 route) or an
    /// unreadable success body is [`Reply::Failed`], this request only.
    pub fn from_answer(service: Service, status: u16, body: &str) -> Reply {
        match parse_response(service, status, body) {
            Ok(page) => Reply::Page(page),
            Err(e) => Reply::from_error(&e, e.to_string()),
        }
    }

    /// The same reading of a request that ended in `error` after the
    /// caller's retries, described by `message` (a transport that has
    /// already parsed the answer, such as the app's client, says more).
    pub fn from_error(error: &ApiError, message: String) -> Reply {
        match error.kind {
            ApiErrorKind::Network
            | ApiErrorKind::RateLimited
            | ApiErrorKind::Server
            | ApiErrorKind::Forbidden => Reply::Unavailable(message),
            _ => Reply::Failed(message),
        }
    }
}

/// One request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// The id to pass back to [`CrossRun::answer`].
    pub id: u64,
    /// The request.
    pub request: Request,
    /// The papers (positions) waiting on it.
    pub papers: Vec<usize>,
}

/// What the run wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Send this request and hand its outcome to [`CrossRun::answer`].
    Send(Ask),
    /// Nothing more to send until an answer in flight comes back.
    AwaitReplies,
    /// Every paper has an answer from every index (or the index is out).
    Done,
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Batch {
        service: Service,
        chunk: Vec<(usize, String)>,
    },
    Search {
        service: Service,
        paper: usize,
    },
}

/// A cross-check of a pool against some indices; see the [module docs](self).
#[derive(Debug, Clone)]
pub struct CrossRun {
    papers: Vec<PoolPaper>,
    services: Vec<Service>,
    endpoints: Endpoints,
    cfg: Config,
    answers: BTreeMap<usize, BTreeMap<Service, StoredAnswer>>,
    batches: VecDeque<Step>,
    /// Searches still to send, by (paper, index order).
    searches: BTreeSet<(usize, usize)>,
    in_flight: HashMap<u64, Step>,
    down: BTreeMap<Service, String>,
    /// (paper, index) pairs recorded in this run: not asked again.
    settled: BTreeSet<(usize, Service)>,
    next_id: u64,
    sent: usize,
}

impl CrossRun {
    /// A run of `papers` against `services` (in that order), resuming from
    /// `stored` (the answers a checkpoint kept; empty for a fresh run).
    pub fn new(
        papers: Vec<PoolPaper>,
        services: Vec<Service>,
        endpoints: Endpoints,
        cfg: Config,
        stored: BTreeMap<usize, BTreeMap<Service, StoredAnswer>>,
    ) -> CrossRun {
        let mut run = CrossRun {
            answers: stored
                .into_iter()
                .filter(|(i, _)| *i < papers.len())
                .collect(),
            papers,
            services,
            endpoints,
            cfg,
            batches: VecDeque::new(),
            searches: BTreeSet::new(),
            in_flight: HashMap::new(),
            down: BTreeMap::new(),
            settled: BTreeSet::new(),
            next_id: 1,
            sent: 0,
        };
        let plans: Vec<(usize, Service, Chunks)> = run
            .services
            .iter()
            .enumerate()
            .map(|(k, s)| (k, *s, plan_chunks(&run.papers, batch_size(*s))))
            .collect();
        // Chunk n of every index before chunk n+1 of any, so the papers of
        // the first chunk complete first.
        let most = plans.iter().map(|(_, _, c)| c.chunks.len()).max();
        for n in 0..most.unwrap_or(0) {
            for (_, service, plan) in &plans {
                if let Some(chunk) = plan.chunks.get(n) {
                    run.batches.push_back(Step::Batch {
                        service: *service,
                        chunk: chunk.clone(),
                    });
                }
            }
        }
        for (k, _, plan) in &plans {
            run.searches.extend(plan.without.iter().map(|i| (*i, *k)));
        }
        run
    }

    /// Whether paper `i` still needs an answer from `service`: none stored,
    /// or "unavailable" stored by an earlier run (asked again now).
    fn needs(&self, i: usize, service: Service) -> bool {
        !self.settled.contains(&(i, service))
            && !self
                .answers
                .get(&i)
                .and_then(|m| m.get(&service))
                .is_some_and(StoredAnswer::answered)
    }

    fn store(&mut self, i: usize, service: Service, a: StoredAnswer) {
        self.settled.insert((i, service));
        self.answers.entry(i).or_default().insert(service, a);
    }

    fn index_of(&self, service: Service) -> usize {
        self.services
            .iter()
            .position(|s| *s == service)
            .unwrap_or(usize::MAX)
    }

    /// The next request, or why there is none.
    // Named as the other step machines' `next` (`resolve::Run`, `fetch::queue::Queue`).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Next {
        while let Some(step) = self.batches.pop_front() {
            let Step::Batch { service, chunk } = &step else {
                continue;
            };
            let service = *service;
            let waiting: Vec<usize> = chunk
                .iter()
                .map(|(i, _)| *i)
                .filter(|i| self.needs(*i, service))
                .collect();
            if waiting.is_empty() {
                continue;
            }
            if let Some(err) = self.down.get(&service).cloned() {
                for i in waiting {
                    self.store(i, service, StoredAnswer::Unavailable { error: err.clone() });
                }
                continue;
            }
            let ids: Vec<WorkId> = chunk.iter().map(|(_, d)| WorkId::Doi(d.clone())).collect();
            match request::batch(service, &self.endpoints, &ids)
                .ok()
                .and_then(|r| r.into_iter().next())
            {
                Some(req) => return self.send(step, req, waiting),
                // No batch form: each paper is searched by title instead.
                None => {
                    let k = self.index_of(service);
                    self.searches.extend(waiting.into_iter().map(|i| (i, k)));
                }
            }
        }
        while let Some((i, k)) = self.searches.pop_first() {
            let Some(&service) = self.services.get(k) else {
                continue;
            };
            if !self.needs(i, service) {
                continue;
            }
            if let Some(err) = self.down.get(&service).cloned() {
                self.store(i, service, StoredAnswer::Unavailable { error: err });
                continue;
            }
            let title = self
                .papers
                .get(i)
                .and_then(|p| p.title.clone())
                .unwrap_or_default();
            if title.trim().is_empty() {
                // Nothing to search for: the index is asked nothing and holds nothing.
                let empty = StoredAnswer::Answered {
                    by_doi: None,
                    search: Vec::new(),
                };
                self.store(i, service, empty);
                continue;
            }
            match request::search(service, &self.endpoints, &title, SEARCH_LIMIT, None) {
                Ok(req) => return self.send(Step::Search { service, paper: i }, req, vec![i]),
                Err(e) => self.store(
                    i,
                    service,
                    StoredAnswer::Unavailable {
                        error: e.to_string(),
                    },
                ),
            }
        }
        if self.in_flight.is_empty() {
            Next::Done
        } else {
            Next::AwaitReplies
        }
    }

    fn send(&mut self, step: Step, request: Request, papers: Vec<usize>) -> Next {
        let id = self.next_id;
        self.next_id += 1;
        self.sent += 1;
        self.in_flight.insert(id, step);
        Next::Send(Ask {
            id,
            request,
            papers,
        })
    }

    /// Takes the outcome of request `id` (unknown ids are ignored); returns
    /// the papers whose answers changed.
    pub fn answer(&mut self, id: u64, reply: Reply) -> Vec<usize> {
        let Some(step) = self.in_flight.remove(&id) else {
            return Vec::new();
        };
        let mut changed = Vec::new();
        match step {
            Step::Batch { service, chunk } => {
                let k = self.index_of(service);
                let waiting: Vec<(usize, String)> = chunk
                    .into_iter()
                    .filter(|(i, _)| self.needs(*i, service))
                    .collect();
                match reply {
                    Reply::Page(page) => {
                        let mut by_key: BTreeMap<String, Work> = BTreeMap::new();
                        for w in page.works {
                            if let Some(key) = w.doi_key() {
                                by_key.entry(key).or_insert(w);
                            }
                        }
                        for (i, doi) in waiting {
                            match by_key.remove(&doi) {
                                Some(w) => {
                                    let a = StoredAnswer::Answered {
                                        by_doi: Some(Box::new(w)),
                                        search: Vec::new(),
                                    };
                                    self.store(i, service, a);
                                    changed.push(i);
                                }
                                // Not found by DOI: a title search decides.
                                None => {
                                    self.searches.insert((i, k));
                                }
                            }
                        }
                    }
                    Reply::Unavailable(error) => {
                        self.down.insert(service, error.clone());
                        for (i, _) in waiting {
                            let a = StoredAnswer::Unavailable {
                                error: error.clone(),
                            };
                            self.store(i, service, a);
                            changed.push(i);
                        }
                    }
                    // The batch failed on its own: each paper is searched by title.
                    Reply::Failed(_) => {
                        self.searches
                            .extend(waiting.into_iter().map(|(i, _)| (i, k)));
                    }
                }
            }
            Step::Search { service, paper } => {
                let a = match reply {
                    Reply::Page(page) => StoredAnswer::Answered {
                        by_doi: None,
                        search: page.works,
                    },
                    Reply::Unavailable(error) => {
                        self.down.insert(service, error.clone());
                        StoredAnswer::Unavailable { error }
                    }
                    Reply::Failed(error) => StoredAnswer::Unavailable { error },
                };
                self.store(paper, service, a);
                changed.push(paper);
            }
        }
        changed
    }

    /// Whether paper `i` has an answer (or an unavailable index) for every index.
    pub fn complete(&self, i: usize) -> bool {
        self.services.iter().all(|s| !self.needs(i, *s))
    }

    /// `(papers complete, papers)`.
    pub fn progress(&self) -> (usize, usize) {
        let done = (0..self.papers.len()).filter(|i| self.complete(*i)).count();
        (done, self.papers.len())
    }

    /// Requests handed out so far.
    pub fn requests_sent(&self) -> usize {
        self.sent
    }

    /// Every answer so far, by paper position (the checkpoint).
    pub fn answers(&self) -> &BTreeMap<usize, BTreeMap<Service, StoredAnswer>> {
        &self.answers
    }

    /// Every paper answered by every index (nothing left to retry on resume).
    pub fn finished(&self) -> bool {
        (0..self.papers.len()).all(|i| {
            self.services.iter().all(|s| {
                self.answers
                    .get(&i)
                    .and_then(|m| m.get(s))
                    .is_some_and(StoredAnswer::answered)
            })
        })
    }

    /// The services asked, in the run's order.
    pub fn services(&self) -> &[Service] {
        &self.services
    }

    /// Each paper's answers so far in the form [`super::verify`] reads,
    /// by paper position (a paper nobody answered has an empty row). A
    /// caller that keeps the reference report, whose `flagged` lists only
    /// `low` and `conflict` (the CLI), passes them to [`super::verify`]
    /// with [`CrossRun::services`].
    pub fn index_answers(&self) -> Vec<Vec<(Service, IndexAnswer)>> {
        (0..self.papers.len())
            .map(|i| {
                self.answers
                    .get(&i)
                    .map(|m| m.iter().map(|(s, a)| (*s, a.to_core())).collect())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The report and each paper's verdict over the answers so far
    /// ([`super::verify`]). Unlike the reference script, whose `flagged`
    /// lists only `low` and `conflict`, this report's `flagged` lists every
    /// paper below `high`, so a `medium` paper is not missing from the list
    /// of papers to review.
    pub fn report(&self) -> (Report, Vec<Verdict>) {
        let answers = self.index_answers();
        let (mut report, verdicts) = verify(&self.papers, &self.services, &answers, &self.cfg);
        report.flagged = self
            .papers
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| v.confidence != Confidence::High)
            .map(|(p, v)| Flag {
                bibtex_key: p.bibtex_key.clone().or_else(|| p.key.clone()),
                title: p.title.clone(),
                confidence: v.confidence,
                notes: v.notes.clone(),
            })
            .collect();
        (report, verdicts)
    }
}

#[cfg(test)]
mod tests;
