//! Layer 2: does the cited work exist? Which service to ask, and what its
//! answer means — both pure, with the request in between left to the caller.
//!
//! The routing follows what a browser can call. A DOI goes to Crossref's
//! `/works/{doi}`, except arXiv's DataCite DOIs (`10.48550/arXiv.X`), which
//! Crossref does not hold: those, and any arXiv id found in `eprint`, an
//! arxiv.org `url` or an "arXiv:…" in `journal`/`note`, go to Semantic
//! Scholar as `paper/ARXIV:X`, because the arXiv API sends no CORS headers.
//! Everything else is a Semantic Scholar title search. The lookup is data
//! ([`Lookup`]: service, path, query); the caller sends it and hands back
//! the status and body, which [`crate::works::parse_response`] reads.
//!
//! [`crate::resolve::Run`] supersedes this one-lookup plan: it follows a
//! DOI from Crossref to DataCite, OpenAlex and Semantic Scholar, an arXiv id
//! to DataCite, and a title across the search services, and batches them.
//! This module stays for the surfaces that have not moved to it yet.
//!
//! The outcome keeps "we could not ask" apart from "it is not there": a rate
//! limit, a server error, a forbidden key or no response at all is
//! [`Existence::ApiError`], never [`Existence::NotFound`]. Only a 404 (or an
//! empty search) says a work does not exist; a title search whose best hit
//! shares less than half its normalized title with ours counts as not found,
//! since matching it would only compare two unrelated papers.

use super::parse::Entry;
use crate::works::{self, ApiError, ApiErrorKind, Service, Work};

/// Which rule picked the lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "LookupRoute"))]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// A DOI, looked up in Crossref.
    Doi,
    /// An arXiv DataCite DOI, looked up in Semantic Scholar by arXiv id.
    ArxivDoi,
    /// An arXiv id, looked up in Semantic Scholar.
    Arxiv,
    /// No identifier: a Semantic Scholar title search.
    TitleSearch,
}

/// One request to make, as data.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Lookup {
    /// The service to ask.
    pub service: Service,
    /// Why this service.
    pub route: Route,
    /// Path below the service's API root (`/works/10.1038/x`,
    /// `/graph/v1/paper/ARXIV:1706.03762`), percent-encoded.
    pub path: String,
    /// Query parameters, not encoded.
    pub query: Vec<(String, String)>,
    /// The identifier or title looked up.
    pub id: String,
}

/// The fields asked of Semantic Scholar: what matching compares.
pub const S2_FIELDS: &str =
    "title,authors,year,venue,journal,externalIds,publicationDate,publicationTypes";

/// The arXiv id of a DataCite arXiv DOI (`10.48550/arXiv.1706.03762`);
/// see [`crate::ids::Doi::arxiv`].
pub fn arxiv_from_doi(doi: &str) -> Option<String> {
    crate::ids::Doi::parse(doi)?
        .arxiv()
        .map(|a| a.as_str().to_string())
}

pub use super::format::arxiv_id;

/// Percent-encodes a path part, keeping `/` and the unreserved characters.
fn encode_path(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/' | b':') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn s2_paper(route: Route, id: String) -> Lookup {
    Lookup {
        service: Service::SemanticScholar,
        route,
        path: format!("/graph/v1/paper/ARXIV:{}", encode_path(&id)),
        query: vec![("fields".to_string(), S2_FIELDS.to_string())],
        id,
    }
}

/// Decides what to look up for an entry; `None` when it has no DOI, no arXiv
/// id and no title.
pub fn plan(entry: &Entry) -> Option<Lookup> {
    if let Some(doi) = entry.decoded("doi").and_then(|d| works::bare_doi(&d)) {
        if let Some(id) = arxiv_from_doi(&doi) {
            return Some(s2_paper(Route::ArxivDoi, id));
        }
        return Some(Lookup {
            service: Service::Crossref,
            route: Route::Doi,
            path: format!("/works/{}", encode_path(&doi)),
            query: Vec::new(),
            id: doi,
        });
    }
    if let Some(id) = arxiv_id(entry) {
        return Some(s2_paper(Route::Arxiv, id));
    }
    let title = entry.decoded("title")?;
    Some(Lookup {
        service: Service::SemanticScholar,
        route: Route::TitleSearch,
        path: "/graph/v1/paper/search".to_string(),
        query: vec![
            ("query".to_string(), title.clone()),
            ("fields".to_string(), S2_FIELDS.to_string()),
            ("limit".to_string(), "5".to_string()),
        ],
        id: title,
    })
}

/// What the service's answer says about the work.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Existence {
    /// The work exists; this is its record.
    Exists {
        /// The record, normalized.
        work: Box<Work>,
    },
    /// The service says there is no such work.
    NotFound {
        /// Why we say so, lowercase.
        reason: String,
    },
    /// We could not find out: the answer is no evidence either way.
    ApiError {
        /// What went wrong.
        error: ApiError,
    },
}

/// Below this title similarity (0–1) a title search's best hit is not taken
/// as the cited work.
pub const SEARCH_FLOOR: f64 = 0.5;

/// Reads the answer to `lookup`: HTTP `status` (0 when no response came)
/// and `body`. `title` is the entry's title, used to pick among search hits.
pub fn outcome(lookup: &Lookup, title: Option<&str>, status: u16, body: &str) -> Existence {
    let page = match works::parse_response(lookup.service, status, body) {
        Ok(p) => p,
        Err(e) if e.kind == ApiErrorKind::NotFound => {
            return Existence::NotFound {
                reason: format!(
                    "{} has no record for `{}`",
                    lookup.service.name(),
                    lookup.id
                ),
            }
        }
        Err(error) => return Existence::ApiError { error },
    };
    if lookup.route != Route::TitleSearch {
        return match page.works.into_iter().next() {
            Some(w) => Existence::Exists { work: Box::new(w) },
            None => Existence::NotFound {
                reason: format!(
                    "{} returned no record for `{}`",
                    lookup.service.name(),
                    lookup.id
                ),
            },
        };
    }
    let ours = title.unwrap_or(&lookup.id);
    let mut scorer = crate::title::TitleScorer::new(ours);
    let best = page
        .works
        .into_iter()
        .map(|w| (scorer.ratio(&w.title) / 100.0, w))
        .fold(None::<(f64, Work)>, |best, (r, w)| match best {
            Some((br, bw)) if br >= r => Some((br, bw)),
            _ => Some((r, w)),
        });
    match best {
        Some((r, w)) if r >= SEARCH_FLOOR => Existence::Exists { work: Box::new(w) },
        Some((r, _)) => Existence::NotFound {
            reason: format!(
                "no search result has a similar title (best similarity {:.2})",
                r
            ),
        },
        None => Existence::NotFound {
            reason: "the title search found nothing".to_string(),
        },
    }
}

/// What the verification engine's decision for an entry
/// ([`crate::resolve::Resolution`]) says about its existence, for the match
/// layers ([`super::matching::verify`]): the record found (for a wrong
/// identifier, the record its title found, whose identifier is the right
/// one), "not found" only when every source answered without it, and
/// otherwise the failure of the first source that could not be asked, with
/// every reason.
pub fn from_resolution(r: &crate::resolve::Resolution) -> Existence {
    use crate::resolve::{Answer, Outcome};
    match &r.outcome {
        Outcome::Found { work, .. } => Existence::Exists {
            work: Box::new(work.clone()),
        },
        Outcome::WrongId { record, .. } => Existence::Exists {
            work: Box::new(record.clone()),
        },
        Outcome::NotFound => Existence::NotFound {
            reason: "every source was asked and none has this work".into(),
        },
        Outcome::Unverified { reasons } => {
            let first = r.evidence.iter().find_map(|e| match &e.answer {
                Answer::Failed { error } => Some(error.clone()),
                _ => None,
            });
            let mut error = first.unwrap_or_else(|| ApiError::new(Service::SemanticScholar, 0, ""));
            error.message = reasons.join("; ");
            Existence::ApiError { error }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bibtex::parse::parse;

    fn entry(fields: &str) -> Entry {
        parse(&format!("@misc{{k, {fields}}}"))
            .entries
            .into_iter()
            .next()
            .expect("one entry")
    }

    /// `(route, service, path, id)` of the plan for an entry with `fields`.
    fn check(fields: &str, expected: Option<(Route, Service, &str, &str)>) {
        let got = plan(&entry(fields)).map(|l| (l.route, l.service, l.path, l.id));
        let want = expected.map(|(r, s, p, i)| (r, s, p.to_string(), i.to_string()));
        assert_eq!(got, want, "plan for {fields:?}");
    }

    #[test]
    fn routes() {
        use Route::*;
        use Service::{Crossref as CR, SemanticScholar as S2};
        check(
            "doi={10.1038/srep16696}, title={T}",
            Some((Doi, CR, "/works/10.1038/srep16696", "10.1038/srep16696")),
        );
        check(
            "doi={https://doi.org/10.1371/journal.pone.0033693}",
            Some((
                Doi,
                CR,
                "/works/10.1371/journal.pone.0033693",
                "10.1371/journal.pone.0033693",
            )),
        );
        check(
            "doi={10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0}",
            Some((
                Doi,
                CR,
                "/works/10.1002/%28SICI%291097-4571%28199806%2949:8%3C693::AID-ASI4%3E3.0.CO%3B2-0",
                "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0",
            )),
        );
        check(
            "doi={10.48550/arXiv.1706.03762}",
            Some((
                ArxivDoi,
                S2,
                "/graph/v1/paper/ARXIV:1706.03762",
                "1706.03762",
            )),
        );
        check(
            "doi={10.48550/ARXIV.1706.03762v5}",
            Some((
                ArxivDoi,
                S2,
                "/graph/v1/paper/ARXIV:1706.03762",
                "1706.03762",
            )),
        );
        check(
            "eprint={1706.03762}, archivePrefix={arXiv}",
            Some((Arxiv, S2, "/graph/v1/paper/ARXIV:1706.03762", "1706.03762")),
        );
        check(
            "eprint={1706.03762v2}",
            Some((Arxiv, S2, "/graph/v1/paper/ARXIV:1706.03762", "1706.03762")),
        );
        check(
            "eprint={hep-th/9711200}, eprinttype={arxiv}",
            Some((
                Arxiv,
                S2,
                "/graph/v1/paper/ARXIV:hep-th/9711200",
                "hep-th/9711200",
            )),
        );
        check(
            "url={https://arxiv.org/abs/2106.09685v3}",
            Some((Arxiv, S2, "/graph/v1/paper/ARXIV:2106.09685", "2106.09685")),
        );
        check(
            "url={https://arxiv.org/pdf/2106.09685.pdf}",
            Some((Arxiv, S2, "/graph/v1/paper/ARXIV:2106.09685", "2106.09685")),
        );
        check(
            "journal={arXiv preprint arXiv:1810.04805}",
            Some((Arxiv, S2, "/graph/v1/paper/ARXIV:1810.04805", "1810.04805")),
        );
        check(
            "note={{arXiv}: 1810.04805}",
            Some((Arxiv, S2, "/graph/v1/paper/ARXIV:1810.04805", "1810.04805")),
        );
        check(
            "title={Attention Is All You Need}",
            Some((
                TitleSearch,
                S2,
                "/graph/v1/paper/search",
                "Attention Is All You Need",
            )),
        );
        check(
            "title={Attention}, eprint={not-an-id}",
            Some((TitleSearch, S2, "/graph/v1/paper/search", "Attention")),
        );
        check("author={A}", None);
    }

    fn fixture(path: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/api")
            .join(path);
        std::fs::read_to_string(p).expect("fixture")
    }

    /// The status of the outcome for a recorded response.
    fn check_outcome(fields: &str, status: u16, body_file: Option<&str>, expected: &str) {
        let e = entry(fields);
        let lookup = plan(&e).expect("a lookup");
        let body = body_file.map(fixture).unwrap_or_default();
        let got = outcome(&lookup, e.decoded("title").as_deref(), status, &body);
        let name = match &got {
            Existence::Exists { .. } => "exists",
            Existence::NotFound { .. } => "not_found",
            Existence::ApiError { .. } => "api_error",
        };
        assert_eq!(name, expected, "{fields} / {body_file:?}: {got:?}");
    }

    #[test]
    fn search_picks_the_most_similar_title() {
        let e = entry("title={Neural Turing Machines}");
        let lookup = plan(&e).expect("lookup");
        let body = fixture("semanticscholar/search_title_turing.json");
        match outcome(&lookup, e.decoded("title").as_deref(), 200, &body) {
            Existence::Exists { work } => assert_eq!(work.title, "Neural Turing Machines"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn outcomes_from_recorded_responses() {
        check_outcome(
            "doi={10.1038/srep16696}",
            200,
            Some("crossref/work_by_doi_nature_srep.json"),
            "exists",
        );
        check_outcome(
            "doi={10.1371/notarealdoi}",
            404,
            Some("crossref/error_404_work_not_found.txt"),
            "not_found",
        );
        check_outcome(
            "doi={10.1371/x}",
            400,
            Some("crossref/error_400_query_with_doi.json"),
            "api_error",
        );
        check_outcome(
            "eprint={1706.03762}",
            200,
            Some("semanticscholar/paper_by_arxiv_id_full_fields.json"),
            "exists",
        );
        check_outcome(
            "eprint={2603.27630}",
            429,
            Some("semanticscholar/error_429_too_many_requests.json"),
            "api_error",
        );
        check_outcome(
            "eprint={2603.27630}",
            403,
            Some("semanticscholar/error_403_forbidden_bad_api_key.json"),
            "api_error",
        );
        check_outcome(
            "eprint={0000.00000}",
            404,
            Some("semanticscholar/error_404_paper_not_found.json"),
            "not_found",
        );
        check_outcome("eprint={1706.03762}", 503, None, "api_error");
        check_outcome("eprint={1706.03762}", 0, None, "api_error");
        check_outcome(
            "doi={10.1038/srep16696}",
            200,
            Some("crossref/error_404_work_not_found.txt"),
            "api_error",
        );
        check_outcome(
            "title={n0 r3sult s3arch t3rm}",
            200,
            Some("semanticscholar/search_empty_results.json"),
            "not_found",
        );
        // The best of several hits is taken, whatever its rank.
        check_outcome(
            "title={Neural {Turing} Machines}",
            200,
            Some("semanticscholar/search_title_turing.json"),
            "exists",
        );
        check_outcome(
            "title={Attention is all you need}",
            200,
            Some("semanticscholar/search_relevance_with_abstracts.json"),
            "exists",
        );
        // Hits, but none with a similar title: not the cited work.
        check_outcome(
            "title={Photosynthesis in desert succulents}",
            200,
            Some("semanticscholar/search_relevance_with_abstracts.json"),
            "not_found",
        );
    }

    #[test]
    fn resolutions_become_existence() {
        use crate::resolve::{Answer, Evidence, Outcome, Resolution, Route};
        let work = works::parse_response(
            Service::Crossref,
            200,
            &fixture("crossref/work_by_doi_plos_article.json"),
        )
        .expect("recorded work")
        .works
        .remove(0);
        let failed = Evidence {
            service: Service::OpenAlex,
            route: Route::Title,
            asked: "T".into(),
            answer: Answer::Failed {
                error: ApiError::new(Service::OpenAlex, 429, "budget"),
            },
            dump: None,
        };
        let check = |outcome: Outcome, evidence: Vec<Evidence>, expected: &str| {
            let r = Resolution {
                key: "k".into(),
                evidence,
                outcome,
            };
            let got = match from_resolution(&r) {
                Existence::Exists { work } => format!("exists {}", work.title),
                Existence::NotFound { reason } => format!("not found: {reason}"),
                Existence::ApiError { error } => format!("error {}", error),
            };
            assert_eq!(got, expected);
        };
        check(
            Outcome::Found {
                work: work.clone(),
                via: Service::Crossref,
            },
            vec![],
            "exists Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice",
        );
        check(
            Outcome::WrongId {
                cited: "10.1/x".into(),
                record: work.clone(),
            },
            vec![],
            "exists Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice",
        );
        check(
            Outcome::NotFound,
            vec![],
            "not found: every source was asked and none has this work",
        );
        check(
            Outcome::Unverified {
                reasons: vec!["openalex: budget spent".into()],
            },
            vec![failed],
            "error openalex answered 429 (rate limited): openalex: budget spent",
        );
    }
}
