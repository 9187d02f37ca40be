//! "BibTeX check": any `.bib` in four layers. Layer 1 (format, duplicates,
//! agreement with the `.tex` cites) runs offline as soon as a file is
//! dropped; layers 2–4 hand every entry to the core's verification engine
//! ([`citegate_core::resolve::Run`]: DOIs, arXiv ids and titles routed,
//! batched and retried there), which this page only drives through the
//! app's throttled, cached client ([`crate::services::resolve::drive`]),
//! and show each verdict with the sources consulted.

use crate::components::{
    slice, yield_now, Banner, BannerKind, CopyButton, DownloadButton, FileDrop, LoadedFile,
};
use crate::services::Services;
use citegate_core::bibtex;
use citegate_core::bibtex::existence;
use citegate_core::bibtex::format::{self, CiteUse, Finding, Severity};
use citegate_core::bibtex::matching::{self, Mode, Status, Verdict};
use citegate_core::bibtex::parse::{self, Bibliography};
use citegate_core::bibtex::verdict;
use citegate_core::resolve::{Answer, Options, Reference, Resolution, Run, Surface};
use citegate_core::tex;
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bytes read per parser step within a slice.
const STEP_BYTES: usize = 32 * 1024;
/// Entries checked per layer-1 step within a slice.
const STEP_ENTRIES: usize = 200;
/// Findings shown in the table; the exported report has all of them.
const SHOWN_FINDINGS: usize = 200;

const EXAMPLE_BIB: &str = include_str!("../../examples/refs.bib");

/// The workspace document holding this page's inputs.
const PAGE_KEY: &str = "page:bibtex";
/// Files larger than this are not written to the workspace: serializing
/// tens of megabytes would hold the page, and such a file is at hand anyway.
const KEEP_MAX_BYTES: usize = 5 * 1024 * 1024;

/// The page's inputs as the workspace keeps them across reloads.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Saved {
    bib: Option<LoadedFile>,
    tex: Vec<LoadedFile>,
}

/// The sources one entry's resolution consulted, for the card and the
/// report: `service (route asked): answer`.
fn sources_of(r: &Resolution) -> Vec<String> {
    r.evidence
        .iter()
        .map(|e| {
            let answer = match &e.answer {
                Answer::Found { .. } => "found".to_string(),
                Answer::Hits { works } => format!("{} hits", works.len()),
                Answer::NotHere => "not there".to_string(),
                Answer::Failed { error } => format!("failed: {error}"),
            };
            format!("{} ({}): {answer}", e.service.name(), e.asked)
        })
        .collect()
}

fn current_year() -> i32 {
    js_sys::Date::new_0().get_full_year() as i32
}

/// The checks of the `.bib` against the `.tex` cites (fast: one pass).
fn cite_findings(bib: &Bibliography, tex_files: &[LoadedFile]) -> Vec<Finding> {
    let mut out = Vec::new();
    if !tex_files.is_empty() {
        let map: BTreeMap<String, String> = tex_files
            .iter()
            .map(|f| (f.name.clone(), f.text.clone()))
            .collect();
        let roots: Vec<String> = tex_files.iter().map(|f| f.name.clone()).collect();
        let project = tex::scan_project(&roots, &map);
        let cite_all = project.files.iter().any(|f| !f.scan.nocite_all.is_empty());
        let cites: Vec<CiteUse> = project
            .cites()
            .map(|(file, c)| CiteUse {
                key: c.key.to_string(),
                file: file.to_string(),
                line: c.line,
            })
            .collect();
        out.extend(format::check_cites(bib, &cites, cite_all));
    }
    out
}

fn status_label(s: Status) -> (&'static str, &'static str) {
    match s {
        Status::Verified => ("verified", "badge pass"),
        Status::PartialMatch => ("partial match", "badge warn"),
        Status::LowMatch => ("low match", "badge warn"),
        Status::Failed => ("failed", "badge fail"),
        Status::Unverified => ("unverified", "badge"),
    }
}

/// One checked entry.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
struct Row {
    line: usize,
    /// Each source consulted and its answer.
    sources: Vec<String>,
    verdict: Verdict,
    /// The core's verdict on the entry (valid, hallucinated, uncertain),
    /// its reasons in words and, only when the record is the cited work,
    /// the corrected entry.
    judged: verdict::EntryVerdict,
}

/// Today as the core's date (the future-date rule reads it).
fn today() -> Option<citegate_core::cutoff::Date> {
    let d = js_sys::Date::new_0();
    citegate_core::cutoff::Date::new(d.get_full_year() as i32, d.get_month() + 1, d.get_date()).ok()
}

/// The BibTeX check page.
#[component]
pub fn BibtexPage() -> impl IntoView {
    let services = use_context::<Services>();
    // The file's text lives only in the reading task; signals hold its name
    // and the (shared, never cloned) results, so a 50 MB file is not copied
    // on every render.
    let bib_name = RwSignal::new(None::<String>);
    let bib = RwSignal::new(None::<Arc<Bibliography>>);
    let layer1 = RwSignal::new(Arc::new(Vec::<Finding>::new()));
    let reading = RwSignal::new(String::new());
    let read_id = StoredValue::new(0u64);
    let tex_files = RwSignal::new(Vec::<LoadedFile>::new());
    let mode = RwSignal::new(Mode::Default);
    let rows = RwSignal::new(Vec::<Row>::new());
    let running = RwSignal::new(false);
    let progress = RwSignal::new((0usize, 0usize));
    let run_id = StoredValue::new(0u64);
    // Whether the user gave the page anything yet: a restore from the
    // workspace that lands later must not overwrite it.
    let touched = StoredValue::new(false);

    let cites = Memo::new(move |_| {
        bib.with(|b| {
            b.as_ref()
                .map(|b| tex_files.with(|t| cite_findings(b, t)))
                .unwrap_or_default()
        })
    });

    // Reads and checks a file a slice at a time (see `components::slice`), showing
    // progress; a newer file abandons an older reading.
    let read = move |file: LoadedFile| {
        let keep = (file.text.len() <= KEEP_MAX_BYTES).then(|| file.clone());
        if let Some(s) = services {
            let tex = tex_files.get_untracked();
            leptos::task::spawn_local(async move {
                let _ = s.workspace().put(PAGE_KEY, &Saved { bib: keep, tex }).await;
            });
        }
        read_id.update_value(|r| *r += 1);
        let mine = read_id.get_value();
        run_id.update_value(|r| *r += 1);
        rows.set(Vec::new());
        bib.set(None);
        layer1.set(Arc::new(Vec::new()));
        bib_name.set(Some(file.name.clone()));
        leptos::task::spawn_local(async move {
            let LoadedFile {
                name,
                text,
                warning,
            } = file;
            let stale = move || read_id.get_value() != mine;
            let mb = |b: usize| b as f64 / 1_048_576.0;
            // CSL-JSON and RIS go through the core's shared reader in one go
            // (the sliced reader is BibTeX's); the checks are the same.
            let format = bibtex::detect_format(&name, &text);
            let sliced = if format == bibtex::Format::Bibtex {
                text.as_str()
            } else {
                ""
            };
            let mut p = parse::Incremental::new(sliced);
            while !slice(|| p.step(STEP_BYTES)) {
                let (at, total) = p.progress();
                reading.set(format!(
                    "reading {name}: {:.1} / {:.1} MB · {} entries so far",
                    mb(at),
                    mb(total),
                    p.entries_so_far()
                ));
                yield_now().await;
                if stale() {
                    return;
                }
            }
            let mut parsed = match format {
                bibtex::Format::Bibtex => p.finish(),
                _ => bibtex::read_bibliography(&name, &text),
            };
            // An 8-bit file was read as BibTeX reads it: its warning leads.
            if let Some(error) = warning {
                parsed.problems.insert(
                    0,
                    parse::Problem {
                        kind: parse::ProblemKind::Encoding,
                        error,
                    },
                );
            }
            let parsed = Arc::new(parsed);
            drop(text);
            let mut l1 = format::Layer1::new(&parsed, current_year());
            while !slice(|| l1.step(STEP_ENTRIES)) {
                let (at, total) = l1.progress();
                reading.set(format!("checking {name}: {at} / {total} entries"));
                yield_now().await;
                if stale() {
                    return;
                }
            }
            let found = l1.finish();
            if stale() {
                return;
            }
            reading.set(String::new());
            layer1.set(Arc::new(found));
            bib.set(Some(parsed));
        });
    };

    let load_example = move |_| {
        touched.set_value(true);
        tex_files.set(Vec::new());
        read(LoadedFile {
            name: "refs.bib".into(),
            text: EXAMPLE_BIB.into(),
            warning: None,
        });
    };
    let note = RwSignal::new(String::new());
    let set_bib = move |files: Vec<LoadedFile>| {
        touched.set_value(true);
        if let Some(f) = files.into_iter().next() {
            // Another paper's .bib: the .tex files given for the previous one
            // would only produce bogus findings against it.
            let previous = bib_name.get_untracked();
            if previous.as_ref().is_some_and(|p| *p != f.name)
                && tex_files.with_untracked(|t| !t.is_empty())
            {
                note.set(format!(
                    "a new bibliography: the .tex files given with {} were set aside; drop this paper's .tex files",
                    previous.unwrap_or_default()
                ));
                tex_files.set(Vec::new());
            } else {
                note.set(String::new());
            }
            read(f);
        }
    };
    let save_tex = move || {
        if let Some(s) = services {
            let tex = tex_files.get_untracked();
            leptos::task::spawn_local(async move {
                let ws = s.workspace();
                let mut saved = ws
                    .get::<Saved>(PAGE_KEY)
                    .await
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                saved.tex = tex;
                let _ = ws.put(PAGE_KEY, &saved).await;
            });
        }
    };
    let add_tex = move |files: Vec<LoadedFile>| {
        touched.set_value(true);
        tex_files.update(|t| {
            for f in files {
                t.retain(|x| x.name != f.name);
                t.push(f);
            }
        });
        save_tex();
    };
    let clear = move |_| {
        touched.set_value(true);
        read_id.update_value(|r| *r += 1);
        run_id.update_value(|r| *r += 1);
        running.set(false);
        rows.set(Vec::new());
        bib.set(None);
        bib_name.set(None);
        layer1.set(Arc::new(Vec::new()));
        tex_files.set(Vec::new());
        reading.set(String::new());
        note.set(String::new());
        progress.set((0, 0));
        if let Some(s) = services {
            leptos::task::spawn_local(async move {
                let _ = s.workspace().remove(PAGE_KEY).await;
            });
        }
    };
    // What the workspace kept comes back after a reload.
    if let Some(s) = services {
        leptos::task::spawn_local(async move {
            if let Ok(Some(saved)) = s.workspace().get::<Saved>(PAGE_KEY).await {
                if touched.get_value() || bib_name.get_untracked().is_some() {
                    return;
                }
                tex_files.set(saved.tex);
                if let Some(b) = saved.bib {
                    read(b);
                }
            }
        });
    }

    let start = move |_| {
        let Some(services) = services else { return };
        let Some(b) = bib.get_untracked() else { return };
        let m = mode.get_untracked();
        run_id.update_value(|r| *r += 1);
        let my_run = run_id.get_value();
        rows.set(Vec::new());
        running.set(true);
        progress.set((0, b.entries.len()));
        leptos::task::spawn_local(async move {
            let client = services.run_client();
            let refs: Vec<Reference> = b.entries.iter().map(Reference::from_entry).collect();
            let mut opts = Options::new(services.endpoints(), Surface::Browser);
            opts.s2_interval_ms = services.settings.get_untracked().s2_interval_ms;
            opts.s2_backoff_ms = crate::api::client::s2_backoff_ms();
            let mut run = Run::new(refs, opts);
            let report = crate::services::resolve::drive(
                &client,
                &mut run,
                || run_id.get_value() != my_run,
                |done, total| progress.set((done, total)),
            )
            .await;
            if run_id.get_value() != my_run {
                return;
            }
            let checked: Vec<Row> = b
                .entries
                .iter()
                .zip(&report.resolutions)
                .filter_map(|(entry, r)| {
                    Some(Row {
                        line: entry.line,
                        sources: sources_of(r),
                        verdict: matching::verify(entry, &existence::from_resolution(r), m),
                        judged: verdict::judge(entry, r, today()?),
                    })
                })
                .collect();
            rows.set(checked);
            progress.set((b.entries.len(), b.entries.len()));
            running.set(false);
        });
    };
    let stop = move |_| {
        run_id.update_value(|r| *r += 1);
        running.set(false);
    };

    let counts = move || {
        let r = rows.get();
        let n = |s: Status| r.iter().filter(|x| x.verdict.status == s).count();
        format!(
            "{} verified · {} partial · {} low · {} failed · {} unverified",
            n(Status::Verified),
            n(Status::PartialMatch),
            n(Status::LowMatch),
            n(Status::Failed),
            n(Status::Unverified)
        )
    };
    // Built only when the export button is clicked (the button is enabled
    // by `has_bib`, not by this text).
    let report = Signal::derive(move || {
        if bib.with(Option::is_none) {
            return String::new();
        }
        let format: Vec<Finding> = layer1.with(|l| l.iter().cloned().collect());
        let value = serde_json::json!({
            "file": bib_name.get(),
            "mode": mode.get(),
            "format": cites.with(|c| format.into_iter().chain(c.iter().cloned()).collect::<Vec<_>>()),
            "entries": rows.get(),
        });
        serde_json::to_string_pretty(&value).unwrap_or_default()
    });
    let has_bib = Signal::derive(move || bib.with(Option::is_some));
    let bib_error =
        Signal::derive(
            move || match bib.with(|b| b.as_ref().map(|b| b.entries.is_empty())) {
                Some(true) => format!(
                    "{}: no BibTeX entries were found (is it a .bib file?)",
                    bib_name.get().unwrap_or_default()
                ),
                _ => String::new(),
            },
        );
    let n_findings = move || layer1.with(|l| l.len()) + cites.with(|c| c.len());
    let shown_findings = move || {
        let l = layer1.get();
        cites.with(|c| {
            l.iter()
                .chain(c.iter())
                .take(SHOWN_FINDINGS)
                .cloned()
                .collect::<Vec<_>>()
        })
    };

    view! {
        <section class="bibtex">
            <h1>"BibTeX check"</h1>
            <p class="muted">
                "Layer 1 checks required fields, years, DOIs, duplicates and the .tex cites, offline. "
                "Layers 2–4 look each entry up (Crossref by DOI, Semantic Scholar by arXiv id or title) and compare title, authors, year and venue."
            </p>
            <div class="toolbar">
                <button type="button" id="load-example" on:click=load_example>"Load example"</button>
                <button type="button" class="secondary" id="clear" on:click=clear>"Clear"</button>
            </div>
            <div class="two-col">
                <FileDrop id="bib-input" label="Drop a .bib, CSL-JSON or RIS file" accept=".bib,.json,.ris" eight_bit=true on_files=set_bib />
                <FileDrop id="tex-input" label="Optionally, the .tex files that cite it, their folder or the project .zip" accept=".tex,.zip" multiple=true folders=true on_files=add_tex />
            </div>
            <Banner id="bib-note" kind=BannerKind::Partial text=note />
            <p class="muted" id="inputs">{move || {
                let b = bib_name.get().unwrap_or_else(|| "no .bib yet".into());
                let t: Vec<String> = tex_files.with(|t| t.iter().map(|f| f.name.clone()).collect());
                match bib.with(|x| x.as_ref().map(|x| x.entries.len())) {
                    Some(n) => format!("{b}: {n} entries{}", if t.is_empty() { String::new() } else { format!(" · {}", t.join(", ")) }),
                    None => b,
                }
            }}</p>
            <p class="muted" id="reading" aria-live="polite">{move || reading.get()}</p>
            <Banner id="bib-error" kind=BannerKind::Error text=bib_error />
            <h2>"Layer 1: format"</h2>
            <Show when=move || has_bib.get() fallback=|| view! { <p class="muted">"drop a .bib or load the example"</p> }>
                <p id="layer1-summary">{move || {
                    let count = |f: &[Finding]| f.iter().filter(|x| x.severity == Severity::Error).count();
                    let e = layer1.with(|l| count(l)) + cites.with(|c| count(c));
                    format!("{} error(s), {} warning(s)", e, n_findings() - e)
                }}</p>
                <p class="muted" id="layer1-shown">{move || {
                    let n = n_findings();
                    (n > SHOWN_FINDINGS).then(|| format!("showing the first {SHOWN_FINDINGS} of {n} findings; the exported report has all of them"))
                }}</p>
                <div class="table-wrap">
                    <table id="layer1">
                        <thead><tr><th>"severity"</th><th>"where"</th><th>"key"</th><th>"field"</th><th>"problem"</th><th>"fix"</th></tr></thead>
                        <tbody>
                            {move || shown_findings().into_iter().map(|f| {
                                let (sev, class) = match f.severity { Severity::Error => ("error", "badge fail"), Severity::Warning => ("warning", "badge warn") };
                                let place = match (&f.file, f.line) {
                                    (Some(file), Some(l)) => format!("{file}:{l}"),
                                    (None, Some(l)) => format!("line {l}"),
                                    _ => String::new(),
                                };
                                view! { <tr>
                                    <td><span class=class>{sev}</span></td>
                                    <td>{place}</td>
                                    <td><code>{f.key.clone().unwrap_or_default()}</code></td>
                                    <td>{f.field.clone().unwrap_or_default()}</td>
                                    <td>{f.message.clone()}</td>
                                    <td><code>{f.suggestion.clone().unwrap_or_default()}</code></td>
                                </tr> }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </Show>
            <h2>"Layers 2–4: existence and match"</h2>
            <div class="toolbar">
                <label for="mode">"Mode"</label>
                <select id="mode" on:change=move |ev| mode.set(match event_target_value(&ev).as_str() { "strict" => Mode::Strict, "loose" => Mode::Loose, _ => Mode::Default })>
                    <option value="default" selected=true>"default (everyday)"</option>
                    <option value="strict">"strict (final submission)"</option>
                    <option value="loose">"loose (drafts)"</option>
                </select>
                <button type="button" id="check-entries" disabled=move || running.get() || !has_bib.get() || services.is_none() on:click=start>"Check every entry"</button>
                <button type="button" class="secondary" id="stop" disabled=move || !running.get() on:click=stop>"Stop"</button>
                <DownloadButton id="export-report" label="Export report (JSON)" filename="bibtex_report.json".to_string() mime="application/json" content=report enabled=has_bib />
            </div>
            {services.is_none().then(|| view! { <div class="banner error">"The browser services did not start (storage unavailable?); only layer 1 can run."</div> })}
            <progress id="progress" max=move || progress.get().1.max(1).to_string() value=move || progress.get().0.to_string()></progress>
            <span class="muted" id="progress-text">{move || { let (d, n) = progress.get(); if n == 0 { String::new() } else { format!(" {d}/{n} · {}", counts()) } }}</span>
            <div class="entries" id="entries">
                {move || rows.get().into_iter().map(|r| {
                    let (label, class) = status_label(r.verdict.status);
                    let key = r.verdict.key.clone();
                    // The corrected entry only when the record is the cited work.
                    let corrected = r.judged.corrected.clone().unwrap_or_default();
                    let judged_label = r.judged.verdict.label();
                    let judged_class = match r.judged.verdict {
                        verdict::Verdict::Valid => "badge pass",
                        verdict::Verdict::Hallucinated => "badge fail",
                        verdict::Verdict::Uncertain => "badge warn",
                    };
                    let judged_kind = format!("{:?}", r.judged.verdict).to_lowercase();
                    let reasons: Vec<String> = r.judged.reasons.iter().map(|x| x.message.clone()).collect();
                    let route = if r.sources.is_empty() { "nothing asked".to_string() } else { r.sources.join(" · ") };
                    view! {
                        <div class="entry-card" data-key=key.clone() data-status=label data-verdict=judged_kind>
                            <div class="score-line">
                                <code class="entry-key">{key.clone()}</code>
                                <span class=format!("{judged_class} entry-verdict")>{judged_label}</span>
                                <span class=format!("{class} entry-status")>{label}</span>
                                <span class="muted">{r.verdict.score.map(|s| format!("score {s:.2}")).unwrap_or_default()}</span>
                                <span class="muted">{format!("line {} · {route}", r.line)}</span>
                            </div>
                            {r.verdict.reason.clone().map(|x| view! { <p class="reason">{x}</p> })}
                            {(!reasons.is_empty()).then(|| view! {
                                <ul class="verdict-reasons">{reasons.iter().map(|m| view! { <li>{m.clone()}</li> }).collect_view()}</ul>
                            })}
                            {(!r.verdict.evidence.is_empty()).then(|| view! {
                                <div class="table-wrap"><table class="evidence">
                                    <thead><tr><th>"field"</th><th>"entry"</th><th>"record"</th><th>"similarity"</th><th></th></tr></thead>
                                    <tbody>{r.verdict.evidence.iter().map(|e| view! { <tr>
                                        <td>{format!("{:?}", e.field).to_lowercase()}</td>
                                        <td>{e.ours.clone()}</td>
                                        <td>{e.theirs.clone()}</td>
                                        <td>{format!("{:.2}", e.similarity)}</td>
                                        <td>{if e.matched { "✓" } else { "✗" }}</td>
                                    </tr> }).collect_view()}</tbody>
                                </table></div>
                            })}
                            {(!corrected.is_empty()).then(|| {
                                let c = corrected.clone();
                                view! {
                                    <details>
                                        <summary>"Corrected entry from the record"</summary>
                                        <pre class="corrected">{corrected.clone()}</pre>
                                        <CopyButton id="copy-corrected" label="Copy corrected entry" text=Signal::derive(move || c.clone()) />
                                    </details>
                                }
                            })}
                        </div>
                    }
                }).collect_view()}
            </div>
        </section>
    }
}
