//! References printed without a title.
//!
//! Physics, chemistry and astronomy styles print no title for a journal
//! article or a conference paper: APS and Science (`A. Author, B. Author,
//! Phys. Rev. B 77, 235409 (2008).`, `… presented at the ICLR.`), ACS
//! (`Author, A.; Author, B. Nano Lett. 2014, 14, 4454.`), MNRAS and the
//! other astronomy journals (`Author A. B., Author C., 2008, Phys. Rev. B,
//! 77, 235409`). Read with the title rules, such a reference gets the
//! journal or the year as its title, and a title search for `2021` or
//! `Tech. Phys. Lett.` finds nothing: a real work would be reported as
//! missing because of how it was printed. These rules see the shapes and
//! leave the title empty, so the reference is looked up by its DOI or, with
//! nothing to look up, says so.

use super::fields::{is_initial, names_only};

/// What follows the names of a reference with no title.
#[derive(Debug, Default, PartialEq)]
pub struct Untitled {
    /// Byte length of the author block at the start of the text.
    pub names: usize,
    /// The journal or conference as printed (abbreviated, often).
    pub venue: Option<String>,
    /// The volume, when printed.
    pub volume: Option<String>,
    /// The pages or article number, when printed.
    pub pages: Option<String>,
    /// The year, when printed.
    pub year: Option<i32>,
}

/// How the text after the names reads.
#[derive(Debug, PartialEq)]
pub enum Shape {
    /// No title: the venue and its numbers follow the names.
    Untitled(Untitled),
    /// Astronomy's `Names, YEAR, Title. Publisher` (a book or a report,
    /// whose title is printed): the year, and where the title starts.
    YearFirst {
        /// Byte length of the author block.
        names: usize,
        /// The year after the names.
        year: i32,
        /// Byte offset of what follows the year (the title).
        rest: usize,
    },
}

/// The shape of `t` (a reference without its label and identifiers), when
/// it is one of those above.
pub fn read(t: &str) -> Option<Shape> {
    // what taking out a trailing arXiv id or DOI leaves: `(2017), .`
    let t = t.trim_end_matches(['.', ',', ' ']);
    year_first(t).or_else(|| tail(t).map(Shape::Untitled))
}

/// A four-digit year, with a letter telling two of one author's apart
/// (`2016a`).
fn year_word(w: &str) -> Option<i32> {
    let digits = w.trim_end_matches(|c: char| c.is_ascii_lowercase());
    (digits.len() == 4 && w.len() <= 5 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
        .filter(|y| (1500..=2100).contains(y))
}

/// MNRAS: `Family I. I., Family I., YEAR, …`.
fn year_first(t: &str) -> Option<Shape> {
    let mut from = 0;
    while let Some(i) = t.get(from..).and_then(|s| s.find(", ")).map(|i| from + i) {
        let after = t.get(i + 2..).unwrap_or("");
        let word = after.split([',', ' ', '.']).next().unwrap_or("");
        if let Some(year) = year_word(word) {
            let names = t.get(..i).unwrap_or("");
            if !names_only(names) || !family_first(names) {
                return None;
            }
            let rest_at = i + 2 + word.len();
            let rest = t.get(rest_at..).unwrap_or("");
            let skip = rest.len() - rest.trim_start_matches([',', '.', ' ']).len();
            let rest_at = rest_at + skip;
            let rest = t.get(rest_at..).unwrap_or("");
            return Some(match after_year(rest) {
                Some((venue, volume, pages)) => Shape::Untitled(Untitled {
                    names: i,
                    venue,
                    volume,
                    pages,
                    year: Some(year),
                }),
                None => Shape::YearFirst {
                    names: i,
                    year,
                    rest: rest_at,
                },
            });
        }
        from = i + 2;
    }
    None
}

/// Whether the names are written family first with initials after
/// (`Akakzia A., Oudeyer P.-Y.`), as astronomy prints them.
fn family_first(names: &str) -> bool {
    let first = names.split(", ").next().unwrap_or("");
    let words: Vec<&str> = first.split_whitespace().collect();
    words.len() >= 2
        && !is_initial(words[0])
        && words
            .last()
            .is_some_and(|w| is_initial(w) && w.contains('.'))
}

type VenueNumbers = (Option<String>, Option<String>, Option<String>);

/// After MNRAS's year: `in ICLR`, `PhD thesis, School`, `Venue, 39, 1047`;
/// `None` when a title follows.
fn after_year(rest: &str) -> Option<VenueNumbers> {
    if let Some(v) = rest.strip_prefix("in ") {
        // `in Trans. Mach. Learn. Res..`, `in AAAI. , doi:…`; an editor
        // list (`in Cullis A.G.; Hutchison J., ed., Book`) names a book
        // whose title is printed after it.
        if v.contains(" ed., ") || v.contains(" eds., ") {
            return None;
        }
        let cut = |marks: &[&str]| {
            let end = marks
                .iter()
                .filter_map(|m| v.find(m))
                .min()
                .unwrap_or(v.len());
            v.get(..end).unwrap_or(v).trim().trim_end_matches('.')
        };
        let whole = cut(&[". ,", ".."]);
        let venue = if venue_like(whole) {
            whole
        } else {
            cut(&[". ,", "..", ". "])
        };
        return Some((nonempty(venue), None, None));
    }
    for kind in THESES {
        if let Some(r) = rest.strip_prefix(kind) {
            let school = r.trim_start_matches([',', ' ']).split(", ").next();
            return Some((school.and_then(nonempty), None, None));
        }
    }
    let pieces: Vec<&str> = rest.split(", ").collect();
    match pieces.as_slice() {
        [venue, volume, more @ ..]
            if number_like(volume) && more.len() <= 2 && venue_like(venue) =>
        {
            Some((
                nonempty(venue.trim_end_matches('.')),
                Some(volume.to_string()),
                more.first().map(|p| p.to_string()),
            ))
        }
        _ => None,
    }
}

/// APS, Science and ACS: the numbers close the reference.
fn tail(t: &str) -> Option<Untitled> {
    // Science: `… presented at the ICLR`.
    if let Some(i) = t.rfind(", presented at ") {
        let venue = t.get(i + ", presented at ".len()..).unwrap_or("");
        let venue = venue.strip_prefix("the ").unwrap_or(venue);
        let names = t.get(..i).unwrap_or("");
        return (given_first_names(names) == Some(names.len()) && !venue.is_empty()).then(|| {
            Untitled {
                names: i,
                venue: nonempty(venue),
                ..Untitled::default()
            }
        });
    }
    if let Some(u) = thesis(t).or_else(|| aps_conference(t)) {
        return Some(u);
    }
    let (head, volume, pages, year) = aps_tail(t).or_else(|| acs_tail(t))?;
    let names = if head.contains("; ") || single_family_first(head) {
        acs_names(head)?
    } else {
        given_first_names(head)?
    };
    let venue = head.get(names..).unwrap_or("");
    let venue = venue.trim_start_matches([',', ' ']).trim_end_matches(',');
    (names > 0 && venue_like(venue)).then(|| Untitled {
        names,
        venue: nonempty(venue),
        volume: Some(volume.to_string()),
        pages: pages.map(str::to_string),
        year: Some(year),
    })
}

/// The kinds of thesis printed in place of a title.
const THESES: [&str; 6] = [
    "PhD thesis",
    "Ph.D. thesis",
    "Ph.D. Thesis",
    "Master's thesis",
    "Master’s thesis",
    "MSc thesis",
];

/// APS: `X. Wu, H. Huang, and Q. Xu, in AAAI (2023)`.
fn aps_conference(t: &str) -> Option<Untitled> {
    let (head, year) = paren_year_tail(t)?;
    let at = head.rfind(", in ")?;
    let names = head.get(..at)?;
    let venue = head.get(at + ", in ".len()..)?;
    (given_first_names(names) == Some(names.len()) && venue_like(venue)).then(|| Untitled {
        names: at,
        venue: nonempty(venue),
        year: Some(year),
        ..Untitled::default()
    })
}

/// Science: `D. P. Miller, PhD thesis, Yale University, 1985`.
fn thesis(t: &str) -> Option<Untitled> {
    let names = given_first_names(t)?;
    let rest = t.get(names..)?.trim_start_matches([',', ' ']);
    let kind = THESES.iter().find(|k| rest.starts_with(*k))?;
    let after = rest.get(kind.len()..)?.trim_start_matches([',', ' ']);
    let school = after.split(", ").next().filter(|s| year_word(s).is_none());
    let year = after.rsplit([',', ' ', '(', ')']).find_map(year_word);
    Some(Untitled {
        names,
        venue: school.and_then(nonempty),
        year,
        ..Untitled::default()
    })
}

/// `Head (YEAR)`: what comes before a closing four-digit year in parentheses.
fn paren_year_tail(t: &str) -> Option<(&str, i32)> {
    let body = t.strip_suffix(')')?;
    let open = body.rfind(" (")?;
    let y = body.get(open + 2..)?;
    let year = year_word(y).filter(|_| y.len() == 4)?;
    Some((body.get(..open)?, year))
}

/// `Head VOL, PAGES (YEAR)`, with an arXiv id Science prints before the
/// year (`…, 076001, arXiv: 1702.08823 (2017)`).
fn aps_tail(t: &str) -> Option<(&str, &str, Option<&str>, i32)> {
    let (mut before, year) = paren_year_tail(t)?;
    if let Some(a) = before.rfind(", arXiv") {
        before = before.get(..a)?;
    }
    // the arXiv id itself was taken out with the other identifiers
    let before = before.trim_end().trim_end_matches(',');
    let (a, pages) = before.rsplit_once(", ")?;
    if !page_like(pages) {
        return None;
    }
    let (head, volume) = a.rsplit_once(' ')?;
    number_like(volume).then_some((head, volume, Some(pages), year))
}

/// `Head YEAR, VOL, PAGES` or `Head YEAR, VOL` (ACS).
fn acs_tail(t: &str) -> Option<(&str, &str, Option<&str>, i32)> {
    let pieces: Vec<&str> = t.rsplitn(3, ", ").collect();
    let (head_year, volume, pages) = match pieces.as_slice() {
        [pages, volume, head] if page_like(pages) => (*head, *volume, Some(*pages)),
        [volume, head] => (*head, *volume, None),
        _ => return None,
    };
    if !number_like(volume) {
        return None;
    }
    let (head, y) = head_year.rsplit_once(' ')?;
    let year = year_word(y).filter(|_| y.len() == 4)?;
    Some((head, volume, pages, year))
}

/// ACS names, `Family, I. I.; Family, I., et al.`: where they end (the
/// venue starts after the last author's initials).
fn acs_names(head: &str) -> Option<usize> {
    let last_at = head.rfind("; ").map_or(0, |i| i + 2);
    let last = head.get(last_at..)?;
    let comma = last.find(", ")?;
    if last.get(..comma)?.split_whitespace().count() > 3 {
        return None;
    }
    let mut at = last_at + comma + 2;
    let mut seen = 0;
    for w in head.get(at..)?.split(' ') {
        let bare = w.trim_end_matches(',');
        if is_initial(bare) || bare == "et" || bare == "al." {
            at += w.len() + 1;
            seen += 1;
        } else {
            break;
        }
    }
    let names = head.get(..at)?.trim_end();
    (seen > 0 && names_only(names)).then_some(names.len())
}

/// `Garrison, A. The Journal …`: one author, family first.
fn single_family_first(head: &str) -> bool {
    let Some((family, rest)) = head.split_once(", ") else {
        return false;
    };
    family.split_whitespace().count() == 1
        && rest.split(' ').next().is_some_and(is_initial)
        && !rest.contains(" & ")
        && !rest.contains(" and ")
}

/// APS names, given names first: the comma pieces that open with an
/// initial (`J. L. Loison`, `and M. Markl`, `et al.`); where they end.
fn given_first_names(head: &str) -> Option<usize> {
    let mut end = 0;
    let mut at = 0;
    for piece in head.split(", ") {
        let p = piece.strip_prefix("and ").unwrap_or(piece);
        let first = p.split(' ').next().unwrap_or("");
        // A family name never ends in a full stop: `J. Appl. Phys.` is a journal.
        let last = p.rsplit(' ').next().unwrap_or("");
        let name = p == "et al."
            || p == "et al"
            || is_initial(first) && p.contains(' ') && !last.ends_with('.');
        if !name {
            break;
        }
        at += piece.len() + 2;
        end = at - 2;
    }
    (end > 0).then_some(end)
}

/// A journal's name as these styles print it: a few capitalised words or
/// abbreviations (`Phys. Rev. B`, `Journal of Crystal Growth`, `Nano
/// Lett.`), never a sentence.
fn venue_like(v: &str) -> bool {
    let words: Vec<&str> = v.split_whitespace().collect();
    !words.is_empty()
        && words.len() <= 10
        && !v.contains(['“', '”', '"', '&', ';', ':', '(', ','])
        && words
            .first()
            .is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase))
        && words.iter().enumerate().all(|(i, w)| {
            // A full stop ends an abbreviation, not a sentence: a short
            // capitalised stem, or a longer one (`Electron.`) only among
            // abbreviations (`Deep Learning. Nature` is a title and a journal).
            !w.ends_with('.') || {
                let b = w.trim_end_matches('.');
                let n = b.chars().count();
                b.chars().next().is_some_and(char::is_uppercase)
                    && (n <= 4 || n <= 10 && words[..i].iter().all(|p| p.ends_with('.')))
            }
        })
}

/// A volume: digits, or a letter and digits (`C3`).
fn number_like(w: &str) -> bool {
    let digits = w.trim_start_matches(|c: char| c.is_ascii_uppercase());
    !digits.is_empty() && digits.len() <= 6 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Pages: `1047`, `816–822`, `4250–6`, `L12`, `e1002`.
fn page_like(w: &str) -> bool {
    let w = w.trim_start_matches(|c: char| c.is_ascii_alphabetic() && c != '–');
    let mut parts = w.split(['–', '-']);
    let ok = |p: Option<&str>| {
        p.is_some_and(|p| !p.is_empty() && p.len() <= 8 && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let first = parts.next();
    ok(first) && parts.all(|p| ok(Some(p)))
}

fn nonempty(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// Whether a title read from a reference is the venue (or a piece of
/// it) of a reference printed without one: a venue the table names
/// (`biorxiv`, `ACM Trans. Graph`), a venue with its year and numbers
/// (`Nano Lett. 2013, 13, 4454`, `biorxiv 2026`), or a fragment of an
/// abbreviated venue cut at its periods (`Learn`, `Phys. 111`, `Sci.
/// Semicond`). Searched for as a title, each finds nothing, and a real
/// work would read as missing; read as no title, it is looked up by what
/// else it prints, or said to be unsearchable.
pub fn venue_not_title(title: &str) -> bool {
    let t = title.trim_end_matches(['.', ',', ' ']);
    if crate::bibtex::venues::is_exact_name(t) {
        return true;
    }
    // `Venue YEAR[, numbers…]`: a title does not end with its year and pages.
    let tokens: Vec<&str> = t.split(' ').filter(|w| !w.is_empty()).collect();
    // Numbers, and pages numbered with a letter (`A202–A220`, `e1234`).
    let numeric = |w: &str| {
        let w = w.trim_end_matches([',', '.', ';']);
        let digits = |p: &str| {
            let p = p
                .strip_prefix(|c: char| c.is_ascii_uppercase() || c == 'e')
                .unwrap_or(p);
            !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())
        };
        !w.is_empty()
            && (w
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '–' | '-' | ':'))
                || w.split(['–', '-']).all(digits))
    };
    let tail = tokens.iter().rev().take_while(|w| numeric(w)).count();
    let year_in_tail = tokens[tokens.len() - tail..]
        .iter()
        .any(|w| year_word(w.trim_end_matches([',', '.', ';'])).is_some());
    if tail > 0 && tail < tokens.len() && year_in_tail {
        // The venue before them: numbers after the year, a venue the table
        // names, a journal, an abbreviation (a title may end with its year:
        // `… - BookExpo 2020`).
        let head = tokens[..tokens.len() - tail].join(" ");
        let venue_like = tail >= 2
            || crate::bibtex::venues::is_exact_name(&head)
            || head.to_lowercase().contains("journal")
            || head.ends_with('.');
        if venue_like {
            return true;
        }
    }
    // A fragment of an abbreviated venue: four tokens or fewer, with at most
    // one word that is neither an abbreviation, a number nor a capital
    // run, and none in lowercase (venues' words are capitalized; `WL meet
    // VC` is a title).
    let letters = |w: &str| w.chars().filter(|c| c.is_alphabetic()).count();
    let word = |w: &&&str| {
        !w.ends_with('.')
            && letters(w) >= 3
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '-' | '–' | '\'' | '’'))
            && !w.chars().all(|c| c.is_uppercase() || !c.is_alphabetic())
    };
    let prose = tokens
        .iter()
        .any(|w| w.starts_with(|c: char| c.is_lowercase()) && letters(w) >= 3);
    tokens.len() <= 4 && !prose && tokens.iter().filter(word).count() <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (venue, year) read from `t`, or `None` when `t` has a title.
    fn check(t: &str, expected: Option<(&str, Option<i32>)>) {
        let got = match read(t) {
            Some(Shape::Untitled(u)) => Some((u.venue.unwrap_or_default(), u.year)),
            _ => None,
        };
        assert_eq!(
            got.as_ref().map(|(v, y)| (v.as_str(), *y)),
            expected,
            "{t:?}"
        );
    }

    #[test]
    fn reads_the_styles_that_print_no_title() {
        check(
            "P. H. Winston, Artificial Intelligence 19, 321 (1981).",
            Some(("Artificial Intelligence", Some(1981))),
        );
        check("A. Orieux, M. A. M. Versteegh, K. D. Jöns, S. Ducci, Rep. Prog. Phys. 80, 076001, arXiv: 1702.08823 (2017).", Some(("Rep. Prog. Phys.", Some(2017))));
        check(
            "M. De Luca, A. Polimeni, H. a Fonseka, et al., Nano Lett. 14, 4250–6 (2014).",
            Some(("Nano Lett.", Some(2014))),
        );
        check(
            "J. Lim, Y. Kim, B. Kim, et al., presented at the CVPR.",
            Some(("CVPR", None)),
        );
        check(
            "X. Wu, H. Huang, Y. Ding, and Q. Xu, in AAAI (2023).",
            Some(("AAAI", Some(2023))),
        );
        check(
            "F. Viñas, H. Q. Xu, and M. Leijnse, Phys. Rev. B 95, 115420 (2017), .",
            Some(("Phys. Rev. B", Some(2017))),
        );
        check(
            "Bavencove, A.-L.; Salomon, D.; Eymery, J., et al. Electron. Lett. 2011, 47, 765.",
            Some(("Electron. Lett.", Some(2011))),
        );
        check(
            "Trauernicht, D. P.; Wolfe, J. P. Physical Review B 1986, 33, 8506–8521.",
            Some(("Physical Review B", Some(1986))),
        );
        check(
            "Garrison, A. The Journal of Physical Chemistry 1924, 28, 279–284.",
            Some(("The Journal of Physical Chemistry", Some(1924))),
        );
        check(
            "Bolshakov A. D., Dubrovskii V. G., Yan X., 2013, Tech. Phys. Lett., 39, 1047",
            Some(("Tech. Phys. Lett", Some(2013))),
        );
        check(
            "Akakzia A., Colas C., Oudeyer P.-Y., Chetouani M., Sigaud O., 2021, in ICLR.",
            Some(("ICLR", Some(2021))),
        );
        check(
            "Dai Y., Chen T., Wang G., Robinson D. P., 2023, in Trans. Mach. Learn. Res..",
            Some(("Trans. Mach. Learn. Res", Some(2023))),
        );
        check(
            "Assimos J. A., 1973, PhD thesis, Wayne State University, Dept. of Chemistry",
            Some(("Wayne State University", Some(1973))),
        );
        check(
            "Wu C., et al., 2016a, Cryst. Growth Des., 16, 5023",
            Some(("Cryst. Growth Des", Some(2016))),
        );
        // regression: a journal opening with an initial (`J. Appl. Phys.`) is not a name
        check(
            "C. Fernandes, H. E. Ruda, A. Shik, J. Appl. Phys. 115, 234304 (2014).",
            Some(("J. Appl. Phys.", Some(2014))),
        );
        // the arXiv id before the year is taken out before these rules run
        check(
            "S. Manna, K. R. Talley, P. Gorai, et al., Phys. Rev. Appl. 9, 034026, (2018).",
            Some(("Phys. Rev. Appl.", Some(2018))),
        );
        check(
            "D. P. Miller, PhD thesis, Yale University Department of Computer Science, 1985.",
            Some(("Yale University Department of Computer Science", Some(1985))),
        );
    }

    #[test]
    fn leaves_titled_references_to_the_title_rules() {
        // regression: Nature's `Names & Name. Title. Journal VOL, PAGES (YEAR)` has a title
        check("Wu, Y., Teng, L. & Guo, Y. Integrated single-cell transcriptomics. Frontiers in immunology 12, 45–67 (2026).", None);
        check("Kodigala, A. & Kanté, B. Lasing action from photonic bound states. Nature 541, 196–199 (2017).", None);
        // an amsplain/siam reference: the title between commas, then the journal
        check(
            "A. Author and B. Author, A theory of everything, J. Math. 12 (2010), 45–67.",
            None,
        );
        check(
            "Z. Slippery, People Prefer Packages to Post (Terrible Typists, Grimsby, 1945).",
            None,
        );
        // one author, family first, then a title in title case and the journal
        check("Wu, Y. Deep Learning. Nature 12, 45–67 (2019).", None);
        // MNRAS prints a book's title after the year
        assert!(matches!(
            read("Gowers S. E., 1954, The Complete Plain Words. Penguin"),
            Some(Shape::YearFirst { year: 1954, .. })
        ));
        // IEEE quotes its titles; plain writes them as a sentence
        check(
            "[3] A. Ailamaki and M. D. Hill. DBMSs on a modern processor. In VLDB, 1999.",
            None,
        );
        check("K. He, X. Zhang, Deep residual learning for image recognition, in: CVPR, 2016, pp. 770–778.", None);
    }

    /// Issue 29: venues read as titles in the styles that print none
    /// (the fresh set's apsrev4-2, chem-acs, science and mnras).
    #[test]
    fn a_venue_read_as_a_title_is_not_one() {
        for (t, venue) in [
            ("biorxiv", true),
            ("ACM Trans. Graph", true),
            ("biorxiv 2026", true),
            ("Nano Lett. 2013, 130115112931008", true),
            ("Physica Status Solidi (b) 1973, 60, 651–664", true),
            ("The Journal of allergy and clinical immunology 2026", true),
            ("Learn", true),
            ("Adv", true),
            ("Phys. 111", true),
            ("Sci. Semicond", true),
            ("Growth 507, 65", true),
            ("32, C1-46-C1–50", true),
            ("Proc. ACM Manag", true),
            // Pages numbered with a letter (the refs_world corpus, chem-acs).
            ("Phys. Rev. 1965, 140, A202–A220", true),
            ("Attention is all you need", false),
            ("Deep Learning 2", false),
            ("TeX: The Program", false),
            ("Deep residual learning for image recognition", false),
            ("Mastering Thesis Writing", false),
            ("GPT-4 Technical Report", false),
            (
                "ImageNet classification with deep convolutional neural networks",
                false,
            ),
            ("Silver Bromide, Silver Iodide and Cuprous Oxide", false),
            // Real titles the first version dropped (dev and fresh sets).
            ("A TNMS User's Manual", false),
            ("An Entangled-Light-Emitting Diode", false),
            ("Higher-Dimensional Algebra V: 2-Groups", false),
            ("Revisiting Few-sample BERT Fine-tuning", false),
            ("WL meet VC", false),
            ("GaN-Based Devices on Si", false),
            ("Self–compensation in semiconductors", false),
            ("Lineup Of Authors - BookExpo 2020", false),
        ] {
            assert_eq!(venue_not_title(t), venue, "{t}");
        }
    }
}
