//! The `refs.jsonl` reference library, compatible with bip and `ng lit`.
//!
//! A library file is someone else's data as much as ours: bip adds fields we
//! do not know (`pdf_path`, `tags`, …) and people edit lines by hand. So the
//! library keeps every line's original text, and writing it back emits that
//! text unchanged for every record that was not modified — a round trip is
//! byte-identical, not merely equivalent. Only records that were added or
//! changed are serialized, and even then fields we do not model are carried
//! along. A line that cannot be read is reported with its number, left out
//! of the records, and written back verbatim, so one bad line never costs
//! the others (or itself).

use crate::names;
use crate::title;
use crate::works::{doi_key, Service, Work};
use crate::{Error, ErrorKind, Location, Result};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// An author as `{first, last}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "LibraryName"))]
pub struct Name {
    /// Given names.
    #[serde(default, deserialize_with = "lenient_string")]
    pub first: String,
    /// Family name, with particles (`van der Berg`).
    #[serde(default, deserialize_with = "lenient_string")]
    pub last: String,
    /// Fields we do not model.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `published.{year, month, day}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "LibraryPublished"))]
pub struct Published {
    /// Year.
    #[serde(
        default,
        deserialize_with = "lenient_int",
        skip_serializing_if = "Option::is_none"
    )]
    pub year: Option<i64>,
    /// Month.
    #[serde(
        default,
        deserialize_with = "lenient_int",
        skip_serializing_if = "Option::is_none"
    )]
    pub month: Option<i64>,
    /// Day.
    #[serde(
        default,
        deserialize_with = "lenient_int",
        skip_serializing_if = "Option::is_none"
    )]
    pub day: Option<i64>,
    /// Fields we do not model.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `source.{type, id}`: which backend the record came from, and its id there.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "LibrarySource"))]
pub struct Source {
    /// `s2`, `asta`, `openalex`, `crossref`, …
    #[serde(rename = "type", default, deserialize_with = "lenient_string")]
    pub kind: String,
    /// The backend's id.
    #[serde(default, deserialize_with = "lenient_string")]
    pub id: String,
    /// Fields we do not model.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One library record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "LibraryRecord"))]
pub struct Record {
    /// Citation id, e.g. `Vaswani2017-s2`.
    #[serde(default, deserialize_with = "lenient_string")]
    pub id: String,
    /// DOI as deposited.
    #[serde(
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub doi: Option<String>,
    /// Title.
    #[serde(default, deserialize_with = "lenient_string")]
    pub title: String,
    /// Authors.
    #[serde(default, deserialize_with = "lenient_names")]
    pub authors: Vec<Name>,
    /// Abstract.
    #[serde(
        rename = "abstract",
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub abstract_text: Option<String>,
    /// Venue.
    #[serde(
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub venue: Option<String>,
    /// Publication date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<Published>,
    /// Where the record came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// PubMed id.
    #[serde(
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub pmid: Option<String>,
    /// PubMed Central id.
    #[serde(
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub pmcid: Option<String>,
    /// arXiv id.
    #[serde(
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub arxiv_id: Option<String>,
    /// Semantic Scholar paperId.
    #[serde(
        default,
        deserialize_with = "lenient_opt_string",
        skip_serializing_if = "Option::is_none"
    )]
    pub s2_id: Option<String>,
    /// Fields we do not model (bip's `pdf_path`, `tags`, …), kept in order.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Record {
    /// The DOI's comparison key.
    pub fn doi_key(&self) -> Option<String> {
        self.doi.as_deref().and_then(doi_key)
    }
}

fn lenient_opt_string<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) if !s.is_empty() => Some(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    lenient_opt_string(d).map(Option::unwrap_or_default)
}

fn lenient_int<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<i64>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

fn lenient_names<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Name>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|v| match v {
                Value::String(s) => Some(split_name(&s)),
                other => serde_json::from_value(other).ok(),
            })
            .collect(),
        _ => Vec::new(),
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Line {
    /// A record; `raw` is its original text (with line ending) while unchanged.
    Record {
        record: Box<Record>,
        raw: Option<String>,
    },
    /// A blank or unreadable line, kept verbatim.
    Other(String),
}

/// A library: its lines in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Library {
    lines: Vec<Line>,
}

impl Library {
    /// Reads a `refs.jsonl` text. Returns the library and one error per
    /// unreadable line (with its 1-based line number); the other lines are kept.
    pub fn parse(text: &str) -> (Library, Vec<Error>) {
        let mut lib = Library::default();
        let mut errors = Vec::new();
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let body = raw.trim();
            if body.is_empty() {
                lib.lines.push(Line::Other(raw.to_string()));
                continue;
            }
            let parsed = serde_json::from_str::<Value>(body)
                .map_err(|e| Error::json(&e))
                .and_then(|v| match v {
                    Value::Object(_) => {
                        serde_json::from_value::<Record>(v).map_err(|e| Error::json(&e))
                    }
                    _ => Err(Error::new(
                        ErrorKind::Shape,
                        "a library line must be a json object",
                    )),
                });
            match parsed {
                Ok(record) => lib.lines.push(Line::Record {
                    record: Box::new(record),
                    raw: Some(raw.to_string()),
                }),
                Err(mut e) => {
                    let column = e.location.column;
                    *e.location = Location {
                        line: Some(i + 1),
                        column,
                        ..Location::default()
                    };
                    errors.push(e);
                    lib.lines.push(Line::Other(raw.to_string()));
                }
            }
        }
        (lib, errors)
    }

    /// The records, in file order.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.lines.iter().filter_map(|l| match l {
            Line::Record { record, .. } => Some(record.as_ref()),
            Line::Other(_) => None,
        })
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records().count()
    }

    /// No records.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Case-folded DOIs of all records (for `in_library`).
    pub fn doi_keys(&self) -> HashSet<String> {
        self.records().filter_map(Record::doi_key).collect()
    }

    /// Mutable access to the record with `id`; marks it changed.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut Record> {
        self.lines.iter_mut().find_map(|l| match l {
            Line::Record { record, raw } if record.id == id => {
                *raw = None;
                Some(record.as_mut())
            }
            _ => None,
        })
    }

    /// Appends `record`, refusing a DOI already present (case-folded) and
    /// making its id unique (`-2`, `-3`, … appended). Returns the id used.
    pub fn add(&mut self, mut record: Record) -> Result<String> {
        if let Some(key) = record.doi_key() {
            if let Some(existing) = self
                .records()
                .find(|r| r.doi_key().as_deref() == Some(key.as_str()))
            {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("doi {key} is already in the library as `{}`", existing.id),
                )
                .at(Location::default().field("doi")));
            }
        }
        let ids: HashSet<&str> = self.records().map(|r| r.id.as_str()).collect();
        let base = if record.id.is_empty() {
            "ref".to_string()
        } else {
            record.id.clone()
        };
        let mut id = base.clone();
        let mut n = 2;
        while ids.contains(id.as_str()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        record.id = id.clone();
        self.lines.push(Line::Record {
            record: Box::new(record),
            raw: None,
        });
        Ok(id)
    }

    /// Merges the records of `incoming` into this library, as an import does:
    /// a record whose DOI (case-folded) is already here, or whose id and
    /// normalized title equal a record here, is a duplicate and is skipped;
    /// every other record is appended, byte for byte when its id is free,
    /// else under a fresh id (`-2`, `-3`, …). Nothing already here changes,
    /// so an import can only add.
    pub fn merge(&mut self, incoming: &Library) -> MergeReport {
        let mut report = MergeReport::default();
        for (record, raw) in incoming.lines.iter().filter_map(|l| match l {
            Line::Record { record, raw } => Some((record.as_ref(), raw)),
            Line::Other(_) => None,
        }) {
            if let Some(existing) = self.duplicate_of(record) {
                report.duplicates.push(Duplicate {
                    incoming: record.id.clone(),
                    existing,
                });
                continue;
            }
            let free = !record.id.is_empty() && self.records().all(|r| r.id != record.id);
            if free {
                let mut raw = raw.clone();
                if let Some(r) = raw.as_mut().filter(|r| !r.ends_with('\n')) {
                    r.push('\n');
                }
                if !self.lines.is_empty() {
                    self.ensure_final_newline();
                }
                self.lines.push(Line::Record {
                    record: Box::new(record.clone()),
                    raw,
                });
                report.added.push(record.id.clone());
            } else {
                match self.add(record.clone()) {
                    Ok(id) => report.added.push(id),
                    // `add` refuses only a DOI already present, which
                    // `duplicate_of` has ruled out; count it as a duplicate.
                    Err(_) => report.duplicates.push(Duplicate {
                        incoming: record.id.clone(),
                        existing: String::new(),
                    }),
                }
            }
        }
        report
    }

    /// The id of the record here that `record` duplicates, if any.
    fn duplicate_of(&self, record: &Record) -> Option<String> {
        if let Some(key) = record.doi_key() {
            if let Some(r) = self
                .records()
                .find(|r| r.doi_key().as_deref() == Some(key.as_str()))
            {
                return Some(r.id.clone());
            }
        }
        let title = crate::title::normalize(&record.title);
        self.records()
            .find(|r| r.id == record.id && crate::title::normalize(&r.title) == title)
            .map(|r| r.id.clone())
    }

    /// Makes the last line end with a newline, so an appended line starts on its own.
    fn ensure_final_newline(&mut self) {
        match self.lines.last_mut() {
            Some(Line::Record { raw: Some(raw), .. }) | Some(Line::Other(raw))
                if !raw.ends_with('\n') =>
            {
                raw.push('\n')
            }
            _ => {}
        }
    }

    /// Writes the library: unchanged lines byte for byte, new and changed
    /// records as one compact JSON object per line.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            let text = match line {
                Line::Record { raw: Some(raw), .. } | Line::Other(raw) => raw.clone(),
                Line::Record { record, raw: None } => {
                    let mut s = serde_json::to_string(record).unwrap_or_default();
                    s.push('\n');
                    s
                }
            };
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&text);
        }
        out
    }
}

/// What [`Library::merge`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct MergeReport {
    /// Ids of the records appended, as stored (renamed when the id was taken).
    pub added: Vec<String>,
    /// Records skipped because the library already holds them.
    pub duplicates: Vec<Duplicate>,
}

/// One incoming record the library already held.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Duplicate {
    /// The incoming record's id.
    pub incoming: String,
    /// The id of the record already in the library.
    pub existing: String,
}

/// Splits a display name into first and last: `Last, First` by the comma;
/// otherwise the last word, plus any particles and suffix around it, is the
/// family name (`Ludwig van Beethoven` → `Ludwig` / `van Beethoven`).
pub fn split_name(name: &str) -> Name {
    let name = name.trim();
    if let Some((last, first)) = name.split_once(',') {
        return Name {
            first: first.trim().to_string(),
            last: last.trim().to_string(),
            extra: Map::new(),
        };
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut end = words.len();
    if end > 2 && words.last().is_some_and(|w| names::is_suffix(w)) {
        end -= 1;
    }
    let mut start = end.saturating_sub(1);
    while start > 1 && words.get(start - 1).is_some_and(|w| names::is_particle(w)) {
        start -= 1;
    }
    let first = words.get(..start).unwrap_or(&[]).join(" ");
    let last = words.get(start..).unwrap_or(&[]).join(" ");
    Name {
        first,
        last,
        extra: Map::new(),
    }
}

/// The base citation id of a work: first author's family name (particles
/// dropped, accents folded, letters and digits only), the year, and the
/// backend, e.g. `Vaswani2017-s2`.
pub fn citation_id(work: &Work, authors: &[Name]) -> String {
    let family = authors
        .first()
        .map(|a| {
            a.last
                .split_whitespace()
                .filter(|w| !names::is_particle(w))
                .collect::<Vec<_>>()
                .join("")
        })
        .unwrap_or_default();
    let folded: String = title::fold(&family)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let name = if folded.is_empty() {
        "Anon".to_string()
    } else {
        folded
    };
    let year = work.year().map(|y| y.to_string()).unwrap_or_default();
    format!("{name}{year}-{}", source_type(work.source))
}

fn source_type(s: Service) -> &'static str {
    crate::search::backend_name(s)
}

/// A library record built from a backend's work.
pub fn record_from_work(work: &Work) -> Record {
    let authors: Vec<Name> = work
        .authors
        .iter()
        .map(|a| match (&a.given, &a.family) {
            (g, Some(f)) => Name {
                first: g.clone().unwrap_or_default(),
                last: f.clone(),
                extra: Map::new(),
            },
            _ => split_name(&a.name),
        })
        .collect();
    let id = citation_id(work, &authors);
    Record {
        id,
        doi: work.doi.clone(),
        title: work.title.clone(),
        authors,
        abstract_text: work.abstract_text.clone(),
        venue: work.venue.clone(),
        published: work.published.map(|d| Published {
            year: Some(i64::from(d.year)),
            month: d.month.map(i64::from),
            day: d.day.map(i64::from),
            extra: Map::new(),
        }),
        source: work.id.clone().map(|id| Source {
            kind: source_type(work.source).to_string(),
            id,
            extra: Map::new(),
        }),
        pmid: work.pmid.clone(),
        pmcid: work.pmcid.clone(),
        arxiv_id: work.arxiv_id.clone(),
        s2_id: work.s2_id.clone(),
        extra: Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::works::{Author, PubDate};

    fn check_name(input: &str, first: &str, last: &str) {
        let n = split_name(input);
        assert_eq!(
            (n.first.as_str(), n.last.as_str()),
            (first, last),
            "{input}"
        );
    }

    #[test]
    fn names() {
        check_name("Ashish Vaswani", "Ashish", "Vaswani");
        check_name("Ludwig van Beethoven", "Ludwig", "van Beethoven");
        check_name("Jan van der Berg", "Jan", "van der Berg");
        check_name("Vaswani, Ashish", "Ashish", "Vaswani");
        check_name("Martin Luther King Jr.", "Martin Luther", "King Jr.");
        check_name("Plato", "", "Plato");
        check_name(
            "Charles de la Vallée Poussin",
            "Charles de la Vallée",
            "Poussin",
        );
        check_name("", "", "");
        // The particles are the names module's one table (regression: the
        // library kept its own, which lacked `af`, `d'` and `y`).
        check_name("Hilma af Klint", "Hilma", "af Klint");
        check_name("José Ortega y Gasset", "José Ortega", "y Gasset");
        check_name("Martin Luther King III", "Martin Luther", "King III");
    }

    const FILE: &str = concat!(
        "{\"id\":\"A2020-s2\",\"doi\":\"10.1/ABC\",\"title\":\"T\",\"authors\":[{\"first\":\"A\",\"last\":\"B\",\"orcid\":\"x\"}],\"pdf_path\":\"/p.pdf\",\"tags\":[\"x\"],  \"published\":{\"year\":2020}}\n",
        "not json\n",
        "\n",
        "{\"id\": \"C2019-openalex\", \"title\": \"U\", \"published\": {\"year\": \"2019\"}, \"pmid\": 123}\r\n",
        "[1,2]\n",
        "{\"id\":\"D\",\"title\":\"V\"}"
    );

    #[test]
    fn unchanged_records_round_trip_byte_identically() {
        let (lib, errors) = Library::parse(FILE);
        assert_eq!(lib.to_jsonl(), FILE);
        assert_eq!(lib.len(), 3);
        let lines: Vec<Option<usize>> = errors.iter().map(|e| e.location.line).collect();
        assert_eq!(lines, vec![Some(2), Some(5)]);
        let c = lib.records().nth(1).unwrap();
        assert_eq!(
            (c.published.as_ref().unwrap().year, c.pmid.as_deref()),
            (Some(2019), Some("123"))
        );
    }

    #[test]
    fn changed_record_keeps_unknown_fields_and_others_stay_identical() {
        let (mut lib, _) = Library::parse(FILE);
        lib.get_mut("A2020-s2").unwrap().title = "New".into();
        let out = lib.to_jsonl();
        let first = out.lines().next().unwrap();
        let v: Value = serde_json::from_str(first).unwrap();
        assert_eq!(v["title"], "New");
        assert_eq!(v["pdf_path"], "/p.pdf");
        assert_eq!(v["tags"][0], "x");
        assert_eq!(v["authors"][0]["orcid"], "x");
        assert_eq!(
            out.split_inclusive('\n').skip(1).collect::<String>(),
            FILE.split_inclusive('\n').skip(1).collect::<String>()
        );
    }

    fn work() -> Work {
        let mut w = Work::empty(Service::SemanticScholar);
        w.id = Some("abc".into());
        w.s2_id = Some("abc".into());
        w.doi = Some("10.5/XYZ".into());
        w.title = "Attention".into();
        w.authors = vec![Author {
            name: "Ashish Vaswani".into(),
            given: None,
            family: None,
        }];
        w.published = Some(PubDate {
            year: 2017,
            month: Some(6),
            day: None,
        });
        w
    }

    #[test]
    fn add_refuses_duplicate_doi_and_appends_on_new_line() {
        let (mut lib, _) = Library::parse(FILE);
        let id = lib.add(record_from_work(&work())).unwrap();
        assert_eq!(id, "Vaswani2017-s2");
        let out = lib.to_jsonl();
        assert!(out.starts_with(FILE), "old text kept");
        assert_eq!(out.lines().count(), FILE.lines().count() + 1);
        let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(last["source"]["type"], "s2");
        assert_eq!(last["published"]["month"], 6);
        let mut again = record_from_work(&work());
        again.doi = Some("https://doi.org/10.5/xyz".into());
        assert_eq!(lib.add(again).unwrap_err().kind, ErrorKind::InvalidValue);
        let mut other = record_from_work(&work());
        other.doi = Some("10.5/other".into());
        assert_eq!(lib.add(other).unwrap(), "Vaswani2017-s2-2");
        let mut dup_a = record_from_work(&work());
        dup_a.doi = Some("10.1/abc".into());
        assert!(
            lib.add(dup_a).is_err(),
            "case-folded doi of an existing line"
        );
    }

    /// Merges `incoming` into `base` and returns (ids added, (incoming,
    /// existing) pairs skipped, the merged text).
    fn merged(base: &str, incoming: &str) -> (Vec<String>, Vec<(String, String)>, String) {
        let (mut lib, _) = Library::parse(base);
        let (other, _) = Library::parse(incoming);
        let r = lib.merge(&other);
        let dups = r
            .duplicates
            .into_iter()
            .map(|d| (d.incoming, d.existing))
            .collect();
        (r.added, dups, lib.to_jsonl())
    }

    fn check_merge(base: &str, incoming: &str, added: &[&str], skipped: &[(&str, &str)]) {
        let (a, d, out) = merged(base, incoming);
        assert_eq!(a, added, "added, merging {incoming:?}");
        let want: Vec<(String, String)> = skipped
            .iter()
            .map(|(i, e)| (i.to_string(), e.to_string()))
            .collect();
        assert_eq!(d, want, "skipped, merging {incoming:?}");
        assert!(
            out.starts_with(base),
            "an import never changes what was there"
        );
        assert_eq!(
            Library::parse(&out).0.len(),
            Library::parse(base).0.len() + a.len()
        );
    }

    #[test]
    fn merge_adds_new_records_and_skips_what_is_there() {
        let x = r#"{"id":"x","title":"Deep Learning","doi":"10.1/ABC"}"#;
        let y = r#"{"id":"y","title":"Other Paper"}"#;
        let base = format!("{x}\n");
        check_merge(&base, &format!("{y}\n"), &["y"], &[]);
        // The same DOI in another case and under another id is the same work.
        check_merge(
            &base,
            r#"{"id":"z","title":"T","doi":"https://doi.org/10.1/abc"}"#,
            &[],
            &[("z", "x")],
        );
        // The same id and title without a DOI: the same record.
        check_merge(
            &format!("{y}\n"),
            r#"{"id":"y","title":"other paper."}"#,
            &[],
            &[("y", "y")],
        );
        // The same id for another work: kept under a fresh id.
        check_merge(
            &base,
            r#"{"id":"x","title":"A Different Work"}"#,
            &["x-2"],
            &[],
        );
        // Unreadable lines of the import add nothing and break nothing.
        check_merge(&base, "not json\n[1]\n", &[], &[]);
        // A library without a final newline still gets each record on its own line.
        check_merge(x, y, &["y"], &[]);
        // Importing the library into itself adds nothing.
        check_merge(
            FILE,
            FILE,
            &[],
            &[
                ("A2020-s2", "A2020-s2"),
                ("C2019-openalex", "C2019-openalex"),
                ("D", "D"),
            ],
        );
    }

    #[test]
    fn merged_records_keep_their_bytes() {
        let incoming = "{\"id\":\"q\",  \"title\":\"Spaced\", \"extra\":[1,2]}\n";
        let (_, _, out) = merged(FILE, incoming);
        assert!(out.ends_with(incoming), "{out:?}");
    }

    #[test]
    fn citation_ids() {
        let mut w = work();
        w.authors = vec![Author {
            name: "Jan van der Müller".into(),
            given: None,
            family: None,
        }];
        assert_eq!(record_from_work(&w).id, "Muller2017-s2");
        w.authors.clear();
        w.published = None;
        w.source = Service::OpenAlex;
        assert_eq!(record_from_work(&w).id, "Anon-openalex");
    }
}
