//! `citegate batch`: a venue's papers checked as `citegate check` checks
//! one, resumable, into one report (`report.html`, `report.json`,
//! `report.csv`).
//!
//! Reading is `check`'s ([`crate::paper_cmds::read_bytes`], the core's
//! `paper::read_source` for a source tree), judging is the core's
//! (`paper::check::online_report` over a `resolve::Run`), and the batch's
//! report is the core's `paper::batch::Report`; here the inputs are found,
//! the papers fed to the resolver a window at a time, the checkpoint
//! appended and the report rendered.
//!
//! **The checkpoint** (`DIR/checkpoint.jsonl`) holds one line per finished
//! paper (`paper::batch::Paper`: its name, a fingerprint of its bytes,
//! whether it ran offline, its entries or its error), appended with one
//! write and synced before the next paper is reported done. A line cut by a
//! kill is dropped when the file is opened again, so a rerun redoes at most
//! that paper; a paper whose line matches is never read into the resolver
//! again, so a rerun of a finished batch sends nothing.
//!
//! **Rate limits.** The papers of a window share one resolver run, whose
//! lanes pace each service on its own (a wait for Semantic Scholar does
//! not hold back Crossref); the next window's run goes on from the last
//! one ([`resolve::Run::then`]), so the pacing holds across windows too.

use crate::error::{Error, Outcome};
use crate::io::{FAIL, PASS};
use crate::live::{Executor, LiveArgs, Machine};
use crate::local::{Local, LocalArgs};
use citegate_core::fetch::queue::{Next, Reply};
use citegate_core::ids::ArxivId;
use citegate_core::paper::batch::{self, Paper, Report};
use citegate_core::paper::{self, PaperRefs};
use citegate_core::resolve;
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand)]
pub enum BatchCommand {
    /// Check many papers as `check` checks one: a folder (searched recursively; a folder holding a .tex is one source tree), a .zip or .tar.gz of papers, or a text file of arXiv ids; resumable from DIR/checkpoint.jsonl, into DIR/report.html, report.json and report.csv (exit 0 every reference valid, 1 a flag, an unverified reference or a paper that could not be read, 2 bad input)
    Batch(Box<BatchArgs>),
}

#[derive(Args)]
pub struct BatchArgs {
    /// The papers: a folder, a .zip or .tar.gz of papers, or a text file of arXiv ids (one a line, `#` comments)
    #[arg(long = "in", value_name = "PATH")]
    input: PathBuf,
    /// Where the checkpoint and the reports go (created when missing)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Papers whose references share one resolver run
    #[arg(long, value_name = "N", default_value_t = 16)]
    window: usize,
    /// Check only share I of N (`0/4` … `3/4`): the papers whose name's stable hash is I modulo N, for N machines each taking one share
    #[arg(long, value_name = "I/N")]
    share: Option<String>,
    #[command(flatten)]
    local: LocalArgs,
    #[command(flatten)]
    live: LiveArgs,
}

impl BatchCommand {
    pub fn run(self) -> Outcome {
        match self {
            BatchCommand::Batch(a) => run_batch(&a),
        }
    }
}

/// One paper of the input, not read yet.
enum Item {
    /// One file on disk: a PDF, a `.bib`, a `.bbl`, a source archive….
    File { name: String, path: PathBuf },
    /// A source tree on disk: the files under a folder holding a `.tex`.
    Tree {
        name: String,
        root: PathBuf,
        files: Vec<String>,
    },
    /// One file of an input archive.
    Bytes { name: String, bytes: Vec<u8> },
    /// A source tree inside an input archive.
    MemTree {
        name: String,
        files: Vec<(String, Vec<u8>)>,
    },
    /// An arXiv id of an id list.
    Arxiv(ArxivId),
}

impl Item {
    fn name(&self) -> String {
        match self {
            Item::File { name, .. }
            | Item::Tree { name, .. }
            | Item::Bytes { name, .. }
            | Item::MemTree { name, .. } => name.clone(),
            Item::Arxiv(id) => format!("arXiv:{id}"),
        }
    }
}

/// The extensions a paper file may have (what `check` reads).
const PAPER_EXTENSIONS: [&str; 13] = [
    "pdf", "bib", "bbl", "tex", "txt", "md", "json", "ris", "zip", "gz", "tgz", "tar", "csl",
];

fn extension(path: &str) -> String {
    path.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

fn hidden(path: &str) -> bool {
    path.split('/')
        .any(|c| c.starts_with('.') || c == "__MACOSX")
}

/// Papers from relative paths (`/`-separated): a folder that directly
/// holds a `.tex` file is one source tree (its shallowest such ancestor
/// wins); any other file with a paper's extension is a paper of its own.
/// Returns `(name, Some(tree files relative to the tree) | None)` groups,
/// each with the indices of its files, sorted by name.
fn group(paths: &[String]) -> Vec<(String, bool, Vec<usize>)> {
    let parent = |p: &str| p.rsplit_once('/').map(|(d, _)| d.to_string());
    let tex_dirs: std::collections::HashSet<String> = paths
        .iter()
        .filter(|p| extension(p) == "tex")
        .filter_map(|p| parent(p))
        .collect();
    let mut groups: std::collections::BTreeMap<String, (bool, Vec<usize>)> = Default::default();
    for (i, p) in paths.iter().enumerate() {
        if hidden(p) {
            continue;
        }
        let parts: Vec<&str> = p.split('/').collect();
        let tree = (1..parts.len())
            .map(|n| parts[..n].join("/"))
            .find(|d| tex_dirs.contains(d));
        match tree {
            Some(dir) => groups.entry(dir).or_insert((true, Vec::new())).1.push(i),
            None if PAPER_EXTENSIONS.contains(&extension(p).as_str()) => groups
                .entry(p.clone())
                .or_insert((false, Vec::new()))
                .1
                .push(i),
            None => {}
        }
    }
    groups
        .into_iter()
        .map(|(name, (tree, files))| (name, tree, files))
        .collect()
}

/// The arXiv ids of a text that is nothing but arXiv ids (one a line,
/// blank lines and `#` comments aside), else `None`.
fn arxiv_list(bytes: &[u8]) -> Option<Vec<ArxivId>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let ids: Option<Vec<ArxivId>> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(ArxivId::parse)
        .collect();
    ids.filter(|v| !v.is_empty())
}

/// The papers of `--in`.
fn collect(input: &Path, out: &Path) -> Result<Vec<Item>, Error> {
    let meta = std::fs::metadata(input).map_err(|e| Error::read(input, &e).with_flag("--in"))?;
    if meta.is_dir() {
        let out = out.canonicalize().ok();
        let mut paths = Vec::new();
        for entry in walkdir::WalkDir::new(input).sort_by_file_name() {
            let entry = entry.map_err(|e| {
                let path = e.path().unwrap_or(input).to_path_buf();
                let io = e
                    .into_io_error()
                    .unwrap_or_else(|| std::io::Error::other("a loop of links"));
                Error::read(&path, &io).with_flag("--in")
            })?;
            if !entry.file_type().is_file() {
                continue;
            }
            if out
                .as_ref()
                .is_some_and(|o| entry.path().canonicalize().is_ok_and(|p| p.starts_with(o)))
            {
                continue;
            }
            let rel = entry
                .path()
                .strip_prefix(input)
                .unwrap_or(entry.path())
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            paths.push(rel);
        }
        return Ok(group(&paths)
            .into_iter()
            .map(|(name, tree, idx)| {
                if tree {
                    let prefix = format!("{name}/");
                    Item::Tree {
                        root: input.join(&name),
                        files: idx
                            .iter()
                            .map(|&i| {
                                paths[i]
                                    .strip_prefix(&prefix)
                                    .unwrap_or(&paths[i])
                                    .to_string()
                            })
                            .collect(),
                        name,
                    }
                } else {
                    Item::File {
                        path: input.join(&name),
                        name,
                    }
                }
            })
            .collect());
    }
    let bytes = std::fs::read(input).map_err(|e| Error::read(input, &e).with_flag("--in"))?;
    let name = crate::annotate::display_name(input);
    let files = if citegate_core::archive::is_zip(&bytes) {
        Some(citegate_core::archive::unzip(&bytes).map_err(|e| Error::core(e.in_file(&name)))?)
    } else if bytes.starts_with(&[0x1f, 0x8b]) || crate::paper_cmds::is_tar(&bytes) {
        let mut inner = Vec::new();
        let tar = if bytes.starts_with(&[0x1f, 0x8b]) {
            use std::io::Read;
            flate2::read::GzDecoder::new(bytes.as_slice())
                .read_to_end(&mut inner)
                .map_err(|e| Error::read(input, &e).with_flag("--in"))?;
            &inner
        } else {
            &bytes
        };
        if !crate::paper_cmds::is_tar(tar) {
            return Err(Error::content(
                input,
                citegate_core::ErrorKind::Encoding,
                "a gzip file that holds no tar archive of papers",
            )
            .with_flag("--in"));
        }
        Some(crate::paper_cmds::untar(tar).map_err(|e| Error::read(input, &e).with_flag("--in"))?)
    } else {
        None
    };
    if let Some(files) = files {
        let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        let mut slots: Vec<Option<Vec<u8>>> = files.into_iter().map(|(_, b)| Some(b)).collect();
        return Ok(group(&paths)
            .into_iter()
            .map(|(name, tree, idx)| {
                if tree {
                    let prefix = format!("{name}/");
                    Item::MemTree {
                        files: idx
                            .iter()
                            .map(|&i| {
                                (
                                    paths[i]
                                        .strip_prefix(&prefix)
                                        .unwrap_or(&paths[i])
                                        .to_string(),
                                    slots[i].take().unwrap_or_default(),
                                )
                            })
                            .collect(),
                        name,
                    }
                } else {
                    let bytes = idx
                        .first()
                        .and_then(|&i| slots[i].take())
                        .unwrap_or_default();
                    Item::Bytes { name, bytes }
                }
            })
            .collect());
    }
    if let Some(ids) = arxiv_list(&bytes) {
        let mut seen = std::collections::HashSet::new();
        return Ok(ids
            .into_iter()
            .filter(|id| seen.insert(id.to_string()))
            .map(Item::Arxiv)
            .collect());
    }
    Ok(vec![Item::Bytes { name, bytes }])
}

/// An item's bytes, for its fingerprint and its reading.
enum Loaded {
    One(String, Vec<u8>),
    Tree(String, Vec<(String, Vec<u8>)>),
    Arxiv(ArxivId),
}

fn load(item: &Item) -> Result<Loaded, Error> {
    Ok(match item {
        Item::File { name, path } => Loaded::One(
            name.clone(),
            std::fs::read(path).map_err(|e| Error::read(path, &e))?,
        ),
        Item::Bytes { name, bytes } => Loaded::One(name.clone(), bytes.clone()),
        Item::Tree { name, root, files } => {
            let mut out = Vec::new();
            for f in files {
                let p = root.join(f);
                out.push((
                    f.clone(),
                    std::fs::read(&p).map_err(|e| Error::read(&p, &e))?,
                ));
            }
            Loaded::Tree(name.clone(), out)
        }
        Item::MemTree { name, files } => Loaded::Tree(name.clone(), files.clone()),
        Item::Arxiv(id) => Loaded::Arxiv(id.clone()),
    })
}

fn fingerprint_of(loaded: &Loaded) -> String {
    match loaded {
        Loaded::One(name, bytes) => batch::fingerprint(&[(name, bytes)]),
        Loaded::Tree(_, files) => {
            let parts: Vec<(&str, &[u8])> = files
                .iter()
                .map(|(p, b)| (p.as_str(), b.as_slice()))
                .collect();
            batch::fingerprint(&parts)
        }
        Loaded::Arxiv(id) => batch::fingerprint(&[("arxiv", id.to_string().as_bytes())]),
    }
}

/// The checkpoint file, open for appending.
struct Checkpoint {
    path: PathBuf,
    file: std::fs::File,
}

impl Checkpoint {
    /// Opens `path`, drops a last line cut short by a kill (so the next
    /// line starts on a line of its own) and returns the papers it holds.
    fn open(path: &Path) -> Result<(Checkpoint, Vec<Paper>), Error> {
        let text = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(Error::read(path, &e)),
        };
        let whole = text.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::write(path, &e))?;
        if whole < text.len() {
            file.set_len(whole as u64)
                .map_err(|e| Error::write(path, &e))?;
        }
        let papers = batch::read_checkpoint(&String::from_utf8_lossy(&text[..whole]));
        Ok((
            Checkpoint {
                path: path.to_path_buf(),
                file,
            },
            papers,
        ))
    }

    /// Appends one paper: one write of the whole line, then a sync.
    fn append(&mut self, paper: &Paper) -> Result<(), Error> {
        let line = paper.checkpoint_line();
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| Error::write(&self.path, &e))
    }
}

/// Papers done of the total, references, flags, and the time left, on
/// stderr: a bar on a terminal, a line a paper otherwise.
struct Progress {
    total: usize,
    done: usize,
    started_with: usize,
    references: usize,
    flagged: usize,
    clock: Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new(total: usize, done: usize) -> Progress {
        let bar = crate::live::progress_bar("batch", false);
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
        Progress {
            total,
            done,
            started_with: done,
            references: 0,
            flagged: 0,
            clock: Instant::now(),
            bar,
        }
    }

    /// The time left at this run's pace, once a paper is done.
    fn left(&self) -> Option<std::time::Duration> {
        let now = self.done - self.started_with;
        (now > 0).then(|| self.clock.elapsed() / now as u32 * (self.total - self.done) as u32)
    }

    fn paper(&mut self, p: &Paper) {
        self.done += 1;
        self.references += p.entries.len();
        self.flagged += p.flagged();
        let left = self
            .left()
            .map(|d| format!("{}s left", d.as_secs()))
            .unwrap_or_else(|| "time left unknown".into());
        let what = format!(
            "{} references, {} flagged this run, {left}",
            self.references, self.flagged
        );
        match &self.bar {
            Some(b) => {
                b.set_position(self.done as u64);
                b.set_message(format!("batch: {what}"));
            }
            None => eprintln!(
                "batch: {}/{} papers, {what} ({})",
                self.done,
                self.total,
                crate::annotate::display_name(Path::new(&p.file))
            ),
        }
    }

    fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}

/// A paper read and waiting in a window: its references are
/// `start..start + refs.references.len()` of the window's run.
struct Pending {
    refs: PaperRefs,
    fingerprint: String,
    start: usize,
    /// The first of its references not yet seen decided.
    cursor: usize,
    done: bool,
}

/// A window's resolver run, which writes each paper to the checkpoint as
/// soon as its last reference is decided.
struct Window<'a> {
    run: resolve::Run,
    papers: Vec<Pending>,
    offline: bool,
    checkpoint: &'a mut Checkpoint,
    progress: &'a mut Progress,
    finished: Vec<Paper>,
    error: Option<Error>,
}

impl Window<'_> {
    fn flush(&mut self) {
        let today = crate::bib_cmds::today();
        for i in 0..self.papers.len() {
            let p = &mut self.papers[i];
            if p.done {
                continue;
            }
            let len = p.refs.references.len();
            while p.cursor < len && self.run.decided(p.start + p.cursor).is_some() {
                p.cursor += 1;
            }
            if p.cursor < len {
                continue;
            }
            p.done = true;
            let report = resolve::Report {
                resolutions: (p.start..p.start + len)
                    .filter_map(|j| self.run.decided(j))
                    .collect(),
                requests: 0,
            };
            let online = paper::check::online_report(&p.refs, &report, today, 0, 0);
            let paper = Paper::checked(p.fingerprint.clone(), self.offline, &p.refs, &online);
            if let Err(e) = self.checkpoint.append(&paper) {
                self.error.get_or_insert(e);
            }
            self.progress.paper(&paper);
            self.finished.push(paper);
        }
    }
}

impl Machine for Window<'_> {
    fn next(&mut self, now_ms: f64) -> Next {
        Machine::next(&mut self.run, now_ms)
    }
    fn answer(&mut self, id: u64, reply: Reply, now_ms: f64) {
        Machine::answer(&mut self.run, id, reply, now_ms);
        self.flush();
    }
    fn progress(&self) -> (usize, usize) {
        Machine::progress(&self.run)
    }
}

/// Reads `--share I/N`.
fn parse_share(text: &str) -> Result<(u64, u64), Error> {
    let bad = || Error::flag("--share", format!("`{text}` is not I/N with 0 <= I < N"));
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// `citegate batch`.
fn run_batch(a: &BatchArgs) -> Outcome {
    let settings = a.live.settings()?;
    let share = a.share.as_deref().map(parse_share).transpose()?;
    let mut items = collect(&a.input, &a.out)?;
    if let Some((i, n)) = share {
        items.retain(|item| batch::share_of(&item.name(), n) == i);
    }
    if items.is_empty() && share.is_none() {
        return Err(Error::content(
            &a.input,
            citegate_core::ErrorKind::InvalidValue,
            "no papers found (pdf, bib, bbl, tex, txt, md, json, ris, zip or tar.gz files, or arxiv ids)",
        )
        .with_flag("--in"));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| Error::write(&a.out, &e))?;
    // One reader of the index per core: the index's lookups are the work
    // of an offline batch, and SQLite takes several readers at once.
    let mut readers = Vec::new();
    if let Some(dir) = a.local.index.as_ref().or(settings.index.as_ref()) {
        let n = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        for _ in 0..n {
            readers.push(Local::open(dir)?);
        }
    }
    let (mut checkpoint, stored) = Checkpoint::open(&a.out.join("checkpoint.jsonl"))?;
    let offline = a.local.offline;
    // Each item's fingerprint and, when the checkpoint holds it, its paper.
    let mut plan: Vec<(Item, String, Option<Paper>)> = Vec::new();
    for item in items {
        let name = item.name();
        let fp = match load(&item) {
            Ok(l) => fingerprint_of(&l),
            Err(_) => String::new(),
        };
        let done = stored
            .iter()
            .find(|p| p.file == name && p.fingerprint == fp && p.offline == offline)
            .cloned();
        plan.push((item, fp, done));
    }
    let total = plan.len();
    let already = plan.iter().filter(|(_, _, d)| d.is_some()).count();
    let mut progress = Progress::new(total, already);
    let mut exec = Executor::new(&settings, true)?;
    exec.offline = offline;
    let opts = settings.resolve_options();
    let title_hits = opts.title_hits;
    let mut last_run: Option<resolve::Run> = None;
    let mut finished: Vec<Paper> = plan.iter().filter_map(|(_, _, d)| d.clone()).collect();
    let todo: Vec<&(Item, String, Option<Paper>)> =
        plan.iter().filter(|(_, _, d)| d.is_none()).collect();
    for window in todo.chunks(a.window.max(1)) {
        let mut pending = Vec::new();
        let mut references = Vec::new();
        for (item, fp, _) in window {
            let name = item.name();
            let read = match load(item) {
                Ok(Loaded::One(n, bytes)) => crate::paper_cmds::read_bytes(&n, bytes),
                Ok(Loaded::Tree(n, files)) => paper::read_source(&n, &files).map_err(Error::core),
                Ok(Loaded::Arxiv(_)) if offline => Err(Error::failed(format!(
                    "cannot fetch the source of {name}: the run is offline"
                ))),
                Ok(Loaded::Arxiv(id)) => crate::paper_cmds::fetch_arxiv(&id, &settings),
                Err(e) => Err(e),
            };
            match read {
                Ok(refs) => {
                    let start = references.len();
                    references.extend(paper::check::references(&refs));
                    pending.push(Pending {
                        refs,
                        fingerprint: fp.clone(),
                        start,
                        cursor: 0,
                        done: false,
                    });
                }
                Err(e) => {
                    let paper = Paper::failed(name, fp.clone(), offline, e.to_string());
                    checkpoint.append(&paper)?;
                    progress.paper(&paper);
                    finished.push(paper);
                }
            }
        }
        let mut run = match &last_run {
            Some(prev) => prev.then(references),
            None => resolve::Run::new(references, opts.clone()),
        };
        Local::answer_with(&mut readers, &mut run, title_hits)?;
        let mut w = Window {
            run,
            papers: pending,
            offline,
            checkpoint: &mut checkpoint,
            progress: &mut progress,
            finished: Vec::new(),
            error: None,
        };
        w.flush();
        exec.drive(&mut w, "batch");
        w.flush();
        if let Some(e) = w.error.take() {
            return Err(e);
        }
        finished.append(&mut w.finished);
        last_run = Some(w.run);
    }
    progress.finish();
    // The report holds the papers of this input, in the core's order.
    let names: std::collections::HashSet<String> = plan.iter().map(|(i, _, _)| i.name()).collect();
    finished.retain(|p| names.contains(&p.file));
    let report = Report::new(finished);
    write_reports(&a.out, &report)?;
    let t = report.totals();
    eprintln!(
        "batch: {} papers ({} could not be checked), {}; requests {} sent, {} from the cache; {}",
        report.papers.len(),
        report.failed(),
        t.describe(),
        exec.sent,
        exec.from_cache,
        a.out.join("report.html").display()
    );
    let clean = report.failed() == 0
        && t.valid == report.papers.iter().map(|p| p.entries.len()).sum::<usize>();
    Ok(if clean { PASS } else { FAIL })
}

/// Writes `name` in `dir` whole: a temporary file, then a rename.
fn write_atomic(dir: &Path, name: &str, text: &str) -> Result<(), Error> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| Error::write(&path, &e))
}

fn write_reports(dir: &Path, report: &Report) -> Result<(), Error> {
    let json = serde_json::to_string_pretty(report).unwrap_or_default() + "\n";
    write_atomic(dir, "report.json", &json)?;
    write_atomic(dir, "report.csv", &crate::batch_report::csv(report))?;
    write_atomic(dir, "report.html", &crate::batch_report::html(report))
}
