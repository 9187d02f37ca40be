//! "Write": the writing step with the user's own language model.
//!
//! The page gathers the seed's inputs (template.tex, outline.json, idea.md,
//! experimental_log.md, citation_pool.json — or the pool the Pool page
//! built — and the cutoff), then runs the core's [`WriteLoop`]: each
//! [`Step::Ask`] is sent to the model configured in Settings and streamed
//! back, each answer is checked by the core, and each round (prompt, answer,
//! checks, re-prompt) is saved in the workspace, so a reload shows the
//! history and can continue. A transport error (a refused key, a rate limit,
//! a prompt too long) or a cancel stops the run with a message and costs no
//! round. Everything from the model or a file is shown as text.

use crate::api::llm;
use crate::components::{Banner, BannerKind, DownloadButton, FileDrop, LoadedFile, Progress};
use crate::services::store::keys;
use crate::services::Services;
use citegate_core::pool::{self, Pool};
use citegate_core::write::provider::{self, Api, Provider};
use citegate_core::write::{
    Inputs, Outcome, Report, Round, Step, WriteLoop, DEFAULT_MAX_REPROMPTS,
};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The example inputs (copies of the CLI's test fixtures, see `web/examples/write/README.md`).
const EXAMPLE: [(&str, &str); 5] = [
    (
        "template.tex",
        include_str!("../../examples/write/template.tex"),
    ),
    (
        "citation_pool.json",
        include_str!("../../examples/write/citation_pool.json"),
    ),
    (
        "outline.json",
        include_str!("../../examples/write/outline.json"),
    ),
    ("idea.md", include_str!("../../examples/write/idea.md")),
    (
        "experimental_log.md",
        include_str!("../../examples/write/experimental_log.md"),
    ),
];

/// The workspace document of this page.
const PAGE_KEY: &str = "write";

/// What the page keeps across reloads (no key: [`Inputs`] holds none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Saved {
    inputs: Option<Inputs>,
    /// The file name shown for each input, in [`SLOTS`] order.
    names: Vec<String>,
    max_reprompts: Option<usize>,
    history: Vec<Round>,
}

/// The file inputs: (element id, label, accept).
const SLOTS: [(&str, &str, &str); 5] = [
    ("write-template", "template.tex", ".tex"),
    ("write-pool", "citation_pool.json", ".json"),
    ("write-outline", "outline.json", ".json"),
    ("write-idea", "idea.md", ".md,.txt"),
    ("write-log", "experimental_log.md", ".md,.txt"),
];

fn empty_inputs() -> Inputs {
    Inputs {
        template: String::new(),
        pool: String::new(),
        outline: String::new(),
        idea: String::new(),
        log: String::new(),
        cutoff: String::new(),
    }
}

fn slot_text(i: &mut Inputs, slot: usize) -> &mut String {
    match slot {
        0 => &mut i.template,
        1 => &mut i.pool,
        2 => &mut i.outline,
        3 => &mut i.idea,
        _ => &mut i.log,
    }
}

/// The report for the rounds so far: the final one when the loop is done,
/// else the best draft as things stand.
fn report_of(inputs: &Inputs, max: usize, history: &[Round]) -> Option<(Report, bool)> {
    let run = WriteLoop::resume(inputs, max, history.to_vec()).ok()?;
    Some(match run.next() {
        Step::Done(r) => (r, true),
        Step::Ask(_) => (run.stop(), false),
    })
}

fn round_view(r: Round) -> impl IntoView {
    let summary = r.summary();
    let diff = r
        .checks()
        .map(|c| c.template.diff.clone())
        .unwrap_or_default();
    let prompt_last = r
        .prompt
        .last()
        .map(|m| m.content.clone())
        .unwrap_or_default();
    let no_latex = matches!(r.outcome, Outcome::NoLatex { .. });
    view! {
        <li class="round" data-round=r.number.to_string()>
            <p class=if no_latex { "summary error-text" } else { "summary" }>{summary}</p>
            <details>
                <summary>"what was sent (last message)"</summary>
                <pre class="prompt round-prompt">{prompt_last}</pre>
            </details>
            <details>
                <summary>"the model's answer"</summary>
                <pre class="prompt round-answer">{r.answer.clone()}</pre>
            </details>
            {(!diff.is_empty()).then(|| view! {
                <details><summary>"changes outside the two sections"</summary><pre class="prompt round-diff">{diff}</pre></details>
            })}
            {(!r.reprompt.is_empty()).then(|| view! {
                <h4>"re-prompt"</h4>
                <pre class="prompt round-reprompt">{r.reprompt.clone()}</pre>
            })}
        </li>
    }
}

/// Everything the Write page reads and writes, and its run in flight: one
/// value, cheap to copy into each sub-component and handler.
#[derive(Clone, Copy)]
struct WriteState {
    services: Option<Services>,
    inputs: RwSignal<Inputs>,
    /// The file name shown for each input, in [`SLOTS`] order.
    names: RwSignal<Vec<String>>,
    /// The re-prompts field as typed.
    max: RwSignal<String>,
    history: RwSignal<Vec<Round>>,
    running: RwSignal<bool>,
    /// What the round in flight is doing.
    progress: RwSignal<String>,
    /// The answer of the round in flight, as it streams in.
    streamed: RwSignal<String>,
    error: RwSignal<String>,
    /// Aborts the request in flight (Cancel).
    controller: StoredValue<Option<web_sys::AbortController>, LocalStorage>,
    /// The loop is built from the inputs each time, so an input error shows at once.
    check_inputs: Memo<Result<(), String>>,
    report: Memo<Option<(Report, bool)>>,
}

impl WriteState {
    fn new(services: Option<Services>) -> Self {
        let inputs = RwSignal::new(empty_inputs());
        let max = RwSignal::new(DEFAULT_MAX_REPROMPTS.to_string());
        let history = RwSignal::new(Vec::<Round>::new());
        let max_n = move || {
            max.get()
                .trim()
                .parse::<usize>()
                .unwrap_or(DEFAULT_MAX_REPROMPTS)
        };
        let check_inputs = Memo::new(move |_| {
            let i = inputs.get();
            if [&i.template, &i.pool, &i.outline, &i.idea, &i.log]
                .iter()
                .any(|t| t.is_empty())
                || i.cutoff.trim().is_empty()
            {
                return Err(String::new());
            }
            WriteLoop::new(&i, max_n())
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        let report = Memo::new(move |_| report_of(&inputs.get(), max_n(), &history.get()));
        WriteState {
            services,
            inputs,
            names: RwSignal::new(vec![String::new(); SLOTS.len()]),
            max,
            history,
            running: RwSignal::new(false),
            progress: RwSignal::new(String::new()),
            streamed: RwSignal::new(String::new()),
            error: RwSignal::new(String::new()),
            controller: StoredValue::new_local(None::<web_sys::AbortController>),
            check_inputs,
            report,
        }
    }

    /// The re-prompts allowed (the default when the field is not a number).
    fn max_n(self) -> usize {
        self.max
            .get()
            .trim()
            .parse::<usize>()
            .unwrap_or(DEFAULT_MAX_REPROMPTS)
    }

    fn save(self) {
        let Some(s) = self.services else { return };
        let doc = Saved {
            inputs: Some(self.inputs.get_untracked()),
            names: self.names.get_untracked(),
            max_reprompts: self.max.get_untracked().trim().parse().ok(),
            history: self.history.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            let _ = s.workspace().put(PAGE_KEY, &doc).await;
        });
    }

    /// Restores the last run from the workspace.
    fn restore(self) {
        let Some(s) = self.services else { return };
        let WriteState {
            inputs,
            names,
            max,
            history,
            ..
        } = self;
        leptos::task::spawn_local(async move {
            let ws = s.workspace();
            if let Ok(Some(saved)) = ws.get::<Saved>(PAGE_KEY).await {
                if let Some(i) = saved.inputs {
                    inputs.set(i);
                }
                if saved.names.len() == SLOTS.len() {
                    names.set(saved.names);
                }
                if let Some(m) = saved.max_reprompts {
                    max.set(m.to_string());
                }
                history.set(saved.history);
            }
        });
    }

    /// Takes the pool the Pool page built as the citation_pool.json input.
    fn use_workspace_pool(self) {
        let Some(s) = self.services else { return };
        leptos::task::spawn_local(async move {
            match s.workspace().get::<Pool>(keys::POOL).await {
                Ok(Some(p)) => {
                    let text = pool::to_json(&p);
                    self.inputs.update(|i| {
                        i.pool = text;
                        if i.cutoff.trim().is_empty() {
                            i.cutoff = p.cutoff_date.clone().unwrap_or_default();
                        }
                    });
                    self.names.update(|n| n[1] = "the pool in this workspace".into());
                    self.save();
                }
                _ => self.error.set("this workspace has no pool yet; build one on the Pool page or drop citation_pool.json".into()),
            }
        });
    }

    fn set_slot(self, slot: usize, f: LoadedFile) {
        self.inputs.update(|i| {
            *slot_text(i, slot) = f.text.clone();
            if slot == 1 && i.cutoff.trim().is_empty() {
                if let Ok(p) = pool::parse_pool(&f.text) {
                    i.cutoff = p.cutoff_date.unwrap_or_default();
                }
            }
        });
        self.names.update(|n| n[slot] = f.name);
        self.save();
    }

    fn load_example(self) {
        for (slot, (name, text)) in EXAMPLE.iter().enumerate() {
            self.set_slot(
                slot,
                LoadedFile {
                    name: (*name).to_string(),
                    text: (*text).to_string(),
                    warning: None,
                    paper: false,
                },
            );
        }
    }

    /// Runs the loop with the model set in Settings, from the first round
    /// (`fresh`) or from the rounds so far.
    fn drive(self, fresh: bool) {
        let WriteState {
            history,
            running,
            progress,
            streamed,
            error,
            controller,
            ..
        } = self;
        let Some(s) = self.services else {
            error.set("browser storage is unavailable; the writing step cannot run".into());
            return;
        };
        if fresh {
            history.set(Vec::new());
        }
        let settings = s.settings.get_untracked();
        let key = s.current_secrets().llm_api_key.unwrap_or_default();
        let Some(api) = Api::parse(&settings.llm_api) else {
            error.set(format!(
                "unknown model api `{}`; choose one in Settings",
                settings.llm_api
            ));
            return;
        };
        if settings.llm_model.trim().is_empty() {
            error.set("no model name is set; set the writing model in Settings".into());
            return;
        }
        let prov = Provider {
            api,
            base_url: settings.llm_base.clone(),
            model: settings.llm_model.clone(),
            max_tokens: provider::DEFAULT_MAX_TOKENS,
        };
        let mut run = match WriteLoop::resume(
            &self.inputs.get_untracked(),
            self.max_n(),
            history.get_untracked(),
        ) {
            Ok(r) => r,
            Err(e) => {
                error.set(e.to_string());
                return;
            }
        };
        error.set(String::new());
        running.set(true);
        leptos::task::spawn_local(async move {
            while let Step::Ask(messages) = run.next() {
                let number = run.history().len() + 1;
                let req = match provider::request(&prov, &messages, &key) {
                    Ok(r) => r,
                    Err(e) => {
                        error.set(e.message);
                        break;
                    }
                };
                let Ok(ctrl) = web_sys::AbortController::new() else {
                    break;
                };
                let signal = ctrl.signal();
                controller.set_value(Some(ctrl));
                streamed.set(String::new());
                progress.set(format!("round {number}: asking {}…", prov.model));
                let mut chars = 0usize;
                let got = llm::ask(&req, api, &key, &signal, |piece| {
                    chars += piece.chars().count();
                    streamed.update(|t| t.push_str(piece));
                    progress.set(format!("round {number}: {chars} characters received"));
                })
                .await;
                controller.set_value(None);
                match got {
                    Ok(text) => {
                        run.answer(&text);
                        history.set(run.history().to_vec());
                        self.save();
                        progress.set(String::new());
                    }
                    Err(e) => {
                        error.set(format!("round {number}: {}", e.message));
                        progress.set(String::new());
                        break;
                    }
                }
            }
            running.set(false);
        });
    }

    /// Aborts the request in flight.
    fn cancel(self) {
        if let Some(c) = self.controller.get_value() {
            c.abort();
        }
    }
}

/// The writing page.
#[component]
pub fn WritePage() -> impl IntoView {
    let state = WriteState::new(use_context::<Services>());
    // Restore the last run; else offer the pool the Pool page built.
    state.restore();
    let input_error = Signal::derive(move || state.check_inputs.get().err().unwrap_or_default());
    view! {
        <section class="write">
            <h1>"Write"</h1>
            <p class="muted">
                "Drafts the Introduction and Related Work into your template with your own language model (set in Settings), "
                "then holds the draft to the pool: the rest of the template unchanged, no key outside the pool, at least 90 % of the pool cited, "
                "no paper after the cutoff as a baseline. A failed draft is sent back with what to fix, up to the re-prompts you allow; "
                "then the best draft is kept. Your files and the key go only to the model endpoint you set."
            </p>
            <InputSlots state=state />
            <div class="toolbar">
                <button type="button" id="load-example" on:click=move |_| state.load_example()>"Load example"</button>
                <button type="button" class="secondary" id="use-workspace-pool" on:click=move |_| state.use_workspace_pool()>"Use the pool from this workspace"</button>
            </div>
            <RunSettings state=state />
            <Banner id="write-input-error" kind=BannerKind::Error text=input_error />
            <RunControls state=state />
            <WriteReport state=state />
            <h2>"Rounds"</h2>
            <ol id="rounds">
                {move || state.history.get().into_iter().map(round_view).collect_view()}
            </ol>
        </section>
    }
}

/// One file input per [`SLOTS`] entry, with the name of the file it holds.
#[component]
fn InputSlots(state: WriteState) -> impl IntoView {
    view! {
        <div class="two-col">
            {SLOTS.iter().enumerate().map(|(slot, (id, label, accept))| {
                let label: &'static str = label;
                let on_files = move |files: Vec<LoadedFile>| {
                    if let Some(f) = files.into_iter().next() {
                        state.set_slot(slot, f);
                    }
                };
                view! {
                    <div>
                        <FileDrop id=id label=label accept=accept on_files=on_files />
                        <p class="muted slot-name">{move || { let n = state.names.get()[slot].clone(); if n.is_empty() { format!("no {label} yet") } else { n } }}</p>
                    </div>
                }
            }).collect_view()}
        </div>
    }
}

/// The cutoff, the re-prompts allowed, and the model set in Settings.
#[component]
fn RunSettings(state: WriteState) -> impl IntoView {
    let WriteState {
        services,
        inputs,
        max,
        ..
    } = state;
    view! {
        <div class="form-grid">
            <label for="write-cutoff">"Cutoff (YYYY-MM-DD)"</label>
            <input id="write-cutoff" type="text" prop:value=move || inputs.get().cutoff
                on:input=move |ev| { inputs.update(|i| i.cutoff = event_target_value(&ev)); state.save(); } />
            <label for="write-max">"Re-prompts at most"</label>
            <input id="write-max" type="number" min="0" prop:value=move || max.get()
                on:input=move |ev| { max.set(event_target_value(&ev)); state.save(); } />
        </div>
        <p class="muted" id="write-model">
            {move || services.map(|s| {
                let st = s.settings.get();
                let key = if s.current_secrets().llm_api_key.is_some() { "key set" } else { "no key" };
                if st.llm_model.trim().is_empty() {
                    "no writing model set: choose one in Settings".to_string()
                } else {
                    format!("model: {} at {} ({}, {key})", st.llm_model, st.llm_base, st.llm_api)
                }
            })}
        </p>
    }
}

/// Write / Continue, the shared progress display (its Cancel aborts the
/// request in flight), the error and the answer as it streams in.
#[component]
fn RunControls(state: WriteState) -> impl IntoView {
    let WriteState {
        services,
        history,
        running,
        progress,
        streamed,
        error,
        check_inputs,
        report,
        ..
    } = state;
    // Nothing to write with until a model is set in Settings (the page says so).
    let no_model =
        move || services.is_none_or(|s| s.settings.with(|st| st.llm_model.trim().is_empty()));
    view! {
        <div class="toolbar">
            <button type="button" id="write-start" disabled=move || running.get() || no_model() || check_inputs.get().is_err() on:click=move |_| state.drive(true)>"Write"</button>
            <button type="button" class="secondary" id="write-continue"
                disabled=move || running.get() || no_model() || check_inputs.get().is_err() || history.with(|h| h.is_empty()) || report.get().is_some_and(|(_, done)| done)
                on:click=move |_| state.drive(false)>"Continue"</button>
        </div>
        <Progress id="write-run" label=Signal::derive(|| "Writing the two sections".to_string())
            counts=Signal::derive(move || (history.with(Vec::len), state.max_n() + 1))
            running=running on_cancel=Callback::new(move |_: ()| state.cancel())
            detail=Signal::derive(move || progress.get()) />
        <Banner id="write-error" kind=BannerKind::Error text=error />
        <Show when=move || running.get()>
            <pre class="prompt" id="write-stream">{move || streamed.get()}</pre>
        </Show>
    }
}

/// The verdict of the rounds so far, with the kept draft to download.
#[component]
fn WriteReport(state: WriteState) -> impl IntoView {
    move || {
        state.report.get().map(|(rep, done)| {
            let verdict = if rep.pass {
                ("badge pass", "PASS")
            } else if done {
                ("badge fail", "STOPPED")
            } else {
                ("badge", "IN PROGRESS")
            };
            let intro = rep.intro_relwork.clone().unwrap_or_default();
            let full = rep.full.clone().unwrap_or_default();
            view! {
                <div class="result" aria-live="polite">
                    <div class="score-line">
                        <span id="write-verdict" class=verdict.0>{verdict.1}</span>
                        <span class="muted" id="write-rounds-count">{format!("{}; kept draft: round {}", citegate_core::text::count(rep.rounds, "round", "rounds"), rep.best_round.map(|n| n.to_string()).unwrap_or_else(|| "none".into()))}</span>
                    </div>
                    {done.then(|| rep.warning.clone().map(|w| view! { <p class="banner warn" id="write-warning">{w}</p> }))}
                    <p class="muted" id="write-cutoff-note">{rep.cutoff_note.clone()}</p>
                    <div class="toolbar">
                        <DownloadButton id="download-intro-relwork" label="Download intro_relwork.tex" filename="intro_relwork.tex".to_string() mime="text/x-tex;charset=utf-8" content=full />
                        <DownloadButton id="download-sections" label="Download sections.tex (the two sections)" filename="sections.tex".to_string() mime="text/x-tex;charset=utf-8" content=intro />
                    </div>
                </div>
            }
        })
    }
}
