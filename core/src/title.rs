//! Title matching: normalization and python-Levenshtein's `ratio`.
//!
//! PaperOrchestra accepts a Semantic Scholar hit only when the title score
//! is strictly greater than 70, where the score is
//! `int(round(Levenshtein.ratio(norm(a), norm(b)) * 100))`. `ratio` there is
//! the *InDel* similarity — `1 - indel_distance / (len_a + len_b)`, where a
//! substitution costs two edits — not `1 - levenshtein / max_len`. We compute
//! the distance with the `rapidfuzz` crate (the same algorithm family that
//! python-Levenshtein is built on) and do the final floating-point steps in
//! the same order as Python, so scores agree bit for bit; the committed
//! parity vectors (`tests/fixtures/title_vectors.tsv`) pin that down.
//!
//! Normalization goes further than the reference on non-ASCII input: LaTeX
//! markup is decoded and accented letters are folded to their base letter,
//! so `Schr{\"o}dinger`, `Schrödinger` and `Schrodinger` all normalize alike.
//! On plain ASCII input it equals the reference's normalization plus a trim.

/// The default threshold: a score must be strictly greater than this to pass.
pub const DEFAULT_THRESHOLD: i64 = 70;

/// Letters that have a base form but no Unicode decomposition to it.
fn fold_letter(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'ẞ' => "SS",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        'ø' => "o",
        'Ø' => "O",
        'ł' => "l",
        'Ł' => "L",
        'đ' => "d",
        'Đ' => "D",
        'ð' => "d",
        'Ð' => "D",
        'þ' => "th",
        'Þ' => "TH",
        'ı' => "i",
        'ȷ' => "j",
        'ŋ' => "ng",
        'Ŋ' => "NG",
        _ => return None,
    })
}

/// Folds accented letters to ASCII where they have a base form (NFKD, marks
/// stripped, a few letters mapped by hand). Other characters are kept.
///
/// ```
/// assert_eq!(citegate_core::title::fold("Müller Straße Łódź"), "Muller Strasse Lodz");
/// ```
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let decomposed = crate::unicode::nfkd_without_marks(text);
    let mut out = String::with_capacity(decomposed.len());
    for c in decomposed.chars() {
        match fold_letter(c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
    }
    out
}

/// Normalizes a title for matching: LaTeX decoded, accents folded,
/// lowercased, every run of non-alphanumeric characters turned into one
/// space, both ends trimmed.
///
/// ```
/// use citegate_core::title::normalize;
/// assert_eq!(normalize("  Attention Is All You Need!  "), "attention is all you need");
/// assert_eq!(normalize(r#"Schr{\"o}dinger's Cat"#), "schrodinger s cat");
/// ```
pub fn normalize(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    normalize_into(title, &mut out);
    out
}

/// True when [`normalize`] must decode LaTeX markup in `title` first.
fn has_latex(title: &str) -> bool {
    title.contains(['\\', '{', '}', '$', '~']) || title.contains("--")
}

/// The common case of [`normalize_into`] in one pass: plain ASCII with
/// nothing to decode or fold, byte by byte with the same steps as the
/// general loop. Returns `false` (leaving `out` partly written) at the
/// first byte that needs the general path: non-ASCII, a LaTeX special
/// (`\ { } $ ~`) or a `--`.
fn normalize_plain_ascii(bytes: &[u8], out: &mut String) -> bool {
    let mut pending_space = false;
    let mut prev = 0u8;
    for &b in bytes {
        if b.is_ascii_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(char::from(b.to_ascii_lowercase()));
        } else {
            if !b.is_ascii()
                || matches!(b, b'\\' | b'{' | b'}' | b'$' | b'~')
                || (b == b'-' && prev == b'-')
            {
                return false;
            }
            pending_space = true;
        }
        prev = b;
    }
    true
}

/// [`normalize`] into a buffer the caller reuses: `out` is cleared first.
/// Scoring many pairs this way allocates nothing once the buffer has grown.
///
/// ```
/// let mut buf = String::new();
/// citegate_core::title::normalize_into("Attention Is All You Need!", &mut buf);
/// assert_eq!(buf, "attention is all you need");
/// ```
pub fn normalize_into(title: &str, out: &mut String) {
    out.clear();
    if normalize_plain_ascii(title.as_bytes(), out) {
        return;
    }
    out.clear();
    let decoded = if has_latex(title) {
        std::borrow::Cow::Owned(crate::latex::decode(title))
    } else {
        std::borrow::Cow::Borrowed(title)
    };
    let folded = if decoded.is_ascii() {
        decoded
    } else {
        std::borrow::Cow::Owned(fold(&decoded))
    };
    let mut pending_space = false;
    for c in folded.chars() {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
}

/// python-Levenshtein's `ratio` of two already-normalized strings, in 0..=100.
///
/// Both strings are compared as sequences of Unicode scalar values, as
/// Python compares `str`.
pub fn ratio_normalized(a: &str, b: &str) -> f64 {
    if a.is_ascii() && b.is_ascii() {
        // One byte per character: the same sequences, compared as bytes.
        return ratio_from_distance(
            indel_distance_bytes(a.as_bytes(), b.as_bytes()),
            a.len() + b.len(),
        );
    }
    let lensum = a.chars().count() + b.chars().count();
    if lensum == 0 {
        return 100.0;
    }
    ratio_from_distance(
        rapidfuzz::distance::indel::distance(a.chars(), b.chars()),
        lensum,
    )
}

/// The InDel distance of two byte strings: `len_a + len_b - 2 · LCS`.
///
/// Common prefix and suffix are cut first (they are part of every longest
/// common subsequence); what is left, when the shorter side is at most 256
/// bytes of ASCII, goes through Hyyrö's bit-parallel LCS with the match
/// masks on the stack — rapidfuzz's algorithm without its per-call heap
/// buffers. Anything else goes to rapidfuzz itself.
fn indel_distance_bytes(a: &[u8], b: &[u8]) -> usize {
    let total = a.len() + b.len();
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (
        a.get(prefix..).unwrap_or(&[]),
        b.get(prefix..).unwrap_or(&[]),
    );
    let suffix = a_rest
        .iter()
        .rev()
        .zip(b_rest.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let a_mid = a_rest.get(..a_rest.len() - suffix).unwrap_or(&[]);
    let b_mid = b_rest.get(..b_rest.len() - suffix).unwrap_or(&[]);
    let (short, long) = if a_mid.len() <= b_mid.len() {
        (a_mid, b_mid)
    } else {
        (b_mid, a_mid)
    };
    let lcs_mid = if short.is_empty() {
        Some(0)
    } else if !short.is_ascii() {
        None
    } else {
        match short.len().div_ceil(64) {
            1 => Some(lcs_ascii::<1>(short, long)),
            2 => Some(lcs_ascii::<2>(short, long)),
            3 => Some(lcs_ascii::<3>(short, long)),
            4 => Some(lcs_ascii::<4>(short, long)),
            _ => None,
        }
    };
    match lcs_mid {
        Some(l) => total - 2 * (prefix + suffix + l),
        None => rapidfuzz::distance::indel::distance(a.iter().copied(), b.iter().copied()),
    }
}

/// Length of the longest common subsequence of `pattern` (ASCII, at most
/// `64 · W` bytes) and `text`, by Hyyrö's bit-vector recurrence
/// `S' = (S + (S & M)) | (S & !M)` over `W` words with carry.
fn lcs_ascii<const W: usize>(pattern: &[u8], text: &[u8]) -> usize {
    let mut masks = [[0u64; W]; 128];
    for (i, &c) in pattern.iter().enumerate() {
        if let Some(m) = masks
            .get_mut(usize::from(c))
            .and_then(|m| m.get_mut(i / 64))
        {
            *m |= 1u64 << (i % 64);
        }
    }
    let none = [0u64; W];
    let mut s = [!0u64; W];
    for &c in text {
        let m = masks.get(usize::from(c)).unwrap_or(&none);
        let mut carry = false;
        for (sw, &mw) in s.iter_mut().zip(m) {
            let u = *sw & mw;
            let (x, c1) = sw.overflowing_add(u);
            let (x, c2) = x.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *sw = x | (*sw ^ u);
        }
    }
    s.iter().map(|w| (!w).count_ones() as usize).sum()
}

/// The ratio for InDel distance `dist` between sequences of total length
/// `lensum`: the same operations, in the same order, as rapidfuzz-cpp's
/// normalized_similarity followed by the script's `* 100`.
fn ratio_from_distance(dist: usize, lensum: usize) -> f64 {
    if lensum == 0 {
        return 100.0;
    }
    let norm_dist = dist as f64 / lensum as f64;
    (1.0 - norm_dist) * 100.0
}

/// python-Levenshtein's `ratio` of the normalized titles, in 0..=100.
///
/// ```
/// use citegate_core::title::ratio;
/// assert_eq!(ratio("abc", "abc"), 100.0);
/// // A substitution costs two edits: 1 - 2/6.
/// assert!((ratio("abc", "abd") - 66.666_666_666_666_67).abs() < 1e-9);
/// ```
pub fn ratio(a: &str, b: &str) -> f64 {
    with_normalized(a, b, ratio_normalized)
}

/// Python's `int(round(x))`: round half to even.
pub fn round_half_even(x: f64) -> i64 {
    x.round_ties_even() as i64
}

/// The integer score of two titles, as `levenshtein_match.py` prints it.
///
/// With `substring_bypass`, a candidate of fewer than four words that is
/// contained in the found title scores at least 95.
pub fn score(candidate: &str, found: &str, substring_bypass: bool) -> i64 {
    with_normalized(candidate, found, |na, nb| {
        score_normalized(na, nb, substring_bypass)
    })
}

/// Calls `f` with both titles normalized into this thread's two buffers, so
/// scoring many pairs allocates nothing once the buffers have grown.
fn with_normalized<R>(a: &str, b: &str, f: impl FnOnce(&str, &str) -> R) -> R {
    thread_local! {
        static BUFFERS: std::cell::RefCell<(String, String)> =
            const { std::cell::RefCell::new((String::new(), String::new())) };
    }
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut bufs) => {
            let (na, nb) = &mut *bufs;
            normalize_into(a, na);
            normalize_into(b, nb);
            f(na, nb)
        }
        // Only a re-entrant call finds the buffers taken; `f` never calls back.
        Err(_) => f(&normalize(a), &normalize(b)),
    })
}

/// [`score`] of two already-normalized titles.
fn score_normalized(na: &str, nb: &str, substring_bypass: bool) -> i64 {
    let s = round_half_even(ratio_normalized(na, nb));
    bypass(na, nb, s, substring_bypass)
}

/// The substring bypass: a normalized candidate of fewer than four words
/// contained in the normalized found title scores at least 95.
fn bypass(na: &str, nb: &str, s: i64, substring_bypass: bool) -> i64 {
    if substring_bypass && na.split(' ').filter(|w| !w.is_empty()).count() < 4 && nb.contains(na) {
        return s.max(95);
    }
    s
}

/// One candidate title scored against many found titles: the candidate is
/// normalized once and one buffer serves every found title. Gives exactly
/// what [`score`] and [`ratio`] give.
///
/// ```
/// use citegate_core::title::{score, TitleScorer};
/// let mut s = TitleScorer::new("Attention is all you need");
/// for found in ["Attention Is All You Need.", "Attention is not all you need", "Über"] {
///     assert_eq!(s.score(found, false), score("Attention is all you need", found, false));
/// }
/// ```
pub struct TitleScorer {
    normalized: String,
    buf: String,
}

impl TitleScorer {
    /// Normalizes `candidate`.
    pub fn new(candidate: &str) -> Self {
        TitleScorer {
            normalized: normalize(candidate),
            buf: String::new(),
        }
    }

    /// The candidate, normalized.
    pub fn normalized(&self) -> &str {
        &self.normalized
    }

    /// [`ratio`] of the candidate and `found`.
    pub fn ratio(&mut self, found: &str) -> f64 {
        normalize_into(found, &mut self.buf);
        ratio_normalized(&self.normalized, &self.buf)
    }

    /// [`score`] of the candidate and `found`.
    pub fn score(&mut self, found: &str, substring_bypass: bool) -> i64 {
        normalize_into(found, &mut self.buf);
        score_normalized(&self.normalized, &self.buf, substring_bypass)
    }
}

/// The full result of matching two titles, for display and reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TitleMatch {
    /// The candidate, normalized.
    pub candidate_normalized: String,
    /// The found title, normalized.
    pub found_normalized: String,
    /// The exact ratio in 0..=100.
    pub ratio: f64,
    /// The integer score (after the substring bypass, when on).
    pub score: i64,
    /// The threshold the score was compared with.
    pub threshold: i64,
    /// Whether `score > threshold`.
    pub pass: bool,
}

/// Matches two titles and says whether the pair passes `score > threshold`.
///
/// ```
/// let m = citegate_core::title::match_titles("Attention is all you need", "Attention Is All You Need.", false, 70);
/// assert_eq!((m.score, m.pass), (100, true));
/// ```
pub fn match_titles(
    candidate: &str,
    found: &str,
    substring_bypass: bool,
    threshold: i64,
) -> TitleMatch {
    let candidate_normalized = normalize(candidate);
    let found_normalized = normalize(found);
    let ratio = ratio_normalized(&candidate_normalized, &found_normalized);
    let score = bypass(
        &candidate_normalized,
        &found_normalized,
        round_half_even(ratio),
        substring_bypass,
    );
    TitleMatch {
        candidate_normalized,
        found_normalized,
        ratio,
        score,
        threshold,
        pass: score > threshold,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_norm(input: &str, expected: &str) {
        assert_eq!(normalize(input), expected, "normalize({input:?})");
    }

    fn check_score(a: &str, b: &str, bypass: bool, expected: i64) {
        assert_eq!(
            score(a, b, bypass),
            expected,
            "score({a:?}, {b:?}, bypass={bypass})"
        );
    }

    /// The general loop of `normalize_into`, without the ASCII fast path.
    fn normalize_by_chars(title: &str) -> String {
        let mut out = String::new();
        let mut pending_space = false;
        for c in title.chars() {
            if c.is_alphanumeric() {
                if pending_space && !out.is_empty() {
                    out.push(' ');
                }
                pending_space = false;
                out.extend(c.to_lowercase());
            } else {
                pending_space = true;
            }
        }
        out
    }

    #[test]
    fn ascii_fast_path_equals_the_general_loop() {
        // Every printable ASCII character and control character, alone,
        // between letters and in runs; LaTeX specials take the slow path.
        for b in 0u8..128 {
            let c = char::from(b);
            for t in [
                format!("{c}"),
                format!("Ab{c}Cd"),
                format!("{c}{c}x{c}{c}Y9{c}"),
                format!(" A{c} -{c}Z "),
            ] {
                if !has_latex(&t) {
                    check_norm(&t, &normalize_by_chars(&t));
                }
            }
        }
    }

    #[test]
    fn normalizes() {
        check_norm("Attention Is All You Need", "attention is all you need");
        check_norm("BERT: Pre-training of Deep...", "bert pre training of deep");
        check_norm("  spaces\tand\nnewlines  ", "spaces and newlines");
        check_norm("", "");
        check_norm("!!!", "");
        check_norm("Schrödinger", "schrodinger");
        check_norm(r#"Schr{\"o}dinger"#, "schrodinger");
        check_norm("Müller", "muller");
        check_norm("Straße", "strasse");
        check_norm(r"{\ss}", "ss");
        check_norm(r"Caf\'e -- au lait", "cafe au lait");
        check_norm("ﬁne ligature", "fine ligature");
        check_norm("深度学习 survey", "深度学习 survey");
    }

    #[test]
    fn scores() {
        check_score("Schrödinger", "Schrodinger", false, 100);
        check_score("abc", "abd", false, 67);
        check_score("", "", false, 100);
        check_score("", "abc", false, 0);
    }

    #[test]
    fn rounds_half_to_even() {
        assert_eq!(round_half_even(70.5), 70);
        assert_eq!(round_half_even(71.5), 72);
        assert_eq!(round_half_even(0.5), 0);
        assert_eq!(round_half_even(99.4999), 99);
    }

    #[test]
    fn substring_bypass_lifts_short_contained_candidates() {
        check_score(
            "Linformer",
            "Linformer: Self-Attention with Linear Complexity",
            false,
            32,
        );
        check_score(
            "Linformer",
            "Linformer: Self-Attention with Linear Complexity",
            true,
            95,
        );
        // Four words or more: no bypass.
        check_score(
            "self attention with linear",
            "Linformer: Self-Attention with Linear Complexity",
            true,
            71,
        );
    }

    #[test]
    fn threshold_is_strict() {
        // "abcdefghij" vs "abcdefghijklmnopqrstu" — ratio 1 - 11/31 = 64.5 → 65.
        let m = match_titles("abcdefghij", "abcdefghijklmnopqrstu", false, 65);
        assert_eq!(m.score, 65);
        assert!(!m.pass, "a score equal to the threshold fails");
        assert!(match_titles("abcdefghij", "abcdefghijklmnopqrstu", false, 64).pass);
    }
}
