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

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

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
    let mut out = String::with_capacity(text.len());
    for c in text.nfkd() {
        if is_combining_mark(c) {
            continue;
        }
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
    let decoded = if title.contains(['\\', '{', '}', '$', '~']) || title.contains("--") {
        crate::latex::decode(title)
    } else {
        title.to_string()
    };
    let folded = if decoded.is_ascii() {
        decoded
    } else {
        fold(&decoded)
    };
    let mut out = String::with_capacity(folded.len());
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
    out
}

/// python-Levenshtein's `ratio` of two already-normalized strings, in 0..=100.
///
/// Both strings are compared as sequences of Unicode scalar values, as
/// Python compares `str`.
pub fn ratio_normalized(a: &str, b: &str) -> f64 {
    let len_a = a.chars().count();
    let len_b = b.chars().count();
    let lensum = len_a + len_b;
    if lensum == 0 {
        return 100.0;
    }
    let dist = rapidfuzz::distance::indel::distance(a.chars(), b.chars());
    // Same operations, in the same order, as rapidfuzz-cpp's
    // normalized_similarity followed by the script's `* 100`.
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
    ratio_normalized(&normalize(a), &normalize(b))
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
    let na = normalize(candidate);
    let nb = normalize(found);
    let s = round_half_even(ratio_normalized(&na, &nb));
    if substring_bypass && na.split(' ').filter(|w| !w.is_empty()).count() < 4 && nb.contains(&na) {
        return s.max(95);
    }
    s
}

/// The full result of matching two titles, for display and reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    let score = score(candidate, found, substring_bypass);
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
