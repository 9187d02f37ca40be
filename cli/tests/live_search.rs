//! `citegate fuse` (search) and `citegate library add --id` live against a
//! loopback server answering with recorded bodies (`core/tests/fixtures/api`).

mod common;

use common::{api_fixture, json_out, run, run_live, stderr, stdout, tempdir, Answer, Hit, Server};

/// Semantic Scholar and OpenAlex answer their recorded "attention mechanism"
/// searches; Crossref is down.
fn searches(hit: &Hit, _: usize) -> Answer {
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
    Answer::status(503, "<html>Service Temporarily Unavailable</html>")
}

fn fuse(server: &Server, query: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["fuse", "--query", query, "--json"];
    args.extend_from_slice(extra);
    run_live(server, &args, &[])
}

#[test]
fn a_live_search_fuses_what_answered_and_names_what_failed() {
    let server = Server::start(searches);
    let o = fuse(&server, "attention mechanism", &["--max-tries", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_out(&o);
    assert_eq!(v["status"], "partial", "{v}");
    assert_eq!(v["failed_backends"], serde_json::json!(["crossref"]));
    let titles: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["title"].as_str())
        .collect();
    // Found by both: fused into one result.
    let faster = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Faster R-CNN"))
        })
        .unwrap_or_else(|| panic!("Faster R-CNN fused: {titles:?}"));
    assert_eq!(faster["found_by"], 2, "{titles:?}");
    // Crossref was tried twice (--max-tries 2) and then reported.
    let crossref = server
        .hits()
        .iter()
        .filter(|h| h.param("query.bibliographic").is_some())
        .count();
    assert_eq!(crossref, 2);
}

#[test]
fn a_query_may_begin_with_a_hyphen() {
    let server = Server::start(searches);
    let o = fuse(&server, "-omics data integration", &["--source", "s2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sent: Vec<String> = server
        .hits()
        .iter()
        .filter_map(|h| h.param("query").map(str::to_string))
        .collect();
    assert_eq!(sent, ["-omics data integration"]);
}

#[test]
fn a_zero_result_search_runs_the_cores_probe() {
    // Nothing for the full query; the probe's baseline (one hit asked) finds some.
    let server = Server::start(|hit, _| {
        if hit.param("limit") == Some("1") {
            return Answer::ok(api_fixture(
                "semanticscholar/search_relevance_with_abstracts.json",
            ));
        }
        if hit.path.ends_with("/paper/search") {
            return Answer::ok(api_fixture("semanticscholar/search_empty_results.json"));
        }
        Answer::ok(r#"{"meta": {"count": 0}, "results": []}"#)
    });
    let o = fuse(
        &server,
        "the sparse attention kernels for long context protein language models",
        &["--source", "s2"],
    );
    let v = json_out(&o);
    assert_eq!(v["probe"]["state"], "hits", "{v}");
    assert_eq!(server.hits().len(), 2);
}

#[test]
fn bad_search_input_is_exit_2() {
    for args in [
        vec!["fuse", "--query", "x", "--source", "nosuch"],
        vec!["fuse", "--query", "x", "--years", "20x"],
        vec!["library", "add", "--library", "l.jsonl"],
    ] {
        let o = run(&args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn library_add_looks_a_work_up_live() {
    let server = Server::start(|hit, _| {
        if hit.path == "/works/10.1038/srep16696" {
            return Answer::ok(api_fixture("crossref/work_by_doi_nature_srep.json"));
        }
        Answer::status(404, "Resource not found.")
    });
    let dir = tempdir();
    let lib = dir.path().join("refs.jsonl").display().to_string();
    let add = |id: &str| {
        let args = [
            "library",
            "add",
            "--library",
            &lib,
            "--id",
            id,
            "--service",
            "crossref",
            "--json",
        ];
        run_live(
            &server,
            &args,
            &[("PAPER_ORCHESTRA_MAILTO", "lab@example.org")],
        )
    };
    let o = add("https://doi.org/10.1038/srep16696");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["count"], 1);
    // The contact address went to Crossref as `mailto`.
    assert_eq!(server.hits()[0].param("mailto"), Some("lab@example.org"));
    // Already present: refused (exit 1), nothing written twice.
    let o = add("10.1038/srep16696");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    // Unknown DOI: the service's answer, exit 1.
    let o = add("10.1000/none");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not found"), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.path().join("refs.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 1);
}
