//! The relay's rules: which browser request goes where, with which key, and
//! which answer a browser may read. `citegate relay` (the CLI) serves them;
//! this module decides, with no IO.
//!
//! A lab runs one relay so its browsers reach what they cannot alone —
//! DBLP and arXiv send no CORS headers, and a key kept in one place serves
//! every browser without being handed to any. The app reaches it as every
//! service under one base (`?api=BASE`, or the relay origin the app was
//! built with): `BASE/s2/…`, `BASE/openalex/…`, `BASE/crossref/…`,
//! `BASE/datacite/…`, `BASE/dblp/…`, `BASE/arxiv/…`.
//!
//! Invariants: a request goes only to the API root of the service its first
//! path segment names (an allowlist: anything else is refused, never
//! fetched); a key the browser sent is dropped and the lab's own is added
//! only to its own service's request; an answer carries CORS headers only
//! for the one app origin the relay was started for, and no credential
//! (the keys are masked in the body, and no header but the ones named in
//! [`PASSED_HEADERS`] is passed on).

use crate::works::request::{Endpoints, Method, Request};
use crate::works::Service;

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
}
