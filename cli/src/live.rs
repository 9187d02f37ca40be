//! Asking the services: settings from flags, a config file and the
//! environment; the response cache; and the one executor every live
//! subcommand drives its core step machine with.
//!
//! The core decides when a request may go out and whether a failure is
//! retried ([`citegate_core::fetch`]); the executor only sleeps until the
//! machine's `WaitUntil`, sends what `Send` gives through [`crate::http`],
//! and hands each reply back. Before sending it looks in the cache, and it
//! writes every definite answer to the cache as it arrives (a temporary file
//! renamed over the old one), so an interrupted run, rerun, asks again only
//! what was never answered.
//!
//! The cache file is the reference pipeline's `s2_cache.json`: one JSON
//! object whose Semantic Scholar entries are keyed by the normalized title
//! (lowercase, `a`–`z` and `0`–`9` only) with the raw search response as
//! value. Other requests share the file under the core's cache key
//! (`crossref|GET|https://…/works?…`, credentials removed) with
//! `{"status": N, "body": "…"}` as value; the reference script ignores them.
//! Only answers that say something about the work are kept, by the core's
//! rule ([`fetch::cache_keeps`]); a 404 also holds when it was fetched
//! (`fetched_at`, ms) and is asked again a week later. Keys are never written to it: the URL of a key is
//! stripped by the core, headers are not stored.

use crate::error::Error;
use crate::http::Client;
use citegate_core::fetch::queue::{Final, Next, Queue, QueueOptions, Reply};
use citegate_core::fetch::{self, RetryPolicy};
use citegate_core::resolve;
use citegate_core::works::request::{Endpoints, Request, S2_GRAPH_PATH};
use citegate_core::works::Service;
use clap::Args;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The services' API roots, the defaults of the `--*-base` flags: the
/// core's public endpoints ([`Endpoints::public`]), Semantic Scholar's
/// without its Graph path.
pub fn default_roots() -> [(&'static str, String); 6] {
    let ep = Endpoints::public();
    let s2 = ep
        .s2_base
        .strip_suffix(S2_GRAPH_PATH)
        .unwrap_or(&ep.s2_base)
        .to_string();
    [
        ("s2", s2),
        ("crossref", ep.crossref_base),
        ("openalex", ep.openalex_base),
        ("datacite", ep.datacite_base),
        ("dblp", ep.dblp_base),
        ("arxiv", ep.arxiv_base),
    ]
}

/// The flags every live subcommand takes.
#[derive(Args, Clone, Default, Debug)]
pub struct LiveArgs {
    /// Response cache in the reference `s2_cache.json` layout (read, and
    /// written as answers arrive); a rerun repeats no answered request
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Settings file (TOML, or JSON when it ends in .json): `timeout_ms`,
    /// `cache`, `index`, `[base]` and `[interval_ms]` tables keyed by service; flags win
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Connect and whole-request timeout per request, in ms [default: 30000]
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Spacing between requests per service, e.g. `s2=1000,crossref=200`
    /// [default: each service's documented limit]
    #[arg(long)]
    pub interval_ms: Option<String>,
    /// Tries per request on 429 and 5xx, the first included [default: 3]
    #[arg(long)]
    pub max_tries: Option<u32>,
    /// First back-off after a 5xx or a lost response, doubled per try, in ms [default: 1000]
    #[arg(long)]
    pub backoff_ms: Option<u64>,
    /// Wait after a 429 without a readable Retry-After, in ms [default: 5000]
    #[arg(long)]
    pub retry_after_ms: Option<u64>,
    /// Semantic Scholar API root [default: https://api.semanticscholar.org]
    #[arg(long)]
    pub s2_base: Option<String>,
    /// Crossref API root [default: https://api.crossref.org]
    #[arg(long)]
    pub crossref_base: Option<String>,
    /// OpenAlex API root [default: https://api.openalex.org]
    #[arg(long)]
    pub openalex_base: Option<String>,
    /// DataCite API root [default: https://api.datacite.org]
    #[arg(long)]
    pub datacite_base: Option<String>,
    /// DBLP root [default: https://dblp.org]
    #[arg(long)]
    pub dblp_base: Option<String>,
    /// arXiv API root [default: https://export.arxiv.org]
    #[arg(long)]
    pub arxiv_base: Option<String>,
}

/// The `--config` file.
#[derive(serde::Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    timeout_ms: Option<u64>,
    cache: Option<PathBuf>,
    index: Option<PathBuf>,
    max_tries: Option<u32>,
    backoff_ms: Option<u64>,
    retry_after_ms: Option<u64>,
    #[serde(default)]
    base: HashMap<String, String>,
    #[serde(default)]
    interval_ms: HashMap<String, u64>,
    /// Reviewer marks, read by `bibcheck` (bib_cmds::read_marks), so one
    /// `citegate.toml` serves both.
    #[serde(default)]
    #[allow(dead_code)]
    accept: Option<serde::de::IgnoredAny>,
}

/// Everything a live run needs, resolved.
pub struct Settings {
    roots: HashMap<&'static str, String>,
    s2_api_key: Option<String>,
    openalex_api_key: Option<String>,
    crossref_mailto: Option<String>,
    openalex_mailto: Option<String>,
    intervals: HashMap<&'static str, u64>,
    /// Per-request timeout in ms.
    pub timeout_ms: u64,
    /// Retry numbers.
    pub policy: RetryPolicy,
    /// The cache file, if any.
    pub cache: Option<PathBuf>,
    /// The local index of the config file (`index = "DIR"`), if any.
    pub index: Option<PathBuf>,
    backoff_given: Option<u64>,
}

fn service_name(name: &str) -> Option<&'static str> {
    let n = name.trim().to_ascii_lowercase();
    default_roots()
        .into_iter()
        .map(|(k, _)| k)
        .find(|k| *k == n)
        .or(match n.as_str() {
            "semantic_scholar" | "semanticscholar" => Some("s2"),
            _ => None,
        })
}

/// The short name of a core service, as flags and the config file spell it.
pub fn short_name(service: Service) -> &'static str {
    match service {
        Service::SemanticScholar | Service::Asta => "s2",
        Service::Crossref => "crossref",
        Service::OpenAlex => "openalex",
        Service::Arxiv => "arxiv",
        Service::DataCite => "datacite",
        Service::Dblp => "dblp",
    }
}

/// Every service a flag or the config file can name.
const SERVICES: [Service; 6] = [
    Service::SemanticScholar,
    Service::Crossref,
    Service::OpenAlex,
    Service::DataCite,
    Service::Dblp,
    Service::Arxiv,
];

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Reads `s2=1000,crossref=200`.
fn parse_intervals(text: &str) -> Result<Vec<(&'static str, u64)>, Error> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, ms)) = part.split_once('=') else {
            return Err(Error::flag(
                "--interval-ms",
                format!("`{part}` is not service=milliseconds"),
            ));
        };
        let service = service_name(name).ok_or_else(|| {
            Error::flag(
                "--interval-ms",
                format!("unknown service `{}`", name.trim()),
            )
        })?;
        let ms: u64 = ms.trim().parse().map_err(|_| {
            Error::flag("--interval-ms", format!("`{}` is not a number", ms.trim()))
        })?;
        out.push((service, ms));
    }
    Ok(out)
}

impl LiveArgs {
    /// Resolves flags over the config file over the defaults, with keys
    /// and contact addresses from the environment.
    pub fn settings(&self) -> Result<Settings, Error> {
        let file = match &self.config {
            Some(p) => read_config(p)?,
            None => ConfigFile::default(),
        };
        let mut roots: HashMap<&'static str, String> = default_roots().into_iter().collect();
        for (name, url) in &file.base {
            let s = service_name(name).ok_or_else(|| {
                Error::flag("--config", format!("unknown service `{name}` in [base]"))
            })?;
            roots.insert(s, url.clone());
        }
        for (s, flag) in [
            ("s2", &self.s2_base),
            ("crossref", &self.crossref_base),
            ("openalex", &self.openalex_base),
            ("datacite", &self.datacite_base),
            ("dblp", &self.dblp_base),
            ("arxiv", &self.arxiv_base),
        ] {
            if let Some(url) = flag {
                roots.insert(s, url.clone());
            }
        }
        for (s, url) in roots.iter_mut() {
            let flag = format!("--{s}-base");
            *url = citegate_core::settings::base_url(&flag, url)
                .map_err(|e| Error::flag(&flag, e.message))?;
        }
        let mut intervals: HashMap<&'static str, u64> = HashMap::new();
        for (name, ms) in &file.interval_ms {
            let s = service_name(name).ok_or_else(|| {
                Error::flag(
                    "--config",
                    format!("unknown service `{name}` in [interval_ms]"),
                )
            })?;
            intervals.insert(s, *ms);
        }
        if let Some(text) = &self.interval_ms {
            intervals.extend(parse_intervals(text)?);
        }
        let defaults = RetryPolicy::default();
        let policy = RetryPolicy {
            max_tries: self
                .max_tries
                .or(file.max_tries)
                .unwrap_or(defaults.max_tries)
                .max(1),
            default_retry_after_ms: self
                .retry_after_ms
                .or(file.retry_after_ms)
                .unwrap_or(defaults.default_retry_after_ms),
            backoff_ms: self
                .backoff_ms
                .or(file.backoff_ms)
                .unwrap_or(defaults.backoff_ms),
            max_wait_ms: defaults.max_wait_ms,
        };
        let mailto = env("PAPER_ORCHESTRA_MAILTO");
        Ok(Settings {
            roots,
            s2_api_key: env("S2_API_KEY"),
            openalex_api_key: env("OPENALEX_API_KEY"),
            crossref_mailto: env("CROSSREF_MAILTO").or_else(|| mailto.clone()),
            openalex_mailto: env("OPENALEX_MAILTO").or(mailto),
            intervals,
            timeout_ms: self.timeout_ms.or(file.timeout_ms).unwrap_or(30_000),
            policy,
            cache: self.cache.clone().or(file.cache),
            index: file.index,
            backoff_given: self.backoff_ms.or(file.backoff_ms),
        })
    }
}

fn read_config(path: &Path) -> Result<ConfigFile, Error> {
    let text = crate::io::read_text(path)?;
    let json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let parsed = if json {
        serde_json::from_str(&text).map_err(|e| e.to_string())
    } else {
        toml::from_str(&text).map_err(|e| e.to_string())
    };
    // TOML errors span several lines (position, excerpt, message): keep the
    // position and the message.
    parsed.map_err(|e| {
        let lines: Vec<&str> = e.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let first = lines.first().copied().unwrap_or("");
        let last = lines.last().copied().unwrap_or("");
        let text = if first == last {
            first.to_string()
        } else {
            format!("{first}: {last}")
        };
        Error::content(path, citegate_core::ErrorKind::Shape, text.to_lowercase())
    })
}

impl Settings {
    /// The API root of a service by short name.
    pub fn root(&self, name: &str) -> &str {
        self.roots.get(name).map(String::as_str).unwrap_or("")
    }

    /// The core's endpoints for requests to `service`: the base URLs, the
    /// keys (each request builder puts a key only into its own service's
    /// requests) and `service`'s own contact address.
    pub fn endpoints(&self, service: Service) -> Endpoints {
        let mut ep = self.endpoints_shared();
        ep.mailto = match service {
            Service::Crossref => self.crossref_mailto.clone(),
            Service::OpenAlex => self.openalex_mailto.clone(),
            _ => None,
        };
        ep
    }

    /// Endpoints for a run that asks several services (the resolver): one
    /// contact address for Crossref and OpenAlex, Crossref's if both are set.
    pub fn endpoints_shared(&self) -> Endpoints {
        let root = |n: &str| self.root(n).trim_end_matches('/').to_string();
        Endpoints {
            s2_base: format!("{}{S2_GRAPH_PATH}", root("s2")),
            openalex_base: root("openalex"),
            crossref_base: root("crossref"),
            datacite_base: root("datacite"),
            dblp_base: root("dblp"),
            arxiv_base: root("arxiv"),
            s2_api_key: self.s2_api_key.clone(),
            openalex_api_key: self.openalex_api_key.clone(),
            mailto: self
                .crossref_mailto
                .clone()
                .or_else(|| self.openalex_mailto.clone()),
        }
    }

    /// Spacing overrides by service.
    pub fn intervals(&self) -> HashMap<Service, u64> {
        SERVICES
            .iter()
            .filter_map(|s| self.intervals.get(short_name(*s)).map(|ms| (*s, *ms)))
            .collect()
    }

    /// First wait after an unreadable Semantic Scholar answer: `--backoff-ms`
    /// when given, else the core's default.
    pub fn s2_backoff_ms(&self) -> u64 {
        self.backoff_given
            .unwrap_or(fetch::S2_UNREADABLE_BACKOFF_MS)
    }

    /// Options of a queue of single requests.
    pub fn queue_options(&self) -> QueueOptions {
        QueueOptions {
            policy: self.policy,
            s2_backoff_ms: self.s2_backoff_ms(),
            mailto: self.crossref_mailto.is_some(),
            s2_interval_ms: self
                .intervals
                .get("s2")
                .copied()
                .unwrap_or(fetch::DEFAULT_S2_INTERVAL_MS),
            intervals_ms: self.intervals(),
        }
    }

    /// Options of a resolver run on this machine.
    pub fn resolve_options(&self) -> resolve::Options {
        let mut o = resolve::Options::new(self.endpoints_shared(), resolve::Surface::Native);
        let q = self.queue_options();
        o.s2_interval_ms = q.s2_interval_ms;
        o.s2_backoff_ms = q.s2_backoff_ms;
        o.retry = q.policy;
        o.intervals_ms = q.intervals_ms.into_iter().collect();
        o
    }
}

/// The system clock in milliseconds since the Unix epoch (0 before it).
pub(crate) fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

/// The response cache; see the module documentation.
pub struct Cache {
    path: PathBuf,
    map: Map<String, Value>,
}

impl Cache {
    /// Reads `path`; an absent file is an empty cache, an unreadable one an
    /// error (overwriting it would lose a workspace's answers).
    pub fn load(path: &Path) -> Result<Cache, Error> {
        let map = if path.exists() {
            let text = crate::io::read_text(path)?;
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(m)) => m,
                _ => {
                    return Err(Error::content(
                        path,
                        citegate_core::ErrorKind::Shape,
                        "not a JSON object; is it an s2_cache.json?",
                    ))
                }
            }
        } else {
            Map::new()
        };
        Ok(Cache {
            path: path.to_path_buf(),
            map,
        })
    }

    /// The stored answer to `req`, if any.
    pub fn get(&self, req: &Request) -> Option<Reply> {
        if let Some(title) = fetch::s2_title_search(req) {
            let v = self.map.get(&title)?;
            return Some(Reply {
                status: 200,
                body: v.to_string(),
                ..Reply::default()
            });
        }
        let v = self.map.get(&fetch::cache_key(req))?;
        let status = v
            .get("status")?
            .as_u64()
            .and_then(|s| u16::try_from(s).ok())?;
        let fetched_at = v.get("fetched_at").and_then(Value::as_f64);
        if !fetch::cache_fresh(status, fetched_at, now_ms()) {
            return None;
        }
        let body = v.get("body")?.as_str()?.to_string();
        Some(Reply {
            status,
            body,
            ..Reply::default()
        })
    }

    /// Stores an answer the core's rule keeps ([`fetch::cache_keeps`]);
    /// returns whether it was stored. A 404 carries the time it was
    /// fetched, so that it expires ([`fetch::cache_fresh`]).
    pub fn put(&mut self, req: &Request, status: u16, body: &str) -> bool {
        if !fetch::cache_keeps(req.service, status, body) {
            return false;
        }
        if let Some(title) = fetch::s2_title_search(req) {
            let Some(v) = (status == 200)
                .then(|| serde_json::from_str::<Value>(body).ok())
                .flatten()
            else {
                return false;
            };
            self.map.insert(title, v);
        } else if status == 404 {
            self.map.insert(
                fetch::cache_key(req),
                serde_json::json!({"status": status, "body": body, "fetched_at": now_ms()}),
            );
        } else {
            self.map.insert(
                fetch::cache_key(req),
                serde_json::json!({"status": status, "body": body}),
            );
        }
        true
    }

    /// Writes the file, safe beside other processes sharing it (two CLI
    /// runs, a relay and a run): under an exclusive lock on a sidecar
    /// `.NAME.lock`, the file as it is now on disk is read and its answers
    /// this process lacks are taken in (ours win where both have one), then
    /// the whole is written to a temporary file next to it and renamed over
    /// it, so a reader sees the old file or the new one, never half of one,
    /// and no writer drops another's answers.
    pub fn save(&mut self) -> std::io::Result<()> {
        let dir = self
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        std::fs::create_dir_all(&dir)?;
        let name = self
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("cache.json")
            .to_string();
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(format!(".{name}.lock")))?;
        lock.lock()?;
        // What another process wrote since: an unreadable file is left to
        // be replaced only by what this process holds (load refused it).
        if let Ok(text) = std::fs::read_to_string(&self.path) {
            if let Ok(Value::Object(theirs)) = serde_json::from_str::<Value>(&text) {
                for (k, v) in theirs {
                    self.map.entry(k).or_insert(v);
                }
            }
        }
        let text = serde_json::to_string_pretty(&self.map)?;
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let written =
            std::fs::write(&tmp, text + "\n").and_then(|()| std::fs::rename(&tmp, &self.path));
        if written.is_err() {
            // A full disk: the old file stays whole; no stray temporary.
            let _ = std::fs::remove_file(&tmp);
        }
        let unlocked = lock.unlock();
        written.and(unlocked)
    }
}

/// A core step machine the executor can drive.
pub trait Machine {
    /// What to do at `now_ms`.
    fn next(&mut self, now_ms: f64) -> Next;
    /// The reply to send `id`.
    fn answer(&mut self, id: u64, reply: Reply, now_ms: f64);
    /// `(done, total)` for the progress line.
    fn progress(&self) -> (usize, usize);
}

impl Machine for Queue {
    fn next(&mut self, now_ms: f64) -> Next {
        Queue::next(self, now_ms)
    }
    fn answer(&mut self, id: u64, reply: Reply, now_ms: f64) {
        Queue::answer(self, id, reply, now_ms)
    }
    fn progress(&self) -> (usize, usize) {
        Queue::progress(self)
    }
}

impl Machine for resolve::Run {
    fn next(&mut self, now_ms: f64) -> Next {
        match resolve::Run::next(self, now_ms) {
            resolve::Next::Send(out) => Next::Send(
                out.into_iter()
                    .map(|o| citegate_core::fetch::queue::Outgoing {
                        id: o.id,
                        request: o.request,
                    })
                    .collect(),
            ),
            resolve::Next::WaitUntil(t) => Next::WaitUntil(t),
            // A sequential executor has answered everything it sent.
            resolve::Next::AwaitReplies => Next::WaitUntil(now_ms),
            resolve::Next::Done => Next::Done,
        }
    }
    fn answer(&mut self, id: u64, reply: Reply, now_ms: f64) {
        let r = resolve::Reply {
            offline: reply.status == 0 && reply.body == resolve::OFFLINE,
            status: reply.status,
            body: reply.body,
            retry_after_ms: reply.retry_after_ms,
            blocked_by_policy: reply.blocked_by_policy,
        };
        resolve::Run::answer(self, id, r, now_ms)
    }
    fn progress(&self) -> (usize, usize) {
        resolve::Run::progress(self)
    }
}

/// Puts `service`'s own contact address into a request that carries one.
///
/// A resolver run builds every request from one [`Endpoints`], so it has one
/// `mailto` for Crossref and OpenAlex; when `CROSSREF_MAILTO` and
/// `OPENALEX_MAILTO` differ, each service still gets its own. Requests
/// without a `mailto` parameter are left as the core built them.
fn with_contact(req: &mut Request, contacts: &HashMap<Service, String>) {
    let Some(contact) = contacts.get(&req.service) else {
        return;
    };
    let Some((base, query)) = req.url.split_once('?') else {
        return;
    };
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if !pairs.iter().any(|(k, v)| k == "mailto" && v != contact) {
        return;
    }
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in &pairs {
        ser.append_pair(k, if k == "mailto" { contact } else { v });
    }
    req.url = format!("{base}?{}", ser.finish());
}

/// Whether progress is drawn: not when `quiet` (e.g. `--json`), nor when
/// stderr is not a terminal.
fn shows_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A progress bar with an ETA on stderr, labelled `what`.
fn new_bar(what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} elapsed {elapsed} eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

/// The progress bar of a driver that counts its own items (the length is
/// the caller's to set), or `None` when progress is not drawn.
pub fn progress_bar(what: &str, quiet: bool) -> Option<indicatif::ProgressBar> {
    shows_progress(quiet).then(|| new_bar(what))
}

/// Sends, sleeps, caches and shows progress; one per run.
pub struct Executor {
    contacts: HashMap<Service, String>,
    client: Client,
    cache: Option<Cache>,
    clock: Instant,
    show_progress: bool,
    /// Requests that went to the network.
    pub sent: usize,
    /// Requests answered from the cache.
    pub from_cache: usize,
    /// Send nothing: a request the cache cannot answer gets
    /// [`resolve::OFFLINE`] as its reply (status 0).
    pub offline: bool,
}

impl Executor {
    /// An executor for `settings`; `quiet` (e.g. `--json`) hides progress,
    /// which is also hidden when stderr is not a terminal.
    pub fn new(settings: &Settings, quiet: bool) -> Result<Executor, Error> {
        let cache = match &settings.cache {
            Some(p) => Some(Cache::load(p)?),
            None => None,
        };
        let mut contacts = HashMap::new();
        for (service, m) in [
            (Service::Crossref, &settings.crossref_mailto),
            (Service::OpenAlex, &settings.openalex_mailto),
        ] {
            if let Some(m) = m {
                contacts.insert(service, m.clone());
            }
        }
        Ok(Executor {
            contacts,
            client: Client::new(settings.timeout_ms),
            cache,
            clock: Instant::now(),
            show_progress: shows_progress(quiet),
            sent: 0,
            from_cache: 0,
            offline: false,
        })
    }

    fn now(&self) -> f64 {
        self.clock.elapsed().as_secs_f64() * 1000.0
    }

    /// The cached answer to `req`, counted.
    pub fn cached(&mut self, req: &Request) -> Option<Reply> {
        let r = self.cache.as_ref()?.get(req)?;
        self.from_cache += 1;
        Some(r)
    }

    /// Runs `machine` to `Done`; `what` labels the progress line.
    pub fn drive(&mut self, machine: &mut impl Machine, what: &str) {
        let bar = self.show_progress.then(|| new_bar(what));
        loop {
            if let Some(b) = &bar {
                let (done, total) = machine.progress();
                b.set_length(total as u64);
                b.set_position(done as u64);
            }
            let now = self.now();
            match machine.next(now) {
                Next::Done => break,
                Next::WaitUntil(t) => {
                    let ms = (t - now).clamp(1.0, 3_600_000.0);
                    std::thread::sleep(Duration::from_secs_f64(ms / 1000.0));
                }
                Next::Send(out) => {
                    for mut o in out {
                        with_contact(&mut o.request, &self.contacts);
                        let reply = match self.cached(&o.request) {
                            Some(r) => r,
                            None if self.offline => Reply {
                                status: 0,
                                body: resolve::OFFLINE.to_string(),
                                ..Reply::default()
                            },
                            None => {
                                self.sent += 1;
                                let r = self.client.send(&o.request);
                                self.store(&o.request, &r);
                                r
                            }
                        };
                        let now = self.now();
                        machine.answer(o.id, reply, now);
                    }
                }
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }

    fn store(&mut self, req: &Request, reply: &Reply) {
        let Some(cache) = self.cache.as_mut() else {
            return;
        };
        if cache.put(req, reply.status, &reply.body) {
            if let Err(e) = cache.save() {
                eprintln!(
                    "warning: cannot write the cache {}: {}",
                    cache.path.display(),
                    e.to_string().to_lowercase()
                );
            }
        }
    }
}

/// A queue and its executor: requests in, final answers out, in order.
/// The queue lives as long as the fetcher, so the spacing holds across
/// calls (a second phase planned from the first's answers).
pub struct Fetcher {
    /// The executor (counts, cache).
    pub exec: Executor,
    queue: Queue,
}

impl Fetcher {
    /// A fetcher for `settings`.
    pub fn new(settings: &Settings, quiet: bool) -> Result<Fetcher, Error> {
        Ok(Fetcher {
            exec: Executor::new(settings, quiet)?,
            queue: Queue::new(settings.queue_options()),
        })
    }

    /// Fetches every request (cache first) and returns their final answers.
    pub fn fetch(&mut self, requests: Vec<Request>, what: &str) -> Vec<Final> {
        enum Slot {
            Cached(Final),
            Queued(usize),
        }
        let slots: Vec<Slot> = requests
            .into_iter()
            .map(|r| match self.exec.cached(&r) {
                Some(reply) => Slot::Cached(Final {
                    status: reply.status,
                    body: reply.body,
                    tries: 0,
                }),
                None => Slot::Queued(self.queue.push(r)),
            })
            .collect();
        self.exec.drive(&mut self.queue, what);
        slots
            .into_iter()
            .map(|s| match s {
                Slot::Cached(f) => f,
                Slot::Queued(i) => self.queue.result(i).cloned().unwrap_or(Final {
                    status: 0,
                    body: "no answer".into(),
                    tries: 0,
                }),
            })
            .collect()
    }

    /// Fetches one request.
    pub fn one(&mut self, request: Request, what: &str) -> Final {
        self.fetch(vec![request], what).pop().unwrap_or(Final {
            status: 0,
            body: "no answer".into(),
            tries: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use citegate_core::works::request::{lookup, WorkId};

    #[test]
    fn a_cached_not_found_answer_is_asked_again_after_a_week() {
        let dir = std::env::temp_dir().join(format!("citegate-live-{}", std::process::id()));
        let mut cache = Cache::load(&dir.join("cache.json")).unwrap();
        let req = lookup(
            Service::Crossref,
            &Endpoints::public(),
            &WorkId::Doi("10.1234/missing".into()),
        )
        .unwrap();
        assert!(cache.put(&req, 404, "Resource not found."));
        assert_eq!(cache.get(&req).map(|r| r.status), Some(404));
        // Fetched eight days ago: expired.
        let key = fetch::cache_key(&req);
        let eight_days = 8.0 * 24.0 * 3600.0 * 1000.0;
        cache.map[&key]["fetched_at"] = Value::from(now_ms() - eight_days);
        assert!(cache.get(&req).is_none());
        // Written before 404s expired (no time): asked again too.
        cache
            .map
            .insert(key, serde_json::json!({"status": 404, "body": ""}));
        assert!(cache.get(&req).is_none());
        // A success stays, and a rate limit is never kept.
        assert!(cache.put(&req, 200, "{\"message\": {}}"));
        assert_eq!(cache.get(&req).map(|r| r.status), Some(200));
        assert!(!cache.put(&req, 429, "{}"));
    }

    #[test]
    fn processes_sharing_a_cache_file_keep_each_others_answers() {
        // Regression: each process wrote the map it loaded, so the last
        // writer dropped every answer another had saved since.
        let dir = std::env::temp_dir().join(format!("citegate-shared-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("cache.json");
        let ask = |doi: &str| {
            lookup(
                Service::Crossref,
                &Endpoints::public(),
                &WorkId::Doi(doi.into()),
            )
            .unwrap()
        };
        let (a, b) = (ask("10.1234/a"), ask("10.1234/b"));
        let mut first = Cache::load(&path).unwrap();
        let mut second = Cache::load(&path).unwrap();
        assert!(first.put(&a, 200, "{\"message\": {\"DOI\": \"10.1234/a\"}}"));
        first.save().unwrap();
        assert!(second.put(&b, 200, "{\"message\": {\"DOI\": \"10.1234/b\"}}"));
        second.save().unwrap();
        let merged = Cache::load(&path).unwrap();
        assert!(
            merged.get(&a).is_some(),
            "the first process's answer was dropped"
        );
        assert!(merged.get(&b).is_some());
        // The second process learned the first's answer too.
        assert!(second.get(&a).is_some());
        // Nothing is left beside the file but its lock.
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, [".cache.json.lock", "cache.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
