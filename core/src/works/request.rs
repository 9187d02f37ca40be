//! Requests as data: what to send to which service, never sent from here.
//!
//! A [`Request`] is a method, a full URL, headers and an optional body; the
//! browser (or a test) executes it. Base URLs are part of [`Endpoints`], so a
//! relay, a mock server or a recorded fixture can stand in for a service.
//! Credentials go exactly where each service reads them and nowhere else:
//! the Semantic Scholar key only in the `x-api-key` header (a URL parameter
//! would leak it into logs), the OpenAlex key only as the `api_key` parameter,
//! and the contact address as `mailto` for Crossref's and OpenAlex's polite
//! pools.

use super::{bare_doi, Service};
use crate::{Error, ErrorKind, Result};
use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde::{Deserialize, Serialize};

/// Semantic Scholar's batch endpoint takes at most this many ids.
pub const S2_BATCH_MAX: usize = 500;
/// DOIs per OpenAlex `filter=doi:a|b|…` request (its OR-filter limit).
pub const OPENALEX_BATCH_MAX: usize = 50;
/// DOIs per Crossref `filter=doi:…,doi:…` request.
pub const CROSSREF_BATCH_MAX: usize = 50;
/// OpenAlex answers at most this many results per page.
pub const OPENALEX_PER_PAGE_MAX: usize = 100;
/// DOIs per DataCite `/dois?ids=a,b` request.
pub const DATACITE_BATCH_MAX: usize = 50;
/// Ids per arXiv export API `id_list=` request.
pub const ARXIV_BATCH_MAX: usize = 50;
/// Fields asked of Semantic Scholar for a normalized work.
pub const S2_FIELDS: &str = "paperId,externalIds,title,abstract,authors,year,publicationDate,venue,journal,citationCount,publicationTypes";

/// HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    /// GET.
    Get,
    /// POST.
    Post,
}

/// One request to execute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunRequest"))]
pub struct Request {
    /// The service answering it.
    pub service: Service,
    /// Method.
    pub method: Method,
    /// Full URL with encoded query string.
    pub url: String,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// JSON body, for POST.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub body: Option<String>,
}

/// Base URLs and credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
// Read from JavaScript: what serde may go without is optional there.
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
pub struct Endpoints {
    /// Semantic Scholar Graph base, e.g. `https://api.semanticscholar.org/graph/v1`.
    pub s2_base: String,
    /// OpenAlex base, e.g. `https://api.openalex.org`.
    pub openalex_base: String,
    /// Crossref base, e.g. `https://api.crossref.org`.
    pub crossref_base: String,
    /// DataCite REST base, `https://api.datacite.org` (absent in settings
    /// saved before it existed: the public base is used).
    #[serde(default = "default_datacite_base")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub datacite_base: String,
    /// DBLP base, `https://dblp.org`.
    #[serde(default = "default_dblp_base")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub dblp_base: String,
    /// arXiv export API base, `https://export.arxiv.org`.
    #[serde(default = "default_arxiv_base")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub arxiv_base: String,
    /// Semantic Scholar API key (sent as `x-api-key`).
    pub s2_api_key: Option<String>,
    /// OpenAlex API key (sent as `api_key`).
    pub openalex_api_key: Option<String>,
    /// Contact address for the polite pools (sent as `mailto`).
    pub mailto: Option<String>,
}

impl Endpoints {
    /// The services' public base URLs, with no credentials.
    pub fn public() -> Endpoints {
        Endpoints {
            s2_base: format!("https://api.semanticscholar.org{S2_GRAPH_PATH}"),
            openalex_base: "https://api.openalex.org".into(),
            crossref_base: "https://api.crossref.org".into(),
            datacite_base: default_datacite_base(),
            dblp_base: default_dblp_base(),
            arxiv_base: default_arxiv_base(),
            ..Endpoints::default()
        }
    }
}

/// The path of Semantic Scholar's Graph API below its root: `s2_base` is
/// the root and this (a command line takes the root).
pub const S2_GRAPH_PATH: &str = "/graph/v1";

fn default_datacite_base() -> String {
    "https://api.datacite.org".into()
}

fn default_dblp_base() -> String {
    "https://dblp.org".into()
}

fn default_arxiv_base() -> String {
    "https://export.arxiv.org".into()
}

/// An inclusive publication-year range; either end may be open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct YearRange {
    /// First year, inclusive.
    pub from: Option<i32>,
    /// Last year, inclusive.
    pub to: Option<i32>,
}

impl YearRange {
    /// Reads `A:B`, `A:`, `:B`, `A-B` or a single year `A`.
    pub fn parse(text: &str) -> Result<YearRange> {
        let bad = || {
            Error::new(
                ErrorKind::InvalidValue,
                format!("year range `{text}` is not A:B"),
            )
        };
        let t = text.trim();
        let (a, b) = match t.split_once(':').or_else(|| t.split_once('-')) {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (t, t),
        };
        let year = |s: &str| -> Result<Option<i32>> {
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse().map(Some).map_err(|_| bad())
            }
        };
        let r = YearRange {
            from: year(a)?,
            to: year(b)?,
        };
        match (r.from, r.to) {
            (None, None) => Err(bad()),
            (Some(f), Some(t)) if f > t => Err(bad()),
            _ => Ok(r),
        }
    }
}

/// A work identifier to look up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum WorkId {
    /// A DOI (any prefix form).
    Doi(String),
    /// A Semantic Scholar paperId or `CorpusId:…`.
    S2(String),
    /// An arXiv id.
    Arxiv(String),
    /// An OpenAlex work id `W…` (or `openalex:W…`).
    OpenAlex(String),
}

impl WorkId {
    /// Guesses the kind of a user-typed id: DOI, `arXiv:`/new-style arXiv id
    /// (version stripped: services index the paper, not one revision),
    /// `W…`/`openalex:W…`, else a Semantic Scholar id.
    pub fn guess(text: &str) -> WorkId {
        let t = text.trim();
        if let Some(d) = bare_doi(t) {
            return WorkId::Doi(d);
        }
        let lower = t.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("arxiv:") {
            return WorkId::Arxiv(crate::ids::strip_arxiv_version(rest));
        }
        if let Some(rest) = lower.strip_prefix("openalex:") {
            return WorkId::OpenAlex(rest.to_ascii_uppercase());
        }
        let is_w = t.len() > 1
            && t.starts_with(['W', 'w'])
            && t.get(1..)
                .is_some_and(|r| r.bytes().all(|b| b.is_ascii_digit()));
        if is_w {
            return WorkId::OpenAlex(t.to_ascii_uppercase());
        }
        let new_arxiv = t.split_once('.').is_some_and(|(a, b)| {
            a.len() == 4
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.len() >= 4
                && b.bytes().take(4).all(|c| c.is_ascii_digit())
        });
        if new_arxiv {
            return WorkId::Arxiv(crate::ids::strip_arxiv_version(t));
        }
        WorkId::S2(t.to_string())
    }
}

/// Characters escaped in an identifier put into a URL path: controls,
/// space and those that would end the path, start a query or fragment, or
/// that RFC 3986 does not allow raw. `/` is kept: DOIs contain it and the
/// services (and the record pages) accept it raw. The one such set: request
/// paths and `bibtex::report`'s links both use it.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\\')
    .add(b'^')
    .add(b'|');

/// An identifier escaped for a URL path with [`PATH`]'s set.
pub(crate) fn path(segment: &str) -> String {
    utf8_percent_encode(segment, PATH).to_string()
}

/// Where an arXiv paper's e-print source is, under the arXiv base
/// (`https://export.arxiv.org/e-print/<id>`, or a relay's `/arxiv`): a
/// gzipped tar, a gzipped `.tex`, or a PDF (read by `paper::read_any`).
pub fn eprint_url(arxiv_base: &str, id: &crate::ids::ArxivId) -> String {
    join(arxiv_base, &format!("/e-print/{}", id.as_str()), &[])
}

fn join(base: &str, path: &str, query: &[(&str, String)]) -> String {
    let mut url = format!("{}{}", base.trim_end_matches('/'), path);
    if !query.is_empty() {
        let mut ser = form_urlencoded::Serializer::new(String::new());
        for (k, v) in query {
            ser.append_pair(k, v);
        }
        url.push('?');
        url.push_str(&ser.finish());
    }
    url
}

fn get(service: Service, url: String, ep: &Endpoints) -> Request {
    let mut headers = vec![("Accept".to_string(), "application/json".to_string())];
    if service == Service::SemanticScholar {
        if let Some(key) = ep.s2_api_key.as_ref().filter(|k| !k.is_empty()) {
            headers.push(("x-api-key".to_string(), key.clone()));
        }
    }
    Request {
        service,
        method: Method::Get,
        url,
        headers,
        body: None,
    }
}

/// `mailto` and `api_key` parameters, where the service reads them.
fn polite(service: Service, ep: &Endpoints, q: &mut Vec<(&'static str, String)>) {
    if matches!(service, Service::Crossref | Service::OpenAlex) {
        if let Some(m) = ep.mailto.as_ref().filter(|m| !m.is_empty()) {
            q.push(("mailto", m.clone()));
        }
    }
    if service == Service::OpenAlex {
        if let Some(k) = ep.openalex_api_key.as_ref().filter(|k| !k.is_empty()) {
            q.push(("api_key", k.clone()));
        }
    }
}

fn unsupported(service: Service, what: &str) -> Error {
    Error::new(
        ErrorKind::Query,
        format!("{} cannot {what}", service.name()),
    )
}

/// A relevance search for `query`, at most `limit` hits, optionally within `years`.
pub fn search(
    service: Service,
    ep: &Endpoints,
    query: &str,
    limit: usize,
    years: Option<YearRange>,
) -> Result<Request> {
    let limit = limit.max(1);
    let mut q: Vec<(&'static str, String)> = Vec::new();
    let url = match service {
        Service::SemanticScholar => {
            q.push(("query", s2_query(query)));
            q.push(("limit", limit.min(100).to_string()));
            q.push(("fields", S2_FIELDS.to_string()));
            if let Some(y) = years {
                let f = y.from.map(|v| v.to_string()).unwrap_or_default();
                let t = y.to.map(|v| v.to_string()).unwrap_or_default();
                q.push(("year", format!("{f}-{t}")));
            }
            join(&ep.s2_base, "/paper/search", &q)
        }
        Service::OpenAlex => {
            q.push(("search", query.to_string()));
            q.push(("per_page", limit.min(OPENALEX_PER_PAGE_MAX).to_string()));
            if let Some(y) = years {
                let f = y.from.map(|v| v.to_string()).unwrap_or_default();
                let t = y.to.map(|v| v.to_string()).unwrap_or_default();
                q.push(("filter", format!("publication_year:{f}-{t}")));
            }
            polite(service, ep, &mut q);
            join(&ep.openalex_base, "/works", &q)
        }
        Service::Crossref => {
            q.push(("query.bibliographic", query.to_string()));
            q.push(("rows", limit.min(1000).to_string()));
            if let Some(y) = years {
                let mut f = Vec::new();
                if let Some(a) = y.from {
                    f.push(format!("from-pub-date:{a}"));
                }
                if let Some(b) = y.to {
                    f.push(format!("until-pub-date:{b}"));
                }
                q.push(("filter", f.join(",")));
            }
            polite(service, ep, &mut q);
            join(&ep.crossref_base, "/works", &q)
        }
        // DBLP's publication search (`h` hits, JSON).
        Service::Dblp => {
            q.push(("q", query.to_string()));
            q.push(("format", "json".to_string()));
            q.push(("h", limit.min(1000).to_string()));
            join(&ep.dblp_base, "/search/publ/api", &q)
        }
        other => return Err(unsupported(other, "be searched from the browser")),
    };
    Ok(get(service, url, ep))
}

/// Longest request URL sent to OpenAlex. Its search guide says the whole
/// URL of a boolean query is limited to "about 4 KB" (developers.openalex.org,
/// Search, "Large Boolean queries"); this keeps a margin below that.
pub const OPENALEX_URL_MAX: usize = 3500;

/// Most titles asked in one OpenAlex phrase search ([`openalex_phrases`]):
/// with 100 hits a page, about five records for each title.
pub const OPENALEX_PHRASES_MAX: usize = 20;

/// Fewest words a title needs to be asked as a phrase: a shorter one
/// ("NumPy", "The SciPy library") appears in the text of too many works
/// to come back on the first page of a shared query.
pub const PHRASE_MIN_WORDS: usize = 4;

/// A title as an exact-phrase query: lowercase words (letters and digits)
/// joined by single spaces, so quotes, boolean operators and punctuation in
/// the title cannot change the query's meaning; `None` below
/// [`PHRASE_MIN_WORDS`] words.
pub fn title_phrase(title: &str) -> Option<String> {
    let words = phrase_words(title);
    (words.split(' ').count() >= PHRASE_MIN_WORDS && !words.is_empty()).then_some(words)
}

/// A title's words as a phrase query sees them: lowercase letters and
/// digits, one space between words.
pub fn phrase_words(title: &str) -> String {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `title` holds `phrase` (from [`title_phrase`]) as a run of
/// whole words: the works of a shared phrase search that answer it.
pub fn holds_phrase(title: &str, phrase: &str) -> bool {
    !phrase.is_empty() && format!(" {} ", phrase_words(title)).contains(&format!(" {phrase} "))
}

/// One OpenAlex search for several titles at once: each an exact phrase,
/// joined by `OR` (OpenAlex's boolean search: uppercase operators, double
/// quotes for phrases), 100 hits. A keyless caller's daily allowance pays
/// for ten searches (a search costs $0.001 of $0.01), so asking twenty
/// titles in one is what lets a bibliography's titles be checked at all.
/// `phrases` come from [`title_phrase`].
pub fn openalex_phrases(ep: &Endpoints, phrases: &[String]) -> Result<Request> {
    if phrases.is_empty() {
        return Err(Error::new(ErrorKind::Query, "no title to search for"));
    }
    let query = phrases
        .iter()
        .map(|p| format!("\"{}\"", p.replace('"', " ")))
        .collect::<Vec<_>>()
        .join(" OR ");
    let mut q: Vec<(&'static str, String)> = vec![
        ("search", query),
        ("per_page", OPENALEX_PER_PAGE_MAX.to_string()),
    ];
    polite(Service::OpenAlex, ep, &mut q);
    let url = join(&ep.openalex_base, "/works", &q);
    Ok(get(Service::OpenAlex, url, ep))
}

/// One OpenAlex phrase search for as many of `titles` (`(position,
/// title)`, in order) as fit its limits: titles with a phrase
/// ([`title_phrase`]), at most [`OPENALEX_PHRASES_MAX`], a URL of at most
/// [`OPENALEX_URL_MAX`] bytes. The positions asked and the request; `None`
/// when fewer than two titles fit (one title is better asked by relevance).
pub fn openalex_phrase_batch<'t>(
    ep: &Endpoints,
    titles: impl IntoIterator<Item = (usize, &'t str)>,
) -> Option<(Vec<usize>, Request)> {
    let mut asked = Vec::new();
    let mut phrases = Vec::new();
    let mut built = None;
    for (i, title) in titles {
        if asked.len() == OPENALEX_PHRASES_MAX {
            break;
        }
        let Some(p) = title_phrase(title) else {
            continue;
        };
        phrases.push(p);
        match openalex_phrases(ep, &phrases) {
            Ok(r) if r.url.len() <= OPENALEX_URL_MAX => {
                built = Some(r);
                asked.push(i);
            }
            _ => {
                phrases.pop();
            }
        }
    }
    (asked.len() >= 2).then_some(())?;
    Some((asked, built?))
}

/// Semantic Scholar's search finds nothing for some hyphenated terms
/// (`pre-training`), so a hyphen between two word characters becomes a
/// space; other hyphens (a leading minus, `--`) stay.
pub fn s2_query(query: &str) -> String {
    let chars: Vec<char> = query.chars().collect();
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if c == '-' && i > 0 && word(chars.get(i - 1)) && word(chars.get(i + 1)) {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// A lookup of one work by id.
pub fn lookup(service: Service, ep: &Endpoints, id: &WorkId) -> Result<Request> {
    let mut q: Vec<(&'static str, String)> = Vec::new();
    let url = match (service, id) {
        (Service::SemanticScholar, id) => {
            let p = match id {
                WorkId::Doi(d) => format!("DOI:{}", bare_doi(d).unwrap_or_else(|| d.clone())),
                WorkId::S2(s) => s.clone(),
                WorkId::Arxiv(a) => format!("ARXIV:{a}"),
                WorkId::OpenAlex(_) => return Err(unsupported(service, "look up an openalex id")),
            };
            q.push(("fields", S2_FIELDS.to_string()));
            join(&ep.s2_base, &format!("/paper/{}", path(&p)), &q)
        }
        (Service::OpenAlex, id) => {
            let p = match id {
                WorkId::Doi(d) => format!("doi:{}", bare_doi(d).unwrap_or_else(|| d.clone())),
                WorkId::OpenAlex(w) => w.trim_start_matches("openalex:").to_ascii_uppercase(),
                WorkId::Arxiv(a) => format!("doi:10.48550/arXiv.{a}"),
                WorkId::S2(_) => return Err(unsupported(service, "look up a semantic scholar id")),
            };
            polite(service, ep, &mut q);
            join(&ep.openalex_base, &format!("/works/{}", path(&p)), &q)
        }
        (Service::Crossref, WorkId::Doi(d)) => {
            let d = bare_doi(d).unwrap_or_else(|| d.clone());
            polite(service, ep, &mut q);
            join(&ep.crossref_base, &format!("/works/{}", path(&d)), &q)
        }
        (Service::Crossref, WorkId::Arxiv(a)) => {
            return lookup(service, ep, &WorkId::Doi(format!("10.48550/arXiv.{a}")))
        }
        (Service::DataCite, WorkId::Doi(d)) => {
            let d = bare_doi(d).unwrap_or_else(|| d.clone());
            join(&ep.datacite_base, &format!("/dois/{}", path(&d)), &q)
        }
        (Service::DataCite, WorkId::Arxiv(a)) => {
            return lookup(service, ep, &WorkId::Doi(format!("10.48550/arXiv.{a}")))
        }
        (Service::Arxiv, WorkId::Arxiv(a)) => {
            q.push(("id_list", a.clone()));
            q.push(("max_results", "1".to_string()));
            join(&ep.arxiv_base, "/api/query", &q)
        }
        (other, _) => return Err(unsupported(other, "look up this id")),
    };
    Ok(get(service, url, ep))
}

/// Batch lookups, chunked to each service's limit. S2 takes any id form
/// (`DOI:`, `ARXIV:`, paperId); OpenAlex and Crossref take DOIs only.
pub fn batch(service: Service, ep: &Endpoints, ids: &[WorkId]) -> Result<Vec<Request>> {
    match service {
        Service::SemanticScholar => {
            let mut keys = Vec::new();
            for id in ids {
                keys.push(match id {
                    WorkId::Doi(d) => format!("DOI:{}", bare_doi(d).unwrap_or_else(|| d.clone())),
                    WorkId::S2(s) => s.clone(),
                    WorkId::Arxiv(a) => format!("ARXIV:{a}"),
                    WorkId::OpenAlex(_) => {
                        return Err(unsupported(service, "look up an openalex id"))
                    }
                });
            }
            let url = join(
                &ep.s2_base,
                "/paper/batch",
                &[("fields", S2_FIELDS.to_string())],
            );
            Ok(keys
                .chunks(S2_BATCH_MAX)
                .map(|chunk| {
                    let mut r = get(service, url.clone(), ep);
                    r.method = Method::Post;
                    r.headers
                        .push(("Content-Type".into(), "application/json".into()));
                    r.body = Some(serde_json::json!({ "ids": chunk }).to_string());
                    r
                })
                .collect())
        }
        Service::OpenAlex | Service::Crossref => {
            let mut dois = Vec::new();
            for id in ids {
                match id {
                    WorkId::Doi(d) => dois.push(bare_doi(d).unwrap_or_else(|| d.clone())),
                    WorkId::Arxiv(a) => dois.push(format!("10.48550/arXiv.{a}")),
                    _ => return Err(unsupported(service, "batch-look up a non-doi id")),
                }
            }
            let (size, base) = if service == Service::OpenAlex {
                (OPENALEX_BATCH_MAX, &ep.openalex_base)
            } else {
                (CROSSREF_BATCH_MAX, &ep.crossref_base)
            };
            Ok(dois
                .chunks(size)
                .map(|chunk| {
                    let mut q: Vec<(&'static str, String)> = Vec::new();
                    if service == Service::OpenAlex {
                        q.push(("filter", format!("doi:{}", chunk.join("|"))));
                        q.push(("per_page", size.to_string()));
                    } else {
                        let f: Vec<String> = chunk.iter().map(|d| format!("doi:{d}")).collect();
                        q.push(("filter", f.join(",")));
                        q.push(("rows", size.to_string()));
                    }
                    polite(service, ep, &mut q);
                    get(service, join(base, "/works", &q), ep)
                })
                .collect())
        }
        Service::DataCite => {
            let mut dois = Vec::new();
            for id in ids {
                match id {
                    WorkId::Doi(d) => dois.push(bare_doi(d).unwrap_or_else(|| d.clone())),
                    WorkId::Arxiv(a) => dois.push(format!("10.48550/arXiv.{a}")),
                    _ => return Err(unsupported(service, "batch-look up a non-doi id")),
                }
            }
            Ok(dois
                .chunks(DATACITE_BATCH_MAX)
                .map(|chunk| {
                    let q = vec![
                        ("ids", chunk.join(",")),
                        ("page[size]", DATACITE_BATCH_MAX.to_string()),
                    ];
                    get(service, join(&ep.datacite_base, "/dois", &q), ep)
                })
                .collect())
        }
        Service::Arxiv => {
            let mut list = Vec::new();
            for id in ids {
                match id {
                    WorkId::Arxiv(a) => list.push(a.clone()),
                    _ => return Err(unsupported(service, "batch-look up a non-arxiv id")),
                }
            }
            Ok(list
                .chunks(ARXIV_BATCH_MAX)
                .map(|chunk| {
                    let q = vec![
                        ("id_list", chunk.join(",")),
                        ("max_results", chunk.len().to_string()),
                    ];
                    get(service, join(&ep.arxiv_base, "/api/query", &q), ep)
                })
                .collect())
        }
        other => Err(unsupported(other, "batch-look up works")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep() -> Endpoints {
        Endpoints {
            s2_base: "https://s2.test/graph/v1".into(),
            openalex_base: "https://oa.test/".into(),
            crossref_base: "https://cr.test".into(),
            datacite_base: "https://dc.test".into(),
            dblp_base: "https://dblp.test".into(),
            arxiv_base: "https://ax.test".into(),
            s2_api_key: Some("K2".into()),
            openalex_api_key: Some("KO".into()),
            mailto: Some("me@x.org".into()),
        }
    }

    fn check_url(r: Result<Request>, url: &str) {
        assert_eq!(r.map(|r| r.url).as_deref(), Ok(url));
    }

    #[test]
    fn identifiers_in_paths_keep_slashes_and_escape_what_ends_a_path() {
        // One set for request paths and report links (they had two).
        for (id, expected) in [
            ("10.1000/a b", "10.1000/a%20b"),
            ("10.1000/x?y#z", "10.1000/x%3Fy%23z"),
            ("10.1002/(SICI)1097:8<693>", "10.1002/(SICI)1097:8%3C693%3E"),
            ("10.1000/a|b^c\\d", "10.1000/a%7Cb%5Ec%5Cd"),
        ] {
            assert_eq!(path(id), expected, "{id}");
        }
    }

    #[test]
    fn search_urls() {
        let y = YearRange::parse("2019:2021").ok();
        let s2f = form_urlencoded::byte_serialize(S2_FIELDS.as_bytes()).collect::<String>();
        check_url(search(Service::SemanticScholar, &ep(), "attention is all", 5, y), &format!("https://s2.test/graph/v1/paper/search?query=attention+is+all&limit=5&fields={s2f}&year=2019-2021"));
        check_url(search(Service::OpenAlex, &ep(), "a&b", 5, y), "https://oa.test/works?search=a%26b&per_page=5&filter=publication_year%3A2019-2021&mailto=me%40x.org&api_key=KO");
        check_url(search(Service::Crossref, &ep(), "x", 3, YearRange::parse("2019:").ok()), "https://cr.test/works?query.bibliographic=x&rows=3&filter=from-pub-date%3A2019&mailto=me%40x.org");
        // OpenAlex pages hold at most 100 results.
        check_url(
            search(
                Service::OpenAlex,
                &Endpoints {
                    mailto: None,
                    openalex_api_key: None,
                    ..ep()
                },
                "x",
                500,
                None,
            ),
            "https://oa.test/works?search=x&per_page=100",
        );
    }

    #[test]
    fn credentials_only_where_read() {
        let r = search(Service::SemanticScholar, &ep(), "q", 5, None).unwrap();
        assert!(r.headers.contains(&("x-api-key".into(), "K2".into())));
        assert!(!r.url.contains("K2") && !r.url.contains("mailto") && !r.url.contains("KO"));
        for s in [Service::OpenAlex, Service::Crossref] {
            let r = search(s, &ep(), "q", 5, None).unwrap();
            assert!(r.headers.iter().all(|(k, _)| k != "x-api-key"), "{s:?}");
            assert!(!r.url.contains("K2"));
        }
        assert!(!search(Service::Crossref, &ep(), "q", 5, None)
            .unwrap()
            .url
            .contains("api_key"));
    }

    #[test]
    fn lookup_urls() {
        let s2f = form_urlencoded::byte_serialize(S2_FIELDS.as_bytes()).collect::<String>();
        check_url(
            lookup(
                Service::SemanticScholar,
                &ep(),
                &WorkId::guess("https://doi.org/10.1093/mind/LIX.236.433"),
            ),
            &format!("https://s2.test/graph/v1/paper/DOI:10.1093/mind/LIX.236.433?fields={s2f}"),
        );
        check_url(
            lookup(
                Service::SemanticScholar,
                &ep(),
                &WorkId::guess("arXiv:1706.03762"),
            ),
            &format!("https://s2.test/graph/v1/paper/ARXIV:1706.03762?fields={s2f}"),
        );
        check_url(
            lookup(
                Service::OpenAlex,
                &ep(),
                &WorkId::guess("openalex:w2099326003"),
            ),
            "https://oa.test/works/W2099326003?mailto=me%40x.org&api_key=KO",
        );
        check_url(
            lookup(Service::OpenAlex, &ep(), &WorkId::Doi("10.1/a b".into())),
            "https://oa.test/works/doi:10.1/a%20b?mailto=me%40x.org&api_key=KO",
        );
        check_url(
            lookup(
                Service::Crossref,
                &ep(),
                &WorkId::guess("10.1371/journal.pone.0033693"),
            ),
            "https://cr.test/works/10.1371/journal.pone.0033693?mailto=me%40x.org",
        );
        assert!(lookup(Service::Crossref, &ep(), &WorkId::S2("abc".into())).is_err());
        assert!(lookup(Service::OpenAlex, &ep(), &WorkId::S2("abc".into())).is_err());
    }

    #[test]
    fn guesses() {
        for (t, id) in [
            ("10.1/x", WorkId::Doi("10.1/x".into())),
            ("W123", WorkId::OpenAlex("W123".into())),
            ("1706.03762v5", WorkId::Arxiv("1706.03762".into())),
            ("arXiv:2106.09685v3", WorkId::Arxiv("2106.09685".into())),
            ("CorpusId:470667", WorkId::S2("CorpusId:470667".into())),
            (
                "0f40b1f08821e22e859c6050916cec3667778613",
                WorkId::S2("0f40b1f08821e22e859c6050916cec3667778613".into()),
            ),
        ] {
            assert_eq!(WorkId::guess(t), id, "{t}");
        }
    }

    #[test]
    fn batches_are_chunked() {
        let ids: Vec<WorkId> = (0..1001)
            .map(|i| WorkId::Doi(format!("10.1/{i}")))
            .collect();
        let s2 = batch(Service::SemanticScholar, &ep(), &ids).unwrap();
        assert_eq!(s2.len(), 3);
        assert_eq!(s2[0].method, Method::Post);
        let body: serde_json::Value = serde_json::from_str(s2[0].body.as_deref().unwrap()).unwrap();
        assert_eq!(body["ids"].as_array().unwrap().len(), 500);
        assert_eq!(body["ids"][0], "DOI:10.1/0");
        let oa = batch(Service::OpenAlex, &ep(), &ids[..120]).unwrap();
        assert_eq!(oa.len(), 3);
        assert!(
            oa[0]
                .url
                .starts_with("https://oa.test/works?filter=doi%3A10.1%2F0%7C10.1%2F1%7C"),
            "{}",
            oa[0].url
        );
        let cr = batch(Service::Crossref, &ep(), &ids[..2]).unwrap();
        assert_eq!(cr[0].url, "https://cr.test/works?filter=doi%3A10.1%2F0%2Cdoi%3A10.1%2F1&rows=50&mailto=me%40x.org");
    }

    #[test]
    fn new_services() {
        check_url(
            lookup(
                Service::DataCite,
                &ep(),
                &WorkId::Doi("10.5281/zenodo.4724125".into()),
            ),
            "https://dc.test/dois/10.5281/zenodo.4724125",
        );
        check_url(
            lookup(
                Service::DataCite,
                &ep(),
                &WorkId::Arxiv("1706.03762".into()),
            ),
            "https://dc.test/dois/10.48550/arXiv.1706.03762",
        );
        check_url(
            lookup(
                Service::Arxiv,
                &ep(),
                &WorkId::Arxiv("hep-th/9711200".into()),
            ),
            "https://ax.test/api/query?id_list=hep-th%2F9711200&max_results=1",
        );
        check_url(
            search(Service::Dblp, &ep(), "Attention is all you need", 5, None),
            "https://dblp.test/search/publ/api?q=Attention+is+all+you+need&format=json&h=5",
        );
        let dc = batch(
            Service::DataCite,
            &ep(),
            &[
                WorkId::Doi("10.5281/zenodo.1".into()),
                WorkId::Arxiv("2101.00001".into()),
            ],
        )
        .unwrap();
        assert_eq!(dc[0].url, "https://dc.test/dois?ids=10.5281%2Fzenodo.1%2C10.48550%2FarXiv.2101.00001&page%5Bsize%5D=50");
        // No credential of another service goes to DataCite, DBLP or arXiv.
        assert!(dc[0].headers.iter().all(|(k, _)| k != "x-api-key"));
        assert!(!dc[0].url.contains("mailto") && !dc[0].url.contains("api_key"));
    }

    #[test]
    fn s2_queries_drop_inner_hyphens() {
        for (q, expected) in [
            (
                "BERT: Pre-training of Deep Bidirectional Transformers",
                "BERT: Pre training of Deep Bidirectional Transformers",
            ),
            ("state-of-the-art", "state of the art"),
            ("-x a - b", "-x a - b"),
            ("x--y", "x--y"),
            ("", ""),
        ] {
            assert_eq!(s2_query(q), expected, "{q}");
        }
        let r = search(Service::SemanticScholar, &ep(), "self-attention", 5, None).unwrap();
        assert!(r.url.contains("query=self+attention"), "{}", r.url);
    }

    #[test]
    fn titles_become_phrases_of_plain_words() {
        let check = |title: &str, expected: Option<&str>| {
            assert_eq!(title_phrase(title).as_deref(), expected, "{title}");
        };
        check(
            "Astropy: A community Python package for astronomy",
            Some("astropy a community python package for astronomy"),
        );
        check(
            "\"Quoted\" AND boolean OR words NOT kept",
            Some("quoted and boolean or words not kept"),
        );
        check("Élan vital des étoiles", Some("élan vital des étoiles"));
        check("The SciPy library", None);
        check("NumPy", None);
        check("", None);
        for (title, phrase, held) in [
            (
                "Astropy: A community Python package",
                "astropy a community python",
                true,
            ),
            (
                "The Astropy Project: building",
                "astropy project building",
                true,
            ),
            (
                "Astropyx a community python",
                "astropy a community python",
                false,
            ),
            ("anything", "", false),
        ] {
            assert_eq!(holds_phrase(title, phrase), held, "{title} / {phrase}");
        }
    }

    #[test]
    fn phrase_searches_join_exact_phrases_with_or() {
        let phrases = vec![
            "one two three four".to_string(),
            "five six seven eight".to_string(),
        ];
        let mut e = ep();
        e.openalex_api_key = Some("k".into());
        let r = openalex_phrases(&e, &phrases).unwrap();
        let query: Vec<(String, String)> = form_urlencoded::parse(
            r.url
                .split_once('?')
                .map(|(_, q)| q)
                .unwrap_or("")
                .as_bytes(),
        )
        .into_owned()
        .collect();
        let get = |k: &str| {
            query
                .iter()
                .find(|(kk, _)| kk == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(
            get("search"),
            Some("\"one two three four\" OR \"five six seven eight\"")
        );
        assert_eq!(get("per_page"), Some("100"));
        assert_eq!(get("api_key"), Some("k"));
        assert!(openalex_phrases(&ep(), &[]).is_err());
    }

    #[test]
    fn openalex_per_page_is_clamped() {
        let r = search(Service::OpenAlex, &ep(), "x", 500, None).unwrap();
        assert!(r.url.contains("per_page=100"), "{}", r.url);
    }

    #[test]
    fn year_ranges() {
        for (t, ok) in [
            ("2019:2021", Some((Some(2019), Some(2021)))),
            ("2019:", Some((Some(2019), None))),
            (":2020", Some((None, Some(2020)))),
            ("2020", Some((Some(2020), Some(2020)))),
            ("2021:2019", None),
            ("x:y", None),
            (":", None),
        ] {
            assert_eq!(YearRange::parse(t).ok().map(|r| (r.from, r.to)), ok, "{t}");
        }
    }
}
