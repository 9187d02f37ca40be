//! RIS, the tagged format of Zotero, EndNote, Mendeley and most publishers'
//! "export citation" buttons: read into the same [`Entry`] values a `.bib`
//! gives, so every check runs unchanged.
//!
//! A record is lines `TG  - value` from `TY` to `ER`; a line without a tag
//! continues the previous value (EndNote writes multi-line abstracts so).
//! A record cut off by the end of the file is kept, as every reader does.
//! Tags map to BibTeX fields as in citation.js's and Zotero's RIS readers:
//! `AU`/`A1` authors, `A2`/`ED` editors, `TI`/`T1` title, `T2`/`JO`/`JF`/`JA`
//! the journal (or the `booktitle` of a paper or chapter, as does `BT`),
//! `PY`/`Y1` the year (`DA` when neither is given, except in web and e-book
//! records where `DA` is the access date), `SP`–`EP` pages, `VL`, `IS`, `PB`
//! (the `school` of a thesis, `institution` of a report), `CY`, `SN` (ISBN
//! or ISSN by its shape), `DO`, `UR`, `AB`, `N1`, `ET`, and `ID` the key;
//! a record without `ID` is keyed `ris1`, `ris2`, … by its position.

use super::parse::{Bibliography, Entry, Field, Problem, ProblemKind};
use crate::error::{Error, ErrorKind, Location};

/// The BibTeX entry type of a RIS `TY` (`has_book`: whether the record names
/// the book or proceedings it is in).
pub fn bibtex_type(ty: &str, has_book: bool) -> &'static str {
    match ty {
        "JOUR" | "JFULL" | "MGZN" | "NEWS" | "EJOUR" | "ABST" | "INPR" => "article",
        "CONF" | "CPAPER" => "inproceedings",
        "BOOK" | "EBOOK" | "EDBOOK" => "book",
        "CHAP" | "ECHAP" if has_book => "incollection",
        "CHAP" | "ECHAP" => "inbook",
        "THES" => "phdthesis",
        "RPRT" => "techreport",
        "UNPB" | "MANSCPT" => "unpublished",
        "ELEC" | "WEB" | "BLOG" => "online",
        _ => "misc",
    }
}

/// One `TG  - value` line: the tag and the value (`None` for a continuation).
fn tagged(line: &str) -> Option<(&str, &str)> {
    // The standard is two spaces before the hyphen; some exporters write one.
    let b = line.as_bytes();
    let tag_ok = b.len() >= 4
        && b[0].is_ascii_uppercase()
        && (b[1].is_ascii_uppercase() || b[1].is_ascii_digit());
    if !tag_ok {
        return None;
    }
    let after = line.get(2..)?;
    let rest = after.trim_start_matches(' ');
    let spaces = after.len() - rest.len();
    let rest = rest
        .strip_prefix('-')
        .filter(|_| (1..=2).contains(&spaces))?;
    Some((
        line.get(..2)?,
        rest.strip_prefix(' ').unwrap_or(rest).trim_end(),
    ))
}

/// Reads a RIS file. Never fails: problems are in [`Bibliography::problems`].
///
/// ```
/// let bib = citegate_core::bibtex::ris::parse(
///     "TY  - JOUR\nAU  - Vaswani, Ashish\nTI  - Attention Is All You Need\nT2  - NeurIPS\nPY  - 2017\nER  - \n",
/// );
/// let e = &bib.entries[0];
/// assert_eq!((e.kind.as_str(), e.key.as_str()), ("article", "ris1"));
/// assert_eq!((e.get("journal"), e.get("year")), (Some("NeurIPS"), Some("2017")));
/// ```
pub fn parse(text: &str) -> Bibliography {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut bib = Bibliography::default();
    let mut record: Option<(usize, Tags)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        match tagged(line) {
            Some(("TY", ty)) => {
                if let Some((start, tags)) = record.take() {
                    finish(&mut bib, start, tags);
                }
                record = Some((n, vec![("TY".into(), ty.to_string(), n)]));
            }
            Some(("ER", _)) => match record.take() {
                Some((start, tags)) => finish(&mut bib, start, tags),
                None => bib
                    .problems
                    .push(problem(n, "`ER` without a record (no `TY` before it)")),
            },
            Some((tag, value)) => match record.as_mut() {
                Some((_, tags)) => tags.push((tag.to_string(), value.to_string(), n)),
                None => bib.problems.push(problem(
                    n,
                    &format!("tag `{tag}` outside a record (no `TY` before it), skipped"),
                )),
            },
            None => {
                let more = line.trim();
                if let (Some((_, tags)), false) = (record.as_mut(), more.is_empty()) {
                    if let Some(last) = tags.last_mut() {
                        if !last.1.is_empty() {
                            last.1.push(' ');
                        }
                        last.1.push_str(more);
                    }
                }
            }
        }
    }
    if let Some((start, tags)) = record {
        finish(&mut bib, start, tags);
    }
    bib
}

fn problem(line: usize, message: &str) -> Problem {
    Problem {
        kind: ProblemKind::Syntax,
        error: Error::new(ErrorKind::Bibtex, message).at(Location::default().at(line, 1)),
    }
}

/// A record's tags in order: (tag, value, line).
type Tags = Vec<(String, String, usize)>;

fn finish(bib: &mut Bibliography, start: usize, tags: Tags) {
    let all = |t: &str| -> Vec<&(String, String, usize)> {
        tags.iter()
            .filter(|(tag, v, _)| tag == t && !v.trim().is_empty())
            .collect()
    };
    let first = |names: &[&str]| -> Option<(String, usize)> {
        names
            .iter()
            .find_map(|t| all(t).first().map(|(_, v, l)| (v.trim().to_string(), *l)))
    };
    // Some exporters write `Chap` or `Journ`; "JOURN" is not a RIS type.
    let ty = first(&["TY"])
        .map(|(t, _)| t.to_uppercase())
        .unwrap_or_default();
    let book = first(&["BT"]).filter(|_| !matches!(ty.as_str(), "BOOK" | "EBOOK" | "EDBOOK"));
    let secondary = first(&["T2"]);
    let is_part = matches!(ty.as_str(), "CONF" | "CPAPER" | "CHAP" | "ECHAP");
    let kind = bibtex_type(&ty, is_part && (book.is_some() || secondary.is_some()));
    let mut fields: Vec<(&str, Option<(String, usize)>)> = Vec::new();
    let join = |names: &[&str]| -> Option<(String, usize)> {
        let people: Vec<&(String, String, usize)> = names.iter().flat_map(|t| all(t)).collect();
        let line = people.first()?.2;
        Some((
            people
                .iter()
                .map(|(_, v, _)| v.trim())
                .collect::<Vec<_>>()
                .join(" and "),
            line,
        ))
    };
    fields.push(("author", join(&["AU", "A1"])));
    fields.push(("editor", join(&["A2", "ED"])));
    let title = first(&["TI", "T1", "CT"]).or_else(|| first(&["BT"]).filter(|_| kind == "book"));
    fields.push(("title", title));
    match kind {
        "article" => fields.push(("journal", first(&["T2", "JO", "JF", "JA"]))),
        "inproceedings" | "incollection" | "inbook" => {
            fields.push(("booktitle", book.or(secondary)))
        }
        _ => {}
    }
    let web = matches!(ty.as_str(), "ELEC" | "WEB" | "BLOG" | "EBOOK");
    // PY, then DA (the access date in web records), then the deprecated Y1
    // (Zotero's order); a year of zeros is no year (Zotero drops it).
    let date = first(&["PY"])
        .or_else(|| first(&["DA"]).filter(|_| !web))
        .or_else(|| first(&["Y1"]))
        .filter(|(d, _)| {
            !d.split('/')
                .next()
                .unwrap_or("")
                .trim()
                .bytes()
                .all(|b| b == b'0')
        });
    // `2019`, `2019/05/17/`, `2023-10-24`, `1984 - 1985`: four leading digits
    // not followed by a fifth are the year (as citation.js reads them);
    // anything else is kept so that the year check reports it.
    let year = date.map(|(d, l)| {
        let lead = d.get(..4).filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
        let next_digit = d.as_bytes().get(4).is_some_and(u8::is_ascii_digit);
        match lead {
            Some(y) if !next_digit => (y.to_string(), l),
            _ => (d, l),
        }
    });
    fields.push(("year", year));
    let pages = match (first(&["SP"]), first(&["EP"])) {
        (Some((sp, l)), Some((ep, _))) => Some((format!("{sp}--{ep}"), l)),
        (sp, _) => sp,
    };
    let publisher_field = match kind {
        "phdthesis" => "school",
        "techreport" => "institution",
        _ => "publisher",
    };
    let (isbn, issn) = match first(&["SN"]) {
        Some((sn, l)) => {
            let digits = sn.chars().filter(|c| c.is_ascii_alphanumeric()).count();
            if digits == 8 {
                (None, Some((sn, l)))
            } else {
                (Some((sn, l)), None)
            }
        }
        None => (None, None),
    };
    fields.extend([
        ("volume", first(&["VL"])),
        ("number", first(&["IS"])),
        ("pages", pages),
        (publisher_field, first(&["PB"])),
        ("address", first(&["CY"])),
        ("edition", first(&["ET"])),
        ("doi", first(&["DO"])),
        ("url", first(&["UR"])),
        ("isbn", isbn),
        ("issn", issn),
        ("note", first(&["N1"])),
        ("abstract", first(&["AB"])),
        (
            "keywords",
            join(&["KW"]).map(|(k, l)| (k.replace(" and ", ", "), l)),
        ),
    ]);
    let key = first(&["ID"])
        .map(|(k, _)| k)
        .unwrap_or_else(|| format!("ris{}", bib.entries.len() + 1));
    bib.entries.push(Entry {
        kind: kind.to_string(),
        key,
        line: start,
        parsed: false,
        fields: fields
            .into_iter()
            .filter_map(|(name, v)| {
                v.map(|(value, line)| Field {
                    name: name.to_string(),
                    raw: value.clone(),
                    value,
                    line,
                })
            })
            .collect(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `ris` and compares each entry's `type key | name=value …` with `expected`.
    fn check(ris: &str, expected: &[&str]) {
        let bib = parse(ris);
        let got: Vec<String> = bib
            .entries
            .iter()
            .map(|e| {
                let mut s = format!("{} {} |", e.kind, e.key);
                for f in &e.fields {
                    s.push_str(&format!(" {}={}", f.name, f.value));
                }
                s
            })
            .collect();
        assert_eq!(got, expected, "{ris}");
    }

    #[test]
    fn records() {
        check("TY  - JOUR\nAU  - Doe, J\nA1  - Roe, R\nTI  - T\nJO  - J\nPY  - 2019/05/17/\nSP  - 3\nEP  - 9\nER  - \n",
              &["article ris1 | author=Doe, J and Roe, R title=T journal=J year=2019 pages=3--9"]);
        // Continuation lines, a record without ER at the end, DA as the year.
        check("TY  - CHAP\nTI  - A\nlong title\nBT  - Book\nDA  - 2001//\nSN  - 978-0-06-297658-1\nID  - k1\n",
              &["incollection k1 | title=A long title booktitle=Book year=2001 isbn=978-0-06-297658-1"]);
        // Web records: DA is the access date; SN of eight characters is an ISSN.
        check("TY  - ELEC\nDA  - 2019/09/18/\nSN  - 1234-567X\nER  -\nTY  - THES\nPB  - U\nPY  - 20x1\nER  - ",
              &["online ris1 | issn=1234-567X", "phdthesis ris2 | year=20x1 school=U"]);
        check(
            "TY  - CONF\nT2  - Proc\nKW  - a\nKW  - b\nER  - ",
            &["inproceedings ris1 | booktitle=Proc keywords=a, b"],
        );
    }

    #[test]
    fn zotero_rules() {
        // One space before the hyphen; DA before the deprecated Y1; PY 0000 is no year.
        check(
            "TY - JOUR\nY1 - 1900/01/01\nDA - 1950/01/01\nER - \nTY  - JOUR\nPY  - 0000\nER  - ",
            &["article ris1 | year=1950", "article ris2 |"],
        );
    }

    #[test]
    fn problems() {
        let bib = parse("AU  - Stray\nER  - \nTY  - GEN\nER  - \n");
        assert_eq!(bib.entries.len(), 1);
        let lines: Vec<_> = bib.problems.iter().map(|p| p.error.location.line).collect();
        assert_eq!(lines, [Some(1), Some(2)]);
        assert!(parse("").entries.is_empty());
    }
}
