//! Errors are returned to `main` and printed there once: one `error: …` line
//! per error (file and field named, lowercase, no trailing period), with the
//! exit codes of the README (1 the check ran and could not finish, 2 bad
//! input or usage).

mod common;

use common::{run_in, scratch};

/// Runs `citegate args…` in `dir` and checks the exit code, that stderr has
/// exactly the `error:` lines `errors` (each as a prefix) and no other.
fn check(dir: &std::path::Path, args: &[&str], code: i32, errors: &[&str]) {
    let (got, stdout, stderr) = run_in(dir, args);
    assert_eq!(got, code, "{args:?}: stdout {stdout:?} stderr {stderr:?}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(lines.len(), errors.len(), "{args:?}: {stderr}");
    for (line, want) in lines.iter().zip(errors) {
        assert!(
            line.starts_with(want),
            "{args:?}: {line:?} does not start with {want:?}"
        );
        assert!(
            !line.ends_with('.'),
            "{args:?}: {line:?} ends with a period"
        );
    }
}

#[test]
fn each_error_is_printed_once_with_its_place() {
    let dir = scratch("errors");
    std::fs::write(dir.join("clean.bib"), "@misc{a, title={A}}\n").unwrap();
    std::fs::write(dir.join("empty.json"), r#"{"papers": []}"#).unwrap();
    std::fs::write(dir.join("pool.json"), r#"{"papers": [{"title": "A"}]}"#).unwrap();
    std::fs::write(dir.join("bad.json"), "{\"papers\": [\n  1,\n").unwrap();
    let d = &dir;
    check(
        d,
        &["cutoff", "--cutoff", "2024-13-01", "--paper-year", "2024"],
        2,
        &["error: --cutoff: "],
    );
    check(
        d,
        &["cutoff", "--detect", "absent.md"],
        2,
        &["error: cannot read absent.md: "],
    );
    check(
        d,
        &["dedupe", "--in", "empty.json", "--out", "o.json"],
        1,
        &["error: empty.json: no papers to deduplicate"],
    );
    check(
        d,
        &["dedupe", "--in", "bad.json", "--out", "o.json"],
        2,
        &["error: bad.json:"],
    );
    check(
        d,
        &["prompt", "--pool", "pool.json"],
        2,
        &["error: pool.json: the pool has no cutoff_date; give --cutoff"],
    );
    check(
        d,
        &["fuse", "--query", "x", "--source", "nowhere"],
        2,
        &["error: --source must be"],
    );
    // Every file is checked; each one that cannot be is named, on its own line.
    check(
        d,
        &["bibcheck", "absent.bib", "clean.bib", "gone.bib"],
        2,
        &[
            "error: cannot read absent.bib: ",
            "error: cannot read gone.bib: ",
        ],
    );
    check(d, &["bibcheck", "clean.bib"], 0, &[]);
}
