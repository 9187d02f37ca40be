//! Long work in the page without freezing it: one loop for every sliced
//! job (a core [`Stepwise`]), and a cancel token that makes a run's result
//! stale when newer input or the user stops it.
//!
//! The loop runs the job for one slice ([`slice`], about 30 ms), reports
//! progress, yields to the browser so it can paint and take input, and
//! stops without a result once its token is cancelled.

use crate::components::{slice, yield_now};
use citegate_core::stepwise::Stepwise;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Says whether a run is still wanted. Cloned into the run; cancelled by
/// whoever starts a newer run or stops this one.
#[derive(Clone, Default, Debug)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not cancelled yet.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Marks the run as no longer wanted: it stops at its next check and its
    /// result is dropped.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The current run's token: starting a run cancels the one before it.
#[derive(Clone, Default, Debug)]
pub struct Latest(Arc<std::sync::Mutex<Cancel>>);

impl Latest {
    /// Cancels the current run and gives a fresh token for the next one.
    pub fn restart(&self) -> Cancel {
        let fresh = Cancel::new();
        if let Ok(mut current) = self.0.lock() {
            current.cancel();
            *current = fresh.clone();
        }
        fresh
    }

    /// Cancels the current run (no new one starts).
    pub fn cancel(&self) {
        if let Ok(current) = self.0.lock() {
            current.cancel();
        }
    }
}

/// Runs `task` a slice at a time, `budget` units per step, calling
/// `on_progress` with the task between slices (its
/// [`Stepwise::progress`], or anything else it tells, such as the entries
/// read so far); `None` when `cancel` was cancelled before it finished (the
/// result is stale, nothing is kept).
pub async fn run_sliced<S: Stepwise>(
    mut task: S,
    budget: usize,
    mut on_progress: impl FnMut(&S),
    cancel: &Cancel,
) -> Option<S::Output> {
    loop {
        yield_now().await;
        if cancel.is_cancelled() {
            return None;
        }
        if slice(|| task.step(budget)) {
            break;
        }
        on_progress(&task);
    }
    (!cancel.is_cancelled()).then(|| task.finish())
}
