//! `citegate verify` live drives the core's pool verification machine:
//! candidates with a DOI or an arXiv id go out in `POST /paper/batch`
//! requests of at most 500 ids, the rest as one title search each, and an id
//! the batch does not know falls back to its title. Counted at a loopback
//! Semantic Scholar, so a return to one search per candidate fails here.

mod common;

use common::s2_pool::{self, Paper};
use common::{
    json_out, run_live, stderr, stdout, tempdir, verify_rows as rows, write, Answer, Server,
};
use serde_json::{json, Value};

/// The papers the server knows; none is known by the DOI `10.1000/gone`.
fn papers() -> Vec<Paper> {
    vec![
        Paper::new("Sparse Attention Routing", "2018-03-01").doi("10.1000/a1"),
        Paper::new("Graph Kernels at Scale", "2019-05-02").doi("10.1000/a2"),
        Paper::new("Tokenizers Considered Harmful", "2021-01-10").doi("10.1000/a3"),
        Paper::new("Lost in the Index", "2017-07-07"),
        Paper::new("Contrastive Pretraining of Lenses", "2019-01-05").arxiv("1901.00001"),
        Paper::new("Diffusion on Manifolds", "2019-02-06").arxiv("1902.00002"),
        Paper::new("Robust Sparse Recovery", "2016-04-04").doi("10.1000/a7"),
        Paper::new("Kernel Mean Embeddings", "2015-09-09").doi("10.1000/a8"),
        Paper::new("Learning to Rank Citations", "2018-11-11"),
        Paper::new("Benchmarks That Age Well", "2019-10-10"),
        Paper::new("A Late Result", "2022-02-02"),
    ]
}

/// Twelve candidates: eight with an id (one the service does not know),
/// four by title alone (one the service does not know).
fn candidates() -> Value {
    json!({"candidates": [
        {"title": "Sparse Attention Routing", "doi": "10.1000/a1"},
        {"title": "Graph Kernels at Scale", "doi": "https://doi.org/10.1000/A2"},
        {"title": "Tokenizers Considered Harmful", "doi": "10.1000/a3"},
        {"title": "Lost in the Index", "doi": "10.1000/gone"},
        {"title": "Contrastive Pretraining of Lenses", "url": "https://arxiv.org/abs/1901.00001v2"},
        {"title": "Diffusion on Manifolds", "doi": "10.48550/arXiv.1902.00002"},
        {"title": "Robust Sparse Recovery", "externalIds": {"DOI": "10.1000/a7"}},
        {"title": "Kernel Mean Embeddings", "doi": "10.1000/a8"},
        {"title": "Learning to Rank Citations"},
        {"title": "Benchmarks That Age Well"},
        {"title": "A Late Result"},
        {"title": "A Paper Nobody Wrote"}
    ]})
}

fn verify(
    server: &Server,
    dir: &std::path::Path,
    cands: &Value,
    json: bool,
) -> std::process::Output {
    let cands = write(dir, "candidates.json", &cands.to_string());
    let cache = dir.join("cache.json").display().to_string();
    let mut args = vec![
        "verify",
        "--in",
        &cands,
        "--cutoff",
        "2020-01-01",
        "--cache",
        &cache,
    ];
    if json {
        args.push("--json");
    }
    run_live(server, &args, &[])
}

#[test]
fn ids_go_out_in_one_batch_titles_as_searches_and_an_unknown_id_falls_back_to_its_title() {
    let server = s2_pool::server(papers());
    let dir = tempdir();
    let o = verify(&server, dir.path(), &candidates(), true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut sent = s2_pool::requests(&server);
    sent.sort();
    // Twelve candidates, six requests (one search each would be twelve).
    assert_eq!(
        sent,
        [
            "batch 8",
            "search A Late Result",
            "search A Paper Nobody Wrote",
            "search Benchmarks That Age Well",
            "search Learning to Rank Citations",
            "search Lost in the Index",
        ]
    );
    let v = json_out(&o);
    let got: Vec<String> = rows(&v).into_iter().map(|(_, w)| w).collect();
    assert_eq!(
        got,
        [
            "accepted",
            "accepted",
            "rejected:after_cutoff",
            "accepted",
            "accepted",
            "accepted",
            "accepted",
            "accepted",
            "accepted",
            "accepted",
            "rejected:after_cutoff",
            "rejected:no_hit",
        ]
    );
    assert_eq!(
        (
            v["n_candidates"].as_u64(),
            v["n_accepted"].as_u64(),
            v["n_rejected"].as_u64(),
            v["n_undecided"].as_u64()
        ),
        (Some(12), Some(9), Some(3), Some(0))
    );
    // Rows stay in candidate order with their index.
    let idx: Vec<u64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["index"].as_u64())
        .collect();
    assert_eq!(idx, (0..12).collect::<Vec<u64>>());

    // A rerun is answered from the cache, the batch included.
    server.clear();
    let again = verify(&server, dir.path(), &candidates(), true);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(server.hits().is_empty(), "{:?}", s2_pool::requests(&server));
    assert_eq!(json_out(&again), v);
}

#[test]
fn more_than_500_ids_are_cut_into_batches_of_500() {
    let n = 1001;
    let papers: Vec<Paper> = (0..n)
        .map(|i| {
            Paper::new(&format!("Study number {i}"), "2010-01-01").doi(&format!("10.1000/s{i}"))
        })
        .collect();
    let cands: Vec<Value> = (0..n)
        .map(|i| json!({"title": format!("Study number {i}"), "doi": format!("10.1000/s{i}")}))
        .collect();
    let server = s2_pool::server(papers);
    let dir = tempdir();
    let o = verify(&server, dir.path(), &json!(cands), true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // 1001 candidates, three requests.
    let sent = s2_pool::requests(&server);
    assert_eq!(sent.len(), 3, "{:?}", &sent[..sent.len().min(5)]);
    assert_eq!(sent, ["batch 500", "batch 500", "batch 1"]);
    assert_eq!(json_out(&o)["n_accepted"].as_u64(), Some(n));
}

#[test]
fn a_failing_semantic_scholar_leaves_every_candidate_undecided_with_the_reason_never_rejected() {
    let server = Server::start(|_, _| Answer::status(500, "internal error"));
    let dir = tempdir();
    let cands = json!([
        {"title": "Sparse Attention Routing", "doi": "10.1000/a1"},
        {"title": "Graph Kernels at Scale", "doi": "10.1000/a2"},
        {"title": "Learning to Rank Citations"}
    ]);
    let o = verify(&server, dir.path(), &cands, true);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_out(&o);
    for (title, what) in rows(&v) {
        assert!(
            what.starts_with("error:") && what.contains("http 500"),
            "{title}: {what}"
        );
    }
    assert_eq!(
        (
            v["n_accepted"].as_u64(),
            v["n_rejected"].as_u64(),
            v["n_undecided"].as_u64()
        ),
        (Some(0), Some(0), Some(3))
    );
    // The batch and the title search, each tried three times; never one
    // search per candidate.
    let sent = s2_pool::requests(&server);
    assert_eq!(
        sent.iter().filter(|r| *r == "batch 2").count(),
        3,
        "{sent:?}"
    );
    assert!(
        !sent.iter().any(|r| r.starts_with("search Sparse")),
        "{sent:?}"
    );

    // The text output says why, row by row.
    let o = verify(&server, dir.path(), &cands, false);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("Sparse Attention Routing\n    undecided: "),
        "{text}"
    );
    assert!(
        text.ends_with("3 candidates: 0 accepted, 0 rejected, 3 undecided\n"),
        "{text}"
    );
}

#[test]
fn a_dropped_connection_leaves_every_candidate_undecided_with_the_transport_reason() {
    // Every answer breaks off in the middle of its body.
    let server = Server::start(|_, _| Answer::DropMidBody("[null, null]".into()));
    let dir = tempdir();
    let cands = json!([
        {"title": "Sparse Attention Routing", "doi": "10.1000/a1"},
        {"title": "Learning to Rank Citations"}
    ]);
    let o = verify(&server, dir.path(), &cands, true);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    for (title, what) in rows(&json_out(&o)) {
        assert!(
            what.starts_with("error:service unavailable (semantic_scholar"),
            "{title}: {what}"
        );
    }
    // Semantic Scholar is given up after the batch's retries: the title is
    // never searched there.
    let sent = s2_pool::requests(&server);
    assert!(sent.iter().any(|r| r == "batch 1"), "{sent:?}");
    assert!(!sent.iter().any(|r| r.starts_with("search ")), "{sent:?}");
}
