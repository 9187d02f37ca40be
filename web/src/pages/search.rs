//! "Search": one query over Semantic Scholar, OpenAlex and Crossref at once.
//!
//! The page is an executor for the core's plans. [`search::plan`] says which
//! ticked backends can run (ASTA needs a key and a relay the browser cannot
//! reach, so the page does not offer it); [`request::search`] builds
//! each request; the services' client sends them through the shared
//! throttle and cache; [`search::respond`] fuses the lists and decides the
//! status. An empty result is not taken at its word: the core's
//! [`ProbeMachine`] names the relaxed queries to try and the delay before
//! each, the page sends them, and the response carries its explanation. A
//! failed backend is a failure to state, never an empty list.

use crate::api::{Client, ClientError};
use crate::components::{Banner, BannerKind};
use crate::services::clock::sleep_ms;
use crate::services::store::keys;
use crate::services::Services;
use citegate_core::library::{self, Library};
use citegate_core::search::probe::Probe;
use citegate_core::search::{
    self, BackendRun, Credentials, Fused, Outcome, ProbeConfig, ProbeMachine, ProbeOutcome,
    SearchResponse, Selection, Status,
};
use citegate_core::works::request::{self, Endpoints, YearRange};
use citegate_core::works::{ApiError, Service};
use leptos::prelude::*;

/// The backends the browser can ask (ASTA, which Settings says the
/// browser cannot reach, is not offered).
const BACKENDS: [(Service, &str); 3] = [
    (Service::SemanticScholar, "Semantic Scholar"),
    (Service::OpenAlex, "OpenAlex"),
    (Service::Crossref, "Crossref"),
];

fn api_error(e: ClientError) -> ApiError {
    match e {
        ClientError::Api { error, .. } => error,
        other => ApiError::new(other.service(), 0, other.to_string()),
    }
}

/// Everything the Search page reads and writes: one value, cheap to copy
/// into each sub-component and handler.
#[derive(Clone, Copy)]
struct SearchState {
    services: Option<Services>,
    reach: Option<crate::components::Reach>,
    query: RwSignal<String>,
    limit: RwSignal<String>,
    years: RwSignal<String>,
    /// Whether each of [`BACKENDS`] is ticked, in its order.
    ticked: [RwSignal<bool>; BACKENDS.len()],
    busy: RwSignal<bool>,
    banner: RwSignal<String>,
    kind: RwSignal<BannerKind>,
    notes: RwSignal<Vec<String>>,
    probe_text: RwSignal<String>,
    results: RwSignal<Vec<Fused>>,
    /// What the last "add to library" did.
    added: RwSignal<String>,
}

impl SearchState {
    fn new() -> Self {
        SearchState {
            services: use_context::<Services>(),
            reach: use_context::<crate::components::Reach>(),
            query: RwSignal::new(String::new()),
            limit: RwSignal::new("20".to_string()),
            years: RwSignal::new(String::new()),
            ticked: BACKENDS.map(|_| RwSignal::new(true)),
            busy: RwSignal::new(false),
            banner: RwSignal::new(String::new()),
            kind: RwSignal::new(BannerKind::Info),
            notes: RwSignal::new(Vec::new()),
            probe_text: RwSignal::new(String::new()),
            results: RwSignal::new(Vec::new()),
            added: RwSignal::new(String::new()),
        }
    }

    fn fail(self, message: String) {
        self.kind.set(BannerKind::Error);
        self.banner.set(message);
    }

    /// Reads the form, plans the ticked backends and starts the search.
    fn run(self) {
        let Some(s) = self.services else {
            self.fail("browser storage is unavailable; searches cannot run".into());
            return;
        };
        let q = self.query.get_untracked();
        let lim = self
            .limit
            .get_untracked()
            .trim()
            .parse::<usize>()
            .unwrap_or(20)
            .max(1);
        let yr = self.years.get_untracked();
        let range = if yr.trim().is_empty() {
            None
        } else {
            match YearRange::parse(&yr) {
                Ok(r) => Some(r),
                Err(e) => {
                    self.fail(format!("year range: {e}"));
                    return;
                }
            }
        };
        let mut plan_run = Vec::new();
        let mut skipped = Vec::new();
        for ((service, _), on) in BACKENDS.iter().zip(&self.ticked) {
            if on.get_untracked() {
                let p = search::plan(Selection::One(*service), &Credentials::default());
                plan_run.extend(p.run);
                skipped.extend(p.skipped);
            }
        }
        self.busy.set(true);
        self.results.set(Vec::new());
        self.notes.set(Vec::new());
        self.probe_text.set(String::new());
        self.added.set(String::new());
        leptos::task::spawn_local(self.search(s, q, lim, range, plan_run, skipped));
    }

    /// Sends the planned searches and the probe, then shows the core's
    /// response.
    async fn search(
        self,
        s: Services,
        q: String,
        lim: usize,
        range: Option<YearRange>,
        plan_run: Vec<Service>,
        skipped: Vec<(Service, String)>,
    ) {
        let ep = s.endpoints();
        let client = s.run_client();
        let mut runs: Vec<BackendRun> = Vec::new();
        if search::preflight(&q).is_ok() {
            for service in plan_run {
                let outcome = match request::search(service, &ep, &q, lim, range) {
                    Err(e) => Outcome::Skipped(e.message),
                    Ok(req) => match client.page(&req).await {
                        Ok(page) => Outcome::Results(page.works),
                        Err(e) => Outcome::Failed(api_error(e)),
                    },
                };
                runs.push(BackendRun {
                    backend: service,
                    outcome,
                });
            }
        }
        // Nothing answered readably: the app's banner says so once.
        if let Some(r) = self.reach {
            if runs
                .iter()
                .any(|x| !matches!(x.outcome, Outcome::Skipped(_)))
            {
                r.unreachable.set(search::unreachable(&runs));
            }
        }
        for (service, why) in skipped {
            runs.push(BackendRun {
                backend: service,
                outcome: Outcome::Skipped(why),
            });
        }
        let Some(probe) = probe(&client, &ep, &q, range, &runs).await else {
            self.busy.set(false);
            return;
        };
        let lib_text: String = s
            .workspace()
            .get(keys::LIBRARY)
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        let in_lib = Library::parse(&lib_text).0.doi_keys();
        self.show(search::respond(&q, &runs, probe, &in_lib, Some(lim)));
    }

    fn show(self, resp: SearchResponse) {
        self.kind.set(match resp.status {
            Status::Ok => BannerKind::Ok,
            Status::Partial => BannerKind::Partial,
            Status::Error => BannerKind::Error,
        });
        self.banner.set(resp.summary.clone());
        self.notes.set(
            resp.notes
                .iter()
                .map(|n| format!("{}: {}", n.backend, n.note))
                .collect(),
        );
        self.probe_text
            .set(match (&resp.error, resp.results.as_ref().map(Vec::len)) {
                (Some(e), _) => e.message.clone(),
                (None, Some(0)) => format!(
                    "probe: {:?} ({} content terms, {} drops tried)",
                    resp.probe.state, resp.probe.content_terms, resp.probe.drops_tried
                )
                .to_lowercase(),
                _ => String::new(),
            });
        self.results.set(resp.results.unwrap_or_default());
        self.busy.set(false);
    }

    /// Adds one result to the library and marks it there.
    fn add(self, f: Fused) {
        let Some(s) = self.services else { return };
        leptos::task::spawn_local(async move {
            let ws = s.workspace();
            let text: String = ws
                .get(keys::LIBRARY)
                .await
                .ok()
                .flatten()
                .unwrap_or_default();
            let (mut lib, _) = Library::parse(&text);
            match lib.add(library::record_from_work(&f.work)) {
                Ok(id) => {
                    let _ = ws.put(keys::LIBRARY, &lib.to_jsonl()).await;
                    self.added.set(format!("added `{id}` to the library"));
                    self.results.update(|rs| {
                        for r in rs.iter_mut() {
                            if r.work.title == f.work.title && r.work.doi == f.work.doi {
                                r.in_library = true;
                            }
                        }
                    });
                }
                Err(e) => self.added.set(format!("duplicate: {}", e.message)),
            }
        });
    }
}

/// The zero-result probe: the core names each request and its delay; `None`
/// when the machine ends without a result.
async fn probe(
    client: &Client,
    ep: &Endpoints,
    q: &str,
    range: Option<YearRange>,
    runs: &[BackendRun],
) -> Option<Probe> {
    let mut machine = ProbeMachine::new(
        q,
        search::total_hits(runs),
        &search::answered(runs),
        ProbeConfig::default(),
    );
    while let Some(pr) = machine.next_request() {
        if pr.delay_ms > 0 {
            sleep_ms(pr.delay_ms as f64).await;
        }
        let outcome = match request::search(pr.backend, ep, &pr.query, 1, range) {
            Ok(req) => match client.page(&req).await {
                Ok(page) => ProbeOutcome::Hits(page.total.unwrap_or(page.works.len() as u64)),
                Err(_) => ProbeOutcome::Failed,
            },
            Err(_) => ProbeOutcome::Failed,
        };
        machine.consume(outcome);
    }
    machine.result().cloned()
}

/// The search page.
#[component]
pub fn SearchPage() -> impl IntoView {
    let state = SearchState::new();
    let SearchState {
        banner,
        kind,
        notes,
        probe_text,
        added,
        ..
    } = state;
    view! {
        <section>
            <h1>"Search"</h1>
            <SearchForm state=state />
            <Banner id="search-status" kind=kind text=banner/>
            <ul id="search-notes">{move || notes.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            <p id="probe" class="muted">{move || probe_text.get()}</p>
            <p id="added" class="muted">{move || added.get()}</p>
            <ResultsTable state=state />
        </section>
    }
}

/// The query, the backends to ask, the limit and the years.
#[component]
fn SearchForm(state: SearchState) -> impl IntoView {
    let SearchState {
        query,
        limit,
        years,
        ticked,
        busy,
        ..
    } = state;
    view! {
        <form class="form-grid" id="search-form" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); state.run(); }>
            <label for="query">"Query"</label>
            <input id="query" type="text" placeholder="linear attention transformers" prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev))/>
            <label>"Backends"</label>
            <span id="backends">
                {BACKENDS.iter().zip(ticked).map(|((service, label), on)| {
                    let id = format!("backend-{}", search::backend_name(*service));
                    view! {
                        <label class="check">
                            <input type="checkbox" id=id prop:checked=move || on.get() on:change=move |ev| on.set(event_target_checked(&ev))/>
                            {*label}
                        </label>
                    }
                }).collect_view()}
            </span>
            <label for="limit">"Limit"</label>
            <input id="limit" type="number" min="1" max="100" prop:value=move || limit.get() on:input=move |ev| limit.set(event_target_value(&ev))/>
            <label for="years">"Years (e.g. 2019-2023)"</label>
            <input id="years" type="text" prop:value=move || years.get() on:input=move |ev| years.set(event_target_value(&ev))/>
            <button type="submit" id="run-search" disabled=move || busy.get()>{move || if busy.get() { "searching…" } else { "Search" }}</button>
        </form>
    }
}

/// One row per fused result, each with its library state.
#[component]
fn ResultsTable(state: SearchState) -> impl IntoView {
    let results = state.results;
    view! {
        <div class="table-wrap">
            <table id="results" class="cards">
                <thead><tr><th>"#"</th><th>"title"</th><th>"year"</th><th>"sources"</th><th>"found by"</th><th>"library"</th></tr></thead>
                <tbody>
                    {move || results.get().into_iter().enumerate().map(|(i, f)| {
                        let in_lib = f.in_library;
                        let f2 = f.clone();
                        view! {
                            <tr class="result-row">
                                <td data-label="#">{i + 1}</td>
                                <td class="title" data-label="title">
                                    <span class="title-text">{f.work.title.clone()}</span>
                                    <span class="byline muted">{f.work.byline()}</span>
                                    <span class="record-links">
                                        {citegate_core::bibtex::report::record_links(&f.work).into_iter().map(|l| view! {
                                            <a href=l.url target="_blank" rel="noopener noreferrer">{l.source}</a>" "
                                        }).collect_view()}
                                    </span>
                                </td>
                                <td data-label="year">{f.work.year().map(|y| y.to_string()).unwrap_or_default()}</td>
                                <td class="sources" data-label="sources">{f.sources.iter().map(|s| view! { <span class="badge">{s.clone()}</span> " " }).collect_view()}</td>
                                <td class="found-by" data-label="found by">{f.found_by}</td>
                                <td class="in-library" data-label="library">
                                    {if in_lib {
                                        view! { <span class="badge pass">"in library"</span> }.into_any()
                                    } else {
                                        view! { <button type="button" class="secondary add" on:click=move |_| state.add(f2.clone())>"add to library"</button> }.into_any()
                                    }}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
