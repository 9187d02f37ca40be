//! The verification step of `verify` and `pool-chain`: what became of each
//! candidate, and the rows both print.
//!
//! Live, the CLI drives the core's pool verification machine
//! ([`VerifyRun`], the one the app's Pool page drives): it sends each
//! request the machine hands out through the [`Fetcher`] (cache, pacing,
//! retries) and hands back what came of it; the machine picks the requests
//! (Semantic Scholar batches of 500 ids, a title search for each candidate
//! without an id or whose id the batch did not know) and decides. A request
//! that got no answer leaves its candidates undecided with the reason, never
//! rejected. With `--responses`, each candidate is decided on its recorded
//! title search, as the reference scripts do.

use crate::error::Error;
use crate::io::{load_responses, recorded, response_key};
use crate::live::{progress_bar, Fetcher, LiveArgs};
use citegate_core::candidates::Candidate;
use citegate_core::fetch::queue::Final;
use citegate_core::pool::PoolPaper;
use citegate_core::verify::run::{Fetched, Next, Settled, VerifyRun};
use citegate_core::verify::{self, Decision, VerifyOptions};
use citegate_core::ErrorKind;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The reason given for a request that got no answer, as the app words it.
const UNAVAILABLE: &str = "unverified: service unavailable";

/// What became of one candidate that had an answer.
enum Found {
    /// The core's decision.
    Decided(Decision),
    /// No decision: the answer was an error or unreadable, or none came.
    Failed(citegate_core::Error),
}

/// What became of one candidate, as a row shows it.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum RowOutcome {
    /// `"no_response"` or `"error"`.
    Missing(&'static str),
    /// The core's decision.
    Decided(Decision),
}

/// One candidate's row of `verify --json`.
#[derive(serde::Serialize)]
pub struct Row {
    index: usize,
    /// The candidate's title.
    pub title: String,
    outcome: RowOutcome,
    /// Why the candidate could not be decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<citegate_core::Error>,
}

impl Row {
    /// The row in words, for the text output.
    pub fn describe(&self) -> String {
        match (&self.outcome, &self.error) {
            (RowOutcome::Decided(d), _) => d.describe(),
            (RowOutcome::Missing(_), Some(e)) => format!("undecided: {}", e.message),
            (RowOutcome::Missing(_), None) => "undecided: no response".to_string(),
        }
    }
}

/// Every candidate's outcome: the accepted papers, a row per candidate in
/// candidate order, and how many could not be decided.
pub struct Verified {
    /// The accepted papers, in candidate order.
    pub accepted: Vec<PoolPaper>,
    /// One row per candidate.
    pub rows: Vec<Row>,
    /// Candidates without a decision.
    pub undecided: usize,
}

impl Verified {
    /// Candidates rejected by the rules.
    pub fn rejected(&self) -> usize {
        self.rows.len() - self.accepted.len() - self.undecided
    }
}

/// Decides `cands` on the recorded responses at `path` (keyed by title,
/// or by the normalized title); a candidate with none is undecided.
pub fn recorded_run(
    path: &Path,
    cands: &[Candidate],
    opts: &VerifyOptions,
) -> Result<Verified, Error> {
    let responses = load_responses(path)?;
    let mut by_key: HashMap<String, &serde_json::Value> = HashMap::new();
    for (k, v) in &responses {
        by_key.insert(k.clone(), v);
        by_key.entry(response_key(k)).or_insert(v);
    }
    let found = cands
        .iter()
        .map(|c| {
            let (status, body) = by_key
                .get(&c.title)
                .or_else(|| by_key.get(&response_key(&c.title)))
                .map(|v| recorded(v))?;
            Some(match verify::decide_body(c, &body, status, 0, opts) {
                Ok(d) => Found::Decided(d),
                Err(e) => Found::Failed(e),
            })
        })
        .collect();
    Ok(tally(cands, found))
}

/// Decides `cands` live by driving the core's [`VerifyRun`]; `quiet`
/// (`--json`) hides the progress bar.
pub fn live_run(
    live: &LiveArgs,
    quiet: bool,
    cands: &[Candidate],
    opts: &VerifyOptions,
) -> Result<Verified, Error> {
    let settings = live.settings()?;
    // The bar below counts candidates; the fetcher draws none of its own.
    let mut fetcher = Fetcher::new(&settings, true)?;
    let bar = progress_bar("verify", quiet);
    if let Some(b) = &bar {
        b.set_length(cands.len() as u64);
    }
    let mut run = VerifyRun::new(
        cands.to_vec(),
        settings.endpoints_shared(),
        opts.clone(),
        &BTreeSet::new(),
    );
    let mut found: Vec<Option<Found>> = cands.iter().map(|_| None).collect();
    // A sequential driver has answered every request it was handed, so
    // the machine never awaits a reply here: anything but a request ends.
    while let Next::Ask(req) = run.next_ask().map_err(Error::core)? {
        let fetched = fetched(fetcher.one(req, "verify"));
        for (i, settled) in run.answer(fetched) {
            if let Some(slot) = found.get_mut(i) {
                *slot = Some(from_settled(settled));
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(tally(cands, found))
}

/// A request's final answer as the machine takes it: status 0 (refused,
/// timed out, dropped, or the service given up for the run) is no answer,
/// with the transport's description, which names the service.
fn fetched(f: Final) -> Fetched {
    if f.status == 0 {
        Fetched::Failed {
            reason: format!("{UNAVAILABLE} ({})", f.body),
        }
    } else {
        Fetched::Answer {
            status: f.status,
            body: f.body,
        }
    }
}

/// What the machine settled, as a row's outcome. An unverified reason
/// becomes the row's error; the row already says the candidate is
/// undecided, so the reason's `unverified: ` is dropped.
fn from_settled(settled: Settled) -> Found {
    match settled {
        // Accepted on another index's records (OpenAlex, Semantic Scholar
        // shut): the paper says so in `verified_by`.
        Settled::Decided(d) | Settled::DecidedBy { decision: d, .. } => Found::Decided(d),
        Settled::Unverified(reason) => {
            let message = reason.strip_prefix("unverified: ").unwrap_or(&reason);
            Found::Failed(citegate_core::Error::new(ErrorKind::Api, message))
        }
    }
}

/// The rows and counts of `found` (one per candidate; `None`: no answer).
fn tally(cands: &[Candidate], found: Vec<Option<Found>>) -> Verified {
    let mut v = Verified {
        accepted: Vec::new(),
        rows: Vec::new(),
        undecided: 0,
    };
    for (i, (c, found)) in cands.iter().zip(found).enumerate() {
        let (outcome, error) = match found {
            None => {
                v.undecided += 1;
                (RowOutcome::Missing("no_response"), None)
            }
            Some(Found::Decided(d)) => {
                if let Decision::Accepted { paper, .. } = &d {
                    v.accepted.push((**paper).clone());
                }
                (RowOutcome::Decided(d), None)
            }
            Some(Found::Failed(e)) => {
                v.undecided += 1;
                (RowOutcome::Missing("error"), Some(e))
            }
        };
        v.rows.push(Row {
            index: i,
            title: c.title.clone(),
            outcome,
            error,
        });
    }
    v
}
