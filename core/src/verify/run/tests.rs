use super::*;
use crate::cutoff::Date;
use serde_json::json;
use std::collections::BTreeMap;

mod openalex;

fn opts() -> VerifyOptions {
    VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap())
}

/// A candidate; `doi` gives it an id, so it goes through the batch.
fn cand(title: &str, doi: Option<&str>) -> Candidate {
    let mut c = Candidate::titled(title);
    if let Some(d) = doi {
        c.extra.insert("doi".into(), json!(d));
    }
    c
}

fn paper(title: &str, year: i32) -> serde_json::Value {
    json!({"paperId": "p", "title": title, "abstract": "an abstract", "year": year})
}

/// A request in short: `batch N` (ids in the body), `one <path end>`,
/// `search <query>`; OpenAlex's `phrases N` (titles in one phrase search)
/// and `openalex <query>`.
fn short(r: &Request) -> String {
    if r.service == Service::OpenAlex {
        let q = r.url.split_once('?').map(|(_, q)| q).unwrap_or("");
        let search: String = form_urlencoded::parse(q.as_bytes())
            .find(|(k, _)| k == "search")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        let phrases = search.matches('"').count() / 2;
        return if phrases > 0 {
            format!("phrases {phrases}")
        } else {
            format!("openalex {search}")
        };
    }
    if let Some(body) = &r.body {
        let ids: serde_json::Value = serde_json::from_str(body).unwrap();
        return format!("batch {}", ids["ids"].as_array().map_or(0, Vec::len));
    }
    if r.url.contains("/paper/search") {
        let q = r.url.split("query=").nth(1).unwrap_or_default();
        return format!("search {}", q.split('&').next().unwrap_or_default());
    }
    let path = r.url.split("/paper/").nth(1).unwrap_or_default();
    format!("one {}", path.split('?').next().unwrap_or_default())
}

/// What each candidate came to, in short.
fn outcome(s: &Settled) -> String {
    match s {
        Settled::Decided(Decision::Accepted { .. }) => "accepted".into(),
        Settled::Decided(Decision::Rejected(r)) => format!("rejected {}", r.code()),
        Settled::DecidedBy { decision, service } => {
            let inner = outcome(&Settled::Decided(decision.clone()));
            format!("{inner} by {}", service.name())
        }
        Settled::Unverified(why) => format!("unverified {why}"),
    }
}

/// Drives a run to the end, answering each request with `reply`; returns
/// the requests in short and each candidate's outcome.
fn drive(
    candidates: Vec<Candidate>,
    decided: &[usize],
    mut reply: impl FnMut(&Request) -> Fetched,
) -> (Vec<String>, BTreeMap<usize, String>) {
    let decided: BTreeSet<usize> = decided.iter().copied().collect();
    let mut run = VerifyRun::new(candidates, Endpoints::public(), opts(), &decided);
    let (mut sent, mut got) = (Vec::new(), BTreeMap::new());
    for _ in 0..10_000 {
        match run.next_ask().unwrap() {
            Next::Ask(req) => {
                sent.push(short(&req));
                for (i, s) in run.answer(reply(&req)) {
                    assert!(got.insert(i, outcome(&s)).is_none(), "{i} settled twice");
                }
            }
            Next::AwaitReply => panic!("a reply was handed back, yet the run waits"),
            Next::Done => return (sent, got),
        }
    }
    panic!("the run did not end")
}

fn answer(status: u16, body: serde_json::Value) -> Fetched {
    Fetched::Answer {
        status,
        body: body.to_string(),
    }
}

#[test]
fn a_batch_record_decides_and_an_unknown_id_falls_back_to_its_title() {
    let cands = vec![
        cand("Attention Is All You Need", Some("10.1/a")),
        cand("Deep Residual Learning", Some("10.1/b")),
        cand("Graph Attention Networks", None),
    ];
    let (sent, got) = drive(cands, &[], |r| match short(r).as_str() {
        "batch 2" => answer(200, json!([paper("Attention is All you Need", 2017), null])),
        _ => answer(200, json!({"total": 0, "data": []})),
    });
    assert_eq!(
        sent,
        [
            "batch 2",
            "search Deep+Residual+Learning",
            "search Graph+Attention+Networks"
        ]
    );
    assert_eq!(got[&0], "accepted");
    // Unknown to the batch is not "no hit": the title search decided it.
    assert_eq!(got[&1], "rejected no_hit");
    assert_eq!(got[&2], "rejected no_hit");
}

#[test]
fn a_refused_batch_preflight_asks_each_id_alone_for_every_chunk() {
    // 501 ids make two chunks; after the first is refused, the second is
    // never sent as a batch.
    let cands: Vec<Candidate> = (0..501)
        .map(|n| cand(&format!("Paper number {n}"), Some(&format!("10.1/{n}"))))
        .collect();
    let (sent, got) = drive(cands, &[], |r| {
        let s = short(r);
        if s.starts_with("batch") {
            Fetched::PreflightRefused
        } else if s == "one DOI:10.1/7" {
            answer(404, json!({"error": "Paper with id DOI:10.1/7 not found"}))
        } else if s.starts_with("one") {
            answer(200, paper("Paper number 3", 2020))
        } else {
            answer(200, json!({"total": 0, "data": []}))
        }
    });
    assert_eq!(sent.iter().filter(|s| s.starts_with("batch")).count(), 1);
    assert_eq!(sent.iter().filter(|s| s.starts_with("one")).count(), 501);
    assert_eq!(got.len(), 501);
    assert_eq!(got[&3], "accepted");
    // A 404 for one id sends that candidate to the title search.
    assert!(
        sent.last().unwrap().starts_with("search Paper+number+7"),
        "{sent:?}"
    );
    assert_eq!(got[&7], "rejected no_hit");
}

#[test]
fn a_failed_request_leaves_its_candidates_unverified_never_rejected() {
    let cands = vec![
        cand("Attention Is All You Need", Some("10.1/a")),
        cand("Graph Attention Networks", None),
    ];
    // Semantic Scholar fails, then OpenAlex (asked in its stead) fails too:
    // both reasons are given.
    let why = "unverified: service unavailable (no readable response)";
    let (sent, got) = drive(cands, &[], |_| Fetched::Failed { reason: why.into() });
    assert_eq!(sent, ["batch 1", "openalex Attention Is All You Need"]);
    let both = format!("unverified {why}; then service unavailable (no readable response)");
    assert_eq!(got[&0], both);
    assert_eq!(got[&1], both);
}

#[test]
fn unreadable_and_error_answers_are_unverified_naming_the_service() {
    let check = |reply: Fetched, expected: &str| {
        let (_, got) = drive(vec![cand("Attention Is All You Need", None)], &[], |_| {
            reply.clone()
        });
        assert!(got[&0].starts_with(expected), "{} / {expected}", got[&0]);
    };
    check(
        Fetched::Answer {
            status: 200,
            body: "<html>".into(),
        },
        "unverified unverified: semantic_scholar sent an unreadable answer",
    );
    check(
        answer(429, json!({"message": "Too Many Requests"})),
        "unverified unverified: ",
    );
    check(
        Fetched::PreflightRefused,
        "unverified unverified: semantic_scholar refused the request's preflight",
    );
}

#[test]
fn a_resumed_run_skips_what_was_decided_and_sends_the_same_batch() {
    let cands = || {
        vec![
            cand("Attention Is All You Need", Some("10.1/a")),
            cand("Deep Residual Learning", Some("10.1/b")),
            cand("Graph Attention Networks", None),
        ]
    };
    let mut first = Vec::new();
    let mut run = VerifyRun::new(cands(), Endpoints::public(), opts(), &BTreeSet::new());
    if let Next::Ask(r) = run.next_ask().unwrap() {
        first.push(r);
    }
    let decided: BTreeSet<usize> = [0].into_iter().collect();
    let mut again = VerifyRun::new(cands(), Endpoints::public(), opts(), &decided);
    let Next::Ask(r) = again.next_ask().unwrap() else {
        panic!("nothing asked")
    };
    // The chunk is cut over the whole list: byte-identical, cache-friendly.
    assert_eq!(Some(&r), first.first());
    let (sent, got) = drive(cands(), &[0, 1], |_| {
        answer(200, json!({"total": 0, "data": []}))
    });
    assert_eq!(sent, ["search Graph+Attention+Networks"]);
    assert_eq!(got.keys().copied().collect::<Vec<_>>(), [2]);
}

#[test]
fn next_waits_while_a_request_is_out_and_a_stray_answer_settles_nothing() {
    let mut run = VerifyRun::new(
        vec![cand("Attention Is All You Need", None)],
        Endpoints::public(),
        opts(),
        &BTreeSet::new(),
    );
    assert!(run.answer(Fetched::PreflightRefused).is_empty());
    assert!(matches!(run.next_ask().unwrap(), Next::Ask(_)));
    assert_eq!(run.next_ask().unwrap(), Next::AwaitReply);
}
