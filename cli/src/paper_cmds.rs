//! `citegate refs` and `citegate check`: a paper's references as
//! reviewers, chairs and moderators hold them — a `.bbl`, a `.tex`, a
//! source `.zip` or `.tar.gz`, a text list, a `.bib`/CSL-JSON/RIS, or an
//! arXiv id whose e-print source is fetched. Reading and choosing are the
//! core's (`citegate_core::paper`); here files are read, archives
//! unpacked, the e-print downloaded, and the report printed as bibcheck
//! prints its own.

use crate::annotate::{FailOn, OutputFormat};
use crate::error::{Error, Outcome};
use crate::io::outln;
use crate::io::print_json;
use crate::live::{Executor, LiveArgs};
use citegate_core::ids::ArxivId;
use citegate_core::paper::{self, PaperRefs};
use citegate_core::resolve;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum PaperCommand {
    /// Print the references read from a paper: a .bbl, a .tex with a thebibliography, a source .zip or .tar.gz, a text list (.txt, .md, - for standard input) or a .bib/CSL-JSON/RIS (exit 0 read, 2 unreadable input)
    Refs(RefsArgs),
    /// Check a paper's references: each is read into fields and, with --online, looked up and judged as bibcheck judges a .bib entry; a target is a file as for `refs` or an arXiv id or URL whose source is fetched (exit 0 clean, 1 problems, 2 unreadable input)
    Check(Box<CheckArgs>),
}

#[derive(Args)]
pub struct RefsArgs {
    /// The paper's files; `-` reads standard input
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Machine-readable output: `{"file", "references": [{"raw", "title", "authors": [{"family", "given"}], "year", "venue", "doi", "arxiv", "url", "page"}]}`, a list for several files
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Files as for `refs`, or arXiv ids or URLs (`arXiv:2401.12345`, `https://arxiv.org/abs/2401.12345`)
    #[arg(value_name = "TARGET", required = true)]
    targets: Vec<String>,
    /// Also ask the services whether each reference exists and matches its
    /// record (Semantic Scholar, Crossref, OpenAlex, DataCite, DBLP, arXiv)
    #[arg(long)]
    online: bool,
    /// Machine-readable output (the same as --format json): bibcheck's report, each entry with its `raw` text
    #[arg(long)]
    json: bool,
    /// Output: text, json, github (workflow annotations) or sarif (2.1.0)
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Exit 1 only for findings of this severity or worse: `warning` (any finding) or `error`
    #[arg(long, value_enum, default_value = "warning")]
    fail_on: FailOn,
    #[command(flatten)]
    live: LiveArgs,
    #[command(flatten)]
    local: crate::local::LocalArgs,
}

impl PaperCommand {
    pub fn run(self) -> Outcome {
        match self {
            PaperCommand::Refs(a) => run_refs(&a),
            PaperCommand::Check(a) => run_check(&a),
        }
    }
}

/// Reads `path` as a paper: an archive is unpacked and its bibliography
/// chosen by the core, any other file read by name and content.
fn read_file(path: &Path) -> Result<PaperRefs, Error> {
    let name = crate::annotate::display_name(path);
    let bytes = crate::annotate::read_input(path).map_err(|e| Error::read(path, &e))?;
    read_bytes(&name, bytes)
}

/// A paper's bytes under `name`: the core's [`paper::read_any`] (a `.zip`,
/// a gzip or tar source, or one file).
pub(crate) fn read_bytes(name: &str, bytes: Vec<u8>) -> Result<PaperRefs, Error> {
    paper::read_any(name, &bytes).map_err(Error::core)
}

pub(crate) use citegate_core::archive::is_tar;

/// The regular files of a tar archive with their paths (the core's reader).
pub(crate) fn untar(bytes: &[u8]) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    citegate_core::archive::untar(bytes).map_err(|e| std::io::Error::other(e.message))
}

/// `citegate refs`: each file's references, as text or JSON.
fn run_refs(a: &RefsArgs) -> Outcome {
    let mut read = Vec::new();
    let mut errors = Vec::new();
    for path in &a.files {
        match read_file(path) {
            Ok(r) => read.push(r),
            Err(e) => errors.push(e),
        }
    }
    if a.json {
        match read.as_slice() {
            [one] if a.files.len() == 1 => print_json(one),
            _ => print_json(&read),
        }
    } else {
        for refs in &read {
            print_refs(refs);
        }
    }
    Error::all(errors).map_or(Ok(crate::io::PASS), Err)
}

/// One file's references as text: a line each, then its identifiers.
fn print_refs(refs: &PaperRefs) {
    outln!("{}: {} references", refs.file, refs.references.len());
    for (i, r) in refs.references.iter().enumerate() {
        let mut names: Vec<String> = r.authors.iter().map(|p| p.family.clone()).collect();
        if r.others {
            names.push("et al.".into());
        }
        let year = r.year.map(|y| format!(" ({y})")).unwrap_or_default();
        let title = r.title.as_deref().unwrap_or("(no title read)");
        let venue = r
            .venue
            .as_deref()
            .map(|v| format!(" — {v}"))
            .unwrap_or_default();
        outln!("{:>4}. {}{year}. {title}{venue}", i + 1, names.join(", "));
        let mut ids = Vec::new();
        if let Some(d) = &r.doi {
            ids.push(format!("doi:{d}"));
        }
        if let Some(x) = &r.arxiv {
            ids.push(format!("arXiv:{x}"));
        }
        if let Some(u) = &r.url {
            ids.push(u.clone());
        }
        if !ids.is_empty() {
            outln!("      {}", ids.join("  "));
        }
    }
    for p in &refs.problems {
        eprintln!("warning: {p}");
    }
}

/// The arXiv id a target names (`arXiv:2401.12345`, an arxiv.org URL),
/// unless it is a file that exists.
fn arxiv_target(target: &str) -> Option<ArxivId> {
    if Path::new(target).exists() {
        return None;
    }
    let lower = target.to_ascii_lowercase();
    (lower.starts_with("arxiv:") || lower.contains("arxiv.org/"))
        .then(|| ArxivId::parse(target))
        .flatten()
}

/// A target's references: a file, or an arXiv paper's e-print source
/// fetched from `<arxiv base>/e-print/<id>`.
fn read_target(target: &str, a: &CheckArgs) -> Result<PaperRefs, Error> {
    let Some(id) = arxiv_target(target) else {
        return read_file(Path::new(target));
    };
    fetch_arxiv(&id, &a.live.settings()?)
}

/// An arXiv paper's references, from its e-print source fetched from
/// `<arxiv base>/e-print/<id>`.
pub(crate) fn fetch_arxiv(
    id: &ArxivId,
    settings: &crate::live::Settings,
) -> Result<PaperRefs, Error> {
    let url = citegate_core::works::request::eprint_url(settings.root("arxiv"), id);
    let client = crate::http::Client::new(settings.timeout_ms);
    let bytes = client
        .get_bytes(&url, "arxiv")
        .map_err(|m| Error::failed(format!("cannot fetch the source of arXiv:{id}: {m}")))?;
    read_bytes(&format!("arXiv:{id}"), bytes)
}

/// `citegate check`: each target's references through bibcheck's layers
/// (core `paper::check`), printed as bibcheck prints its reports.
fn run_check(a: &CheckArgs) -> Outcome {
    if a.online {
        a.live.settings()?;
    }
    let mut errors = Vec::new();
    let mut reports = Vec::new();
    for target in &a.targets {
        let refs = match read_target(target, a) {
            Ok(r) => r,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let mut report = paper::check::offline_report(&refs, crate::bib_cmds::today().year());
        if a.online {
            match run_online(&refs, a) {
                Ok(online) => report.online = Some(online),
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            }
        }
        reports.push(report);
    }
    let format = if a.json { OutputFormat::Json } else { a.format };
    let worst = crate::bib_cmds::print_reports(format, a.fail_on, &reports, a.targets.len() > 1);
    Error::all(errors).map_or(Ok(worst), Err)
}

/// Layers 2–4 over a paper's references, through bibcheck's executor.
fn run_online(
    refs: &PaperRefs,
    a: &CheckArgs,
) -> Result<citegate_core::bibtex::check::OnlineReport, Error> {
    let settings = a.live.settings()?;
    let mut exec = Executor::new(&settings, a.json || a.format != OutputFormat::Text)?;
    exec.offline = a.local.offline;
    let opts = settings.resolve_options();
    let title_hits = opts.title_hits;
    let mut run = resolve::Run::new(paper::check::references(refs), opts);
    // The local index first: what it settles is never asked of a service.
    if let Some(dir) = a.local.index.as_ref().or(settings.index.as_ref()) {
        crate::local::Local::open(dir)?.answer(&mut run, title_hits)?;
    }
    exec.drive(&mut run, "check");
    Ok(paper::check::online_report(
        refs,
        &run.report(),
        crate::bib_cmds::today(),
        exec.sent,
        exec.from_cache,
    ))
}
