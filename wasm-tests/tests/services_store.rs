//! IndexedDB in headless Chromium: workspace and cache round trips, a run
//! that resumes after a simulated reload without losing a verified paper or
//! repeating a request, `s2_cache.json` import/export, and no secret in any
//! exported JSON.
#![cfg(target_arch = "wasm32")]

use citegate_core::candidates::Candidate;
use citegate_core::cutoff::Date;
use citegate_core::fetch::{Limits, RetryPolicy};
use citegate_core::verify::VerifyOptions;
use citegate_core::works::request::{self, Endpoints, Request};
use citegate_core::works::Service;
use citegate_web::api::{Client, RawResponse, ScriptedTransport, TransportError};
use citegate_web::services::cache::ResponseCache;
use citegate_web::services::clock::sleep_ms;
use citegate_web::services::db::Db;
use citegate_web::services::run::{self, VerifyItem};
use citegate_web::services::settings::{Secrets, Settings};
use citegate_web::services::store::{keys, Workspace};
use citegate_web::services::throttle::Throttle;
use citegate_web::services::Services;
use leptos::prelude::Set;
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn fresh(name: &str) -> Rc<Db> {
    Db::delete(name).await.unwrap();
    Rc::new(Db::open(name).await.unwrap())
}

#[wasm_bindgen_test]
async fn workspace_documents_survive_closing_and_reopening() {
    let db = fresh("t-ws-roundtrip").await;
    let ws = Workspace::new(db.clone());
    let pool = json!({"papers": [{"paperId": "p1", "title": "Ünïcode title"}]});
    ws.put(keys::POOL, &pool).await.unwrap();
    ws.put(keys::SETTINGS, &Settings::with_base("http://127.0.0.1:1"))
        .await
        .unwrap();
    db.close();
    let ws = Workspace::new(Rc::new(Db::open("t-ws-roundtrip").await.unwrap()));
    assert_eq!(ws.get::<Value>(keys::POOL).await.unwrap(), Some(pool));
    let s: Settings = ws.get(keys::SETTINGS).await.unwrap().unwrap();
    assert_eq!(s.s2_base, "http://127.0.0.1:1/s2");
    assert_eq!(ws.get::<Value>(keys::LIBRARY).await.unwrap(), None);
    ws.remove(keys::POOL).await.unwrap();
    assert_eq!(ws.get::<Value>(keys::POOL).await.unwrap(), None);
}

fn req(title: &str) -> Request {
    request::search(
        Service::SemanticScholar,
        &Endpoints::public(),
        title,
        5,
        None,
    )
    .unwrap()
}

#[wasm_bindgen_test]
async fn the_cache_counts_hits_and_misses_and_clears() {
    let cache = ResponseCache::new(fresh("t-cache-counts").await);
    assert!(cache.get(&req("Attention Is All You Need")).await.is_none());
    cache
        .put(
            &req("Attention Is All You Need"),
            200,
            r#"{"total":0,"data":[]}"#,
        )
        .await
        .unwrap();
    cache.put(&req("rate limited"), 429, "{}").await.unwrap();
    cache.put(&req("server down"), 503, "{}").await.unwrap();
    // Same normalized title: a hit.
    let hit = cache.get(&req("attention is all you need!")).await.unwrap();
    assert_eq!(hit.status, 200);
    assert!(hit.fetched_at > 0.0);
    assert!(
        cache.get(&req("rate limited")).await.is_none(),
        "a 429 is never cached"
    );
    let st = cache.stats().await;
    assert_eq!((st.hits, st.misses, st.entries), (1, 2, 1));
    cache.clear().await.unwrap();
    assert_eq!(cache.stats().await.entries, 0);
}

#[wasm_bindgen_test]
async fn cache_export_uses_the_s2_cache_layout_and_imports_back() {
    let cache = ResponseCache::new(fresh("t-cache-export").await);
    let mut ep = Endpoints::public();
    ep.openalex_api_key = Some("OA-SECRET-KEY".into());
    ep.s2_api_key = Some("S2-SECRET-KEY".into());
    let s2 = request::search(Service::SemanticScholar, &ep, "BERT: Pre-training", 5, None).unwrap();
    let oa = request::search(Service::OpenAlex, &ep, "graphs", 5, None).unwrap();
    cache
        .put(&s2, 200, r#"{"total":1,"data":[{"paperId":"x"}]}"#)
        .await
        .unwrap();
    cache.put(&oa, 200, r#"{"results":[]}"#).await.unwrap();
    let text = cache.export_json().await.unwrap();
    assert!(!text.contains("SECRET"), "{text}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        doc["s2_cache"]["bertpretraining"]["data"][0]["paperId"],
        "x"
    );
    assert_eq!(doc["entries"].as_object().unwrap().len(), 1);
    // Into an empty cache: both parts come back.
    let other = ResponseCache::new(fresh("t-cache-import").await);
    assert_eq!(other.import_json(&text).await.unwrap(), 2);
    assert!(other.get(&s2).await.is_some() && other.get(&oa).await.is_some());
    // A bare s2_cache.json from the reference scripts.
    let bare =
        r#"{"attentionisallyouneed": {"paperId": "204e3073870fae3d05bcbc2f6a8e263d9b72e776"}}"#;
    assert_eq!(other.import_json(bare).await.unwrap(), 1);
    assert!(other.get(&req("Attention is all you need")).await.is_some());
    assert!(other.import_json("[1, 2]").await.is_err());
}

#[wasm_bindgen_test]
async fn secrets_stay_out_of_the_workspace_and_its_export() {
    let name = "t-secrets";
    Db::delete(name).await.unwrap();
    let t = Rc::new(ScriptedTransport::new(|_, _| {
        Ok(RawResponse::new(200, "{}"))
    }));
    let services = Services::open(name, "t-secrets", t).await.unwrap();
    services.settings.set(Settings {
        mailto: "lab@example.org".into(),
        ..Settings::default()
    });
    services.set_secrets(Secrets {
        s2_api_key: Some("S2-SECRET-KEY".into()),
        openalex_api_key: Some("OA-SECRET-KEY".into()),
        llm_api_key: Some("LLM-SECRET-KEY".into()),
        remember: false,
    });
    services.save_settings().await.unwrap();
    let ep = services.endpoints();
    assert_eq!(ep.s2_api_key.as_deref(), Some("S2-SECRET-KEY"));
    let ws = services.workspace();
    ws.put(
        keys::REPORTS,
        &json!({"debug": format!("{:?}", Secrets::load_remembered())}),
    )
    .await
    .unwrap();
    let export = ws.export_json().await.unwrap();
    let cache_export = services.cache().export_json().await.unwrap();
    for text in [&export, &cache_export] {
        assert!(
            !text.contains("S2-SECRET-KEY")
                && !text.contains("OA-SECRET-KEY")
                && !text.contains("LLM-SECRET-KEY"),
            "{text}"
        );
    }
    assert!(
        export.contains("lab@example.org"),
        "settings are kept: {export}"
    );
    // Not remembered: nothing in localStorage; remembered: only there.
    assert!(Secrets::load_remembered().s2_api_key.is_none());
    services.set_secrets(Secrets {
        s2_api_key: Some("S2-SECRET-KEY".into()),
        openalex_api_key: None,
        llm_api_key: None,
        remember: true,
    });
    assert_eq!(
        Secrets::load_remembered().s2_api_key.as_deref(),
        Some("S2-SECRET-KEY")
    );
    assert!(!ws.export_json().await.unwrap().contains("S2-SECRET-KEY"));
    services.set_secrets(Secrets::default());
    assert!(Secrets::load_remembered().s2_api_key.is_none());
}

fn title_of(n: usize) -> String {
    format!("Resumable verification of benchmark paper {n}")
}

fn answer(req: &Request, _n: usize) -> Result<RawResponse, TransportError> {
    let q = req
        .url
        .split("query=")
        .nth(1)
        .unwrap_or("")
        .split('&')
        .next()
        .unwrap_or("");
    let title = js_sys::decode_uri_component(&q.replace('+', " "))
        .map(String::from)
        .unwrap_or_default();
    let body = json!({"total": 1, "data": [{
        "paperId": format!("id-{}", title.len()), "title": title, "abstract": "An abstract.",
        "year": 2021, "publicationDate": "2021-03-01"
    }]});
    Ok(RawResponse::new(200, body.to_string()))
}

fn run_client(t: &Rc<ScriptedTransport>, cache: Rc<ResponseCache>) -> Client {
    let th = Throttle::new("t-resume");
    th.set_limits(
        Service::SemanticScholar,
        Limits {
            min_interval_ms: 150,
            max_in_flight: 1,
        },
    );
    Client::new(t.clone(), Rc::new(th), Some(cache)).with_policy(RetryPolicy::default())
}

#[wasm_bindgen_test]
async fn an_interrupted_run_resumes_without_losing_or_repeating_anything() {
    let name = "t-resume";
    let db = fresh(name).await;
    let cands: Vec<Candidate> = (0..8).map(|n| Candidate::titled(title_of(n))).collect();
    let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
    let t = Rc::new(ScriptedTransport::new(answer));
    let ep = Endpoints::public();
    // First page life: the tab is closed ~0.5 s in (the run future is dropped).
    {
        let ws = Workspace::new(db.clone());
        let c = run_client(&t, Rc::new(ResponseCache::new(db.clone())));
        let run = run::verify_run(&c, &ws, &ep, "resume", &cands, &opts, |_, _| {}, || false);
        let stop = sleep_ms(500.0);
        futures::pin_mut!(run);
        futures::pin_mut!(stop);
        match futures::future::select(run, stop).await {
            futures::future::Either::Left(_) => panic!("the run should not finish in 0.5 s"),
            futures::future::Either::Right(_) => {}
        }
    }
    db.close();
    let before = t.count();
    assert!((1..8).contains(&before), "{before} sent before the reload");
    // Reload: a new connection, a new client, the same run id.
    let db = Rc::new(Db::open(name).await.unwrap());
    let ws = Workspace::new(db.clone());
    let saved: run::RunState<VerifyItem> = ws.get("run:resume").await.unwrap().unwrap();
    let kept: Vec<usize> = saved.items.keys().copied().collect();
    assert!(!kept.is_empty(), "at least one checkpoint was written");
    let c = run_client(&t, Rc::new(ResponseCache::new(db.clone())));
    let state = run::verify_run(&c, &ws, &ep, "resume", &cands, &opts, |_, _| {}, || false)
        .await
        .unwrap();
    assert!(state.finished);
    assert_eq!(state.items.len(), 8);
    assert!(state
        .items
        .values()
        .all(|i| matches!(i, VerifyItem::Accepted { .. })));
    for k in kept {
        assert_eq!(
            state.items.get(&k),
            saved.items.get(&k),
            "checkpointed item {k} kept as it was"
        );
    }
    assert_eq!(
        t.count(),
        8,
        "each title sent exactly once across the reload"
    );
    // A third open sends nothing at all.
    let again = run::verify_run(&c, &ws, &ep, "resume", &cands, &opts, |_, _| {}, || false)
        .await
        .unwrap();
    assert_eq!(again, state);
    assert_eq!(t.count(), 8);
}

#[wasm_bindgen_test]
async fn a_stopped_run_sends_nothing_more_and_the_next_run_finishes_it() {
    let name = "t-stop";
    let db = fresh(name).await;
    let ws = Workspace::new(db.clone());
    let cands: Vec<Candidate> = (0..6).map(|n| Candidate::titled(title_of(n))).collect();
    let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
    let t = Rc::new(ScriptedTransport::new(answer));
    let ep = Endpoints::public();
    let c = run_client(&t, Rc::new(ResponseCache::new(db.clone())));
    // Pause pressed after two answers: the run asks nothing more.
    let settled = std::cell::Cell::new(0usize);
    let state = run::verify_run(
        &c,
        &ws,
        &ep,
        "stop",
        &cands,
        &opts,
        |_, _| settled.set(settled.get() + 1),
        || settled.get() >= 2,
    )
    .await
    .unwrap();
    assert!(!state.finished);
    assert_eq!(state.items.len(), 2);
    assert_eq!(t.count(), 2);
    // Resume: the four left, nothing asked twice.
    let state = run::verify_run(&c, &ws, &ep, "stop", &cands, &opts, |_, _| {}, || false)
        .await
        .unwrap();
    assert!(state.finished);
    assert_eq!(state.items.len(), 6);
    assert_eq!(t.count(), 6);
}

#[wasm_bindgen_test]
async fn unavailable_items_are_recorded_as_unverified_not_not_found() {
    let db = fresh("t-unverified").await;
    let ws = Workspace::new(db.clone());
    let t = Rc::new(ScriptedTransport::new(|_, _| {
        Err(TransportError::Network {
            message: "failed to fetch".into(),
        })
    }));
    let th = Throttle::new("t-unverified");
    th.set_limits(
        Service::SemanticScholar,
        Limits {
            min_interval_ms: 1,
            max_in_flight: 1,
        },
    );
    let c = Client::new(t.clone(), Rc::new(th), None)
        .with_policy(RetryPolicy {
            backoff_ms: 5,
            ..RetryPolicy::default()
        })
        .with_s2_backoff_ms(5);
    let cands: Vec<Candidate> = (0..3).map(|n| Candidate::titled(title_of(n))).collect();
    let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
    let state = run::verify_run(
        &c,
        &ws,
        &Endpoints::public(),
        "u",
        &cands,
        &opts,
        |_, _| {},
        || false,
    )
    .await
    .unwrap();
    assert!(!state.finished);
    for item in state.items.values() {
        // The reason names the unavailability and carries the service's error.
        match item {
            VerifyItem::Unverified { reason } => assert!(
                reason.starts_with(run::UNAVAILABLE) && reason.contains("semantic_scholar"),
                "{reason}"
            ),
            other => panic!("{other:?}"),
        }
    }
    let sent = t.sent();
    let s2 = sent
        .iter()
        .filter(|s| s.request.service == Service::SemanticScholar)
        .count();
    assert_eq!(
        s2 as u32,
        citegate_core::fetch::S2_UNREADABLE_WAITS + 1,
        "semantic scholar's four back-offs (an unreadable answer may be its 429), then no more requests"
    );
    // OpenAlex was asked in its stead, and failed too: both reasons.
    assert!(sent.iter().any(|s| s.request.service == Service::OpenAlex));
    for item in state.items.values() {
        if let VerifyItem::Unverified { reason } = item {
            assert!(reason.contains("; then "), "{reason}");
        }
    }
}

#[wasm_bindgen_test]
async fn a_batch_whose_preflight_fails_is_sent_as_one_get_per_id() {
    let db = fresh("t-preflight-fallback").await;
    let ws = Workspace::new(db.clone());
    // The POST (JSON body: preflighted) never gets a readable answer; each
    // GET /paper/DOI:… does, and the second DOI is unknown (404), so its
    // title is searched (and not found).
    let t = Rc::new(ScriptedTransport::new(|req, _| {
        if req.body.is_some() {
            return Err(TransportError::Network {
                message: "failed to fetch".into(),
            });
        }
        if req.url.contains("/paper/search") {
            return Ok(RawResponse::new(200, r#"{"total":0,"offset":0,"data":[]}"#));
        }
        if req.url.contains("10.1000%2F2") || req.url.contains("10.1000/2") {
            return Ok(RawResponse::new(404, r#"{"error":"Paper not found"}"#));
        }
        let body = json!({"paperId": "p1", "title": title_of(1), "abstract": "An abstract.",
            "year": 2021, "publicationDate": "2021-03-01"});
        Ok(RawResponse::new(200, body.to_string()))
    }));
    let th = Throttle::new("t-preflight-fallback");
    th.set_limits(
        Service::SemanticScholar,
        Limits {
            min_interval_ms: 1,
            max_in_flight: 1,
        },
    );
    let c = Client::new(t.clone(), Rc::new(th), None)
        .with_policy(RetryPolicy {
            backoff_ms: 5,
            ..RetryPolicy::default()
        })
        .with_s2_backoff_ms(5);
    let cands: Vec<Candidate> = [1, 2]
        .iter()
        .map(|n| {
            let mut c = Candidate::titled(title_of(*n));
            c.extra
                .insert("doi".into(), Value::String(format!("10.1000/{n}")));
            c
        })
        .collect();
    let opts = VerifyOptions::new(Date::parse_iso("2024-10-01").unwrap());
    let state = run::verify_run(
        &c,
        &ws,
        &Endpoints::public(),
        "pf",
        &cands,
        &opts,
        |_, _| {},
        || false,
    )
    .await
    .unwrap();
    assert!(state.finished, "{state:?}");
    assert!(
        matches!(state.items[&0], VerifyItem::Accepted { .. }),
        "{state:?}"
    );
    assert!(
        matches!(state.items[&1], VerifyItem::Rejected { .. }),
        "{state:?}"
    );
    let sent = t.sent();
    let posts = sent.iter().filter(|s| s.request.body.is_some()).count();
    assert_eq!(
        posts, 2,
        "the batch is tried twice, then its preflight counts as failed"
    );
    assert_eq!(
        sent.len(),
        5,
        "then one GET per id, and a title search for the unknown one"
    );
    assert!(sent[4].request.url.contains("/paper/search"));
    assert!(c.unavailable(Service::SemanticScholar).is_none());
}

#[wasm_bindgen_test]
async fn a_workspace_from_before_papers_moves_into_the_first_and_papers_keep_their_own_work() {
    use citegate_web::services::db::WORKSPACE_STORE;
    let db = fresh("t-ws-papers").await;
    // As an older citegate left it: documents under their bare names.
    db.put(WORKSPACE_STORE, keys::POOL, "{\"papers\":[]}")
        .await
        .unwrap();
    db.put(WORKSPACE_STORE, keys::LIBRARY, "\"lib\"")
        .await
        .unwrap();
    let ws = Workspace::open(db.clone()).await.unwrap();
    assert_eq!(ws.paper(), "p1");
    assert_eq!(
        ws.get::<Value>(keys::POOL).await.unwrap(),
        Some(json!({"papers": []}))
    );
    assert_eq!(db.get(WORKSPACE_STORE, keys::POOL).await.unwrap(), None);
    assert!(db
        .get(WORKSPACE_STORE, "paper:p1:pool")
        .await
        .unwrap()
        .is_some());
    // A second paper starts empty and shares the library.
    let mut papers = ws.papers().await.unwrap();
    papers.add("second");
    ws.save_papers(&papers).await.unwrap();
    assert_eq!(ws.get::<Value>(keys::POOL).await.unwrap(), None);
    assert_eq!(
        ws.get::<Value>(keys::LIBRARY).await.unwrap(),
        Some(json!("lib"))
    );
    // Reopened, the database is on the second paper; the first kept its pool.
    let ws = Workspace::open(db.clone()).await.unwrap();
    assert_eq!(ws.paper(), "p2");
    papers.current = "p1".into();
    ws.save_papers(&papers).await.unwrap();
    assert_eq!(
        ws.get::<Value>(keys::POOL).await.unwrap(),
        Some(json!({"papers": []}))
    );
}

/// Five `.bib` runs of one paper in turn: only the checkpoints of the three
/// most recently started stay, with those stored before the list existed
/// pruned first; another paper's checkpoint and other runs are untouched.
#[wasm_bindgen_test]
async fn only_the_most_recent_bib_runs_keep_their_checkpoints() {
    use citegate_core::resolve::{Options, Reference, Surface};
    use citegate_web::services::db::WORKSPACE_STORE;
    use citegate_web::services::{prune, resolve};
    let db = fresh("t-prune-resolve").await;
    let ws = Workspace::new(db.clone());
    let stale = json!({"stale": true});
    ws.put("run:resolve-0000000000000000", &stale)
        .await
        .unwrap();
    ws.put("run:verify-1", &stale).await.unwrap();
    db.put(WORKSPACE_STORE, "paper:p2:run:resolve-theirs", "{}")
        .await
        .unwrap();
    let mut started = Vec::new();
    for n in 0..5 {
        let refs = vec![Reference {
            key: format!("k{n}"),
            title: Some(format!("A title of draft {n}")),
            ..Reference::default()
        }];
        let key = resolve::checkpoint_key(&refs);
        let opts = Options::new(Endpoints::public(), Surface::Browser);
        let (_, resumed) = resolve::resume_or_new(&ws, &key, refs, opts).await;
        assert!(!resumed);
        // The page's drive writes the checkpoint as replies come in.
        ws.put(&key, &json!({"run": n})).await.unwrap();
        started.push(key);
    }
    let mut left = ws.keys_with_prefix(&prune::resolve_prefix()).await.unwrap();
    left.sort();
    let mut newest: Vec<String> = started[2..].to_vec();
    newest.sort();
    assert_eq!(left, newest);
    let recent: Vec<String> = ws.get(prune::RECENT).await.unwrap().unwrap();
    let newest_first: Vec<String> = started.iter().rev().take(3).cloned().collect();
    assert_eq!(recent, newest_first);
    assert_eq!(ws.get::<Value>("run:verify-1").await.unwrap(), Some(stale));
    assert!(db
        .get(WORKSPACE_STORE, "paper:p2:run:resolve-theirs")
        .await
        .unwrap()
        .is_some());
}

/// `fut`'s output, or `None` when it has not finished within `ms`.
async fn within<T>(ms: f64, fut: impl std::future::Future<Output = T>) -> Option<T> {
    use futures::future::{select, Either};
    let fut = std::pin::pin!(fut);
    let timer = std::pin::pin!(sleep_ms(ms));
    match select(fut, timer).await {
        Either::Left((out, _)) => Some(out),
        Either::Right(_) => None,
    }
}

/// `fut` polled once (its request goes out), then left alone for 100 ms
/// while the request is answered and its transaction ends, as on a busy
/// page, then given 3 s to finish: its output, or `None`.
async fn resumed_late<T>(fut: impl std::future::Future<Output = T>) -> Option<T> {
    let mut fut = std::pin::pin!(fut);
    assert!(futures::poll!(fut.as_mut()).is_pending());
    sleep_ms(100.0).await;
    within(3000.0, fut).await
}

/// Regression (an offline BibTeX check that stopped at 0 / 5 on a busy
/// machine): a store call whose caller resumes only after its transaction
/// has completed must still finish. `Db::get` once began listening for the
/// transaction's `complete` event after its read returned; when that event
/// had already fired, the read waited forever, and the run with it.
#[wasm_bindgen_test]
async fn a_store_call_resumed_after_its_transaction_completed_still_finishes() {
    use citegate_web::services::db::WORKSPACE_STORE;
    let db = fresh("t-late-resume").await;
    assert_eq!(
        resumed_late(db.put(WORKSPACE_STORE, "k", "v")).await,
        Some(Ok(()))
    );
    assert_eq!(
        resumed_late(db.get(WORKSPACE_STORE, "k")).await,
        Some(Ok(Some("v".to_string())))
    );
    assert_eq!(
        resumed_late(db.keys(WORKSPACE_STORE)).await,
        Some(Ok(vec!["k".to_string()]))
    );
    // Keys and texts are two requests of one transaction: the second must
    // not wait for the first's answer, by which time the transaction has ended.
    assert_eq!(
        resumed_late(db.entries(WORKSPACE_STORE)).await,
        Some(Ok(vec![("k".to_string(), "v".to_string())]))
    );
    assert_eq!(
        resumed_late(db.delete_key(WORKSPACE_STORE, "k")).await,
        Some(Ok(()))
    );
    assert_eq!(db.get(WORKSPACE_STORE, "k").await, Ok(None));
}
