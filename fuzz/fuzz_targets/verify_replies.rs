//! Pool verification (`verify::run::VerifyRun`) over hostile answers: the
//! input is a `raw_candidates.json`, a 0xFF byte, then one reply per request
//! (split on 0xFE; each reply's first byte picks the status, or a refused
//! preflight, or a failure). The run must end, settle each candidate at
//! most once, and never settle one it was told was already decided.
#![no_main]

use citegate_core::candidates::parse_candidates;
use citegate_core::cutoff::Date;
use citegate_core::verify::run::{Fetched, Next, VerifyRun};
use citegate_core::verify::VerifyOptions;
use citegate_core::works::request::Endpoints;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

const STATUSES: [u16; 6] = [200, 200, 404, 429, 500, 403];

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let (cands, replies) = data.split_at(split);
    let Ok(cands) = parse_candidates(&String::from_utf8_lossy(cands)) else {
        return;
    };
    let n = cands.len();
    let Ok(cutoff) = Date::parse_iso("2024-10-01") else {
        return;
    };
    // Every third candidate counts as decided by an earlier run.
    let decided: BTreeSet<usize> = (0..n).step_by(3).collect();
    let mut run = VerifyRun::new(
        cands,
        Endpoints::public(),
        VerifyOptions::new(cutoff),
        &decided,
    );
    let mut replies = replies.get(1..).unwrap_or_default().split(|&b| b == 0xFE);
    let mut settled = BTreeSet::new();
    let mut done = false;
    for _ in 0..(4 * n + 16) {
        match run.next_ask() {
            Ok(Next::Ask(_)) => {
                let raw = replies.next().unwrap_or_default();
                let fetched = match raw.split_first() {
                    Some((&s, _)) if s % 8 == 6 => Fetched::PreflightRefused,
                    Some((&s, _)) if s % 8 == 7 => Fetched::Failed {
                        reason: "unverified: x".into(),
                    },
                    Some((&s, body)) => Fetched::Answer {
                        status: STATUSES[usize::from(s % 8) % STATUSES.len()],
                        body: String::from_utf8_lossy(body).into_owned(),
                    },
                    None => Fetched::Failed {
                        reason: "unverified: none".into(),
                    },
                };
                for (i, _) in run.answer(fetched) {
                    assert!(i < n, "a position past the list");
                    assert!(
                        !decided.contains(&i),
                        "an already decided candidate settled again"
                    );
                    assert!(settled.insert(i), "a candidate settled twice");
                }
            }
            Ok(Next::AwaitReply) => panic!("waits with nothing out"),
            Ok(Next::Done) => {
                done = true;
                break;
            }
            Err(_) => return,
        }
    }
    assert!(done, "the run did not end within 4 requests per candidate");
});
