//! Exit codes and error messages of the pool subcommands on real files.

use std::path::PathBuf;
use std::process::Command;

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("citegate-pool-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs citegate; returns (exit code, stderr).
fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `args` may contain `{in}` (the input file) and `{out}` (an output file).
fn check(input_name: &str, input: &str, args: &[&str], code: i32, stderr_has: &str) {
    let inp = tmp(input_name, input);
    let out = tmp(&format!("{input_name}.out"), "");
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            a.replace("{in}", inp.to_str().unwrap())
                .replace("{out}", out.to_str().unwrap())
        })
        .collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (got, err) = run(&refs);
    assert_eq!(got, code, "{args:?}: {err}");
    assert!(err.contains(stderr_has), "{args:?}: {err}");
}

const POOL: &str = r#"{"papers": [{"paperId": "a", "title": "Attention Is All You Need", "year": 2017,
  "abstract": "x", "venue": "NeurIPS", "authors": [{"name": "Ashish Vaswani"}]}],
  "min_cite_paper_count": 0, "cutoff_date": "2024-10-01"}"#;

#[test]
fn malformed_inputs_exit_2_with_location() {
    check(
        "c1.json",
        "[{\"title\": \"a\"},\n {\"title\": 3}]",
        &["pre-dedup", "--in", "{in}", "--out", "{out}"],
        2,
        "candidates[1].title",
    );
    check(
        "c2.json",
        "{\"candidates\": [",
        &["pre-dedup", "--in", "{in}", "--out", "{out}"],
        2,
        "c2.json:1:",
    );
    check(
        "c3.json",
        "[{\"snippet\": \"no title\"}]",
        &["pre-dedup", "--in", "{in}", "--out", "{out}"],
        2,
        "candidates[0].title",
    );
    check(
        "o1.json",
        "{\"related_work_strategy\": {\"subsections\": [{\"limitation_search_queries\": [1]}]}}",
        &["outline-queries", "--outline", "{in}"],
        2,
        "limitation_search_queries[0]",
    );
    check(
        "o2.json",
        "{\n\"introduction_strategy\": }",
        &["outline-queries", "--outline", "{in}"],
        2,
        "o2.json:2:",
    );
    check(
        "p1.json",
        "{\"papers\": [{\"title\": \"t\", \"year\": \"soon\"}]}",
        &["bibtex", "--pool", "{in}", "--out", "{out}"],
        2,
        "papers[0].year",
    );
    check(
        "p2.json",
        "{\"papers\": [",
        &["validate-pool", "--pool", "{in}"],
        2,
        "p2.json:1:",
    );
    check(
        "p3.json",
        "{\"papers\": {}}",
        &["dedupe", "--in", "{in}", "--out", "{out}"],
        2,
        "papers",
    );
    check(
        "p4.json",
        "{\"papers\": []}",
        &["prompt", "--pool", "{in}"],
        2,
        "cutoff",
    );
    check(
        "p5.json",
        POOL,
        &[
            "dedupe",
            "--in",
            "{in}",
            "--out",
            "{out}",
            "--cutoff",
            "2024-13-01",
        ],
        2,
        "--cutoff",
    );
}

#[test]
fn exit_codes_follow_the_reference() {
    check(
        "ok1.json",
        POOL,
        &["validate-pool", "--pool", "{in}"],
        0,
        "",
    );
    check(
        "ok2.json",
        r#"{"papers": [{"title": "t"}]}"#,
        &["validate-pool", "--pool", "{in}"],
        1,
        "year",
    );
    check(
        "ok3.json",
        r#"{"papers": [{"title": "t", "year": 1, "authors": ["A"]}], "min_cite_paper_count": 0}"#,
        &["validate-pool", "--pool", "{in}", "--fix"],
        0,
        "",
    );
    check(
        "ok4.json",
        POOL,
        &["bibtex", "--pool", "{in}", "--out", "{out}"],
        0,
        "",
    );
    check(
        "ok5.json",
        r#"{"papers": []}"#,
        &["bibtex", "--pool", "{in}", "--out", "{out}"],
        1,
        "no papers",
    );
    check(
        "ok6.json",
        POOL,
        &[
            "dedupe",
            "--in",
            "{in}",
            "--out",
            "{out}",
            "--cutoff",
            "2024-10-01",
        ],
        0,
        "",
    );
    check(
        "ok7.json",
        r#"{"papers": []}"#,
        &["dedupe", "--in", "{in}", "--out", "{out}"],
        1,
        "no papers",
    );
    check(
        "ok8.json",
        POOL,
        &["prompt", "--pool", "{in}", "--json"],
        0,
        "",
    );
    check(
        "ok9.json",
        "[{\"title\": \"A\"}, {\"title\": \"a\"}]",
        &["pre-dedup", "--in", "{in}", "--out", "{out}", "--json"],
        0,
        "",
    );
}

#[test]
fn verify_replays_recorded_responses() {
    let body = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/fixtures/api/semanticscholar/search_relevance_with_abstracts.json"
    ))
    .unwrap();
    let limited = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/fixtures/api/semanticscholar/error_429_too_many_requests.json"
    ))
    .unwrap();
    let responses = format!(
        "{{\"Attention Is All You Need\": {body}, \"Some Other Paper\": {{\"status\": 429, \"body\": {limited}}}}}"
    );
    let resp = tmp("responses.json", &responses);
    check(
        "v1.json",
        "[{\"title\": \"Attention Is All You Need\"}]",
        &[
            "verify",
            "--candidates",
            "{in}",
            "--responses",
            resp.to_str().unwrap(),
            "--cutoff",
            "2024-10-01",
            "--out",
            "{out}",
        ],
        0,
        "",
    );
    check(
        "v2.json",
        "[{\"title\": \"Some Other Paper\"}]",
        &[
            "verify",
            "--candidates",
            "{in}",
            "--responses",
            resp.to_str().unwrap(),
            "--cutoff",
            "2024-10-01",
        ],
        1,
        "",
    );
    check(
        "v3.json",
        "[{\"title\": \"Unrecorded\"}]",
        &[
            "verify",
            "--candidates",
            "{in}",
            "--responses",
            resp.to_str().unwrap(),
            "--cutoff",
            "2024-10-01",
        ],
        1,
        "",
    );
}

/// `bibtex --csl-out` writes the same entries as CSL-JSON, which reads back
/// to the entries of refs.bib.
#[test]
fn bibtex_writes_csl_json_too() {
    let inp = tmp("csl-pool.json", POOL);
    let (bib, csl) = (tmp("csl-refs.bib", ""), tmp("csl-refs.json", ""));
    let (code, err) = run(&[
        "bibtex",
        "--pool",
        inp.to_str().unwrap(),
        "--out",
        bib.to_str().unwrap(),
        "--csl-out",
        csl.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let items: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&csl).unwrap()).unwrap();
    let bib_text = std::fs::read_to_string(&bib).unwrap();
    let key = bib_text.split(['{', ',']).nth(1).unwrap();
    assert_eq!(items[0]["id"], key);
    assert_eq!(items[0]["title"], "Attention Is All You Need");
    assert_eq!(items[0]["author"][0]["family"], "Vaswani");
    assert_eq!(items[0]["issued"]["date-parts"][0][0], 2017);
}
