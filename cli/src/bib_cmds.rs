//! `citegate bibcheck`: the offline layer of BibTeX checking — reading the
//! `.bib`, the format rules, and agreement with the `.tex` cites.

use crate::io::{print_json, read_text, BAD_INPUT, FAIL, PASS};
use citegate_core::bibtex::format::{self, CiteUse, Finding, Severity};
use citegate_core::bibtex::matching::Mode;
use citegate_core::bibtex::parse;
use citegate_core::tex;
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum BibCommand {
    /// Check a .bib file: parse errors, required fields, year, DOI, duplicates, and with --tex the cited-but-missing and never-cited keys (exit 0 clean, 1 problems, 2 unreadable input)
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
    /// The bibliography
    #[arg(long)]
    bib: PathBuf,
    /// LaTeX root files; their \input/\include files are read too
    #[arg(long, num_args = 1..)]
    tex: Vec<PathBuf>,
    /// Matching thresholds for the online layers (recorded in the report; the offline checks do not depend on it)
    #[arg(long, value_enum, default_value = "default")]
    mode: ModeArg,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

impl BibCommand {
    pub fn run(self) -> u8 {
        match self {
            BibCommand::Bibcheck(a) => run_bibcheck(a),
        }
    }
}

#[derive(serde::Serialize)]
struct Report {
    bib: String,
    mode: Mode,
    entries: usize,
    tex_files: Vec<String>,
    errors: usize,
    warnings: usize,
    undefined: Vec<String>,
    unused: Vec<String>,
    findings: Vec<Finding>,
}

/// The current year from the system clock (UTC), for the year-range rule.
fn current_year() -> i32 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil year from days since 1970-01-01 (proleptic Gregorian).
    let days = (secs / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    year as i32
}

fn run_bibcheck(a: BibcheckArgs) -> u8 {
    let bytes = match std::fs::read(&a.bib) {
        Ok(b) => b,
        Err(e) => {
            eprintln!(
                "error: cannot read {}: {}",
                a.bib.display(),
                e.to_string().to_lowercase()
            );
            return BAD_INPUT;
        }
    };
    let bib_name = a.bib.display().to_string();
    // `.bib`, CSL-JSON or RIS, by extension or content (core::bibtex::read_bibliography).
    let bib = match citegate_core::text::decode(&bytes) {
        Ok(text) => citegate_core::bibtex::read_bibliography(&bib_name, text),
        Err(e) => {
            eprintln!("error: {}", e.in_file(bib_name));
            return BAD_INPUT;
        }
    };
    let mut findings = format::check_entries(&bib, current_year());

    let mut tex_files = Vec::new();
    if !a.tex.is_empty() {
        let mut given = std::collections::BTreeMap::new();
        let mut names = Vec::new();
        for path in &a.tex {
            let text = match read_text(path) {
                Ok(t) => t,
                Err(code) => return code,
            };
            let name = path.to_string_lossy().replace('\\', "/");
            given.insert(name.clone(), text);
            names.push(name);
        }
        let project = tex::scan_project_with(&names, |name| {
            given
                .get(name)
                .cloned()
                .or_else(|| std::fs::read_to_string(name).ok())
        });
        for m in &project.missing {
            eprintln!(
                "warning: {}:{}: included file `{}` not found; its cites are not checked",
                m.file, m.line, m.name
            );
        }
        let uses: Vec<CiteUse> = project
            .cites()
            .map(|(file, c)| CiteUse {
                key: c.key.clone(),
                file: file.to_string(),
                line: c.line,
            })
            .collect();
        let cite_all = project.files.iter().any(|f| !f.scan.nocite_all.is_empty());
        findings.extend(format::check_cites(&bib, &uses, cite_all));
        tex_files = project.files.iter().map(|f| f.name.clone()).collect();
    }

    let keys_of = |code: format::Code| -> Vec<String> {
        let mut v: Vec<String> = findings
            .iter()
            .filter(|f| f.code == code)
            .filter_map(|f| f.key.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let report = Report {
        bib: a.bib.display().to_string(),
        mode: match a.mode {
            ModeArg::Default => Mode::Default,
            ModeArg::Strict => Mode::Strict,
            ModeArg::Loose => Mode::Loose,
        },
        entries: bib.entries.len(),
        tex_files,
        errors: findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count(),
        warnings: findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count(),
        undefined: keys_of(format::Code::UndefinedCite),
        unused: keys_of(format::Code::UnusedEntry),
        findings,
    };
    if a.json {
        print_json(&report);
    } else {
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
                Some(s) => println!("{at}: {sev}: {} (suggested: {s})", f.message),
                None => println!("{at}: {sev}: {}", f.message),
            }
        }
        println!(
            "{} entries, {} errors, {} warnings, {} undefined keys, {} unused entries",
            report.entries,
            report.errors,
            report.warnings,
            report.undefined.len(),
            report.unused.len()
        );
    }
    if report.findings.is_empty() {
        PASS
    } else {
        FAIL
    }
}
