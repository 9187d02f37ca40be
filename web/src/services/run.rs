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
use citegate_core::verify::{self, Decision, S2Body, VerifyOptions};
use citegate_core::works::request::{self, Endpoints, WorkId};
use citegate_core::works::Service;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// Hits asked of a title search.
pub const SEARCH_LIMIT: usize = 5;

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

/// The reason for a Semantic Scholar answer the core could not read. The
/// service is named, as in every other unverified reason, so a row says
/// who failed (an error answer already names it).
fn unreadable(e: &citegate_core::Error) -> String {
    if e.kind == citegate_core::error::ErrorKind::Api {
        format!("unverified: {e}")
    } else {
        format!(
            "unverified: {} sent an unreadable answer: {e}",
            Service::SemanticScholar.name()
        )
    }
}

fn from_decision(d: Decision) -> VerifyItem {
    match d {
        Decision::Accepted { paper, score, .. } => VerifyItem::Accepted { paper, score },
        Decision::Rejected(r) => VerifyItem::Rejected {
            rejection: serde_json::to_value(&r).unwrap_or(Value::Null),
        },
    }
}

/// One id looked up on its own (`GET /paper/{id}`), for when the batch
/// cannot be sent: the record, `None` when the service does not know the id
/// (404; the title search decides then), or the reason it stays unverified.
async fn lookup_one(
    client: &Client,
    ep: &Endpoints,
    id: &WorkId,
) -> Result<Result<Option<PoolPaper>, String>, RunError> {
    let req = request::lookup(Service::SemanticScholar, ep, id)
        .map_err(|e| RunError::Plan(e.to_string()))?;
    Ok(match client.execute(&req).await {
        Ok(f) => match verify::read_s2_body(&f.body, Some(f.status)) {
            Ok(S2Body::Paper(p)) => Ok(Some(*p)),
            Ok(S2Body::Error(e)) if e.status == Some(404) => Ok(None),
            Ok(S2Body::Error(e)) => Err(format!("unverified: {}", e.to_error())),
            Ok(_) => Err("unverified: semantic_scholar paper answer is not a record".into()),
            Err(e) => Err(unreadable(&e)),
        },
        Err(e @ ClientError::KeyPreflight { .. }) => return Err(RunError::KeyPreflight(e)),
        Err(e) => Err(match unverified(&e) {
            VerifyItem::Unverified { reason } => reason,
            _ => UNAVAILABLE.into(),
        }),
    })
}

/// Verifies `candidates` against Semantic Scholar, resuming run `id`.
/// `on_item` is called after each checkpoint with (position, result).
pub async fn verify_run(
    client: &Client,
    ws: &Workspace,
    ep: &Endpoints,
    id: &str,
    candidates: &[Candidate],
    opts: &VerifyOptions,
    mut on_item: impl FnMut(usize, &VerifyItem),
) -> Result<RunState<VerifyItem>, RunError> {
    let mut state: RunState<VerifyItem> = load(ws, id, candidates.len()).await?;
    let todo =
        |s: &RunState<VerifyItem>, i: usize| !s.items.get(&i).is_some_and(VerifyItem::decided);
    // Which candidates go through the batch (an id) and which are searched
    // by title: the core's plan, cut over the whole list so a resumed run
    // rebuilds the same requests.
    let plan = verify::plan_batch(candidates);
    let chunks = plan.chunks;
    let mut without = plan.titles;
    // Set once the batch's preflight failed: later chunks go one GET per id.
    let mut batch_blocked = false;
    for chunk in chunks {
        if !chunk.iter().any(|(i, _)| todo(&state, *i)) {
            continue;
        }
        let ids: Vec<WorkId> = chunk.iter().map(|(_, id)| id.clone()).collect();
        let reqs = request::batch(Service::SemanticScholar, ep, &ids)
            .map_err(|e| RunError::Plan(e.to_string()))?;
        let Some(req) = reqs.first() else { continue };
        let answer = if batch_blocked {
            None
        } else {
            Some(client.execute(req).await)
        };
        // One result per chunk position: a record, none (not found), or why not.
        let records: Vec<Result<Option<PoolPaper>, String>> = match answer {
            Some(Ok(f)) => match verify::read_s2_body(&f.body, Some(f.status)) {
                Ok(S2Body::Batch(r)) => (0..chunk.len())
                    .map(|pos| Ok(r.get(pos).cloned().flatten()))
                    .collect(),
                Ok(S2Body::Error(e)) => {
                    vec![Err(format!("unverified: {}", e.to_error())); chunk.len()]
                }
                Ok(_) => vec![
                    Err("unverified: semantic_scholar batch answer is not a list".into());
                    chunk.len()
                ],
                Err(e) => vec![Err(unreadable(&e)); chunk.len()],
            },
            Some(Err(e @ ClientError::KeyPreflight { .. })) => {
                return Err(RunError::KeyPreflight(e))
            }
            // The keyless batch needs a CORS preflight the service may not
            // answer: the same ids, one GET each (no preflight).
            None | Some(Err(ClientError::Preflight { .. })) => {
                batch_blocked = true;
                let mut out = Vec::with_capacity(chunk.len());
                for (i, id) in &chunk {
                    if !todo(&state, *i) {
                        out.push(Err(String::new()));
                        continue;
                    }
                    out.push(lookup_one(client, ep, id).await?);
                }
                out
            }
            Some(Err(e)) => {
                let reason = match unverified(&e) {
                    VerifyItem::Unverified { reason } => reason,
                    _ => UNAVAILABLE.into(),
                };
                vec![Err(reason); chunk.len()]
            }
        };
        for (pos, (i, _)) in chunk.iter().enumerate() {
            if !todo(&state, *i) {
                continue;
            }
            let Some(c) = candidates.get(*i) else {
                continue;
            };
            let item = match records.get(pos) {
                // The core decides; an id the service does not know is no
                // verdict: the title search decides it below.
                Some(Ok(record)) => match verify::decide_batch_record(c, record.as_ref(), opts) {
                    Some(d) => from_decision(d),
                    None => {
                        without.push(*i);
                        continue;
                    }
                },
                Some(Err(reason)) => VerifyItem::Unverified {
                    reason: reason.clone(),
                },
                None => continue,
            };
            state.items.insert(*i, item.clone());
            ws.put(&run_key(id), &state).await?;
            on_item(*i, &item);
        }
    }
    without.sort_unstable();
    without.dedup();
    for i in without {
        if !todo(&state, i) {
            continue;
        }
        let Some(c) = candidates.get(i) else { continue };
        let req = request::search(Service::SemanticScholar, ep, &c.title, SEARCH_LIMIT, None)
            .map_err(|e| RunError::Plan(e.to_string()))?;
        let item = match client.execute(&req).await {
            Ok(f) => match verify::decide_body(c, &f.body, Some(f.status), 0, opts) {
                Ok(d) => from_decision(d),
                Err(e) => VerifyItem::Unverified {
                    reason: unreadable(&e),
                },
            },
            Err(e @ ClientError::KeyPreflight { .. }) => return Err(RunError::KeyPreflight(e)),
            Err(e) => unverified(&e),
        };
        state.items.insert(i, item.clone());
        ws.put(&run_key(id), &state).await?;
        on_item(i, &item);
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
        let reply = match client.page(&ask.request).await {
            Ok(page) => CrossReply::Page(page),
            Err(e) if e.is_unavailable() => CrossReply::Unavailable(e.to_string()),
            Err(e) => CrossReply::Failed(e.to_string()),
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
