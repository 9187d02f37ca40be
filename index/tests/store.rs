//! The index built from the sample dumps (tests/fixtures, see PROVENANCE.md):
//! lookups, dates, resuming after a stop, rerunning a finished build.

use citegate_index::gen::Generator;
use citegate_index::store::ErrorKind;
use citegate_index::{Index, Source};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn built() -> (tempfile::TempDir, Index) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut ix = Index::create(dir.path()).expect("create");
    let none = &mut |_| {};
    ix.add(Source::Dblp, &fixture("dblp-sample.xml"), None, none)
        .expect("dblp");
    ix.add(Source::Arxiv, &fixture("arxiv-snapshot.jsonl"), None, none)
        .expect("arxiv");
    ix.add(
        Source::OpenAlex,
        &fixture("openalex/part_000.gz"),
        None,
        none,
    )
    .expect("openalex");
    ix.add(
        Source::Crossref,
        &fixture("crossref-0.json.gz"),
        Some("2026-04-30"),
        none,
    )
    .expect("crossref");
    drop(ix);
    let ix = Index::open(dir.path()).expect("open");
    (dir, ix)
}

/// (source, key) of each hit.
fn keys(hits: Vec<citegate_index::Hit>) -> Vec<(String, String)> {
    hits.into_iter()
        .map(|h| (h.source.name().to_string(), h.work.key))
        .collect()
}

#[test]
fn ids_are_found_in_every_form_the_core_reads() {
    let (_d, ix) = built();
    let check = |got: Vec<citegate_index::Hit>, want: &[(&str, &str)]| {
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(keys(got), want);
    };
    check(
        ix.by_doi("https://doi.org/10.1145/1666420.1666444")
            .unwrap(),
        &[("dblp", "journals/cacm/Gentry10")],
    );
    check(
        ix.by_doi("10.1109/sfcs.1982.45").unwrap(),
        &[("dblp", "conf/focs/Yao82a")],
    );
    check(
        ix.by_doi("doi:10.1038/SREP16696").unwrap(),
        &[("crossref", "10.1038/srep16696")],
    );
    check(
        ix.by_doi("10.48550/arXiv.1201.0490").unwrap(),
        &[("openalex", "W2101234009")],
    );
    check(
        ix.by_doi("10.1023/A:1026654312961").unwrap(),
        &[("arxiv", "hep-th/9711200")],
    );
    check(ix.by_doi("not a doi").unwrap(), &[]);
    check(
        ix.by_arxiv("arXiv:1706.03762v5").unwrap(),
        &[
            ("dblp", "journals/corr/VaswaniSPUJGKP17"),
            ("arxiv", "1706.03762"),
        ],
    );
    check(
        ix.by_arxiv("https://arxiv.org/abs/1201.0490").unwrap(),
        &[("openalex", "W2101234009")],
    );
    check(
        ix.by_dblp_key("conf/focs/Yao82a").unwrap(),
        &[("dblp", "conf/focs/Yao82a")],
    );
    check(ix.by_dblp_key("homepages/g/OdedGoldreich").unwrap(), &[]);
}

#[test]
fn titles_are_found_through_the_cores_normalization_and_ranked_by_its_ratio() {
    let (_d, ix) = built();
    let best = |q: &str| {
        let hits = ix.search_title(q).expect("search");
        hits.first()
            .map(|h| (h.work.key.clone(), h.ratio.round() as i64))
    };
    // Markup, entities and LaTeX on either side meet in the normalized form.
    assert_eq!(
        best(r#"Schr{\"o}dinger bridges for \emph{k}-means in H2"#),
        Some(("phd/de/Muller2020".into(), 100))
    );
    assert_eq!(
        best("Computing Arbitrary Functions of Encrypted Data"),
        Some(("journals/cacm/Gentry10".into(), 100))
    );
    // A misspelt word: no record holds every word, the ratio still finds it.
    let (key, ratio) = best("Computing arbitrary functons of encrypted data").expect("a candidate");
    assert_eq!(key, "journals/cacm/Gentry10");
    assert!((90..100).contains(&ratio), "{ratio}");
    assert_eq!(best("!!!"), None);
    let attention = ix
        .search_title("attention is all you need")
        .expect("search");
    let mut sources: Vec<_> = attention
        .iter()
        .filter(|h| h.ratio == 100.0)
        .map(|h| h.source.name())
        .collect();
    sources.sort();
    assert_eq!(sources, vec!["arxiv", "dblp"]);
}

#[test]
fn records_are_read_whole_and_each_dump_knows_its_date() {
    let (_d, ix) = built();
    let hit = ix
        .by_dblp_key("journals/corr/VaswaniSPUJGKP17")
        .unwrap()
        .remove(0);
    assert_eq!(hit.work.authors.len(), 8);
    assert_eq!(hit.work.year, Some(2017));
    assert_eq!(hit.work.venue.as_deref(), Some("CoRR"));
    let adam = ix.by_arxiv("1412.6980").unwrap().remove(0);
    assert_eq!(adam.work.authors, vec!["Diederik P. Kingma", "Jimmy Ba"]);
    assert_eq!(adam.work.year, Some(2014));
    let dumps = ix.dumps().unwrap();
    let of = |s: &str| dumps.iter().find(|d| d.source == s).expect(s).clone();
    // The newest record's date, unless one was given.
    assert_eq!(
        (of("dblp").date.as_deref(), of("dblp").date_from.as_str()),
        (Some("2024-11-30"), "records")
    );
    assert_eq!(of("arxiv").date.as_deref(), Some("2023-08-03"));
    assert_eq!(of("openalex").date.as_deref(), Some("2024-07-24"));
    assert_eq!(
        (
            of("crossref").date.as_deref(),
            of("crossref").date_from.as_str()
        ),
        (Some("2026-04-30"), "given")
    );
    // Home pages are read but not kept; the damaged arXiv line is skipped.
    assert_eq!((of("dblp").records_read, of("dblp").works), (5, 4));
    assert_eq!((of("arxiv").records_read, of("arxiv").works), (4, 3));
    assert!(dumps.iter().all(|d| d.finished));
}

fn generated(dir: &Path, name: &str, records: u64) -> PathBuf {
    let path = dir.join(name);
    let mut out = Vec::new();
    Generator::new(11)
        .write_file(records, &mut out)
        .expect("generate");
    std::fs::write(&path, out).expect("write");
    path
}

fn all_keys(ix: &Index, dir: &Path) -> usize {
    let _ = dir;
    ix.dumps().unwrap().iter().map(|d| d.works as usize).sum()
}

#[test]
fn a_build_stopped_by_a_cut_file_resumes_where_it_stopped_and_ends_as_a_whole_build() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = generated(tmp.path(), "dblp.xml", 2_000);
    let bytes = std::fs::read(&whole).unwrap();
    // A download cut mid-record: the build reads what it can, commits, fails.
    let at = bytes.len() * 3 / 5;
    std::fs::write(&whole, &bytes[..at]).unwrap();
    let dir = tmp.path().join("ix");
    let mut ix = Index::create(&dir).unwrap();
    let failed = ix.add(Source::Dblp, &whole, None, &mut |_| {}).unwrap_err();
    assert_eq!(failed.kind, ErrorKind::Format);
    assert!(
        failed.at.as_deref().is_some_and(|a| a.starts_with("byte ")),
        "{failed}"
    );
    let first = ix.dumps().unwrap().remove(0);
    assert!(
        !first.finished && first.records_read > 1000 && first.records_read < 2000,
        "{first:?}"
    );
    // The whole file again: the rerun skips what was committed.
    std::fs::write(&whole, &bytes).unwrap();
    let again = ix.add(Source::Dblp, &whole, None, &mut |_| {}).unwrap();
    assert_eq!(again.resumed_from, first.records_read);
    assert_eq!(again.read, 2_000 - first.records_read);
    // A third run has nothing to do.
    assert!(
        ix.add(Source::Dblp, &whole, None, &mut |_| {})
            .unwrap()
            .already_done
    );
    // The same as a build in one go.
    let one = tmp.path().join("one");
    let mut ix1 = Index::create(&one).unwrap();
    ix1.add(Source::Dblp, &whole, None, &mut |_| {}).unwrap();
    let (a, b) = (
        ix.dumps().unwrap().remove(0),
        ix1.dumps().unwrap().remove(0),
    );
    assert_eq!(
        (a.records_read, a.works, a.date, a.finished),
        (b.records_read, b.works, b.date, b.finished)
    );
    assert_eq!(all_keys(&ix, &dir), all_keys(&ix1, &one));
    drop((ix, ix1));
    let (ix, ix1) = (Index::open(&dir).unwrap(), Index::open(&one).unwrap());
    for q in [
        "learning networks neural",
        "graph data model efficient",
        "robust",
    ] {
        assert_eq!(
            keys(ix.search_title(q).unwrap()),
            keys(ix1.search_title(q).unwrap()),
            "{q}"
        );
    }
}

#[test]
fn opening_a_directory_without_an_index_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let e = Index::open(tmp.path()).err().expect("error");
    assert_eq!(e.kind, ErrorKind::Missing);
}
