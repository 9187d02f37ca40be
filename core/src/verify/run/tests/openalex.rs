//! Pool verification going on with OpenAlex once Semantic Scholar stays shut.

use super::*;

/// An OpenAlex work with an abstract (as `abstract_inverted_index`) and a date.
fn work(title: &str, date: &str) -> serde_json::Value {
    json!({
        "id": "https://openalex.org/W1",
        "title": title,
        "display_name": title,
        "publication_date": date,
        "publication_year": date[..4].parse::<i32>().unwrap(),
        "abstract_inverted_index": {"An": [0], "abstract": [1]},
    })
}

fn list(works: Vec<serde_json::Value>) -> Fetched {
    let n = works.len();
    answer(200, json!({"meta": {"count": n}, "results": works}))
}

const TITLES: [&str; 4] = [
    "Attention Is All You Need",
    "Deep Residual Learning for Image Recognition",
    "A Study of Something That Does Not Exist",
    "Language Models are Few-Shot Learners",
];

fn cands() -> Vec<Candidate> {
    vec![
        cand(TITLES[0], Some("10.1/a")),
        cand(TITLES[1], None),
        cand(TITLES[2], None),
        cand(TITLES[3], None),
    ]
}

/// OpenAlex as it would answer: a phrase search returns the works holding
/// a phrase, a relevance search nothing (the made-up title).
fn openalex(r: &Request) -> Fetched {
    match short(r) {
        s if s.starts_with("phrases") => list(vec![
            work(TITLES[0], "2017-06-12"),
            work(TITLES[1], "2015-12-10"),
            // After the cutoff (2024-10-01) by OpenAlex's record: not a
            // rejection (Semantic Scholar may date the preprint earlier).
            work(TITLES[3], "2025-05-28"),
        ]),
        _ => list(vec![]),
    }
}

#[test]
fn s2_shut_moves_every_waiting_candidate_to_openalex_phrase_searches() {
    for s2 in [
        Fetched::Failed {
            reason: "unverified: service unavailable (no readable response)".into(),
        },
        answer(429, json!({"message": "Too Many Requests"})),
        answer(403, json!({"message": "Forbidden"})),
        answer(503, json!({"message": "Service Unavailable"})),
    ] {
        let (sent, got) = drive(cands(), &[], |r| {
            if r.service == Service::SemanticScholar {
                s2.clone()
            } else {
                openalex(r)
            }
        });
        // The batch fails: its candidate and the three waiting for a title
        // search go to one phrase search; the title it did not return is
        // searched alone.
        assert_eq!(
            sent,
            [
                "batch 1",
                "phrases 4",
                "openalex A Study of Something That Does Not Exist"
            ],
            "{s2:?}"
        );
        assert_eq!(got[&0], "accepted by openalex");
        assert_eq!(got[&1], "accepted by openalex");
        assert!(
            got[&2].starts_with("unverified unverified: "),
            "{}",
            got[&2]
        );
        assert!(got[&2].contains("; then openalex found no paper with this title (only semantic scholar's records reject"), "{}", got[&2]);
        assert!(got[&3].contains("; then openalex: `Language Models are Few-Shot Learners` is published 2025-05-28, not before the cutoff 2024-10-01"), "{}", got[&3]);
    }
}

#[test]
fn an_accepted_paper_says_openalex_verified_it() {
    let mut run = VerifyRun::new(cands(), Endpoints::public(), opts(), &BTreeSet::new());
    let mut accepted = Vec::new();
    while let Next::Ask(r) = run.next_ask().unwrap() {
        let reply = if r.service == Service::SemanticScholar {
            answer(429, json!({"message": "Too Many Requests"}))
        } else {
            openalex(&r)
        };
        for (_, s) in run.answer(reply) {
            if let Settled::DecidedBy {
                decision: Decision::Accepted { paper, .. },
                ..
            } = s
            {
                accepted.push(paper);
            }
        }
    }
    assert_eq!(accepted.len(), 2);
    for p in accepted {
        assert_eq!(p.extra.get("verified_by"), Some(&json!("openalex")));
        assert_eq!(p.abstract_text.as_deref(), Some("An abstract"));
    }
}

#[test]
fn openalex_failing_too_leaves_the_rest_unverified_with_both_reasons() {
    let (sent, got) = drive(cands(), &[], |r| {
        if r.service == Service::SemanticScholar {
            answer(429, json!({"message": "Too Many Requests"}))
        } else {
            answer(
                429,
                json!({"error": "Rate limit exceeded", "message": "daily budget exceeded"}),
            )
        }
    });
    assert_eq!(sent, ["batch 1", "phrases 4"]);
    for i in 0..4 {
        let g = &got[&i];
        assert!(g.starts_with("unverified unverified: "), "{g}");
        assert!(
            g.contains("semantic scholar") && g.contains("; then openalex"),
            "{g}"
        );
    }
}

#[test]
fn an_answer_about_the_paper_is_not_an_outage() {
    // A 404 for an id and an empty search are answers: Semantic Scholar
    // stays the gate, OpenAlex is never asked.
    let (sent, got) = drive(cands(), &[], |r| match short(r).as_str() {
        "batch 1" => answer(200, json!([null])),
        _ => answer(200, json!({"total": 0, "data": []})),
    });
    assert!(sent
        .iter()
        .all(|s| !s.starts_with("phrases") && !s.starts_with("openalex")));
    assert!(got.values().all(|g| g == "rejected no_hit"), "{got:?}");
}

#[test]
fn s2_shut_midway_keeps_what_it_decided() {
    // The batch answers, then the first title search gets a 429: the
    // batch's decision stands, the rest goes to OpenAlex.
    let (sent, got) = drive(cands(), &[], |r| match short(r).as_str() {
        "batch 1" => answer(200, json!([paper(TITLES[0], 2017)])),
        s if s.starts_with("search") => answer(429, json!({"message": "Too Many Requests"})),
        _ => openalex(r),
    });
    assert_eq!(got[&0], "accepted");
    assert_eq!(got[&1], "accepted by openalex");
    assert!(got[&3].starts_with("unverified "), "{}", got[&3]);
    assert_eq!(sent.iter().filter(|s| s.starts_with("search")).count(), 1);
    assert!(sent.contains(&"phrases 3".to_string()), "{sent:?}");
}
