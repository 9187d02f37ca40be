//! OpenAlex phrase searches: several titles in one request, a miss that is
//! no evidence, and the failures that leave titles to their own searches.

use super::*;
use crate::works::request::{OPENALEX_PHRASES_MAX, OPENALEX_URL_MAX};

/// The `search` parameter of a request, or "".
fn search_param(req: &Request) -> String {
    let q = req.url.split_once('?').map(|(_, q)| q).unwrap_or("");
    form_urlencoded::parse(q.as_bytes())
        .find(|(k, _)| k == "query" || k == "search" || k == "query.bibliographic")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

fn is_phrase_search(req: &Request) -> bool {
    req.service == Service::OpenAlex && search_param(req).contains('"')
}

/// A world that holds `known` titles: every search service finds a known
/// title asked by relevance; OpenAlex's phrase searches answer as
/// `phrase_reply` says (`None`: as the service does).
fn world(known: Vec<String>, phrase_reply: Option<Reply>) -> impl FnMut(&Request) -> Reply {
    move |req: &Request| {
        let q = search_param(req);
        if is_phrase_search(req) {
            return phrase_reply
                .clone()
                .unwrap_or_else(|| openalex_phrase_answer(&q, &known));
        }
        let hit = known
            .iter()
            .find(|t| crate::title::normalize(t) == crate::title::normalize(&q));
        let body = match (req.service, hit) {
            (_, None) => return empty_searches(req),
            (Service::SemanticScholar, Some(t)) => {
                json!({"total":1,"data":[{"paperId":"p","title":t}]})
            }
            (Service::OpenAlex, Some(t)) => {
                json!({"meta":{"count":1},"results":[{"id":"https://openalex.org/W1","title":t}]})
            }
            (Service::Crossref, Some(t)) => {
                json!({"message-type":"work-list","message":{"items":[{"DOI":"10.1/x","title":[t]}]}})
            }
            _ => return empty_searches(req),
        };
        reply(200, body.to_string())
    }
}

fn titled(n: usize) -> Vec<Reference> {
    (0..n)
        .map(|i| {
            title_ref(
                &format!("t{i}"),
                &format!("Spectroscopic survey number {i} of nearby dwarf galaxies"),
            )
        })
        .collect()
}

fn titles_of(refs: &[Reference]) -> Vec<String> {
    refs.iter().filter_map(|r| r.title.clone()).collect()
}

#[test]
fn titles_share_openalex_phrase_searches() {
    let refs = titled(45);
    let d = drive(
        refs.clone(),
        opts(Surface::Browser, true),
        world(titles_of(&refs), None),
    );
    let phrase_requests: Vec<&Request> = d
        .sent
        .iter()
        .map(|(_, r)| r)
        .filter(|r| is_phrase_search(r))
        .collect();
    assert!(!phrase_requests.is_empty());
    for r in &phrase_requests {
        let n = phrases_in(&search_param(r)).len();
        assert!((2..=OPENALEX_PHRASES_MAX).contains(&n), "{n} phrases");
        assert!(r.url.len() <= OPENALEX_URL_MAX, "{} bytes", r.url.len());
    }
    for res in &d.report.resolutions {
        assert!(outcome_name(&res.outcome).starts_with("found:"), "{res:?}");
    }
    // 45 titles: three phrase searches, and a few single searches on the
    // lanes that were free meanwhile, instead of 45 requests.
    assert!(d.report.requests <= 8, "{} requests", d.report.requests);
    let via_openalex = d
        .report
        .resolutions
        .iter()
        .filter(|r| outcome_name(&r.outcome) == "found:openalex")
        .count();
    assert!(via_openalex >= 40, "{via_openalex}");
}

#[test]
fn a_phrase_miss_is_no_evidence_and_the_title_is_asked_on_its_own() {
    let mut refs = titled(3);
    refs.push(title_ref(
        "made_up",
        "A fabricated study of quasar lensing in the local group",
    ));
    let known = titles_of(&refs[..3]);
    let d = drive(refs, opts(Surface::Browser, true), world(known, None));
    for res in &d.report.resolutions {
        let mut t = trail(res);
        t.sort();
        if res.key == "made_up" {
            // S2, OpenAlex by relevance and Crossref each answered; the
            // phrase miss is not among them (and DBLP, which a page cannot
            // ask, keeps it from "not found").
            assert_eq!(outcome_name(&res.outcome), "unverified");
            assert_eq!(
                t,
                [
                    "crossref:not_here",
                    "dblp:failed",
                    "openalex:not_here",
                    "semantic_scholar:not_here"
                ]
            );
        } else {
            assert!(outcome_name(&res.outcome).starts_with("found:"), "{res:?}");
        }
    }
    // The made-up title was asked of OpenAlex twice: in the phrase search
    // and alone.
    let alone = d
        .sent
        .iter()
        .filter(|(_, r)| {
            r.service == Service::OpenAlex
                && !is_phrase_search(r)
                && search_param(r).contains("fabricated")
        })
        .count();
    assert_eq!(alone, 1);
}

#[test]
fn a_failing_phrase_search_leaves_the_titles_to_their_own_searches() {
    // Server errors until the retries are spent, or an answer citegate cannot
    // read: either way no title is decided on it, and each is still found.
    for failure in [
        reply(500, "oops"),
        reply(200, "<html>not json</html>"),
        reply(414, ""),
    ] {
        let refs = titled(5);
        let d = drive(
            refs.clone(),
            opts(Surface::Browser, true),
            world(titles_of(&refs), Some(failure.clone())),
        );
        for res in &d.report.resolutions {
            assert!(outcome_name(&res.outcome).starts_with("found:"), "{res:?}");
            assert!(
                !trail(res).iter().any(|t| t.ends_with(":failed")),
                "{res:?}"
            );
        }
        assert!(d.sent.iter().any(|(_, r)| is_phrase_search(r)));
    }
}

#[test]
fn openalex_spent_during_a_phrase_search_is_out_for_the_run() {
    // OpenAlex's daily budget answers 429: OpenAlex is not asked again, and
    // the titles go to the other search services.
    let refs = titled(6);
    let spent = reply(
        429,
        r#"{"error":"Rate limit exceeded","message":"daily budget exceeded"}"#,
    );
    let d = drive(
        refs.clone(),
        opts(Surface::Browser, true),
        world(titles_of(&refs), Some(spent)),
    );
    let openalex: Vec<&Request> = d
        .sent
        .iter()
        .map(|(_, r)| r)
        .filter(|r| r.service == Service::OpenAlex)
        .collect();
    assert_eq!(openalex.len(), 1, "{openalex:#?}");
    for res in &d.report.resolutions {
        let name = outcome_name(&res.outcome);
        assert!(
            name == "found:semantic_scholar" || name == "found:crossref",
            "{res:?}"
        );
    }
}

#[test]
fn lone_and_short_titles_are_searched_by_relevance() {
    // One long title: no phrase search (one title gains nothing from it).
    let refs = titled(1);
    let d = drive(
        refs.clone(),
        opts(Surface::Browser, true),
        world(titles_of(&refs), None),
    );
    assert!(!d.sent.iter().any(|(_, r)| is_phrase_search(r)));
    // Short titles never go into a phrase search.
    let mut refs = titled(3);
    refs.push(title_ref("numpy", "NumPy"));
    refs.push(title_ref("scipy", "The SciPy library"));
    let d = drive(
        refs.clone(),
        opts(Surface::Browser, true),
        world(titles_of(&refs), None),
    );
    for (_, r) in d.sent.iter().filter(|(_, r)| is_phrase_search(r)) {
        let q = search_param(r).to_lowercase();
        assert!(!q.contains("numpy") && !q.contains("scipy"), "{q}");
    }
    assert!(d
        .report
        .resolutions
        .iter()
        .all(|r| outcome_name(&r.outcome).starts_with("found:")));
    // Without the batch forms, no phrase search either.
    let refs = titled(4);
    let d = drive(
        refs.clone(),
        opts(Surface::Browser, false),
        world(titles_of(&refs), None),
    );
    assert!(!d.sent.iter().any(|(_, r)| is_phrase_search(r)));
}

#[test]
fn long_titles_split_phrase_searches_under_the_url_limit() {
    let refs: Vec<Reference> = (0..30)
        .map(|i| {
            let words: Vec<String> = (0..40).map(|w| format!("w{i}x{w}")).collect();
            title_ref(&format!("l{i}"), &words.join(" "))
        })
        .collect();
    let d = drive(
        refs.clone(),
        opts(Surface::Browser, true),
        world(titles_of(&refs), None),
    );
    let phrase: Vec<&Request> = d
        .sent
        .iter()
        .map(|(_, r)| r)
        .filter(|r| is_phrase_search(r))
        .collect();
    assert!(phrase.len() >= 3, "{}", phrase.len());
    assert!(phrase.iter().all(|r| r.url.len() <= OPENALEX_URL_MAX));
    assert!(d
        .report
        .resolutions
        .iter()
        .all(|r| outcome_name(&r.outcome).starts_with("found:")));
}
