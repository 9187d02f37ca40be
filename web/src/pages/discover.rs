//! Discovering candidates from an `outline.json` (part of the Pool page).
//!
//! The core turns the outline into tagged queries
//! ([`candidates::outline_queries`]), builds each search request
//! ([`request::search`]), fuses several backends' lists ([`search::fuse`])
//! and maps the answers to candidates ([`candidates::from_works`]); this
//! component only sends the requests one query after the other and shows
//! how far it got. A query that fails is listed and the others go on: a
//! failed search is stated, never read as "nothing found". What comes out
//! is a `raw_candidates.json` text, handed to the Pool page exactly as if
//! the user had dropped that file.

use crate::api::ClientError;
use crate::components::{Banner, BannerKind, DownloadButton, FileDrop, LoadedFile, Progress};
use crate::services::sliced::Latest;
use crate::services::Services;
use citegate_core::candidates::{self, DiscoveryCounts, DiscoveryOutcome, Query};
use citegate_core::search;
use citegate_core::works::request;
use citegate_core::works::{Service, Work};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

const EXAMPLE_OUTLINE: &str = include_str!("../../examples/outline.json");
const PAGE_KEY: &str = "page:discover";

/// What the component keeps across reloads: the outline and the choices.
/// A run's answers are not kept; its candidates are handed to the Pool page,
/// which keeps them, and a rerun is answered from the response cache.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Saved {
    name: String,
    text: String,
    backend: String,
    limit: String,
}

/// The backends a discovery can use: one, or all three fused.
const CHOICES: [(&str, &str); 4] = [
    ("s2", "Semantic Scholar"),
    ("openalex", "OpenAlex"),
    ("crossref", "Crossref"),
    ("all", "all three, fused"),
];

fn services_of(choice: &str) -> Vec<Service> {
    match choice {
        "openalex" => vec![Service::OpenAlex],
        "crossref" => vec![Service::Crossref],
        "all" => vec![
            Service::SemanticScholar,
            Service::OpenAlex,
            Service::Crossref,
        ],
        _ => vec![Service::SemanticScholar],
    }
}

fn reason(e: ClientError) -> String {
    match e {
        ClientError::Api { error, .. } => error.to_string(),
        other => other.to_string(),
    }
}

/// Everything the Discover part reads and writes, and its run in flight:
/// one value, cheap to copy into each sub-component and handler.
#[derive(Clone, Copy)]
struct DiscoverState {
    services: Option<Services>,
    /// The outline's file name and text.
    outline: RwSignal<(String, String)>,
    backend: RwSignal<String>,
    limit: RwSignal<String>,
    busy: RwSignal<bool>,
    /// Queries answered so far.
    done: RwSignal<usize>,
    /// Search results so far.
    hits: RwSignal<usize>,
    /// Each query's tag and the works it found.
    found: RwSignal<Vec<(String, Vec<Work>)>>,
    failures: RwSignal<Vec<String>>,
    summary: RwSignal<String>,
    summary_kind: RwSignal<BannerKind>,
    /// A new outline or a new run cancels an older run: its answers are stale.
    searching: StoredValue<Latest>,
    /// "Stop" ends a run after the query in flight, keeping what it found.
    stop: StoredValue<bool>,
    queries: Memo<Option<Result<Vec<Query>, String>>>,
    discovered: Memo<Vec<candidates::Candidate>>,
}

impl DiscoverState {
    fn new(services: Option<Services>) -> Self {
        let outline = RwSignal::new((String::new(), String::new()));
        let found = RwSignal::new(Vec::<(String, Vec<Work>)>::new());
        DiscoverState {
            services,
            outline,
            backend: RwSignal::new("s2".to_string()),
            limit: RwSignal::new(search::PER_BACKEND_DEFAULT.to_string()),
            busy: RwSignal::new(false),
            done: RwSignal::new(0),
            hits: RwSignal::new(0),
            found,
            failures: RwSignal::new(Vec::new()),
            summary: RwSignal::new(String::new()),
            summary_kind: RwSignal::new(BannerKind::Info),
            searching: StoredValue::new(Latest::default()),
            stop: StoredValue::new(false),
            queries: Memo::new(move |_| {
                let (name, text) = outline.get();
                if text.is_empty() {
                    return None;
                }
                Some(candidates::outline_queries(&text).map_err(|e| format!("{name}: {e}")))
            }),
            discovered: Memo::new(move |_| {
                found.with(|f| {
                    candidates::from_works(f.iter().map(|(t, w)| (t.as_str(), w.as_slice())))
                })
            }),
        }
    }

    fn query_list(self) -> Vec<Query> {
        match self.queries.get() {
            Some(Ok(q)) => q,
            _ => Vec::new(),
        }
    }

    /// The discovered candidates as `raw_candidates.json` ("" when none).
    fn discovered_json(self) -> String {
        let c = self.discovered.get();
        if c.is_empty() {
            String::new()
        } else {
            candidates::to_json(&c)
        }
    }

    fn persist(self) {
        if let Some(s) = self.services {
            let (name, text) = self.outline.get_untracked();
            let value = Saved {
                name,
                text,
                backend: self.backend.get_untracked(),
                limit: self.limit.get_untracked(),
            };
            leptos::task::spawn_local(async move {
                let _ = s.workspace().put(PAGE_KEY, &value).await;
            });
        }
    }

    /// The outline and choices of an earlier visit come back, unless the
    /// user already gave an outline.
    fn restore_saved(self) {
        let Some(s) = self.services else { return };
        leptos::task::spawn_local(async move {
            if let Ok(Some(v)) = s.workspace().get::<Saved>(PAGE_KEY).await {
                if self.outline.get_untracked().1.is_empty() {
                    self.outline.set((v.name, v.text));
                    if !v.backend.is_empty() {
                        self.backend.set(v.backend);
                    }
                    if !v.limit.is_empty() {
                        self.limit.set(v.limit);
                    }
                }
            }
        });
    }

    fn set_outline(self, name: String, text: String) {
        self.searching.with_value(Latest::cancel);
        self.busy.set(false);
        self.outline.set((name, text));
        self.found.set(Vec::new());
        self.failures.set(Vec::new());
        self.summary.set(String::new());
        self.done.set(0);
        self.hits.set(0);
        self.persist();
    }

    /// Searches every query on the chosen backends, one query at a time;
    /// `on_found` gets the candidates when the run ends with some.
    fn run(self, on_found: Callback<(String, String)>) {
        let DiscoverState {
            busy,
            done,
            hits,
            found,
            failures,
            summary,
            summary_kind,
            stop,
            ..
        } = self;
        let Some(s) = self.services else {
            summary_kind.set(BannerKind::Error);
            summary.set("browser storage is unavailable; searches cannot run".into());
            return;
        };
        let list: Vec<Query> = self.query_list();
        if list.is_empty() {
            return;
        }
        let chosen = services_of(&self.backend.get_untracked());
        let lim = search::per_backend(&self.limit.get_untracked());
        let cancel = self.searching.with_value(Latest::restart);
        stop.set_value(false);
        busy.set(true);
        done.set(0);
        hits.set(0);
        found.set(Vec::new());
        failures.set(Vec::new());
        summary.set(String::new());
        leptos::task::spawn_local(async move {
            let ep = s.endpoints();
            let client = s.run_client();
            let mut failed_queries = 0usize;
            let mut asked = 0usize;
            for q in &list {
                if stop.get_value() {
                    break;
                }
                asked += 1;
                let mut lists: Vec<(Service, Vec<Work>)> = Vec::new();
                let mut errors = Vec::new();
                for service in &chosen {
                    let result = match request::search(*service, &ep, &q.query, lim, None) {
                        Err(e) => Err(e.message),
                        Ok(req) => client.page(&req).await.map_err(reason),
                    };
                    match result {
                        Ok(page) => lists.push((*service, page.works)),
                        Err(e) => errors.push(format!(
                            "{} failed for “{}” ({}): {e}",
                            search::backend_name(*service),
                            q.query,
                            q.discovered_for
                        )),
                    }
                }
                if cancel.is_cancelled() {
                    return;
                }
                if lists.is_empty() {
                    failed_queries += 1;
                }
                let works = search::query_results(&lists, lim);
                hits.update(|h| *h += works.len());
                found.update(|f| f.push((q.discovered_for.clone(), works)));
                failures.update(|f| f.extend(errors));
                done.update(|d| *d += 1);
            }
            let n = self.discovered.get_untracked().len();
            let total = list.len();
            let stopped = asked < total;
            let (outcome, text) = candidates::discovery_summary(DiscoveryCounts {
                candidates: n,
                queries: total,
                asked,
                failed_queries,
                failed_searches: failures.with_untracked(Vec::len),
            });
            summary_kind.set(match outcome {
                DiscoveryOutcome::Ok => BannerKind::Ok,
                DiscoveryOutcome::Partial => BannerKind::Partial,
                DiscoveryOutcome::Error => BannerKind::Error,
            });
            summary.set(text);
            if n > 0 {
                let name = if stopped {
                    format!("raw_candidates.json (discovered, stopped after {asked} of {total} queries)")
                } else {
                    "raw_candidates.json (discovered)".to_string()
                };
                on_found.run((name, untrack(move || self.discovered_json())));
            }
            busy.set(false);
        });
    }
}

/// The outline drop, backend choice and "Discover candidates" button.
/// `on_found` gets `(name, raw_candidates.json text)` when a run ends with
/// at least one candidate.
#[component]
pub fn Discover(#[prop(into)] on_found: Callback<(String, String)>) -> impl IntoView {
    let state = DiscoverState::new(use_context::<Services>());
    state.restore_saved();
    view! {
        <fieldset class="discover">
            <legend>"Or discover candidates from an outline.json"</legend>
            <p class="muted">
                "Each of the outline's search directions, SOTA missions and limitation queries is searched on the chosen backend; "
                "every result becomes a candidate tagged with the query's section (intro, related_work[2.1], …)."
            </p>
            <OutlineInput state=state />
            <DiscoverOptions state=state />
            <DiscoverRun state=state on_found=on_found />
        </fieldset>
    }
}

/// The outline: the example, a dropped file, its error or its query count.
#[component]
fn OutlineInput(state: DiscoverState) -> impl IntoView {
    let on_file = move |files: Vec<LoadedFile>| {
        if let Some(f) = files.into_iter().next() {
            state.set_outline(f.name, f.text);
        }
    };
    let outline_error = Signal::derive(move || {
        match state.queries.get() {
        Some(Err(e)) => e,
        Some(Ok(q)) if q.is_empty() => format!(
            "{}: the outline has no search queries (introduction_strategy.search_directions, related_work_strategy.subsections[i].sota_investigation_mission or limitation_search_queries)",
            state.outline.get().0
        ),
        _ => String::new(),
    }
    });
    view! {
        <div class="toolbar">
            <button type="button" id="load-example-outline" class="secondary"
                on:click=move |_| state.set_outline("outline.json".into(), EXAMPLE_OUTLINE.into())>"Load example outline"</button>
        </div>
        <FileDrop id="outline-input" label="Drop outline.json" accept=".json" on_files=on_file />
        <Banner id="outline-error" kind=BannerKind::Error text=outline_error />
        <p class="muted" id="outline-summary">{move || match state.queries.get() {
            Some(Ok(q)) if !q.is_empty() => format!("{}: {} queries", state.outline.get().0, q.len()),
            _ => String::new(),
        }}</p>
    }
}

/// The backend and the number of results per query, kept across reloads.
#[component]
fn DiscoverOptions(state: DiscoverState) -> impl IntoView {
    let DiscoverState { backend, limit, .. } = state;
    view! {
        <div class="form-grid">
            <label for="discover-backend">"Backend"</label>
            <select id="discover-backend" on:change=move |ev| { backend.set(event_target_value(&ev)); state.persist(); }>
                {CHOICES.iter().map(|(value, label)| view! {
                    <option value=*value selected=move || backend.get() == *value>{*label}</option>
                }).collect_view()}
            </select>
            <label for="discover-limit">"Results per query"</label>
            <input id="discover-limit" type="number" min="1" max="100" prop:value=move || limit.get()
                on:input=move |ev| limit.set(event_target_value(&ev)) on:change=move |_| state.persist() />
        </div>
    }
}

/// Discover, the download, the progress (its Cancel stops after the query in
/// flight) and the run's outcome.
#[component]
fn DiscoverRun(state: DiscoverState, on_found: Callback<(String, String)>) -> impl IntoView {
    let DiscoverState {
        busy,
        done,
        hits,
        failures,
        summary,
        summary_kind,
        stop,
        ..
    } = state;
    view! {
        <div class="toolbar">
            <button type="button" id="discover" disabled=move || busy.get() || state.query_list().is_empty() on:click=move |_| state.run(on_found)>
                {move || if busy.get() { "discovering…" } else { "Discover candidates" }}
            </button>
            <DownloadButton id="download-raw" label="Download raw_candidates.json" filename="raw_candidates.json".to_string()
                mime="application/json" content=Signal::derive(move || state.discovered_json()) />
        </div>
        <Progress id="discover-progress" label=Signal::derive(|| "Searching the outline's queries".to_string())
            counts=Signal::derive(move || (done.get(), state.query_list().len()))
            running=Signal::derive(move || busy.get())
            on_cancel=Callback::new(move |_| stop.set_value(true)) />
        <div class="stats" id="discover-stats">
            {move || format!("{} / {} queries · {} results · {} candidates", done.get(), state.query_list().len(), hits.get(), state.discovered.get().len())}
        </div>
        <Banner id="discover-status" kind=summary_kind text=summary />
        <ul id="discover-failures">
            {move || failures.get().into_iter().map(|f| view! { <li class="error-text">{f}</li> }).collect_view()}
        </ul>
    }
}
