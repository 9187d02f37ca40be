//! The scanner against LaTeX itself: each folder of `fixtures/latex-oracle/`
//! is a small document that `tools/latex-oracle/run.sh` compiled with Debian's
//! TeX Live (pdflatex, then bibtex or biber); its `expected.txt` holds the keys
//! LaTeX recorded. A biblatex document's keys come from the `.bcf`, which
//! marks `\nocite` (`cite`/`nocite` lines); any other document's come from
//! `\citation{…}` in the `.aux` files, which `\cite` and `\nocite` both write
//! (`any` lines). `*` stands for `\nocite{*}`.

use citegate_core::tex::scan_project;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn oracle_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/latex-oracle")
}

/// Every `.tex` file under `dir`, by its `/`-separated path relative to `dir`.
fn tex_files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("fixture folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tex") {
                let rel = p.strip_prefix(dir).expect("inside").to_string_lossy();
                out.insert(
                    rel.replace('\\', "/"),
                    std::fs::read_to_string(&p).expect("utf-8"),
                );
            }
        }
    }
    out
}

/// What LaTeX recorded, by kind (`cite`, `nocite` or `any`).
fn expected(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(dir.join("expected.txt")).expect("expected.txt");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (kind, key) = line.split_once('\t').expect("kind<TAB>key");
        out.entry(kind.to_string())
            .or_default()
            .insert(key.to_string());
    }
    out
}

/// The documents, each folder with its `expected.txt`.
pub fn documents() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(oracle_dir())
        .expect("oracle folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// What the scanner reads, in the oracle's terms.
fn ours(
    cited: &[&str],
    nocite_only: &[&str],
    nocite_all: bool,
    kinds: &[&str],
) -> BTreeMap<String, BTreeSet<String>> {
    let cited: BTreeSet<String> = cited.iter().map(|k| k.to_string()).collect();
    let mut nocited: BTreeSet<String> = nocite_only.iter().map(|k| k.to_string()).collect();
    if nocite_all {
        nocited.insert("*".to_string());
    }
    let mut out = BTreeMap::new();
    if kinds.contains(&"any") {
        out.insert("any".to_string(), cited.union(&nocited).cloned().collect());
    } else {
        if !cited.is_empty() {
            out.insert("cite".to_string(), cited);
        }
        if !nocited.is_empty() {
            out.insert("nocite".to_string(), nocited);
        }
    }
    out
}

#[test]
fn scanner_reads_the_keys_latex_records() {
    let docs = documents();
    assert!(docs.len() >= 40, "only {} oracle documents", docs.len());
    let mut wrong = Vec::new();
    for dir in &docs {
        let want = expected(dir);
        let files = tex_files(dir);
        let project = scan_project(&["main.tex".to_string()], &files);
        assert!(
            project.missing.is_empty(),
            "{}: {:?}",
            dir.display(),
            project.missing
        );
        assert!(
            project.cites().all(|(_, c)| !c.key.contains('#')),
            "{}: a macro parameter reported as a key",
            dir.display()
        );
        let kinds: Vec<&str> = want.keys().map(String::as_str).collect();
        let got = ours(
            &project.cited_keys(),
            &project.nocite_only_keys(),
            project.nocites_all(),
            &kinds,
        );
        if got != want {
            wrong.push(format!(
                "{}:\n  latex {want:?}\n  ours  {got:?}",
                dir.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The document kinds the issue asks for are all there: natbib, biblatex
/// (read through biber) and apacite.
#[test]
fn the_documents_cover_natbib_biblatex_and_apacite() {
    let mains: Vec<String> = documents()
        .iter()
        .map(|d| std::fs::read_to_string(d.join("main.tex")).expect("main.tex"))
        .collect();
    for package in [
        "{natbib}",
        "{biblatex}",
        "{apacite}",
        "{import}",
        "{subfiles}",
        "{changes}",
    ] {
        assert!(
            mains.iter().filter(|m| m.contains(package)).count() >= 1,
            "no document loads {package}"
        );
    }
}
