//! DOIs and arXiv ids: read from any form people write them in, compared the
//! way the registries compare them.
//!
//! A DOI is case-insensitive (the DOI handbook, section 2.4), so two [`Doi`]s
//! are equal when their lowercased forms are, while the text keeps the case
//! it was deposited or cited with: services echo it back and users recognise
//! it. An arXiv id names a paper across its versions, so an [`ArxivId`]
//! never carries a `v2`: every lookup asks for the paper, not one revision.
//! arXiv's own DOIs (`10.48550/arXiv.<id>`, registered with DataCite) are the
//! bridge between the two: [`Doi::arxiv`] and [`ArxivId::doi`].
//!
//! ```
//! use citegate_core::ids::{ArxivId, Doi};
//!
//! let d = Doi::parse("https://doi.org/10.48550/arXiv.1706.03762v5").unwrap();
//! assert_eq!(d.as_str(), "10.48550/arXiv.1706.03762v5");
//! assert_eq!(d.arxiv().unwrap().as_str(), "1706.03762");
//! assert_eq!(Doi::parse("doi:10.1038/NATURE14539"), Doi::parse("10.1038/nature14539"));
//! assert_eq!(ArxivId::parse("https://arxiv.org/pdf/hep-th/9711200v3").unwrap().as_str(), "hep-th/9711200");
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};

/// The DOI prefix arXiv registers its papers under (with DataCite).
pub const ARXIV_DOI_PREFIX: &str = "10.48550/arxiv.";

/// Strips a resolver or scheme prefix (`https://doi.org/`, `http://dx.doi.org/`,
/// `doi.org/`, `doi:`, any case) and surrounding whitespace from a DOI. Returns
/// the rest, case kept, and whether a prefix was there.
pub fn strip_doi_prefix(doi: &str) -> (&str, bool) {
    let d = doi.trim();
    for prefix in [
        "https://doi.org/",
        "http://doi.org/",
        "https://dx.doi.org/",
        "http://dx.doi.org/",
        "doi.org/",
        "doi:",
    ] {
        if d.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        {
            return (d.get(prefix.len()..).unwrap_or("").trim(), true);
        }
    }
    (d, false)
}

/// Whether a bare DOI (no `doi:` or URL prefix) has the DOI Handbook's
/// syntax (section 2.2): the directory indicator `10`, a registrant code of
/// one or more dot-separated runs of digits (`10.1000.10`; so `10../x` and
/// `10.1./x` are not DOIs), `/`, and a non-empty suffix. The handbook lets a
/// suffix hold any printable character; white space is refused here because
/// a DOI written with a space in a `.bib` field is two words, not one name.
/// The one DOI rule: [`Doi::parse`] and the `.bib` checks both use it.
pub fn is_doi(d: &str) -> bool {
    let Some((registrant, suffix)) = d.strip_prefix("10.").and_then(|r| r.split_once('/')) else {
        return false;
    };
    !registrant.is_empty()
        && registrant
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && !suffix.is_empty()
        && !d.chars().any(char::is_whitespace)
}

/// An arXiv id without its version suffix (`1706.03762v5` → `1706.03762`,
/// `solv-int/9901001v1` → `solv-int/9901001`). Only a `v<digits>` that
/// follows a digit is a version, so `solv-int` stays whole. Case is kept.
pub fn strip_arxiv_version(id: &str) -> String {
    let id = id.trim();
    if let Some(pos) = id.rfind(['v', 'V']) {
        let (head, tail) = id.split_at(pos);
        let digits = tail.get(1..).unwrap_or("");
        if !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && head.bytes().last().is_some_and(|b| b.is_ascii_digit())
        {
            return head.to_string();
        }
    }
    id.to_string()
}

/// A DOI, bare (`10.1038/nature14539`), case kept, compared case-insensitively.
#[derive(Debug, Clone, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Doi(String);

impl Doi {
    /// Reads a DOI written bare, as a `doi.org` URL or with `doi:`; `None`
    /// unless what remains looks like `10.<registrant>/<suffix>`.
    pub fn parse(text: &str) -> Option<Doi> {
        let (d, _) = strip_doi_prefix(text);
        is_doi(d).then(|| Doi(d.to_string()))
    }

    /// The DOI as given, without any prefix.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The comparison key: lowercased.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }

    /// The arXiv id of an arXiv DOI (`10.48550/arXiv.1706.03762` → `1706.03762`).
    pub fn arxiv(&self) -> Option<ArxivId> {
        let lower = self.0.to_ascii_lowercase();
        lower.strip_prefix(ARXIV_DOI_PREFIX)?;
        let rest = self.0.get(ARXIV_DOI_PREFIX.len()..)?;
        ArxivId::parse(rest)
    }
}

impl PartialEq for Doi {
    fn eq(&self, other: &Doi) -> bool {
        self.0.eq_ignore_ascii_case(&other.0) || self.key() == other.key()
    }
}

impl Hash for Doi {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl fmt::Display for Doi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Doi {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Doi {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Doi, D::Error> {
        let text = String::deserialize(d)?;
        Doi::parse(&text).ok_or_else(|| serde::de::Error::custom("not a doi"))
    }
}

/// An arXiv id without version: new style `1706.03762`, old style
/// `hep-th/9711200` (archive lowercased, as arXiv writes it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ArxivId(String);

/// Whether `s` (without version) is `YYMM.NNNN(N)` or `archive(.SUB)/YYMMNNN`.
fn is_arxiv_shape(s: &str) -> bool {
    if let Some((a, b)) = s.split_once('.') {
        if a.len() == 4
            && a.bytes().all(|c| c.is_ascii_digit())
            && (4..=5).contains(&b.len())
            && b.bytes().all(|c| c.is_ascii_digit())
        {
            return true;
        }
    }
    if let Some((archive, num)) = s.split_once('/') {
        return !archive.is_empty()
            && archive
                .bytes()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            && archive
                .bytes()
                .all(|c| c.is_ascii_alphabetic() || c == b'-' || c == b'.')
            && num.len() == 7
            && num.bytes().all(|c| c.is_ascii_digit());
    }
    false
}

impl ArxivId {
    /// Reads an arXiv id from `1706.03762v5`, `arXiv:1706.03762`,
    /// `https://arxiv.org/abs/…` or `/pdf/….pdf`, `10.48550/arXiv.…` (with
    /// or without a DOI prefix), or old style `hep-th/9711200`; the version
    /// is dropped. `None` when the text is not one of these.
    pub fn parse(text: &str) -> Option<ArxivId> {
        let t = text.trim();
        if let Some(d) = Doi::parse(t) {
            if d.as_str()
                .to_ascii_lowercase()
                .starts_with(ARXIV_DOI_PREFIX)
            {
                return d.arxiv();
            }
            return None;
        }
        let lower = t.to_ascii_lowercase();
        let mut rest = t;
        for marker in [
            "arxiv.org/abs/",
            "arxiv.org/pdf/",
            "export.arxiv.org/abs/",
            "arxiv:",
        ] {
            if let Some(i) = lower.find(marker) {
                rest = t.get(i + marker.len()..)?.trim();
                break;
            }
        }
        let rest = rest.trim_end_matches('/');
        let rest = rest
            .strip_suffix(".pdf")
            .or_else(|| rest.strip_suffix(".PDF"))
            .unwrap_or(rest);
        let rest = rest.split(['?', '#']).next().unwrap_or(rest);
        let id = strip_arxiv_version(rest);
        let id = match id.split_once('/') {
            Some((archive, num)) => format!("{}/{num}", archive.to_ascii_lowercase()),
            None => id,
        };
        is_arxiv_shape(&id).then_some(ArxivId(id))
    }

    /// The id, without version.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// arXiv's DataCite DOI for this paper (`10.48550/arXiv.1706.03762`).
    pub fn doi(&self) -> Doi {
        Doi(format!("10.48550/arXiv.{}", self.0))
    }
}

impl fmt::Display for ArxivId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for ArxivId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ArxivId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ArxivId, D::Error> {
        let text = String::deserialize(d)?;
        ArxivId::parse(&text).ok_or_else(|| serde::de::Error::custom("not an arxiv id"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_doi(input: &str, expected: Option<&str>) {
        assert_eq!(
            Doi::parse(input).as_ref().map(Doi::as_str),
            expected,
            "{input}"
        );
    }

    #[test]
    fn dois() {
        check_doi("10.1038/nature14539", Some("10.1038/nature14539"));
        check_doi("https://doi.org/10.1/ABC", Some("10.1/ABC"));
        check_doi("HTTP://DX.DOI.ORG/10.1/x", Some("10.1/x"));
        check_doi("doi:10.5281/zenodo.1234 ", Some("10.5281/zenodo.1234"));
        check_doi("doi.org/10.1000.10/x", Some("10.1000.10/x"));
        check_doi(
            "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0",
            Some("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0"),
        );
        check_doi("", None);
        check_doi("10.1234", None);
        check_doi("10./x", None);
        check_doi("10../x", None);
        check_doi("10.1./x", None);
        check_doi("10.1../x", None);
        check_doi("10.1/", None);
        check_doi("10.12a/x", None);
        check_doi("10.1/a b", None);
        check_doi("not a doi", None);
    }

    #[test]
    fn dois_compare_case_insensitively() {
        let a = Doi::parse("10.1038/NATURE14539").unwrap();
        let b = Doi::parse("https://doi.org/10.1038/nature14539").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "10.1038/NATURE14539");
        assert_eq!(a.key(), "10.1038/nature14539");
        let set: std::collections::HashSet<Doi> = [a, b].into_iter().collect();
        assert_eq!(set.len(), 1);
    }

    fn check_arxiv(input: &str, expected: Option<&str>) {
        assert_eq!(
            ArxivId::parse(input).as_ref().map(ArxivId::as_str),
            expected,
            "{input}"
        );
    }

    #[test]
    fn arxiv_ids() {
        check_arxiv("1706.03762", Some("1706.03762"));
        check_arxiv("1706.03762v5", Some("1706.03762"));
        check_arxiv("arXiv:1706.03762v2", Some("1706.03762"));
        check_arxiv("ARXIV: 2106.09685", Some("2106.09685"));
        check_arxiv("https://arxiv.org/abs/2106.09685v3", Some("2106.09685"));
        check_arxiv("https://arxiv.org/pdf/2106.09685.pdf", Some("2106.09685"));
        check_arxiv("https://arxiv.org/pdf/2106.09685v1", Some("2106.09685"));
        check_arxiv(
            "http://export.arxiv.org/abs/hep-th/9711200",
            Some("hep-th/9711200"),
        );
        check_arxiv("hep-th/9711200", Some("hep-th/9711200"));
        check_arxiv("hep-th/9711200v1", Some("hep-th/9711200"));
        check_arxiv("math.GT/0309136", Some("math.gt/0309136"));
        check_arxiv("10.48550/arXiv.1706.03762", Some("1706.03762"));
        check_arxiv(
            "https://doi.org/10.48550/ARXIV.1706.03762",
            Some("1706.03762"),
        );
        check_arxiv("10.1038/nature14539", None);
        check_arxiv("0704.0001", Some("0704.0001"));
        check_arxiv("1706.037", None);
        check_arxiv("not-an-id", None);
        check_arxiv("", None);
        check_arxiv("solv-int", None);
    }

    #[test]
    fn arxiv_bridges() {
        let id = ArxivId::parse("1706.03762v5").unwrap();
        assert_eq!(id.doi().as_str(), "10.48550/arXiv.1706.03762");
        assert_eq!(id.doi().arxiv(), Some(id));
        assert_eq!(Doi::parse("10.1038/x").unwrap().arxiv(), None);
    }

    #[test]
    fn versions() {
        for (i, o) in [
            ("1706.03762v5", "1706.03762"),
            ("hep-th/9901001v2", "hep-th/9901001"),
            ("solv-int/9901001", "solv-int/9901001"),
            ("1706.03762", "1706.03762"),
            ("v2", "v2"),
        ] {
            assert_eq!(strip_arxiv_version(i), o);
        }
    }

    #[test]
    fn serde_round_trip() {
        let d = Doi::parse("10.5281/Zenodo.1").unwrap();
        let j = serde_json::to_string(&d).unwrap();
        assert_eq!(j, r#""10.5281/Zenodo.1""#);
        assert_eq!(serde_json::from_str::<Doi>(&j).unwrap(), d);
        assert!(serde_json::from_str::<Doi>(r#""x""#).is_err());
        let a = ArxivId::parse("2101.00001").unwrap();
        let j = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<ArxivId>(&j).unwrap(), a);
    }
}
