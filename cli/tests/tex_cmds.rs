//! `citegate cites`, `sync-keys` and `coverage` as a researcher runs them.

use std::path::{Path, PathBuf};

mod common;

fn citegate(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::run_in(dir, args)
}

fn golden(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/fixtures/golden")
        .join(sub)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("tex-{name}"))
}

/// The reference's stdout is a prefix of ours, line for line, except that our
/// foreign-key lines add `  (file:line, …)`.
#[test]
fn coverage_prints_the_reference_lines_and_exit_code() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(golden("coverage/cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for case in dirs {
        let threshold = std::fs::read_to_string(case.join("threshold")).unwrap();
        let (code, out, err) = citegate(
            &case,
            &[
                "coverage",
                "--tex",
                "main.tex",
                "--pool",
                "pool.json",
                "--threshold",
                threshold.trim(),
            ],
        );
        let want_code: i32 = std::fs::read_to_string(case.join("exit_code"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(code, want_code, "{}: {err}", case.display());
        let reference = std::fs::read_to_string(case.join("stdout.txt")).unwrap();
        let ours: Vec<&str> = out.lines().collect();
        for (i, want) in reference.lines().enumerate() {
            let got = ours.get(i).copied().unwrap_or("");
            let got = match got.find("  (main.tex:") {
                Some(p) if got.starts_with("  - ") => &got[..p],
                _ => got,
            };
            assert_eq!(got, want, "{} line {}", case.display(), i + 1);
        }
    }
}

/// (arguments, exit code, text expected in stdout or stderr)
fn check(dir: &Path, args: &[&str], code: i32, needle: &str) {
    let (got, out, err) = citegate(dir, args);
    assert_eq!(got, code, "{args:?}\n{out}\n{err}");
    assert!(
        out.contains(needle) || err.contains(needle),
        "{args:?}: no {needle:?} in\n{out}\n{err}"
    );
}

#[test]
fn coverage_exit_codes_and_messages() {
    let d = scratch("cov");
    std::fs::write(d.join("pool.json"), r#"{"papers": [{"title": "A", "bibtex_key": "a", "discovered_for": ["intro"]}, {"title": "B", "bibtex_key": "b", "discovered_for": ["related_work[2.1]"]}]}"#).unwrap();
    std::fs::create_dir_all(d.join("sec")).unwrap();
    std::fs::write(
        d.join("main.tex"),
        "\\cite{a}\n\\input{sec/rw}\n\\input{gone}\n",
    )
    .unwrap();
    std::fs::write(d.join("sec/rw.tex"), "\\citep{b, ghost}\n").unwrap();
    std::fs::write(d.join("one.tex"), "\\cite{a}\n").unwrap();
    std::fs::write(d.join("two.tex"), "\\textcite{b}\n").unwrap();
    std::fs::write(d.join("bad.json"), "{\"papers\": [\n  {\"title\": }\n]}").unwrap();
    std::fs::write(d.join("nokeys.json"), r#"{"papers": [{"title": "A"}]}"#).unwrap();
    std::fs::write(d.join("latin1.tex"), b"\\cite{a} caf\xe9").unwrap();
    let p = ["--pool", "pool.json"];
    check(
        &d,
        &["coverage", "--tex", "main.tex", p[0], p[1]],
        0,
        "Coverage: 2/2 = 100.0% (threshold 90% = 1)",
    );
    check(
        &d,
        &["coverage", "--tex", "main.tex", p[0], p[1]],
        0,
        "ghost  (sec/rw.tex:1)",
    );
    check(
        &d,
        &["coverage", "--tex", "main.tex", p[0], p[1]],
        0,
        "main.tex:3: included file `gone` not found",
    );
    check(
        &d,
        &[
            "coverage",
            "--tex",
            "one.tex",
            p[0],
            p[1],
            "--threshold",
            "1",
        ],
        1,
        "  - b (related_work[2.1]): B",
    );
    check(
        &d,
        &[
            "coverage",
            "--tex",
            "one.tex",
            "--tex",
            "two.tex",
            p[0],
            p[1],
            "--threshold",
            "100%",
        ],
        0,
        "2/2",
    );
    check(
        &d,
        &[
            "coverage",
            "--tex",
            "one.tex",
            p[0],
            p[1],
            "--threshold",
            "0.9x",
        ],
        2,
        "--threshold",
    );
    check(
        &d,
        &["coverage", "--tex", "missing.tex", p[0], p[1]],
        2,
        "cannot read missing.tex",
    );
    check(
        &d,
        &["coverage", "--tex", "latin1.tex", p[0], p[1]],
        2,
        "not UTF-8",
    );
    check(
        &d,
        &["coverage", "--tex", "one.tex", "--pool", "bad.json"],
        2,
        "bad.json:2:",
    );
    check(
        &d,
        &["coverage", "--tex", "one.tex", "--pool", "nokeys.json"],
        2,
        "bibtex_key",
    );
    check(&d, &["coverage", "--tex", "one.tex"], 2, "--pool");
    let (code, out, _) = citegate(
        &d,
        &[
            "coverage",
            "--tex",
            "one.tex",
            p[0],
            p[1],
            "--threshold",
            "1",
            "--json",
        ],
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            v["n_cited"].as_u64(),
            v["min_required"].as_u64(),
            v["pass"].as_bool()
        ),
        (Some(1), Some(2), Some(false))
    );
    assert_eq!(v["uncited_by_tag"][0]["tag"], "related_work[2.1]");
    assert!(v["reprompt"]
        .as_str()
        .unwrap()
        .contains("  - b (related_work[2.1]): B"));
}

#[test]
fn sync_keys_inplace_out_and_preview() {
    let d = scratch("sync");
    std::fs::write(
        d.join("pool.json"),
        r#"{"papers": [{"title": "A", "key": "rag", "bibtex_key": "lewis2020retrieval"}]}"#,
    )
    .unwrap();
    let src = "See \\citep[p.~2]{rag,other} % \\cite{rag}\nrag\n";
    let want = "See \\citep[p.~2]{lewis2020retrieval,other} % \\cite{rag}\nrag\n";
    std::fs::write(d.join("main.tex"), src).unwrap();
    let (code, out, err) = citegate(
        &d,
        &["sync-keys", "--pool", "pool.json", "--tex", "main.tex"],
    );
    assert_eq!((code, out.as_str()), (0, want), "{err}");
    assert!(err.contains("1 substitution"));
    let (code, _, _) = citegate(
        &d,
        &[
            "sync-keys",
            "--pool",
            "pool.json",
            "--tex",
            "main.tex",
            "--out",
            "new.tex",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(d.join("new.tex")).unwrap(), want);
    assert_eq!(std::fs::read_to_string(d.join("main.tex")).unwrap(), src);
    let (code, out, _) = citegate(
        &d,
        &[
            "sync-keys",
            "--pool",
            "pool.json",
            "--tex",
            "main.tex",
            "--inplace",
        ],
    );
    assert_eq!(code, 0);
    assert!(out.contains("OK: 1 citation key(s) updated"), "{out}");
    assert_eq!(std::fs::read_to_string(d.join("main.tex")).unwrap(), want);
    let (code, _, err) = citegate(
        &d,
        &[
            "sync-keys",
            "--pool",
            "pool.json",
            "--tex",
            "main.tex",
            "--inplace",
            "--out",
            "x.tex",
        ],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn cites_lists_file_line_and_command() {
    let d = scratch("cites");
    std::fs::write(
        d.join("main.tex"),
        "Intro \\citet{a}\n\\include{sec}\n\\nocite{*}\n",
    )
    .unwrap();
    std::fs::write(d.join("sec.tex"), "\n\\parencites{b}{c}\n").unwrap();
    let (code, out, err) = citegate(&d, &["cites", "--tex", "main.tex"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "main.tex:1:14\t\\citet\ta\nsec.tex:2:13\t\\parencites\tb\nsec.tex:2:16\t\\parencites\tc\n"
    );
    assert!(err.contains("main.tex:3: \\nocite{*}"), "{err}");
    let (code, out, _) = citegate(&d, &["cites", "--tex", "main.tex", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["files"][1]["name"], "sec.tex");
}

/// `citegate cites` on each document of the LaTeX oracle
/// (`core/tests/fixtures/latex-oracle/`, see `tools/latex-oracle/run.sh`)
/// reports the keys LaTeX recorded: `cited` and `nocite_only` apart where
/// biber's `.bcf` tells them apart, their union where the `.aux` does not.
#[test]
fn cites_reports_the_keys_latex_records() {
    use std::collections::{BTreeMap, BTreeSet};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/latex-oracle");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 40);
    for dir in dirs {
        let mut want: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for line in std::fs::read_to_string(dir.join("expected.txt"))
            .unwrap()
            .lines()
        {
            if let Some((kind, key)) = line.split_once('\t').filter(|_| !line.starts_with('#')) {
                want.entry(kind.into()).or_default().insert(key.into());
            }
        }
        let (code, out, err) = citegate(&dir, &["cites", "--tex", "main.tex", "--json"]);
        assert_eq!(code, 0, "{}: {err}", dir.display());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let keys = |field: &str| -> BTreeSet<String> {
            v[field]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap().to_string())
                .collect()
        };
        let cited = keys("cited");
        let mut nocited = keys("nocite_only");
        if v["nocite_all"] == true {
            nocited.insert("*".into());
        }
        let mut got: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        if want.contains_key("any") {
            got.insert("any".into(), cited.union(&nocited).cloned().collect());
        } else {
            if !cited.is_empty() {
                got.insert("cite".into(), cited);
            }
            if !nocited.is_empty() {
                got.insert("nocite".into(), nocited);
            }
        }
        assert_eq!(got, want, "{}", dir.display());
    }
}

/// `\nocite` keys come after the cited ones in the text output, and a note
/// says they are not counted.
#[test]
fn cites_puts_nocite_keys_apart() {
    let d = scratch("nocite-apart");
    std::fs::write(d.join("main.tex"), "\\nocite{b}\n\\citep{a}\n").unwrap();
    let (code, out, err) = citegate(&d, &["cites", "--tex", "main.tex"]);
    assert_eq!(code, 0);
    assert_eq!(out, "main.tex:2:8\t\\citep\ta\nmain.tex:1:9\t\\nocite\tb\n");
    assert!(
        err.contains("only in \\nocite") && err.contains(": b"),
        "{err}"
    );
}

/// A `.bib` stands for the pool (as in the app): its keys are counted, and
/// `--json` is the core's gate report, the re-prompt only on failure.
#[test]
fn coverage_against_a_bib() {
    let d = scratch("cov-bib");
    std::fs::write(
        d.join("refs.bib"),
        "@misc{a, title={A}}\n@misc{b, title={B}}\n",
    )
    .unwrap();
    std::fs::write(d.join("main.tex"), "\\cite{a}\n").unwrap();
    let args = ["coverage", "--tex", "main.tex", "--pool", "refs.bib"];
    let strict = [&args[..], &["--threshold", "1"]].concat();
    check(&d, &strict, 1, "Coverage: 1/2 = 50.0% (threshold 100% = 2)");
    check(&d, &strict, 1, "  - b (untagged): B");
    let (code, out, _) = citegate(&d, &[&args[..], &["--json"]].concat());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["pass"].as_bool(), v["coverage"]["n_pool"].as_u64()),
        (Some(true), Some(2))
    );
    assert_eq!(v["reprompt"], "");
}

/// Every text input goes through the core's decoder: a byte-order mark is
/// skipped, a UTF-16 file is named as such, a broken byte is located.
#[test]
fn text_inputs_through_the_core_decoder() {
    let d = scratch("decode");
    std::fs::write(d.join("bom.tex"), b"\xEF\xBB\xBF\\cite{a}\n").unwrap();
    std::fs::write(d.join("utf16.tex"), b"\xFF\xFE\\\0c\0").unwrap();
    std::fs::write(d.join("broken.tex"), b"ok\n\\cite{caf\xe9}\n").unwrap();
    check(
        &d,
        &["cites", "--tex", "bom.tex"],
        0,
        "bom.tex:1:7\t\\cite\ta",
    );
    check(&d, &["cites", "--tex", "utf16.tex"], 2, "UTF-16");
    check(&d, &["cites", "--tex", "broken.tex"], 2, "broken.tex:2:");
    // An include goes through the same decoder: a Latin-1 `\input` is named
    // with its broken byte (exit 2), not called a missing file.
    std::fs::write(d.join("main.tex"), "\\cite{a}\n\\input{broken}\n").unwrap();
    for args in [
        &["cites", "--tex", "main.tex"][..],
        &["coverage", "--tex", "main.tex", "--pool", "pool.bib"][..],
        &["bibcheck", "pool.bib", "--tex", "main.tex"][..],
    ] {
        std::fs::write(d.join("pool.bib"), "@misc{a, title={A}, year={2020}}\n").unwrap();
        let (code, _, err) = citegate(&d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("broken.tex:2:"), "{args:?}: {err}");
        assert!(!err.contains("not found"), "{args:?}: {err}");
    }
}

/// `cites` exits as the top-level help says: 0 with the cites listed, 2
/// naming the file when one cannot be read (the help said "exits 0").
#[test]
fn cites_exits_as_its_help_says() {
    let dir = scratch("cites-exit");
    std::fs::write(dir.join("main.tex"), "\\cite{a}\n").unwrap();
    let (code, out, _) = citegate(&dir, &["cites", "--tex", "main.tex"]);
    assert_eq!((code, out.trim_end().ends_with("\ta")), (0, true), "{out}");
    let (code, _, err) = citegate(&dir, &["cites", "--tex", "nosuch.tex"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nosuch.tex"), "{err}");
    let (_, help, _) = citegate(&dir, &["--help"]);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("cites "))
        .expect("cites in the help");
    assert!(
        line.contains("exit 0, 2 when a file cannot be read"),
        "{line}"
    );
}
