//! Cross-checking a verified pool against Crossref and OpenAlex.
//!
//! Semantic Scholar accepted every pool paper; this second gate asks two
//! independent indices whether the same paper exists with the same metadata,
//! and sorts each paper into a tier: `conflict` (a confident match carries a
//! different DOI), `low` (no index that should hold it found it — a possible
//! phantom), `medium` (found, but a confident match disagrees on the year by
//! more than the tolerance) or `high`. Precedence is in that order. Two match
//! strengths keep noise out: *found* (title ratio above 70, or an exact DOI
//! hit) is enough to corroborate existence, but only a *strong* match (ratio
//! ≥ 90, or a DOI hit) is trusted to accuse the pool of a wrong DOI or year.
//! One deliberate difference from the reference script: arXiv preprints
//! (DataCite DOIs `10.48550/…`, or an arXiv id and no DOI) are marked "not
//! expected in Crossref", so Crossref's silence alone never makes them `low`.
//! The core does no requests: the caller passes each index's answer.

mod replay;
mod run;

pub use replay::{replay, Recorded as RecordedAnswer, Replay};
pub use run::{
    batch_size, plan_chunks, Ask, Chunks, CrossRun, Next as RunNext, Reply as RunReply,
    StoredAnswer,
};

use crate::pool::PoolPaper;
use crate::title;
use crate::works::{doi_key, Service, Work};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Thresholds of the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Title ratio strictly above this corroborates (default 70).
    pub threshold: i64,
    /// Title ratio at or above this is a strong match (default 90).
    pub strong_threshold: i64,
    /// Allowed year difference (default 1).
    pub year_tolerance: i64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threshold: 70,
            strong_threshold: 90,
            year_tolerance: 1,
        }
    }
}

/// What one index answered for one paper.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum IndexAnswer {
    /// The index could not be reached (network error, 5xx after retries,
    /// rate limit); it is disabled for the rest of the run.
    Unavailable,
    /// The index answered.
    Answered {
        /// The work found by the paper's DOI (`None`: no DOI, or a 404).
        by_doi: Option<Box<Work>>,
        /// Title-search hits (used when there was no DOI hit).
        search: Vec<Work>,
    },
}

/// One index's finding for one paper.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexResult {
    /// The index answered.
    pub available: bool,
    /// Something like this paper exists there.
    pub found: bool,
    /// Confidently the same paper.
    pub strong: bool,
    /// `doi` or `title`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
    /// The matched record's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_title: Option<String>,
    /// Title ratio 0–100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title_ratio: Option<i64>,
    /// The matched record's year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_year: Option<i32>,
    /// The matched record's DOI (bare, lowercased).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_doi: Option<String>,
    /// `agree`, `conflict` or `n/a`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi_state: Option<&'static str>,
    /// The paper is not expected in this index (arXiv preprint in Crossref).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_expected: bool,
}

/// The tier of a paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Corroborated, no conflicts.
    High,
    /// Corroborated, but the year disagrees beyond tolerance.
    Medium,
    /// Not found where expected.
    Low,
    /// A confident match has a different DOI.
    Conflict,
}

impl Confidence {
    /// The tier's name as written in reports: `high`, `medium`, `low`, `conflict`.
    pub fn name(self) -> &'static str {
        match self {
            Confidence::High => "high",
            Confidence::Medium => "medium",
            Confidence::Low => "low",
            Confidence::Conflict => "conflict",
        }
    }

    /// What the tier means, in a sentence for people (the rules of
    /// [`classify`], with the default thresholds of [`Config`]).
    pub fn describe(self) -> &'static str {
        match self {
            Confidence::High => "high: Crossref or OpenAlex holds this paper (its DOI resolves there, or a title matches above 70 of 100), and no confident match disagrees with its DOI or year",
            Confidence::Medium => "medium: the paper was found, but a confident match (DOI hit or title at least 90 of 100) gives a year more than one year off; or it is an arXiv preprint and the only index asked does not hold preprints",
            Confidence::Low => "low: no index that should hold this paper found it (no DOI hit, no title above 70 of 100): possibly a phantom citation, check it by hand",
            Confidence::Conflict => "conflict: a confident match in Crossref or OpenAlex carries a different DOI than the pool's: the pool's record may mix two papers",
        }
    }

    /// Every tier, best first.
    pub const ALL: [Confidence; 4] = [
        Confidence::High,
        Confidence::Medium,
        Confidence::Low,
        Confidence::Conflict,
    ];
}

/// A paper's verdict, as written to its `cross_verification` field.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "CrossVerdict"))]
pub struct Verdict {
    /// Tier.
    pub confidence: Confidence,
    /// Indices that found it.
    pub indices_found: Vec<String>,
    /// A strong match disagrees on the DOI.
    pub doi_conflict: bool,
    /// A strong match disagrees on the year.
    pub year_conflict: bool,
    /// Per index findings (only indices checked for this paper).
    pub per_index: Map<String, Value>,
    /// Notes for people.
    pub notes: Vec<String>,
}

impl Verdict {
    /// The indices' evidence in one line, as the Cross-check page shows it:
    /// `crossref: doi 100 · 2017; openalex: not found`. Indices the run
    /// could not reach (`unavailable`, from the report) are not in
    /// `per_index` and are named at the end.
    pub fn evidence_line(&self, unavailable: &[String]) -> String {
        self.per_index
            .iter()
            .map(|(name, v)| {
                if v.get("available").and_then(Value::as_bool) != Some(true) {
                    return format!("{name}: unavailable");
                }
                if v.get("found").and_then(Value::as_bool) != Some(true) {
                    return format!("{name}: not found");
                }
                let via = v.get("via").and_then(Value::as_str).unwrap_or("");
                let ratio = v
                    .get("title_ratio")
                    .map(Value::to_string)
                    .unwrap_or_default();
                let year = v
                    .get("matched_year")
                    .map(|y| format!(" · {y}"))
                    .unwrap_or_default();
                format!("{name}: {via} {ratio}{year}")
            })
            .chain(unavailable.iter().map(|n| format!("{n}: unavailable")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The pool paper's DOI (bare, lowercased) from `externalIds.DOI|doi|Doi` or `doi`.
pub fn pool_doi(paper: &PoolPaper) -> Option<String> {
    ["DOI", "doi", "Doi"]
        .iter()
        .find_map(|k| paper.external_id(k))
        .or_else(|| {
            paper
                .extra
                .get("doi")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .and_then(|d| doi_key(&d))
}

/// Whether Crossref is expected to hold the paper: not for arXiv's DataCite
/// DOIs, nor for an arXiv preprint with no DOI.
pub fn expected_in_crossref(paper: &PoolPaper) -> bool {
    match pool_doi(paper) {
        Some(d) => !d.starts_with("10.48550/"),
        None => paper.external_id("ArXiv").is_none(),
    }
}

fn ratio(a: &str, b: &str) -> i64 {
    title::round_half_even(title::ratio(a, b))
}

/// Reads one index's answer for `paper`.
pub fn check_index(
    paper: &PoolPaper,
    answer: &IndexAnswer,
    expected: bool,
    cfg: &Config,
) -> IndexResult {
    let mut r = IndexResult {
        available: false,
        found: false,
        strong: false,
        via: None,
        matched_title: None,
        title_ratio: None,
        matched_year: None,
        matched_doi: None,
        doi_state: None,
        not_expected: !expected,
    };
    let IndexAnswer::Answered { by_doi, search } = answer else {
        return r;
    };
    r.available = true;
    let title = paper.title.as_deref().unwrap_or("");
    let (hit, via, tr) = match by_doi {
        Some(w) => (w.as_ref(), "doi", ratio(title, &w.title)),
        None => {
            // First of the best (a later equal ratio does not replace it).
            let mut best: Option<(&Work, i64)> = None;
            for w in search {
                let t = ratio(title, &w.title);
                if best.is_none_or(|(_, b)| t > b) {
                    best = Some((w, t));
                }
            }
            match best {
                Some((w, t)) => (w, "title", t),
                None => return r,
            }
        }
    };
    r.found = tr > cfg.threshold || via == "doi";
    r.strong = tr >= cfg.strong_threshold || via == "doi";
    r.via = Some(via);
    r.matched_title = Some(hit.title.clone());
    r.title_ratio = Some(tr);
    r.matched_year = hit.year();
    r.matched_doi = hit.doi_key();
    r.doi_state = Some(match (pool_doi(paper), &r.matched_doi) {
        (Some(a), Some(b)) if &a == b => "agree",
        (Some(_), Some(_)) => "conflict",
        _ => "n/a",
    });
    r
}

/// Classifies one paper from its per-index results.
pub fn classify(paper: &PoolPaper, results: &[(Service, IndexResult)], cfg: &Config) -> Verdict {
    let name = |s: Service| s.name().to_string();
    let found_in: Vec<String> = results
        .iter()
        .filter(|(_, r)| r.found)
        .map(|(s, _)| name(*s))
        .collect();
    let doi_conflict = results
        .iter()
        .any(|(_, r)| r.strong && r.doi_state == Some("conflict"));
    let year_conflict = paper.year.is_some_and(|y| {
        results.iter().any(|(_, r)| {
            r.strong
                && r.matched_year
                    .is_some_and(|m| (i64::from(m) - i64::from(y)).abs() > cfg.year_tolerance)
        })
    });
    let expected_somewhere = results.iter().any(|(_, r)| !r.not_expected);
    let mut notes = Vec::new();
    let confidence = if doi_conflict {
        notes.push("the pool's doi disagrees with a confident match in an external index: check this record".to_string());
        Confidence::Conflict
    } else if found_in.is_empty() && expected_somewhere {
        notes.push("not found in crossref or openalex: possibly a phantom citation".to_string());
        Confidence::Low
    } else if found_in.is_empty() {
        notes.push(
            "not corroborated: the only index checked is not expected to hold this arxiv preprint"
                .to_string(),
        );
        Confidence::Medium
    } else if year_conflict {
        notes.push(
            "corroborated, but the publication year disagrees beyond the tolerance".to_string(),
        );
        Confidence::Medium
    } else {
        Confidence::High
    };
    if results.iter().any(|(_, r)| r.not_expected && !r.found) && confidence != Confidence::Low {
        notes.push(
            "crossref holds no arxiv (datacite) records, so its silence is not counted".to_string(),
        );
    }
    let per_index = results
        .iter()
        .map(|(s, r)| (name(*s), serde_json::to_value(r).unwrap_or(Value::Null)))
        .collect();
    Verdict {
        confidence,
        indices_found: found_in,
        doi_conflict,
        year_conflict,
        per_index,
        notes,
    }
}

/// Tier counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// High.
    pub high: usize,
    /// Medium.
    pub medium: usize,
    /// Low.
    pub low: usize,
    /// Conflict.
    pub conflict: usize,
}

/// A paper that needs review.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Flag {
    /// `bibtex_key`, else `key`.
    pub bibtex_key: Option<String>,
    /// Title.
    pub title: Option<String>,
    /// `low` or `conflict`.
    pub confidence: Confidence,
    /// Notes.
    pub notes: Vec<String>,
}

/// The report, shaped like `cross_verification_report.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Papers checked.
    pub total_papers: usize,
    /// Indices that stayed available.
    pub indices_checked: Vec<String>,
    /// Indices that became unavailable (sorted).
    pub indices_unavailable: Vec<String>,
    /// Tier counts.
    pub summary: Summary,
    /// Low and conflict papers.
    pub flagged: Vec<Flag>,
}

impl Report {
    /// Exit code as the reference: 0 when nothing is flagged and every index
    /// stayed available, else 1.
    pub fn exit_code(&self) -> u8 {
        u8::from(!self.flagged.is_empty() || !self.indices_unavailable.is_empty())
    }
}

/// Checks every paper. `answers[i]` holds paper `i`'s answer per requested
/// index (in `requested` order; a missing answer counts as not asked). An
/// index that is unavailable once is ignored for the rest of the run, as the
/// reference does.
pub fn verify(
    papers: &[PoolPaper],
    requested: &[Service],
    answers: &[Vec<(Service, IndexAnswer)>],
    cfg: &Config,
) -> (Report, Vec<Verdict>) {
    let mut disabled: BTreeSet<Service> = BTreeSet::new();
    let mut summary = Summary::default();
    let mut flagged = Vec::new();
    let mut verdicts = Vec::new();
    for (i, paper) in papers.iter().enumerate() {
        let mut results = Vec::new();
        for s in requested {
            if disabled.contains(s) {
                continue;
            }
            let Some((_, answer)) = answers.get(i).and_then(|a| a.iter().find(|(x, _)| x == s))
            else {
                continue;
            };
            if *answer == IndexAnswer::Unavailable {
                disabled.insert(*s);
                continue;
            }
            let expected = *s != Service::Crossref || expected_in_crossref(paper);
            results.push((*s, check_index(paper, answer, expected, cfg)));
        }
        let v = classify(paper, &results, cfg);
        match v.confidence {
            Confidence::High => summary.high += 1,
            Confidence::Medium => summary.medium += 1,
            Confidence::Low => summary.low += 1,
            Confidence::Conflict => summary.conflict += 1,
        }
        if matches!(v.confidence, Confidence::Low | Confidence::Conflict) {
            flagged.push(Flag {
                bibtex_key: paper.bibtex_key.clone().or_else(|| paper.key.clone()),
                title: paper.title.clone(),
                confidence: v.confidence,
                notes: v.notes.clone(),
            });
        }
        verdicts.push(v);
    }
    let report = Report {
        total_papers: papers.len(),
        indices_checked: requested
            .iter()
            .filter(|s| !disabled.contains(s))
            .map(|s| s.name().to_string())
            .collect(),
        indices_unavailable: disabled.iter().map(|s| s.name().to_string()).collect(),
        summary,
        flagged,
    };
    (report, verdicts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::works::PubDate;
    use serde_json::json;

    const TITLE: &str = "Attention Is All You Need";

    #[test]
    fn evidence_line_names_each_index_and_the_unreachable_ones() {
        let check = |per_index: serde_json::Value, unavailable: &[&str], expected: &str| {
            let v = Verdict {
                confidence: Confidence::High,
                indices_found: Vec::new(),
                doi_conflict: false,
                year_conflict: false,
                per_index: per_index.as_object().cloned().unwrap_or_default(),
                notes: Vec::new(),
            };
            let unavailable: Vec<String> = unavailable.iter().map(|s| s.to_string()).collect();
            assert_eq!(v.evidence_line(&unavailable), expected);
        };
        check(
            json!({"crossref": {"available": true, "found": true, "via": "doi", "title_ratio": 100, "matched_year": 2017}}),
            &["openalex"],
            "crossref: doi 100 · 2017; openalex: unavailable",
        );
        check(
            json!({"crossref": {"available": true, "found": false}, "openalex": {"available": false}}),
            &[],
            "crossref: not found; openalex: unavailable",
        );
        check(json!({}), &[], "");
    }

    fn paper(doi: Option<&str>, arxiv: Option<&str>, year: i32) -> PoolPaper {
        let mut ext = Map::new();
        if let Some(d) = doi {
            ext.insert("DOI".into(), json!(d));
        }
        if let Some(a) = arxiv {
            ext.insert("ArXiv".into(), json!(a));
        }
        PoolPaper {
            title: Some(TITLE.into()),
            year: Some(year),
            external_ids: Some(ext),
            bibtex_key: Some("vaswani2017attention".into()),
            ..PoolPaper::default()
        }
    }

    fn hit(s: Service, title: &str, year: i32, doi: Option<&str>) -> Work {
        let mut w = Work::empty(s);
        w.title = title.into();
        w.published = Some(PubDate {
            year,
            month: None,
            day: None,
        });
        w.doi = doi.map(str::to_string);
        w
    }

    fn by_title(s: Service, title: &str, year: i32, doi: Option<&str>) -> IndexAnswer {
        IndexAnswer::Answered {
            by_doi: None,
            search: vec![hit(s, title, year, doi)],
        }
    }

    fn by_doi(s: Service, title: &str, year: i32, doi: &str) -> IndexAnswer {
        IndexAnswer::Answered {
            by_doi: Some(Box::new(hit(s, title, year, Some(doi)))),
            search: vec![],
        }
    }

    fn nothing() -> IndexAnswer {
        IndexAnswer::Answered {
            by_doi: None,
            search: vec![],
        }
    }

    fn check(p: PoolPaper, crossref: IndexAnswer, openalex: IndexAnswer, expected: Confidence) {
        use Service::*;
        let (report, v) = verify(
            &[p],
            &[Crossref, OpenAlex],
            &[vec![(Crossref, crossref), (OpenAlex, openalex)]],
            &Config::default(),
        );
        assert_eq!(v[0].confidence, expected, "{:?}", v[0]);
        assert_eq!(
            report.flagged.len(),
            usize::from(matches!(expected, Confidence::Low | Confidence::Conflict))
        );
    }

    #[test]
    fn tiers() {
        use Confidence::*;
        use Service::*;
        let p = || paper(Some("10.1/A"), None, 2017);
        check(
            p(),
            by_doi(Crossref, TITLE, 2017, "10.1/a"),
            nothing(),
            High,
        );
        check(p(), nothing(), nothing(), Low);
        // Near-title (ratio > 70 but < 90): found, but its year/DOI cannot accuse.
        check(
            p(),
            by_title(Crossref, "Attention Is All You Want!", 2001, Some("10.9/z")),
            nothing(),
            High,
        );
        check(
            p(),
            by_title(Crossref, "Completely different", 2017, None),
            nothing(),
            Low,
        );
        check(
            p(),
            by_title(OpenAlex, TITLE, 2019, Some("10.1/a")),
            by_title(OpenAlex, TITLE, 2019, Some("10.1/a")),
            Medium,
        );
        check(
            p(),
            by_title(OpenAlex, TITLE, 2018, Some("10.1/a")),
            nothing(),
            High,
        );
        check(
            p(),
            by_title(Crossref, TITLE, 2017, Some("10.2/other")),
            nothing(),
            Conflict,
        );
        // conflict beats medium
        check(
            p(),
            by_title(Crossref, TITLE, 2010, Some("10.2/other")),
            nothing(),
            Conflict,
        );
        // DOI hit with a poor title is still strong.
        check(
            p(),
            by_doi(Crossref, "Erratum", 2005, "10.1/a"),
            nothing(),
            Medium,
        );
    }

    #[test]
    fn arxiv_preprints_are_not_expected_in_crossref() {
        use Confidence::*;
        use Service::*;
        let datacite = || paper(Some("10.48550/arXiv.1706.03762"), Some("1706.03762"), 2017);
        let bare = || paper(None, Some("1706.03762"), 2017);
        check(
            datacite(),
            nothing(),
            by_doi(OpenAlex, TITLE, 2017, "10.48550/arxiv.1706.03762"),
            High,
        );
        check(
            bare(),
            nothing(),
            by_title(OpenAlex, TITLE, 2017, None),
            High,
        );
        // Silent everywhere is still low: OpenAlex should hold it.
        check(bare(), nothing(), nothing(), Low);
        // Crossref alone (OpenAlex down): its silence does not make it low.
        let (r, v) = verify(
            &[bare()],
            &[Crossref, OpenAlex],
            &[vec![
                (Crossref, nothing()),
                (OpenAlex, IndexAnswer::Unavailable),
            ]],
            &Config::default(),
        );
        assert_eq!(v[0].confidence, Medium);
        assert_eq!(r.indices_unavailable, vec!["openalex"]);
        assert_eq!(r.exit_code(), 1);
        // A journal DOI with an arXiv id is expected in Crossref.
        assert!(expected_in_crossref(&paper(
            Some("10.1/a"),
            Some("1"),
            2017
        )));
    }

    #[test]
    fn unavailable_index_is_disabled_for_later_papers() {
        use Service::*;
        let p = paper(Some("10.1/a"), None, 2017);
        let answers = vec![
            vec![
                (Crossref, IndexAnswer::Unavailable),
                (OpenAlex, by_doi(OpenAlex, TITLE, 2017, "10.1/a")),
            ],
            vec![
                (Crossref, nothing()),
                (OpenAlex, by_doi(OpenAlex, TITLE, 2017, "10.1/a")),
            ],
        ];
        let (r, v) = verify(
            &[p.clone(), p],
            &[Crossref, OpenAlex],
            &answers,
            &Config::default(),
        );
        assert_eq!(r.indices_checked, vec!["openalex"]);
        assert!(!v[1].per_index.contains_key("crossref"));
        assert_eq!(
            r.summary,
            Summary {
                high: 2,
                medium: 0,
                low: 0,
                conflict: 0
            }
        );
        let j = serde_json::to_value(&r).unwrap();
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "total_papers",
                "indices_checked",
                "indices_unavailable",
                "summary",
                "flagged"
            ]
        );
    }

    #[test]
    fn best_title_hit_first_wins_ties() {
        let p = paper(None, None, 2017);
        let a = IndexAnswer::Answered {
            by_doi: None,
            search: vec![
                hit(Service::OpenAlex, "Other", 2017, None),
                hit(Service::OpenAlex, TITLE, 2017, Some("10.1/x")),
                hit(Service::OpenAlex, TITLE, 2017, Some("10.1/y")),
            ],
        };
        let r = check_index(&p, &a, true, &Config::default());
        assert_eq!(
            (r.title_ratio, r.matched_doi.as_deref(), r.doi_state),
            (Some(100), Some("10.1/x"), Some("n/a"))
        );
    }
}
