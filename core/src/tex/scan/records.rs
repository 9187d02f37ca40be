//! What a scan records: cites as spans and indices, their views, lines, places, includes, and the `Scan` itself with its serialized form.

use super::*;
use serde::Serialize;

/// One cited key, where it stands, and the command that cited it: a record
/// of spans and indices, no text of its own. Its key and command are read
/// through the [`Scan`] that found it ([`Scan::key`], [`Scan::command`],
/// or the views of [`Scan::cites`]), so a draft of 100,000 cites costs no
/// allocation per cite.
///
/// 32 bytes: lines and columns are kept as `u32` (a source of more than four
/// billion lines, or a line of more than four billion characters, reads
/// `u32::MAX` past that point), and the `\nocite` flag shares a word with
/// the command's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cite {
    /// Byte offset of the key's first byte in the source.
    pub(super) start: usize,
    /// Byte offset one past the key's last byte in the source.
    pub(super) end: usize,
    /// 1-based line of the key's first character.
    pub(super) line: u32,
    /// 1-based column (in characters) of the key's first character.
    pub(super) column: u32,
    /// Where the key's text is: [`IN_SOURCE`] for the bytes `start..end`
    /// of the source, else an index into [`Scan::written`] (a key broken by
    /// a comment, or a wrapper's fixed key).
    pub(super) key: u32,
    /// Index into [`Scan::commands`], with [`NOCITE`] set for a `\nocite`.
    pub(super) command: u32,
}

/// The bit of [`Cite::command`] that marks a `\nocite`.
pub(super) const NOCITE: u32 = 1 << 31;

impl Cite {
    pub(super) fn new(start: usize, end: usize, key: u32, command: u32, nocite: bool) -> Cite {
        Cite {
            start,
            end,
            line: 0,
            column: 0,
            key,
            command: (command & !NOCITE) | if nocite { NOCITE } else { 0 },
        }
    }

    /// Byte offset of the key's first byte in the source.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Byte offset one past the key's last byte in the source.
    pub fn end(&self) -> usize {
        self.end
    }

    /// 1-based line of the key's first character.
    pub fn line(&self) -> usize {
        self.line as usize
    }

    /// 1-based column (in characters) of the key's first character.
    pub fn column(&self) -> usize {
        self.column as usize
    }

    /// True when the command only adds the key to the bibliography
    /// (`\nocite`, apacite's `\nocitemeta`, or a wrapper of one): the paper
    /// is listed, not cited in the text, so it does not count toward the gate.
    pub fn nocite(&self) -> bool {
        self.command & NOCITE != 0
    }

    pub(super) fn command_index(&self) -> usize {
        (self.command & !NOCITE) as usize
    }

    pub(super) fn set_place(&mut self, p: Place) {
        self.line = u32::try_from(p.line).unwrap_or(u32::MAX);
        self.column = u32::try_from(p.column).unwrap_or(u32::MAX);
    }
}

/// [`Cite::key`] for a key that is the source's bytes `start..end`.
pub(super) const IN_SOURCE: u32 = u32::MAX;

/// A cite with its key and command as text, borrowed from its [`Scan`].
/// Serialized as the cite records of `cites --json` have always been.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cited<'a> {
    /// The key as written, without surrounding spaces (a comment inside it
    /// and the next line's leading spaces dropped, as TeX reads it).
    pub key: &'a str,
    /// The command's name without the backslash, with a trailing `*` if starred
    /// (`citep`, `citet*`, `parencites`).
    pub command: &'a str,
    /// 1-based line of the key's first character.
    pub line: usize,
    /// 1-based column (in characters) of the key's first character.
    pub column: usize,
    /// Byte offset of the key's first byte in the source.
    pub start: usize,
    /// Byte offset one past the key's last byte in the source.
    pub end: usize,
    /// True for `\nocite` and commands like it (see [`Cite::nocite`]).
    pub nocite: bool,
}

impl Cited<'_> {
    /// The same cite with its own copies of the key and command.
    pub fn to_owned_cite(&self) -> OwnedCite {
        OwnedCite {
            key: self.key.to_string(),
            command: self.command.to_string(),
            line: self.line,
            column: self.column,
            start: self.start,
            end: self.end,
            nocite: self.nocite,
        }
    }
}

/// A [`Cited`] that owns its text ([`extract_cites`]), for a short text or
/// a caller that keeps the cites without the scan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "Cite"))]
pub struct OwnedCite {
    /// See [`Cited::key`].
    pub key: String,
    /// See [`Cited::command`].
    pub command: String,
    /// 1-based line of the key's first character.
    pub line: usize,
    /// 1-based column (in characters) of the key's first character.
    pub column: usize,
    /// Byte offset of the key's first byte in the source.
    pub start: usize,
    /// Byte offset one past the key's last byte in the source.
    pub end: usize,
    /// True for `\nocite` and commands like it.
    pub nocite: bool,
}

/// A cite handed to a [`Visit`] as the scan finds it: what a [`Cited`]
/// holds but its line and column, which cost a walk over the source that a
/// visitor needing few of them makes itself ([`Lines`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found<'a> {
    /// See [`Cited::key`].
    pub key: &'a str,
    /// Byte offset of the key's first byte in the source (for a wrapper's
    /// fixed key, of the wrapper's backslash).
    pub start: usize,
    /// True for `\nocite` and commands like it (see [`Cite::nocite`]).
    pub nocite: bool,
}

/// What a streamed scan ([`visit()`]) hands each cite to, instead of
/// keeping a record of it.
pub trait Visit {
    /// One cite of `source`. The cites come in the order and number of
    /// [`Scan::cites`]: by offset, each once.
    fn cite(&mut self, source: &str, cite: Found<'_>);
}

/// 1-based line numbers of byte offsets asked in increasing order, counted
/// from the last offset asked (newlines counted in bulk, no columns), so a
/// visitor that needs the lines of a few cites pays for one walk at most.
/// An offset before the last one starts the count over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lines {
    pub(super) at: usize,
    pub(super) newlines: usize,
}

impl Lines {
    /// The line of `offset` in `source` (offsets past the end count as the end).
    ///
    /// ```
    /// let mut lines = citegate_core::tex::Lines::default();
    /// assert_eq!(lines.line("a\nb\nc", 2), 2);
    /// assert_eq!(lines.line("a\nb\nc", 4), 3);
    /// assert_eq!(lines.line("a\nb\nc", 0), 1);
    /// ```
    pub fn line(&mut self, source: &str, offset: usize) -> usize {
        let b = source.as_bytes();
        if offset < self.at || self.at > b.len() {
            *self = Lines::default();
        }
        let to = offset.min(b.len()).max(self.at);
        let between = b.get(self.at..to).unwrap_or(&[]);
        self.newlines += count_newlines(between);
        self.at = to;
        self.newlines + 1
    }
}

/// The newlines in `b`, counted a machine word at a time.
///
/// A visitor asks for the lines of cites a few hundred bytes apart, and on
/// such stretches `memchr`'s count spends more on its call, its alignment
/// and its byte-at-a-time ends than on the bytes (measured in
/// BENCHMARKS.md, sixth pass). Here each word's newline bytes become 1s in
/// a word of byte counters, summed once every 255 words.
pub(super) fn count_newlines(b: &[u8]) -> usize {
    pub(super) const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    pub(super) const NEWLINES: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    pub(super) const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    pub(super) const LANES: u64 = 0x0001_0001_0001_0001;
    let mut total = 0usize;
    let mut words = b.chunks_exact(8);
    loop {
        let mut counters = 0u64;
        let mut n = 0;
        for w in words.by_ref() {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            let x = u64::from_le_bytes(word) ^ NEWLINES;
            // The high bit of each byte of `x` that is zero, exactly.
            let zero = !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
            counters += zero >> 7;
            n += 1;
            if n == 255 {
                break;
            }
        }
        // Eight counters of at most 255: summed as four of 16 bits.
        let pairs = (counters & LOW_BYTES) + ((counters >> 8) & LOW_BYTES);
        total += (pairs.wrapping_mul(LANES) >> 48) as usize;
        if n < 255 {
            break;
        }
    }
    total + words.remainder().iter().filter(|&&c| c == b'\n').count()
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Place {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// An `\input{…}`, `\include{…}`, `\import{dir/}{file}`, `\subimport{…}{…}`
/// or `\subfile{…}` found in a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Include {
    /// The file name as written (trimmed); for the `import` package's
    /// commands, the file argument alone.
    pub name: String,
    /// `input`, `include`, `subfile`, `import`, `subimport`, `inputfrom`,
    /// `includefrom`, `subinputfrom` or `subincludefrom`.
    pub command: String,
    /// The directory argument of the `import` package's commands: the
    /// imported file and the files it includes are read from there.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub dir: Option<String>,
    /// 1-based line of the command.
    pub line: usize,
    /// 1-based column of the command's backslash.
    pub column: usize,
}

/// Everything the scanner found in one source, and the source itself (the
/// cites' keys are spans of it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Every cited key, in source order (repeats kept): [`Scan::cites`].
    pub(super) cites: Vec<Cite>,
    /// Where `\nocite{*}` occurs; it cites the whole bibliography, not a key.
    pub nocite_all: Vec<Place>,
    /// `\input` and `\include` commands, in source order.
    pub includes: Vec<Include>,
    /// Cite commands this source defines (`\newcommand{\mycite}[1]{\citep{#1}}`,
    /// `\let\pc\citep`, `\DeclareCiteCommand{\mycite}…`), in source order.
    /// A project passes them on to its other files.
    pub definitions: Vec<Definition>,
    /// Keys written in the bodies of definitions (`\newcommand{\classics}{\citep{a,b}}`),
    /// with their places. They are not cites of the document (LaTeX cites
    /// them where the command is used), but [`super::sync_keys`] rewrites
    /// them: [`Scan::in_definitions`].
    pub(super) in_definitions: Vec<Cite>,
    /// The source scanned.
    pub(super) source: String,
    /// Each command that cites, once, as [`Cited::command`] gives it.
    pub(super) commands: Vec<String>,
    /// The keys that are not one run of the source's bytes, each once.
    pub(super) written: Vec<String>,
}

impl Scan {
    /// Every cited key, in source order (repeats kept), with its text.
    pub fn cites(&self) -> impl ExactSizeIterator<Item = Cited<'_>> + Clone + '_ {
        self.cites.iter().map(|c| self.view(c))
    }

    /// The keys written in definitions' bodies (see [`Scan::cites`]).
    pub fn in_definitions(&self) -> impl ExactSizeIterator<Item = Cited<'_>> + Clone + '_ {
        self.in_definitions.iter().map(|c| self.view(c))
    }

    /// The cite records themselves, without their text.
    pub fn cite_records(&self) -> &[Cite] {
        &self.cites
    }

    /// The source that was scanned.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Gives the source back, dropping what was found in it.
    pub fn into_source(self) -> String {
        self.source
    }

    /// The key of a cite this scan found ("" for a cite of another scan
    /// whose span does not fit this source).
    pub fn key(&self, c: &Cite) -> &str {
        key_text(&self.source, &self.written, c)
    }

    /// The command of a cite this scan found.
    pub fn command(&self, c: &Cite) -> &str {
        self.commands
            .get(c.command_index())
            .map_or("", String::as_str)
    }

    /// A cite with its text.
    pub fn view<'s>(&'s self, c: &Cite) -> Cited<'s> {
        Cited {
            key: self.key(c),
            command: self.command(c),
            line: c.line(),
            column: c.column(),
            start: c.start,
            end: c.end,
            nocite: c.nocite(),
        }
    }
}

/// The text of a cite's key, in `source` or among the `written` keys.
pub(super) fn key_text<'s>(source: &'s str, written: &'s [String], c: &Cite) -> &'s str {
    if c.key == IN_SOURCE {
        source.get(c.start..c.end).unwrap_or("")
    } else {
        written.get(c.key as usize).map_or("", String::as_str)
    }
}

/// The cites of a scan, serialized with their text.
pub(super) struct Views<'a>(&'a Scan, &'a [Cite]);

impl Serialize for Views<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|c| self.0.view(c)))
    }
}

impl Serialize for Scan {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The fields as they have always been written; not the source.
        #[derive(Serialize)]
        struct Wire<'a> {
            cites: Views<'a>,
            nocite_all: &'a [Place],
            includes: &'a [Include],
            definitions: &'a [Definition],
            in_definitions: Views<'a>,
        }
        Wire {
            cites: Views(self, &self.cites),
            nocite_all: &self.nocite_all,
            includes: &self.includes,
            definitions: &self.definitions,
            in_definitions: Views(self, &self.in_definitions),
        }
        .serialize(s)
    }
}
