//! Where TeX may break a word: Liang's algorithm over Plain TeX's US English
//! patterns (`hyphen.tex`, Knuth's, the patterns LaTeX uses for English,
//! embedded unmodified as its licence asks), with TeX's default
//! `\lefthyphenmin` 2 and `\righthyphenmin` 3.
//!
//! A line-end hyphen where TeX could not have broken the joined word is one
//! the author wrote (`nanowire-` `dielectric`: TeX breaks `nanowiredi-elec-tric`).
//! Written here rather than taken from a crate: `hypher` (typst's, built from
//! the same file) breaks `neural` nowhere with these bounds where TeX
//! breaks `neu-ral`, and the references it reads were broken by TeX.

use std::collections::HashMap;
use std::sync::OnceLock;

const PLAIN_TEX: &str = include_str!("hyphen.tex");
const LEFT_MIN: usize = 2;
const RIGHT_MIN: usize = 3;

struct Patterns {
    /// Letters of a pattern to its inter-letter values (one more than letters).
    values: HashMap<String, Vec<u8>>,
    /// Words whose breaks `\hyphenation{…}` lists: each break's position.
    exceptions: HashMap<String, Vec<usize>>,
    longest: usize,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let mut values = HashMap::new();
        let mut exceptions = HashMap::new();
        let mut longest = 0;
        let body = |name: &str| -> &str {
            PLAIN_TEX
                .split_once(name)
                .and_then(|(_, rest)| rest.split_once('}'))
                .map_or("", |(inside, _)| inside)
        };
        for token in body("\\patterns{")
            .split_whitespace()
            .filter(|t| !t.starts_with('%'))
        {
            let mut letters = String::new();
            let mut vals = vec![0u8];
            for c in token.chars() {
                match c.to_digit(10) {
                    Some(d) => {
                        if let Some(last) = vals.last_mut() {
                            *last = d as u8;
                        }
                    }
                    None => {
                        letters.push(c);
                        vals.push(0);
                    }
                }
            }
            longest = longest.max(letters.chars().count());
            values.insert(letters, vals);
        }
        for token in body("\\hyphenation{")
            .split_whitespace()
            .filter(|t| !t.starts_with('%'))
        {
            let (word, breaks) = breaks_of(token);
            exceptions.insert(word, breaks);
        }
        Patterns {
            values,
            exceptions,
            longest,
        }
    })
}

/// A hyphenated word (`as-so-ciate`) as its letters and the number of
/// letters before each hyphen.
fn breaks_of(hyphenated: &str) -> (String, Vec<usize>) {
    let mut breaks = Vec::new();
    let mut n = 0;
    for c in hyphenated.chars() {
        if c == '-' {
            breaks.push(n);
        } else {
            n += 1;
        }
    }
    (hyphenated.replace('-', ""), breaks)
}

/// Whether TeX may break `word` (lowercase letters a to z) after its
/// first `at` letters. `None` for a word the patterns do not cover (other
/// letters): no claim either way.
pub(crate) fn may_break(word: &str, at: usize) -> Option<bool> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let n = word.len();
    if at < LEFT_MIN || at + RIGHT_MIN > n {
        return Some(false);
    }
    let p = patterns();
    if let Some(breaks) = p.exceptions.get(word) {
        return Some(breaks.contains(&at));
    }
    let dotted: Vec<u8> = format!(".{word}.").into_bytes();
    // levels[i]: the value between dotted[i - 1] and dotted[i].
    let mut levels = vec![0u8; dotted.len() + 1];
    for start in 0..dotted.len() {
        for end in start + 1..=dotted.len().min(start + p.longest) {
            let Ok(piece) = std::str::from_utf8(&dotted[start..end]) else {
                continue;
            };
            if let Some(vals) = p.values.get(piece) {
                for (k, v) in vals.iter().enumerate() {
                    if let Some(l) = levels.get_mut(start + k) {
                        *l = (*l).max(*v);
                    }
                }
            }
        }
    }
    // A break after `at` letters of the word is between dotted[at] and dotted[at + 1].
    Some(levels.get(at + 1).is_some_and(|v| v % 2 == 1))
}

#[cfg(test)]
mod tests {
    use super::{breaks_of, may_break};

    /// The breaks TeX itself prints (`\showhyphens`, pdfTeX of TeX Live).
    fn check(hyphenated: &str) {
        let (word, expected) = breaks_of(hyphenated);
        let got: Vec<usize> = (0..=word.len())
            .filter(|&i| may_break(&word, i) == Some(true))
            .collect();
        assert_eq!(got, expected, "{hyphenated}");
    }

    #[test]
    fn breaks_as_tex_breaks() {
        check("neu-ral");
        check("the-o-rem-prov-ing");
        check("first-prin-ci-ples");
        check("nanowiredi-elec-tric");
        check("ex-tra-gra-di-ent");
        check("in-for-ma-tion-con-strained");
        check("su-per-con-duc-torsemi-con-duc-tor");
        check("thin-film");
        check("molec-u-lar-beam");
        // An exception of the file's own list.
        check("as-so-ciate");
        assert_eq!(may_break("naïve", 2), None);
        assert_eq!(may_break("", 0), None);
        assert_eq!(may_break("neural", 1), Some(false));
        assert_eq!(may_break("neural", 5), Some(false));
    }
}
