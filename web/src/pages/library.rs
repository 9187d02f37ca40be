//! "Library": the `refs.jsonl` reference library, kept in the workspace.
//!
//! The page stores the library as its `refs.jsonl` text, not as parsed
//! records: the core's [`Library`] writes unchanged lines back byte for byte,
//! so a file imported, extended and exported loses none of the fields other
//! tools put there. Every change re-parses the stored text, applies the
//! core's operation ([`Library::add`] refuses a DOI already present,
//! [`Library::merge`] adds only what an import brings that is not there) and
//! stores the new text. An import or "Load example" merges and never
//! replaces; a file with no readable record leaves the library as it was;
//! the last import or clear can be undone. A lookup by id asks one service — Crossref for a
//! DOI, OpenAlex for a `W…` id, Semantic Scholar for the rest — and turns
//! the answer into a record with [`library::record_from_work`].

use crate::components::{Banner, BannerKind, DownloadButton, FileDrop, LoadedFile};
use crate::services::store::keys;
use crate::services::Services;
use citegate_core::library::{self, Library};
use citegate_core::works::request::{self, WorkId};
use citegate_core::works::Service;
use leptos::prelude::*;

const EXAMPLE_REFS: &str = include_str!("../../examples/refs.jsonl");

/// The service asked to look up `id`.
fn service_for(id: &WorkId) -> Service {
    match id {
        WorkId::Doi(_) => Service::Crossref,
        WorkId::OpenAlex(_) => Service::OpenAlex,
        WorkId::S2(_) | WorkId::Arxiv(_) => Service::SemanticScholar,
    }
}

fn rows_of(text: &str) -> Vec<Vec<String>> {
    let (lib, _) = Library::parse(text);
    lib.records()
        .map(|r| {
            let authors = r
                .authors
                .iter()
                .map(|a| a.last.clone())
                .collect::<Vec<_>>()
                .join(", ");
            vec![
                r.id.clone(),
                r.title.clone(),
                authors,
                r.published
                    .as_ref()
                    .and_then(|p| p.year)
                    .map(|y| y.to_string())
                    .unwrap_or_default(),
                r.doi.clone().unwrap_or_default(),
            ]
        })
        .collect()
}

/// The reference library page.
#[component]
pub fn LibraryPage() -> impl IntoView {
    let services = use_context::<Services>();
    let text = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let kind = RwSignal::new(BannerKind::Info);
    let problems = RwSignal::new(Vec::<String>::new());
    let lookup = RwSignal::new(String::new());
    let busy = RwSignal::new(false);

    if let Some(s) = services {
        leptos::task::spawn_local(async move {
            if let Ok(Some(saved)) = s.workspace().get::<String>(keys::LIBRARY).await {
                text.set(saved);
            }
        });
    }
    let persist = move |t: String| {
        text.set(t.clone());
        if let Some(s) = services {
            leptos::task::spawn_local(async move {
                if let Err(e) = s.workspace().put(keys::LIBRARY, &t).await {
                    kind.set(BannerKind::Error);
                    message.set(format!("the library could not be saved ({e})"));
                }
            });
        }
    };
    // The text before the last import or clear, so either can be undone.
    let undo = RwSignal::new(None::<String>);
    let import = move |name: String, body: String| {
        let (incoming, errors) = Library::parse(&body);
        problems.set(
            errors
                .iter()
                .map(|e| format!("{name}: {e}"))
                .collect::<Vec<_>>(),
        );
        if incoming.is_empty() {
            kind.set(BannerKind::Error);
            message.set(format!(
                "nothing imported: {name} has no readable record{}; the library is unchanged",
                if errors.is_empty() {
                    String::new()
                } else {
                    format!(" ({} unreadable lines)", errors.len())
                }
            ));
            return;
        }
        let before = text.get_untracked();
        let (mut lib, _) = Library::parse(&before);
        let report = lib.merge(&incoming);
        let mut parts = vec![format!("{} added from {name}", report.added.len())];
        if !report.duplicates.is_empty() {
            parts.push(format!(
                "{} already in the library",
                report.duplicates.len()
            ));
        }
        if !errors.is_empty() {
            parts.push(format!("{} unreadable lines skipped", errors.len()));
        }
        kind.set(if errors.is_empty() {
            BannerKind::Ok
        } else {
            BannerKind::Partial
        });
        message.set(parts.join(", "));
        if !report.added.is_empty() {
            undo.set(Some(before));
            persist(lib.to_jsonl());
        }
    };
    let clear = move || {
        let before = text.get_untracked();
        if before.is_empty() {
            return;
        }
        problems.set(Vec::new());
        kind.set(BannerKind::Info);
        message.set("library cleared; Undo brings it back".into());
        undo.set(Some(before));
        persist(String::new());
    };
    let undo_last = move || {
        if let Some(before) = undo.get_untracked() {
            undo.set(None);
            problems.set(Vec::new());
            kind.set(BannerKind::Info);
            message.set("undone: the library is as it was".into());
            persist(before);
        }
    };
    let on_files = move |files: Vec<LoadedFile>| {
        if let Some(f) = files.into_iter().next() {
            import(f.name, f.text);
        }
    };
    let add = move || {
        let Some(s) = services else {
            kind.set(BannerKind::Error);
            message.set("browser storage is unavailable; lookups cannot run".into());
            return;
        };
        let typed = lookup.get_untracked();
        if typed.trim().is_empty() {
            return;
        }
        let id = WorkId::guess(&typed);
        let service = service_for(&id);
        let req = match request::lookup(service, &s.endpoints(), &id) {
            Ok(r) => r,
            Err(e) => {
                kind.set(BannerKind::Error);
                message.set(e.to_string());
                return;
            }
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            let client = s.run_client();
            let answer = client.page(&req).await;
            busy.set(false);
            let work = match answer {
                Ok(page) => page.works.into_iter().next(),
                Err(e) => {
                    kind.set(BannerKind::Error);
                    message.set(format!("{} lookup failed: {e}", service.label()));
                    return;
                }
            };
            let Some(work) = work else {
                kind.set(BannerKind::Error);
                message.set(format!(
                    "{} found no paper for {}",
                    service.label(),
                    typed.trim()
                ));
                return;
            };
            let (mut lib, _) = Library::parse(&text.get_untracked());
            match lib.add(library::record_from_work(&work)) {
                Ok(new_id) => {
                    kind.set(BannerKind::Ok);
                    message.set(format!("added `{new_id}`: {}", work.title));
                    lookup.set(String::new());
                    persist(lib.to_jsonl());
                }
                Err(e) => {
                    kind.set(BannerKind::Partial);
                    message.set(format!("duplicate: {}", e.message));
                }
            }
        });
    };

    view! {
        <section>
            <h1>"Library"</h1>
            <p class="muted">
                "Your reference library as "<code>"refs.jsonl"</code>
                ": one JSON record a line. It stays in this browser; import, extend and export it here."
            </p>
            <div class="toolbar">
                <FileDrop id="library-file" label="Drop refs.jsonl here" accept=".jsonl,.json,.txt" on_files=on_files/>
                <button type="button" class="secondary" id="load-example" on:click=move |_| import("refs.jsonl (example)".into(), EXAMPLE_REFS.to_string())>
                    "Load example"
                </button>
                <DownloadButton id="export-library" label="Export refs.jsonl" filename=Signal::derive(|| "refs.jsonl".to_string()) mime="application/x-ndjson" content=Signal::derive(move || text.get())/>
                <button type="button" class="secondary" id="clear-library" on:click=move |_| clear()>
                    "Clear"
                </button>
                <Show when=move || undo.with(Option::is_some)>
                    <button type="button" class="secondary" id="undo-library" on:click=move |_| undo_last()>
                        "Undo"
                    </button>
                </Show>
            </div>
            <form class="form-grid" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); add(); }>
                <label for="add-id">"DOI, Semantic Scholar id, arXiv id or OpenAlex W-id"</label>
                <input id="add-id" type="text" placeholder="10.1038/srep16696" prop:value=move || lookup.get() on:input=move |ev| lookup.set(event_target_value(&ev))/>
                <button type="submit" id="add" disabled=move || busy.get()>{move || if busy.get() { "looking up…" } else { "Add to library" }}</button>
            </form>
            <Banner id="library-status" kind=kind text=message/>
            <Show when=move || problems.with(|p| !p.is_empty())>
                <ul id="library-problems" class="error-text">
                    {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                </ul>
            </Show>
            <p id="library-count">{move || format!("{} records", text.with(|t| Library::parse(t).0.len()))}</p>
            <crate::components::TextTable id="library-table" headers=vec!["id", "title", "authors", "year", "DOI"] rows=Signal::derive(move || text.with(|t| rows_of(t)))/>
        </section>
    }
}
