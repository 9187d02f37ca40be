//! The command-line conventions people script with: positional files and `-`
//! for standard input, GitHub annotations and SARIF, `--fail-on`, shell
//! completions, the man page, examples in every subcommand's help.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs citegate with `stdin`; returns (exit code, stdout, stderr).
fn citegate(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run citegate");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conventions");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A `.bib` with one error (an article without journal, line 1) and one
/// warning (a DOI written as a URL, line 3).
const BROKEN: &str = "@article{a, author={A}, title={T}, year={2020}}\n\n@misc{b, title={U}, doi={https://doi.org/10.1/x}}\n";

#[test]
fn github_annotations_over_a_broken_bib() {
    let bib = scratch("broken.bib", BROKEN);
    let path = bib.to_str().unwrap();
    let (code, out, err) = citegate(&["bibcheck", path, "--format", "github"], "");
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let file = path.replace(':', "%3A").replace(',', "%2C");
    assert_eq!(
        lines,
        [
            format!("::error file={file},line=1,title=citegate missing_field::`@article` entry `a` needs `journal` or `journaltitle`"),
            format!("::warning file={file},line=3,title=citegate doi_not_bare::entry `b`: write the DOI bare, without a resolver or `doi:` prefix (suggested: 10.1/x)"),
        ]
    );
}

#[test]
fn sarif_2_1_0() {
    let bib = scratch("sarif.bib", BROKEN);
    let (code, out, _) = citegate(
        &["bibcheck", bib.to_str().unwrap(), "--format", "sarif"],
        "",
    );
    assert_eq!(code, 1);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "citegate");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["doi_not_bare", "missing_field"]);
    let results: Vec<(String, String, u64)> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["level"].as_str().unwrap().to_string(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            ("missing_field".into(), "error".into(), 1),
            ("doi_not_bare".into(), "warning".into(), 3)
        ]
    );
    assert!(
        run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("sarif.bib")
    );
}

#[test]
fn fail_on_lets_warnings_pass() {
    let warn_only = scratch("warn.bib", "@misc{b, title={U}, doi={doi:10.1/x}}\n");
    let p = warn_only.to_str().unwrap();
    assert_eq!(citegate(&["bibcheck", p], "").0, 1);
    assert_eq!(citegate(&["bibcheck", p, "--fail-on", "warning"], "").0, 1);
    assert_eq!(citegate(&["bibcheck", p, "--fail-on", "error"], "").0, 0);
    let broken = scratch("err.bib", BROKEN);
    assert_eq!(
        citegate(
            &["bibcheck", broken.to_str().unwrap(), "--fail-on", "error"],
            ""
        )
        .0,
        1
    );
    assert_eq!(citegate(&["bibcheck", p, "--fail-on", "never"], "").0, 2);
}

#[test]
fn positional_files_and_stdin() {
    // `-` is standard input, its format told by the content (RIS here).
    let ris = "TY  - JOUR\nAU  - Doe, J\nTI  - T\nJO  - J\nPY  - 2020\nER  - \n";
    let (code, out, err) = citegate(&["bibcheck", "-", "--json"], ris);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (report["bib"].as_str(), report["entries"].as_u64()),
        (Some("<stdin>"), Some(1))
    );
    // Several files: each checked, the worst exit code wins; --bib still works.
    let good = scratch("good.bib", "@misc{a, title={A}}\n");
    let bad = scratch("bad.bib", BROKEN);
    let (g, b) = (good.to_str().unwrap(), bad.to_str().unwrap());
    assert_eq!(citegate(&["bibcheck", g], "").0, 0);
    assert_eq!(citegate(&["bibcheck", g, b], "").0, 1);
    assert_eq!(citegate(&["bibcheck", "--bib", g], "").0, 0);
    assert_eq!(citegate(&["bibcheck"], "").0, 2);
}

#[test]
fn completions_for_each_shell() {
    for (shell, says) in [
        ("bash", "_citegate()"),
        ("zsh", "#compdef citegate"),
        ("fish", "complete -c citegate"),
        ("elvish", "edit:completion:arg-completer[citegate]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (code, out, err) = citegate(&["completions", shell], "");
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(
            out.contains(says),
            "{shell}: {}",
            &out[..out.len().min(200)]
        );
        assert!(
            out.contains("bibcheck") && out.contains("fail-on"),
            "{shell}"
        );
    }
    assert_eq!(citegate(&["completions", "tcsh"], "").0, 2);
}

#[test]
fn man_page_from_the_clap_definitions() {
    let (code, out, _) = citegate(&["man"], "");
    assert_eq!(code, 0);
    assert!(
        out.starts_with(".ie \\n(.g .ds Aq") || out.contains(".TH citegate"),
        "{}",
        &out[..200]
    );
    assert!(out.contains(".TH citegate 1"));
    for sub in ["bibcheck", "coverage", "completions", "man"] {
        assert!(out.contains(sub), "man page names {sub}");
    }
}

#[test]
fn every_subcommand_help_has_examples() {
    let (_, top, _) = citegate(&["--help"], "");
    let subs: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|s| s != "help")
        .collect();
    assert!(subs.len() >= 10, "{subs:?}");
    for sub in &subs {
        let (code, help, _) = citegate(&[sub, "--help"], "");
        assert_eq!(code, 0, "{sub}");
        let examples = help
            .split("Examples:")
            .nth(1)
            .unwrap_or_else(|| panic!("{sub} --help has no examples"));
        assert!(
            examples.contains(&format!("citegate {sub} ")),
            "{sub}: {examples}"
        );
        // A real invocation, not the fallback pointer to --help.
        assert!(
            !examples
                .trim()
                .starts_with(&format!("citegate {sub} --help")),
            "{sub}: {examples}"
        );
    }
}

/// Several `.bib` files are one database, read in the order given as
/// `\bibliography{abbrev,refs}` reads them: `@string` macros of an earlier
/// file are known in a later one, a key is cited-but-missing only when no
/// file has it (reported once), and `--json` / `--format sarif` print one
/// document (a list of reports; one log). Each file used to be checked
/// alone: every key of the other file was "cited but not in the
/// bibliography", and two JSON documents were printed back to back.
#[test]
fn several_bib_files_are_one_database() {
    let strings = scratch("abbrev.bib", "@string{aij = {Artificial Intelligence}}\n");
    let refs = scratch(
        "refs.bib",
        "@article{x, author={A}, title={T}, journal=aij, year=2020}\n",
    );
    let tex = scratch("paper.tex", "\\cite{x, ghost}\n");
    let (s, r, t) = (
        strings.to_str().unwrap(),
        refs.to_str().unwrap(),
        tex.to_str().unwrap(),
    );
    let (code, out, err) = citegate(&["bibcheck", s, r, "--tex", t, "--json"], "");
    assert_eq!(code, 1, "{err}");
    let reports: Value = serde_json::from_str(&out).expect("one JSON document");
    let field = |i: usize, f: &str| reports[i][f].clone();
    assert_eq!(
        (field(0, "undefined"), field(1, "undefined")),
        (serde_json::json!(["ghost"]), serde_json::json!([]))
    );
    assert_eq!(field(1, "problems"), serde_json::json!([]));
    assert_eq!(field(1, "unused"), serde_json::json!([]));
    // Given the other way round, the macro is not known yet, as in BibTeX.
    let (_, out, _) = citegate(&["bibcheck", r, s, "--json"], "");
    let reports: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(reports[0]["problems"][0]["kind"], "undefined_macro");
    // A list still when one of the files cannot be read (exit 2 for it).
    let (code, out, _) = citegate(&["bibcheck", s, "/nonexistent/x.bib", "--json"], "");
    let reports: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((code, reports.as_array().map(Vec::len)), (2, Some(1)));
    // One SARIF log naming both files.
    let (_, out, _) = citegate(&["bibcheck", s, r, "--tex", t, "--format", "sarif"], "");
    let log: Value = serde_json::from_str(&out).expect("one SARIF log");
    let uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    assert!(uris.iter().any(|u| u.ends_with("paper.tex")), "{uris:?}");
}

/// `fuse --per-backend` takes the core's range (search::PER_BACKEND_MAX);
/// a number outside it is a usage error naming the flag, before any request.
#[test]
fn per_backend_outside_its_range_is_a_usage_error() {
    for bad in ["0", "101", "ten"] {
        let (code, _, err) = citegate(&["fuse", "--query", "x", "--per-backend", bad], "");
        assert_eq!(code, 2, "--per-backend {bad}: {err}");
        assert!(
            err.contains("--per-backend") && err.contains("1 to 100"),
            "{err}"
        );
    }
}
