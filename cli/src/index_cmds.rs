//! `citegate index build|info|lookup`: the local index of the public dumps
//! (crate `citegate-index`). Building reads each dump as a stream into
//! `DIR/index.sqlite` in committed batches, then indexes the new records'
//! titles in `DIR/titles/`; a killed build, rerun with the same files, goes
//! on where it stopped.

use crate::error::Error;
use crate::io::outln;
use crate::io::{print_json, FAIL, PASS};
use citegate_index::store::{ErrorKind, IndexError};
use citegate_index::{Hit, Index, Source};
use clap::{ArgGroup, Args, Subcommand};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand)]
pub enum IndexCommand {
    /// Build (or resume building) a local index from public dumps: DBLP's XML, arXiv's metadata snapshot, OpenAlex's works parts, Crossref's public data file
    #[command(subcommand)]
    Index(IndexSub),
}

#[derive(Subcommand)]
pub enum IndexSub {
    /// Read dumps into DIR (resumes a stopped build; a file read whole is not read again)
    Build(BuildArgs),
    /// The dumps an index holds, with their dates and sizes
    Info(InfoArgs),
    /// Look a work up by DOI, arXiv id, DBLP key or title (exit 0 found, 1 not in the index)
    Lookup(LookupArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The index directory (created if absent)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// DBLP's dblp.xml or dblp.xml.gz
    #[arg(long, value_name = "FILE")]
    dblp: Option<PathBuf>,
    /// arXiv's metadata snapshot (JSON lines, .gz allowed)
    #[arg(long, value_name = "FILE")]
    arxiv: Option<PathBuf>,
    /// OpenAlex works snapshot parts (part_*.gz), any subset
    #[arg(long, value_name = "FILE", num_args = 1..)]
    openalex: Vec<PathBuf>,
    /// Files of Crossref's public data file (*.json.gz)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    crossref: Vec<PathBuf>,
    /// The dumps' date, YYYY-MM-DD [default: the newest record's date, else the file's]
    #[arg(long)]
    date: Option<String>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct InfoArgs {
    /// The index directory
    #[arg(long, value_name = "DIR")]
    index: PathBuf,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(group(ArgGroup::new("what").required(true).args(["doi", "arxiv", "dblp_key", "title"])))]
pub struct LookupArgs {
    /// The index directory
    #[arg(long, value_name = "DIR")]
    index: PathBuf,
    /// A DOI in any form (bare, doi.org URL, doi:)
    #[arg(long)]
    doi: Option<String>,
    /// An arXiv id in any form (the version is dropped)
    #[arg(long)]
    arxiv: Option<String>,
    /// A DBLP key (journals/cacm/Gentry10)
    #[arg(long)]
    dblp_key: Option<String>,
    /// A title: candidates ranked by the title ratio
    #[arg(long)]
    title: Option<String>,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
}

impl IndexCommand {
    pub fn run(self) -> Result<u8, Error> {
        let IndexCommand::Index(sub) = self;
        match sub {
            IndexSub::Build(a) => build(a),
            IndexSub::Info(a) => info(a),
            IndexSub::Lookup(a) => lookup(a),
        }
    }
}

/// The CLI's error for an index error.
pub fn index_error(e: IndexError) -> Error {
    let at = e.at.map(|a| format!(" ({a})")).unwrap_or_default();
    let message = format!("{}{at}", e.message);
    match e.kind {
        ErrorKind::Format | ErrorKind::Record => {
            Error::content(&e.file, citegate_core::ErrorKind::Shape, message)
        }
        ErrorKind::Missing | ErrorKind::Unfinished => {
            Error::flag("--index", format!("{}: {message}", e.file.display()))
        }
        ErrorKind::Io => Error::read(&e.file, &std::io::Error::other(message)),
        ErrorKind::Store => Error::failed(format!("{}: {message}", e.file.display())),
    }
}

fn check_date(date: &str) -> Result<(), Error> {
    let ok = date.len() == 10
        && date.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if ok {
        Ok(())
    } else {
        Err(Error::flag("--date", format!("`{date}` is not YYYY-MM-DD")))
    }
}

fn build(a: BuildArgs) -> Result<u8, Error> {
    if let Some(d) = &a.date {
        check_date(d)?;
    }
    let mut files: Vec<(Source, &Path)> = Vec::new();
    files.extend(a.dblp.iter().map(|p| (Source::Dblp, p.as_path())));
    files.extend(a.arxiv.iter().map(|p| (Source::Arxiv, p.as_path())));
    files.extend(a.openalex.iter().map(|p| (Source::OpenAlex, p.as_path())));
    files.extend(a.crossref.iter().map(|p| (Source::Crossref, p.as_path())));
    if files.is_empty() {
        return Err(Error::usage(
            "give at least one dump: --dblp, --arxiv, --openalex or --crossref",
        ));
    }
    let mut ix = Index::create(&a.out).map_err(index_error)?;
    let started = Instant::now();
    let mut results = Vec::new();
    for (source, file) in files {
        let bar =
            crate::live::progress_bar(&format!("{} {}", source.name(), file.display()), a.json);
        if let Some(b) = &bar {
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg}: {pos} records, {per_sec}, {elapsed}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
        }
        let t = Instant::now();
        let added = ix
            .add(source, file, a.date.as_deref(), &mut |n| {
                if let Some(b) = &bar {
                    b.set_position(n);
                }
                true
            })
            .map_err(index_error)?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        results.push((source, file.display().to_string(), added, t.elapsed()));
    }
    let bar = crate::live::progress_bar("titles", a.json);
    if let Some(b) = &bar {
        b.set_style(
            indicatif::ProgressStyle::with_template("{msg}: {pos} indexed, {per_sec}, {elapsed}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
    }
    let t = Instant::now();
    let titled = ix
        .index_titles(&mut |n| {
            if let Some(b) = &bar {
                b.set_position(n);
            }
            true
        })
        .map_err(index_error)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let titles_secs = t.elapsed().as_secs_f64();
    ix.optimize().map_err(index_error)?;
    let dumps = ix.dumps().map_err(index_error)?;
    let size = Index::size_on_disk(&a.out);
    if a.json {
        print_json(&json!({
            "index": a.out.display().to_string(),
            "files": results.iter().map(|(s, f, ad, t)| json!({
                "source": s.name(), "file": f, "read": ad.read, "stored": ad.stored,
                "resumed_from": ad.resumed_from, "bad_lines": ad.bad_lines,
                "already_done": ad.already_done, "seconds": t.as_secs_f64(),
            })).collect::<Vec<_>>(),
            "dumps": dumps,
            "titles": {"indexed": titled.indexed, "resumed_after": titled.resumed_after, "seconds": titles_secs},
            "bytes": size,
            "seconds": started.elapsed().as_secs_f64(),
        }));
    } else {
        for (s, f, ad, t) in &results {
            if ad.already_done {
                outln!("{} {f}: already in the index", s.name());
                continue;
            }
            let resumed = if ad.resumed_from > 0 {
                format!(", resumed after {} records", ad.resumed_from)
            } else {
                String::new()
            };
            let bad = if ad.bad_lines > 0 {
                format!(", {} unreadable lines skipped", ad.bad_lines)
            } else {
                String::new()
            };
            outln!(
                "{} {f}: {} records read, {} works stored in {:.1} s{resumed}{bad}",
                s.name(),
                ad.read,
                ad.stored,
                t.as_secs_f64()
            );
        }
        if titled.indexed > 0 {
            outln!("titles: {} indexed in {titles_secs:.1} s", titled.indexed);
        }
        print_dumps(&dumps);
        outln!("{}: {} MB", a.out.display(), size >> 20);
    }
    Ok(PASS)
}

fn print_dumps(dumps: &[citegate_index::Dump]) {
    for d in dumps {
        outln!(
            "{} {}: {} works, dated {} (from {}){}",
            d.source,
            d.file,
            d.works,
            d.date.as_deref().unwrap_or("unknown"),
            d.date_from,
            if d.finished { "" } else { ", not finished" }
        );
    }
}

fn info(a: InfoArgs) -> Result<u8, Error> {
    let ix = Index::open(&a.index).map_err(index_error)?;
    let dumps = ix.dumps().map_err(index_error)?;
    if a.json {
        print_json(&json!({"dumps": dumps, "bytes": Index::size_on_disk(&a.index)}));
    } else {
        print_dumps(&dumps);
    }
    Ok(PASS)
}

fn hit_json(h: &Hit) -> serde_json::Value {
    json!({
        "source": h.source.name(),
        "key": h.work.key,
        "kind": h.work.kind,
        "title": h.work.title,
        "authors": h.work.authors,
        "year": h.work.year,
        "venue": h.work.venue,
        "doi": h.work.doi,
        "arxiv": h.work.arxiv,
        "ratio": (h.ratio * 100.0).round() / 100.0,
    })
}

fn lookup(a: LookupArgs) -> Result<u8, Error> {
    let ix = Index::open(&a.index).map_err(index_error)?;
    let hits = if let Some(d) = &a.doi {
        ix.by_doi(d)
    } else if let Some(x) = &a.arxiv {
        ix.by_arxiv(x)
    } else if let Some(k) = &a.dblp_key {
        ix.by_dblp_key(k)
    } else {
        ix.search_title(a.title.as_deref().unwrap_or(""))
    }
    .map_err(index_error)?;
    if a.json {
        print_json(&json!({"hits": hits.iter().map(hit_json).collect::<Vec<_>>()}));
    } else {
        for h in &hits {
            outln!(
                "{:>6.1}  {} {}  {} ({})",
                h.ratio,
                h.source.name(),
                h.work.key,
                citegate_core::inert::one_line(&h.work.title),
                h.work.year.map(|y| y.to_string()).unwrap_or_default()
            );
        }
    }
    Ok(if hits.is_empty() { FAIL } else { PASS })
}
