//! Shared helpers for the CLI's integration tests: running the binary, and a
//! loopback HTTP server that answers from recorded fixtures with scripted
//! faults (429 with and without `Retry-After`, 5xx, a connection dropped in
//! the middle of the body, a hang past the client's timeout, a body that is
//! not JSON). Every request is logged, so a test can count what was sent.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod s2_pool;

/// The `citegate` binary under test.
pub fn citegate() -> Command {
    Command::new(env!("CARGO_BIN_EXE_citegate"))
}

/// Runs `citegate args…` with `envs`, with every key and contact variable
/// of the outer environment removed first.
pub fn run(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = citegate();
    for v in [
        "S2_API_KEY",
        "OPENALEX_API_KEY",
        "PAPER_ORCHESTRA_MAILTO",
        "CROSSREF_MAILTO",
        "OPENALEX_MAILTO",
    ] {
        cmd.env_remove(v);
    }
    cmd.args(args).envs(envs.iter().copied());
    cmd.output().expect("run citegate")
}

/// Runs `citegate args…` in `dir` (keys removed as in [`run`]) and returns
/// the exit code, stdout and stderr.
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut cmd = citegate();
    for v in [
        "S2_API_KEY",
        "OPENALEX_API_KEY",
        "PAPER_ORCHESTRA_MAILTO",
        "CROSSREF_MAILTO",
        "OPENALEX_MAILTO",
    ] {
        cmd.env_remove(v);
    }
    let o = cmd
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run citegate");
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

/// A fresh scratch directory for one test, under the system's temporary
/// directory, named after the test binary's process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("citegate-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Stdout parsed as JSON (panics with both streams if it is not).
pub fn json_out(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e})\nstdout: {}\nstderr: {}",
            stdout(o),
            stderr(o)
        )
    })
}

/// The recorded API fixtures of the core crate.
pub fn api_fixture(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/fixtures/api")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// This crate's test fixtures directory.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Hit {
    /// `GET`, `POST`.
    pub method: String,
    /// Path and query as sent (still percent-encoded).
    pub target: String,
    /// Path without the query.
    pub path: String,
    /// Query parameters, decoded.
    pub query: Vec<(String, String)>,
    /// Header names lowercased.
    pub headers: HashMap<String, String>,
    /// The request body.
    pub body: String,
    /// The status answered (0: dropped or hung), filled in after the handler.
    pub answered: u16,
}

impl Hit {
    /// A decoded query parameter.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Hit {
    /// The DOIs a batch lookup asks for, lowercased: Crossref's
    /// `filter=doi:a,doi:b` or OpenAlex's `filter=doi:a|b`; `None` for any
    /// other request.
    pub fn batch_dois(&self) -> Option<Vec<String>> {
        let f = self.param("filter")?.strip_prefix("doi:")?;
        Some(
            f.split([',', '|'])
                .map(|d| d.trim().trim_start_matches("doi:").to_lowercase())
                .collect(),
        )
    }
}

/// A batch lookup answered as the service answers it, from recorded
/// single-work bodies (`(DOI, body)`): the records whose DOI the batch asks
/// for, in one list. Crossref's form (it asks `rows`) is a `work-list` of
/// each body's `message`; OpenAlex's (it asks `per_page`) a `results` list
/// of the bodies. A DOI it does not hold is simply absent, as in life.
/// `None` when `hit` is no batch.
pub fn batch_answer(hit: &Hit, records: &[(&str, String)]) -> Option<Answer> {
    let dois = hit.batch_dois()?;
    let found: Vec<serde_json::Value> = records
        .iter()
        .filter(|(doi, _)| dois.contains(&doi.to_lowercase()))
        .map(|(_, body)| serde_json::from_str(body).expect("recorded json"))
        .collect();
    let body = if hit.param("rows").is_some() {
        let items: Vec<&serde_json::Value> = found.iter().map(|r| &r["message"]).collect();
        serde_json::json!({"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
            "message": {"facets": {}, "total-results": items.len(), "items": items}})
    } else {
        serde_json::json!({"meta": {"count": found.len(), "page": 1}, "results": found})
    };
    Some(Answer::ok(body.to_string()))
}

/// What the server does with one request.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A status, extra headers and a body.
    Status(u16, Vec<(String, String)>, String),
    /// Headers promising the whole body, half of it, then the connection closes.
    DropMidBody(String),
    /// Says nothing for this long, then closes.
    Hang(Duration),
    /// 200 with these bytes as the body (an archive).
    Bytes(Vec<u8>),
    /// A status and headers, then the body in these chunks (chunked transfer
    /// encoding, flushed one by one: a streamed model answer).
    Chunked(u16, Vec<(String, String)>, Vec<String>),
}

impl Answer {
    /// 200 with a JSON body.
    pub fn ok(body: impl Into<String>) -> Answer {
        Answer::Status(200, Vec::new(), body.into())
    }
    /// A status with a body.
    pub fn status(code: u16, body: impl Into<String>) -> Answer {
        Answer::Status(code, Vec::new(), body.into())
    }
    /// A 429 with `Retry-After: secs`.
    pub fn too_many(retry_after: Option<&str>) -> Answer {
        let headers = retry_after
            .map(|s| vec![("Retry-After".to_string(), s.to_string())])
            .unwrap_or_default();
        Answer::Status(
            429,
            headers,
            r#"{"message": "Too Many Requests. Please wait and try again or apply for a key for higher rate limits.", "code": "429"}"#.into(),
        )
    }
}

type Handler = dyn Fn(&Hit, usize) -> Answer + Send + Sync;

/// The loopback server; lives until the test process ends.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    log: Arc<Mutex<Vec<Hit>>>,
}

impl Server {
    /// Starts a server; `handler` gets each request and how many earlier
    /// requests had the same method and target (0 the first time).
    pub fn start(handler: impl Fn(&Hit, usize) -> Answer + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let log: Arc<Mutex<Vec<Hit>>> = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let thread_log = Arc::clone(&log);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = Arc::clone(&thread_log);
                let handler = Arc::clone(&handler);
                std::thread::spawn(move || serve(stream, &log, &*handler));
            }
        });
        Server { base, log }
    }

    /// Every request so far.
    pub fn hits(&self) -> Vec<Hit> {
        self.log.lock().expect("log").clone()
    }

    /// Forgets the requests so far.
    pub fn clear(&self) {
        self.log.lock().expect("log").clear();
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Hit>>, handler: &Handler) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = reader.read_exact(&mut body);
    let (path, q) = target.split_once('?').unwrap_or((&target, ""));
    let query = form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let hit = Hit {
        method,
        target: target.clone(),
        path: path.to_string(),
        query,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        answered: 0,
    };
    let seen = log
        .lock()
        .expect("log")
        .iter()
        .filter(|h| h.method == hit.method && h.target == hit.target && h.body == hit.body)
        .count();
    let answer = handler(&hit, seen);
    let mut logged = hit.clone();
    if let Answer::Status(code, _, _) | Answer::Chunked(code, _, _) = &answer {
        logged.answered = *code;
    }
    if let Answer::Bytes(_) = &answer {
        logged.answered = 200;
    }
    log.lock().expect("log").push(logged);
    let mut stream = reader.into_inner();
    match answer {
        Answer::Status(code, extra, body) => {
            let mut head = format!(
                "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (k, v) in extra {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body.as_bytes());
        }
        Answer::DropMidBody(body) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body.as_bytes()[..body.len() / 2]);
            let _ = stream.flush();
        }
        Answer::Hang(d) => std::thread::sleep(d),
        Answer::Bytes(body) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
        Answer::Chunked(code, extra, chunks) => {
            let mut head =
                format!("HTTP/1.1 {code} X\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n");
            for (k, v) in extra {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            for c in &chunks {
                let _ = write!(stream, "{:x}\r\n{c}\r\n", c.len());
                let _ = stream.flush();
            }
            let _ = stream.write_all(b"0\r\n\r\n");
        }
    }
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// A Semantic Scholar title search answered from the recorded relevance
/// search: the recorded papers whose normalized title equals the query's,
/// or the recorded empty result.
pub fn s2_search_answer(query: &str) -> Answer {
    let norm = |t: &str| -> String {
        t.to_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect()
    };
    let recorded: serde_json::Value = serde_json::from_str(&api_fixture(
        "semanticscholar/search_relevance_with_abstracts.json",
    ))
    .expect("fixture json");
    let data: Vec<serde_json::Value> = recorded["data"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["title"].as_str().map(norm) == Some(norm(query)))
        .cloned()
        .collect();
    if data.is_empty() {
        return Answer::ok(api_fixture("semanticscholar/search_empty_results.json"));
    }
    Answer::ok(serde_json::json!({"total": data.len(), "offset": 0, "data": data}).to_string())
}

/// A server standing in for every service at once: `world` answers
/// (tools/world, one path prefix per service), unless `fault` has an answer
/// for the request first. Bases for [`fast`]: `{base}/s2`, `{base}/crossref`…
pub fn world_server(
    world: citegate_world::World,
    fault: impl Fn(&Hit, usize) -> Option<Answer> + Send + Sync + 'static,
) -> Server {
    Server::start(move |hit, seen| {
        fault(hit, seen).unwrap_or_else(|| {
            let (status, headers, body) = world.respond(&hit.method, &hit.target, &hit.body);
            let headers = headers
                .into_iter()
                .filter(|(k, _)| !k.eq_ignore_ascii_case("content-type"))
                .collect();
            Answer::Status(status, headers, body)
        })
    })
}

/// [`fast_with`] for a [`world_server`]: each service under its prefix.
pub fn fast_world(server: &Server) -> Vec<String> {
    let b = &server.base;
    let mut v = Vec::new();
    for (flag, prefix) in [
        ("--s2-base", "s2"),
        ("--crossref-base", "crossref"),
        ("--openalex-base", "openalex"),
        ("--datacite-base", "datacite"),
        ("--dblp-base", "dblp"),
        ("--arxiv-base", "arxiv"),
    ] {
        v.push(flag.to_string());
        v.push(format!("{b}/{prefix}"));
    }
    for s in [
        "--interval-ms",
        "s2=5,crossref=5,openalex=5,arxiv=5,datacite=5,dblp=5",
        "--backoff-ms",
        "5",
        "--retry-after-ms",
        "5",
        "--timeout-ms",
        "400",
    ] {
        v.push(s.to_string());
    }
    v
}

/// A temporary directory for one test.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write fixture");
    p.display().to_string()
}

/// The flags that make a live run against `server` take milliseconds.
pub fn fast(server: &Server) -> Vec<String> {
    fast_with(
        server,
        "s2=5,crossref=5,openalex=5,arxiv=5,datacite=5,dblp=5",
    )
}

/// Runs `citegate` with `args` then [`fast`]'s flags pointing every
/// service at `server`, with the extra environment `env`.
pub fn run_live(server: &Server, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(fast(server));
    let a: Vec<&str> = all.iter().map(String::as_str).collect();
    run(&a, env)
}

/// [`fast`] with the given `--interval-ms` value.
pub fn fast_with(server: &Server, intervals: &str) -> Vec<String> {
    [
        "--s2-base",
        &server.base,
        "--crossref-base",
        &server.base,
        "--openalex-base",
        &server.base,
        "--datacite-base",
        &server.base,
        "--dblp-base",
        &server.base,
        "--arxiv-base",
        &server.base,
        "--interval-ms",
        intervals,
        "--backoff-ms",
        "5",
        "--retry-after-ms",
        "5",
        "--timeout-ms",
        "400",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// `(title, outcome)` rows of `verify --json`: `accepted`,
/// `rejected:<reason>` or `<undecided kind>:<error message>`.
pub fn verify_rows(v: &serde_json::Value) -> Vec<(String, String)> {
    v["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let o = &r["outcome"];
            let what = match o["decision"].as_str() {
                Some("accepted") => "accepted".to_string(),
                Some(d) => format!("{d}:{}", o["reason"].as_str().unwrap_or("")),
                None => format!(
                    "{}:{}",
                    o.as_str().unwrap_or("?"),
                    r["error"]["message"].as_str().unwrap_or("")
                ),
            };
            (r["title"].as_str().unwrap_or("").to_string(), what)
        })
        .collect()
}
