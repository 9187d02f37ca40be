use super::*;
use crate::works::{parse_error, PubDate};

fn work(source: Service, doi: &str) -> Work {
    let mut w = Work::empty(source);
    if doi.starts_with("10.") {
        w.doi = Some(doi.to_string());
    } else {
        w.title = doi.to_string();
    }
    w
}

fn list(source: Service, dois: &[&str]) -> Vec<Work> {
    dois.iter().map(|d| work(source, d)).collect()
}

/// `lists`: per backend, its ranked DOIs; `expected`: (doi key, rrf·(60+…) check via
/// rank list, sources) in output order.
fn check_fusion(lists: &[(Service, &[&str])], expected: &[(&str, &[usize], &[&str])]) {
    let owned: Vec<(Service, Vec<Work>)> = lists.iter().map(|(s, d)| (*s, list(*s, d))).collect();
    let refs: Vec<(Service, &[Work])> = owned.iter().map(|(s, w)| (*s, w.as_slice())).collect();
    let fused = fuse(&refs, &HashSet::new());
    let got: Vec<String> = fused
        .iter()
        .map(|f| {
            f.work
                .doi_key()
                .unwrap_or_else(|| title::normalize(&f.work.title))
        })
        .collect();
    let want: Vec<String> = expected.iter().map(|(k, _, _)| k.to_string()).collect();
    assert_eq!(got, want);
    for (f, (_, ranks, sources)) in fused.iter().zip(expected) {
        let rrf: f64 = ranks.iter().map(|r| 1.0 / (60.0 + *r as f64)).sum();
        assert!(
            (f.rrf - rrf).abs() < 1e-12,
            "{}: {} vs {rrf}",
            f.work.title,
            f.rrf
        );
        assert_eq!(f.rank, *ranks.iter().min().unwrap());
        let mean = ranks.iter().sum::<usize>() as f64 / ranks.len() as f64;
        assert!((f.mean_rank - mean).abs() < 1e-12);
        assert_eq!(f.sources, *sources);
        assert_eq!(f.found_by, sources.len());
    }
}

#[test]
fn fusion() {
    use Service::*;
    // Seed: a paper returned by two backends outranks one at the same position in only one.
    check_fusion(
        &[
            (SemanticScholar, &["10.1/a", "10.1/b"]),
            (OpenAlex, &["10.1/c", "10.1/b"]),
        ],
        &[
            ("10.1/b", &[2, 2], &["openalex", "s2"]),
            ("10.1/a", &[1], &["s2"]),
            ("10.1/c", &[1], &["openalex"]),
        ],
    );
    // DOI case is folded: S2 keeps deposited case, OpenAlex lowercases.
    check_fusion(
        &[
            (SemanticScholar, &["10.1038/S41587-X"]),
            (OpenAlex, &["10.1038/s41587-x"]),
        ],
        &[("10.1038/s41587-x", &[1, 1], &["openalex", "s2"])],
    );
    // Absence adds nothing (no fabricated worst rank): rank 1 in one beats rank 3 + rank 40.
    check_fusion(
        &[
            (SemanticScholar, &["10.1/a"]),
            (Crossref, &["10.1/x", "10.1/y", "10.1/a"]),
        ],
        &[
            ("10.1/a", &[1, 3], &["crossref", "s2"]),
            ("10.1/x", &[1], &["crossref"]),
            ("10.1/y", &[2], &["crossref"]),
        ],
    );
    // No DOI: normalized titles dedup.
    check_fusion(
        &[
            (SemanticScholar, &["Attention Is All You Need"]),
            (OpenAlex, &["attention is all you need!"]),
        ],
        &[("attention is all you need", &[1, 1], &["openalex", "s2"])],
    );
    // Ties in rrf: best rank first, then first seen.
    check_fusion(
        &[
            (SemanticScholar, &["10.1/a", "10.1/b"]),
            (OpenAlex, &["10.1/b", "10.1/a"]),
        ],
        &[
            ("10.1/a", &[1, 2], &["openalex", "s2"]),
            ("10.1/b", &[2, 1], &["openalex", "s2"]),
        ],
    );
    // A backend repeating a paper keeps its best rank only.
    check_fusion(
        &[(OpenAlex, &["10.1/a", "10.1/a"])],
        &[("10.1/a", &[1], &["openalex"])],
    );
    check_fusion(&[], &[]);
}

/// One record: (service, doi, arxiv id, title).
fn rec(source: Service, doi: &str, arxiv: &str, title: &str) -> Work {
    let mut w = Work::empty(source);
    w.doi = (!doi.is_empty()).then(|| doi.to_string());
    w.arxiv_id = (!arxiv.is_empty()).then(|| arxiv.to_string());
    w.title = title.to_string();
    w
}

fn check_merged(lists: &[(Service, Vec<Work>)], expected: &[&[&str]]) {
    let refs: Vec<(Service, &[Work])> = lists.iter().map(|(s, w)| (*s, w.as_slice())).collect();
    let got: Vec<Vec<String>> = fuse(&refs, &HashSet::new())
        .into_iter()
        .map(|f| f.sources)
        .collect();
    let want: Vec<Vec<String>> = expected
        .iter()
        .map(|s| s.iter().map(|x| x.to_string()).collect())
        .collect();
    assert_eq!(got, want);
}

#[test]
fn one_paper_from_several_services_is_one_result() {
    use Service::*;
    const T: &str = "Attention Is All You Need";
    // Crossref has the DOI, S2 only the arXiv id, OpenAlex both: one result.
    check_merged(
        &[
            (
                SemanticScholar,
                vec![rec(SemanticScholar, "", "1706.03762", T)],
            ),
            (OpenAlex, vec![rec(OpenAlex, "10.5555/x", "1706.03762", T)]),
            (Crossref, vec![rec(Crossref, "10.5555/X", "", "")]),
        ],
        &[&["crossref", "openalex", "s2"]],
    );
    // No shared id, the same title (case and punctuation aside): one result.
    check_merged(
        &[
            (SemanticScholar, vec![rec(SemanticScholar, "", "", T)]),
            (
                OpenAlex,
                vec![rec(OpenAlex, "10.5555/x", "", "attention is all you need.")],
            ),
        ],
        &[&["openalex", "s2"]],
    );
    // Two DOIs under one title are two papers (a tie in rank: listed in
    // the services' fixed order, whatever order the lists came in).
    check_merged(
        &[
            (Crossref, vec![rec(Crossref, "10.1/paper", "", T)]),
            (OpenAlex, vec![rec(OpenAlex, "10.1/erratum", "", T)]),
        ],
        &[&["openalex"], &["crossref"]],
    );
    // Which records merge does not depend on the order of the lists: S2's
    // record without a DOI joins the first record with its title in the
    // services' order (OpenAlex's), never Crossref's other DOI as well.
    for lists in [
        vec![
            (SemanticScholar, vec![rec(SemanticScholar, "", "", T)]),
            (OpenAlex, vec![rec(OpenAlex, "10.1/x", "", T)]),
            (Crossref, vec![rec(Crossref, "10.1/y", "", T)]),
        ],
        vec![
            (Crossref, vec![rec(Crossref, "10.1/y", "", T)]),
            (OpenAlex, vec![rec(OpenAlex, "10.1/x", "", T)]),
            (SemanticScholar, vec![rec(SemanticScholar, "", "", T)]),
        ],
    ] {
        check_merged(&lists, &[&["openalex", "s2"], &["crossref"]]);
    }
    // A short title names many papers: not merged on it.
    check_merged(
        &[
            (
                SemanticScholar,
                vec![rec(SemanticScholar, "", "", "Introduction")],
            ),
            (OpenAlex, vec![rec(OpenAlex, "10.1/b", "", "Introduction")]),
        ],
        &[&["s2"], &["openalex"]],
    );
}

#[test]
fn fusion_fills_gaps_and_marks_library() {
    let mut a = work(Service::SemanticScholar, "10.1/A");
    a.title = "T".into();
    let mut b = work(Service::OpenAlex, "10.1/a");
    b.published = Some(PubDate {
        year: 2020,
        month: None,
        day: None,
    });
    b.citation_count = Some(7);
    let lib: HashSet<String> = ["10.1/a".to_string()].into();
    let f = fuse(
        &[
            (Service::SemanticScholar, &[a][..]),
            (Service::OpenAlex, &[b][..]),
        ],
        &lib,
    );
    assert_eq!(f.len(), 1);
    assert_eq!(
        (f[0].work.year(), f[0].work.citation_count, f[0].in_library),
        (Some(2020), Some(7), true)
    );
}

fn run(s: Service, o: Outcome) -> BackendRun {
    BackendRun {
        backend: s,
        outcome: o,
    }
}

fn res(s: Service, dois: &[&str]) -> BackendRun {
    run(s, Outcome::Results(list(s, dois)))
}

fn failed(s: Service, status: u16) -> BackendRun {
    run(
        s,
        Outcome::Failed(parse_error(s, status, "{\"error\":\"x\"}")),
    )
}

fn skipped(s: Service) -> BackendRun {
    run(s, Outcome::Skipped("no key".into()))
}

const SHORT: &str = "graph neural networks";
const LONG: &str = "single-cell differential abundance testing neighbourhood graphs mouse atlas";

/// Builds the response with the probe driven by `probe_answer`, and checks
/// status, count, the two backend lists, error kind and probe state.
#[allow(clippy::too_many_arguments)]
fn check_status(
    query: &str,
    runs: Vec<BackendRun>,
    probe_answer: fn(&ProbeRequest) -> ProbeOutcome,
    status: Status,
    count: Option<usize>,
    failed_b: &[&str],
    skipped_b: &[&str],
    error: Option<ErrorKindName>,
    probe_state: ProbeState,
) {
    let m = ProbeMachine::new(
        query,
        total_hits(&runs),
        &answered(&runs),
        ProbeConfig::default(),
    );
    let (probe, _) = m.run(probe_answer);
    let r = respond(query, &runs, probe, &HashSet::new(), None);
    assert_eq!(r.status, status, "{}", r.summary);
    assert_eq!(r.count, count, "{}", r.summary);
    assert_eq!(r.failed_backends, failed_b);
    assert_eq!(r.skipped_backends, skipped_b);
    assert_eq!(r.error.as_ref().map(|e| e.kind), error);
    assert_eq!(r.probe.state, probe_state);
    assert_eq!(r.partial, r.status != Status::Ok);
    assert_eq!(r.results.is_none(), r.status == Status::Error);
    assert_eq!(r.complete, failed_b.is_empty() && skipped_b.is_empty());
}

#[test]
fn statuses() {
    use ErrorKindName::*;
    use ProbeState::*;
    use Service::*;
    use Status::*;
    let zero = |_: &ProbeRequest| ProbeOutcome::Hits(0);
    let hit = |_: &ProbeRequest| ProbeOutcome::Hits(9);
    let hit_on_drop =
        |r: &ProbeRequest| ProbeOutcome::Hits(if r.dropped_term.is_some() { 4 } else { 0 });
    let fail = |_: &ProbeRequest| ProbeOutcome::Failed;
    check_status(
        SHORT,
        vec![
            res(SemanticScholar, &["10.1/a"]),
            res(OpenAlex, &["10.1/b"]),
        ],
        zero,
        Ok,
        Some(2),
        &[],
        &[],
        None,
        NotRun,
    );
    check_status(
        SHORT,
        vec![res(SemanticScholar, &["10.1/a"]), failed(OpenAlex, 503)],
        zero,
        Partial,
        Some(1),
        &["openalex"],
        &[],
        None,
        NotRun,
    );
    check_status(
        SHORT,
        vec![skipped(Asta), res(OpenAlex, &["10.1/b"])],
        zero,
        Partial,
        Some(1),
        &[],
        &["asta"],
        None,
        NotRun,
    );
    check_status(
        SHORT,
        vec![failed(SemanticScholar, 429), skipped(Asta)],
        zero,
        Error,
        None,
        &["s2"],
        &["asta"],
        Some(NoBackendSearched),
        NotRun,
    );
    check_status(
        SHORT,
        vec![],
        zero,
        Error,
        None,
        &[],
        &[],
        Some(NoBackendSearched),
        NotRun,
    );
    check_status(
        SHORT,
        vec![failed(SemanticScholar, 400), res(OpenAlex, &["10.1/b"])],
        zero,
        Error,
        None,
        &["s2"],
        &[],
        Some(QueryRejected),
        NotRun,
    );
    // Zero with few terms: ok, count 0 (never called verified).
    check_status(
        SHORT,
        vec![res(OpenAlex, &[])],
        zero,
        Ok,
        Some(0),
        &[],
        &[],
        None,
        NotRun,
    );
    // Zero with 8 terms: probe empty → ok, count 0.
    check_status(
        LONG,
        vec![res(OpenAlex, &[]), res(SemanticScholar, &[])],
        zero,
        Ok,
        Some(0),
        &[],
        &[],
        None,
        Empty,
    );
    // A drop hits → query_over_constrained, no count.
    check_status(
        LONG,
        vec![res(OpenAlex, &[])],
        hit_on_drop,
        Error,
        None,
        &[],
        &[],
        Some(QueryOverConstrained),
        Hits,
    );
    // The reduction hits → also over-constrained, but no term is named.
    check_status(
        LONG,
        vec![res(OpenAlex, &[])],
        hit,
        Error,
        None,
        &[],
        &[],
        Some(QueryOverConstrained),
        Hits,
    );
    // Probe fails → partial with both backend lists empty.
    check_status(
        LONG,
        vec![res(OpenAlex, &[])],
        fail,
        Partial,
        Some(0),
        &[],
        &[],
        None,
        Inconclusive,
    );
    let quoted = format!("\"{LONG}\"");
    check_status(
        &quoted,
        vec![res(OpenAlex, &[])],
        hit,
        Partial,
        Some(0),
        &[],
        &[],
        None,
        Inconclusive,
    );
    let long = "x".repeat(1501);
    check_status(
        &long,
        vec![res(OpenAlex, &["10.1/a"])],
        zero,
        Error,
        None,
        &[],
        &[],
        Some(QueryTooLong),
        NotRun,
    );
}

#[test]
fn over_constrained_names_term_and_near_query() {
    let runs = vec![res(Service::OpenAlex, &[])];
    let m = ProbeMachine::new(LONG, 0, &answered(&runs), ProbeConfig::default());
    let (probe, _) = m.run(|r| ProbeOutcome::Hits(if r.query.contains("atlas") { 0 } else { 3 }));
    let r = respond(LONG, &runs, probe, &HashSet::new(), None);
    let e = r.error.unwrap();
    assert_eq!(e.dropped_term.as_deref(), Some("atlas"));
    assert_eq!(
        e.query.as_deref(),
        Some("abundance differential graphs mouse neighbourhood single-cell testing")
    );
}

#[test]
fn error_json_has_no_count_or_results_keys() {
    let runs = vec![failed(Service::OpenAlex, 500)];
    let probe = probe_without_requests(SHORT, &runs, ProbeConfig::default()).unwrap();
    let v = serde_json::to_value(respond(SHORT, &runs, probe, &HashSet::new(), None)).unwrap();
    let o = v.as_object().unwrap();
    assert!(!o.contains_key("count") && !o.contains_key("results"));
    assert_eq!(o.keys().next().map(String::as_str), Some("status"));
    assert_eq!(v["probe"]["state"], "not_run");
}

#[test]
fn preflight_counts_characters_not_bytes() {
    assert!(preflight(&"é".repeat(1500)).is_ok());
    assert_eq!(
        preflight(&"é".repeat(1501)).unwrap_err().kind,
        ErrorKindName::QueryTooLong
    );
    assert_eq!(
        preflight("  ").unwrap_err().kind,
        ErrorKindName::QueryRejected
    );
}

#[test]
fn plans() {
    let none = Credentials::default();
    let p = plan(Selection::All, &none);
    assert_eq!(
        p.run,
        vec![
            Service::SemanticScholar,
            Service::OpenAlex,
            Service::Crossref
        ]
    );
    assert_eq!(p.skipped.len(), 1);
    let both = Credentials {
        asta_key: true,
        asta_relay: true,
    };
    assert_eq!(
        plan(Selection::Both, &both).run,
        vec![Service::SemanticScholar, Service::Asta]
    );
    let key_only = Credentials {
        asta_key: true,
        asta_relay: false,
    };
    assert!(plan(Selection::One(Service::Asta), &key_only)
        .run
        .is_empty());
    assert_eq!(
        Selection::parse("OpenAlex"),
        Some(Selection::One(Service::OpenAlex))
    );
    assert_eq!(Selection::parse("bogus"), None);
}

#[test]
fn limit_truncates_after_fusion() {
    let runs = vec![res(Service::OpenAlex, &["10.1/a", "10.1/b", "10.1/c"])];
    let probe = probe_without_requests(SHORT, &runs, ProbeConfig::default()).unwrap();
    let r = respond(SHORT, &runs, probe, &HashSet::new(), Some(2));
    assert_eq!(r.count, Some(2));
}

fn check_unreachable(outcomes: Vec<Outcome>, expected: bool) {
    let runs: Vec<BackendRun> = outcomes
        .into_iter()
        .map(|outcome| BackendRun {
            backend: Service::SemanticScholar,
            outcome,
        })
        .collect();
    assert_eq!(unreachable(&runs), expected);
}

#[test]
fn unreachable_when_every_asked_backend_got_no_answer() {
    let net = || {
        Outcome::Failed(ApiError::new(
            Service::SemanticScholar,
            0,
            "failed to fetch",
        ))
    };
    let down = || Outcome::Failed(ApiError::new(Service::OpenAlex, 503, "unavailable"));
    let skipped = || Outcome::Skipped("no key".into());
    check_unreachable(vec![], false);
    check_unreachable(vec![skipped()], false);
    check_unreachable(vec![net()], true);
    check_unreachable(vec![net(), net(), skipped()], true);
    // A 503 is an answer: that service is reachable.
    check_unreachable(vec![net(), down()], false);
    check_unreachable(vec![net(), Outcome::Results(vec![])], false);
}

#[test]
fn per_backend_reads_what_a_user_typed() {
    for (typed, n) in [
        ("25", 25),
        (" 7 ", 7),
        ("", PER_BACKEND_DEFAULT),
        ("ten", PER_BACKEND_DEFAULT),
        ("0", 1),
        ("5000", PER_BACKEND_MAX),
    ] {
        assert_eq!(per_backend(typed), n, "{typed:?}");
    }
}

/// (per backend's DOIs, per-backend limit, the DOIs of the one list)
fn check_query_results(lists: &[(Service, &[&str])], limit: usize, expected: &[&str]) {
    let owned: Vec<(Service, Vec<Work>)> = lists.iter().map(|(s, d)| (*s, list(*s, d))).collect();
    let got: Vec<String> = query_results(&owned, limit)
        .iter()
        .filter_map(Work::doi_key)
        .collect();
    assert_eq!(got, expected, "{lists:?} limit {limit}");
}

#[test]
fn one_backend_is_cut_to_its_limit_and_several_are_fused_uncut() {
    check_query_results(
        &[(Service::SemanticScholar, &["10.1/a", "10.1/b", "10.1/c"])],
        2,
        &["10.1/a", "10.1/b"],
    );
    // Fused (ranked by RRF): the limit was per backend, so nothing any backend
    // returned is cut.
    check_query_results(
        &[
            (Service::SemanticScholar, &["10.1/a", "10.1/b"]),
            (Service::Crossref, &["10.1/c", "10.1/a"]),
        ],
        2,
        &["10.1/a", "10.1/c", "10.1/b"],
    );
    check_query_results(&[], 2, &[]);
}
