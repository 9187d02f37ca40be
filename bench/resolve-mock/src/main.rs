//! Drives `resolve::Run` over a `.bib` against the e2e mock, as the app's
//! page does (`web/src/services/resolve.rs`: concurrent sends, the run asked
//! again on each reply), with what a browser enforces emulated: a request
//! that needs a CORS preflight is preceded by `OPTIONS` and fails unread
//! when the answer does not allow it, and an answer without
//! `Access-Control-Allow-Origin` reads as status 0. Prints the verdicts that
//! are not "found", the requests per service and the wall time (`VERBOSE=1`:
//! each request too).

use citegate_core::bibtex::{existence, matching, parse};
use citegate_core::fetch;
use citegate_core::resolve::{Next, Options, Outcome, Reference, Reply, Run, Surface};
use citegate_core::works::request::{Endpoints, Method, Request};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

/// One HTTP/1.1 exchange with the loopback mock (`Connection: close`).
fn http(method: &str, url: &str, headers: &[(String, String)], body: Option<&str>) -> Answer {
    let rest = url.strip_prefix("http://").unwrap_or(url);
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let Ok(mut s) = TcpStream::connect(host) else {
        return Answer {
            status: 0,
            headers: Vec::new(),
            body: String::new(),
        };
    };
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nOrigin: http://127.0.0.1\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    req.push_str("\r\n");
    req.push_str(body.unwrap_or(""));
    let mut out = Vec::new();
    if s.write_all(req.as_bytes()).is_err() || s.read_to_end(&mut out).is_err() {
        return Answer {
            status: 0,
            headers: Vec::new(),
            body: String::new(),
        };
    }
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, raw) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let (mut b, mut rest) = (String::new(), raw);
        while let Some((n, r)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(n.trim(), 16).unwrap_or(0);
            if n == 0 || r.len() < n {
                break;
            }
            b.push_str(&r[..n]);
            rest = r.get(n + 2..).unwrap_or("");
        }
        b
    } else {
        raw.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn allows(a: &Answer) -> bool {
    a.headers
        .iter()
        .any(|(k, _)| k == "access-control-allow-origin")
}

/// The request as a page's `fetch` would see it; counts each exchange by `service[ preflight]`.
fn browser_fetch(req: &Request, count: &Mutex<BTreeMap<String, u32>>) -> Reply {
    let service = req
        .url
        .split("/api/")
        .nth(1)
        .and_then(|p| p.split('/').next())
        .unwrap_or("")
        .to_string();
    let tally = |k: String| *count.lock().unwrap().entry(k).or_insert(0) += 1;
    if fetch::needs_preflight(req) {
        tally(format!("{service} preflight"));
        let names: Vec<String> = req
            .headers
            .iter()
            .map(|(k, _)| k.to_ascii_lowercase())
            .filter(|k| k != "accept")
            .collect();
        let method = if req.method == Method::Post {
            "POST"
        } else {
            "GET"
        };
        let pre = http(
            "OPTIONS",
            &req.url,
            &[
                ("Access-Control-Request-Method".into(), method.into()),
                ("Access-Control-Request-Headers".into(), names.join(",")),
            ],
            None,
        );
        if !(200..300).contains(&pre.status) || !allows(&pre) {
            return Reply::default();
        }
    }
    tally(service);
    let method = if req.method == Method::Post {
        "POST"
    } else {
        "GET"
    };
    let a = http(method, &req.url, &req.headers, req.body.as_deref());
    if !allows(&a) {
        return Reply::default();
    }
    Reply {
        status: a.status,
        body: a.body,
        ..Reply::default()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(base), Some(bib)) = (args.next(), args.next()) else {
        eprintln!("usage: resolve-mock-bench <mock api base> <file.bib>");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&bib).expect("the .bib");
    let parsed = parse::parse(&text);
    let refs: Vec<Reference> = parsed.entries.iter().map(Reference::from_entry).collect();
    let ep = Endpoints {
        s2_base: format!("{base}/s2"),
        openalex_base: format!("{base}/openalex"),
        crossref_base: format!("{base}/crossref"),
        datacite_base: format!("{base}/datacite"),
        s2_api_key: std::env::var("KEY").ok(),
        openalex_api_key: std::env::var("OA_KEY").ok(),
        ..Endpoints::public()
    };
    let mut opts = Options::new(ep, Surface::Browser);
    // S2_MS=0: no Semantic Scholar spacing (as the e2e suite's `s2_interval=0`).
    if let Some(ms) = std::env::var("S2_MS").ok().and_then(|v| v.parse().ok()) {
        opts.s2_interval_ms = ms;
    }
    let mut run = Run::new(refs, opts);
    let started = Instant::now();
    let now = || started.elapsed().as_secs_f64() * 1000.0;
    let count = Arc::new(Mutex::new(BTreeMap::new()));
    let (tx, rx) = mpsc::channel::<(u64, Reply)>();
    let concurrent = std::env::var("SEQ").is_err();
    // VERBOSE=1: each request on stderr with the time it went out and its status.
    let verbose = std::env::var("VERBOSE").is_ok();
    let mut flying = 0usize;
    loop {
        let wait_until = match run.next(now()) {
            Next::Done => break,
            Next::Send(out) => {
                for o in out {
                    flying += 1;
                    let (tx, count) = (tx.clone(), count.clone());
                    let log = verbose.then(|| (now(), o.request.url.clone()));
                    let job = move || {
                        let reply = browser_fetch(&o.request, &count);
                        if let Some((at, url)) = log {
                            eprintln!("{:7.2} s {:3} {url}", at / 1000.0, reply.status);
                        }
                        let _ = tx.send((o.id, reply));
                    };
                    if concurrent {
                        std::thread::spawn(job);
                    } else {
                        job();
                    }
                }
                continue;
            }
            Next::WaitUntil(at) => Some(at),
            Next::AwaitReplies => None,
        };
        let wait = |at: f64| Duration::from_millis((at - now()).max(1.0) as u64);
        let reply = match (wait_until, flying) {
            (None, 0) => break,
            (Some(at), 0) => {
                std::thread::sleep(wait(at));
                None
            }
            (None, _) => rx.recv().ok(),
            (Some(at), _) => rx.recv_timeout(wait(at)).ok(),
        };
        if let Some((id, r)) = reply {
            flying -= 1;
            run.answer(id, r, now());
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let report = run.report();
    let mut statuses = BTreeMap::new();
    for (entry, r) in parsed.entries.iter().zip(&report.resolutions) {
        let v = matching::verify(
            entry,
            &existence::from_resolution(r),
            matching::Mode::Default,
        );
        *statuses.entry(format!("{:?}", v.status)).or_insert(0) += 1;
        if !matches!(r.outcome, Outcome::Found { .. }) {
            println!("{}: {}", entry.key, r.outcome.describe());
        }
    }
    println!("{} entries: {statuses:?}", parsed.entries.len());
    println!("{} requests: {:?}", report.requests, count.lock().unwrap());
    println!("wall time {wall:.1} s");
}
