//! References read from a PDF's bytes: the text with its positions, the
//! lines in reading order, the bibliography found and split into
//! references, each with the page it starts on.
//!
//! Pure, like the rest of the core: the caller reads the file. The reader
//! is written here (no PDF crate) because the core must never panic and
//! must stay small in wasm32; ARCHITECTURE.md gives the measurements.
//!
//! | file | what it does |
//! |---|---|
//! | `object` | PDF objects and their lexer (file body and content streams) |
//! | `file` | objects found by a scan, object streams, pages, stream filters |
//! | `font` | codes to text (ToUnicode, encodings, glyph names) and widths |
//! | `glyphs` | glyph names to text; spacing accents to combining marks |
//! | `content` | a page's content stream to positioned glyphs |
//! | `layout` | glyphs to lines in reading order, running heads dropped |
//! | `refs` | the bibliography found and split; line-end hyphens |
//! | `hyphenate` | where TeX may break a word (Plain TeX's patterns) |

mod content;
mod file;
mod font;
mod glyphs;
mod hyphenate;
mod layout;
mod object;
mod refs;

pub use refs::{join_lines, PdfRef};

use crate::error::{Error, ErrorKind, Location};

/// What a PDF's bibliography holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PdfRefs {
    /// Pages in the file.
    pub pages: u32,
    /// The references in the order printed.
    pub references: Vec<PdfRef>,
}

/// The references of a PDF, from its bytes.
///
/// Errors: not a PDF ([`ErrorKind::NotPdf`]), encrypted
/// ([`ErrorKind::PdfEncrypted`]), no text on any page, as a scan
/// ([`ErrorKind::PdfNoText`]), and damaged or truncated where no page can
/// be read at all ([`ErrorKind::PdfDamaged`], with the page that failed).
/// A file damaged after its bibliography is read up to the damage.
pub fn references(bytes: &[u8]) -> Result<PdfRefs, Error> {
    let lines = text_lines(bytes)?;
    let vocabulary = refs::vocabulary(&lines.lines);
    Ok(PdfRefs {
        pages: lines.pages,
        references: refs::split(&lines.lines, &vocabulary),
    })
}

struct Lines {
    pages: u32,
    lines: Vec<layout::Line>,
}

/// The document's lines in reading order (the step before the bibliography).
fn text_lines(bytes: &[u8]) -> Result<Lines, Error> {
    let head = bytes.get(..1024).unwrap_or(bytes);
    if memchr::memmem::find(head, b"%PDF-").is_none() {
        return Err(Error::new(
            ErrorKind::NotPdf,
            "not a pdf file: it has no pdf header",
        ));
    }
    let doc = file::File::parse(bytes);
    if doc.encrypted() {
        return Err(Error::new(
            ErrorKind::PdfEncrypted,
            "the pdf is encrypted; save an unencrypted copy (print to pdf) and read that",
        ));
    }
    let pages = doc.pages();
    if pages.is_empty() {
        return Err(Error::new(
            ErrorKind::PdfDamaged,
            "no page could be found: the pdf is damaged or truncated",
        ));
    }
    let mut glyphs = Vec::with_capacity(pages.len());
    let mut first_failure = None;
    let mut fonts = content::Fonts::new();
    for (i, page) in pages.iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let content = page_content(&doc, page.dict);
        match content {
            Some(data) => glyphs.push(content::run(&doc, &data, page.resources, &mut fonts)),
            None => {
                first_failure.get_or_insert(number);
                glyphs.push(Vec::new());
            }
        }
    }
    let count = u32::try_from(pages.len()).unwrap_or(u32::MAX);
    if glyphs.iter().all(Vec::is_empty) {
        return Err(match first_failure {
            Some(page) => Error::new(
                ErrorKind::PdfDamaged,
                format!("page {page} cannot be read: the pdf is damaged or truncated"),
            )
            .at(Location { page: Some(page), ..Location::default() }),
            None => Error::new(
                ErrorKind::PdfNoText,
                "the pdf has no text layer (a scan?): run ocr on it first, or give the .bbl or the reference list as text",
            ),
        });
    }
    Ok(Lines {
        pages: count,
        lines: layout::read(&glyphs),
    })
}

/// A page's content streams joined, or `None` when one cannot be decoded.
fn page_content(doc: &file::File<'_>, page: &object::Dict) -> Option<Vec<u8>> {
    let parts: Vec<&object::Object> = match page.get(b"Contents".as_slice()) {
        Some(object::Object::Array(a)) => a.iter().collect(),
        Some(r @ object::Object::Ref(_)) => match doc.resolve(r) {
            object::Object::Array(a) => a.iter().collect(),
            _ => vec![r],
        },
        // A page with no content is empty, not damaged.
        _ => return Some(Vec::new()),
    };
    let mut data = Vec::new();
    for part in parts {
        data.extend(doc.stream(part).ok()?);
        data.push(b'\n');
    }
    Some(data)
}

#[cfg(test)]
mod tests;
