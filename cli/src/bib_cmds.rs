//! `citegate bibcheck`: BibTeX checking — reading the `.bib`, the format
//! rules and agreement with the `.tex` cites (layer 1, offline), and with
//! `--online` whether each entry is a real work that says what its record
//! says (layers 2–4: the core's resolver run, then its verdict rules).

use crate::error::{Error, Outcome};
use crate::io::outln;
use crate::io::{print_json, read_text, FAIL, PASS};
use crate::live::{Executor, LiveArgs};
use citegate_core::bibtex::format::Severity;
use citegate_core::bibtex::matching::Mode;
use citegate_core::bibtex::parse;
use citegate_core::bibtex::{accept, check};
use citegate_core::cutoff::Date;
use citegate_core::resolve;
use citegate_core::tex;
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum BibCommand {
    /// Check a .bib file: parse errors, required fields, year, DOI, duplicates, with --tex the cited-but-missing and never-cited keys, and with --online whether each entry exists and matches its record (exit 0 clean, 1 problems, 2 unreadable input)
    Bibcheck(BibcheckArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Default,
    Strict,
    Loose,
}

#[derive(Args)]
pub struct BibcheckArgs {
    /// Bibliographies (.bib, CSL-JSON or RIS); `-` reads standard input
    #[arg(value_name = "FILE", required_unless_present = "bib")]
    files: Vec<PathBuf>,
    /// The bibliography (the same as a FILE argument)
    #[arg(long, value_name = "FILE")]
    bib: Option<PathBuf>,
    /// Output: text, json (the same as --json), github (workflow annotations) or sarif (2.1.0)
    #[arg(long, value_enum, default_value = "text")]
    format: crate::annotate::OutputFormat,
    /// Exit 1 only for findings of this severity or worse: `warning` (any finding) or `error`
    #[arg(long, value_enum, default_value = "warning")]
    fail_on: crate::annotate::FailOn,
    /// LaTeX root files; their \input/\include files are read too
    #[arg(long, num_args = 1..)]
    tex: Vec<PathBuf>,
    /// Matching thresholds for the online layers (recorded in the report; the offline checks do not depend on it)
    #[arg(long, value_enum, default_value = "default")]
    mode: ModeArg,
    /// Also ask the services whether each entry exists and matches its
    /// record (Semantic Scholar, Crossref, OpenAlex, DataCite, DBLP, arXiv)
    #[arg(long)]
    online: bool,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
    /// Reviewer marks: a TOML file whose `[accept.KEY]` tables each give `status` (`confirmed` or `false_alarm`), `note` and the entry's `fingerprint` (from --json); an entry accepted as a false alarm no longer fails. Without it, the `[accept]` of a `citegate.toml` beside the first bibliography is read
    #[arg(long, value_name = "FILE")]
    accept: Option<PathBuf>,
    #[command(flatten)]
    live: LiveArgs,
    #[command(flatten)]
    local: crate::local::LocalArgs,
}

impl BibCommand {
    pub fn run(self) -> Outcome {
        match self {
            BibCommand::Bibcheck(a) => {
                let paths: Vec<PathBuf> = a.bib.iter().chain(&a.files).cloned().collect();
                run_bibcheck(&a, &paths)
            }
        }
    }
}

/// Today (UTC) from the system clock, for the future-year rule: the one
/// place the CLI reads the day (core `Date::from_unix_ms` decides it).
pub(crate) fn today() -> Date {
    Date::from_unix_ms(crate::live::now_ms())
        .unwrap_or_else(|_| Date::new(1970, 1, 1).expect("a valid date"))
}

/// Layers 2–4: one resolver run over every entry, then the core's verdict
/// rules ([`check::online_report`]).
fn run_online(bib: &parse::Bibliography, a: &BibcheckArgs) -> Result<check::OnlineReport, Error> {
    let settings = a.live.settings()?;
    let mut exec = Executor::new(&settings, a.json)?;
    exec.offline = a.local.offline;
    let opts = settings.resolve_options();
    let title_hits = opts.title_hits;
    let mut run = resolve::Run::new(check::references(bib), opts);
    // The local index first: what it settles is never asked of a service.
    if let Some(dir) = a.local.index.as_ref().or(settings.index.as_ref()) {
        crate::local::Local::open(dir)?.answer(&mut run, title_hits)?;
    }
    exec.drive(&mut run, "bibcheck");
    Ok(check::online_report(
        bib,
        &run.report(),
        today(),
        exec.sent,
        exec.from_cache,
    ))
}

/// The `[accept]` table of a marks file: one `[accept.KEY]` table a mark.
#[derive(serde::Deserialize)]
struct MarksFile {
    #[serde(default)]
    accept: std::collections::BTreeMap<String, accept::Mark>,
}

/// The reviewer marks: `--accept FILE`, else a `citegate.toml` beside the
/// first bibliography (none when there is no such file).
fn read_marks(a: &BibcheckArgs, paths: &[PathBuf]) -> Result<Vec<accept::Mark>, Error> {
    let beside = paths
        .first()
        .filter(|p| p.as_os_str() != "-")
        .map(|p| p.with_file_name("citegate.toml"))
        .filter(|p| p.is_file());
    let Some(path) = a.accept.clone().or(beside) else {
        return Ok(Vec::new());
    };
    let text = read_text(&path)?;
    let file: MarksFile = toml::from_str(&text).map_err(|e| {
        let said = e.to_string();
        let last = said.lines().map(str::trim).rfind(|l| !l.is_empty());
        let message = last.unwrap_or("not a marks file").to_lowercase();
        Error::content(
            &path,
            citegate_core::ErrorKind::Shape,
            format!("reviewer marks: {message}"),
        )
    })?;
    Ok(file
        .accept
        .into_iter()
        .map(|(key, mut m)| {
            m.key = key;
            m
        })
        .collect())
}

/// The current year from the system clock (UTC), for the year-range rule.
fn current_year() -> i32 {
    today().year()
}

/// The files read as one database, in the order given, as BibTeX reads
/// `\bibliography{abbrev,refs}`: a file knows the `@string` macros of the
/// files before it, and the checks against the `.tex` files see every file
/// (core::bibtex::check::check_files). Each file keeps its own report; the
/// exit code is the worst one, and a file that cannot be read is an error
/// after the others ran.
fn run_bibcheck(a: &BibcheckArgs, paths: &[PathBuf]) -> Outcome {
    // Settings and marks are checked before any work, so a bad flag or
    // file is exit 2 at once.
    let marks = if a.online {
        a.live.settings()?;
        read_marks(a, paths)?
    } else {
        Vec::new()
    };
    let mut errors = Vec::new();
    let mut files: Vec<(String, parse::Bibliography)> = Vec::new();
    let mut macros: Vec<(String, String)> = Vec::new();
    for path in paths {
        let bib_name = crate::annotate::display_name(path);
        // `.bib`, CSL-JSON or RIS, by extension or content (core::bibtex::read_bibliography).
        // An 8-bit file is read as BibTeX reads it, with a warning naming the encoding.
        let read = crate::annotate::read_input(path)
            .map_err(|e| Error::read(path, &e))
            .and_then(|bytes| {
                citegate_core::bibtex::read_bibliography_bytes_after(&bib_name, &bytes, &macros)
                    .map_err(|e| Error::core(e.in_file(bib_name.clone())))
            });
        match read {
            Ok(bib) => {
                macros.extend(bib.strings.iter().cloned());
                files.push((bib_name, bib));
            }
            Err(e) => errors.push(e),
        }
    }
    if files.is_empty() {
        return Error::all(errors).map_or(Ok(PASS), Err);
    }
    let mut project = None;
    if !a.tex.is_empty() {
        let mut given = std::collections::BTreeMap::new();
        let mut names = Vec::new();
        for path in &a.tex {
            let text = read_text(path)?;
            let name = path.to_string_lossy().replace('\\', "/");
            given.insert(name.clone(), text);
            names.push(name);
        }
        let mut includes = crate::io::Includes::default();
        project = Some(tex::scan_project_with(&names, |name| {
            given.get(name).cloned().or_else(|| includes.load(name))
        }));
        includes.finish()?;
    }
    let named: Vec<(&str, &parse::Bibliography)> =
        files.iter().map(|(n, b)| (n.as_str(), b)).collect();
    let reports = check::check_files(&named, project.as_ref(), current_year());
    if let Some(report) = reports.first() {
        for m in &report.missing_includes {
            eprintln!("warning: {}", m.describe());
        }
    }
    let mode = match a.mode {
        ModeArg::Default => Mode::Default,
        ModeArg::Strict => Mode::Strict,
        ModeArg::Loose => Mode::Loose,
    };
    let mut checked = Vec::new();
    for (mut report, (_, bib)) in reports.into_iter().zip(&files) {
        report.mode = mode;
        if a.online {
            // A file whose lookups cannot run is an error; the others go on.
            match run_online(bib, a) {
                Ok(mut online) => {
                    accept::apply(&mut online, bib, &marks);
                    for m in &online.stale_marks {
                        eprintln!("warning: {}", m.message);
                    }
                    report.online = Some(online);
                }
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            }
        }
        checked.push(report);
    }
    let format = if a.json {
        crate::annotate::OutputFormat::Json
    } else {
        a.format
    };
    let worst = print_reports(format, a.fail_on, &checked, paths.len() > 1);
    Error::all(errors).map_or(Ok(worst), Err)
}

/// Prints the reports in the chosen format and gives the exit code: one
/// JSON report (or one SARIF log) when one file was given, a JSON list of
/// reports (or one SARIF log with every file's results) when `several`
/// were, however many of them could be read. `citegate check` prints its
/// reports here too.
pub fn print_reports(
    format: crate::annotate::OutputFormat,
    fail_on: crate::annotate::FailOn,
    reports: &[check::FileReport],
    several: bool,
) -> u8 {
    match (format, reports) {
        (crate::annotate::OutputFormat::Json, [report]) if !several => print_json(report),
        (crate::annotate::OutputFormat::Json, _) => print_json(&reports),
        (crate::annotate::OutputFormat::Sarif, _) => {
            // Each finding names its file, so one log holds them all.
            let findings: Vec<_> = reports
                .iter()
                .flat_map(|r| {
                    r.findings.iter().cloned().map(|mut f| {
                        f.file.get_or_insert_with(|| r.bib.clone());
                        f
                    })
                })
                .collect();
            let judged: Vec<_> = reports
                .iter()
                .flat_map(|r| {
                    r.online
                        .iter()
                        .flat_map(|o| &o.entries)
                        .map(|entry| crate::annotate::Judged {
                            file: &r.bib,
                            entry,
                        })
                })
                .collect();
            let first = reports.first().map_or("", |r| r.bib.as_str());
            print_json(&crate::annotate::sarif(first, &findings, &judged));
        }
        (crate::annotate::OutputFormat::Github, _) => {
            for report in reports {
                let verdicts = report.online.as_ref().map_or(&[][..], |o| &o.entries);
                crate::annotate::print_github(&report.bib, &report.findings, verdicts);
            }
        }
        (crate::annotate::OutputFormat::Text, _) => reports.iter().for_each(print_text),
    }
    let fail_at = match fail_on {
        crate::annotate::FailOn::Warning => Severity::Warning,
        crate::annotate::FailOn::Error => Severity::Error,
    };
    reports
        .iter()
        .map(|r| if r.passes(fail_at) { PASS } else { FAIL })
        .max()
        .unwrap_or(PASS)
}

/// One report as text: a finding a line, the online verdicts, the summary.
fn print_text(report: &check::FileReport) {
    for f in &report.findings {
        let file = f.file.as_deref().unwrap_or(&report.bib);
        let at = match f.line {
            Some(l) => format!("{file}:{l}"),
            None => file.to_string(),
        };
        let sev = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &f.suggestion {
            Some(s) => outln!("{at}: {sev}: {} (suggested: {s})", f.message),
            None => outln!("{at}: {sev}: {}", f.message),
        }
    }
    if let Some(o) = &report.online {
        for e in o.entries.iter().filter(|e| crate::annotate::annotated(e)) {
            outln!(
                "{}:{}: {}: {}: {}",
                report.bib,
                e.line,
                e.key,
                e.class.name(),
                e.class.words()
            );
            outln!("    {}", e.summary);
            if let Some(raw) = &e.raw {
                outln!("    “{raw}”");
            }
            for r in &e.reasons {
                outln!("    {}", r.message);
            }
            for n in &e.notices {
                outln!("    {}", n.message);
            }
            if let Some(m) = &e.accepted {
                outln!("    {}", m.message);
            }
        }
    }
    outln!("{}", report.summary());
    if let Some(o) = &report.online {
        outln!(
            "online: {} ({} hallucinated, {} uncertain; {} requests, {} from cache)",
            o.classes.describe(),
            o.hallucinated,
            o.uncertain,
            o.requests,
            o.from_cache
        );
    }
}
