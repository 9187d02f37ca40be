//! Reading a user's file from its bytes: UTF-8 (a byte-order mark is
//! skipped), or a located [`ErrorKind::Encoding`] error that says what the
//! file is instead — UTF-16, a zip archive, binary data, or UTF-8 broken at
//! a given byte. Every reader of dropped files goes through [`decode`], so a
//! `.bib`, a `.tex` and a `.json` get the same clear message.

use crate::error::{Error, ErrorKind, Location, Result};

/// The file's text, or where and why it is not UTF-8 text.
///
/// ```
/// use citegate_core::text::decode;
/// assert_eq!(decode(b"\xEF\xBB\xBF@misc{k}").unwrap(), "@misc{k}");
/// let e = decode(b"PK\x03\x04rest").unwrap_err();
/// assert!(e.message.contains("zip archive"));
/// ```
pub fn decode(bytes: &[u8]) -> Result<&str> {
    if let Some(what) = not_text(bytes) {
        return Err(what);
    }
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    std::str::from_utf8(body).map_err(|e| {
        let offset = e.valid_up_to() + (bytes.len() - body.len());
        Error::new(
            ErrorKind::Encoding,
            format!("not UTF-8 text: invalid byte at offset {offset}"),
        )
        .at(at(bytes, offset))
    })
}

/// [`decode`] of bytes the caller has checked itself: `utf8_without_nul`
/// says they are UTF-8 with no NUL byte (the CLI checks a large draft
/// with vector instructions, piece by piece as it reads it, while each
/// piece is in the cache), and must be true only then. The length of the
/// byte-order mark the text starts after (0 or 3), or [`decode`]'s error.
/// Only the checks such bytes can still fail (a zip archive's signature)
/// are made here; bytes the caller found wanting, or did not check, are
/// checked again by [`decode`], which locates the error. So a caller that
/// rejects too much costs time, never a different answer.
///
/// ```
/// use citegate_core::text::decode_checked;
/// assert_eq!(decode_checked(b"\xEF\xBB\xBF@misc{k}", true).unwrap(), 3);
/// assert!(decode_checked(b"PK\x03\x04rest", true).is_err());
/// // Not checked by the caller: the same answers, slower.
/// assert_eq!(decode_checked(b"\xEF\xBB\xBF@misc{k}", false).unwrap(), 3);
/// assert!(decode_checked(b"a\0b", false).is_err());
/// ```
pub fn decode_checked(bytes: &[u8], utf8_without_nul: bool) -> Result<usize> {
    // Valid UTF-8 is no UTF-16 text and holds no NUL: of what `not_text`
    // looks for, only the zip signature is left.
    if utf8_without_nul && !bytes.starts_with(ZIP) {
        return Ok(if bytes.starts_with(BOM) { BOM.len() } else { 0 });
    }
    decode(bytes).map(|text| bytes.len() - text.len())
}

/// The UTF-8 byte-order mark, which `decode` skips.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The signature a zip archive starts with, which `not_text` refuses.
const ZIP: &[u8] = b"PK\x03\x04";

/// [`decode`] on bytes the text takes over: the common case (UTF-8, no
/// byte-order mark) is checked once and not copied.
///
/// ```
/// use citegate_core::text::decode_owned;
/// assert_eq!(decode_owned(b"\xEF\xBB\xBF@misc{k}".to_vec()).unwrap(), "@misc{k}");
/// assert!(decode_owned(b"a\0b".to_vec()).is_err());
/// ```
pub fn decode_owned(bytes: Vec<u8>) -> Result<String> {
    if let Some(what) = not_text(&bytes) {
        return Err(what);
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(text)
        }
        // The located error, as `decode` gives it.
        Err(e) => decode(e.as_bytes()).map(str::to_string),
    }
}

/// Line and column (1-based; the column counts the UTF-8 characters before
/// `offset` on its line, and each other byte as one) of `offset` in `bytes`.
fn at(bytes: &[u8], offset: usize) -> Location {
    let before = bytes.get(..offset).unwrap_or_default();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    // A byte-order mark is no character an editor shows.
    let line_text = before.get(line_start..).unwrap_or_default();
    let line_text = line_text.strip_prefix(BOM).unwrap_or(line_text);
    let column = 1 + String::from_utf8_lossy(line_text).chars().count();
    Location::default().at(line, column)
}

/// The file's text as [`decode`] reads it; a file that is not UTF-8 but is
/// otherwise text (no NUL byte, not UTF-16, not a zip) has each byte that is
/// not part of valid UTF-8 read in an 8-bit encoding instead, with a warning
/// that names it and where the first such byte is: Windows-1252 when
/// a byte in 0x80–0x9F is used (those are printable there and control codes
/// in Latin-1), Latin-1 (ISO-8859-1) otherwise.
///
/// ```
/// use citegate_core::text::decode_or_8bit;
/// let (text, warning) = decode_or_8bit(b"caf\xe9 \x93x\x94").unwrap();
/// assert_eq!(text, "caf\u{e9} \u{201c}x\u{201d}");
/// assert!(warning.unwrap().message.contains("windows-1252"));
/// ```
pub fn decode_or_8bit(bytes: &[u8]) -> Result<(std::borrow::Cow<'_, str>, Option<Error>)> {
    match decode(bytes) {
        Ok(text) => Ok((std::borrow::Cow::Borrowed(text), None)),
        Err(e) if not_text(bytes).is_some() => Err(e),
        Err(e) => {
            let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
            // Runs that are valid UTF-8 stay as they are (a file edited in
            // two editors can mix both); only the other bytes are 8-bit.
            let windows = body
                .utf8_chunks()
                .any(|c| c.invalid().iter().any(|&b| (0x80..=0x9f).contains(&b)));
            let name = if windows {
                "windows-1252"
            } else {
                "latin-1 (iso-8859-1)"
            };
            let mut text = String::with_capacity(body.len());
            for chunk in body.utf8_chunks() {
                text.push_str(chunk.valid());
                text.extend(chunk.invalid().iter().map(|&b| byte_8bit(b, windows)));
            }
            let warning = Error {
                message: format!(
                    "not UTF-8 text: read as {name}; check its accented letters, or save it as UTF-8"
                ),
                ..e
            };
            Ok((std::borrow::Cow::Owned(text), Some(warning)))
        }
    }
}

/// One byte of Latin-1 or Windows-1252 as a character. Latin-1 maps each
/// byte to the code point of the same number; Windows-1252 differs only in
/// 0x80–0x9F, where the WHATWG Encoding Standard's table gives these
/// characters (its five unassigned bytes stay control codes, as there).
fn byte_8bit(b: u8, windows: bool) -> char {
    const HIGH: [char; 32] = [
        '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}',
        '\u{8f}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}',
        '\u{178}',
    ];
    match b {
        0x80..=0x9f if windows => HIGH
            .get(usize::from(b - 0x80))
            .copied()
            .unwrap_or(char::REPLACEMENT_CHARACTER),
        _ => char::from(b),
    }
}

/// What a file that is clearly not UTF-8 text is, told by its first bytes
/// or a NUL byte (see [`not_text`]).
enum NotText {
    /// A UTF-16 byte-order mark.
    Utf16,
    /// A zip archive's signature.
    Zip,
    /// A NUL byte at this offset: UTF-16 without a mark, or binary data.
    Nul(usize),
}

fn sniff(bytes: &[u8]) -> Option<NotText> {
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        Some(NotText::Utf16)
    } else if bytes.starts_with(ZIP) {
        Some(NotText::Zip)
    } else {
        memchr::memchr(0, bytes).map(NotText::Nul)
    }
}

/// Names files that are clearly not UTF-8 text before decoding them: UTF-16
/// (by its byte-order mark), a zip archive (a `.docx` or `.zip` renamed), or
/// any file with a NUL byte (UTF-16 without a mark, or binary data), which
/// would otherwise decode as UTF-8 and give a page of meaningless problems.
fn not_text(bytes: &[u8]) -> Option<Error> {
    let (message, offset) = match sniff(bytes)? {
        NotText::Utf16 => (
            "not UTF-8 text: UTF-16 (byte-order mark at offset 0); save the file as UTF-8"
                .to_string(),
            0,
        ),
        NotText::Zip => (
            "not text: a zip archive (a renamed .zip or .docx?)".to_string(),
            0,
        ),
        NotText::Nul(nul) => (
            format!("not text: NUL byte at offset {nul} (UTF-16 or binary data?)"),
            nul,
        ),
    };
    Some(Error::new(ErrorKind::Encoding, message).at(at(bytes, offset)))
}

/// Why bytes [`decode`] refuses cannot be read, in words for a person who
/// dropped the file (no offsets or byte values: the located error is
/// [`decode`]'s); `None` when they are UTF-8 text.
///
/// ```
/// use citegate_core::text::in_plain_words;
/// assert_eq!(in_plain_words(b"@misc{k}"), None);
/// assert_eq!(in_plain_words(b"%PDF\0\x01"), Some("it is not a text file (a PDF, an image, other binary data, or text saved as UTF-16?)"));
/// ```
pub fn in_plain_words(bytes: &[u8]) -> Option<&'static str> {
    match sniff(bytes) {
        Some(NotText::Utf16) => {
            Some("it is saved as UTF-16 text; save it as UTF-8 and drop it again")
        }
        Some(NotText::Zip) => Some("it is a zip archive or a Word document, not a text file"),
        Some(NotText::Nul(_)) => Some(
            "it is not a text file (a PDF, an image, other binary data, or text saved as UTF-16?)",
        ),
        None => decode(bytes)
            .is_err()
            .then_some("it is not UTF-8 text; save it as UTF-8 and drop it again"),
    }
}

/// `n` and the noun in its number, as a person writes it: `1 entry`,
/// `0 entries`, `2 errors` (no "error(s)").
///
/// ```
/// use citegate_core::text::count;
/// assert_eq!(count(1, "paper", "papers"), "1 paper");
/// ```
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::{count, decode, decode_checked, in_plain_words};

    /// Guards the singular for exactly one (screens said "1 papers", "0 error(s)").
    #[test]
    fn counts_in_words() {
        for (n, expected) in [
            (0, "0 entries"),
            (1, "1 entry"),
            (2, "2 entries"),
            (21, "21 entries"),
        ] {
            assert_eq!(count(n, "entry", "entries"), expected);
        }
    }

    fn check_words(bytes: &[u8], expected: Option<&str>) {
        assert_eq!(in_plain_words(bytes), expected, "{bytes:?}");
        // Words exactly where decode refuses the bytes.
        assert_eq!(expected.is_some(), decode(bytes).is_err(), "{bytes:?}");
    }

    /// Guards the words a person reads for a dropped file that is not text:
    /// no offsets, one sentence per kind, none for text.
    #[test]
    fn unreadable_files_in_plain_words() {
        let binary = Some(
            "it is not a text file (a PDF, an image, other binary data, or text saved as UTF-16?)",
        );
        let utf16 = Some("it is saved as UTF-16 text; save it as UTF-8 and drop it again");
        check_words(b"", None);
        check_words(b"\xEF\xBB\xBF@misc{k}", None);
        check_words(b"@misc{k, title={\0}}", binary);
        check_words(b"\x89PNG\r\n\x1a\n\0\0", binary);
        check_words(b"\xFF\xFE@\0m\0", utf16);
        check_words(b"\xFE\xFF\0@\0m", utf16);
        check_words(
            b"PK\x03\x04word",
            Some("it is a zip archive or a Word document, not a text file"),
        );
        check_words(
            b"caf\xE9",
            Some("it is not UTF-8 text; save it as UTF-8 and drop it again"),
        );
    }

    /// `decode_checked` gives `decode`'s answer on text, a byte-order mark,
    /// and every kind of non-text, told by its caller that the bytes are
    /// UTF-8 without NUL when they are, or told nothing.
    #[test]
    fn decode_checked_agrees_with_decode() {
        let inputs: [&[u8]; 10] = [
            b"",
            b"plain \\cite{a}\n",
            b"\xEF\xBB\xBFwith a mark",
            b"\xEF\xBB\xBF",
            "caf\u{e9} \u{1F600}".as_bytes(),
            b"line\n\xFFbad",
            b"nul\n\0byte",
            b"\xFF\xFEu\0t\0f\0",
            b"PK\x03\x04zip",
            b"\xEF\xBB\xBFPK\x03\x04zip after a mark",
        ];
        for bytes in inputs {
            let want = decode(bytes).map(|t| bytes.len() - t.len());
            let checked = std::str::from_utf8(bytes).is_ok() && !bytes.contains(&0);
            assert_eq!(decode_checked(bytes, checked), want, "{bytes:?}");
            assert_eq!(decode_checked(bytes, false), want, "{bytes:?}");
        }
    }
}
