//! `citegate relay` on loopback, its services a loopback server: what goes
//! upstream (the lab's key, never the browser's; only the allowlisted
//! services), what a page may read (the app's origin only, no key), and the
//! shared cache.

mod common;

use common::{fast, tempdir, Answer, Server};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const APP: &str = "http://app.test:8080";

/// A running relay, killed when dropped.
struct Relay {
    child: Child,
    base: String,
}

impl Relay {
    /// Stops the relay and returns what it logged.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let mut log = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut log);
        }
        log
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn relay(server: &Server, extra: &[&str]) -> Relay {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_citegate"));
    for v in [
        "PAPER_ORCHESTRA_MAILTO",
        "CROSSREF_MAILTO",
        "OPENALEX_MAILTO",
    ] {
        cmd.env_remove(v);
    }
    cmd.env("S2_API_KEY", "S2SECRETKEY")
        .env("OPENALEX_API_KEY", "OASECRETKEY")
        .args(["relay", "--listen", "127.0.0.1:0", "--app-origin", APP])
        .args(fast(server))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the relay");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the relay's first line");
    // "relay on http://127.0.0.1:PORT for pages of …"
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Relay { child, base }
}

/// (status, headers lowercased, body) of a request to the relay.
fn ask(method: &str, url: &str, headers: &[(&str, &str)]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let resp = match method {
        "OPTIONS" => {
            let mut b = agent.options(url);
            for (k, v) in headers {
                b = b.header(*k, *v);
            }
            b.call()
        }
        "POST" => {
            let mut b = agent.post(url);
            for (k, v) in headers {
                b = b.header(*k, *v);
            }
            b.send("{\"ids\":[\"DOI:10.1/x\"]}")
        }
        _ => {
            let mut b = agent.get(url);
            for (k, v) in headers {
                b = b.header(*k, *v);
            }
            b.call()
        }
    };
    let mut resp = resp.expect("the relay answers");
    let status = resp.status().as_u16();
    let hs = lowercase_headers(resp.headers());
    let body = resp.body_mut().read_to_vec().unwrap_or_default();
    (status, hs, body)
}

/// An answer's headers, names lowercased.
fn lowercase_headers(headers: &ureq::http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_ascii_lowercase(),
                v.to_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn header<'a>(hs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    hs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// Every service of the loopback server echoes what it was sent, keys
/// included, as a careless service might.
fn echo_server() -> Server {
    Server::start(|hit, _| {
        if hit.path.ends_with("/e-print/1706.03762") {
            return Answer::Bytes(vec![0x1f, 0x8b, 0, 1, 2, 255]);
        }
        let key = hit.headers.get("x-api-key").cloned().unwrap_or_default();
        Answer::Status(
            200,
            vec![
                ("Content-Type".into(), "application/json".into()),
                ("X-RateLimit-Remaining".into(), "99".into()),
                ("Set-Cookie".into(), "session=1".into()),
            ],
            format!(r#"{{"data":[],"target":{:?},"key":{key:?}}}"#, hit.target),
        )
    })
}

#[test]
fn the_lab_key_goes_only_to_its_service_and_never_back_to_a_page() {
    let server = echo_server();
    let r = relay(&server, &[]);
    let from_app = [("origin", APP), ("x-api-key", "BROWSERKEY")];

    let (status, hs, body) = ask(
        "GET",
        &format!("{}/s2/paper/search?query=attention", r.base),
        &from_app,
    );
    assert_eq!(status, 200);
    assert_eq!(header(&hs, "access-control-allow-origin"), Some(APP));
    assert_eq!(header(&hs, "x-ratelimit-remaining"), Some("99"));
    assert_eq!(header(&hs, "set-cookie"), None, "{hs:?}");
    let body = String::from_utf8(body).unwrap();
    assert!(!body.contains("SECRET"), "{body}");
    let hit = server.hits().pop().expect("forwarded");
    assert_eq!(hit.path, "/graph/v1/paper/search");
    assert_eq!(
        hit.headers.get("x-api-key").map(String::as_str),
        Some("S2SECRETKEY")
    );

    // OpenAlex: the browser's api_key dropped, the lab's put in.
    let (status, _, body) = ask(
        "GET",
        &format!("{}/openalex/works?search=a&api_key=BROWSERKEY", r.base),
        &from_app,
    );
    assert_eq!(status, 200);
    assert!(!String::from_utf8(body).unwrap().contains("SECRET"));
    let hit = server.hits().pop().unwrap();
    assert_eq!(hit.path, "/works");
    assert_eq!(hit.param("api_key"), Some("OASECRETKEY"));
    assert!(!hit.headers.contains_key("x-api-key"), "{hit:?}");

    // A POST batch to Semantic Scholar goes with its body.
    let (status, _, _) = ask(
        "POST",
        &format!("{}/s2/paper/batch?fields=title", r.base),
        &[("origin", APP), ("content-type", "application/json")],
    );
    assert_eq!(status, 200);
    let hit = server.hits().pop().unwrap();
    assert_eq!(
        (hit.method.as_str(), hit.path.as_str()),
        ("POST", "/graph/v1/paper/batch")
    );
    assert!(hit.body.contains("10.1/x"), "{hit:?}");

    // DBLP and arXiv, which answer no browser directly; a source's bytes as sent.
    ask(
        "GET",
        &format!("{}/dblp/search/publ/api?q=gentry&format=json", r.base),
        &from_app,
    );
    assert_eq!(server.hits().pop().unwrap().path, "/search/publ/api");
    let (status, _, bytes) = ask(
        "GET",
        &format!("{}/arxiv/e-print/1706.03762", r.base),
        &from_app,
    );
    assert_eq!((status, bytes), (200, vec![0x1f, 0x8b, 0, 1, 2, 255]));

    // Outside the allowlist: refused, nothing sent.
    let before = server.hits().len();
    for path in ["/evil.example/steal", "/s2/../../x", "/", "/s2/%2e%2e/x"] {
        let (status, hs, _) = ask("GET", &format!("{}{path}", r.base), &from_app);
        assert!(status == 404 || status == 400, "{path}: {status}");
        // The app can read why.
        assert_eq!(
            header(&hs, "access-control-allow-origin"),
            Some(APP),
            "{path}"
        );
    }
    assert_eq!(server.hits().len(), before);

    // One line a request, the browser's key masked, the lab's never there.
    let log = r.stop();
    assert!(
        log.contains("GET /s2/paper/search?query=attention -> 200"),
        "{log}"
    );
    assert!(
        !log.contains("SECRET") && !log.contains("BROWSERKEY"),
        "{log}"
    );
}

#[test]
fn only_the_app_origin_may_read_the_answers() {
    let server = echo_server();
    let r = relay(&server, &[]);
    let url = format!("{}/crossref/works/10.1%2Fx", r.base);
    let (status, hs, _) = ask("GET", &url, &[("origin", "https://evil.example")]);
    // Answered, but a page of another origin cannot read it.
    assert_eq!(status, 200);
    assert_eq!(header(&hs, "access-control-allow-origin"), None);
    let (status, hs, _) = ask(
        "OPTIONS",
        &url,
        &[
            ("origin", "https://evil.example"),
            ("access-control-request-method", "GET"),
        ],
    );
    assert_eq!(status, 403);
    assert_eq!(header(&hs, "access-control-allow-origin"), None);
    let (status, hs, _) = ask(
        "OPTIONS",
        &url,
        &[("origin", APP), ("access-control-request-method", "POST")],
    );
    assert_eq!(status, 204);
    assert_eq!(header(&hs, "access-control-allow-origin"), Some(APP));
    assert!(header(&hs, "access-control-allow-methods").is_some_and(|m| m.contains("POST")));
    // A preflight is the relay's to answer: nothing went upstream for it.
    assert!(server.hits().iter().all(|h| h.method != "OPTIONS"));
}

#[test]
fn a_shared_cache_answers_a_second_browser_without_asking_again() {
    let server = echo_server();
    let dir = tempdir();
    let cache = dir.path().join("cache.json");
    let r = relay(&server, &["--cache", cache.to_str().unwrap()]);
    let url = format!("{}/crossref/works/10.1%2Fcached", r.base);
    let (s1, _, b1) = ask("GET", &url, &[("origin", APP)]);
    let (s2, hs, b2) = ask("GET", &url, &[("origin", APP)]);
    assert_eq!((s1, s2), (200, 200));
    assert_eq!(b1, b2);
    assert_eq!(header(&hs, "x-citegate-cache"), Some("hit"));
    let asked = server
        .hits()
        .iter()
        .filter(|h| h.path.contains("cached"))
        .count();
    assert_eq!(asked, 1);
    drop(r);
    let text = std::fs::read_to_string(&cache).expect("the cache file");
    assert!(!text.contains("SECRET"), "{text}");
}

#[test]
fn an_origin_that_is_not_one_is_refused_at_start() {
    let out = common::run(
        &[
            "relay",
            "--listen",
            "127.0.0.1:0",
            "--app-origin",
            "app.test/path",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(
        err.contains("--app-origin") && err.contains("not an origin"),
        "{err}"
    );
}

/// (status, headers lowercased, body) of a POST of `body` to the relay.
fn post(url: &str, body: &str) -> (u16, Vec<(String, String)>, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut resp = agent
        .post(url)
        .header("origin", APP)
        .header("content-type", "application/json")
        .send(body)
        .expect("the relay answers");
    let hs = lowercase_headers(resp.headers());
    (
        resp.status().as_u16(),
        hs,
        resp.body_mut().read_to_string().unwrap_or_default(),
    )
}

/// Issue 32: `citegate relay --index DIR` answers a page's questions from
/// the local index (`POST /index`), for the app's origin, and says so
/// plainly when it has no index or the question is not one.
#[test]
fn the_relay_answers_a_pages_questions_from_its_local_index() {
    let server = echo_server();
    let dir = tempdir();
    let ix = dir.path().join("ix");
    let built = common::run(
        &[
            "index",
            "build",
            "--out",
            ix.to_str().unwrap(),
            "--dblp",
            &common::index_fixture("dblp-sample.xml"),
        ],
        &[],
    );
    assert_eq!(
        built.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let question = r#"{"asks":[{"slot":0,"route":"title","text":"Theory and Applications of Trapdoor Functions (Extended Abstract)"},{"slot":1,"route":"doi","text":"10.1145/1666420.1666444"}],"title_hits":5}"#;

    let bare = relay(&server, &[]);
    let (status, _, body) = post(&format!("{}/index", bare.base), question);
    assert_eq!(
        (status, body.as_str()),
        (
            404,
            "this relay has no local index (start it with --index DIR)"
        )
    );
    drop(bare);

    let r = relay(&server, &["--index", ix.to_str().unwrap()]);
    let (status, hs, body) = post(&format!("{}/index", r.base), question);
    assert_eq!(status, 200, "{body}");
    assert_eq!(header(&hs, "access-control-allow-origin"), Some(APP));
    let answers: serde_json::Value = serde_json::from_str(&body).unwrap();
    let got: Vec<(u64, &str, &str)> = answers
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["slot"].as_u64().unwrap(),
                a["route"].as_str().unwrap(),
                a["dump"].as_str().unwrap(),
            )
        })
        .collect();
    let dump = "DBLP dump of 2024-11-30, local index";
    assert_eq!(got, vec![(0, "title", dump), (1, "doi", dump)]);
    assert!(
        body.contains("Andrew Chi-Chih Yao") && body.contains("Craig Gentry"),
        "{body}"
    );
    let (status, _, body) = post(&format!("{}/index", r.base), "{\"asks\": 3}");
    assert_eq!(status, 400);
    assert!(
        body.starts_with("the index question is not readable: "),
        "{body}"
    );
    let (status, _, _) = ask("GET", &format!("{}/index", r.base), &[("origin", APP)]);
    assert_eq!(status, 405);
    // Nothing of it went to a service.
    assert!(
        server.hits().is_empty(),
        "{:?}",
        server.hits().iter().map(|h| &h.path).collect::<Vec<_>>()
    );
}
