//! The verification decision: one candidate, one Semantic Scholar answer.
//!
//! Verification is split so that the only impure step — the request — stays
//! outside the core. The browser (or the CLI, replaying recorded bodies)
//! fetches either a `/paper/search` response for the candidate's title or
//! the record the batch endpoint returned for its DOI/arXiv id, and hands
//! the body here with the cutoff. What comes back is a pool paper or a
//! rejection that carries its evidence (the score and threshold, the date
//! and cutoff), so a person can see why. An API error body — bad request,
//! forbidden, not found, rate limited — is *not* a rejection: it says
//! nothing about the paper, so it is returned as a typed error and the
//! caller decides whether to retry. Among several hits we take the best
//! title score rather than blindly the first, unless the caller asks for
//! the paper's behaviour (`paper_faithful`: the top hit only).

pub mod run;

use crate::candidates::Candidate;
use crate::cutoff::{Date, PaperDate};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::pool::PoolPaper;
use crate::title;
use serde::Serialize;
use serde_json::Value;

/// How a decision is made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyOptions {
    /// The research cutoff: a paper must be dated strictly before it.
    pub cutoff: Date,
    /// A title score must be strictly greater than this (70).
    pub threshold: i64,
    /// Lets a short candidate (< 4 words) contained in the found title pass.
    pub substring_bypass: bool,
    /// Take the top hit only, as the paper does, instead of the best-scoring one.
    pub paper_faithful: bool,
}

impl VerifyOptions {
    /// The defaults for a cutoff: threshold 70, substring bypass on, best hit.
    pub fn new(cutoff: Date) -> Self {
        VerifyOptions {
            cutoff,
            threshold: title::DEFAULT_THRESHOLD,
            substring_bypass: true,
            paper_faithful: false,
        }
    }
}

/// Which failure a Semantic Scholar error body reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ApiFailure {
    /// 400: the request was malformed (e.g. an unknown field).
    BadRequest,
    /// 403: the API key was refused.
    Forbidden,
    /// 404: the id is unknown.
    NotFound,
    /// 429: too many requests; wait and retry.
    RateLimited,
    /// 5xx: the service is down.
    Server,
    /// Any other error body.
    Other,
}

/// A Semantic Scholar error body, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiError {
    /// The HTTP status, when known (given by the caller or read from `code`).
    pub status: Option<u16>,
    /// What failed.
    pub failure: ApiFailure,
    /// The body's own message.
    pub message: String,
}

impl ApiError {
    /// This failure as a core error of kind [`ErrorKind::Api`].
    pub fn to_error(&self) -> Error {
        let status = self
            .status
            .map(|s| format!("http {s}"))
            .unwrap_or_else(|| "error".to_string());
        Error::new(
            ErrorKind::Api,
            format!("semantic scholar {status}: {}", self.message.to_lowercase()),
        )
    }
}

fn failure_of(status: Option<u16>, message: &str) -> ApiFailure {
    match status {
        Some(400) => ApiFailure::BadRequest,
        Some(403) => ApiFailure::Forbidden,
        Some(404) => ApiFailure::NotFound,
        Some(429) => ApiFailure::RateLimited,
        Some(s) if (500..600).contains(&s) => ApiFailure::Server,
        Some(_) => ApiFailure::Other,
        None => {
            let m = message.to_lowercase();
            if m.contains("too many requests") {
                ApiFailure::RateLimited
            } else if m.contains("forbidden") {
                ApiFailure::Forbidden
            } else if m.contains("not found") {
                ApiFailure::NotFound
            } else if m.contains("unrecognized")
                || m.contains("unsupported")
                || m.contains("bad request")
            {
                ApiFailure::BadRequest
            } else {
                ApiFailure::Other
            }
        }
    }
}

/// A Semantic Scholar body, read.
#[derive(Debug, Clone, PartialEq)]
pub enum S2Body {
    /// `/paper/search`: the hits, in the API's order.
    Search(Vec<PoolPaper>),
    /// `/paper/batch`: one record per requested id, `None` when not found.
    Batch(Vec<Option<PoolPaper>>),
    /// `/paper/{id}`: one record.
    Paper(Box<PoolPaper>),
    /// An error body.
    Error(ApiError),
}

/// Reads a Semantic Scholar response body. `status` is the HTTP status when
/// the caller knows it; any status ≥ 400 makes the body an error, and so
/// does 0 (no response read; the body then describes the failure).
///
/// Errors: the body is not JSON, or a record has the wrong shape (with the
/// hit's index and field).
pub fn read_s2_body(body: &str, status: Option<u16>) -> Result<S2Body> {
    // Status 0: no response was read; the body is the caller's description.
    let failed = |s: u16| s >= 400 || s == 0;
    let value: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => {
            if status.is_some_and(failed) {
                return Ok(S2Body::Error(ApiError {
                    status,
                    failure: failure_of(status, body),
                    message: body.trim().to_string(),
                }));
            }
            return Err(Error::json(&e));
        }
    };
    let error_message = |v: &Value| -> Option<String> {
        let m = v.as_object()?;
        if m.contains_key("data") || m.contains_key("paperId") {
            return None;
        }
        m.get("error")
            .or_else(|| m.get("message"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    if let Some(message) = error_message(&value) {
        let code = value.get("code").and_then(|c| match c {
            Value::String(s) => s.parse::<u16>().ok(),
            Value::Number(n) => n.as_u64().and_then(|n| u16::try_from(n).ok()),
            _ => None,
        });
        let status = status.or(code);
        return Ok(S2Body::Error(ApiError {
            status,
            failure: failure_of(status, &message),
            message,
        }));
    }
    if let Some(s) = status.filter(|s| failed(*s)) {
        return Ok(S2Body::Error(ApiError {
            status: Some(s),
            failure: failure_of(Some(s), ""),
            message: String::new(),
        }));
    }
    match value {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Null => Ok(None),
                v => crate::pool::paper_from_value(v, "batch", i).map(Some),
            })
            .collect::<Result<_>>()
            .map(S2Body::Batch),
        Value::Object(mut map) => {
            if map.contains_key("paperId") || map.contains_key("title") {
                return crate::pool::paper_from_value(Value::Object(map), "paper", 0)
                    .map(|p| S2Body::Paper(Box::new(p)));
            }
            match map.shift_remove("data") {
                None | Some(Value::Null) => Ok(S2Body::Search(Vec::new())),
                Some(Value::Array(items)) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| crate::pool::paper_from_value(v, "data", i))
                    .collect::<Result<_>>()
                    .map(S2Body::Search),
                Some(_) => Err(Error::new(ErrorKind::Shape, "`data` must be a list")
                    .at(Location::default().field("data"))),
            }
        }
        _ => Err(Error::new(
            ErrorKind::Shape,
            "expected a semantic scholar search, batch or paper body",
        )),
    }
}

/// Where the date used for the cutoff came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DateSource {
    /// `publicationDate`.
    PublicationDate,
    /// `year` (read as 31 December).
    Year,
}

/// Why a candidate was not accepted, with the figures behind it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Rejection {
    /// The answer had no hit.
    NoHit,
    /// The chosen hit's title score is not above the threshold.
    LowScore {
        /// The chosen hit's title.
        found_title: String,
        /// Its score.
        score: i64,
        /// The threshold (the score must be strictly greater).
        threshold: i64,
    },
    /// The chosen hit has no abstract (null, empty or `N/A`).
    NoAbstract {
        /// The hit's paper id.
        paper_id: Option<String>,
        /// The hit's title.
        found_title: String,
    },
    /// The chosen hit has neither a usable `publicationDate` nor a `year`.
    NoDate {
        /// The hit's paper id.
        paper_id: Option<String>,
        /// The hit's title.
        found_title: String,
    },
    /// The chosen hit is not strictly before the cutoff.
    AfterCutoff {
        /// The hit's title.
        found_title: String,
        /// The day the paper's date stands for.
        paper_date: Date,
        /// Where that date came from.
        date_source: DateSource,
        /// The cutoff.
        cutoff: Date,
    },
}

impl Rejection {
    /// The rejection in two or three words, for a table's decision column
    /// (`Rejection::NoHit.label()` is "not found").
    pub fn label(&self) -> &'static str {
        match self {
            Rejection::NoHit => "not found",
            Rejection::LowScore { .. } => "title differs",
            Rejection::NoAbstract { .. } => "no abstract",
            Rejection::NoDate { .. } => "no date",
            Rejection::AfterCutoff { .. } => "after the cutoff",
        }
    }

    /// The machine code of the rejection (`no_hit`, `low_score`,
    /// `no_abstract`, `no_date`, `after_cutoff`), as serialized.
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::NoHit => "no_hit",
            Rejection::LowScore { .. } => "low_score",
            Rejection::NoAbstract { .. } => "no_abstract",
            Rejection::NoDate { .. } => "no_date",
            Rejection::AfterCutoff { .. } => "after_cutoff",
        }
    }

    /// The rejection in the researcher's words, with its figures (no
    /// codes): what the reports and pages show.
    ///
    /// ```
    /// use citegate_core::verify::Rejection;
    /// let r = Rejection::LowScore { found_title: "A".into(), score: 62, threshold: 70 };
    /// assert_eq!(r.describe(), "closest title `A` matches 62/100, not above 70");
    /// assert_eq!(Rejection::NoHit.describe(), "semantic scholar found no paper with this title");
    /// ```
    pub fn describe(&self) -> String {
        match self {
            Rejection::NoHit => "semantic scholar found no paper with this title".to_string(),
            Rejection::LowScore {
                found_title,
                score,
                threshold,
            } => format!(
                "closest title `{}` matches {score}/100, not above {threshold}",
                crate::inert::one_line(found_title)
            ),
            Rejection::NoAbstract { found_title, .. } => format!(
                "`{}` has no abstract to check it against",
                crate::inert::one_line(found_title)
            ),
            Rejection::NoDate { found_title, .. } => format!(
                "`{}` has no publication date or year",
                crate::inert::one_line(found_title)
            ),
            Rejection::AfterCutoff {
                found_title,
                paper_date,
                date_source,
                cutoff,
            } => {
                let when = match date_source {
                    DateSource::PublicationDate => format!("published {paper_date}"),
                    DateSource::Year => format!("dated {} (year only)", paper_date.year()),
                };
                format!(
                    "`{}` is {when}, not before the cutoff {cutoff}",
                    crate::inert::one_line(found_title)
                )
            }
        }
    }
}

impl Decision {
    /// The decision in words: `accepted (score N)` or the rejection's
    /// [`Rejection::describe`].
    pub fn describe(&self) -> String {
        match self {
            Decision::Accepted {
                score, year_bonus, ..
            } => {
                if *year_bonus {
                    format!("accepted (title score {score}, +5 for the year)")
                } else {
                    format!("accepted (title score {score})")
                }
            }
            Decision::Rejected(r) => format!("rejected: {}", r.describe()),
        }
    }
}

/// The outcome for one candidate.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// The paper enters the pool.
    Accepted {
        /// The pool paper: the hit with `match_score` and `discovered_for`.
        paper: Box<PoolPaper>,
        /// The title score before the year bonus.
        score: i64,
        /// Whether the +5 year bonus was given.
        year_bonus: bool,
    },
    /// The candidate is dropped.
    Rejected(Rejection),
}

/// Years (1900–2099, as whole words) named in a text.
fn years_in(text: &str) -> Vec<i32> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= b.len() {
        let window = b.get(i..i + 4).unwrap_or(&[]);
        let before_ok = i == 0 || !b.get(i - 1).is_some_and(|c| c.is_ascii_alphanumeric());
        // Not part of a longer token, nor the first half of an arXiv id (`2010.11929`).
        let next = b.get(i + 4).copied();
        let after_ok = match next {
            Some(c) if c.is_ascii_alphanumeric() => false,
            Some(b'.') => !b.get(i + 5).is_some_and(u8::is_ascii_digit),
            _ => true,
        };
        if before_ok
            && after_ok
            && window.iter().all(u8::is_ascii_digit)
            && (window.starts_with(b"19") || window.starts_with(b"20"))
        {
            if let Some(y) = std::str::from_utf8(window)
                .ok()
                .and_then(|s| s.parse().ok())
            {
                out.push(y);
            }
            i += 4;
        } else {
            i += 1;
        }
    }
    out
}

/// The texts in which a candidate can name a year: its query (a `query`
/// field, when the search helper recorded it) and its snippet.
fn candidate_years(c: &Candidate) -> Vec<i32> {
    let mut years = Vec::new();
    if let Some(q) = c.extra.get("query").and_then(Value::as_str) {
        years.extend(years_in(q));
    }
    if let Some(s) = &c.snippet {
        years.extend(years_in(s));
    }
    years
}

fn has_abstract(p: &PoolPaper) -> bool {
    match p.abstract_text.as_deref().map(str::trim) {
        None | Some("") => false,
        Some(a) => !a.eq_ignore_ascii_case("n/a"),
    }
}

/// The date the cutoff rule uses: `publicationDate` when it parses, else the year.
pub fn paper_date(p: &PoolPaper) -> Option<(PaperDate, DateSource)> {
    if let Some(d) = p
        .publication_date
        .as_deref()
        .and_then(|d| PaperDate::parse(d).ok())
    {
        return Some((d, DateSource::PublicationDate));
    }
    let year = p.year?;
    PaperDate::from_parts(year, None)
        .ok()
        .map(|d| (d, DateSource::Year))
}

/// Decides a candidate against the hits of a `/paper/search` answer (or
/// the single record of a batch lookup, as a one-element slice).
///
/// The chosen hit is the best-scoring one (earliest on ties), or the first
/// with `paper_faithful`. It must score above the threshold, have an
/// abstract and be dated strictly before the cutoff. `match_score` is the
/// score, plus 5 when a year named in the candidate's query or snippet is
/// the hit's year.
pub fn decide(candidate: &Candidate, hits: &[PoolPaper], opts: &VerifyOptions) -> Decision {
    let mut scorer = title::TitleScorer::new(&candidate.title);
    let scored = hits.iter().map(|h| {
        let found = h.title.as_deref().unwrap_or("");
        (h, scorer.score(found, opts.substring_bypass))
    });
    let chosen = if opts.paper_faithful {
        scored.take(1).next()
    } else {
        scored.fold(None, |best: Option<(&PoolPaper, i64)>, (h, s)| match best {
            Some((_, bs)) if bs >= s => best,
            _ => Some((h, s)),
        })
    };
    let Some((hit, score)) = chosen else {
        return Decision::Rejected(Rejection::NoHit);
    };
    let found_title = hit.title.clone().unwrap_or_default();
    if score <= opts.threshold {
        return Decision::Rejected(Rejection::LowScore {
            found_title,
            score,
            threshold: opts.threshold,
        });
    }
    if !has_abstract(hit) {
        return Decision::Rejected(Rejection::NoAbstract {
            paper_id: hit.paper_id.clone(),
            found_title,
        });
    }
    let Some((date, date_source)) = paper_date(hit) else {
        return Decision::Rejected(Rejection::NoDate {
            paper_id: hit.paper_id.clone(),
            found_title,
        });
    };
    let check = crate::cutoff::check(date, opts.cutoff);
    if !check.pass {
        return Decision::Rejected(Rejection::AfterCutoff {
            found_title,
            paper_date: check.paper,
            date_source,
            cutoff: opts.cutoff,
        });
    }
    let year_bonus = hit
        .year
        .is_some_and(|y| candidate_years(candidate).contains(&y));
    let mut paper = hit.clone();
    paper.match_score = Some(serde_json::Number::from(
        score + if year_bonus { 5 } else { 0 },
    ));
    paper.discovered_for = Some(candidate.discovered_for.clone().unwrap_or_default());
    Decision::Accepted {
        paper: Box::new(paper),
        score,
        year_bonus,
    }
}

/// Decides a candidate from a raw Semantic Scholar body: a search answer,
/// a single record, or a batch answer of which `batch_index` is the
/// candidate's record. An error body gives `Err` of kind
/// [`ErrorKind::Api`], never a rejection.
pub fn decide_body(
    candidate: &Candidate,
    body: &str,
    status: Option<u16>,
    batch_index: usize,
    opts: &VerifyOptions,
) -> Result<Decision> {
    match read_s2_body(body, status)? {
        S2Body::Error(e) => Err(e.to_error()),
        S2Body::Search(hits) => Ok(decide(candidate, &hits, opts)),
        S2Body::Paper(p) => Ok(decide(candidate, std::slice::from_ref(p.as_ref()), opts)),
        S2Body::Batch(records) => match records.into_iter().nth(batch_index).flatten() {
            Some(p) => Ok(decide(candidate, std::slice::from_ref(&p), opts)),
            None => Ok(Decision::Rejected(Rejection::NoHit)),
        },
    }
}

/// The identifier a candidate is batch-looked-up by: a DOI (`doi` or
/// `externalIds.DOI`), else an arXiv id from its URLs. An arXiv DOI
/// (`10.48550/arXiv.X`) becomes the arXiv id `X`, without version: Semantic
/// Scholar indexes arXiv papers as `ARXIV:<id>`, not by arXiv's DOI.
pub fn candidate_id(c: &Candidate) -> Option<crate::works::request::WorkId> {
    use crate::ids::{ArxivId, Doi};
    use crate::works::request::WorkId;
    let doi = c
        .extra
        .get("doi")
        .and_then(Value::as_str)
        .or_else(|| {
            c.extra
                .get("externalIds")
                .and_then(|e| e.get("DOI"))
                .and_then(Value::as_str)
        })
        .and_then(Doi::parse);
    if let Some(d) = doi {
        return Some(match d.arxiv() {
            Some(a) => WorkId::Arxiv(a.as_str().to_string()),
            None => WorkId::Doi(d.as_str().to_string()),
        });
    }
    [c.source_url.as_deref(), c.url.as_deref()]
        .into_iter()
        .flatten()
        .find_map(crate::candidates::arxiv_id)
        .and_then(|a| ArxivId::parse(&a))
        .map(|a| WorkId::Arxiv(a.as_str().to_string()))
}

/// The plan of a pool verification's Semantic Scholar lookups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchPlan {
    /// Chunks of at most 500 `(candidate position, id)`, in candidate order
    /// over the whole list (a resumed run rebuilds the same requests).
    pub chunks: Vec<Vec<(usize, crate::works::request::WorkId)>>,
    /// Positions of candidates without an id: a title search each.
    pub titles: Vec<usize>,
}

/// Splits `candidates` into batch chunks (those with an id) and title
/// searches (the rest).
pub fn plan_batch(candidates: &[Candidate]) -> BatchPlan {
    let mut with = Vec::new();
    let mut titles = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        match candidate_id(c) {
            Some(id) => with.push((i, id)),
            None => titles.push(i),
        }
    }
    BatchPlan {
        chunks: with
            .chunks(crate::works::request::S2_BATCH_MAX)
            .map(<[_]>::to_vec)
            .collect(),
        titles,
    }
}

/// The decision for a candidate from its batch record, or `None` when the
/// batch did not know its id: then the candidate falls back to a title
/// search. A missing record says the id is unknown to Semantic Scholar, not
/// that the paper does not exist, so it is never a [`Rejection::NoHit`].
pub fn decide_batch_record(
    candidate: &Candidate,
    record: Option<&PoolPaper>,
    opts: &VerifyOptions,
) -> Option<Decision> {
    record.map(|p| decide(candidate, std::slice::from_ref(p), opts))
}

/// A normalized record (OpenAlex's, when Semantic Scholar stays shut) in
/// the pool's shape, labelled with its source in a `verified_by` field so
/// every decision says which index made it. OpenAlex's abstract comes
/// rebuilt from `abstract_inverted_index` by the parser.
pub fn pool_paper_from_work(w: &crate::works::Work) -> PoolPaper {
    let mut ids = serde_json::Map::new();
    if let Some(d) = &w.doi {
        ids.insert("DOI".into(), Value::String(d.clone()));
    }
    if let Some(a) = &w.arxiv_id {
        ids.insert("ArXiv".into(), Value::String(a.clone()));
    }
    if let Some(o) = &w.openalex_id {
        ids.insert("OpenAlex".into(), Value::String(o.clone()));
    }
    let date = w
        .published
        .and_then(|d| Some(format!("{:04}-{:02}-{:02}", d.year, d.month?, d.day?)));
    let mut extra = serde_json::Map::new();
    extra.insert(
        "verified_by".into(),
        Value::String(w.source.name().to_string()),
    );
    PoolPaper {
        paper_id: w.s2_id.clone(),
        title: Some(w.title.clone()).filter(|t| !t.is_empty()),
        abstract_text: w.abstract_text.clone(),
        year: w.year(),
        publication_date: date,
        venue: w.venue.clone(),
        authors: Some(
            w.authors
                .iter()
                .map(|a| crate::pool::Author {
                    name: a.name.clone(),
                    extra: serde_json::Map::new(),
                })
                .collect(),
        ),
        external_ids: (!ids.is_empty()).then_some(ids),
        extra,
        ..PoolPaper::default()
    }
}

/// Decides a candidate from another index's search hits (OpenAlex when
/// Semantic Scholar stays shut), with the same rules as [`decide`]; an
/// accepted paper carries `verified_by` naming the index.
pub fn decide_works(
    candidate: &Candidate,
    works: &[crate::works::Work],
    opts: &VerifyOptions,
) -> Decision {
    let hits: Vec<PoolPaper> = works.iter().map(pool_paper_from_work).collect();
    decide(candidate, &hits, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hit(v: Value) -> PoolPaper {
        serde_json::from_value(v).unwrap()
    }

    fn opts() -> VerifyOptions {
        VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap())
    }

    /// Runs one decision and renders it as a short string for comparison.
    fn check(
        candidate: &str,
        snippet: Option<&str>,
        hits: Vec<Value>,
        faithful: bool,
        expected: &str,
    ) {
        let mut c = Candidate::titled(candidate);
        c.snippet = snippet.map(str::to_string);
        c.discovered_for = Some(vec!["intro".into()]);
        let hits: Vec<PoolPaper> = hits.into_iter().map(hit).collect();
        let mut o = opts();
        o.paper_faithful = faithful;
        let got = match decide(&c, &hits, &o) {
            Decision::Accepted { paper, .. } => format!(
                "accept {} {}",
                paper.paper_id.unwrap_or_default(),
                paper.match_score.unwrap()
            ),
            Decision::Rejected(Rejection::NoHit) => "no_hit".into(),
            Decision::Rejected(Rejection::LowScore { score, .. }) => format!("low {score}"),
            Decision::Rejected(Rejection::NoAbstract { .. }) => "no_abstract".into(),
            Decision::Rejected(Rejection::NoDate { .. }) => "no_date".into(),
            Decision::Rejected(Rejection::AfterCutoff { paper_date, .. }) => {
                format!("after {paper_date}")
            }
        };
        assert_eq!(got, expected, "{candidate}");
    }

    fn p(id: &str, title: &str, abs: &str, year: i32) -> Value {
        json!({"paperId": id, "title": title, "abstract": abs, "year": year})
    }

    #[test]
    fn decisions() {
        let att = p("a", "Attention is All you Need", "x", 2017);
        check(
            "Attention Is All You Need",
            None,
            vec![att.clone()],
            false,
            "accept a 100",
        );
        check(
            "Attention Is All You Need",
            Some("NeurIPS 2017"),
            vec![att.clone()],
            false,
            "accept a 105",
        );
        check(
            "Attention Is All You Need",
            Some("in 2018"),
            vec![att.clone()],
            false,
            "accept a 100",
        );
        check("Attention Is All You Need", None, vec![], false, "no_hit");
        check(
            "Self-Attention",
            None,
            vec![p("b", "Attention Is All You Need", "x", 2017)],
            false,
            "low 46",
        ); // python-Levenshtein gives 46
        check(
            "Linformer",
            None,
            vec![p(
                "l",
                "Linformer: Self-Attention with Linear Complexity",
                "x",
                2020,
            )],
            false,
            "accept l 95",
        );
        check(
            "Attention Is All You Need",
            None,
            vec![p("a", "Attention is All you Need", "N/A", 2017)],
            false,
            "no_abstract",
        );
        check(
            "Attention Is All You Need",
            None,
            vec![p("a", "Attention is All you Need", "  ", 2017)],
            false,
            "no_abstract",
        );
        check(
            "Attention Is All You Need",
            None,
            vec![
                json!({"paperId": "a", "title": "Attention is All you Need", "abstract": null, "year": 2017}),
            ],
            false,
            "no_abstract",
        );
        check(
            "Attention Is All You Need",
            None,
            vec![json!({"paperId": "a", "title": "Attention is All you Need", "abstract": "x"})],
            false,
            "no_date",
        );
        check(
            "New Thing",
            None,
            vec![p("n", "New Thing", "x", 2024)],
            false,
            "after 2024-12-31",
        );
        check(
            "New Thing",
            None,
            vec![
                json!({"paperId": "n", "title": "New Thing", "abstract": "x", "year": 2024, "publicationDate": "2024-09-30"}),
            ],
            false,
            "accept n 100",
        );
        check(
            "New Thing",
            None,
            vec![
                json!({"paperId": "n", "title": "New Thing", "abstract": "x", "year": 2024, "publicationDate": "2024-10-01"}),
            ],
            false,
            "after 2024-10-01",
        );
    }

    #[test]
    fn best_hit_by_default_top_hit_when_faithful() {
        let hits = vec![
            p("x", "A Survey of Something Else", "x", 2019),
            p("a", "Attention is All you Need", "x", 2017),
        ];
        check(
            "Attention Is All You Need",
            None,
            hits.clone(),
            false,
            "accept a 100",
        );
        check("Attention Is All You Need", None, hits, true, "low 35"); // python-Levenshtein gives 35
    }

    fn check_body(file: &str, expect_failure: Option<ApiFailure>) {
        let path = format!(
            "{}/tests/fixtures/api/semanticscholar/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let body = std::fs::read_to_string(path).unwrap();
        let got = read_s2_body(&body, None).unwrap();
        match (got, expect_failure) {
            (S2Body::Error(e), Some(f)) => assert_eq!(e.failure, f, "{file}"),
            (S2Body::Error(e), None) => panic!("{file}: unexpected error {e:?}"),
            (_, Some(f)) => panic!("{file}: expected {f:?}"),
            (_, None) => {}
        }
    }

    #[test]
    fn reads_recorded_bodies() {
        check_body(
            "error_400_unrecognized_fields.json",
            Some(ApiFailure::BadRequest),
        );
        check_body(
            "error_403_forbidden_bad_api_key.json",
            Some(ApiFailure::Forbidden),
        );
        check_body("error_404_paper_not_found.json", Some(ApiFailure::NotFound));
        check_body(
            "error_429_too_many_requests.json",
            Some(ApiFailure::RateLimited),
        );
        check_body("search_relevance_with_abstracts.json", None);
        check_body("search_empty_results.json", None);
        check_body("batch_many_fields_with_null.json", None);
        check_body("paper_by_arxiv_id_full_fields.json", None);
    }

    #[test]
    fn error_bodies_are_errors_never_rejections() {
        let c = Candidate::titled("Attention Is All You Need");
        for (body, status) in [
            (r#"{"message": "Too Many Requests", "code": "429"}"#, None),
            (r#"{"error": "Paper with id 0 not found"}"#, Some(404)),
            ("Service Unavailable", Some(503)),
            // No response at all: the caller's description of the failure.
            ("semantic_scholar: no answer within 30000 ms", Some(0)),
            (r#"{"total": 0, "data": []}"#, Some(0)),
        ] {
            let e = decide_body(&c, body, status, 0, &opts()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Api, "{body}");
        }
    }

    #[test]
    fn recorded_search_accepts_attention() {
        let path = format!(
            "{}/tests/fixtures/api/semanticscholar/search_relevance_with_abstracts.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let body = std::fs::read_to_string(path).unwrap();
        let c = Candidate::titled("Attention Is All You Need");
        match decide_body(&c, &body, Some(200), 0, &opts()).unwrap() {
            Decision::Accepted { paper, score, .. } => {
                assert_eq!(score, 100);
                assert_eq!(
                    paper.paper_id.as_deref(),
                    Some("204e3073870fae3d05bcbc2f6a8e263d9b72e776")
                );
            }
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn finds_years() {
        assert_eq!(
            years_in("ICLR 2021, arXiv 2010.11929; 12019 x1999"),
            vec![2021]
        );
        assert_eq!(years_in("1999-2001"), vec![1999, 2001]);
    }

    #[test]
    fn batch_ids_and_the_missing_record_rule() {
        use crate::works::request::WorkId;
        let mk = |extra: serde_json::Value, url: Option<&str>| {
            let mut c = Candidate::titled("T");
            c.extra = extra.as_object().cloned().unwrap_or_default();
            c.url = url.map(String::from);
            c
        };
        for (c, id) in [
            (
                mk(serde_json::json!({"doi": "https://doi.org/10.1/X"}), None),
                Some(WorkId::Doi("10.1/X".into())),
            ),
            (
                mk(
                    serde_json::json!({"externalIds": {"DOI": "10.48550/arXiv.1706.03762v2"}}),
                    None,
                ),
                Some(WorkId::Arxiv("1706.03762".into())),
            ),
            (
                mk(
                    serde_json::json!({}),
                    Some("https://arxiv.org/abs/2101.00001v3"),
                ),
                Some(WorkId::Arxiv("2101.00001".into())),
            ),
            (
                mk(serde_json::json!({}), Some("https://example.org/x")),
                None,
            ),
        ] {
            assert_eq!(candidate_id(&c), id, "{c:?}");
        }
        let cands = vec![
            mk(serde_json::json!({"doi": "10.1/a"}), None),
            mk(serde_json::json!({}), None),
            mk(
                serde_json::json!({}),
                Some("https://arxiv.org/abs/2101.00001"),
            ),
        ];
        let plan = plan_batch(&cands);
        assert_eq!(plan.chunks.len(), 1);
        assert_eq!(
            plan.chunks[0].iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            [0, 2]
        );
        assert_eq!(plan.titles, [1]);
        let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
        // An id S2 does not know: search the title instead of rejecting.
        assert_eq!(decide_batch_record(&cands[0], None, &opts), None);
        let p: PoolPaper = serde_json::from_value(serde_json::json!({"title": "T"})).unwrap();
        assert!(decide_batch_record(&cands[0], Some(&p), &opts).is_some());
    }

    #[test]
    fn openalex_records_decide_like_s2_ones_and_say_so() {
        let body = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/api/openalex/work_W2099326003_article_1982.json"),
        )
        .unwrap();
        let page =
            crate::works::parse_response(crate::works::Service::OpenAlex, 200, &body).unwrap();
        let w = &page.works[0];
        let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
        let d = decide_works(&Candidate::titled(w.title.clone()), &page.works, &opts);
        let p = pool_paper_from_work(w);
        assert_eq!(
            p.extra.get("verified_by"),
            Some(&Value::String("openalex".into()))
        );
        assert_eq!(p.year, w.year());
        match d {
            Decision::Accepted { paper, .. } => {
                assert_eq!(
                    paper.extra.get("verified_by"),
                    Some(&Value::String("openalex".into()))
                )
            }
            Decision::Rejected(r) => {
                // Only the abstract rule may stop a 1982 article with a matching title.
                assert!(matches!(r, Rejection::NoAbstract { .. }), "{r:?}")
            }
        }
        let d = decide_works(
            &Candidate::titled("Something else entirely"),
            &page.works,
            &opts,
        );
        assert!(matches!(d, Decision::Rejected(Rejection::LowScore { .. })));
    }
}
