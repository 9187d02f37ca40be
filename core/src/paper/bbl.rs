//! `.bbl` files: biblatex's (`\entry` blocks whose fields biber wrote
//! out, read exactly) and BibTeX's `thebibliography` (`\bibitem`s as a
//! style printed them), also written by hand in a `.tex`.
//!
//! A BibTeX style prints an entry in `\newblock` blocks: the authors, the
//! title, then the venue and the rest (plain, abbrv, unsrt, alpha, the
//! natbib styles, apalike). Some styles mark fields outright (`\bibinfo{title}`
//! in elsarticle and ACM-Reference-Format, ACM's `\showarticletitle`); IEEE
//! styles quote the title (``` ``Title,'' ```). What no block or mark
//! settles goes to [`super::fields`], the string parser.

use super::fields::{self, ITAL_CLOSE, ITAL_OPEN};
use super::{Author, Confidence, Reference, Source};
use crate::ids::{ArxivId, Doi};

/// Separates `\newblock` blocks in marked text.
const BLOCK: char = '\u{1}';
/// Opens and closes a placeholder for a verbatim URL.
const URL_OPEN: char = '\u{4}';
const URL_CLOSE: char = '\u{5}';
/// Groups nested deeper than this are copied as text, unread.
const MAX_DEPTH: usize = 64;

/// Whether `text` is a biblatex `.bbl` (biber's `\entry` blocks).
pub fn is_biblatex(text: &str) -> bool {
    text.contains("\\entry{") && text.contains("\\endentry")
}

/// The 1-based line of byte offset `at` in `text`.
fn line_at(text: &str, at: usize) -> usize {
    1 + text
        .get(..at)
        .map_or(0, |t| t.bytes().filter(|&b| b == b'\n').count())
}

/// The balanced group opening at `chars[i]` (after spaces and one line
/// break): its inner range and the index after it. An unclosed group runs
/// to the end.
fn group(chars: &[char], mut i: usize) -> Option<(usize, usize, usize)> {
    while chars
        .get(i)
        .is_some_and(|c| *c == ' ' || *c == '\n' || *c == '\t')
    {
        i += 1;
    }
    if chars.get(i) != Some(&'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut j = i;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((i + 1, j, j + 1));
                }
            }
            _ => {}
        }
        j += 1;
    }
    Some((i + 1, chars.len(), chars.len()))
}

/// The bracketed optional argument at `chars[i]` (braces inside kept).
fn bracket(chars: &[char], i: usize) -> Option<(usize, usize, usize)> {
    if chars.get(i) != Some(&'[') {
        return None;
    }
    let mut depth = 0usize;
    for (j, c) in chars.iter().enumerate().skip(i + 1) {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ']' if depth == 0 => return Some((i + 1, j, j + 1)),
            _ => {}
        }
    }
    None
}

fn text_of(chars: &[char], from: usize, to: usize) -> String {
    chars
        .get(from..to.min(chars.len()))
        .unwrap_or(&[])
        .iter()
        .collect()
}

/// The control word at `chars[i]` (a backslash) and the index after it.
fn control_word(chars: &[char], i: usize) -> (String, usize) {
    let mut j = i + 1;
    while chars.get(j).is_some_and(char::is_ascii_alphabetic) {
        j += 1;
    }
    (text_of(chars, i + 1, j), j)
}

/// Drops TeX comments (an unescaped `%` to the end of its line, with the
/// line break and the next line's indentation, as TeX reads them).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '%' => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
                while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// What walking an item's LaTeX found beside its text.
#[derive(Default)]
struct Marks {
    /// `\bibinfo{name}{value}` and `\showarticletitle{…}` values, decoded.
    info: Vec<(String, String)>,
    /// URLs from `\url`, `\href`, `\path`, `\doi` (DOIs as `doi:…`).
    urls: Vec<String>,
}

impl Marks {
    fn get(&self, name: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Rewrites an item's LaTeX into text LaTeX decoding can finish: blocks
/// separated by [`BLOCK`], italics between [`ITAL_OPEN`] and [`ITAL_CLOSE`],
/// URLs as placeholders, bookkeeping commands dropped, marked fields kept
/// in `marks`.
fn walk(chars: &[char], out: &mut String, marks: &mut Marks, depth: usize) {
    if depth > MAX_DEPTH {
        out.extend(chars.iter().filter(|c| **c != '{' && **c != '}'));
        return;
    }
    let arg = |i: usize| group(chars, i);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let (name, j) = control_word(chars, i);
                match name.as_str() {
                    "newblock" => {
                        out.push(BLOCK);
                        i = j;
                    }
                    "hskip" => {
                        // IEEEtran's block separator: `\hskip 1em plus … \relax`.
                        let rest = text_of(chars, j, chars.len());
                        let end = rest.find("\\relax").map_or(0, |k| k + 6);
                        out.push(BLOCK);
                        i = j + rest.get(..end).map_or(0, |r| r.chars().count());
                    }
                    "BIBentryALTinterwordspacing"
                    | "BIBentrySTDinterwordspacing"
                    | "DOIprefix"
                    | "URLprefix"
                    | "relax"
                    | "urldef"
                    | "tempurl"
                    | "bibinitperiod" => i = j,
                    "natexlab" | "showDOI" | "showISSN" | "showISBNx" | "showISBNxiii"
                    | "showLCCN" | "showCODEN" | "bibAnnoteFile" | "bibAnnote" => {
                        i = arg(j).map_or(j, |(_, _, n)| n);
                    }
                    "url" | "path" | "nolinkurl" | "doi" | "eprint" | "showeprint" => {
                        let k = bracket(chars, j).map_or(j, |(_, _, n)| n);
                        if let Some((a, b, n)) = arg(k) {
                            let mut u = text_of(chars, a, b).trim().to_string();
                            let lower = u.to_ascii_lowercase();
                            if name == "doi"
                                && !lower.starts_with("doi:")
                                && !lower.contains("doi.org/")
                            {
                                u = format!("doi:{u}");
                            }
                            if name == "eprint" || name == "showeprint" {
                                u = format!("arXiv:{u}");
                            }
                            out.push(URL_OPEN);
                            out.push_str(&marks.urls.len().to_string());
                            out.push(URL_CLOSE);
                            marks.urls.push(u);
                            i = n;
                        } else {
                            i = j;
                        }
                    }
                    "href" => {
                        if let Some((a, b, n)) = arg(j) {
                            marks.urls.push(text_of(chars, a, b).trim().to_string());
                            match arg(n) {
                                Some((c0, c1, n2)) => {
                                    walk(chars.get(c0..c1).unwrap_or(&[]), out, marks, depth + 1);
                                    i = n2;
                                }
                                None => i = n,
                            }
                        } else {
                            i = j;
                        }
                    }
                    "bibinfo" | "bibfield" => {
                        let Some((a, b, n)) = arg(j) else {
                            i = j;
                            continue;
                        };
                        let field = text_of(chars, a, b);
                        let Some((c0, c1, n2)) = arg(n) else {
                            i = n;
                            continue;
                        };
                        let inner = chars.get(c0..c1).unwrap_or(&[]);
                        if name == "bibinfo" {
                            let mut sub = String::new();
                            walk(inner, &mut sub, marks, depth + 1);
                            marks.info.push((field, finish(&sub, &marks.urls)));
                        }
                        walk(inner, out, marks, depth + 1);
                        i = n2;
                    }
                    "showarticletitle" => {
                        if let Some((a, b, n)) = arg(j) {
                            let inner = chars.get(a..b).unwrap_or(&[]);
                            let mut sub = String::new();
                            walk(inner, &mut sub, marks, depth + 1);
                            marks.info.push(("title".into(), finish(&sub, &marks.urls)));
                            out.push_str(&sub);
                            i = n;
                        } else {
                            i = j;
                        }
                    }
                    "emph" | "textit" | "textsl" => {
                        if let Some((a, b, n)) = arg(j) {
                            out.push(ITAL_OPEN);
                            walk(chars.get(a..b).unwrap_or(&[]), out, marks, depth + 1);
                            out.push(ITAL_CLOSE);
                            i = n;
                        } else {
                            i = j;
                        }
                    }
                    "BIBforeignlanguage" => {
                        // `\BIBforeignlanguage{lang}{text}`: the text.
                        i = arg(j).map_or(j, |(_, _, n)| n);
                    }
                    "" => {
                        // An escaped character: keep it for decoding.
                        out.push('\\');
                        if let Some(n) = chars.get(i + 1) {
                            out.push(*n);
                        }
                        i += 2;
                    }
                    _ => {
                        out.push_str(&text_of(chars, i, j));
                        i = j;
                    }
                }
            }
            '{' => {
                let (a, b, n) = group(chars, i).unwrap_or((i + 1, chars.len(), chars.len()));
                let inner = chars.get(a..b).unwrap_or(&[]);
                let (head, k) = if inner.first() == Some(&'\\') {
                    control_word(inner, 0)
                } else {
                    (String::new(), 0)
                };
                match head.as_str() {
                    "em" | "it" | "sl" | "itshape" => {
                        out.push(ITAL_OPEN);
                        walk(inner.get(k..).unwrap_or(&[]), out, marks, depth + 1);
                        out.push(ITAL_CLOSE);
                    }
                    "tt" | "bf" | "sc" | "rm" | "sf" => {
                        walk(inner.get(k..).unwrap_or(&[]), out, marks, depth + 1)
                    }
                    _ => {
                        // Braces only protect case: keep them for decoding.
                        out.push('{');
                        walk(inner, out, marks, depth + 1);
                        out.push('}');
                    }
                }
                i = n;
            }
            '`' if chars.get(i + 1) == Some(&'`') => {
                out.push('“');
                i += 2;
            }
            '\'' if chars.get(i + 1) == Some(&'\'') => {
                out.push('”');
                i += 2;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
}

/// Marked LaTeX to text: decoded, URL placeholders put back, white space
/// one space.
fn finish(marked: &str, urls: &[String]) -> String {
    let decoded = crate::latex::decode(marked);
    let mut out = String::with_capacity(decoded.len());
    let mut rest = decoded.as_str();
    while let Some(i) = rest.find(URL_OPEN) {
        out.push_str(rest.get(..i).unwrap_or(""));
        let after = rest.get(i + URL_OPEN.len_utf8()..).unwrap_or("");
        match after.find(URL_CLOSE) {
            Some(k) => {
                let n: usize = after
                    .get(..k)
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(usize::MAX);
                if let Some(u) = urls.get(n) {
                    out.push_str(u);
                }
                rest = after.get(k + URL_CLOSE.len_utf8()..).unwrap_or("");
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    fields::squash(&out)
}

/// Each `thebibliography` environment's `\bibitem`s in `text` (a `.bbl`
/// or a `.tex`), in order.
pub fn read_thebibliography(text: &str) -> Vec<Reference> {
    let mut refs = Vec::new();
    let mut from = 0;
    while let Some(b) = text
        .get(from..)
        .and_then(|t| t.find("\\begin{thebibliography}"))
    {
        let start = from + b;
        let body_start = start + "\\begin{thebibliography}".len();
        let end = text
            .get(body_start..)
            .and_then(|t| t.find("\\end{thebibliography}"))
            .map_or(text.len(), |e| body_start + e);
        read_items(text, body_start, end, &mut refs);
        from = end.max(body_start);
    }
    refs
}

/// The `\bibitem`s between byte offsets `from` and `to` of `text`.
fn read_items(text: &str, from: usize, to: usize, refs: &mut Vec<Reference>) {
    let body = text.get(from..to).unwrap_or("");
    let starts: Vec<usize> = body.match_indices("\\bibitem").map(|(i, _)| i).collect();
    for (n, &s) in starts.iter().enumerate() {
        let e = starts.get(n + 1).copied().unwrap_or(body.len());
        let item = body.get(s..e).unwrap_or("");
        if item.as_bytes().get(8).is_some_and(u8::is_ascii_alphabetic) {
            continue; // `\bibitemsep` and the like
        }
        refs.push(read_item(item, line_at(text, from + s)));
    }
}

/// MNRAS's `\mn@doi [Journal] {10.…}` (the journal's name linked to the
/// DOI) and `\mn@eprint {arXiv} {id}` as the text and links they print.
fn mnras_links(item: &str) -> String {
    if !item.contains("\\mn@") {
        return item.to_string();
    }
    let chars: Vec<char> = item.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let rest: String = chars
            .get(i..(i + 10).min(chars.len()))
            .unwrap_or(&[])
            .iter()
            .collect();
        let skip_ws = |mut j: usize| {
            while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            j
        };
        if rest.starts_with("\\mn@doi") {
            let mut j = skip_ws(i + "\\mn@doi".len());
            let mut shown = None;
            if let Some((a, b, n)) = bracket(&chars, j) {
                shown = Some(text_of(&chars, a, b));
                j = skip_ws(n);
            }
            if let Some((a, b, n)) = group(&chars, j) {
                let doi = text_of(&chars, a, b);
                if let Some(name) = shown {
                    out.push_str(&name);
                    out.push_str(", ");
                }
                out.push_str(&format!("\\url{{https://doi.org/{doi}}}"));
                i = n;
                continue;
            }
        } else if rest.starts_with("\\mn@eprint") {
            let j = skip_ws(i + "\\mn@eprint".len());
            if let Some((a, b, n)) = group(&chars, j) {
                let kind = text_of(&chars, a, b);
                if let Some((c, d, m)) = group(&chars, skip_ws(n)) {
                    out.push_str(&format!("{kind}:{}", text_of(&chars, c, d)));
                    i = m;
                    continue;
                }
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// One `\bibitem[label]{key} …` into a reference.
fn read_item(item: &str, line: usize) -> Reference {
    let item = mnras_links(&strip_comments(item));
    let chars: Vec<char> = item.chars().collect();
    let mut i = "\\bibitem".len();
    while chars.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    if let Some((_, _, n)) = bracket(&chars, i) {
        i = n;
    }
    let mut key = None;
    if let Some((a, b, n)) = group(&chars, i) {
        key = Some(text_of(&chars, a, b).trim().to_string());
        i = n;
    }
    let body = chars.get(i..).unwrap_or(&[]);
    let raw = fields::squash(&text_of(body, 0, body.len()));
    let mut marks = Marks::default();
    let mut marked = String::new();
    walk(body, &mut marked, &mut marks, 0);
    let all: Vec<String> = marked
        .split(BLOCK)
        .map(|b| finish(b, &marks.urls))
        .filter(|b| {
            !b.trim_matches(|c: char| c.is_whitespace() || c == '.')
                .is_empty()
        })
        .collect();
    // Blocks that only hold a DOI, an arXiv id or a URL come last in every
    // style; the fields are read from the others and the ids from all.
    let blocks: Vec<String> = all
        .iter()
        .filter(|b| !fields::is_link_block(b))
        .cloned()
        .collect();
    let mut r = if marks.get("title").is_some()
        || marks.get("person").is_some()
        || marks.get("author").is_some()
    {
        from_marks(&marks, &blocks, booktitle_after_in(&item))
    } else {
        from_blocks(&blocks)
    };
    r.raw = raw;
    r.key = key;
    r.line = Some(line);
    r.source = Source::Thebibliography;
    ids_from(&mut r, &marks.urls, &all.join(" "));
    r
}

/// Fills the DOI, arXiv id and URL from an item's links and text.
fn ids_from(r: &mut Reference, urls: &[String], text: &str) {
    for u in urls {
        if r.doi.is_none() {
            if let Some(d) = Doi::parse(u).filter(|d| d.arxiv().is_none()) {
                r.doi = Some(d);
                continue;
            }
        }
        if r.arxiv.is_none() {
            if let Some(a) = ArxivId::parse(u) {
                r.arxiv = Some(a);
                continue;
            }
        }
        if r.url.is_none()
            && (u.starts_with("http") || u.starts_with("www."))
            && Doi::parse(u).is_none()
        {
            r.url = Some(u.clone());
        }
    }
    let found = fields::parse(text);
    r.doi = r.doi.take().or(found.doi);
    r.arxiv = r.arxiv.take().or(found.arxiv);
}

/// Whether the item's `\bibinfo{booktitle}` follows the word "in": the
/// proceedings a paper appeared in (APS's `in \emph{\bibinfo{booktitle}{AAAI}}`
/// prints no title before it), not a book's own title (ACM).
fn booktitle_after_in(item: &str) -> bool {
    let Some(at) = item
        .find("\\bibinfo {booktitle}")
        .or_else(|| item.find("\\bibinfo{booktitle}"))
    else {
        return false;
    };
    let mut before = item.get(..at).unwrap_or("");
    // what may stand between: `\emph {`, `\href@noop {} {`, `\href {url} {`, `\ `
    loop {
        let t = before.trim_end().trim_end_matches('{').trim_end();
        let t = t.strip_suffix("\\emph").unwrap_or(t).trim_end();
        let t = t.strip_suffix("{}").unwrap_or(t).trim_end();
        let t = t.strip_suffix("\\href@noop").unwrap_or(t).trim_end();
        let t = match t
            .strip_suffix('}')
            .and_then(|u| u.rfind("\\href").map(|h| (u, h)))
        {
            Some((u, h)) => u.get(..h).unwrap_or(""),
            None => t,
        };
        let t = t.strip_suffix("\\").unwrap_or(t).trim_end();
        if t.len() == before.len() {
            break;
        }
        before = t;
    }
    let before = before.trim_end_matches(['\\', ' ', '~']);
    before
        .rsplit(|c: char| !c.is_alphabetic())
        .next()
        .is_some_and(|w| w == "in" || w == "In")
}

/// An item whose fields are marked (`\bibinfo`: elsarticle, ACM); `in_proceedings`:
/// the booktitle names where the paper appeared ([`booktitle_after_in`]).
fn from_marks(marks: &Marks, blocks: &[String], in_proceedings: bool) -> Reference {
    let mut r = Reference::new("", Source::Thebibliography);
    let names: Vec<&str> = marks
        .info
        .iter()
        .filter(|(n, _)| n == "person" || n == "author")
        .map(|(_, v)| v.as_str())
        .collect();
    r.authors = names.iter().map(|n| fields::person(n)).collect();
    r.others = blocks.first().is_some_and(|b| b.contains("et al"));
    let booktitle = marks.get("booktitle").map(fields::italic_or_all);
    r.title = marks.get("title").map(fields::strip_marks);
    let mut venue_fields = vec![
        "journal",
        "booktitle",
        "publisher",
        "howpublished",
        "organization",
        "school",
        "institution",
    ];
    if r.title.is_none() && !in_proceedings {
        // A book: ACM prints its title as the booktitle.
        r.title = booktitle;
        venue_fields.retain(|f| *f != "booktitle");
    }
    r.title = r.title.map(|t| fields::trim_title(&t));
    r.venue = venue_fields
        .iter()
        .find_map(|f| marks.get(f))
        .map(fields::strip_marks)
        .filter(|v| !v.is_empty());
    r.year = marks.get("year").and_then(fields::year_in);
    r.volume = marks.get("volume").map(str::to_string);
    r.pages = marks.get("pages").map(str::to_string);
    r.confidence = Confidence::EXACT;
    r
}

/// An item read from its `\newblock` blocks, or from its text when the
/// style prints one block.
fn from_blocks(blocks: &[String]) -> Reference {
    let first = blocks.first().map(String::as_str).unwrap_or("");
    // IEEE styles: `Authors, “Title,” venue…`; a book: `Authors, *Title*.`
    if first.contains('“') || blocks.len() < 2 || first.contains(&format!(", {ITAL_OPEN}")) {
        let mut r = fields::parse_marked(&blocks.join(". "));
        r.source = Source::Thebibliography;
        return r;
    }
    let mut r = Reference::new("", Source::Thebibliography);
    let (authors, year) = fields::split_year(first);
    let (people, others) = fields::authors(authors);
    r.authors = people;
    r.others = others;
    let second = blocks.get(1).map(String::as_str).unwrap_or("");
    r.title = Some(fields::trim_title(fields::cut_title_tail(
        &fields::strip_marks(&fields::drop_year_tail(second)),
    )))
    .filter(|t| !t.is_empty());
    let rest = blocks.get(2..).unwrap_or(&[]).join(". ");
    r.venue = fields::venue_of(&rest);
    r.year = year
        .or_else(|| fields::last_year(&rest))
        .or_else(|| fields::last_year(second));
    let (volume, pages) = fields::volume_pages(&rest);
    r.volume = volume;
    r.pages = pages;
    r.confidence = Confidence {
        title: 0.95,
        authors: 0.95,
        year: if r.year.is_some() { 0.95 } else { 0.0 },
        venue: if r.venue.is_some() { 0.8 } else { 0.0 },
    };
    r
}

/// Every `\entry` of a biblatex `.bbl`, once each (a `.bbl` may list an
/// entry in several data lists), with biber's fields as written.
pub fn read_biblatex(text: &str) -> Vec<Reference> {
    let mut refs: Vec<Reference> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut from = 0;
    while let Some(s) = text.get(from..).and_then(|t| t.find("\\entry{")) {
        let start = from + s;
        let end = text
            .get(start..)
            .and_then(|t| t.find("\\endentry"))
            .map_or(text.len(), |e| start + e);
        let block = text.get(start..end).unwrap_or("");
        let r = read_entry(block, line_at(text, start));
        if r.key.as_ref().is_some_and(|k| seen.insert(k.clone())) {
            refs.push(r);
        }
        from = end.max(start + 1);
    }
    refs
}

/// biblatex's name and range macros as text.
fn biblatex_text(value: &str) -> String {
    let v = value
        .replace("\\bibrangedash", "--")
        .replace("\\bibrangessep", ", ")
        .replace("\\bibinitperiod", ".")
        .replace("\\bibinitdelim", " ")
        .replace("\\bibinithyphendelim", ".-");
    let mut out = String::with_capacity(v.len());
    let mut rest = v.as_str();
    while let Some(i) = rest.find("\\bibnamedelim") {
        out.push_str(rest.get(..i).unwrap_or(""));
        out.push(' ');
        rest = rest.get(i + "\\bibnamedelim".len() + 1..).unwrap_or("");
    }
    out.push_str(rest);
    fields::squash(&crate::latex::decode(&out))
}

/// One `\entry{key}{type}{…} … \endentry` block.
fn read_entry(block: &str, line: usize) -> Reference {
    let chars: Vec<char> = block.chars().collect();
    let mut r = Reference::new("", Source::Biblatex);
    r.line = Some(line);
    r.confidence = Confidence::EXACT;
    let mut fields_read: Vec<(String, String)> = Vec::new();
    let mut names: Vec<(String, Vec<Author>)> = Vec::new();
    let mut lists: Vec<(String, Vec<String>)> = Vec::new();
    let mut verbs: Vec<(String, String)> = Vec::new();
    let mut more = Vec::new();
    let mut i = 0;
    if let Some((a, b, _)) = group(&chars, "\\entry".len()) {
        r.key = Some(text_of(&chars, a, b));
    }
    while i < chars.len() {
        if chars[i] != '\\' {
            i += 1;
            continue;
        }
        let (cmd, j) = control_word(&chars, i);
        match cmd.as_str() {
            "field" => {
                match group(&chars, j).and_then(|(a, b, n)| group(&chars, n).map(|g| (a, b, g))) {
                    Some((a, b, (c0, c1, n))) => {
                        fields_read.push((text_of(&chars, a, b), text_of(&chars, c0, c1)));
                        i = n;
                    }
                    None => i = j,
                }
            }
            "name" => {
                // \name{role}{count}{options}{ {{hash}{parts}} … }
                let mut k = j;
                let mut role = String::new();
                for n in 0..3 {
                    match group(&chars, k) {
                        Some((a, b, next)) => {
                            if n == 0 {
                                role = text_of(&chars, a, b);
                            }
                            k = next;
                        }
                        None => break,
                    }
                }
                let Some((a, b, next)) = group(&chars, k) else {
                    i = k;
                    continue;
                };
                names.push((role, people(chars.get(a..b).unwrap_or(&[]))));
                i = next;
            }
            "list" => {
                let mut k = j;
                let mut name = String::new();
                for n in 0..3 {
                    match group(&chars, k) {
                        Some((a, b, next)) => {
                            if n == 0 {
                                name = text_of(&chars, a, b);
                            }
                            k = next;
                        }
                        None => break,
                    }
                }
                let Some((a, b, next)) = group(&chars, k) else {
                    i = k;
                    continue;
                };
                let inner = chars.get(a..b).unwrap_or(&[]);
                let items = top_groups(inner)
                    .into_iter()
                    .map(|(x, y)| biblatex_text(&text_of(inner, x, y)))
                    .collect();
                lists.push((name, items));
                i = next;
            }
            "verb" => {
                // \verb{name} \n \verb value \n \endverb
                match group(&chars, j) {
                    Some((a, b, n)) => {
                        let name = text_of(&chars, a, b);
                        let rest = text_of(&chars, n, chars.len());
                        let body = rest
                            .find("\\endverb")
                            .map_or(rest.as_str(), |e| rest.get(..e).unwrap_or(""));
                        let value = body
                            .lines()
                            .filter_map(|l| l.trim().strip_prefix("\\verb"))
                            .map(str::trim)
                            .collect::<Vec<_>>()
                            .join("");
                        verbs.push((name, value));
                        i = n + body.chars().count();
                    }
                    None => i = j,
                }
            }
            "true" => {
                if let Some((a, b, n)) = group(&chars, j) {
                    more.push(text_of(&chars, a, b));
                    i = n;
                } else {
                    i = j;
                }
            }
            _ => i = j.max(i + 1),
        }
    }
    let field = |n: &str| {
        fields_read
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| biblatex_text(v))
            .filter(|v| !v.is_empty())
    };
    let list = |n: &str| {
        lists
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.join(", "))
            .filter(|v| !v.is_empty())
    };
    let verb = |n: &str| verbs.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    r.title = field("title").map(|t| match field("subtitle") {
        Some(s) => format!("{t}: {s}"),
        None => t,
    });
    let role = ["author", "editor"]
        .iter()
        .find_map(|role| names.iter().find(|(r, _)| r == role));
    if let Some((role, people)) = role {
        r.authors = people.clone();
        r.others = more.iter().any(|m| m == &format!("more{role}"));
    }
    r.year = field("year").and_then(|y| fields::year_in(&y));
    r.venue = [
        "journaltitle",
        "journal",
        "booktitle",
        "maintitle",
        "howpublished",
    ]
    .iter()
    .find_map(|f| field(f))
    .or_else(|| {
        ["publisher", "institution", "organization"]
            .iter()
            .find_map(|f| list(f))
    });
    r.volume = field("volume");
    r.pages = field("pages");
    r.doi = field("doi")
        .or_else(|| verb("doi"))
        .and_then(|d| Doi::parse(&d));
    let eprint_type = field("eprinttype").unwrap_or_default().to_ascii_lowercase();
    if eprint_type.is_empty() || eprint_type == "arxiv" {
        r.arxiv = field("eprint")
            .or_else(|| verb("eprint"))
            .and_then(|e| ArxivId::parse(&e));
    }
    if r.arxiv.is_none() {
        r.arxiv = r.doi.as_ref().and_then(Doi::arxiv);
    }
    r.url = verb("url").filter(|u| Doi::parse(u).is_none() && ArxivId::parse(u).is_none());
    r.raw = rendered(&r);
    r
}

/// The inner ranges of the top-level groups of `chars`.
fn top_groups(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '{' {
            match group(chars, i) {
                Some((a, b, n)) => {
                    out.push((a, b));
                    i = n;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The people of a `\name` list: each `{{hash=…}{family={…}, given={…}, …}}`.
fn people(chars: &[char]) -> Vec<Author> {
    let mut out = Vec::new();
    for (a, b) in top_groups(chars) {
        let person = chars.get(a..b).unwrap_or(&[]);
        let Some(&(x, y)) = top_groups(person).get(1) else {
            continue;
        };
        let parts = person.get(x..y).unwrap_or(&[]);
        let text: String = parts.iter().collect();
        let part = |name: &str| -> String {
            let pat = format!("{name}={{");
            let mut from = 0;
            while let Some(p) = text.get(from..).and_then(|t| t.find(&pat)) {
                let at = from + p;
                let before = text.get(..at).and_then(|t| t.chars().last());
                if before.is_none_or(|c| !c.is_ascii_alphabetic()) {
                    let start = text
                        .get(..at + pat.len() - 1)
                        .map_or(0, |t| t.chars().count());
                    if let Some((c0, c1, _)) = group(parts, start) {
                        return biblatex_text(&text_of(parts, c0, c1));
                    }
                }
                from = at + pat.len();
            }
            String::new()
        };
        let prefix = part("prefix");
        let family = part("family");
        let family = if prefix.is_empty() {
            family
        } else {
            format!("{prefix} {family}")
        };
        out.push(Author {
            family,
            given: part("given"),
        });
    }
    out
}

/// A biblatex entry as one line for people: authors, year, title, venue.
fn rendered(r: &Reference) -> String {
    let mut names: Vec<String> = r
        .authors
        .iter()
        .map(|a| {
            if a.given.is_empty() {
                a.family.clone()
            } else {
                format!("{}, {}", a.family, a.given)
            }
        })
        .collect();
    if r.others {
        names.push("et al.".into());
    }
    let mut s = names.join("; ");
    if let Some(y) = r.year {
        s.push_str(&format!(" ({y})"));
    }
    for part in [&r.title, &r.venue].into_iter().flatten() {
        if !s.is_empty() {
            s.push_str(". ");
        }
        s.push_str(part);
    }
    s
}
