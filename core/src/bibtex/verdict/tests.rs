use super::*;
use crate::bibtex::parse::parse;
use crate::works::{Author, PubDate, Service};

const TITLE: &str = "Deep Residual Learning for Image Recognition";
const AUTHORS: &str = "Kaiming He and Xiangyu Zhang and Shaoqing Ren and Jian Sun";

/// A record as an index renders it: `Given Family` names, a venue, a year, a DOI.
fn rec(title: &str, authors: &str, year: i32, venue: &str, doi: &str) -> Work {
    let mut w = Work::empty(Service::SemanticScholar);
    w.title = title.into();
    w.authors = names::split(authors)
        .0
        .iter()
        .map(|p| Author {
            name: p.display(),
            given: None,
            family: None,
        })
        .collect();
    w.published = Some(PubDate {
        year,
        month: None,
        day: None,
    });
    w.venue = (!venue.is_empty()).then(|| venue.to_string());
    w.doi = (!doi.is_empty()).then(|| doi.to_string());
    w
}

fn resnet() -> Work {
    rec(
        TITLE,
        AUTHORS,
        2016,
        "Computer Vision and Pattern Recognition",
        "10.1109/CVPR.2016.90",
    )
}

fn today() -> Date {
    Date::new(2026, 12, 3).unwrap()
}

/// One case: the entry's fields (`title = {…}, …`), what its id resolved to,
/// the title-search hits, whether a service failed, then the expected
/// verdict and first reason kind (`None` for a valid entry).
fn check(
    fields: &str,
    by_id: IdAnswer,
    hits: Vec<Work>,
    failed: bool,
    verdict: Verdict,
    kind: Option<ReasonKind>,
) {
    let bib = parse(&format!("@inproceedings{{k, {fields}}}"));
    let entry = &bib.entries[0];
    let findings = Findings {
        by_id,
        hits,
        unanswered: if failed {
            vec!["semantic scholar answered 500".into()]
        } else {
            Vec::new()
        },
    };
    let v = judge_findings(entry, &findings, today());
    assert_eq!(v.verdict, verdict, "{fields}: {v:?}");
    assert_eq!(v.reasons.first().map(|r| r.kind), kind, "{fields}: {v:?}");
    for r in &v.reasons {
        assert!(!r.message.is_empty() && !r.message.ends_with('.'), "{r:?}");
    }
}

fn f(title: &str, author: &str, extra: &str) -> String {
    format!("title = {{{title}}}, author = {{{author}}}, {extra}")
}

use IdAnswer::{Found, NoId, NotFound};
use ReasonKind::*;
use Verdict::{Hallucinated, Uncertain, Valid};

#[test]
#[rustfmt::skip]
fn valid_entries() {
    // Exactly the record; venue by acronym, title in another case with a trailing period.
    check(&f(TITLE, AUTHORS, "booktitle = {CVPR}, year = 2016"), NoId, vec![resnet()], false, Valid, None);
    check(&f("Deep residual learning for image recognition.", AUTHORS, "booktitle = {Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition}, year = 2016"), NoId, vec![resnet()], false, Valid, None);
    // Names family-first, with LaTeX, and a faithful `and others`.
    check(&f(TITLE, "He, Kaiming and Zhang, X. and others", "year = 2016"), NoId, vec![resnet()], false, Valid, None);
    // The right DOI, in another case.
    check(&f(TITLE, AUTHORS, "doi = {10.1109/cvpr.2016.90}, year = 2016"), Found(Box::new(resnet())), vec![], false, Valid, None);
    // Cited as the arXiv preprint of a published paper.
    check(&f(TITLE, AUTHORS, "journal = {arXiv preprint arXiv:1512.03385}, year = 2015"), NoId, vec![resnet()], false, Valid, None);
    // A year off by one (preprint year) is tolerated.
    check(&f(TITLE, AUTHORS, "booktitle = {CVPR}, year = 2015"), NoId, vec![resnet()], false, Valid, None);
    // The same paper in two indexes with different venue names.
    check(&f(TITLE, AUTHORS, "booktitle = {NeurIPS}, year = 2016"), NoId, vec![ rec(TITLE, AUTHORS, 2016, "CoRR", ""), rec(TITLE, AUTHORS, 2016, "Advances in Neural Information Processing Systems 29", ""), ], false, Valid, None);
    // A long record cut short by the index: every record author cited first, in order.
    let ten = "A One and B Two and C Three and D Four and E Five and F Six and G Seven and H Eight and I Nine and J Ten";
    check(&f(TITLE, &format!("{ten} and K Eleven and L Twelve"), "year = 2016"), NoId, vec![rec(TITLE, ten, 2016, "CVPR", "")], false, Valid, None);
    // A known venue against a record venue the table does not know (a book series) proves nothing.
    check(&f(TITLE, AUTHORS, "booktitle = {ECCV}, year = 2016"), NoId, vec![rec(TITLE, AUTHORS, 2016, "Lecture Notes in Computer Science", "")], false, Valid, None);
    // A particle kept in the record's family name (Crossref's `family: "de Geus"`).
    let mut geus = rec(TITLE, "Daan de Geus and Gijs Dubbelman", 2016, "CVPR", "");
    geus.authors[0] = Author { name: "Daan de Geus".into(), given: Some("Daan".into()), family: Some("de Geus".into()) };
    check(&f(TITLE, "Daan de Geus and Gijs Dubbelman", "year = 2016"), NoId, vec![geus], false, Valid, None);
    // Issue 28: a JaLC DOI neither Crossref nor DataCite resolves, carried by the
    // record the title found, is the paper's own DOI, not a fabricated one.
    check(&f(TITLE, AUTHORS, "doi = {10.11178/jdsa.8.49}, booktitle = {CVPR}, year = 2016"), NotFound, vec![rec(TITLE, AUTHORS, 2016, "CVPR", "10.11178/JDSA.8.49")], false, Valid, None);
    // DBLP homonym numbers on the record.
    check(&f(TITLE, AUTHORS, "year = 2016"), NoId, vec![rec(TITLE, "Kaiming He 0001 and Xiangyu Zhang 0005 and Shaoqing Ren and Jian Sun 0001", 2016, "CVPR", "")], false, Valid, None);
}

#[test]
#[rustfmt::skip]
fn one_rule_each() {
    let y = "booktitle = {CVPR}, year = 2016";
    check(&f(TITLE, AUTHORS, "doi = {10.9999/fake.123}, booktitle = {CVPR}, year = 2016"), NotFound, vec![resnet()], false, Hallucinated, Some(FabricatedDoi));
    check(&f(TITLE, AUTHORS, "booktitle = {Symposium on Neural Scaling Laws}, year = 2016"), NoId, vec![resnet()], false, Hallucinated, Some(NonexistentVenue));
    check(&f(TITLE, "John Doe and Jane Doe", y), NoId, vec![resnet()], false, Hallucinated, Some(PlaceholderAuthors));
    check(&f(TITLE, AUTHORS, "booktitle = {CVPR}, year = 2031"), NoId, vec![resnet()], false, Hallucinated, Some(FutureDate));
    check(&f("Residual Attention for Image Recognition at Scale", AUTHORS, "doi = {10.1109/CVPR.2016.90}, year = 2016"), Found(Box::new(resnet())), vec![], false, Hallucinated, Some(ChimericTitle));
    check(&f(TITLE, AUTHORS, "booktitle = {ICML}, year = 2016"), NoId, vec![resnet()], false, Hallucinated, Some(WrongVenue));
    check(&f(TITLE, "Xiangyu Zhang and Kaiming He and Shaoqing Ren and Jian Sun", y), NoId, vec![resnet()], false, Hallucinated, Some(SwappedAuthors));
    check(&f(TITLE, "Ada Lovelace and Alan Turing", y), NoId, vec![resnet()], false, Hallucinated, Some(SwappedAuthors));
    check(&f(TITLE, "Kaiming He and Alan Turing and Shaoqing Ren and Jian Sun", y), NoId, vec![resnet()], false, Hallucinated, Some(SwappedAuthors));
    check(&f(TITLE, AUTHORS, y), NoId, vec![rec(TITLE, AUTHORS, 2016, "arXiv", "")], false, Hallucinated, Some(PreprintAsPublished));
    check(&f("Deep Residual Learning for Image Reconstruction", "Ada Lovelace and Alan Turing", y), NoId, vec![resnet()], false, Hallucinated, Some(HybridFabrication));
    check(&f("Quantum Graph Priors for Few-Shot Audio", "Ada Lovelace", "doi = {10.1109/CVPR.2016.90}, year = 2016"), Found(Box::new(resnet())), vec![], false, Hallucinated, Some(HybridFabrication));
    check(&f("Deep Residual Learning towards Image Recognition", AUTHORS, y), NoId, vec![resnet()], false, Hallucinated, Some(NearMissTitle));
    check(&f("Quantum Graph Priors for Few-Shot Audio", "Ada Lovelace", y), NoId, vec![resnet()], false, Hallucinated, Some(PlausibleFabrication));
    check(&f(TITLE, "Ada Lovelace and Alan Turing", "doi = {10.1/other}, year = 2016"), Found(Box::new(rec("Another Paper", "Ada Lovelace and Alan Turing", 2020, "", "10.1/other"))), vec![resnet()], false, Hallucinated, Some(MergedCitation));
    check(&f(TITLE, "Ada Lovelace and Alan Turing", "booktitle = {AAAI}, year = 2016"), NoId, vec![resnet()], false, Hallucinated, Some(MergedCitation));
    check(&f(TITLE, "Kaiming He and Xiangyu Zhang", y), NoId, vec![resnet()], false, Hallucinated, Some(PartialAuthorList));
    check(&f(TITLE, AUTHORS, "journal = {bioRxiv}, year = 2019"), NoId, vec![rec(TITLE, AUTHORS, 2016, "bioRxiv", "")], false, Hallucinated, Some(ArxivVersionMismatch));
    check(&f(TITLE, AUTHORS, "booktitle = {ICML}, year = 2019"), NoId, vec![resnet()], false, Hallucinated, Some(ArxivVersionMismatch));
}

#[test]
#[rustfmt::skip]
fn missing_evidence_is_uncertain() {
    // No record and a source failed: not a fake, just unchecked.
    check(&f("Quantum Graph Priors for Few-Shot Audio", "Ada Lovelace", "year = 2016"), NoId, vec![], true, Uncertain, Some(NotChecked));
    check(&f("Quantum Graph Priors", "Ada Lovelace", "doi = {10.1/x}"), IdAnswer::Failed("crossref timed out".into()), vec![], false, Uncertain, Some(NotChecked));
    check("year = 2016", NoId, vec![], false, Uncertain, Some(NotChecked));
    // A matched record still judges, even when another source failed.
    check(&f(TITLE, AUTHORS, "booktitle = {CVPR}, year = 2016"), NoId, vec![resnet()], true, Valid, None);
    // "Only a preprint" needs every source: with one down it is unchecked.
    check(&f(TITLE, AUTHORS, "booktitle = {CVPR}, year = 2016"), NoId, vec![rec(TITLE, AUTHORS, 2016, "arXiv", "")], true, Uncertain, Some(NotChecked));
    // A future year needs no lookup.
    check(&f("Anything", "Ada Lovelace", "year = 2040"), NoId, vec![], true, Hallucinated, Some(FutureDate));
}

#[test]
fn words_that_differ() {
    let (a, b) = title_diff(
        "Self-Consistency Improves Chain of Thought Inference",
        "Self-Consistency Improves Chain of Thought Reasoning",
    );
    assert_eq!(
        (a, b),
        (vec!["Inference".to_string()], vec!["Reasoning".to_string()])
    );
    assert!(same_title("{BERT}: Pre-training", "BERT: pre-training."));
    assert!(!same_title("", ""));
}

#[test]
fn corrected_entry_only_for_the_cited_work() {
    let bib = parse(&format!(
        "@inproceedings{{k, {}}}",
        f(TITLE, AUTHORS, "booktitle = {ICML}, year = 2016")
    ));
    let fnd = Findings {
        by_id: NoId,
        hits: vec![resnet()],
        unanswered: vec![],
    };
    let v = judge_findings(&bib.entries[0], &fnd, today());
    assert!(v
        .corrected
        .as_deref()
        .is_some_and(|c| c.contains("Computer Vision and Pattern Recognition")));
    let bib = parse(&format!(
        "@inproceedings{{k, {}}}",
        f("Quantum Graph Priors", "Ada Lovelace", "year = 2016")
    ));
    let v = judge_findings(&bib.entries[0], &fnd, today());
    assert_eq!(v.corrected, None);
}

/// The first reason's message for an entry judged against ResNet's record.
fn message(fields: &str, by_id: IdAnswer) -> String {
    let bib = parse(&format!("@inproceedings{{k, {fields}}}"));
    let fnd = Findings {
        by_id,
        hits: vec![resnet()],
        unanswered: vec![],
    };
    let v = judge_findings(&bib.entries[0], &fnd, today());
    v.reasons
        .first()
        .map(|r| r.message.clone())
        .unwrap_or_default()
}

#[test]
#[rustfmt::skip]
fn messages_say_what_differs() {
    let y = "booktitle = {CVPR}, year = 2016";
    let cases = [
        (f("Deep Residual Learning towards Image Recognition", AUTHORS, y), NoId, "“towards” where the paper has “for”"),
        (f(TITLE, "Kaiming He and Xiangyu Zhang", y), NoId, "the paper has 4 authors, the entry lists 2: missing Shaoqing Ren and Jian Sun"),
        (f(TITLE, AUTHORS, "booktitle = {ICML}, year = 2016"), NoId, "the paper appeared at CVPR, not ICML"),
        (f(TITLE, AUTHORS, "doi = {10.9999/fake.123}, year = 2016"), NotFound, "the DOI 10.9999/fake.123 resolves nowhere; the paper's DOI is 10.1109/CVPR.2016.90"),
        (f(TITLE, "Kaiming He and Alan Turing and Shaoqing Ren and Jian Sun", y), NoId, "Alan Turing is not among this paper's authors; missing Xiangyu Zhang"),
        (f(TITLE, "Xiangyu Zhang and Kaiming He and Shaoqing Ren and Jian Sun", y), NoId, "the authors are in another order: the paper lists Kaiming He, Xiangyu Zhang, Shaoqing Ren and Jian Sun"),
    ];
    for (fields, by_id, expected) in cases {
        let m = message(&fields, by_id);
        assert!(m.contains(expected), "{m}");
    }
}
