//! Records of the JSON dumps as [`Work`]s.
//!
//! - arXiv's metadata snapshot: one JSON object a line (`id`, `title`,
//!   `authors` as one string, `authors_parsed`, `doi`, `journal-ref`,
//!   `update_date`).
//! - OpenAlex's works snapshot: `part_*.gz`, one work a line (`id`, `doi`,
//!   `title`, `publication_year`, `authorships`, `primary_location`,
//!   `locations`, `updated_date`).
//! - Crossref's public data file: `*.json.gz`, each one `{"items": [...]}`
//!   whose items are the REST API's work messages (`DOI`, `title`, `author`,
//!   `issued`, `container-title`, `type`, `indexed`).

use crate::work::Work;
use serde_json::Value;

fn str_of(v: &Value) -> Option<String> {
    v.as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The first element of a list of strings, or the string itself.
fn first_str(v: &Value) -> Option<String> {
    match v {
        Value::Array(a) => a.iter().find_map(str_of),
        other => str_of(other),
    }
}

/// A title with its line breaks and runs of spaces made one space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `YYYY-MM-DD` from the start of an ISO date or date-time.
fn iso_day(s: &str) -> Option<String> {
    s.get(..10)
        .filter(|d| d.as_bytes().get(4) == Some(&b'-'))
        .map(str::to_string)
}

/// A work of arXiv's metadata snapshot; `None` without an id or a title.
pub fn arxiv(v: &Value) -> Option<Work> {
    let id = str_of(v.get("id")?)?;
    let mut w = Work {
        kind: "preprint".into(),
        title: one_line(&str_of(v.get("title")?)?),
        ..Work::default()
    };
    w.take_link(&format!("arXiv:{id}"));
    w.key = w.arxiv.clone().unwrap_or(id);
    // `authors_parsed` is [[last, first, suffix], …]; `authors` the same as one string.
    if let Some(Value::Array(list)) = v.get("authors_parsed") {
        for a in list {
            let parts: Vec<String> = a
                .as_array()
                .map(|p| p.iter().filter_map(str_of).collect())
                .unwrap_or_default();
            if let Some((last, rest)) = parts.split_first() {
                let mut name = rest.first().cloned().unwrap_or_default();
                if !name.is_empty() {
                    name.push(' ');
                }
                name.push_str(last);
                if let Some(sfx) = rest.get(1) {
                    name.push(' ');
                    name.push_str(sfx);
                }
                w.authors.push(name);
            }
        }
    } else if let Some(a) = v.get("authors").and_then(str_of) {
        w.authors =
            citegate_core::names::split_field(&a.replace(", and ", " and ").replace(", ", " and "));
    }
    if let Some(d) = v.get("doi").and_then(str_of) {
        w.take_link(&d);
    }
    w.venue = v.get("journal-ref").and_then(str_of);
    w.date = v.get("update_date").and_then(str_of);
    // The first version's date is when the work appeared.
    w.year = v
        .get("versions")
        .and_then(|vs| vs.get(0))
        .and_then(|v0| v0.get("created"))
        .and_then(Value::as_str)
        .and_then(|c| c.split_whitespace().nth(3))
        .and_then(|y| y.parse().ok());
    Some(w)
}

/// A work of OpenAlex's snapshot; `None` without an id or a title.
pub fn openalex(v: &Value) -> Option<Work> {
    let id = str_of(v.get("id")?)?;
    let title = v
        .get("title")
        .and_then(str_of)
        .or_else(|| v.get("display_name").and_then(str_of))?;
    let mut w = Work {
        key: id.rsplit('/').next().unwrap_or(&id).to_string(),
        kind: v.get("type").and_then(str_of).unwrap_or_default(),
        title: one_line(&title),
        year: v
            .get("publication_year")
            .and_then(Value::as_i64)
            .and_then(|y| i32::try_from(y).ok()),
        date: v
            .get("updated_date")
            .and_then(str_of)
            .and_then(|d| iso_day(&d)),
        ..Work::default()
    };
    if let Some(Value::Array(list)) = v.get("authorships") {
        w.authors = list
            .iter()
            .filter_map(|a| {
                a.get("author")
                    .and_then(|au| au.get("display_name"))
                    .and_then(str_of)
                    .or_else(|| a.get("raw_author_name").and_then(str_of))
            })
            .collect();
    }
    w.venue = v
        .get("primary_location")
        .and_then(|l| l.get("source"))
        .and_then(|s| s.get("display_name"))
        .and_then(str_of);
    if let Some(d) = v.get("doi").and_then(str_of) {
        w.take_link(&d);
    }
    if let Some(Value::Array(locs)) = v.get("locations") {
        for l in locs {
            if let Some(u) = l.get("landing_page_url").and_then(str_of) {
                w.take_link(&u);
            }
        }
    }
    Some(w)
}

/// A work of Crossref's public data file (an item); `None` without a DOI
/// or a title.
pub fn crossref(v: &Value) -> Option<Work> {
    let doi = str_of(v.get("DOI")?)?;
    let mut w = Work {
        kind: v.get("type").and_then(str_of).unwrap_or_default(),
        title: one_line(&first_str(v.get("title")?)?),
        venue: v.get("container-title").and_then(first_str),
        ..Work::default()
    };
    w.take_link(&doi);
    w.key = w.doi.clone().unwrap_or(doi);
    if let Some(Value::Array(list)) = v.get("author") {
        w.authors = list
            .iter()
            .filter_map(|a| {
                let family = a.get("family").and_then(str_of);
                let given = a.get("given").and_then(str_of);
                match (given, family) {
                    (Some(g), Some(f)) => Some(format!("{g} {f}")),
                    (None, Some(f)) => Some(f),
                    _ => a.get("name").and_then(str_of),
                }
            })
            .collect();
    }
    w.year = ["issued", "published", "published-print", "published-online"]
        .iter()
        .find_map(|k| {
            v.get(*k)?
                .get("date-parts")?
                .get(0)?
                .get(0)?
                .as_i64()
                .and_then(|y| i32::try_from(y).ok())
        });
    w.date = v
        .get("indexed")
        .and_then(|i| i.get("date-time"))
        .and_then(str_of)
        .and_then(|d| iso_day(&d));
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arxiv_line() {
        let v = json!({"id": "0704.0001", "authors": "C. Bal\\'azs, E. L. Berger",
            "title": "Calculation of prompt diphoton production\n  cross sections",
            "doi": "10.1103/PhysRevD.76.013009", "update_date": "2008-11-13",
            "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
            "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""]]});
        let w = arxiv(&v).expect("work");
        assert_eq!(w.key, "0704.0001");
        assert_eq!(w.arxiv.as_deref(), Some("0704.0001"));
        assert_eq!(w.doi.as_deref(), Some("10.1103/PhysRevD.76.013009"));
        assert_eq!(
            w.title,
            "Calculation of prompt diphoton production cross sections"
        );
        assert_eq!(w.authors, vec!["C. Balázs", "E. L. Berger"]);
        assert_eq!(w.year, Some(2007));
        assert_eq!(w.date.as_deref(), Some("2008-11-13"));
    }

    #[test]
    fn openalex_line_finds_an_arxiv_landing_page() {
        let v = json!({"id": "https://openalex.org/W2101234009", "doi": null, "title": "Adam",
            "publication_year": 2014, "type": "preprint", "updated_date": "2024-01-02T00:00:00",
            "authorships": [{"author": {"display_name": "Diederik P. Kingma"}}],
            "locations": [{"landing_page_url": "https://arxiv.org/abs/1412.6980"}]});
        let w = openalex(&v).expect("work");
        assert_eq!(w.key, "W2101234009");
        assert_eq!(w.arxiv.as_deref(), Some("1412.6980"));
        assert_eq!(w.date.as_deref(), Some("2024-01-02"));
        assert_eq!(w.authors, vec!["Diederik P. Kingma"]);
    }

    #[test]
    fn crossref_item() {
        let v = json!({"DOI": "10.1038/srep12345", "title": ["A title"], "type": "journal-article",
            "author": [{"given": "Ada", "family": "Lovelace"}, {"name": "A Consortium"}],
            "issued": {"date-parts": [[2015, 6]]}, "container-title": ["Scientific Reports"],
            "indexed": {"date-time": "2024-03-01T10:00:00Z"}});
        let w = crossref(&v).expect("work");
        assert_eq!(w.key, "10.1038/srep12345");
        assert_eq!(w.authors, vec!["Ada Lovelace", "A Consortium"]);
        assert_eq!(w.year, Some(2015));
        assert_eq!(w.venue.as_deref(), Some("Scientific Reports"));
    }

    #[test]
    fn records_without_title_or_id_are_skipped() {
        assert!(arxiv(&json!({"id": "0704.0001"})).is_none());
        assert!(openalex(&json!({"title": "x"})).is_none());
        assert!(crossref(&json!({"DOI": "10.1/x", "title": []})).is_none());
    }
}
