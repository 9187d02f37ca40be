//! `hallmark-sim --split FILE --world FILE[,FILE…] [--unkind [--seed N]] [--out PREDICTIONS] [--today YYYY-MM-DD] [--explain] [--naming] [--misnamed TYPE] [--down s2,crossref,…] [--surface native|browser]`
//!
//! Runs citegate's resolver and verdict rules over a HALLMARK split against
//! a world, in process (no HTTP, virtual clock), writes HALLMARK predictions
//! when asked, and prints the scores. `--explain` lists every miss and every
//! false positive with citegate's reasons, to iterate on the rules.
//! `--unkind` answers as real indexes do (see `citegate_world::unkind`):
//! missing works, neighbours ranked first, separate preprints, name
//! variants, Crossref markup, regional DOIs, unindexed kinds; `--seed`
//! draws another such world. Several world files are read as one.

use citegate_core::cutoff::Date;
use citegate_hallmark::{arg, prediction_line, read_split, score, simulate_on, to_bib, today_utc};
use citegate_world::{Unkind, World};
use std::collections::HashMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(split), Some(world)) = (arg(&args, "--split"), arg(&args, "--world")) else {
        eprintln!("usage: hallmark-sim --split FILE --world FILE[,FILE…] [--unkind [--seed N]] [--out FILE] [--today YYYY-MM-DD] [--explain] [--naming] [--down s2,…]");
        std::process::exit(2);
    };
    let read = |p: &str| {
        std::fs::read_to_string(p).unwrap_or_else(|e| {
            eprintln!("cannot read {p}: {e}");
            std::process::exit(2)
        })
    };
    let today = arg(&args, "--today")
        .and_then(|t| Date::parse_iso(&t).ok())
        .unwrap_or_else(today_utc);
    let items = read_split(&read(&split));
    let text: String = world.split(',').map(read).collect::<Vec<_>>().join("\n");
    let unkind = if args.iter().any(|a| a == "--unkind") {
        Unkind::real(
            arg(&args, "--seed")
                .and_then(|s| s.parse().ok())
                .unwrap_or(1),
        )
    } else {
        Unkind::kind()
    };
    let world = World::from_jsonl_with(&text, unkind);
    let started = std::time::Instant::now();
    // `--down s2,crossref`: those services answer 503 to every request.
    let down: Vec<String> = arg(&args, "--down")
        .map(|d| d.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    // `--surface browser`: as a page alone asks (no DBLP, no arXiv export API).
    let surface = match arg(&args, "--surface").as_deref() {
        None | Some("native") => citegate_core::resolve::Surface::Native,
        Some("browser") => citegate_core::resolve::Surface::Browser,
        Some(other) => {
            eprintln!("--surface takes native or browser, not {other}");
            std::process::exit(2);
        }
    };
    let (verdicts, requests) = simulate_on(&to_bib(&items), &world, today, &down, surface);
    let uncertain = verdicts
        .iter()
        .filter(|(_, v)| v.verdict == citegate_core::bibtex::verdict::Verdict::Uncertain)
        .count();
    eprintln!("{uncertain} uncertain");
    eprintln!(
        "{} entries, {requests} requests, {:.1} s",
        verdicts.len(),
        started.elapsed().as_secs_f64()
    );
    let mut predicted = HashMap::new();
    let mut lines = String::new();
    for (key, v) in &verdicts {
        predicted.insert(
            key.clone(),
            v.verdict == citegate_core::bibtex::verdict::Verdict::Hallucinated,
        );
        let reason: Vec<&str> = v.reasons.iter().map(|r| r.message.as_str()).collect();
        lines.push_str(&prediction_line(key, v.verdict, &reason.join("; "), &[]));
        lines.push('\n');
    }
    if let Some(out) = arg(&args, "--out") {
        if let Err(e) = std::fs::write(&out, lines) {
            eprintln!("cannot write {out}: {e}");
            std::process::exit(2);
        }
    }
    let scores = score(&items, &predicted);
    if args.iter().any(|a| a == "--explain") {
        let by_key: HashMap<&str, _> = verdicts.iter().map(|(k, v)| (k.as_str(), v)).collect();
        for it in &items {
            let said = predicted.get(&it.key).copied().unwrap_or(false);
            if it.hallucinated == Some(said) {
                continue;
            }
            let v = by_key.get(it.key.as_str());
            let title = it
                .fields
                .iter()
                .find(|(k, _)| k == "title")
                .map(|(_, v)| v.as_str())
                .unwrap_or("");
            println!(
                "{} [{}] {title}\n    {:?}",
                if said { "FALSE POSITIVE" } else { "MISSED" },
                it.htype.as_deref().unwrap_or("valid"),
                v.map(|v| (
                    &v.verdict,
                    v.reasons.iter().map(|r| &r.message).collect::<Vec<_>>()
                ))
            );
        }
    }
    if args.iter().any(|a| a == "--naming") {
        println!("named with its own type (reason kind = HALLMARK type)");
        for (t, (named, total)) in citegate_hallmark::naming(&items, &verdicts) {
            println!("  {t:<24} {named}/{total}");
        }
        println!();
    }
    if let Some(t) = arg(&args, "--misnamed") {
        // The entries of one type flagged under another type's name: what
        // the card says instead, to read the naming rules against.
        let by_key: HashMap<&str, _> = verdicts.iter().map(|(k, v)| (k.as_str(), v)).collect();
        for it in items
            .iter()
            .filter(|i| i.htype.as_deref() == Some(t.as_str()))
        {
            let Some(v) = by_key.get(it.key.as_str()) else {
                continue;
            };
            let kinds: Vec<String> = v
                .reasons
                .iter()
                .filter_map(|r| serde_json::to_value(r.kind).ok())
                .filter_map(|k| k.as_str().map(str::to_string))
                .collect();
            if kinds.contains(&t) {
                continue;
            }
            let field = |name: &str| {
                it.fields
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.as_str())
                    .unwrap_or("")
            };
            println!(
                "{} {:?} {:?}\n    title: {}\n    author: {}\n    venue: {}{} year: {}",
                it.key,
                v.verdict,
                kinds,
                field("title"),
                field("author"),
                field("booktitle"),
                field("journal"),
                field("year")
            );
            for r in &v.reasons {
                println!("    - {}", r.message);
            }
        }
    }
    print!("{}", scores.render());
}
