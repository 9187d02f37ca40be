//! "Pool": from search candidates to a verified `citation_pool.json`.
//!
//! The candidates are verified in chunks of [`CHUNK`], each a checkpointed
//! run of the services' `verify_run` named after the candidate set, the
//! cutoff and the chunk: pausing or cancelling stops before the next
//! request (the one in flight is answered and kept), and a reload finds
//! every decided row in the workspace and resumes where it stopped. The page keeps its inputs in the workspace for
//! the same reason. Decisions (pre-dedup, accept/reject, dedup, keys, the
//! prompt) are the core's.

use super::discover::Discover;
use crate::components::{
    yield_now, Banner, BannerKind, CopyButton, DownloadButton, FileDrop, LoadedFile, Progress,
};
use crate::services::run::{self, RunState, VerifyItem};
use crate::services::sliced::{run_sliced, Latest};
use crate::services::store::keys;
use crate::services::Services;
use citegate_core::bibtex::write;
use citegate_core::candidates::{self, Candidate, PreDedup, PreDedupRun};
use citegate_core::cutoff::{self, Date};
use citegate_core::pool::{self, PoolPaper};
use citegate_core::prompt;
use citegate_core::title;
use citegate_core::verify::Rejection;
use citegate_core::verify::VerifyOptions;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

const EXAMPLE_CANDIDATES: &str = include_str!("../../examples/raw_candidates.json");
const EXAMPLE_CUTOFF: &str = "2023-01-01";
/// Candidates per checkpointed run: within a run Semantic Scholar's batch
/// takes them all in one request and OpenAlex's phrase searches twenty at a
/// time; each answer rewrites the run's stored state, so a run is kept to a
/// size whose state is cheap to write.
pub const CHUNK: usize = 100;
const PAGE_KEY: &str = "page:pool";
/// Candidates compared per pre-dedup step within a slice: small, since an
/// early candidate is compared with every later one (a few ms each at
/// 10,000).
const STEP_CANDIDATES: usize = 4;

/// What the page keeps across reloads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Saved {
    name: String,
    text: String,
    cutoff: String,
}

/// Names the runs of one input and cutoff (FNV-1a of both); chunk `i`'s run
/// is `{base}-{i}`. Hashed once per input, not once per chunk: 10,000
/// candidates are 2,500 chunks of a 1.5 MB text.
fn run_base(text: &str, cutoff: &str) -> String {
    format!(
        "pool-{:016x}",
        crate::services::run::content_hash(&format!("{cutoff}\n{text}"))
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Running,
    Pausing,
    Paused,
    Done,
}

/// A row's decision: its code (kept in `data-code` for programs), its
/// words for the decision column, and the figures behind it — all from the
/// core ([`Rejection::label`], [`Rejection::describe`]).
fn reason_of(item: &VerifyItem) -> (String, String, String) {
    match item {
        VerifyItem::Accepted { paper, score } => (
            "accepted".into(),
            "accepted".into(),
            format!(
                "title score {score}{} · {}{}",
                paper.year.map(|y| format!(" · {y}")).unwrap_or_default(),
                paper.title.clone().unwrap_or_default(),
                by(paper.extra.get("verified_by").and_then(|v| v.as_str()))
            ),
        ),
        VerifyItem::Rejected { rejection, via } => {
            match serde_json::from_value::<Rejection>(rejection.clone()) {
                Ok(r) => (
                    r.code().into(),
                    r.label().into(),
                    format!("{}{}", r.describe(), by(via.as_deref())),
                ),
                Err(_) => ("rejected".into(), "rejected".into(), rejection.to_string()),
            }
        }
        VerifyItem::Unverified { reason } => {
            ("unverified".into(), "not checked".into(), reason.clone())
        }
    }
}

/// " · decided on <index>'s record" when an index other than Semantic
/// Scholar made the decision.
fn by(index: Option<&str>) -> String {
    index
        .map(|i| format!(" · decided on {i}'s records (semantic scholar was unavailable)"))
        .unwrap_or_default()
}

/// Everything the Pool page reads and writes, and its runs in flight: one
/// value, cheap to copy into each sub-component and handler.
#[derive(Clone, Copy)]
struct PoolState {
    services: Option<Services>,
    /// The inputs, kept across reloads.
    saved: RwSignal<Saved>,
    /// Decided (and undecided) rows by candidate index.
    rows: RwSignal<BTreeMap<usize, VerifyItem>>,
    phase: RwSignal<Phase>,
    message: RwSignal<String>,
    /// The verification run in flight: a newer input, a new run or Cancel
    /// makes its results stale (they are dropped, never shown).
    verifying: StoredValue<Latest>,
    /// The pre-deduplicated candidates, computed a slice at a time so that
    /// 10,000 candidates never freeze the page; `None` while it runs.
    parsed: RwSignal<Option<Result<Arc<PreDedup>, String>>>,
    /// What the pre-dedup run is doing, while it runs.
    preparing: RwSignal<String>,
    preparing_run: StoredValue<Latest>,
    cutoff: Memo<Option<Date>>,
}

impl PoolState {
    fn new(services: Option<Services>) -> Self {
        let saved = RwSignal::new(Saved::default());
        PoolState {
            services,
            saved,
            rows: RwSignal::new(BTreeMap::new()),
            phase: RwSignal::new(Phase::Idle),
            message: RwSignal::new(String::new()),
            verifying: StoredValue::new(Latest::default()),
            parsed: RwSignal::new(None),
            preparing: RwSignal::new(String::new()),
            preparing_run: StoredValue::new(Latest::default()),
            cutoff: Memo::new(move |_| Date::parse_iso(saved.get().cutoff.trim()).ok()),
        }
    }

    /// Candidates left after pre-dedup (0 while it runs).
    fn n_kept(self) -> usize {
        self.parsed.with(|p| match p {
            Some(Ok(p)) => p.candidates.len(),
            _ => 0,
        })
    }

    fn kept(self) -> Vec<Candidate> {
        match self.parsed.get() {
            Some(Ok(p)) => p.candidates.clone(),
            _ => Vec::new(),
        }
    }

    fn decided(self) -> usize {
        self.rows
            .with(|r| r.values().filter(|x| x.decided()).count())
    }

    fn persist(self) {
        if let Some(s) = self.services {
            let value = self.saved.get_untracked();
            leptos::task::spawn_local(async move {
                let _ = s.workspace().put(PAGE_KEY, &value).await;
            });
        }
    }

    /// Rows already decided in the workspace for the current inputs.
    fn restore_rows(self) {
        let Some(s) = self.services else { return };
        let PoolState {
            rows,
            phase,
            message,
            ..
        } = self;
        let v = self.saved.get_untracked();
        let n = self.parsed.with_untracked(|p| {
            p.as_ref()
                .map_or(0, |p| p.as_ref().map_or(0, |p| p.candidates.len()))
        });
        let base = run_base(&v.text, &v.cutoff);
        leptos::task::spawn_local(async move {
            let mut found = BTreeMap::new();
            for chunk in 0..n.div_ceil(CHUNK) {
                let key = format!("{}{base}-{chunk}", keys::RUN_PREFIX);
                if let Ok(Some(state)) = s.workspace().get::<RunState<VerifyItem>>(&key).await {
                    for (i, item) in state.items {
                        found.insert(chunk * CHUNK + i, item);
                    }
                }
            }
            let decided = found.values().filter(|x| x.decided()).count();
            rows.set(found);
            if n > 0 && decided == n {
                phase.set(Phase::Done);
            } else if decided > 0 {
                phase.set(Phase::Paused);
                message.set(format!(
                    "{decided} of {n} candidates were verified before; press Resume to go on"
                ));
            }
        });
    }

    /// Parses and pre-deduplicates the current input, a slice at a time with
    /// progress; a newer input cancels an older run. The decided rows of the
    /// result come back from the workspace once it is known.
    fn prepare(self) {
        let PoolState {
            parsed, preparing, ..
        } = self;
        let cancel = self.preparing_run.with_value(Latest::restart);
        parsed.set(None);
        preparing.set(String::new());
        let Saved { name, text, .. } = self.saved.get_untracked();
        if text.is_empty() {
            return;
        }
        preparing.set(format!("reading {name}"));
        leptos::task::spawn_local(async move {
            yield_now().await;
            if cancel.is_cancelled() {
                return;
            }
            let list = match candidates::parse_candidates(&text) {
                Ok(list) => list,
                Err(e) => {
                    parsed.set(Some(Err(format!("{name}: {e}"))));
                    return;
                }
            };
            preparing.set(format!(
                "pre-dedup of {name}: exact keys of {} candidates",
                list.len()
            ));
            yield_now().await;
            if cancel.is_cancelled() {
                return;
            }
            let run = PreDedupRun::new(list, candidates::PRE_DEDUP_THRESHOLD);
            let progress = |run: &PreDedupRun| {
                let (at, total) = run.progress();
                preparing.set(format!(
                    "pre-dedup of {name}: {at} / {total} candidates compared"
                ))
            };
            let Some(result) = run_sliced(run, STEP_CANDIDATES, progress, &cancel).await else {
                return;
            };
            preparing.set(String::new());
            parsed.set(Some(Ok(Arc::new(result))));
            self.restore_rows();
        });
    }

    /// Inputs saved by an earlier visit come back, unless the user already
    /// gave the page some.
    fn restore_saved(self) {
        let Some(s) = self.services else { return };
        leptos::task::spawn_local(async move {
            if let Ok(Some(v)) = s.workspace().get::<Saved>(PAGE_KEY).await {
                if self.saved.get_untracked().text.is_empty() {
                    self.saved.set(v);
                    self.prepare();
                }
            }
        });
    }

    fn set_input(self, name: String, text: String, cut: Option<String>) {
        self.verifying.with_value(Latest::cancel);
        self.phase.set(Phase::Idle);
        self.message.set(String::new());
        self.rows.set(BTreeMap::new());
        self.saved.update(|s| {
            s.name = name;
            s.text = text;
            if let Some(c) = cut {
                s.cutoff = c;
            }
        });
        self.persist();
        self.prepare();
    }

    fn set_cutoff(self, value: String) {
        self.saved.update(|s| s.cutoff = value);
        self.persist();
        self.restore_rows();
    }

    /// Verifies the kept candidates chunk by chunk, resuming from the rows
    /// already decided.
    fn verify(self) {
        let Some(s) = self.services else { return };
        let PoolState {
            rows,
            phase,
            message,
            ..
        } = self;
        let Some(cut) = self.cutoff.get_untracked() else {
            message.set(
                "set the research cutoff first (a date: papers must be dated strictly before it)"
                    .into(),
            );
            return;
        };
        let list: Vec<Candidate> = self.kept();
        if list.is_empty() {
            return;
        }
        let cancel = self.verifying.with_value(Latest::restart);
        let run = self.saved.with_untracked(|v| run_base(&v.text, &v.cutoff));
        phase.set(Phase::Running);
        message.set(String::new());
        leptos::task::spawn_local(async move {
            let client = s.run_client();
            let ep = s.endpoints();
            let opts = VerifyOptions::new(cut);
            for (chunk, part) in list.chunks(CHUNK).enumerate() {
                if cancel.is_cancelled() {
                    return;
                }
                if phase.get_untracked() == Phase::Pausing {
                    phase.set(Phase::Paused);
                    return;
                }
                let base = chunk * CHUNK;
                let id = format!("{run}-{chunk}");
                let stop = || cancel.is_cancelled() || phase.get_untracked() == Phase::Pausing;
                let on_item = |i: usize, item: &VerifyItem| {
                    if !cancel.is_cancelled() {
                        rows.update(|r| {
                            r.insert(base + i, item.clone());
                        });
                    }
                };
                let result = run::verify_run(
                    &client,
                    &s.workspace(),
                    &ep,
                    &id,
                    part,
                    &opts,
                    on_item,
                    stop,
                )
                .await;
                match result {
                    Ok(state) => {
                        if !cancel.is_cancelled() {
                            rows.update(|r| {
                                for (i, item) in state.items {
                                    r.insert(base + i, item);
                                }
                            });
                        }
                    }
                    Err(e) => {
                        message.set(format!("verification stopped: {e}"));
                        phase.set(Phase::Paused);
                        return;
                    }
                }
                if phase.get_untracked() == Phase::Pausing {
                    phase.set(Phase::Paused);
                    return;
                }
                yield_now().await;
            }
            if !cancel.is_cancelled() {
                let r = rows.get_untracked();
                let open = r.values().filter(|x| !x.decided()).count();
                if open > 0 {
                    message.set(format!("{} could not be checked (the service failed or was unreachable; each row gives its error); press Resume to try them again", citegate_core::text::count(open, "candidate", "candidates")));
                    phase.set(Phase::Paused);
                } else {
                    phase.set(Phase::Done);
                }
            }
        });
    }

    fn pause(self) {
        if self.phase.get_untracked() == Phase::Running {
            self.phase.set(Phase::Pausing);
        }
    }

    fn cancel(self) {
        self.verifying.with_value(Latest::cancel);
        self.phase.set(Phase::Idle);
        self.message
            .set("cancelled; decided rows are kept and a new run resumes from them".into());
    }

    /// Accepted, rejected and unverified rows.
    fn counts(self) -> (usize, usize, usize) {
        self.rows.with(|r| {
            let count = |f: fn(&VerifyItem) -> bool| r.values().filter(|x| f(x)).count();
            (
                count(|x| matches!(x, VerifyItem::Accepted { .. })),
                count(|x| matches!(x, VerifyItem::Rejected { .. })),
                count(|x| matches!(x, VerifyItem::Unverified { .. })),
            )
        })
    }
}

/// The pool-building page.
#[component]
pub fn PoolPage() -> impl IntoView {
    let state = PoolState::new(use_context::<Services>());
    state.restore_saved();
    let input_error = Signal::derive(move || match state.parsed.get() {
        Some(Err(e)) => e,
        _ => String::new(),
    });
    let load_example = move |_| {
        state.set_input(
            "raw_candidates.json".into(),
            EXAMPLE_CANDIDATES.into(),
            Some(EXAMPLE_CUTOFF.into()),
        )
    };
    let on_file = move |files: Vec<LoadedFile>| {
        if let Some(f) = files.into_iter().next() {
            state.set_input(f.name, f.text, None);
        }
    };
    view! {
        <section class="pool">
            <h1>"Pool"</h1>
            <p class="muted">
                "Import the search step's raw_candidates.json, set the research cutoff, and verify every candidate against Semantic Scholar: "
                {format!("a paper enters the pool when its title scores above {} against the record, it has an abstract, and it is dated strictly before the cutoff.", title::DEFAULT_THRESHOLD)}
            </p>
            <div class="toolbar">
                <button type="button" id="load-example" on:click=load_example>"Load example"</button>
            </div>
            <FileDrop id="candidates-input" label="Drop raw_candidates.json" accept=".json" on_files=on_file />
            <Banner id="input-error" kind=BannerKind::Error text=input_error />
            <Discover on_found=move |(name, text): (String, String)| state.set_input(name, text, None) />
            <CutoffField state=state />
            <p class="muted" id="dedup-summary">{move || match state.parsed.get() {
                Some(Ok(p)) => format!("{}: {} candidates, {} after pre-dedup ({} merged)", state.saved.get().name, p.n_before_dedup, p.n_after_dedup, p.n_removed),
                _ => state.preparing.get(),
            }}</p>
            <RunControls state=state />
            <RowsTable state=state />
            <PoolOutput state=state />
        </section>
    }
}

/// The research cutoff, typed or chosen from the dates of pasted
/// conference guidelines ([`cutoff::detect`]).
#[component]
fn CutoffField(state: PoolState) -> impl IntoView {
    let (guidelines, set_guidelines) = signal(String::new());
    view! {
        <div class="form-grid">
            <label for="cutoff">"Research cutoff"</label>
            <input id="cutoff" type="date" prop:value=move || state.saved.get().cutoff
                on:change=move |ev| state.set_cutoff(event_target_value(&ev)) />
        </div>
        <details class="detect">
            <summary>"Detect the cutoff from the conference guidelines"</summary>
            <p class="muted">"Paste the call for papers: dates next to deadline words are listed, and the full-paper submission deadline is suggested. Nothing is set until you choose a date."</p>
            <textarea id="guidelines" aria-label="conference guidelines" placeholder="paste the guidelines here"
                on:input=move |ev| set_guidelines.set(event_target_value(&ev))></textarea>
            <ul id="deadlines">
                {move || cutoff::detect(&guidelines.get()).into_iter().map(|c| {
                    let date = c.date.to_string();
                    let chosen = date.clone();
                    let text = format!("line {}: {} ({}), “{}”", c.line, date, c.kind.label(), c.text);
                    view! { <li class:suggested=c.suggested>
                        <span>{text}</span>" "
                        <button type="button" class="secondary use-date" on:click=move |_| state.set_cutoff(chosen.clone())>
                            {if c.suggested { "Use this date (suggested)" } else { "Use this date" }}
                        </button>
                    </li> }
                }).collect_view()}
            </ul>
        </details>
    }
}

/// Verify / Resume, then the shared progress display (its Pause and Cancel
/// drive this run) and the counts.
#[component]
fn RunControls(state: PoolState) -> impl IntoView {
    let phase = state.phase;
    // The progress display's Pause toggles `paused`; the run follows it, and
    // it follows the run when the run changes on its own (Resume through
    // the Verify button, Cancel, the end).
    let paused = RwSignal::new(false);
    Effect::new(move |_| match (paused.get(), phase.get_untracked()) {
        (true, Phase::Running) => state.pause(),
        (false, Phase::Paused) => state.verify(),
        _ => {}
    });
    Effect::new(move |_| {
        let holding = matches!(phase.get(), Phase::Pausing | Phase::Paused);
        if paused.get_untracked() != holding {
            paused.set(holding);
        }
    });
    let running = Signal::derive(move || {
        matches!(phase.get(), Phase::Running | Phase::Pausing | Phase::Paused)
    });
    let counts = Signal::derive(move || (state.decided(), state.n_kept()));
    view! {
        <div class="toolbar">
            <button type="button" id="verify" disabled=move || state.services.is_none() || state.n_kept() == 0 || matches!(phase.get(), Phase::Running | Phase::Pausing | Phase::Done) on:click=move |_| state.verify()>
                {move || if phase.get() == Phase::Paused { "Resume" } else { "Verify" }}
            </button>
        </div>
        <Progress id="progress" label=Signal::derive(|| "Verifying candidates".to_string())
            counts=counts running=running paused=paused
            on_cancel=Callback::new(move |_| state.cancel()) />
        <div class="stats" id="stats">
            {move || { let (a, r, u) = state.counts(); format!("{} / {} checked · {a} accepted · {r} rejected · {u} unverified", a + r, state.n_kept()) }}
        </div>
        <Banner id="run-message" kind=BannerKind::Partial text=Signal::derive(move || state.message.get()) />
    }
}

/// One row per candidate decided so far. The table is keyed: a decision
/// adds or replaces its own row only, so 10,000 rows are not rebuilt each
/// time one is decided.
#[component]
fn RowsTable(state: PoolState) -> impl IntoView {
    let row_list = move || {
        state
            .rows
            .get()
            .into_iter()
            .map(|(i, item)| {
                let (code, decision, figures) = reason_of(&item);
                let class = match item {
                    VerifyItem::Accepted { .. } => "row-accepted",
                    VerifyItem::Rejected { .. } => "row-rejected",
                    _ => "",
                };
                (i, code, decision, figures, class)
            })
            .collect::<Vec<_>>()
    };
    let row_view = move |(i, code, decision, figures, class): (
        usize,
        String,
        String,
        String,
        &'static str,
    )| {
        let title = state
            .parsed
            .with_untracked(|p| match p {
                Some(Ok(p)) => p.candidates.get(i).map(|c| c.title.clone()),
                _ => None,
            })
            .unwrap_or_default();
        view! {
            <tr class=class data-index=i.to_string()>
                <td data-label="#">{(i + 1).to_string()}</td>
                <td class="cand-title" data-label="candidate">{title}</td>
                <td class="decision" data-code=code data-label="decision">{decision}</td>
                <td data-label="figures">{figures}</td>
            </tr>
        }
    };
    view! {
        <div class="table-wrap">
            <table id="rows" class="cards">
                <thead><tr><th>"#"</th><th>"candidate"</th><th>"decision"</th><th>"figures"</th></tr></thead>
                <tbody>
                    <For each=row_list key=|(i, code, _, figures, _)| (*i, code.clone(), figures.clone()) children=row_view />
                </tbody>
            </table>
        </div>
    }
}

/// The finished pool: accepted papers in candidate order, deduplicated and
/// keyed, with its BibTeX and writing prompt. It is the workspace's pool:
/// Coverage and Cross-check start from it, across reloads.
#[component]
fn PoolOutput(state: PoolState) -> impl IntoView {
    let built = Memo::new(move |_| {
        if state.phase.get() != Phase::Done {
            return None;
        }
        let papers: Vec<PoolPaper> = state
            .rows
            .get()
            .into_values()
            .filter_map(|x| match x {
                VerifyItem::Accepted { paper, .. } => Some(*paper),
                _ => None,
            })
            .collect();
        let cut = state.cutoff.get()?;
        let mut d = pool::dedupe(papers, Some(cut.to_string()));
        let bib = write::write_bib(&mut d.pool);
        let prompt_text = prompt::fill(
            prompt::DEFAULT_TEMPLATE,
            &prompt::PromptValues::from_pool(&d.pool, cut),
        )
        .unwrap_or_default();
        Some((
            pool::to_json(&d.pool),
            bib.text,
            prompt_text,
            d.pool.papers.len(),
            d.collisions.len(),
        ))
    });
    Effect::new(move |_| {
        let Some((json, ..)) = built.get() else {
            return;
        };
        let (Some(s), Ok(p)) = (state.services, pool::parse_pool(&json)) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let _ = s.workspace().put(keys::POOL, &p).await;
        });
    });
    view! {
        <h2>"The pool"</h2>
        <p id="pool-summary" class="muted">{move || match built.get() {
            Some((_, _, _, n, c)) => format!("{} after dedup ({c} merged); the draft must cite at least {}", citegate_core::text::count(n, "paper", "papers"), pool::min_cite_count(n)),
            None => "verify every candidate to build the pool".into(),
        }}</p>
        <div class="toolbar">
            <DownloadButton id="download-pool" label="Download citation_pool.json" filename="citation_pool.json".to_string() mime="application/json" content=Signal::derive(move || built.get().map(|b| b.0).unwrap_or_default()) />
            <DownloadButton id="download-bib" label="Download refs.bib" filename="refs.bib".to_string() content=Signal::derive(move || built.get().map(|b| b.1).unwrap_or_default()) />
            <CopyButton id="copy-prompt" label="Copy the writing prompt" text=Signal::derive(move || built.get().map(|b| b.2).unwrap_or_default()) />
        </div>
    }
}
