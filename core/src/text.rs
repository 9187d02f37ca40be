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
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(body).map_err(|e| {
        let offset = e.valid_up_to() + (bytes.len() - body.len());
        Error::new(
            ErrorKind::Encoding,
            format!("not UTF-8 text: invalid byte at offset {offset}"),
        )
        .at(at(bytes, offset))
    })
}

/// Line (1-based) and byte index of `offset` in `bytes`.
fn at(bytes: &[u8], offset: usize) -> Location {
    Location {
        line: Some(
            1 + bytes
                .get(..offset)
                .unwrap_or_default()
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
        ),
        index: Some(offset),
        ..Location::default()
    }
}

/// Names files that are clearly not UTF-8 text before decoding them: UTF-16
/// (by its byte-order mark), a zip archive (a `.docx` or `.zip` renamed), or
/// any file with a NUL byte (UTF-16 without a mark, or binary data), which
/// would otherwise decode as UTF-8 and give a page of meaningless problems.
fn not_text(bytes: &[u8]) -> Option<Error> {
    let message = if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        "not UTF-8 text: UTF-16 (byte-order mark at offset 0); save the file as UTF-8".to_string()
    } else if bytes.starts_with(b"PK\x03\x04") {
        "not text: a zip archive (a renamed .zip or .docx?)".to_string()
    } else {
        let nul = bytes.iter().position(|&b| b == 0)?;
        return Some(
            Error::new(
                ErrorKind::Encoding,
                format!("not text: NUL byte at offset {nul} (UTF-16 or binary data?)"),
            )
            .at(at(bytes, nul)),
        );
    };
    Some(Error::new(ErrorKind::Encoding, message).at(at(bytes, 0)))
}
