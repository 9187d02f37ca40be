//! `citegate pool-chain`: the whole literature pipeline in a workspace, live
//! against a loopback server with the recorded bodies.

mod common;

use common::{api_fixture, json_out, run, run_live, stderr, tempdir, Answer, Server};

const RAW: &str = r#"{"candidates": [
  {"title": "Attention Is All You Need", "discovered_for": ["intro.1"]},
  {"title": "Attention is all you need", "discovered_for": ["rw.2"]},
  {"title": "Faster R-CNN: Towards Real-Time Object Detection with Region Proposal Networks", "discovered_for": ["rw.1"]},
  {"title": "Understanding the difficulty of training deep feedforward neural networks", "discovered_for": ["rw.1"]}
]}"#;

fn server() -> Server {
    Server::start(|hit, _| {
        if hit.path.ends_with("/paper/search") {
            return common::s2_search_answer(hit.param("query").unwrap_or(""));
        }
        if hit.param("search").is_some() {
            return Answer::ok(api_fixture(
                "openalex/search_attention_mechanism_with_abstracts.json",
            ));
        }
        if hit.param("query.bibliographic").is_some() {
            return Answer::ok(api_fixture("crossref/search_query_ecology_rows2.json"));
        }
        Answer::status(404, "Resource not found.")
    })
}

fn chain(server: &Server, ws: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let ws_s = ws.display().to_string();
    let mut args = vec![
        "pool-chain",
        "--workspace",
        &ws_s,
        "--cutoff",
        "2024-10-01",
        "--json",
    ];
    args.extend_from_slice(extra);
    run_live(server, &args, &[])
}

#[test]
fn the_chain_writes_every_step_with_the_seed_names() {
    let server = server();
    let ws = tempdir();
    common::write(ws.path(), "raw_candidates.json", RAW);
    let o = chain(&server, ws.path(), &["--no-crosscheck"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_out(&o);
    let steps: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["step"].as_str())
        .collect();
    assert_eq!(
        steps,
        ["pre_dedup", "verify", "dedupe", "validate", "bibtex"]
    );
    for f in [
        "deduped_candidates.json",
        "raw_pool.json",
        "citation_pool.json",
        "refs.bib",
        "cache/s2_cache.json",
    ] {
        assert!(ws.path().join(f).exists(), "{f}");
    }
    // The duplicate was merged before verification: three searches.
    assert_eq!(server.hits().len(), 3);
    assert_eq!(v["steps"][1]["detail"]["n_accepted"], 2);
    let bib = std::fs::read_to_string(ws.path().join("refs.bib")).unwrap();
    assert_eq!(bib.matches('@').count(), 2, "{bib}");

    // Rerun: the searches come from the workspace cache.
    server.clear();
    let o = chain(&server, ws.path(), &["--no-crosscheck"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(server.hits().is_empty());
}

#[test]
fn the_chain_cross_checks_and_reports_what_needs_review() {
    let server = server();
    let ws = tempdir();
    common::write(ws.path(), "raw_candidates.json", RAW);
    let o = chain(&server, ws.path(), &[]);
    // Crossref's only hit is an unrelated paper: flagged, exit 1.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(ws.path().join("cross_verification_report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["total_papers"], 2);
    let pool: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(ws.path().join("citation_pool.json")).unwrap(),
    )
    .unwrap();
    for p in pool["papers"].as_array().unwrap() {
        assert!(p.get("cross_verification").is_some(), "{p}");
        assert!(p.get("bibtex_key").is_some(), "{p}");
    }
}

#[test]
fn a_missing_workspace_is_bad_input() {
    let ws = tempdir();
    let o = run(
        &[
            "pool-chain",
            "--workspace",
            &ws.path().join("none").display().to_string(),
            "--cutoff",
            "2024-10-01",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&["pool-chain", "--cutoff", "October"], &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_chain_verifies_candidates_with_ids_in_one_batch() {
    use common::s2_pool::{self, Paper};
    let server = s2_pool::server(vec![
        Paper::new("Sparse Attention Routing", "2018-03-01").doi("10.1000/a1"),
        Paper::new("Graph Kernels at Scale", "2019-05-02").arxiv("1905.00002"),
        Paper::new("Learning to Rank Citations", "2018-11-11"),
    ]);
    let ws = tempdir();
    common::write(
        ws.path(),
        "raw_candidates.json",
        r#"[{"title": "Sparse Attention Routing", "doi": "10.1000/a1"},
            {"title": "Graph Kernels at Scale", "url": "https://arxiv.org/abs/1905.00002"},
            {"title": "Learning to Rank Citations"}]"#,
    );
    let o = chain(&server, ws.path(), &["--no-crosscheck"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Three candidates, two requests (one search each would be three).
    assert_eq!(
        s2_pool::requests(&server),
        ["batch 2", "search Learning to Rank Citations"]
    );
    assert_eq!(json_out(&o)["steps"][1]["detail"]["n_accepted"], 3);
}
