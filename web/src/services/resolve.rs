//! Driving the core's verification engine from the page.
//!
//! [`citegate_core::resolve::Run`] decides everything — which request goes
//! out next, when, whether a failure is retried, what each answer means for
//! each reference — and reads no clock. This module is its edge in the
//! browser: it passes the wall clock in, sleeps when the run says to wait,
//! sends each request once through the client (cache first, then the
//! browser-wide throttle; [`Client::send_once`]) and hands the reply back.
//! Requests the run hands out go concurrently — the services' limits are
//! independent, so a title search on one runs while another waits out its
//! spacing — and the run is asked again whenever a reply comes back.
//!
//! [`drive_saving`] also writes the run's [`Checkpoint`] to the workspace as
//! replies come in (at most twice a second, at most half a second after a
//! reply, and at the end), and
//! [`resume_or_new`] starts from it, so a reload mid-`.bib` goes on where it
//! stopped instead of asking the services again; only the few most recently
//! started runs of a paper keep their checkpoints ([`super::prune`]).

use crate::api::Client;
use crate::services::clock::{sleep_ms, wall_now};
use crate::services::store::{keys, Workspace};
use citegate_core::resolve::{Checkpoint, Next, Options, Reference, Reply, Report, Run};
use futures::future::{select, Either, LocalBoxFuture};
use futures::stream::{FuturesUnordered, StreamExt};
use futures::FutureExt;

/// Runs `run` to the end, or until `stopped()` says so, and returns its
/// report (references not decided by then are unverified). `on_progress`
/// is called with the run after every reply (its `progress()` and the
/// references `decided()` so far).
pub async fn drive(
    client: &Client,
    run: &mut Run,
    stopped: impl Fn() -> bool,
    on_progress: impl FnMut(&Run),
) -> Report {
    drive_inner(client, run, None, stopped, on_progress).await
}

/// The workspace key of the checkpoint of a run over `refs` (the same
/// references, read from the same `.bib`, resume the same run).
pub fn checkpoint_key(refs: &[Reference]) -> String {
    let text = serde_json::to_string(refs).unwrap_or_default();
    format!(
        "{}resolve-{:016x}",
        keys::RUN_PREFIX,
        crate::services::run::content_hash(&text)
    )
}

/// The run of `refs` stored under `key` when one for these references
/// stopped before the end, else a new run (a finished run is not resumed:
/// checking again asks again what could not be asked, and the response
/// cache answers the rest); `true` when it was resumed. The run becomes the
/// paper's most recent one and its checkpoints beyond the few most recent
/// are deleted ([`super::prune`]; a store failure there costs nothing).
pub async fn resume_or_new(
    ws: &Workspace,
    key: &str,
    refs: Vec<Reference>,
    opts: Options,
) -> (Run, bool) {
    let _ = super::prune::on_start(ws, key).await;
    if let Ok(Some(saved)) = ws.get::<Checkpoint>(key).await {
        let (done, total) = saved.progress();
        if done < total {
            if let Some(run) = Run::resume(refs.clone(), opts.clone(), &saved) {
                return (run, true);
            }
        }
    }
    (Run::new(refs, opts), false)
}

/// The run of `refs` as the checkpoint stored under `key` left it, finished
/// or not, to show its results after a reload (nothing is asked); `None`
/// when no checkpoint of these references is stored.
pub async fn stored(ws: &Workspace, key: &str, refs: Vec<Reference>, opts: Options) -> Option<Run> {
    let saved = ws.get::<Checkpoint>(key).await.ok().flatten()?;
    Run::resume(refs, opts, &saved)
}

/// Asks the local index behind the relay at `relay` (`citegate relay
/// --index DIR`) every question of a new `run`, in one request, and hands
/// its records to the run, as the CLI does with its own index: what they
/// settle is not asked of any service, and a miss is no evidence. A relay
/// without an index (404), or one that cannot be reached, leaves the run
/// as it was: the services are asked as always.
pub async fn ask_relay_index(client: &Client, relay: &str, run: &mut Run, title_hits: usize) {
    let asks = run.local_asks();
    if relay.trim().is_empty() || asks.is_empty() {
        return;
    }
    let req = citegate_core::relay::index_request(relay, &asks, title_hits);
    let Ok(raw) = client.send_direct(&req).await else {
        return;
    };
    if raw.status == 404 {
        return;
    }
    match citegate_core::relay::index_answers(raw.status, &raw.body) {
        Ok(answers) => run.take_local(answers),
        Err(e) => web_sys::console::warn_1(&e.into()),
    }
}

/// [`drive`], writing the run's checkpoint under `key` as it goes (a store
/// failure only costs the resume, never the run).
pub async fn drive_saving(
    client: &Client,
    ws: &Workspace,
    key: &str,
    run: &mut Run,
    stopped: impl Fn() -> bool,
    on_progress: impl FnMut(&Run),
) -> Report {
    drive_inner(client, run, Some((ws, key)), stopped, on_progress).await
}

/// Checkpoints go out at most this often (ms) while replies come in.
const SAVE_EVERY_MS: f64 = 500.0;

async fn drive_inner(
    client: &Client,
    run: &mut Run,
    store: Option<(&Workspace, &str)>,
    stopped: impl Fn() -> bool,
    mut on_progress: impl FnMut(&Run),
) -> Report {
    let mut saved_at = f64::NEG_INFINITY;
    let mut unsaved = false;
    let mut in_flight: FuturesUnordered<LocalBoxFuture<'_, (u64, Reply)>> = FuturesUnordered::new();
    loop {
        if stopped() {
            break;
        }
        let wait_until = match run.next(wall_now()) {
            Next::Done => break,
            Next::Send(out) => {
                for o in out {
                    in_flight.push(
                        async move { (o.id, client.send_once(&o.request).await) }.boxed_local(),
                    );
                }
                continue;
            }
            Next::WaitUntil(at) => Some(at),
            Next::AwaitReplies => None,
        };
        // A checkpoint not written yet goes out once its spacing allows,
        // even while no reply comes (a reload then loses nothing answered).
        let save_due = (store.is_some() && unsaved).then_some(saved_at + SAVE_EVERY_MS);
        let deadline = match (wait_until, save_due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // Wait for the next reply, or the deadline, whichever is first.
        let reply = match (deadline, in_flight.is_empty()) {
            (None, true) => break,
            (Some(at), true) => {
                sleep_ms((at - wall_now()).max(1.0)).await;
                None
            }
            (None, false) => in_flight.next().await,
            (Some(at), false) => {
                let timer = sleep_ms((at - wall_now()).max(1.0)).boxed_local();
                match select(in_flight.next(), timer).await {
                    Either::Left((r, _)) => r,
                    Either::Right(_) => None,
                }
            }
        };
        if let Some((id, reply)) = reply {
            run.answer(id, reply, wall_now());
            on_progress(run);
            unsaved = true;
        }
        if let (Some((ws, key)), true) = (store, unsaved) {
            if wall_now() - saved_at >= SAVE_EVERY_MS {
                let _ = ws.put(key, &run.checkpoint()).await;
                saved_at = wall_now();
                unsaved = false;
            }
        }
    }
    if let (Some((ws, key)), true) = (store, unsaved) {
        let _ = ws.put(key, &run.checkpoint()).await;
    }
    run.report()
}
