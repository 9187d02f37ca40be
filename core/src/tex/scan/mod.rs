//! The scanner: one forward pass over a source that finds cites, `\nocite{*}` and includes.
//!
//! Split by job: [`records`] (what a scan finds and how it is shown), [`commands`]
//! (the command table) and [`scanner`] (the pass); the entry points are here.

mod commands;
mod records;
mod scanner;

pub use commands::*;
pub use records::*;
use scanner::*;

/// Scans a LaTeX source for cites, `\\nocite{*}` and included files.
///
/// ```
/// let scan = citegate_core::tex::scan("See \\citep[p.~2]{a, b} % \\cite{c}\n\\input{sec/intro}");
/// let keys: Vec<_> = scan.cites().map(|c| c.key).collect();
/// assert_eq!(keys, ["a", "b"]);
/// assert_eq!(scan.includes[0].name, "sec/intro");
/// ```
pub fn scan(source: &str) -> Scan {
    scan_owned(source.to_string(), &[])
}

/// [`scan`] with cite commands already learned elsewhere (from the preamble
/// or a macro file of the same project) as well as those the source defines.
///
/// ```
/// use citegate_core::tex::{scan, scan_with};
/// let defs = scan("\\newcommand{\\mycite}[1]{\\citep{#1}}").definitions;
/// let s = scan_with("\\mycite{a}", &defs);
/// let keys: Vec<_> = s.cites().map(|c| c.key).collect();
/// assert_eq!(keys, ["a"]);
/// ```
pub fn scan_with(source: &str, known: &[Definition]) -> Scan {
    scan_owned(source.to_string(), known)
}

/// [`scan_with`] on a source the scan takes over (no copy is made).
pub fn scan_owned(source: String, known: &[Definition]) -> Scan {
    let mut found = scan_into(&source, known, None);
    found.source = source;
    found
}

/// [`scan_with`] handing each cite to `visit` as it is found, in the order
/// and number [`Scan::cites`] would list them, instead of keeping a record
/// of it: the scan returned has everything but the cites and the source
/// (its [`Scan::cites`] is empty, its [`Scan::source`] too). A draft's
/// cites then cost no memory, and no line or column is computed that the
/// visitor does not ask [`Lines`] for.
///
/// ```
/// use citegate_core::tex::{visit, Found, Visit};
/// struct Keys(Vec<String>);
/// impl Visit for Keys {
///     fn cite(&mut self, _source: &str, c: Found<'_>) {
///         self.0.push(c.key.to_string());
///     }
/// }
/// let mut keys = Keys(Vec::new());
/// let scan = visit(r"\citep[see \citet{b}]{a} \nocite{c}", &[], &mut keys);
/// assert_eq!(keys.0, ["b", "a", "c"]);
/// assert_eq!(scan.cites().len(), 0);
/// ```
pub fn visit(source: &str, known: &[Definition], visit: &mut dyn Visit) -> Scan {
    scan_into(source, known, Some(visit))
}

/// The scan of `source`, its cites handed to `visit` if there is one; the
/// scan returned does not hold the source.
fn scan_into(source: &str, known: &[Definition], visit: Option<&mut dyn Visit>) -> Scan {
    let mut s = Scanner::new(source, false);
    s.visit = visit;
    for d in known {
        s.learned.insert(d.name.clone(), d.form.clone());
    }
    s.run();
    s.finish()
}

/// Every cited key in a LaTeX source, with its line and command, in source order.
///
/// ```
/// let cites = citegate_core::tex::extract_cites("\\textcites[see][]{a}{b,c}");
/// assert_eq!(cites.len(), 3);
/// assert_eq!(cites[2].key, "c");
/// assert_eq!(cites[2].command, "textcites");
/// ```
pub fn extract_cites(source: &str) -> Vec<OwnedCite> {
    let found = scan(source);
    found.cites().map(|c| c.to_owned_cite()).collect()
}

#[cfg(test)]
mod tests {
    use super::{
        builtin, builtin_lookup, count_newlines, next_special, same_name, Scanner, COMMANDS,
    };

    /// `same_name` is `==` on names of every length around its words.
    #[test]
    fn same_name_is_equality() {
        let names = [
            "",
            "c",
            "ci",
            "cit",
            "cite",
            "citE",
            "Cite",
            "citep",
            "citet",
            "citeX",
            "citeauthor",
            "citeauthoR",
            "textcites",
            "Textcites",
            "citeyear",
            "citeyeaR",
            "cityear",
        ];
        for a in names {
            for b in names {
                assert_eq!(same_name(a, b), a == b, "{a} {b}");
            }
        }
    }

    /// Every length up to two batches of 255 words and past, with no
    /// newline, only newlines, and newlines at pseudo-random places.
    #[test]
    fn count_newlines_agrees_with_a_byte_count() {
        let mut x: u32 = 1;
        for len in (0..=4200).step_by(7).chain([2040, 2041, 4079, 4080, 4081]) {
            for fill in 0..3 {
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        match fill {
                            0 => b'a' ^ (x >> 16) as u8 & 0x80,
                            1 => b'\n',
                            _ if (x >> 16).is_multiple_of(5) => b'\n',
                            _ => (x >> 20) as u8,
                        }
                    })
                    .collect();
                let want = b.iter().filter(|&&c| c == b'\n').count();
                assert_eq!(count_newlines(&b), want, "length {len}, fill {fill}");
            }
        }
    }

    /// `next_special` finds what `memchr2` finds: in every position of
    /// texts of every length up to 100 (words and tails), with the other
    /// special byte, a newline, bytes above 127 and zero bytes around.
    #[test]
    fn next_special_agrees_with_memchr2() {
        let fillers: [&[u8]; 4] = [b"ab c", "é\n\x7f".as_bytes(), b"\0\x01[", b"\\%"];
        for len in 0..100 {
            for filler in fillers {
                let base: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                for at in 0..=len {
                    for special in [b'\\', b'%', b'x'] {
                        let mut b = base.clone();
                        if at < len {
                            b[at] = special;
                        }
                        assert_eq!(next_special(&b), memchr::memchr2(b'%', b'\\', &b), "{b:?}");
                    }
                }
            }
        }
    }

    /// The remembered lookups give what the table gives, for every listed
    /// command and names that are none, asked in an order that makes names
    /// share slots and replace each other.
    #[test]
    fn remembered_lookups_match_the_table() {
        let mut names: Vec<&str> = COMMANDS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|l| l.split('\t').next())
            .collect();
        names.extend(["citestyle", "recite", "cite", "Cite", "citep", "", "c"]);
        let mut scanner = Scanner::new("", false);
        for round in 0..3 {
            for (i, name) in names.iter().enumerate() {
                // Each name twice in a row now and then: a hit right after a miss.
                let repeat = if (i + round) % 3 == 0 { 2 } else { 1 };
                for _ in 0..repeat {
                    assert_eq!(scanner.builtin_cached(name), builtin_lookup(name), "{name}");
                }
            }
            names.reverse();
        }
    }

    /// `builtin` rules names out by a substring before the table lookup;
    /// every name of the table must pass that filter.
    #[test]
    fn every_listed_command_is_found() {
        let names: Vec<&str> = COMMANDS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|l| l.split('\t').next())
            .collect();
        assert!(names.len() > 100, "{}", names.len());
        for name in names {
            assert!(builtin(name).is_some(), "{name}");
        }
        assert!(builtin("citestyle").is_none());
        assert!(builtin("section").is_none());
    }
}
