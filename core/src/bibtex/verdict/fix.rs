//! The corrections of a miscited entry, one field at a time.
//!
//! A person accepts or refuses each [`Change`]; the fixed `.bib` is written
//! from the accepted ones only ([`crate::bibtex::edit`]). Three rules keep
//! a correction from making an entry worse:
//!
//! * Only a field a reason names is changed, and only when the record says
//!   otherwise in substance: every other field keeps the characters the
//!   person typed (quotes, dashes, braces, macros).
//! * A correction never moves an entry cited as published to its preprint:
//!   the venue, year and DOI come from a published version of the work, and
//!   an arXiv DOI is never put on an entry that names a published venue.
//! * A corrected title keeps the entry's brace protection (`{FRET}`) where
//!   the protected words are still in it.

use super::{author_overlap, record_person, Cited, Reason, ReasonKind};
use crate::bibtex::matching::escape;
use crate::bibtex::parse::Entry;
use crate::bibtex::venues::{self, VenueKind};
use crate::works::Work;
use serde::{Deserialize, Serialize};

/// One field the record gives otherwise, for a person to accept or refuse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Change {
    /// The field, lowercased (`author`, `journal`, `booktitle`, `year`,
    /// `doi`, `title`).
    pub field: String,
    /// The value as the entry writes it, LaTeX kept; `None` when the entry
    /// has no such field (the change adds it).
    pub cited: Option<String>,
    /// The record's value, written for BibTeX: special characters escaped,
    /// the entry's brace protection kept.
    pub record: String,
    /// Where the value comes from: the service and the record's DOI or id.
    pub source: String,
    /// The reason that named the field.
    pub why: String,
}

/// The parts of an entry a reason can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Title,
    Authors,
    Venue,
    Year,
    Doi,
}

/// The parts a reason says are wrong. A paper known only as a preprint,
/// cited as published, names none: the correction would be the move to
/// the preprint this module never makes.
fn parts_named(kind: ReasonKind) -> &'static [Part] {
    use Part::*;
    match kind {
        ReasonKind::SwappedAuthors
        | ReasonKind::PartialAuthorList
        | ReasonKind::PlaceholderAuthors => &[Authors],
        ReasonKind::MergedCitation => &[Authors, Venue, Year, Doi],
        ReasonKind::WrongVenue | ReasonKind::NonexistentVenue => &[Venue],
        ReasonKind::ArxivVersionMismatch => &[Venue, Year],
        ReasonKind::FabricatedDoi => &[Doi],
        ReasonKind::NearMissTitle => &[Title],
        ReasonKind::FutureDate => &[Year],
        _ => &[],
    }
}

fn is_preprint_venue(v: &str) -> bool {
    venues::lookup(v).is_some_and(|x| x.kind == VenueKind::Preprint)
}

/// A record of a published version: it has a venue that is not a
/// preprint server.
fn published(w: &Work) -> bool {
    w.venue
        .as_deref()
        .is_some_and(|v| !v.trim().is_empty() && !is_preprint_venue(v))
}

fn is_arxiv_doi(doi: &str) -> bool {
    doi.to_ascii_lowercase().starts_with("10.48550/")
}

/// The changes that make `entry` say what the cited work's records say.
/// `versions` are the records that are the cited work (best first);
/// `reasons` are the verdict's.
pub(super) fn changes(entry: &Entry, reasons: &[Reason], versions: &[&Work]) -> Vec<Change> {
    let Some(&first) = versions.first() else {
        return Vec::new();
    };
    let cited = Cited::read(entry);
    let cited_published = cited
        .venue
        .as_deref()
        .is_some_and(|v| !is_preprint_venue(v));
    let why = |part: Part| {
        reasons
            .iter()
            .find(|r| parts_named(r.kind).contains(&part))
            .map(|r| r.message.clone())
    };
    let mut out = Vec::new();
    let mut push = |field: &str, record: String, w: &Work, why: String| {
        out.push(Change {
            field: field.to_string(),
            cited: entry.get(field).map(str::to_string),
            record,
            source: source_of(w),
            why,
        });
    };

    if let Some(why) = why(Part::Title) {
        if !super::same_title(cited.title.as_deref().unwrap_or(""), &first.title) {
            let title = protect(entry.get("title").unwrap_or(""), &escape(&first.title));
            push("title", title, first, why);
        }
    }

    if let Some(why) = why(Part::Authors) {
        // The version sharing most authors with the entry; the first on a tie.
        let mut w = first;
        for v in versions {
            if author_overlap(&cited.authors, v) > author_overlap(&cited.authors, w) {
                w = v;
            }
        }
        let theirs: Vec<String> = w
            .authors
            .iter()
            .map(|a| record_person(a).family_key())
            .collect();
        let ours: Vec<String> = cited.authors.iter().map(|p| p.family_key()).collect();
        if !w.authors.is_empty() && (ours != theirs || cited.others) {
            push("author", authors_of(w), w, why);
        }
    }

    // The version the venue and year are held to: a published one, the one
    // the cited venue names when it is right.
    let rank = |w: &Work| {
        let known = w.venue.as_deref().and_then(venues::lookup).is_some();
        let same = cited
            .venue
            .as_deref()
            .zip(w.venue.as_deref())
            .is_some_and(|(a, b)| venues::same(a, b));
        (same, known)
    };
    let mut venue_record: Option<&Work> = None;
    for &w in versions.iter().filter(|w| published(w)) {
        if venue_record.is_none_or(|best| rank(w) > rank(best)) {
            venue_record = Some(w);
        }
    }
    let mut venue_changed = None;
    if let (Some(why), Some(w), true) = (why(Part::Venue), venue_record, cited_published) {
        let theirs = w.venue.as_deref().unwrap_or("");
        if !cited
            .venue
            .as_deref()
            .is_some_and(|v| venues::same(v, theirs))
        {
            push(venue_field(entry), escape(theirs), w, why);
            venue_changed = Some(w);
        }
    }

    if let Some(why) = why(Part::Year) {
        let w = venue_changed
            .or(if cited_published { venue_record } else { None })
            .or_else(|| {
                versions
                    .iter()
                    .copied()
                    .find(|w| !published(w) && w.year().is_some())
            })
            .or_else(|| versions.iter().copied().find(|w| w.year().is_some()));
        if let Some((w, y)) = w.and_then(|w| w.year().map(|y| (w, y))) {
            if cited.year != Some(y) {
                push("year", y.to_string(), w, why);
            }
        }
    }

    if let Some(why) = why(Part::Doi) {
        let w = venue_changed
            .into_iter()
            .chain(versions.iter().copied())
            .find(|w| {
                w.doi
                    .as_deref()
                    .is_some_and(|d| !(cited_published && is_arxiv_doi(d)))
            });
        if let Some((w, d)) = w.and_then(|w| w.doi.as_deref().map(|d| (w, d))) {
            let same = cited
                .doi
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(d));
            if !same {
                push("doi", escape(d), w, why);
            }
        }
    }
    out
}

/// The field an entry names its venue in: the one it has, else the one its
/// type takes.
fn venue_field(entry: &Entry) -> &'static str {
    if entry.get("booktitle").is_some() {
        "booktitle"
    } else if entry.get("journal").is_some() {
        "journal"
    } else if matches!(
        entry.kind.as_str(),
        "inproceedings" | "incollection" | "conference"
    ) {
        "booktitle"
    } else {
        "journal"
    }
}

fn source_of(w: &Work) -> String {
    let id = w
        .doi
        .as_deref()
        .map(|d| format!("doi:{d}"))
        .or_else(|| w.arxiv_id.as_deref().map(|a| format!("arXiv:{a}")))
        .or_else(|| w.id.clone());
    match id {
        Some(id) => format!("{} record {id}", w.source.label()),
        None => format!("{} record", w.source.label()),
    }
}

fn authors_of(w: &Work) -> String {
    w.authors
        .iter()
        .map(|a| match (&a.family, &a.given) {
            (Some(f), Some(g)) if !f.trim().is_empty() => format!("{}, {}", escape(f), escape(g)),
            (Some(f), None) if !f.trim().is_empty() => escape(f),
            _ => escape(&a.name),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// `new` (an escaped title) with the brace protection of `old` (the
/// entry's title as written): a title braced whole stays braced whole, and
/// each braced group of words that is still in the new title is braced
/// there again. Groups holding a command (`{\"o}`) are accents, not
/// protection, and are left to the record's spelling.
fn protect(old: &str, new: &str) -> String {
    let t = old.trim();
    if t.len() >= 2 && t.starts_with('{') && closing(t, 0) == Some(t.len() - 1) {
        return format!("{{{new}}}");
    }
    let mut out = new.to_string();
    let mut i = 0;
    while let Some(off) = old[i..].find('{') {
        let start = i + off;
        let Some(end) = closing(old, start) else {
            break;
        };
        let group = &old[start + 1..end];
        i = end + 1;
        if group.contains('\\') || group.contains('{') || group.trim().is_empty() {
            continue;
        }
        if let Some(at) = find_word(&out, group) {
            out.replace_range(at..at + group.len(), &format!("{{{group}}}"));
        }
    }
    out
}

/// The index of the `}` closing the `{` at byte `open` of `s`.
fn closing(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where `word` stands in `text` as whole words, not already braced.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '{');
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        boundary(text[..i].chars().next_back())
            && boundary(text[i + word.len()..].chars().next())
            && !text[i + word.len()..].starts_with('}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_protect(old: &str, new: &str, expected: &str) {
        assert_eq!(protect(old, new), expected, "protect({old:?}, {new:?})");
    }

    #[test]
    fn protection_is_carried_to_the_corrected_title() {
        check_protect(
            "Single-molecule {FRET} of proteins",
            "Single molecule FRET of proteins",
            "Single molecule {FRET} of proteins",
        );
        check_protect(
            "{Attention is all we need}",
            "Attention Is All You Need",
            "{Attention Is All You Need}",
        );
        check_protect(
            "{BERT} and {GPT}",
            "BERT, GPT and friends",
            "{BERT}, {GPT} and friends",
        );
        // A protected word the record's title no longer has: nothing to brace.
        check_protect(
            "{FRET} in cells",
            "Fluorescence in cells",
            "Fluorescence in cells",
        );
        // An accent group is not protection.
        check_protect(r#"G{\"o}del numbers"#, "Gödel numbering", "Gödel numbering");
        // A word inside a longer word is not the protected word.
        check_protect(
            "{GAN}s for images",
            "GANs and GANomaly",
            "GANs and GANomaly",
        );
        check_protect("Unclosed {brace", "A title", "A title");
    }
}
