//! `hallmark-score --split FILE --bibcheck JSON [--out PREDICTIONS]`
//!
//! Reads `citegate bibcheck --online --json` output (per entry `key`,
//! `verdict` valid|hallucinated|uncertain, `reasons`), writes HALLMARK
//! predictions (uncertain as valid) and prints the scores.

use citegate_core::bibtex::verdict::Verdict;
use citegate_hallmark::{arg, prediction_line, read_split, score};
use serde_json::Value;
use std::collections::HashMap;

/// The entries of bibcheck's JSON: a list, or an object holding one under `entries`.
fn entries(v: &Value) -> Vec<&Value> {
    match v {
        Value::Array(a) => a.iter().collect(),
        Value::Object(m) => m
            .get("entries")
            .or_else(|| m.get("results"))
            .map(entries)
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(split), Some(report)) = (arg(&args, "--split"), arg(&args, "--bibcheck")) else {
        eprintln!("usage: hallmark-score --split FILE --bibcheck JSON [--out FILE]");
        std::process::exit(2);
    };
    let read = |p: &str| {
        std::fs::read_to_string(p).unwrap_or_else(|e| {
            eprintln!("cannot read {p}: {e}");
            std::process::exit(2)
        })
    };
    let items = read_split(&read(&split));
    let report: Value = serde_json::from_str(&read(&report)).unwrap_or_else(|e| {
        eprintln!("bibcheck output is not JSON: {e}");
        std::process::exit(2)
    });
    let mut predicted = HashMap::new();
    let mut lines = String::new();
    for e in entries(&report) {
        let Some(key) = e.get("key").and_then(Value::as_str) else {
            continue;
        };
        let verdict = match e.get("verdict").and_then(Value::as_str) {
            Some("hallucinated") => Verdict::Hallucinated,
            Some("valid") => Verdict::Valid,
            _ => Verdict::Uncertain,
        };
        let reasons: Vec<&str> = e
            .get("reasons")
            .and_then(Value::as_array)
            .map(|rs| {
                rs.iter()
                    .filter_map(|r| r.get("message").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        predicted.insert(key.to_string(), verdict == Verdict::Hallucinated);
        lines.push_str(&prediction_line(key, verdict, &reasons.join("; "), &[]));
        lines.push('\n');
    }
    if let Some(out) = arg(&args, "--out") {
        if let Err(e) = std::fs::write(&out, lines) {
            eprintln!("cannot write {out}: {e}");
            std::process::exit(2);
        }
    }
    print!("{}", score(&items, &predicted).render());
}
