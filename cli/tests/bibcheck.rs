//! `citegate bibcheck` on the three real papers in `core/tests/fixtures/papers`.
//!
//! The expected undefined and unused keys were established by hand: every
//! `\cite…{…}` in the supplied `.tex` files (comments removed, cites spanning
//! lines joined) against every `@type{key,` of the `.bib`, with a Python
//! regular expression, then read through. The astropy paper `\input`s a
//! `registry.tex` that was not copied (the table of affiliated packages);
//! the 40 package entries it would cite are therefore unused here, and the
//! tool warns about the missing file.

use serde_json::Value;
use std::path::{Path, PathBuf};

fn papers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/papers")
}

mod common;

/// Runs `citegate bibcheck --json` and returns (exit code, report, stderr).
fn run(args: &[&str]) -> (i32, Value, String) {
    let args: Vec<&str> = ["bibcheck"]
        .into_iter()
        .chain(args.iter().copied())
        .chain(["--json"])
        .collect();
    let out = common::run(&args, &[]);
    let code = out.status.code().unwrap_or(-1);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (code, json, common::stderr(&out))
}

fn keys(report: &Value, field: &str) -> Vec<String> {
    report[field]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks a paper: its undefined and unused keys and the entry count.
fn check(
    paper: &str,
    root: &str,
    entries: u64,
    undefined: &[&str],
    unused: &[&str],
) -> (i32, Value, String) {
    let dir = papers().join(paper);
    let bib = dir.join("bibliography.bib");
    let tex = dir.join(root);
    let (code, report, stderr) = run(&[
        "--bib",
        bib.to_str().unwrap(),
        "--tex",
        tex.to_str().unwrap(),
    ]);
    assert_eq!(report["entries"], entries, "{paper}: {stderr}");
    assert_eq!(keys(&report, "undefined"), undefined, "{paper}");
    assert_eq!(keys(&report, "unused"), unused, "{paper}");
    assert!(code == 0 || code == 1, "{paper}: exit {code}");
    (code, report, stderr)
}

const ASTROPY_UNUSED: &[&str] = &[
    "Rybicki1979",
    "Wilkie83",
    "astroML_book",
    "astroML_conf",
    "astropy-ci",
    "astroquery",
    "astroscrappy",
    "ccdproc",
    "clusterlensing",
    "ds9",
    "gala",
    "galpy",
    "gammapy",
    "ginga",
    "glue",
    "gwcs",
    "halotools",
    "hendrics",
    "hips",
    "imexam",
    "linetools",
    "marxs",
    "naima",
    "omnifit",
    "photutils",
    "poliastro",
    "pydl",
    "pyregions",
    "pyspeckit",
    "pythoncpl",
    "pyvo",
    "regions",
    "reproject",
    "skyserver",
    "sncosmo",
    "spectralcube",
    "specutils",
    "sphericalgeometry",
    "stingray",
    "synphot",
];

#[test]
fn astropy_paper() {
    let (code, _, stderr) = check("astropy-v2.0-paper", "main.tex", 93, &[], ASTROPY_UNUSED);
    assert_eq!(code, 1);
    assert!(stderr.contains("registry.tex"), "{stderr}");
}

#[test]
fn rescience_broman_paper() {
    check("rescience-broman-2020", "article.tex", 10, &[], &[]);
}

#[test]
fn rescience_gorder_paper() {
    check("rescience-gorder-2021", "article.tex", 16, &[], &[]);
}

#[test]
fn undefined_keys_name_file_and_line() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bibcheck-undefined");
    std::fs::create_dir_all(&dir).unwrap();
    let bib = dir.join("refs.bib");
    let tex = dir.join("main.tex");
    std::fs::write(&bib, "@misc{a, title={A}}\n").unwrap();
    std::fs::write(&tex, "Text \\cite{a}.\n\nMore \\citep{a,missing}.\n").unwrap();
    let (code, report, _) = run(&[
        "--bib",
        bib.to_str().unwrap(),
        "--tex",
        tex.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(keys(&report, "undefined"), ["missing"]);
    let f = &report["findings"][0];
    assert_eq!(
        (f["code"].as_str(), f["line"].as_u64()),
        (Some("undefined_cite"), Some(3))
    );
    assert!(f["file"].as_str().unwrap_or("").ends_with("main.tex"));
}

#[test]
fn exit_codes() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bibcheck-exit");
    std::fs::create_dir_all(&dir).unwrap();
    let clean = dir.join("clean.bib");
    std::fs::write(&clean, "@misc{a, title={A}}\n").unwrap();
    assert_eq!(run(&["--bib", clean.to_str().unwrap()]).0, 0);
    let broken = dir.join("broken.bib");
    std::fs::write(&broken, "@article{a, title={A}}\n").unwrap();
    assert_eq!(run(&["--bib", broken.to_str().unwrap()]).0, 1);
    let latin1 = dir.join("latin1.bib");
    std::fs::write(&latin1, b"@misc{a, title={caf\xe9}}\n").unwrap();
    // An 8-bit file is read (BibTeX reads it too), not refused: its
    // warning naming the encoding fails the check as any warning does.
    let (code, stdout, stderr) = run(&["--bib", latin1.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        format!("{stdout}{stderr}").contains("latin-1"),
        "{stdout}{stderr}"
    );
    assert_eq!(
        run(&["--bib", dir.join("absent.bib").to_str().unwrap()]).0,
        2
    );
}

/// The same record as `.bib`, CSL-JSON and RIS (core/tests/fixtures/formats)
/// gives the same findings; a CSL-JSON file named `.txt` is told by its content.
#[test]
fn csl_json_and_ris_are_checked_like_bib() {
    let formats = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/formats");
    let codes = |name: &str| -> (i32, Vec<String>) {
        let (code, report, stderr) = run(&["--bib", formats.join(name).to_str().unwrap()]);
        assert_ne!(code, 2, "{name}: {stderr}");
        let found = report["findings"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|f| format!("{} {}", f["code"], f["field"]))
                    .collect()
            })
            .unwrap_or_default();
        (code, found)
    };
    let ris = codes("citationjs-ris-file.ris");
    assert_eq!(ris.0, 1);
    assert_eq!(ris.1.len(), 23, "{:?}", ris.1);
    assert_eq!(ris, codes("citationjs-ris-file.json"));
    assert_eq!(codes("citationjs-ris-record.ris"), (0, vec![]));
    assert_eq!(codes("citationjs-ris-record.json"), (0, vec![]));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bibcheck-formats");
    std::fs::create_dir_all(&dir).unwrap();
    let txt = dir.join("export.txt");
    std::fs::copy(formats.join("citationjs-ris-file.json"), &txt).unwrap();
    assert_eq!(codes(txt.to_str().unwrap()), ris);
}
