//! The verification engine: does each cited work exist, and where is its record?
//!
//! One step machine, [`Run`], answers that for many references at once, and
//! every surface drives it: the app, the command-line tool and the JS package
//! only move its requests and replies. The run hands out requests
//! ([`Next::Send`]), says when the next one may go ([`Next::WaitUntil`]),
//! takes each reply ([`Run::answer`]) and ends with a [`Report`]: for each
//! reference, every source consulted ([`Evidence`]) and one decision
//! ([`Outcome`]). It reads no clock: the caller passes the time in.
//!
//! # Routes
//!
//! Each route falls through on "not here" and stops at the first definite
//! match:
//!
//! - **DOI**: Crossref, then DataCite (Zenodo, figshare, arXiv's own
//!   DOIs…), then OpenAlex, then Semantic Scholar; a DOI of a prefix DataCite
//!   registers (Zenodo's 10.5281, figshare's 10.6084) is asked of DataCite
//!   before Crossref. An arXiv DOI (`10.48550/arXiv.X`) takes the arXiv route.
//! - **arXiv id**: Semantic Scholar `ARXIV:<id>` without version, DataCite
//!   `10.48550/arXiv.<id>`, and on [`Surface::Native`] arXiv's export API
//!   (it sends no CORS headers, so a browser cannot read it).
//! - **Title**: Semantic Scholar's search, OpenAlex, Crossref
//!   `query.bibliographic`, and on [`Surface::Native`] DBLP. Each search
//!   keeps its nearest records ([`Answer::Hits`]), best first, so the verdict
//!   rules can tell a near-miss title from an absent one.
//!
//! A reference whose identifier resolves nowhere while its title is found is
//! [`Outcome::WrongId`]; [`Outcome::NotFound`] is said only when every source
//! that could be asked answered and none has the work; a source that could
//! not be asked makes the reference [`Outcome::Unverified`], with the reason.
//!
//! # Batching and pacing
//!
//! Identifiers go out in the services' batch forms: Semantic Scholar
//! `POST /paper/batch` (500 ids, DOIs and arXiv ids mixed), then for the
//! ones it lacks Crossref `filter=doi:…` (50), DataCite `/dois?ids=…` (50),
//! OpenAlex `filter=doi:a|b` (50), and arXiv `id_list=` (Native). A DOI
//! missing from a batch answer falls through to the next service. When S2's
//! batch cannot be sent (in a browser without a key its preflight is
//! refused), every S2 ask moves behind the others and goes one id at a time:
//! the 50-id batches of Crossref, DataCite (arXiv ids as their 10.48550 DOIs)
//! and OpenAlex answer first, and S2's 1/s GETs are spent only on what none
//! of them has. Title
//! searches are spread over the search services, whose limits are
//! independent: a title goes to whichever search service is free and has
//! not been asked about it yet, so several services work at once. OpenAlex
//! takes up to twenty titles in one search, each an exact phrase joined by
//! `OR` ([`crate::works::request::openalex_phrases`]; titles of four words
//! or more, and only when two or more wait): a title it returns is decided
//! on that page, one it does not is asked on its own as before, the phrase
//! miss counting as no evidence (a near-miss title is not a phrase of the
//! real one). Keyless, OpenAlex's daily allowance pays for ten searches;
//! shared, they cover a whole bibliography's titles.
//!
//! Pacing and retries come from [`crate::fetch`]: one [`fetch::Lane`] per
//! service (Crossref's list queries apart from its single lookups), the
//! retry table, and the services' known behaviour ([`fetch::service_step`]:
//! Semantic Scholar's unreadable answers waited out 5 → 10 → 20 → 40 s,
//! OpenAlex's 429 ending its use for the run).
//!
//! # DBLP in the browser
//!
//! DBLP is asked only on [`Surface::Native`]. A search of public issue
//! threads and pages (2026-12) found no statement or report that
//! `dblp.org/search/publ/api` answers cross-origin requests with
//! `Access-Control-Allow-Origin`; DBLP documents a `jsonp` format, the
//! usual sign of an API made for scripts that cannot read it cross-origin.
//! Until evidence says otherwise the app does not count on it, and a page
//! never claims absence of a search that left DBLP out: where its answer
//! could change the verdict the evidence names it as not asked
//! ([`NOT_FROM_A_PAGE`]), so the reference stays unverified.
//!
//! # Interface notes
//!
//! Beyond the interface first agreed: [`Next::AwaitReplies`] says nothing
//! can go out until a reply comes back (an edge sending one request at a
//! time never sees it); [`Report::requests`] counts the requests sent;
//! [`Options`] also carries the S2 spacing, the S2 back-off base, the retry
//! table, the number of hits kept per title search and a switch for the
//! batch forms ([`Options::new`] fills the documented defaults).
//!
//! An edge's loop, in outline:
//!
//! ```
//! use citegate_core::resolve::{Next, Options, Reference, Reply, Run, Surface};
//! use citegate_core::works::request::Endpoints;
//!
//! let refs = vec![Reference { key: "k".into(), title: Some("A title".into()), ..Reference::default() }];
//! let mut run = Run::new(refs, Options::new(Endpoints::public(), Surface::Browser));
//! let mut now = 0.0;
//! loop {
//!     match run.next(now) {
//!         Next::Send(out) => {
//!             for o in out {
//!                 // Send `o.request`; here every service answers "no results".
//!                 let body = match o.request.service {
//!                     citegate_core::works::Service::SemanticScholar => r#"{"total":0,"data":[]}"#,
//!                     citegate_core::works::Service::OpenAlex => r#"{"meta":{"count":0},"results":[]}"#,
//!                     _ => r#"{"message-type":"work-list","message":{"items":[]}}"#,
//!                 };
//!                 run.answer(o.id, Reply { status: 200, body: body.into(), ..Reply::default() }, now);
//!             }
//!         }
//!         Next::WaitUntil(t) => now = t, // sleep until `t` (or a reply arrives)
//!         Next::AwaitReplies => unreachable!("this loop answers at once"),
//!         Next::Done => break,
//!     }
//! }
//! let report = run.report();
//! // Every index the page reached said no, but a page cannot ask DBLP, so
//! // absence is not claimed: the reference is left unverified, and why.
//! let said = report.resolutions[0].outcome.describe();
//! assert!(said.starts_with("could not be verified: DBLP could not be asked"), "{said}");
//! ```

mod run;
#[cfg(test)]
mod tests;

pub use run::{
    Checkpoint, LocalAnswer, Next, Outgoing, Reply, Run, NOT_FROM_A_PAGE, OFFLINE, TITLE_THRESHOLD,
};

use crate::bibtex::parse::Entry;
use crate::fetch::{self, RetryPolicy};
use crate::ids::{ArxivId, Doi};
use crate::works::request::Endpoints;
use crate::works::{ApiError, Service, Work};
use serde::{Deserialize, Serialize};

/// One reference to resolve, from a `.bib` entry, a candidate or a pool paper.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Reference {
    /// The caller's key (a BibTeX key, a row number); never sent anywhere.
    pub key: String,
    /// The cited title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Author names as cited, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// The author list ended in "and others".
    #[serde(default)]
    pub others: bool,
    /// The cited year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Journal, proceedings or publisher as cited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    /// The cited DOI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<Doi>,
    /// The cited arXiv id (from `eprint`, a URL, a note or an arXiv DOI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arxiv: Option<ArxivId>,
}

impl Reference {
    /// The reference a `.bib` entry makes. An arXiv DOI also fills `arxiv`.
    pub fn from_entry(entry: &Entry) -> Reference {
        let doi = entry.decoded("doi").and_then(|d| Doi::parse(&d));
        let arxiv = doi
            .as_ref()
            .and_then(Doi::arxiv)
            .or_else(|| crate::bibtex::format::arxiv_id(entry).and_then(|a| ArxivId::parse(&a)));
        let mut authors = Vec::new();
        let mut others = false;
        if let Some(list) = entry.decoded("author").or_else(|| entry.decoded("editor")) {
            for name in crate::names::split_field(&list) {
                if name.eq_ignore_ascii_case("others") {
                    others = true;
                } else {
                    authors.push(name);
                }
            }
        }
        let year = crate::bibtex::format::entry_year(entry).and_then(Result::ok);
        let venue = ["journal", "journaltitle", "booktitle", "publisher"]
            .iter()
            .find_map(|f| entry.decoded(f))
            .filter(|v| !v.trim().is_empty());
        Reference {
            key: entry.key.clone(),
            title: entry.decoded("title").filter(|t| !t.trim().is_empty()),
            authors,
            others,
            year,
            venue,
            doi,
            arxiv,
        }
    }

    /// The reference a discovery candidate makes: its title, and an arXiv
    /// id when its URLs or snippet name one.
    pub fn from_candidate(key: impl Into<String>, c: &crate::candidates::Candidate) -> Reference {
        let arxiv = [&c.source_url, &c.url, &c.snippet]
            .into_iter()
            .flatten()
            .find_map(|t| crate::candidates::arxiv_id(t))
            .and_then(|a| ArxivId::parse(&a));
        Reference {
            key: key.into(),
            title: Some(c.title.clone()).filter(|t| !t.trim().is_empty()),
            arxiv,
            ..Reference::default()
        }
    }

    /// The reference a pool paper makes (`externalIds.DOI`/`ArXiv`).
    pub fn from_pool_paper(key: impl Into<String>, p: &crate::pool::PoolPaper) -> Reference {
        let doi = p.external_id("DOI").and_then(|d| Doi::parse(&d));
        let arxiv = p
            .external_id("ArXiv")
            .and_then(|a| ArxivId::parse(&a))
            .or_else(|| doi.as_ref().and_then(Doi::arxiv));
        Reference {
            key: key.into(),
            title: p.title.clone().filter(|t| !t.trim().is_empty()),
            authors: p
                .authors
                .iter()
                .flatten()
                .map(|a| a.name.clone())
                .filter(|n| !n.trim().is_empty())
                .collect(),
            others: false,
            year: p.year,
            venue: p.venue.clone().filter(|v| !v.trim().is_empty()),
            doi,
            arxiv,
        }
    }

    /// The DOI to follow on the DOI route: the cited DOI unless it is
    /// arXiv's own (that one takes the arXiv route).
    fn route_doi(&self) -> Option<&Doi> {
        self.doi.as_ref().filter(|d| d.arxiv().is_none())
    }
}

/// Where the run executes: what a browser cannot reach is left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Surface {
    /// A web page: only services that answer cross-origin requests.
    Browser,
    /// The command-line tool: every service, arXiv's export API and DBLP too.
    Native,
    /// A web page behind `citegate relay` (`?relay=BASE`): every service,
    /// as natively, each under the relay's base ([`crate::relay`]).
    Relayed,
}

impl Surface {
    /// Whether DBLP and arXiv's export API, which answer no web page
    /// directly, can be asked.
    pub fn reaches_every_service(self) -> bool {
        self != Surface::Browser
    }
}

/// How a run asks.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Base URLs and credentials.
    pub endpoints: Endpoints,
    /// Browser or native.
    pub surface: Surface,
    /// Semantic Scholar's spacing (the user's setting; 1 s by default).
    pub s2_interval_ms: u64,
    /// First wait after an unreadable Semantic Scholar answer (5 s by
    /// default, doubled per try); tests and the e2e suite shrink it.
    pub s2_backoff_ms: u64,
    /// The general retry table (rate limits, server errors).
    pub retry: RetryPolicy,
    /// Nearest records kept per title search.
    pub title_hits: usize,
    /// Use the batch forms for identifiers (on by default).
    pub batch: bool,
    /// Spacing overrides per service in ms (a relay's own limit, a
    /// loopback test server), applied to every lane of the service.
    pub intervals_ms: std::collections::BTreeMap<Service, u64>,
}

impl Options {
    /// Options with the services' documented pacing and retry rules.
    pub fn new(endpoints: Endpoints, surface: Surface) -> Options {
        Options {
            endpoints,
            surface,
            s2_interval_ms: fetch::DEFAULT_S2_INTERVAL_MS,
            s2_backoff_ms: fetch::S2_UNREADABLE_BACKOFF_MS,
            retry: RetryPolicy::default(),
            title_hits: 5,
            batch: true,
            intervals_ms: Default::default(),
        }
    }
}

/// Which route a lookup belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunRoute"))]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// The cited DOI.
    Doi,
    /// The cited arXiv id (or arXiv DOI).
    Arxiv,
    /// The cited title.
    Title,
}

/// What one source said about one reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunEvidence"))]
pub struct Evidence {
    /// The source.
    pub service: Service,
    /// The route the question came from.
    pub route: Route,
    /// What was asked: the DOI, the arXiv id or the title (never the key).
    pub asked: String,
    /// The answer.
    pub answer: Answer,
    /// When a local index answered rather than the service: the dump and
    /// its date (`DBLP dump of 2026-11-01, local index`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dump: Option<String>,
}

/// One source's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunAnswer"))]
#[serde(tag = "status", rename_all = "snake_case")]
// Answers are few (one per source asked) and read often; the record stays inline.
#[allow(clippy::large_enum_variant)]
pub enum Answer {
    /// The identifier resolved to this record.
    Found {
        /// The record.
        work: Work,
    },
    /// A title search: the nearest records, best first.
    Hits {
        /// Up to [`Options::title_hits`] records.
        works: Vec<Work>,
    },
    /// The source answered and does not have it.
    NotHere,
    /// The source could not be asked or did not answer usably.
    Failed {
        /// Why.
        error: ApiError,
    },
}

/// The decision for one reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunOutcome"))]
#[serde(tag = "status", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)]
pub enum Outcome {
    /// The work exists; this is its record.
    Found {
        /// The record that matched.
        work: Work,
        /// The source of that record.
        via: Service,
    },
    /// The cited DOI or arXiv id resolves nowhere, but the title exists.
    WrongId {
        /// The identifier as cited.
        cited: String,
        /// The record the title found (its DOI or arXiv id is the right one).
        record: Work,
    },
    /// Every source that could be asked answered, and none has the work.
    NotFound,
    /// A source could not be asked, so absence is not established.
    Unverified {
        /// Which source and why, one sentence each.
        reasons: Vec<String>,
    },
}

impl Outcome {
    /// The decision in a researcher's words.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Found { work, via } => {
                let id = work
                    .doi
                    .as_deref()
                    .map(|d| format!(" (doi {d})"))
                    .or_else(|| work.arxiv_id.as_deref().map(|a| format!(" (arXiv {a})")))
                    .unwrap_or_default();
                format!("found in {}{id}", via.label())
            }
            Outcome::WrongId { cited, record } => {
                let right = record
                    .doi
                    .as_deref()
                    .map(|d| format!("doi {d}"))
                    .or_else(|| record.arxiv_id.as_deref().map(|a| format!("arXiv {a}")));
                match right {
                    Some(r) => format!(
                        "the cited identifier {cited} resolves nowhere, but the title is in {} with {r}",
                        record.source.label()
                    ),
                    None => format!(
                        "the cited identifier {cited} resolves nowhere, but the title is in {}",
                        record.source.label()
                    ),
                }
            }
            Outcome::NotFound => {
                "not found: every source was asked and none has this work".to_string()
            }
            Outcome::Unverified { reasons } => {
                format!("could not be verified: {}", reasons.join("; "))
            }
        }
    }
}

/// Every source consulted for one reference, and the decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunResolution"))]
pub struct Resolution {
    /// The reference's key.
    pub key: String,
    /// Each answer, in the order received.
    pub evidence: Vec<Evidence>,
    /// The decision.
    pub outcome: Outcome,
}

/// The result of a run: one resolution per reference, in input order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunReport"))]
pub struct Report {
    /// One per reference, in input order.
    pub resolutions: Vec<Resolution>,
    /// Requests sent, retries included.
    pub requests: u64,
}
