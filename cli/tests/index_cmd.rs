//! `citegate index build|info|lookup` on the index crate's sample dumps
//! (index/tests/fixtures, see PROVENANCE.md there).

mod common;

use common::run;
use serde_json::Value;
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../index/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("json on stdout")
}

#[test]
fn build_reads_every_kind_of_dump_and_a_rerun_reads_none_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ix").display().to_string();
    let (dblp, arxiv, oa, cr) = (
        fixture("dblp-sample.xml"),
        fixture("arxiv-snapshot.jsonl"),
        fixture("openalex/part_000.gz"),
        fixture("crossref-0.json.gz"),
    );
    let args = [
        "index",
        "build",
        "--out",
        &dir,
        "--dblp",
        &dblp,
        "--arxiv",
        &arxiv,
        "--openalex",
        &oa,
        "--crossref",
        &cr,
        "--json",
    ];
    let first = run(&args, &[]);
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let v = json(&first);
    let stored: Vec<(String, u64, u64)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["source"].as_str().unwrap().to_string(),
                f["stored"].as_u64().unwrap(),
                f["bad_lines"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        stored,
        vec![
            ("dblp".into(), 4, 0),
            ("arxiv".into(), 3, 1),
            ("openalex".into(), 5, 0),
            ("crossref".into(), 5, 0)
        ]
    );
    let again = json(&run(&args, &[]));
    assert!(again["files"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["already_done"] == true));
    let info = json(&run(&["index", "info", "--index", &dir, "--json"], &[]));
    let dates: Vec<(&str, &str)> = info["dumps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["source"].as_str().unwrap(), d["date"].as_str().unwrap()))
        .collect();
    assert_eq!(
        dates,
        vec![
            ("arxiv", "2023-08-03"),
            ("crossref", "2026-06-12"),
            ("dblp", "2024-11-30"),
            ("openalex", "2024-07-24")
        ]
    );
}

#[test]
fn lookup_answers_by_id_and_title_and_exits_1_when_the_index_lacks_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ix").display().to_string();
    let dblp = fixture("dblp-sample.xml");
    let built = run(
        &[
            "index",
            "build",
            "--out",
            &dir,
            "--dblp",
            &dblp,
            "--date",
            "2026-11-01",
        ],
        &[],
    );
    assert_eq!(built.status.code(), Some(0));
    let check = |args: &[&str], code: i32, key: Option<&str>| {
        let mut all = vec!["index", "lookup", "--index", &dir, "--json"];
        all.extend_from_slice(args);
        let out = run(&all, &[]);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert_eq!(json(&out)["hits"][0]["key"].as_str(), key, "{args:?}");
    };
    check(
        &["--doi", "https://doi.org/10.1145/1666420.1666444"],
        0,
        Some("journals/cacm/Gentry10"),
    );
    check(
        &["--arxiv", "1706.03762v7"],
        0,
        Some("journals/corr/VaswaniSPUJGKP17"),
    );
    check(
        &["--dblp-key", "conf/focs/Yao82a"],
        0,
        Some("conf/focs/Yao82a"),
    );
    check(
        &["--title", "Theory and applications of trapdoor functions"],
        0,
        Some("conf/focs/Yao82a"),
    );
    check(&["--doi", "10.1000/not-here"], 1, None);
    let info = json(&run(&["index", "info", "--index", &dir, "--json"], &[]));
    assert_eq!(info["dumps"][0]["date"], "2026-11-01");
    assert_eq!(info["dumps"][0]["date_from"], "given");
}

#[test]
fn usage_errors_name_the_flag() {
    let check = |args: &[&str], stderr_has: &str| {
        let out = run(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(stderr_has), "{args:?}: {err}");
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().display().to_string();
    check(&["index", "build", "--out", &dir], "give at least one dump");
    check(
        &[
            "index", "build", "--out", &dir, "--dblp", "x.xml", "--date", "2026-1-1",
        ],
        "--date: `2026-1-1` is not YYYY-MM-DD",
    );
    check(&["index", "info", "--index", &dir], "no index here");
    check(
        &[
            "index",
            "build",
            "--out",
            &dir,
            "--dblp",
            "/nonexistent/dblp.xml",
        ],
        "/nonexistent/dblp.xml",
    );
}
