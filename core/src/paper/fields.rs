//! One reference string into fields, by rules.
//!
//! The string is read the way the common styles print a reference: a label
//! (`[12]`, `12.`), the authors, the title, then the venue, volume, pages
//! and year, with DOIs, arXiv ids and URLs anywhere. The author list ends
//! where the pieces between commas stop looking like names: at a year in
//! parentheses (APA, Harvard), a colon (LNCS), the first full stop that
//! does not follow an initial (plain, ACM, Vancouver), or, in styles that
//! separate everything by commas (elsarticle), the first piece that is not
//! a name. A quoted title (IEEE) is taken as quoted. Each field carries how
//! sure the rule that found it is ([`super::Confidence`]).
//!
//! Rules were chosen over a trained sequence labeller because they reach
//! the `.bbl` strings' fields without a model to ship (the figures are in
//! ARCHITECTURE.md, "Reading a paper's references").

use super::untitled::Shape;
use super::{Author, Confidence, Reference, Source};
use crate::ids::{ArxivId, Doi};

/// Opens an italic span in marked text (from a `.bbl`'s `\emph`, `{\em}`).
pub const ITAL_OPEN: char = '\u{2}';
/// Closes an italic span.
pub const ITAL_CLOSE: char = '\u{3}';

/// White space runs as one space, trimmed.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Marked text without its italic marks, squashed.
pub fn strip_marks(text: &str) -> String {
    squash(&text.replace([ITAL_OPEN, ITAL_CLOSE], ""))
}

/// A title without the punctuation a style puts after it (`.`, `,`, `:`),
/// nor quotes around it; `?` and `!` belong to the title and stay.
pub fn trim_title(title: &str) -> String {
    let t = title
        .trim()
        .trim_matches(|c: char| c == '“' || c == '”' || c == '"' || c.is_whitespace());
    t.trim_end_matches(|c: char| matches!(c, '.' | ',' | ';' | ':') || c.is_whitespace())
        .trim_matches(|c: char| c == '“' || c == '”' || c == '"')
        .trim()
        .to_string()
}

/// The first italic span of marked text, or all of it, without marks.
pub fn italic_or_all(text: &str) -> String {
    let inner = text
        .split_once(ITAL_OPEN)
        .map(|(_, r)| r.split(ITAL_CLOSE).next().unwrap_or(r));
    strip_marks(inner.unwrap_or(text))
}

/// Whether a block holds nothing but links: DOIs, arXiv ids, URLs and the
/// words that announce them.
pub fn is_link_block(block: &str) -> bool {
    let mut r = Reference::new("", Source::Text);
    let rest = take_ids(&strip_marks(block), &mut r);
    let found = r.doi.is_some() || r.arxiv.is_some() || r.url.is_some();
    found && rest.chars().filter(|c| c.is_alphabetic()).count() < 3
}

/// A title without what a style printed after it in the same sentence:
/// `(2014)`, `(Jun 2017)`, `, pages 309–329`, `, pp. 3–9`.
pub fn cut_title_tail(title: &str) -> &str {
    let mut end = title.len();
    let mut from = 0;
    while let Some(o) = title.get(from..).and_then(|t| t.find(" (")) {
        let at = from + o;
        let inner = title.get(at + 2..).unwrap_or("");
        let close = inner.find(')').unwrap_or(inner.len());
        if close <= 14 && year_in(inner.get(..close).unwrap_or("")).is_some() {
            end = end.min(at);
            break;
        }
        from = at + 2;
    }
    // `, 2020` or `, 2001–` ending the title's sentence (a manual, a misc).
    if let Some(c) = title.rfind(", ") {
        let tail = title
            .get(c + 2..)
            .unwrap_or("")
            .trim_end_matches(['.', ' ']);
        if tail.chars().count() <= 6 && year_in(tail).is_some() {
            end = end.min(c);
        }
    }
    // What APA and its kin print after a title, in the same sentence: a
    // kind of work (`[Doctoral dissertation, …]`, `(tech. rep.)`) or a
    // volume or report number (`(Vol. 6)`, `(report00195)`).
    if let Some(at) = descriptor_start(title) {
        end = end.min(at);
    }
    for marker in [
        ", pages ",
        ", pp. ",
        ", page ",
        ", p. ",
        ", in: ",
        ", In: ",
        ". R package",
        ". URL",
        // A book's volume, a thesis's kind (`, volume 2`, `, Ph.D. Thesis, …`).
        ", volume ",
        ", vol. ",
        ", Ph.D. Thesis",
        ", Ph.D. thesis",
        ", PhD thesis",
        ", MA thesis",
        ", Master's thesis",
    ] {
        if let Some(i) = title.find(marker) {
            end = end.min(i);
        }
    }
    // What chem-acs prints after a book's or report's title: `; Publisher:
    // City`, `; tech. rep.; …`.
    if let Some(i) = title.find("; ") {
        let tail = title.get(i + 2..).unwrap_or("");
        let publisher = tail.split_once(": ").is_some_and(|(p, _)| {
            p.starts_with(|c: char| c.is_uppercase()) && !p.contains(';') && p.len() <= 60
        });
        if publisher || tail.starts_with("tech. rep") || tail.to_lowercase().contains("thesis") {
            end = end.min(i);
        }
    }
    // A parenthesis opened and never closed ends the title: what followed
    // it (a publisher and year, `(Duke University Press, 1994)`) was cut.
    if let Some(o) = title.get(..end).and_then(|t| t.rfind(" (")) {
        if !title.get(o..end).unwrap_or("").contains(')') {
            end = o;
        }
    }
    title.get(..end).unwrap_or(title)
}

/// Where a trailing bracketed descriptor of the kind of work starts in
/// `title` (the space before it), if the title ends with one.
fn descriptor_start(title: &str) -> Option<usize> {
    let t = title.trim_end_matches(['.', ' ']);
    let (open, close) = match t.chars().last()? {
        ']' => ('[', ']'),
        ')' => ('(', ')'),
        _ => return None,
    };
    let at = t.rfind(open)?;
    let inner = t.get(at + 1..t.len() - close.len_utf8())?.to_lowercase();
    // An edition or an editor (`(second ed.)`, `(P. Winston, Ed.)`).
    let edition =
        inner.ends_with(" ed.") || inner.ends_with(" eds.") || inner.ends_with(" edition");
    let kind = edition
        || ["thesis", "dissertation", "tech. rep", "technical report"]
            .iter()
            .any(|k| inner.contains(k));
    let numbered = ["vol. ", "no. ", "report"]
        .iter()
        .any(|k| inner.starts_with(k))
        && inner.chars().any(|c| c.is_ascii_digit());
    let spaced = t.get(..at)?.ends_with(' ');
    let before = at.checked_sub(1)?;
    (spaced && (kind || numbered) && (open == '[' || inner.len() <= 40)).then_some(before)
}

/// Positions (char index) and values of the four-digit years in `text`
/// (1500–2100, not part of a longer number or a page range).
fn years(text: &str) -> Vec<(usize, i32)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i - start != 4 {
            continue;
        }
        let range_before = start >= 2
            && matches!(chars[start - 1], '-' | '–')
            && chars[start - 2].is_ascii_digit();
        let range_after = matches!(chars.get(i), Some('-' | '–'))
            && chars
                .get(i + 1..)
                .and_then(|r| r.iter().find(|c| **c != '-' && **c != '–'))
                .is_some_and(char::is_ascii_digit);
        let glued = start > 0
            && (chars[start - 1].is_alphabetic()
                || chars[start - 1] == '/'
                || chars[start - 1] == '.');
        if range_before || range_after || glued {
            continue;
        }
        let n: String = chars[start..i].iter().collect();
        if let Ok(y) = n.parse::<i32>() {
            if (1500..=2100).contains(&y) {
                out.push((start, y));
            }
        }
    }
    out
}

/// The first year in `text`.
pub fn year_in(text: &str) -> Option<i32> {
    years(text).first().map(|(_, y)| *y)
}

/// The last year in `text`.
pub fn last_year(text: &str) -> Option<i32> {
    years(text).last().map(|(_, y)| *y)
}

/// An author block without a trailing `(2011).` (APA, apalike), and that year.
pub fn split_year(block: &str) -> (&str, Option<i32>) {
    let t = block.trim_end_matches(|c: char| c == '.' || c == ',' || c.is_whitespace());
    if let Some(open) = t.rfind('(') {
        let inner = t.get(open + 1..).unwrap_or("").trim_end_matches(')');
        if t.ends_with(')') && inner.len() <= 12 {
            if let Some(y) = year_in(inner) {
                return (t.get(..open).unwrap_or("").trim_end(), Some(y));
            }
        }
    }
    (block, None)
}

/// A title block without a trailing `, 2020.` or `, 2001--.`.
pub fn drop_year_tail(block: &str) -> String {
    let t = block.trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    if let Some(comma) = t.rfind(", ") {
        let tail = t.get(comma + 2..).unwrap_or("");
        if tail.chars().count() <= 12 && year_in(tail).is_some() && !tail.contains(ITAL_CLOSE) {
            return t.get(..comma).unwrap_or("").to_string();
        }
    }
    block.to_string()
}

/// The venue in what follows a title: its first italic span, else its
/// first piece without `In`/`in:` and without volume, pages or year.
pub fn venue_of(rest: &str) -> Option<String> {
    if let Some(a) = rest.find(ITAL_OPEN) {
        let after = rest.get(a + ITAL_OPEN.len_utf8()..).unwrap_or("");
        let inner = after.split(ITAL_CLOSE).next().unwrap_or("");
        let v = trim_title(&strip_marks(inner));
        if !v.is_empty() {
            return Some(v);
        }
    }
    let t = strip_marks(rest);
    let mut t = t.trim_start_matches(|c: char| c == '.' || c == ',' || c.is_whitespace());
    for p in ["In: ", "In ", "in: ", "in "] {
        if let Some(s) = t.strip_prefix(p) {
            t = s;
        }
    }
    let end = t
        .char_indices()
        .find(|(i, c)| {
            matches!(c, ',' | '(' | ';')
                || (c.is_ascii_digit() && *i > 0)
                || (*c == '.'
                    && t.get(i + 1..)
                        .is_none_or(|r| r.starts_with(' ') || r.is_empty())
                    && !after_abbreviation(t, *i))
        })
        .map_or(t.len(), |(i, _)| i);
    let v = trim_title(t.get(..end).unwrap_or(""));
    let v = v
        .trim_end_matches(|c: char| c == '.' || c.is_whitespace())
        .trim_end_matches(" vol")
        .trim_end_matches(" Vol")
        .trim()
        .to_string();
    (v.chars().filter(|c| c.is_alphabetic()).count() >= 2).then_some(v)
}

/// Volume and pages in what follows a title: `13(2):31--39`, `vol. 13`,
/// `pp. 31–39`, `pages 31--39`.
pub fn volume_pages(rest: &str) -> (Option<String>, Option<String>) {
    let t = strip_marks(rest);
    let words: Vec<&str> = t.split_whitespace().collect();
    let clean = |w: &str| {
        w.trim_matches(|c: char| matches!(c, ',' | '.' | ';' | ')' | '('))
            .to_string()
    };
    let mut volume = None;
    let mut pages = None;
    for (i, w) in words.iter().enumerate() {
        let lw = w.to_ascii_lowercase();
        let next = words.get(i + 1).map(|n| clean(n));
        if (lw == "vol." || lw == "volume") && volume.is_none() {
            volume = next
                .clone()
                .filter(|n| n.chars().any(|c| c.is_ascii_digit()));
        }
        if (lw == "pp." || lw == "pages" || lw == "p.") && pages.is_none() {
            pages = next.filter(|n| n.chars().any(|c| c.is_ascii_digit()));
        }
        if volume.is_none() {
            if let Some((v, p)) = w.split_once("):") {
                let v = v.split('(').next().unwrap_or("");
                if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()) {
                    volume = Some(v.to_string());
                    pages = pages.or_else(|| Some(clean(p)).filter(|p| !p.is_empty()));
                }
            }
        }
    }
    (volume, pages)
}

/// Words that end in a full stop without ending a sentence.
fn is_abbreviation(word: &str) -> bool {
    let w = word
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_ascii_lowercase();
    matches!(
        w.as_str(),
        "al" | "vol"
            | "no"
            | "pp"
            | "p"
            | "ed"
            | "eds"
            | "proc"
            | "conf"
            | "int"
            | "j"
            | "trans"
            | "jr"
            | "st"
            | "dr"
            | "vs"
            | "inc"
            | "ltd"
            | "co"
            | "univ"
            | "dept"
            | "nat"
            | "natl"
            | "acad"
            | "sci"
            | "rev"
            | "phys"
            | "lett"
            | "comput"
            | "assoc"
            | "math"
            | "symp"
            | "e.g"
            | "i.e"
            | "etc"
            | "ph.d"
            | "tech"
            | "rep"
            | "mr"
            | "ms"
            | "prof"
            | "ser"
    )
}

/// Whether the `.` at byte `dot` of `text` follows an initial or an abbreviation.
fn after_abbreviation(text: &str, dot: usize) -> bool {
    let before = text.get(..dot).unwrap_or("");
    let word = before.rsplit([' ', '(']).next().unwrap_or("");
    if word == "al" {
        // `et al.` ends an author list.
        return !before.ends_with("et al");
    }
    // An initial before this full stop: one capital (`J`), or dotted ones
    // (`T.H`); Vancouver's `KW.` is initials and the end of the list.
    // A lowercased one (`a.`, records carry them into print) is an initial
    // too; a two-letter word is not (`Xu.`, `Li.` end author lists).
    let initial = word.contains('.') && is_initial(word)
        || word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
    // A given name ending in a hyphenated initial (`Hergo-H.`), and a
    // two-letter transliteration before another initial (`Yu. A. Stepanov`).
    let hyphened = word
        .rsplit_once('-')
        .is_some_and(|(_, i)| i.chars().count() == 1 && i.chars().all(char::is_uppercase));
    let next_initial = text
        .get(dot + 1..)
        .and_then(|r| r.split_whitespace().next())
        .is_some_and(|n| n.ends_with('.') && n.chars().count() == 2 && is_initial(n));
    let transliterated =
        word.chars().count() == 2 && is_initial(&format!("{word}.")) && next_initial;
    let initial = initial || hyphened || transliterated;
    initial || is_abbreviation(word)
}

/// Whether a word is an initial or a run of them (`J.`, `J.-P.`, `T.H.`, `Ch.`).
pub fn is_initial(word: &str) -> bool {
    let w = word.trim_end_matches([',', ';', ':']);
    if w.is_empty() {
        return false;
    }
    let dotted = w.contains('.');
    let parts: Vec<&str> = w.split(['.', '-']).filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return false;
    }
    if !dotted {
        // Vancouver's `JA`: up to three capitals.
        return w.chars().count() <= 3 && w.chars().all(|c| c.is_uppercase());
    }
    parts.iter().all(|p| {
        let mut cs = p.chars();
        let first = cs.next();
        let rest: Vec<char> = cs.collect();
        // `a.` alone: a lowercased initial, as records carry them into print.
        let lowered = rest.is_empty() && first.is_some_and(|c| c.is_ascii_lowercase());
        lowered
            || first.is_some_and(char::is_uppercase)
                && rest.len() <= 1
                && rest.iter().all(|c| c.is_lowercase())
    })
}

/// A name particle as printed, lowercase (`van`, `de la`): a word of the
/// one table, [`crate::names::PARTICLES`], in its own case.
fn is_particle(word: &str) -> bool {
    crate::names::PARTICLES.contains(&word)
}

/// Whether a comma-separated piece looks like a name or part of one.
fn name_like(piece: &str) -> bool {
    let p = piece.trim();
    let p = p
        .strip_prefix("and ")
        .or_else(|| p.strip_prefix("& "))
        .unwrap_or(p);
    // The last author after `and` may have a long name (`and Blaise
    // Agüera y Arcas`): the `and` says it is a name.
    if p.len() < piece.trim().len() && long_name_like(p) {
        return true;
    }
    let words: Vec<&str> = p.split_whitespace().collect();
    if words.is_empty() || words.len() > 5 {
        return false;
    }
    let initials = words.iter().filter(|w| is_initial(w)).count();
    if initials == 0 && words.len() >= 4 {
        return false;
    }
    words.iter().enumerate().all(|(i, w)| {
        if is_initial(w) || is_particle(w) {
            return true;
        }
        // A lowercased initial opening a name, as records carry them into
        // print (`a. E. Porter`, `a Vescan`).
        let lower_initial = w.trim_end_matches('.').len() == 1
            && w.chars().all(|c| c.is_ascii_lowercase() || c == '.');
        if lower_initial && i == 0 && words.len() > 1 {
            return true;
        }
        // An elided particle joined to the name: `d'Amore`, `l’Hôpital`.
        let w = ["d'", "d’", "l'", "l’"]
            .iter()
            .find_map(|p| w.strip_prefix(p))
            .unwrap_or(w);
        let w = w.trim_end_matches('.');
        let mut cs = w.chars();
        let first = cs.next();
        first.is_some_and(char::is_uppercase)
            && !w.chars().any(|c| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
    })
}

/// Whether `text` reads as a name (a piece of an author list).
pub fn starts_with_name(text: &str) -> bool {
    name_like(text)
}

/// One name as written: `Family, Given`, `Given Family`, `Family GI`.
pub fn person(name: &str) -> Author {
    let n = squash(
        name.trim()
            .trim_start_matches("and ")
            .trim_matches(|c: char| c == ',' || c.is_whitespace()),
    );
    if n.contains(',') {
        let p = crate::names::Person::parse(&n);
        let family = [p.prefix.as_str(), p.family.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        return Author {
            family,
            given: p.given,
        };
    }
    let mut words: Vec<&str> = n.split_whitespace().collect();
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| matches!(w.trim_end_matches('.'), "Jr" | "II" | "III" | "IV"))
    {
        words.pop();
    }
    if words.len() >= 2
        && words
            .last()
            .is_some_and(|w| is_initial(w) && !w.contains('.'))
        && !words
            .iter()
            .rev()
            .skip(1)
            .any(|w| is_initial(w) && w.contains('.'))
    {
        let given = words.pop().unwrap_or_default();
        return Author {
            family: words.join(" "),
            given: given.to_string(),
        };
    }
    // Astronomy's `Family I. I.` (`Oudeyer P.-Y.`, `Assimos J. A`): a
    // family name first, then initials only.
    let initials_from = words
        .iter()
        .rposition(|w| !is_initial(w))
        .map_or(0, |i| i + 1);
    if initials_from >= 1
        && initials_from < words.len()
        && !is_initial(words[0])
        && words[initials_from..].iter().any(|w| w.contains('.'))
        && words[..initials_from].iter().all(|w| !w.contains('.'))
    {
        return Author {
            family: words[..initials_from].join(" "),
            given: with_dot(&words[initials_from..].join(" ")),
        };
    }
    let mut start = (1..words.len())
        .find(|&i| words.get(i).is_some_and(|w| is_particle(w)))
        .unwrap_or(words.len().saturating_sub(1));
    // `Van der Walt`: a capitalised particle before a lowercase one.
    if start > 1
        && start + 1 < words.len()
        && words
            .get(start - 1)
            .is_some_and(|w| is_particle(&w.to_lowercase()) && !is_initial(w))
    {
        start -= 1;
    }
    Author {
        family: words.get(start..).unwrap_or(&[]).join(" "),
        given: words.get(..start).unwrap_or(&[]).join(" "),
    }
}

/// An author block's names, and whether it ends in "et al." / "and others".
pub fn authors(block: &str) -> (Vec<Author>, bool) {
    let mut t = strip_marks(block);
    let mut others = false;
    for marker in ["et al.", "et al", "and others", "others"] {
        if let Some(i) = t.find(marker) {
            others = true;
            t = t.get(..i).unwrap_or("").to_string();
        }
    }
    let t = t
        .replace(", and ", ", ")
        .replace(" and ", ", ")
        .replace(" & ", ", ")
        .replace("; ", ", ");
    let pieces: Vec<&str> = t
        .split(',')
        .map(|p| p.trim().trim_end_matches('.').trim())
        .filter(|p| !p.is_empty())
        .collect();
    let all_initials = |p: &str| p.split_whitespace().all(is_initial);
    let mut out: Vec<Author> = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        let p = pieces[i];
        let next = pieces.get(i + 1).copied();
        // `Family, I.` pairs (family first): a one-word family name, then
        // a piece of initials only.
        let single = !all_initials(p)
            && p.split_whitespace()
                .filter(|w| !is_particle(&w.to_lowercase()))
                .count()
                == 1;
        if let Some(n) = next.filter(|n| single && all_initials(n)) {
            out.push(Author {
                family: p.to_string(),
                given: with_dot(n),
            });
            i += 2;
            continue;
        }
        out.push(person(p));
        i += 1;
    }
    out.retain(|a| !a.family.is_empty());
    (out, others)
}

/// Initials as printed (the split dropped a final full stop).
fn with_dot(given: &str) -> String {
    let g = given.trim();
    if g.split(['.', ' ', '-'])
        .next_back()
        .is_some_and(|w| w.chars().count() == 1)
        && !g.ends_with('.')
        && g.contains('.')
    {
        format!("{g}.")
    } else {
        g.to_string()
    }
}

/// Drops a leading label: `[12]`, `[Smi+11]`, `12.`, `(12)`, `12)`.
fn strip_label(text: &str) -> &str {
    let t = text.trim_start();
    if let Some(rest) = t.strip_prefix('[') {
        if let Some(end) = rest.find(']') {
            // `[12]`, `[Smi+11]`, or author-year's `[Barick et al., 2015]`.
            let label = rest.get(..end).unwrap_or("");
            if end <= 16 || end <= 64 && !label.contains('[') && year_in(label).is_some() {
                return rest.get(end + 1..).unwrap_or("").trim_start();
            }
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits <= 4 {
        let rest = t.get(digits..).unwrap_or("");
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return r.trim_start();
        }
    }
    if let Some(rest) = t.strip_prefix('(') {
        let d = rest.chars().take_while(char::is_ascii_digit).count();
        if d > 0 && rest.get(d..).is_some_and(|r| r.starts_with(") ")) {
            return rest.get(d + 2..).unwrap_or("").trim_start();
        }
    }
    t
}

/// Takes DOIs, arXiv ids and URLs out of `text` (with the words that
/// announce them: `doi:`, `URL`, `Available:`).
fn take_ids(text: &str, r: &mut Reference) -> String {
    let mut kept: Vec<&str> = Vec::new();
    // What PDFs make of a DOI: biblatex-chicago's spaced URL (`https : / /
    // doi . org / 10.1016/j . x`), ACM's angle brackets for `<` and `>`.
    let text = text
        .replace("https : / / doi . org / ", "https://doi.org/")
        .replace("http : / / dx . doi . org / ", "http://dx.doi.org/")
        .replace('⟨', "<")
        .replace('⟩', ">");
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let bare = w
            .trim_end_matches(['.', ',', ';', ')'])
            .trim_start_matches(['(', '<']);
        let mut lower = bare.to_ascii_lowercase();
        let mut joined = bare.to_string();
        let mut used = 1;
        // A URL broken after its scheme by a line end: `https: //doi.org/…`,
        // or `https : //…` as biblatex-apa's PDFs read.
        let scheme = lower.strip_suffix(':').unwrap_or(&lower);
        if matches!(scheme, "http" | "https") {
            let gap = usize::from(!lower.ends_with(':') && words.get(i + 1) == Some(&":"));
            if let Some(rest) = words.get(i + 1 + gap).filter(|n| n.starts_with("//")) {
                let rest = rest.trim_end_matches(['.', ',', ';', ')']);
                joined = format!("{scheme}:{rest}");
                lower = joined.to_ascii_lowercase();
                used = 2 + gap;
            }
        }
        if matches!(lower.as_str(), "doi:" | "doi" | "arxiv:" | "arxiv") && i + 1 < words.len() {
            // `doi: 10.…`, `arXiv: 1706.03762` written apart.
            let next = words[i + 1].trim_end_matches(['.', ',', ';', ')']);
            if Doi::parse(next).is_some() || ArxivId::parse(next).is_some() {
                joined = format!(
                    "{}{}",
                    if lower.starts_with("doi") {
                        "doi:"
                    } else {
                        "arXiv:"
                    },
                    next
                );
                used = 2;
            }
        }
        // A DOI broken at a full stop by the line end or the spacing
        // (`10.1016/j.tet.2010.03 .065`, `10.1021/acs . nanolett.7b02251`),
        // or with the next URL glued on (`….3736933.https://dblp.org/…`).
        let jl = joined.to_ascii_lowercase();
        if jl.starts_with("10.") || jl.starts_with("doi:10.") || jl.contains("doi.org/10.") {
            let mut at = i + used;
            loop {
                let next = words.get(at).copied().unwrap_or("");
                let after = words.get(at + 1).copied().unwrap_or("");
                if next == "." && doi_piece(after) {
                    joined = format!("{joined}.{}", after.trim_end_matches(['.', ',', ';']));
                    at += 2;
                } else if next.len() > 1 && next.starts_with('.') && doi_piece(&next[1..]) {
                    joined = format!("{joined}{}", next.trim_end_matches(['.', ',', ';']));
                    at += 1;
                } else {
                    break;
                }
            }
            used = at - i;
            if let Some(cut) = joined.find(".http") {
                joined.truncate(cut);
            }
            lower = joined.to_ascii_lowercase();
        }
        let is_url = lower.starts_with("http://")
            || lower.starts_with("https://")
            || lower.starts_with("www.");
        let doi =
            (lower.starts_with("10.") || lower.starts_with("doi:") || lower.contains("doi.org/"))
                .then(|| Doi::parse(&joined))
                .flatten();
        let arxiv = (lower.starts_with("arxiv:")
            || lower.contains("arxiv.org/")
            || joined.starts_with("arXiv:"))
        .then(|| ArxivId::parse(&joined))
        .flatten();
        if let Some(d) = doi {
            // arXiv's own DOI (`10.48550/arXiv.…`) is both: the DOI as
            // printed and the arXiv id it names.
            if let Some(a) = d.arxiv() {
                r.arxiv.get_or_insert(a);
            }
            r.doi.get_or_insert(d);
            i += used;
            continue;
        }
        if is_url && used > 1 {
            r.url.get_or_insert(joined);
            i += used;
            continue;
        }
        if let Some(a) = arxiv {
            r.arxiv.get_or_insert(a);
            i += used;
            continue;
        }
        if is_url {
            if r.url.is_none() {
                r.url = Some(bare.to_string());
            }
            i += 1;
            continue;
        }
        if matches!(
            lower.as_str(),
            "url" | "available:" | "[online]." | "[online]" | "doi:" | "doi" | "preprint"
        ) {
            i += 1;
            continue;
        }
        kept.push(w);
        i += 1;
    }
    kept.join(" ")
}

/// Whether a word can go on a DOI broken before it: DOI characters only,
/// starting with a lowercase letter or a digit (a capital starts the next
/// sentence).
fn doi_piece(word: &str) -> bool {
    let w = word.trim_end_matches(['.', ',', ';']);
    w.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-;()/:<>".contains(c))
}

/// Parses one reference string into fields.
pub fn parse(text: &str) -> Reference {
    parse_marked(text)
}

/// Where a sentence ends in `t` at or after byte `from`: the byte index of
/// the `.`/`?`/`!` ending it (`?` and `!` kept in the sentence).
fn sentence_end(t: &str, from: usize) -> Option<usize> {
    let bytes = t.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        // `?` and `!` go on within a title when what follows does not
        // start a sentence (`zero loss? –a framework`, `civility? : political`).
        let next_opens = || {
            t.get(i + 1..)
                .and_then(|r| r.trim_start().chars().next())
                .is_none_or(|c| c.is_uppercase() || c.is_ascii_digit() || c == ITAL_OPEN)
        };
        if matches!(b, b'.' | b'?' | b'!')
            && bytes.get(i + 1).is_none_or(|n| *n == b' ')
            && (b != b'.' || !after_abbreviation(t, i))
            && (b == b'.' || next_opens())
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// [`parse`] of text that may carry italic marks ([`ITAL_OPEN`]), as a
/// `.bbl` gives it: an italic span after the title is the venue.
pub fn parse_marked(input: &str) -> Reference {
    let mut r = Reference::new(strip_marks(input), Source::Text);
    // Entities a record's metadata carried into print (`Ch&apos;ng`).
    let labelled = squash(input)
        .replace("&apos;", "'")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    let text = take_ids(strip_label(&labelled), &mut r);
    let t = text.as_str();
    let mut conf = Confidence::default();

    // IEEE: `Authors, “Title,” venue`.
    let quote = t
        .find('“')
        .map(|q| (q, '”'))
        .or_else(|| t.find(" \"").map(|q| (q + 1, '"')));
    // Physics, chemistry and astronomy print no title for most works.
    let shape = quote.is_none().then(|| super::untitled::read(t)).flatten();
    if let Some(Shape::Untitled(u)) = shape {
        let (people, others) = authors(t.get(..u.names).unwrap_or(""));
        conf.authors = if people.is_empty() { 0.0 } else { 0.7 };
        conf.title = 0.0;
        conf.venue = if u.venue.is_some() { 0.5 } else { 0.0 };
        conf.year = if u.year.is_some() { 0.85 } else { 0.0 };
        r.authors = people;
        r.others = others;
        r.venue = u.venue;
        r.volume = u.volume;
        r.pages = u.pages;
        r.year = u.year;
        r.confidence = conf;
        return r;
    }
    let (author_block, title, rest, year_hint) =
        if let Some(Shape::YearFirst { names, year, rest }) = shape {
            let (title, after) = title_of(t.get(rest..).unwrap_or(""), false);
            conf.title = 0.7;
            (t.get(..names).unwrap_or(""), title, after, Some(year))
        } else if let Some((q, close)) = quote {
            let after = t.get(q + close.len_utf8().max(1)..).unwrap_or("");
            let after = after.trim_start_matches('“').trim_start_matches('"');
            let end = after.find(close).unwrap_or(after.len());
            let title = after.get(..end).unwrap_or("");
            let rest = after.get(end..).unwrap_or("").trim_start_matches(close);
            conf.title = 0.95;
            (
                t.get(..q).unwrap_or(""),
                title.to_string(),
                rest.to_string(),
                None,
            )
        } else {
            let (a_end, title_start, comma_style, year) = author_end(t);
            let body = t.get(title_start..).unwrap_or("");
            let (title, rest) = title_of(body, comma_style);
            conf.title = if comma_style { 0.6 } else { 0.8 };
            (t.get(..a_end).unwrap_or(""), title, rest, year)
        };
    let (author_block, year_in_authors) = split_year(author_block);
    let (people, others) = authors(author_block.trim_end_matches([',', ':', ' ']));
    conf.authors = if people.is_empty() { 0.0 } else { 0.7 };
    r.authors = people;
    r.others = others;
    let title = trim_title(cut_title_tail(&strip_marks(&title)));
    // A title has words: a year or a number read as one (`2014`, where the
    // style printed none) would be searched for and found nowhere.
    r.title = (title.chars().filter(|c| c.is_alphabetic()).count() >= 2).then_some(title);
    // A venue where the style printed no title, or another field read
    // where the title goes, is not searched for as one.
    if r.title.as_deref().is_some_and(|t| {
        super::untitled::venue_not_title(t) || super::not_title::other_field(t).is_some()
    }) {
        r.title = None;
        conf.title = 0.0;
    }
    r.venue = venue_of(&rest);
    conf.venue = if r.venue.is_some() { 0.5 } else { 0.0 };
    r.year = year_hint
        .or(year_in_authors)
        .or_else(|| paren_year(&rest))
        .or_else(|| last_year(&rest))
        .or_else(|| last_year(t));
    conf.year = if r.year.is_some() { 0.85 } else { 0.0 };
    let (volume, pages) = volume_pages(&rest);
    r.volume = volume;
    r.pages = pages;
    r.confidence = conf;
    r
}

/// A year in parentheses: `(2011)`, `(March 2011)`.
fn paren_year(text: &str) -> Option<i32> {
    let mut from = 0;
    while let Some(o) = text.get(from..).and_then(|t| t.find('(')) {
        let at = from + o;
        let inner = text.get(at + 1..).unwrap_or("");
        let close = inner.find(')').unwrap_or(inner.len());
        if close <= 20 {
            if let Some(y) = year_in(inner.get(..close).unwrap_or("")) {
                return Some(y);
            }
        }
        from = at + 1;
    }
    None
}

/// Where the author list of `t` ends: its end, where the title starts,
/// whether pieces are separated by commas only (elsarticle), and a year
/// read between them (`(2011).`).
fn author_end(t: &str) -> (usize, usize, bool, Option<i32>) {
    // A year in parentheses right after names: APA, Harvard.
    if let Some(o) = t.find(" (") {
        let inner = t.get(o + 2..).unwrap_or("");
        if let Some(c) = inner.find(')') {
            let y = inner
                .get(..c)
                .and_then(|s| (s.len() <= 12).then(|| year_in(s)).flatten());
            let names = t.get(..o).unwrap_or("");
            if y.is_some() && names_only(names) {
                let start = o + 2 + c + 1;
                let rest = t.get(start..).unwrap_or("");
                let skip = rest.len() - rest.trim_start_matches(['.', ',', ':', ' ']).len();
                return (o, start + skip, false, y);
            }
        }
    }
    let first_end = sentence_end(t, 0).unwrap_or(t.len());
    // LNCS: `Names: Title.`
    if let Some(c) = t.get(..first_end).and_then(|s| s.find(": ")) {
        let names = t.get(..c).unwrap_or("");
        let last = names.rsplit(' ').next().unwrap_or("");
        if names_only(names) && (is_initial(last) || last == "al.") {
            return (c, c + 2, false, None);
        }
    }
    let first = t.get(..first_end).unwrap_or("");
    if names_only(first) {
        let start = (first_end + 1).min(t.len());
        let skip = t.get(start..).map_or(0, |r| r.len() - r.trim_start().len());
        let start = start + skip;
        // ACM: `Names. 1999. Title.`; `[n. d.]` when there is no year.
        let rest = t.get(start..).unwrap_or("");
        if let Some(after) = rest.strip_prefix("[n. d.]. ") {
            return (first_end, t.len() - after.len(), false, None);
        }
        if let Some(e) = sentence_end(rest, 0) {
            let head = rest.get(..e).unwrap_or("");
            if head.chars().count() <= 8 && year_in(head).is_some() {
                let after = rest.get(e + 1..).unwrap_or("").trim_start();
                return (first_end, t.len() - after.len(), false, year_in(head));
            }
        }
        return (first_end, start, false, None);
    }
    // elsarticle-harv: `Family, I., Family, I., 2009. Title.`
    if let Some(comma) = first.rfind(", ") {
        let tail = first.get(comma + 2..).unwrap_or("");
        if tail.chars().count() <= 8
            && year_in(tail).is_some()
            && names_only(first.get(..comma).unwrap_or(""))
        {
            let start = (first_end + 1).min(t.len());
            let skip = t.get(start..).map_or(0, |r| r.len() - r.trim_start().len());
            return (comma, start + skip, false, year_in(tail));
        }
    }
    // Commas only: the names are the leading pieces that look like names.
    let mut at = 0;
    let mut last_end = 0;
    let mut named = 0;
    for piece in first.split(", ") {
        if !names_only(piece) || piece.contains(':') {
            // Nature: `Wu, Y. & Guo, Y. Title.`: the piece that ends the
            // names opens with the last author's initials, then the title,
            // which ends at its sentence's end.
            let initials = leading_initials(piece);
            if named > 0 && initials > 0 {
                let end = at + initials;
                return (end, (end + 1).min(t.len()), false, None);
            }
            break;
        }
        named += 1;
        at += piece.len() + 2;
        last_end = at - 2;
    }
    if named == 0 {
        return (0, 0, false, None);
    }
    (last_end, at.min(t.len()), true, None)
}

/// The length in bytes of the dotted initials (`Y.`, `D. G.`) that open
/// `piece` and are followed by more words; 0 when there are none.
fn leading_initials(piece: &str) -> usize {
    let mut len = 0;
    let mut rest = piece;
    while let Some((word, after)) = rest.split_once(' ') {
        if !(word.ends_with('.') && is_initial(word)) || after.is_empty() {
            break;
        }
        len += word.len() + if len > 0 { 1 } else { 0 };
        rest = after;
    }
    len
}

/// Whether every comma piece of `text` looks like (part of) a name.
pub(super) fn names_only(text: &str) -> bool {
    let mut t = text.to_string();
    for m in ["et al.", "et al", "and others", ". . .", "…"] {
        t = t.replace(m, "");
    }
    let t = t
        .replace(" and ", ", ")
        .replace(" & ", ", ")
        .replace("; ", ", ");
    let pieces: Vec<&str> = t
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if pieces.is_empty() {
        return t.len() < text.len();
    }
    // A long name (`Seyedeh Negar Layegh Khavidaki`, `Baldassarri Höger von
    // Högersthal`) passes inside a list of short ones, never as its last
    // piece, where a title in title case would stand.
    let short = pieces
        .iter()
        .filter(|p| p.split_whitespace().count() <= 3 && name_like(p))
        .count();
    let last = pieces.len() - 1;
    let after_and = text.rsplit_once(" and ").map(|(_, r)| r.trim());
    pieces.iter().enumerate().all(|(i, p)| {
        name_like(p)
            || i < last && short >= 2 && long_name_like(p)
            || i == last && after_and == Some(*p) && long_name_like(p)
    })
}

/// Four or five capitalized words (particles between them allowed), no
/// initials: a long name, or a title in title case; see [`names_only`].
fn long_name_like(piece: &str) -> bool {
    let words: Vec<&str> = piece.split_whitespace().collect();
    (4..=5).contains(&words.len())
        && words.first().is_some_and(|w| !is_particle(w))
        && words.iter().all(|w| {
            is_particle(w)
                || w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’'))
        })
}

/// The title at the start of `body` and what follows it. A title ends at
/// an italic span (the venue), at the end of its sentence, or, in
/// comma-separated styles, at the next comma.
fn title_of(body: &str, comma_style: bool) -> (String, String) {
    if let Some(rest) = body.strip_prefix(ITAL_OPEN) {
        // A book's title in italics.
        let end = rest.find(ITAL_CLOSE).unwrap_or(rest.len());
        return (
            rest.get(..end).unwrap_or("").to_string(),
            rest.get(end..).unwrap_or("").to_string(),
        );
    }
    let mut end = sentence_end(body, 0).map_or(body.len(), |e| {
        if body.as_bytes().get(e) == Some(&b'.') {
            e
        } else {
            e + 1
        }
    });
    if let Some(i) = body.find(ITAL_OPEN) {
        let before = body.get(..i).unwrap_or("").trim_end();
        if before.ends_with([',', '.', ':']) || before.ends_with(" In") || before.ends_with(" in") {
            end = end.min(i);
        }
    }
    if comma_style {
        if let Some(c) = body.find(", ") {
            end = end.min(c);
        }
    }
    (
        body.get(..end).unwrap_or(body).to_string(),
        body.get(end..).unwrap_or("").to_string(),
    )
}
