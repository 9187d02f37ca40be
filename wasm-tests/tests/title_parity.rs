//! The title-ratio parity vectors, run through the core compiled to wasm32
//! inside headless Chromium: the browser must score exactly like Python.
#![cfg(target_arch = "wasm32")]

use citegate_core::title;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const VECTORS: &str = include_str!("../../core/tests/fixtures/title/vectors.tsv");

#[wasm_bindgen_test]
fn ratio_and_score_match_python_levenshtein_in_the_browser() {
    let mut n = 0;
    for (i, line) in VECTORS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let expected_ratio: f64 = f[2].parse().unwrap();
        let expected_score: i64 = f[3].parse().unwrap();
        let r = title::ratio(f[0], f[1]);
        assert!(
            (r - expected_ratio).abs() <= 1e-9,
            "line {}: {r} != {expected_ratio}",
            i + 1
        );
        assert_eq!(
            title::score(f[0], f[1], false),
            expected_score,
            "line {}",
            i + 1
        );
        n += 1;
    }
    assert!(n >= 2000, "only {n} vectors");
}

#[wasm_bindgen_test]
fn non_ascii_folds_in_the_browser_too() {
    assert_eq!(title::score("Schrödinger", "Schrodinger", false), 100);
    assert_eq!(title::normalize(r#"M{\"u}ller"#), "muller");
}
