//! One record of a dump, as the index stores it.

use citegate_core::ids::{ArxivId, Doi};

/// The dump a record comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// DBLP's `dblp.xml(.gz)`.
    Dblp,
    /// arXiv's metadata snapshot (JSON lines).
    Arxiv,
    /// OpenAlex's works snapshot (`part_*.gz`, JSON lines).
    OpenAlex,
    /// Crossref's public data file (`*.json.gz`, `{"items": [...]}`).
    Crossref,
}

impl Source {
    /// The name stored in the index and shown in evidence.
    pub fn name(self) -> &'static str {
        match self {
            Source::Dblp => "dblp",
            Source::Arxiv => "arxiv",
            Source::OpenAlex => "openalex",
            Source::Crossref => "crossref",
        }
    }

    /// The source named `name` (as [`Source::name`] spells it).
    pub fn from_name(name: &str) -> Option<Source> {
        [
            Source::Dblp,
            Source::Arxiv,
            Source::OpenAlex,
            Source::Crossref,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// A work as one dump describes it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Work {
    /// The dump's own key: DBLP key, arXiv id, OpenAlex W-id, Crossref DOI.
    pub key: String,
    /// The dump's record type (`article`, `inproceedings`, `journal-article`, …).
    pub kind: String,
    /// The title as text (markup removed, entities decoded).
    pub title: String,
    /// Author names as the dump writes them.
    pub authors: Vec<String>,
    /// Publication year.
    pub year: Option<i32>,
    /// Journal, proceedings or container title.
    pub venue: Option<String>,
    /// The DOI, bare, case kept.
    pub doi: Option<String>,
    /// The arXiv id, without version.
    pub arxiv: Option<String>,
    /// The record's own date, `YYYY-MM-DD` (DBLP's `mdate`, arXiv's
    /// `update_date`, …): the newest one is the dump's date.
    pub date: Option<String>,
}

impl Work {
    /// Takes a DOI and an arXiv id out of a link (`ee`, a landing page) when the
    /// work has none yet; other links are ignored.
    pub fn take_link(&mut self, link: &str) {
        // arXiv's own DOIs (`10.48550/arXiv.…`) are both.
        if let Some(d) = Doi::parse(link) {
            if self.doi.is_none() {
                self.doi = Some(d.as_str().to_string());
            }
        }
        if let Some(a) = ArxivId::parse(link) {
            if self.arxiv.is_none() {
                self.arxiv = Some(a.as_str().to_string());
            }
        }
    }

    /// Keeps the later of the work's date and `date` (ISO dates compare as text).
    pub fn newer_date(a: Option<String>, b: Option<&str>) -> Option<String> {
        match (a, b) {
            (Some(a), Some(b)) if b > a.as_str() => Some(b.to_string()),
            (None, Some(b)) => Some(b.to_string()),
            (a, _) => a,
        }
    }
}
