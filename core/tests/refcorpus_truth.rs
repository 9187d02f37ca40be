//! The typeset ground truth of issue 29 (`fixtures/refcorpus/`, made by
//! `tools/refcorpus/refcorpus.py`) holds together: each document's truth lists
//! its `.bbl`'s entries in the `.bbl`'s order, every entry has what a reader is
//! scored on, and the held-out set shares no work with the dev set (a parser
//! tuned on dev is measured on held-out).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/refcorpus")
}

/// (truth, .bbl text) of every document of a set, by file name.
fn documents(set: &str) -> Vec<(String, Value, String)> {
    let dir = root().join(set);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("set folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let truth: Value =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("truth")).expect("json");
            let bbl = std::fs::read_to_string(p.with_extension("bbl")).expect(".bbl beside it");
            (p.display().to_string(), truth, bbl)
        })
        .collect()
}

/// The keys of a `.bbl`: each `\bibitem` (BibTeX), or per `\datalist` its
/// `\entry`s (biber writes one list per sorting scheme in use).
fn bbl_key_lists(bbl: &str) -> Vec<Vec<String>> {
    // a key may be split by a TeX comment ("{%\n  key}", as apacite writes it)
    let key_after = |s: &str, brace_from: usize| -> Option<String> {
        let open = s[brace_from..].find('{')? + brace_from;
        let close = s[open..].find('}')? + open;
        let key = s[open + 1..close]
            .lines()
            .map(|line| line.split('%').next().unwrap_or("").trim())
            .collect();
        Some(key)
    };
    if bbl.contains("\\datalist[entry]") {
        return bbl
            .split("\\datalist[entry]")
            .skip(1)
            .map(|list| {
                let list = list.split("\\enddatalist").next().unwrap_or("");
                list.match_indices("\\entry{")
                    .filter_map(|(at, _)| key_after(list, at))
                    .collect()
            })
            .collect();
    }
    let keys = bbl
        .split("\\bibitem")
        .skip(1)
        .filter_map(|item| {
            // an optional [label] (which may hold brackets of its own), then {key}
            let rest = if item.trim_start().starts_with('[') {
                let mut depth = 0usize;
                let end = item.char_indices().find_map(|(i, c)| match c {
                    '[' => {
                        depth += 1;
                        None
                    }
                    ']' => {
                        depth -= 1;
                        (depth == 0).then_some(i)
                    }
                    _ => None,
                })?;
                end
            } else {
                0
            };
            key_after(item, rest)
        })
        .collect();
    vec![keys]
}

fn str_of<'a>(v: &'a Value, field: &str) -> &'a str {
    v.get(field).and_then(Value::as_str).unwrap_or("")
}

#[test]
fn each_truth_lists_its_bbl_entries_in_the_bbl_order() {
    for set in ["dev", "heldout"] {
        let docs = documents(set);
        assert!(docs.len() >= 10, "{set}: only {} documents", docs.len());
        for (name, truth, bbl) in docs {
            let keys: Vec<String> = truth["references"]
                .as_array()
                .expect("references")
                .iter()
                .map(|r| str_of(r, "key").to_string())
                .collect();
            assert!(
                (25..=40).contains(&keys.len()),
                "{name}: {} references",
                keys.len()
            );
            assert!(
                bbl_key_lists(&bbl).contains(&keys),
                "{name}: the truth's order is none of the .bbl's lists"
            );
        }
    }
}

#[test]
fn every_entry_has_what_readers_are_scored_on() {
    for set in ["dev", "heldout"] {
        for (name, truth, _) in documents(set) {
            for r in truth["references"].as_array().expect("references") {
                let key = str_of(r, "key");
                assert!(
                    str_of(r, "title").split_whitespace().count() >= 3,
                    "{name} {key}: title"
                );
                let year = str_of(r, "year");
                assert!(
                    year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()),
                    "{name} {key}: year {year:?}"
                );
                let authors = r["authors"].as_array().expect("authors");
                assert!(
                    !authors.is_empty() && authors.iter().all(|a| !str_of(a, "family").is_empty()),
                    "{name} {key}: authors"
                );
                let printed = &r["printed"];
                for id in ["doi", "arxiv"] {
                    if printed[id].as_bool() == Some(true) {
                        assert!(
                            !str_of(r, id).is_empty(),
                            "{name} {key}: printed {id} missing"
                        );
                    }
                }
                assert!(
                    printed["authors"].as_u64().unwrap_or(0) >= 1,
                    "{name} {key}: the first author is always printed"
                );
                assert!(
                    matches!(str_of(&r["source"], "corpus"), "hallmark" | "bib-corpus"),
                    "{name} {key}: source"
                );
            }
        }
    }
}

#[test]
fn held_out_shares_no_title_with_dev() {
    let titles = |set: &str| -> BTreeSet<String> {
        documents(set)
            .iter()
            .flat_map(|(_, t, _)| {
                t["references"]
                    .as_array()
                    .expect("references")
                    .iter()
                    .map(|r| {
                        str_of(r, "title")
                            .chars()
                            .filter(|c| c.is_alphanumeric())
                            .flat_map(char::to_lowercase)
                            .collect::<String>()
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let dev = titles("dev");
    let shared: Vec<_> = titles("heldout").intersection(&dev).cloned().collect();
    assert!(shared.is_empty(), "in both sets: {shared:?}");
}

#[test]
fn bbl_keys_are_read_past_labels_and_comments() {
    // guards the reader above, which the order test relies on
    let bibtex = "\\begin{thebibliography}{9}\n\\bibitem[Smith et~al\\mbox{.}(2020)]%\n  {b}\nB\n\\bibitem[{[}A{]}]{a}\nA\n\\bibitem{c}C\n";
    assert_eq!(bbl_key_lists(bibtex), vec![vec!["b", "a", "c"]]);
    let apacite = "\\bibitem [\\protect \\citeauthoryear {%\nBaba%\n}{%\n{\\protect \\APACyear {2017}}%\n}]{%\nkey1}\nX";
    assert_eq!(bbl_key_lists(apacite), vec![vec!["key1"]]);
    let biber = "\\datalist[entry]{nty/global//global/global}\n\\entry{x}{book}{}\n\\endentry\n\\entry{y}{book}{}\n\\endentry\n\\enddatalist\n\\datalist[entry]{other}\n\\entry{y}{book}{}\n\\endentry\n\\enddatalist";
    assert_eq!(bbl_key_lists(biber), vec![vec!["x", "y"], vec!["y"]]);
}
