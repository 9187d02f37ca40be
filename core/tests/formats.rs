//! CSL-JSON and RIS bibliographies get the same layer-1 findings as their
//! equivalents in the other formats, and `crossref`/`xdata` children are
//! judged with what they inherit. The files come from citation.js's test
//! suite and a DBLP export (see `fixtures/formats/PROVENANCE.md`).

use citegate_core::bibtex::{csl, format, inherit, parse, read_bibliography};
use std::path::Path;

const NOW: i32 = 2026;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Layer 1 over a file read through the shared reader, one line a finding:
/// `entry-position severity code field`, key and wording left out (a RIS
/// record without `ID` has no key of its own).
fn findings(name: &str) -> Vec<String> {
    let bib = read_bibliography(name, &read(name));
    let position = |key: &Option<String>| {
        bib.entries
            .iter()
            .position(|e| Some(&e.key) == key.as_ref())
            .map_or("-".to_string(), |i| i.to_string())
    };
    format::check_entries(&bib, NOW)
        .iter()
        .map(|f| {
            format!(
                "{} {:?} {:?} {}",
                position(&f.key),
                f.severity,
                f.code,
                f.field.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// Both files give the same findings, and those are `expected`.
fn check(a: &str, b: &str, expected: &[&str]) {
    let (fa, fb) = (findings(a), findings(b));
    assert_eq!(fa, fb, "{a} and {b} differ");
    assert_eq!(fa, expected, "{a}");
}

#[test]
fn csl_json_and_bibtex_from_citation_js() {
    // citation.js's BibTeX mapping test: the .bib and the CSL-JSON it maps to.
    // Every entry is complete; all share the title "Lorem Ipsum".
    let dup: Vec<String> = (1..=14)
        .map(|i| format!("{i} Warning DuplicateEntry title"))
        .collect();
    let dup: Vec<&str> = dup.iter().map(String::as_str).collect();
    check("citationjs-mapping.bib", "citationjs-mapping.json", &dup);
}

#[test]
fn ris_and_csl_json_from_citation_js() {
    // citation.js's RIS test inputs and the CSL-JSON its tests expect for them.
    check(
        "citationjs-ris-record.ris",
        "citationjs-ris-record.json",
        &[],
    );
    check(
        "citationjs-ris-file.ris",
        "citationjs-ris-file.json",
        &[
            "0 Error MissingField journal",
            "0 Error MissingField year",
            // TY EBOOK whose DA is the access date: no year.
            "1 Error MissingField author",
            "1 Error MissingField publisher",
            "1 Error MissingField year",
            "2 Error MissingField title",
            "2 Error MissingField journal",
            "2 Error MissingField year",
            "3 Error MissingField title",
            "3 Error MissingField journal",
            "3 Error MissingField year",
            "4 Error MissingField title",
            "5 Error MissingField title",
            "6 Error MissingField title",
            "6 Error MissingField journal",
            "6 Error MissingField year",
            "7 Error MissingField title",
            "7 Error MissingField journal",
            "7 Error MissingField year",
            "8 Error MissingField title",
            "8 Error MissingField journal",
            "8 Error MissingField year",
            // The two software records share their DOI.
            "13 Warning DuplicateEntry doi",
        ],
    );
}

#[test]
fn ris_and_bibtex_written_for_it() {
    // The BMC record of citation.js's RIS tests and the same record as .bib.
    check(
        "citationjs-ris-record.ris",
        "citationjs-ris-record.bib",
        &[],
    );
}

#[test]
fn crossref_children_inherit_as_citation_js_resolves_them() {
    // citation.js's crossref test: its expected CSL-JSON gives each child's
    // title, container title and authors after inheritance; ours match.
    let bib = inherit::resolve(&parse::parse(&read("citationjs-crossref.bib")));
    let ours: serde_json::Value = serde_json::from_str(&csl::write(&bib.entries)).unwrap();
    let theirs: serde_json::Value =
        serde_json::from_str(&read("citationjs-crossref.json")).unwrap();
    let pick = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let authors: Vec<String> = i["author"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|n| format!("{} {}", n["given"], n["family"]))
                            .collect()
                    })
                    .unwrap_or_default();
                format!(
                    "{} title={} container={} author={authors:?}",
                    i["id"], i["title"], i["container-title"]
                )
            })
            .collect()
    };
    assert_eq!(pick(&ours), pick(&theirs));
    assert_eq!(
        findings("citationjs-crossref.bib"),
        [
            "0 Error MissingField publisher",
            "1 Error MissingField publisher",
            "1 Error MissingField year",
            // @inbook c: author its own, booktitle from b's title.
            "2 Error MissingField chapter",
            "2 Error MissingField publisher",
            "2 Error MissingField year",
            // @article d: title and author from @book b (no map between those types).
            "3 Error MissingField journal",
            "3 Error MissingField year",
            // @article f: only journaltitle from @periodical e.
            "5 Error MissingField author",
            "5 Error MissingField title",
            "5 Error MissingField year",
            "4 Warning DuplicateEntry title",
        ]
    );
}

#[test]
fn dblp_child_with_crossref_passes_layer_1() {
    // DBLP's export of an ESA 2020 paper with its crossref'd proceedings.
    assert_eq!(findings("dblp-crossref.bib"), Vec::<String>::new());
    // The same child as JabRef and biblatex users write it, without the
    // booktitle and year it inherits: still no finding.
    assert_eq!(findings("dblp-crossref-bare.bib"), Vec::<String>::new());
    // Without inheritance the bare child would lack both (guards the resolution).
    let bib = parse::parse(&read("dblp-crossref-bare.bib"));
    let child = &bib.entries[0];
    assert!(!child.has("booktitle") && !child.has("year") && child.has("crossref"));
}

#[test]
fn ris_from_zoteros_tests_and_bibtex_of_zoteros_items() {
    // Zotero's RIS translator test inputs, and the same records as BibTeX
    // written from the items Zotero's tests expect for them.
    check(
        "zotero-ris.ris",
        "zotero-ris.bib",
        &[
            // "Deprecated tag test" and "Mixed author tags" have no journal;
            // the first has no author, the second no year.
            "4 Error MissingField author",
            "4 Error MissingField journal",
            "5 Error MissingField journal",
            "5 Error MissingField year",
            // A record with only a secondary title (T2) and PY 0000.
            "7 Error MissingField author",
            "7 Error MissingField title",
            "7 Error MissingField year",
        ],
    );
}
