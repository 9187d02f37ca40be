//! Phase-1 candidates: `raw_candidates.json`, `outline.json` and pre-dedup.
//!
//! Pre-dedup removes the same paper found by several queries before the
//! slow, rate-limited verification. Its rule is the reference's: first an
//! exact key (the arXiv id from the URL or snippet, else the normalized
//! title), then a fuzzy pass that merges any later title whose Levenshtein
//! ratio with an earlier surviving one is at least 92, keeping the earliest.
//! The reference does that second pass as an all-pairs loop. We compute the
//! *same* result — the same pairs are compared in the same order — but
//! skip pairs that provably cannot reach the threshold: a ratio of at least
//! `t` allows at most `k(m)` edits for the longer length `m`, so titles
//! whose lengths differ by more than `k` are never compared; a character
//! histogram gives a second lower bound on the distance for free; and the
//! pairs left are scored by `rapidfuzz`'s bit-parallel Levenshtein with `k`
//! as its cutoff, which stops as soon as the distance exceeds it. A test
//! compares this with the naive loop on random inputs.
//!
//! Candidates can also be discovered here from an outline's queries: the
//! caller runs each query on a search backend and [`from_works`] turns the
//! answers into candidates. It merges only what is certainly the same paper
//! (a shared DOI, arXiv id, index id or normalized title), so one paper found
//! by several queries arrives as one candidate with every query's tag;
//! near-identical titles are left to pre-dedup, which owns the fuzzy rule.

mod outline;
mod predup;
mod works;

pub use outline::*;
pub use predup::*;
pub use works::*;

use crate::error::{Error, ErrorKind, Location, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One search result waiting for verification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Candidate {
    /// The title as the search engine showed it.
    pub title: String,
    /// The abstract preview or snippet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
    /// The result's URL (the name used by the search helpers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// The result's URL (the name used by the reference pre-dedup script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The outline tags of the queries that found it (`intro`, `related_work[2.1]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discovered_for: Option<Vec<String>>,
    /// Every other field, kept as it was.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Candidate {
    /// A candidate with a title and nothing else.
    pub fn titled(title: impl Into<String>) -> Self {
        Candidate {
            title: title.into(),
            snippet: None,
            source_url: None,
            url: None,
            discovered_for: None,
            extra: Map::new(),
        }
    }
}

fn shape(msg: impl Into<String>, loc: Location) -> Error {
    Error::new(ErrorKind::Shape, msg).at(loc)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn opt_string(
    map: &mut Map<String, Value>,
    key: &str,
    list: &str,
    i: usize,
) -> Result<Option<String>> {
    match map.shift_remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(shape(
            format!("`{key}` must be a string, got {}", type_name(&other)),
            Location::default()
                .index(i)
                .field(format!("{list}[{i}].{key}")),
        )),
    }
}

fn candidate_from_value(value: Value, list: &str, i: usize) -> Result<Candidate> {
    let Value::Object(mut map) = value else {
        return Err(shape(
            format!("a candidate must be an object, got {}", type_name(&value)),
            Location::default().index(i).field(format!("{list}[{i}]")),
        ));
    };
    let title = match opt_string(&mut map, "title", list, i)? {
        Some(t) if !t.trim().is_empty() => t,
        _ => {
            return Err(
                Error::new(ErrorKind::MissingField, "the candidate has no title").at(
                    Location::default()
                        .index(i)
                        .field(format!("{list}[{i}].title")),
                ),
            )
        }
    };
    let snippet = opt_string(&mut map, "snippet", list, i)?;
    let source_url = opt_string(&mut map, "source_url", list, i)?;
    let url = opt_string(&mut map, "url", list, i)?;
    let discovered_for = match map.shift_remove("discovered_for") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => {
            let mut tags = Vec::with_capacity(items.len());
            for (j, item) in items.into_iter().enumerate() {
                match item {
                    Value::String(s) => tags.push(s),
                    other => {
                        return Err(shape(
                            format!(
                                "a `discovered_for` tag must be a string, got {}",
                                type_name(&other)
                            ),
                            Location::default()
                                .index(i)
                                .field(format!("{list}[{i}].discovered_for[{j}]")),
                        ))
                    }
                }
            }
            Some(tags)
        }
        Some(other) => {
            return Err(shape(
                format!(
                    "`discovered_for` must be a list of tags, got {}",
                    type_name(&other)
                ),
                Location::default()
                    .index(i)
                    .field(format!("{list}[{i}].discovered_for")),
            ))
        }
    };
    Ok(Candidate {
        title,
        snippet,
        source_url,
        url,
        discovered_for,
        extra: map,
    })
}

/// Parses `raw_candidates.json`: a bare list, `{"candidates": […]}` or
/// `{"papers": […]}`.
///
/// Errors: invalid JSON (line and column), another top-level shape, or a
/// candidate without a title or with a field of the wrong type (index and
/// field, e.g. `candidates[3].title`).
pub fn parse_candidates(text: &str) -> Result<Vec<Candidate>> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::json(&e))?;
    let (list, items) = match value {
        Value::Array(items) => ("candidates", items),
        Value::Object(mut map) => {
            let name = if map.contains_key("candidates") {
                "candidates"
            } else if map.contains_key("papers") {
                "papers"
            } else {
                return Err(shape(
                    "expected a list of candidates or an object with `candidates` or `papers`",
                    Location::default(),
                ));
            };
            match map.shift_remove(name) {
                Some(Value::Array(items)) => (name, items),
                Some(Value::Null) => (name, Vec::new()),
                Some(other) => {
                    return Err(shape(
                        format!("`{name}` must be a list, got {}", type_name(&other)),
                        Location::default().field(name),
                    ))
                }
                None => (name, Vec::new()),
            }
        }
        other => {
            return Err(shape(
                format!(
                    "expected a list of candidates or an object with `candidates`, got {}",
                    type_name(&other)
                ),
                Location::default(),
            ))
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| candidate_from_value(v, list, i))
        .collect()
}

/// Merges the outline tags of `other` into `target` (pre-dedup and
/// discovery both keep the earliest candidate).
fn merge_into(target: &mut Candidate, other: &Candidate) {
    let merged = crate::pool::merge_tags(
        target.discovered_for.as_deref().unwrap_or(&[]),
        other.discovered_for.as_deref().unwrap_or(&[]),
    );
    target.discovered_for = Some(merged);
}

/// Writes candidates as a `raw_candidates.json` list (pretty printed, fields
/// in the order of [`Candidate`]), readable again by [`parse_candidates`].
pub fn to_json(candidates: &[Candidate]) -> String {
    serde_json::to_string_pretty(candidates).unwrap_or_else(|_| "[]".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::works::Work;

    fn check_summary(
        (candidates, queries, asked, failed_queries, failed_searches): (
            usize,
            usize,
            usize,
            usize,
            usize,
        ),
        outcome: DiscoveryOutcome,
        text: &str,
    ) {
        let c = DiscoveryCounts {
            candidates,
            queries,
            asked,
            failed_queries,
            failed_searches,
        };
        assert_eq!(discovery_summary(c), (outcome, text.to_string()), "{c:?}");
    }

    #[test]
    fn discovery_summaries() {
        use DiscoveryOutcome::*;
        check_summary((11, 7, 7, 0, 0), Ok, "11 candidates from 7 queries");
        check_summary((0, 7, 7, 0, 0), Ok, "0 candidates from 7 queries");
        check_summary((10, 7, 7, 1, 1), Partial, "INCOMPLETE: 10 candidates from 6 of 7 queries; 1 queries failed on every backend asked, 1 searches failed (listed below)");
        check_summary((11, 7, 7, 0, 1), Partial, "INCOMPLETE: 11 candidates from 7 of 7 queries; 0 queries failed on every backend asked, 1 searches failed (listed below)");
        check_summary((0, 7, 7, 7, 7), Error, "INCOMPLETE: 0 candidates from 0 of 7 queries; 7 queries failed on every backend asked, 7 searches failed (listed below)");
        check_summary((4, 7, 3, 0, 0), Partial, "4 candidates from 3 of 7 queries; stopped by you before the other 4 queries (press Discover to run them all)");
        check_summary((0, 7, 2, 2, 2), Error, "INCOMPLETE: 0 candidates from 0 of 7 queries; 2 queries failed on every backend asked, 2 searches failed (listed below); stopped by you before the other 5 queries (press Discover to run them all)");
        // Stopped before the first query: nothing failed, nothing asked.
        check_summary((0, 7, 0, 0, 0), Partial, "0 candidates from 0 of 7 queries; stopped by you before the other 7 queries (press Discover to run them all)");
    }

    fn check_arxiv(text: &str, expected: Option<&str>) {
        assert_eq!(arxiv_id(text).as_deref(), expected, "arxiv_id({text:?})");
    }

    #[test]
    fn finds_arxiv_ids() {
        check_arxiv("https://arxiv.org/abs/1706.03762", Some("1706.03762"));
        check_arxiv("https://arxiv.org/abs/1706.03762v5", Some("1706.03762"));
        check_arxiv("http://ARXIV.ORG/pdf/2101.00001v2.pdf", Some("2101.00001"));
        check_arxiv("https://arxiv.org/abs/2101.12345", Some("2101.12345"));
        check_arxiv(
            "https://arxiv.org/abs/hep-th/9901001v3",
            Some("hep-th/9901001"),
        );
        check_arxiv(
            "https://arxiv.org/abs/math.AG/0309136",
            Some("math/0309136"),
        );
        check_arxiv("Preprint arXiv:2303.08774 [cs.CL]", Some("2303.08774"));
        check_arxiv("arXiv: nothing here", None);
        check_arxiv("https://arxiv.org/abs/17.0376", None);
        check_arxiv("https://openreview.net/forum?id=abc", None);
        check_arxiv("", None);
        check_arxiv("arxiv.org/abs/", None);
        check_arxiv("arxiv:ü", None);
    }

    fn cand(title: &str, url: Option<&str>, tags: &[&str]) -> Candidate {
        let mut c = Candidate::titled(title);
        c.url = url.map(str::to_string);
        c.discovered_for = Some(tags.iter().map(|s| s.to_string()).collect());
        c
    }

    #[test]
    fn exact_then_fuzzy() {
        let input = vec![
            cand(
                "Attention Is All You Need",
                Some("https://arxiv.org/abs/1706.03762"),
                &["intro"],
            ),
            cand(
                "Transformer paper",
                Some("https://arxiv.org/abs/1706.03762v2"),
                &["related_work[2.1]"],
            ),
            cand(
                "attention is all you need.",
                None,
                &["related_work[2.2]", "intro"],
            ),
            cand("Deep Residual Learning", None, &["intro"]),
        ];
        let r = pre_dedup(input);
        assert_eq!((r.n_before_dedup, r.n_after_dedup, r.n_removed), (4, 2, 2));
        assert_eq!(
            r.candidates[0].discovered_for.as_deref().unwrap(),
            ["intro", "related_work[2.1]", "related_work[2.2]"]
        );
    }

    fn check_outline_err(text: &str, field: &str) {
        let e = outline_queries(text).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some(field), "{text}: {e}");
    }

    #[test]
    fn outline_turns_into_tagged_queries() {
        let q = outline_queries(
            r#"{"introduction_strategy": {"search_directions": ["a", " "]},
                "related_work_strategy": {"subsections": [
                   {"methodology_cluster": "x", "sota_investigation_mission": "s1", "limitation_search_queries": ["l1", "l2"]},
                   {"sota_investigation_mission": "s2"}]}}"#,
        )
        .unwrap();
        let got: Vec<(String, String)> =
            q.into_iter().map(|q| (q.query, q.discovered_for)).collect();
        let want = [
            ("a", "intro"),
            ("s1", "related_work[2.1]"),
            ("l1", "related_work[2.1]"),
            ("l2", "related_work[2.1]"),
            ("s2", "related_work[2.2]"),
        ];
        assert_eq!(got.len(), want.len());
        for ((q, t), (wq, wt)) in got.iter().zip(want) {
            assert_eq!((q.as_str(), t.as_str()), (wq, wt));
        }
        check_outline_err(r#"{"introduction_strategy": 3}"#, "introduction_strategy");
        check_outline_err(
            r#"{"introduction_strategy": {"search_directions": [1]}}"#,
            "introduction_strategy.search_directions[0]",
        );
        check_outline_err(
            r#"{"related_work_strategy": {"subsections": [{"limitation_search_queries": {}}]}}"#,
            "related_work_strategy.subsections[0].limitation_search_queries",
        );
    }

    fn work(title: &str, f: impl FnOnce(&mut Work)) -> Work {
        let mut w = Work::empty(crate::works::Service::SemanticScholar);
        w.title = title.into();
        f(&mut w);
        w
    }

    fn check_snippet(w: Work, expected: Option<&str>) {
        assert_eq!(work_snippet(&w).as_deref(), expected, "{w:?}");
    }

    #[test]
    fn snippets_from_abstract_or_venue_and_year() {
        use crate::works::PubDate;
        let year = |y| {
            Some(PubDate {
                year: y,
                month: None,
                day: None,
            })
        };
        check_snippet(
            work("t", |w| {
                w.abstract_text = Some("  We  show\nthat x. ".into())
            }),
            Some("We show that x."),
        );
        let long = "word ".repeat(100);
        let got = work_snippet(&work("t", |w| w.abstract_text = Some(long.clone()))).unwrap();
        assert!(got.ends_with("word…"), "{got}");
        assert!(got.chars().count() <= SNIPPET_CHARS + 1, "{got}");
        let unbroken = "x".repeat(SNIPPET_CHARS + 5);
        check_snippet(
            work("t", |w| w.abstract_text = Some(unbroken.clone())),
            Some(&format!("{}…", "x".repeat(SNIPPET_CHARS))),
        );
        check_snippet(
            work("t", |w| {
                w.abstract_text = Some(" ".into());
                w.venue = Some("NeurIPS".into());
                w.published = year(2017);
            }),
            Some("NeurIPS, 2017"),
        );
        check_snippet(work("t", |w| w.venue = Some("ICLR".into())), Some("ICLR"));
        check_snippet(work("t", |w| w.published = year(2020)), Some("2020"));
        check_snippet(work("t", |w| w.venue = Some("  ".into())), None);
        check_snippet(work("t", |_| {}), None);
    }

    fn check_url(w: Work, expected: Option<&str>) {
        assert_eq!(work_url(&w).as_deref(), expected, "{w:?}");
    }

    #[test]
    fn urls_prefer_doi_then_arxiv_then_index_pages() {
        let all = |w: &mut Work| {
            w.doi = Some("10.1/AB".into());
            w.arxiv_id = Some("1706.03762".into());
            w.s2_id = Some("abc".into());
            w.openalex_id = Some("W1".into());
        };
        check_url(work("t", all), Some("https://doi.org/10.1/AB"));
        check_url(
            work("t", |w| {
                all(w);
                w.doi = Some("not a doi".into());
            }),
            Some("https://arxiv.org/abs/1706.03762"),
        );
        check_url(
            work("t", |w| w.s2_id = Some("abc".into())),
            Some("https://www.semanticscholar.org/paper/abc"),
        );
        check_url(
            work("t", |w| w.openalex_id = Some("W1".into())),
            Some("https://openalex.org/W1"),
        );
        check_url(
            work("t", |w| {
                w.openalex_id = Some("https://openalex.org/W2".into())
            }),
            Some("https://openalex.org/W2"),
        );
        check_url(work("t", |w| w.s2_id = Some(" ".into())), None);
    }

    /// `(tag, works)` per query → `(title, tags, source_url)` per candidate.
    fn check_found(found: &[(&str, Vec<Work>)], expected: &[(&str, &[&str], Option<&str>)]) {
        let got = from_works(found.iter().map(|(t, w)| (*t, w.as_slice())));
        let got: Vec<(String, Vec<String>, Option<String>)> = got
            .into_iter()
            .map(|c| (c.title, c.discovered_for.unwrap_or_default(), c.source_url))
            .collect();
        let want: Vec<(String, Vec<String>, Option<String>)> = expected
            .iter()
            .map(|(t, tags, u)| {
                (
                    t.to_string(),
                    tags.iter().map(|s| s.to_string()).collect(),
                    u.map(str::to_string),
                )
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn works_become_candidates_merged_across_queries() {
        let doi = |d: &str| {
            let d = d.to_string();
            move |w: &mut Work| w.doi = Some(d)
        };
        let a = work("A", doi("10.1/a"));
        let a_upper = work("A (journal version)", doi("10.1/A"));
        let b = work("B", |w| w.arxiv_id = Some("2001.00001v2".into()));
        let b_again = work("B, the preprint", |w| {
            w.arxiv_id = Some("2001.00001".into())
        });
        let c = work("The C Paper", |_| {});
        let c_title = work("the c paper.", |w| w.s2_id = Some("s2c".into()));
        let untitled = work("  ", doi("10.1/z"));
        let rw1 = "related_work[2.1]";
        check_found(&[], &[]);
        check_found(
            &[
                ("intro", vec![a.clone(), b.clone()]),
                (rw1, vec![b_again, a_upper, c.clone()]),
                ("intro", vec![c_title.clone(), untitled]),
            ],
            &[
                ("A", &["intro", rw1], Some("https://doi.org/10.1/a")),
                (
                    "B",
                    &["intro", rw1],
                    Some("https://arxiv.org/abs/2001.00001v2"),
                ),
                (
                    "The C Paper",
                    &[rw1, "intro"],
                    Some("https://www.semanticscholar.org/paper/s2c"),
                ),
            ],
        );
        // Regression: the same query listing a paper twice adds its tag once.
        check_found(
            &[("intro", vec![a.clone(), a.clone()])],
            &[("A", &["intro"], Some("https://doi.org/10.1/a"))],
        );
        // Different papers with different titles stay apart.
        check_found(
            &[("intro", vec![a, c])],
            &[
                ("A", &["intro"], Some("https://doi.org/10.1/a")),
                ("The C Paper", &["intro"], None),
            ],
        );
    }

    #[test]
    fn discovered_candidates_round_trip_through_raw_candidates_json() {
        let w = work("Attention", |w| {
            w.doi = Some("https://doi.org/10.5/X".into());
            w.abstract_text = Some("We propose.".into());
        });
        let found = from_works([("intro", std::slice::from_ref(&w))]);
        let text = to_json(&found);
        assert_eq!(parse_candidates(&text).unwrap(), found);
        assert_eq!(
            found.first().and_then(|c| c.extra.get("doi")),
            Some(&Value::String("10.5/X".into()))
        );
    }
}
