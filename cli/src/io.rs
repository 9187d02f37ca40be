//! Reading inputs and printing results, shared by every subcommand.

use crate::error::Error;
use serde_json::Value;
use std::path::Path;

pub use crate::error::{BAD_INPUT, BROKEN_PIPE, FAIL, PASS};

/// Writes to stdout; a closed pipe (`citegate … | head`) ends the process
/// quietly with [`BROKEN_PIPE`], told by the error's kind.
///
/// Rust ignores SIGPIPE, so a write to a closed pipe is an error rather than
/// a signal; `println!` would turn it into a panic. Every subcommand prints
/// through [`outln!`] and [`out!`], which come here.
pub fn write_out(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(i32::from(BROKEN_PIPE));
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(i32::from(BAD_INPUT));
    }
}

/// `println!` through [`write_out`].
macro_rules! outln {
    () => {
        $crate::io::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::io::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` through [`write_out`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::io::write_out(format_args!($($arg)*))
    };
}

pub(crate) use {out, outln};

/// Reads a file as UTF-8 text through the core's [`citegate_core::text::decode`]
/// (a byte-order mark skipped; UTF-16, zip archives and binary files named,
/// a broken byte located by line and column).
pub fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::read(path, &e))?;
    // Taken over, not copied: a 5 MB draft is validated once.
    citegate_core::text::decode_owned(bytes).map_err(|e| Error::input(path, e))
}

/// Included files (`\input`, `\include`, …) read from disk for a project
/// scan, through [`read_text`] like every other input. An absent file is
/// `None`, which the core reports as a missing include; a file that exists
/// but is not text (not UTF-8 at some byte, UTF-16, binary) is kept as an
/// error that [`Includes::finish`] returns after the scan, so it is named
/// with its reason and never passes for a missing file.
#[derive(Default)]
pub struct Includes {
    failed: Option<Error>,
}

impl Includes {
    /// The text of the include `name`, or `None` (see the type).
    pub fn load(&mut self, name: &str) -> Option<String> {
        let path = Path::new(name);
        if !path.is_file() {
            return None;
        }
        match read_text(path) {
            Ok(text) => Some(text),
            Err(e) => {
                self.failed.get_or_insert(e);
                None
            }
        }
    }

    /// The first include that exists but could not be read, as an error.
    pub fn finish(self) -> Result<(), Error> {
        self.failed.map_or(Ok(()), Err)
    }
}

/// A JSON syntax or shape error in `path`, with its line and column.
pub fn json_error(path: &Path, err: &serde_json::Error) -> Error {
    Error::input(path, citegate_core::Error::json(err))
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(s) => outln!("{s}"),
        Err(e) => eprintln!("error: cannot serialize output: {e}"),
    }
}

/// The key recorded responses are filed under: lowercase letters and digits only.
pub fn response_key(title: &str) -> String {
    title
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect()
}

/// Splits a recorded value into (status, body text).
pub fn recorded(value: &Value) -> (Option<u16>, String) {
    if let Value::Object(m) = value {
        if let (Some(status), Some(body)) = (m.get("status"), m.get("body")) {
            let status = status.as_u64().and_then(|s| u16::try_from(s).ok());
            let body = match body {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            return (status, body);
        }
    }
    (None, value.to_string())
}

/// Reads recorded responses: a JSON object keyed by title, or a directory of
/// `<key>.json` files (the key is the file stem).
pub fn load_responses(path: &Path) -> Result<Vec<(String, Value)>, Error> {
    if path.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| Error::read(path, &e))?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let p = entry.path();
            if p.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let Some(stem) = p.file_stem().and_then(|s| s.to_str()).map(str::to_string) else {
                continue;
            };
            let text = read_text(&p)?;
            let value: Value = serde_json::from_str(&text).map_err(|e| json_error(&p, &e))?;
            out.push((stem, value));
        }
        Ok(out)
    } else {
        let text = read_text(path)?;
        let value: Value = serde_json::from_str(&text).map_err(|e| json_error(path, &e))?;
        match value {
            Value::Object(m) => Ok(m.into_iter().collect()),
            _ => Err(Error::content(
                path,
                citegate_core::ErrorKind::Shape,
                "expected a JSON object mapping titles to responses",
            )),
        }
    }
}
