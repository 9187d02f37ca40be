//! Run drivers: verification and cross-check, checkpointed after every item.
//!
//! A run is a loop over items whose state is written to the workspace store
//! after *each* item, so a reload or a closed tab loses at most the item in
//! flight. Resuming is just running again with the same run id: items
//! already decided are skipped, and the requests still needed are rebuilt
//! exactly as before (chunks cut over the whole item list), so any answer
//! fetched before the reload comes from the cache and no request is
//! repeated. An item that could not be checked — its service unavailable,
//! or still failing after retries — is recorded as unverified with the
//! reason and is tried again on the next resume; it is never recorded as
//! "not found". The decisions themselves are the core's:
//! [`citegate_core::verify::decide`] for verification, and for the
//! cross-check the core's step machine [`CrossRun`], which plans every
//! request (batches cut over the whole list) and decides every answer; this
//! module only sends its requests and stores its checkpoint.

use super::db::StoreError;
use super::store::{keys, Workspace};
use crate::api::client::{Client, ClientError};
use citegate_core::candidates::Candidate;
use citegate_core::crossindex::{self, CrossRun, RunNext as CrossNext, RunReply as CrossReply};
use citegate_core::pool::PoolPaper;
use citegate_core::verify::run::{Fetched, Next, Settled, VerifyRun};
use citegate_core::verify::{Decision, VerifyOptions};
use citegate_core::works::request::Endpoints;
use citegate_core::works::Service;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Hits asked of a title search.
pub use citegate_core::verify::run::SEARCH_LIMIT;

/// The start of the reason recorded for items a service could not check;
/// the service's error follows in parentheses.
pub const UNAVAILABLE: &str = "unverified: service unavailable";

/// One candidate's verification result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum VerifyItem {
    /// Accepted into the pool.
    Accepted {
        /// The pool paper.
        paper: Box<PoolPaper>,
        /// Title score before the year bonus.
        score: i64,
    },
    /// Rejected, with the core's evidence.
    Rejected {
        /// The core's rejection, as JSON.
        rejection: Value,
        /// The index whose records decided it, when not Semantic Scholar
        /// (OpenAlex, once Semantic Scholar stayed shut).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        via: Option<String>,
    },
    /// Not checked; tried again on resume.
    Unverified {
        /// Why (`unverified: service unavailable`, or the error).
        reason: String,
    },
}

impl VerifyItem {
    /// Whether the item is decided (and skipped on resume).
    pub fn decided(&self) -> bool {
        !matches!(self, VerifyItem::Unverified { .. })
    }
}

/// A run's checkpoint, stored as `run:<id>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunState<T> {
    /// The run id.
    pub id: String,
    /// Number of items.
    pub total: usize,
    /// Results by item position.
    pub items: BTreeMap<usize, T>,
    /// All items decided.
    pub finished: bool,
}

/// Why a run stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The store failed; progress up to the last checkpoint is kept.
    Store(StoreError),
    /// A request could not be built from an item.
    Plan(String),
    /// The Semantic Scholar key failed its preflight: the run stopped so the
    /// user can choose to continue without it, then resume.
    KeyPreflight(ClientError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Store(e) => write!(f, "{e}"),
            RunError::Plan(m) => write!(f, "cannot plan a request: {m}"),
            RunError::KeyPreflight(e) => write!(f, "{e}"),
        }
    }
}

impl From<StoreError> for RunError {
    fn from(e: StoreError) -> Self {
        RunError::Store(e)
    }
}

fn run_key(id: &str) -> String {
    format!("{}{id}", keys::RUN_PREFIX)
}

async fn load<T: for<'de> Deserialize<'de>>(
    ws: &Workspace,
    id: &str,
    total: usize,
) -> Result<RunState<T>, RunError> {
    Ok(ws
        .get::<RunState<T>>(&run_key(id))
        .await?
        .filter(|s| s.total == total)
        .unwrap_or(RunState {
            id: id.to_string(),
            total,
            items: BTreeMap::new(),
            finished: false,
        }))
}

fn unverified(e: &ClientError) -> VerifyItem {
    VerifyItem::Unverified {
        reason: if e.is_unavailable() {
            format!("{UNAVAILABLE} ({e})")
        } else {
            format!("unverified: {e}")
        },
    }
}

/// The row for a decision; `via` names the index when it was not Semantic
/// Scholar (an accepted paper says so itself, in `verified_by`).
fn from_decision(d: Decision, via: Option<Service>) -> VerifyItem {
    match d {
        Decision::Accepted { paper, score, .. } => VerifyItem::Accepted { paper, score },
        Decision::Rejected(r) => VerifyItem::Rejected {
            rejection: serde_json::to_value(&r).unwrap_or(Value::Null),
            via: via.map(|s| s.name().to_string()),
        },
    }
}

/// Verifies `candidates` against Semantic Scholar (OpenAlex once it stays
/// shut: the core decides when), resuming run `id`.
/// `on_item` is called after each checkpoint with (position, result).
///
/// The core's [`VerifyRun`] chooses every request (batches, one lookup per
/// id when the keyless batch's preflight is refused, title searches for
/// the rest) and decides every answer; this loop only sends, classifies
/// transport failures and checkpoints (once per answer: a batch answer
/// settles up to 500 candidates). `stop` is asked before each request:
/// when it says so the run returns what it has, unfinished, and a later
/// run resumes from it.
#[allow(clippy::too_many_arguments)]
pub async fn verify_run(
    client: &Client,
    ws: &Workspace,
    ep: &Endpoints,
    id: &str,
    candidates: &[Candidate],
    opts: &VerifyOptions,
    mut on_item: impl FnMut(usize, &VerifyItem),
    stop: impl Fn() -> bool,
) -> Result<RunState<VerifyItem>, RunError> {
    let mut state: RunState<VerifyItem> = load(ws, id, candidates.len()).await?;
    let decided: BTreeSet<usize> = state
        .items
        .iter()
        .filter(|(_, item)| item.decided())
        .map(|(i, _)| *i)
        .collect();
    let mut run = VerifyRun::new(candidates.to_vec(), ep.clone(), opts.clone(), &decided);
    while let Next::Ask(req) = run.next_ask().map_err(|e| RunError::Plan(e.to_string()))? {
        if stop() {
            state.finished = false;
            return Ok(state);
        }
        let fetched = match client.execute(&req).await {
            Ok(f) => Fetched::Answer {
                status: f.status,
                body: f.body,
            },
            Err(e @ ClientError::KeyPreflight { .. }) => return Err(RunError::KeyPreflight(e)),
            Err(ClientError::Preflight { .. }) => Fetched::PreflightRefused,
            Err(e) => Fetched::Failed {
                reason: match unverified(&e) {
                    VerifyItem::Unverified { reason } => reason,
                    _ => UNAVAILABLE.into(),
                },
            },
        };
        let settled = run.answer(fetched);
        if settled.is_empty() {
            continue;
        }
        let mut items = Vec::with_capacity(settled.len());
        for (i, settled) in settled {
            let item = match settled {
                Settled::Decided(d) => from_decision(d, None),
                Settled::DecidedBy { decision, service } => from_decision(decision, Some(service)),
                Settled::Unverified(reason) => VerifyItem::Unverified { reason },
            };
            state.items.insert(i, item.clone());
            items.push((i, item));
        }
        ws.put(&run_key(id), &state).await?;
        for (i, item) in &items {
            on_item(*i, item);
        }
    }
    state.finished =
        state.items.len() == state.total && state.items.values().all(VerifyItem::decided);
    ws.put(&run_key(id), &state).await?;
    Ok(state)
}

pub use citegate_core::crossindex::StoredAnswer;

/// One paper's answers by index.
pub type CrossItem = BTreeMap<Service, StoredAnswer>;

/// Cross-checks `papers` against `services` (Crossref, OpenAlex), resuming
/// run `id`; returns the state and the report ([`cross_check_drive`] with no
/// progress and no cancel).
pub async fn cross_check_run(
    client: &Client,
    ws: &Workspace,
    ep: &Endpoints,
    id: &str,
    papers: &[PoolPaper],
    services: &[Service],
    cfg: &crossindex::Config,
) -> Result<(RunState<CrossItem>, crossindex::Report), RunError> {
    cross_check_drive(
        client,
        ws,
        ep,
        id,
        papers,
        services,
        cfg,
        |_, _| {},
        || false,
    )
    .await
}

/// Drives the core's [`CrossRun`] over `papers`: sends each request it plans
/// through `client` (cache, throttle, retries), hands the outcome back, and
/// writes the checkpoint after every answer, so a reload resumes where it
/// stopped. `on_answer(run, changed)` is called after each answer with the
/// papers whose answers changed; `cancelled()` is asked before each request
/// (a cancelled run keeps its checkpoint and resumes on the next start).
#[allow(clippy::too_many_arguments)]
pub async fn cross_check_drive(
    client: &Client,
    ws: &Workspace,
    ep: &Endpoints,
    id: &str,
    papers: &[PoolPaper],
    services: &[Service],
    cfg: &crossindex::Config,
    mut on_answer: impl FnMut(&CrossRun, &[usize]),
    cancelled: impl Fn() -> bool,
) -> Result<(RunState<CrossItem>, crossindex::Report), RunError> {
    let mut state: RunState<CrossItem> = load(ws, id, papers.len()).await?;
    let mut run = CrossRun::new(
        papers.to_vec(),
        services.to_vec(),
        ep.clone(),
        *cfg,
        std::mem::take(&mut state.items),
    );
    on_answer(&run, &[]);
    while !cancelled() {
        let ask = match run.next() {
            CrossNext::Send(ask) => ask,
            CrossNext::AwaitReplies | CrossNext::Done => break,
        };
        // Whether a failure takes the index out for the run is the core's
        // reading of the service's error ([`CrossReply::from_error`]), as
        // in the CLI; the client has already retried it.
        let reply = match client.page(&ask.request).await {
            Ok(page) => CrossReply::Page(page),
            Err(e) if e.is_unavailable() => CrossReply::Unavailable(e.to_string()),
            Err(e) => match &e {
                ClientError::Api { error, .. } => CrossReply::from_error(error, e.to_string()),
                _ => CrossReply::Failed(e.to_string()),
            },
        };
        let changed = run.answer(ask.id, reply);
        if !changed.is_empty() {
            state.items = run.answers().clone();
            ws.put(&run_key(&state.id), &state).await?;
        }
        on_answer(&run, &changed);
    }
    // Papers settled without a request (an index already out) count too.
    let all: Vec<usize> = (0..papers.len()).collect();
    on_answer(&run, &all);
    state.items = run.answers().clone();
    state.finished = run.finished();
    ws.put(&run_key(&state.id), &state).await?;
    Ok((state, run.report().0))
}

/// A stable 64-bit FNV-1a hash of a run's inputs, so the same inputs resume
/// the same run after a reload (the pages build their run ids from it).
pub fn content_hash(text: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}
