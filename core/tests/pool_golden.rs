//! Differential check: citegate reproduces the reference scripts' outputs
//! committed under `fixtures/golden/` (see its README and DEVIATIONS.md).

use citegate_core::bibtex::write::write_bib;
use citegate_core::candidates::{parse_candidates, pre_dedup};
use citegate_core::pool::{dedupe, parse_dedupe_input, parse_pool, to_json, validate, Severity};
use serde_json::Value;

fn golden(path: &str) -> String {
    let full = format!(
        "{}/tests/fixtures/golden/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn json(path: &str) -> Value {
    serde_json::from_str(&golden(path)).unwrap()
}

fn check_predup(case: &str) {
    let input = parse_candidates(&golden(&format!("inputs/{case}.json"))).unwrap();
    let got = serde_json::to_value(pre_dedup(input)).unwrap();
    let want = json(&format!("expected/{case}.json"));
    assert_eq!(got, want, "{case}");
}

#[test]
fn pre_dedup_matches_reference() {
    check_predup("predup_small");
    check_predup("predup_large");
}

#[test]
fn dedupe_matches_reference() {
    let papers = parse_dedupe_input(&golden("inputs/dedupe.json")).unwrap();
    let d = dedupe(papers, Some("2024-10-01".into()));
    let got: Value = serde_json::from_str(&to_json(&d.pool)).unwrap();
    assert_eq!(got, json("expected/dedupe.json"));
}

fn check_validate(case: &str, fix: bool, want: &Value) {
    let mut pool = json(&format!("inputs/validate_{case}.json"));
    let v = validate(&mut pool, fix).unwrap();
    let exit = if v.pass() { 0 } else { 1 };
    let errors = v
        .issues
        .iter()
        .filter(|i| i.severity == Severity::Error)
        .count();
    let warnings = v
        .issues
        .iter()
        .filter(|i| i.severity == Severity::Warning)
        .count();
    let label = format!("{case} fix={fix}");
    assert_eq!(want["exit"], exit, "{label}");
    assert_eq!(want["n_errors"], errors, "{label}");
    assert_eq!(want["n_warnings"], warnings, "{label}");
    assert_eq!(want["pool_after"], pool, "{label}");
}

#[test]
fn validate_matches_reference() {
    let want = json("expected/validate.json");
    for case in [
        "valid",
        "string_authors",
        "missing_required",
        "empty",
        "no_papers_key",
        "bad_author_type",
    ] {
        check_validate(case, false, &want[case]);
        check_validate(case, true, &want[format!("{case}_fix").as_str()]);
    }
}

/// The file without its leading `%` comment lines (the generator's name differs).
fn body(bib: &str) -> String {
    bib.lines()
        .skip_while(|l| l.starts_with('%') || l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn bibtex_matches_reference() {
    let mut pool = parse_pool(&golden("inputs/bibtex_pool.json")).unwrap();
    let bib = write_bib(&mut pool);
    assert_eq!(body(&bib.text), body(&golden("expected/refs.bib")));
    let got: Value = serde_json::from_str(&to_json(&pool)).unwrap();
    assert_eq!(got, json("expected/bibtex_pool_after.json"));
}
