//! A local index's answers taken before any request (`Run::take_local`),
//! and offline replies: what the index settles is asked of no service; a
//! miss of the index is no evidence; an offline run leaves what the index
//! does not settle unverified, never not found.

use super::*;

fn record(service: Service, title: &str, doi: Option<&str>) -> Work {
    let mut w = Work::empty(service);
    w.title = title.into();
    w.doi = doi.map(String::from);
    w
}

const DUMP: &str = "DBLP dump of 2026-11-01, local index";

/// Runs `refs` with `local` answers taken first; every request gets `world`'s reply.
fn run_with(
    refs: Vec<Reference>,
    local: impl Fn(usize, Route, &str) -> Option<Answer>,
    world: impl FnMut(&Request) -> Reply,
) -> Drive {
    let mut run = Run::new(refs, opts(Surface::Native, true));
    let answers = run
        .local_asks()
        .into_iter()
        .filter_map(|(slot, route, text)| {
            local(slot, route, &text).map(|answer| LocalAnswer {
                slot,
                route,
                service: Service::Dblp,
                dump: DUMP.into(),
                answer,
            })
        })
        .collect();
    run.take_local(answers);
    drive_run(run, world)
}

fn offline(_: &Request) -> Reply {
    Reply {
        status: 0,
        body: OFFLINE.into(),
        offline: true,
        ..Reply::default()
    }
}

#[test]
fn what_the_index_settles_is_asked_of_no_service() {
    let refs = vec![
        doi_ref("by_doi", "10.1145/1666420.1666444", None),
        title_ref(
            "by_title",
            "Computing arbitrary functions of encrypted data",
        ),
    ];
    let gentry = record(
        Service::Dblp,
        "Computing arbitrary functions of encrypted data.",
        Some("10.1145/1666420.1666444"),
    );
    let d = run_with(
        refs,
        |_, route, _| match route {
            Route::Doi => Some(Answer::Found {
                work: gentry.clone(),
            }),
            _ => Some(Answer::Hits {
                works: vec![gentry.clone()],
            }),
        },
        |_| panic!("nothing is sent"),
    );
    assert!(d.sent.is_empty());
    for r in &d.report.resolutions {
        assert_eq!(outcome_name(&r.outcome), "found:dblp", "{}", r.key);
        assert_eq!(r.evidence[0].dump.as_deref(), Some(DUMP), "{}", r.key);
    }
}

#[test]
fn offline_what_the_index_does_not_settle_is_unverified_never_not_found() {
    let gentry = record(
        Service::Dblp,
        "Computing arbitrary functions of encrypted data.",
        Some("10.1145/1666420.1666444"),
    );
    let check = |r: Reference, answer: Option<Answer>, want: &str, local_evidence: usize| {
        // The index answers the title; it lacks the cited DOI.
        let d = run_with(
            vec![r.clone()],
            |_, route, _| answer.clone().filter(|_| route == Route::Title),
            offline,
        );
        let res = &d.report.resolutions[0];
        assert_eq!(outcome_name(&res.outcome), want, "{}", r.key);
        assert_eq!(
            res.evidence.iter().filter(|e| e.dump.is_some()).count(),
            local_evidence,
            "{}",
            r.key
        );
        if let Outcome::Unverified { reasons } = &res.outcome {
            assert!(
                reasons.iter().all(|x| x.contains("the run is offline")),
                "{reasons:?}"
            );
        }
    };
    // Absent from the index: no evidence from it, and no "not found".
    check(
        title_ref("newer_than_the_dump", "A work published after the dump"),
        None,
        "unverified",
        0,
    );
    check(
        title_ref("index_miss", "A work the dump lacks"),
        Some(Answer::NotHere),
        "unverified",
        0,
    );
    // A near miss is kept as evidence but settles nothing.
    check(
        title_ref("near_miss", "Searching encrypted data in the cloud"),
        Some(Answer::Hits {
            works: vec![gentry.clone()],
        }),
        "unverified",
        1,
    );
    // The title is there but the cited DOI is another: the services would
    // have to say whether that DOI resolves, so it stays open.
    check(
        doi_ref(
            "other_doi",
            "10.1145/9999999.9999999",
            Some("Computing arbitrary functions of encrypted data"),
        ),
        Some(Answer::Hits {
            works: vec![gentry.clone()],
        }),
        "unverified",
        1,
    );
    // The same DOI on the record the title found: settled.
    check(
        doi_ref(
            "same_doi",
            "10.1145/1666420.1666444",
            Some("Computing arbitrary functions of encrypted data"),
        ),
        Some(Answer::Hits {
            works: vec![gentry],
        }),
        "found:dblp",
        1,
    );
}

#[test]
fn an_offline_reply_fails_its_request_at_once_without_retries() {
    let d = drive(
        vec![title_ref("t", "Some title")],
        opts(Surface::Native, true),
        offline,
    );
    // One request per search service, none retried, no waiting.
    assert_eq!(d.sent.len(), 4);
    assert_eq!(d.end_ms, 0.0);
    assert_eq!(outcome_name(&d.report.resolutions[0].outcome), "unverified");
}
