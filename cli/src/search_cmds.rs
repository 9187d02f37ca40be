//! `citegate fuse`, `citegate library` and `citegate crosscheck`: search
//! fusion, the reference library and the cross-index check of a pool,
//! offline, on recorded API responses.

use crate::error::Error;
use crate::io::outln;
use crate::io::{load_responses, recorded, response_key};
use crate::io::{print_json, read_text, BAD_INPUT, PASS};
use crate::live::{Fetcher, LiveArgs};
use citegate_core::crossindex::{self, CrossRun, IndexAnswer, RunNext, RunReply};
use citegate_core::library::{record_from_work, Library};
use citegate_core::pool::{self, PoolPaper};
use citegate_core::search::probe::{Probe, ProbeMachine, ProbeOutcome};
use citegate_core::search::{
    self, respond, BackendRun, Credentials, Outcome, ProbeConfig, SearchResponse, Selection, Status,
};
use citegate_core::works::request::YearRange;
use citegate_core::works::request::{self, WorkId};
use citegate_core::works::{parse_response, Service};
use clap::{Args, Subcommand};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum SearchCommand {
    /// Search Semantic Scholar, OpenAlex and Crossref live (or fuse recorded responses) into one ranked list with an honest status (exit 0 ok/partial, 2 error)
    Fuse(FuseArgs),
    /// Work with a refs.jsonl reference library
    #[command(subcommand)]
    Library(LibraryCommand),
    /// Cross-check a pool against Crossref and OpenAlex, live or from recorded responses (exit 1 if a paper is flagged low/conflict or an index was unavailable, 2 bad input)
    Crosscheck(CrosscheckArgs),
}

#[derive(Args)]
pub struct CrosscheckArgs {
    /// The citation pool (citation_pool.json)
    #[arg(long)]
    pool: PathBuf,
    /// Recorded Crossref responses: a JSON object keyed by paper title (or
    /// bibtex_key), or a directory of `<key>.json` files, the key being the
    /// title lowercased with only letters and digits kept. A value is
    /// {"by_doi": R, "search": R} or a single R, which is the DOI lookup when
    /// the paper has a DOI and the title search otherwise; R is a response
    /// body or {"status": N, "body": …}. A 404 DOI lookup is "no hit"; any
    /// other error makes the index unavailable for the rest of the run.
    #[arg(long)]
    crossref: Option<PathBuf>,
    /// Recorded OpenAlex responses, in the same form as --crossref
    #[arg(long)]
    openalex: Option<PathBuf>,
    /// Allowed year difference before a strong match downgrades to medium
    #[arg(long, default_value_t = crossindex::Config::default().year_tolerance)]
    year_tolerance: i64,
    /// Title ratio strictly above this corroborates
    #[arg(long, default_value_t = crossindex::Config::default().threshold)]
    threshold: i64,
    /// Title ratio at or above this is trusted for DOI/year conflicts
    #[arg(long, default_value_t = crossindex::Config::default().strong_threshold)]
    strong_threshold: i64,
    /// Write the pool, each paper annotated with `cross_verification`, here
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the report as JSON
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    live: LiveArgs,
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
    /// The query (live), or the query the recorded responses answer (for
    /// the length check and the zero-result probe)
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
    /// Live search: which backends (all, s2, openalex, crossref); used when
    /// no recorded response is given
    #[arg(long, default_value = "all")]
    source: String,
    /// Live search: hits asked of each backend (1 to 100)
    #[arg(long, default_value_t = search::PER_BACKEND_DEFAULT, value_parser = per_backend_arg)]
    per_backend: usize,
    /// Live search: publication years, A:B, A: or :B
    #[arg(long)]
    years: Option<String>,
    #[command(flatten)]
    live: LiveArgs,
}

#[derive(Subcommand)]
pub enum LibraryCommand {
    /// Add the first work of a recorded response (or --index N) to refs.jsonl; refuses a DOI already present
    Add(Box<AddArgs>),
    /// List the records of refs.jsonl
    List(ListArgs),
}

#[derive(Args)]
pub struct AddArgs {
    /// The refs.jsonl file (created if absent)
    #[arg(long)]
    library: PathBuf,
    /// Recorded response body holding the work
    #[arg(long, required_unless_present = "id", conflicts_with = "id")]
    work: Option<PathBuf>,
    /// Look the work up live by id: a DOI, an arXiv id (`arXiv:1706.03762`),
    /// a Semantic Scholar id or an OpenAlex `W…` id
    #[arg(long)]
    id: Option<String>,
    /// Backend that produced the recorded response, or to ask with --id:
    /// s2, openalex or crossref
    #[arg(long, default_value = "s2")]
    service: String,
    /// Which work of the response (0-based)
    #[arg(long, default_value_t = 0)]
    index: usize,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    live: LiveArgs,
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
    pub fn run(self) -> crate::error::Outcome {
        match self {
            SearchCommand::Fuse(a) => run_fuse(a),
            SearchCommand::Library(LibraryCommand::Add(a)) => run_add(*a),
            SearchCommand::Library(LibraryCommand::List(a)) => run_list(a),
            SearchCommand::Crosscheck(a) => run_crosscheck(a),
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

fn load_library(path: &Path) -> Result<Library, Error> {
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

/// Searches the selected backends live, then runs the core's zero-result
/// probe with the requests it names.
fn live_search(a: &FuseArgs) -> Result<(Vec<BackendRun>, Probe), Error> {
    let Some(selection) = Selection::parse(&a.source) else {
        return Err(Error::usage(format!(
            "--source must be all, s2, openalex or crossref, not `{}`",
            a.source
        )));
    };
    let years = match &a.years {
        Some(y) => Some(YearRange::parse(y).map_err(|e| Error::flag("--years", e))?),
        None => None,
    };
    let settings = a.live.settings()?;
    let mut fetcher = Fetcher::new(&settings, a.json || a.human)?;
    let plan = search::plan(selection, &Credentials::default());
    let mut runs = Vec::new();
    if let Err(e) = search::preflight(&a.query) {
        return Err(Error::flag("--query", e.message));
    }
    let mut planned = Vec::new();
    let mut requests = Vec::new();
    for service in plan.run {
        match request::search(
            service,
            &settings.endpoints(service),
            &a.query,
            a.per_backend,
            years,
        ) {
            Ok(req) => {
                planned.push(service);
                requests.push(req);
            }
            Err(e) => runs.push(BackendRun {
                backend: service,
                outcome: Outcome::Skipped(e.message),
            }),
        }
    }
    for (service, f) in planned.iter().zip(fetcher.fetch(requests, "search")) {
        let outcome = match parse_response(*service, f.status, &f.body) {
            Ok(page) => Outcome::Results(page.works),
            Err(e) => Outcome::Failed(e),
        };
        runs.push(BackendRun {
            backend: *service,
            outcome,
        });
    }
    for (service, why) in plan.skipped {
        runs.push(BackendRun {
            backend: service,
            outcome: Outcome::Skipped(why),
        });
    }
    let mut machine = ProbeMachine::new(
        &a.query,
        search::total_hits(&runs),
        &search::answered(&runs),
        ProbeConfig::default(),
    );
    while let Some(pr) = machine.next_request() {
        std::thread::sleep(std::time::Duration::from_millis(pr.delay_ms));
        let outcome = match request::search(
            pr.backend,
            &settings.endpoints(pr.backend),
            &pr.query,
            1,
            years,
        ) {
            Ok(req) => {
                let f = fetcher.one(req, "probe");
                match parse_response(pr.backend, f.status, &f.body) {
                    Ok(page) => ProbeOutcome::Hits(page.total.unwrap_or(page.works.len() as u64)),
                    Err(_) => ProbeOutcome::Failed,
                }
            }
            Err(_) => ProbeOutcome::Failed,
        };
        machine.consume(outcome);
    }
    let probe = machine
        .result()
        .cloned()
        .unwrap_or_else(|| Probe::no_backend(&a.query, ProbeConfig::default()));
    Ok((runs, probe))
}

fn run_fuse(a: FuseArgs) -> crate::error::Outcome {
    if a.s2.is_none() && a.openalex.is_none() && a.crossref.is_none() {
        let (runs, probe) = live_search(&a)?;
        return respond_fused(&a, &runs, probe);
    }
    let mut runs = Vec::new();
    for (service, path) in [
        (Service::SemanticScholar, &a.s2),
        (Service::OpenAlex, &a.openalex),
        (Service::Crossref, &a.crossref),
    ] {
        let Some(path) = path else { continue };
        let body = read_text(path)?;
        let outcome = match parse_response(service, recorded_status(path), &body) {
            Ok(page) => Outcome::Results(page.works),
            Err(e) => Outcome::Failed(e),
        };
        runs.push(BackendRun {
            backend: service,
            outcome,
        });
    }
    // Offline there is no backend to probe: a zero that would need probe
    // requests is reported as inconclusive, never as a clean zero.
    let probe = search::probe_without_requests(&a.query, &runs, ProbeConfig::default())
        .unwrap_or_else(|| Probe::no_backend(&a.query, ProbeConfig::default()));
    respond_fused(&a, &runs, probe)
}

fn respond_fused(a: &FuseArgs, runs: &[BackendRun], probe: Probe) -> crate::error::Outcome {
    let library = match &a.library {
        Some(p) => load_library(p)?.doi_keys(),
        None => HashSet::new(),
    };
    let resp = respond(&a.query, runs, probe, &library, a.limit);
    if a.human {
        print_human(&resp);
    } else {
        print_json(&resp);
    }
    // A search that failed is reported in the response itself (exit 2).
    Ok(if resp.status == Status::Error {
        BAD_INPUT
    } else {
        PASS
    })
}

fn print_human(r: &SearchResponse) {
    match r.status {
        Status::Error => {
            outln!("SEARCH FAILED");
            if let Some(e) = &r.error {
                outln!("  {}", e.message);
                if let Some(q) = &e.query {
                    outln!("  retry: {q}");
                }
            }
            return;
        }
        Status::Partial => {
            outln!("INCOMPLETE: {} papers", r.count.unwrap_or(0));
            outln!("WARNING: {}", r.summary);
        }
        Status::Ok => outln!("Found {} papers", r.count.unwrap_or(0)),
    }
    for f in r.results.iter().flatten() {
        let w = &f.work;
        let lib = if f.in_library { "[IN-LIB] " } else { "" };
        outln!();
        outln!("  {lib}{}", w.title);
        let names: Vec<&str> = w.authors.iter().map(|a| a.name.as_str()).collect();
        if !names.is_empty() {
            outln!("      {}", names.join(", "));
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
        outln!("      {}", line.join("  "));
    }
}

fn run_add(a: AddArgs) -> crate::error::Outcome {
    let Some(service) = service_of(&a.service) else {
        return Err(Error::usage(format!(
            "--service must be s2, openalex or crossref, not `{}`",
            a.service
        )));
    };
    let (source, status, body) = match (&a.work, &a.id) {
        (Some(path), _) => (
            path.display().to_string(),
            recorded_status(path),
            read_text(path)?,
        ),
        (None, Some(id)) => {
            let settings = a.live.settings()?;
            let req = request::lookup(service, &settings.endpoints(service), &WorkId::guess(id))
                .map_err(|e| Error::flag("--id", e))?;
            let mut fetcher = Fetcher::new(&settings, a.json)?;
            let f = fetcher.one(req, "library add");
            (
                format!("{} lookup of `{id}`", service.name()),
                f.status,
                f.body,
            )
        }
        (None, None) => return Err(Error::usage("give --work FILE or --id ID")),
    };
    let page = match parse_response(service, status, &body) {
        Ok(p) => p,
        // The service's error: the check ran and could not add.
        Err(e) if a.id.is_some() => return Err(Error::failed(format!("{source}: {e}"))),
        Err(e) => return Err(Error::input(Path::new(&source), e.to_error())),
    };
    let Some(work) = page.works.get(a.index) else {
        let message = format!(
            "no work at index {} ({} in the response)",
            a.index,
            page.works.len()
        );
        return Err(if a.id.is_some() {
            Error::failed(format!("{source}: {message}"))
        } else {
            Error::content(
                Path::new(&source),
                citegate_core::ErrorKind::InvalidValue,
                message,
            )
        });
    };
    let mut lib = load_library(&a.library)?;
    let record = record_from_work(work);
    let id = lib
        .add(record)
        .map_err(|e| Error::failed(e.message).in_file(&a.library))?;
    std::fs::write(&a.library, lib.to_jsonl()).map_err(|e| Error::write(&a.library, &e))?;
    if a.json {
        print_json(&serde_json::json!({ "added": id, "count": lib.len() }));
    } else {
        outln!("added {id} ({} records)", lib.len());
    }
    Ok(PASS)
}

fn run_list(a: ListArgs) -> crate::error::Outcome {
    let text = read_text(&a.library)?;
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
            outln!(
                "{}\t{}\t{}\t{}",
                r.id,
                year,
                r.doi.as_deref().unwrap_or(""),
                r.title
            );
        }
    }
    Ok(PASS)
}

/// One index's recorded responses, looked up by title or key.
struct Recorded {
    service: Service,
    by_key: HashMap<String, Value>,
}

impl Recorded {
    fn load(service: Service, path: &Path) -> Result<Recorded, Error> {
        let mut by_key = HashMap::new();
        for (k, v) in load_responses(path)? {
            by_key.entry(response_key(&k)).or_insert_with(|| v.clone());
            by_key.insert(k, v);
        }
        Ok(Recorded { service, by_key })
    }

    fn find(&self, paper: &PoolPaper) -> Option<&Value> {
        let title = paper.title.as_deref().unwrap_or("");
        let keys = [paper.bibtex_key.as_deref(), paper.key.as_deref()];
        std::iter::once(title)
            .chain(keys.into_iter().flatten())
            .filter(|k| !k.is_empty())
            .find_map(|k| {
                self.by_key
                    .get(k)
                    .or_else(|| self.by_key.get(&response_key(k)))
            })
    }

    /// The paper's recorded answers in this index: a `{"by_doi", "search"}`
    /// object, or one response (the DOI lookup when the paper has a DOI,
    /// else the title search). The core reads them.
    fn answers(&self, paper: &PoolPaper, value: &Value) -> crossindex::RecordedAnswer {
        let pair = |v: &Value| {
            let (status, body) = recorded(v);
            (status.unwrap_or(200), body)
        };
        let wrapped = value
            .as_object()
            .filter(|m| m.contains_key("by_doi") || m.contains_key("search"));
        let (doi, search) = match wrapped {
            Some(m) => (m.get("by_doi"), m.get("search")),
            None if crossindex::pool_doi(paper).is_some() => (Some(value), None),
            None => (None, Some(value)),
        };
        crossindex::RecordedAnswer {
            by_doi: doi.map(pair),
            search: search.map(pair),
        }
    }
}

/// Each paper's answers, index by index.
type Answers = Vec<Vec<(Service, IndexAnswer)>>;

/// Each paper's answers from the recorded responses, replayed by the core
/// ([`crossindex::replay`]: an index whose answer is an error is out for
/// the rest, as in the reference); this only finds them in the files.
fn recorded_crosscheck(indices: &[Recorded], papers: &[PoolPaper]) -> (Vec<Service>, Answers) {
    let requested: Vec<Service> = indices.iter().map(|r| r.service).collect();
    let r = crossindex::replay(papers.len(), &requested, |i, service| {
        let idx = indices.iter().find(|x| x.service == service)?;
        let paper = papers.get(i)?;
        idx.find(paper).map(|v| idx.answers(paper, v))
    });
    // The warnings in paper order, then index order, as they arose.
    let pos = |s: &Service| requested.iter().position(|x| x == s).unwrap_or(0);
    let mut warnings: Vec<(usize, usize, String)> = r
        .missing
        .iter()
        .map(|(i, service)| {
            let title = papers.get(*i).and_then(|p| p.title.as_deref());
            let what = format!(
                "no recorded {} response for paper {i} ({}); index not checked",
                service.name(),
                title.unwrap_or("untitled")
            );
            (*i, pos(service), what)
        })
        .chain(
            r.out
                .iter()
                .map(|(i, service, e)| (*i, pos(service), format!("paper {i}: {e}"))),
        )
        .collect();
    warnings.sort_by_key(|(i, p, _)| (*i, *p));
    for (_, _, w) in warnings {
        eprintln!("warning: {w}");
    }
    (requested, r.answers)
}

/// Each paper's answers from Crossref and OpenAlex, live: the core's
/// [`CrossRun`] plans every request (DOI batches of 50 cut over the whole
/// pool, a title search for each paper without a DOI or whose DOI an index
/// does not hold) and reads every answer ([`RunReply::from_answer`]: an
/// index still failing after the fetch policy's retries is out for the
/// run). This only sends what the run asks through the [`Fetcher`] (cache,
/// spacing, retries), as the app's cross-check page does.
pub fn live_crosscheck(
    live: &LiveArgs,
    quiet: bool,
    papers: &[PoolPaper],
) -> Result<(Vec<Service>, Answers), Error> {
    let settings = live.settings()?;
    let mut fetcher = Fetcher::new(&settings, quiet)?;
    let mut run = CrossRun::new(
        papers.to_vec(),
        vec![Service::Crossref, Service::OpenAlex],
        settings.endpoints_shared(),
        crossindex::Config::default(),
        BTreeMap::new(),
    );
    // A sequential sender has nothing in flight when it asks again, so
    // `AwaitReplies` does not occur; it ends the loop all the same.
    while let RunNext::Send(ask) = run.next() {
        let service = ask.request.service;
        let f = fetcher.one(ask.request, "crosscheck");
        let reply = RunReply::from_answer(service, f.status, &f.body);
        if let RunReply::Unavailable(e) | RunReply::Failed(e) = &reply {
            eprintln!("warning: {}: {e}", waiting_on(&ask.papers));
        }
        run.answer(ask.id, reply);
    }
    Ok((run.services().to_vec(), run.index_answers()))
}

/// "paper 3", or "50 papers (0 to 52)" for a batch, as the warnings name them.
fn waiting_on(papers: &[usize]) -> String {
    match papers {
        [one] => format!("paper {one}"),
        [first, .., last] => format!("{} papers ({first} to {last})", papers.len()),
        [] => "no paper".into(),
    }
}

fn run_crosscheck(a: CrosscheckArgs) -> crate::error::Outcome {
    let text = read_text(&a.pool)?;
    let mut pool = pool::parse_pool(&text).map_err(|e| Error::input(&a.pool, e))?;
    if pool.papers.is_empty() {
        return Err(Error::content(
            &a.pool,
            citegate_core::ErrorKind::MissingField,
            "`papers` is empty or missing",
        ));
    }
    let mut indices = Vec::new();
    for (service, path) in [
        (Service::Crossref, &a.crossref),
        (Service::OpenAlex, &a.openalex),
    ] {
        if let Some(p) = path {
            indices.push(Recorded::load(service, p)?);
        }
    }
    let (requested, answers) = if indices.is_empty() {
        live_crosscheck(&a.live, a.json, &pool.papers)?
    } else {
        recorded_crosscheck(&indices, &pool.papers)
    };
    let cfg = crossindex::Config {
        threshold: a.threshold,
        strong_threshold: a.strong_threshold,
        year_tolerance: a.year_tolerance,
    };
    let (rep, verdicts) = crossindex::verify(&pool.papers, &requested, &answers, &cfg);
    for name in &rep.indices_unavailable {
        eprintln!("warning: index '{name}' unreachable; disabled for the rest of this run");
    }
    if let Some(out) = &a.out {
        for (paper, v) in pool.papers.iter_mut().zip(&verdicts) {
            paper.cross_verification = serde_json::to_value(v).ok();
        }
        std::fs::write(out, pool::to_json(&pool)).map_err(|e| Error::write(out, &e))?;
    }
    if a.json {
        print_json(&rep);
    } else {
        print_crosscheck(&rep, a.out.as_deref());
    }
    Ok(rep.exit_code())
}

fn print_crosscheck(rep: &crossindex::Report, out: Option<&Path>) {
    let checked = if rep.indices_checked.is_empty() {
        "none".to_string()
    } else {
        rep.indices_checked.join(", ")
    };
    let s = &rep.summary;
    outln!("Cross-index verification ({checked}):");
    outln!(
        "  {} papers  |  high={} medium={} low={} conflict={}",
        rep.total_papers,
        s.high,
        s.medium,
        s.low,
        s.conflict
    );
    if !rep.indices_unavailable.is_empty() {
        outln!("  unavailable: {}", rep.indices_unavailable.join(", "));
    }
    if let Some(p) = out {
        outln!("  annotated pool → {}", p.display());
    }
    if rep.flagged.is_empty() {
        return;
    }
    outln!("\nWARN: {} citation(s) need review:", rep.flagged.len());
    for f in &rep.flagged {
        let tier = serde_json::to_value(f.confidence)
            .ok()
            .and_then(|v| v.as_str().map(str::to_uppercase))
            .unwrap_or_default();
        outln!(
            "  [{tier}] {}: {}",
            f.bibtex_key.as_deref().unwrap_or("?"),
            f.title.as_deref().unwrap_or("")
        );
        for note in &f.notes {
            outln!("      → {note}");
        }
    }
    outln!("\nReview these before building refs.bib. Drop any you cannot corroborate.");
}

/// `--per-backend`: a whole number from 1 to [`search::PER_BACKEND_MAX`].
fn per_backend_arg(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=search::PER_BACKEND_MAX).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number from 1 to {}",
            search::PER_BACKEND_MAX
        )),
    }
}
