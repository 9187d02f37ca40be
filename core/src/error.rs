//! One error type for the whole core: a kind, a location and a message.
//!
//! Every fallible function in the core returns [`Error`]. The kind says what
//! went wrong in a way a program can match on; the location says where (file,
//! line and column, paper index, field); the message says it to a person, in
//! lowercase and without a trailing period.

use std::fmt;

/// What went wrong.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The input is not valid JSON.
    Json,
    /// The input is JSON, but not of the expected shape (wrong type, wrong container).
    Shape,
    /// A required field is absent or empty.
    MissingField,
    /// A field is present but its value cannot be used.
    InvalidValue,
    /// A date could not be parsed or does not exist (month 13, 2023-02-29).
    InvalidDate,
    /// A BibTeX file or entry could not be parsed.
    Bibtex,
    /// A LaTeX source could not be read.
    Tex,
    /// An API answered with an error body (rate limit, bad request, not found).
    Api,
    /// The input is not text (invalid UTF-8, a binary file).
    Encoding,
    /// A search query cannot be sent as it is.
    Query,
    /// The bytes are not a PDF file.
    NotPdf,
    /// The PDF is encrypted and its text cannot be read.
    PdfEncrypted,
    /// The PDF has no text layer (a scanned paper).
    PdfNoText,
    /// The PDF is damaged or truncated (the location names the page).
    PdfDamaged,
    /// The input is of a kind this build cannot read (a PDF without the PDF reader).
    Unsupported,
}

/// Where an error happened. Every part is optional; the ones known are set.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Location {
    /// The file's name, as the user gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub file: Option<String>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub line: Option<usize>,
    /// 1-based column.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub column: Option<usize>,
    /// 0-based index of the item (paper, candidate, entry) in its list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub index: Option<usize>,
    /// The field, e.g. `title` or `papers[3].authors`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub field: Option<String>,
    /// 1-based page of a PDF.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub page: Option<u32>,
}

impl Location {
    /// A location that names only a file.
    pub fn file(name: impl Into<String>) -> Self {
        Location {
            file: Some(name.into()),
            ..Location::default()
        }
    }

    /// This location with a 1-based line and column.
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// This location with an item index.
    pub fn index(mut self, index: usize) -> Self {
        self.index = Some(index);
        self
    }

    /// This location with a field name.
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    fn is_empty(&self) -> bool {
        self == &Location::default()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(file) = &self.file {
            let mut s = file.clone();
            if let Some(line) = self.line {
                s.push_str(&format!(":{line}"));
                if let Some(col) = self.column {
                    s.push_str(&format!(":{col}"));
                }
            }
            parts.push(s);
        } else if let Some(line) = self.line {
            match self.column {
                Some(col) => parts.push(format!("line {line}, column {col}")),
                None => parts.push(format!("line {line}")),
            }
        }
        if let Some(index) = self.index {
            parts.push(format!("item {index}"));
        }
        if let Some(field) = &self.field {
            parts.push(format!("field `{field}`"));
        }
        if let Some(page) = self.page {
            parts.push(format!("page {page}"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// An error of the core: what, where, and a sentence for a person.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "CoreError"))]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where it went wrong (boxed: it keeps `Result<T, Error>` small).
    pub location: Box<Location>,
    /// Lowercase, no trailing period.
    pub message: String,
}

impl Error {
    /// A new error with no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            location: Box::default(),
            message: message.into(),
        }
    }

    /// This error with its location replaced.
    pub fn at(mut self, location: Location) -> Self {
        *self.location = location;
        self
    }

    /// This error with the file name set (keeps line, index and field).
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.location.file = Some(file.into());
        self
    }

    /// Converts a `serde_json` error, keeping its line and column.
    pub fn json(err: &serde_json::Error) -> Self {
        let kind = match err.classify() {
            serde_json::error::Category::Data => ErrorKind::Shape,
            _ => ErrorKind::Json,
        };
        // serde_json appends " at line L column C"; the location carries that.
        let text = err.to_string();
        let text = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        let location = if err.line() > 0 {
            Location::default().at(err.line(), err.column())
        } else {
            Location::default()
        };
        Error {
            kind,
            location: Box::new(location),
            message: text,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.location, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// The core's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_and_field() {
        let e =
            Error::new(ErrorKind::MissingField, "title is missing")
                .at(Location::file("pool.json").at(3, 7).index(2).field("title"));
        assert_eq!(
            e.to_string(),
            "pool.json:3:7, item 2, field `title`: title is missing"
        );
    }

    #[test]
    fn json_error_keeps_line_and_column() {
        let err = serde_json::from_str::<serde_json::Value>("{\n  \"a\": ,\n}").unwrap_err();
        let e = Error::json(&err).in_file("x.json");
        assert_eq!(e.kind, ErrorKind::Json);
        assert_eq!(e.location.line, Some(2));
        assert!(e.to_string().starts_with("x.json:2:"), "{e}");
    }
}
