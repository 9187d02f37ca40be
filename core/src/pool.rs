//! `citation_pool.json`: the verified papers, their dedup and their validation.
//!
//! The pool is written by several tools (the verification step, dedup, the
//! BibTeX writer, the cross-index check, people editing it by hand), so the
//! model is deliberately open: every field we decide on is typed, and every
//! other field — on the pool and on each paper — is kept in an `extra` map
//! that is written back unchanged. A pool read and written by citegate loses
//! nothing. Validation (`validate-pool`) is the one place that looks at the
//! raw JSON instead of the typed model, because its job is to describe and
//! repair shapes the typed model would refuse, such as authors given as bare
//! strings.

use crate::error::{Error, ErrorKind, Location, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

/// One author of a paper, as Semantic Scholar gives it: `{"name": …}`.
///
/// A bare string is read as `{"name": string}`, so a pool written with
/// string authors still loads; `validate-pool --fix` rewrites the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "PoolAuthor"))]
pub struct Author {
    /// The author's name as one string, e.g. `Ashish Vaswani` or `Vaswani, Ashish`.
    #[serde(default)]
    pub name: String,
    /// Any other field (e.g. `authorId`), kept as it was.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<'de> Deserialize<'de> for Author {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(name) => Ok(Author {
                name,
                extra: Map::new(),
            }),
            Value::Object(mut map) => {
                let name = match map.shift_remove("name") {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s,
                    Some(_) => {
                        return Err(serde::de::Error::custom("author `name` must be a string"))
                    }
                };
                Ok(Author { name, extra: map })
            }
            _ => Err(serde::de::Error::custom(
                "an author must be an object with `name` or a string",
            )),
        }
    }
}

impl Author {
    /// An author with only a name.
    pub fn named(name: impl Into<String>) -> Self {
        Author {
            name: name.into(),
            extra: Map::new(),
        }
    }
}

/// Reads a year given as an integer or as a string of digits.
fn de_year<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<i32>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .and_then(|y| i32::try_from(y).ok())
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom("`year` must be an integer")),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse::<i32>()
            .map(Some)
            .map_err(|_| serde::de::Error::custom("`year` must be an integer")),
        Some(_) => Err(serde::de::Error::custom("`year` must be an integer")),
    }
}

/// One paper of the pool: a Semantic Scholar record plus what the pipeline adds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PoolPaper {
    /// Semantic Scholar's paper id (the first dedup key).
    #[serde(rename = "paperId", default, skip_serializing_if = "Option::is_none")]
    pub paper_id: Option<String>,
    /// The title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The abstract (Rule 2: an accepted paper must have one).
    #[serde(rename = "abstract", default, skip_serializing_if = "Option::is_none")]
    pub abstract_text: Option<String>,
    /// The publication year.
    #[serde(
        default,
        deserialize_with = "de_year",
        skip_serializing_if = "Option::is_none"
    )]
    pub year: Option<i32>,
    /// The publication date, `YYYY-MM-DD` when Semantic Scholar knows it.
    #[serde(
        rename = "publicationDate",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub publication_date: Option<String>,
    /// The venue's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    /// The authors, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authors: Option<Vec<Author>>,
    /// External ids: `DOI`, `ArXiv`, `DBLP`, `CorpusId`, …
    #[serde(
        rename = "externalIds",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub external_ids: Option<Map<String, Value>>,
    /// The verification score (title score, +5 for a matching year).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_score: Option<Number>,
    /// The outline tags of the queries that found this paper.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discovered_for: Option<Vec<String>>,
    /// The key the writing agent used, when it differs from `bibtex_key`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The key of this paper's entry in `refs.bib`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bibtex_key: Option<String>,
    /// The cross-index confidence tier and its details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_verification: Option<Value>,
    /// Every other field, kept as it was.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl PoolPaper {
    /// An external id as a string (numbers such as `CorpusId` are formatted).
    pub fn external_id(&self, name: &str) -> Option<String> {
        match self.external_ids.as_ref()?.get(name)? {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// The match score as a number (absent counts as 0, as in the reference).
    pub fn score(&self) -> f64 {
        self.match_score
            .as_ref()
            .and_then(Number::as_f64)
            .unwrap_or(0.0)
    }
}

/// The whole `citation_pool.json`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Pool {
    /// The papers, in order.
    #[serde(default)]
    pub papers: Vec<PoolPaper>,
    /// `floor(0.9 · n)`: how many papers the writing step must cite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_cite_paper_count: Option<u64>,
    /// The number of papers after dedup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_total: Option<u64>,
    /// How many duplicates dedup merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_collisions_merged: Option<u64>,
    /// The research cutoff, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff_date: Option<String>,
    /// Every other top-level field, kept as it was.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The share of the pool a draft must cite, as `(numerator, denominator)`:
/// 90 %. The coverage gate's default threshold is this share.
pub const MIN_CITE_SHARE: (u64, u64) = (90, 100);

/// `floor(num / den · n)`, exactly (integer arithmetic; a zero denominator
/// counts as one): the count a share of `n` papers requires.
pub fn share_floor((num, den): (u64, u64), n: usize) -> usize {
    let prod = u128::from(num) * n as u128;
    let q = prod / u128::from(den.max(1));
    usize::try_from(q).unwrap_or(usize::MAX)
}

/// `floor(0.9 · n)` in integer arithmetic: the ≥ 90 % citation rule
/// ([`MIN_CITE_SHARE`]), as the coverage gate's default threshold counts it.
///
/// ```
/// assert_eq!(citegate_core::pool::min_cite_count(22), 19);
/// assert_eq!(citegate_core::pool::min_cite_count(10), 9);
/// ```
pub fn min_cite_count(n: usize) -> u64 {
    u64::try_from(share_floor(MIN_CITE_SHARE, n)).unwrap_or(u64::MAX)
}

fn shape(msg: impl Into<String>, loc: Location) -> Error {
    Error::new(ErrorKind::Shape, msg).at(loc)
}

/// Turns a `serde_json` error on one paper into an error naming the paper
/// and, where serde says it, the field.
fn paper_error(err: &serde_json::Error, list: &str, index: usize, paper: &Value) -> Error {
    let text = err.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => text.get(..i).unwrap_or(&text).to_string(),
        None => text,
    };
    // Find which field is at fault by checking each one alone.
    let mut field = None;
    if let Value::Object(map) = paper {
        for (name, value) in map {
            let mut single = Map::new();
            single.insert(name.clone(), value.clone());
            if serde_json::from_value::<PoolPaper>(Value::Object(single)).is_err() {
                field = Some(format!("{list}[{index}].{name}"));
                break;
            }
        }
    }
    let loc = Location::default().index(index);
    let loc = match field {
        Some(f) => loc.field(f),
        None => loc.field(format!("{list}[{index}]")),
    };
    shape(text, loc)
}

/// Reads one paper from JSON, naming the list and index on error.
pub fn paper_from_value(value: Value, list: &str, index: usize) -> Result<PoolPaper> {
    if !value.is_object() {
        return Err(shape(
            format!("{list}[{index}] must be an object"),
            Location::default()
                .index(index)
                .field(format!("{list}[{index}]")),
        ));
    }
    serde_json::from_value::<PoolPaper>(value.clone())
        .map_err(|e| paper_error(&e, list, index, &value))
}

/// Parses `citation_pool.json`.
///
/// Errors: invalid JSON (with line and column), a top level that is not an
/// object, `papers` that is not a list, or a paper of the wrong shape (with
/// its index and field).
pub fn parse_pool(text: &str) -> Result<Pool> {
    // Read straight into the types: a tree of `Value`s, then a copy of
    // each paper's, was most of the time of a command that reads a pool.
    // What this read refuses (a field given twice, which the tree takes
    // with its last value, and every malformed pool) is read through the
    // tree, which gives every answer and error as it always has.
    if let Ok(pool) = serde_json::from_str::<Pool>(text) {
        return Ok(pool);
    }
    parse_pool_tree(text)
}

/// [`parse_pool`] through a tree of `Value`s: every paper read on its own,
/// so an error names the paper and its field.
fn parse_pool_tree(text: &str) -> Result<Pool> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::json(&e))?;
    let Value::Object(mut map) = value else {
        return Err(shape(
            "citation pool must be a JSON object with a `papers` list",
            Location::default(),
        ));
    };
    let papers = match map.shift_remove("papers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items,
        Some(_) => {
            return Err(shape(
                "`papers` must be a list",
                Location::default().field("papers"),
            ))
        }
    };
    let mut pool: Pool = serde_json::from_value(Value::Object(map)).map_err(|e| {
        let text = e.to_string();
        shape(text, Location::default())
    })?;
    pool.papers = papers
        .into_iter()
        .enumerate()
        .map(|(i, v)| paper_from_value(v, "papers", i))
        .collect::<Result<_>>()?;
    Ok(pool)
}

/// Writes a pool as pretty JSON (two-space indent, Unicode kept), ending in a newline.
pub fn to_json(pool: &Pool) -> String {
    let mut s = serde_json::to_string_pretty(pool).unwrap_or_else(|_| "{}".to_string());
    s.push('\n');
    s
}

/// The DOI in canonical form: trimmed, lowercased, `https://doi.org/`,
/// `http://dx.doi.org/` and `doi:` prefixes removed.
///
/// ```
/// use citegate_core::pool::normalize_doi;
/// assert_eq!(normalize_doi("https://doi.org/10.1000/ABC"), "10.1000/abc");
/// assert_eq!(normalize_doi("DOI:10.1000/abc"), "10.1000/abc");
/// ```
pub fn normalize_doi(doi: &str) -> String {
    crate::ids::strip_doi_prefix(doi).0.to_lowercase()
}

/// An arXiv id with its version suffix (`v2`) removed and lowercased.
///
/// ```
/// use citegate_core::pool::strip_arxiv_version;
/// assert_eq!(strip_arxiv_version("1706.03762v5"), "1706.03762");
/// assert_eq!(strip_arxiv_version("solv-int/9901001v1"), "solv-int/9901001");
/// ```
pub fn strip_arxiv_version(id: &str) -> String {
    let id = id.trim().to_lowercase();
    let id = id.strip_prefix("arxiv:").unwrap_or(&id);
    crate::ids::strip_arxiv_version(id)
}

/// The dedup key of a paper: `s2:<paperId>`, else `doi:<doi>`, else
/// `arxiv:<id>`, else `title:<normalized title without spaces>`.
pub fn dedup_key(paper: &PoolPaper) -> String {
    if let Some(id) = paper.paper_id.as_deref().filter(|s| !s.is_empty()) {
        return format!("s2:{id}");
    }
    if let Some(doi) = paper.external_id("DOI") {
        return format!("doi:{}", normalize_doi(&doi));
    }
    if let Some(arxiv) = paper.external_id("ArXiv") {
        return format!("arxiv:{}", strip_arxiv_version(&arxiv));
    }
    let title: String = crate::title::normalize(paper.title.as_deref().unwrap_or(""))
        .chars()
        .filter(|c| *c != ' ')
        .collect();
    format!("title:{title}")
}

/// Appends `more` to `tags`, skipping tags already present, keeping order.
pub fn merge_tags(tags: &[String], more: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(tags.len() + more.len());
    for t in tags.iter().chain(more) {
        if !out.contains(t) {
            out.push(t.clone());
        }
    }
    out
}

/// One merge made by [`dedupe`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Collision {
    /// The shared key.
    pub key: String,
    /// The title of the paper that collided with an earlier one.
    pub title: String,
}

/// The result of [`dedupe`]: the pool and the merges made.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Deduped {
    /// The deduplicated pool with counts filled in.
    pub pool: Pool,
    /// How many papers came in.
    pub n_in: usize,
    /// Each merge, in input order.
    pub collisions: Vec<Collision>,
}

/// Deduplicates verified papers (Rule 4).
///
/// Papers sharing a [`dedup_key`] collapse into one at the position of the
/// first; the one with the strictly higher `match_score` wins (ties keep the
/// earlier), and the survivor's `discovered_for` is the union of both, in
/// order. `cutoff` is recorded as given.
pub fn dedupe(papers: Vec<PoolPaper>, cutoff: Option<String>) -> Deduped {
    let n_in = papers.len();
    let mut order: Vec<PoolPaper> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut collisions = Vec::new();
    for paper in papers {
        let key = dedup_key(&paper);
        match index.get(&key).copied() {
            Some(at) => {
                let Some(existing) = order.get_mut(at) else {
                    continue;
                };
                let merged = merge_tags(
                    existing.discovered_for.as_deref().unwrap_or(&[]),
                    paper.discovered_for.as_deref().unwrap_or(&[]),
                );
                collisions.push(Collision {
                    key,
                    title: paper.title.clone().unwrap_or_default(),
                });
                if paper.score() > existing.score() {
                    let mut winner = paper;
                    winner.discovered_for = Some(merged);
                    *existing = winner;
                } else {
                    existing.discovered_for = Some(merged);
                }
            }
            None => {
                index.insert(key, order.len());
                order.push(paper);
            }
        }
    }
    let n = order.len();
    let pool = Pool {
        papers: order,
        min_cite_paper_count: Some(min_cite_count(n)),
        n_total: Some(n as u64),
        n_collisions_merged: Some(collisions.len() as u64),
        cutoff_date: cutoff,
        extra: Map::new(),
    };
    Deduped {
        pool,
        n_in,
        collisions,
    }
}

/// Reads the input of `dedupe`: a pool object (`papers`, or `candidates`
/// when `papers` is absent or empty) or a bare list of papers.
pub fn parse_dedupe_input(text: &str) -> Result<Vec<PoolPaper>> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::json(&e))?;
    let (list, items) = match value {
        Value::Array(items) => ("papers", items),
        Value::Object(mut map) => {
            let papers = map.shift_remove("papers");
            let candidates = map.shift_remove("candidates");
            let non_empty = |v: &Option<Value>| match v {
                Some(Value::Array(a)) => !a.is_empty(),
                Some(Value::Null) | None => false,
                Some(_) => true,
            };
            let (name, chosen) = if non_empty(&papers) {
                ("papers", papers)
            } else if non_empty(&candidates) {
                ("candidates", candidates)
            } else {
                ("papers", papers.or(candidates))
            };
            match chosen {
                None | Some(Value::Null) => (name, Vec::new()),
                Some(Value::Array(items)) => (name, items),
                Some(_) => {
                    return Err(shape(
                        format!("`{name}` must be a list"),
                        Location::default().field(name),
                    ))
                }
            }
        }
        _ => {
            return Err(shape(
                "input must be a list of papers or an object with `papers`",
                Location::default(),
            ))
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| paper_from_value(v, list, i))
        .collect()
}

/// How serious a validation finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Blocks the pool (exit 1).
    Error,
    /// Worth a look; does not block.
    Warning,
}

/// What a validation finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueKind {
    /// A top-level field (`papers`, `min_cite_paper_count`) is absent.
    MissingTopField,
    /// The pool has no papers.
    NoPapers,
    /// `authors` is not a list.
    AuthorsNotList,
    /// Authors are bare strings (fixable).
    AuthorsAsStrings,
    /// The first author is neither an object nor a string.
    AuthorNotObject,
    /// `title` or `year` is absent or empty.
    MissingRequired,
    /// `paperId`, `abstract`, `venue` or `authors` is absent or empty.
    MissingRecommended,
    /// A paper is not a JSON object.
    PaperNotObject,
}

/// One validation finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Issue {
    /// Error or warning.
    pub severity: Severity,
    /// What it is about.
    pub kind: IssueKind,
    /// The paper's index, when the finding is about one paper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The paper's title (or `paper #i`), for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The field concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// A sentence for people, lowercase.
    pub message: String,
}

/// The result of [`validate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Validation {
    /// Findings, in the order found.
    pub issues: Vec<Issue>,
    /// How many papers `fix` repaired.
    pub n_fixed: usize,
    /// How many papers the pool has.
    pub n_papers: usize,
}

impl Validation {
    /// The findings that are errors.
    pub fn errors(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.severity == Severity::Error)
    }

    /// The findings that are warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Issue> {
        self.issues
            .iter()
            .filter(|i| i.severity == Severity::Warning)
    }

    /// Whether the pool passes: no error remains (after fixing, when asked).
    pub fn pass(&self) -> bool {
        self.errors().next().is_none()
    }
}

/// Python's truthiness of a JSON value: null, false, 0, "", [] and {} are false.
fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

/// Validates a pool given as raw JSON, repairing string authors when `fix`.
///
/// Required per paper: `title`, `year` (errors). Recommended: `paperId`,
/// `abstract`, `venue`, `authors` (warnings). Top level: `papers` and
/// `min_cite_paper_count` (warnings when absent); no papers is an error.
/// Authors given as strings are an error, or are rewritten to `{name}`
/// objects when `fix` is set. The value is changed only by a fix.
///
/// Errors (`Err`) are for input that is not a pool at all: a top level that
/// is not an object, or `papers` that is not a list.
pub fn validate(pool: &mut Value, fix: bool) -> Result<Validation> {
    let Value::Object(top) = pool else {
        return Err(shape(
            "citation pool must be a JSON object with a `papers` list",
            Location::default(),
        ));
    };
    let mut issues = Vec::new();
    for field in ["papers", "min_cite_paper_count"] {
        if !top.contains_key(field) {
            issues.push(Issue {
                severity: Severity::Warning,
                kind: IssueKind::MissingTopField,
                index: None,
                label: None,
                field: Some(field.to_string()),
                message: format!("top-level field `{field}` is missing (was dedupe run?)"),
            });
        }
    }
    let papers = match top.get_mut("papers") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => Some(a),
        Some(_) => {
            return Err(shape(
                "`papers` must be a list",
                Location::default().field("papers"),
            ))
        }
    };
    let Some(papers) = papers.filter(|p| !p.is_empty()) else {
        issues.push(Issue {
            severity: Severity::Error,
            kind: IssueKind::NoPapers,
            index: None,
            label: None,
            field: Some("papers".into()),
            message: "the pool has no papers".into(),
        });
        return Ok(Validation {
            issues,
            n_fixed: 0,
            n_papers: 0,
        });
    };
    let n_papers = papers.len();
    let mut n_fixed = 0;
    for (i, paper) in papers.iter_mut().enumerate() {
        let Value::Object(p) = paper else {
            issues.push(Issue {
                severity: Severity::Error,
                kind: IssueKind::PaperNotObject,
                index: Some(i),
                label: Some(format!("paper #{i}")),
                field: None,
                message: format!("paper #{i} is a {}, not an object", json_type(paper)),
            });
            continue;
        };
        let label = match p.get("title") {
            Some(Value::String(t)) if !t.is_empty() => t.clone(),
            _ => format!("paper #{i}"),
        };
        let issue = |severity, kind, field: &str, message: String| Issue {
            severity,
            kind,
            index: Some(i),
            label: Some(label.clone()),
            field: Some(field.to_string()),
            message,
        };
        match p.get_mut("authors") {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => match list.first() {
                None | Some(Value::Object(_)) => {}
                Some(Value::String(first)) => {
                    if fix {
                        let fixed: Vec<Value> = list
                            .iter()
                            .map(|a| match a {
                                Value::String(s) => {
                                    let mut m = Map::new();
                                    m.insert("name".into(), Value::String(s.clone()));
                                    Value::Object(m)
                                }
                                other => other.clone(),
                            })
                            .collect();
                        *list = fixed;
                        n_fixed += 1;
                    } else {
                        let msg = format!(
                            "authors are plain strings (e.g. \"{first}\"); run with --fix to convert them"
                        );
                        issues.push(issue(
                            Severity::Error,
                            IssueKind::AuthorsAsStrings,
                            "authors",
                            msg,
                        ));
                    }
                }
                Some(other) => {
                    let msg = format!(
                        "authors[0] is a {}, expected an object with `name`",
                        json_type(other)
                    );
                    issues.push(issue(
                        Severity::Error,
                        IssueKind::AuthorNotObject,
                        "authors",
                        msg,
                    ));
                }
            },
            Some(other) => {
                let msg = format!("`authors` must be a list, got a {}", json_type(other));
                issues.push(issue(
                    Severity::Error,
                    IssueKind::AuthorsNotList,
                    "authors",
                    msg,
                ));
            }
        }
        for field in ["title", "year"] {
            if !truthy(p.get(field)) {
                issues.push(issue(
                    Severity::Error,
                    IssueKind::MissingRequired,
                    field,
                    format!("required field `{field}` is missing"),
                ));
            }
        }
        for field in ["paperId", "abstract", "venue", "authors"] {
            if !truthy(p.get(field)) {
                issues.push(issue(
                    Severity::Warning,
                    IssueKind::MissingRecommended,
                    field,
                    format!("recommended field `{field}` is missing"),
                ));
            }
        }
    }
    Ok(Validation {
        issues,
        n_fixed,
        n_papers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The typed read of `parse_pool` gives what the tree read gives, on
    /// pools it takes (extra fields, nulls, numbers, escapes, a year as
    /// text) and on pools it leaves to the tree (a field given twice, bad
    /// shapes, invalid JSON), answers and errors alike; the first pools are
    /// taken by the typed read, so its path is the one compared.
    #[test]
    fn typed_read_agrees_with_tree_read() {
        let typed = [
            r#"{"papers": [{"paperId": "p1", "title": "A", "year": 2004, "abstract": "a", "bibtex_key": "key0", "discovered_for": ["sec0"]}]}"#,
            r#"{"papers": [{"title": "A\u00e9\ud83d\ude00", "bibtex_key": " k ", "discovered_for": null, "match_score": 12.50, "externalIds": {"DOI": "10/x", "CorpusId": 123}}], "cutoff_date": "2024-10-01", "n_total": 3}"#,
            r#"{"papers": [{"title": "A", "year": " 2020 ", "x": [1.5, -0, 18446744073709551616, {"b": 1, "a": 2, "b": 3}], "y": null, "x2": 1}], "topic": {"z": 1, "z": 2}}"#,
            r#"{"papers": [], "min_cite_paper_count": 0}"#,
            r#"{"ti\u0074le": "t", "papers": [{"ti\u0074le": "t", "authors": [{"name": "X"}], "cross_verification": {"tier": 1}}]}"#,
            "{}",
        ];
        for text in typed {
            assert!(serde_json::from_str::<Pool>(text).is_ok(), "{text}");
            assert_eq!(parse_pool(text), parse_pool_tree(text), "{text}");
        }
        let left_to_the_tree = [
            r#"{"papers": [{"title": "A", "title": "B", "bibtex_key": "k"}]}"#,
            r#"{"papers": [{"title": "A"}], "papers": []}"#,
            r#"{"papers": null}"#,
            r#"{"papers": [1]}"#,
            r#"{"papers": {"a": 1}}"#,
            r#"{"papers": [{"year": {"a": 1}}]}"#,
            r#"{"papers": [{"year": 2020.5}]}"#,
            r#"{"papers": [{"title": 5}]}"#,
            r#"{"papers": [{"x": 1e400}]}"#,
            r#"{"papers": [{"title": "A"}]} x"#,
            r#"{"papers": [{"title": "A"}"#,
            "[1, 2]",
            "",
        ];
        for text in left_to_the_tree {
            assert!(serde_json::from_str::<Pool>(text).is_err(), "{text}");
            assert_eq!(parse_pool(text), parse_pool_tree(text), "{text}");
        }
    }

    fn paper(v: Value) -> PoolPaper {
        serde_json::from_value(v).unwrap()
    }

    fn check_key(v: Value, expected: &str) {
        assert_eq!(dedup_key(&paper(v.clone())), expected, "{v}");
    }

    #[test]
    fn key_precedence() {
        check_key(
            json!({"paperId": "abc", "externalIds": {"DOI": "10.1/X"}}),
            "s2:abc",
        );
        check_key(json!({"externalIds": {"DOI": "10.1/X"}}), "doi:10.1/x");
        check_key(
            json!({"externalIds": {"DOI": "https://doi.org/10.1/X"}}),
            "doi:10.1/x",
        );
        check_key(json!({"externalIds": {"DOI": "doi:10.1/X"}}), "doi:10.1/x");
        check_key(
            json!({"paperId": "", "externalIds": {"ArXiv": "1706.03762v5"}}),
            "arxiv:1706.03762",
        );
        check_key(
            json!({"externalIds": {"ArXiv": "solv-int/9901001v1"}}),
            "arxiv:solv-int/9901001",
        );
        check_key(
            json!({"title": "Attention Is All You Need!"}),
            "title:attentionisallyouneed",
        );
        check_key(json!({"title": "Müller's Law"}), "title:mullerslaw");
        check_key(json!({}), "title:");
    }

    #[test]
    fn min_cite_is_exact_floor() {
        for (n, want) in [
            (0, 0),
            (1, 0),
            (9, 8),
            (10, 9),
            (11, 9),
            (22, 19),
            (100, 90),
        ] {
            assert_eq!(min_cite_count(n), want, "n={n}");
        }
    }

    #[test]
    fn dedupe_keeps_higher_score_and_merges_tags_in_order() {
        let papers = vec![
            paper(
                json!({"paperId": "p", "title": "A", "match_score": 80, "discovered_for": ["intro"]}),
            ),
            paper(json!({"paperId": "q", "title": "B"})),
            paper(
                json!({"paperId": "p", "title": "A2", "match_score": 95, "discovered_for": ["related_work[2.1]", "intro"]}),
            ),
            paper(
                json!({"paperId": "p", "title": "A3", "match_score": 95, "discovered_for": ["x"]}),
            ),
        ];
        let d = dedupe(papers, Some("2024-10-01".into()));
        assert_eq!(d.pool.papers.len(), 2);
        let first = &d.pool.papers[0];
        assert_eq!(first.title.as_deref(), Some("A2"));
        assert_eq!(
            first.discovered_for.as_deref().unwrap(),
            ["intro", "related_work[2.1]", "x"]
        );
        assert_eq!(d.pool.n_collisions_merged, Some(2));
        assert_eq!(d.pool.min_cite_paper_count, Some(1));
        assert_eq!(d.pool.cutoff_date.as_deref(), Some("2024-10-01"));
    }

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let text = r#"{"papers":[{"paperId":"x","title":"T","year":2017,"tldr":{"text":"t"},"authors":[{"name":"A","authorId":"1"}]}],"note":"keep","min_cite_paper_count":0}"#;
        let pool = parse_pool(text).unwrap();
        let back: Value = serde_json::from_str(&to_json(&pool)).unwrap();
        let orig: Value = serde_json::from_str(text).unwrap();
        assert_eq!(back, orig);
    }

    fn check_parse_err(text: &str, kind: ErrorKind, index: Option<usize>, field: Option<&str>) {
        let e = parse_pool(text).unwrap_err();
        assert_eq!(e.kind, kind, "{text}: {e}");
        assert_eq!(e.location.index, index, "{text}: {e}");
        assert_eq!(e.location.field.as_deref(), field, "{text}: {e}");
    }

    #[test]
    fn malformed_pools_give_located_errors() {
        check_parse_err("{\"papers\": [", ErrorKind::Json, None, None);
        check_parse_err("[]", ErrorKind::Shape, None, None);
        check_parse_err("{\"papers\": 3}", ErrorKind::Shape, None, Some("papers"));
        check_parse_err(
            "{\"papers\": [{}, 3]}",
            ErrorKind::Shape,
            Some(1),
            Some("papers[1]"),
        );
        check_parse_err(
            "{\"papers\": [{\"title\": \"a\"}, {\"title\": 5}]}",
            ErrorKind::Shape,
            Some(1),
            Some("papers[1].title"),
        );
        check_parse_err(
            "{\"papers\": [{\"year\": \"20x4\"}]}",
            ErrorKind::Shape,
            Some(0),
            Some("papers[0].year"),
        );
        check_parse_err(
            "{\"papers\": [{\"authors\": [3]}]}",
            ErrorKind::Shape,
            Some(0),
            Some("papers[0].authors"),
        );
        let e = parse_pool("{\n \"papers\": [,]\n}").unwrap_err();
        assert_eq!(e.location.line, Some(2));
    }

    fn check_validate(v: Value, fix: bool, errors: usize, warnings: usize, n_fixed: usize) {
        let mut v = v;
        let r = validate(&mut v, fix).unwrap();
        assert_eq!(
            (r.errors().count(), r.warnings().count(), r.n_fixed),
            (errors, warnings, n_fixed),
            "{:#?}",
            r.issues
        );
    }

    #[test]
    fn validates_like_the_reference() {
        let good = json!({"papers": [{"paperId": "p", "title": "T", "year": 2017, "abstract": "a", "venue": "v", "authors": [{"name": "A"}]}], "min_cite_paper_count": 0});
        check_validate(good, false, 0, 0, 0);
        let strings = json!({"papers": [{"paperId": "p", "title": "T", "year": 2017, "abstract": "a", "venue": "v", "authors": ["A B"]}], "min_cite_paper_count": 0});
        check_validate(strings.clone(), false, 1, 0, 0);
        check_validate(strings, true, 0, 0, 1);
        check_validate(json!({"papers": []}), false, 1, 1, 0);
        check_validate(
            json!({"papers": [{"title": "", "year": 0}]}),
            false,
            2,
            5,
            0,
        );
        check_validate(
            json!({"papers": [{"title": "T", "year": 1, "authors": "A"}], "min_cite_paper_count": 1}),
            true,
            1,
            3,
            0,
        );
        check_validate(
            json!({"papers": [{"title": "T", "year": 1, "authors": [1]}], "min_cite_paper_count": 1}),
            false,
            1,
            3,
            0,
        );
        check_validate(json!({"papers": [7]}), false, 1, 1, 0);
    }

    #[test]
    fn fix_rewrites_string_authors_only() {
        let mut v = json!({"papers": [{"title": "T", "year": 1, "authors": ["A", "B"]}]});
        validate(&mut v, true).unwrap();
        assert_eq!(
            v["papers"][0]["authors"],
            json!([{"name": "A"}, {"name": "B"}])
        );
        let mut v = json!({"papers": [{"title": "T", "year": 1, "authors": ["A"]}]});
        validate(&mut v, false).unwrap();
        assert_eq!(v["papers"][0]["authors"], json!(["A"]));
    }
}
