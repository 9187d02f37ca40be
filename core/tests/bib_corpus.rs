//! Every file of the real-world BibTeX corpus parses without panic, and its
//! entry count equals the count BibTeX itself gives (`\bibitem`s in the
//! `.bbl`: `tools/latex-oracle/run.sh counts` →
//! `fixtures/bib-corpus-bibtex-counts.tsv`) except for the files listed in
//! [`BIBTEX_DIFFERENCES`], and the count bibtexparser 1.4.3 gives
//! (`tools/bib_counts.py` → `fixtures/bib-corpus-counts.tsv`) except for the
//! files listed in [`DIFFERENCES`], each with the reason.

use citegate_core::bibtex::parse;
use std::path::Path;

/// Files where our count differs from bibtexparser's: (file, ours, why).
const DIFFERENCES: &[(&str, usize, &str)] = &[
    (
        "better-bibtex/Better_BibTeX.009.bib",
        3,
        "bibtexparser drops `@misc{emptyreference,}`, an entry with no fields; BibTeX keeps it and so do we",
    ),
    (
        "better-bibtex/Math_markup_to_unicode_not_always_imported_correctly_472.bib",
        2,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (`IEEE_J_PROC`)",
    ),
    (
        "better-bibtex/Math_markup_to_unicode_not_always_imported_correctly_472.roundtrip.bib",
        2,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (`IEEE_J_PROC`)",
    ),
    (
        "better-bibtex/Some_bibtex_entries_quietly_discarded_on_import_from_bib_file_873.bib",
        988,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (`aaai-91`)",
    ),
    (
        "better-bibtex/web_page_and_other_mendeley_idiocy.bib",
        512,
        "bibtexparser drops the 47 entries whose type has an underscore (`@web_page`, `@book_section`, `@magazine_article`, `@newspaper_article`); BibTeX accepts them",
    ),
    (
        "biber/annotations.bib",
        2,
        "bibtexparser drops `ann2`, whose field names contain `:` (biber annotations `TITLE-an:default`)",
    ),
    (
        "biblatex/97-annotations.bib",
        1,
        "bibtexparser drops `ann1`, whose field names contain `+` (`AUTHOR+an`)",
    ),
    (
        "bibtex-perl-libs/endnote.txt",
        1,
        "bibtexparser drops `@article{` with no key; BibTeX takes the first field's name (`volume`) as the key and keeps the entry with an error, and so do we (reported as damaged)",
    ),
    (
        "others/example1.bib",
        8,
        "bibtexparser drops `@boo{fd{},fds}`; BibTeX's key ends at a comma, a space or the closing brace, so it keeps the key `fd{`, and so do we",
    ),
    (
        "others/example2.bib",
        5,
        "bibtexparser drops `@conference_at{4,`: a type with an underscore",
    ),
    (
        "php-bibtex-parser/basic.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/citation-key.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/multiples-entries.bib",
        2,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/tag-contents-basic.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/tag-contents-multiple.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/tag-name-uppercased.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/tag-name-with-underscore.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/trailing-comma.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
    (
        "php-bibtex-parser/type-overriding.bib",
        1,
        "bibtexparser aborts the whole file on an undefined @string macro; we keep the macro name as text and report it (a bare word used as a value)",
    ),
];

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bib-corpus")
}

fn reference_counts() -> Vec<(String, Option<usize>)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bib-corpus-counts.tsv"),
    )
    .expect("counts file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (file, count) = l.split_once('\t').expect("tab-separated line");
            (file.to_string(), count.parse().ok())
        })
        .collect()
}

fn our_count(file: &str) -> usize {
    let bytes = std::fs::read(corpus().join(file)).expect("corpus file");
    // The bytes entry point reads the file (an 8-bit one with a warning
    // first) or says why it is not text; every problem has a line and column.
    match parse::parse_bytes(&bytes) {
        Ok(bib) => {
            assert!(
                bib.problems
                    .iter()
                    .all(|p| p.error.location.line.is_some() && p.error.location.column.is_some()),
                "{file}: problem without a line and column"
            );
            let eight_bit = std::str::from_utf8(&bytes).is_err();
            assert_eq!(
                bib.problems.first().map(|p| p.kind) == Some(parse::ProblemKind::Encoding),
                eight_bit,
                "{file}: the encoding warning comes first, for 8-bit files only"
            );
            bib.entries.len()
        }
        Err(e) => {
            assert_eq!(e.kind, citegate_core::ErrorKind::Encoding, "{file}");
            let text = String::from_utf8_lossy(&bytes);
            parse::parse(&text).entries.len()
        }
    }
}

#[test]
fn corpus_counts_match_the_reference_or_are_explained() {
    let counts = reference_counts();
    assert_eq!(counts.len(), 246, "one reference count per corpus file");
    let mut unexplained = Vec::new();
    for (file, reference) in &counts {
        let ours = our_count(file);
        match DIFFERENCES.iter().find(|(f, _, _)| f == file) {
            Some((_, expected, _)) => assert_eq!(ours, *expected, "{file}: listed count"),
            None if Some(ours) != *reference => {
                unexplained.push(format!("{file}\tours {ours}\treference {reference:?}"))
            }
            None => {}
        }
    }
    assert!(
        unexplained.is_empty(),
        "unexplained differences:\n{}",
        unexplained.join("\n")
    );
}

/// Guards the browser's sliced reading of a large `.bib`: reading every
/// corpus file a few bytes or a few entries at a time gives exactly the
/// one-shot result, layer 1 included.
#[test]
fn stepped_parse_and_layer1_equal_the_one_shot_run_on_every_corpus_file() {
    use citegate_core::bibtex::format::{self, Layer1};
    for (file, _) in reference_counts() {
        let bytes = std::fs::read(corpus().join(&file)).expect("corpus file");
        let text = String::from_utf8_lossy(&bytes);
        let whole = parse::parse(&text);
        let findings = format::check_entries(&whole, 2026);
        for budget in [1, 7, 4096] {
            let mut p = parse::Incremental::new(&text);
            let mut last = 0;
            while !p.step(budget) {
                let (done, total) = p.progress();
                assert!(
                    done > last && done < total,
                    "{file}: progress {done}/{total}"
                );
                last = done;
            }
            assert_eq!(p.finish(), whole, "{file}: stepped by {budget} bytes");
            let mut l = Layer1::new(&whole, 2026);
            while !l.step(budget) {}
            assert_eq!(l.finish(), findings, "{file}: layer 1 stepped by {budget}");
        }
    }
}

/// Files where our entry count differs from BibTeX's own (`\bibitem`s in
/// the `.bbl` of a document that `\nocite{*}`s the file with the plain
/// style: `tools/latex-oracle/run.sh counts` →
/// `fixtures/bib-corpus-bibtex-counts.tsv`): (file, ours, why). Empty:
/// all 246 files agree (BibTeX 0.99d of TeX Live 2022). Before the reader
/// kept entries broken after their key and read keys as BibTeX does, two
/// differed (`bibtex-perl-libs/endnote.txt`, `others/example1.bib`).
const BIBTEX_DIFFERENCES: &[(&str, usize, &str)] = &[];

fn bibtex_counts() -> Vec<(String, Option<usize>)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bib-corpus-bibtex-counts.tsv"),
    )
    .expect("bibtex counts file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (file, count) = l.split_once('\t').expect("tab-separated line");
            (file.to_string(), count.parse().ok())
        })
        .collect()
}

#[test]
fn corpus_counts_match_bibtex_or_are_explained() {
    let counts = bibtex_counts();
    assert_eq!(counts.len(), 246, "one BibTeX count per corpus file");
    let mut unexplained = Vec::new();
    for (file, reference) in &counts {
        let ours = our_count(file);
        match BIBTEX_DIFFERENCES.iter().find(|(f, _, _)| f == file) {
            Some((_, expected, _)) => assert_eq!(ours, *expected, "{file}: listed count"),
            None if Some(ours) != *reference => {
                unexplained.push(format!("{file}\tours {ours}\tbibtex {reference:?}"))
            }
            None => {}
        }
    }
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}
