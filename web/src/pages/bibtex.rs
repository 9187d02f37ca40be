//! "BibTeX check": any `.bib` in four layers. Layer 1 (format, duplicates,
//! agreement with the `.tex` cites) runs offline as soon as a file is
//! dropped; layers 2–4 hand every entry to the core's verification engine
//! ([`citegate_core::resolve::Run`]: DOIs, arXiv ids and titles routed,
//! batched and retried there), which this page only drives through the
//! app's throttled, cached client ([`crate::services::resolve::drive`]),
//! and show each verdict with the sources consulted.

use crate::components::{
    read_paper, read_pasted, Banner, BannerKind, CopyButton, DownloadButton, FileDrop, LoadedFile,
    Pasted, Progress,
};
use crate::services::sliced::{run_sliced, Cancel, Latest};
use crate::services::Services;
use citegate_core::bibtex;
use citegate_core::bibtex::check::{self, FileReport, OnlineReport};
use citegate_core::bibtex::existence;
use citegate_core::bibtex::format::{self, Finding, Severity};
use citegate_core::bibtex::matching::{self, Mode, Status, Verdict};
use citegate_core::bibtex::parse::{self, Bibliography, Entry};
use citegate_core::bibtex::report::{self, Status as Check};
use citegate_core::bibtex::review::Review;
use citegate_core::bibtex::verdict::{self, Change};
use citegate_core::resolve::{Answer, Options, Resolution, Run};
use citegate_core::tex;
use citegate_core::tex::Project;
use citegate_core::text::count;
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
                Answer::Hits { works } if works.len() == 1 => "1 hit".to_string(),
                Answer::Hits { works } => format!("{} hits", works.len()),
                Answer::NotHere => "not there".to_string(),
                // The banner says once why (the day's allowance, a key);
                // the card does not repeat the service's error text.
                Answer::Failed { error } if report::is_spent(error) => {
                    "could not check: allowance spent".to_string()
                }
                Answer::Failed { error } => format!("failed: {error}"),
            };
            // A local index's answer names its dump and the dump's date.
            let source = e.dump.as_deref().unwrap_or(e.service.name());
            format!("{source} ({}): {answer}", e.asked)
        })
        .collect()
}

/// The current year (UTC), for the year-range rule.
fn current_year() -> i32 {
    today().map_or(1970, |d| d.year())
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

/// How the fields agree, for the card's `data-status` (the card shows one
/// status in words; the evidence table shows the fields).
fn status_label(s: Status) -> &'static str {
    match s {
        Status::Verified => "verified",
        Status::PartialMatch => "partial match",
        Status::LowMatch => "low match",
        Status::Failed => "failed",
        Status::Unverified => "unverified",
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

/// Today (UTC, as the CLI) as the core's date (the future-date rule reads it).
fn today() -> Option<citegate_core::cutoff::Date> {
    citegate_core::cutoff::Date::from_unix_ms(js_sys::Date::now()).ok()
}

/// The run's options as the settings give them (a resumed or restored run
/// is rebuilt with the same ones).
fn run_options(services: &Services) -> Options {
    let surface = services.settings.get_untracked().surface();
    let mut opts = Options::new(services.endpoints(), surface);
    opts.s2_interval_ms = services.settings.get_untracked().s2_interval_ms;
    opts.s2_backoff_ms = crate::api::client::s2_backoff_ms();
    opts
}

/// One entry's card from its resolution and the core's judgement of it;
/// `down` when the app's banner says the services cannot be reached (the
/// card then does not repeat the fetch error).
fn row_of(entry: &Entry, r: &Resolution, o: &check::OnlineEntry, mode: Mode, down: bool) -> Row {
    Row {
        line: entry.line,
        sources: if down {
            vec!["services not reached".to_string()]
        } else {
            sources_of(r)
        },
        verdict: matching::verify(entry, &existence::from_resolution(r), mode),
        judged: o.judged(),
        check: report::status(o),
        links: report::links(o, entry.get("title")),
    }
}

/// The cards of the references `run` has decided whose index is not yet
/// marked in `shown` (marked now), in file order.
fn decided_rows(
    b: &Bibliography,
    run: &Run,
    shown: &mut [bool],
    today: citegate_core::cutoff::Date,
    mode: Mode,
    down: bool,
) -> Vec<Row> {
    let mut out = Vec::new();
    for ((entry, seen), i) in b.entries.iter().zip(shown.iter_mut()).zip(0..) {
        if *seen {
            continue;
        }
        if let Some(r) = run.decided(i) {
            *seen = true;
            out.push(row_of(
                entry,
                &r,
                &check::online_entry(entry, &r, today),
                mode,
                down,
            ));
        }
    }
    out
}

/// Everything the BibTeX check page reads and writes, and its runs in
/// flight: one value, cheap to copy into each sub-component and handler.
#[derive(Clone, Copy)]
struct BibtexState {
    services: Option<Services>,
    reach: Option<crate::components::Reach>,
    // The file's text lives only in the reading task; signals hold its name
    // and the (shared, never cloned) results, so a 50 MB file is not copied
    // on every render.
    bib_name: RwSignal<Option<String>>,
    bib: RwSignal<Option<Arc<Bibliography>>>,
    layer1: RwSignal<Arc<Vec<Finding>>>,
    reading: RwSignal<String>,
    /// The reading in flight: a newer file or Clear cancels it, and its
    /// results are dropped.
    reading_run: StoredValue<Latest>,
    tex_files: RwSignal<Vec<LoadedFile>>,
    mode: RwSignal<Mode>,
    rows: RwSignal<Vec<Row>>,
    running: RwSignal<bool>,
    paused: RwSignal<bool>,
    progress: RwSignal<(usize, usize)>,
    /// A run found stopped part way after a reload, `(decided, total)`:
    /// its decided cards are shown and Resume goes on from its checkpoint.
    stopped: RwSignal<Option<(usize, usize)>>,
    /// The services whose allowance ran out in the run shown (one banner).
    spent: RwSignal<Vec<report::Spent>>,
    /// Entries a page alone left for DBLP (`report::left_to_dblp`).
    dblp_left: RwSignal<usize>,
    /// The loaded `.bib` as read (when small enough to keep), for an undo.
    current: StoredValue<Option<LoadedFile>>,
    /// The file that replaced loaded work, and that work (Undo brings it back).
    undo: RwSignal<Option<(String, Saved)>>,
    /// The online run in flight: a newer file, Clear or Stop cancels it.
    online_run: StoredValue<Latest>,
    /// The BibTeX text the entries were read from (for the fixed .bib).
    source: StoredValue<Option<Arc<String>>>,
    /// The online layers' report.
    online: RwSignal<Option<Arc<OnlineReport>>>,
    /// The person's decision on each correction (the fixed `.bib` holds
    /// the accepted ones only).
    review: RwSignal<Review>,
    filter: RwSignal<Option<Check>>,
    /// The class shown (fabricated, miscited …), `None` for every class.
    class_filter: RwSignal<Option<verdict::Class>>,
    sort: RwSignal<String>,
    /// Whether the user gave the page anything yet: a restore from the
    /// workspace that lands later must not overwrite it.
    touched: StoredValue<bool>,
    note: RwSignal<String>,
    /// Layer 1 as the core's use case reports it: the entry findings the
    /// sliced pass produced, with the .tex cites checked by `check::finish`.
    file_report: Memo<Option<Arc<FileReport>>>,
}

impl BibtexState {
    fn new(services: Option<Services>, reach: Option<crate::components::Reach>) -> Self {
        let bib_name = RwSignal::new(None::<String>);
        let bib = RwSignal::new(None::<Arc<Bibliography>>);
        let layer1 = RwSignal::new(Arc::new(Vec::<Finding>::new()));
        let tex_files = RwSignal::new(Vec::<LoadedFile>::new());
        let mode = RwSignal::new(Mode::Default);
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
        BibtexState {
            services,
            reach,
            bib_name,
            bib,
            layer1,
            reading: RwSignal::new(String::new()),
            reading_run: StoredValue::new(Latest::default()),
            tex_files,
            mode,
            rows: RwSignal::new(Vec::new()),
            running: RwSignal::new(false),
            paused: RwSignal::new(false),
            progress: RwSignal::new((0, 0)),
            stopped: RwSignal::new(None),
            spent: RwSignal::new(Vec::new()),
            dblp_left: RwSignal::new(0),
            current: StoredValue::new(None),
            undo: RwSignal::new(None),
            online_run: StoredValue::new(Latest::default()),
            source: StoredValue::new(None),
            online: RwSignal::new(None),
            review: RwSignal::new(Review::default()),
            filter: RwSignal::new(None),
            class_filter: RwSignal::new(None),
            sort: RwSignal::new(String::from("file")),
            touched: StoredValue::new(false),
            note: RwSignal::new(String::new()),
            file_report,
        }
    }

    /// Reads and checks a file a slice at a time (see `services::sliced`),
    /// showing progress; a newer file abandons an older reading. The work
    /// on the page stays until the file is read: a file with no entries
    /// does not replace a loaded `.bib` (the note says why), and one that
    /// does can be undone. `tex` is the `.tex` files that go with it (from
    /// the workspace, or with an undo); `None` keeps the current ones unless
    /// the file is another paper's `.bib`.
    fn read(self, file: LoadedFile, tex: Option<Vec<LoadedFile>>) {
        let reading = self.reading;
        let token = self.reading_run.with_value(Latest::restart);
        leptos::task::spawn_local(async move {
            let keep = (file.text.len() <= KEEP_MAX_BYTES).then(|| file.clone());
            let LoadedFile {
                name,
                text,
                warning,
                paper,
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
            // A file with no entries (empty, or no bibliography at all) does
            // not take the place of loaded work.
            let loaded = self.bib_name.get_untracked();
            if parsed.entries.is_empty()
                && self
                    .bib
                    .with_untracked(|b| b.as_ref().is_some_and(|b| !b.entries.is_empty()))
            {
                reading.set(String::new());
                self.note.set(format!(
                    "{name} was not loaded: it holds no bibliography entries (is it empty, or not a .bib, CSL-JSON or RIS file?); {} and its results are as they were",
                    loaded.unwrap_or_default()
                ));
                return;
            }
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
            // A paper's references, read from its PDF or .bbl: the verdict
            // rules allow for what reading print loses, and the format
            // checks, which judge how a .bib is written, do not apply.
            if paper {
                for e in &mut parsed.entries {
                    e.parsed = true;
                }
            }
            let parsed = Arc::new(parsed);
            let text = (format == bibtex::Format::Bibtex).then(|| Arc::new(text));
            let empty = Bibliography::default();
            let l1 = format::Layer1::new(if paper { &empty } else { &parsed }, current_year());
            let checking = |l1: &format::Layer1<'_>| {
                let (at, total) = l1.progress();
                reading.set(format!("checking {name}: {at} / {total} entries"));
            };
            let Some(found) = run_sliced(l1, STEP_ENTRIES, checking, &token).await else {
                return;
            };
            reading.set(String::new());
            self.adopt(name, keep, tex, text, parsed, found);
            self.show_stored(self.bib.get_untracked(), token);
        });
    }

    /// Puts a read file in the place of the loaded one: the workspace keeps
    /// it, the run on the old one stops, and the old one can be brought back
    /// (Undo) when it had entries.
    fn adopt(
        self,
        name: String,
        keep: Option<LoadedFile>,
        tex: Option<Vec<LoadedFile>>,
        source: Option<Arc<String>>,
        parsed: Arc<Bibliography>,
        found: Vec<Finding>,
    ) {
        let previous = self.bib_name.get_untracked();
        let had_entries = self
            .bib
            .with_untracked(|b| b.as_ref().is_some_and(|b| !b.entries.is_empty()));
        let old_tex = self.tex_files.get_untracked();
        let replaced = self
            .current
            .with_value(|c| c.clone())
            .filter(|c| had_entries && keep.as_ref() != Some(c));
        match tex {
            Some(t) => {
                self.tex_files.set(t);
                self.note.set(String::new());
            }
            // Another paper's .bib: the .tex files given for the previous one
            // would only produce bogus findings against it.
            None if previous.as_ref().is_some_and(|p| *p != name) && !old_tex.is_empty() => {
                self.note.set(format!(
                    "a new bibliography: the .tex files given with {} were set aside; drop this paper's .tex files",
                    previous.unwrap_or_default()
                ));
                self.tex_files.set(Vec::new());
            }
            None => self.note.set(String::new()),
        }
        self.undo.set(replaced.map(|bib| {
            (
                name.clone(),
                Saved {
                    bib: Some(bib),
                    tex: old_tex,
                },
            )
        }));
        self.current.set_value(keep.clone());
        if let Some(s) = self.services {
            let tex = self.tex_files.get_untracked();
            leptos::task::spawn_local(async move {
                let _ = s.workspace().put(PAGE_KEY, &Saved { bib: keep, tex }).await;
            });
        }
        self.online_run.with_value(Latest::cancel);
        self.rows.set(Vec::new());
        self.online.set(None);
        self.review.set(Review::default());
        self.running.set(false);
        self.paused.set(false);
        self.progress.set((0, 0));
        self.stopped.set(None);
        self.spent.set(Vec::new());
        self.dblp_left.set(0);
        self.source.set_value(source);
        self.bib_name.set(Some(name));
        self.layer1.set(Arc::new(found));
        self.bib.set(Some(parsed));
    }

    /// Brings back the `.bib` (and its `.tex` files) that the last file
    /// replaced; its results come back from its checkpoint.
    fn undo_replace(self) {
        let Some((_, saved)) = self.undo.get_untracked() else {
            return;
        };
        self.touched.set_value(true);
        if let Some(b) = saved.bib {
            self.read(b, Some(saved.tex));
        }
    }

    /// The results of the last run over these entries, kept in its
    /// checkpoint: a finished run's report, or a run stopped part way
    /// (a reload, a closed tab) with its decided cards and Resume.
    fn show_stored(self, b: Option<Arc<Bibliography>>, token: Cancel) {
        let (Some(services), Some(b)) = (self.services, b) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let refs = check::references(&b);
            let key = crate::services::resolve::checkpoint_key(&refs);
            let ws = services.workspace();
            let opts = run_options(&services);
            let Some(run) = crate::services::resolve::stored(&ws, &key, refs, opts).await else {
                return;
            };
            // A newer file, Clear or a run started meanwhile has the page now.
            if token.is_cancelled() || self.running.get_untracked() {
                return;
            }
            let Some(today) = today() else { return };
            let (done, total) = run.progress();
            let so_far = run.report();
            self.spent.set(report::spent_allowances(&so_far));
            self.dblp_left.set(report::left_to_dblp(&so_far));
            let m = self.mode.get_untracked();
            let down = crate::components::offline::services_down(self.reach);
            let mut shown = vec![false; b.entries.len()];
            let rows = decided_rows(&b, &run, &mut shown, today, m, down);
            self.progress.set((done, total));
            if done < total {
                self.rows.set(rows);
                self.stopped.set(Some((done, total)));
            } else {
                let report = run.report();
                let requests = usize::try_from(report.requests).unwrap_or(usize::MAX);
                self.rows.set(rows);
                self.online.set(Some(Arc::new(check::online_report(
                    &b, &report, today, requests, 0,
                ))));
            }
        });
    }

    fn load_example(self) {
        self.touched.set_value(true);
        self.read(
            LoadedFile {
                name: "refs.bib".into(),
                text: EXAMPLE_BIB.into(),
                warning: None,
                paper: false,
            },
            Some(Vec::new()),
        );
    }

    fn set_bib(self, files: Vec<LoadedFile>) {
        self.touched.set_value(true);
        if let Some(f) = files.into_iter().next() {
            self.read(f, None);
        }
    }

    fn save_tex(self) {
        if let Some(s) = self.services {
            let tex = self.tex_files.get_untracked();
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
    }

    fn add_tex(self, files: Vec<LoadedFile>) {
        self.touched.set_value(true);
        self.tex_files.update(|t| {
            for f in files {
                t.retain(|x| x.name != f.name);
                t.push(f);
            }
        });
        self.save_tex();
    }

    fn clear(self) {
        self.touched.set_value(true);
        self.reading_run.with_value(Latest::cancel);
        self.online_run.with_value(Latest::cancel);
        self.running.set(false);
        self.paused.set(false);
        self.rows.set(Vec::new());
        self.online.set(None);
        self.review.set(Review::default());
        self.source.set_value(None);
        self.bib.set(None);
        self.bib_name.set(None);
        self.layer1.set(Arc::new(Vec::new()));
        self.tex_files.set(Vec::new());
        self.reading.set(String::new());
        self.note.set(String::new());
        self.progress.set((0, 0));
        self.stopped.set(None);
        self.spent.set(Vec::new());
        self.dblp_left.set(0);
        self.undo.set(None);
        self.current.set_value(None);
        if let Some(s) = self.services {
            leptos::task::spawn_local(async move {
                let _ = s.workspace().remove(PAGE_KEY).await;
            });
        }
    }

    /// What the workspace kept comes back after a reload.
    fn restore(self) {
        let Some(s) = self.services else { return };
        leptos::task::spawn_local(async move {
            if let Ok(Some(saved)) = s.workspace().get::<Saved>(PAGE_KEY).await {
                if self.touched.get_value() || self.bib_name.get_untracked().is_some() {
                    return;
                }
                match saved.bib {
                    Some(b) => self.read(b, Some(saved.tex)),
                    None => self.tex_files.set(saved.tex),
                }
            }
        });
    }

    /// Runs layers 2–4 on every entry, resuming from a checkpoint of the
    /// same references; each card is shown as its entry is decided.
    fn start(self) {
        let Some(services) = self.services else {
            return;
        };
        let Some(b) = self.bib.get_untracked() else {
            return;
        };
        // No date to judge the entries' years against: nothing is run
        // rather than a run that never ends with verdicts.
        let Some(today) = today() else {
            return;
        };
        let BibtexState {
            reach,
            rows,
            online,
            running,
            progress,
            ..
        } = self;
        let m = self.mode.get_untracked();
        let token = self.online_run.with_value(Latest::restart);
        rows.set(Vec::new());
        online.set(None);
        self.review.set(Review::default());
        self.stopped.set(None);
        self.spent.set(Vec::new());
        self.dblp_left.set(0);
        running.set(true);
        progress.set((0, b.entries.len()));
        leptos::task::spawn_local(async move {
            let client = services.run_client();
            let refs = check::references(&b);
            // A run of the same references stopped by a reload goes on from its checkpoint.
            let ws = services.workspace();
            let key = crate::services::resolve::checkpoint_key(&refs);
            let opts = run_options(&services);
            let title_hits = opts.title_hits;
            let (mut run, resumed) =
                crate::services::resolve::resume_or_new(&ws, &key, refs, opts).await;
            if !resumed {
                // Behind a relay with a local index, the index answers first.
                let relay = services.settings.get_untracked().relay;
                crate::services::resolve::ask_relay_index(&client, &relay, &mut run, title_hits)
                    .await;
            }
            if token.is_cancelled() {
                return;
            }
            // Cards stream in as entries are decided; the last one comes
            // with the finished report, so a full set of cards means the
            // report is there.
            let mut shown = vec![false; b.entries.len()];
            let mut stream = |run: &Run| {
                let (done, total) = run.progress();
                progress.set((done, total));
                if done < total {
                    let down = crate::components::offline::services_down(reach);
                    let new = decided_rows(&b, run, &mut shown, today, m, down);
                    if !new.is_empty() {
                        rows.update(|r| {
                            r.extend(new);
                            r.sort_by_key(|x| x.line);
                        });
                    }
                }
            };
            stream(&run);
            let report = crate::services::resolve::drive_saving(
                &client,
                &ws,
                &key,
                &mut run,
                || token.is_cancelled(),
                &mut stream,
            )
            .await;
            if token.is_cancelled() {
                return;
            }
            crate::components::offline::report_run(reach, &report);
            self.spent.set(report::spent_allowances(&report));
            self.dblp_left.set(report::left_to_dblp(&report));
            let down = crate::components::offline::services_down(reach);
            let requests = usize::try_from(report.requests).unwrap_or(usize::MAX);
            let judged = check::online_report(&b, &report, today, requests, 0);
            let checked: Vec<Row> = b
                .entries
                .iter()
                .zip(&report.resolutions)
                .zip(&judged.entries)
                .map(|((entry, r), o)| row_of(entry, r, o, m, down))
                .collect();
            rows.set(checked);
            online.set(Some(Arc::new(judged)));
            progress.set((b.entries.len(), b.entries.len()));
            running.set(false);
        });
    }

    fn stop(self) {
        self.online_run.with_value(Latest::cancel);
        self.running.set(false);
        self.paused.set(false);
    }

    /// Pause stops the run where it is (its checkpoint is saved as it goes);
    /// Resume starts it again from that checkpoint, so nothing answered is
    /// asked twice. The progress display keeps its clock and estimate.
    fn follow_pause(self) {
        Effect::new(move |before: Option<bool>| {
            let now = self.paused.get();
            if before.is_some_and(|b| b != now) && self.running.get_untracked() {
                if now {
                    self.online_run.with_value(Latest::cancel);
                } else {
                    self.start();
                }
            }
            now
        });
    }

    /// The full report (layer 1 and, once run, layers 2–4), built by the
    /// core; the exports are built from it only when a button is clicked
    /// (the buttons are enabled by `has_bib`).
    fn full_report(self) -> Option<(FileReport, Arc<Bibliography>)> {
        let mut r = (*self.file_report.get()?).clone();
        r.online = self.online.get().map(|o| (*o).clone());
        Some((r, self.bib.get()?))
    }

    fn has_bib(self) -> Signal<bool> {
        let bib = self.bib;
        Signal::derive(move || bib.with(Option::is_some))
    }

    fn base_name(self) -> String {
        self.bib_name
            .get()
            .unwrap_or_else(|| "references.bib".into())
    }

    /// The inputs in words: the `.bib`, its entries and the `.tex` files.
    fn inputs(self) -> String {
        let b = self.bib_name.get().unwrap_or_else(|| "no .bib yet".into());
        let t: Vec<String> = self
            .tex_files
            .with(|t| t.iter().map(|f| f.name.clone()).collect());
        match self.bib.with(|x| x.as_ref().map(|x| x.entries.len())) {
            Some(n) => format!(
                "{b}: {}{}",
                count(n, "entry", "entries"),
                if t.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", t.join(", "))
                }
            ),
            None => b,
        }
    }

    /// Why a read file gave nothing to check (empty when it did).
    fn bib_error(self) -> String {
        match self.bib.with(|b| b.as_ref().map(|b| b.entries.is_empty())) {
            Some(true) => format!(
                "{}: no BibTeX entries were found (is it a .bib file?)",
                self.bib_name.get().unwrap_or_default()
            ),
            _ => String::new(),
        }
    }

    fn n_findings(self) -> usize {
        self.file_report
            .with(|r| r.as_ref().map_or(0, |r| r.findings.len()))
    }

    fn shown_findings(self) -> Vec<Finding> {
        self.file_report.with(|r| {
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
    }

    /// The cards in the chosen order, of the chosen status.
    fn shown_rows(self) -> Vec<Row> {
        let mut r: Vec<Row> = self.rows.get();
        if let Some(c) = self.class_filter.get() {
            r.retain(|x| x.judged.class == c);
        }
        if let Some(f) = self.filter.get() {
            r.retain(|x| x.check == f);
        }
        match self.sort.get().as_str() {
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
    }
}

/// The BibTeX check page.
#[component]
pub fn BibtexPage() -> impl IntoView {
    let state = BibtexState::new(
        use_context::<Services>(),
        use_context::<crate::components::Reach>(),
    );
    state.restore();
    state.follow_pause();
    let BibtexState {
        reading,
        note,
        online,
        ..
    } = state;
    let bib_error = Signal::derive(move || state.bib_error());
    let has_online = Signal::derive(move || online.with(Option::is_some));

    view! {
        <section class="bibtex">
            <h1>"BibTeX check"</h1>
            <p class="muted">
                "Layer 1 checks required fields, years, DOIs, duplicates and the .tex cites, offline. "
                "Layers 2–4 look each entry up (Crossref by DOI, Semantic Scholar by arXiv id or title) and compare title, authors, year and venue."
            </p>
            <div class="toolbar">
                <button type="button" id="load-example" on:click=move |_| state.load_example()>"Load example"</button>
                <button type="button" class="secondary" id="clear" on:click=move |_| state.clear()>"Clear"</button>
            </div>
            <div class="two-col">
                <FileDrop id="bib-input" label="Drop a .bib, CSL-JSON or RIS file — or a paper: its PDF, .bbl or a reference list (.txt, .md)" accept=".bib,.json,.ris,.pdf,.bbl,.txt,.md" eight_bit=true papers=true on_files=move |f| state.set_bib(f) />
                <FileDrop id="tex-input" label="Optionally, the .tex files that cite it, their folder or the project .zip" accept=".tex,.zip" multiple=true folders=true on_files=move |f| state.add_tex(f) />
            </div>
            <PasteList state />
            <Banner id="bib-note" kind=BannerKind::Partial text=note />
            <Replaced state />
            <p class="muted" id="inputs">{move || state.inputs()}</p>
            <p class="muted" id="reading" aria-live="polite">{move || reading.get()}</p>
            <Banner id="bib-error" kind=BannerKind::Error text=bib_error />
            <h2>"Layer 1: format"</h2>
            <Layer1Table state />
            <h2>"Layers 2–4: existence and match"</h2>
            <OnlineControls state />
            <StoppedRun state />
            <SpentBanner state />
            <DblpBanner state />
            <Exports state />
            <Show when=move || has_online.get()>
                <p class="triage" id="triage" role="status">{move || online.with(|o| o.as_ref().map(|o| o.classes.triage()))}</p>
            </Show>
            <Legend />
            <Show when=move || has_online.get()>
                <VerdictChart state />
                <EntryControls state />
            </Show>
            <div class="entries" id="entries">
                {move || state.shown_rows().into_iter().map(|row| view! { <EntryCard row review=state.review /> }).collect_view()}
            </div>
        </section>
    }
}

/// Layer 1's findings (the first [`SHOWN_FINDINGS`] of them).
#[component]
fn Layer1Table(state: BibtexState) -> impl IntoView {
    let has_bib = state.has_bib();
    let file_report = state.file_report;
    view! {
        <Show when=move || has_bib.get() fallback=|| view! { <p class="muted">"drop a .bib or load the example"</p> }>
            <p id="layer1-summary">{move || {
                file_report.with(|r| r.as_ref().map(|r| format!("{}, {}", count(r.errors, "error", "errors"), count(r.warnings, "warning", "warnings"))))
            }}</p>
            <p class="muted" id="layer1-shown">{move || {
                let n = state.n_findings();
                (n > SHOWN_FINDINGS).then(|| format!("showing the first {SHOWN_FINDINGS} of {n} findings; the exported report has all of them"))
            }}</p>
            <div class="table-wrap">
                <table id="layer1" class="cards">
                    <thead><tr><th>"severity"</th><th>"where"</th><th>"key"</th><th>"field"</th><th>"problem"</th><th>"fix"</th></tr></thead>
                    <tbody>
                        {move || state.shown_findings().into_iter().map(|f| {
                            let (sev, class) = match f.severity { Severity::Error => ("error", "badge fail"), Severity::Warning => ("warning", "badge warn") };
                            let place = match (&f.file, f.line) {
                                (Some(file), Some(l)) => format!("{file}:{l}"),
                                (None, Some(l)) => format!("line {l}"),
                                _ => String::new(),
                            };
                            view! { <tr>
                                <td data-label="severity"><span class=class>{sev}</span></td>
                                <td data-label="where">{place}</td>
                                <td data-label="key"><code>{f.key.clone().unwrap_or_default()}</code></td>
                                <td data-label="field">{f.field.clone().unwrap_or_default()}</td>
                                <td data-label="problem">{f.message.clone()}</td>
                                <td data-label="fix"><code>{f.suggestion.clone().unwrap_or_default()}</code></td>
                            </tr> }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </Show>
    }
}

/// The mode, the button that starts layers 2–4 and their progress.
#[component]
fn OnlineControls(state: BibtexState) -> impl IntoView {
    let BibtexState {
        services,
        mode,
        running,
        paused,
        progress,
        ..
    } = state;
    let has_bib = state.has_bib();
    let stop = Callback::new(move |_| state.stop());
    view! {
        <div class="toolbar">
            <label for="mode">"Mode"</label>
            <select id="mode" on:change=move |ev| mode.set(match event_target_value(&ev).as_str() { "strict" => Mode::Strict, "loose" => Mode::Loose, _ => Mode::Default })>
                <option value="default" selected=true>"default (everyday)"</option>
                <option value="strict">"strict (final submission)"</option>
                <option value="loose">"loose (drafts)"</option>
            </select>
            <button type="button" id="check-entries" disabled=move || running.get() || !has_bib.get() || services.is_none() on:click=move |_| state.start()>
                {move || if state.online.with(Option::is_some) { "Check again" } else { "Check every entry" }}
            </button>
        </div>
        {services.is_none().then(|| view! { <div class="banner error">"The browser services did not start (storage unavailable?); only layer 1 can run."</div> })}
        <Progress id="progress" label="Checking entries" counts=progress running=running paused=paused on_cancel=stop />
    }
}

/// Which file replaced the loaded work, with Undo.
/// A reference list pasted as text (or BibTeX), read by the core as a
/// dropped list; a lone arXiv id is fetched through the relay when the
/// app has one, and otherwise answered with where its PDF is.
#[component]
fn PasteList(state: BibtexState) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let fetching = RwSignal::new(None::<String>);
    let relay = move || {
        state
            .services
            .map(|s| s.settings.get_untracked())
            .filter(|s| !s.relay.trim().is_empty())
    };
    let read = move |_| {
        let settings = relay();
        match read_pasted(&text.get_untracked(), settings.is_some()) {
            Ok(Pasted::File(f)) => {
                error.set(None);
                state.set_bib(vec![f]);
            }
            Ok(Pasted::Arxiv(id)) => {
                let base = settings
                    .map(|s| s.endpoints(&Default::default()).arxiv_base)
                    .unwrap_or_default();
                let url = citegate_core::works::request::eprint_url(&base, &id);
                let name = format!("arXiv:{}", id.as_str());
                error.set(None);
                fetching.set(Some(format!("fetching {name}'s source through the relay…")));
                leptos::task::spawn_local(async move {
                    let got = match crate::api::transport::fetch_bytes(&url).await {
                        Ok((200, bytes)) => read_paper(&name, &bytes),
                        Ok((status, _)) => Err(format!(
                            "{name} was not loaded: the relay answered {status}"
                        )),
                        Err(why) => Err(format!(
                            "{name} was not loaded: the relay could not be reached ({why})"
                        )),
                    };
                    fetching.set(None);
                    match got {
                        Ok(f) => state.set_bib(vec![f]),
                        Err(e) => error.set(Some(e)),
                    }
                });
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <details class="paste" id="paste">
            <summary>"Or paste a reference list"</summary>
            <label for="paste-refs">"References, one per numbered item or paragraph (BibTeX works too; an arXiv id is fetched through the relay, if the app has one)"</label>
            <textarea id="paste-refs" rows="8" spellcheck="false"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button type="button" id="read-pasted" disabled=move || text.with(|t| t.trim().is_empty()) || fetching.with(Option::is_some) on:click=read>"Read these references"</button>
            <p class="muted" id="paste-fetching" aria-live="polite" hidden=move || fetching.with(Option::is_none)>{move || fetching.get()}</p>
            <p class="error" id="paste-error" role="alert" hidden=move || error.with(Option::is_none)>{move || error.get()}</p>
        </details>
    }
}

#[component]
fn Replaced(state: BibtexState) -> impl IntoView {
    let undo = state.undo;
    view! {
        <Show when=move || undo.with(Option::is_some)>
            <div class="banner" id="replaced" role="status">
                <span id="replaced-text">{move || undo.with(|u| u.as_ref().map(|(name, saved)| {
                    let old = saved.bib.as_ref().map(|b| b.name.clone()).unwrap_or_default();
                    format!("{name} replaced {old} — ")
                }).unwrap_or_default())}</span>
                <button type="button" class="secondary" id="undo-replace" on:click=move |_| state.undo_replace()>"Undo"</button>
            </div>
        </Show>
    }
}

/// One banner per service whose allowance ran out: which, until when, that
/// nothing was counted against any entry, and a link to Settings for a key.
#[component]
fn SpentBanner(state: BibtexState) -> impl IntoView {
    let spent = state.spent;
    view! {
        <For each=move || spent.get() key=|s| s.service let:s>
            <div class="banner partial spent-banner" role="status" data-service=s.service.name()>
                {s.words()}" "<a href="#/settings">"Open Settings"</a>
            </div>
        </For>
    }
}

/// Entries a page alone could not settle because DBLP was not asked: how
/// many, and the two ways to settle them.
#[component]
fn DblpBanner(state: BibtexState) -> impl IntoView {
    let words = Signal::derive(move || report::left_to_dblp_words(state.dblp_left.get()));
    view! {
        <Show when=move || words.with(Option::is_some)>
            <div class="banner partial" id="dblp-banner" role="status">{move || words.get()}</div>
        </Show>
    }
}

/// A run found stopped part way after a reload: how far it got, and
/// Resume, which goes on from its checkpoint (nothing answered is asked
/// again).
#[component]
fn StoppedRun(state: BibtexState) -> impl IntoView {
    let stopped = state.stopped;
    view! {
        <Show when=move || stopped.with(Option::is_some)>
            <div class="banner partial" id="stopped-run" role="status">
                <span id="stopped-text">{move || stopped.get().map(|(done, total)| format!("stopped at {done} of {total} — ")).unwrap_or_default()}</span>
                <button type="button" id="resume-run" on:click=move |_| state.start()>"Resume"</button>
            </div>
        </Show>
    }
}

/// The reports, the fixed `.bib` and the corrections, built when asked.
#[component]
fn Exports(state: BibtexState) -> impl IntoView {
    let BibtexState {
        bib,
        online,
        source,
        ..
    } = state;
    let has_bib = state.has_bib();
    let report = Signal::derive(move || {
        state
            .full_report()
            .map(|(r, _)| report::to_json(&r))
            .unwrap_or_default()
    });
    let report_csv = Signal::derive(move || {
        state
            .full_report()
            .map(|(r, b)| report::to_csv(&r, &b))
            .unwrap_or_default()
    });
    let report_md = Signal::derive(move || {
        state
            .full_report()
            .map(|(r, b)| report::to_markdown(&r, &b))
            .unwrap_or_default()
    });
    let review = state.review;
    // The fixed .bib holds the accepted corrections only: with none
    // accepted there is nothing to download.
    let fixed = Signal::derive(move || {
        let (Some(o), Some(b)) = (online.get(), bib.get()) else {
            return String::new();
        };
        review.with(|r| {
            if r.tally(&o).accepted == 0 {
                return String::new();
            }
            source
                .with_value(|s| s.as_ref().map(|s| r.fixed_bib(s, &b, &o).text))
                .unwrap_or_default()
        })
    });
    let tally = move || online.get().map(|o| review.with(|r| r.tally(&o)));
    let corrections = Signal::derive(move || {
        online
            .get()
            .map(|o| report::corrections(&o))
            .unwrap_or_default()
    });
    let named =
        move |suffix: &'static str| Signal::derive(move || renamed(&state.base_name(), suffix));
    view! {
        <div class="toolbar" id="exports">
            <DownloadButton id="export-report" label="Report (JSON)" filename=named("_report.json") mime="application/json" content=report enabled=has_bib />
            <DownloadButton id="export-csv" label="Report (CSV)" filename=named("_report.csv") mime="text/csv;charset=utf-8" content=report_csv enabled=has_bib />
            <DownloadButton id="export-md" label="Report (Markdown)" filename=named("_report.md") mime="text/markdown;charset=utf-8" content=report_md enabled=has_bib />
            <DownloadButton id="download-fixed" label="Download fixed .bib (accepted corrections)" filename=named(".fixed.bib") content=fixed />
            <CopyButton id="copy-corrections" label="Copy all corrections" text=corrections />
        </div>
        {move || tally().filter(|t| t.accepted + t.refused + t.pending > 0).map(|t| view! {
            <p class="toolbar" id="review-line">
                <span id="review-tally">{t.words()}</span>
                <button type="button" id="accept-rest" disabled=t.pending == 0 on:click=move |_| {
                    if let Some(o) = online.get_untracked() {
                        review.update(|r| r.accept_rest(&o));
                    }
                }>"Accept the rest"</button>
            </p>
        })}
    }
}

/// What every status and figure on the page means.
#[component]
fn Legend() -> impl IntoView {
    view! {
        <details class="legend" id="legend">
            <summary>"What the statuses and figures mean"</summary>
            <dl>
                {Check::ALL.into_iter().map(|s| view! {
                    <dt><span class=format!("check-badge check-{}", s.name())>{s.label()}</span></dt>
                    <dd data-check=s.name()>{s.meaning()}</dd>
                }).collect_view()}
                <dt>"Layer 1"</dt>
                <dd>"checks made on the file alone, offline: required fields, years, identifiers, duplicates and the .tex cites"</dd>
                <dt>"Layers 2–4"</dt>
                <dd>"each entry looked up by DOI, arXiv id or title, and its title, authors, year and venue compared with the record found"</dd>
                <dt>"similarity"</dt>
                <dd>"how close the entry's field is to the record's, from 0 (nothing alike) to 1 (the same); ✓ where it counts as agreeing"</dd>
                <dt>"Mode"</dt>
                <dd>"how close a field must be to count as agreeing: strict for a final submission, loose for drafts"</dd>
            </dl>
        </details>
    }
}

/// A bar per status, once layers 2–4 ran.
#[component]
fn VerdictChart(state: BibtexState) -> impl IntoView {
    let BibtexState { rows, online, .. } = state;
    let tally = move || online.get().map(|o| report::tally(&o)).unwrap_or_default();
    view! {
        <figure class="verdict-chart" id="verdict-chart">
            <figcaption>{move || format!("Verdicts of {}", count(rows.with(|r| r.len()), "entry", "entries"))}</figcaption>
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
    }
}

/// Which cards are shown, and in what order.
#[component]
fn EntryControls(state: BibtexState) -> impl IntoView {
    let BibtexState {
        rows, filter, sort, ..
    } = state;
    view! {
        <div class="toolbar" id="entry-controls">
            <label for="filter">"Show"</label>
            <select id="filter" on:change=move |ev| filter.set(Check::from_name(&event_target_value(&ev)))>
                <option value="all" selected=true>"every entry"</option>
                {Check::ALL.into_iter().map(|s| view! { <option value=s.name()>{s.label()}</option> }).collect_view()}
            </select>
            <label for="class-filter">"Class"</label>
            <select id="class-filter" on:change=move |ev| {
                let v = event_target_value(&ev);
                state.class_filter.set(verdict::Class::ALL.into_iter().find(|c| c.name() == v));
            }>
                <option value="all" selected=true>"every class"</option>
                {verdict::Class::ALL.into_iter().map(|c| view! { <option value=c.name()>{c.name()}</option> }).collect_view()}
            </select>
            <label for="sort">"Sort by"</label>
            <select id="sort" on:change=move |ev| sort.set(event_target_value(&ev))>
                <option value="file" selected=true>"order in the file"</option>
                <option value="status">"status, worst first"</option>
                <option value="key">"key"</option>
            </select>
            <span class="muted" id="shown-count">{move || {
                let n = rows.with(|r| r.len());
                let shown = state.shown_rows().len();
                if shown == n { count(n, "entry", "entries") } else { format!("{shown} of {}", count(n, "entry", "entries")) }
            }}</span>
        </div>
    }
}

/// One checked entry's card: one status in words, the sources, evidence and,
/// when the record is the cited work, the corrected entry.
#[component]
fn EntryCard(row: Row, review: RwSignal<Review>) -> impl IntoView {
    let r = row;
    let changes = r.judged.changes.clone();
    let label = status_label(r.verdict.status);
    let key = r.verdict.key.clone();
    // The corrected entry only when the record is the cited work.
    let corrected = r.judged.corrected.clone().unwrap_or_default();
    let judged_kind = format!("{:?}", r.judged.verdict).to_lowercase();
    let reasons: Vec<String> = r.judged.reasons.iter().map(|x| x.message.clone()).collect();
    let route = if r.sources.is_empty() {
        "nothing asked".to_string()
    } else {
        r.sources.join(" · ")
    };
    let check = r.check;
    let links = r.links.clone();
    view! {
        <div class=format!("entry-card check-{}", check.name()) data-key=key.clone() data-status=label data-verdict=judged_kind data-check=check.name() data-class=r.judged.class.name()>
            <div class="score-line">
                <code class="entry-key">{key.clone()}</code>
                <span class=format!("check-badge check-{}", check.name())>{check.label()}</span>
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
            {(!r.verdict.evidence.is_empty()).then(|| view! { <EvidenceTable evidence=r.verdict.evidence.clone() /> })}
            {(!changes.is_empty()).then(|| view! { <ChangeList key=key.clone() changes=changes.clone() review /> })}
            {(!corrected.is_empty()).then(|| {
                let c = corrected.clone();
                view! {
                    <details>
                        <summary>"The entry with every correction"</summary>
                        <pre class="corrected">{corrected.clone()}</pre>
                        <CopyButton id="copy-corrected" label="Copy corrected entry" text=Signal::derive(move || c.clone()) />
                    </details>
                }
            })}
        </div>
    }
}

/// An entry's corrections one field at a time, each accepted or refused
/// by the person (the fixed `.bib` holds the accepted ones only).
#[component]
fn ChangeList(key: String, changes: Vec<Change>, review: RwSignal<Review>) -> impl IntoView {
    view! {
        <div class="table-wrap"><table class="changes cards">
            <thead><tr><th>"field"</th><th>"the entry says"</th><th>"the record says"</th><th>"from"</th><th>"decision"</th></tr></thead>
            <tbody>{changes.into_iter().map(|c| {
                let (k, ch) = (key.clone(), c.clone());
                let decision = Memo::new(move |_| review.with(|r| r.decision(&k, &ch)));
                let (k1, c1, k2, c2) = (key.clone(), c.clone(), key.clone(), c.clone());
                view! { <tr class="change" data-field=c.field.clone() data-decision=move || match decision.get() {
                    Some(true) => "accepted",
                    Some(false) => "refused",
                    None => "pending",
                }>
                    <td data-label="field">{c.field.clone()}</td>
                    <td data-label="the entry says">{c.cited.clone().unwrap_or_else(|| "(no such field)".into())}</td>
                    <td data-label="the record says">{c.record.clone()}</td>
                    <td data-label="from" title=c.why.clone()>{c.source.clone()}</td>
                    <td data-label="decision">
                        <button type="button" class="accept-change" aria-pressed=move || (decision.get() == Some(true)).to_string()
                            on:click=move |_| review.update(|r| r.decide(&k1, &c1, true))>"Accept"</button>
                        " "
                        <button type="button" class="refuse-change" aria-pressed=move || (decision.get() == Some(false)).to_string()
                            on:click=move |_| review.update(|r| r.decide(&k2, &c2, false))>"Refuse"</button>
                    </td>
                </tr> }
            }).collect_view()}</tbody>
        </table></div>
    }
}

/// The field-by-field comparison of an entry with its record.
#[component]
fn EvidenceTable(evidence: Vec<matching::Evidence>) -> impl IntoView {
    view! {
        <div class="table-wrap"><table class="evidence cards">
            <thead><tr><th>"field"</th><th>"entry"</th><th>"record"</th><th>"similarity"</th><th></th></tr></thead>
            <tbody>{evidence.into_iter().map(|e| view! { <tr>
                <td data-label="field">{format!("{:?}", e.field).to_lowercase()}</td>
                <td data-label="entry">{e.ours}</td>
                <td data-label="record">{e.theirs}</td>
                <td data-label="similarity">{format!("{:.2}", e.similarity)}</td>
                <td data-label="agrees">{if e.matched { "✓" } else { "✗" }}</td>
            </tr> }).collect_view()}</tbody>
        </table></div>
    }
}
