//! The title-ratio parity vectors, run through the core compiled to wasm32
//! inside headless Chromium: the browser must score exactly like Python.
#![cfg(target_arch = "wasm32")]

use citegate_core::title;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const VECTORS: &str = include_str!("../../core/tests/fixtures/title/vectors.tsv");

#[wasm_bindgen_test]
fn ratio_and_score_match_python_levenshtein_in_the_browser() {
    let mut n = 0;
    for (i, line) in VECTORS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let expected_ratio: f64 = f[2].parse().unwrap();
        let expected_score: i64 = f[3].parse().unwrap();
        let r = title::ratio(f[0], f[1]);
        assert!(
            (r - expected_ratio).abs() <= 1e-9,
            "line {}: {r} != {expected_ratio}",
            i + 1
        );
        assert_eq!(
            title::score(f[0], f[1], false),
            expected_score,
            "line {}",
            i + 1
        );
        n += 1;
    }
    assert!(n >= 2000, "only {n} vectors");
}

#[wasm_bindgen_test]
fn non_ascii_folds_in_the_browser_too() {
    assert_eq!(title::score("Schrödinger", "Schrodinger", false), 100);
    assert_eq!(title::normalize(r#"M{\"u}ller"#), "muller");
}

// The app enables the core's `browser-normalize` feature (web/Cargo.toml), so
// here, as in the app, `fold` and `latex::decode` normalize through the
// browser. The reference is unicode-normalization, what every other build uses.

/// The letters `title::fold` maps by hand (they have no decomposition), as
/// its doc lists them: copied so the reference does not call what it tests.
#[rustfmt::skip]
const BY_HAND: &[(char, &str)] = &[
    ('ß', "ss"), ('ẞ', "SS"), ('æ', "ae"), ('Æ', "AE"), ('œ', "oe"), ('Œ', "OE"),
    ('ø', "o"), ('Ø', "O"), ('ł', "l"), ('Ł', "L"), ('đ', "d"), ('Đ', "D"),
    ('ð', "d"), ('Ð', "D"), ('þ', "th"), ('Þ', "TH"), ('ı', "i"), ('ȷ', "j"),
    ('ŋ', "ng"), ('Ŋ', "NG"),
];

fn crate_fold(text: &str) -> String {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::new();
    for c in text.nfkd().filter(|&c| !is_combining_mark(c)) {
        match BY_HAND.iter().find(|(k, _)| *k == c) {
            Some((_, s)) => out.push_str(s),
            None => out.push(c),
        }
    }
    out
}

fn check_fold(input: &str) {
    assert_eq!(title::fold(input), crate_fold(input), "fold({input:?})");
}

fn check_nfc(input: &str) {
    use unicode_normalization::UnicodeNormalization;
    let expected: String = input.nfc().collect();
    assert_eq!(
        citegate_core::latex::decode(input),
        expected,
        "nfc({input:?})"
    );
}

/// Every code point the browser knows folds as the crate folds it. The crate's
/// tables can be a Unicode version ahead of Chromium's (unicode-normalization
/// 0.1.26 has Unicode 17's new letters, such as U+1DFD0 or U+0558 as a
/// decomposable letter; the browser has them unassigned and leaves them as
/// they are), so a code point the browser reports as unassigned (`\p{Cn}`) may
/// differ, and nothing else may.
#[wasm_bindgen_test]
fn browser_fold_equals_the_crate_on_every_code_point() {
    let unassigned = js_sys::RegExp::new(r"^\p{Cn}$", "u");
    let (mut same, mut newer) = (0, 0);
    let mut differ = Vec::new();
    for c in (0x80u32..0x3_0000).filter_map(char::from_u32) {
        let s = c.to_string();
        if title::fold(&s) == crate_fold(&s) {
            same += 1;
        } else if unassigned.test(&s) {
            newer += 1;
        } else {
            differ.push(format!(
                "U+{:04X} {:?} {:?}",
                c as u32,
                title::fold(&s),
                crate_fold(&s)
            ));
        }
    }
    assert!(same > 190_000, "only {same} code points agree");
    assert!(
        newer < 1_000,
        "{newer} code points newer than the browser's Unicode"
    );
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[wasm_bindgen_test]
fn browser_fold_equals_the_crate_on_titles() {
    check_fold("Müller Straße Łódź");
    check_fold("Schrödinger’s ﬁne ﬂow: ½ of Å, Ω and ℌ");
    check_fold("e\u{301}te\u{0301}\u{0323} n\u{303}");
    check_fold("Ｆｕｌｌｗｉｄｔｈ ｔｉｔｌｅ ①②");
    check_fold("Ἀριστοτέλης and Достоевский and 한국어");
    check_fold("mixed ASCII and ç at the end ç");
}

#[wasm_bindgen_test]
fn browser_nfc_equals_the_crate() {
    check_nfc("e\u{301}");
    check_nfc("Schro\u{308}dinger");
    check_nfc("A\u{30a}ngstro\u{308}m");
    check_nfc("\u{1100}\u{1161}\u{11a8}");
    check_nfc("q\u{307}\u{323}");
    check_nfc("ﬁ is kept as is");
    check_nfc("Ω and Å (singletons)");
    for c in (0xc0u32..0x2000).filter_map(char::from_u32) {
        let s: String = [c, '\u{301}'].iter().collect();
        check_nfc(&s);
    }
}
