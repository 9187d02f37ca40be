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

use crate::api::Client;
use crate::services::clock::{sleep_ms, wall_now};
use citegate_core::resolve::{Next, Reply, Report, Run};
use futures::future::{select, Either, LocalBoxFuture};
use futures::stream::{FuturesUnordered, StreamExt};
use futures::FutureExt;

/// Runs `run` to the end, or until `stopped()` says so, and returns its
/// report (references not decided by then are unverified). `on_progress`
/// is called with `(decided, total)` after every reply.
pub async fn drive(
    client: &Client,
    run: &mut Run,
    stopped: impl Fn() -> bool,
    mut on_progress: impl FnMut(usize, usize),
) -> Report {
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
        // Wait for the next reply, or the time the run named, whichever is first.
        let reply = match (wait_until, in_flight.is_empty()) {
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
            let (done, total) = run.progress();
            on_progress(done, total);
        }
    }
    run.report()
}
