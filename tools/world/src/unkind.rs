//! What real indexes do that a world of the valid records does not: each
//! behaviour switchable and drawn from a seed, so a run is deterministic.
//!
//! - **missing**: each search index (Semantic Scholar, OpenAlex, DBLP) lacks
//!   a share of the works, drawn per service and record. DOI registries
//!   (Crossref, DataCite) answer every DOI they register.
//! - **neighbours**: a share of title searches rank another record sharing
//!   words above the best one.
//! - **versions**: a share of published records get a separate arXiv
//!   preprint: its own id, year (often the year before), title (at times
//!   only the part before the colon) and author list (at times without the
//!   last author). OpenAlex, DataCite, arXiv and DBLP (as CoRR) hold it as
//!   its own record; Semantic Scholar merges it into the published paper.
//! - **name variants**: Semantic Scholar gives some records' authors as
//!   initials; OpenAlex folds `ö` to `o` on some records and writes `oe` on
//!   others.
//! - **Crossref markup**: titles carry `<i>`/`<sub>` and a share of titles
//!   with a colon have the part after it in `subtitle`.
//! - **regional DOIs**: a record with `agency` (JaLC, mEDRA, KISTI) has a
//!   DOI neither Crossref nor DataCite resolves; its title is still found.
//! - **thin records**: a share of DataCite's arXiv records list only the
//!   first two authors.
//! - **unindexed kinds**: theses, software, manuals, reports and web pages
//!   are in no index.

use crate::{hash, Record};

/// The switches and shares. [`Unkind::kind`] turns everything off (the
/// world of the valid records); [`Unkind::real`] turns everything on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unkind {
    /// Seed of every draw.
    pub seed: u64,
    /// Share of records each search index lacks.
    pub missing: f64,
    /// Share of title searches with a neighbour ranked first.
    pub neighbours: f64,
    /// Share of published records with a separate preprint record.
    pub versions: f64,
    /// Name forms differ by service.
    pub name_variants: bool,
    /// Crossref titles with HTML and a separate subtitle.
    pub crossref_markup: bool,
    /// JaLC, mEDRA and KISTI DOIs resolve at neither Crossref nor DataCite.
    pub regional_dois: bool,
    /// Theses, software, reports and web pages are in no index.
    pub unindexed_kinds: bool,
    /// Share of DataCite records cut to their first two creators.
    pub thin: f64,
}

impl Default for Unkind {
    fn default() -> Self {
        Unkind::kind()
    }
}

/// The services, for draws made per service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// Semantic Scholar.
    S2,
    /// Crossref.
    Crossref,
    /// OpenAlex.
    OpenAlex,
    /// DataCite.
    DataCite,
    /// DBLP.
    Dblp,
    /// arXiv's API.
    Arxiv,
}

impl Service {
    fn name(self) -> &'static str {
        match self {
            Service::S2 => "s2",
            Service::Crossref => "crossref",
            Service::OpenAlex => "openalex",
            Service::DataCite => "datacite",
            Service::Dblp => "dblp",
            Service::Arxiv => "arxiv",
        }
    }
}

impl Unkind {
    /// Every behaviour off.
    pub fn kind() -> Unkind {
        Unkind {
            seed: 0,
            missing: 0.0,
            neighbours: 0.0,
            versions: 0.0,
            name_variants: false,
            crossref_markup: false,
            regional_dois: false,
            unindexed_kinds: false,
            thin: 0.0,
        }
    }

    /// Every behaviour on, at shares near what the services show: 8 % of
    /// works missing per index, a neighbour first in a quarter of searches,
    /// a separate preprint for 30 % of published papers.
    pub fn real(seed: u64) -> Unkind {
        Unkind {
            seed,
            missing: 0.08,
            neighbours: 0.25,
            versions: 0.30,
            name_variants: true,
            crossref_markup: true,
            regional_dois: true,
            unindexed_kinds: true,
            thin: 0.3,
        }
    }

    /// Whether any behaviour is on.
    pub fn is_kind(&self) -> bool {
        *self
            == Unkind {
                seed: self.seed,
                ..Unkind::kind()
            }
    }

    /// A draw in [0, 1) for `what` about `key`.
    pub fn draw(&self, what: &str, key: &str) -> f64 {
        let h = hash(key, self.seed ^ hash(what, 11));
        (h >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Whether `svc`'s search index lacks the record.
    pub fn missing_from(&self, r: &Record, svc: Service) -> bool {
        if self.unindexed_kinds && unindexed(&r.kind) {
            return true;
        }
        match svc {
            Service::S2 | Service::OpenAlex | Service::Dblp => {
                self.missing > 0.0 && self.draw(svc.name(), &r.title) < self.missing
            }
            _ => false,
        }
    }

    /// Whether a search for `query` ranks a neighbour first.
    pub fn neighbour_first(&self, query: &str, svc: Service) -> bool {
        self.neighbours > 0.0 && self.draw(svc.name(), query) < self.neighbours
    }

    /// The record as `svc` names its authors.
    pub fn names_for(&self, r: &Record, svc: Service) -> Vec<String> {
        match svc {
            Service::S2 | Service::OpenAlex if !self.name_variants => r.authors.clone(),
            Service::S2 if self.draw("initials", &r.title) < 0.3 => {
                r.authors.iter().map(|a| initials(a)).collect()
            }
            Service::OpenAlex => {
                let fold = self.draw("fold", &r.title) < 0.5;
                r.authors.iter().map(|a| transliterate(a, fold)).collect()
            }
            Service::DataCite if r.authors.len() > 2 && self.draw("thin", &r.title) < self.thin => {
                r.authors.iter().take(2).cloned().collect()
            }
            _ => r.authors.clone(),
        }
    }

    /// Crossref's `title` and `subtitle` for a record.
    pub fn crossref_title(&self, r: &Record) -> (String, Option<String>) {
        if !self.crossref_markup {
            return (r.title.clone(), None);
        }
        let (mut title, subtitle) = match r.title.split_once(": ") {
            Some((a, b)) if self.draw("subtitle", &r.title) < 0.5 => {
                (a.to_string(), Some(b.to_string()))
            }
            _ => (r.title.clone(), None),
        };
        title = subscripts(&title);
        if self.draw("italic", &r.title) < 0.2 {
            title = italic_longest(&title);
        }
        (title, subtitle)
    }
}

/// Kinds of work no scholarly index holds.
pub fn unindexed(kind: &str) -> bool {
    matches!(
        kind,
        "phdthesis" | "mastersthesis" | "thesis" | "software" | "online" | "manual" | "techreport"
    )
}

/// `Ashish Vaswani` → `A. Vaswani` (the family name and a DBLP number kept as is).
pub fn initials(name: &str) -> String {
    let ws: Vec<&str> = name.split_whitespace().collect();
    let Some((last, given)) = ws.split_last() else {
        return name.to_string();
    };
    let (family, given) = if last.bytes().all(|b| b.is_ascii_digit()) && given.len() > 1 {
        let (f, g) = given.split_last().map_or((&"", &[][..]), |(f, g)| (f, g));
        (format!("{f} {last}"), g)
    } else {
        (last.to_string(), given)
    };
    let mut out: Vec<String> = given
        .iter()
        .map(|g| match g.chars().next() {
            Some(c) if c.is_uppercase() => format!("{c}."),
            _ => g.to_string(),
        })
        .collect();
    out.push(family);
    out.join(" ")
}

/// German umlauts as OpenAlex's records write them: folded (`ö` → `o`) or
/// transliterated (`ö` → `oe`).
pub fn transliterate(name: &str, fold: bool) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        let (folded, long) = match c {
            'ä' => ("a", "ae"),
            'ö' => ("o", "oe"),
            'ü' => ("u", "ue"),
            'Ä' => ("A", "Ae"),
            'Ö' => ("O", "Oe"),
            'Ü' => ("U", "Ue"),
            'ß' => ("ss", "ss"),
            _ => {
                out.push(c);
                continue;
            }
        };
        out.push_str(if fold { folded } else { long });
    }
    out
}

/// Chemical formulas with Crossref's subscripts: `CO2` → `CO<sub>2</sub>`.
fn subscripts(title: &str) -> String {
    title
        .split(' ')
        .map(|w| {
            let letters = w.trim_end_matches(|c: char| c.is_ascii_digit());
            let digits = &w[letters.len()..];
            if !digits.is_empty()
                && !letters.is_empty()
                && letters.chars().all(|c| c.is_ascii_uppercase())
            {
                format!("{letters}<sub>{digits}</sub>")
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The longest word in `<i>…</i>`, as Crossref marks species and terms.
fn italic_longest(title: &str) -> String {
    let ws: Vec<&str> = title.split(' ').collect();
    let Some((k, _)) = ws
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.contains('<'))
        .max_by_key(|(i, w)| (w.len(), usize::MAX - i))
    else {
        return title.to_string();
    };
    ws.iter()
        .enumerate()
        .map(|(i, w)| {
            if i == k {
                format!("<i>{w}</i>")
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The preprint of a published record, when the draw makes one: arXiv id,
/// DataCite DOI, CoRR's DBLP key, its own year, title and authors.
pub fn preprint_of(u: &Unkind, r: &Record, n: usize) -> Option<Record> {
    if u.versions <= 0.0
        || r.preprint
        || r.arxiv.is_some()
        || unindexed(&r.kind)
        || u.draw("version", &r.title) >= u.versions
    {
        return None;
    }
    let year = r
        .year
        .map(|y| y - i32::from(u.draw("version-year", &r.title) < 0.5));
    let h = hash(&r.title, u.seed ^ 21);
    let yy = year.unwrap_or(2020).rem_euclid(100);
    let arxiv = format!("{yy:02}{:02}.{:05}", 1 + h % 12, (h >> 8) % 100_000);
    let title = match r.title.split_once(": ") {
        Some((a, _))
            if a.split_whitespace().count() >= 3 && u.draw("version-title", &r.title) < 0.4 =>
        {
            a.to_string()
        }
        _ => r.title.clone(),
    };
    let mut authors = r.authors.clone();
    if authors.len() >= 3 && u.draw("version-authors", &r.title) < 0.25 {
        authors.pop();
    }
    let key = format!("{}|preprint|{n}", r.title);
    Some(Record {
        kind: "misc".into(),
        title,
        authors,
        year,
        venue: None,
        doi: Some(format!("10.48550/arXiv.{arxiv}")),
        dblp_key: Some(format!("journals/corr/abs-{}", arxiv.replace('.', "-"))),
        arxiv: Some(arxiv),
        pmid: None,
        preprint: true,
        agency: None,
        sibling: None,
        s2_id: crate::s2_id(&key),
        openalex_id: crate::openalex_id(&key),
    })
}
