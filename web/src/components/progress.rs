//! One progress display for every long run: what runs, `done / total`, a
//! labelled `<progress>` element, an estimate of the time left, and Pause /
//! Cancel buttons when the run supports them.
//!
//! Interface (for any page):
//!
//! ```text
//! let counts = RwSignal::new((0usize, 0usize));   // (done, total)
//! let running = RwSignal::new(false);
//! let paused = RwSignal::new(false);               // only if the run can pause
//! view! {
//!     <Progress id="progress" label="Checking entries" counts=counts running=running
//!         paused=paused on_cancel=Callback::new(move |_| cancel()) />
//! }
//! ```
//!
//! The ids inside derive from `id`: the `<progress id=…>` itself, its text
//! `{id}-text` (`12 / 40 · about 30 s left`), the buttons `{id}-pause` and
//! `{id}-cancel`. The estimate counts only the time spent running since the
//! run started (a pause stops its clock) and stays on screen while paused.
//! Buttons that do not apply are `aria-disabled`, not `disabled`, so a
//! button that was just pressed keeps the keyboard focus: Pause becomes
//! Resume in place, and Cancel stays focusable after the run stops. Before
//! anything has run (nothing to count) the display is hidden.

use crate::services::clock::wall_now;
use leptos::prelude::*;

/// The time left in words: `about 40 s left`, `about 3 min left`.
pub fn eta_words(ms: f64) -> String {
    let s = (ms / 1000.0).ceil().max(1.0);
    if s < 90.0 {
        format!("about {s:.0} s left")
    } else if s < 90.0 * 60.0 {
        format!("about {:.0} min left", (s / 60.0).round())
    } else {
        format!("about {:.1} h left", s / 3600.0)
    }
}

/// The estimated time left (ms) after `done` of `total` in `active_ms` of
/// running, counted from `done0` done at the start; `None` until one item
/// is done.
pub fn eta_ms(done0: usize, done: usize, total: usize, active_ms: f64) -> Option<f64> {
    let did = done.checked_sub(done0).filter(|d| *d > 0)?;
    let left = total.saturating_sub(done);
    (left > 0).then(|| active_ms / did as f64 * left as f64)
}

/// When a run ends and the keyboard focus was lost (the button that started
/// it was disabled while it ran, so the focus fell to the page's body), the
/// display takes it: the next Tab goes on from the results, not from the top.
fn focus_if_lost(target: NodeRef<leptos::html::Div>) {
    request_animation_frame(move || {
        let doc = document();
        let lost = doc
            .active_element()
            .is_none_or(|a| doc.body().is_some_and(|b| *b == a));
        if let (true, Some(el)) = (lost, target.get_untracked()) {
            let _ = el.focus();
        }
    });
}

/// The shared progress display; see the module documentation.
#[component]
pub fn Progress(
    /// Id of the `<progress>` element; the others derive from it.
    id: &'static str,
    /// What runs, in words ("Checking entries"): the bar's accessible name.
    #[prop(into)]
    label: Signal<String>,
    /// `(done, total)`.
    #[prop(into)]
    counts: Signal<(usize, usize)>,
    /// Whether the run is going (paused counts as going).
    #[prop(into)]
    running: Signal<bool>,
    /// When given, a Pause/Resume button toggles it; the run reads it.
    #[prop(optional)]
    paused: Option<RwSignal<bool>>,
    /// When given, a Cancel button calls it while the run goes.
    #[prop(optional)]
    on_cancel: Option<Callback<()>>,
    /// More text after the counts (a tally, the current item).
    #[prop(optional, into)]
    detail: Option<Signal<String>>,
) -> impl IntoView {
    // Clock of the current run: (start of the running stretch, ms run
    // before it, done at the start, whether a run was going).
    let clock = StoredValue::new((None::<f64>, 0.0f64, 0usize, false));
    let is_paused = move || paused.is_some_and(|p| p.get());
    // The estimate is worked out again every second, not only when an item
    // is done: a run that sits on one slow answer shows its time left grow.
    let tick = RwSignal::new(0u32);
    let boxed = NodeRef::<leptos::html::Div>::new();
    if let Ok(handle) = set_interval_with_handle(
        move || tick.update(|t| *t = t.wrapping_add(1)),
        std::time::Duration::from_secs(1),
    ) {
        on_cleanup(move || handle.clear());
    }
    Effect::new(move |_| {
        let run = running.get();
        let going = run && !is_paused();
        let done = counts.get_untracked().0;
        clock.update_value(|(since, before, done0, was)| {
            if run && !*was {
                // A new run: its own clock, counted from what is done now.
                *since = None;
                *before = 0.0;
                *done0 = done;
            }
            if going {
                since.get_or_insert_with(wall_now);
            } else if let Some(t) = since.take() {
                *before += wall_now() - t;
            }
            let ended = *was && !run;
            *was = run;
            if ended {
                focus_if_lost(boxed);
            }
        });
    });
    let eta = move || {
        let (done, total) = counts.get();
        if !running.get() {
            return String::new();
        }
        tick.track();
        let (since, before, done0, _) = clock.get_value();
        let active = before + since.map_or(0.0, |t| wall_now() - t);
        let words = eta_ms(done0, done, total, active).map(eta_words);
        match (is_paused(), words) {
            (true, Some(w)) => format!("paused · {w}"),
            (true, None) => "paused".to_string(),
            (false, Some(w)) => w,
            (false, None) => "estimating the time left".to_string(),
        }
    };
    let text = move || {
        let (done, total) = counts.get();
        if total == 0 && !running.get() {
            return String::new();
        }
        let mut parts = vec![format!("{done} / {total}")];
        let e = eta();
        if !e.is_empty() {
            parts.push(e);
        }
        if let Some(d) = detail {
            let d = d.get();
            if !d.is_empty() {
                parts.push(d);
            }
        }
        parts.join(" · ")
    };
    let text_id = format!("{id}-text");
    let described = text_id.clone();
    let toggle = move |_| {
        if let Some(p) = paused {
            if running.get_untracked() {
                p.update(|v| *v = !*v);
            }
        }
    };
    let cancel = move |_| {
        if running.get_untracked() {
            if let Some(c) = on_cancel {
                c.run(());
            }
        }
    };
    view! {
        // Nothing runs and nothing ran: no idle bar with Pause and Cancel.
        <div class="progress-box" role="group" aria-label=move || label.get() tabindex="-1" node_ref=boxed
            hidden=move || !running.get() && counts.get().1 == 0>
            <span class="progress-label">{move || label.get()}</span>
            <progress
                id=id
                aria-label=move || label.get()
                aria-describedby=described
                max=move || counts.get().1.max(1).to_string()
                value=move || counts.get().0.to_string()
            ></progress>
            <span class="muted progress-text" id=text_id aria-live="polite">{text}</span>
            {paused.map(|p| view! {
                <button type="button" class="secondary" id=format!("{id}-pause")
                    aria-disabled=move || (!running.get()).to_string()
                    aria-pressed=move || p.get().to_string()
                    on:click=toggle>
                    {move || if p.get() { "Resume" } else { "Pause" }}
                </button>
            })}
            {on_cancel.map(|_| view! {
                <button type="button" class="secondary" id=format!("{id}-cancel")
                    aria-disabled=move || (!running.get()).to_string()
                    on:click=cancel>"Cancel"</button>
            })}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_eta(done0: usize, done: usize, total: usize, ms: f64, expected: Option<&str>) {
        assert_eq!(
            eta_ms(done0, done, total, ms).map(eta_words).as_deref(),
            expected
        );
    }

    #[test]
    fn eta_cases() {
        check_eta(0, 0, 10, 500.0, None);
        check_eta(0, 10, 10, 500.0, None);
        check_eta(0, 5, 10, 5000.0, Some("about 5 s left"));
        check_eta(0, 1, 100, 2000.0, Some("about 3 min left"));
        check_eta(4, 5, 10, 1000.0, Some("about 5 s left"));
        check_eta(0, 1, 10_000, 2000.0, Some("about 5.6 h left"));
        check_eta(5, 3, 10, 1000.0, None);
    }
}
