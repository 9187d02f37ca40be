//! The step machine behind [`Run`]: which request goes out next, and what
//! each reply means for the references that were waiting on it.

use super::{Answer, Evidence, Options, Outcome, Reference, Report, Resolution, Route, Surface};
use crate::fetch::{self, Lane, Step};
use crate::ids::Doi;
use crate::works::request::{self, Method, Request, WorkId};
use crate::works::{self, ApiError, ApiErrorKind, Service, Work};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Title similarity a search hit must pass (`score > 70`, the seed's
/// acceptance threshold, through [`crate::title::match_titles`]).
pub const TITLE_THRESHOLD: i64 = 70;

/// What the run wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Send these (in any order, concurrently or one by one) and hand each
    /// reply to [`Run::answer`].
    Send(Vec<Outgoing>),
    /// Nothing may go out before this time (ms, the caller's clock); call
    /// [`Run::next`] again then, or earlier when a reply arrives.
    WaitUntil(f64),
    /// Nothing can go out until a reply to a request in flight comes back.
    AwaitReplies,
    /// Every reference is decided: read [`Run::report`].
    Done,
}

/// One request to send, with the id its reply is handed back under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunOutgoing"))]
pub struct Outgoing {
    /// The id to pass to [`Run::answer`].
    pub id: u64,
    /// The request.
    pub request: Request,
}

/// What came back for one request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunReply"))]
// Read from JavaScript: what serde may go without is optional there.
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
pub struct Reply {
    /// HTTP status; 0 when no readable response came (offline, timed out,
    /// or blocked for want of CORS headers).
    pub status: u16,
    /// The body (empty when none).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub body: String,
    /// `Retry-After` in ms, when the edge could read it.
    #[serde(default)]
    pub retry_after_ms: Option<u64>,
    /// The page's Content-Security-Policy refused the request.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub blocked_by_policy: bool,
    /// The edge did not send the request because the run is offline (the
    /// local index and the cache only): it fails at once, without retries,
    /// and leaves its references unverified unless another answer settles
    /// them.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub offline: bool,
}

/// The error message of a request an offline run did not send.
pub const OFFLINE: &str = "not sent: the run is offline";

/// The error message of DBLP's place in a web page's evidence: the page
/// never asks it (the module's "DBLP in the browser"), and says so where
/// its answer could change the verdict (`note_dblp_unasked`).
pub const NOT_FROM_A_PAGE: &str =
    "a web page cannot reach DBLP; open the app through citegate relay (?relay=) or run citegate check to ask it";

/// What a local index (a public dump on disk, read by the edge) answered to
/// one of [`Run::local_asks`]'s questions. Serialized as the relay's index
/// route answers it ([`crate::relay::index_answers`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocalAnswer {
    /// The reference, by its position in the run.
    pub slot: usize,
    /// The route of the question.
    pub route: Route,
    /// The service whose dump holds the records.
    pub service: Service,
    /// The dump and its date, as the evidence names it.
    pub dump: String,
    /// [`Answer::Found`] for an identifier, [`Answer::Hits`] for a title.
    /// A miss ([`Answer::NotHere`]) is no evidence: the dump may be older
    /// than the work.
    pub answer: Answer,
}

/// One identifier lookup planned for a reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct IdAsk {
    service: Service,
    route: Route,
    batch: bool,
}

/// What a request in flight asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Id(IdAsk),
    Title(Service),
    /// Several titles in one OpenAlex phrase search
    /// ([`request::openalex_phrases`]); a title it does not find goes on to
    /// the ordinary searches, its miss taken as no evidence either way.
    Phrases,
}

#[derive(Debug, Clone)]
struct Sent {
    kind: Kind,
    lane: Lane,
    request: Request,
    slots: Vec<usize>,
    tries: u32,
    /// When it was handed out and the lane's last send before it: a
    /// request an offline run did not send gives the lane its turn back.
    dispatched: Option<(f64, Option<f64>)>,
}

#[derive(Debug, Clone)]
struct Slot {
    reference: Reference,
    asks: VecDeque<IdAsk>,
    titles: Vec<Service>,
    /// The title waits for an OpenAlex phrase search before its own.
    phrase: bool,
    busy: bool,
    evidence: Vec<Evidence>,
    outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Copy, Default)]
struct LaneState {
    last: Option<f64>,
    in_flight: u32,
    /// After a rate limit or an unreadable answer nothing new goes out on
    /// the lane before this time, not only the retried request.
    paused_until: f64,
}

/// Where one reference stands, in a [`Checkpoint`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SlotState {
    /// The reference's key (a checkpoint of other references is refused).
    key: String,
    asks: Vec<IdAsk>,
    titles: Vec<Service>,
    #[serde(default)]
    phrase: bool,
    evidence: Vec<Evidence>,
    outcome: Option<Outcome>,
}

/// A run's state as data, so a reload can resume it without asking again
/// what was answered ([`Run::checkpoint`], [`Run::resume`]). A request in
/// flight when it was taken is asked again on resume; pacing starts afresh.
/// It holds what the run learnt (evidence, decisions, services out for the
/// run) and never a credential.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    slots: Vec<SlotState>,
    unavailable: Vec<(Service, ApiError)>,
    s2_key_worked: bool,
    requests: u64,
}

impl Checkpoint {
    /// `(decided, total)` references at the time it was taken.
    pub fn progress(&self) -> (usize, usize) {
        let done = self.slots.iter().filter(|s| s.outcome.is_some()).count();
        (done, self.slots.len())
    }
}

/// A verification run over many references; see the [module docs](super).
#[derive(Debug, Clone)]
pub struct Run {
    opts: Options,
    slots: Vec<Slot>,
    lanes: BTreeMap<Lane, LaneState>,
    in_flight: HashMap<u64, Sent>,
    retries: Vec<(f64, Sent)>,
    unavailable: BTreeMap<Service, ApiError>,
    next_id: u64,
    requests: u64,
    /// A request carrying the S2 key got a 2xx answer this run.
    s2_key_worked: bool,
}

/// The order lanes are served in each step.
/// Title searches follow it too, so a lone title is asked of Semantic
/// Scholar, OpenAlex, Crossref and DBLP in that order when all are free.
const SERVICES: [Service; 6] = [
    Service::SemanticScholar,
    Service::OpenAlex,
    Service::Crossref,
    Service::DataCite,
    Service::Arxiv,
    Service::Dblp,
];

/// Whether two asks can share one batch request: same service, both batch
/// (a batch may mix routes: S2 takes `DOI:` and `ARXIV:` ids together,
/// DataCite any DOI, arXiv DOIs included).
fn same_batch(a: Kind, b: Kind) -> bool {
    matches!((a, b), (Kind::Id(x), Kind::Id(y)) if x.batch && y.batch && x.service == y.service)
}

fn batch_max(service: Service) -> usize {
    match service {
        Service::SemanticScholar => request::S2_BATCH_MAX,
        Service::Crossref => request::CROSSREF_BATCH_MAX,
        Service::OpenAlex => request::OPENALEX_BATCH_MAX,
        Service::DataCite => request::DATACITE_BATCH_MAX,
        Service::Arxiv => request::ARXIV_BATCH_MAX,
        _ => 1,
    }
}

/// The lane a kind of request goes in (Crossref lists apart from lookups).
fn lane_of(kind: Kind) -> Lane {
    match kind {
        Kind::Id(a) => Lane {
            service: a.service,
            list: a.service == Service::Crossref && a.batch,
        },
        Kind::Title(s) => Lane {
            service: s,
            list: s == Service::Crossref,
        },
        Kind::Phrases => Lane {
            service: Service::OpenAlex,
            list: false,
        },
    }
}

fn plan_asks(r: &Reference, opts: &Options) -> (VecDeque<IdAsk>, Vec<Service>) {
    let native = opts.surface.reaches_every_service();
    let batch = opts.batch;
    let mut asks = VecDeque::new();
    let ask = |service, route| IdAsk {
        service,
        route,
        batch,
    };
    if let Some(doi) = r.route_doi() {
        // A DOI of a prefix DataCite registers is asked of DataCite before
        // Crossref (Crossref would only answer "not here").
        let (first, second) = if is_datacite_prefix(doi) {
            (Service::DataCite, Service::Crossref)
        } else {
            (Service::Crossref, Service::DataCite)
        };
        let order = if batch {
            // The batch forms: S2 takes 500 ids in one request, so it goes first.
            [Service::SemanticScholar, first, second, Service::OpenAlex]
        } else {
            [first, second, Service::OpenAlex, Service::SemanticScholar]
        };
        asks.extend(order.into_iter().map(|s| ask(s, Route::Doi)));
    }
    if r.arxiv.is_some() {
        asks.push_back(ask(Service::SemanticScholar, Route::Arxiv));
        asks.push_back(ask(Service::DataCite, Route::Arxiv));
        if native {
            asks.push_back(ask(Service::Arxiv, Route::Arxiv));
        }
    }
    let mut titles = Vec::new();
    if r.title.is_some() {
        titles.extend([
            Service::SemanticScholar,
            Service::OpenAlex,
            Service::Crossref,
        ]);
        if native {
            titles.push(Service::Dblp);
        }
    }
    (asks, titles)
}

/// DOI prefixes registered with DataCite that citations carry often:
/// Zenodo (10.5281: "Zenodo DOIs are DataCite DOIs", Zenodo's FAQ),
/// figshare (10.6084, figshare's DOI documentation) and arXiv's own DOIs
/// (10.48550, arXiv's 2022 announcement; those take the arXiv route). Any
/// other DOI is asked of Crossref first; either way the other is asked when
/// the first does not have it.
const DATACITE_PREFIXES: [&str; 3] = ["10.5281", "10.6084", "10.48550"];

fn is_datacite_prefix(doi: &Doi) -> bool {
    let key = doi.key();
    let prefix = key.split('/').next().unwrap_or("");
    DATACITE_PREFIXES.contains(&prefix)
}

/// The id a lookup on `route` asks about.
fn work_id(r: &Reference, route: Route) -> Option<WorkId> {
    match route {
        Route::Doi => r.route_doi().map(|d| WorkId::Doi(d.as_str().to_string())),
        Route::Arxiv => r
            .arxiv
            .as_ref()
            .map(|a| WorkId::Arxiv(a.as_str().to_string())),
        Route::Title => None,
    }
}

fn asked(r: &Reference, route: Route) -> String {
    match route {
        Route::Doi => r.route_doi().map(|d| d.as_str().to_string()),
        Route::Arxiv => r.arxiv.as_ref().map(|a| a.as_str().to_string()),
        Route::Title => r.title.clone(),
    }
    .unwrap_or_default()
}

/// The DOI comparison key a batch answer is matched on.
fn doi_key_of(r: &Reference, route: Route) -> Option<String> {
    match route {
        Route::Doi => r.route_doi().map(Doi::key),
        Route::Arxiv => r.arxiv.as_ref().map(|a| a.doi().key()),
        Route::Title => None,
    }
}

/// One sentence on why a source could not be asked.
///
/// A refusal by Semantic Scholar blames the key only when no keyed request
/// has succeeded this run (`key_worked`): S2 also answers 403 at its
/// gateway for reasons that have nothing to do with the key.
fn failure_reason(e: &ApiError, key_worked: bool) -> String {
    let why = match e.kind {
        ApiErrorKind::Forbidden if e.service == Service::SemanticScholar && key_worked => {
            "refused the request (the api key worked earlier in this run)".to_string()
        }
        _ if e.status == 0 && e.message.contains("security policy") => e.message.clone(),
        _ if e.status == 0 && e.message == NOT_FROM_A_PAGE => {
            format!("not asked: {NOT_FROM_A_PAGE}")
        }
        _ if e.status == 0 && e.message == OFFLINE => {
            "not asked, the run is offline (the local index and the cache only)".to_string()
        }
        ApiErrorKind::Network => {
            "no readable response (offline, blocked, or rate-limited without cors headers)"
                .to_string()
        }
        ApiErrorKind::RateLimited => "rate limited".to_string(),
        ApiErrorKind::Forbidden => {
            "refused the request (a missing, wrong or expired key)".to_string()
        }
        ApiErrorKind::Server => format!("server error {}", e.status),
        ApiErrorKind::BadRequest => "rejected the request".to_string(),
        ApiErrorKind::Malformed => "answered with a body citegate cannot read".to_string(),
        _ => format!("answered {}", e.status),
    };
    format!("{} could not be asked: {why}", e.service.label())
}

impl Run {
    /// A run over `refs` (input order is kept in the report).
    pub fn new(refs: Vec<Reference>, opts: Options) -> Run {
        let slots = refs
            .into_iter()
            .map(|reference| {
                let (asks, titles) = plan_asks(&reference, &opts);
                let nothing = asks.is_empty() && titles.is_empty();
                let phrase = opts.batch
                    && titles.contains(&Service::OpenAlex)
                    && reference
                        .title
                        .as_deref()
                        .and_then(request::title_phrase)
                        .is_some();
                Slot {
                    reference,
                    asks,
                    titles,
                    phrase,
                    busy: false,
                    evidence: Vec::new(),
                    outcome: nothing.then(|| Outcome::Unverified {
                        reasons: vec![crate::bibtex::check::NOTHING_TO_LOOK_UP.to_string()],
                    }),
                }
            })
            .collect();
        Run {
            opts,
            slots,
            lanes: BTreeMap::new(),
            in_flight: HashMap::new(),
            retries: Vec::new(),
            unavailable: BTreeMap::new(),
            next_id: 1,
            requests: 0,
            s2_key_worked: false,
        }
    }

    /// A run over `refs` that goes on from this one: each service's pacing
    /// (when it last sent, a pause after a rate limit), the services given
    /// up and the request count carry over, so a caller that checks many
    /// papers a window at a time keeps every service inside its limits
    /// across windows. Requests still in flight here are not carried.
    pub fn then(&self, refs: Vec<Reference>) -> Run {
        let mut run = Run::new(refs, self.opts.clone());
        run.lanes = self
            .lanes
            .iter()
            .map(|(lane, st)| {
                let mut st = *st;
                st.in_flight = 0;
                (*lane, st)
            })
            .collect();
        run.unavailable = self.unavailable.clone();
        run.s2_key_worked = self.s2_key_worked;
        run.next_id = self.next_id;
        run.requests = self.requests;
        run
    }

    /// The run's state as data (see [`Checkpoint`]).
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            slots: self
                .slots
                .iter()
                .map(|s| SlotState {
                    key: s.reference.key.clone(),
                    asks: s.asks.iter().copied().collect(),
                    titles: s.titles.clone(),
                    phrase: s.phrase,
                    evidence: s.evidence.clone(),
                    outcome: s.outcome.clone(),
                })
                .collect(),
            unavailable: self
                .unavailable
                .iter()
                .map(|(s, e)| (*s, e.clone()))
                .collect(),
            s2_key_worked: self.s2_key_worked,
            requests: self.requests,
        }
    }

    /// A run over `refs` that continues from `checkpoint`: decided
    /// references stay decided, the others go on with the asks they had
    /// left. `None` when the checkpoint was taken over other references
    /// (another count or other keys, in order): start a new run then.
    pub fn resume(refs: Vec<Reference>, opts: Options, checkpoint: &Checkpoint) -> Option<Run> {
        if refs.len() != checkpoint.slots.len()
            || refs
                .iter()
                .zip(&checkpoint.slots)
                .any(|(r, s)| r.key != s.key)
        {
            return None;
        }
        let mut run = Run::new(refs, opts);
        for (slot, saved) in run.slots.iter_mut().zip(&checkpoint.slots) {
            slot.asks = saved.asks.iter().copied().collect();
            slot.titles = saved.titles.clone();
            slot.phrase = saved.phrase;
            slot.evidence = saved.evidence.clone();
            slot.outcome = saved.outcome.clone();
            slot.busy = false;
        }
        run.unavailable = checkpoint.unavailable.iter().cloned().collect();
        run.s2_key_worked = checkpoint.s2_key_worked;
        run.requests = checkpoint.requests;
        Some(run)
    }

    /// `(decided, total)` references.
    pub fn progress(&self) -> (usize, usize) {
        let done = self.slots.iter().filter(|s| s.outcome.is_some()).count();
        (done, self.slots.len())
    }

    /// Reference `i`'s resolution once it is decided (`None` while it is
    /// still being asked, or past the end), so a page can show each
    /// reference as soon as it is decided.
    pub fn decided(&self, i: usize) -> Option<Resolution> {
        let s = self.slots.get(i)?;
        let outcome = s.outcome.clone()?;
        Some(Resolution {
            key: s.reference.key.clone(),
            evidence: s.evidence.clone(),
            outcome,
        })
    }

    /// Services out for the rest of the run, each with the reason in a
    /// sentence (for a banner: "Semantic Scholar could not be asked: …").
    pub fn unavailable(&self) -> Vec<(Service, String)> {
        self.unavailable
            .iter()
            .map(|(s, e)| (*s, failure_reason(e, self.s2_key_worked)))
            .collect()
    }

    /// Requests sent so far, retries included.
    pub fn requests_sent(&self) -> u64 {
        self.requests
    }

    /// The report; references not yet decided are [`Outcome::Unverified`].
    pub fn report(&self) -> Report {
        Report {
            resolutions: self
                .slots
                .iter()
                .map(|s| Resolution {
                    key: s.reference.key.clone(),
                    evidence: s.evidence.clone(),
                    outcome: s.outcome.clone().unwrap_or_else(|| Outcome::Unverified {
                        reasons: vec!["the run stopped before this reference was decided".into()],
                    }),
                })
                .collect(),
            requests: self.requests,
        }
    }

    fn mailto(&self) -> bool {
        self.opts
            .endpoints
            .mailto
            .as_ref()
            .is_some_and(|m| !m.trim().is_empty())
    }

    fn limits(&self, lane: Lane) -> fetch::Limits {
        let mut lim = fetch::lane_limits(lane, self.mailto(), self.opts.s2_interval_ms);
        if let Some(ms) = self.opts.intervals_ms.get(&lane.service) {
            lim.min_interval_ms = *ms;
        }
        lim
    }

    /// The earliest time `lane` may send, or `None` while it is full.
    fn lane_ready_at(&self, lane: Lane, now: f64) -> Option<f64> {
        let st = self.lanes.get(&lane).copied().unwrap_or_default();
        let lim = self.limits(lane);
        (st.in_flight < lim.max_in_flight)
            .then(|| fetch::next_send_at(st.last, now, &lim).max(st.paused_until))
    }

    /// What a waiting slot needs next, if it can use `lane`.
    fn wants(&self, i: usize, lane: Lane) -> Option<Kind> {
        let s = &self.slots[i];
        if s.busy || s.outcome.is_some() {
            return None;
        }
        if let Some(a) = s.asks.front() {
            let k = Kind::Id(*a);
            return (lane_of(k) == lane).then_some(k);
        }
        let k = if s.phrase && lane.service == Service::OpenAlex {
            Kind::Phrases
        } else {
            Kind::Title(lane.service)
        };
        (s.titles.contains(&lane.service) && lane_of(k) == lane).then_some(k)
    }

    /// The next requests, or how long to wait.
    pub fn next(&mut self, now_ms: f64) -> Next {
        if self.slots.iter().all(|s| s.outcome.is_some()) {
            return Next::Done;
        }
        let mut out = Vec::new();
        // Retries that are due.
        let mut k = 0;
        while k < self.retries.len() {
            let (at, sent) = &self.retries[k];
            let lane = sent.lane;
            if self.unavailable.contains_key(&lane.service) {
                let (_, sent) = self.retries.remove(k);
                let err = self.unavailable[&lane.service].clone();
                self.fail(&sent, err);
                continue;
            }
            let ready = self.lane_ready_at(lane, now_ms);
            if *at <= now_ms && ready.is_some_and(|t| t <= now_ms) {
                let (_, sent) = self.retries.remove(k);
                out.push(self.dispatch(sent, now_ms));
                continue;
            }
            k += 1;
        }
        // New requests, one per free lane.
        for service in SERVICES {
            for list in [false, true] {
                let lane = Lane { service, list };
                if self.unavailable.contains_key(&service) {
                    continue;
                }
                if self.lane_ready_at(lane, now_ms).is_none_or(|t| t > now_ms) {
                    continue;
                }
                if let Some(sent) = self.build(lane) {
                    out.push(self.dispatch(sent, now_ms));
                }
            }
        }
        if !out.is_empty() {
            return Next::Send(out);
        }
        if self.slots.iter().all(|s| s.outcome.is_some()) {
            return Next::Done;
        }
        // The earliest moment something could go out.
        let mut earliest: Option<f64> = None;
        let mut consider = |t: f64| {
            earliest = Some(earliest.map_or(t, |e: f64| e.min(t)));
        };
        for (at, sent) in &self.retries {
            if let Some(t) = self.lane_ready_at(sent.lane, now_ms) {
                consider(t.max(*at));
            }
        }
        for service in SERVICES {
            for list in [false, true] {
                let lane = Lane { service, list };
                if self.unavailable.contains_key(&service) {
                    continue;
                }
                let waiting = (0..self.slots.len()).any(|i| self.wants(i, lane).is_some());
                if waiting {
                    if let Some(t) = self.lane_ready_at(lane, now_ms) {
                        consider(t);
                    }
                }
            }
        }
        match earliest {
            Some(t) => Next::WaitUntil(t.max(now_ms)),
            None if !self.in_flight.is_empty() || !self.retries.is_empty() => Next::AwaitReplies,
            None => {
                // Nothing can move (should not happen): decide what is left.
                for i in 0..self.slots.len() {
                    if self.slots[i].outcome.is_none() {
                        self.slots[i].busy = false;
                        self.slots[i].asks.clear();
                        self.slots[i].titles.clear();
                        self.finish(i);
                    }
                }
                Next::Done
            }
        }
    }

    fn dispatch(&mut self, mut sent: Sent, now: f64) -> Outgoing {
        let st = self.lanes.entry(sent.lane).or_default();
        sent.dispatched = Some((now, st.last));
        st.last = Some(now);
        st.in_flight += 1;
        sent.tries += 1;
        self.requests += 1;
        let id = self.next_id;
        self.next_id += 1;
        let request = sent.request.clone();
        self.in_flight.insert(id, sent);
        Outgoing { id, request }
    }

    /// Builds one request for `lane` from the slots waiting on it.
    fn build(&mut self, lane: Lane) -> Option<Sent> {
        let first = (0..self.slots.len()).find(|&i| self.wants(i, lane).is_some())?;
        let mut kind = self.wants(first, lane)?;
        if kind == Kind::Phrases {
            match self.phrase_batch(lane) {
                Some(sent) => return Some(sent),
                // A lone title is better asked by relevance than as a phrase.
                None => {
                    self.slots[first].phrase = false;
                    kind = Kind::Title(Service::OpenAlex);
                }
            }
        }
        let slots: Vec<usize> = match kind {
            Kind::Id(a) if a.batch => (0..self.slots.len())
                .filter(|&i| self.wants(i, lane).is_some_and(|k| same_batch(k, kind)))
                .take(batch_max(a.service))
                .collect(),
            _ => vec![first],
        };
        let built = self.request_for(kind, &slots);
        let request = match built {
            Ok(r) => r,
            Err(e) => {
                // A request that cannot be built is answered as failed, so the
                // slots move on instead of waiting for a lane forever.
                let err = ApiError {
                    service: lane.service,
                    status: 0,
                    kind: ApiErrorKind::BadRequest,
                    message: e,
                };
                for &i in &slots {
                    self.record(i, kind, Answer::Failed { error: err.clone() });
                }
                return None;
            }
        };
        for &i in &slots {
            self.slots[i].busy = true;
        }
        Some(Sent {
            kind,
            lane,
            request,
            slots,
            tries: 0,
            dispatched: None,
        })
    }

    /// One OpenAlex phrase search for as many waiting titles as fit its
    /// limits ([`request::OPENALEX_PHRASES_MAX`] titles, a URL of at most
    /// [`request::OPENALEX_URL_MAX`] bytes); `None` when fewer than two do.
    fn phrase_batch(&mut self, lane: Lane) -> Option<Sent> {
        let waiting = (0..self.slots.len())
            .filter(|&i| self.wants(i, lane) == Some(Kind::Phrases))
            .filter_map(|i| Some((i, self.slots[i].reference.title.as_deref()?)));
        let (slots, request) = request::openalex_phrase_batch(&self.opts.endpoints, waiting)?;
        for &i in &slots {
            self.slots[i].busy = true;
        }
        Some(Sent {
            kind: Kind::Phrases,
            lane,
            request,
            slots,
            tries: 0,
            dispatched: None,
        })
    }

    /// The request asking `kind` for `slots`.
    fn request_for(&self, kind: Kind, slots: &[usize]) -> Result<Request, String> {
        let ep = &self.opts.endpoints;
        let first = *slots.first().ok_or("no reference to ask about")?;
        match kind {
            Kind::Id(a) => {
                let mut ids = Vec::new();
                for &i in slots {
                    let route = self.slots[i].asks.front().map_or(a.route, |f| f.route);
                    ids.push(
                        work_id(&self.slots[i].reference, route)
                            .ok_or("the reference has no id for this route")?,
                    );
                }
                let r = if a.batch {
                    request::batch(a.service, ep, &ids)
                        .map_err(|e| e.to_string())?
                        .into_iter()
                        .next()
                        .ok_or("an empty batch")?
                } else {
                    request::lookup(a.service, ep, &ids[0]).map_err(|e| e.to_string())?
                };
                Ok(r)
            }
            Kind::Title(service) => {
                let title = self.slots[first]
                    .reference
                    .title
                    .clone()
                    .ok_or("the reference has no title")?;
                request::search(service, ep, &title, self.opts.title_hits, None)
                    .map_err(|e| e.to_string())
            }
            Kind::Phrases => Err("a phrase search is built by phrase_batch".to_string()),
        }
    }

    /// What to ask a local index before any request goes out: for each
    /// undecided reference (by position), its DOI, arXiv id and title, each
    /// with its route.
    pub fn local_asks(&self) -> Vec<(usize, Route, String)> {
        let mut out = Vec::new();
        for (i, s) in self.slots.iter().enumerate() {
            if s.outcome.is_some() {
                continue;
            }
            for route in [Route::Doi, Route::Arxiv, Route::Title] {
                let text = asked(&s.reference, route);
                if !text.trim().is_empty() {
                    out.push((i, route, text));
                }
            }
        }
        out
    }

    /// Takes a local index's answers (call before the first [`Run::next`]):
    /// a record found by id settles its reference, as a service's would; a
    /// title's candidates settle it when one passes the title rule. A
    /// reference they do not settle goes on to the services; a miss is not
    /// recorded, so the index never makes a work "not found".
    pub fn take_local(&mut self, answers: Vec<LocalAnswer>) {
        for a in answers {
            let Some(s) = self.slots.get_mut(a.slot) else {
                continue;
            };
            if s.outcome.is_some()
                || !matches!(a.answer, Answer::Found { .. } | Answer::Hits { .. })
            {
                continue;
            }
            s.evidence.push(Evidence {
                service: a.service,
                route: a.route,
                asked: asked(&s.reference, a.route),
                answer: a.answer.clone(),
                dump: Some(a.dump),
            });
            match a.answer {
                Answer::Found { work } => {
                    s.outcome = Some(Outcome::Found {
                        work,
                        via: a.service,
                    });
                }
                Answer::Hits { works } => {
                    let title = s.reference.title.clone().unwrap_or_default();
                    let hit = works.into_iter().find(|w| {
                        crate::title::match_titles(&title, &w.title, false, TITLE_THRESHOLD).pass
                    });
                    // A reference that cites an id is settled here only by a
                    // record with that id: whether another id resolves is
                    // the services' to say (offline, it stays unverified).
                    if let Some(work) = hit.filter(|w| !cites_other_id(&s.reference, w)) {
                        s.outcome = Some(Outcome::Found {
                            work,
                            via: a.service,
                        });
                    }
                }
                _ => {}
            }
        }
    }

    /// Takes the reply to request `id` (unknown ids are ignored).
    pub fn answer(&mut self, id: u64, reply: Reply, now_ms: f64) {
        let Some(sent) = self.in_flight.remove(&id) else {
            return;
        };
        if let Some(st) = self.lanes.get_mut(&sent.lane) {
            st.in_flight = st.in_flight.saturating_sub(1);
        }
        let service = sent.lane.service;
        if service == Service::SemanticScholar
            && (200..300).contains(&reply.status)
            && sent.request.headers.iter().any(|(k, _)| k == "x-api-key")
        {
            self.s2_key_worked = true;
        }
        if reply.offline {
            // Nothing went out: the lane's pacing is as if it had not been
            // asked (unless it sent something since).
            if let (Some((at, before)), Some(st)) =
                (sent.dispatched, self.lanes.get_mut(&sent.lane))
            {
                if st.last == Some(at) {
                    st.last = before;
                }
            }
            let err = ApiError {
                service,
                status: 0,
                kind: ApiErrorKind::Network,
                message: OFFLINE.to_string(),
            };
            self.fail(&sent, err);
            return;
        }
        if reply.blocked_by_policy {
            let err = ApiError {
                service,
                status: 0,
                kind: ApiErrorKind::Network,
                message: "blocked by the page's content security policy".to_string(),
            };
            self.unavailable.insert(service, err.clone());
            self.fail(&sent, err);
            self.sweep();
            return;
        }
        // A keyless batch POST needs a CORS preflight; when it fails the
        // browser reports no response at all: ask id by id instead.
        let keyless = self
            .opts
            .endpoints
            .s2_api_key
            .as_ref()
            .is_none_or(|k| k.trim().is_empty());
        if reply.status == 0
            && service == Service::SemanticScholar
            && sent.request.method == Method::Post
            && self.opts.surface == Surface::Browser
            && keyless
        {
            for &i in &sent.slots {
                self.slots[i].busy = false;
            }
            self.send_s2_one_by_one();
            return;
        }
        if let Some(fault) = fetch::fault_of(reply.status, reply.retry_after_ms) {
            let step = fetch::service_step(
                &self.opts.retry,
                service,
                fault,
                sent.tries,
                self.opts.s2_backoff_ms,
            );
            let err = works::parse_error(service, reply.status, &reply.body);
            match step {
                Step::Retry { after_ms } => {
                    let at = now_ms + after_ms as f64;
                    let st = self.lanes.entry(sent.lane).or_default();
                    st.paused_until = st.paused_until.max(at);
                    self.retries.push((at, sent));
                }
                Step::GiveUp => self.fail(&sent, err),
                Step::Unavailable => {
                    self.unavailable.insert(service, err.clone());
                    self.fail(&sent, err);
                    self.sweep();
                }
            }
            return;
        }
        match works::parse_response(service, reply.status, &reply.body) {
            Err(e) if e.kind == ApiErrorKind::NotFound => {
                for &i in &sent.slots {
                    self.record(i, sent.kind, Answer::NotHere);
                }
            }
            Err(e) => self.fail(&sent, e),
            Ok(page) => self.read_page(&sent, page),
        }
    }

    /// S2's batch cannot be sent (its keyless preflight was refused): every
    /// waiting S2 ask goes one id at a time, after the slot's other asks.
    ///
    /// One GET per id at S2's 1/s is the slowest way to ask, while Crossref
    /// `filter=doi:`, DataCite `ids=` (arXiv's 10.48550 DOIs included) and
    /// OpenAlex `filter=doi:` take 50 ids per request, so those batches go
    /// first and S2 is asked only about what none of them has. A slot with a
    /// request in flight keeps its front ask (the one that request answers).
    fn send_s2_one_by_one(&mut self) {
        for s in &mut self.slots {
            if s.outcome.is_some() {
                continue;
            }
            let keep = usize::from(s.busy).min(s.asks.len());
            let rest: Vec<IdAsk> = s.asks.drain(keep..).collect();
            let (s2, others): (Vec<IdAsk>, Vec<IdAsk>) = rest
                .into_iter()
                .partition(|a| a.service == Service::SemanticScholar);
            s.asks.extend(others);
            s.asks
                .extend(s2.into_iter().map(|a| IdAsk { batch: false, ..a }));
        }
    }

    fn read_page(&mut self, sent: &Sent, page: works::Page) {
        match sent.kind {
            Kind::Phrases => {
                // Each title takes the records of the shared page that match
                // it; one that none matches is asked again on its own.
                for &i in &sent.slots {
                    let title = self.slots[i].reference.title.clone().unwrap_or_default();
                    let matching = page.works.iter().filter(|w| {
                        crate::title::match_titles(&title, &w.title, false, TITLE_THRESHOLD).pass
                    });
                    let answer = self.nearest(&title, matching);
                    self.record(i, sent.kind, answer);
                }
            }
            Kind::Title(_) => {
                let i = sent.slots[0];
                let title = self.slots[i].reference.title.clone().unwrap_or_default();
                let answer = self.nearest(&title, page.works.iter());
                self.record(i, sent.kind, answer);
            }
            Kind::Id(a) if a.batch && a.service == Service::SemanticScholar => {
                // S2 answers in request order, `null` for an unknown id.
                let mut works = page.works.into_iter();
                let n = sent.slots.len();
                for (pos, &i) in sent.slots.iter().enumerate() {
                    let answer = if page.missing.contains(&pos) || pos >= n {
                        Answer::NotHere
                    } else {
                        match works.next() {
                            Some(work) => Answer::Found { work },
                            None => Answer::NotHere,
                        }
                    };
                    self.record(i, sent.kind, answer);
                }
            }
            Kind::Id(a) if a.batch => {
                for &i in &sent.slots {
                    let r = &self.slots[i].reference;
                    let route = self.slots[i].asks.front().map_or(a.route, |f| f.route);
                    let found = match a.service {
                        Service::Arxiv => r.arxiv.as_ref().and_then(|id| {
                            page.works
                                .iter()
                                .find(|w| w.arxiv_id.as_deref() == Some(id.as_str()))
                        }),
                        _ => doi_key_of(r, route).and_then(|key| {
                            page.works
                                .iter()
                                .find(|w| w.doi_key().as_deref() == Some(key.as_str()))
                        }),
                    };
                    let answer = match found {
                        Some(w) => Answer::Found { work: w.clone() },
                        None => Answer::NotHere,
                    };
                    self.record(i, sent.kind, answer);
                }
            }
            Kind::Id(a) => {
                let i = sent.slots[0];
                let want = self.slots[i].reference.arxiv.clone();
                let answer = match page.works.into_iter().find(|w| {
                    // arXiv's feed may hold other papers: take only the one asked for.
                    a.service != Service::Arxiv
                        || want.as_ref().map(|x| x.as_str()) == w.arxiv_id.as_deref()
                }) {
                    Some(work) => Answer::Found { work },
                    None => Answer::NotHere,
                };
                self.record(i, sent.kind, answer);
            }
        }
    }

    /// The records nearest `title` among `works` (untitled ones aside), best
    /// first, at most [`Options::title_hits`]; "not here" when none.
    fn nearest<'w>(&self, title: &str, works: impl Iterator<Item = &'w Work>) -> Answer {
        let mut hits: Vec<(f64, &Work)> = works
            .filter(|w| !w.title.trim().is_empty())
            .map(|w| (crate::title::ratio(title, &w.title), w))
            .collect();
        hits.sort_by(|a, b| b.0.total_cmp(&a.0));
        hits.truncate(self.opts.title_hits.max(1));
        if hits.is_empty() {
            Answer::NotHere
        } else {
            Answer::Hits {
                works: hits.into_iter().map(|(_, w)| w.clone()).collect(),
            }
        }
    }

    /// Every slot of `sent` gets `err` as its answer and moves on.
    fn fail(&mut self, sent: &Sent, err: ApiError) {
        for &i in &sent.slots {
            self.record(i, sent.kind, Answer::Failed { error: err.clone() });
        }
    }

    /// Adds the answer to `kind` for slot `i`, drops that ask, and decides
    /// or moves the slot on.
    fn record(&mut self, i: usize, kind: Kind, answer: Answer) {
        let s = &mut self.slots[i];
        s.busy = false;
        if s.outcome.is_some() {
            return;
        }
        if kind == Kind::Phrases {
            s.phrase = false;
            if !matches!(answer, Answer::Hits { .. }) {
                // A phrase search's miss or failure says nothing about the
                // title (a near-miss is not a phrase of it): no evidence,
                // and the title's own searches follow.
                self.advance(i);
                return;
            }
        }
        let (service, route) = match kind {
            Kind::Id(a) => {
                // The slot's own ask: a batch may mix routes.
                let route = s.asks.pop_front().map_or(a.route, |f| f.route);
                (a.service, route)
            }
            Kind::Title(service) => {
                s.titles.retain(|t| *t != service);
                (service, Route::Title)
            }
            Kind::Phrases => {
                s.titles.retain(|t| *t != Service::OpenAlex);
                (Service::OpenAlex, Route::Title)
            }
        };
        s.evidence.push(Evidence {
            service,
            route,
            asked: asked(&s.reference, route),
            answer: answer.clone(),
            dump: None,
        });
        match answer {
            // A thin record (DataCite's arXiv records: at times two
            // authors, no venue) that differs from the reference decides
            // nothing alone while another source can still be asked.
            Answer::Found { work }
                if service == Service::DataCite
                    && work.arxiv_id.is_some()
                    && !agrees(&s.reference, &work)
                    && !(s.asks.is_empty() && s.titles.is_empty()) => {}
            Answer::Found { work } => {
                s.outcome = Some(Outcome::Found { work, via: service });
            }
            Answer::Hits { .. } => {
                // One search does not decide: the first source's best hit
                // may be a neighbour or another version of the work. The
                // title is asked until two sources find it or every source
                // has answered ([`finish`](Self::finish) decides then).
                // A hit that agrees with every field the reference states
                // decides alone: no other source could accuse it.
                if let Some((work, via)) = best_title_match(s) {
                    if agrees(&s.reference, &work) || title_sources(s) >= 2 || s.titles.is_empty() {
                        note_dblp_unasked(s, self.opts.surface);
                        s.outcome = Some(decide_title_match(s, work, via));
                    }
                }
            }
            _ => {}
        }
        self.advance(i);
    }

    /// Skips asks to unavailable services and decides a slot with nothing left.
    fn advance(&mut self, i: usize) {
        if self.slots[i].outcome.is_some() || self.slots[i].busy {
            return;
        }
        loop {
            let front = self.slots[i].asks.front().copied();
            match front {
                Some(a) if self.unavailable.contains_key(&a.service) => {
                    let err = self.unavailable[&a.service].clone();
                    self.record_skip(i, Kind::Id(a), err);
                }
                Some(_) => return,
                None => break,
            }
        }
        let titles = self.slots[i].titles.clone();
        for t in titles {
            if let Some(err) = self.unavailable.get(&t).cloned() {
                self.record_skip(i, Kind::Title(t), err);
            }
        }
        if self.slots[i].asks.is_empty() && self.slots[i].titles.is_empty() {
            self.finish(i);
        }
    }

    fn record_skip(&mut self, i: usize, kind: Kind, err: ApiError) {
        let s = &mut self.slots[i];
        let (service, route) = match kind {
            Kind::Id(a) => {
                s.asks.pop_front();
                (a.service, a.route)
            }
            Kind::Title(t) => {
                s.titles.retain(|x| *x != t);
                (t, Route::Title)
            }
            Kind::Phrases => {
                s.phrase = false;
                s.titles.retain(|x| *x != Service::OpenAlex);
                (Service::OpenAlex, Route::Title)
            }
        };
        s.evidence.push(Evidence {
            service,
            route,
            asked: asked(&s.reference, route),
            answer: Answer::Failed { error: err },
            dump: None,
        });
    }

    /// Moves every idle slot on (after a service became unavailable).
    fn sweep(&mut self) {
        for i in 0..self.slots.len() {
            self.advance(i);
        }
    }

    /// Decides a slot whose every ask is answered and nothing matched.
    fn finish(&mut self, i: usize) {
        let key_worked = self.s2_key_worked;
        let s = &mut self.slots[i];
        if s.outcome.is_some() {
            return;
        }
        let surface = self.opts.surface;
        if let Some((work, via)) = best_title_match(s) {
            note_dblp_unasked(s, surface);
            s.outcome = Some(decide_title_match(s, work, via));
            return;
        }
        let held = s.evidence.iter().find_map(|e| match &e.answer {
            Answer::Found { work } if e.route != Route::Title => Some((work.clone(), e.service)),
            _ => None,
        });
        if let Some((work, via)) = held {
            s.outcome = Some(Outcome::Found { work, via });
            return;
        }
        note_dblp_unasked(s, surface);
        let mut reasons: Vec<String> = Vec::new();
        for e in &s.evidence {
            if let Answer::Failed { error } = &e.answer {
                let r = failure_reason(error, key_worked);
                if !reasons.contains(&r) {
                    reasons.push(r);
                }
            }
        }
        s.outcome = Some(if reasons.is_empty() {
            Outcome::NotFound
        } else {
            Outcome::Unverified { reasons }
        });
    }
}

/// A title search's hits that pass as the reference's title.
fn title_matches<'a>(s: &Slot, works: &'a [Work]) -> impl Iterator<Item = &'a Work> {
    let title = s.reference.title.clone().unwrap_or_default();
    works
        .iter()
        .filter(move |w| crate::title::match_titles(&title, &w.title, false, TITLE_THRESHOLD).pass)
}

/// On a web page DBLP is never asked. Where its answer could change the
/// verdict, the evidence says it was not, so absence is never claimed of a
/// search that left it out: when no source has the title, and when the
/// sources that have it know it only as a preprint (DBLP may list where it
/// appeared). Elsewhere the note would only be noise on a settled card.
fn note_dblp_unasked(s: &mut Slot, surface: Surface) {
    if surface.reaches_every_service() || s.reference.title.is_none() {
        return;
    }
    use crate::bibtex::venues::{lookup, VenueKind};
    // A record's venue: Some(true) published, Some(false) a preprint server.
    let published = |w: &Work| {
        let v = w
            .venue
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())?;
        Some(lookup(v).is_none_or(|k| k.kind != VenueKind::Preprint))
    };
    let (mut preprint, mut elsewhere) = (false, false);
    for e in &s.evidence {
        let records: Vec<&Work> = match &e.answer {
            Answer::Hits { works } => title_matches(s, works).collect(),
            Answer::Found { work } => vec![work],
            _ => Vec::new(),
        };
        for w in records {
            match published(w) {
                Some(true) => elsewhere = true,
                Some(false) => preprint = true,
                None => {}
            }
        }
    }
    let preprint_only = preprint && !elsewhere;
    if !preprint_only && best_title_match(s).is_some() {
        return;
    }
    s.evidence.push(Evidence {
        service: Service::Dblp,
        route: Route::Title,
        asked: asked(&s.reference, Route::Title),
        answer: Answer::Failed {
            error: ApiError {
                service: Service::Dblp,
                status: 0,
                kind: ApiErrorKind::Network,
                message: NOT_FROM_A_PAGE.to_string(),
            },
        },
        dump: None,
    });
}

/// How many sources' title searches found the reference's title.
fn title_sources(s: &Slot) -> usize {
    let mut services: Vec<Service> = Vec::new();
    for e in &s.evidence {
        if let Answer::Hits { works } = &e.answer {
            if title_matches(s, works).next().is_some() && !services.contains(&e.service) {
                services.push(e.service);
            }
        }
    }
    services.len()
}

/// The hit the title search settles on, and its source: the first that
/// agrees with the reference, else the first that passes.
fn best_title_match(s: &Slot) -> Option<(Work, Service)> {
    let mut passing = s.evidence.iter().flat_map(|e| match &e.answer {
        // A local index's hit that lacks the id the reference cites settles
        // nothing (whether that id resolves is the services' to say).
        Answer::Hits { works } => title_matches(s, works)
            .filter(|w| e.dump.is_none() || !cites_other_id(&s.reference, w))
            .map(|w| (w, e.service))
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    });
    let all: Vec<(&Work, Service)> = passing.by_ref().collect();
    all.iter()
        .find(|(w, _)| agrees(&s.reference, w))
        .or_else(|| all.first())
        .map(|(w, via)| ((*w).clone(), *via))
}

/// Whether a record agrees with every field the reference states: the same
/// title, year, authors (each cited family name in its place; all of them
/// unless the list is cut) and venue. Such a record needs no second source.
fn agrees(r: &Reference, w: &Work) -> bool {
    use crate::bibtex::verdict::record_person;
    use crate::names::{same_family, Person};
    let title_ok = r
        .title
        .as_deref()
        .is_none_or(|t| crate::title::normalize(t) == crate::title::normalize(&w.title));
    let year_ok = r.year.is_none_or(|y| w.year() == Some(y));
    let venue_ok = r.venue.as_deref().is_none_or(|v| {
        w.venue
            .as_deref()
            .is_some_and(|x| crate::bibtex::venues::same(v, x))
    });
    let cited: Vec<Person> = r.authors.iter().map(|a| Person::parse(a)).collect();
    let record: Vec<Person> = w.authors.iter().map(record_person).collect();
    let authors_ok = cited.is_empty()
        || ((r.others || cited.len() == record.len())
            && cited.len() <= record.len()
            && cited.iter().zip(&record).all(|(c, x)| same_family(c, x)));
    title_ok && year_ok && venue_ok && authors_ok
}

/// Whether `r` cites a DOI or arXiv id and `work` carries none of them.
fn cites_other_id(r: &Reference, work: &Work) -> bool {
    let doi = r.route_doi();
    let arxiv = r.arxiv.as_ref();
    if doi.is_none() && arxiv.is_none() {
        return false;
    }
    let same_doi = doi.is_some_and(|d| work.doi_key().is_some_and(|k| k == d.key()));
    let same_arxiv = arxiv.is_some_and(|a| {
        work.arxiv_id
            .as_deref()
            .is_some_and(|b| a.as_str().eq_ignore_ascii_case(b))
    });
    !(same_doi || same_arxiv)
}

/// The decision when the title search matched `work` in `service`.
fn decide_title_match(s: &Slot, work: Work, service: Service) -> Outcome {
    let r = &s.reference;
    let cited = r
        .route_doi()
        .map(|d| d.as_str().to_string())
        .or_else(|| r.arxiv.as_ref().map(|a| a.as_str().to_string()));
    let Some(cited) = cited else {
        return Outcome::Found { work, via: service };
    };
    let same_doi = match (r.route_doi(), work.doi_key()) {
        (Some(d), Some(k)) => d.key() == k,
        _ => false,
    };
    let same_arxiv = match (&r.arxiv, &work.arxiv_id) {
        (Some(a), Some(b)) => a.as_str().eq_ignore_ascii_case(b),
        _ => false,
    };
    let id_answers: Vec<&Answer> = s
        .evidence
        .iter()
        // A local index's answers are no proof an id resolves nowhere.
        .filter(|e| e.route != Route::Title && e.dump.is_none())
        .map(|e| &e.answer)
        .collect();
    let all_absent =
        !id_answers.is_empty() && id_answers.iter().all(|a| matches!(a, Answer::NotHere));
    if all_absent && !same_doi && !same_arxiv {
        Outcome::WrongId {
            cited,
            record: work,
        }
    } else {
        Outcome::Found { work, via: service }
    }
}
