//! `citegate cites`, `citegate sync-keys` and `citegate coverage`: the LaTeX side.
//!
//! The files named with `--tex` are read first (an unreadable one is bad
//! input); files they `\input` or `\include` are then looked for on disk
//! relative to the root file, and one that is missing is reported, not fatal.

use crate::error::{Error, Outcome};
use crate::io::{out, outln};
use crate::io::{print_json, read_text, Includes, FAIL, PASS};
use citegate_core::coverage::{self, Threshold};
use citegate_core::pool::{self, Pool};
use citegate_core::tex::{self, Project};
use clap::{ArgGroup, Args, Subcommand};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum TexCommand {
    /// List every cited key with file:line (follows \input/\include): exit 0, 2 when a file cannot be read
    Cites(CitesArgs),
    /// Rewrite each pool paper's agent `key` to its `bibtex_key` inside cite commands only
    SyncKeys(SyncArgs),
    /// The ≥ 90 % citation gate: exit 0 pass, 1 fail, 2 bad input
    Coverage(CoverageArgs),
}

#[derive(Args)]
pub struct CitesArgs {
    /// LaTeX file(s) to scan
    #[arg(long, required = true)]
    tex: Vec<PathBuf>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(group(ArgGroup::new("dest").args(["inplace", "out"])))]
pub struct SyncArgs {
    /// citation_pool.json
    #[arg(long)]
    pool: PathBuf,
    /// The LaTeX file to update
    #[arg(long)]
    tex: PathBuf,
    /// Overwrite --tex (default: print the updated text on stdout)
    #[arg(long)]
    inplace: bool,
    /// Write the updated text to this file
    #[arg(long)]
    out: Option<PathBuf>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct CoverageArgs {
    /// LaTeX file(s) of the draft; all count together
    #[arg(long, required = true)]
    tex: Vec<PathBuf>,
    /// citation_pool.json, or a .bib (RIS, CSL-JSON .csl) whose entries stand for the pool
    #[arg(long)]
    pool: PathBuf,
    /// Minimum share of pool papers cited: a decimal (0.90) or a percentage (90%)
    #[arg(long, default_value = coverage::DEFAULT_THRESHOLD)]
    threshold: String,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

impl TexCommand {
    pub fn run(self) -> Outcome {
        match self {
            TexCommand::Cites(a) => run_cites(a),
            TexCommand::SyncKeys(a) => run_sync(a),
            TexCommand::Coverage(a) => run_coverage(a),
        }
    }
}

/// Reads the root files, then scans them with their includes from disk.
fn load_project(roots: &[PathBuf]) -> Result<Project, Error> {
    let (names, mut given) = read_roots(roots)?;
    let mut includes = Includes::default();
    // Each name is loaded once, so a given text is moved, not copied.
    let project = tex::scan_project_with(&names, |name| {
        given.remove(name).or_else(|| includes.load(name))
    });
    includes.finish()?;
    Ok(project)
}

/// The root files' names and texts: a root that cannot be read is an error
/// (so is an include that exists but is not text; an absent one is a note).
fn read_roots(roots: &[PathBuf]) -> Result<(Vec<String>, BTreeMap<String, String>), Error> {
    let mut given: BTreeMap<String, String> = BTreeMap::new();
    let mut names = Vec::new();
    for path in roots {
        let text = read_text(path)?;
        let name = path.to_string_lossy().replace('\\', "/");
        given.insert(name.clone(), text);
        names.push(name);
    }
    Ok((names, given))
}

fn read_pool(path: &Path) -> Result<Pool, Error> {
    let text = read_text(path)?;
    pool::parse_pool(&text).map_err(|e| Error::input(path, e))
}

fn print_notes(project: &Project) {
    for m in &project.missing {
        eprintln!(
            "note: {}:{}: included file `{}` not found; its cites are not counted",
            m.file, m.line, m.name
        );
    }
    for f in &project.files {
        for p in &f.scan.nocite_all {
            eprintln!(
                "note: {}:{}: \\nocite{{*}} adds the whole bibliography; it counts as no citation",
                f.name, p.line
            );
        }
    }
}

/// `cites --json`: the project as scanned, plus the keys cited in the text
/// and those only listed by `\nocite`, apart.
#[derive(Serialize)]
struct CitesOutput<'a> {
    #[serde(flatten)]
    project: &'a Project,
    cited: Vec<&'a str>,
    nocite_only: Vec<&'a str>,
    nocite_all: bool,
}

fn run_cites(a: CitesArgs) -> Outcome {
    let project = load_project(&a.tex)?;
    if a.json {
        print_json(&CitesOutput {
            project: &project,
            cited: project.cited_keys(),
            nocite_only: project.nocite_only_keys(),
            nocite_all: project.nocites_all(),
        });
        return Ok(PASS);
    }
    // Cites in the text first; `\nocite` keys after them, apart.
    for (file, c) in project.cites().filter(|(_, c)| !c.nocite) {
        outln!("{file}:{}:{}\t\\{}\t{}", c.line, c.column, c.command, c.key);
    }
    for (file, c) in project.cites().filter(|(_, c)| c.nocite) {
        outln!("{file}:{}:{}\t\\{}\t{}", c.line, c.column, c.command, c.key);
    }
    let only = project.nocite_only_keys();
    if !only.is_empty() {
        eprintln!(
            "note: only in \\nocite (listed in the bibliography, not cited in the text; not counted by the coverage gate): {}",
            only.join(", ")
        );
    }
    print_notes(&project);
    Ok(PASS)
}

#[derive(Serialize)]
struct SyncOutput<'a> {
    key_map: &'a BTreeMap<String, String>,
    replacements: &'a [tex::Replacement],
    written: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<&'a str>,
}

fn run_sync(a: SyncArgs) -> Outcome {
    let pool = read_pool(&a.pool)?;
    let text = read_text(&a.tex)?;
    let key_map = tex::pool_key_map(&pool.papers);
    let (updated, done) = tex::sync_keys(&text, &key_map);
    let dest = if a.inplace {
        Some(a.tex.clone())
    } else {
        a.out.clone()
    };
    if let Some(dest) = &dest {
        std::fs::write(dest, &updated).map_err(|e| Error::write(dest, &e))?;
    }
    if a.json {
        print_json(&SyncOutput {
            key_map: &key_map,
            replacements: &done,
            written: dest.as_ref().map(|d| d.display().to_string()),
            content: if dest.is_none() { Some(&updated) } else { None },
        });
        return Ok(PASS);
    }
    if key_map.is_empty() {
        outln!("OK: no key differences in citation_pool.json — nothing to sync");
        if dest.is_none() {
            out!("{updated}");
        }
        return Ok(PASS);
    }
    match &dest {
        Some(d) => {
            outln!("Key map ({} substitutions):", key_map.len());
            for (old, new) in &key_map {
                outln!("  {old} → {new}");
            }
            outln!(
                "OK: {} citation key(s) updated in {}",
                done.len(),
                d.display()
            );
        }
        None => {
            out!("{updated}");
            eprintln!("# sync-keys: {} substitution(s) would be made", done.len());
        }
    }
    Ok(PASS)
}

fn run_coverage(a: CoverageArgs) -> Outcome {
    let threshold = Threshold::parse(&a.threshold).map_err(|e| Error::flag("--threshold", e))?;
    // `citation_pool.json`, or a `.bib` (RIS, CSL) standing for the pool.
    let text = read_text(&a.pool)?;
    let against = coverage::Against::read(&a.pool.to_string_lossy(), &text)
        .map_err(|e| Error::input(&a.pool, e))?;
    // The roots read whole, each cite counted as the scan finds it: no
    // record of 100,000 cites.
    let mut given: BTreeMap<String, String> = BTreeMap::new();
    let mut names = Vec::new();
    for path in &a.tex {
        let text = read_text(path)?;
        let name = path.to_string_lossy().replace('\\', "/");
        given.insert(name.clone(), text);
        names.push(name);
    }
    let mut includes = Includes::default();
    let load = |name: &str| given.remove(name).or_else(|| includes.load(name));
    let (gate, project) = coverage::gate_streamed(&names, load, &against, &threshold)
        .map_err(|e| Error::input(&a.pool, e))?;
    includes.finish()?;
    let code = if gate.coverage.pass { PASS } else { FAIL };
    if a.json {
        print_json(&gate);
        return Ok(code);
    }
    let c = &gate.coverage;
    // The report is written into a buffer printed whenever it passes
    // `CHUNK`: a draft's foreign keys can have thousands of places, too
    // many for a `print!` each, and the whole report of a large draft in
    // one buffer (half a megabyte) costs its pages and copies as it grows.
    const CHUNK: usize = 1 << 16;
    let mut out = String::with_capacity(CHUNK * 2);
    // The reference script's lines first, in its format.
    let _ = writeln!(out, "{}", gate.summary);
    if !c.foreign.is_empty() {
        let _ = writeln!(
            out,
            "\nWARNING: {} cited keys NOT in citation pool (violates 'cite ONLY collected_papers' rule):",
            c.foreign.len()
        );
        for f in &c.foreign {
            let _ = write!(out, "  - {}  (", f.key);
            for (i, p) in f.places.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                let _ = write!(out, "{sep}{}:{}", p.file, p.line);
            }
            out.push_str(")\n");
            if out.len() > CHUNK {
                out!("{out}");
                out.clear();
            }
        }
    }
    if c.pass {
        out.push_str("OK: citation coverage meets threshold\n");
    } else {
        let _ = writeln!(
            out,
            "\nFAIL: missing {} pool papers from .tex:",
            c.uncited.len()
        );
        for u in &c.uncited {
            let tags = if u.discovered_for.is_empty() {
                "?".to_string()
            } else {
                u.discovered_for.join(",")
            };
            let title: String = u.title.chars().take(60).collect();
            let _ = writeln!(out, "  - {:40}  [{tags}]  {title}", u.key);
        }
        out.push_str("\nUncited papers by outline tag:\n");
        for g in &c.uncited_by_tag {
            let _ = writeln!(out, "  {} ({}):", g.tag, g.papers.len());
            for p in &g.papers {
                let _ = writeln!(out, "    - {}  {}", p.key, p.title);
            }
        }
        out.push_str("\nRe-prompt for the writing step:\n\n");
        out.push_str(&gate.reprompt);
    }
    out!("{out}");
    if !c.nocite_only.is_empty() {
        eprintln!(
            "note: only in \\nocite (listed in the bibliography, not cited in the text; not counted): {}",
            c.nocite_only.join(", ")
        );
    }
    for u in &gate.unkeyed {
        eprintln!(
            "note: {}: papers[{}] has no bibtex_key and is not counted: {}",
            a.pool.display(),
            u.index,
            u.title
        );
    }
    print_notes(&project);
    Ok(code)
}
