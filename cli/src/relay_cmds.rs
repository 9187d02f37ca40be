//! `citegate relay`: one process a lab runs so its browsers reach what they
//! cannot alone — DBLP and arXiv (no CORS headers), the services with the
//! lab's keys (held here, never sent to a browser) and one shared cache.
//!
//! The core decides ([`citegate_core::relay`]: where a path goes, which key
//! it carries, who may read the answer, masking keys a service echoes);
//! this module listens (`tiny_http`, a few worker threads), paces every
//! client's requests together by each service's documented limits
//! ([`fetch::lane_limits`], or `--interval-ms`), answers from the cache
//! what it holds, and passes the answers on. With `--index DIR` it also
//! answers `POST /index` from the local index ([`relay::INDEX_PATH`]):
//! a page's run asks it first, as `citegate check --index` does.

use crate::error::{Error, Outcome};
use crate::http::Client;
use crate::io::outln;
use crate::live::{Cache, LiveArgs};
use citegate_core::fetch::{self, Lane};
use citegate_core::relay::{self, Config, Refusal};
use citegate_core::works::request::Request;
use citegate_core::works::Service;
use clap::{Args, Subcommand};
use std::collections::HashMap;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum RelayCommand {
    /// Serve the app's services under one base (`/s2`, `/openalex`, `/crossref`, `/datacite`, `/dblp`, `/arxiv`) for the pages of one origin, with the keys of this machine's environment (S2_API_KEY, OPENALEX_API_KEY, CROSSREF_MAILTO), paced by each service's limits; anything outside those services is refused
    Relay(Box<RelayArgs>),
}

#[derive(Args)]
pub struct RelayArgs {
    /// Address to listen on, e.g. `127.0.0.1:8787` (port 0: any free port, printed at start)
    #[arg(long, value_name = "ADDR")]
    listen: String,
    /// The origin of the app's pages, e.g. `https://citegate.lab.example`: only its pages may read the answers
    #[arg(long, value_name = "ORIGIN")]
    app_origin: String,
    /// Requests handled at once (the pacing still holds each service to its limit)
    #[arg(long, value_name = "N", default_value_t = 8)]
    threads: usize,
    /// A local index built by `citegate index build`: pages behind the relay ask it first (`POST /index`), with no rate limit; overrides `index` in the --config file
    #[arg(long, value_name = "DIR")]
    index: Option<std::path::PathBuf>,
    #[command(flatten)]
    live: LiveArgs,
}

impl RelayCommand {
    pub fn run(self) -> Outcome {
        match self {
            RelayCommand::Relay(a) => run_relay(&a),
        }
    }
}

/// Every client's requests spaced per lane: a request waits for its lane's
/// next free start, so all the lab's browsers together stay inside one
/// service's limit.
struct Pacer {
    intervals: HashMap<Service, u64>,
    mailto: bool,
    next: Mutex<HashMap<Lane, Instant>>,
}

impl Pacer {
    fn interval(&self, lane: Lane) -> Duration {
        let ms = self
            .intervals
            .get(&lane.service)
            .copied()
            .unwrap_or_else(|| {
                fetch::lane_limits(lane, self.mailto, fetch::DEFAULT_S2_INTERVAL_MS).min_interval_ms
            });
        Duration::from_millis(ms)
    }

    /// Waits for `req`'s turn.
    fn wait(&self, req: &Request) {
        let lane = fetch::lane(req);
        let gap = self.interval(lane);
        let start = {
            let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            let start = next.get(&lane).copied().filter(|t| *t > now).unwrap_or(now);
            next.insert(lane, start + gap);
            start
        };
        if let Some(d) = start.checked_duration_since(Instant::now()) {
            std::thread::sleep(d);
        }
    }
}

struct Relay {
    config: Config,
    client: Client,
    pacer: Pacer,
    cache: Option<Mutex<Cache>>,
    /// The local index the index route answers from.
    index: Option<Mutex<crate::local::Local>>,
}

fn run_relay(a: &RelayArgs) -> Outcome {
    let origin = a.app_origin.trim().trim_end_matches('/').to_string();
    check_origin(&origin).map_err(|m| Error::flag("--app-origin", m))?;
    let settings = a.live.settings()?;
    let cache = match &settings.cache {
        Some(p) => Some(Mutex::new(Cache::load(p)?)),
        None => None,
    };
    let index = match a.index.as_ref().or(settings.index.as_ref()) {
        Some(dir) => Some(Mutex::new(crate::local::Local::open(dir)?)),
        None => None,
    };
    let endpoints = settings.endpoints_shared();
    let relay = Arc::new(Relay {
        pacer: Pacer {
            intervals: settings.intervals(),
            mailto: endpoints.mailto.is_some(),
            next: Mutex::new(HashMap::new()),
        },
        config: Config {
            endpoints,
            app_origin: origin.clone(),
        },
        client: Client::new(settings.timeout_ms),
        cache,
        index,
    });
    let server = tiny_http::Server::http(a.listen.as_str())
        .map_err(|e| Error::flag("--listen", format!("cannot listen on {}: {e}", a.listen)))?;
    let addr = server
        .server_addr()
        .to_ip()
        .map(|s| s.to_string())
        .unwrap_or_else(|| a.listen.clone());
    let prefixes: Vec<String> = relay::ROUTES.iter().map(|(p, _)| format!("/{p}")).collect();
    outln!(
        "relay on http://{addr} for pages of {origin}: {}",
        prefixes.join(" ")
    );
    let server = Arc::new(server);
    let workers: Vec<_> = (0..a.threads.max(1))
        .map(|_| {
            let (server, relay) = (server.clone(), relay.clone());
            std::thread::spawn(move || {
                while let Ok(req) = server.recv() {
                    relay.handle(req);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(0)
}

/// An origin as a browser sends it: a scheme, a host, maybe a port, no path.
fn check_origin(origin: &str) -> Result<(), String> {
    let rest = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .ok_or_else(|| {
            format!("“{origin}” is not an origin: it starts with https:// or http://")
        })?;
    if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ']) {
        return Err(format!(
            "“{origin}” is not an origin: a scheme and a host (and a port), no path"
        ));
    }
    Ok(())
}

fn header(k: &str, v: &str) -> Option<tiny_http::Header> {
    tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok()
}

impl Relay {
    fn handle(&self, mut req: tiny_http::Request) {
        let started = Instant::now();
        let origin = req
            .headers()
            .iter()
            .find(|h| h.field.equiv("origin"))
            .map(|h| h.value.as_str().to_string());
        let method = req.method().as_str().to_ascii_uppercase();
        let path = req.url().to_string();
        let cors = relay::cors_headers(&self.config, origin.as_deref());

        if method == "OPTIONS" {
            let asked = req
                .headers()
                .iter()
                .find(|h| h.field.equiv("access-control-request-method"))
                .map(|h| h.value.as_str().to_string());
            let resp = match relay::preflight(&self.config, origin.as_deref(), asked.as_deref()) {
                Ok(h) => with_headers(
                    tiny_http::Response::from_data(Vec::new()).with_status_code(204),
                    &h,
                ),
                Err(r) => refusal(&r, &[]),
            };
            log(&method, &path, resp.status_code().0, started);
            let _ = req.respond(resp);
            return;
        }

        let mut body = Vec::new();
        if method == "POST" {
            let limit = relay::MAX_REQUEST_BODY as u64 + 1;
            if req.as_reader().take(limit).read_to_end(&mut body).is_err() {
                let r = Refusal {
                    status: 400,
                    message: "the request body could not be read".into(),
                };
                let _ = req.respond(refusal(&r, &cors));
                return;
            }
        }
        let text = String::from_utf8_lossy(&body);
        if relay::is_index_path(&path) {
            let out = self.index_answer(&method, &text, &cors);
            log(&method, &path, out.status_code().0, started);
            let _ = req.respond(out);
            return;
        }
        let routed = relay::route(
            &self.config,
            &method,
            &path,
            (method == "POST").then_some(text.as_ref()),
        );
        let out = match routed {
            Err(r) => refusal(&r, &cors),
            Ok(out) => self.answer(&out, &cors),
        };
        log(&method, &path, out.status_code().0, started);
        let _ = req.respond(out);
    }

    /// The local index's answer to a page's questions (`POST /index`).
    fn index_answer(
        &self,
        method: &str,
        body: &str,
        cors: &[(String, String)],
    ) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
        let refused = |status: u16, message: String| refusal(&Refusal { status, message }, cors);
        let Some(index) = &self.index else {
            return refused(
                404,
                "this relay has no local index (start it with --index DIR)".into(),
            );
        };
        if method != "POST" {
            return refused(405, format!("the index route takes POST, not {method}"));
        }
        let query = match relay::read_index_query(body) {
            Ok(q) => q,
            Err(r) => return refusal(&r, cors),
        };
        let asks: Vec<(usize, citegate_core::resolve::Route, String)> = query
            .asks
            .into_iter()
            .map(|a| (a.slot, a.route, a.text))
            .collect();
        let looked = index
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .look_up(&asks, query.title_hits);
        match looked.map(|answers| serde_json::to_vec(&answers)) {
            Ok(Ok(json)) => {
                let mut h = cors.to_vec();
                h.push(("content-type".into(), "application/json".into()));
                with_headers(
                    tiny_http::Response::from_data(json).with_status_code(200),
                    &h,
                )
            }
            Ok(Err(e)) => refused(500, format!("the index's answer could not be written: {e}")),
            Err(e) => refused(500, format!("the local index could not be read: {e}")),
        }
    }

    /// The service's answer to `out` (or the cache's), with `cors`.
    fn answer(
        &self,
        out: &Request,
        cors: &[(String, String)],
    ) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
        if let Some(hit) = self
            .cache
            .as_ref()
            .and_then(|c| c.lock().unwrap_or_else(|p| p.into_inner()).get(out))
        {
            let mut h = cors.to_vec();
            h.push(("content-type".into(), "application/json".into()));
            h.push(("x-citegate-cache".into(), "hit".into()));
            let body = relay::mask_credentials(&self.config, hit.body.as_bytes());
            return with_headers(
                tiny_http::Response::from_data(body).with_status_code(hit.status),
                &h,
            );
        }
        self.pacer.wait(out);
        match self.client.forward(out, &relay::PASSED_HEADERS) {
            Err(message) => refusal(
                &Refusal {
                    status: 502,
                    message,
                },
                cors,
            ),
            Ok(f) => {
                if let (Some(cache), Ok(text)) = (&self.cache, std::str::from_utf8(&f.body)) {
                    let mut c = cache.lock().unwrap_or_else(|p| p.into_inner());
                    if c.put(out, f.status, text) {
                        if let Err(e) = c.save() {
                            eprintln!("warning: the cache could not be saved: {e}");
                        }
                    }
                }
                let mut h = f.headers;
                h.extend(cors.iter().cloned());
                let body = relay::mask_credentials(&self.config, &f.body);
                with_headers(
                    tiny_http::Response::from_data(body).with_status_code(f.status),
                    &h,
                )
            }
        }
    }
}

fn with_headers<R: Read>(
    mut resp: tiny_http::Response<R>,
    headers: &[(String, String)],
) -> tiny_http::Response<R> {
    for (k, v) in headers {
        if let Some(h) = header(k, v) {
            resp.add_header(h);
        }
    }
    resp
}

fn refusal(
    r: &Refusal,
    cors: &[(String, String)],
) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let mut h = cors.to_vec();
    h.push(("content-type".into(), "text/plain; charset=utf-8".into()));
    with_headers(
        tiny_http::Response::from_data(r.message.clone().into_bytes()).with_status_code(r.status),
        &h,
    )
}

/// One line per request on stderr: method, path (credentials masked),
/// status and time; never a key.
fn log(method: &str, path: &str, status: u16, started: Instant) {
    eprintln!(
        "{method} {} -> {status} ({} ms)",
        fetch::redact_url(path),
        started.elapsed().as_millis()
    );
}
