//! The use-case entry points (`coverage::gate`, `bibtex::check::check_file`)
//! give one report whatever the surface: the cases below were reachable only
//! through the JavaScript package or the app before (a `.bib` as the pool,
//! the re-prompt only on failure, the report's two field names).

use citegate_core::bibtex::{check, parse};
use citegate_core::coverage::{gate, gate_streamed, Against, Threshold};
use citegate_core::pool::{self, PoolPaper};
use std::collections::BTreeMap;

fn project(tex: &str) -> citegate_core::tex::Project {
    let files = BTreeMap::from([("main.tex".to_string(), tex.to_string())]);
    citegate_core::tex::scan_project(&["main.tex".to_string()], &files)
}

fn papers(keys: &[&str]) -> Vec<PoolPaper> {
    let list: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(r#"{{"title": "Paper {k}", "bibtex_key": "{k}", "discovered_for": ["intro"]}}"#)
        })
        .collect();
    pool::parse_pool(&format!(r#"{{"papers": [{}]}}"#, list.join(",")))
        .unwrap()
        .papers
}

fn bib(keys: &[&str]) -> parse::Bibliography {
    let text: String = keys
        .iter()
        .map(|k| format!("@misc{{{k}, title={{Paper {k}}}}}\n"))
        .collect();
    parse::parse(&text)
}

/// (tex, pool keys as a pool and as a .bib, threshold, pass, n_cited, min_required)
fn check(tex: &str, keys: &[&str], threshold: &str, pass: bool, cited: usize, min: usize) {
    let t = Threshold::parse(threshold).unwrap();
    let p = project(tex);
    for against in [Against::Pool(papers(keys)), Against::Bib(bib(keys))] {
        let r = gate(&p, &against, &t).unwrap();
        check_streamed(&[("main.tex", tex)], &against, &t);
        let c = &r.coverage;
        assert_eq!(
            (c.pass, c.n_cited, c.min_required),
            (pass, cited, min),
            "{tex} {against:?}"
        );
        // The re-prompt comes with a failure only, and names every uncited key.
        assert_eq!(r.reprompt.is_empty(), pass, "{tex}");
        for u in c.uncited.iter().filter(|_| !pass) {
            assert!(r.reprompt.contains(&u.key), "{against:?}: {}", r.reprompt);
        }
        assert!(r
            .summary
            .starts_with(&format!("Coverage: {cited}/{}", keys.len())));
        assert_eq!(r.files, ["main.tex"]);
    }
}

/// `gate_streamed` (each cite counted as the scan finds it) gives the
/// report `gate` gives on the scanned project, and the same project but
/// for its cites and sources.
fn check_streamed(files: &[(&str, &str)], against: &Against, t: &Threshold) {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
        .collect();
    let roots = ["main.tex".to_string()];
    let project = citegate_core::tex::scan_project(&roots, &files);
    let expected = gate(&project, against, t).unwrap();
    let (got, streamed) = gate_streamed(&roots, |n| files.get(n).cloned(), against, t).unwrap();
    assert_eq!(got, expected, "{files:?}");
    let names = |p: &citegate_core::tex::Project| -> Vec<String> {
        p.files.iter().map(|f| f.name.clone()).collect()
    };
    assert_eq!(names(&streamed), names(&project));
    for (s, f) in streamed.files.iter().zip(&project.files) {
        assert_eq!(s.scan.cites().len(), 0);
        assert_eq!(
            (&s.scan.nocite_all, &s.scan.includes, &s.scan.definitions),
            (&f.scan.nocite_all, &f.scan.includes, &f.scan.definitions)
        );
    }
}

#[test]
fn streamed_gate_equals_the_gate() {
    let t = Threshold::parse("0.5").unwrap();
    let against = Against::Pool(papers(&["a", "b", "c", "d"]));
    let cases: &[&[(&str, &str)]] = &[
        // Keys outside the pool in several files, in and out of order
        // (a cite in a note is found after the command around it).
        &[
            (
                "main.tex",
                "\\cite{x}\n\\input{s1}\n\\citep[see \\citet{y}]{a,x}\n\\input{s2}",
            ),
            (
                "s1.tex",
                "\\cite{b}\n\n\\cite{y,z} % \\cite{w}\n\\nocite{c,v}",
            ),
            ("s2.tex", "\\citep[see \\citep[x]{z}]{x}\\nocite{*}"),
        ],
        // A wrapper defined in a later file: every file is read again.
        &[
            (
                "main.tex",
                "\\input{macros}\n\\mycite{a,q}\n\\classics\\classics",
            ),
            (
                "macros.tex",
                "\\newcommand{\\mycite}[1]{\\citep{#1}}\n\\newcommand{\\classics}{\\citep{q,d,q}}",
            ),
        ],
        // A key broken by a comment, a missing include, a runaway argument.
        &[(
            "main.tex",
            "\\cite{ab%\n  cd,a}\n\\input{gone}\n\\cite{b\n\nc} \\cite{e}",
        )],
        // Nothing cited at all.
        &[("main.tex", "no cites")],
    ];
    for files in cases {
        check_streamed(files, &against, &t);
        check_streamed(files, &Against::Bib(bib(&["a", "b", "x"])), &t);
    }
}

#[test]
fn gate_cases_pool_and_bib_agree() {
    check(r"\cite{a,b}", &["a", "b"], "0.90", true, 2, 1);
    check(r"\cite{a}", &["a", "b"], "1", false, 1, 2);
    check(r"\cite{a} \nocite{b}", &["a", "b"], "100%", false, 1, 2);
    check(r"\cite{ghost}", &["a"], "0.90", true, 0, 0);
    check(
        "",
        &["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
        "0.9",
        false,
        0,
        9,
    );
}

#[test]
fn gate_report_has_both_field_names() {
    let r = gate(
        &project(r"\cite{a}"),
        &Against::Pool(papers(&["a"])),
        &Threshold::default(),
    )
    .unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["pass"], true);
    assert_eq!(v["coverage"]["pass"], true);
    assert_eq!(v["n_cited"], v["coverage"]["n_cited"]);
    assert_eq!(v["reprompt"], "");
}

#[test]
fn pool_file_or_bib_file_by_name() {
    let a = Against::read("refs.bib", "@misc{a, title={A}}").unwrap();
    assert!(matches!(a, Against::Bib(_)));
    let p = Against::read("citation_pool.json", r#"{"papers": []}"#).unwrap();
    assert!(matches!(p, Against::Pool(_)));
    // Nothing to count is an error on both sides, naming what is missing.
    assert!(p.entries().unwrap_err().to_string().contains("bibtex_key"));
    let empty = Against::read("refs.bib", "").unwrap();
    assert!(empty.entries().is_err());
}

#[test]
fn the_ninety_percent_rule_is_one_rule() {
    let t = Threshold::default();
    assert_eq!(
        t,
        Threshold::parse(citegate_core::coverage::DEFAULT_THRESHOLD).unwrap()
    );
    for n in 0..500 {
        assert_eq!(pool::min_cite_count(n), t.min_required(n) as u64, "n={n}");
    }
}

#[test]
fn bibcheck_report_json_shape() {
    let b = parse::parse("@article{ok, title={T}, author={Doe, J.}, journal={J}, year={2020}}\n@misc{bare, note={x}}");
    let r = check::check_file("refs.bib", &b, Some(&project(r"\cite{ok,ghost}")), 2025);
    let v = serde_json::to_value(&r).unwrap();
    for field in [
        "bib",
        "mode",
        "entries",
        "tex_files",
        "missing_includes",
        "errors",
        "warnings",
        "undefined",
        "unused",
        "nothing_to_look_up",
        "findings",
        "problems",
    ] {
        assert!(v.get(field).is_some(), "{field} in {v}");
    }
    assert_eq!(v["undefined"][0], "ghost");
    assert_eq!(v["nothing_to_look_up"][0], "bare");
    assert!(v.get("online").is_none());
}

/// A rejection in the researcher's words: no snake_case code on screen.
fn describe(json: &str, words: &str) {
    let d: citegate_core::verify::Decision = serde_json::from_str(json).unwrap();
    let text = d.describe();
    assert!(text.contains(words), "{text}");
    for code in [
        "no_hit",
        "low_score",
        "no_abstract",
        "no_date",
        "after_cutoff",
    ] {
        assert!(!text.contains(code), "{text}");
    }
    // The decision comes back from its JSON unchanged.
    let again: citegate_core::verify::Decision =
        serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(again, d);
}

#[test]
fn decisions_read_back_and_described() {
    describe(
        r#"{"decision": "rejected", "reason": "no_hit"}"#,
        "found no paper",
    );
    describe(
        r#"{"decision": "rejected", "reason": "low_score", "found_title": "Attention", "score": 60, "threshold": 70}"#,
        "matches 60/100, not above 70",
    );
    describe(
        r#"{"decision": "rejected", "reason": "no_abstract", "paper_id": null, "found_title": "X"}"#,
        "no abstract",
    );
    describe(
        r#"{"decision": "rejected", "reason": "no_date", "paper_id": "p", "found_title": "X"}"#,
        "no publication date",
    );
    describe(
        r#"{"decision": "rejected", "reason": "after_cutoff", "found_title": "X", "paper_date": "2024-05-01", "date_source": "publication_date", "cutoff": "2024-01-01"}"#,
        "published 2024-05-01, not before the cutoff 2024-01-01",
    );
    describe(
        r#"{"decision": "accepted", "paper": {"title": "T"}, "score": 90, "year_bonus": true}"#,
        "accepted (title score 90, +5 for the year)",
    );
}

#[test]
fn index_answers_read_back() {
    use citegate_core::crossindex::IndexAnswer;
    for a in [
        IndexAnswer::Unavailable,
        IndexAnswer::Answered {
            by_doi: None,
            search: Vec::new(),
        },
    ] {
        let back: IndexAnswer = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
    }
}

/// The decision column's words and code come from the core, and the code is
/// what the rejection serializes as (pages keep it in `data-code`).
#[test]
fn rejection_labels_and_codes() {
    use citegate_core::verify::Rejection;
    let check = |r: Rejection, code: &str, label: &str| {
        assert_eq!(r.code(), code);
        assert_eq!(r.label(), label);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["reason"], code, "{v}");
        assert!(
            !r.describe().contains('_'),
            "no code in words: {}",
            r.describe()
        );
    };
    check(Rejection::NoHit, "no_hit", "not found");
    check(
        Rejection::LowScore {
            found_title: "A".into(),
            score: 62,
            threshold: 70,
        },
        "low_score",
        "title differs",
    );
}
