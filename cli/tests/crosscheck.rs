//! `citegate crosscheck` on hand-written pools and recorded Crossref and
//! OpenAlex responses (`tests/fixtures/crosscheck`, copies and compositions
//! of `core/tests/fixtures/api`; see its README). The expected tiers follow
//! from the records: titles and DOIs were compared by hand.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/crosscheck")
}

/// Runs `citegate crosscheck` with `args` (paths relative to the fixtures)
/// and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .current_dir(fixtures())
        .arg("crosscheck")
        .args(args)
        .output()
        .expect("run citegate");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One JSON run: exit code, `[high, medium, low, conflict]`, indices
/// checked and unavailable, and the flagged `(key, tier)` pairs.
fn check(
    args: &[&str],
    code: i32,
    summary: [u64; 4],
    checked: &[&str],
    unavailable: &[&str],
    flagged: &[(&str, &str)],
) {
    let mut all = args.to_vec();
    all.push("--json");
    let (got, out, err) = run(&all);
    assert_eq!(got, code, "{args:?}: {err}");
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let s = &r["summary"];
    let have = ["high", "medium", "low", "conflict"].map(|k| s[k].as_u64().unwrap());
    assert_eq!(have, summary, "{args:?}");
    let names = |k: &str| -> Vec<String> {
        r[k].as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names("indices_checked"), checked, "{args:?}");
    assert_eq!(names("indices_unavailable"), unavailable, "{args:?}");
    let flags: Vec<(String, String)> = r["flagged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["bibtex_key"].as_str().unwrap().to_string(),
                f["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = flagged
        .iter()
        .map(|(k, t)| (k.to_string(), t.to_string()))
        .collect();
    assert_eq!(flags, want, "{args:?}");
}

#[test]
fn tiers_from_recorded_responses() {
    // plos2012 found by DOI (high), phantom2021's title search misses (low),
    // srep2013 found by DOI but published 2015 (medium); OpenAlex answers 503
    // on the first paper and is dropped.
    let dir = ["--pool", "pool_dir.json", "--crossref", "dir/crossref"];
    check(
        &[&dir[..], &["--openalex", "dir/openalex"]].concat(),
        1,
        [1, 1, 1, 0],
        &["crossref"],
        &["openalex"],
        &[("phantom2021", "low")],
    );
    // Without OpenAlex nothing is unavailable; the phantom still fails.
    check(
        &dir,
        1,
        [1, 1, 1, 0],
        &["crossref"],
        &[],
        &[("phantom2021", "low")],
    );
    // A wider year tolerance turns the 2013/2015 mismatch into high.
    check(
        &[&dir[..], &["--year-tolerance", "2"]].concat(),
        1,
        [2, 0, 1, 0],
        &["crossref"],
        &[],
        &[("phantom2021", "low")],
    );
    // JSON maps keyed by bibtex_key: the arXiv preprint is found by DOI in
    // OpenAlex (high); chem2012's DOI 404s and the strong title hit carries
    // another DOI (conflict).
    check(
        &[
            "--pool",
            "pool_maps.json",
            "--crossref",
            "maps/crossref.json",
            "--openalex",
            "maps/openalex.json",
        ],
        1,
        [1, 0, 0, 1],
        &["crossref", "openalex"],
        &[],
        &[("chem2012", "conflict")],
    );
    check(
        &[
            "--pool",
            "pool_maps.json",
            "--openalex",
            "maps/openalex.json",
        ],
        0,
        [1, 1, 0, 0],
        &["openalex"],
        &[],
        &[],
    );
}

#[test]
fn text_report_and_annotated_pool() {
    let out_path =
        std::env::temp_dir().join(format!("citegate-crosscheck-{}.json", std::process::id()));
    let out_arg = out_path.to_str().unwrap();
    let (code, out, err) = run(&[
        "--pool",
        "pool_dir.json",
        "--crossref",
        "dir/crossref",
        "--openalex",
        "dir/openalex",
        "--out",
        out_arg,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.starts_with("Cross-index verification (crossref):\n"),
        "{out}"
    );
    assert!(
        out.contains("3 papers  |  high=1 medium=1 low=1 conflict=0"),
        "{out}"
    );
    assert!(
        out.contains("[LOW] phantom2021: Quantum Gravitational Widgets"),
        "{out}"
    );
    assert!(err.contains("index 'openalex' unreachable"), "{err}");
    let pool: Value = serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    std::fs::remove_file(&out_path).ok();
    let tiers: Vec<&str> = pool["papers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cross_verification"]["confidence"].as_str().unwrap())
        .collect();
    assert_eq!(tiers, ["high", "low", "medium"]);
    // Other pool fields survive the annotation.
    assert_eq!(pool["papers"][0]["paperId"], "p0");
}

#[test]
fn bad_input_exits_2() {
    let cases: &[(&[&str], &str)] = &[
        // Without recorded responses the check is live; a bad base is bad input.
        (
            &["--pool", "pool_dir.json", "--crossref-base", "ftp://x"],
            "not a base url",
        ),
        (
            &["--pool", "missing.json", "--crossref", "dir/crossref"],
            "cannot read",
        ),
        (
            &["--pool", "README.md", "--crossref", "dir/crossref"],
            "README.md",
        ),
        (
            &["--pool", "pool_dir.json", "--crossref", "README.md"],
            "README.md",
        ),
    ];
    for (args, msg) in cases {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}
