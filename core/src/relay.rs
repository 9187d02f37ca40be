//! The relay's rules: which browser request goes where, with which key, and
//! which answer a browser may read. `citegate relay` (the CLI) serves them;
//! this module decides, with no IO.
//!
//! A lab runs one relay so its browsers reach what they cannot alone —
//! DBLP and arXiv send no CORS headers, and a key kept in one place serves
//! every browser without being handed to any. The app reaches it as every
//! service under one base (`?api=BASE`, or the relay origin the app was
//! built with): `BASE/s2/…`, `BASE/openalex/…`, `BASE/crossref/…`,
//! `BASE/datacite/…`, `BASE/dblp/…`, `BASE/arxiv/…`. A relay started with
//! a local index (`--index DIR`) also answers `POST BASE/index` with the
//! index's records for a run's questions ([`index_request`]), which the
//! page hands to its run as the CLI does ([`crate::resolve::Run::take_local`]).
//!
//! Invariants: a request goes only to the API root of the service its first
//! path segment names (an allowlist: anything else is refused, never
//! fetched); a key the browser sent is dropped and the lab's own is added
//! only to its own service's request; an answer carries CORS headers only
//! for the one app origin the relay was started for, and no credential
//! (the keys are masked in the body, and no header but the ones named in
//! [`PASSED_HEADERS`] is passed on).

use crate::resolve::{LocalAnswer, Route};
use crate::works::request::{Endpoints, Method, Request};
use crate::works::Service;
use serde::{Deserialize, Serialize};

/// The path prefixes the relay serves, the service behind each, in the
/// order the help text lists them.
pub const ROUTES: [(&str, Service); 6] = [
    ("s2", Service::SemanticScholar),
    ("openalex", Service::OpenAlex),
    ("crossref", Service::Crossref),
    ("datacite", Service::DataCite),
    ("dblp", Service::Dblp),
    ("arxiv", Service::Arxiv),
];

/// Response headers passed from a service to the browser (lowercase). The
/// rate headers are then readable by the app, which a direct cross-origin
/// answer does not allow (`Access-Control-Expose-Headers`).
pub const PASSED_HEADERS: [&str; 6] = [
    "content-type",
    "retry-after",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-rate-limit-interval",
];

/// Query parameters that carry a credential or a contact address: a
/// browser's are dropped, the relay's own put in their place.
const CREDENTIAL_PARAMS: [&str; 3] = ["api_key", "mailto", "key"];

/// Largest request body forwarded (a Semantic Scholar batch of 500 ids is
/// about 15 KB).
pub const MAX_REQUEST_BODY: usize = 1024 * 1024;

/// Why the relay will not forward a request: an HTTP status and a message
/// in words, sent to the browser as the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 403 (origin), 404 (no such service), 405 (method), 400 (path), 413 (body).
    pub status: u16,
    /// Lowercase, no trailing period.
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// The service roots and the lab's credentials, and the app origin the
/// relay answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The base URLs and keys ([`Endpoints`]: `s2_base` with its Graph
    /// path, the others their API roots).
    pub endpoints: Endpoints,
    /// The one origin whose pages may read the answers
    /// (`https://lab.example.org`), exactly as a browser sends `Origin`.
    pub app_origin: String,
}

/// The service root a prefix forwards to.
fn root(ep: &Endpoints, service: Service) -> &str {
    match service {
        Service::SemanticScholar | Service::Asta => &ep.s2_base,
        Service::OpenAlex => &ep.openalex_base,
        Service::Crossref => &ep.crossref_base,
        Service::DataCite => &ep.datacite_base,
        Service::Dblp => &ep.dblp_base,
        Service::Arxiv => &ep.arxiv_base,
    }
}

/// Whether `origin` (the browser's `Origin` header) is the app's.
pub fn origin_allowed(config: &Config, origin: Option<&str>) -> bool {
    origin.is_some_and(|o| o.trim_end_matches('/') == config.app_origin.trim_end_matches('/'))
}

/// The CORS headers of an answer to a page at `origin`: none unless it is
/// the app's, so another site's page cannot read through the relay.
pub fn cors_headers(config: &Config, origin: Option<&str>) -> Vec<(String, String)> {
    if !origin_allowed(config, origin) {
        return Vec::new();
    }
    vec![
        (
            "access-control-allow-origin".into(),
            origin.unwrap_or_default().to_string(),
        ),
        ("vary".into(), "Origin".into()),
        (
            "access-control-expose-headers".into(),
            PASSED_HEADERS[1..].join(", "),
        ),
    ]
}

/// The answer to a CORS preflight (`OPTIONS`): its headers when the page
/// is the app's and asks for what the relay forwards (GET or POST, a JSON
/// body), else a refusal.
pub fn preflight(
    config: &Config,
    origin: Option<&str>,
    method: Option<&str>,
) -> Result<Vec<(String, String)>, Refusal> {
    if !origin_allowed(config, origin) {
        return Err(refuse(
            403,
            format!(
                "this relay answers pages of {} only",
                config.app_origin.trim_end_matches('/')
            ),
        ));
    }
    let m = method.unwrap_or("GET").trim().to_ascii_uppercase();
    if m != "GET" && m != "POST" {
        return Err(refuse(
            405,
            format!("the relay forwards GET and POST, not {m}"),
        ));
    }
    let mut h = cors_headers(config, origin);
    h.push(("access-control-allow-methods".into(), "GET, POST".into()));
    // A key header is allowed so a page that sends one is not refused;
    // the relay drops it and sends the lab's own.
    h.push((
        "access-control-allow-headers".into(),
        "content-type, x-api-key".into(),
    ));
    h.push(("access-control-max-age".into(), "600".into()));
    Ok(h)
}

/// The request to send for a browser's `method` on `path` (with its query
/// string) and `body`: the service the first segment names, at its root,
/// with the lab's key and contact address in place of any the browser sent.
pub fn route(
    config: &Config,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<Request, Refusal> {
    let method = match method.to_ascii_uppercase().as_str() {
        "GET" => Method::Get,
        "POST" => Method::Post,
        other => {
            return Err(refuse(
                405,
                format!("the relay forwards GET and POST, not {other}"),
            ))
        }
    };
    if body.is_some_and(|b| b.len() > MAX_REQUEST_BODY) {
        return Err(refuse(
            413,
            format!("a request body is at most {MAX_REQUEST_BODY} bytes"),
        ));
    }
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let rest = path.trim_start_matches('/');
    let (prefix, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let Some((_, service)) = ROUTES.iter().find(|(p, _)| *p == prefix) else {
        let known: Vec<&str> = ROUTES.iter().map(|(p, _)| *p).collect();
        return Err(refuse(
            404,
            format!(
                "“/{prefix}” is not a service this relay forwards (it forwards /{})",
                known.join(", /")
            ),
        ));
    };
    let service = *service;
    if tail
        .split('/')
        .any(|s| s == ".." || s == "." || s.contains('\\') || s.contains('%') && is_dot_escape(s))
    {
        return Err(refuse(400, "a path with dot segments is not forwarded"));
    }
    let base = root(&config.endpoints, service).trim_end_matches('/');
    let mut url = if tail.is_empty() {
        base.to_string()
    } else {
        format!("{base}/{tail}")
    };
    let mut ser = form_urlencoded::Serializer::new(String::new());
    let mut any = false;
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        if CREDENTIAL_PARAMS.contains(&k.as_ref()) {
            continue;
        }
        ser.append_pair(&k, &v);
        any = true;
    }
    let ep = &config.endpoints;
    if matches!(service, Service::OpenAlex | Service::Crossref) {
        if let Some(m) = ep.mailto.as_deref().filter(|m| !m.trim().is_empty()) {
            ser.append_pair("mailto", m);
            any = true;
        }
    }
    if service == Service::OpenAlex {
        if let Some(k) = ep
            .openalex_api_key
            .as_deref()
            .filter(|k| !k.trim().is_empty())
        {
            ser.append_pair("api_key", k);
            any = true;
        }
    }
    if any {
        url.push('?');
        url.push_str(&ser.finish());
    }
    let mut headers = Vec::new();
    if service == Service::SemanticScholar {
        if let Some(k) = ep.s2_api_key.as_deref().filter(|k| !k.trim().is_empty()) {
            headers.push(("x-api-key".to_string(), k.to_string()));
        }
    }
    Ok(Request {
        service,
        method,
        url,
        headers,
        body: (method == Method::Post).then(|| body.unwrap_or_default().to_string()),
    })
}

/// A path segment that decodes to a dot segment (`%2e%2E`, `a%2F..%2Fb`);
/// an encoded slash alone is a DOI's (`10.1%2Fx`) and is kept.
fn is_dot_escape(segment: &str) -> bool {
    let decoded: String = form_urlencoded::parse(format!("x={segment}").as_bytes())
        .map(|(_, v)| v.into_owned())
        .collect();
    decoded.split(['/', '\\']).any(|p| p == "." || p == "..")
}

/// `body` with every credential of `config` masked (`***`): a service that
/// echoes the request (its URL in an error, a `meta` block) never hands a
/// key to a browser.
pub fn mask_credentials(config: &Config, body: &[u8]) -> Vec<u8> {
    let keys: Vec<&str> = [
        config.endpoints.s2_api_key.as_deref(),
        config.endpoints.openalex_api_key.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|k| k.len() >= 4)
    .collect();
    let mut out = body.to_vec();
    for k in keys {
        out = replace_bytes(&out, k.as_bytes(), b"***");
    }
    out
}

fn replace_bytes(hay: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(needle) {
            out.extend_from_slice(with);
            i += needle.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

// ---- The local index behind the relay ---------------------------------------

/// The relay's path for questions to its local index (`POST BASE/index`).
pub const INDEX_PATH: &str = "/index";

/// Most questions one index request may carry (a bibliography of 3,000
/// entries asks at most 9,000: a DOI, an arXiv id and a title each).
pub const MAX_INDEX_ASKS: usize = 20_000;

/// One question to the index: a run's [`crate::resolve::Run::local_asks`] entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexAsk {
    /// The reference, by its position in the run.
    pub slot: usize,
    /// What is asked: a DOI, an arXiv id or a title.
    pub route: Route,
    /// The DOI, id or title.
    pub text: String,
}

/// The body of `POST BASE/index`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexQuery {
    /// The questions.
    pub asks: Vec<IndexAsk>,
    /// Records kept per title search and dump ([`crate::resolve::Options::title_hits`]).
    pub title_hits: usize,
}

/// The request asking the index behind the relay at `relay_base` the
/// questions `asks` (from [`crate::resolve::Run::local_asks`]). It is the
/// relay's own route, not a service's: `service` names DBLP only so the
/// request has a lane; nothing paces it.
pub fn index_request(
    relay_base: &str,
    asks: &[(usize, Route, String)],
    title_hits: usize,
) -> Request {
    let query = IndexQuery {
        asks: asks
            .iter()
            .map(|(slot, route, text)| IndexAsk {
                slot: *slot,
                route: *route,
                text: text.clone(),
            })
            .collect(),
        title_hits,
    };
    Request {
        service: Service::Dblp,
        method: Method::Post,
        url: format!("{}{INDEX_PATH}", relay_base.trim_end_matches('/')),
        headers: vec![("content-type".into(), "application/json".into())],
        body: serde_json::to_string(&query).ok(),
    }
}

/// Whether `path` (with any query string) is the index route.
pub fn is_index_path(path: &str) -> bool {
    path.split('?').next().unwrap_or("").trim_end_matches('/') == INDEX_PATH
}

/// The relay's reading of an index request's body.
pub fn read_index_query(body: &str) -> Result<IndexQuery, Refusal> {
    let q: IndexQuery = serde_json::from_str(body).map_err(|e| {
        refuse(
            400,
            format!("the index question is not readable: {e} (expected {{\"asks\": [{{\"slot\", \"route\", \"text\"}}], \"title_hits\"}})"),
        )
    })?;
    if q.asks.len() > MAX_INDEX_ASKS {
        return Err(refuse(
            413,
            format!(
                "an index request asks at most {MAX_INDEX_ASKS} questions, not {}",
                q.asks.len()
            ),
        ));
    }
    Ok(q)
}

/// The page's reading of the relay's answer to [`index_request`]: the
/// index's records, to hand to [`crate::resolve::Run::take_local`].
pub fn index_answers(status: u16, body: &str) -> Result<Vec<LocalAnswer>, String> {
    if status != 200 {
        let text: String = body.chars().take(200).collect();
        return Err(format!("the relay's index answered {status}: {text}"));
    }
    serde_json::from_str(body).map_err(|e| format!("the relay's index answer is not readable: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            endpoints: Endpoints {
                s2_base: "https://api.semanticscholar.org/graph/v1".into(),
                openalex_base: "https://api.openalex.org".into(),
                crossref_base: "https://api.crossref.org".into(),
                datacite_base: "https://api.datacite.org".into(),
                dblp_base: "https://dblp.org".into(),
                arxiv_base: "https://export.arxiv.org".into(),
                s2_api_key: Some("S2SECRET".into()),
                openalex_api_key: Some("OASECRET".into()),
                mailto: Some("lab@uni.example".into()),
            },
            app_origin: "https://lab.example.org".into(),
        }
    }

    /// The URL sent and its headers, or the refusal's status.
    type Sent<'a> = Result<(&'a str, &'a [(&'a str, &'a str)]), u16>;

    /// (method, path, what is sent).
    fn check(method: &str, path: &str, expected: Sent<'_>) {
        let got = route(&config(), method, path, Some("{}"));
        match (got, expected) {
            (Ok(r), Ok((url, headers))) => {
                assert_eq!(r.url, url, "{path}");
                let h: Vec<(&str, &str)> = r
                    .headers
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                assert_eq!(h, headers, "{path}");
            }
            (Err(e), Err(status)) => {
                assert_eq!(e.status, status, "{path}: {e:?}");
                assert!(!e.message.ends_with('.') && !e.message.is_empty());
            }
            (got, expected) => panic!("{path}: {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn each_prefix_goes_to_its_own_service_with_its_own_key_only() {
        let key: &[(&str, &str)] = &[("x-api-key", "S2SECRET")];
        check(
            "GET",
            "/s2/paper/search?query=attention",
            Ok((
                "https://api.semanticscholar.org/graph/v1/paper/search?query=attention",
                key,
            )),
        );
        check(
            "POST",
            "/s2/paper/batch?fields=title",
            Ok((
                "https://api.semanticscholar.org/graph/v1/paper/batch?fields=title",
                key,
            )),
        );
        check(
            "GET",
            "/openalex/works?search=a&api_key=BROWSER",
            Ok((
                "https://api.openalex.org/works?search=a&mailto=lab%40uni.example&api_key=OASECRET",
                &[],
            )),
        );
        check(
            "GET",
            "/crossref/works/10.1%2Fx?mailto=me%40b.example",
            Ok((
                "https://api.crossref.org/works/10.1%2Fx?mailto=lab%40uni.example",
                &[],
            )),
        );
        check(
            "GET",
            "/datacite/dois/10.5281/zenodo.1",
            Ok(("https://api.datacite.org/dois/10.5281/zenodo.1", &[])),
        );
        check(
            "GET",
            "/dblp/search/publ/api?q=gentry&format=json",
            Ok(("https://dblp.org/search/publ/api?q=gentry&format=json", &[])),
        );
        check(
            "GET",
            "/arxiv/e-print/1706.03762",
            Ok(("https://export.arxiv.org/e-print/1706.03762", &[])),
        );
        // Outside the allowlist, or trying to leave it: refused, never fetched.
        check("GET", "/evil.example/x", Err(404));
        check("GET", "/", Err(404));
        check("GET", "/s2/../../etc/passwd", Err(400));
        check("GET", "/s2/%2e%2E/x", Err(400));
        check("GET", "/dblp/a%2f..%2fb", Err(400));
        check("DELETE", "/s2/paper/x", Err(405));
    }

    #[test]
    fn only_the_app_origin_may_read_or_preflight() {
        let c = config();
        let app = Some("https://lab.example.org");
        assert!(cors_headers(&c, app)
            .iter()
            .any(|(k, v)| k == "access-control-allow-origin" && v == "https://lab.example.org"));
        for other in [
            None,
            Some("https://evil.example"),
            Some("https://lab.example.org.evil.example"),
            Some("null"),
        ] {
            assert!(cors_headers(&c, other).is_empty(), "{other:?}");
            assert_eq!(preflight(&c, other, Some("GET")).unwrap_err().status, 403);
        }
        assert!(preflight(&c, app, Some("post")).is_ok());
        assert_eq!(preflight(&c, app, Some("PUT")).unwrap_err().status, 405);
    }

    #[test]
    fn keys_echoed_by_a_service_are_masked() {
        let body =
            br#"{"meta":{"url":"https://api.openalex.org/works?api_key=OASECRET"},"k":"S2SECRET"}"#;
        let masked = String::from_utf8(mask_credentials(&config(), body)).unwrap();
        assert!(!masked.contains("SECRET"), "{masked}");
        assert!(masked.contains("api_key=***"));
    }

    #[test]
    fn a_body_past_the_limit_is_refused() {
        let big = "x".repeat(MAX_REQUEST_BODY + 1);
        let e = route(&config(), "POST", "/s2/paper/batch", Some(&big)).unwrap_err();
        assert_eq!(e.status, 413);
    }

    /// Issue 32: a page behind a relay with a local index asks it the
    /// run's questions in one request and hands the records to its run.
    #[test]
    fn the_index_route_carries_a_runs_questions_and_its_answers() {
        let asks = vec![
            (0, Route::Doi, "10.1/x".to_string()),
            (3, Route::Title, "Attention Is All You Need".to_string()),
        ];
        let req = index_request("http://127.0.0.1:8787/", &asks, 5);
        assert_eq!(req.url, "http://127.0.0.1:8787/index");
        assert_eq!(req.method, Method::Post);
        let q = read_index_query(req.body.as_deref().unwrap()).unwrap();
        assert_eq!(q.title_hits, 5);
        assert_eq!(
            q.asks[1],
            IndexAsk {
                slot: 3,
                route: Route::Title,
                text: "Attention Is All You Need".into()
            }
        );
        for (path, yes) in [
            ("/index", true),
            ("/index/", true),
            ("/index?x=1", true),
            ("/indexes", false),
            ("/s2/index", false),
        ] {
            assert_eq!(is_index_path(path), yes, "{path}");
        }
        assert_eq!(read_index_query("[]").unwrap_err().status, 400);
        let many = IndexQuery {
            asks: vec![
                IndexAsk {
                    slot: 0,
                    route: Route::Doi,
                    text: "10.1/x".into()
                };
                MAX_INDEX_ASKS + 1
            ],
            title_hits: 1,
        };
        assert_eq!(
            read_index_query(&serde_json::to_string(&many).unwrap())
                .unwrap_err()
                .status,
            413
        );

        let mut work = crate::works::Work::empty(Service::Dblp);
        work.title = "Attention Is All You Need".into();
        let answers = vec![LocalAnswer {
            slot: 3,
            route: Route::Title,
            service: Service::Dblp,
            dump: "DBLP dump of 2026-11-01, local index".into(),
            answer: crate::resolve::Answer::Hits { works: vec![work] },
        }];
        let body = serde_json::to_string(&answers).unwrap();
        assert_eq!(index_answers(200, &body).unwrap(), answers);
        assert!(index_answers(404, "no index")
            .unwrap_err()
            .contains("answered 404: no index"));
        assert!(index_answers(200, "{")
            .unwrap_err()
            .starts_with("the relay's index answer is not readable"));
    }
}
