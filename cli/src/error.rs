//! The CLI's one error type: every subcommand returns it to `main`, which
//! prints it once (`error: …` on stderr) and exits with its code.
//!
//! An error says what went wrong (its [`Kind`]), where (a flag, and the
//! core's [`Location`]: file, line, column, item, field) and a lowercase
//! sentence with no trailing period.

use citegate_core::Location;
use std::fmt;
use std::path::Path;

/// Exit code: the check passed.
pub const PASS: u8 = 0;
/// Exit code: the check ran and failed.
pub const FAIL: u8 = 1;
/// Exit code: bad input or usage.
pub const BAD_INPUT: u8 = 2;

/// Exit code when stdout is closed early (`citegate … | head`): 128 + SIGPIPE,
/// what a shell reports for a C tool killed by the same signal.
pub const BROKEN_PIPE: u8 = 141;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A flag, or a combination of flags, the command cannot use.
    Usage,
    /// A file or directory could not be read.
    Read,
    /// A file could not be written.
    Write,
    /// A file was read but its content cannot be used (the core's kind).
    Input(citegate_core::ErrorKind),
    /// A request could not be built or sent as configured (bad settings,
    /// no client).
    Service,
    /// The check ran and could not finish: the inputs held nothing to work
    /// on (no papers, no accepted candidate), or a service answered with an
    /// error. Exit 1, as for a failed check.
    Failed,
}

/// An error of a subcommand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: Kind,
    /// The flag the error is about, as typed (`--cutoff`), if any.
    pub flag: Option<String>,
    /// Where in a file it went wrong; empty when no file is involved
    /// (boxed, as the core's: it keeps `Result<T, Error>` small).
    pub location: Box<Location>,
    /// Lowercase, no trailing period.
    pub message: String,
    /// Further errors of the same run (several input files), in order.
    pub more: Vec<Error>,
}

impl Error {
    fn new(kind: Kind, message: impl Into<String>) -> Self {
        Error {
            kind,
            flag: None,
            location: Box::default(),
            message: message.into(),
            more: Vec::new(),
        }
    }

    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Error::new(Kind::Usage, message)
    }

    /// A usage error about one flag: printed as `--flag: message`.
    pub fn flag(flag: &str, message: impl fmt::Display) -> Self {
        Error::usage(message.to_string()).with_flag(flag)
    }

    /// A service that cannot be used as configured (exit 2).
    pub fn service(message: impl Into<String>) -> Self {
        Error::new(Kind::Service, message)
    }

    /// A check that ran and could not finish (exit 1).
    pub fn failed(message: impl Into<String>) -> Self {
        Error::new(Kind::Failed, message)
    }

    /// A file that could not be read.
    pub fn read(path: &Path, err: &std::io::Error) -> Self {
        Error::new(Kind::Read, io_message(err)).in_file(path)
    }

    /// A file that could not be written.
    pub fn write(path: &Path, err: &std::io::Error) -> Self {
        Error::new(Kind::Write, io_message(err)).in_file(path)
    }

    /// A core error about the content of `path`.
    pub fn input(path: &Path, err: citegate_core::Error) -> Self {
        Error::core(err).in_file(path)
    }

    /// A core error, keeping its kind and location.
    pub fn core(err: citegate_core::Error) -> Self {
        Error {
            kind: Kind::Input(err.kind),
            flag: None,
            location: err.location,
            message: err.message,
            more: Vec::new(),
        }
    }

    /// This error about the content of `path`, of an input kind.
    pub fn content(
        path: &Path,
        kind: citegate_core::ErrorKind,
        message: impl Into<String>,
    ) -> Self {
        Error::new(Kind::Input(kind), message).in_file(path)
    }

    /// This error with the file set (keeps line, item and field).
    pub fn in_file(mut self, path: &Path) -> Self {
        self.location.file = Some(path.display().to_string());
        self
    }

    /// This error with the flag set.
    pub fn with_flag(mut self, flag: &str) -> Self {
        self.flag = Some(flag.to_string());
        self
    }

    /// Several errors as one (each printed on its own `error:` line), or
    /// `None` when there are none.
    pub fn all(errors: Vec<Error>) -> Option<Error> {
        let mut errors = errors.into_iter();
        let mut first = errors.next()?;
        first.more.extend(errors);
        Some(first)
    }

    /// The exit code: 1 when the check ran and could not finish, 2
    /// for bad input or usage.
    pub fn exit_code(&self) -> u8 {
        std::iter::once(self)
            .chain(&self.more)
            .map(|e| match e.kind {
                Kind::Failed => FAIL,
                _ => BAD_INPUT,
            })
            .max()
            .unwrap_or(BAD_INPUT)
    }
}

fn io_message(err: &std::io::Error) -> String {
    err.to_string().to_lowercase()
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(flag) = &self.flag {
            write!(f, "{flag}: ")?;
        }
        let verb = match self.kind {
            Kind::Read => Some("cannot read"),
            Kind::Write => Some("cannot write"),
            _ => None,
        };
        let place = self.location.to_string();
        match (verb, place.is_empty()) {
            (Some(verb), true) => write!(f, "{verb}: {}", self.message),
            (Some(verb), false) => write!(f, "{verb} {place}: {}", self.message),
            (None, true) => f.write_str(&self.message),
            (None, false) => write!(f, "{place}: {}", self.message),
        }?;
        for e in &self.more {
            write!(f, "\nerror: {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<citegate_core::Error> for Error {
    fn from(err: citegate_core::Error) -> Self {
        Error::core(err)
    }
}

/// A subcommand's result: the exit code of a check that ran (0 pass,
/// 1 fail), or the error `main` prints.
pub type Outcome = Result<u8, Error>;

#[cfg(test)]
mod tests {
    use super::*;
    use citegate_core::ErrorKind;

    fn check(e: Error, shown: &str, code: u8) {
        assert_eq!(e.to_string(), shown);
        assert_eq!(e.exit_code(), code);
    }

    #[test]
    fn errors_name_their_kind_and_place() {
        let nf = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        check(
            Error::read(Path::new("a.tex"), &nf),
            "cannot read a.tex: no such file",
            2,
        );
        check(
            Error::write(Path::new("o.bib"), &nf),
            "cannot write o.bib: no such file",
            2,
        );
        check(Error::flag("--cutoff", "month 13"), "--cutoff: month 13", 2);
        check(
            Error::usage("give --cutoff or --detect"),
            "give --cutoff or --detect",
            2,
        );
        check(
            Error::failed("no candidate was accepted"),
            "no candidate was accepted",
            1,
        );
        check(
            Error::input(
                Path::new("pool.json"),
                citegate_core::Error::new(ErrorKind::MissingField, "title is missing")
                    .at(Location::default().at(3, 7).field("title")),
            ),
            "pool.json:3:7, field `title`: title is missing",
            2,
        );
        let two = Error::all(vec![Error::usage("a"), Error::failed("b")]);
        check(two.expect("two errors"), "a\nerror: b", 2);
        assert_eq!(Error::all(Vec::new()), None);
        check(
            Error::content(Path::new("r.json"), ErrorKind::Shape, "expected an object"),
            "r.json: expected an object",
            2,
        );
    }
}
