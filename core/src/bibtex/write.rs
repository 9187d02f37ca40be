//! Writing `refs.bib` from a citation pool.
//!
//! Two properties matter more than looks. Keys must be stable and readable
//! — first author's family name, year, first significant title word, as
//! people write them by hand — and unique, which the reference only half
//! ensures. And the file must parse in any BibTeX reader, whatever the
//! titles contain: a stray `%`, `_`, `#` or an unbalanced brace from an
//! index record must not break the bibliography of the paper it was meant
//! to support. So every field value is escaped for LaTeX, and braces are
//! kept balanced per field (balanced braces stay `\{ \}`; a field whose
//! braces do not balance gets `\textbraceleft{}`/`\textbraceright{}`).
//! Names are read the way BibTeX reads them ("Last, First" or "First von
//! Last"), particles and suffixes are skipped, and accented letters are
//! folded, so "Müller" gives `muller`.

use crate::pool::{Author, Pool, PoolPaper};
use serde::Serialize;

/// Venue words that make an entry `@inproceedings`.
const CONFERENCE_HINTS: &[&str] = &[
    "neurips",
    "nips",
    "icml",
    "iclr",
    "cvpr",
    "iccv",
    "eccv",
    "aaai",
    "ijcai",
    "acl",
    "emnlp",
    "naacl",
    "kdd",
    "www",
    "sigir",
    "uai",
    "siggraph",
    "interspeech",
    "icassp",
    "miccai",
    "wacv",
    "bmvc",
    "coling",
    "conll",
    "conference",
    "proceedings",
    "workshop",
    "symposium",
];

/// Title words never used as the key's word.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "the", "of", "for", "to", "with", "on", "in", "by", "from", "as", "is",
    "are", "be", "via", "into", "their", "our", "we", "this", "that", "using", "use", "about",
    "at", "or", "if",
];

/// Text decoded from LaTeX and folded to ASCII where possible.
fn plain(text: &str) -> String {
    let decoded = if text.contains(['\\', '{', '}']) {
        crate::latex::decode(text)
    } else {
        text.to_string()
    };
    crate::title::fold(&decoded)
}

fn letters_only(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphabetic)
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// The family name of an author as a key part: the family name without its
/// leading particles ([`crate::names::Person::family_core`]), ASCII letters
/// only, lowercase.
///
/// ```
/// use citegate_core::bibtex::write::key_part_of_author;
/// assert_eq!(key_part_of_author("Ashish Vaswani"), "vaswani");
/// assert_eq!(key_part_of_author("van der Berg, Vincent"), "berg");
/// assert_eq!(key_part_of_author("Jörg Müller"), "muller");
/// ```
pub fn key_part_of_author(name: &str) -> String {
    let core = crate::names::Person::parse(name).family_core();
    letters_only(&crate::names::key_of(&core))
}

/// The first author's family name, or `anon`.
fn first_author_key(authors: Option<&[Author]>) -> String {
    let key = authors
        .and_then(<[Author]>::first)
        .map(|a| key_part_of_author(a.name.trim()))
        .unwrap_or_default();
    if key.is_empty() {
        "anon".to_string()
    } else {
        key
    }
}

/// The first title word that is not a stopword and has more than two
/// characters, letters only; `paper` when there is none.
pub fn first_significant_word(title: &str) -> String {
    let title = plain(title);
    let mut word = String::new();
    let mut words = Vec::new();
    for c in title.chars() {
        let starts = c.is_ascii_alphabetic();
        let continues = starts || c == '-';
        if (word.is_empty() && starts) || (!word.is_empty() && continues) {
            word.push(c);
        } else if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    for w in words {
        let lower = w.to_lowercase();
        if !STOPWORDS.contains(&lower.as_str()) && lower.chars().count() > 2 {
            return letters_only(&lower);
        }
    }
    "paper".to_string()
}

/// A paper's key before collisions: family name + year (or `0000`) + word.
pub fn base_key(paper: &PoolPaper) -> String {
    let year = paper
        .year
        .filter(|y| *y != 0)
        .map(|y| y.to_string())
        .unwrap_or_else(|| "0000".to_string());
    format!(
        "{}{}{}",
        first_author_key(paper.authors.as_deref()),
        year,
        first_significant_word(paper.title.as_deref().unwrap_or(""))
    )
}

/// The `n`-th collision suffix, from 1: `a` … `z`, `aa`, `ab`, …
///
/// ```
/// use citegate_core::bibtex::write::suffix;
/// assert_eq!((suffix(1), suffix(26), suffix(27), suffix(52), suffix(53)),
///            ("a".into(), "z".into(), "aa".into(), "az".into(), "ba".into()));
/// ```
pub fn suffix(n: usize) -> String {
    let mut n = n;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'a' + rem as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

fn braces_balanced(s: &str) -> bool {
    let mut depth: i64 = 0;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Escapes text for a braced BibTeX field typeset by LaTeX.
///
/// ```
/// use citegate_core::bibtex::write::escape;
/// assert_eq!(escape("R&D: 50% of {BERT}"), r"R\&D: 50\% of \{BERT\}");
/// assert_eq!(escape("a } b"), r"a \textbraceright{} b");
/// ```
pub fn escape(text: &str) -> String {
    let balanced = braces_balanced(text);
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' | '%' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '{' if balanced => out.push_str("\\{"),
            '}' if balanced => out.push_str("\\}"),
            '{' => out.push_str("\\textbraceleft{}"),
            '}' => out.push_str("\\textbraceright{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            // Control and bidi characters would break the entry or hide
            // what it says (see `crate::inert`).
            c if crate::inert::is_bidi_control(c) => {}
            c if c.is_control() => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// An identifier field (DOI, eprint) written as is, except that braces
/// that would unbalance the entry are dropped.
fn raw_field(text: &str) -> String {
    let t = crate::inert::one_line(text);
    let t = t.trim();
    if braces_balanced(t) {
        t.to_string()
    } else {
        t.chars().filter(|c| *c != '{' && *c != '}').collect()
    }
}

fn author_field(authors: &[Author]) -> String {
    authors
        .iter()
        .map(|a| a.name.trim())
        .filter(|n| !n.is_empty())
        .map(|n| {
            let e = escape(n);
            // A name containing the word "and" would be split by BibTeX.
            if e.split_whitespace().any(|w| w.eq_ignore_ascii_case("and")) {
                format!("{{{e}}}")
            } else {
                e
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Whether a venue names a conference (by whole words).
pub fn is_conference(venue: &str) -> bool {
    let v = plain(venue).to_lowercase();
    v.split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| CONFERENCE_HINTS.contains(&w))
        || v.contains("neural information processing systems")
}

/// The BibTeX entry type of a venue, and the field the venue goes in.
pub fn entry_type(venue: &str) -> (&'static str, Option<&'static str>) {
    if venue.trim().is_empty() {
        ("misc", None)
    } else if is_conference(venue) {
        ("inproceedings", Some("booktitle"))
    } else {
        ("article", Some("journal"))
    }
}

/// One entry, in the reference's layout.
pub fn format_entry(paper: &PoolPaper, key: &str) -> String {
    let venue = paper.venue.as_deref().unwrap_or("").trim();
    let (kind, venue_field) = entry_type(venue);
    let mut fields: Vec<String> = Vec::new();
    if let Some(t) = paper.title.as_deref().filter(|t| !t.is_empty()) {
        fields.push(format!("  title    = {{{}}}", escape(t)));
    }
    if let Some(a) = paper.authors.as_deref().filter(|a| !a.is_empty()) {
        fields.push(format!("  author   = {{{}}}", author_field(a)));
    }
    if let Some(y) = paper.year.filter(|y| *y != 0) {
        fields.push(format!("  year     = {{{y}}}"));
    }
    if let Some(vf) = venue_field {
        fields.push(format!("  {vf:8} = {{{}}}", escape(venue)));
    }
    if let Some(doi) = paper.external_id("DOI") {
        fields.push(format!("  doi      = {{{}}}", raw_field(&doi)));
    }
    if let Some(arxiv) = paper.external_id("ArXiv") {
        fields.push(format!("  eprint   = {{{}}}", raw_field(&arxiv)));
        fields.push("  archivePrefix = {arXiv}".to_string());
    }
    if fields.is_empty() {
        // Readers such as bibtexparser drop an entry with no field, which
        // would leave its key undefined; an empty title keeps it.
        fields.push("  title    = {}".to_string());
    }
    let mut out = format!("@{kind}{{{key}");
    for f in &fields {
        out.push_str(",\n");
        out.push_str(f);
    }
    out.push_str("\n}");
    out
}

/// The generated bibliography.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bibliography {
    /// The whole `refs.bib` text.
    pub text: String,
    /// The key of each paper, in pool order.
    pub keys: Vec<String>,
}

/// Gives every paper a unique key, writes it into `bibtex_key`, and
/// returns the `refs.bib` text.
///
/// Keys repeat the reference's scheme; a repeated key gets `a`, `b`, …,
/// `z`, `aa`, … — the first suffix not already used by any key, so keys are
/// unique even when a suffixed key equals another paper's base key.
pub fn write_bib(pool: &mut Pool) -> Bibliography {
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut next_suffix: std::collections::HashMap<String, usize> =
        std::collections::HashMap::new();
    let mut keys = Vec::with_capacity(pool.papers.len());
    let mut entries = Vec::with_capacity(pool.papers.len());
    for paper in &mut pool.papers {
        let base = base_key(paper);
        let mut key = base.clone();
        if used.contains(&key) {
            let n = next_suffix.entry(base.clone()).or_insert(1);
            loop {
                key = format!("{base}{}", suffix(*n));
                *n += 1;
                if !used.contains(&key) {
                    break;
                }
            }
        }
        used.insert(key.clone());
        paper.bibtex_key = Some(key.clone());
        entries.push(format_entry(paper, &key));
        keys.push(key);
    }
    let mut text = String::from("% Generated by citegate from a citation pool\n");
    text.push_str(&format!("% {} entries\n\n", entries.len()));
    text.push_str(&entries.join("\n\n"));
    text.push('\n');
    Bibliography { text, keys }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check_family(name: &str, expected: &str) {
        assert_eq!(
            key_part_of_author(name),
            expected,
            "key_part_of_author({name:?})"
        );
    }

    #[test]
    fn family_names() {
        check_family("Ashish Vaswani", "vaswani");
        check_family("Vaswani, Ashish", "vaswani");
        check_family("Vincent van der Berg", "berg");
        check_family("van der Berg, Vincent", "berg");
        check_family("De la Cruz, Maria", "cruz");
        check_family("García Márquez, Gabriel", "garciamarquez");
        check_family("Jörg Müller", "muller");
        check_family(r#"J{\"o}rg M{\"u}ller"#, "muller");
        check_family("Martin Luther King Jr.", "king");
        check_family("King, Jr., Martin Luther", "king");
        check_family("Kaiming He", "he");
        check_family("Łukasz Kaiser", "kaiser");
        check_family("Jean-Claude Van Damme", "damme");
        check_family("O'Neil", "oneil");
        check_family("", "");
        check_family("李飞飞", "");
    }

    fn check_word(title: &str, expected: &str) {
        assert_eq!(first_significant_word(title), expected, "{title:?}");
    }

    #[test]
    fn significant_words() {
        check_word("Attention Is All You Need", "attention");
        check_word("On the Use of X", "paper");
        check_word("A Self-Attentive Model", "selfattentive");
        check_word("Über Alles", "uber");
        check_word("", "paper");
        check_word("3D Vision for All", "vision");
    }

    #[test]
    fn keys_are_unique_with_letter_suffixes() {
        let mut papers = Vec::new();
        for _ in 0..30 {
            papers.push(
                json!({"title": "Deep Nets", "year": 2020, "authors": [{"name": "A Smith"}]}),
            );
        }
        papers.push(json!({"title": "Deepa", "year": 2020, "authors": [{"name": "A Smith"}]}));
        let mut pool: Pool = serde_json::from_value(json!({ "papers": papers })).unwrap();
        let bib = write_bib(&mut pool);
        assert_eq!(bib.keys[0], "smith2020deep");
        assert_eq!(bib.keys[1], "smith2020deepa");
        assert_eq!(bib.keys[26], "smith2020deepz");
        assert_eq!(bib.keys[27], "smith2020deepaa");
        // The base key `smith2020deepa` is taken by the second paper.
        // `smith2020deepa` (paper 1) and `…aa`, `…ab`, `…ac` (papers 27–29) are taken.
        assert_eq!(bib.keys[30], "smith2020deepad");
        let set: std::collections::HashSet<_> = bib.keys.iter().collect();
        assert_eq!(set.len(), bib.keys.len());
        assert_eq!(pool.papers[3].bibtex_key.as_deref(), Some("smith2020deepc"));
    }

    fn check_type(venue: &str, expected: &str) {
        assert_eq!(entry_type(venue).0, expected, "{venue:?}");
    }

    #[test]
    fn entry_types() {
        check_type("NeurIPS", "inproceedings");
        check_type("Proceedings of ICML 2020", "inproceedings");
        check_type(
            "Advances in Neural Information Processing Systems",
            "inproceedings",
        );
        check_type("Findings of ACL", "inproceedings");
        check_type(
            "Transactions of the Association for Computational Linguistics",
            "article",
        );
        check_type("TACL", "article");
        check_type("Nature", "article");
        check_type("", "misc");
        check_type("  ", "misc");
    }

    #[test]
    fn escapes_specials() {
        assert_eq!(
            escape("a_b #1 $x$ ~ ^"),
            r"a\_b \#1 \$x\$ \textasciitilde{} \textasciicircum{}"
        );
        assert_eq!(escape(r"C:\path"), r"C:\textbackslash{}path");
        assert_eq!(escape("{unclosed"), r"\textbraceleft{}unclosed");
        assert_eq!(escape("line\nbreak"), "line break");
    }
}
