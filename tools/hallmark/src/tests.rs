use super::*;

const SPLIT: &str = r#"{"bibtex_key": "a", "bibtex_type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He and Xiangyu Zhang", "year": "2016", "booktitle": "CVPR"}, "label": "VALID"}
{"bibtex_key": "b", "bibtex_type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He and Xiangyu Zhang", "year": "2016", "booktitle": "ICML"}, "label": "HALLUCINATED", "hallucination_type": "wrong_venue", "difficulty_tier": 2}
{"bibtex_key": "c", "bibtex_type": "article", "fields": {"title": "Quantum {Graph Priors} for Few-Shot Audio}", "author": "Ada Lovelace", "year": "2021"}, "label": "HALLUCINATED", "hallucination_type": "plausible_fabrication", "difficulty_tier": 3}
"#;

const WORLD: &str = r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He 0001 and Xiangyu Zhang", "year": "2016", "url": "https://dblp.org/rec/conf/cvpr/HeZRS16", "booktitle": "CVPR"}}
{"type": "inproceedings", "fields": {"title": "Few-Shot Audio Classification", "author": "Someone Else", "year": "2020", "url": "https://dblp.org/rec/conf/x/E20", "booktitle": "ICASSP"}}
"#;

fn check(preds: &[(&str, bool)], dr: f64, fpr: f64, f1: f64, tw: f64) {
    let items = read_split(SPLIT);
    let p: HashMap<String, bool> = preds.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let s = score(&items, &p);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(
        close(s.dr, dr) && close(s.fpr, fpr) && close(s.f1, f1) && close(s.tw_f1, tw),
        "{s:?}"
    );
}

#[test]
fn scores_as_hallmark_computes_them() {
    check(
        &[("a", false), ("b", true), ("c", true)],
        1.0,
        0.0,
        1.0,
        1.0,
    );
    // Missing predictions count as valid.
    check(&[], 0.0, 0.0, 0.0, 0.0);
    // One false positive: precision 2/3; tier weights 2 and 3, a false positive weighs 1.
    check(
        &[("a", true), ("b", true), ("c", true)],
        1.0,
        1.0,
        0.8,
        2.0 * (5.0 / 6.0) / (5.0 / 6.0 + 1.0),
    );
    // Only the tier-3 entry caught: recall 1/2, weighted recall 3/5.
    check(&[("c", true)], 0.5, 0.0, 2.0 / 3.0, 0.75);
}

#[test]
fn bib_has_no_labels_and_balanced_braces() {
    let bib = to_bib(&read_split(SPLIT));
    assert!(!bib.contains("HALLUCINATED") && !bib.contains("wrong_venue"));
    let parsed = parse(&bib);
    assert_eq!(parsed.entries.len(), 3);
    assert!(
        parsed.problems.iter().all(|p| !p.kind.is_error()),
        "{:?}",
        parsed.problems
    );
}

#[test]
fn simulated_run_judges_each_entry() {
    let items = read_split(SPLIT);
    let world = World::from_jsonl(WORLD);
    let today = Date::new(2026, 12, 3).unwrap();
    let (verdicts, requests) = simulate(&to_bib(&items), &world, today);
    let got: Vec<(&str, Verdict)> = verdicts
        .iter()
        .map(|(k, v)| (k.as_str(), v.verdict))
        .collect();
    assert_eq!(
        got,
        vec![
            ("a", Verdict::Valid),
            ("b", Verdict::Hallucinated),
            ("c", Verdict::Hallucinated)
        ]
    );
    assert!(requests > 0);
    let line: Value =
        serde_json::from_str(&prediction_line("b", Verdict::Uncertain, "x", &[])).unwrap();
    assert_eq!(line["label"], "VALID");
}
