//! The two Unicode normalizations the core needs: NFC (after LaTeX decoding)
//! and NFKD with the combining marks taken out (folding accents).
//!
//! Natively, and in any wasm build without the `browser-normalize` feature,
//! they come from the `unicode-normalization` crate. With that feature on
//! wasm32 (the app build) they are the browser's own
//! `String.prototype.normalize` and a `\p{M}` regular expression, so the
//! crate's tables (about 130 KB of the app) are not linked at all. Plain
//! ASCII never leaves Rust: it is its own NFC and NFKD and has no marks.
//! `wasm-tests/tests/title_parity.rs` holds both paths equal.

/// `text` in Normalization Form C.
pub(crate) fn nfc(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    imp::nfc(text)
}

/// `text` in Normalization Form KD with every combining mark
/// (General_Category = Mark) removed.
pub(crate) fn nfkd_without_marks(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    imp::nfkd_without_marks(text)
}

#[cfg(not(all(feature = "browser-normalize", target_arch = "wasm32")))]
mod imp {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;

    pub(super) fn nfc(text: &str) -> String {
        text.nfc().collect()
    }

    pub(super) fn nfkd_without_marks(text: &str) -> String {
        text.nfkd().filter(|&c| !is_combining_mark(c)).collect()
    }
}

#[cfg(all(feature = "browser-normalize", target_arch = "wasm32"))]
mod imp {
    use js_sys::{JsString, RegExp};

    thread_local! {
        // Unicode property escapes: every code point with General_Category=Mark,
        // the set `unicode_normalization::char::is_combining_mark` tests.
        static MARKS: RegExp = RegExp::new(r"\p{M}", "gu");
    }

    pub(super) fn nfc(text: &str) -> String {
        JsString::from(text).normalize("NFC").into()
    }

    pub(super) fn nfkd_without_marks(text: &str) -> String {
        let decomposed = JsString::from(text).normalize("NFKD");
        MARKS.with(|marks| decomposed.replace_by_pattern(marks, "").into())
    }
}
