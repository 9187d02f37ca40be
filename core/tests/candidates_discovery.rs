//! Candidates discovered from recorded search answers: each query's tag is
//! attached to what it found, and a paper two backends both return (here
//! Faster R-CNN, whose DOI Semantic Scholar keeps upper-case and OpenAlex
//! lowercases) becomes one candidate. Expected titles, DOIs and tags are read
//! from the raw recorded JSON, not from the parser under test.

use citegate_core::candidates::{from_works, parse_candidates, to_json};
use citegate_core::works::{parse_response, Service, Work};
use serde_json::Value;

fn body(rel: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/api")
        .join(rel);
    std::fs::read_to_string(p).unwrap()
}

fn works(service: Service, rel: &str) -> Vec<Work> {
    parse_response(service, 200, &body(rel)).unwrap().works
}

/// `(title, bare lowercase DOI)` of each record of a raw search body.
fn raw_records(rel: &str, list: &str, doi: &[&str]) -> Vec<(String, Option<String>)> {
    let v: Value = serde_json::from_str(&body(rel)).unwrap();
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut d = r;
            for k in doi {
                d = &d[*k];
            }
            let d = d
                .as_str()
                .map(|s| s.trim_start_matches("https://doi.org/").to_lowercase());
            (r["title"].as_str().unwrap().to_string(), d)
        })
        .collect()
}

/// One query per recorded answer; checks `(title, tags)` of every candidate
/// against what the raw answers imply.
fn check(answers: &[(&str, Service, &str, &str, &[&str])]) {
    let parsed: Vec<(String, Vec<Work>)> = answers
        .iter()
        .map(|(tag, s, rel, _, _)| (tag.to_string(), works(*s, rel)))
        .collect();
    let got = from_works(parsed.iter().map(|(t, w)| (t.as_str(), w.as_slice())));
    // The independent expectation: walk the raw records, merging on DOI.
    let mut want: Vec<(String, Option<String>, Vec<String>)> = Vec::new();
    for (tag, _, rel, list, doi) in answers {
        for (t, d) in raw_records(rel, list, doi) {
            match want
                .iter_mut()
                .find(|(wt, wd, _)| (d.is_some() && *wd == d) || *wt == t)
            {
                Some((_, _, tags)) => {
                    if !tags.iter().any(|x| x == tag) {
                        tags.push(tag.to_string());
                    }
                }
                None => want.push((t, d, vec![tag.to_string()])),
            }
        }
    }
    let got_rows: Vec<(String, Vec<String>)> = got
        .iter()
        .map(|c| {
            (
                c.title.clone(),
                c.discovered_for.clone().unwrap_or_default(),
            )
        })
        .collect();
    let want_rows: Vec<(String, Vec<String>)> =
        want.into_iter().map(|(t, _, tags)| (t, tags)).collect();
    assert_eq!(got_rows, want_rows);
    // Every candidate survives a round trip through raw_candidates.json.
    assert_eq!(parse_candidates(&to_json(&got)).unwrap(), got);
}

const S2: (Service, &str, &str, &[&str]) = (
    Service::SemanticScholar,
    "semanticscholar/search_relevance_with_abstracts.json",
    "data",
    &["externalIds", "DOI"],
);
const OA: (Service, &str, &str, &[&str]) = (
    Service::OpenAlex,
    "openalex/search_attention_mechanism_with_abstracts.json",
    "results",
    &["doi"],
);

#[test]
fn one_backend_one_query() {
    check(&[("intro", S2.0, S2.1, S2.2, S2.3)]);
    check(&[("related_work[2.1]", OA.0, OA.1, OA.2, OA.3)]);
}

#[test]
fn a_paper_found_by_two_backends_and_queries_is_one_candidate() {
    check(&[
        ("intro", S2.0, S2.1, S2.2, S2.3),
        ("related_work[2.1]", OA.0, OA.1, OA.2, OA.3),
    ]);
    let s2 = works(S2.0, S2.1);
    let oa = works(OA.0, OA.1);
    let got = from_works([
        ("intro", s2.as_slice()),
        ("related_work[2.1]", oa.as_slice()),
    ]);
    assert_eq!(got.len(), s2.len() + oa.len() - 1, "faster r-cnn merged");
    let faster = got
        .iter()
        .find(|c| c.title.starts_with("Faster R-CNN"))
        .unwrap();
    assert_eq!(
        faster.discovered_for.as_deref().unwrap(),
        ["intro", "related_work[2.1]"]
    );
    assert_eq!(
        faster.source_url.as_deref(),
        Some("https://doi.org/10.1109/TPAMI.2016.2577031")
    );
}

#[test]
fn the_same_answer_for_two_queries_tags_each_candidate_twice() {
    check(&[
        ("intro", OA.0, OA.1, OA.2, OA.3),
        ("related_work[2.2]", OA.0, OA.1, OA.2, OA.3),
    ]);
}
