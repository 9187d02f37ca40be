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

/// Everything the Library page reads and writes: one value, cheap to copy
/// into each handler.
#[derive(Clone, Copy)]
struct LibraryState {
    services: Option<Services>,
    /// The library as its `refs.jsonl` text.
    text: RwSignal<String>,
    message: RwSignal<String>,
    kind: RwSignal<BannerKind>,
    /// The unreadable lines of the last import.
    problems: RwSignal<Vec<String>>,
    /// The id typed for a lookup.
    lookup: RwSignal<String>,
    busy: RwSignal<bool>,
    /// The text before the last import or clear, so either can be undone.
    undo: RwSignal<Option<String>>,
}

impl LibraryState {
    fn new(services: Option<Services>) -> Self {
        LibraryState {
            services,
            text: RwSignal::new(String::new()),
            message: RwSignal::new(String::new()),
            kind: RwSignal::new(BannerKind::Info),
            problems: RwSignal::new(Vec::new()),
            lookup: RwSignal::new(String::new()),
            busy: RwSignal::new(false),
            undo: RwSignal::new(None),
        }
    }

    /// Reads the stored library back from the workspace.
    fn restore(self) {
        if let Some(s) = self.services {
            leptos::task::spawn_local(async move {
                if let Ok(Some(saved)) = s.workspace().get::<String>(keys::LIBRARY).await {
                    self.text.set(saved);
                }
            });
        }
    }

    fn persist(self, t: String) {
        self.text.set(t.clone());
        if let Some(s) = self.services {
            leptos::task::spawn_local(async move {
                if let Err(e) = s.workspace().put(keys::LIBRARY, &t).await {
                    self.kind.set(BannerKind::Error);
                    self.message
                        .set(format!("the library could not be saved ({e})"));
                }
            });
        }
    }

    fn import(self, name: String, body: String) {
        let (incoming, errors) = Library::parse(&body);
        self.problems.set(
            errors
                .iter()
                .map(|e| format!("{name}: {e}"))
                .collect::<Vec<_>>(),
        );
        if incoming.is_empty() {
            self.kind.set(BannerKind::Error);
            self.message.set(format!(
                "nothing imported: {name} has no readable record{}; the library is unchanged",
                if errors.is_empty() {
                    String::new()
                } else {
                    format!(" ({} unreadable lines)", errors.len())
                }
            ));
            return;
        }
        let before = self.text.get_untracked();
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
        self.kind.set(if errors.is_empty() {
            BannerKind::Ok
        } else {
            BannerKind::Partial
        });
        self.message.set(parts.join(", "));
        if !report.added.is_empty() {
            self.undo.set(Some(before));
            self.persist(lib.to_jsonl());
        }
    }

    fn clear(self) {
        let before = self.text.get_untracked();
        if before.is_empty() {
            return;
        }
        self.problems.set(Vec::new());
        self.kind.set(BannerKind::Info);
        self.message
            .set("library cleared; Undo brings it back".into());
        self.undo.set(Some(before));
        self.persist(String::new());
    }

    fn undo_last(self) {
        if let Some(before) = self.undo.get_untracked() {
            self.undo.set(None);
            self.problems.set(Vec::new());
            self.kind.set(BannerKind::Info);
            self.message.set("undone: the library is as it was".into());
            self.persist(before);
        }
    }

    /// Looks the typed id up with its service and adds the paper found.
    fn add(self) {
        let Some(s) = self.services else {
            self.kind.set(BannerKind::Error);
            self.message
                .set("browser storage is unavailable; lookups cannot run".into());
            return;
        };
        let typed = self.lookup.get_untracked();
        if typed.trim().is_empty() {
            return;
        }
        let id = WorkId::guess(&typed);
        let service = service_for(&id);
        let req = match request::lookup(service, &s.endpoints(), &id) {
            Ok(r) => r,
            Err(e) => {
                self.kind.set(BannerKind::Error);
                self.message.set(e.to_string());
                return;
            }
        };
        self.busy.set(true);
        leptos::task::spawn_local(async move {
            let client = s.run_client();
            let answer = client.page(&req).await;
            self.busy.set(false);
            let work = match answer {
                Ok(page) => page.works.into_iter().next(),
                Err(e) => {
                    self.kind.set(BannerKind::Error);
                    self.message
                        .set(format!("{} lookup failed: {e}", service.label()));
                    return;
                }
            };
            let Some(work) = work else {
                self.kind.set(BannerKind::Error);
                self.message.set(format!(
                    "{} found no paper for {}",
                    service.label(),
                    typed.trim()
                ));
                return;
            };
            let (mut lib, _) = Library::parse(&self.text.get_untracked());
            match lib.add(library::record_from_work(&work)) {
                Ok(new_id) => {
                    self.kind.set(BannerKind::Ok);
                    self.message
                        .set(format!("added `{new_id}`: {}", work.title));
                    self.lookup.set(String::new());
                    self.persist(lib.to_jsonl());
                }
                Err(e) => {
                    self.kind.set(BannerKind::Partial);
                    self.message.set(format!("duplicate: {}", e.message));
                }
            }
        });
    }
}

/// The reference library page.
#[component]
pub fn LibraryPage() -> impl IntoView {
    let state = LibraryState::new(use_context::<Services>());
    state.restore();
    let LibraryState {
        text,
        message,
        kind,
        problems,
        lookup,
        busy,
        undo,
        ..
    } = state;
    let on_files = move |files: Vec<LoadedFile>| {
        if let Some(f) = files.into_iter().next() {
            state.import(f.name, f.text);
        }
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
                <button type="button" class="secondary" id="load-example" on:click=move |_| state.import("refs.jsonl (example)".into(), EXAMPLE_REFS.to_string())>
                    "Load example"
                </button>
                <DownloadButton id="export-library" label="Export refs.jsonl" filename=Signal::derive(|| "refs.jsonl".to_string()) mime="application/x-ndjson" content=Signal::derive(move || text.get())/>
                <button type="button" class="secondary" id="clear-library" on:click=move |_| state.clear()>
                    "Clear"
                </button>
                <Show when=move || undo.with(Option::is_some)>
                    <button type="button" class="secondary" id="undo-library" on:click=move |_| state.undo_last()>
                        "Undo"
                    </button>
                </Show>
            </div>
            <form class="form-grid" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); state.add(); }>
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
