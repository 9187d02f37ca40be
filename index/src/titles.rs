//! The title index: a Tantivy index in `DIR/titles/` over the normalized
//! titles of the `works` table (the core's `title::normalize`), each with
//! its row id, so a search gives row ids and the records are read back
//! from SQLite.
//!
//! It is derived: everything in it comes from `works`, in row-id order. A
//! pass indexes the rows after the last id it committed and commits every
//! [`COMMIT_ROWS`] rows with that row's id as the commit's payload, so a
//! killed pass resumes after its last commit and a later build indexes
//! only the rows it added. An index whose payload is behind the table's
//! last id is not searched (`Index::open` refuses it).

use crate::store::{ErrorKind, IndexError};
use std::cmp::Reverse;
use std::path::{Path, PathBuf};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST};
use tantivy::{DocId, IndexReader, IndexWriter, ReloadPolicy, Score, Searcher, SegmentReader};
use tantivy::{TantivyDocument, Term};

/// The title index's directory inside an index directory.
pub const TITLES_DIR: &str = "titles";

/// Rows per commit of the title pass.
pub const COMMIT_ROWS: u64 = 200_000;

/// Memory the title pass's writer may use before it writes a segment.
const WRITER_BYTES: usize = 100_000_000;

/// How many words the fallback title search asks for.
const FALLBACK_WORDS: usize = 4;

const NORM: &str = "norm";
const ID: &str = "id";
const WHOLE: &str = "whole";

/// What one title pass did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TitlePass {
    /// The last row id committed before this pass (0: none).
    pub resumed_after: u64,
    /// Rows indexed and committed in this pass.
    pub indexed: u64,
    /// Whether `progress` stopped the pass before the last row.
    pub stopped: bool,
}

fn tantivy_err(path: &Path, e: impl ToString) -> IndexError {
    IndexError {
        kind: ErrorKind::Store,
        file: path.to_path_buf(),
        at: None,
        message: e.to_string().to_lowercase(),
    }
}

/// The error of an index whose title pass did not finish.
pub fn unfinished(path: &Path) -> IndexError {
    IndexError {
        kind: ErrorKind::Unfinished,
        file: path.to_path_buf(),
        at: None,
        message: "the title index is not finished: run `citegate index build` again".into(),
    }
}

/// The schema: the normalized title, split on its spaces (the normalized
/// form is lowercase alphanumeric words joined by single spaces, so the
/// whitespace tokenizer's terms are exactly `norm.split(' ')`, and a query
/// word is looked up as it is) with each word's count in the title, the
/// whole normalized title as one term, and the row id as a fast field.
///
/// The whole title is there because BM25 alone does not bring an exact
/// title into the first candidates: where thousands of titles hold its
/// words (`Learning learning learning optimization` in the venue batch,
/// whose generated titles share a few hundred words), the exact one tied
/// with them and fell out of the twenty.
fn schema() -> Schema {
    let mut sb = Schema::builder();
    let words = TextFieldIndexing::default()
        .set_tokenizer("whitespace")
        .set_index_option(IndexRecordOption::WithFreqs);
    sb.add_text_field(NORM, TextOptions::default().set_indexing_options(words));
    let whole = TextFieldIndexing::default()
        .set_tokenizer("raw")
        .set_index_option(IndexRecordOption::Basic);
    sb.add_text_field(WHOLE, TextOptions::default().set_indexing_options(whole));
    sb.add_u64_field(ID, FAST);
    sb.build()
}

/// The norm, whole-title and id fields of `index`.
fn fields(index: &tantivy::Index, path: &Path) -> Result<(Field, Field, Field), IndexError> {
    let s = index.schema();
    let field = |name: &str| s.get_field(name).map_err(|e| tantivy_err(path, e));
    Ok((field(NORM)?, field(WHOLE)?, field(ID)?))
}

/// The last row id the title index at `path` committed (0: none).
fn committed(index: &tantivy::Index, path: &Path) -> Result<u64, IndexError> {
    let metas = index.load_metas().map_err(|e| tantivy_err(path, e))?;
    match metas.payload.as_deref() {
        None => Ok(0),
        Some(p) => p.trim().parse().map_err(|_| {
            tantivy_err(
                path,
                format!("the title index's commit says `{p}`, not a row id"),
            )
        }),
    }
}

/// Opens the title index under `dir`, creating an empty one if there is none.
fn open_or_create(dir: &Path) -> Result<(tantivy::Index, PathBuf), IndexError> {
    let path = dir.join(TITLES_DIR);
    let index = if path.join("meta.json").is_file() {
        tantivy::Index::open_in_dir(&path)
    } else {
        std::fs::create_dir_all(&path).map_err(|e| IndexError {
            kind: ErrorKind::Io,
            file: path.clone(),
            at: None,
            message: e.to_string().to_lowercase(),
        })?;
        tantivy::Index::create_in_dir(&path, schema())
    }
    .map_err(|e| tantivy_err(&path, e))?;
    Ok((index, path))
}

/// Makes sure `dir` has a title index (an empty one for a new index).
pub fn ensure(dir: &Path) -> Result<(), IndexError> {
    open_or_create(dir).map(|_| ())
}

/// The title index open for the title pass: the store adds rows after
/// [`TitleWriter::committed`] in ascending id order and commits.
pub struct TitleWriter {
    writer: IndexWriter,
    norm: Field,
    whole: Field,
    id: Field,
    path: PathBuf,
    committed: u64,
}

impl TitleWriter {
    /// Opens (or creates) the title index under `dir` for writing.
    pub fn open(dir: &Path) -> Result<TitleWriter, IndexError> {
        let (index, path) = open_or_create(dir)?;
        let (norm, whole, id) = fields(&index, &path)?;
        let committed = committed(&index, &path)?;
        let writer = index
            .writer_with_num_threads(1, WRITER_BYTES)
            .map_err(|e| tantivy_err(&path, e))?;
        Ok(TitleWriter {
            writer,
            norm,
            whole,
            id,
            path,
            committed,
        })
    }

    /// The last row id committed (0: none).
    pub fn committed(&self) -> u64 {
        self.committed
    }

    /// Adds row `id` with its normalized title (not searchable until committed).
    pub fn add(&mut self, id: u64, norm: &str) -> Result<(), IndexError> {
        let mut d = TantivyDocument::default();
        d.add_text(self.norm, norm);
        d.add_text(self.whole, norm);
        d.add_u64(self.id, id);
        self.writer
            .add_document(d)
            .map(|_| ())
            .map_err(|e| tantivy_err(&self.path, e))
    }

    /// Commits what was added, `last` (the last row id added) as the payload.
    pub fn commit(&mut self, last: u64) -> Result<(), IndexError> {
        let mut c = self
            .writer
            .prepare_commit()
            .map_err(|e| tantivy_err(&self.path, e))?;
        c.set_payload(&last.to_string());
        c.commit().map_err(|e| tantivy_err(&self.path, e))?;
        self.committed = last;
        Ok(())
    }

    /// Waits for the writer's merges to end (what was not committed is dropped).
    pub fn finish(self) -> Result<(), IndexError> {
        self.writer
            .wait_merging_threads()
            .map_err(|e| tantivy_err(&self.path, e))
    }
}

/// Merges the title index's segments into one (faster searches).
pub fn merge(dir: &Path) -> Result<(), IndexError> {
    let (index, path) = open_or_create(dir)?;
    let ids = index
        .searchable_segment_ids()
        .map_err(|e| tantivy_err(&path, e))?;
    if ids.len() < 2 {
        return Ok(());
    }
    let mut writer: IndexWriter = index
        .writer_with_num_threads(1, WRITER_BYTES)
        .map_err(|e| tantivy_err(&path, e))?;
    writer
        .merge(&ids)
        .wait()
        .map_err(|e| tantivy_err(&path, e))?;
    writer
        .wait_merging_threads()
        .map_err(|e| tantivy_err(&path, e))
}

/// A title index open for searching.
pub struct Titles {
    searcher: Searcher,
    norm: Field,
    whole: Field,
    path: PathBuf,
    // Kept so the searcher's segments stay open.
    _reader: IndexReader,
}

impl Titles {
    /// Opens the title index under `dir` for searching, refused when it is
    /// missing or its last committed row id is before `last_row`.
    pub fn open(dir: &Path, last_row: u64) -> Result<Titles, IndexError> {
        let path = dir.join(TITLES_DIR);
        if !path.join("meta.json").is_file() {
            return Err(unfinished(&path));
        }
        let index = tantivy::Index::open_in_dir(&path).map_err(|e| tantivy_err(&path, e))?;
        if committed(&index, &path)? < last_row {
            return Err(unfinished(&path));
        }
        let (norm, whole, _) = fields(&index, &path)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| tantivy_err(&path, e))?;
        Ok(Titles {
            searcher: reader.searcher(),
            norm,
            whole,
            path,
            _reader: reader,
        })
    }

    fn term(&self, word: &str) -> Term {
        Term::from_field_text(self.norm, word)
    }

    fn all_of(&self, words: &[String]) -> Box<dyn Query> {
        Box::new(BooleanQuery::new(
            words
                .iter()
                .map(|w| {
                    let q: Box<dyn Query> =
                        Box::new(TermQuery::new(self.term(w), IndexRecordOption::WithFreqs));
                    (Occur::Must, q)
                })
                .collect(),
        ))
    }

    /// The row ids of at most `limit` titles holding every word of `norm`
    /// (a normalized title), else the fallback's ([`fallback_match`]),
    /// best BM25 score first (ties: the lower row id, so the answer does
    /// not depend on how the index is split in segments).
    pub fn candidates(&self, norm: &str, limit: usize) -> Result<Vec<u64>, IndexError> {
        let mut words: Vec<String> = norm
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        words.sort();
        words.dedup();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        // The titles equal to it first, then the best of those holding its words.
        let whole = TermQuery::new(
            Term::from_field_text(self.whole, norm),
            IndexRecordOption::Basic,
        );
        let mut found = self.top(&whole, limit)?;
        for id in self.top(&*self.all_of(&words), limit)? {
            if !found.contains(&id) {
                found.push(id);
            }
        }
        found.truncate(limit.max(1));
        if !found.is_empty() || words.len() < 2 {
            return Ok(found);
        }
        let alternatives = self.fallback(norm)?;
        if alternatives.is_empty() {
            return Ok(Vec::new());
        }
        let any = BooleanQuery::new(
            alternatives
                .iter()
                .map(|all| (Occur::Should, self.all_of(all)))
                .collect(),
        );
        self.top(&any, limit)
    }

    fn top(&self, query: &dyn Query, limit: usize) -> Result<Vec<u64>, IndexError> {
        let collector = TopDocs::with_limit(limit).tweak_score(|segment: &SegmentReader| {
            let ids = segment
                .fast_fields()
                .u64(ID)
                .ok()
                .map(|c| c.first_or_default_col(0));
            move |doc: DocId, score: Score| {
                (score, Reverse(ids.as_ref().map_or(0, |c| c.get_val(doc))))
            }
        });
        let top = self
            .searcher
            .search(query, &collector)
            .map_err(|e| tantivy_err(&self.path, e))?;
        Ok(top.into_iter().map(|((_, Reverse(id)), _)| id).collect())
    }

    /// The fallback's alternatives for `norm`: its content words with how
    /// many titles hold each (Tantivy's document frequency), through
    /// [`fallback_match`].
    pub fn fallback(&self, norm: &str) -> Result<Vec<Vec<String>>, IndexError> {
        let words = citegate_core::search::probe::content_terms(norm);
        let counted = words
            .into_iter()
            .map(|w| {
                self.searcher
                    .doc_freq(&self.term(&w))
                    .map(|n| (w, n))
                    .map_err(|e| tantivy_err(&self.path, e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(fallback_match(counted))
    }
}

/// The fallback of a title search when no record holds every word of the
/// normalized title, from its words with how many titles hold each: the
/// [`FALLBACK_WORDS`] rarest held ones (a word no title holds cannot
/// match), any two together when three or more are left, else any one.
/// Each alternative is a set of words a title must all hold.
///
/// A record above the title threshold shares most of the title, so it holds
/// at least two of its rarest words even with one of them misspelt or
/// dropped. Asking for any one word instead made the full-text index rank
/// every record holding one common word: 125 ms a title on 380,000
/// generated works under SQLite FTS5 (a vocabulary of a few hundred words,
/// so every word is common), against 15 ms for pairs, and 170 ms for the
/// four longest words (`BENCHMARKS.md`, batch).
pub fn fallback_match(mut words: Vec<(String, u64)>) -> Vec<Vec<String>> {
    words.retain(|(_, n)| *n > 0);
    words.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    words.dedup_by(|a, b| a.0 == b.0);
    words.truncate(FALLBACK_WORDS);
    let words: Vec<String> = words.into_iter().map(|(w, _)| w).collect();
    if words.len() < 3 {
        return words.into_iter().map(|w| vec![w]).collect();
    }
    let mut pairs = Vec::new();
    for (i, a) in words.iter().enumerate() {
        for b in &words[i + 1..] {
            pairs.push(vec![a.clone(), b.clone()]);
        }
    }
    pairs
}

#[cfg(test)]
mod fallback_tests {
    use super::fallback_match;

    /// The alternatives written as a query (`("a" AND "b") OR "c"`).
    pub(crate) fn render(alternatives: &[Vec<String>]) -> String {
        let quoted = |all: &Vec<String>| {
            let words: Vec<String> = all.iter().map(|w| format!("\"{w}\"")).collect();
            if words.len() > 1 {
                format!("({})", words.join(" AND "))
            } else {
                words.join("")
            }
        };
        alternatives
            .iter()
            .map(quoted)
            .collect::<Vec<_>>()
            .join(" OR ")
    }

    fn check(words: &[(&str, u64)], expected: &str) {
        let words = words.iter().map(|(w, n)| (w.to_string(), *n)).collect();
        assert_eq!(render(&fallback_match(words)), expected);
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
