//! "BibTeX check": any `.bib` in four layers. Layer 1 (format, duplicates,
//! agreement with the `.tex` cites) runs offline as soon as a file is
//! dropped; layers 2–4 ask one service per entry, through the app's
//! throttled, cached client, and show the verdict with its evidence.

use crate::components::{
    yield_now, Banner, BannerKind, CopyButton, DownloadButton, FileDrop, LoadedFile,
};
use crate::services::Services;
use citegate_core::bibtex::existence::{self, Existence, Lookup};
use citegate_core::bibtex::format::{self, CiteUse, Finding, Severity};
use citegate_core::bibtex::matching::{self, Mode, Status, Verdict};
use citegate_core::bibtex::parse::{self, Bibliography};
use citegate_core::tex;
use citegate_core::works::request::{Endpoints, Method, Request};
use citegate_core::works::Service;
use leptos::prelude::*;
use std::collections::BTreeMap;

const EXAMPLE_BIB: &str = include_str!("../../examples/refs.bib");

/// A lookup as a request to the configured endpoints.
pub fn lookup_request(lookup: &Lookup, ep: &Endpoints) -> Request {
    let (base, path) = match lookup.service {
        Service::Crossref => (ep.crossref_base.as_str(), lookup.path.as_str()),
        Service::OpenAlex => (ep.openalex_base.as_str(), lookup.path.as_str()),
        // Lookup paths name the Graph API's root; the base already ends there.
        _ => (
            ep.s2_base.as_str(),
            lookup
                .path
                .strip_prefix("/graph/v1")
                .unwrap_or(&lookup.path),
        ),
    };
    let mut query: Vec<(String, String)> = lookup.query.clone();
    if lookup.service == Service::Crossref {
        if let Some(m) = ep.mailto.as_ref().filter(|m| !m.is_empty()) {
            query.push(("mailto".into(), m.clone()));
        }
    }
    let mut url = format!("{}{}", base.trim_end_matches('/'), path);
    if !query.is_empty() {
        let q: Vec<String> = query
            .iter()
            .map(|(k, v)| {
                format!(
                    "{}={}",
                    js_sys::encode_uri_component(k),
                    js_sys::encode_uri_component(v)
                )
            })
            .collect();
        url.push('?');
        url.push_str(&q.join("&"));
    }
    let mut headers = vec![("Accept".to_string(), "application/json".to_string())];
    if lookup.service == Service::SemanticScholar {
        if let Some(k) = ep.s2_api_key.as_ref().filter(|k| !k.is_empty()) {
            headers.push(("x-api-key".into(), k.clone()));
        }
    }
    Request {
        service: lookup.service,
        method: Method::Get,
        url,
        headers,
        body: None,
    }
}

/// Asks for one entry and returns what the answer says.
pub async fn check_entry(
    services: &Services,
    client: &crate::api::Client,
    entry: &parse::Entry,
    mode: Mode,
) -> (Option<Lookup>, Verdict) {
    let Some(lookup) = existence::plan(entry) else {
        let v = matching::verify(
            entry,
            &Existence::NotFound {
                reason: "the entry has no doi, arxiv id or title to look up".into(),
            },
            mode,
        );
        return (None, v);
    };
    let req = lookup_request(&lookup, &services.endpoints());
    let title = entry.decoded("title");
    let existence = match client.execute(&req).await {
        Ok(f) => existence::outcome(&lookup, title.as_deref(), f.status, &f.body),
        Err(crate::api::ClientError::Api { error, .. }) => Existence::ApiError { error },
        Err(_) => existence::outcome(&lookup, title.as_deref(), 0, ""),
    };
    let v = matching::verify(entry, &existence, mode);
    (Some(lookup), v)
}

fn current_year() -> i32 {
    js_sys::Date::new_0().get_full_year() as i32
}

fn layer1(bib: &Bibliography, tex_files: &[LoadedFile]) -> Vec<Finding> {
    let mut out = format::check_entries(bib, current_year());
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
                key: c.key.clone(),
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
    lookup: Option<Lookup>,
    verdict: Verdict,
}

/// The BibTeX check page.
#[component]
pub fn BibtexPage() -> impl IntoView {
    let services = use_context::<Services>();
    let bib_file = RwSignal::new(None::<LoadedFile>);
    let tex_files = RwSignal::new(Vec::<LoadedFile>::new());
    let mode = RwSignal::new(Mode::Default);
    let rows = RwSignal::new(Vec::<Row>::new());
    let running = RwSignal::new(false);
    let progress = RwSignal::new((0usize, 0usize));
    let run_id = StoredValue::new(0u64);

    let bib = Memo::new(move |_| bib_file.get().map(|f| parse::parse(&f.text)));
    let findings = Memo::new(move |_| {
        bib.get()
            .map(|b| layer1(&b, &tex_files.get()))
            .unwrap_or_default()
    });

    let load_example = move |_| {
        run_id.update_value(|r| *r += 1);
        rows.set(Vec::new());
        tex_files.set(Vec::new());
        bib_file.set(Some(LoadedFile {
            name: "refs.bib".into(),
            text: EXAMPLE_BIB.into(),
        }));
    };
    let set_bib = move |files: Vec<LoadedFile>| {
        run_id.update_value(|r| *r += 1);
        rows.set(Vec::new());
        bib_file.set(files.into_iter().next());
    };
    let add_tex = move |files: Vec<LoadedFile>| tex_files.update(|t| t.extend(files));

    let start = move |_| {
        let Some(services) = services else { return };
        let Some(b) = bib.get_untracked() else { return };
        run_id.update_value(|r| *r += 1);
        let my_run = run_id.get_value();
        let m = mode.get_untracked();
        rows.set(Vec::new());
        running.set(true);
        progress.set((0, b.entries.len()));
        leptos::task::spawn_local(async move {
            let client = services.run_client();
            for (i, entry) in b.entries.iter().enumerate() {
                if run_id.get_value() != my_run {
                    return;
                }
                let (lookup, verdict) = check_entry(&services, &client, entry, m).await;
                if run_id.get_value() != my_run {
                    return;
                }
                rows.update(|r| {
                    r.push(Row {
                        line: entry.line,
                        lookup,
                        verdict,
                    })
                });
                progress.set((i + 1, b.entries.len()));
                yield_now().await;
            }
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
    let report = Signal::derive(move || {
        if bib.get().is_none() {
            return String::new();
        }
        let value = serde_json::json!({
            "file": bib_file.get().map(|f| f.name),
            "mode": mode.get(),
            "format": findings.get(),
            "entries": rows.get(),
        });
        serde_json::to_string_pretty(&value).unwrap_or_default()
    });
    let bib_error = Signal::derive(move || match bib.get() {
        Some(b) if b.entries.is_empty() => format!(
            "{}: no BibTeX entries were found (is it a .bib file?)",
            bib_file.get().map(|f| f.name).unwrap_or_default()
        ),
        _ => String::new(),
    });

    view! {
        <section class="bibtex">
            <h1>"BibTeX check"</h1>
            <p class="muted">
                "Layer 1 checks required fields, years, DOIs, duplicates and the .tex cites, offline. "
                "Layers 2–4 look each entry up (Crossref by DOI, Semantic Scholar by arXiv id or title) and compare title, authors, year and venue."
            </p>
            <div class="toolbar">
                <button type="button" id="load-example" on:click=load_example>"Load example"</button>
            </div>
            <div class="two-col">
                <FileDrop id="bib-input" label="Drop a .bib file" accept=".bib" on_files=set_bib />
                <FileDrop id="tex-input" label="Optionally, the .tex files that cite it" accept=".tex" multiple=true on_files=add_tex />
            </div>
            <p class="muted" id="inputs">{move || {
                let b = bib_file.get().map(|f| f.name).unwrap_or_else(|| "no .bib yet".into());
                let t: Vec<String> = tex_files.get().iter().map(|f| f.name.clone()).collect();
                match bib.get() {
                    Some(x) => format!("{b}: {} entries{}", x.entries.len(), if t.is_empty() { String::new() } else { format!(" · {}", t.join(", ")) }),
                    None => b,
                }
            }}</p>
            <Banner id="bib-error" kind=BannerKind::Error text=bib_error />
            <h2>"Layer 1: format"</h2>
            <Show when=move || bib.get().is_some() fallback=|| view! { <p class="muted">"drop a .bib or load the example"</p> }>
                <p id="layer1-summary">{move || {
                    let f = findings.get();
                    let e = f.iter().filter(|x| x.severity == Severity::Error).count();
                    format!("{} error(s), {} warning(s)", e, f.len() - e)
                }}</p>
                <div class="table-wrap">
                    <table id="layer1">
                        <thead><tr><th>"severity"</th><th>"where"</th><th>"key"</th><th>"field"</th><th>"problem"</th><th>"fix"</th></tr></thead>
                        <tbody>
                            {move || findings.get().into_iter().map(|f| {
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
                <button type="button" id="check-entries" disabled=move || running.get() || bib.get().is_none() || services.is_none() on:click=start>"Check every entry"</button>
                <button type="button" class="secondary" id="stop" disabled=move || !running.get() on:click=stop>"Stop"</button>
                <DownloadButton id="export-report" label="Export report (JSON)" filename="bibtex_report.json".to_string() mime="application/json" content=report />
            </div>
            {services.is_none().then(|| view! { <div class="banner error">"The browser services did not start (storage unavailable?); only layer 1 can run."</div> })}
            <progress id="progress" max=move || progress.get().1.max(1).to_string() value=move || progress.get().0.to_string()></progress>
            <span class="muted" id="progress-text">{move || { let (d, n) = progress.get(); if n == 0 { String::new() } else { format!(" {d}/{n} · {}", counts()) } }}</span>
            <div class="entries" id="entries">
                {move || rows.get().into_iter().map(|r| {
                    let (label, class) = status_label(r.verdict.status);
                    let key = r.verdict.key.clone();
                    let corrected = r.verdict.corrected.clone().unwrap_or_default();
                    let route = r.lookup.as_ref().map(|l| format!("{} · {}", l.service.name(), l.id)).unwrap_or_else(|| "no lookup".into());
                    view! {
                        <div class="entry-card" data-key=key.clone() data-status=label>
                            <div class="score-line">
                                <code class="entry-key">{key.clone()}</code>
                                <span class=format!("{class} entry-status")>{label}</span>
                                <span class="muted">{r.verdict.score.map(|s| format!("score {s:.2}")).unwrap_or_default()}</span>
                                <span class="muted">{format!("line {} · {route}", r.line)}</span>
                            </div>
                            {r.verdict.reason.clone().map(|x| view! { <p class="reason">{x}</p> })}
                            {(!r.verdict.evidence.is_empty()).then(|| view! {
                                <table class="evidence">
                                    <thead><tr><th>"field"</th><th>"entry"</th><th>"record"</th><th>"similarity"</th><th></th></tr></thead>
                                    <tbody>{r.verdict.evidence.iter().map(|e| view! { <tr>
                                        <td>{format!("{:?}", e.field).to_lowercase()}</td>
                                        <td>{e.ours.clone()}</td>
                                        <td>{e.theirs.clone()}</td>
                                        <td>{format!("{:.2}", e.similarity)}</td>
                                        <td>{if e.matched { "✓" } else { "✗" }}</td>
                                    </tr> }).collect_view()}</tbody>
                                </table>
                            })}
                            {(!corrected.is_empty()).then(|| {
                                let c = corrected.clone();
                                view! {
                                    <details open=true>
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
