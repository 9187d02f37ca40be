//! `citegate write` against a scripted model server on loopback.
//!
//! The shared loopback server (`tests/common`) reads one request per
//! connection, records it, and answers from a script — a status, headers
//! and a body sent in chunks (chunked transfer encoding, as streaming
//! services send Server-Sent Events). The answers follow the shapes of the
//! two APIs (`core::write::provider` documents them); the drafts are made
//! from the fixture template in `tests/fixtures/write` (see PROVENANCE.md).

mod common;

use common::{Answer, Server};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const KEY: &str = "sk-test-0123456789abcdef";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/write")
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(fixtures().join(name)).unwrap()
}

struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    chunks: Vec<String>,
}

/// A request the model server received: path, headers, JSON body.
#[derive(Debug, Clone)]
struct Recorded {
    path: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Recorded {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// The text of the last message sent.
    fn last_message(&self) -> String {
        let msgs = self.body["messages"].as_array().unwrap();
        msgs.last().unwrap()["content"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

/// Starts the shared loopback server (`common::Server`) answering the
/// requests in order from `script` (a request past its end gets no answer);
/// returns its base URL and the server, whose [`recorded`] requests a test reads.
fn serve(script: Vec<Reply>) -> (String, Server) {
    let next = AtomicUsize::new(0);
    let server = Server::start(
        move |_, _| match script.get(next.fetch_add(1, Ordering::SeqCst)) {
            Some(r) => Answer::Chunked(
                r.status,
                r.headers
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect(),
                r.chunks.clone(),
            ),
            None => Answer::Hang(Duration::ZERO),
        },
    );
    (server.base.clone(), server)
}

/// The requests `server` received, in order.
fn recorded(server: &Server) -> Vec<Recorded> {
    server
        .hits()
        .into_iter()
        .map(|h| Recorded {
            path: h.path,
            headers: h.headers.into_iter().collect(),
            body: serde_json::from_str(&h.body).unwrap_or(Value::Null),
        })
        .collect()
}

fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(40).map(|c| c.iter().collect()).collect()
}

fn openai_stream(text: &str) -> Reply {
    let mut chunks: Vec<String> = pieces(text)
        .iter()
        .map(|p| format!("data: {}\n\n", serde_json::json!({"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": null}]})))
        .collect();
    chunks.push("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n".into());
    Reply {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks,
    }
}

fn anthropic_stream(text: &str) -> Reply {
    let mut chunks = vec![
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n".to_string(),
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n".to_string(),
    ];
    for p in pieces(text) {
        chunks.push(format!("event: content_block_delta\ndata: {}\n\n", serde_json::json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}})));
    }
    chunks.push("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n".into());
    Reply {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks,
    }
}

fn error(status: u16, body: &str) -> Reply {
    Reply {
        status,
        headers: vec![
            ("content-type", "application/json".into()),
            ("retry-after", "0".into()),
        ],
        chunks: vec![body.to_string()],
    }
}

const KEYS: [&str; 10] = [
    "vaswani2017attention",
    "he2016deep",
    "radford2021learning",
    "dosovitskiy2021image",
    "bertasius2021space",
    "arnab2021vivit",
    "wu2022memvit",
    "child2019generating",
    "beltagy2020longformer",
    "zaheer2020big",
];

/// A model answer: the template with both sections filled, citing the first
/// `n` pool keys plus `extra`, with the Method sentence replaced if given.
fn answer(n: usize, extra: &[&str], method: Option<&str>) -> String {
    let mut keys: Vec<&str> = KEYS[..n].to_vec();
    keys.extend_from_slice(extra);
    let (intro, rw) = keys.split_at(keys.len() / 2);
    let mut t = fixture("template.tex")
        .replace(
            "% The introduction goes here.",
            &format!(
                "Long videos strain attention \\cite{{{}}}.",
                intro.join(",")
            ),
        )
        .replace(
            "% The related work goes here.",
            &format!("Prior work \\citep{{{}}} scales attention.", rw.join(",")),
        );
    if let Some(m) = method {
        t = t.replace(
            "We sparsify attention over frames with a learned router.",
            m,
        );
    }
    format!("Here is the updated file.\n\n```latex\n{t}```\n")
}

/// Runs `citegate write` against `base`; returns (code, stdout JSON, stderr, out file).
fn run(api: &str, base: &str, extra: &[&str]) -> (i32, Value, String, Option<String>) {
    let dir = std::env::temp_dir().join(format!(
        "citegate-write-{}-{}",
        std::process::id(),
        base.rsplit(':').next().unwrap()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("intro_relwork.tex");
    let _ = std::fs::remove_file(&out);
    let f = |n: &str| fixtures().join(n).display().to_string();
    let o = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .args([
            "write",
            "--template",
            &f("template.tex"),
            "--pool",
            &f("citation_pool.json"),
            "--outline",
            &f("outline.json"),
        ])
        .args([
            "--idea",
            &f("idea.md"),
            "--log",
            &f("experimental_log.md"),
            "--cutoff",
            "2024-10-01",
        ])
        .args([
            "--api",
            api,
            "--llm-base",
            base,
            "--model",
            "test-model",
            "--out",
            out.to_str().unwrap(),
            "--json",
        ])
        .args(extra)
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env("LLM_API_KEY", KEY)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "the key leaked"
    );
    (
        o.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stderr,
        std::fs::read_to_string(&out).ok(),
    )
}

#[test]
fn openai_three_rounds_as_the_seed_describes() {
    let (base, seen) = serve(vec![
        openai_stream(&answer(
            6,
            &["smith2023invented"],
            Some("We sparsify attention with a better router."),
        )),
        openai_stream(&answer(8, &[], None)),
        openai_stream(&answer(10, &[], None)),
    ]);
    let (code, json, stderr, out) = run("openai", &base, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("round 1: 1 of 4 checks pass"), "{stderr}");
    assert!(stderr.contains("round 2: 3 of 4 checks pass"), "{stderr}");
    assert!(stderr.contains("round 3: 4 of 4 checks pass"), "{stderr}");
    assert_eq!(json["rounds"].as_array().unwrap().len(), 3);
    assert_eq!(json["pass"], true);
    let seen = recorded(&seen);
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(
        seen[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(seen[0].body["stream"], true);
    assert_eq!(seen[0].body["model"], "test-model");
    // The first re-prompt names the changed Method line, the invented key and the missing papers by tag.
    let r1 = seen[1].last_message();
    for needle in [
        "-We sparsify attention over frames with a learned router.\n+We sparsify attention with a better router.",
        "    smith2023invented\n",
        "cites 6 of the 10 papers in the pool (60.0%); at least 9 are required",
        "For related work 2.1:\n    wu2022memvit (MeMViT",
        "For related work 2.2:\n    beltagy2020longformer",
    ] {
        assert!(r1.contains(needle), "missing {needle:?} in\n{r1}");
    }
    assert_eq!(seen[1].body["messages"][2]["role"], "assistant");
    // The second names only what is still short.
    let r2 = seen[2].last_message();
    assert!(
        r2.contains("cites 8 of the 10")
            && !r2.contains("byte for byte")
            && !r2.contains("invented"),
        "{r2}"
    );
    // --out is intro_relwork.tex as seed 001 names it: the template with the
    // two sections written in, everything else verbatim.
    let out = out.unwrap();
    let template = fixture("template.tex");
    assert!(out.starts_with("\\documentclass{article}\n\\usepackage[capitalize]{cleveref}"));
    assert!(out.contains(
        "\\section{Introduction}\nLong videos strain attention \\cite{vaswani2017attention,"
    ));
    assert!(out.contains("\\section{Related Work}\nPrior work \\citep{"));
    assert!(out.ends_with(&template[template.find("\\section{Method}").unwrap()..]));
    assert_eq!(json["sections_out"], Value::Null);
}

#[test]
fn anthropic_shape_and_both_files() {
    let (base, seen) = serve(vec![anthropic_stream(&answer(9, &[], None))]);
    let sections = std::env::temp_dir().join(format!(
        "citegate-write-sections-{}.tex",
        std::process::id()
    ));
    let (code, json, stderr, out) = run(
        "anthropic",
        &base,
        &[
            "--sections-out",
            sections.to_str().unwrap(),
            "--max-tokens",
            "4000",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let seen = recorded(&seen);
    assert_eq!(seen[0].path, "/v1/messages");
    assert_eq!(seen[0].header("x-api-key"), Some(KEY));
    assert_eq!(seen[0].header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(
        seen[0].header("anthropic-dangerous-direct-browser-access"),
        Some("true")
    );
    assert!(seen[0].header("authorization").is_none());
    assert_eq!(seen[0].body["max_tokens"], 4000);
    assert!(seen[0].body["system"]
        .as_str()
        .unwrap()
        .starts_with("Work only from the material"));
    assert_eq!(seen[0].body["messages"].as_array().unwrap().len(), 1);
    // --out: the filled template; --sections-out: the two sections alone.
    let full = out.unwrap();
    let template = fixture("template.tex");
    assert!(full.starts_with("\\documentclass{article}\n\\usepackage[capitalize]{cleveref}"));
    assert!(full.ends_with(&template[template.find("\\section{Method}").unwrap()..]));
    let two = std::fs::read_to_string(&sections).unwrap();
    assert!(two.starts_with("\\section{Introduction}\n"), "{two}");
    assert!(
        two.contains("\\section{Related Work}\n") && two.contains("\\cite{vaswani2017attention")
    );
    assert!(!two.contains("\\section{Method}") && !two.contains("\\documentclass"));
    assert!(
        full.contains(&two),
        "the sections are the ones written into the template"
    );
    assert_eq!(json["sections_out"], sections.to_str().unwrap());
}

/// (script, extra args, exit code, stderr must contain, rounds in --json)
fn check_failure(
    api: &str,
    script: Vec<Reply>,
    extra: &[&str],
    code: i32,
    has: &str,
    rounds: usize,
) {
    let (base, _) = serve(script);
    let (got, json, stderr, _) = run(api, &base, extra);
    assert_eq!(got, code, "{stderr}");
    assert!(stderr.contains(has), "missing {has:?} in {stderr}");
    assert_eq!(
        json["rounds"].as_array().map(Vec::len),
        Some(rounds),
        "{json}"
    );
}

#[test]
fn errors_are_clear_and_lose_no_round() {
    check_failure(
        "openai",
        vec![error(
            401,
            r#"{"error":{"message":"Incorrect API key provided: sk-test-0123456789abcdef.","type":"invalid_request_error","code":"invalid_api_key"}}"#,
        )],
        &[],
        2,
        "refused the api key (http 401)",
        0,
    );
    check_failure(
        "anthropic",
        vec![error(
            401,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        )],
        &[],
        2,
        "invalid x-api-key",
        0,
    );
    check_failure(
        "anthropic",
        vec![error(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208656 tokens > 200000 maximum"}}"#,
        )],
        &[],
        2,
        "the prompt is too long for this model",
        0,
    );
    // A 429 is waited out and asked again: still one round.
    check_failure(
        "openai",
        vec![
            error(
                429,
                r#"{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}"#,
            ),
            openai_stream(&answer(10, &[], None)),
        ],
        &[],
        0,
        "rate limited by the model endpoint (http 429)",
        1,
    );
    // An answer with no LaTeX is a round with a clear note, then the next round passes.
    check_failure(
        "openai",
        vec![
            openai_stream("I cannot write papers."),
            openai_stream(&answer(10, &[], None)),
        ],
        &[],
        0,
        "round 1: the answer holds no latex file",
        2,
    );
    // A refused key after a good first round keeps that round's draft.
    check_failure(
        "openai",
        vec![
            openai_stream(&answer(7, &[], None)),
            error(401, r#"{"error":{"message":"key revoked"}}"#),
        ],
        &[],
        1,
        "wrote",
        1,
    );
}

#[test]
fn stops_after_max_rounds_with_the_best_draft() {
    let (base, _) = serve(vec![
        openai_stream(&answer(8, &[], None)),
        openai_stream(&answer(3, &[], None)),
    ]);
    let (code, json, stderr, out) = run("openai", &base, &["--max-rounds", "1"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("warning: stopped after 2 rounds without a draft that passes every check; keeping round 1"), "{stderr}");
    assert_eq!(json["best_round"], 1);
    assert!(out.unwrap().contains("he2016deep"));
}

#[test]
fn bad_input_exits_2() {
    let (code, _, stderr, _) = run("openai", "ftp://nowhere", &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("must start with http:// or https://"),
        "{stderr}"
    );
}
