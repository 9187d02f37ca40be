//! The verification engine (`resolve::Run`) over hostile answers: the input
//! is a `.bib`, a 0xFF byte, then one reply per request sent (split on 0xFE;
//! each reply's first byte picks the status). Whatever comes back, the run
//! must end within a bounded number of steps and give a report.
#![no_main]

use citegate_core::bibtex::parse;
use citegate_core::resolve::{Options, Reference, Reply, Run, Surface};
use citegate_core::works::request::Endpoints;
use libfuzzer_sys::fuzz_target;

const STATUSES: [u16; 8] = [200, 200, 200, 404, 429, 500, 0, 403];

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let (bib, replies) = data.split_at(split);
    let bib = parse::parse(&String::from_utf8_lossy(bib));
    let refs: Vec<Reference> = bib
        .entries
        .iter()
        .take(6)
        .map(Reference::from_entry)
        .collect();
    let surface = if data.len().is_multiple_of(2) {
        Surface::Browser
    } else {
        Surface::Native
    };
    let mut opts = Options::new(Endpoints::public(), surface);
    opts.s2_backoff_ms = 1;
    let mut run = Run::new(refs, opts);
    let mut replies = replies.get(1..).unwrap_or_default().split(|&b| b == 0xFE);
    let mut now = 0.0;
    let mut done = false;
    for _ in 0..5_000 {
        match run.next(now) {
            citegate_core::resolve::Next::Send(out) => {
                for o in out {
                    let raw = replies.next().unwrap_or_default();
                    let (status, body) = match raw.split_first() {
                        Some((&s, b)) => (STATUSES[usize::from(s) % STATUSES.len()], b),
                        None => (0, raw),
                    };
                    let reply = Reply {
                        status,
                        body: String::from_utf8_lossy(body).into_owned(),
                        ..Reply::default()
                    };
                    run.answer(o.id, reply, now);
                }
            }
            citegate_core::resolve::Next::WaitUntil(t) => {
                assert!(t.is_finite(), "a wait until a time that never comes");
                now = t.max(now + 1.0);
            }
            citegate_core::resolve::Next::AwaitReplies => now += 1.0,
            citegate_core::resolve::Next::Done => {
                done = true;
                break;
            }
        }
    }
    assert!(done, "the run did not end within 5000 steps");
    let _ = run.report();
});
