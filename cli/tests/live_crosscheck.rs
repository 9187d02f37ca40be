//! `citegate crosscheck` live against a loopback Crossref and OpenAlex that
//! answer the core's batch requests (`filter=doi:a,doi:b`, `filter=doi:a|b`)
//! with the recorded bodies of `tests/fixtures/crosscheck` (copies of
//! `core/tests/fixtures/api`), with scripted faults: the report is the one
//! the recorded run gives, and a rerun with the cache asks nothing answered.

mod common;

use common::{batch_answer, json_out, run, run_live, stderr, Answer, Hit, Server};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn fixture(rel: &str) -> String {
    let p = common::fixtures().join("crosscheck").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Crossref from the recorded bodies: the two DOI papers by batch, the
/// phantom's title search; OpenAlex down (503), as the recorded
/// `dir/openalex` says.
fn recorded_world(hit: &Hit) -> Answer {
    let records = [
        (
            "10.1371/journal.pone.0033693",
            fixture("dir/crossref/plos2012.json"),
        ),
        ("10.1038/srep16696", fixture("dir/crossref/srep2013.json")),
    ];
    if let Some(a) = batch_answer(hit, &records) {
        return a;
    }
    match hit.path.as_str() {
        "/works" if hit.param("query.bibliographic").is_some() => {
            Answer::ok(fixture("dir/crossref/phantom2021.json"))
        }
        _ => Answer::status(404, "Resource not found."),
    }
}

fn crosscheck(server: &Server, dir: &std::path::Path) -> std::process::Output {
    let pool = common::fixtures()
        .join("crosscheck/pool_dir.json")
        .display()
        .to_string();
    let cache = dir.join("s2_cache.json").display().to_string();
    run_live(
        server,
        &["crosscheck", "--pool", &pool, "--json", "--cache", &cache],
        &[("OPENALEX_API_KEY", "oa-SECRET-42")],
    )
}

#[test]
fn live_faulty_run_gives_the_recorded_report_and_a_rerun_asks_nothing_answered() {
    let faulty = Arc::new(AtomicBool::new(true));
    let on = Arc::clone(&faulty);
    let server = Server::start(move |hit, seen| {
        let faults = on.load(Ordering::SeqCst);
        let openalex = hit.param("mailto").is_none() && hit.param("api_key").is_some();
        if openalex {
            // OpenAlex: down for the whole first run, then holding none of
            // the papers (an empty list, as it answers a batch or a search).
            if faults {
                return Answer::status(503, "Service Unavailable");
            }
            return Answer::ok(r#"{"meta": {"count": 0, "page": 1}, "results": []}"#);
        }
        // Crossref: its batch is rate-limited twice (with and without a
        // Retry-After), its title search fails once.
        let batch = hit.batch_dois().is_some();
        match (faults, batch, seen) {
            (true, true, 0) => Answer::too_many(Some("0")),
            (true, true, 1) => Answer::too_many(None),
            (true, false, 0) => Answer::status(500, "<html>oops</html>"),
            _ => recorded_world(hit),
        }
    });
    let dir = common::tempdir();
    let live = crosscheck(&server, dir.path());
    assert_eq!(live.status.code(), Some(1), "{}", stderr(&live));
    let live_json = json_out(&live);

    let recorded = run(
        &[
            "crosscheck",
            "--pool",
            &common::fixtures()
                .join("crosscheck/pool_dir.json")
                .display()
                .to_string(),
            "--crossref",
            &common::fixtures()
                .join("crosscheck/dir/crossref")
                .display()
                .to_string(),
            "--openalex",
            &common::fixtures()
                .join("crosscheck/dir/openalex")
                .display()
                .to_string(),
            "--json",
        ],
        &[],
    );
    assert_eq!(live_json, json_out(&recorded));
    assert_eq!(
        live_json["indices_unavailable"],
        serde_json::json!(["openalex"])
    );
    // The OpenAlex key went to OpenAlex only.
    for h in server.hits() {
        let to_openalex = h.param("api_key").is_some();
        assert!(!h.target.contains("oa-SECRET-42") || to_openalex, "{h:?}");
    }
    let cache = std::fs::read_to_string(dir.path().join("s2_cache.json")).unwrap();
    assert!(!cache.contains("oa-SECRET-42"));
    assert!(!stderr(&live).contains("oa-SECRET-42"));

    // Rerun without faults: the Crossref answers come from the cache.
    let answered: Vec<(String, String)> = server
        .hits()
        .into_iter()
        .filter(|h| matches!(h.answered, 200 | 404))
        .map(|h| (h.method, h.target))
        .collect();
    // One Crossref batch for the two DOI papers, one search for the third.
    assert_eq!(answered.len(), 2, "{answered:?}");
    faulty.store(false, Ordering::SeqCst);
    server.clear();
    let again = crosscheck(&server, dir.path());
    let sent: Vec<(String, String)> = server
        .hits()
        .into_iter()
        .map(|h| (h.method, h.target))
        .collect();
    assert!(sent.iter().all(|r| !answered.contains(r)), "{sent:?}");
    assert!(
        !sent.is_empty(),
        "openalex was never answered, so it is asked"
    );
    assert!(json_out(&again)["indices_unavailable"]
        .as_array()
        .unwrap()
        .is_empty());
}
