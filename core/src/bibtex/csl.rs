//! CSL-JSON, the bibliography format of Zotero, Better BibTeX, citation.js,
//! Mendeley and pandoc: read into the same [`Entry`] values a `.bib` gives,
//! so every check runs unchanged, and written from entries (the pool's
//! `refs.bib` as CSL-JSON).
//!
//! The mapping follows the one Zotero, Better BibTeX and citation.js use
//! between CSL variables and BibTeX fields: `container-title` is the
//! `journal` of an article and the `booktitle` of a paper in proceedings or a
//! chapter; `publisher` is the `school` of a thesis and the `institution` of
//! a report; `issued` gives `year` (and `month`), or `date` when it is a
//! literal; `issue` is `number`; names are written `Family, Given` joined
//! with `and`, a literal name braced. Values are plain text, not LaTeX.
//!
//! A file that is not JSON, or not a list of objects, yields no entries and
//! one problem with its line and column; an item that is not an object is
//! reported and skipped.

use super::parse::{Bibliography, Entry, Field, Problem, ProblemKind};
use crate::error::{Error, ErrorKind, Location};
use serde_json::{Map, Value};

/// The BibTeX entry type of a CSL item type (`has_container`: whether the
/// item has a `container-title`, which tells a chapter in a collection from
/// one of a book).
pub fn bibtex_type(csl_type: &str, has_container: bool) -> &'static str {
    match csl_type {
        "article-journal" | "article-magazine" | "article-newspaper" | "article" | "review"
        | "review-book" => "article",
        "paper-conference" => "inproceedings",
        "chapter" | "entry-encyclopedia" | "entry-dictionary" | "entry" if has_container => {
            "incollection"
        }
        "chapter" => "inbook",
        "book" | "classic" => "book",
        "thesis" => "phdthesis",
        "report" => "techreport",
        "manuscript" => "unpublished",
        "webpage" | "post" | "post-weblog" => "online",
        _ => "misc",
    }
}

/// The CSL item type of a BibTeX entry type.
pub fn csl_type(bibtex_type: &str) -> &'static str {
    match bibtex_type {
        "article" => "article-journal",
        "inproceedings" | "conference" => "paper-conference",
        "incollection" | "inbook" => "chapter",
        "book" | "booklet" | "manual" | "proceedings" | "collection" | "mvbook" => "book",
        "phdthesis" | "mastersthesis" | "thesis" => "thesis",
        "techreport" | "report" => "report",
        "unpublished" => "manuscript",
        "online" | "electronic" | "www" => "webpage",
        "dataset" => "dataset",
        "software" => "software",
        _ => "document",
    }
}

/// Reads a CSL-JSON file: a list of items (a single item object is read as
/// a list of one). Never fails: problems are in [`Bibliography::problems`].
///
/// ```
/// let bib = citegate_core::bibtex::csl::parse(r#"[{"id": "v17", "type": "article-journal",
///   "title": "Attention Is All You Need", "author": [{"family": "Vaswani", "given": "Ashish"}],
///   "container-title": "NeurIPS", "issued": {"date-parts": [[2017, 6]]}}]"#);
/// let e = &bib.entries[0];
/// assert_eq!((e.kind.as_str(), e.key.as_str()), ("article", "v17"));
/// assert_eq!(e.get("author"), Some("Vaswani, Ashish"));
/// assert_eq!(e.get("journal"), Some("NeurIPS"));
/// assert_eq!((e.get("year"), e.get("month")), (Some("2017"), Some("6")));
/// ```
pub fn parse(text: &str) -> Bibliography {
    let mut bib = Bibliography::default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let message = format!("not CSL-JSON: {}", Error::json(&e).message);
            bib.problems.push(problem(
                message,
                Location::default().at(e.line(), e.column()),
            ));
            return bib;
        }
    };
    let items = match value {
        Value::Array(items) => items,
        Value::Object(_) => vec![value],
        _ => {
            bib.problems.push(problem(
                "CSL-JSON is a list of items, this is neither a list nor an item".into(),
                Location::default().at(1, 1),
            ));
            return bib;
        }
    };
    let lines = item_lines(text);
    for (i, item) in items.iter().enumerate() {
        let line = lines.get(i).copied().unwrap_or(1);
        match item {
            Value::Object(map) => bib.entries.push(entry(map, i, line)),
            _ => bib.problems.push(problem(
                "a CSL-JSON item is an object, this one is not and is skipped".into(),
                Location::default().at(line, 1).index(i),
            )),
        }
    }
    bib
}

fn problem(message: String, location: Location) -> Problem {
    Problem {
        kind: ProblemKind::Syntax,
        error: Error::new(ErrorKind::Bibtex, message).at(location),
    }
}

/// The 1-based line where each top-level item of a JSON list starts (its
/// first non-blank character at depth 1), found by scanning outside strings.
fn item_lines(text: &str) -> Vec<usize> {
    let (mut lines, mut line, mut depth) = (Vec::new(), 1usize, 0usize);
    let (mut in_string, mut escaped, mut expect_item) = (false, false, false);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if expect_item && depth == 1 && !c.is_whitespace() && c != ',' && c != ']' {
            lines.push(line);
            expect_item = false;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth == 1 && c == '[' {
                    expect_item = true;
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expect_item = true,
            _ => {}
        }
    }
    lines
}

/// Text of a CSL string or number variable.
fn text(map: &Map<String, Value>, name: &str) -> Option<String> {
    match map.get(name)? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// CSL names as a BibTeX name list.
fn names(map: &Map<String, Value>, name: &str) -> Option<String> {
    let list = map.get(name)?.as_array()?;
    let names: Vec<String> = list
        .iter()
        .filter_map(|n| {
            let n = n.as_object()?;
            let part = |p: &str| text(n, p);
            if let Some(literal) = part("literal") {
                return Some(format!("{{{literal}}}"));
            }
            let family = match (part("non-dropping-particle"), part("family")) {
                (Some(p), Some(f)) => format!("{p} {f}"),
                (None, Some(f)) => f,
                (_, None) => return part("given"),
            };
            let given = match (part("given"), part("dropping-particle")) {
                (Some(g), Some(d)) => Some(format!("{g} {d}")),
                (g, _) => g,
            };
            Some(match (given, part("suffix")) {
                (Some(g), Some(s)) => format!("{family}, {s}, {g}"),
                (Some(g), None) => format!("{family}, {g}"),
                (None, _) => family,
            })
        })
        .collect();
    (!names.is_empty()).then(|| names.join(" and "))
}

/// `issued` as (`year`, `month`) from its date-parts, or as a `date` text
/// (`raw`/`literal`, or a first part that is not a number).
fn issued(map: &Map<String, Value>) -> (Option<String>, Option<String>, Option<String>) {
    let Some(d) = map.get("issued") else {
        return (None, None, None);
    };
    // Some exporters write the date as a bare string.
    if let Some(s) = d.as_str() {
        return (None, None, Some(s.to_string()));
    }
    let first = d
        .get("date-parts")
        .and_then(|p| p.get(0))
        .and_then(Value::as_array);
    let part = |i: usize| -> Option<String> {
        match first?.get(i)? {
            Value::Number(n) => Some(n.to_string()),
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            _ => None,
        }
    };
    if let Some(year) = part(0) {
        return (Some(year), part(1), None);
    }
    let raw = d
        .get("raw")
        .or_else(|| d.get("literal"))
        .and_then(Value::as_str)
        .map(str::to_string);
    (None, None, raw)
}

fn entry(map: &Map<String, Value>, index: usize, line: usize) -> Entry {
    let csl_type = text(map, "type").unwrap_or_default();
    let container = text(map, "container-title");
    let kind = bibtex_type(&csl_type, container.is_some()).to_string();
    let key = text(map, "id")
        .or_else(|| text(map, "citation-key"))
        .unwrap_or_else(|| format!("csl{}", index + 1));
    let mut fields: Vec<(&str, Option<String>)> = vec![
        ("author", names(map, "author")),
        ("editor", names(map, "editor")),
        ("title", text(map, "title")),
    ];
    let container_field = match kind.as_str() {
        "article" => "journal",
        "inproceedings" | "incollection" | "inbook" => "booktitle",
        _ => "howpublished",
    };
    fields.push((container_field, container));
    let (year, month, date) = issued(map);
    fields.extend([("year", year), ("month", month), ("date", date)]);
    let publisher_field = match kind.as_str() {
        "phdthesis" => "school",
        "techreport" => "institution",
        _ => "publisher",
    };
    fields.extend([
        ("volume", text(map, "volume")),
        ("number", text(map, "issue").or_else(|| text(map, "number"))),
        ("pages", text(map, "page")),
        ("chapter", text(map, "chapter-number")),
        (publisher_field, text(map, "publisher")),
        ("address", text(map, "publisher-place")),
        ("series", text(map, "collection-title")),
        ("edition", text(map, "edition")),
        ("type", text(map, "genre")),
        ("doi", text(map, "DOI")),
        ("url", text(map, "URL")),
        ("isbn", text(map, "ISBN")),
        ("issn", text(map, "ISSN")),
        ("note", text(map, "note")),
        ("abstract", text(map, "abstract")),
    ]);
    Entry {
        kind,
        key,
        line,
        parsed: false,
        fields: fields
            .into_iter()
            .filter_map(|(name, value)| {
                value.map(|value| Field {
                    name: name.to_string(),
                    raw: value.clone(),
                    value,
                    line,
                })
            })
            .collect(),
    }
}

/// Writes entries as a CSL-JSON list (two-space indented, one item per
/// entry, in order). Names are split at ` and ` and at the first comma;
/// values are decoded from LaTeX to text.
///
/// ```
/// use citegate_core::bibtex::{csl, parse::parse};
/// let bib = parse("@inproceedings{k, author={Doe, Jane and Max Roe}, title={On {T}hings},
///                   booktitle={Proc}, year={2020}, month={3}, pages={1--9}}");
/// let json: serde_json::Value = serde_json::from_str(&csl::write(&bib.entries)).unwrap();
/// assert_eq!(json[0]["type"], "paper-conference");
/// assert_eq!(json[0]["author"][1]["family"], "Roe");
/// assert_eq!(json[0]["issued"]["date-parts"][0][1], 3);
/// assert_eq!(json[0]["container-title"], "Proc");
/// // Read back, the entry has the same fields.
/// let back = csl::parse(&csl::write(&bib.entries));
/// assert_eq!(back.entries[0].get("booktitle"), Some("Proc"));
/// ```
pub fn write(entries: &[Entry]) -> String {
    let items: Vec<Value> = entries.iter().map(item).collect();
    serde_json::to_string_pretty(&Value::Array(items)).unwrap_or_else(|_| "[]".to_string())
}

/// A `.bib` text (such as the pool's `refs.bib`) as CSL-JSON: [`write`] of
/// its entries.
pub fn from_bibtex(bib: &str) -> String {
    write(&super::parse::parse(bib).entries)
}

fn item(e: &Entry) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), e.key.clone().into());
    m.insert("type".into(), csl_type(&e.kind).into());
    let get = |name: &str| e.decoded(name);
    for (field, var) in [("author", "author"), ("editor", "editor")] {
        if let Some(list) = e.get(field) {
            let people: Vec<Value> = crate::names::split_field(list)
                .iter()
                .map(|n| person(n))
                .collect();
            if !people.is_empty() {
                m.insert(var.into(), Value::Array(people));
            }
        }
    }
    let container = get("journal")
        .or_else(|| get("journaltitle"))
        .or_else(|| get("booktitle"));
    let pairs = [
        ("title", get("title")),
        ("container-title", container),
        ("volume", get("volume")),
        ("issue", get("number")),
        ("page", get("pages").map(|p| p.replace("--", "-"))),
        ("chapter-number", get("chapter")),
        (
            "publisher",
            get("publisher")
                .or_else(|| get("school"))
                .or_else(|| get("institution")),
        ),
        (
            "publisher-place",
            get("address").or_else(|| get("location")),
        ),
        ("collection-title", get("series")),
        ("edition", get("edition")),
        ("DOI", get("doi")),
        ("URL", get("url")),
        ("ISBN", get("isbn")),
        ("ISSN", get("issn")),
        ("note", get("note")),
        ("abstract", get("abstract")),
    ];
    for (var, value) in pairs {
        if let Some(v) = value {
            m.insert(var.into(), v.into());
        }
    }
    if let Some(Ok(year)) = super::format::entry_year(e) {
        let mut parts = vec![Value::from(year)];
        if let Some(month) = get("month").and_then(|mo| month_number(&mo)) {
            parts.push(month.into());
        }
        m.insert(
            "issued".into(),
            serde_json::json!({ "date-parts": [parts] }),
        );
    }
    Value::Object(m)
}

/// A month as 1 to 12: a number or an English name or abbreviation.
fn month_number(month: &str) -> Option<u8> {
    let m = month.trim().to_lowercase();
    if let Ok(n) = m.parse::<u8>() {
        return (1..=12).contains(&n).then_some(n);
    }
    const NAMES: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let prefix = m.get(..3)?;
    NAMES
        .iter()
        .position(|n| *n == prefix)
        .and_then(|i| u8::try_from(i + 1).ok())
}

/// One BibTeX name as a CSL name (parts from [`crate::names::Person`]): a
/// braced name with no other part is a literal (`{Barnes and Noble}`).
fn person(name: &str) -> Value {
    let p = crate::names::Person::parse(name);
    let decode = |s: &str| crate::latex::decode(s).trim().to_string();
    let braced = p.family.starts_with('{') && p.family.ends_with('}');
    if braced && p.given.is_empty() && p.prefix.is_empty() && p.suffix.is_empty() {
        return serde_json::json!({ "literal": decode(&p.family) });
    }
    let mut m = Map::new();
    m.insert("family".into(), decode(&p.family).into());
    for (part, var) in [
        (&p.given, "given"),
        (&p.prefix, "non-dropping-particle"),
        (&p.suffix, "suffix"),
    ] {
        if !part.trim().is_empty() {
            m.insert(var.into(), decode(part).into());
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `json` and compares the first entry's `type key | name=value …` with `expected`.
    fn check(json: &str, expected: &str) {
        let bib = parse(json);
        let e = &bib.entries[0];
        let mut got = format!("{} {} |", e.kind, e.key);
        for f in &e.fields {
            got.push_str(&format!(" {}={}", f.name, f.value));
        }
        assert_eq!(got, expected, "{json}");
    }

    #[test]
    fn items() {
        check(
            r#"[{"type":"paper-conference","id":"a","title":"T","container-title":"C","issued":{"date-parts":[["2019"]]}}]"#,
            "inproceedings a | title=T booktitle=C year=2019",
        );
        check(
            r#"{"type":"thesis","publisher":"Uni","author":[{"literal":"ACME Lab"},{"family":"Beethoven","given":"Ludwig","non-dropping-particle":"van"}]}"#,
            "phdthesis csl1 | author={ACME Lab} and van Beethoven, Ludwig school=Uni",
        );
        check(
            r#"[{"type":"report","id":7,"publisher":"Inst","issued":{"raw":"2020-13"}}]"#,
            "techreport 7 | date=2020-13 institution=Inst",
        );
        check(
            r#"[{"type":"chapter","title":"C","page":"1-2"}]"#,
            "inbook csl1 | title=C pages=1-2",
        );
        check(
            r#"[{"type":"chapter","container-title":"B"}]"#,
            "incollection csl1 | booktitle=B",
        );
        check(
            r#"[{"type":"webpage","URL":"u","DOI":"doi:10.1/x","issued":"2021"}]"#,
            "online csl1 | date=2021 doi=doi:10.1/x url=u",
        );
    }

    #[test]
    fn problems() {
        let bib = parse("[\n  {\"id\": \"a\"},\n  3,\n  {\"id\": \"b\"}\n]");
        assert_eq!(
            bib.entries
                .iter()
                .map(|e| (e.key.as_str(), e.line))
                .collect::<Vec<_>>(),
            [("a", 2), ("b", 4)]
        );
        assert_eq!(bib.problems[0].error.to_string(), "line 3, column 1, item 1: a CSL-JSON item is an object, this one is not and is skipped");
        let bad = parse("[{\"id\": }]");
        assert!(bad.entries.is_empty());
        assert_eq!(bad.problems[0].error.location.line, Some(1));
        assert!(parse("\"x\"").problems[0]
            .error
            .message
            .contains("neither a list"));
    }

    #[test]
    fn names_and_months() {
        assert_eq!(
            crate::names::split_field("{Barnes and Noble} and Doe, J. AND Roe"),
            ["{Barnes and Noble}", "Doe, J.", "Roe"]
        );
        let names = |list: &str| -> Vec<Value> {
            crate::names::split_field(list)
                .iter()
                .map(|n| person(n))
                .collect()
        };
        assert_eq!(
            Value::Array(names(
                "van Beethoven, Ludwig and {ACME Lab} and King, Jr., Martin"
            )),
            serde_json::json!([
                {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"},
                {"literal": "ACME Lab"},
                {"family": "King", "given": "Martin", "suffix": "Jr."},
            ])
        );
        assert_eq!(month_number("feb"), Some(2));
        assert_eq!(month_number("September"), Some(9));
        assert_eq!(month_number("13"), None);
    }
}
