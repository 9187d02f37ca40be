//! "Coverage": the ≥ 90 % citation gate, offline. The draft's `.tex` files
//! are scanned together (includes followed among the files given), the keys
//! checked against a pool — `citation_pool.json`, or the keys of a `.bib` —
//! and the verdict shown with what to do about it.

use crate::components::{Banner, BannerKind, CopyButton, FileDrop, LoadedFile, TextTable};
use crate::services::store::keys;
use crate::services::Services;
use citegate_core::coverage::{self, Against, Threshold};
use citegate_core::pool;
use citegate_core::tex;
use leptos::prelude::*;
use std::collections::BTreeMap;

const EXAMPLE_MAIN: &str = include_str!("../../examples/main.tex");
const EXAMPLE_RELATED: &str = include_str!("../../examples/related.tex");
const EXAMPLE_POOL: &str = include_str!("../../examples/citation_pool.json");

/// The workspace document holding this page's inputs.
const PAGE_KEY: &str = "page:coverage";

/// The page's inputs as the workspace keeps them across reloads.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Saved {
    tex: Vec<LoadedFile>,
    pool: Option<LoadedFile>,
    threshold: String,
}

/// What the page computed from its inputs: the core's gate report and the
/// synced sources.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    gate: coverage::GateReport,
    /// Per `.tex` file: the synced text and how many keys changed.
    synced: Vec<(String, String, usize)>,
}

fn run(
    tex_files: &[LoadedFile],
    pool_file: &LoadedFile,
    threshold: &str,
) -> Result<Outcome, String> {
    let threshold = Threshold::parse(threshold).map_err(|e| format!("threshold: {e}"))?;
    let name = &pool_file.name;
    let against = Against::read(name, &pool_file.text).map_err(|e| format!("{name}: {e}"))?;
    let map: BTreeMap<String, String> = tex_files
        .iter()
        .map(|f| (f.name.clone(), f.text.clone()))
        .collect();
    let roots: Vec<String> = tex_files.iter().map(|f| f.name.clone()).collect();
    let project = tex::scan_project(&roots, &map);
    let gate =
        coverage::gate(&project, &against, &threshold).map_err(|e| format!("{name}: {e}"))?;
    let key_map = match &against {
        Against::Pool(papers) => tex::pool_key_map(papers),
        Against::Bib(_) => BTreeMap::new(),
    };
    let synced = tex_files
        .iter()
        .map(|f| {
            let (text, done) = tex::sync_keys(&f.text, &key_map);
            (f.name.clone(), text, done.len())
        })
        .collect();
    Ok(Outcome { gate, synced })
}

/// Everything the Coverage page reads and writes: one value, cheap to copy
/// into each sub-component and handler.
#[derive(Clone, Copy)]
struct CoverageState {
    services: Option<Services>,
    tex_files: RwSignal<Vec<LoadedFile>>,
    pool_file: RwSignal<Option<LoadedFile>>,
    threshold: RwSignal<String>,
    /// Whether the inputs came back from the workspace (or there is none):
    /// changes are saved only from then on.
    restored: RwSignal<bool>,
    /// Why a dropped pool file was not used (the pool and result stay).
    note: RwSignal<String>,
    /// The core's verdict on the inputs; `None` until both are given.
    outcome: Memo<Option<Result<Outcome, String>>>,
}

impl CoverageState {
    fn new(services: Option<Services>) -> Self {
        let tex_files = RwSignal::new(Vec::<LoadedFile>::new());
        let pool_file = RwSignal::new(None::<LoadedFile>);
        let threshold = RwSignal::new(coverage::DEFAULT_THRESHOLD.to_string());
        CoverageState {
            services,
            tex_files,
            pool_file,
            threshold,
            restored: RwSignal::new(services.is_none()),
            note: RwSignal::new(String::new()),
            outcome: Memo::new(move |_| {
                let files = tex_files.get();
                let pool = pool_file.get();
                match (files.is_empty(), pool) {
                    (true, _) | (_, None) => None,
                    (false, Some(p)) => Some(run(&files, &p, &threshold.get())),
                }
            }),
        }
    }

    /// Inputs come back from the workspace; without a pool of its own the
    /// page takes the one the Pool page built. Changes are saved only once
    /// the restore has run, so a reload never overwrites what it restores.
    fn restore_and_keep(self) {
        let CoverageState {
            services,
            tex_files,
            pool_file,
            threshold,
            restored,
            ..
        } = self;
        if let Some(s) = services {
            leptos::task::spawn_local(async move {
                let ws = s.workspace();
                let saved = ws.get::<Saved>(PAGE_KEY).await.ok().flatten();
                if let Some(v) = &saved {
                    tex_files.set(v.tex.clone());
                    pool_file.set(v.pool.clone());
                    if !v.threshold.trim().is_empty() {
                        threshold.set(v.threshold.clone());
                    }
                }
                if saved.as_ref().and_then(|v| v.pool.as_ref()).is_none() {
                    if let Ok(Some(p)) = ws.get::<pool::Pool>(keys::POOL).await {
                        pool_file.set(Some(LoadedFile {
                            name: "citation_pool.json (built on the Pool page)".into(),
                            text: pool::to_json(&p),
                            warning: None,
                            paper: false,
                        }));
                    }
                }
                restored.set(true);
            });
        }
        Effect::new(move |_| {
            let value = Saved {
                tex: tex_files.get(),
                pool: pool_file.get(),
                threshold: threshold.get(),
            };
            if !restored.get() {
                return;
            }
            if let Some(s) = services {
                leptos::task::spawn_local(async move {
                    let _ = s.workspace().put(PAGE_KEY, &value).await;
                });
            }
        });
    }

    fn add_tex(self, files: Vec<LoadedFile>) {
        self.tex_files.update(|all| {
            for f in files {
                all.retain(|x| x.name != f.name);
                all.push(f);
            }
        })
    }

    /// Takes the `.tex` file named `name` out of the draft.
    fn remove_tex(self, name: &str) {
        self.tex_files.update(|all| all.retain(|f| f.name != name));
    }

    /// A dropped pool file takes the place of the pool, unless it gives no
    /// pool papers or entries while a result is shown: then the pool and
    /// the result stay and the note says why.
    fn set_pool(self, files: Vec<LoadedFile>) {
        let Some(f) = files.into_iter().next() else {
            return;
        };
        let why = match Against::read(&f.name, &f.text).and_then(|a| a.entries()) {
            Ok((entries, _)) if !entries.is_empty() => None,
            Ok(_) => Some("it holds no pool papers or bibliography entries".to_string()),
            Err(e) => Some(e.message),
        };
        if let (Some(why), Some(old)) = (why, self.ok().and(self.pool_file.get_untracked())) {
            self.note.set(format!(
                "{} was not used: {why}; {} and the result are as they were",
                f.name, old.name
            ));
            return;
        }
        self.note.set(String::new());
        self.pool_file.set(Some(f));
    }

    fn load_example(self) {
        self.note.set(String::new());
        self.tex_files.set(vec![
            LoadedFile {
                name: "main.tex".into(),
                text: EXAMPLE_MAIN.into(),
                warning: None,
                paper: false,
            },
            LoadedFile {
                name: "related.tex".into(),
                text: EXAMPLE_RELATED.into(),
                warning: None,
                paper: false,
            },
        ]);
        self.pool_file.set(Some(LoadedFile {
            name: "citation_pool.json".into(),
            text: EXAMPLE_POOL.into(),
            warning: None,
            paper: false,
        }));
        self.threshold.set(coverage::DEFAULT_THRESHOLD.to_string());
    }

    fn clear(self) {
        self.note.set(String::new());
        self.tex_files.set(Vec::new());
        self.pool_file.set(None);
    }

    /// The outcome when the core could compute one.
    fn ok(self) -> Option<Outcome> {
        self.outcome.get().and_then(|o| o.ok())
    }
}

/// The coverage gate page.
#[component]
pub fn CoveragePage() -> impl IntoView {
    let state = CoverageState::new(use_context::<Services>());
    state.restore_and_keep();
    let CoverageState {
        tex_files,
        pool_file,
        threshold,
        outcome,
        ..
    } = state;
    let add_tex = move |files: Vec<LoadedFile>| state.add_tex(files);
    let set_pool = move |files: Vec<LoadedFile>| state.set_pool(files);
    let load_example = move |_| state.load_example();
    let clear = move |_| state.clear();
    let error = Signal::derive(move || match outcome.get() {
        Some(Err(e)) => e,
        _ => String::new(),
    });
    let reprompt = Signal::derive(move || state.ok().map(|o| o.gate.reprompt).unwrap_or_default());

    view! {
        <section class="coverage">
            <h1>"Coverage"</h1>
            <p class="muted">
                "The gate passes when the draft cites at least the threshold share of the verified pool (90 % by default), counted exactly: "
                "the minimum is ⌊threshold × N⌋. A "<code>"\\nocite"</code>" does not count. Nothing leaves your browser."
            </p>
            <div class="toolbar">
                <button type="button" id="load-example" on:click=load_example>"Load example"</button>
                <button type="button" class="secondary" id="clear" on:click=clear>"Clear"</button>
            </div>
            <div class="two-col">
                <FileDrop id="tex-input" label="Drop the draft's .tex files, its folder or the project .zip" accept=".tex,.zip" multiple=true folders=true on_files=add_tex />
                <FileDrop id="pool-input" label="Drop citation_pool.json or a .bib" accept=".json,.bib" eight_bit=true on_files=set_pool />
            </div>
            <p class="muted" id="inputs">
                {move || {
                    let t: Vec<String> = tex_files.get().iter().map(|f| f.name.clone()).collect();
                    let p = pool_file.get().map(|f| f.name).unwrap_or_else(|| "no pool yet".into());
                    if t.is_empty() { format!("no .tex yet · {p}") } else { format!("{} · {p}", t.join(", ")) }
                }}
            </p>
            <ul class="file-list" id="tex-files" aria-label="the draft's .tex files">
                <For each=move || tex_files.get() key=|f| f.name.clone() let:f>
                    {
                        let name = f.name.clone();
                        let empty = f.text.trim().is_empty();
                        let label = format!("remove {name}");
                        let gone = name.clone();
                        view! {
                            <li data-name=name.clone()>
                                <span>{name.clone()}</span>
                                {empty.then(|| view! { <span class="muted">" (empty)"</span> })}
                                " "
                                <button type="button" class="secondary remove-file" aria-label=label
                                    on:click=move |_| state.remove_tex(&gone)>"Remove"</button>
                            </li>
                        }
                    }
                </For>
            </ul>
            <Banner id="pool-note" kind=BannerKind::Partial text=state.note />
            <div class="form-grid">
                <label for="threshold">"Threshold"</label>
                <input id="threshold" type="text" prop:value=move || threshold.get()
                    on:input=move |ev| threshold.set(event_target_value(&ev)) />
            </div>
            // An 8-bit .bib is read as BibTeX reads it (Latin-1 or
            // Windows-1252), as on the BibTeX check page, and says so.
            <Banner id="pool-warning" kind=BannerKind::Partial text=Signal::derive(move || {
                pool_file.with(|p| p.as_ref().and_then(|p| p.warning.as_ref().map(|w| w.to_string())).unwrap_or_default())
            }) />
            <Banner id="coverage-error" kind=BannerKind::Error text=error />
            <CoverageResult state=state />
            <h2>"Re-prompt"</h2>
            <div class="toolbar"><CopyButton id="copy-reprompt" label="Copy re-prompt" text=reprompt /></div>
            <pre class="prompt" id="reprompt">{move || reprompt.get()}</pre>
        </section>
    }
}

/// The uncited and foreign keys and the synced sources, after the verdict,
/// once the core has computed them.
#[component]
fn CoverageResult(state: CoverageState) -> impl IntoView {
    let ok = move || state.ok();
    let foreign_rows = Signal::derive(move || {
        ok().map(|o| {
            o.gate
                .coverage
                .foreign
                .iter()
                .map(|f| {
                    let places: Vec<String> = f
                        .places
                        .iter()
                        .map(|p| format!("{}:{}", p.file, p.line))
                        .collect();
                    vec![f.key.clone(), places.join(", ")]
                })
                .collect()
        })
        .unwrap_or_default()
    });
    move || {
        ok().map(|o| {
            let c = o.gate.coverage.clone();
            view! {
                {verdict(&o)}
                <h2>"Uncited pool papers by section"</h2>
                <div id="uncited">
                    {if c.uncited_by_tag.is_empty() { view! { <p class="muted">"every pool paper is cited"</p> }.into_any() } else {
                        c.uncited_by_tag.iter().map(|g| view! {
                            <h3 class="tag">{format!("{} ({})", g.tag, g.papers.len())}</h3>
                            <ul class="uncited">{g.papers.iter().map(|p| view! { <li><code>{p.key.clone()}</code>" "{p.title.clone()}</li> }).collect_view()}</ul>
                        }).collect_view().into_any()
                    }}
                </div>
                <h2>"Cited but not in the pool"</h2>
                {if c.foreign.is_empty() { view! { <p class="muted" id="foreign-none">"none"</p> }.into_any() } else {
                    view! { <TextTable id="foreign" headers=vec!["key", "where"] rows=foreign_rows /> }.into_any()
                }}
                <h2>"Sync keys"</h2>
                <p class="muted">"Where the draft cites a pool paper by another key (the one the writing agent used), rewrites that key to the paper's bibtex_key, inside cite commands only; every other byte stays."</p>
                <div class="toolbar" id="sync">
                    {o.synced.iter().map(|(name, text, n)| {
                        let name = name.clone();
                        let text = text.clone();
                        let label = format!("{name} ({n} key{} changed)", if *n == 1 { "" } else { "s" });
                        view! {
                            <button type="button" class="secondary" on:click=move |_| { let _ = crate::components::download(&name, "text/x-tex;charset=utf-8", &text); }>
                                {format!("Download {label}")}
                            </button>
                        }
                    }).collect_view()}
                </div>
            }
        })
    }
}

/// The score, the PASS or FAIL badge, the gauge and the notes on what was
/// not counted.
fn verdict(o: &Outcome) -> impl IntoView {
    let c = o.gate.coverage.clone();
    let summary = o.gate.summary.clone();
    let pass = c.pass;
    view! {
        <div class="result" aria-live="polite">
            <div class="score-line">
                <span class="score" id="cited">{format!("{}/{}", c.n_cited, c.n_pool)}</span>
                <span id="verdict" class=if pass { "badge pass" } else { "badge fail" }>{if pass { "PASS" } else { "FAIL" }}</span>
                <span class="muted" id="summary">{summary}</span>
            </div>
            <meter class="gauge" id="gauge" aria-label=format!("pool papers cited: {} of {}", c.n_cited, c.n_pool) min="0" max=c.n_pool.max(1).to_string()
                low=c.min_required.to_string() optimum=c.n_pool.to_string()
                value=c.n_cited.to_string()></meter>
            <p class="muted" id="min-required">{format!("needs {} of {} (threshold {}); files scanned: {}", c.min_required, c.n_pool, c.threshold, o.gate.files.join(", "))}</p>
            {(!o.gate.missing_includes.is_empty()).then(|| view! {
                <ul class="notes">{o.gate.missing_includes.iter().map(|m| view! { <li>{format!("{}:{}: included file `{}` was not given; its cites are not counted", m.file, m.line, m.name)}</li> }).collect_view()}</ul>
            })}
            {(!o.gate.unkeyed.is_empty()).then(|| view! {
                <ul class="notes">{o.gate.unkeyed.iter().map(|u| view! { <li>{format!("papers[{}] has no bibtex_key and is not counted: {}", u.index, u.title)}</li> }).collect_view()}</ul>
            })}
            {(!c.nocite_only.is_empty()).then(|| view! {
                <p class="notes">{format!("only in \\nocite (not counted): {}", c.nocite_only.join(", "))}</p>
            })}
        </div>
    }
}
