//! Semantic Scholar, Crossref and OpenAlex bodies as one normalized `Work`.
//!
//! The browser executes requests; the core plans them and reads what came
//! back. Requests are therefore plain data ([`request::Request`]: method, URL,
//! headers, body) built from parameters that include the base URL, and every
//! response body — success or error — is read by one function of `(service,
//! status, body)`: [`parse::parse_response`]. Keeping both halves pure lets
//! the same code run on recorded fixtures under `cargo test` and on live
//! responses in wasm32. Each backend's record is reduced to the few fields
//! every later step needs (ids, DOI, title, authors, date, venue, abstract,
//! citation count); anything else stays in the raw body, which the caller
//! still holds.

pub mod arxiv;
pub mod error;
pub mod parse;
pub mod request;

pub use error::{parse_error, ApiError, ApiErrorKind, Service};
pub use parse::{parse_response, Page};

use serde::{Deserialize, Serialize};

/// One author as a backend gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "WorkAuthor"))]
pub struct Author {
    /// Full display name (`Ashish Vaswani`).
    pub name: String,
    /// Given name, when the backend splits names (Crossref does).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub given: Option<String>,
    /// Family name, when the backend splits names.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub family: Option<String>,
}

/// A publication date, as precise as the backend knows it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PubDate {
    /// Year.
    pub year: i32,
    /// Month 1–12, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub month: Option<u8>,
    /// Day 1–31, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub day: Option<u8>,
}

impl PubDate {
    /// Reads `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; out-of-range parts are dropped.
    pub fn parse(text: &str) -> Option<PubDate> {
        let mut parts = text.trim().split('-');
        let year: i32 = parts.next()?.trim().parse().ok()?;
        let month = parts
            .next()
            .and_then(|m| m.trim().parse::<u8>().ok())
            .filter(|m| (1..=12).contains(m));
        let day = month.and(
            parts
                .next()
                .and_then(|d| d.trim().parse::<u8>().ok())
                .filter(|d| (1..=31).contains(d)),
        );
        Some(PubDate { year, month, day })
    }
}

/// What an editorial notice does to the work it is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// Retracted (Crossref's `retraction`, `withdrawal`, `removal`;
    /// OpenAlex's `is_retracted`).
    Retraction,
    /// An expression of concern: the work stands, under a warning.
    ExpressionOfConcern,
    /// A correction (`correction`, `erratum`, `corrigendum`, `addendum`,
    /// `partial_retraction`, `clarification`): the work stands, amended.
    Correction,
}

impl NoticeKind {
    /// The kind of a Crossref update type (`retraction`,
    /// `expression_of_concern`, …, in any case, `-` or `_`); `None` for a
    /// type that says nothing about the work's standing (`new_version`).
    pub fn from_crossref(update_type: &str) -> Option<NoticeKind> {
        let t = update_type
            .trim()
            .to_ascii_lowercase()
            .replace(['-', ' '], "_");
        match t.as_str() {
            "retraction" | "withdrawal" | "removal" => Some(NoticeKind::Retraction),
            "expression_of_concern" => Some(NoticeKind::ExpressionOfConcern),
            "correction" | "erratum" | "corrigendum" | "addendum" | "partial_retraction"
            | "clarification" => Some(NoticeKind::Correction),
            _ => None,
        }
    }

    /// The kind in words (`retraction`, `expression of concern`, `correction`).
    pub fn label(self) -> &'static str {
        match self {
            NoticeKind::Retraction => "retraction",
            NoticeKind::ExpressionOfConcern => "expression of concern",
            NoticeKind::Correction => "correction",
        }
    }
}

/// An editorial notice about a work: a retraction, an expression of
/// concern or a correction, as an index records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Notice {
    /// What the notice does.
    pub kind: NoticeKind,
    /// The notice's own DOI, when the index gives it (OpenAlex's
    /// `is_retracted` has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// When it was issued, when the index says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<PubDate>,
    /// Who recorded it (`retraction-watch`, `publisher`, `openalex`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Notice {
    /// Whether two notices are the same one: same kind, same DOI (in any
    /// case) or both without.
    pub fn same_as(&self, other: &Notice) -> bool {
        let key = |n: &Notice| n.doi.as_deref().and_then(doi_key);
        self.kind == other.kind && key(self) == key(other)
    }
}

/// One paper, normalized from any backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Work {
    /// The backend the record came from.
    pub source: Service,
    /// The backend's own id: S2 paperId, OpenAlex `W…`, or the DOI for Crossref.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub id: Option<String>,
    /// Bare DOI as deposited (no `https://doi.org/`, case kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub doi: Option<String>,
    /// arXiv id without version.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub arxiv_id: Option<String>,
    /// Semantic Scholar paperId.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub s2_id: Option<String>,
    /// OpenAlex work id (`W…`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub openalex_id: Option<String>,
    /// PubMed id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub pmid: Option<String>,
    /// PubMed Central id (`PMC…`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub pmcid: Option<String>,
    /// Title (empty when the response did not include it).
    pub title: String,
    /// Authors in order.
    pub authors: Vec<Author>,
    /// Publication date.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub published: Option<PubDate>,
    /// Journal, conference or repository name.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub venue: Option<String>,
    /// Abstract as plain text (OpenAlex's inverted index rebuilt, JATS tags removed).
    #[serde(rename = "abstract", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub abstract_text: Option<String>,
    /// Citation count.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub citation_count: Option<u64>,
    /// The backend's record type (`journal-article`, `preprint`, …).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub kind: Option<String>,
    /// Notices about this work: retractions, expressions of concern,
    /// corrections (Crossref's `updated-by`, OpenAlex's `is_retracted`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub updated_by: Vec<Notice>,
    /// When this record is itself a notice: what it does and the DOI of the
    /// work it is about (Crossref's `update-to`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub update_to: Vec<Notice>,
}

impl Work {
    /// An empty work from `source`.
    pub fn empty(source: Service) -> Work {
        Work {
            source,
            id: None,
            doi: None,
            arxiv_id: None,
            s2_id: None,
            openalex_id: None,
            pmid: None,
            pmcid: None,
            title: String::new(),
            authors: Vec::new(),
            published: None,
            venue: None,
            abstract_text: None,
            citation_count: None,
            kind: None,
            updated_by: Vec::new(),
            update_to: Vec::new(),
        }
    }

    /// The notice that retracts this work, if an index records one (the
    /// first with a DOI, else the first).
    pub fn retraction(&self) -> Option<&Notice> {
        let mut all = self
            .updated_by
            .iter()
            .filter(|n| n.kind == NoticeKind::Retraction);
        let first = all.clone().next();
        all.find(|n| n.doi.is_some()).or(first)
    }

    /// Publication year.
    pub fn year(&self) -> Option<i32> {
        self.published.map(|d| d.year)
    }

    /// The DOI's comparison key (bare, lowercased), if any.
    pub fn doi_key(&self) -> Option<String> {
        self.doi.as_deref().and_then(doi_key)
    }

    /// Who wrote it and where it appeared, as a result list shows it under
    /// the title: the first three authors (then `et al.`), and the venue,
    /// joined by ` · `; empty when the record has neither.
    pub fn byline(&self) -> String {
        let names: Vec<&str> = self
            .authors
            .iter()
            .map(|a| a.name.trim())
            .filter(|n| !n.is_empty())
            .collect();
        let mut who = names.iter().take(3).copied().collect::<Vec<_>>().join(", ");
        if names.len() > 3 {
            who.push_str(" et al.");
        }
        let venue = self.venue.as_deref().map(str::trim).unwrap_or("");
        [who.as_str(), venue]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// Strips a resolver or scheme prefix from a DOI; see [`crate::ids::strip_doi_prefix`].
pub fn strip_doi_prefix(doi: &str) -> (&str, bool) {
    crate::ids::strip_doi_prefix(doi)
}

/// A bare DOI, case kept (`https://doi.org/`, `doi:` and whitespace removed);
/// `None` when nothing DOI-like remains. See [`crate::ids::Doi::parse`].
pub fn bare_doi(doi: &str) -> Option<String> {
    crate::ids::Doi::parse(doi).map(|d| d.as_str().to_string())
}

/// The comparison key of a DOI: bare and case-folded (DOIs are
/// case-insensitive; OpenAlex lowercases them, S2 keeps the deposited case).
pub fn doi_key(doi: &str) -> Option<String> {
    crate::ids::Doi::parse(doi).map(|d| d.key())
}

/// An arXiv id without its version suffix; see [`crate::ids::strip_arxiv_version`].
pub fn strip_arxiv_version(id: &str) -> String {
    crate::ids::strip_arxiv_version(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_doi(input: &str, bare: Option<&str>, key: Option<&str>) {
        assert_eq!(bare_doi(input).as_deref(), bare, "{input}");
        assert_eq!(doi_key(input).as_deref(), key, "{input}");
    }

    fn check_byline(authors: &[&str], venue: Option<&str>, expected: &str) {
        let mut w = Work::empty(Service::Crossref);
        w.authors = authors
            .iter()
            .map(|n| Author {
                name: n.to_string(),
                given: None,
                family: None,
            })
            .collect();
        w.venue = venue.map(str::to_string);
        assert_eq!(w.byline(), expected);
    }

    /// Issue 31: search results said no authors or venue.
    #[test]
    fn a_byline_names_three_authors_and_the_venue() {
        check_byline(
            &["A One", "B Two"],
            Some("NeurIPS"),
            "A One, B Two · NeurIPS",
        );
        check_byline(
            &["A One", "B Two", "C Three", "D Four"],
            None,
            "A One, B Two, C Three et al.",
        );
        check_byline(&[], Some(" ICML "), "ICML");
        check_byline(&["", " "], None, "");
    }

    #[test]
    fn dois() {
        check_doi(
            "10.1038/S41587-021-01033-z",
            Some("10.1038/S41587-021-01033-z"),
            Some("10.1038/s41587-021-01033-z"),
        );
        check_doi(
            "https://doi.org/10.1/ABC",
            Some("10.1/ABC"),
            Some("10.1/abc"),
        );
        check_doi("HTTPS://DOI.ORG/10.1/x", Some("10.1/x"), Some("10.1/x"));
        check_doi("doi:10.5/y ", Some("10.5/y"), Some("10.5/y"));
        check_doi("", None, None);
        check_doi("not a doi", None, None);
        check_doi("10.1234", None, None);
    }

    #[test]
    fn arxiv_versions() {
        for (i, o) in [
            ("1706.03762v5", "1706.03762"),
            ("hep-th/9901001v2", "hep-th/9901001"),
            ("1706.03762", "1706.03762"),
            ("v2", "v2"),
        ] {
            assert_eq!(strip_arxiv_version(i), o);
        }
    }

    #[test]
    fn dates() {
        assert_eq!(
            PubDate::parse("2017-06-12"),
            Some(PubDate {
                year: 2017,
                month: Some(6),
                day: Some(12)
            })
        );
        assert_eq!(
            PubDate::parse("2017"),
            Some(PubDate {
                year: 2017,
                month: None,
                day: None
            })
        );
        assert_eq!(
            PubDate::parse("2017-13-01"),
            Some(PubDate {
                year: 2017,
                month: None,
                day: None
            })
        );
        assert_eq!(PubDate::parse("x"), None);
    }
}
