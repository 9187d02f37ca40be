//! The local index as the resolver's first source: `bibcheck --online
//! --index DIR [--offline]` on an index of the sample dumps
//! (index/tests/fixtures, see PROVENANCE.md there).

mod common;

use common::{index_fixture, json_out, run, run_live, tempdir, write, Answer, Server};
use serde_json::Value;

const BIB: &str = r#"
@article{gentry,
  author = {Craig Gentry},
  title = {Computing arbitrary functions of encrypted data},
  journal = {Commun. ACM}, year = {2010}, volume = {53}, pages = {97--105},
  doi = {10.1145/1666420.1666444}
}
@article{vaswani,
  author = {Ashish Vaswani and Noam Shazeer and Niki Parmar and Jakob Uszkoreit and Llion Jones and Aidan N. Gomez and Lukasz Kaiser and Illia Polosukhin},
  title = {Attention Is All You Need},
  journal = {CoRR}, year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}
}
@article{other_doi,
  author = {Craig Gentry},
  title = {Computing arbitrary functions of encrypted data},
  journal = {Commun. ACM}, year = {2010},
  doi = {10.1145/9999999.9999999}
}
@article{fabricated,
  author = {Nobody Real},
  title = {Quantum blockchain synergies for neural graph hashing},
  journal = {J. Imaginary Res.}, year = {2023}
}
"#;

/// An index of the DBLP and arXiv samples in `dir/ix`.
fn index(dir: &std::path::Path) -> String {
    let ix = dir.join("ix").display().to_string();
    let out = run(
        &[
            "index",
            "build",
            "--out",
            &ix,
            "--dblp",
            &index_fixture("dblp-sample.xml"),
            "--arxiv",
            &index_fixture("arxiv-snapshot.jsonl"),
        ],
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ix
}

/// (key, outcome, the dump of the first evidence) of each entry.
fn entries(v: &Value) -> Vec<(String, String, String)> {
    v["online"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["key"].as_str().unwrap_or("").to_string(),
                e["outcome"].as_str().unwrap_or("").to_string(),
                e["evidence"][0]["dump"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn offline_the_index_settles_what_it_holds_sends_nothing_and_leaves_the_rest_unverified() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let bib = write(tmp.path(), "refs.bib", BIB);
    // Every service points at a closed port: a request would fail, not hang.
    let out = run(
        &[
            "bibcheck",
            &bib,
            "--online",
            "--index",
            &ix,
            "--offline",
            "--json",
            "--s2-base",
            "http://127.0.0.1:9",
            "--crossref-base",
            "http://127.0.0.1:9",
        ],
        &[],
    );
    let v = json_out(&out);
    let dblp = "DBLP dump of 2024-11-30, local index";
    assert_eq!(
        entries(&v),
        vec![
            ("gentry".into(), "found".into(), dblp.into()),
            ("vaswani".into(), "found".into(), dblp.into()),
            // The title is in the index with another DOI: whether the cited
            // one resolves is for the services, which an offline run does not ask.
            ("other_doi".into(), "unverified".into(), dblp.into()),
            ("fabricated".into(), "unverified".into(), dblp.into()),
        ]
    );
    assert_eq!(v["online"]["requests"], 0);
    let fabricated = &v["online"]["entries"][3];
    assert_ne!(
        fabricated["verdict"], "hallucinated",
        "a dump's miss is no accusation"
    );
    let text = fabricated.to_string();
    assert!(text.contains("the run is offline"), "{text}");
}

#[test]
fn online_only_what_the_index_does_not_settle_is_asked_of_the_services() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let bib = write(tmp.path(), "refs.bib", BIB);
    // Every service answers "nothing" (a 404), and counts what it is asked.
    let server = Server::start(|_, _| Answer::status(404, "{}"));
    let out = run_live(
        &server,
        &["bibcheck", &bib, "--online", "--index", &ix, "--json"],
        &[],
    );
    let v = json_out(&out);
    let asked: Vec<String> = server.hits().iter().map(|h| h.target.clone()).collect();
    assert!(!asked.is_empty());
    for settled in ["1666420.1666444", "1706.03762", "Attention"] {
        assert!(
            asked.iter().all(|t| !t.contains(settled)),
            "{settled} was asked: {asked:?}"
        );
    }
    assert!(
        asked.iter().any(|t| t.contains("9999999")),
        "the other DOI goes to the services"
    );
    assert!(
        asked.iter().any(|t| t.contains("Quantum")),
        "an entry the index lacks goes to the services"
    );
    let outcomes: Vec<String> = entries(&v).into_iter().map(|e| e.1).collect();
    assert_eq!(outcomes[..2], ["found".to_string(), "found".to_string()]);
}

#[test]
fn the_config_file_can_name_the_index() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let bib = write(tmp.path(), "refs.bib", BIB);
    let config = write(tmp.path(), "citegate.toml", &format!("index = {:?}\n", ix));
    let out = run(
        &[
            "bibcheck",
            &bib,
            "--online",
            "--config",
            &config,
            "--offline",
            "--json",
        ],
        &[],
    );
    let v = json_out(&out);
    assert_eq!(entries(&v)[0].1, "found");
}
