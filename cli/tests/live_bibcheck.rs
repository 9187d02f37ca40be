//! `citegate bibcheck --online` against a loopback stand-in for every
//! service (tools/world: records rendered as each service renders them),
//! with and without scripted faults; the JSON schema; the cache.

mod common;

use common::{fast_world, json_out, run, stderr, tempdir, world_server, Answer, Hit, Server};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

const WORLD: &str = r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He and Xiangyu Zhang and Shaoqing Ren and Jian Sun", "year": "2016", "doi": "10.1109/CVPR.2016.90", "url": "https://dblp.org/rec/conf/cvpr/HeZRS16", "booktitle": "CVPR"}}
{"type": "inproceedings", "fields": {"title": "Attention is All you Need", "author": "Ashish Vaswani and Noam Shazeer and Niki Parmar", "year": "2017", "url": "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17", "booktitle": "NeurIPS"}}
"#;

const BIB: &str = r#"@inproceedings{he2016,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR},
  year = {2016},
  doi = {10.1109/CVPR.2016.90}
}
@inproceedings{vaswani2017,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},
  booktitle = {NeurIPS},
  year = {2017}
}
@article{fake2023,
  title = {Quantum Gravitational Transformers for Protein Folding at Scale},
  author = {Keller, Maria and Okafor, Chidi},
  journal = {Nature},
  year = {2023}
}
"#;

fn world() -> citegate_world::World {
    citegate_world::World::from_jsonl(WORLD)
}

fn bibcheck(server: &Server, dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let bib = common::write(dir, "refs.bib", BIB);
    let cache = dir.join("s2_cache.json").display().to_string();
    let mut args: Vec<String> = [
        "bibcheck", "--bib", &bib, "--online", "--json", "--cache", &cache,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(fast_world(server));
    args.extend(extra.iter().map(|s| s.to_string()));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&a, &[])
}

/// key → (verdict, reason kinds).
fn verdicts(v: &Value) -> BTreeMap<String, (String, Vec<String>)> {
    v["online"]["entries"]
        .as_array()
        .expect("online.entries")
        .iter()
        .map(|e| {
            let kinds = e["reasons"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| r["kind"].as_str().unwrap_or("").to_string())
                .collect();
            (
                e["key"].as_str().unwrap_or("").to_string(),
                (e["verdict"].as_str().unwrap_or("").to_string(), kinds),
            )
        })
        .collect()
}

#[test]
fn every_entry_gets_a_verdict_with_its_evidence() {
    let server = world_server(world(), |_, _| None);
    let dir = tempdir();
    let o = bibcheck(&server, dir.path(), &[]);
    let v = json_out(&o);
    let got = verdicts(&v);
    assert_eq!(got["he2016"].0, "valid", "{got:?}");
    assert_eq!(got["vaswani2017"].0, "valid", "{got:?}");
    assert_eq!(got["fake2023"].0, "hallucinated", "{got:?}");
    assert_eq!(got["fake2023"].1, ["plausible_fabrication"], "{got:?}");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // The schema: every entry has key, verdict, reasons, evidence; every
    // evidence item names its source and what it answered.
    for e in v["online"]["entries"].as_array().unwrap() {
        for field in [
            "key", "verdict", "reasons", "evidence", "outcome", "summary",
        ] {
            assert!(e.get(field).is_some(), "{field} missing in {e}");
        }
        for ev in e["evidence"].as_array().unwrap() {
            assert!(
                ev["source"].is_string() && ev["answered"].is_string(),
                "{ev}"
            );
            assert!(ev["records"].is_array(), "{ev}");
        }
    }
    let he = &v["online"]["entries"][0];
    assert!(he["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["answered"] == "found" && e["records"][0]["title"].is_string()));
}

/// The scripted faults: every service misbehaves at least once.
fn faults(hit: &Hit, seen: usize) -> Option<Answer> {
    let p = hit.path.as_str();
    let first = seen == 0;
    if p.starts_with("/s2/") && p.ends_with("/paper/batch") && first {
        return Some(Answer::too_many(None));
    }
    if p.starts_with("/s2/") && p.ends_with("/paper/search") && first {
        return Some(Answer::too_many(Some("0")));
    }
    if p.starts_with("/crossref/") && first {
        return Some(Answer::status(503, "<html>busy</html>"));
    }
    if p.starts_with("/openalex/") && hit.target.contains("Quantum") {
        return Some(Answer::ok("{\"results\": [ {\"id\": "));
    }
    if p.starts_with("/dblp/") && first {
        return Some(Answer::Hang(Duration::from_millis(1500)));
    }
    if p.starts_with("/datacite/") {
        return Some(Answer::DropMidBody("{\"data\": []}".into()));
    }
    None
}

/// `(method, target, body)` of the requests a server answered with a
/// readable 200 or a 404.
fn answered(server: &Server) -> Vec<(String, String, String)> {
    server
        .hits()
        .into_iter()
        .filter(|h| matches!(h.answered, 200 | 404))
        .filter(|h| !(h.path.starts_with("/openalex/") && h.target.contains("Quantum")))
        .map(|h| (h.method, h.target, h.body))
        .collect()
}

#[test]
fn a_faulty_run_ends_decided_or_uncertain_and_a_rerun_asks_only_the_rest() {
    // One server for both runs (cache keys name the base URL); the faults
    // are switched off for the rerun.
    let faulty = Arc::new(AtomicBool::new(true));
    let on = Arc::clone(&faulty);
    let server = world_server(world(), move |h, seen| {
        if on.load(Ordering::SeqCst) {
            faults(h, seen)
        } else {
            None
        }
    });
    let dir = tempdir();
    let o = bibcheck(&server, dir.path(), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_out(&o);
    let got = verdicts(&v);
    assert_eq!(got["he2016"].0, "valid", "{got:?}");
    assert_eq!(got["vaswani2017"].0, "valid", "{got:?}");
    // OpenAlex never answered about it: absence is not established.
    assert_eq!(
        got["fake2023"],
        ("uncertain".to_string(), vec!["not_checked".to_string()])
    );
    let fake = &v["online"]["entries"][2];
    let failed: Vec<&str> = fake["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["answered"] == "failed")
        .filter_map(|e| e["source"].as_str())
        .collect();
    assert!(failed.contains(&"openalex"), "{fake}");
    let first = answered(&server);
    assert!(!first.is_empty());

    faulty.store(false, Ordering::SeqCst);
    server.clear();
    let o = bibcheck(&server, dir.path(), &[]);
    let v = json_out(&o);
    assert_eq!(verdicts(&v)["fake2023"].0, "hallucinated");
    let again: Vec<_> = server
        .hits()
        .into_iter()
        .map(|h| (h.method, h.target, h.body))
        .filter(|r| first.contains(r))
        .collect();
    assert!(again.is_empty(), "asked again: {again:?}");
    assert!(v["online"]["from_cache"].as_u64().unwrap_or(0) > 0);
}

#[test]
fn a_run_with_every_service_down_is_uncertain_never_hallucinated() {
    let server = Server::start(|_, _| Answer::status(503, "down"));
    let dir = tempdir();
    let o = bibcheck(&server, dir.path(), &["--max-tries", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    for (key, (verdict, _)) in verdicts(&json_out(&o)) {
        assert_eq!(verdict, "uncertain", "{key}");
    }
}

#[test]
fn a_hung_service_is_named_and_never_stalls_the_run() {
    let server = Server::start(|_, _| Answer::Hang(Duration::from_secs(5)));
    let dir = tempdir();
    let started = std::time::Instant::now();
    let o = bibcheck(&server, dir.path(), &["--max-tries", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_out(&o);
    let text = v.to_string();
    assert!(text.contains("no answer within 400 ms"), "{text}");
    // Each service is given up on after its retries, not after 5 s each.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn keys_stay_out_of_the_report_and_the_cache() {
    let server = world_server(world(), |_, _| None);
    let dir = tempdir();
    let bib = common::write(dir.path(), "refs.bib", BIB);
    let cache = dir.path().join("c.json").display().to_string();
    let mut args: Vec<String> = [
        "bibcheck", "--bib", &bib, "--online", "--json", "--cache", &cache,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(fast_world(&server));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (s2, oa) = ("s2-KEY-SECRET-1", "oa-KEY-SECRET-2");
    let o = run(
        &a,
        &[
            ("S2_API_KEY", s2),
            ("OPENALEX_API_KEY", oa),
            ("CROSSREF_MAILTO", "cr@lab.example"),
            ("OPENALEX_MAILTO", "oa@lab.example"),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let cached = std::fs::read_to_string(dir.path().join("c.json")).unwrap();
    for secret in [s2, oa] {
        assert!(!common::stdout(&o).contains(secret));
        assert!(!stderr(&o).contains(secret));
        assert!(!cached.contains(secret));
    }
    // Each key went to its own service only.
    for h in server.hits() {
        let to_s2 = h.path.starts_with("/s2/");
        let to_oa = h.path.starts_with("/openalex/");
        assert_eq!(h.headers.contains_key("x-api-key"), to_s2, "{h:?}");
        assert_eq!(h.target.contains(oa), to_oa, "{h:?}");
        assert!(!h.target.contains(s2) && !h.body.contains(s2), "{h:?}");
        // Each contact address to its own polite pool.
        let want = match () {
            _ if to_oa => Some("oa@lab.example"),
            _ if h.path.starts_with("/crossref/") => Some("cr@lab.example"),
            _ => None,
        };
        assert_eq!(h.param("mailto"), want, "{h:?}");
    }
}

/// ResNet's paper cited at the wrong venue: a real work, miscited.
const MISCITED: &str = r#"@inproceedings{he_icml,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {ICML},
  year = {2016}
}
"#;

/// `bibcheck --online` of [`BIB`] and [`MISCITED`] with `format` flags,
/// every run sharing one cache.
fn classes_run(server: &Server, dir: &std::path::Path, format: &[&str]) -> std::process::Output {
    let bib = common::write(dir, "refs.bib", &format!("{BIB}{MISCITED}"));
    let cache = dir.join("cache.json").display().to_string();
    let mut args: Vec<String> = ["bibcheck", &bib, "--online", "--cache", &cache]
        .iter()
        .chain(format)
        .map(|s| s.to_string())
        .collect();
    args.extend(fast_world(server));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&a, &[])
}

#[test]
fn every_output_carries_the_class() {
    let server = world_server(world(), |_, _| None);
    let dir = tempdir();
    // JSON: `verdict` as before, `class` beside it, the counts per class.
    let o = classes_run(&server, dir.path(), &["--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_out(&o);
    let classes: Vec<(String, String, String)> = v["online"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |f: &str| e[f].as_str().unwrap_or("").to_string();
            (s("key"), s("verdict"), s("class"))
        })
        .collect();
    let expected = [
        ("he2016", "valid", "valid"),
        ("vaswani2017", "valid", "valid"),
        ("fake2023", "hallucinated", "fabricated"),
        ("he_icml", "hallucinated", "miscited"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(classes, expected);
    let counts = &v["online"]["classes"];
    assert_eq!(
        (
            &counts["valid"],
            &counts["fabricated"],
            &counts["miscited"],
            &counts["retracted"],
            &counts["unverified"]
        ),
        (&2.into(), &1.into(), &1.into(), &0.into(), &0.into()),
        "{counts}"
    );
    assert_eq!(v["online"]["entries"][3]["line"], 20);

    // Text: each entry not valid at its line with its class in words.
    let o = classes_run(&server, dir.path(), &[]);
    let text = common::stdout(&o);
    assert!(
        text.contains("refs.bib:14: fake2023: fabricated: no such work"),
        "{text}"
    );
    assert!(
        text.contains("refs.bib:20: he_icml: miscited: a real work, cited with fields that differ from its record"),
        "{text}"
    );
    assert!(
        text.contains("online: 2 valid, 1 fabricated, 0 retracted, 1 miscited, 0 unverified"),
        "{text}"
    );
    assert!(
        !text.contains("he2016:"),
        "a valid entry is not listed: {text}"
    );

    // GitHub: an error annotation at the entry, titled with the class.
    let o = classes_run(&server, dir.path(), &["--format", "github"]);
    let lines = common::stdout(&o);
    let fab = lines
        .lines()
        .find(|l| l.contains("title=citegate fabricated"))
        .unwrap_or_else(|| panic!("{lines}"));
    assert!(
        fab.starts_with("::error file=") && fab.contains("refs.bib,line=14,"),
        "{fab}"
    );
    assert!(
        fab.contains("::fake2023: fabricated: no such work"),
        "{fab}"
    );
    assert!(
        lines.contains(",line=20,title=citegate miscited::he_icml: miscited"),
        "{lines}"
    );

    // SARIF: one result per entry not valid, ruled by its class.
    let o = classes_run(&server, dir.path(), &["--format", "sarif"]);
    let log = json_out(&o);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let judged: Vec<(String, String, u64)> = results
        .iter()
        .filter(|r| r["properties"]["class"].is_string())
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or("").to_string(),
                r["properties"]["key"].as_str().unwrap_or("").to_string(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        judged,
        [
            ("fabricated".to_string(), "fake2023".to_string(), 14),
            ("miscited".to_string(), "he_icml".to_string(), 20)
        ]
    );
    let rules = log["runs"][0]["tool"]["driver"]["rules"].to_string();
    assert!(
        rules.contains("\"fabricated\"") && rules.contains("\"miscited\""),
        "{rules}"
    );
}

/// Wakefield et al. 1998, cited as published; Crossref and OpenAlex answer
/// with the recorded retraction (core/tests/fixtures/api, PROVENANCE.md).
const RETRACTED: &str = r#"@article{wakefield1998,
  title = {Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children},
  author = {Wakefield, A. J. and Murch, S. H. and Anthony, A. and Linnell, J. and Casson, D. M. and Malik, M. and Berelowitz, M. and Dhillon, A. P. and Thomson, M. A. and Harvey, P. and Valentine, A. and Davies, S. E. and Walker-Smith, J. A.},
  journal = {The Lancet},
  year = {1998},
  doi = {10.1016/S0140-6736(97)11096-0}
}
"#;

#[test]
fn a_retracted_work_is_retracted_on_every_output() {
    let server = world_server(world(), |hit, _| {
        let t = hit.target.to_lowercase();
        if !t.contains("11096") {
            return None;
        }
        if t.starts_with("/crossref/") {
            Some(Answer::ok(common::api_fixture(
                "crossref/work_by_doi_retracted_wakefield.json",
            )))
        } else if t.starts_with("/openalex/") {
            Some(Answer::ok(common::api_fixture(
                "openalex/work_doi_retracted_wakefield.json",
            )))
        } else {
            None
        }
    });
    let dir = tempdir();
    let bib = common::write(dir.path(), "refs.bib", RETRACTED);
    let cache = dir.path().join("cache.json").display().to_string();
    let out = |format: &[&str]| {
        let mut args: Vec<String> = ["bibcheck", &bib, "--online", "--cache", &cache]
            .iter()
            .chain(format)
            .map(|s| s.to_string())
            .collect();
        args.extend(fast_world(&server));
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&a, &[])
    };
    let notice = "retraction notice 10.1016/s0140-6736(10)60175-4 of 2010-02-06 (https://doi.org/10.1016/s0140-6736(10)60175-4)";

    let o = out(&["--json"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a retracted citation fails CI: {}",
        stderr(&o)
    );
    let e = &json_out(&o)["online"]["entries"][0];
    assert_eq!(
        (e["verdict"].as_str(), e["class"].as_str()),
        (Some("valid"), Some("retracted")),
        "{e}"
    );
    assert_eq!(e["notices"][0]["kind"], "retraction", "{e}");
    assert_eq!(e["notices"][0]["date"], "2010-02-06", "{e}");
    assert_eq!(e["notices"][1]["kind"], "correction", "{e}");

    let text = common::stdout(&out(&[]));
    assert!(
        text.contains("refs.bib:1: wakefield1998: retracted: a real work that has been retracted"),
        "{text}"
    );
    assert!(text.contains(notice), "{text}");

    let gh = common::stdout(&out(&["--format", "github"]));
    assert!(
        gh.starts_with("::error file=")
            && gh.contains(",line=1,title=citegate retracted::wakefield1998: retracted"),
        "{gh}"
    );

    let log = json_out(&out(&["--format", "sarif"]));
    let r = &log["runs"][0]["results"][0];
    assert_eq!(
        (r["ruleId"].as_str(), r["level"].as_str()),
        (Some("retracted"), Some("error")),
        "{r}"
    );
    assert!(
        r["message"]["text"].as_str().unwrap_or("").contains(notice),
        "{r}"
    );
}
