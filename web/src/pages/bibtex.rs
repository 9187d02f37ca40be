//! "BibTeX check": any `.bib` in four layers. Layer 1 (format, duplicates,
//! agreement with the `.tex` cites) runs offline as soon as a file is
//! dropped; layers 2–4 hand every entry to the core's verification engine
//! ([`citegate_core::resolve::Run`]: DOIs, arXiv ids and titles routed,
//! batched and retried there), which this page only drives through the
//! app's throttled, cached client ([`crate::services::resolve::drive`]),
//! and show each verdict with the sources consulted.

use crate::components::{
    Banner, BannerKind, CopyButton, DownloadButton, FileDrop, LoadedFile, Progress,
};
use crate::services::sliced::{run_sliced, Latest};
use crate::services::Services;
use citegate_core::bibtex;
use citegate_core::bibtex::check::{self, FileReport, OnlineReport};
use citegate_core::bibtex::existence;
use citegate_core::bibtex::format::{self, Finding, Severity};
use citegate_core::bibtex::matching::{self, Mode, Status, Verdict};
use citegate_core::bibtex::parse::{self, Bibliography};
use citegate_core::bibtex::report::{self, Status as Check};
use citegate_core::bibtex::verdict;
use citegate_core::resolve::{Answer, Options, Reference, Resolution, Surface};
use citegate_core::tex;
use citegate_core::tex::Project;
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

/// The LaTeX project the `.tex` files make, when there are any (its cites
/// are checked against the `.bib` by the core's [`check::finish`]).
fn project_of(tex_files: &[LoadedFile]) -> Option<Project> {
    if tex_files.is_empty() {
        return None;
    }
    let map: BTreeMap<String, String> = tex_files
        .iter()
        .map(|f| (f.name.clone(), f.text.clone()))
        .collect();
    let roots: Vec<String> = tex_files.iter().map(|f| f.name.clone()).collect();
    Some(tex::scan_project(&roots, &map))
}

/// The `.bib` file name with `suffix` in place of its extension.
fn renamed(name: &str, suffix: &str) -> String {
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let stem = if stem.is_empty() { "references" } else { stem };
    format!("{stem}{suffix}")
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
    /// The entry's status in words (not found anywhere, found but differs…).
    check: Check,
    /// Links to the records that are the cited work (built in core).
    links: Vec<report::Link>,
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
    let reach = use_context::<crate::components::Reach>();
    // The file's text lives only in the reading task; signals hold its name
    // and the (shared, never cloned) results, so a 50 MB file is not copied
    // on every render.
    let bib_name = RwSignal::new(None::<String>);
    let bib = RwSignal::new(None::<Arc<Bibliography>>);
    let layer1 = RwSignal::new(Arc::new(Vec::<Finding>::new()));
    let reading = RwSignal::new(String::new());
    // The reading in flight and the online run in flight: a newer file,
    // Clear or Stop cancels them, and their results are dropped.
    let reading_run = StoredValue::new(Latest::default());
    let tex_files = RwSignal::new(Vec::<LoadedFile>::new());
    let mode = RwSignal::new(Mode::Default);
    let rows = RwSignal::new(Vec::<Row>::new());
    let running = RwSignal::new(false);
    let paused = RwSignal::new(false);
    let progress = RwSignal::new((0usize, 0usize));
    let online_run = StoredValue::new(Latest::default());
    // The BibTeX text the entries were read from (for the fixed .bib), and
    // the online layers' report.
    let source = StoredValue::new(None::<Arc<String>>);
    let online = RwSignal::new(None::<Arc<OnlineReport>>);
    let filter = RwSignal::new(None::<Check>);
    let sort = RwSignal::new(String::from("file"));
    // Whether the user gave the page anything yet: a restore from the
    // workspace that lands later must not overwrite it.
    let touched = StoredValue::new(false);

    // Layer 1 as the core's use case reports it: the entry findings the
    // sliced pass produced, with the .tex cites checked by `check::finish`.
    let file_report = Memo::new(move |_| {
        bib.with(|b| {
            b.as_ref().map(|b| {
                let project = tex_files.with(|t| project_of(t));
                let name = bib_name.get().unwrap_or_default();
                let entry_findings = layer1.with(|l| l.iter().cloned().collect());
                let mut r = check::finish(&name, b, project.as_ref(), entry_findings);
                r.mode = mode.get();
                Arc::new(r)
            })
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
        let token = reading_run.with_value(Latest::restart);
        online_run.with_value(Latest::cancel);
        rows.set(Vec::new());
        online.set(None);
        running.set(false);
        paused.set(false);
        progress.set((0, 0));
        source.set_value(None);
        bib.set(None);
        layer1.set(Arc::new(Vec::new()));
        bib_name.set(Some(file.name.clone()));
        leptos::task::spawn_local(async move {
            let LoadedFile {
                name,
                text,
                warning,
            } = file;
            let mb = |b: usize| b as f64 / 1_048_576.0;
            // CSL-JSON and RIS go through the core's shared reader in one go
            // (the sliced reader is BibTeX's); the checks are the same.
            let format = bibtex::detect_format(&name, &text);
            let sliced = if format == bibtex::Format::Bibtex {
                text.as_str()
            } else {
                ""
            };
            let p = parse::Incremental::new(sliced);
            let reported = |p: &parse::Incremental<'_>| {
                let (at, total) = p.progress();
                reading.set(format!(
                    "reading {name}: {:.1} / {:.1} MB · {} entries so far",
                    mb(at),
                    mb(total),
                    p.entries_so_far()
                ));
            };
            let Some(read) = run_sliced(p, STEP_BYTES, reported, &token).await else {
                return;
            };
            let mut parsed = match format {
                bibtex::Format::Bibtex => read,
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
            if format == bibtex::Format::Bibtex {
                source.set_value(Some(Arc::new(text)));
            } else {
                drop(text);
            }
            let l1 = format::Layer1::new(&parsed, current_year());
            let checking = |l1: &format::Layer1<'_>| {
                let (at, total) = l1.progress();
                reading.set(format!("checking {name}: {at} / {total} entries"));
            };
            let Some(found) = run_sliced(l1, STEP_ENTRIES, checking, &token).await else {
                return;
            };
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
        reading_run.with_value(Latest::cancel);
        online_run.with_value(Latest::cancel);
        running.set(false);
        paused.set(false);
        rows.set(Vec::new());
        online.set(None);
        source.set_value(None);
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

    let start = move |_: ()| {
        let Some(services) = services else { return };
        let Some(b) = bib.get_untracked() else { return };
        let m = mode.get_untracked();
        let token = online_run.with_value(Latest::restart);
        rows.set(Vec::new());
        online.set(None);
        running.set(true);
        progress.set((0, b.entries.len()));
        leptos::task::spawn_local(async move {
            let client = services.run_client();
            let refs: Vec<Reference> = b.entries.iter().map(Reference::from_entry).collect();
            let mut opts = Options::new(services.endpoints(), Surface::Browser);
            opts.s2_interval_ms = services.settings.get_untracked().s2_interval_ms;
            opts.s2_backoff_ms = crate::api::client::s2_backoff_ms();
            // A run of the same references stopped by a reload goes on from its checkpoint.
            let ws = services.workspace();
            let key = crate::services::resolve::checkpoint_key(&refs);
            let (mut run, _) = crate::services::resolve::resume_or_new(&ws, &key, refs, opts).await;
            let report = crate::services::resolve::drive_saving(
                &client,
                &ws,
                &key,
                &mut run,
                || token.is_cancelled(),
                |done, total| progress.set((done, total)),
            )
            .await;
            if token.is_cancelled() {
                return;
            }
            crate::components::offline::report_run(reach, &report);
            let down = crate::components::offline::services_down(reach);
            let Some(today) = today() else { return };
            let requests = usize::try_from(report.requests).unwrap_or(usize::MAX);
            let judged = check::online_report(&b, &report, today, requests, 0);
            let checked: Vec<Row> = b
                .entries
                .iter()
                .zip(&report.resolutions)
                .zip(&judged.entries)
                .map(|((entry, r), o)| Row {
                    line: entry.line,
                    // While the app's banner says the services cannot be
                    // reached, a card does not repeat the fetch error.
                    sources: if down {
                        vec!["services not reached".to_string()]
                    } else {
                        sources_of(r)
                    },
                    verdict: matching::verify(entry, &existence::from_resolution(r), m),
                    judged: verdict::EntryVerdict {
                        verdict: o.verdict,
                        reasons: o.reasons.clone(),
                        corrected: o.corrected.clone(),
                    },
                    check: report::status(o),
                    links: report::links(o, entry.get("title")),
                })
                .collect();
            rows.set(checked);
            online.set(Some(Arc::new(judged)));
            progress.set((b.entries.len(), b.entries.len()));
            running.set(false);
        });
    };
    let stop = Callback::new(move |_| {
        online_run.with_value(Latest::cancel);
        running.set(false);
        paused.set(false);
    });
    // Pause stops the run where it is (its checkpoint is saved as it goes);
    // Resume starts it again from that checkpoint, so nothing answered is
    // asked twice. The progress display keeps its clock and estimate.
    Effect::new(move |before: Option<bool>| {
        let now = paused.get();
        if before.is_some_and(|b| b != now) && running.get_untracked() {
            if now {
                online_run.with_value(Latest::cancel);
            } else {
                start(());
            }
        }
        now
    });

    // The full report (layer 1 and, once run, layers 2–4), built by the
    // core; the exports are built from it only when a button is clicked
    // (the buttons are enabled by `has_bib`).
    let full_report = move || -> Option<(FileReport, Arc<Bibliography>)> {
        let mut r = (*file_report.get()?).clone();
        r.online = online.get().map(|o| (*o).clone());
        Some((r, bib.get()?))
    };
    let report = Signal::derive(move || {
        full_report()
            .map(|(r, _)| report::to_json(&r))
            .unwrap_or_default()
    });
    let report_csv = Signal::derive(move || {
        full_report()
            .map(|(r, b)| report::to_csv(&r, &b))
            .unwrap_or_default()
    });
    let report_md = Signal::derive(move || {
        full_report()
            .map(|(r, b)| report::to_markdown(&r, &b))
            .unwrap_or_default()
    });
    let fixed = Signal::derive(move || {
        let (Some(o), Some(b)) = (online.get(), bib.get()) else {
            return String::new();
        };
        if o.entries.iter().all(|e| e.corrected.is_none()) {
            return String::new();
        }
        source
            .with_value(|s| s.as_ref().map(|s| report::fixed_bib(s, &b, &o).text))
            .unwrap_or_default()
    });
    let corrections = Signal::derive(move || {
        online
            .get()
            .map(|o| report::corrections(&o))
            .unwrap_or_default()
    });
    let has_online = Signal::derive(move || online.with(Option::is_some));
    let tally = move || online.get().map(|o| report::tally(&o)).unwrap_or_default();
    let base_name = move || bib_name.get().unwrap_or_else(|| "references.bib".into());
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
    let n_findings = move || file_report.with(|r| r.as_ref().map_or(0, |r| r.findings.len()));
    let shown_findings = move || {
        file_report.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.findings
                        .iter()
                        .take(SHOWN_FINDINGS)
                        .cloned()
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    // The cards in the chosen order, of the chosen status.
    let shown_rows = move || {
        let mut r: Vec<Row> = rows.get();
        if let Some(f) = filter.get() {
            r.retain(|x| x.check == f);
        }
        match sort.get().as_str() {
            "status" => r.sort_by_key(|x| (x.check, x.line)),
            "key" => r.sort_by(|a, b| {
                a.verdict
                    .key
                    .to_lowercase()
                    .cmp(&b.verdict.key.to_lowercase())
            }),
            _ => {}
        }
        r
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
                    file_report.with(|r| r.as_ref().map(|r| format!("{} error(s), {} warning(s)", r.errors, r.warnings)))
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
                <button type="button" id="check-entries" disabled=move || running.get() || !has_bib.get() || services.is_none() on:click=move |_| start(())>"Check every entry"</button>
            </div>
            {services.is_none().then(|| view! { <div class="banner error">"The browser services did not start (storage unavailable?); only layer 1 can run."</div> })}
            <Progress id="progress" label="Checking entries" counts=progress running=running paused=paused on_cancel=stop />
            <div class="toolbar" id="exports">
                <DownloadButton id="export-report" label="Report (JSON)" filename=Signal::derive(move || renamed(&base_name(), "_report.json")) mime="application/json" content=report enabled=has_bib />
                <DownloadButton id="export-csv" label="Report (CSV)" filename=Signal::derive(move || renamed(&base_name(), "_report.csv")) mime="text/csv;charset=utf-8" content=report_csv enabled=has_bib />
                <DownloadButton id="export-md" label="Report (Markdown)" filename=Signal::derive(move || renamed(&base_name(), "_report.md")) mime="text/markdown;charset=utf-8" content=report_md enabled=has_bib />
                <DownloadButton id="download-fixed" label="Download fixed .bib" filename=Signal::derive(move || renamed(&base_name(), ".fixed.bib")) content=fixed />
                <CopyButton id="copy-corrections" label="Copy all corrections" text=corrections />
            </div>
            <Show when=move || has_online.get()>
                <figure class="verdict-chart" id="verdict-chart">
                    <figcaption>{move || format!("Verdicts of {} entries", rows.with(|r| r.len()))}</figcaption>
                    <ul>
                        {move || {
                            let t = tally();
                            let most = t.iter().map(|(_, n)| *n).max().unwrap_or(0).max(1);
                            t.into_iter().map(|(s, n)| {
                                let pct = n * 100 / most;
                                view! {
                                    <li class=format!("bar-row check-{}", s.name()) data-check=s.name()>
                                        <span class="bar-label">{s.label()}</span>
                                        <span class="bar-track" aria-hidden="true"><span class="bar" style:width=format!("{pct}%")></span></span>
                                        <span class="bar-count">{n}</span>
                                    </li>
                                }
                            }).collect_view()
                        }}
                    </ul>
                </figure>
                <div class="toolbar" id="entry-controls">
                    <label for="filter">"Show"</label>
                    <select id="filter" on:change=move |ev| filter.set(Check::from_name(&event_target_value(&ev)))>
                        <option value="all" selected=true>"every entry"</option>
                        {Check::ALL.into_iter().map(|s| view! { <option value=s.name()>{s.label()}</option> }).collect_view()}
                    </select>
                    <label for="sort">"Sort by"</label>
                    <select id="sort" on:change=move |ev| sort.set(event_target_value(&ev))>
                        <option value="file" selected=true>"order in the file"</option>
                        <option value="status">"status, worst first"</option>
                        <option value="key">"key"</option>
                    </select>
                    <span class="muted" id="shown-count">{move || {
                        let n = rows.with(|r| r.len());
                        let shown = shown_rows().len();
                        if shown == n { format!("{n} entries") } else { format!("{shown} of {n} entries") }
                    }}</span>
                </div>
            </Show>
            <div class="entries" id="entries">
                {move || shown_rows().into_iter().map(|r| {
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
                    let check = r.check;
                    let links = r.links.clone();
                    view! {
                        <div class=format!("entry-card check-{}", check.name()) data-key=key.clone() data-status=label data-verdict=judged_kind data-check=check.name()>
                            <div class="score-line">
                                <code class="entry-key">{key.clone()}</code>
                                <span class=format!("check-badge check-{}", check.name())>{check.label()}</span>
                                // The verdict in the core's words where it adds to the status
                                // (a valid or unchecked entry's would repeat it).
                                {(r.judged.verdict == verdict::Verdict::Hallucinated).then(|| view! {
                                    <span class=format!("{judged_class} entry-verdict")>{judged_label}</span>
                                })}
                                // How well the fields agree, only where a record was compared.
                                {matches!(check, Check::Differs | Check::Matches).then(|| view! {
                                    <span class=format!("{class} entry-status")>{format!("fields: {label}")}</span>
                                })}
                                <span class="muted">{r.verdict.score.map(|s| format!("score {s:.2}")).unwrap_or_default()}</span>
                                <span class="muted">{format!("line {} · {route}", r.line)}</span>
                            </div>
                            {r.verdict.reason.clone().map(|x| view! { <p class="reason">{x}</p> })}
                            {(!links.is_empty()).then(|| view! {
                                <p class="record-links">"Records: "
                                    {links.iter().map(|l| view! {
                                        <a href=l.url.clone() target="_blank" rel="noopener noreferrer">{l.source}</a>" "
                                    }).collect_view()}
                                </p>
                            })}
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
