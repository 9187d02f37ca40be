//! Venue names: one key per venue, whatever name a citation or an index uses.
//!
//! "NeurIPS", "NIPS", "Advances in Neural Information Processing Systems 34"
//! and Semantic Scholar's "Neural Information Processing Systems" are one
//! venue; "ICML" and "AAAI" are two. The names live in a table
//! (`venues.tsv`, with its sources in its header) so adding a venue is a data
//! change. A name is normalized first (accents folded, lowercase, years,
//! ordinals, "proceedings of the", "annual", "international", "IEEE/CVF" and
//! punctuation dropped), then matched in three passes: the whole name equals
//! a table name; a multi-word table name appears inside it as whole words
//! (longest first); an acronym of the table appears as a word. Venues the
//! table does not know are compared by their words, where an abbreviated
//! word matches the word it abbreviates (`Mach. Learn.` = `Machine
//! Learning`).

use std::sync::OnceLock;

/// What kind of venue a table row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VenueKind {
    /// A conference (proceedings).
    Conference,
    /// A journal.
    Journal,
    /// A preprint server (arXiv, bioRxiv, …).
    Preprint,
    /// A proceedings series holding several conferences (PMLR, LNCS).
    Series,
}

/// A venue of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Venue {
    /// The table's key (`neurips`).
    pub key: &'static str,
    /// Conference, journal or preprint server.
    pub kind: VenueKind,
    /// The first name of its row, for messages (`NeurIPS`).
    pub name: &'static str,
    /// Keys of the venues it publishes or belongs to (`icml,colt` for PMLR).
    pub holds: &'static str,
}

impl Venue {
    /// Whether the two are one venue, or one belongs to the other (a
    /// Findings paper goes with its EMNLP), or one is a series and the other a
    /// conference it may publish (a COLT paper is a PMLR paper; which
    /// conferences a series holds changes by the year, so a series is never
    /// held against a conference, only against a journal or preprint server).
    pub fn same_as(&self, other: &Venue) -> bool {
        let holds = |v: &Venue, key: &str| v.holds.split(',').any(|k| k.trim() == key);
        let series_of = |s: &Venue, c: &Venue| {
            s.kind == VenueKind::Series
                && matches!(c.kind, VenueKind::Conference | VenueKind::Series)
        };
        self.key == other.key
            || holds(self, other.key)
            || holds(other, self.key)
            || series_of(self, other)
            || series_of(other, self)
    }
}

struct Row {
    venue: Venue,
    /// Normalized names, each as words.
    names: Vec<Vec<String>>,
    /// Normalized acronyms (single words that are not ordinary words).
    acronyms: Vec<String>,
}

const TABLE: &str = include_str!("venues.tsv");

const DROP: &[&str] = &[
    "proceedings",
    "proc",
    "of",
    "the",
    "annual",
    "international",
    "ieee",
    "cvf",
    "in",
    "on",
    "and",
    "for",
    "st",
    "nd",
    "rd",
    "th",
];

fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut cols = l.split('\t');
                let key = cols.next()?;
                let kind = match cols.next()? {
                    "conference" => VenueKind::Conference,
                    "journal" => VenueKind::Journal,
                    "preprint" => VenueKind::Preprint,
                    "series" => VenueKind::Series,
                    _ => return None,
                };
                let names: Vec<&'static str> = cols.next()?.split('|').collect();
                let holds = cols.next().unwrap_or("").trim();
                let acronyms = names
                    .iter()
                    .filter(|n| is_acronym(n))
                    .map(|n| words(n).concat())
                    .collect();
                Some(Row {
                    venue: Venue {
                        key,
                        kind,
                        name: names.first().copied().unwrap_or(key),
                        holds,
                    },
                    names: names.iter().map(|n| words(n)).collect(),
                    acronyms,
                })
            })
            .collect()
    })
}

/// A single word that is not an ordinary capitalized word (`NeurIPS`,
/// `arXiv`, `CVPR`, `biorxiv`; not `Nature`).
fn is_acronym(name: &str) -> bool {
    if name.contains(' ') {
        return false;
    }
    let mut chars = name.chars();
    let first = chars.next();
    !(first.is_some_and(char::is_uppercase) && chars.all(|c| !c.is_uppercase()))
}

/// The normalized words of a venue name.
pub fn words(name: &str) -> Vec<String> {
    let folded = crate::title::fold(&crate::latex::decode(name)).to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for w in folded.split(|c: char| !c.is_alphanumeric()) {
        if w.is_empty() || DROP.contains(&w) {
            continue;
        }
        // Years, volume numbers and ordinals (`34th`, `2021`) say nothing of the venue.
        let digits = w.trim_end_matches(|c: char| c.is_alphabetic());
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        out.push(w.to_string());
    }
    out
}

fn contains(hay: &[String], needle: &[String]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Words a venue's name is framed by that do not make it another venue.
const FRAME: &[&str] = &[
    "journal",
    "conference",
    "workshop",
    "workshops",
    "symposium",
    "acm",
    "springer",
    "volume",
    "vol",
    "series",
];

/// Whether `name`, found inside `ws`, names the row's venue there. A name
/// of ordinary words only ("Machine Learning", "Neural Computation",
/// "Management of Data") is also a phrase of other venues' names ("Journal
/// of Statistical Machine Learning Theory", "Neural Computing and
/// Applications"): it counts only when every other word is a frame word or
/// one of the row's acronyms. A name with an acronym in it ("CVPR
/// Workshops", "Findings of EMNLP") is specific anywhere.
fn framed_or_specific(ws: &[String], name: &[String], row: &Row) -> bool {
    if name.iter().any(|w| row.acronyms.contains(w)) || name.len() > 2 {
        return true;
    }
    let mut rest: Vec<&String> = ws.iter().collect();
    if let Some(at) = ws.windows(name.len()).position(|w| w == name) {
        rest.drain(at..at + name.len());
    }
    rest.iter()
        .all(|w| FRAME.contains(&w.as_str()) || row.acronyms.contains(w))
}

/// Whether `name` is, word for word, one of the names the table holds
/// (`bioRxiv`, `ACM Trans. Graph.`), not merely holds one.
pub fn is_exact_name(name: &str) -> bool {
    let ws = words(name);
    !ws.is_empty() && rows().iter().any(|r| r.names.contains(&ws))
}

/// The table's venue for a name, if the table knows it.
pub fn lookup(name: &str) -> Option<Venue> {
    let ws = words(name);
    if ws.is_empty() {
        return None;
    }
    let rows = rows();
    if let Some(r) = rows.iter().find(|r| r.names.contains(&ws)) {
        return Some(r.venue);
    }
    let mut best: Option<(usize, Venue)> = None;
    for r in rows {
        for n in r.names.iter().filter(|n| n.len() >= 2) {
            if contains(&ws, n)
                && framed_or_specific(&ws, n, r)
                && best.is_none_or(|(len, _)| n.len() > len)
            {
                best = Some((n.len(), r.venue));
            }
        }
    }
    if let Some((_, v)) = best {
        return Some(v);
    }
    let joined: Vec<&str> = ws.iter().map(String::as_str).collect();
    rows.iter()
        .find(|r| r.acronyms.iter().any(|a| joined.contains(&a.as_str())))
        .map(|r| r.venue)
}

/// Whether two venue names that the table may not know name the same venue:
/// the same words, where a word may abbreviate the other's (`Mach.` for
/// `Machine`), or one name's words all found in order in the other's.
pub fn similar(a: &str, b: &str) -> bool {
    let (wa, wb) = (words(a), words(b));
    if wa.is_empty() || wb.is_empty() {
        return false;
    }
    if wa.len() == wb.len()
        && wa
            .iter()
            .zip(&wb)
            .all(|(x, y)| x.starts_with(y.as_str()) || y.starts_with(x.as_str()))
    {
        return true;
    }
    let (short, long) = if wa.len() <= wb.len() {
        (&wa, &wb)
    } else {
        (&wb, &wa)
    };
    short.len() >= 2 && contains(long, short)
}

/// Whether two names are the same venue: by the table when it knows both
/// (a series is the same as the conferences it publishes), else by
/// [`similar`]. A series against a venue the table does not know is never a
/// difference: the series may well hold it.
pub fn same(a: &str, b: &str) -> bool {
    match (lookup(a), lookup(b)) {
        (Some(x), Some(y)) => x.same_as(&y),
        (Some(x), None) | (None, Some(x)) if x.kind == VenueKind::Series => true,
        (Some(x), None) | (None, Some(x)) => {
            // One side is unknown: it may still be a long form of the known
            // one that the table lacks.
            similar(a, b) || (similar(a, x.name) && similar(b, x.name))
        }
        (None, None) => similar(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, key: Option<&str>) {
        assert_eq!(lookup(name).map(|v| v.key), key, "{name}");
    }

    #[test]
    fn table_lookups() {
        check("NeurIPS", Some("neurips"));
        check("NIPS", Some("neurips"));
        check(
            "Advances in Neural Information Processing Systems 34",
            Some("neurips"),
        );
        check("Neural Information Processing Systems", Some("neurips"));
        check(
            "Proceedings of the 38th International Conference on Machine Learning, ICML 2021",
            Some("icml"),
        );
        check("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", Some("cvpr"));
        check(
            "2022 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
            Some("cvpr"),
        );
        check(
            "Proceedings of the AAAI Conference on Artificial Intelligence",
            Some("aaai"),
        );
        check("Machine Learning", Some("mlj"));
        check("Mach. Learn.", Some("mlj"));
        check("CHI Extended Abstracts", Some("chiea"));
        check("CHI", Some("chi"));
        check("arXiv preprint arXiv:2101.00001", Some("arxiv"));
        check("CoRR", Some("arxiv"));
        check("bioRxiv : the preprint server for biology", Some("biorxiv"));
        check("Findings of EMNLP", Some("findings"));
        check("Data Science", None);
        check("Machine Learning Journal", Some("mlj"));
        check(
            "ACM SIGMOD International Conference on Management of Data",
            Some("sigmod"),
        );
        check("Neural Computation", Some("neco"));
        check("Symposium on Neural Scaling Laws", None);
        check("", None);
    }

    /// Issue 28: short and series forms of real venues read as other venues
    /// or none (PMLR as the journal Machine Learning, Findings as ACL, PNAS,
    /// ICRA, CoRL, MICCAI unknown), so correctly cited works were accused.
    #[test]
    fn venue_traps_of_real_citations() {
        check("Proceedings of Machine Learning Research", Some("pmlr"));
        check("PMLR", Some("pmlr"));
        check("Machine Learning", Some("mlj"));
        check("Findings of ACL: EMNLP 2020", Some("findings"));
        check(
            "Findings of the Association for Computational Linguistics: EMNLP 2020",
            Some("findings"),
        );
        check("EMNLP (Findings)", Some("findings"));
        check("PNAS", Some("pnas"));
        check("Proc. Natl. Acad. Sci. U.S.A.", Some("pnas"));
        check(
            "Proceedings of the National Academy of Sciences of the United States of America",
            Some("pnas"),
        );
        check("ICRA", Some("icra"));
        check(
            "2018 IEEE International Conference on Robotics and Automation (ICRA)",
            Some("icra"),
        );
        check("CoRL", Some("corl"));
        check("Conference on Robot Learning", Some("corl"));
        check("MICCAI", Some("miccai"));
        check(
            "Medical Image Computing and Computer Assisted Intervention – MICCAI 2015",
            Some("miccai"),
        );
        check("Lecture Notes in Computer Science", Some("lncs"));
        check(
            "Proceedings of the 38th International Conference on Machine Learning, PMLR",
            Some("icml"),
        );
        for (a, b, expected) in [
            ("Proceedings of Machine Learning Research", "COLT", true),
            ("Proceedings of Machine Learning Research", "ICML", true),
            (
                "Proceedings of Machine Learning Research",
                "Machine Learning",
                false,
            ),
            (
                "Proceedings of Machine Learning Research",
                "Learning for Dynamics and Control",
                true,
            ),
            ("Proceedings of Machine Learning Research", "Nature", false),
            ("Proceedings of Machine Learning Research", "arXiv", false),
            ("Findings of ACL: EMNLP 2020", "EMNLP", true),
            ("Findings of ACL: EMNLP 2020", "CVPR", false),
            (
                "PNAS",
                "Proceedings of the National Academy of Sciences",
                true,
            ),
            ("PNAS", "Nature", false),
            (
                "ICRA",
                "2018 IEEE International Conference on Robotics and Automation (ICRA)",
                true,
            ),
            ("ICRA", "IROS", false),
            ("CoRL", "Proceedings of Machine Learning Research", true),
            ("MICCAI", "Lecture Notes in Computer Science", true),
            (
                "Lecture Notes in Computer Science",
                "J. Mach. Learn. Res.",
                false,
            ),
        ] {
            check_same(a, b, expected);
        }
    }

    /// Issue 28: an invented venue that holds a real one's plain name
    /// ("Machine Learning") read as that venue, so the card said "wrong
    /// venue" where the venue does not exist.
    #[test]
    fn a_plain_name_inside_an_invented_venue_is_not_that_venue() {
        check("International Conference on Quantum Machine Learning", None);
        check("Journal of Statistical Machine Learning Theory", None);
        check("Neural Computing and Applications", None);
        check("Neural Computation and Applications", None);
        check("Journal of Adversarial Machine Learning", None);
    }

    fn check_same(a: &str, b: &str, expected: bool) {
        assert_eq!(same(a, b), expected, "{a} vs {b}");
    }

    #[test]
    fn sameness() {
        check_same("NeurIPS", "Neural Information Processing Systems", true);
        check_same("ICML", "AAAI", false);
        check_same("Frontiers in nutrition", "Frontiers in Nutrition", true);
        check_same(
            "J. Mach. Learn. Res.",
            "Journal of Machine Learning Research",
            true,
        );
        check_same("Conference on Reward Learning and Alignment", "CVPR", false);
        check_same("Frontiers in medicine", "Frontiers in nutrition", false);
    }
}
