//! `citegate verify` live against a loopback Semantic Scholar that answers
//! from the recorded relevance search (`core/tests/fixtures/api`), with and
//! without scripted faults; the cache; keys; hyphen values.

mod common;

use common::{
    fast_with, json_out, run, run_live, stderr, stdout, tempdir, verify_rows as rows, write,
    Answer, Hit, Server,
};
use serde_json::Value;
use std::time::Duration;

const CANDIDATES: &str = r#"{"candidates": [
  {"title": "Attention Is All You Need", "discovered_for": ["intro"]},
  {"title": "Faster R-CNN: Towards Real-Time Object Detection with Region Proposal Networks"},
  {"title": "Understanding the difficulty of training deep feedforward neural networks"},
  {"title": "High-Resolution Image Synthesis with Latent Diffusion Models"},
  {"title": "A Malformed Answer"},
  {"title": "A Dropped Connection"},
  {"title": "Asked After The Drop"}
]}"#;

/// The scripted faults by title; everything else answers from the fixture.
fn faulty(hit: &Hit, seen: usize) -> Answer {
    // OpenAlex, which the run asks once Semantic Scholar is given up, is
    // down as well: what is left stays unverified with both reasons.
    if hit.path.ends_with("/works") {
        return Answer::status(503, "openalex is down too");
    }
    let q = hit.param("query").unwrap_or("");
    // The core sends "R-CNN" as "R CNN" (Semantic Scholar reads a hyphen
    // as an operator): titles are matched with every space as a hyphen.
    match (q.replace(' ', "-").as_str(), seen) {
        ("Attention-Is-All-You-Need", 0) => Answer::too_many(None),
        ("Faster-R-CNN:-Towards-Real-Time-Object-Detection-with-Region-Proposal-Networks", 0) => {
            Answer::too_many(Some("0"))
        }
        ("Understanding-the-difficulty-of-training-deep-feedforward-neural-networks", 0 | 1) => {
            Answer::status(500, "internal error")
        }
        ("High-Resolution-Image-Synthesis-with-Latent-Diffusion-Models", 0) => {
            Answer::Hang(Duration::from_millis(1500))
        }
        ("A-Malformed-Answer", _) => Answer::ok("{\"data\": [ {\"title\": "),
        ("A-Dropped-Connection", _) => Answer::DropMidBody(common::api_fixture(
            "semanticscholar/search_empty_results.json",
        )),
        _ => common::s2_search_answer(q),
    }
}

fn verify(
    server: &Server,
    dir: &std::path::Path,
    intervals: &str,
    envs: &[(&str, &str)],
) -> std::process::Output {
    let cands = write(dir, "candidates.json", CANDIDATES);
    let out = dir.join("raw_pool.json").display().to_string();
    let cache = dir.join("cache/s2_cache.json").display().to_string();
    let mut args: Vec<String> = vec![
        "verify".into(),
        "--in".into(),
        cands,
        "--cutoff".into(),
        "2020-01-01".into(),
        "--out".into(),
        out,
        "--cache".into(),
        cache,
        "--json".into(),
    ];
    args.extend(fast_with(server, intervals));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&a, envs)
}

fn searched(server: &Server) -> Vec<String> {
    server
        .hits()
        .iter()
        .filter_map(|h| h.param("query").map(|q| q.replace(' ', "-")))
        .collect()
}

#[test]
fn a_faulty_run_ends_with_every_candidate_decided_or_unverified_and_a_rerun_asks_only_the_rest() {
    let server = Server::start(faulty);
    let dir = tempdir();
    // A retry waits less than the spacing, so the dropped request's second
    // try goes before the next candidate's first.
    let o = verify(&server, dir.path(), "s2=60", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_out(&o);
    let got = rows(&v);
    let expect = [
        "accepted",
        "accepted",
        "rejected:no_abstract",
        "rejected:after_cutoff",
        "error:",
        "error:",
        "error:",
    ];
    for ((title, what), want) in got.iter().zip(expect) {
        assert!(what.starts_with(want), "{title}: {what} (want {want})");
    }
    assert!(got[4].1.contains("parsing"), "{}", got[4].1);
    assert!(got[5].1.contains("semantic_scholar"), "{}", got[5].1);
    // The candidate after the drop is not sent to Semantic Scholar (out for
    // the run) but to OpenAlex, which fails too.
    for row in &got[5..] {
        assert!(row.1.contains("; then openalex answered 503"), "{}", row.1);
    }
    assert_eq!(
        (
            v["n_accepted"].as_u64(),
            v["n_rejected"].as_u64(),
            v["n_undecided"].as_u64()
        ),
        (Some(2), Some(2), Some(3))
    );
    // Retries: 429 twice, 500 twice, hang once; the drop is waited out
    // four times (core::fetch::service_step) before S2 is given up; the
    // candidate after the drop was never sent.
    let sent = searched(&server);
    let count = |t: &str| {
        let t = t.replace(' ', "-");
        sent.iter().filter(|q| **q == t).count()
    };
    assert_eq!(count("Attention Is All You Need"), 2);
    assert_eq!(
        count("Faster R-CNN: Towards Real-Time Object Detection with Region Proposal Networks"),
        2
    );
    assert_eq!(
        count("Understanding the difficulty of training deep feedforward neural networks"),
        3
    );
    assert_eq!(
        count("High-Resolution Image Synthesis with Latent Diffusion Models"),
        2
    );
    assert_eq!(count("A Dropped Connection"), 5);
    assert_eq!(count("Asked After The Drop"), 0);
    let pool: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("raw_pool.json")).unwrap())
            .unwrap();
    assert_eq!(pool["papers"].as_array().map(Vec::len), Some(2));

    // The rerun, fault-free: only what was never answered goes out.
    let server2 = Server::start(|h, _| common::s2_search_answer(h.param("query").unwrap_or("")));
    let o = verify(&server2, dir.path(), "s2=5", &[]);
    let v = json_out(&o);
    let mut again = searched(&server2);
    again.sort();
    assert_eq!(
        again,
        [
            "A-Dropped-Connection",
            "A-Malformed-Answer",
            "Asked-After-The-Drop"
        ]
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let got = rows(&v);
    assert_eq!(got[4].1, "rejected:no_hit");
    assert_eq!(got[0].1, "accepted");

    // A third run is answered wholly from the cache.
    let server3 = Server::start(|_, _| Answer::status(500, "must not be asked"));
    let o = verify(&server3, dir.path(), "s2=5", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(server3.hits().is_empty());
}

#[test]
fn the_cache_is_the_reference_layout_and_holds_no_key() {
    let server = Server::start(|h, _| common::s2_search_answer(h.param("query").unwrap_or("")));
    let dir = tempdir();
    let secret = "s2-SECRET-key-0123456789";
    let o = verify(&server, dir.path(), "s2=5", &[("S2_API_KEY", secret)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The key went to Semantic Scholar, in the header only.
    for h in server.hits() {
        assert_eq!(h.headers.get("x-api-key").map(String::as_str), Some(secret));
        assert!(!h.target.contains(secret));
    }
    let cache = std::fs::read_to_string(dir.path().join("cache/s2_cache.json")).unwrap();
    assert!(!cache.contains(secret));
    assert!(!stdout(&o).contains(secret) && !stderr(&o).contains(secret));
    let v: Value = serde_json::from_str(&cache).unwrap();
    // s2_cache.py's norm_key → the raw search response.
    assert_eq!(
        v["attentionisallyouneed"]["data"][0]["title"].as_str(),
        Some("Attention is All you Need")
    );
    assert_eq!(v["amalformedanswer"]["total"].as_u64(), Some(0));
    // No temporary file is left next to it, only the lock that processes
    // sharing the file take turns on.
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("cache"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".s2_cache.json.lock", "s2_cache.json"]);
}

#[test]
fn a_seed_cache_is_reused() {
    // An s2_cache.json as s2_cache.py --store writes it: no request is made.
    let server = Server::start(|_, _| Answer::status(500, "must not be asked"));
    let dir = tempdir();
    let cache = serde_json::json!({
        "onlycached": {"total": 1, "data": [{"paperId": "x1", "title": "Only Cached",
            "abstract": "a", "year": 2019, "publicationDate": "2019-05-01"}]}
    });
    std::fs::create_dir_all(dir.path().join("cache")).unwrap();
    write(
        &dir.path().join("cache"),
        "s2_cache.json",
        &cache.to_string(),
    );
    let cands = write(dir.path(), "c.json", r#"[{"title": "Only  Cached!"}]"#);
    let cache_path = dir.path().join("cache/s2_cache.json").display().to_string();
    let args = [
        "verify",
        "--in",
        &cands,
        "--cutoff",
        "2020-01-01",
        "--cache",
        &cache_path,
        "--json",
    ];
    let o = run_live(&server, &args, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["n_accepted"].as_u64(), Some(1));
    assert!(server.hits().is_empty());
}

#[test]
fn bad_live_settings_are_bad_input() {
    let dir = tempdir();
    let cands = write(dir.path(), "c.json", r#"[{"title": "T"}]"#);
    for (flags, want) in [
        (vec!["--interval-ms", "s2"], "service=milliseconds"),
        (vec!["--interval-ms", "nosuch=5"], "unknown service"),
        (vec!["--s2-base", "-not-a-url"], "not a base url"),
        (vec!["--cutoff-x"], "unexpected argument"),
    ] {
        let mut args = vec!["verify", "--in", &cands, "--cutoff", "2020-01-01"];
        args.extend(flags);
        let o = run(&args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).to_lowercase().contains(want),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let bad_cache = write(dir.path(), "bad.json", "[1, 2]");
    let o = run(
        &[
            "verify",
            "--in",
            &cands,
            "--cutoff",
            "2020-01-01",
            "--cache",
            &bad_cache,
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_config_file_sets_bases_and_intervals() {
    let server = Server::start(|h, _| common::s2_search_answer(h.param("query").unwrap_or("")));
    let dir = tempdir();
    let cfg = write(
        dir.path(),
        "citegate.toml",
        &format!(
            "timeout_ms = 2000\nbackoff_ms = 5\n[base]\ns2 = \"{}\"\n[interval_ms]\ns2 = 5\n",
            server.base
        ),
    );
    let cands = write(
        dir.path(),
        "c.json",
        r#"[{"title": "Attention Is All You Need"}, {"title": "-omics data"}]"#,
    );
    let o = run(
        &[
            "verify",
            "--in",
            &cands,
            "--cutoff",
            "2020-01-01",
            "--config",
            &cfg,
            "--json",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["n_accepted"].as_u64(), Some(1));
    assert_eq!(server.hits().len(), 2);
    let bad = write(dir.path(), "bad.toml", "s2_api_key = \"x\"\n");
    let o = run(
        &[
            "verify",
            "--in",
            &cands,
            "--cutoff",
            "2020-01-01",
            "--config",
            &bad,
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown field"), "{}", stderr(&o));
}

#[test]
fn live_and_recorded_runs_print_the_same_json() {
    // The cache a live run writes is a recorded-responses file keyed by
    // normalized title: read back with --responses, it gives the same report.
    let server = Server::start(|h, _| common::s2_search_answer(h.param("query").unwrap_or("")));
    let dir = tempdir();
    let live = verify(&server, dir.path(), "s2=5", &[]);
    assert_eq!(live.status.code(), Some(0), "{}", stderr(&live));
    let cache = dir.path().join("cache/s2_cache.json").display().to_string();
    let cands = dir.path().join("candidates.json").display().to_string();
    let recorded = run(
        &[
            "verify",
            "--in",
            &cands,
            "--cutoff",
            "2020-01-01",
            "--responses",
            &cache,
            "--json",
        ],
        &[],
    );
    assert_eq!(recorded.status.code(), Some(0), "{}", stderr(&recorded));
    assert_eq!(json_out(&live), json_out(&recorded));
}

#[test]
fn no_progress_is_drawn_when_stderr_is_not_a_terminal() {
    let server = Server::start(|h, _| common::s2_search_answer(h.param("query").unwrap_or("")));
    let dir = tempdir();
    let cands = write(
        dir.path(),
        "c.json",
        r#"[{"title": "Attention Is All You Need"}]"#,
    );
    let o = run_live(
        &server,
        &["verify", "--in", &cands, "--cutoff", "2020-01-01"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
    assert!(stdout(&o).contains("1 accepted"), "{}", stdout(&o));
}

#[test]
fn semantic_scholar_shut_the_pool_is_accepted_on_openalex_records_and_says_so() {
    // Semantic Scholar answers 429 to everything; OpenAlex holds two of the
    // three titles, with abstracts and dates.
    let server = Server::start(|h, _| {
        if !h.path.ends_with("/works") {
            return Answer::too_many(None);
        }
        let search = h.param("search").unwrap_or("");
        let work = |title: &str, date: &str| {
            serde_json::json!({"id": "https://openalex.org/W7", "title": title, "display_name": title,
                "publication_date": date, "publication_year": date[..4].parse::<i32>().unwrap(),
                "abstract_inverted_index": {"An": [0], "abstract": [1]}})
        };
        let results = if search.contains('"') {
            vec![
                work("Attention Is All You Need", "2017-06-12"),
                work("Deep Residual Learning for Image Recognition", "2015-12-10"),
            ]
        } else {
            Vec::new()
        };
        Answer::ok(
            serde_json::json!({"meta": {"count": results.len()}, "results": results}).to_string(),
        )
    });
    let dir = tempdir();
    let cands = write(
        dir.path(),
        "candidates.json",
        r#"{"candidates": [
          {"title": "Attention Is All You Need"},
          {"title": "Deep Residual Learning for Image Recognition"},
          {"title": "A Paper That Only Semantic Scholar Might Know"}
        ]}"#,
    );
    let out = dir.path().join("raw_pool.json").display().to_string();
    let o = run_live(
        &server,
        &[
            "verify",
            "--in",
            &cands,
            "--cutoff",
            "2020-01-01",
            "--out",
            &out,
            "--json",
        ],
        &[],
    );
    let v = json_out(&o);
    let got = rows(&v);
    assert_eq!(got[0].1, "accepted", "{}", stderr(&o));
    assert_eq!(got[1].1, "accepted");
    // OpenAlex lacking a title does not reject it: undecided, both reasons.
    assert!(got[2].1.starts_with("error:"), "{}", got[2].1);
    assert!(
        got[2]
            .1
            .contains("; then openalex found no paper with this title"),
        "{}",
        got[2].1
    );
    let pool: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    for p in pool["papers"].as_array().unwrap() {
        assert_eq!(p["verified_by"], "openalex", "{p}");
    }
    // Semantic Scholar was given up once; the rest went to OpenAlex.
    let s2 = server
        .hits()
        .iter()
        .filter(|h| !h.path.ends_with("/works"))
        .count();
    assert!((2..=6).contains(&s2), "{s2} requests to semantic scholar");
}
