//! The index on disk: one SQLite database (`DIR/index.sqlite`) with a
//! `works` table (one row per record of a dump, unique by dump and key,
//! with expression indexes on the lowercased DOI and on the arXiv id), an
//! FTS5 table over the normalized titles (the core's `title::normalize`)
//! for candidates, and a `dumps` table: each dump file read, its date and
//! how far the build got.
//!
//! A build commits in batches; each batch's transaction also records how
//! many records of the file were read, so a killed build, rerun, skips
//! what was committed and goes on. A finished file is not read again.

use crate::dblp::DblpReader;
use crate::dumps;
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

/// Candidates a title search takes from FTS5 before the ratio ranks them.
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
    batch: u64,
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
CREATE VIRTUAL TABLE IF NOT EXISTS titles USING fts5(
    norm, content='works', content_rowid='id', detail='column',
    tokenize='unicode61 remove_diacritics 0'
);
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
            batch: BATCH,
        };
        index
            .conn
            .execute_batch(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-200000; PRAGMA temp_store=MEMORY;",
            )
            .and_then(|_| index.conn.execute_batch(SCHEMA))
            .map_err(|e| index.store_err(e))?;
        Ok(index)
    }

    /// Opens the index in `dir` for lookups only.
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
        let index = Index {
            conn,
            path,
            batch: BATCH,
        };
        // A database without our tables is not an index.
        index.dumps()?;
        // How many titles hold each word, for the fallback title search; a
        // temporary table, so a read-only index takes it. Without it the
        // fallback still runs, on the longest words.
        let _ = index.conn.execute_batch(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.titles_vocab USING fts5vocab(main, titles, 'row')",
        );
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
                let mut fts = tx
                    .prepare_cached("INSERT INTO titles(rowid, norm) VALUES (?1, ?2)")
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
                        fts.execute(params![tx.last_insert_rowid(), norm])
                            .map_err(|e| err(ErrorKind::Store, file, e))?;
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

    /// Merges the title index's segments (faster searches; run once after a build).
    pub fn optimize(&self) -> Result<(), IndexError> {
        self.conn
            .execute_batch(
                "INSERT INTO titles(titles) VALUES('optimize'); PRAGMA wal_checkpoint(TRUNCATE);",
            )
            .map_err(|e| self.store_err(e))
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

    /// Records whose titles are nearest `query`: FTS5 candidates holding
    /// every word of the normalized query (or, when none does, any of its
    /// words), ranked by the core's title ratio, best first.
    pub fn search_title(&self, query: &str) -> Result<Vec<Hit>, IndexError> {
        let norm = title::normalize(query);
        let words: Vec<String> = norm
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| format!("\"{w}\""))
            .collect();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {COLUMNS} FROM titles JOIN works w ON w.id = titles.rowid
             WHERE titles MATCH ?1 ORDER BY rank LIMIT {CANDIDATES}"
        );
        let mut found = self.fts(&sql, &words.join(" "), &norm)?;
        if found.is_empty() && words.len() > 1 {
            found = self.fts(&sql, &self.fallback_query(&norm), &norm)?;
        }
        found.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
        Ok(found)
    }

    fn fts(&self, sql: &str, matching: &str, norm: &str) -> Result<Vec<Hit>, IndexError> {
        if matching.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self
            .conn
            .prepare_cached(sql)
            .map_err(|e| self.store_err(e))?;
        let rows = st
            .query_map([matching], work_of_row)
            .map_err(|e| self.store_err(e))?;
        let mut out = Vec::new();
        for r in rows {
            let (source, work, found) = r.map_err(|e| self.store_err(e))?;
            if let Some(source) = Source::from_name(&source) {
                let ratio = title::ratio_normalized(norm, &found);
                out.push(Hit {
                    source,
                    work,
                    ratio,
                });
            }
        }
        Ok(out)
    }

    /// Size of the index on disk, in bytes (the database and its WAL).
    pub fn size_on_disk(dir: &Path) -> u64 {
        ["", "-wal", "-shm"]
            .iter()
            .filter_map(|s| std::fs::metadata(dir.join(format!("{DB_FILE}{s}"))).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// How many words the fallback title search asks for.
const FALLBACK_WORDS: usize = 4;

impl Index {
    /// The FTS5 query a title search falls back to when no record holds
    /// every word of the normalized title: its [`FALLBACK_WORDS`] rarest
    /// content words that the index holds at all, any two of them together
    /// ([`fallback_match`]). How many titles hold each word comes from the
    /// `fts5vocab` table [`Index::open`] attaches; without it, the longest
    /// words stand in for the rarest.
    fn fallback_query(&self, norm: &str) -> String {
        let words = citegate_core::search::probe::content_terms(norm);
        let counted: Option<Vec<(String, u64)>> = self
            .conn
            .prepare_cached("SELECT doc FROM temp.titles_vocab WHERE term = ?1")
            .ok()
            .and_then(|mut st| {
                words
                    .iter()
                    .map(|w| {
                        st.query_row([w], |r| r.get::<_, i64>(0))
                            .optional()
                            .ok()
                            .map(|n| (w.clone(), n.unwrap_or(0).max(0) as u64))
                    })
                    .collect()
            });
        let counted = counted.unwrap_or_else(|| {
            // No vocabulary: a longer word is likelier a rarer one.
            words
                .iter()
                .map(|w| (w.clone(), u64::MAX - w.chars().count() as u64))
                .collect()
        });
        fallback_match(counted)
    }
}

/// The fallback's FTS5 match of `words` with how many titles hold each:
/// the [`FALLBACK_WORDS`] rarest held ones (a word no title holds cannot
/// match), any two together when three or more are left, else any one.
///
/// A record above the title threshold shares most of the title, so it holds
/// at least two of its rarest words even with one of them misspelt or
/// dropped. Asking for any one word instead made FTS5 rank every record
/// holding one common word: 125 ms a title on 380,000 generated works (a
/// vocabulary of a few hundred words, so every word is common), against
/// 15 ms for pairs, and 170 ms for the four longest words
/// (`BENCHMARKS.md`, batch).
fn fallback_match(mut words: Vec<(String, u64)>) -> String {
    words.retain(|(_, n)| *n > 0);
    words.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    words.dedup_by(|a, b| a.0 == b.0);
    words.truncate(FALLBACK_WORDS);
    let quoted: Vec<String> = words.iter().map(|(w, _)| format!("\"{w}\"")).collect();
    if quoted.len() < 3 {
        return quoted.join(" OR ");
    }
    let mut pairs = Vec::new();
    for (i, a) in quoted.iter().enumerate() {
        for b in &quoted[i + 1..] {
            pairs.push(format!("({a} AND {b})"));
        }
    }
    pairs.join(" OR ")
}

/// Regression: `Index::open` attaches the word counts the fallback ranks
/// by; were it not to (an SQLite without `fts5vocab`, a failed attach,
/// which `open` lets pass), the fallback would ask for the longest words,
/// misspelt ones included, and nothing else would fail.
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
        drop(ix);
        let ix = Index::open(dir.path()).expect("open");
        let q = ix.fallback_query("computing arbitrary functons of encryptd data");
        // Words no title holds are left out; only the counts can say which.
        assert!(!q.contains("functons") && !q.contains("encryptd"), "{q}");
        assert!(q.contains("\"arbitrary\""), "{q}");
    }
}

#[cfg(test)]
mod fallback_tests {
    use super::fallback_match;

    fn check(words: &[(&str, u64)], expected: &str) {
        let words = words.iter().map(|(w, n)| (w.to_string(), *n)).collect();
        assert_eq!(fallback_match(words), expected);
    }

    #[test]
    fn the_rarest_held_words_are_asked_for_in_pairs() {
        check(&[], "");
        check(&[("zebra", 0)], "");
        check(&[("learning", 900), ("zebra", 0)], r#""learning""#);
        check(&[("deep", 800), ("quokka", 2)], r#""quokka" OR "deep""#);
        check(
            &[("deep", 800), ("quokka", 2), ("learning", 900)],
            r#"("quokka" AND "deep") OR ("quokka" AND "learning") OR ("deep" AND "learning")"#,
        );
        // The four rarest of six; a repeated word counts once.
        check(
            &[
                ("a1", 6),
                ("b2", 1),
                ("c3", 5),
                ("b2", 1),
                ("d4", 2),
                ("e5", 3),
                ("f6", 4),
            ],
            r#"("b2" AND "d4") OR ("b2" AND "e5") OR ("b2" AND "f6") OR ("d4" AND "e5") OR ("d4" AND "f6") OR ("e5" AND "f6")"#,
        );
    }
}
