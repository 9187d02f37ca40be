//! The cross-check's plan and decisions, driven with answers in the indices'
//! recorded shapes (`tests/fixtures/api/`, provenance in its `PROVENANCE.md`).

use super::*;
use crate::works::parse_response;
use serde_json::{json, Map, Value};

fn fixture(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/api")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn ep() -> Endpoints {
    Endpoints {
        openalex_base: "https://oa.test".into(),
        crossref_base: "https://cr.test".into(),
        ..Endpoints::default()
    }
}

fn paper(n: usize, doi: Option<&str>, title: &str, year: i32) -> PoolPaper {
    let mut ext = Map::new();
    if let Some(d) = doi {
        ext.insert("DOI".into(), json!(d));
    }
    PoolPaper {
        title: Some(title.into()),
        year: Some(year),
        external_ids: Some(ext),
        bibtex_key: Some(format!("p{n}")),
        ..PoolPaper::default()
    }
}

fn doi_of(n: usize) -> String {
    format!("10.5555/paper.{n}")
}

fn title_of(n: usize) -> String {
    format!("A study of graph number {n} and its neighbours")
}

/// `n` papers, every one with a DOI except those where `no_doi(n)`.
fn pool(n: usize, no_doi: impl Fn(usize) -> bool) -> Vec<PoolPaper> {
    (0..n)
        .map(|i| {
            let d = doi_of(i);
            paper(i, (!no_doi(i)).then_some(d.as_str()), &title_of(i), 2020)
        })
        .collect()
}

// ---- the plan ----------------------------------------------------------------

/// Chunk lengths of `papers` for `service`.
fn check_chunks(service: Service, papers: &[PoolPaper], lens: &[usize], without: usize) {
    let c = plan_chunks(papers, batch_size(service));
    assert_eq!(
        c.chunks.iter().map(Vec::len).collect::<Vec<_>>(),
        lens,
        "{service:?}"
    );
    assert_eq!(c.without.len(), without, "{service:?}");
}

#[test]
fn chunks_are_cut_over_the_whole_list_in_each_services_batch_size() {
    // 1203 papers, every hundredth without a DOI: 1190 DOIs.
    let papers = pool(1203, |i| i % 100 == 0);
    check_chunks(Service::SemanticScholar, &papers, &[500, 500, 190], 13);
    // 1190 = 23 × 50 + 40.
    let fifties: Vec<usize> = [50; 23].into_iter().chain([40]).collect();
    check_chunks(Service::OpenAlex, &papers, &fifties, 13);
    check_chunks(Service::Crossref, &papers, &fifties, 13);
    check_chunks(Service::DataCite, &papers, &fifties, 13);
    let c = plan_chunks(&papers, batch_size(Service::SemanticScholar));
    // Positions 1..=505 minus 100..=500 fill the first chunk: positions are list positions.
    assert_eq!(c.chunks[1][0].0, 506);
    assert_eq!(c.chunks[0][0].1, "10.5555/paper.1");
    assert_eq!(c.without[..3], [0, 100, 200]);
}

#[test]
fn batch_sizes_are_the_services_documented_limits() {
    for (service, size) in [
        (Service::SemanticScholar, 500),
        (Service::OpenAlex, 50),
        (Service::Crossref, 50),
        (Service::DataCite, 50),
        (Service::Dblp, 1),
    ] {
        assert_eq!(batch_size(service), size, "{service:?}");
    }
}

// ---- driving a run ---------------------------------------------------------

/// The value of query parameter `k` of `req`, decoded.
fn param(req: &Request, k: &str) -> String {
    req.url
        .split_once('?')
        .and_then(|(_, q)| {
            form_urlencoded::parse(q.as_bytes())
                .find(|(kk, _)| kk == k)
                .map(|(_, v)| v.into_owned())
        })
        .unwrap_or_default()
}

/// A world where both indices hold every paper's record (by DOI, and by
/// title for the ones without), in each service's list shape.
fn world(papers: &[PoolPaper]) -> impl Fn(&Request) -> Reply + '_ {
    move |req: &Request| {
        let param = |k: &str| param(req, k);
        let wanted: Vec<&PoolPaper> = if let Some(f) = param("filter").strip_prefix("doi:") {
            let dois: Vec<String> = f
                .split([',', '|'])
                .map(|d| d.trim_start_matches("doi:").to_lowercase())
                .collect();
            papers
                .iter()
                .filter(|p| pool_doi(p).is_some_and(|d| dois.contains(&d)))
                .collect()
        } else {
            let q = [param("query.bibliographic"), param("search")].concat();
            papers
                .iter()
                .filter(|p| p.title.as_deref() == Some(q.as_str()))
                .collect()
        };
        let body = match req.service {
            Service::Crossref => {
                let items: Vec<Value> = wanted
                    .iter()
                    .map(|p| json!({"DOI": pool_doi(p), "title": [p.title], "issued": {"date-parts": [[p.year]]}}))
                    .collect();
                json!({"status":"ok","message-type":"work-list","message":{"items":items,"total-results":items.len()}})
            }
            _ => {
                let results: Vec<Value> = wanted
                    .iter()
                    .map(|p| json!({"id":"https://openalex.org/W1","doi": pool_doi(p).map(|d| format!("https://doi.org/{d}")), "title": p.title, "publication_year": p.year}))
                    .collect();
                json!({"meta":{"count":results.len()},"results":results})
            }
        };
        match parse_response(req.service, 200, &body.to_string()) {
            Ok(page) => Reply::Page(page),
            Err(e) => Reply::Failed(e.to_string()),
        }
    }
}

/// Runs to the end, answering each request with `answer`; returns the
/// requests in the order they went out.
fn drive(run: &mut CrossRun, answer: impl Fn(&Request) -> Reply) -> Vec<Request> {
    let mut sent = Vec::new();
    for _ in 0..100_000 {
        match run.next() {
            Next::Send(ask) => {
                sent.push(ask.request.clone());
                let r = answer(&ask.request);
                run.answer(ask.id, r);
            }
            Next::AwaitReplies => panic!("a sequential drive has nothing in flight"),
            Next::Done => return sent,
        }
    }
    panic!("the run did not end");
}

fn both() -> Vec<Service> {
    vec![Service::Crossref, Service::OpenAlex]
}

fn kind(r: &Request) -> String {
    let form = if r.url.contains("filter=doi") {
        "batch"
    } else {
        "search"
    };
    format!("{}:{form}", r.service.name())
}

#[test]
fn doi_papers_go_in_batches_of_50_and_the_rest_get_one_search_per_index() {
    // 120 papers with a DOI and 2 without: 3 batches and 2 searches per index.
    let papers = pool(122, |i| i >= 120);
    let mut run = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    let sent = drive(&mut run, world(&papers));
    let kinds: Vec<String> = sent.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [
            "crossref:batch",
            "openalex:batch",
            "crossref:batch",
            "openalex:batch",
            "crossref:batch",
            "openalex:batch",
            "crossref:search",
            "openalex:search",
            "crossref:search",
            "openalex:search",
        ]
    );
    assert_eq!(run.requests_sent(), 10);
    assert!(run.finished());
    assert_eq!(run.progress(), (122, 122));
    let (report, verdicts) = run.report();
    assert_eq!(report.summary.high, 122, "{:?}", report.summary);
    assert!(report.flagged.is_empty());
    assert!(verdicts.iter().all(|v| v.indices_found.len() == 2));
}

#[test]
fn a_doi_an_index_does_not_hold_falls_back_to_a_title_search_there() {
    let papers = pool(3, |_| false);
    // Crossref's batch knows only paper 0; its title search finds paper 1.
    let crossref_batch = {
        let rec: Value =
            serde_json::from_str(&fixture("crossref/work_by_doi_plos_article.json")).expect("json");
        let mut item = rec["message"].clone();
        item["DOI"] = json!(doi_of(0));
        item["title"] = json!([title_of(0)]);
        // The recorded record's dates, set to the pool's year.
        for k in [
            "issued",
            "published",
            "published-print",
            "published-online",
            "created",
        ] {
            if item.get(k).is_some() {
                item[k] = json!({"date-parts": [[2020]]});
            }
        }
        json!({"status":"ok","message-type":"work-list","message":{"items":[item]}}).to_string()
    };
    let w = world(&papers);
    let answer = |req: &Request| {
        if req.service == Service::Crossref && req.url.contains("filter=doi") {
            Reply::Page(parse_response(Service::Crossref, 200, &crossref_batch).expect("page"))
        } else if req.service == Service::Crossref
            && param(req, "query.bibliographic") == title_of(2)
        {
            Reply::Page(
                parse_response(
                    Service::Crossref,
                    200,
                    &fixture("crossref/search_query_ecology_rows2.json"),
                )
                .expect("page"),
            )
        } else {
            w(req)
        }
    };
    let mut run = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    let sent = drive(&mut run, answer);
    let kinds: Vec<String> = sent.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [
            "crossref:batch",
            "openalex:batch",
            "crossref:search",
            "crossref:search"
        ]
    );
    let (report, verdicts) = run.report();
    let tiers: Vec<&str> = verdicts.iter().map(|v| v.confidence.name()).collect();
    // Paper 2: OpenAlex holds it by DOI, Crossref's search found other papers only.
    assert_eq!(tiers, ["high", "high", "high"]);
    assert_eq!(verdicts[2].indices_found, ["openalex"]);
    assert_eq!(verdicts[1].indices_found, ["crossref", "openalex"]);
    assert_eq!(report.summary.high, 3);
}

#[test]
fn an_unavailable_index_is_not_asked_again_and_its_silence_is_not_not_found() {
    let papers = pool(120, |i| i >= 110);
    let w = world(&papers);
    let answer = |req: &Request| {
        if req.service == Service::OpenAlex {
            Reply::Unavailable("openalex: daily budget spent (429)".into())
        } else {
            w(req)
        }
    };
    let mut run = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    let sent = drive(&mut run, answer);
    let openalex = sent
        .iter()
        .filter(|r| r.service == Service::OpenAlex)
        .count();
    assert_eq!(openalex, 1, "one refusal takes OpenAlex out");
    assert_eq!(run.progress(), (120, 120));
    assert!(!run.finished(), "a resume asks OpenAlex again");
    let (report, _) = run.report();
    assert_eq!(report.indices_unavailable, ["openalex"]);
    assert_eq!(report.summary.high, 120, "{:?}", report.summary);
    let stored = &run.answers()[&119][&Service::OpenAlex];
    assert_eq!(
        stored,
        &StoredAnswer::Unavailable {
            error: "openalex: daily budget spent (429)".into()
        }
    );
}

#[test]
fn a_resumed_run_sends_only_what_is_missing_and_rebuilds_the_same_requests() {
    let papers = pool(120, |i| i >= 118);
    let mut fresh = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    let all = drive(&mut fresh, world(&papers));
    // Stopped after the first three requests: keep what they answered.
    let mut first = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    let w = world(&papers);
    let mut early = Vec::new();
    for _ in 0..3 {
        let Next::Send(ask) = first.next() else {
            panic!("a request")
        };
        early.push(ask.request.clone());
        first.answer(ask.id, w(&ask.request));
    }
    // An "unavailable" stored by the earlier run is asked again.
    let mut stored = first.answers().clone();
    stored.entry(119).or_default().insert(
        Service::Crossref,
        StoredAnswer::Unavailable {
            error: "offline".into(),
        },
    );
    let json = serde_json::to_string(&stored).expect("checkpoint");
    let stored = serde_json::from_str(&json).expect("checkpoint back");
    let mut resumed = CrossRun::new(papers.clone(), both(), ep(), Config::default(), stored);
    let rest = drive(&mut resumed, world(&papers));
    let urls = |v: &[Request]| v.iter().map(|r| r.url.clone()).collect::<Vec<_>>();
    let mut together = urls(&early);
    together.extend(urls(&rest));
    assert_eq!(together, urls(&all), "the same requests, none twice");
    assert!(resumed.finished());
    assert_eq!(resumed.report().0.summary.high, 120);
}

#[test]
fn flagged_lists_every_paper_below_high() {
    // Paper 0 is found with a year three years off (medium); paper 1 is
    // nowhere (low); paper 2 matches (high).
    let mut papers = pool(3, |_| true);
    papers[0].year = Some(2017);
    papers[1].title = Some("A title no index holds".into());
    let found = pool(3, |_| true);
    let w = world(&found);
    let mut run = CrossRun::new(papers, both(), ep(), Config::default(), BTreeMap::new());
    drive(&mut run, |r| w(r));
    let (report, _) = run.report();
    let flagged: Vec<(Option<String>, Confidence)> = report
        .flagged
        .iter()
        .map(|f| (f.bibtex_key.clone(), f.confidence))
        .collect();
    assert_eq!(
        flagged,
        [
            (Some("p0".into()), Confidence::Medium),
            (Some("p1".into()), Confidence::Low)
        ]
    );
    assert_eq!(report.summary.medium, 1);
    assert_eq!(report.summary.low, 1);
}

#[test]
fn a_paper_without_a_title_or_doi_is_asked_nothing() {
    let mut papers = pool(1, |_| true);
    papers[0].title = None;
    let mut run = CrossRun::new(papers, both(), ep(), Config::default(), BTreeMap::new());
    let sent = drive(&mut run, |_| Reply::Failed("not asked".into()));
    assert!(sent.is_empty());
    assert_eq!(run.report().1[0].confidence, Confidence::Low);
}

// ---- reading a transport's final answer ------------------------------------

/// The kind of [`Reply::from_answer`]'s reading of `(status, body)` from `service`.
fn check_reply(service: Service, status: u16, body: &str, expected: &str) {
    let got = match Reply::from_answer(service, status, body) {
        Reply::Page(p) => format!("page:{}", p.works.len()),
        Reply::Unavailable(_) => "unavailable".into(),
        Reply::Failed(_) => "failed".into(),
    };
    assert_eq!(got, expected, "{service:?} {status} {body:.60}");
}

#[test]
fn a_final_answer_is_a_page_an_index_out_or_one_failed_request() {
    use Service::{Crossref, OpenAlex};
    let list = fixture("crossref/search_query_ecology_rows2.json");
    check_reply(Crossref, 200, &list, "page:2");
    check_reply(
        OpenAlex,
        200,
        &fixture("openalex/list_5_mixed_types.json"),
        "page:5",
    );
    check_reply(
        OpenAlex,
        200,
        r#"{"meta":{"count":0},"results":[]}"#,
        "page:0",
    );
    // Still failing after the caller's retries, or refused: out for the run.
    check_reply(Crossref, 0, "crossref: connection refused", "unavailable");
    check_reply(OpenAlex, 429, r#"{"error":"rate limit"}"#, "unavailable");
    check_reply(Crossref, 503, "Service Unavailable", "unavailable");
    check_reply(Crossref, 500, "<html>oops</html>", "unavailable");
    check_reply(OpenAlex, 403, r#"{"error":"bad key"}"#, "unavailable");
    check_reply(OpenAlex, 401, "", "unavailable");
    // This request only: a rejected query, a missing route, a broken body.
    check_reply(
        Crossref,
        400,
        &fixture("crossref/error_400_query_with_doi.json"),
        "failed",
    );
    check_reply(Crossref, 404, "Resource not found.", "failed");
    check_reply(
        Crossref,
        200,
        r#"{"message": {"items": [ {"DOI": "#,
        "failed",
    );
    check_reply(OpenAlex, 200, "[1, 2]", "failed");
}

#[test]
fn an_error_already_read_is_judged_by_its_kind_and_keeps_the_callers_words() {
    let check = |status: u16, expected: Reply| {
        let e = crate::works::ApiError::new(Service::Crossref, status, "x");
        assert_eq!(Reply::from_error(&e, "words".into()), expected, "{status}");
    };
    let out = || Reply::Unavailable("words".into());
    let failed = || Reply::Failed("words".into());
    for status in [0, 429, 500, 502, 503, 401, 403] {
        check(status, out());
    }
    for status in [400, 404, 410, 422, 418] {
        check(status, failed());
    }
}

#[test]
fn an_index_answering_server_errors_costs_one_request_not_one_per_paper() {
    // 120 DOI papers and 3 without: OpenAlex answers 503 (after the
    // transport's retries) to everything.
    let papers = pool(123, |i| i >= 120);
    let w = world(&papers);
    let answer = |req: &Request| {
        if req.service == Service::OpenAlex {
            Reply::from_answer(Service::OpenAlex, 503, "Service Unavailable")
        } else {
            w(req)
        }
    };
    let mut run = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    let sent = drive(&mut run, answer);
    let kinds: Vec<String> = sent.iter().map(kind).collect();
    let count = |k: &str| kinds.iter().filter(|x| *x == k).count();
    assert_eq!(count("openalex:batch") + count("openalex:search"), 1);
    assert_eq!(count("crossref:batch"), 3);
    assert_eq!(count("crossref:search"), 3);
    let (report, _) = run.report();
    assert_eq!(report.indices_unavailable, ["openalex"]);
}

#[test]
fn index_answers_give_verify_the_runs_answers() {
    // Paper 1 is nowhere, paper 0 a year off: the run's report flags both,
    // `verify` over `index_answers` only the low one (the reference report).
    let mut papers = pool(3, |_| true);
    papers[0].year = Some(2017);
    papers[1].title = Some("A title no index holds".into());
    let found = pool(3, |_| true);
    let w = world(&found);
    let mut run = CrossRun::new(
        papers.clone(),
        both(),
        ep(),
        Config::default(),
        BTreeMap::new(),
    );
    drive(&mut run, |r| w(r));
    let answers = run.index_answers();
    assert_eq!(answers.len(), 3);
    assert!(answers.iter().all(|row| row.len() == 2));
    let (reference, verdicts) = verify(&papers, run.services(), &answers, &Config::default());
    let (report, run_verdicts) = run.report();
    assert_eq!(verdicts, run_verdicts);
    assert_eq!(reference.summary, report.summary);
    let keys = |r: &Report| {
        r.flagged
            .iter()
            .map(|f| f.bibtex_key.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&reference), ["p1"]);
    assert_eq!(keys(&report), ["p0", "p1"]);
}

#[test]
fn tiers_are_described_in_words() {
    for t in Confidence::ALL {
        let d = t.describe();
        assert!(d.starts_with(&format!("{}: ", t.name())), "{d}");
        assert!(d.len() > 60, "{d}");
    }
}
