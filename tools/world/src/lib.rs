//! A small scholarly world: five services answering from one file of records.
//!
//! [`World::from_jsonl`] reads records (`{"type", "fields": {title, author,
//! year, booktitle|journal, doi, url, note, pmid}}`, one a line, as DBLP's
//! BibTeX export writes them) and [`World::respond`] answers HTTP requests
//! the way Semantic Scholar, Crossref, OpenAlex, DataCite and DBLP do, each
//! under its own path prefix (`/s2`, `/crossref`, `/openalex`, `/datacite`,
//! `/dblp`) so that one loopback server stands in for every service root.
//!
//! Each service renders a record as it renders its own (see [`render`]):
//! Semantic Scholar's long venue names and names without DBLP's homonym
//! numbers, Crossref's `given`/`family` split, lowercased DOIs and
//! IEEE-style proceedings titles, OpenAlex's `https://doi.org/` DOIs and
//! source names, DataCite's `Family, Given` creators, DBLP's trailing title
//! period and single-author objects. So an entry copied from DBLP never
//! matches the record byte for byte, as in life.
//!
//! Search is fuzzy where the real service is: a title query ranks records by
//! the shared words, weighted by rarity, and returns the nearest ones even
//! when no title is equal. DBLP's search is a conjunction of word prefixes,
//! as DBLP's is. Which service knows which record follows the registries:
//! Crossref only DOIs it registers, DataCite arXiv's and Zenodo's DOIs, DBLP
//! only its own records; Semantic Scholar and OpenAlex know everything.
//! The world never sees labels: it is only a list of real records.

pub mod render;
pub mod unkind;

pub use unkind::{Service, Unkind};

use serde_json::Value;
use std::collections::HashMap;

/// One record of the world.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// BibTeX type (`inproceedings`, `article`, `misc`).
    pub kind: String,
    /// Title as DBLP gives it (no trailing period).
    pub title: String,
    /// Authors as DBLP gives them (`Wei Chen 0001`).
    pub authors: Vec<String>,
    /// Year.
    pub year: Option<i32>,
    /// Venue as DBLP abbreviates it (`NeurIPS`, `Mach. Learn.`).
    pub venue: Option<String>,
    /// DOI as deposited.
    pub doi: Option<String>,
    /// arXiv id, from the DOI or URL.
    pub arxiv: Option<String>,
    /// PubMed id.
    pub pmid: Option<String>,
    /// DBLP key (`conf/nips/AbbasS21`), from the URL.
    pub dblp_key: Option<String>,
    /// Whether the record is a preprint (a `misc` with an arXiv id, or a preprint server).
    pub preprint: bool,
    /// The registration agency of the DOI when neither Crossref nor DataCite
    /// (`JaLC`, `mEDRA`, `KISTI`; the world file's `agency` field).
    pub agency: Option<String>,
    /// The other version of the work (preprint ↔ published), in an unkind world.
    pub sibling: Option<usize>,
    /// Semantic Scholar paperId (40 hex digits, derived).
    pub s2_id: String,
    /// OpenAlex id (`W…`, derived).
    pub openalex_id: String,
}

/// The world: records plus their indexes.
#[derive(Debug, Default)]
pub struct World {
    records: Vec<Record>,
    by_doi: HashMap<String, usize>,
    by_arxiv: HashMap<String, usize>,
    by_s2: HashMap<String, usize>,
    by_openalex: HashMap<String, usize>,
    words: HashMap<String, Vec<usize>>,
    title_words: Vec<Vec<String>>,
    unkind: Unkind,
}

/// An HTTP answer: status, headers, body.
pub type Answer = (u16, Vec<(String, String)>, String);

fn hash(text: &str, seed: u64) -> u64 {
    // FNV-1a: stable ids from record contents.
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn s2_id(key: &str) -> String {
    format!(
        "{:016x}{:016x}{:08x}",
        hash(key, 1),
        hash(key, 2),
        hash(key, 3) as u32
    )
}

fn openalex_id(key: &str) -> String {
    format!("W{}", 4_000_000_000u64 + hash(key, 4) % 1_000_000_000)
}

/// Lowercase alphanumeric words of a text (accents kept as letters).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// An arXiv id without its version (`2602.12253v1` → `2602.12253`).
pub fn strip_version(id: &str) -> String {
    match id.rfind('v') {
        Some(p)
            if p > 0
                && id[p + 1..].bytes().all(|b| b.is_ascii_digit())
                && p + 1 < id.len()
                && id.as_bytes()[p - 1].is_ascii_digit() =>
        {
            id[..p].to_string()
        }
        _ => id.to_string(),
    }
}

fn arxiv_of(doi: Option<&str>, url: Option<&str>) -> Option<String> {
    if let Some(d) = doi {
        let l = d.to_lowercase();
        if let Some(rest) = l.strip_prefix("10.48550/arxiv.") {
            return Some(strip_version(rest));
        }
    }
    let u = url?;
    let pos = u.find("arxiv.org/abs/")?;
    Some(strip_version(&u[pos + "arxiv.org/abs/".len()..]))
}

impl Record {
    fn from_json(v: &Value, n: usize) -> Option<Record> {
        let f = v.get("fields")?;
        let s = |k: &str| {
            f.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
        };
        let title = s("title")?;
        let authors: Vec<String> = s("author")
            .map(|a| {
                a.split(" and ")
                    .map(|x| x.trim().to_string())
                    // "and others" in a DBLP export marks a cut list, not a person.
                    .filter(|x| !x.is_empty() && !x.eq_ignore_ascii_case("others"))
                    .collect()
            })
            .unwrap_or_default();
        let url = s("url");
        let doi = s("doi");
        // DBLP writes CoRR papers as `journal = CoRR, volume = abs/2101.00001`.
        let arxiv = arxiv_of(doi.as_deref(), url.as_deref())
            .or_else(|| s("eprint").map(|e| strip_version(e.trim_start_matches("arXiv:"))))
            .or_else(|| {
                s("volume")
                    .and_then(|v| v.strip_prefix("abs/").map(str::to_string))
                    .map(|v| strip_version(&v))
            });
        let venue = s("booktitle").or_else(|| s("journal"));
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("misc")
            .to_lowercase();
        let preprint = venue
            .as_deref()
            .is_some_and(|x| x.to_lowercase().contains("rxiv") || x.eq_ignore_ascii_case("corr"))
            || (venue.is_none() && arxiv.is_some());
        let dblp_key = url
            .as_deref()
            .and_then(|u| u.split_once("dblp.org/rec/"))
            .map(|(_, k)| k.to_string());
        let key = format!("{title}|{n}");
        Some(Record {
            kind,
            year: s("year").and_then(|y| y.get(..4).and_then(|y| y.parse().ok())),
            s2_id: s2_id(&key),
            openalex_id: openalex_id(&key),
            title,
            authors,
            venue,
            doi,
            arxiv,
            pmid: s("pmid"),
            dblp_key,
            preprint,
            agency: s("agency"),
            sibling: None,
        })
    }

    /// Whether the DOI is registered with DataCite (arXiv, Zenodo) rather than Crossref.
    pub fn datacite_doi(&self) -> bool {
        self.doi.as_deref().is_some_and(|d| {
            let l = d.to_lowercase();
            l.starts_with("10.48550/") || l.starts_with("10.5281/")
        })
    }

    /// Whether Crossref knows the record (it holds only the DOIs it registers).
    pub fn in_crossref(&self) -> bool {
        self.doi.is_some() && !self.datacite_doi()
    }

    /// Whether DBLP knows the record.
    pub fn in_dblp(&self) -> bool {
        self.dblp_key.is_some()
    }
}

/// The query parameters of a URL, decoded.
fn params(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn param<'a>(ps: &'a [(String, String)], name: &str) -> Option<&'a str> {
    ps.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn percent_decode(path: &str) -> String {
    // Path segments: decode %XX like the services do before routing.
    form_urlencoded::parse(format!("x={}", path.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

fn json(status: u16, body: Value) -> Answer {
    (
        status,
        vec![("content-type".into(), "application/json".into())],
        body.to_string(),
    )
}

fn text(status: u16, body: &str) -> Answer {
    (
        status,
        vec![("content-type".into(), "text/plain".into())],
        body.to_string(),
    )
}

/// A DOI's lookup key: bare, lowercase, without an arXiv version.
pub fn doi_key(doi: &str) -> String {
    let mut d = doi.trim().to_lowercase();
    for p in [
        "https://doi.org/",
        "http://doi.org/",
        "https://dx.doi.org/",
        "doi.org/",
        "doi:",
    ] {
        if let Some(rest) = d.strip_prefix(p) {
            d = rest.to_string();
        }
    }
    if let Some(rest) = d.strip_prefix("10.48550/arxiv.") {
        d = format!("10.48550/arxiv.{}", strip_version(rest));
    }
    d
}

impl World {
    /// Reads a world file (one JSON record a line); lines that are not records are skipped.
    pub fn from_jsonl(text: &str) -> World {
        World::from_jsonl_with(text, Unkind::kind())
    }

    /// Reads a world file into a world as unkind as `unkind` says: with it
    /// off, the same world as [`World::from_jsonl`].
    pub fn from_jsonl_with(text: &str, unkind: Unkind) -> World {
        let mut w = World {
            unkind,
            ..World::default()
        };
        let mut read = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if let Some(r) = Record::from_json(&v, read) {
                read += 1;
                let published = w.records.len();
                let preprint = unkind::preprint_of(&unkind, &r, published);
                w.add(r);
                if let Some(mut p) = preprint {
                    p.sibling = Some(published);
                    w.records[published].sibling = Some(published + 1);
                    w.add(p);
                }
            }
        }
        w
    }

    /// Whether `svc` holds the record at all (lookups and searches).
    fn sees(&self, r: &Record, svc: Service) -> bool {
        if self.unkind.missing_from(r, svc) {
            return false;
        }
        match svc {
            // Semantic Scholar merges a preprint into its published paper.
            Service::S2 => !(r.preprint && r.sibling.is_some()),
            Service::Crossref => r.in_crossref() && !self.regional(r),
            Service::DataCite => r.datacite_doi(),
            Service::Dblp => r.in_dblp(),
            Service::OpenAlex | Service::Arxiv => true,
        }
    }

    /// Whether the record's DOI is one no service here resolves.
    fn regional(&self, r: &Record) -> bool {
        self.unkind.regional_dois && r.agency.is_some()
    }

    /// A record found by its DOI at `svc`.
    fn doi_at(&self, doi: &str, svc: Service) -> Option<&Record> {
        self.by_doi(doi)
            .filter(|r| self.sees(r, svc) && !self.regional(r))
    }

    /// The record as `svc` shows it: its name forms, and at Semantic Scholar
    /// the arXiv id of a merged preprint.
    fn view(&self, r: &Record, svc: Service) -> Record {
        let mut v = r.clone();
        if self.unkind.is_kind() {
            return v;
        }
        v.authors = self.unkind.names_for(r, svc);
        if svc == Service::S2 && !r.preprint {
            if let Some(p) = r.sibling.and_then(|i| self.records.get(i)) {
                v.arxiv = p.arxiv.clone();
            }
        }
        v
    }

    /// Records `svc` ranks for a title query, best first, after the
    /// neighbour draw (a neighbour may come first).
    fn ranked(&self, q: &str, svc: Service, filter: impl Fn(&Record) -> bool) -> Vec<(f64, usize)> {
        let mut out = self.search(q, |r| self.sees(r, svc) && filter(r));
        if out.len() >= 2 && self.unkind.neighbour_first(q, svc) {
            out.swap(0, 1);
        }
        out
    }

    fn render_crossref(&self, r: &Record) -> Value {
        let mut v = render::crossref(&self.view(r, Service::Crossref));
        let (title, subtitle) = self.unkind.crossref_title(r);
        v["title"] = serde_json::json!([title]);
        if let Some(s) = subtitle {
            v["subtitle"] = serde_json::json!([s]);
        }
        v
    }

    fn add(&mut self, r: Record) {
        let i = self.records.len();
        if let Some(d) = &r.doi {
            self.by_doi.entry(doi_key(d)).or_insert(i);
        }
        if let Some(a) = &r.arxiv {
            self.by_arxiv.entry(a.to_lowercase()).or_insert(i);
        }
        self.by_s2.insert(r.s2_id.clone(), i);
        self.by_openalex.insert(r.openalex_id.to_lowercase(), i);
        let mut ws = words(&r.title);
        ws.sort();
        ws.dedup();
        for t in &ws {
            self.words.entry(t.clone()).or_default().push(i);
        }
        self.title_words.push(ws);
        self.records.push(r);
    }

    /// The records.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    fn idf(&self, word: &str) -> f64 {
        let df = self.words.get(word).map_or(0, Vec::len) as f64;
        ((self.records.len() as f64 + 1.0) / (df + 0.5))
            .ln()
            .max(0.05)
    }

    /// Records ranked by title similarity to `query`, best first: the
    /// rarity-weighted share of words in common (Dice over idf weights).
    /// Records sharing no word are not returned.
    pub fn search(&self, query: &str, filter: impl Fn(&Record) -> bool) -> Vec<(f64, usize)> {
        let mut q = words(query);
        q.sort();
        q.dedup();
        let qw: f64 = q.iter().map(|t| self.idf(t)).sum();
        let mut common: HashMap<usize, f64> = HashMap::new();
        for t in &q {
            if let Some(ids) = self.words.get(t) {
                let w = self.idf(t);
                for &i in ids {
                    *common.entry(i).or_default() += w;
                }
            }
        }
        let mut out: Vec<(f64, usize)> = common
            .into_iter()
            .filter(|(i, _)| filter(&self.records[*i]))
            .map(|(i, c)| {
                let rw: f64 = self.title_words[i].iter().map(|t| self.idf(t)).sum();
                (2.0 * c / (qw + rw).max(1e-9), i)
            })
            .collect();
        out.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        out
    }

    fn by_doi(&self, doi: &str) -> Option<&Record> {
        self.by_doi.get(&doi_key(doi)).map(|&i| &self.records[i])
    }

    /// Answers one request. `url` may be absolute or a path with its query.
    pub fn respond(&self, method: &str, url: &str, body: &str) -> Answer {
        let path_q = match url.find("://") {
            Some(p) => url[p + 3..].find('/').map_or("/", |s| &url[p + 3 + s..]),
            None => url,
        };
        let (path, query) = path_q.split_once('?').unwrap_or((path_q, ""));
        let ps = params(query);
        let post = method.eq_ignore_ascii_case("POST");
        if let Some(rest) = path.strip_prefix("/s2") {
            self.s2(rest, &ps, post, body)
        } else if let Some(rest) = path.strip_prefix("/crossref") {
            self.crossref(rest, &ps)
        } else if let Some(rest) = path.strip_prefix("/openalex") {
            self.openalex(rest, &ps)
        } else if let Some(rest) = path.strip_prefix("/datacite") {
            self.datacite(rest, &ps)
        } else if let Some(rest) = path.strip_prefix("/arxiv") {
            self.arxiv(rest, &ps)
        } else if let Some(rest) = path.strip_prefix("/dblp") {
            self.dblp(rest, &ps)
        } else {
            text(404, "no such service in this world")
        }
    }

    fn s2_lookup(&self, id: &str) -> Option<&Record> {
        let id = id.trim();
        let (kind, val) = id.split_once(':').unwrap_or(("", id));
        let arxiv = |a: &str| self.by_arxiv.get(&strip_version(a).to_lowercase()).copied();
        let found = match kind.to_ascii_uppercase().as_str() {
            "DOI" => self
                .by_doi
                .get(&doi_key(val))
                .copied()
                .filter(|&i| !self.regional(&self.records[i])),
            "ARXIV" => arxiv(val),
            "" => self.by_s2.get(val).copied(),
            "URL" => {
                let v = val.to_lowercase();
                v.split_once("arxiv.org/abs/")
                    .and_then(|(_, a)| arxiv(a))
                    .or_else(|| {
                        v.split_once("doi.org/")
                            .and_then(|(_, d)| self.by_doi.get(&doi_key(d)).copied())
                    })
            }
            _ => None,
        }?;
        // Semantic Scholar answers a merged preprint's ids with its paper.
        let r = &self.records[found];
        let r = match r.sibling {
            Some(p) if r.preprint => &self.records[p],
            _ => r,
        };
        self.sees(r, Service::S2).then_some(r)
    }

    fn s2(&self, path: &str, ps: &[(String, String)], post: bool, body: &str) -> Answer {
        let fields = param(ps, "fields");
        let Some(rest) = path.strip_prefix("/graph/v1/paper") else {
            return json(404, serde_json::json!({"error": "Not found"}));
        };
        if post && rest == "/batch" {
            let ids: Vec<String> = serde_json::from_str::<Value>(body)
                .ok()
                .and_then(|v| v.get("ids").cloned())
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default();
            if ids.is_empty() {
                return json(
                    400,
                    serde_json::json!({"error": "Unacceptable request body: ids must be a non-empty list"}),
                );
            }
            let out: Vec<Value> = ids
                .iter()
                .map(|id| {
                    self.s2_lookup(id).map_or(Value::Null, |r| {
                        render::s2(&self.view(r, Service::S2), fields)
                    })
                })
                .collect();
            return json(200, Value::Array(out));
        }
        if rest == "/search" || rest == "/search/match" {
            let q = param(ps, "query").unwrap_or("").trim();
            if q.is_empty() {
                return json(
                    400,
                    serde_json::json!({"error": "Missing required parameter: 'query'"}),
                );
            }
            let year = param(ps, "year").map(year_range);
            let ranked = self.ranked(q, Service::S2, |r| {
                year.is_none_or(|(a, b)| r.year.is_some_and(|y| y >= a && y <= b))
            });
            if rest == "/search/match" {
                // The match endpoint returns the single best title, or 404.
                return match ranked.first().filter(|(s, _)| *s >= 0.5) {
                    Some(&(s, i)) => {
                        let mut v = render::s2(&self.view(&self.records[i], Service::S2), fields);
                        v["matchScore"] = serde_json::json!((s * 200.0 * 1000.0).round() / 1000.0);
                        json(200, serde_json::json!({"data": [v]}))
                    }
                    None => json(404, serde_json::json!({"error": "Title match not found"})),
                };
            }
            let limit = param(ps, "limit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(10usize)
                .min(100);
            let offset = param(ps, "offset")
                .and_then(|l| l.parse().ok())
                .unwrap_or(0usize);
            let data: Vec<Value> = ranked
                .iter()
                .skip(offset)
                .take(limit)
                .map(|&(_, i)| render::s2(&self.view(&self.records[i], Service::S2), fields))
                .collect();
            let mut out = serde_json::json!({"total": ranked.len(), "offset": offset});
            if !data.is_empty() {
                if offset + data.len() < ranked.len() {
                    out["next"] = serde_json::json!(offset + data.len());
                }
                out["data"] = Value::Array(data);
            }
            return json(200, out);
        }
        let id = percent_decode(rest.trim_start_matches('/'));
        match self.s2_lookup(&id) {
            Some(r) => json(200, render::s2(&self.view(r, Service::S2), fields)),
            None => json(
                404,
                serde_json::json!({"error": format!("Paper with id {id} not found")}),
            ),
        }
    }

    fn crossref(&self, path: &str, ps: &[(String, String)]) -> Answer {
        let Some(rest) = path.strip_prefix("/works") else {
            return text(404, "Resource not found.");
        };
        let rest = rest.trim_start_matches('/');
        if !rest.is_empty() {
            let doi = percent_decode(rest);
            return match self.doi_at(&doi, Service::Crossref) {
                Some(r) => json(
                    200,
                    serde_json::json!({"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": self.render_crossref(r)}),
                ),
                None => text(404, "Resource not found."),
            };
        }
        let rows = param(ps, "rows")
            .and_then(|r| r.parse().ok())
            .unwrap_or(20usize)
            .min(1000);
        let mut items: Vec<&Record> = Vec::new();
        let mut total = 0;
        if let Some(f) = param(ps, "filter") {
            for part in f.split(',') {
                if let Some(d) = part.trim().strip_prefix("doi:") {
                    if let Some(r) = self.doi_at(d, Service::Crossref) {
                        items.push(r);
                    }
                }
            }
            total = items.len();
        } else if let Some(q) = ["query.bibliographic", "query.title", "query"]
            .iter()
            .find_map(|k| param(ps, k))
        {
            let ranked = self.ranked(q, Service::Crossref, |_| true);
            total = ranked.len();
            items = ranked
                .iter()
                .take(rows)
                .map(|&(_, i)| &self.records[i])
                .collect();
        }
        let items: Vec<Value> = items
            .into_iter()
            .take(rows)
            .map(|r| self.render_crossref(r))
            .collect();
        json(
            200,
            serde_json::json!({"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
                "message": {"facets": {}, "total-results": total, "items": items, "items-per-page": rows, "query": {"start-index": 0, "search-terms": Value::Null}}}),
        )
    }

    fn openalex(&self, path: &str, ps: &[(String, String)]) -> Answer {
        let Some(rest) = path.strip_prefix("/works") else {
            return json(
                404,
                serde_json::json!({"error": "Not found", "message": "Invalid path"}),
            );
        };
        let rest = percent_decode(rest.trim_start_matches('/'));
        if !rest.is_empty() {
            let l = rest.to_lowercase();
            let found = if let Some(d) = l
                .strip_prefix("doi:")
                .or_else(|| l.strip_prefix("https://doi.org/"))
            {
                self.doi_at(d, Service::OpenAlex)
            } else {
                let id = l.rsplit('/').next().unwrap_or("");
                self.by_openalex
                    .get(id)
                    .map(|&i| &self.records[i])
                    .filter(|r| self.sees(r, Service::OpenAlex))
            };
            return match found {
                Some(r) => json(200, render::openalex(&self.view(r, Service::OpenAlex))),
                None => json(
                    404,
                    serde_json::json!({"error": "Not Found", "message": format!("{rest} does not exist")}),
                ),
            };
        }
        let per_page = param(ps, "per-page")
            .or_else(|| param(ps, "per_page"))
            .and_then(|r| r.parse().ok())
            .unwrap_or(25usize)
            .min(200);
        let mut dois: Vec<&Record> = Vec::new();
        let mut query = param(ps, "search").map(str::to_string);
        let mut filtered_by_doi = false;
        if let Some(f) = param(ps, "filter") {
            for part in f.split(',') {
                let (k, v) = part.split_once(':').unwrap_or((part, ""));
                match k.trim() {
                    "doi" => {
                        filtered_by_doi = true;
                        dois.extend(
                            v.split('|')
                                .filter_map(|d| self.doi_at(d, Service::OpenAlex)),
                        );
                    }
                    "title.search" | "display_name.search" | "default.search" => {
                        query = Some(v.to_string())
                    }
                    _ => {}
                }
            }
        }
        let (results, count): (Vec<&Record>, usize) = if filtered_by_doi {
            (dois.clone(), dois.len())
        } else if let Some(q) = query {
            let ranked = self.ranked(&q, Service::OpenAlex, |_| true);
            (
                ranked
                    .iter()
                    .take(per_page)
                    .map(|&(_, i)| &self.records[i])
                    .collect(),
                ranked.len(),
            )
        } else {
            (Vec::new(), 0)
        };
        let results: Vec<Value> = results
            .into_iter()
            .take(per_page)
            .map(|r| render::openalex(&self.view(r, Service::OpenAlex)))
            .collect();
        json(
            200,
            serde_json::json!({"meta": {"count": count, "db_response_time_ms": 12, "page": 1, "per_page": per_page}, "results": results, "group_by": []}),
        )
    }

    fn datacite(&self, path: &str, ps: &[(String, String)]) -> Answer {
        let not_found = || {
            json(
                404,
                serde_json::json!({"errors": [{"status": "404", "title": "The resource you are looking for doesn't exist."}]}),
            )
        };
        if path == "/dois" {
            // The list form: `ids=a,b` answers with the DOIs it holds.
            let found: Vec<Value> = param(ps, "ids")
                .unwrap_or("")
                .split(',')
                .filter_map(|d| self.doi_at(d, Service::DataCite))
                .map(|r| render::datacite(&self.view(r, Service::DataCite)))
                .collect();
            let n = found.len();
            return json(
                200,
                serde_json::json!({"data": found, "meta": {"total": n, "totalPages": 1, "page": 1}}),
            );
        }
        let Some(rest) = path.strip_prefix("/dois/") else {
            return not_found();
        };
        match self.doi_at(&percent_decode(rest), Service::DataCite) {
            Some(r) => json(
                200,
                serde_json::json!({"data": render::datacite(&self.view(r, Service::DataCite))}),
            ),
            None => not_found(),
        }
    }

    fn arxiv(&self, path: &str, ps: &[(String, String)]) -> Answer {
        if path != "/api/query" {
            return text(404, "Not Found");
        }
        let ids = param(ps, "id_list").unwrap_or("");
        let found: Vec<&Record> = ids
            .split(',')
            .filter(|i| !i.trim().is_empty())
            .filter_map(|i| self.by_arxiv.get(&strip_version(i.trim()).to_lowercase()))
            .map(|&i| &self.records[i])
            .collect();
        let entries: String = found.iter().map(|r| render::arxiv_entry(r)).collect();
        let feed = format!(
            "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\" xmlns=\"http://www.w3.org/2005/Atom\">\n  <id>https://arxiv.org/api/world</id>\n  <title>arXiv Query: id_list={}</title>\n  <opensearch:itemsPerPage>{}</opensearch:itemsPerPage>\n  <opensearch:totalResults>{}</opensearch:totalResults>\n  <opensearch:startIndex>0</opensearch:startIndex>\n{entries}</feed>\n",
            render::xml_escape(ids),
            found.len(),
            found.len()
        );
        (
            200,
            vec![("content-type".into(), "application/atom+xml".into())],
            feed,
        )
    }

    fn dblp(&self, path: &str, ps: &[(String, String)]) -> Answer {
        if path != "/search/publ/api" {
            return text(404, "Not Found");
        }
        let q = param(ps, "q").unwrap_or("");
        let h = param(ps, "h")
            .and_then(|r| r.parse().ok())
            .unwrap_or(30usize)
            .min(1000);
        let f = param(ps, "f")
            .and_then(|r| r.parse().ok())
            .unwrap_or(0usize);
        // DBLP's search is a conjunction: every query word must start a title
        // or author word (or match the venue or year).
        let qw = words(q);
        let hits: Vec<&Record> = if qw.is_empty() {
            Vec::new()
        } else {
            let mut ranked: Vec<(f64, usize)> = self.ranked(q, Service::Dblp, |_| true);
            ranked.retain(|&(_, i)| {
                let r = &self.records[i];
                let mut hay = words(&r.title);
                hay.extend(r.authors.iter().flat_map(|a| words(a)));
                hay.extend(r.venue.iter().flat_map(|v| words(v)));
                hay.extend(r.year.map(|y| y.to_string()));
                qw.iter()
                    .all(|w| hay.iter().any(|x| x.starts_with(w.as_str())))
            });
            ranked.iter().map(|&(_, i)| &self.records[i]).collect()
        };
        let total = hits.len();
        let sent: Vec<Value> = hits
            .iter()
            .skip(f)
            .take(h)
            .map(|r| render::dblp(r))
            .collect();
        let mut hits_obj = serde_json::json!({"@total": total.to_string(), "@computed": total.to_string(), "@sent": sent.len().to_string(), "@first": f.to_string()});
        if !sent.is_empty() {
            hits_obj["hit"] = Value::Array(sent);
        }
        json(
            200,
            serde_json::json!({"result": {"query": q, "status": {"@code": "200", "text": "OK"}, "time": {"@unit": "msecs", "text": "1.00"}, "completions": {"@total": "0", "@computed": "0", "@sent": "0"}, "hits": hits_obj}}),
        )
    }
}

fn year_range(text: &str) -> (i32, i32) {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    (
        a.trim().parse().unwrap_or(i32::MIN),
        b.trim().parse().unwrap_or(i32::MAX),
    )
}

#[cfg(test)]
mod tests;
