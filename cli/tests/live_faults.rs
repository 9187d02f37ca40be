//! The fault matrix: crosscheck, fuse and library add live against a
//! loopback server that misbehaves the first N times it is asked each
//! request (429 bursts with and without Retry-After, 500s, a connection
//! dropped mid-body, a hang past the timeout, malformed JSON), then answers
//! from the recorded bodies. A fault the core's retries outlast must leave
//! the result of a clean run; one they do not must end with the service
//! named as unavailable, never with a silent "not found".

mod common;

use common::{api_fixture, batch_answer, fast, json_out, run, stderr, Answer, Hit, Server};
use serde_json::Value;
use std::time::Duration;

#[derive(Clone, Copy, Debug)]
enum Fault {
    TooMany,
    TooManyRetryAfter,
    Server,
    Drop,
    Hang,
    Malformed,
}

impl Fault {
    fn answer(self) -> Answer {
        match self {
            Fault::TooMany => Answer::too_many(None),
            Fault::TooManyRetryAfter => Answer::too_many(Some("0")),
            Fault::Server => Answer::status(500, "<html>Internal Server Error</html>"),
            Fault::Drop => {
                Answer::DropMidBody(api_fixture("crossref/work_by_doi_plos_article.json"))
            }
            Fault::Hang => Answer::Hang(Duration::from_millis(1200)),
            Fault::Malformed => Answer::ok("{\"message\": {\"items\": [ {\"DOI\": "),
        }
    }
}

/// `(fault, times, recovers)`: with --max-tries 3, two 429s or 500s are
/// outlasted and three are not; one lost answer is retried, two make the
/// service unavailable; a malformed body is not retried.
const MATRIX: [(Fault, usize, bool); 10] = [
    (Fault::TooMany, 2, true),
    (Fault::TooMany, 3, false),
    (Fault::TooManyRetryAfter, 2, true),
    (Fault::TooManyRetryAfter, 5, false),
    (Fault::Server, 2, true),
    (Fault::Server, 3, false),
    (Fault::Drop, 1, true),
    (Fault::Drop, 2, false),
    (Fault::Hang, 1, true),
    (Fault::Malformed, 1, false),
];

/// A server whose Crossref requests fail `times` times with `fault`, then
/// answer with `ok`; other services answer with `other`.
fn faulty(fault: Fault, times: usize, ok: fn(&Hit) -> Answer, other: fn(&Hit) -> Answer) -> Server {
    Server::start(move |hit, seen| {
        let crossref_batch = hit.batch_dois().is_some() && hit.param("rows").is_some();
        let crossref = hit.param("mailto").is_none()
            && (crossref_batch
                || hit.path.starts_with("/works/10.")
                || hit.param("query.bibliographic").is_some());
        if !crossref {
            return other(hit);
        }
        if seen < times {
            fault.answer()
        } else {
            ok(hit)
        }
    })
}

fn crossref_ok(hit: &Hit) -> Answer {
    let records = [
        (
            "10.1371/journal.pone.0033693",
            api_fixture("crossref/work_by_doi_plos_article.json"),
        ),
        (
            "10.1038/srep16696",
            api_fixture("crossref/work_by_doi_nature_srep.json"),
        ),
    ];
    if let Some(a) = batch_answer(hit, &records) {
        return a;
    }
    match hit.path.as_str() {
        "/works/10.1371/journal.pone.0033693" => {
            Answer::ok(api_fixture("crossref/work_by_doi_plos_article.json"))
        }
        "/works/10.1038/srep16696" => {
            Answer::ok(api_fixture("crossref/work_by_doi_nature_srep.json"))
        }
        "/works" => Answer::ok(api_fixture("crossref/search_query_ecology_rows2.json")),
        _ => Answer::status(404, "Resource not found."),
    }
}

fn s2_and_openalex(hit: &Hit) -> Answer {
    // OpenAlex holds neither DOI of the pool.
    if let Some(a) = batch_answer(hit, &[]) {
        return a;
    }
    if hit.path.ends_with("/paper/search") {
        return Answer::ok(api_fixture(
            "semanticscholar/search_relevance_with_abstracts.json",
        ));
    }
    if hit.param("search").is_some() {
        return Answer::ok(api_fixture(
            "openalex/search_attention_mechanism_with_abstracts.json",
        ));
    }
    Answer::status(404, "{\"error\": \"not found\"}")
}

fn live(server: &Server, args: &[&str]) -> std::process::Output {
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(fast(server));
    all.push("--max-tries".into());
    all.push("3".into());
    let a: Vec<&str> = all.iter().map(String::as_str).collect();
    run(&a, &[])
}

fn crosscheck(server: &Server) -> (Option<i32>, Value) {
    let pool = common::fixtures()
        .join("crosscheck/pool_dir.json")
        .display()
        .to_string();
    let o = live(server, &["crosscheck", "--pool", &pool, "--json"]);
    (o.status.code(), json_out(&o))
}

#[test]
fn crosscheck_under_every_fault() {
    let clean = faulty(Fault::Server, 0, crossref_ok, s2_and_openalex);
    let (_, want) = crosscheck(&clean);
    assert!(
        want["indices_unavailable"].as_array().unwrap().is_empty(),
        "{want}"
    );
    for (fault, times, recovers) in MATRIX {
        let server = faulty(fault, times, crossref_ok, s2_and_openalex);
        let (code, got) = crosscheck(&server);
        assert_eq!(got["total_papers"], 3, "{fault:?}×{times}");
        if recovers {
            assert_eq!(got, want, "{fault:?}×{times}");
        } else {
            assert_eq!(code, Some(1), "{fault:?}×{times}");
            assert_eq!(
                got["indices_unavailable"],
                serde_json::json!(["crossref"]),
                "{fault:?}×{times}"
            );
        }
    }
}

fn fuse(server: &Server) -> (Option<i32>, Value) {
    let o = live(
        server,
        &["fuse", "--query", "attention mechanism", "--json"],
    );
    (o.status.code(), json_out(&o))
}

#[test]
fn search_under_every_fault() {
    let (_, want) = fuse(&faulty(Fault::Server, 0, crossref_ok, s2_and_openalex));
    assert_eq!(want["failed_backends"], serde_json::json!([]), "{want}");
    for (fault, times, recovers) in MATRIX {
        let (code, got) = fuse(&faulty(fault, times, crossref_ok, s2_and_openalex));
        if recovers {
            assert_eq!(got, want, "{fault:?}×{times}");
        } else {
            assert_eq!(code, Some(0), "{fault:?}×{times}: partial is a result");
            assert_eq!(got["status"], "partial", "{fault:?}×{times}");
            assert_eq!(got["failed_backends"], serde_json::json!(["crossref"]));
        }
    }
}

#[test]
fn library_add_under_every_fault() {
    for (fault, times, recovers) in MATRIX {
        let server = faulty(fault, times, crossref_ok, s2_and_openalex);
        let dir = common::tempdir();
        let lib = dir.path().join("refs.jsonl").display().to_string();
        let o = live(
            &server,
            &[
                "library",
                "add",
                "--library",
                &lib,
                "--id",
                "10.1038/srep16696",
                "--service",
                "crossref",
            ],
        );
        if recovers {
            assert_eq!(
                o.status.code(),
                Some(0),
                "{fault:?}×{times}: {}",
                stderr(&o)
            );
        } else {
            assert_eq!(o.status.code(), Some(1), "{fault:?}×{times}");
            assert!(
                stderr(&o).contains("crossref"),
                "{fault:?}×{times}: {}",
                stderr(&o)
            );
            assert!(!dir.path().join("refs.jsonl").exists());
        }
    }
}
