//! "Cross-check": the pool against Crossref and OpenAlex, in tiers.
//!
//! The core's step machine ([`crossindex::CrossRun`]) plans every request
//! and decides every answer; [`run::cross_check_drive`] sends its requests
//! and checkpoints its answers after each one, so a reload resumes. Rows
//! appear as their papers complete, with a progress line and a Cancel; the
//! tiers are explained on the page in the core's words
//! ([`Confidence::describe`]). An index that could not be reached is listed
//! as unavailable in the report and on the page — its silence is never read
//! as "not found".

use crate::components::{Banner, BannerKind, DownloadButton, FileDrop, LoadedFile, Progress};
use crate::services::run;
use crate::services::sliced::Latest;
use crate::services::store::keys;
use crate::services::Services;
use citegate_core::crossindex::{self, Confidence, CrossRun, StoredAnswer, Verdict};
use citegate_core::pool::{self, Pool};
use citegate_core::text::count;
use citegate_core::works::Service;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

const EXAMPLE_POOL: &str = include_str!("../../examples/citation_pool.json");

/// What the page keeps across reloads: the pool it was given.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Saved {
    name: String,
    text: String,
}

const PAGE_KEY: &str = "page:crosscheck";

/// The checkpointed run of `text` against `wanted` (FNV-1a of the pool): the
/// same pool and indices resume the same run, after a reload too.
fn run_name(text: &str, wanted: &[Service]) -> String {
    let names: Vec<&str> = wanted.iter().map(|s| s.name()).collect();
    format!(
        "crosscheck-{:016x}-{}",
        crate::services::run::content_hash(text),
        names.join("+")
    )
}

fn tier_name(c: Confidence) -> &'static str {
    c.name()
}

fn tier_class(c: Confidence) -> &'static str {
    match c {
        Confidence::High => "badge pass",
        Confidence::Medium => "badge warn",
        Confidence::Low | Confidence::Conflict => "badge fail",
    }
}

/// The errors of the indices that could not answer for paper `i`.
fn errors_of(run: &CrossRun, i: usize) -> String {
    run.answers()
        .get(&i)
        .into_iter()
        .flatten()
        .filter_map(|(s, a)| match a {
            StoredAnswer::Unavailable { error } if !error.is_empty() => {
                Some(format!("{}: {error}", s.name()))
            }
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn key_of(paper: &citegate_core::pool::PoolPaper) -> String {
    paper
        .bibtex_key
        .clone()
        .or_else(|| paper.key.clone())
        .unwrap_or_default()
}

/// The rows of the papers complete so far (every paper when `all`), in pool order.
fn rows_of(run: &CrossRun, papers: &[citegate_core::pool::PoolPaper], all: bool) -> Vec<Row> {
    let (report, verdicts) = run.report();
    papers
        .iter()
        .zip(verdicts)
        .enumerate()
        .filter(|(i, _)| all || run.complete(*i))
        .map(|(i, (paper, verdict))| Row {
            errors: errors_of(run, i),
            evidence: verdict.evidence_line(&report.indices_unavailable),
            key: key_of(paper),
            title: paper.title.clone().unwrap_or_default(),
            verdict,
        })
        .collect()
}

#[derive(Clone)]
struct Row {
    key: String,
    evidence: String,
    /// The errors of the indices that could not answer for this paper.
    errors: String,
    title: String,
    verdict: Verdict,
}

/// Everything the Cross-check page reads and writes, and its run in flight:
/// one value, cheap to copy into each sub-component and handler.
#[derive(Clone, Copy)]
struct CrossState {
    services: Option<Services>,
    pool_text: RwSignal<String>,
    /// Where the pool came from (a file name, the example, the workspace).
    source: RwSignal<String>,
    use_crossref: RwSignal<bool>,
    use_openalex: RwSignal<bool>,
    busy: RwSignal<bool>,
    /// Paused by the progress display: the run stopped at its checkpoint and
    /// resumes from it.
    paused: RwSignal<bool>,
    /// A run found stopped part way after a reload: papers complete of all.
    stopped: RwSignal<Option<(usize, usize)>>,
    banner: RwSignal<String>,
    kind: RwSignal<BannerKind>,
    rows: RwSignal<Vec<Row>>,
    /// The tier shown, or "all".
    filter: RwSignal<String>,
    report_json: RwSignal<String>,
    annotated: RwSignal<String>,
    unavailable: RwSignal<String>,
    /// Papers complete of all.
    counts: RwSignal<(usize, usize)>,
    sent: RwSignal<usize>,
    /// The run in flight: Cancel and each new run cancel it; it stops at its
    /// next answer and its result is dropped.
    checking: StoredValue<Latest>,
}

impl CrossState {
    fn new(services: Option<Services>) -> Self {
        CrossState {
            services,
            pool_text: RwSignal::new(String::new()),
            source: RwSignal::new(String::new()),
            use_crossref: RwSignal::new(true),
            use_openalex: RwSignal::new(true),
            busy: RwSignal::new(false),
            paused: RwSignal::new(false),
            stopped: RwSignal::new(None),
            banner: RwSignal::new(String::new()),
            kind: RwSignal::new(BannerKind::Info),
            rows: RwSignal::new(Vec::<Row>::new()),
            filter: RwSignal::new("all".to_string()),
            report_json: RwSignal::new(String::new()),
            annotated: RwSignal::new(String::new()),
            unavailable: RwSignal::new(String::new()),
            counts: RwSignal::new((0usize, 0usize)),
            sent: RwSignal::new(0usize),
            checking: StoredValue::new(Latest::default()),
        }
    }

    /// The pool this page was last given, else the one the Pool page built;
    /// and the last run of it: a finished one shown as it ended (rows,
    /// summary, downloads), one stopped part way (by a reload, say) with its
    /// complete rows and Resume.
    fn restore(self) {
        let Some(s) = self.services else { return };
        let CrossState {
            pool_text,
            source,
            banner,
            kind,
            ..
        } = self;
        leptos::task::spawn_local(async move {
            let ws = s.workspace();
            let (name, text) = match ws.get::<Saved>(PAGE_KEY).await {
                Ok(Some(v)) if !v.text.is_empty() => (v.name, v.text),
                _ => match ws.get::<Pool>(keys::POOL).await {
                    Ok(Some(p)) => ("the pool in this workspace".to_string(), pool::to_json(&p)),
                    _ => return,
                },
            };
            if !pool_text.get_untracked().is_empty() {
                return;
            }
            let wanted = vec![Service::Crossref, Service::OpenAlex];
            let key = format!("{}{}", keys::RUN_PREFIX, run_name(&text, &wanted));
            pool_text.set(text.clone());
            source.set(name);
            let Ok(Some(state)) = ws.get::<run::RunState<run::CrossItem>>(&key).await else {
                return;
            };
            let Ok(pool) = pool::parse_pool(&text) else {
                return;
            };
            // A run started meanwhile, or another pool, has the page now.
            if self.busy.get_untracked() || pool_text.get_untracked() != text {
                return;
            }
            let cfg = crossindex::Config::default();
            let run = CrossRun::new(
                pool.papers.clone(),
                wanted.clone(),
                s.endpoints(),
                cfg,
                state.items.clone(),
            );
            if state.finished {
                let report = run.report().0;
                self.counts.set(run.progress());
                self.finish(s, pool, wanted, cfg, state.items, report);
                return;
            }
            let (done, total) = run.progress();
            self.rows.set(rows_of(&run, &pool.papers, false));
            self.counts.set((done, total));
            self.stopped.set(Some((done, total)));
            kind.set(BannerKind::Partial);
            banner.set(format!(
                "an earlier cross-check of this pool did not finish (answers stored for {} of {} papers); Resume finishes it: stored answers are not asked for again",
                state.items.len(),
                state.total
            ));
        });
    }

    fn persist(self, name: String, text: String) {
        if let Some(s) = self.services {
            leptos::task::spawn_local(async move {
                let _ = s.workspace().put(PAGE_KEY, &Saved { name, text }).await;
            });
        }
    }

    /// Takes a pool to check, clearing the results of the last one.
    fn take(self, name: String, text: String) {
        match pool::parse_pool(&text) {
            Ok(p) => {
                self.kind.set(BannerKind::Info);
                self.banner.set(format!(
                    "{name}: {}",
                    count(p.papers.len(), "paper", "papers")
                ));
                self.persist(name.clone(), text.clone());
                self.pool_text.set(text);
                self.source.set(name);
            }
            Err(e) => {
                self.kind.set(BannerKind::Error);
                self.banner.set(format!("{name}: {e}"));
            }
        }
        self.rows.set(Vec::new());
        self.stopped.set(None);
        self.report_json.set(String::new());
        self.annotated.set(String::new());
        self.unavailable.set(String::new());
    }

    /// The indices ticked.
    fn wanted(self) -> Vec<Service> {
        let mut wanted = Vec::new();
        if self.use_crossref.get_untracked() {
            wanted.push(Service::Crossref);
        }
        if self.use_openalex.get_untracked() {
            wanted.push(Service::OpenAlex);
        }
        wanted
    }

    /// Checks the pool against the indices ticked, resuming from the
    /// answers stored for it.
    fn run_check(self) {
        let CrossState {
            busy,
            banner,
            kind,
            rows,
            counts,
            sent,
            ..
        } = self;
        let Some(s) = self.services else {
            kind.set(BannerKind::Error);
            banner.set("browser storage is unavailable; the cross-check cannot run".into());
            return;
        };
        let text = self.pool_text.get_untracked();
        let pool = match pool::parse_pool(&text) {
            Ok(p) => p,
            Err(e) => {
                kind.set(BannerKind::Error);
                banner.set(format!("no pool to check: {e}"));
                return;
            }
        };
        let wanted = self.wanted();
        if wanted.is_empty() {
            kind.set(BannerKind::Error);
            banner.set("tick at least one index".into());
            return;
        }
        busy.set(true);
        self.stopped.set(None);
        counts.set((0, pool.papers.len()));
        sent.set(0);
        kind.set(BannerKind::Info);
        banner.set(format!(
            "checking {}…",
            count(pool.papers.len(), "paper", "papers")
        ));
        rows.set(Vec::new());
        let token = self.checking.with_value(Latest::restart);
        leptos::task::spawn_local(async move {
            let id = run_name(&text, &wanted);
            let cfg = crossindex::Config::default();
            let client = s.run_client();
            let papers = pool.papers.clone();
            let on_answer = |run: &CrossRun, changed: &[usize]| {
                if token.is_cancelled() {
                    return;
                }
                counts.set(run.progress());
                sent.set(run.requests_sent());
                if changed.is_empty() && !rows.with_untracked(Vec::is_empty) {
                    return;
                }
                rows.set(rows_of(run, &papers, false));
            };
            let result = run::cross_check_drive(
                &client,
                &s.workspace(),
                &s.endpoints(),
                &id,
                &pool.papers,
                &wanted,
                &cfg,
                on_answer,
                || token.is_cancelled(),
            )
            .await;
            if token.is_cancelled() {
                // Cancelled: the rows so far stay, the checkpoint is kept.
                return;
            }
            busy.set(false);
            match result {
                Ok((state, report)) => {
                    self.finish(s, pool, wanted, cfg, state.items, report);
                }
                Err(e) => {
                    kind.set(BannerKind::Error);
                    banner.set(format!("the cross-check stopped: {e}"));
                }
            }
        });
    }

    /// Shows a finished run: every paper's row, the summary, the report and
    /// the annotated pool to download.
    fn finish(
        self,
        s: Services,
        mut pool: Pool,
        wanted: Vec<Service>,
        cfg: crossindex::Config,
        items: std::collections::BTreeMap<usize, run::CrossItem>,
        report: crossindex::Report,
    ) {
        let CrossState {
            banner,
            kind,
            unavailable,
            ..
        } = self;
        let run = CrossRun::new(pool.papers.clone(), wanted, s.endpoints(), cfg, items);
        let (_, verdicts) = run.report();
        for (paper, verdict) in pool.papers.iter_mut().zip(&verdicts) {
            paper.cross_verification = serde_json::to_value(verdict).ok();
        }
        // The run is over: every paper gets its row (an index that was out
        // is named unavailable in it).
        self.rows.set(rows_of(&run, &pool.papers, true));
        let sm = &report.summary;
        let counts = format!(
            "{}: {} high · {} medium · {} low · {} conflict",
            count(report.total_papers, "paper", "papers"),
            sm.high,
            sm.medium,
            sm.low,
            sm.conflict
        );
        if report.indices_unavailable.is_empty() {
            unavailable.set(String::new());
            kind.set(if report.flagged.is_empty() {
                BannerKind::Ok
            } else {
                BannerKind::Partial
            });
            banner.set(counts);
        } else {
            unavailable.set(format!(
                "unavailable: {} — its silence is not counted against any paper",
                report.indices_unavailable.join(", ")
            ));
            kind.set(BannerKind::Partial);
            banner.set(format!(
                "{counts} (checked: {}; unavailable: {})",
                report.indices_checked.join(", "),
                report.indices_unavailable.join(", ")
            ));
        }
        self.report_json
            .set(serde_json::to_string_pretty(&report).unwrap_or_default() + "\n");
        self.annotated.set(pool::to_json(&pool));
    }

    fn cancel(self) {
        self.checking.with_value(Latest::cancel);
        self.busy.set(false);
        self.paused.set(false);
        self.kind.set(BannerKind::Partial);
        self.banner
            .set("cancelled; the answers so far are kept and Cross-check resumes from them".into());
    }
}

/// The cross-check page.
#[component]
pub fn CrossCheckPage() -> impl IntoView {
    let state = CrossState::new(use_context::<Services>());
    state.restore();
    let on_files = move |files: Vec<LoadedFile>| {
        if let Some(f) = files.into_iter().next() {
            state.take(f.name, f.text);
        }
    };
    view! {
        <section>
            <h1>"Cross-check"</h1>
            <p class="muted">
                "Each pool paper is looked up in Crossref and OpenAlex (by DOI, else by title) and put in a tier. What the tiers mean:"
            </p>
            <ul id="tier-legend" class="muted">
                {Confidence::ALL.into_iter().map(|t| view! { <li data-tier=tier_name(t)>{t.describe()}</li> }).collect_view()}
            </ul>
            <div class="toolbar">
                <FileDrop id="pool-input" label="Drop citation_pool.json here" accept=".json" on_files=on_files/>
                <button type="button" class="secondary" id="load-example" on:click=move |_| state.take("citation_pool.json (example)".into(), EXAMPLE_POOL.to_string())>
                    "Load example"
                </button>
            </div>
            <p id="pool-source" class="muted">{move || state.source.with(|s| if s.is_empty() { "no pool loaded".to_string() } else { format!("pool: {s}") })}</p>
            <RunControls state=state />
            <TierTable state=state />
        </section>
    }
}

/// The indices to ask, Cross-check, the downloads, the status and the
/// shared progress display (its Cancel stops the run).
#[component]
fn RunControls(state: CrossState) -> impl IntoView {
    let CrossState {
        pool_text,
        use_crossref,
        use_openalex,
        busy,
        banner,
        kind,
        report_json,
        annotated,
        unavailable,
        counts,
        sent,
        ..
    } = state;
    // Pause stops the run at its checkpoint (every answer is stored as it
    // comes); Resume runs it again from there, asking only what is missing.
    Effect::new(move |before: Option<bool>| {
        let now = state.paused.get();
        if before.is_some_and(|b| b != now) && busy.get_untracked() {
            if now {
                state.checking.with_value(Latest::cancel);
            } else {
                state.run_check();
            }
        }
        now
    });
    view! {
        <div class="toolbar">
            <label class="check"><input type="checkbox" id="use-crossref" prop:checked=move || use_crossref.get() on:change=move |ev| use_crossref.set(event_target_checked(&ev))/>"Crossref"</label>
            <label class="check"><input type="checkbox" id="use-openalex" prop:checked=move || use_openalex.get() on:change=move |ev| use_openalex.set(event_target_checked(&ev))/>"OpenAlex"</label>
            <button type="button" id="run-crosscheck" on:click=move |_| state.run_check() disabled=move || busy.get() || pool_text.with(|t| t.is_empty())>
                {move || if busy.get() { "checking…" } else { "Cross-check" }}
            </button>
            <DownloadButton id="download-report" label="Download report" filename=Signal::derive(|| "cross_verification_report.json".to_string()) mime="application/json" content=Signal::derive(move || report_json.get())/>
            <DownloadButton id="download-annotated" label="Download annotated pool" filename=Signal::derive(|| "citation_pool.json".to_string()) mime="application/json" content=Signal::derive(move || annotated.get())/>
        </div>
        <Banner id="crosscheck-status" kind=kind text=banner/>
        <Show when=move || state.stopped.with(Option::is_some)>
            <div class="banner partial" id="crosscheck-stopped" role="status">
                <span id="crosscheck-stopped-text">{move || state.stopped.get().map(|(done, total)| format!("stopped at {done} of {total} — ")).unwrap_or_default()}</span>
                <button type="button" id="crosscheck-resume" on:click=move |_| state.run_check()>"Resume"</button>
            </div>
        </Show>
        <Progress id="crosscheck-progress" label=Signal::derive(|| "Cross-checking papers".to_string())
            counts=counts running=busy paused=state.paused on_cancel=Callback::new(move |_: ()| state.cancel())
            detail=Signal::derive(move || format!("{} requests sent", sent.get())) />
        <p id="unavailable" class="warn-text">{move || unavailable.get()}</p>
    }
}

/// The tier filter and one row per paper complete so far.
#[component]
fn TierTable(state: CrossState) -> impl IntoView {
    let CrossState { rows, filter, .. } = state;
    view! {
        <label for="tier-filter">"Show "</label>
        <select id="tier-filter" on:change=move |ev| filter.set(event_target_value(&ev))>
            <option value="all">"all tiers"</option>
            <option value="high">"high"</option>
            <option value="medium">"medium"</option>
            <option value="low">"low"</option>
            <option value="conflict">"conflict"</option>
        </select>
        <div class="table-wrap">
            <table id="tiers" class="cards">
                <thead><tr><th>"key"</th><th>"title"</th><th>"tier"</th><th>"found in"</th><th>"evidence"</th><th>"notes"</th><th>"service errors"</th></tr></thead>
                <tbody>
                    {move || {
                        let f = filter.get();
                        rows.get()
                            .into_iter()
                            .filter(|r| f == "all" || tier_name(r.verdict.confidence) == f)
                            .map(|r| {
                                let tier = r.verdict.confidence;
                                view! {
                                    <tr data-key=r.key.clone() data-tier=tier_name(tier)>
                                        <td data-label="key">{r.key.clone()}</td>
                                        <td data-label="title">{r.title.clone()}</td>
                                        <td data-label="tier"><span class=tier_class(tier)>{tier_name(tier)}</span></td>
                                        <td data-label="found in">{r.verdict.indices_found.join(", ")}</td>
                                        <td class="evidence" data-label="evidence">{r.evidence.clone()}</td>
                                        <td data-label="notes">{r.verdict.notes.join(" ")}</td>
                                        <td class="errors" data-label="service errors">{r.errors.clone()}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
        </div>
    }
}
