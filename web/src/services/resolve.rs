//! Driving the core's verification engine from the page.
//!
//! [`citegate_core::resolve::Run`] decides everything — which request goes
//! out next, when, whether a failure is retried, what each answer means for
//! each reference — and reads no clock. This module is its edge in the
//! browser: it passes the wall clock in, sleeps when the run says to wait,
//! sends each request once through the client (cache first, then the
//! browser-wide throttle; [`Client::send_once`]) and hands the reply back.
//! It sends one request at a time, so the run never has to wait for a reply
//! in flight.

use crate::api::Client;
use crate::services::clock::{sleep_ms, wall_now};
use citegate_core::resolve::{Next, Report, Run};

/// Runs `run` to the end, or until `stopped()` says so, and returns its
/// report (references not decided by then are unverified). `on_progress`
/// is called with `(decided, total)` after every reply.
pub async fn drive(
    client: &Client,
    run: &mut Run,
    stopped: impl Fn() -> bool,
    mut on_progress: impl FnMut(usize, usize),
) -> Report {
    let mut idle = 0u32;
    loop {
        if stopped() {
            break;
        }
        match run.next(wall_now()) {
            Next::Done => break,
            Next::Send(out) => {
                idle = 0;
                for o in out {
                    let reply = client.send_once(&o.request).await;
                    run.answer(o.id, reply, wall_now());
                    let (done, total) = run.progress();
                    on_progress(done, total);
                }
            }
            Next::WaitUntil(at) => {
                idle = 0;
                sleep_ms((at - wall_now()).max(1.0)).await;
            }
            // Nothing is in flight when requests go one at a time: a run
            // that still waits for a reply has nothing left to send.
            Next::AwaitReplies => {
                idle += 1;
                if idle > 1 {
                    break;
                }
                sleep_ms(1.0).await;
            }
        }
    }
    run.report()
}
