//! `pre-dedup`, `outline-queries`, `verify`, `dedupe`, `validate-pool`,
//! `bibtex` and `prompt`: the citation-pool pipeline.
//!
//! Inputs, outputs and exit codes follow the reference scripts: 0 done or
//! valid, 1 the check ran and failed (no papers, errors left in the pool,
//! candidates that could not be decided), 2 bad input.

use crate::error::{Error, Outcome};
use crate::io::{json_error, print_json, read_text, FAIL, PASS};
use crate::io::{out, outln};
use crate::live::LiveArgs;
use crate::pool_verify::{self, Verified};
use citegate_core::bibtex::write::write_bib;
use citegate_core::candidates::{self, PRE_DEDUP_THRESHOLD};
use citegate_core::cutoff::Date;
use citegate_core::pool::{self, Pool, Severity};
use citegate_core::prompt::{self, PromptValues};
use citegate_core::verify::VerifyOptions;
use clap::{Args, Subcommand};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum PoolCommand {
    /// Merge duplicate search candidates before verification (arXiv id or title, then title ratio ≥ 92)
    PreDedup(PreDedupArgs),
    /// List the search queries of an outline.json with their discovered_for tags
    OutlineQueries(OutlineArgs),
    /// Decide candidates against Semantic Scholar, live at 1 request/s or from recorded responses (exit 1 if any is undecided)
    Verify(VerifyArgs),
    /// Deduplicate verified papers by paperId > DOI > arXiv id > title; writes citation_pool.json
    Dedupe(DedupeArgs),
    /// Check citation_pool.json (exit 0 valid, 1 errors remain, 2 unreadable); --fix repairs string authors
    ValidatePool(ValidateArgs),
    /// Write refs.bib from a pool and store each paper's bibtex_key back into the pool
    Bibtex(BibtexArgs),
    /// Fill the writing prompt (or your own template) from a pool
    Prompt(PromptArgs),
    /// The whole literature pipeline in a workspace, live: raw_candidates.json → pre-dedup → verify → dedupe → validate → cross-check → refs.bib (exit 0 clean, 1 something to review, 2 bad input)
    PoolChain(ChainArgs),
}

#[derive(Args)]
pub struct ChainArgs {
    /// The workspace: reads raw_candidates.json, writes deduped_candidates.json,
    /// raw_pool.json, citation_pool.json, cross_verification_report.json and
    /// refs.bib there, with the cache in cache/s2_cache.json
    #[arg(long, default_value = "workspace")]
    workspace: PathBuf,
    /// The raw candidates [default: WORKSPACE/raw_candidates.json]
    #[arg(long = "in")]
    input: Option<PathBuf>,
    /// The research cutoff, YYYY-MM-DD
    #[arg(long)]
    cutoff: String,
    /// Skip the Crossref/OpenAlex cross-check
    #[arg(long)]
    no_crosscheck: bool,
    /// Machine-readable summary of every step
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    live: LiveArgs,
}

#[derive(Args)]
pub struct PreDedupArgs {
    /// raw_candidates.json (a list, or {"candidates": […]} / {"papers": […]})
    #[arg(long = "in")]
    input: PathBuf,
    /// Where to write the deduplicated candidates
    #[arg(long)]
    out: PathBuf,
    /// Title ratio (0–100) at or above which two candidates are the same
    #[arg(long, default_value_t = PRE_DEDUP_THRESHOLD)]
    title_ratio: f64,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct OutlineArgs {
    /// outline.json
    #[arg(long)]
    outline: PathBuf,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The candidates (raw or pre-deduplicated)
    #[arg(long, visible_alias = "in")]
    candidates: PathBuf,
    /// Recorded responses: a JSON object keyed by candidate title, or a
    /// directory of `<key>.json` files, where the key is the title
    /// lowercased with only letters and digits kept. A value is a response
    /// body, or {"status": N, "body": …} to give the HTTP status. Without
    /// it, Semantic Scholar is asked live: candidates with a DOI or arXiv id
    /// in batches of 500, the rest (and ids it does not know) by title
    #[arg(long)]
    responses: Option<PathBuf>,
    /// The research cutoff, YYYY-MM-DD
    #[arg(long)]
    cutoff: String,
    /// Take the top hit only (the paper's behaviour) instead of the best-scoring one
    #[arg(long)]
    paper_faithful: bool,
    /// Turn off the short-title substring bypass
    #[arg(long)]
    no_substring_bypass: bool,
    /// Write the accepted papers here as {"papers": […]}, the input of `dedupe`
    #[arg(long)]
    out: Option<PathBuf>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    live: LiveArgs,
}

#[derive(Args)]
pub struct DedupeArgs {
    /// Verified papers: {"papers": […]}, {"candidates": […]} or a list
    #[arg(long = "in")]
    input: PathBuf,
    /// Where to write citation_pool.json
    #[arg(long)]
    out: PathBuf,
    /// The research cutoff, YYYY-MM-DD, recorded in the pool
    #[arg(long)]
    cutoff: Option<String>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ValidateArgs {
    /// citation_pool.json
    #[arg(long)]
    pool: PathBuf,
    /// Rewrite string authors as {"name": …} and save the pool
    #[arg(long)]
    fix: bool,
    /// Print errors only
    #[arg(long)]
    quiet: bool,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct BibtexArgs {
    /// citation_pool.json (bibtex_key is written back into it)
    #[arg(long)]
    pool: PathBuf,
    /// Where to write refs.bib
    #[arg(long)]
    out: PathBuf,
    /// Also write the same entries as CSL-JSON (for Zotero, pandoc, citation.js)
    #[arg(long, value_name = "PATH")]
    csl_out: Option<PathBuf>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct PromptArgs {
    /// citation_pool.json
    #[arg(long)]
    pool: PathBuf,
    /// The research cutoff, YYYY-MM-DD (default: the pool's cutoff_date)
    #[arg(long)]
    cutoff: Option<String>,
    /// Your own template, with {paper_count}, {min_cite_paper_count}, {cutoff_date}; `{{`/`}}` for braces
    #[arg(long)]
    template: Option<PathBuf>,
    /// Write the prompt here instead of printing it
    #[arg(long)]
    out: Option<PathBuf>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

impl PoolCommand {
    pub fn run(self) -> Outcome {
        match self {
            PoolCommand::PreDedup(a) => run_pre_dedup(a),
            PoolCommand::OutlineQueries(a) => run_outline(a),
            PoolCommand::Verify(a) => run_verify(a),
            PoolCommand::Dedupe(a) => run_dedupe(a),
            PoolCommand::ValidatePool(a) => run_validate(a),
            PoolCommand::Bibtex(a) => run_bibtex(a),
            PoolCommand::Prompt(a) => run_prompt(a),
            PoolCommand::PoolChain(a) => run_chain(a),
        }
    }
}

fn write_text(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|e| Error::write(path, &e))
}

fn to_pretty<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

fn parse_cutoff(text: &str) -> Result<Date, Error> {
    Date::parse_iso(text).map_err(|e| Error::flag("--cutoff", e))
}

fn run_pre_dedup(a: PreDedupArgs) -> Outcome {
    let text = read_text(&a.input)?;
    let cands = candidates::parse_candidates(&text).map_err(|e| Error::input(&a.input, e))?;
    let result = candidates::pre_dedup_with(cands, a.title_ratio);
    write_text(&a.out, &to_pretty(&result))?;
    if a.json {
        print_json(&json!({
            "out": a.out.display().to_string(),
            "n_before_dedup": result.n_before_dedup,
            "n_after_dedup": result.n_after_dedup,
            "n_removed": result.n_removed,
        }));
    } else {
        outln!(
            "OK: {} candidates, {} unique, {} duplicates merged -> {}",
            result.n_before_dedup,
            result.n_after_dedup,
            result.n_removed,
            a.out.display()
        );
    }
    Ok(PASS)
}

fn run_outline(a: OutlineArgs) -> Outcome {
    let text = read_text(&a.outline)?;
    let queries = candidates::outline_queries(&text).map_err(|e| Error::input(&a.outline, e))?;
    if a.json {
        print_json(&queries);
    } else {
        for q in &queries {
            outln!("{:<22} {}", q.discovered_for, q.query);
        }
    }
    Ok(PASS)
}

fn run_verify(a: VerifyArgs) -> Outcome {
    let cutoff = parse_cutoff(&a.cutoff)?;
    let text = read_text(&a.candidates)?;
    let cands = candidates::parse_candidates(&text).map_err(|e| Error::input(&a.candidates, e))?;
    let mut opts = VerifyOptions::new(cutoff);
    opts.paper_faithful = a.paper_faithful;
    opts.substring_bypass = !a.no_substring_bypass;
    let v = match &a.responses {
        Some(path) => pool_verify::recorded_run(path, &cands, &opts)?,
        None => pool_verify::live_run(&a.live, a.json, &cands, &opts)?,
    };
    let n_rejected = v.rejected();
    let Verified {
        accepted,
        rows,
        undecided,
    } = v;
    if let Some(out) = &a.out {
        let pool = Pool {
            papers: accepted.clone(),
            ..Pool::default()
        };
        write_text(out, &pool::to_json(&pool))?;
    }
    if a.json {
        print_json(&json!({
            "n_candidates": cands.len(),
            "n_accepted": accepted.len(),
            "n_rejected": n_rejected,
            "n_undecided": undecided,
            "results": rows,
        }));
    } else {
        for row in &rows {
            outln!("{}\n    {}", row.title, row.describe());
        }
        outln!(
            "{} candidates: {} accepted, {} rejected, {} undecided",
            cands.len(),
            accepted.len(),
            n_rejected,
            undecided
        );
    }
    Ok(if undecided > 0 { FAIL } else { PASS })
}

fn run_dedupe(a: DedupeArgs) -> Outcome {
    if let Some(c) = &a.cutoff {
        parse_cutoff(c)?;
    }
    let text = read_text(&a.input)?;
    let papers = pool::parse_dedupe_input(&text).map_err(|e| Error::input(&a.input, e))?;
    if papers.is_empty() {
        return Err(Error::failed("no papers to deduplicate").in_file(&a.input));
    }
    let d = pool::dedupe(papers, a.cutoff.clone());
    write_text(&a.out, &pool::to_json(&d.pool))?;
    if a.json {
        print_json(&json!({
            "out": a.out.display().to_string(),
            "n_in": d.n_in,
            "n_total": d.pool.n_total,
            "n_collisions_merged": d.pool.n_collisions_merged,
            "min_cite_paper_count": d.pool.min_cite_paper_count,
            "collisions": d.collisions,
        }));
    } else {
        outln!(
            "OK: {} papers -> {} unique ({} duplicates merged); cite at least {}",
            d.n_in,
            d.pool.papers.len(),
            d.collisions.len(),
            d.pool.min_cite_paper_count.unwrap_or(0)
        );
    }
    Ok(PASS)
}

fn run_validate(a: ValidateArgs) -> Outcome {
    let text = read_text(&a.pool)?;
    let mut value: Value = serde_json::from_str(&text).map_err(|e| json_error(&a.pool, &e))?;
    let v = pool::validate(&mut value, a.fix).map_err(|e| Error::input(&a.pool, e))?;
    if v.n_fixed > 0 {
        write_text(&a.pool, &to_pretty(&value))?;
    }
    if a.json {
        print_json(&json!({
            "pass": v.pass(),
            "n_papers": v.n_papers,
            "n_fixed": v.n_fixed,
            "issues": v.issues,
        }));
    } else {
        for issue in &v.issues {
            let label = issue
                .label
                .as_deref()
                .map(|l| format!("[{l}] "))
                .unwrap_or_default();
            match issue.severity {
                Severity::Warning if !a.quiet => outln!("WARN: {label}{}", issue.message),
                Severity::Warning => {}
                Severity::Error => eprintln!("ERROR: {label}{}", issue.message),
            }
        }
        if v.n_fixed > 0 {
            outln!("fixed {} paper(s); saved {}", v.n_fixed, a.pool.display());
        }
        if v.pass() {
            outln!("OK: {} papers valid", v.n_papers);
        } else if !a.fix
            && v.issues
                .iter()
                .any(|i| i.kind == pool::IssueKind::AuthorsAsStrings)
        {
            eprintln!("hint: --fix rewrites string authors as {{\"name\": …}}");
        }
    }
    Ok(if v.pass() { PASS } else { FAIL })
}

fn run_bibtex(a: BibtexArgs) -> Outcome {
    let text = read_text(&a.pool)?;
    let mut pool = pool::parse_pool(&text).map_err(|e| Error::input(&a.pool, e))?;
    if pool.papers.is_empty() {
        return Err(Error::failed("the pool has no papers").in_file(&a.pool));
    }
    let bib = write_bib(&mut pool);
    write_text(&a.out, &bib.text)?;
    if let Some(csl_out) = &a.csl_out {
        write_text(csl_out, &citegate_core::bibtex::csl::from_bibtex(&bib.text))?;
    }
    write_text(&a.pool, &pool::to_json(&pool))?;
    if a.json {
        print_json(&json!({"out": a.out.display().to_string(), "keys": bib.keys}));
    } else {
        let shown: Vec<&str> = bib.keys.iter().take(5).map(String::as_str).collect();
        outln!(
            "OK: {} entries -> {}; keys {}{}",
            bib.keys.len(),
            a.out.display(),
            shown.join(", "),
            if bib.keys.len() > 5 { ", …" } else { "" }
        );
    }
    Ok(PASS)
}

fn run_prompt(a: PromptArgs) -> Outcome {
    let text = read_text(&a.pool)?;
    let pool = pool::parse_pool(&text).map_err(|e| Error::input(&a.pool, e))?;
    let cutoff = match (&a.cutoff, &pool.cutoff_date) {
        (Some(c), _) => parse_cutoff(c)?,
        (None, Some(c)) => Date::parse_iso(c).map_err(|e| {
            Error::input(
                &a.pool,
                e.at(citegate_core::Location::default().field("cutoff_date")),
            )
        })?,
        (None, None) => {
            return Err(Error::content(
                &a.pool,
                citegate_core::ErrorKind::MissingField,
                "the pool has no cutoff_date; give --cutoff",
            ));
        }
    };
    let values = PromptValues::from_pool(&pool, cutoff);
    let template = match &a.template {
        Some(p) => Some((p, read_text(p)?)),
        None => None,
    };
    let filled = match &template {
        Some((p, t)) => prompt::fill(t, &values).map_err(|e| Error::input(p, e))?,
        None => prompt::fill(prompt::DEFAULT_TEMPLATE, &values)
            .map_err(|e| Error::input(Path::new("<built-in template>"), e))?,
    };
    if let Some(out) = &a.out {
        write_text(out, &filled)?;
    }
    if a.json {
        print_json(&json!({"values": values, "prompt": filled}));
    } else if a.out.is_none() {
        out!("{filled}");
    } else {
        outln!(
            "OK: prompt for {} papers (cite at least {}, cutoff {}) -> {}",
            values.paper_count,
            values.min_cite_paper_count,
            values.cutoff_date,
            a.out
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        );
    }
    Ok(PASS)
}

/// One step of the chain, for the summary.
fn step(name: &str, file: &Path, detail: Value) -> Value {
    json!({"step": name, "file": file.display().to_string(), "detail": detail})
}

fn run_chain(mut a: ChainArgs) -> Outcome {
    let cutoff = parse_cutoff(&a.cutoff)?;
    let ws = a.workspace.clone();
    let input = a
        .input
        .clone()
        .unwrap_or_else(|| ws.join("raw_candidates.json"));
    if a.live.cache.is_none() {
        a.live.cache = Some(ws.join("cache").join("s2_cache.json"));
    }
    // Settings are read first, so a bad flag fails before any request.
    a.live.settings()?;
    let say = |line: String| {
        if !a.json {
            outln!("{line}");
        }
    };
    let mut steps = Vec::new();
    let mut clean = true;

    // 1. pre-dedup
    let text = read_text(&input)?;
    let cands = candidates::parse_candidates(&text).map_err(|e| Error::input(&input, e))?;
    let deduped = candidates::pre_dedup_with(cands, PRE_DEDUP_THRESHOLD);
    let path = ws.join("deduped_candidates.json");
    write_text(&path, &to_pretty(&deduped))?;
    say(format!(
        "pre-dedup: {} candidates, {} unique -> {}",
        deduped.n_before_dedup,
        deduped.n_after_dedup,
        path.display()
    ));
    steps.push(step(
        "pre_dedup",
        &path,
        json!({"n_before_dedup": deduped.n_before_dedup, "n_after_dedup": deduped.n_after_dedup}),
    ));

    // 2. verify (live, Semantic Scholar, 1 request/s unless told otherwise)
    let cands =
        candidates::parse_candidates(&to_pretty(&deduped)).map_err(|e| Error::input(&path, e))?;
    let v = pool_verify::live_run(&a.live, a.json, &cands, &VerifyOptions::new(cutoff))?;
    let path = ws.join("raw_pool.json");
    let raw = Pool {
        papers: v.accepted.clone(),
        ..Pool::default()
    };
    write_text(&path, &pool::to_json(&raw))?;
    let n_rejected = v.rejected();
    say(format!(
        "verify: {} accepted, {} rejected, {} undecided -> {}",
        v.accepted.len(),
        n_rejected,
        v.undecided,
        path.display()
    ));
    for row in &v.rows {
        if let Some(e) = &row.error {
            say(format!("  unverified: {} ({})", row.title, e.message));
        }
    }
    clean &= v.undecided == 0;
    steps.push(step(
        "verify",
        &path,
        json!({"n_accepted": v.accepted.len(), "n_rejected": n_rejected,
               "n_undecided": v.undecided, "results": v.rows}),
    ));
    if v.accepted.is_empty() {
        if a.json {
            print_json(&json!({"pass": false, "steps": steps}));
        }
        return Err(Error::failed("no candidate was accepted; nothing to pool"));
    }

    // 3. dedupe
    let d = pool::dedupe(v.accepted, Some(a.cutoff.clone()));
    let path = ws.join("citation_pool.json");
    write_text(&path, &pool::to_json(&d.pool))?;
    say(format!(
        "dedupe: {} papers -> {} unique -> {}",
        d.n_in,
        d.pool.papers.len(),
        path.display()
    ));
    steps.push(step(
        "dedupe",
        &path,
        json!({"n_in": d.n_in, "n_total": d.pool.n_total,
               "min_cite_paper_count": d.pool.min_cite_paper_count}),
    ));

    // 4. validate (string authors fixed, as validate-pool --fix)
    let mut value: Value =
        serde_json::from_str(&pool::to_json(&d.pool)).map_err(|e| json_error(&path, &e))?;
    let val = pool::validate(&mut value, true).map_err(|e| Error::input(&path, e))?;
    if val.n_fixed > 0 {
        write_text(&path, &to_pretty(&value))?;
    }
    say(format!(
        "validate: {} ({} issues)",
        if val.pass() { "valid" } else { "errors remain" },
        val.issues.len()
    ));
    steps.push(step(
        "validate",
        &path,
        json!({"pass": val.pass(), "issues": val.issues}),
    ));
    if !val.pass() {
        if a.json {
            print_json(&json!({"pass": false, "steps": steps}));
        }
        return Ok(FAIL);
    }
    let mut pool = pool::parse_pool(&to_pretty(&value)).map_err(|e| Error::input(&path, e))?;

    // 5. cross-check (Crossref, OpenAlex), annotating the pool in place
    if !a.no_crosscheck {
        let (requested, answers) =
            crate::search_cmds::live_crosscheck(&a.live, a.json, &pool.papers)?;
        let (rep, verdicts) = citegate_core::crossindex::verify(
            &pool.papers,
            &requested,
            &answers,
            &citegate_core::crossindex::Config::default(),
        );
        for (paper, v) in pool.papers.iter_mut().zip(&verdicts) {
            paper.cross_verification = serde_json::to_value(v).ok();
        }
        let path = ws.join("cross_verification_report.json");
        write_text(&path, &to_pretty(&rep))?;
        say(format!(
            "cross-check: {} flagged, {} index(es) unavailable -> {}",
            rep.flagged.len(),
            rep.indices_unavailable.len(),
            path.display()
        ));
        clean &= rep.exit_code() == 0;
        steps.push(step(
            "crosscheck",
            &path,
            serde_json::to_value(&rep).unwrap_or(Value::Null),
        ));
    }

    // 6. refs.bib, keys written back into the pool
    let bib = write_bib(&mut pool);
    let path = ws.join("refs.bib");
    write_text(&path, &bib.text)?;
    write_text(&ws.join("citation_pool.json"), &pool::to_json(&pool))?;
    say(format!(
        "bibtex: {} entries -> {}",
        bib.keys.len(),
        path.display()
    ));
    steps.push(step("bibtex", &path, json!({"keys": bib.keys})));
    if a.json {
        print_json(&json!({"pass": clean, "steps": steps}));
    }
    Ok(if clean { PASS } else { FAIL })
}
