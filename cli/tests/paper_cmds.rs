//! `citegate refs` and `citegate check`: a paper's references read from a
//! `.bbl`, a text list, a source archive or an arXiv e-print (served on
//! loopback), and checked against the loopback world of services.

mod common;

use common::{fast_world, json_out, run, stderr, stdout, world_server, Answer, Server};
use serde_json::Value;
use std::path::Path;

const WORLD: &str = r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He and Xiangyu Zhang and Shaoqing Ren and Jian Sun", "year": "2016", "doi": "10.1109/CVPR.2016.90", "url": "https://dblp.org/rec/conf/cvpr/HeZRS16", "booktitle": "CVPR"}}
{"type": "inproceedings", "fields": {"title": "Attention is All you Need", "author": "Ashish Vaswani and Noam Shazeer and Niki Parmar", "year": "2017", "url": "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17", "booktitle": "NeurIPS"}}
"#;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/paper")
        .join(name)
        .display()
        .to_string()
}

fn world() -> Server {
    world_server(citegate_world::World::from_jsonl(WORLD), |hit, _| {
        hit.path.ends_with("/e-print/2401.12345").then(|| {
            Answer::Bytes(std::fs::read(fixture("eprint.tar.gz")).expect("eprint fixture"))
        })
    })
}

fn check_json(server: &Server, target: &str) -> (i32, Value) {
    let mut args: Vec<String> = ["check", target, "--online", "--json"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(fast_world(server));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&a, &[]);
    (o.status.code().unwrap_or(-1), json_out(&o))
}

/// (verdict, raw text present) per title word, for the three references.
fn verdicts(v: &Value) -> Vec<(String, String, bool)> {
    v["online"]["entries"]
        .as_array()
        .expect("online.entries")
        .iter()
        .map(|e| {
            (
                e["key"].as_str().unwrap_or("").to_string(),
                e["verdict"].as_str().unwrap_or("").to_string(),
                e["raw"].is_string(),
            )
        })
        .collect()
}

#[test]
fn refs_json_has_the_promised_field_names() {
    let o = run(&["refs", &fixture("eprint/main.bbl"), "--json"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_out(&o);
    assert!(v["file"].as_str().is_some_and(|f| f.ends_with("main.bbl")));
    let refs = v["references"].as_array().expect("references");
    assert_eq!(refs.len(), 3);
    for key in [
        "raw", "title", "authors", "year", "venue", "doi", "arxiv", "url", "page",
    ] {
        assert!(
            refs[0].get(key).is_some(),
            "references[0].{key} is missing: {}",
            refs[0]
        );
    }
    assert_eq!(
        refs[0]["title"],
        "Deep residual learning for image recognition"
    );
    assert_eq!(
        refs[0]["authors"][0],
        serde_json::json!({"family": "He", "given": "Kaiming"})
    );
    assert_eq!(refs[0]["year"], 2016);
    assert_eq!(refs[0]["venue"], "CVPR");
}

#[test]
fn refs_reads_lists_archives_and_several_files() {
    // (file, references, first title)
    let cases: &[(&str, usize, &str)] = &[
        (
            "references.txt",
            3,
            "Deep residual learning for image recognition",
        ),
        (
            "eprint.tar.gz",
            3,
            "Deep residual learning for image recognition",
        ),
        (
            "refs.bib",
            3,
            "Deep Residual Learning for Image Recognition",
        ),
    ];
    for (file, n, title) in cases {
        let o = run(&["refs", &fixture(file), "--json"], &[]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        let v = json_out(&o);
        assert_eq!(v["references"].as_array().map(Vec::len), Some(*n), "{file}");
        assert_eq!(v["references"][0]["title"], *title, "{file}");
    }
    let o = run(
        &[
            "refs",
            &fixture("references.txt"),
            &fixture("refs.bib"),
            "--json",
        ],
        &[],
    );
    let v = json_out(&o);
    assert_eq!(v.as_array().map(Vec::len), Some(2), "several files: a list");
    let o = run(&["refs", &fixture("references.txt")], &[]);
    assert!(
        stdout(&o).contains(
            "1. He, Zhang, Ren, Sun (2016). Deep residual learning for image recognition — CVPR"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_pdf_or_a_missing_file_is_bad_input() {
    let dir = common::tempdir();
    let pdf = dir.path().join("paper.pdf");
    std::fs::write(&pdf, b"%PDF-1.7\n%\xe2\xe3\n").unwrap();
    let o = run(&["refs", &pdf.display().to_string()], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read pdf files"),
        "{}",
        stderr(&o)
    );
    let o = run(
        &[
            "check",
            &dir.path().join("nothing.bbl").display().to_string(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_online_judges_each_reference_with_its_raw_text() {
    let server = world();
    for target in [fixture("references.txt"), fixture("eprint/main.bbl")] {
        let (code, v) = check_json(&server, &target);
        assert_eq!(code, 1, "a fabricated reference fails the check: {v}");
        let got = verdicts(&v);
        let verdict_of = |word: &str| {
            let i = v["online"]["entries"]
                .as_array()
                .unwrap()
                .iter()
                .position(|e| e["raw"].as_str().unwrap_or("").contains(word))
                .unwrap_or_else(|| panic!("{word} in {target}"));
            got[i].1.clone()
        };
        assert_eq!(verdict_of("Deep residual"), "valid", "{target}: {v}");
        assert_eq!(verdict_of("Attention"), "valid", "{target}: {v}");
        assert_eq!(verdict_of("Quantum"), "hallucinated", "{target}: {v}");
        assert!(
            got.iter().all(|(_, _, raw)| *raw),
            "every entry has its raw text"
        );
    }
}

#[test]
fn check_of_an_arxiv_id_fetches_its_eprint_source() {
    let server = world();
    for target in ["arXiv:2401.12345", "https://arxiv.org/abs/2401.12345v2"] {
        let (code, v) = check_json(&server, target);
        assert_eq!(code, 1, "{v}");
        assert_eq!(v["bib"], "arXiv:2401.12345:main.bbl");
        let keys: Vec<String> = verdicts(&v)
            .into_iter()
            .map(|(k, verdict, _)| format!("{k}={verdict}"))
            .collect();
        assert_eq!(
            keys,
            ["he2016=valid", "fake2023=hallucinated", "vaswani2017=valid"]
        );
    }
    assert!(server
        .hits()
        .iter()
        .any(|h| h.path == "/arxiv/e-print/2401.12345"));
}

#[test]
fn check_of_a_bib_is_bibchecks_report() {
    let server = world();
    let (code, v) = check_json(&server, &fixture("refs.bib"));
    assert_eq!(code, 1);
    assert_eq!(v["entries"], 3);
    let got: Vec<(String, String, bool)> = verdicts(&v);
    assert_eq!(
        got.iter()
            .map(|(k, _, raw)| (k.as_str(), *raw))
            .collect::<Vec<_>>(),
        [
            ("he2016", false),
            ("vaswani2017", false),
            ("fake2023", false)
        ]
    );
}

#[test]
fn an_unreachable_eprint_is_a_failed_check_naming_the_source() {
    let server = Server::start(|_, _| Answer::status(404, "not found"));
    let mut args: Vec<String> = ["check", "arXiv:2401.12345"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(fast_world(&server));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&a, &[]);
    assert!(
        stderr(&o).contains("cannot fetch the source of arXiv:2401.12345: arxiv answered 404"),
        "{}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(1));
}
