//! `citegate fuse` and `citegate library`: search fusion and the reference
//! library, offline, on recorded API responses.

use crate::io::{print_json, read_text, report, BAD_INPUT, PASS};
use citegate_core::library::{record_from_work, Library};
use citegate_core::search::probe::{Probe, ProbeReason, ProbeState};
use citegate_core::search::{
    self, respond, BackendRun, Outcome, ProbeConfig, SearchResponse, Status,
};
use citegate_core::works::{parse_response, Service};
use clap::{Args, Subcommand};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum SearchCommand {
    /// Fuse recorded search responses into one ranked list with an honest status (exit 0 ok/partial, 2 error)
    Fuse(FuseArgs),
    /// Work with a refs.jsonl reference library
    #[command(subcommand)]
    Library(LibraryCommand),
}

#[derive(Args)]
pub struct FuseArgs {
    /// Semantic Scholar response body (status from a sibling X.request.json, else 200)
    #[arg(long)]
    s2: Option<PathBuf>,
    /// OpenAlex response body
    #[arg(long)]
    openalex: Option<PathBuf>,
    /// Crossref response body
    #[arg(long)]
    crossref: Option<PathBuf>,
    /// The query the responses answer (for the length check and the zero-result probe)
    #[arg(long, default_value = "recorded search")]
    query: String,
    /// refs.jsonl to mark results already in the library
    #[arg(long)]
    library: Option<PathBuf>,
    /// At most N results
    #[arg(long)]
    limit: Option<usize>,
    /// Readable list instead of JSON
    #[arg(long)]
    human: bool,
    /// JSON output (the default)
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
pub enum LibraryCommand {
    /// Add the first work of a recorded response (or --index N) to refs.jsonl; refuses a DOI already present
    Add(AddArgs),
    /// List the records of refs.jsonl
    List(ListArgs),
}

#[derive(Args)]
pub struct AddArgs {
    /// The refs.jsonl file (created if absent)
    #[arg(long)]
    library: PathBuf,
    /// Recorded response body holding the work
    #[arg(long)]
    work: PathBuf,
    /// Backend that produced it: s2, openalex or crossref
    #[arg(long)]
    service: String,
    /// Which work of the response (0-based)
    #[arg(long, default_value_t = 0)]
    index: usize,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ListArgs {
    /// The refs.jsonl file
    #[arg(long)]
    library: PathBuf,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

impl SearchCommand {
    pub fn run(self) -> u8 {
        match self {
            SearchCommand::Fuse(a) => run_fuse(a),
            SearchCommand::Library(LibraryCommand::Add(a)) => run_add(a),
            SearchCommand::Library(LibraryCommand::List(a)) => run_list(a),
        }
    }
}

fn service_of(name: &str) -> Option<Service> {
    match name.trim().to_ascii_lowercase().as_str() {
        "s2" | "semanticscholar" | "semantic_scholar" => Some(Service::SemanticScholar),
        "openalex" => Some(Service::OpenAlex),
        "crossref" => Some(Service::Crossref),
        _ => None,
    }
}

/// Status recorded next to a body (`X.request.json` for `X.json`), else 200.
fn recorded_status(body: &Path) -> u16 {
    let stem = body.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let side = body.with_file_name(format!("{stem}.request.json"));
    std::fs::read_to_string(side)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("status").and_then(|s| s.as_u64()))
        .and_then(|s| u16::try_from(s).ok())
        .unwrap_or(200)
}

fn load_library(path: &Path) -> Result<Library, u8> {
    if !path.exists() {
        return Ok(Library::default());
    }
    let text = read_text(path)?;
    let (lib, errors) = Library::parse(&text);
    for e in errors {
        eprintln!(
            "warning: {} (line skipped)",
            e.in_file(path.display().to_string())
        );
    }
    Ok(lib)
}

fn run_fuse(a: FuseArgs) -> u8 {
    let mut runs = Vec::new();
    for (service, path) in [
        (Service::SemanticScholar, &a.s2),
        (Service::OpenAlex, &a.openalex),
        (Service::Crossref, &a.crossref),
    ] {
        let Some(path) = path else { continue };
        let body = match read_text(path) {
            Ok(t) => t,
            Err(code) => return code,
        };
        let outcome = match parse_response(service, recorded_status(path), &body) {
            Ok(page) => Outcome::Results(page.works),
            Err(e) => Outcome::Failed(e),
        };
        runs.push(BackendRun {
            backend: service,
            outcome,
        });
    }
    let library = match &a.library {
        Some(p) => match load_library(p) {
            Ok(l) => l.doi_keys(),
            Err(code) => return code,
        },
        None => HashSet::new(),
    };
    // Offline there is no backend to probe: a zero that would need probe
    // requests is reported as inconclusive, never as a clean zero.
    let probe = search::probe_without_requests(&a.query, &runs, ProbeConfig::default())
        .unwrap_or_else(|| Probe {
            state: ProbeState::Inconclusive,
            reason: Some(ProbeReason::NoBackendAvailable),
            backend: None,
            content_terms: search::probe::content_terms(&a.query).len(),
            drops_tried: 0,
            max_drops: ProbeConfig::default().max_drops,
            dropped_term: None,
            query: None,
        });
    let resp = respond(&a.query, &runs, probe, &library, a.limit);
    if a.human {
        print_human(&resp);
    } else {
        print_json(&resp);
    }
    if resp.status == Status::Error {
        BAD_INPUT
    } else {
        PASS
    }
}

fn print_human(r: &SearchResponse) {
    match r.status {
        Status::Error => {
            println!("SEARCH FAILED");
            if let Some(e) = &r.error {
                println!("  {}", e.message);
                if let Some(q) = &e.query {
                    println!("  retry: {q}");
                }
            }
            return;
        }
        Status::Partial => {
            println!("INCOMPLETE: {} papers", r.count.unwrap_or(0));
            println!("WARNING: {}", r.summary);
        }
        Status::Ok => println!("Found {} papers", r.count.unwrap_or(0)),
    }
    for f in r.results.iter().flatten() {
        let w = &f.work;
        let lib = if f.in_library { "[IN-LIB] " } else { "" };
        println!();
        println!("  {lib}{}", w.title);
        let names: Vec<&str> = w.authors.iter().map(|a| a.name.as_str()).collect();
        if !names.is_empty() {
            println!("      {}", names.join(", "));
        }
        let mut line = Vec::new();
        if let Some(v) = &w.venue {
            line.push(v.clone());
        }
        if let Some(y) = w.year() {
            line.push(format!("({y})"));
        }
        if let Some(c) = w.citation_count {
            line.push(format!("cites:{c}"));
        }
        if let Some(d) = &w.doi {
            line.push(format!("doi:{d}"));
        }
        line.push(format!("[{}]", f.sources.join(" ")));
        println!("      {}", line.join("  "));
    }
}

fn run_add(a: AddArgs) -> u8 {
    let Some(service) = service_of(&a.service) else {
        eprintln!(
            "error: --service must be s2, openalex or crossref, not `{}`",
            a.service
        );
        return BAD_INPUT;
    };
    let body = match read_text(&a.work) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let page = match parse_response(service, recorded_status(&a.work), &body) {
        Ok(p) => p,
        Err(e) => return report(&a.work, e.to_error()),
    };
    let Some(work) = page.works.get(a.index) else {
        eprintln!(
            "error: {}: no work at index {} ({} in the response)",
            a.work.display(),
            a.index,
            page.works.len()
        );
        return BAD_INPUT;
    };
    let mut lib = match load_library(&a.library) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let record = record_from_work(work);
    let id = match lib.add(record) {
        Ok(id) => id,
        Err(e) => {
            eprintln!("error: {}: {}", a.library.display(), e.message);
            return crate::io::FAIL;
        }
    };
    if let Err(e) = std::fs::write(&a.library, lib.to_jsonl()) {
        eprintln!(
            "error: cannot write {}: {}",
            a.library.display(),
            e.to_string().to_lowercase()
        );
        return BAD_INPUT;
    }
    if a.json {
        print_json(&serde_json::json!({ "added": id, "count": lib.len() }));
    } else {
        println!("added {id} ({} records)", lib.len());
    }
    PASS
}

fn run_list(a: ListArgs) -> u8 {
    let text = match read_text(&a.library) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let (lib, errors) = Library::parse(&text);
    for e in &errors {
        eprintln!(
            "warning: {} (line skipped)",
            e.clone().in_file(a.library.display().to_string())
        );
    }
    if a.json {
        let records: Vec<_> = lib.records().collect();
        print_json(
            &serde_json::json!({ "count": records.len(), "records": records, "bad_lines": errors }),
        );
    } else {
        for r in lib.records() {
            let year = r
                .published
                .as_ref()
                .and_then(|p| p.year)
                .map(|y| y.to_string())
                .unwrap_or_default();
            println!(
                "{}\t{}\t{}\t{}",
                r.id,
                year,
                r.doi.as_deref().unwrap_or(""),
                r.title
            );
        }
    }
    PASS
}
