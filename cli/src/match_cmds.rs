//! `citegate match` and `citegate cutoff`: the title-match and cutoff rules.

use crate::error::{Error, Outcome};
use crate::io::outln;
use crate::io::{print_json, read_text, FAIL, PASS};
use citegate_core::cutoff::{self, Date, PaperDate};
use citegate_core::title;
use clap::{ArgGroup, Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum MatchCommand {
    /// Score a candidate title against a found title (python-Levenshtein ratio); always exits 0
    Match(MatchArgs),
    /// Check that a paper date is strictly before the research cutoff (exit 0 pass, 1 fail, 2 bad date),
    /// or with --detect list deadline dates in conference guidelines (exit 0 suggested, 1 none, 2 unreadable)
    Cutoff(CutoffArgs),
}

#[derive(Args)]
pub struct MatchArgs {
    /// The candidate's title (from a web search)
    #[arg(long)]
    candidate: String,
    /// The title the index returned
    #[arg(long)]
    found: String,
    /// A candidate of fewer than 4 words contained in the found title scores at least 95
    #[arg(long)]
    substring_bypass: bool,
    /// PASS iff score > threshold
    #[arg(long, default_value_t = title::DEFAULT_THRESHOLD)]
    threshold: i64,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(group(ArgGroup::new("paper").required(true).args(["paper_year", "paper_date", "detect"])))]
pub struct CutoffArgs {
    /// The paper's year
    #[arg(long)]
    paper_year: Option<i32>,
    /// The paper's month (1-12), with --paper-year
    #[arg(long, requires = "paper_year")]
    paper_month: Option<u32>,
    /// The paper's date: YYYY, YYYY-MM, YYYY-MM-DD, "October 2024", …
    #[arg(long, conflicts_with = "paper_year")]
    paper_date: Option<String>,
    /// The research cutoff, YYYY-MM-DD
    #[arg(long, required_unless_present = "detect", conflicts_with = "detect")]
    cutoff: Option<String>,
    /// Conference guidelines (text or Markdown): list the deadline dates and suggest the cutoff
    #[arg(long, value_name = "FILE")]
    detect: Option<PathBuf>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

impl MatchCommand {
    pub fn run(self) -> Outcome {
        match self {
            MatchCommand::Match(a) => run_match(a),
            MatchCommand::Cutoff(a) => run_cutoff(a),
        }
    }
}

fn run_match(a: MatchArgs) -> Outcome {
    let m = title::match_titles(&a.candidate, &a.found, a.substring_bypass, a.threshold);
    if a.json {
        print_json(&m);
    } else {
        outln!("{} {}", m.score, if m.pass { "PASS" } else { "FAIL" });
    }
    Ok(PASS)
}

fn run_detect(path: &std::path::Path, json: bool) -> Outcome {
    let text = read_text(path)?;
    let found = cutoff::detect(&text);
    let suggested = found.iter().find(|c| c.suggested);
    if json {
        print_json(&serde_json::json!({
            "candidates": found,
            "suggested": suggested.map(|c| c.date),
        }));
    } else {
        for c in &found {
            let kind = serde_json::to_value(c.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let mark = if c.suggested { "*" } else { " " };
            outln!(
                "{mark} line {:>4}  {}  {kind:<12}  {}",
                c.line,
                c.date,
                c.text
            );
        }
        match suggested {
            Some(c) => outln!("suggested cutoff: {} (line {})", c.date, c.line),
            None if found.is_empty() => outln!("no deadline found"),
            None => outln!("no cutoff suggested (only camera-ready or notification dates)"),
        }
    }
    Ok(if suggested.is_some() { PASS } else { FAIL })
}

fn run_cutoff(a: CutoffArgs) -> Outcome {
    if let Some(path) = &a.detect {
        return run_detect(path, a.json);
    }
    let Some(cutoff_text) = a.cutoff.as_deref() else {
        return Err(Error::usage("give --cutoff or --detect"));
    };
    let cutoff = Date::parse_iso(cutoff_text).map_err(|e| Error::flag("--cutoff", e))?;
    let paper = match (&a.paper_date, a.paper_year) {
        (Some(text), _) => PaperDate::parse(text).map_err(|e| Error::flag("--paper-date", e)),
        (None, Some(year)) => PaperDate::from_parts(year, a.paper_month)
            .map_err(|e| Error::flag("--paper-year/--paper-month", e)),
        (None, None) => Err(Error::usage("give --paper-date or --paper-year")),
    }?;
    let c = cutoff::check(paper, cutoff);
    if a.json {
        print_json(&c);
    } else if c.pass {
        outln!("PASS  paper={}  <  cutoff={}", c.paper, c.cutoff);
    } else {
        outln!(
            "FAIL  paper={}  not strictly before cutoff={}",
            c.paper,
            c.cutoff
        );
    }
    Ok(if c.pass { PASS } else { FAIL })
}
