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
use crate::components::{Banner, BannerKind, DownloadButton, FileDrop, LoadedFile};
use crate::services::sliced::Latest;
use crate::services::Services;
use citegate_core::candidates::{self, DiscoveryCounts, DiscoveryOutcome, Query};
use citegate_core::search;
use citegate_core::works::request;
use citegate_core::works::{Service, Work};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

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

/// The outline drop, backend choice and "Discover candidates" button.
/// `on_found` gets `(name, raw_candidates.json text)` when a run ends with
/// at least one candidate.
#[component]
pub fn Discover(#[prop(into)] on_found: Callback<(String, String)>) -> impl IntoView {
    let services = use_context::<Services>();
    let outline = RwSignal::new((String::new(), String::new()));
    let backend = RwSignal::new("s2".to_string());
    let limit = RwSignal::new("10".to_string());
    let busy = RwSignal::new(false);
    let done = RwSignal::new(0usize);
    let hits = RwSignal::new(0usize);
    let found = RwSignal::new(Vec::<(String, Vec<Work>)>::new());
    let failures = RwSignal::new(Vec::<String>::new());
    let summary = RwSignal::new(String::new());
    let summary_kind = RwSignal::new(BannerKind::Info);
    // A new outline or a new run cancels an older run: its answers are stale.
    let searching = StoredValue::new(Latest::default());
    // "Stop" ends a run after the query in flight, keeping what it found.
    let stop = StoredValue::new(false);

    let persist = move || {
        if let Some(s) = services {
            let (name, text) = outline.get_untracked();
            let value = Saved {
                name,
                text,
                backend: backend.get_untracked(),
                limit: limit.get_untracked(),
            };
            leptos::task::spawn_local(async move {
                let _ = s.workspace().put(PAGE_KEY, &value).await;
            });
        }
    };
    if let Some(s) = services {
        leptos::task::spawn_local(async move {
            if let Ok(Some(v)) = s.workspace().get::<Saved>(PAGE_KEY).await {
                if outline.get_untracked().1.is_empty() {
                    outline.set((v.name, v.text));
                    if !v.backend.is_empty() {
                        backend.set(v.backend);
                    }
                    if !v.limit.is_empty() {
                        limit.set(v.limit);
                    }
                }
            }
        });
    }

    let queries = Memo::new(move |_| {
        let (name, text) = outline.get();
        if text.is_empty() {
            return None;
        }
        Some(candidates::outline_queries(&text).map_err(|e| format!("{name}: {e}")))
    });
    let query_list = move || match queries.get() {
        Some(Ok(q)) => q,
        _ => Vec::new(),
    };
    let outline_error = Signal::derive(move || {
        match queries.get() {
        Some(Err(e)) => e,
        Some(Ok(q)) if q.is_empty() => format!(
            "{}: the outline has no search queries (introduction_strategy.search_directions, related_work_strategy.subsections[i].sota_investigation_mission or limitation_search_queries)",
            outline.get().0
        ),
        _ => String::new(),
    }
    });
    let discovered = Memo::new(move |_| {
        found.with(|f| candidates::from_works(f.iter().map(|(t, w)| (t.as_str(), w.as_slice()))))
    });
    let discovered_json = Signal::derive(move || {
        let c = discovered.get();
        if c.is_empty() {
            String::new()
        } else {
            candidates::to_json(&c)
        }
    });

    let set_outline = move |name: String, text: String| {
        searching.with_value(Latest::cancel);
        busy.set(false);
        outline.set((name, text));
        found.set(Vec::new());
        failures.set(Vec::new());
        summary.set(String::new());
        done.set(0);
        hits.set(0);
        persist();
    };
    let on_file = move |files: Vec<LoadedFile>| {
        if let Some(f) = files.into_iter().next() {
            set_outline(f.name, f.text);
        }
    };

    let run = move |_| {
        let Some(s) = services else {
            summary_kind.set(BannerKind::Error);
            summary.set("browser storage is unavailable; searches cannot run".into());
            return;
        };
        let list: Vec<Query> = query_list();
        if list.is_empty() {
            return;
        }
        let chosen = services_of(&backend.get_untracked());
        let lim = limit
            .get_untracked()
            .trim()
            .parse::<usize>()
            .unwrap_or(10)
            .clamp(1, 100);
        let cancel = searching.with_value(Latest::restart);
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
                // The limit is per backend: the fused list keeps every paper
                // any backend returned (cutting it would drop a backend's
                // papers whenever the indexes share no id for them).
                let works: Vec<Work> = match lists.as_slice() {
                    [(_, only)] => only.iter().take(lim).cloned().collect(),
                    _ => {
                        let refs: Vec<(Service, &[Work])> =
                            lists.iter().map(|(s, w)| (*s, w.as_slice())).collect();
                        search::fuse(&refs, &HashSet::new())
                            .into_iter()
                            .map(|f| f.work)
                            .collect()
                    }
                };
                hits.update(|h| *h += works.len());
                found.update(|f| f.push((q.discovered_for.clone(), works)));
                failures.update(|f| f.extend(errors));
                done.update(|d| *d += 1);
            }
            let n = discovered.get_untracked().len();
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
                on_found.run((name, discovered_json.get_untracked()));
            }
            busy.set(false);
        });
    };

    view! {
        <fieldset class="discover">
            <legend>"Or discover candidates from an outline.json"</legend>
            <p class="muted">
                "Each of the outline's search directions, SOTA missions and limitation queries is searched on the chosen backend; "
                "every result becomes a candidate tagged with the query's section (intro, related_work[2.1], …)."
            </p>
            <div class="toolbar">
                <button type="button" id="load-example-outline" class="secondary"
                    on:click=move |_| set_outline("outline.json".into(), EXAMPLE_OUTLINE.into())>"Load example outline"</button>
            </div>
            <FileDrop id="outline-input" label="Drop outline.json" accept=".json" on_files=on_file />
            <Banner id="outline-error" kind=BannerKind::Error text=outline_error />
            <p class="muted" id="outline-summary">{move || match queries.get() {
                Some(Ok(q)) if !q.is_empty() => format!("{}: {} queries", outline.get().0, q.len()),
                _ => String::new(),
            }}</p>
            <div class="form-grid">
                <label for="discover-backend">"Backend"</label>
                <select id="discover-backend" on:change=move |ev| { backend.set(event_target_value(&ev)); persist(); }>
                    {CHOICES.iter().map(|(value, label)| view! {
                        <option value=*value selected=move || backend.get() == *value>{*label}</option>
                    }).collect_view()}
                </select>
                <label for="discover-limit">"Results per query"</label>
                <input id="discover-limit" type="number" min="1" max="100" prop:value=move || limit.get()
                    on:input=move |ev| limit.set(event_target_value(&ev)) on:change=move |_| persist() />
            </div>
            <div class="toolbar">
                <button type="button" id="discover" disabled=move || busy.get() || query_list().is_empty() on:click=run>
                    {move || if busy.get() { "discovering…" } else { "Discover candidates" }}
                </button>
                <button type="button" id="discover-stop" class="secondary" disabled=move || !busy.get()
                    on:click=move |_| stop.set_value(true)>"Stop after this query"</button>
                <DownloadButton id="download-raw" label="Download raw_candidates.json" filename="raw_candidates.json".to_string()
                    mime="application/json" content=discovered_json />
            </div>
            <progress id="discover-progress" max=move || query_list().len().max(1).to_string() value=move || done.get().to_string()></progress>
            <div class="stats" id="discover-stats">
                {move || format!("{} / {} queries · {} results · {} candidates", done.get(), query_list().len(), hits.get(), discovered.get().len())}
            </div>
            <Banner id="discover-status" kind=summary_kind text=summary />
            <ul id="discover-failures">
                {move || failures.get().into_iter().map(|f| view! { <li class="error-text">{f}</li> }).collect_view()}
            </ul>
        </fieldset>
    }
}
