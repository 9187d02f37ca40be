//! The index on disk: one SQLite database (`DIR/index.sqlite`) with a
//! `works` table (one row per record of a dump, unique by dump and key,
//! with expression indexes on the lowercased DOI and on the arXiv id) and
//! a `dumps` table (each dump file read, its date and how far the build
//! got), beside the title index in `DIR/titles/` ([`crate::titles`]), a
//! Tantivy index over the normalized titles (the core's `title::normalize`)
//! derived from `works`.
//!
//! A build commits in batches; each batch's transaction also records how
//! many records of the file were read, so a killed build, rerun, skips
//! what was committed and goes on. A finished file is not read again. The
//! title pass ([`Index::index_titles`]) then indexes the rows the title
//! index has not committed, resumable the same way.

use crate::dblp::DblpReader;
use crate::dumps;
use crate::titles::{self, TitlePass, TitleWriter, Titles};
use crate::work::{Source, Work};
use citegate_core::ids::{ArxivId, Doi};
use citegate_core::title;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The database file inside an index directory.
pub const DB_FILE: &str = "index.sqlite";

/// Records per committed batch.
pub const BATCH: u64 = 50_000;

/// Candidates a title search takes from the title index before the ratio ranks them.
pub const CANDIDATES: usize = 20;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file could not be read.
    Io,
    /// A dump is not what its flag says (broken XML, not JSON).
    Format,
    /// The database refused (corrupt, locked, full disk).
    Store,
    /// The directory holds no index.
    Missing,
    /// One record of a JSON-lines dump could not be read; the build skips
    /// it and goes on (counted in [`Added::bad_lines`]).
    Record,
    /// The title index is behind the records: a build stopped before its
    /// title pass ended, or the index predates the title index.
    Unfinished,
}

/// An error with the file it concerns.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The dump file or the database.
    pub file: PathBuf,
    /// Where in the file, when known: the byte offset (XML) or line (JSON lines).
    pub at: Option<String>,
    /// What is wrong, lowercase, no final period.
    pub message: String,
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(at) = &self.at {
            write!(f, " ({at})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for IndexError {}

fn err(kind: ErrorKind, file: &Path, message: impl ToString) -> IndexError {
    IndexError {
        kind,
        file: file.to_path_buf(),
        at: None,
        message: message.to_string().to_lowercase(),
    }
}

/// A dump the index holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Dump {
    /// `dblp`, `arxiv`, `openalex` or `crossref`.
    pub source: String,
    /// The file as given to the build.
    pub file: String,
    /// The dump's date (`YYYY-MM-DD`): given, else its newest record's, else the file's.
    pub date: Option<String>,
    /// Where the date came from: `given`, `records` or `file`.
    pub date_from: String,
    /// Records read so far (all kinds, skipped ones included).
    pub records_read: u64,
    /// Works stored from it.
    pub works: u64,
    /// Whether the whole file was read.
    pub finished: bool,
}

/// A record found, with the dump it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The dump.
    pub source: Source,
    /// The record.
    pub work: Work,
    /// For a title search: the core's title ratio (0–100) of the query and
    /// this title, both normalized; 100 for an id lookup.
    pub ratio: f64,
}

/// What one `add` did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Added {
    /// Records read in this call (skipped ones for a resume not counted).
    pub read: u64,
    /// Works stored in this call.
    pub stored: u64,
    /// Records skipped because an earlier build had committed them.
    pub resumed_from: u64,
    /// JSON lines that could not be read (kept going).
    pub bad_lines: u64,
    /// Whether the file had been read whole already.
    pub already_done: bool,
    /// Whether `progress` stopped the build before the end of the file.
    pub stopped: bool,
}

/// An open index.
pub struct Index {
    conn: Connection,
    path: PathBuf,
    dir: PathBuf,
    batch: u64,
    title_batch: u64,
    /// For searching: set by `open`, and by a title pass that ended.
    titles: Option<Titles>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS works(
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    norm TEXT NOT NULL,
    authors TEXT NOT NULL,
    year INTEGER,
    venue TEXT,
    doi TEXT,
    arxiv TEXT,
    UNIQUE(source, key)
);
CREATE INDEX IF NOT EXISTS works_doi ON works(lower(doi)) WHERE doi IS NOT NULL;
CREATE INDEX IF NOT EXISTS works_arxiv ON works(arxiv) WHERE arxiv IS NOT NULL;
-- Titles are searched in DIR/titles (Tantivy); an index built before
-- that held them in this FTS5 table, rebuilt there by the title pass.
DROP TABLE IF EXISTS titles;
CREATE TABLE IF NOT EXISTS dumps(
    source TEXT NOT NULL,
    file TEXT NOT NULL,
    date TEXT,
    date_from TEXT NOT NULL DEFAULT 'file',
    bytes INTEGER NOT NULL DEFAULT 0,
    records_read INTEGER NOT NULL DEFAULT 0,
    works INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(source, file)
);
";

/// A file's modification day, `YYYY-MM-DD` (UTC).
fn file_day(path: &Path) -> Option<String> {
    let t = std::fs::metadata(path).ok()?.modified().ok()?;
    let dt: chrono::DateTime<chrono::Utc> = t.into();
    Some(dt.format("%Y-%m-%d").to_string())
}

/// Opens a dump, decompressing `.gz` (several members are read, as
/// OpenAlex and Crossref write them).
fn open_input(path: &Path) -> Result<Box<dyn BufRead>, IndexError> {
    let f = std::fs::File::open(path).map_err(|e| err(ErrorKind::Io, path, e))?;
    let gz = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    Ok(if gz {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, f)),
        ))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, f))
    })
}

/// The records of a dump, one at a time: `Ok(None)` is a record the index
/// does not keep (a DBLP home page, a JSON record without a title).
type Records = Box<dyn Iterator<Item = Result<Option<Work>, IndexError>>>;

fn dblp_records(path: &Path) -> Result<Records, IndexError> {
    let file = path.to_path_buf();
    let reader = DblpReader::new(open_input(path)?);
    Ok(Box::new(reader.map(move |r| match r {
        Ok(w) if w.kind == "www" || w.title.is_empty() => Ok(None),
        Ok(w) => Ok(Some(w)),
        Err(e) => Err(IndexError {
            kind: ErrorKind::Format,
            file: file.clone(),
            at: Some(format!("byte {}", e.offset)),
            message: e.message,
        }),
    })))
}

/// JSON lines; a line that is not JSON is `Err` with its line number, and
/// the caller counts it and goes on.
fn json_lines(path: &Path, read: fn(&Value) -> Option<Work>) -> Result<Records, IndexError> {
    let mut input = open_input(path)?;
    let file = path.to_path_buf();
    let mut line = String::new();
    let mut n = 0u64;
    Ok(Box::new(std::iter::from_fn(move || loop {
        line.clear();
        n += 1;
        match input.read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) if line.trim().is_empty() => continue,
            Ok(_) => {
                return Some(match serde_json::from_str::<Value>(&line) {
                    Ok(v) => Ok(read(&v)),
                    Err(e) => Err(IndexError {
                        kind: ErrorKind::Record,
                        file: file.clone(),
                        at: Some(format!("line {n}")),
                        message: e.to_string().to_lowercase(),
                    }),
                })
            }
            Err(e) => return Some(Err(err(ErrorKind::Io, &file, e))),
        }
    })))
}

/// Crossref's public data file: one `{"items": [...]}` per file (read
/// whole; each is a few MB), or JSON lines of items.
fn crossref_records(path: &Path) -> Result<Records, IndexError> {
    let mut text = String::new();
    open_input(path)?
        .read_to_string(&mut text)
        .map_err(|e| err(ErrorKind::Io, path, e))?;
    if let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(&text) {
        let items = match o.remove("items") {
            Some(Value::Array(a)) => a,
            _ => match o
                .remove("message")
                .and_then(|mut m| m.get_mut("items").map(Value::take))
            {
                Some(Value::Array(a)) => a,
                _ => vec![Value::Object(o)],
            },
        };
        return Ok(Box::new(items.into_iter().map(|v| Ok(dumps::crossref(&v)))));
    }
    json_lines(path, dumps::crossref)
}

fn records(source: Source, path: &Path) -> Result<Records, IndexError> {
    match source {
        Source::Dblp => dblp_records(path),
        Source::Arxiv => json_lines(path, dumps::arxiv),
        Source::OpenAlex => json_lines(path, dumps::openalex),
        Source::Crossref => crossref_records(path),
    }
}

fn work_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(String, Work, String)> {
    let authors: String = row.get(4)?;
    Ok((
        row.get(0)?,
        Work {
            key: row.get(1)?,
            kind: row.get(2)?,
            title: row.get(3)?,
            authors: serde_json::from_str(&authors).unwrap_or_default(),
            year: row.get(5)?,
            venue: row.get(6)?,
            doi: row.get(7)?,
            arxiv: row.get(8)?,
            date: None,
        },
        row.get(9)?,
    ))
}

const COLUMNS: &str =
    "w.source, w.key, w.kind, w.title, w.authors, w.year, w.venue, w.doi, w.arxiv, w.norm";

impl Index {
    fn store_err(&self, e: rusqlite::Error) -> IndexError {
        err(ErrorKind::Store, &self.path, e)
    }

    /// Opens or creates the index in `dir` for building.
    pub fn create(dir: &Path) -> Result<Index, IndexError> {
        std::fs::create_dir_all(dir).map_err(|e| err(ErrorKind::Io, dir, e))?;
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path).map_err(|e| err(ErrorKind::Store, &path, e))?;
        let index = Index {
            conn,
            path,
            dir: dir.to_path_buf(),
            batch: BATCH,
            title_batch: titles::COMMIT_ROWS,
            titles: None,
        };
        index
            .conn
            .execute_batch(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-200000; PRAGMA temp_store=MEMORY;",
            )
            .and_then(|_| index.conn.execute_batch(SCHEMA))
            .map_err(|e| index.store_err(e))?;
        titles::ensure(dir)?;
        Ok(index)
    }

    /// Opens the index in `dir` for lookups only. An index whose title
    /// index is missing or behind its records is refused
    /// ([`ErrorKind::Unfinished`]): its title searches would miss records.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let path = dir.join(DB_FILE);
        if !path.is_file() {
            return Err(err(
                ErrorKind::Missing,
                dir,
                "no index here (build one with `citegate index build`)",
            ));
        }
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| err(ErrorKind::Store, &path, e))?;
        let mut index = Index {
            conn,
            path,
            dir: dir.to_path_buf(),
            batch: BATCH,
            title_batch: titles::COMMIT_ROWS,
            titles: None,
        };
        // A database without our tables is not an index.
        index.dumps()?;
        index.titles = Some(Titles::open(dir, index.last_row()?)?);
        Ok(index)
    }

    /// Reads `file` as a dump of `source` into the index, resuming where an
    /// earlier build of the same file stopped. `date` overrides the dump's
    /// date; `progress` hears the number of records read after each
    /// committed batch and returns whether to go on (`false` stops the
    /// build there, as a kill would: the file stays unfinished).
    ///
    /// A file read whole is not read again; one that has changed size since
    /// is refused (its records may differ: build a new index). An unfinished
    /// file is resumed as the longer copy of what was read (a download
    /// completed).
    pub fn add(
        &mut self,
        source: Source,
        file: &Path,
        date: Option<&str>,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Added, IndexError> {
        let name = file.display().to_string();
        let bytes = std::fs::metadata(file)
            .map_err(|e| err(ErrorKind::Io, file, e))?
            .len();
        let prior: Option<(u64, bool, Option<String>, u64)> = self
            .conn
            .query_row(
                "SELECT records_read, finished, date, bytes FROM dumps WHERE source = ?1 AND file = ?2",
                params![source.name(), name],
                |r| Ok((r.get(0)?, r.get::<_, i64>(1)? != 0, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| self.store_err(e))?;
        let mut added = Added::default();
        if let Some((_, true, _, was)) = prior {
            if was != bytes {
                return Err(err(
                    ErrorKind::Format,
                    file,
                    format!("changed since the index read it whole ({was} bytes then, {bytes} now): build a new index"),
                ));
            }
            added.already_done = true;
            if let Some(d) = date {
                self.conn
                    .execute(
                        "UPDATE dumps SET date = ?3, date_from = 'given' WHERE source = ?1 AND file = ?2",
                        params![source.name(), name, d],
                    )
                    .map_err(|e| self.store_err(e))?;
            }
            return Ok(added);
        }
        let skip = prior.as_ref().map(|p| p.0).unwrap_or(0);
        let mut newest: Option<String> = prior.and_then(|p| p.2);
        added.resumed_from = skip;
        let mut recs = records(source, file)?;
        let mut read = 0u64;
        // Records an earlier build committed: read past them.
        while read < skip {
            match recs.next() {
                Some(Ok(_)) => read += 1,
                Some(Err(e)) if e.kind == ErrorKind::Record => read += 1,
                Some(Err(e)) => return Err(e),
                None => break,
            }
        }
        let mut failure: Option<IndexError> = None;
        loop {
            let tx = self
                .conn
                .transaction()
                .map_err(|e| err(ErrorKind::Store, file, e))?;
            let mut in_batch = 0u64;
            let mut ended = false;
            let stored_before = added.stored;
            {
                let mut insert = tx
                    .prepare_cached(
                        "INSERT INTO works(source, key, kind, title, norm, authors, year, venue, doi, arxiv)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT(source, key) DO NOTHING",
                    )
                    .map_err(|e| err(ErrorKind::Store, file, e))?;
                let mut norm = String::new();
                while in_batch < self.batch {
                    let w = match recs.next() {
                        None => {
                            ended = true;
                            break;
                        }
                        Some(Ok(Some(w))) => w,
                        Some(Ok(None)) => {
                            in_batch += 1;
                            continue;
                        }
                        Some(Err(e)) if e.kind == ErrorKind::Record => {
                            added.bad_lines += 1;
                            in_batch += 1;
                            continue;
                        }
                        Some(Err(e)) => {
                            failure = Some(e);
                            break;
                        }
                    };
                    in_batch += 1;
                    newest = Work::newer_date(newest, w.date.as_deref());
                    title::normalize_into(&w.title, &mut norm);
                    if norm.is_empty() {
                        continue;
                    }
                    let authors = serde_json::to_string(&w.authors).unwrap_or_else(|_| "[]".into());
                    let n = insert
                        .execute(params![
                            source.name(),
                            w.key,
                            w.kind,
                            w.title,
                            norm,
                            authors,
                            w.year,
                            w.venue,
                            w.doi,
                            w.arxiv
                        ])
                        .map_err(|e| err(ErrorKind::Store, file, e))?;
                    if n == 1 {
                        added.stored += 1;
                    }
                }
            }
            read += in_batch;
            added.read += in_batch;
            let finished = ended && failure.is_none();
            let (day, from) = match (date, &newest) {
                (Some(d), _) => (Some(d.to_string()), "given"),
                (None, Some(d)) => (Some(d.clone()), "records"),
                (None, None) => (file_day(file), "file"),
            };
            tx.execute(
                "INSERT INTO dumps(source, file, date, date_from, records_read, works, finished, bytes)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(source, file) DO UPDATE SET date = ?3, date_from = ?4,
                     records_read = ?5, works = works + ?6, finished = ?7, bytes = ?8",
                params![
                    source.name(),
                    name,
                    day,
                    from,
                    read,
                    added.stored - stored_before,
                    finished,
                    bytes
                ],
            )
            .map_err(|e| err(ErrorKind::Store, file, e))?;
            tx.commit().map_err(|e| err(ErrorKind::Store, file, e))?;
            if let Some(e) = failure {
                return Err(e);
            }
            if ended {
                progress(read);
                return Ok(added);
            }
            if !progress(read) {
                added.stopped = true;
                return Ok(added);
            }
        }
    }

    /// Records per committed batch from now on ([`BATCH`] by default).
    pub fn set_batch(&mut self, records: u64) {
        self.batch = records.max(1);
    }

    /// Rows per commit of the title pass from now on ([`titles::COMMIT_ROWS`] by default).
    pub fn set_title_batch(&mut self, rows: u64) {
        self.title_batch = rows.max(1);
    }

    /// The last row id of `works` (0 when empty).
    fn last_row(&self) -> Result<u64, IndexError> {
        self.conn
            .query_row("SELECT coalesce(max(id), 0) FROM works", [], |r| {
                r.get::<_, u64>(0)
            })
            .map_err(|e| self.store_err(e))
    }

    /// The title pass: indexes every `works` row after the last one the
    /// title index committed, in id order, committing every
    /// [`Index::set_title_batch`] rows with the last id as the commit's
    /// payload. `progress` hears the rows indexed after each commit and
    /// returns whether to go on (`false` stops there, as a kill would; the
    /// index is then refused by `open` until a pass ends). Run it after
    /// the dumps are added; a rerun with nothing new does nothing.
    pub fn index_titles(
        &mut self,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<TitlePass, IndexError> {
        self.titles = None;
        let mut writer = TitleWriter::open(&self.dir)?;
        let after = writer.committed();
        let mut pass = TitlePass {
            resumed_after: after,
            ..TitlePass::default()
        };
        let mut st = self
            .conn
            .prepare("SELECT id, norm FROM works WHERE id > ?1 ORDER BY id")
            .map_err(|e| err(ErrorKind::Store, &self.path, e))?;
        let mut rows = st
            .query([after])
            .map_err(|e| err(ErrorKind::Store, &self.path, e))?;
        let (mut pending, mut last) = (0u64, after);
        while let Some(row) = rows
            .next()
            .map_err(|e| err(ErrorKind::Store, &self.path, e))?
        {
            let id: u64 = row
                .get(0)
                .map_err(|e| err(ErrorKind::Store, &self.path, e))?;
            let norm = row
                .get_ref(1)
                .and_then(|v| v.as_str().map_err(Into::into))
                .map_err(|e| err(ErrorKind::Store, &self.path, e))?;
            writer.add(id, norm)?;
            (pending, last) = (pending + 1, id);
            if pending < self.title_batch {
                continue;
            }
            writer.commit(last)?;
            pass.indexed += pending;
            pending = 0;
            if !progress(pass.indexed) {
                pass.stopped = true;
                break;
            }
        }
        drop(rows);
        drop(st);
        if pending > 0 {
            writer.commit(last)?;
            pass.indexed += pending;
            progress(pass.indexed);
        }
        writer.finish()?;
        if !pass.stopped {
            self.titles = Some(Titles::open(&self.dir, self.last_row()?)?);
        }
        Ok(pass)
    }

    /// Merges the title index's segments into one (faster searches) and
    /// folds SQLite's log into the database; run once after a build.
    pub fn optimize(&self) -> Result<(), IndexError> {
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(|e| self.store_err(e))?;
        titles::merge(&self.dir)
    }

    /// The dumps the index holds.
    pub fn dumps(&self) -> Result<Vec<Dump>, IndexError> {
        let mut st = self
            .conn
            .prepare("SELECT source, file, date, date_from, records_read, works, finished FROM dumps ORDER BY source, file")
            .map_err(|e| self.store_err(e))?;
        let rows = st
            .query_map([], |r| {
                Ok(Dump {
                    source: r.get(0)?,
                    file: r.get(1)?,
                    date: r.get(2)?,
                    date_from: r.get(3)?,
                    records_read: r.get(4)?,
                    works: r.get(5)?,
                    finished: r.get::<_, i64>(6)? != 0,
                })
            })
            .map_err(|e| self.store_err(e))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.store_err(e))
    }

    fn hits(&self, sql: &str, arg: &str) -> Result<Vec<Hit>, IndexError> {
        let mut st = self
            .conn
            .prepare_cached(sql)
            .map_err(|e| self.store_err(e))?;
        let rows = st
            .query_map([arg], work_of_row)
            .map_err(|e| self.store_err(e))?;
        let mut out = Vec::new();
        for r in rows {
            let (source, work, _) = r.map_err(|e| self.store_err(e))?;
            if let Some(source) = Source::from_name(&source) {
                out.push(Hit {
                    source,
                    work,
                    ratio: 100.0,
                });
            }
        }
        Ok(out)
    }

    /// Every record with this DOI (any form `ids::Doi` reads), from every dump.
    pub fn by_doi(&self, doi: &str) -> Result<Vec<Hit>, IndexError> {
        let Some(d) = Doi::parse(doi) else {
            return Ok(Vec::new());
        };
        self.hits(
            &format!("SELECT {COLUMNS} FROM works w WHERE lower(w.doi) = ?1 AND w.doi IS NOT NULL"),
            &d.as_str().to_ascii_lowercase(),
        )
    }

    /// Every record with this arXiv id (any form `ids::ArxivId` reads; the version is dropped).
    pub fn by_arxiv(&self, id: &str) -> Result<Vec<Hit>, IndexError> {
        let Some(a) = ArxivId::parse(id) else {
            return Ok(Vec::new());
        };
        self.hits(
            &format!("SELECT {COLUMNS} FROM works w WHERE w.arxiv = ?1"),
            a.as_str(),
        )
    }

    /// The DBLP record with this key (`journals/cacm/Gentry10`).
    pub fn by_dblp_key(&self, key: &str) -> Result<Vec<Hit>, IndexError> {
        self.hits(
            &format!("SELECT {COLUMNS} FROM works w WHERE w.source = 'dblp' AND w.key = ?1"),
            key.trim(),
        )
    }

    /// Records whose titles are nearest `query`: the title index's
    /// candidates holding every word of the normalized query (or, when none
    /// does, the fallback's: [`titles::fallback_match`]), at most
    /// [`CANDIDATES`], ranked by the core's title ratio, best first.
    pub fn search_title(&self, query: &str) -> Result<Vec<Hit>, IndexError> {
        let Some(titles) = &self.titles else {
            return Err(titles::unfinished(&self.dir.join(titles::TITLES_DIR)));
        };
        let norm = title::normalize(query);
        let ids = titles.candidates(&norm, CANDIDATES)?;
        let mut st = self
            .conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM works w WHERE w.id = ?1"))
            .map_err(|e| self.store_err(e))?;
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            let row = st
                .query_row([id], work_of_row)
                .optional()
                .map_err(|e| self.store_err(e))?;
            let Some((source, work, norm_found)) = row else {
                continue;
            };
            if let Some(source) = Source::from_name(&source) {
                let ratio = title::ratio_normalized(&norm, &norm_found);
                found.push(Hit {
                    source,
                    work,
                    ratio,
                });
            }
        }
        found.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
        Ok(found)
    }

    /// Size of the index on disk, in bytes (the database, its WAL and the title index).
    pub fn size_on_disk(dir: &Path) -> u64 {
        let db: u64 = ["", "-wal", "-shm"]
            .iter()
            .filter_map(|s| std::fs::metadata(dir.join(format!("{DB_FILE}{s}"))).ok())
            .map(|m| m.len())
            .sum();
        db + dir_size(&dir.join(titles::TITLES_DIR))
    }
}

/// Bytes of the files under `p`.
fn dir_size(p: &Path) -> u64 {
    std::fs::read_dir(p)
        .map(|rd| {
            rd.flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

/// Regression: the fallback ranks words by how many titles hold each
/// (the title index's document frequencies); were it not to, it would ask
/// for misspelt words no title holds, and nothing else would fail.
#[cfg(test)]
mod vocab_tests {
    use super::{Index, Source};

    #[test]
    fn an_opened_index_ranks_the_fallback_by_word_counts() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dump =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dblp-sample.xml");
        let mut ix = Index::create(dir.path()).expect("create");
        ix.add(Source::Dblp, &dump, None, &mut |_| true)
            .expect("dblp");
        ix.index_titles(&mut |_| true).expect("titles");
        drop(ix);
        let ix = Index::open(dir.path()).expect("open");
        let titles = ix.titles.as_ref().expect("a title index");
        let q = titles
            .fallback("computing arbitrary functons of encryptd data")
            .expect("fallback");
        let words: Vec<&str> = q.iter().flatten().map(String::as_str).collect();
        // Words no title holds are left out; only the counts can say which.
        assert!(
            !words.contains(&"functons") && !words.contains(&"encryptd"),
            "{q:?}"
        );
        assert!(words.contains(&"arbitrary"), "{q:?}");
    }
}
