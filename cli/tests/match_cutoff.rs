//! `citegate match` and `citegate cutoff` as a researcher runs them.

use std::process::Command;

const VECTORS: &str = include_str!("../../core/tests/fixtures/title/vectors.tsv");

fn citegate(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .args(args)
        .output()
        .expect("run citegate");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn match_agrees_with_python_levenshtein_on_every_vector() {
    let mut n = 0;
    for (i, line) in VECTORS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (code, out, err) = citegate(&["match", "--candidate", f[0], "--found", f[1]]);
        assert_eq!(code, 0, "line {}: {err}", i + 1);
        let score: i64 = f[3].parse().unwrap();
        let verdict = if score > 70 { "PASS" } else { "FAIL" };
        assert_eq!(
            out.trim_end(),
            format!("{score} {verdict}"),
            "line {}",
            i + 1
        );
        n += 1;
    }
    assert!(n >= 2000);
}

fn check_cutoff(args: &[&str], code: i32, stdout_prefix: &str) {
    let mut all = vec!["cutoff"];
    all.extend_from_slice(args);
    let (got, out, err) = citegate(&all);
    assert_eq!(got, code, "{args:?}: stdout {out:?} stderr {err:?}");
    assert!(
        out.starts_with(stdout_prefix) || err.starts_with(stdout_prefix),
        "{args:?}: {out:?} {err:?}"
    );
}

#[test]
fn cutoff_exit_codes_and_output() {
    check_cutoff(
        &["--paper-year", "2017", "--cutoff", "2024-10-01"],
        0,
        "PASS  paper=2017-12-31  <  cutoff=2024-10-01",
    );
    check_cutoff(
        &[
            "--paper-year",
            "2024",
            "--paper-month",
            "9",
            "--cutoff",
            "2024-10-01",
        ],
        0,
        "PASS  paper=2024-09-01",
    );
    check_cutoff(
        &[
            "--paper-year",
            "2024",
            "--paper-month",
            "10",
            "--cutoff",
            "2024-10-01",
        ],
        1,
        "FAIL  paper=2024-10-01  not strictly before cutoff=2024-10-01",
    );
    check_cutoff(
        &["--paper-year", "2024", "--cutoff", "2024-10-01"],
        1,
        "FAIL  paper=2024-12-31",
    );
    check_cutoff(
        &["--paper-date", "Oct. 2024", "--cutoff", "2024-11-01"],
        0,
        "PASS  paper=2024-10-01",
    );
    check_cutoff(
        &["--paper-date", "2023-02-29", "--cutoff", "2024-10-01"],
        2,
        "error: --paper-date: 2023-02-29 does not exist",
    );
    check_cutoff(
        &[
            "--paper-year",
            "2024",
            "--paper-month",
            "13",
            "--cutoff",
            "2024-10-01",
        ],
        2,
        "error:",
    );
    check_cutoff(
        &["--paper-year", "2024", "--cutoff", "2024-10"],
        2,
        "error: --cutoff",
    );
    check_cutoff(&["--cutoff", "2024-10-01"], 2, "error:");
}

#[test]
fn json_output_is_machine_readable() {
    let (code, out, _) = citegate(&[
        "match",
        "--candidate",
        "Linformer",
        "--found",
        "Linformer: Self-Attention with Linear Complexity",
        "--substring-bypass",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["score"], 95);
    assert_eq!(v["pass"], true);
    assert_eq!(v["candidate_normalized"], "linformer");
    let (code, out, _) = citegate(&[
        "cutoff",
        "--paper-date",
        "2024-09-15",
        "--cutoff",
        "2024-10-01",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["paper"], "2024-09-15");
    assert_eq!(v["pass"], true);
}

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/tests/fixtures/cutoff");

/// `cutoff --detect` on a guidelines file: exit code, and the line holding
/// the suggested cutoff (or the first line of output).
fn check_detect(file: &str, extra: &[&str], code: i32, expected_line: &str) {
    let path = if file.starts_with('/') {
        file.to_string()
    } else {
        format!("{FIXTURES}/{file}")
    };
    let mut args = vec!["cutoff", "--detect", path.as_str()];
    args.extend_from_slice(extra);
    let (got, out, err) = citegate(&args);
    assert_eq!(got, code, "{file} {extra:?}: stdout {out:?} stderr {err:?}");
    assert!(
        out.lines()
            .chain(err.lines())
            .any(|l| l.starts_with(expected_line)),
        "{file} {extra:?}: {out:?} {err:?}"
    );
}

#[test]
fn cutoff_detect_suggests_the_paper_deadline() {
    check_detect(
        "iclr_like.md",
        &[],
        0,
        "suggested cutoff: 2024-10-01 (line 10)",
    );
    check_detect(
        "iclr_like.md",
        &[],
        0,
        "* line   10  2024-10-01  full_paper",
    );
    check_detect(
        "iclr_like.md",
        &[],
        0,
        "  line   13  2025-02-28  camera_ready",
    );
    check_detect(
        "cvpr_like.md",
        &[],
        0,
        "suggested cutoff: 2024-11-14 (line 9)",
    );
    let none = std::env::temp_dir().join(format!("citegate-detect-{}.md", std::process::id()));
    std::fs::write(
        &none,
        "Camera-ready due: 2025-03-01\nVenue opens 2025-06-11\n",
    )
    .unwrap();
    check_detect(none.to_str().unwrap(), &[], 1, "no cutoff suggested");
    std::fs::write(&none, "Ten pages, double blind.\n").unwrap();
    check_detect(none.to_str().unwrap(), &[], 1, "no deadline found");
    std::fs::remove_file(&none).unwrap();
    check_detect("missing.md", &[], 2, "error: cannot read");
    check_detect("iclr_like.md", &["--cutoff", "2024-10-01"], 2, "error:");
    check_detect("iclr_like.md", &["--paper-year", "2024"], 2, "error:");
}

#[test]
fn cutoff_detect_json() {
    let path = format!("{FIXTURES}/cvpr_like.md");
    let (code, out, _) = citegate(&["cutoff", "--detect", &path, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["suggested"], "2024-11-14");
    let c = v["candidates"].as_array().unwrap();
    assert_eq!(c.len(), 9);
    assert_eq!(c[1]["kind"], "full_paper");
    assert_eq!(c[1]["line"], 9);
    assert_eq!(c[1]["text"], "14 Nov 2024");
    assert_eq!(c[1]["suggested"], true);
    assert_eq!(c[5]["kind"], "notification");
}
