//! The browser services' request path in headless Chromium: throttle spacing
//! measured with `performance.now()`, the retry and unavailable paths, where
//! credentials go, and the batch request counts the issue sets.
#![cfg(target_arch = "wasm32")]

use citegate_core::candidates::Candidate;
use citegate_core::crossindex;
use citegate_core::cutoff::Date;
use citegate_core::fetch::{Limits, RetryPolicy};
use citegate_core::pool::PoolPaper;
use citegate_core::verify::VerifyOptions;
use citegate_core::works::request::{self, Endpoints, Method, Request};
use citegate_core::works::Service;
use citegate_web::api::{Client, ClientError, RawResponse, ScriptedTransport, TransportError};
use citegate_web::services::clock::perf_now;
use citegate_web::services::db::Db;
use citegate_web::services::run::{self, VerifyItem};
use citegate_web::services::store::Workspace;
use citegate_web::services::throttle::Throttle;
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn ep() -> Endpoints {
    Endpoints {
        s2_base: "http://127.0.0.1:9/s2".into(),
        openalex_base: "http://127.0.0.1:9/openalex".into(),
        crossref_base: "http://127.0.0.1:9/crossref".into(),
        s2_api_key: Some("S2-SECRET-KEY".into()),
        openalex_api_key: Some("OA-SECRET-KEY".into()),
        mailto: Some("lab@example.org".into()),
        ..Endpoints::public()
    }
}

fn fast() -> RetryPolicy {
    RetryPolicy {
        max_tries: 3,
        default_retry_after_ms: 40,
        backoff_ms: 10,
        max_wait_ms: 1000,
    }
}

/// A throttle with tiny intervals (tests of retries, not of spacing).
fn quick_throttle(prefix: &str) -> Rc<Throttle> {
    let t = Throttle::new(prefix);
    for s in [
        Service::SemanticScholar,
        Service::OpenAlex,
        Service::Crossref,
    ] {
        t.set_limits(
            s,
            Limits {
                min_interval_ms: 1,
                max_in_flight: 1,
            },
        );
    }
    Rc::new(t)
}

fn client(t: &Rc<ScriptedTransport>, prefix: &str) -> Client {
    Client::new(t.clone(), quick_throttle(prefix), None)
        .with_policy(fast())
        .with_s2_backoff_ms(10)
}

fn n_of(doi: &str) -> usize {
    doi.rsplit('/')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn title_of(n: usize) -> String {
    format!("A careful study of benchmark topic number {n}")
}

fn s2_record(n: usize) -> Value {
    json!({
        "paperId": format!("p{n}"), "title": title_of(n), "abstract": "An abstract.",
        "year": 2020, "publicationDate": "2020-05-01", "externalIds": {"DOI": format!("10.5555/{n}")}
    })
}

fn query_param(url: &str, key: &str) -> Option<String> {
    let q = url.split_once('?')?.1;
    q.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| {
            js_sys::decode_uri_component(&v.replace('+', " "))
                .map(String::from)
                .unwrap_or_default()
        })
    })
}

/// A mock of the three services' batch and search answers.
fn mock(req: &Request, _n: usize) -> Result<RawResponse, TransportError> {
    let url = &req.url;
    let body = match req.service {
        Service::SemanticScholar if url.contains("/paper/batch") => {
            let ids: Value = serde_json::from_str(req.body.as_deref().unwrap_or("{}")).unwrap();
            let recs: Vec<Value> = ids["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|id| s2_record(n_of(id.as_str().unwrap())))
                .collect();
            Value::Array(recs)
        }
        Service::SemanticScholar => {
            let q = query_param(url, "query").unwrap_or_default();
            let mut rec = s2_record(0);
            rec["title"] = json!(q);
            json!({"total": 1, "data": [rec]})
        }
        Service::OpenAlex => {
            let f = query_param(url, "filter").unwrap_or_default();
            let dois: Vec<&str> = f.trim_start_matches("doi:").split('|').collect();
            let results: Vec<Value> = dois
                .iter()
                .map(|d| json!({"id": format!("https://openalex.org/W{}", n_of(d)), "doi": format!("https://doi.org/{d}"), "title": title_of(n_of(d)), "publication_year": 2020}))
                .collect();
            json!({"meta": {"count": results.len()}, "results": results})
        }
        Service::Crossref => {
            let f = query_param(url, "filter").unwrap_or_default();
            let items: Vec<Value> = f
                .split(',')
                .map(|d| d.trim_start_matches("doi:"))
                .map(|d| json!({"DOI": d, "title": [title_of(n_of(d))], "issued": {"date-parts": [[2020]]}}))
                .collect();
            json!({"status": "ok", "message-type": "work-list", "message": {"total-results": items.len(), "items": items}})
        }
        _ => json!({}),
    };
    Ok(RawResponse::new(200, body.to_string()))
}

async fn send_all(clients: Vec<(Client, Vec<Request>)>) {
    let runs = clients.iter().map(|(c, reqs)| async move {
        for r in reqs {
            c.execute(r).await.unwrap();
        }
    });
    futures::future::join_all(runs).await;
}

#[wasm_bindgen_test]
async fn s2_sends_are_at_least_one_second_apart_over_five_requests() {
    let t = Rc::new(ScriptedTransport::new(mock));
    let throttle = Rc::new(Throttle::new("t-spacing"));
    throttle.configure(true, 1000);
    let c = Client::new(t.clone(), throttle, None);
    let reqs: Vec<Request> = (0..5)
        .map(|i| request::search(Service::SemanticScholar, &ep(), &title_of(i), 5, None).unwrap())
        .collect();
    send_all(vec![(c, reqs)]).await;
    let at: Vec<f64> = t.sent().iter().map(|s| s.at_ms).collect();
    assert_eq!(at.len(), 5);
    let gaps: Vec<f64> = at.windows(2).map(|w| w[1] - w[0]).collect();
    web_sys::console::log_1(&format!("s2 gaps (ms): {gaps:?}").into());
    assert!(gaps.iter().all(|g| *g >= 1000.0), "{gaps:?}");
    // Under 1.9 s: a throttle that waited twice (2 s) would fail; timer jitter on a loaded machine does not.
    assert!(gaps.iter().all(|g| *g < 1900.0), "too slow: {gaps:?}");
}

#[wasm_bindgen_test]
async fn two_tabs_share_one_s2_rate() {
    // Two throttles with the same name stand for two tabs: they share the
    // Web Lock and the localStorage timestamp, not any Rust state.
    let t = Rc::new(ScriptedTransport::new(mock));
    let mk = || {
        let th = Rc::new(Throttle::new("t-two-tabs"));
        th.configure(false, 1000);
        Client::new(t.clone(), th, None)
    };
    let req = |i| request::search(Service::SemanticScholar, &ep(), &title_of(i), 5, None).unwrap();
    send_all(vec![
        (mk(), vec![req(1), req(2)]),
        (mk(), vec![req(3), req(4)]),
    ])
    .await;
    let at: Vec<f64> = t.sent().iter().map(|s| s.at_ms).collect();
    assert_eq!(at.len(), 4);
    let gaps: Vec<f64> = at.windows(2).map(|w| w[1] - w[0]).collect();
    web_sys::console::log_1(&format!("two-tab s2 gaps (ms): {gaps:?}").into());
    assert!(gaps.iter().all(|g| *g >= 1000.0), "{gaps:?}");
    assert!(citegate_web::services::lock::web_locks_available());
}

#[wasm_bindgen_test]
async fn a_cache_hit_never_waits_for_the_throttle() {
    Db::delete("t-cache-hit").await.unwrap();
    let db = Rc::new(Db::open("t-cache-hit").await.unwrap());
    let cache = Rc::new(citegate_web::services::cache::ResponseCache::new(db));
    let t = Rc::new(ScriptedTransport::new(mock));
    let th = Rc::new(Throttle::new("t-cache-hit"));
    th.configure(false, 1000);
    let c = Client::new(t.clone(), th, Some(cache));
    let r = request::search(Service::SemanticScholar, &ep(), "cached title", 5, None).unwrap();
    assert!(!c.execute(&r).await.unwrap().from_cache);
    let start = perf_now();
    let again = c.execute(&r).await.unwrap();
    let took = perf_now() - start;
    assert!(again.from_cache);
    assert!(took < 300.0, "cache hit took {took} ms");
    assert_eq!(t.count(), 1);
}

fn scripted(replies: Vec<Result<RawResponse, TransportError>>) -> Rc<ScriptedTransport> {
    Rc::new(ScriptedTransport::new(move |_, n| {
        replies
            .get(n)
            .cloned()
            .unwrap_or_else(|| Ok(RawResponse::new(200, r#"{"total":0,"data":[]}"#)))
    }))
}

fn status(s: u16) -> Result<RawResponse, TransportError> {
    Ok(RawResponse::new(s, r#"{"message":"busy"}"#))
}

fn offline() -> Result<RawResponse, TransportError> {
    Err(TransportError::Network {
        message: "failed to fetch".into(),
    })
}

/// Runs one S2 search through a scripted sequence; returns (ok?, sends).
async fn check_retry(replies: Vec<Result<RawResponse, TransportError>>, ok: bool, sends: usize) {
    let t = scripted(replies.clone());
    let mut e = ep();
    e.s2_api_key = None;
    let c = client(&t, "t-retry");
    let r = request::search(Service::SemanticScholar, &e, "q", 5, None).unwrap();
    let got = c.execute(&r).await;
    assert_eq!(got.is_ok(), ok, "{replies:?} -> {got:?}");
    assert_eq!(t.count(), sends, "{replies:?}");
}

#[wasm_bindgen_test]
async fn retries_follow_the_table() {
    let mut ra = RawResponse::new(429, "{}");
    ra.retry_after = Some("0".into());
    check_retry(vec![Ok(ra.clone())], true, 2).await;
    check_retry(vec![status(429), status(429)], true, 3).await;
    check_retry(vec![status(429), status(429), status(429)], false, 3).await;
    check_retry(vec![status(503), status(500)], true, 3).await;
    check_retry(vec![status(503), status(503), status(503)], false, 3).await;
    check_retry(vec![status(404)], true, 1).await;
    check_retry(vec![offline()], true, 2).await;
}

#[wasm_bindgen_test]
async fn a_default_429_wait_is_taken_without_retry_after() {
    let t = scripted(vec![status(429)]);
    let c = client(&t, "t-429-wait");
    let mut e = ep();
    e.s2_api_key = None;
    let r = request::search(Service::SemanticScholar, &e, "q", 5, None).unwrap();
    c.execute(&r).await.unwrap();
    let s = t.sent();
    let gap = s[1].at_ms - s[0].at_ms;
    assert!(gap >= 40.0, "waited {gap} ms, policy says 40");
}

#[wasm_bindgen_test]
async fn an_unreachable_service_is_marked_unavailable_and_fails_fast() {
    let t = scripted(vec![offline(), offline(), offline()]);
    let c = client(&t, "t-unavail");
    let r = request::search(Service::OpenAlex, &ep(), "q", 5, None).unwrap();
    let e = c.execute(&r).await.unwrap_err();
    assert!(
        matches!(
            e,
            ClientError::Unavailable {
                service: Service::OpenAlex,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("openalex unavailable for this run"),
        "{e}"
    );
    assert_eq!(t.count(), 2, "one back-off, then unavailable");
    assert!(c.execute(&r).await.unwrap_err().is_unavailable());
    assert_eq!(t.count(), 2, "no further sends to an unavailable service");
    // Other services are unaffected.
    let cr = request::search(Service::Crossref, &ep(), "q", 5, None).unwrap();
    assert!(c.execute(&cr).await.is_ok());
}

#[wasm_bindgen_test]
async fn a_keyed_s2_preflight_failure_offers_to_continue_without_the_key() {
    let t = Rc::new(ScriptedTransport::new(|req, _| {
        if req.headers.iter().any(|(k, _)| k == "x-api-key") {
            offline()
        } else {
            Ok(RawResponse::new(200, r#"{"total":0,"data":[]}"#))
        }
    }));
    let c = client(&t, "t-preflight");
    let r = request::search(Service::SemanticScholar, &ep(), "q", 5, None).unwrap();
    let e = c.execute(&r).await.unwrap_err();
    assert!(matches!(e, ClientError::KeyPreflight { .. }), "{e:?}");
    assert!(e.to_string().contains("continue without the key"), "{e}");
    assert!(!e.to_string().contains("S2-SECRET-KEY"));
    c.continue_without_s2_key();
    assert!(c.execute(&r).await.is_ok());
    let last = t.sent().pop().unwrap().request;
    assert!(last.headers.iter().all(|(k, _)| k != "x-api-key"));
}

#[wasm_bindgen_test]
async fn malformed_bodies_name_the_service_and_the_request() {
    let t = scripted(vec![Ok(RawResponse::new(200, "<html>oops</html>"))]);
    let c = client(&t, "t-malformed");
    let r = request::search(Service::OpenAlex, &ep(), "graph", 5, None).unwrap();
    let e = c.page(&r).await.unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(
            e,
            ClientError::Malformed {
                service: Service::OpenAlex,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        text.contains("openalex") && text.contains("/openalex/works?search=graph"),
        "{text}"
    );
    assert!(!text.contains("OA-SECRET-KEY"), "{text}");
}

#[wasm_bindgen_test]
async fn credentials_go_only_where_each_service_reads_them() {
    let t = Rc::new(ScriptedTransport::new(mock));
    let c = client(&t, "t-creds");
    for s in [
        Service::SemanticScholar,
        Service::OpenAlex,
        Service::Crossref,
    ] {
        c.execute(&request::search(s, &ep(), "q", 5, None).unwrap())
            .await
            .unwrap();
    }
    let sent = t.sent();
    let has_header = |r: &Request| {
        r.headers
            .iter()
            .any(|(k, v)| k == "x-api-key" && v == "S2-SECRET-KEY")
    };
    let s2 = &sent[0].request;
    assert!(has_header(s2) && !s2.url.contains("SECRET") && !s2.url.contains("mailto"));
    let oa = &sent[1].request;
    assert!(
        !has_header(oa)
            && oa.url.contains("api_key=OA-SECRET-KEY")
            && oa.url.contains("mailto=lab%40example.org")
    );
    let cr = &sent[2].request;
    assert!(
        !has_header(cr)
            && !cr.url.contains("api_key")
            && cr.url.contains("mailto=lab%40example.org")
    );
}

fn doi_candidate(n: usize) -> Candidate {
    let mut c = Candidate::titled(title_of(n));
    c.extra.insert("doi".into(), json!(format!("10.5555/{n}")));
    c
}

async fn workspace(name: &str) -> Workspace {
    Db::delete(name).await.unwrap();
    Workspace::new(Rc::new(Db::open(name).await.unwrap()))
}

#[wasm_bindgen_test]
async fn verifying_100_doi_candidates_takes_at_most_2_s2_requests() {
    let t = Rc::new(ScriptedTransport::new(mock));
    let c = client(&t, "t-batch-verify");
    let ws = workspace("t-batch-verify").await;
    let mut cands: Vec<Candidate> = (0..100).map(doi_candidate).collect();
    // Two without ids fall back to one title search each.
    cands.push(Candidate::titled("An unindexed title about graphs"));
    cands.push(Candidate::titled("Another unindexed title about trees"));
    let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
    let state = run::verify_run(&c, &ws, &ep(), "v", &cands, &opts, |_, _| {}, || false)
        .await
        .unwrap();
    let sent = t.sent();
    let batch: Vec<_> = sent
        .iter()
        .filter(|s| s.request.method == Method::Post)
        .collect();
    assert!(
        batch.len() <= 2 && !batch.is_empty(),
        "{} batch requests",
        batch.len()
    );
    assert_eq!(
        sent.len() - batch.len(),
        2,
        "one title search per id-less item"
    );
    assert!(state.finished);
    let accepted = state
        .items
        .values()
        .filter(|i| matches!(i, VerifyItem::Accepted { .. }))
        .count();
    assert_eq!(accepted, 102);
}

#[wasm_bindgen_test]
async fn cross_checking_100_doi_papers_stays_within_the_request_budget() {
    let t = Rc::new(ScriptedTransport::new(mock));
    let c = client(&t, "t-batch-cross");
    let ws = workspace("t-batch-cross").await;
    let papers: Vec<PoolPaper> = (0..100)
        .map(|n| serde_json::from_value(s2_record(n)).unwrap())
        .collect();
    let (state, report) = run::cross_check_run(
        &c,
        &ws,
        &ep(),
        "x",
        &papers,
        &[Service::Crossref, Service::OpenAlex],
        &crossindex::Config::default(),
    )
    .await
    .unwrap();
    let count = |s: Service| t.sent().iter().filter(|x| x.request.service == s).count();
    assert!(
        count(Service::OpenAlex) <= 3,
        "openalex {}",
        count(Service::OpenAlex)
    );
    assert!(
        count(Service::Crossref) <= 10,
        "crossref {}",
        count(Service::Crossref)
    );
    assert!(state.finished);
    assert_eq!(report.summary.high, 100, "{:?}", report.summary);
}

#[wasm_bindgen_test]
async fn crossref_failing_after_its_retries_is_out_of_the_cross_check_after_one_request() {
    // Crossref answers 503 to everything: its first batch is tried three
    // times, then the core reads the index as out (as the CLI does), so no
    // paper is searched there one by one.
    let t = Rc::new(ScriptedTransport::new(|req: &Request, n: usize| {
        if req.service == Service::Crossref {
            Ok(RawResponse::new(503, "Service Unavailable"))
        } else {
            mock(req, n)
        }
    }));
    let c = client(&t, "t-cross-down");
    let ws = workspace("t-cross-down").await;
    let papers: Vec<PoolPaper> = (0..60)
        .map(|n| serde_json::from_value(s2_record(n)).unwrap())
        .collect();
    let (state, report) = run::cross_check_run(
        &c,
        &ws,
        &ep(),
        "x",
        &papers,
        &[Service::Crossref, Service::OpenAlex],
        &crossindex::Config::default(),
    )
    .await
    .unwrap();
    let count = |s: Service| t.sent().iter().filter(|x| x.request.service == s).count();
    assert_eq!(count(Service::Crossref), 3, "one batch, three tries");
    assert_eq!(report.indices_unavailable, ["crossref"]);
    assert!(!state.finished, "a resume asks Crossref again");
    assert_eq!(report.summary.high, 60, "{:?}", report.summary);
}

#[wasm_bindgen_test]
async fn the_page_drives_the_core_run_sending_only_what_it_plans() {
    use citegate_core::ids::Doi;
    use citegate_core::resolve::{Options, Outcome, Reference, Run, Surface};
    use citegate_web::services::resolve::drive;
    // Crossref's recorded record of the DOI, as a list answer for its
    // `filter=doi:` batch; Semantic Scholar's batch does not know it.
    let record: Value = serde_json::from_str(include_str!(
        "../../core/tests/fixtures/api/crossref/work_by_doi_plos_article.json"
    ))
    .unwrap();
    let list = json!({"status": "ok", "message-type": "work-list",
        "message": {"total-results": 1, "items": [record["message"].clone()]}});
    let t = Rc::new(ScriptedTransport::new(move |req, _| {
        Ok(match req.service {
            Service::SemanticScholar if req.body.is_some() => RawResponse::new(200, "[null]"),
            Service::Crossref => RawResponse::new(200, list.to_string()),
            _ => RawResponse::new(404, r#"{"error":"not found"}"#),
        })
    }));
    let mut e = ep();
    e.s2_api_key = None;
    let c = Client::new(t.clone(), quick_throttle("t-drive"), None);
    let reference = Reference {
        key: "plos".into(),
        title: Some("Methylphenidate Exposure Induces Dopamine Neuron Loss".into()),
        doi: Doi::parse("10.1371/journal.pone.0033693"),
        ..Reference::default()
    };
    let mut opts = Options::new(e, Surface::Browser);
    opts.s2_backoff_ms = 10;
    let mut run = Run::new(vec![reference], opts);
    let mut seen = Vec::new();
    let report = drive(&c, &mut run, || false, |r: &Run| seen.push(r.progress())).await;
    assert!(
        matches!(report.resolutions[0].outcome, Outcome::Found { .. }),
        "{report:?}"
    );
    assert_eq!(seen.last(), Some(&(1, 1)));
    // Every request that went out is one the run counted.
    assert_eq!(t.count() as u64, report.requests);
}
