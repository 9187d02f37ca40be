//! A tolerant `.bib` reader: every entry that can be read is read, every
//! one that cannot is reported with its line, and nothing panics.
//!
//! We wrote this parser instead of using a crate because none of the two
//! candidates keeps going after a bad entry *and* reads all of our corpus.
//! Measured on the 246 files of `tests/fixtures/bib-corpus`: typst's
//! `biblatex` 0.12 returns one `ParseError` for the whole file at the first
//! mistake (a file with one entry missing its `}` yields zero entries), it
//! rejected 8 of the first 78 corpus files outright, and it overflowed the
//! stack on `biber/bibtex-aliases.bib`, which aborts the process. The
//! `bibtex-parser` 0.4 crate has a tolerant mode that skips bad blocks, but it
//! still rejected a whole file (`python-bibtexparser/features2.bib`, whose
//! `@string` names are used in another letter case) and exposes neither the
//! repeated fields nor the source text of each value, which the format checks
//! and the display need. A BibTeX reader is small: the grammar is `@type`,
//! an opening `{` or `(`, a key, and `name = value # value …` pairs.
//!
//! Recovery works on two levels. Inside an entry, a missing comma between
//! two fields is reported and the parse goes on; an entry cut short by the
//! next `@` at the start of a line (the common "missing closing brace") is
//! kept and reported. Anything worse ends that entry only: as BibTeX does,
//! an entry whose key was read is kept with the fields read before the
//! error (a [`ProblemKind::Damaged`] problem), one broken before its key is
//! dropped; the error names its line and column, and the scan resumes at the
//! next `@` that starts a line, so one bad entry never loses the rest of the
//! file. The key is read as BibTeX reads it (up to a comma, a space or the
//! closing delimiter), and a `%` between the parts of an entry starts a
//! comment, as biber reads it. A braced or quoted value that
//! would run over such a line-start `@type{` is cut there, which stops one
//! unbalanced brace from swallowing every entry after it. Braces are counted,
//! never recursed into, so no input can exhaust the stack.
//!
//! Values keep their LaTeX as written (after `@string` expansion and `#`
//! concatenation, outer delimiters removed) for display;
//! [`Entry::decoded`] gives the text decoded with [`crate::latex::decode`]
//! for matching.

use crate::error::{Error, ErrorKind, Location, Result};

/// A parsed `.bib` file: its entries and everything reported while reading it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Bibliography {
    /// The regular entries (`@article`, `@book`, …), in file order.
    pub entries: Vec<Entry>,
    /// `@string` macros, names lowercased, in definition order.
    pub strings: Vec<(String, String)>,
    /// The values of `@preamble` blocks.
    pub preambles: Vec<String>,
    /// The bodies of `@comment` blocks.
    pub comments: Vec<String>,
    /// Problems met while reading: broken entries, repeated fields,
    /// undefined macros. Reading never stops at one.
    pub problems: Vec<Problem>,
}

/// What kind of problem the reader met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The entry could not be read and was dropped.
    Syntax,
    /// The entry ran into the next `@` without its closing delimiter; kept.
    Unclosed,
    /// Two fields without a comma between them; both kept.
    MissingComma,
    /// An entry without a citation key; kept with an empty key.
    MissingKey,
    /// A field given twice in one entry; the first value kept.
    RepeatedField,
    /// A bare word that names no `@string`; kept as text.
    UndefinedMacro,
    /// The entry broke after its key was read; kept with the fields read
    /// before the error, as BibTeX keeps it, and the rest of it skipped.
    Damaged,
    /// The file is not UTF-8; it was read as an 8-bit encoding (named in
    /// the message), so accented letters may be wrong.
    Encoding,
    /// A braced `@comment` holds entries that start lines: they are read,
    /// as BibTeX reads them, though biber skips the whole block.
    CommentHoldsEntries,
}

impl ProblemKind {
    /// Whether the file is still read as its author meant (warning) or an
    /// entry was lost or cut (error).
    pub fn is_error(self) -> bool {
        matches!(
            self,
            ProblemKind::Syntax | ProblemKind::Unclosed | ProblemKind::Damaged
        )
    }
}

/// A problem met while reading, with its typed error (kind
/// [`ErrorKind::Bibtex`], line and column set).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "BibProblem"))]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Where and what, for a person.
    pub error: Error,
}

/// One entry: type, citation key and fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "BibEntry"))]
pub struct Entry {
    /// The entry type, lowercased (`article`, `inproceedings`, …).
    pub kind: String,
    /// The citation key, as written.
    pub key: String,
    /// 1-based line of the `@`.
    pub line: usize,
    /// The fields in file order; a repeated field keeps its first value
    /// (as BibTeX does) and the repetition is reported in
    /// [`Bibliography::problems`].
    pub fields: Vec<Field>,
    /// The entry was parsed from a paper's reference text (a `.bbl`, a
    /// list, a PDF), not written as BibTeX: the verdict rules allow for
    /// what a parse loses (`crate::paper`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub parsed: bool,
}

/// One `name = value` pair.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "BibField"))]
pub struct Field {
    /// The field name, lowercased.
    pub name: String,
    /// The value with macros expanded, `#` parts joined and the outer
    /// delimiters removed; LaTeX kept as written.
    pub value: String,
    /// The value expression exactly as in the source (`"John " # name`).
    pub raw: String,
    /// 1-based line where the field's name starts.
    pub line: usize,
}

impl Entry {
    /// The value of a field (name case-insensitive), LaTeX kept.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
            .map(|f| f.value.as_str())
    }

    /// The value of a field decoded from LaTeX to Unicode, each run of white
    /// space (a title wrapped over lines) one space as BibTeX prints it, and
    /// trimmed; `None` when absent or blank.
    pub fn decoded(&self, name: &str) -> Option<String> {
        let v = crate::latex::decode(self.get(name)?);
        let mut one_line = String::with_capacity(v.len());
        for word in v.split_whitespace() {
            if !one_line.is_empty() {
                one_line.push(' ');
            }
            one_line.push_str(word);
        }
        (!one_line.is_empty()).then_some(one_line)
    }

    /// Whether a field is present with a non-blank value.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| {
            v.chars()
                .any(|c| !c.is_whitespace() && c != '{' && c != '}')
        })
    }
}

/// Reads a `.bib` file given as bytes. A file that is not UTF-8 is read as
/// Windows-1252 or Latin-1 (BibTeX reads bytes, so such files work with
/// it), with an [`ProblemKind::Encoding`] warning first that names the
/// encoding and the line and column of the first byte that is not UTF-8.
/// UTF-16, zip archives and NUL bytes are an [`ErrorKind::Encoding`] error
/// that names them. A UTF-8 byte-order mark is skipped.
///
/// ```
/// use citegate_core::bibtex::parse::{parse_bytes, ProblemKind};
/// let bib = parse_bytes(b"@misc{a, title={caf\xe9}}").unwrap();
/// assert_eq!(bib.entries[0].get("title"), Some("caf\u{e9}"));
/// assert_eq!(bib.problems[0].kind, ProblemKind::Encoding);
/// assert!(bib.problems[0].error.message.contains("latin-1"));
/// ```
pub fn parse_bytes(bytes: &[u8]) -> Result<Bibliography> {
    let (text, warning) = crate::text::decode_or_8bit(bytes)?;
    let mut bib = parse(&text);
    if let Some(error) = warning {
        bib.problems.insert(
            0,
            Problem {
                kind: ProblemKind::Encoding,
                error,
            },
        );
    }
    Ok(bib)
}

/// Reads a `.bib` file. Never fails: problems are collected in
/// [`Bibliography::problems`].
///
/// ```
/// let bib = citegate_core::bibtex::parse::parse(
///     "@string{n = \"Knuth\"}\n@book{k, author = \"D. \" # n, title = {The {\\TeX}book}}",
/// );
/// assert_eq!(bib.entries[0].get("author"), Some("D. Knuth"));
/// assert_eq!(bib.entries[0].decoded("title").as_deref(), Some("The TeXbook"));
/// ```
pub fn parse(text: &str) -> Bibliography {
    Incremental::new(text).finish()
}

/// [`parse`] of a file read after others in one database (BibTeX's
/// `\bibliography{abbrev,refs}`): the `@string` macros `earlier` files
/// defined, in definition order, are known from the start. The result's
/// `strings` holds this file's own definitions only.
///
/// ```
/// let abbrev = citegate_core::bibtex::parse::parse("@string{aij = {Artificial Intelligence}}");
/// let refs = citegate_core::bibtex::parse::parse_after("@article{a, journal = aij}", &abbrev.strings);
/// assert_eq!(refs.entries[0].get("journal"), Some("Artificial Intelligence"));
/// assert!(refs.problems.is_empty() && refs.strings.is_empty());
/// ```
pub fn parse_after(text: &str, earlier: &[(String, String)]) -> Bibliography {
    let mut p = Incremental::new(text);
    p.parser.macros = earlier.to_vec();
    p.finish()
}

/// A parse run a slice at a time, for callers that must not block for the
/// whole file (the browser page yields to the event loop between slices).
/// Any sequence of [`Incremental::step`] calls followed by
/// [`Incremental::finish`] gives exactly what [`parse`] gives.
///
/// ```
/// use citegate_core::bibtex::parse::{parse, Incremental};
/// let text = "@misc{a, title={A}}\n@misc{b, title={B}}\n";
/// let mut p = Incremental::new(text);
/// while !p.step(1) {}
/// assert_eq!(p.finish(), parse(text));
/// ```
pub struct Incremental<'a> {
    parser: Parser<'a>,
}

impl<'a> Incremental<'a> {
    /// Prepares to read `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Incremental {
            parser: Parser {
                src: text.as_bytes(),
                text,
                pos: 0,
                line_starts: line_starts(text),
                bib: Bibliography::default(),
                macros: Vec::new(),
            },
        }
    }

    /// Reads whole items until at least `budget` more bytes are behind
    /// (one item at least, however large); `true` once the text is done.
    pub fn step(&mut self, budget: usize) -> bool {
        let p = &mut self.parser;
        let stop = p.pos.saturating_add(budget.max(1));
        while p.pos < p.src.len() && p.pos < stop {
            p.item();
        }
        p.pos >= p.src.len()
    }

    /// Bytes read so far and the text's length in bytes.
    pub fn progress(&self) -> (usize, usize) {
        (
            self.parser.pos.min(self.parser.src.len()),
            self.parser.src.len(),
        )
    }

    /// Entries read so far.
    pub fn entries_so_far(&self) -> usize {
        self.parser.bib.entries.len()
    }

    /// Reads the rest and returns the bibliography.
    pub fn finish(mut self) -> Bibliography {
        self.parser.run();
        self.parser.bib
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(
        text.bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    v
}

const MONTHS: [(&str, &str); 12] = [
    ("jan", "January"),
    ("feb", "February"),
    ("mar", "March"),
    ("apr", "April"),
    ("may", "May"),
    ("jun", "June"),
    ("jul", "July"),
    ("aug", "August"),
    ("sep", "September"),
    ("oct", "October"),
    ("nov", "November"),
    ("dec", "December"),
];

/// Why an entry could not be read; the caller turns it into an [`Error`].
struct Broken {
    pos: usize,
    message: String,
    /// The entry was kept with what was read before the break.
    kept: bool,
}

type Step<T> = std::result::Result<T, Broken>;

struct Parser<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    line_starts: Vec<usize>,
    bib: Bibliography,
    macros: Vec<(String, String)>,
}

/// Bytes that cannot be part of a type, key-less identifier or field name.
fn is_name_byte(b: u8) -> bool {
    !(b.is_ascii_whitespace()
        || matches!(
            b,
            b'{' | b'}' | b'(' | b')' | b',' | b'=' | b'"' | b'#' | b'%' | b'\''
        ))
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn slice(&self, a: usize, b: usize) -> &'a str {
        self.text.get(a..b).unwrap_or_default()
    }

    fn line_of(&self, pos: usize) -> usize {
        match self.line_starts.binary_search(&pos) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    fn location(&self, pos: usize) -> Location {
        let line = self.line_of(pos);
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let column = self.slice(start, pos).chars().count() + 1;
        Location::default().at(line, column)
    }

    fn problem(&mut self, kind: ProblemKind, pos: usize, message: String) {
        let error = Error::new(ErrorKind::Bibtex, message).at(self.location(pos));
        self.bib.problems.push(Problem { kind, error });
    }

    /// Skips whitespace and `%` comments outside values. BibTeX has no
    /// comment syntax inside entries, but biber reads a `%` to the end of
    /// the line as a comment anywhere between the parts of an entry
    /// (`title = {A}, % checked`), and such lines are common.
    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(c) = self.peek() {
                    if c == b'\n' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// Whether only spaces and tabs precede `pos` on its line.
    fn at_line_start(&self, pos: usize) -> bool {
        let mut i = pos;
        while i > 0 {
            match self.src.get(i - 1) {
                Some(b' ' | b'\t' | b'\r') => i -= 1,
                Some(b'\n') => return true,
                _ => return false,
            }
        }
        true
    }

    /// Whether `pos` is an `@` that starts a line and is followed by a name
    /// and an opening delimiter: the start of a block for sure.
    fn is_block_start(&self, pos: usize) -> bool {
        if self.src.get(pos) != Some(&b'@') || !self.at_line_start(pos) {
            return false;
        }
        let mut i = pos + 1;
        while self.src.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        let name_start = i;
        while self.src.get(i).is_some_and(|b| b.is_ascii_alphanumeric()) {
            i += 1;
        }
        if i == name_start {
            return false;
        }
        while self.src.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        matches!(self.src.get(i), Some(b'{' | b'('))
    }

    /// The next line-start `@` block after `from`, or the end of the text.
    fn next_block_start(&self, from: usize) -> usize {
        let mut i = from;
        while i < self.src.len() {
            if self.src.get(i) == Some(&b'@') && self.is_block_start(i) {
                return i;
            }
            i += 1;
        }
        self.src.len()
    }

    fn read_name(&mut self) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(is_name_byte) {
            self.pos += 1;
        }
        self.slice(start, self.pos)
    }

    fn run(&mut self) {
        while self.pos < self.src.len() {
            self.item();
        }
    }

    /// Reads what starts at the next `@`: one entry, macro, preamble or
    /// comment (or a reported problem), moving `pos` past it. Always
    /// makes progress.
    fn item(&mut self) {
        // Text outside entries is ignored up to the next `@`.
        match self
            .src
            .get(self.pos..)
            .and_then(|rest| rest.iter().position(|&b| b == b'@'))
        {
            Some(off) => self.pos += off,
            None => {
                self.pos = self.src.len();
                return;
            }
        }
        let at = self.pos;
        self.pos += 1;
        self.skip_ws();
        let kind = self.read_name().to_ascii_lowercase();
        self.skip_ws();
        let close = match self.peek() {
            Some(b'{') => b'}',
            Some(b'(') => b')',
            _ => {
                // An `@` in free text (an e-mail address) is not an entry;
                // a line-start `@type` without a body is reported.
                if !kind.is_empty() && self.at_line_start(at) {
                    // BibTeX reads nothing after the word `comment` (the
                    // rest is text outside entries, as here); biber wants
                    // a body, so only biber's users see an error.
                    let message = if kind == "comment" {
                        "`@comment` is not followed by `{` or `(`: BibTeX skips the word, \
                         biber reports a syntax error; skipped"
                            .to_string()
                    } else {
                        format!("`@{kind}` is not followed by `{{` or `(`; skipped")
                    };
                    self.problem(ProblemKind::Syntax, at, message);
                }
                return;
            }
        };
        if kind.is_empty() {
            self.problem(
                ProblemKind::Syntax,
                at,
                "`@` without an entry type; skipped".to_string(),
            );
            return;
        }
        self.pos += 1;
        let result = match kind.as_str() {
            "comment" => self.comment_body(close),
            "preamble" => self.preamble_body(close),
            "string" => self.string_body(close),
            _ => self.entry_body(at, kind, close),
        };
        if let Err(b) = result {
            let kind = if b.kept {
                ProblemKind::Damaged
            } else {
                ProblemKind::Syntax
            };
            self.problem(kind, b.pos, b.message);
            let resume = self.next_block_start(at + 1);
            // Never move backwards: progress is guaranteed.
            self.pos = resume.max(at + 1);
        }
    }

    fn comment_body(&mut self, close: u8) -> Step<()> {
        let start = self.pos;
        let end = match self.balanced(close, start) {
            Ok(end) => end,
            Err(broken) => {
                // A block whose braces do close, but with entries starting
                // lines inside it: BibTeX reads those entries (it skips
                // only the word `comment`), biber skips the whole block.
                // Read as BibTeX reads, and say so.
                let inner = self.next_block_start(start);
                if inner >= self.src.len() || self.body_end(close, start, false).is_none() {
                    return Err(broken);
                }
                let at = start.saturating_sub(1);
                self.pos = inner + 1;
                self.skip_ws();
                let name = self.read_name();
                let message = format!(
                    "`@comment` holds `@{name}` (line {}): BibTeX reads what it holds as entries, \
                     biber skips the whole block",
                    self.line_of(inner)
                );
                self.problem(ProblemKind::CommentHoldsEntries, at, message);
                self.pos = inner;
                return Ok(());
            }
        };
        self.bib.comments.push(self.slice(start, end).to_string());
        self.pos = end + 1;
        Ok(())
    }

    fn preamble_body(&mut self, close: u8) -> Step<()> {
        self.skip_ws();
        let (value, _) = self.value_expr(close, "preamble")?;
        self.skip_ws();
        self.expect_close(close)?;
        self.bib.preambles.push(value);
        Ok(())
    }

    fn string_body(&mut self, close: u8) -> Step<()> {
        self.skip_ws();
        let name_pos = self.pos;
        let name = self.read_name().to_ascii_lowercase();
        if name.is_empty() {
            return Err(Broken {
                pos: name_pos,
                kept: false,
                message: "`@string` without a name".to_string(),
            });
        }
        self.skip_ws();
        if self.peek() != Some(b'=') {
            return Err(Broken {
                pos: self.pos,
                kept: false,
                message: format!("`@string{{{name}` needs `=` after the name"),
            });
        }
        self.pos += 1;
        self.skip_ws();
        let (value, _) = self.value_expr(close, &name)?;
        self.skip_ws();
        // Tolerate a trailing comma, as several tools write one.
        if self.peek() == Some(b',') {
            self.pos += 1;
            self.skip_ws();
        }
        self.expect_close(close)?;
        self.macros.retain(|(n, _)| n != &name);
        self.macros.push((name.clone(), value.clone()));
        self.bib.strings.push((name, value));
        Ok(())
    }

    fn expect_close(&mut self, close: u8) -> Step<()> {
        if self.peek() == Some(close) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Broken {
                pos: self.pos,
                kept: false,
                message: format!("expected `{}`", close as char),
            })
        }
    }

    fn entry_body(&mut self, at: usize, kind: String, close: u8) -> Step<()> {
        let mut entry = Entry {
            kind,
            key: String::new(),
            line: self.line_of(at),
            fields: Vec::new(),
            parsed: false,
        };
        match self.entry_fields(at, &mut entry, close) {
            Ok(()) => {
                self.bib.entries.push(entry);
                Ok(())
            }
            // BibTeX keeps an entry whose key it has read, with the fields
            // before the error, and skips the rest of it.
            Err(mut b) if !entry.key.is_empty() => {
                b.message = format!(
                    "{}; entry `{}` kept with the {} field(s) before it, as BibTeX keeps it",
                    b.message,
                    entry.key,
                    entry.fields.len()
                );
                b.kept = true;
                self.bib.entries.push(entry);
                Err(b)
            }
            Err(b) => Err(b),
        }
    }

    /// Reads an entry's key and fields into `entry`.
    fn entry_fields(&mut self, at: usize, entry: &mut Entry, close: u8) -> Step<()> {
        self.skip_ws();
        // The key runs to the first comma, the closing delimiter or whitespace.
        let key_start = self.pos;
        while let Some(b) = self.peek() {
            if b == b','
                || b == close
                || b.is_ascii_whitespace()
                || (b == b'@' && self.is_block_start(self.pos))
            {
                break;
            }
            self.pos += 1;
        }
        // As in BibTeX, a `{` does not end the key (`@misc{fd{},x}` has the
        // key `fd{`).
        entry.key = self.slice(key_start, self.pos).to_string();
        if entry.key.is_empty() {
            self.problem(
                ProblemKind::MissingKey,
                at,
                format!("`@{}` entry without a citation key", entry.kind),
            );
        }
        self.skip_ws();
        // Whether a comma came since the key or the last field.
        let mut separated = false;
        loop {
            match self.peek() {
                None => {
                    return Err(Broken {
                        pos: at,
                        kept: false,
                        message: format!(
                            "entry `{}` is not closed before the end of the file",
                            entry.key
                        ),
                    })
                }
                Some(b) if b == close => {
                    self.pos += 1;
                    break;
                }
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                    separated = true;
                    continue;
                }
                Some(b'@') if self.is_block_start(self.pos) => {
                    self.problem(
                        ProblemKind::Unclosed,
                        at,
                        format!(
                            "entry `{}` is not closed (missing `{}` before the next entry)",
                            entry.key, close as char
                        ),
                    );
                    break;
                }
                Some(_) => {}
            }
            if !separated {
                // A field must follow a comma; accept `name =` without one but say so.
                let name_pos = self.pos;
                let mut name_end = name_pos;
                while self.src.get(name_end).copied().is_some_and(is_name_byte) {
                    name_end += 1;
                }
                let mut j = name_end;
                while self.src.get(j).is_some_and(|b| b.is_ascii_whitespace()) {
                    j += 1;
                }
                if name_end > name_pos && self.src.get(j) == Some(&b'=') {
                    let name = self.slice(name_pos, name_end).to_ascii_lowercase();
                    self.problem(
                        ProblemKind::MissingComma,
                        name_pos,
                        format!("entry `{}`: missing comma before field `{name}`", entry.key),
                    );
                } else {
                    return Err(Broken {
                        pos: self.pos,
                        kept: false,
                        message: format!(
                            "entry `{}`: expected `,` or `{}`",
                            entry.key, close as char
                        ),
                    });
                }
            }
            separated = false;
            let field_pos = self.pos;
            let name = self.read_name().to_ascii_lowercase();
            if name.is_empty() {
                return Err(Broken {
                    pos: self.pos,
                    kept: false,
                    message: format!("entry `{}`: expected a field name", entry.key),
                });
            }
            self.skip_ws();
            if self.peek() != Some(b'=') {
                return Err(Broken {
                    pos: self.pos,
                    kept: false,
                    message: format!("entry `{}`: field `{name}` needs `=`", entry.key),
                });
            }
            self.pos += 1;
            self.skip_ws();
            let (value, raw) = self.value_expr(close, &name)?;
            let field_line = self.line_of(field_pos);
            if entry.fields.iter().any(|f| f.name == name) {
                let mut loc = self.location(field_pos);
                loc.field = Some(name.clone());
                let error = Error::new(
                    ErrorKind::Bibtex,
                    format!(
                        "entry `{}`: field `{name}` repeated; the first value is kept",
                        entry.key
                    ),
                )
                .at(loc);
                self.bib.problems.push(Problem {
                    kind: ProblemKind::RepeatedField,
                    error,
                });
            } else {
                entry.fields.push(Field {
                    name,
                    value,
                    raw,
                    line: field_line,
                });
            }
            self.skip_ws();
        }
        Ok(())
    }

    /// `part (# part)*`; returns the joined value and the raw source text.
    fn value_expr(&mut self, close: u8, field: &str) -> Step<(String, String)> {
        let start = self.pos;
        let mut value = String::new();
        let mut raw_end;
        loop {
            match self.peek() {
                Some(b'{') => {
                    let inner = self.pos + 1;
                    let end = self.balanced_value(b'}', inner, field)?;
                    value.push_str(self.slice(inner, end));
                    self.pos = end + 1;
                }
                Some(b'"') => {
                    let inner = self.pos + 1;
                    let end = self.balanced_value(b'"', inner, field)?;
                    value.push_str(self.slice(inner, end));
                    self.pos = end + 1;
                }
                Some(b) if b.is_ascii_digit() => {
                    let s = self.pos;
                    while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                        self.pos += 1;
                    }
                    value.push_str(self.slice(s, self.pos));
                }
                Some(b) if is_name_byte(b) && b != b'@' => {
                    let s = self.pos;
                    let name = self.read_name();
                    let lower = name.to_ascii_lowercase();
                    if let Some((_, v)) = self.macros.iter().find(|(n, _)| *n == lower) {
                        value.push_str(v);
                    } else if let Some((_, v)) = MONTHS.iter().find(|(n, _)| *n == lower) {
                        value.push_str(v);
                    } else {
                        self.problem(
                            ProblemKind::UndefinedMacro,
                            s,
                            format!("field `{field}`: undefined macro `{name}`, kept as text"),
                        );
                        value.push_str(name);
                    }
                }
                _ => {
                    return Err(Broken {
                        pos: self.pos,
                        kept: false,
                        message: format!("field `{field}`: expected a value"),
                    })
                }
            }
            raw_end = self.pos;
            self.skip_ws();
            if self.peek() == Some(b'#') {
                self.pos += 1;
                self.skip_ws();
                continue;
            }
            let _ = close;
            break;
        }
        Ok((value, self.slice(start, raw_end).to_string()))
    }

    /// The position of the delimiter `end` that closes a value starting at
    /// `from` (braces balanced inside). Stops with an error at a line-start
    /// `@type{`, so a runaway value cannot swallow the following entries.
    fn balanced_value(&self, end: u8, from: usize, field: &str) -> Step<usize> {
        let mut depth = 0usize;
        let mut i = from;
        while let Some(&b) = self.src.get(i) {
            // As in BibTeX, a backslash does not escape a brace or a quote.
            if b == end && depth == 0 {
                return Ok(i);
            }
            match b {
                b'{' => depth += 1,
                b'}' if depth > 0 => depth -= 1,
                b'}' => {
                    return Err(Broken {
                        pos: i,
                        kept: false,
                message: format!("field `{field}`: unbalanced `}}` in a quoted value"),
                    })
                }
                b'@' if self.is_block_start(i) => {
                    return Err(Broken {
                        pos: from.saturating_sub(1),
                        kept: false,
                message: format!(
                            "field `{field}`: value not closed before the next entry (unbalanced braces or quotes)"
                        ),
                    })
                }
                _ => {}
            }
            i += 1;
        }
        Err(Broken {
            pos: from.saturating_sub(1),
            kept: false,
            message: format!("field `{field}`: value not closed before the end of the file"),
        })
    }

    /// Like [`Self::balanced_value`] for block bodies (`@comment`).
    fn balanced(&self, close: u8, from: usize) -> Step<usize> {
        self.body_end(close, from, true).ok_or(Broken {
            pos: from.saturating_sub(1),
            kept: false,
            message: "`@comment` not closed".to_string(),
        })
    }

    /// The offset of the `close` that ends a body starting at `from`,
    /// braces counted; with `blocks_end`, none when a line-start block
    /// comes first.
    fn body_end(&self, close: u8, from: usize, blocks_end: bool) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = from;
        while let Some(&b) = self.src.get(i) {
            if b == close && depth == 0 {
                return Some(i);
            }
            match b {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                b'@' if blocks_end && self.is_block_start(i) => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(kind, key, [(field, value)])` of one entry.
    type Expected<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);
    /// The same, owned.
    type Got = (String, String, Vec<(String, String)>);

    /// Parses `input` and checks `(kind, key, [(field, value)])` per entry
    /// and the kinds of the problems reported.
    fn check(input: &str, expected: &[Expected<'_>], problems: &[ProblemKind]) {
        let bib = parse(input);
        let got: Vec<Got> = bib
            .entries
            .iter()
            .map(|e| {
                (
                    e.kind.clone(),
                    e.key.clone(),
                    e.fields
                        .iter()
                        .map(|f| (f.name.clone(), f.value.clone()))
                        .collect(),
                )
            })
            .collect();
        let want: Vec<Got> = expected
            .iter()
            .map(|(k, key, fs)| {
                (
                    k.to_string(),
                    key.to_string(),
                    fs.iter()
                        .map(|(n, v)| (n.to_string(), v.to_string()))
                        .collect(),
                )
            })
            .collect();
        assert_eq!(got, want, "entries of {input:?}");
        assert_eq!(
            bib.problems.iter().map(|p| p.kind).collect::<Vec<_>>(),
            problems,
            "problems of {input:?}: {:?}",
            bib.problems
        );
    }

    #[test]
    fn reads_values() {
        check(
            "@article{a, title = {T}}",
            &[("article", "a", &[("title", "T")])],
            &[],
        );
        check(
            "@ARTICLE{a, TITLE = \"T\"}",
            &[("article", "a", &[("title", "T")])],
            &[],
        );
        check(
            "@misc{a, year = 2020,}",
            &[("misc", "a", &[("year", "2020")])],
            &[],
        );
        check(
            "@misc(a, title = {x (y)})",
            &[("misc", "a", &[("title", "x (y)")])],
            &[],
        );
        check(
            "@misc{a, title = {A {B {C}} D}}",
            &[("misc", "a", &[("title", "A {B {C}} D")])],
            &[],
        );
        check(
            "@misc{a, title = \"say {\"}hi{\"}\"}",
            &[("misc", "a", &[("title", "say {\"}hi{\"}")])],
            &[],
        );
        check(
            "@misc{a, month = jan}",
            &[("misc", "a", &[("month", "January")])],
            &[],
        );
        check("@misc{a}", &[("misc", "a", &[])], &[]);
        check(
            "@misc{a,\n title={x},\n\n}",
            &[("misc", "a", &[("title", "x")])],
            &[],
        );
        check(
            "@misc{a, url = {http://x.org/a%20b}}",
            &[("misc", "a", &[("url", "http://x.org/a%20b")])],
            &[],
        );
    }

    #[test]
    fn expands_strings_and_concatenation() {
        check(
            "@string{N = \"Doe\"}\n@String(int = {Intl})\n@misc{a, author = \"John \" # n, note = int # { } # \"Conf\" # 2020}",
            &[("misc", "a", &[("author", "John Doe"), ("note", "Intl Conf2020")])], &[]);
        // Macros defined from macros, names in any letter case.
        check(
            "@string{foo = \"1--10\"}\n@string{BaR = FOO}\n@misc{a, pages = bar}",
            &[("misc", "a", &[("pages", "1--10")])],
            &[],
        );
        check(
            "@misc{a, journal = nosuch}",
            &[("misc", "a", &[("journal", "nosuch")])],
            &[ProblemKind::UndefinedMacro],
        );
    }

    #[test]
    fn keeps_preamble_comment_and_outside_text() {
        let bib = parse("free text me@example.org\n@preamble{\"\\newcommand{\\x}{y}\"}\n@comment{jabref-meta: x;}\n@misc{a, title={t}}\n");
        assert_eq!(bib.entries.len(), 1);
        assert_eq!(bib.preambles, vec!["\\newcommand{\\x}{y}".to_string()]);
        assert_eq!(bib.comments, vec!["jabref-meta: x;".to_string()]);
        assert!(bib.problems.is_empty(), "{:?}", bib.problems);
    }

    /// A braced `@comment` whose braces close but which holds line-start
    /// entries: they are read, as BibTeX reads them, with a warning that
    /// biber skips them; a `@comment` that never closes is still an error.
    #[test]
    fn a_comment_holding_entries_is_read_as_bibtex_reads_it() {
        let held = "@Comment{\n  @Book{b, title={T}}\n}\n@misc{a, title={t}}";
        check(
            held,
            &[
                ("book", "b", &[("title", "T")]),
                ("misc", "a", &[("title", "t")]),
            ],
            &[ProblemKind::CommentHoldsEntries],
        );
        let bib = parse(held);
        assert_eq!(
            bib.problems[0].error.message,
            "`@comment` holds `@Book` (line 2): BibTeX reads what it holds as entries, \
             biber skips the whole block"
        );
        assert!(!ProblemKind::CommentHoldsEntries.is_error());
        check(
            "@comment{ open\n@misc{a, title={t}}",
            &[("misc", "a", &[("title", "t")])],
            &[ProblemKind::Syntax],
        );
        check(
            "@comment{ {a} b }\n@misc{a, title={t}}",
            &[("misc", "a", &[("title", "t")])],
            &[],
        );
    }

    /// A decoded value is one line: a title wrapped over lines (and
    /// indented) reads as BibTeX prints it, single spaces kept as they are.
    #[test]
    fn decoded_values_join_wrapped_lines() {
        let bib =
            parse("@misc{a, title = {Charged\n        particle \t energy},\n note = { a b }}");
        let e = &bib.entries[0];
        assert_eq!(
            e.decoded("title").as_deref(),
            Some("Charged particle energy")
        );
        assert_eq!(e.decoded("note").as_deref(), Some("a b"));
    }

    /// A line-start `@type` with no body is reported, the entry after it
    /// read; `@comment` without a body (BibTeX skips the word, biber
    /// refuses it) says which tool objects; an `@` inside a line is text.
    #[test]
    fn reports_a_type_without_a_body_and_reads_on() {
        let entry: &[Expected<'_>] = &[("misc", "a", &[("title", "t")])];
        for (input, problems) in [
            ("@Comment Len Schubert\n@misc{a, title={t}}", 1),
            ("@comment\n@misc{a, title={t}}", 1),
            ("@misc\n@misc{a, title={t}}", 1),
            ("mail me@home today\n@misc{a, title={t}}", 0),
        ] {
            check(input, entry, &vec![ProblemKind::Syntax; problems]);
        }
        let comment = parse("@comment see below\n@misc{a, title={t}}");
        let message = &comment.problems[0].error.message;
        assert!(
            message.contains("biber reports a syntax error"),
            "{message}"
        );
        let misc = parse("@misc\n@misc{a, title={t}}");
        assert_eq!(
            misc.problems[0].error.message,
            "`@misc` is not followed by `{` or `(`; skipped"
        );
    }

    #[test]
    fn reports_a_missing_key_and_keeps_the_entry() {
        check(
            "@misc{, title={t}}",
            &[("misc", "", &[("title", "t")])],
            &[ProblemKind::MissingKey],
        );
    }

    #[test]
    fn reports_repeated_fields_and_keeps_the_first() {
        check(
            "@misc{a, title={one}, Title={two}}",
            &[("misc", "a", &[("title", "one")])],
            &[ProblemKind::RepeatedField],
        );
    }

    #[test]
    fn recovers_from_broken_entries() {
        // Missing closing brace: the entry is kept, the next one read.
        check(
            "@article{a, title={A}\n\n@book{b, title={B}}",
            &[
                ("article", "a", &[("title", "A")]),
                ("book", "b", &[("title", "B")]),
            ],
            &[ProblemKind::Unclosed],
        );
        // Missing comma between fields.
        check(
            "@misc{a, title={A}\n year=2020}",
            &[("misc", "a", &[("title", "A"), ("year", "2020")])],
            &[ProblemKind::MissingComma],
        );
        // Unbalanced brace in a value: the entry is kept without that
        // field (BibTeX keeps an entry once it has read its key), the next
        // is read.
        check(
            "@misc{a, title={A {B\n}\n@misc{b, title={B}}\n",
            &[("misc", "a", &[]), ("misc", "b", &[("title", "B")])],
            &[ProblemKind::Damaged],
        );
        // Garbage in an entry: kept with the fields before it.
        check(
            "@misc{a, title={A}, = x}\n@misc{b}\n",
            &[("misc", "a", &[("title", "A")]), ("misc", "b", &[])],
            &[ProblemKind::Damaged],
        );
        // Value never closed at the end of the file.
        check(
            "@misc{b}\n@misc{a, title={A",
            &[("misc", "b", &[]), ("misc", "a", &[])],
            &[ProblemKind::Damaged],
        );
        // Broken before the key: nothing to keep.
        check(
            "@misc{, = x}\n@misc{b}\n",
            &[("misc", "b", &[])],
            &[ProblemKind::MissingKey, ProblemKind::Syntax],
        );
        // BibTeX's key ends at a comma, a space or the closing delimiter,
        // not at `{` (others/example1.bib: `@boo{fd{},fds}`).
        check("@boo{fd{},fds}", &[("boo", "fd{", &[])], &[]);
        // Endnote's export: the key is missing, so BibTeX takes the first
        // field's name as the key and keeps the entry.
        check(
            "@article{\n volume = {59},\n year = {1999}\n}",
            &[("article", "volume", &[])],
            &[ProblemKind::Damaged],
        );
        // `@type` with no body at a line start.
        check(
            "@misc\n@misc{b}",
            &[("misc", "b", &[])],
            &[ProblemKind::Syntax],
        );
    }

    #[test]
    fn broken_entry_error_names_its_line_and_column() {
        let bib = parse("@misc{a}\n\n@misc{b, title={x}, = y}\n@misc{c}");
        assert_eq!(bib.entries.len(), 3);
        assert_eq!(
            bib.problems[0].error.location.line,
            Some(3),
            "{:?}",
            bib.problems
        );
        assert_eq!(bib.problems[0].error.location.column, Some(21));
        assert_eq!(bib.problems[0].kind, ProblemKind::Damaged);
    }

    /// biber reads `%` to the end of the line as a comment between the
    /// parts of an entry.
    #[test]
    fn reads_inline_comments_inside_entries() {
        check(
            "@misc{a, % the key\n title = {A}, % checked\n year = 2020 % or 2021\n}",
            &[("misc", "a", &[("title", "A"), ("year", "2020")])],
            &[],
        );
        check(
            "@misc{a,\n title = {50% of {A}}}",
            &[("misc", "a", &[("title", "50% of {A}")])],
            &[],
        );
    }

    #[test]
    fn decodes_latex_for_matching_and_keeps_the_original() {
        let bib = parse(r#"@misc{a, author = {M{\"u}ller, J{\"o}rg and {\ss}mith}}"#);
        let e = &bib.entries[0];
        assert_eq!(
            e.get("author"),
            Some(r#"M{\"u}ller, J{\"o}rg and {\ss}mith"#)
        );
        assert_eq!(
            e.decoded("author").as_deref(),
            Some("Müller, Jörg and ßmith")
        );
        assert_eq!(e.fields[0].raw, r#"{M{\"u}ller, J{\"o}rg and {\ss}mith}"#);
        assert_eq!(e.line, 1);
    }

    #[test]
    fn bytes_entry_point_reads_8bit_files_with_a_warning() {
        let bib = parse_bytes(b"@misc{a,\n title={caf\xe9}}").unwrap();
        assert_eq!(bib.entries[0].get("title"), Some("caf\u{e9}"));
        let warning = &bib.problems[0];
        assert_eq!(warning.kind, ProblemKind::Encoding);
        assert!(!warning.kind.is_error());
        assert!(
            warning.error.message.contains("latin-1"),
            "{}",
            warning.error
        );
        assert_eq!(warning.error.location.line, Some(2));
        assert_eq!(warning.error.location.column, Some(12));
        assert_eq!(warning.error.location.index, None);
        let bib = parse_bytes(b"@misc{a, title={\x93Q\x94}}").unwrap();
        assert_eq!(bib.entries[0].get("title"), Some("\u{201c}Q\u{201d}"));
        assert!(bib.problems[0].error.message.contains("windows-1252"));
        let err = parse_bytes(b"\xFF\xFE@\x00").unwrap_err();
        assert_eq!(err.kind, ErrorKind::Encoding);
        let ok = parse_bytes(b"\xEF\xBB\xBF@misc{a}").unwrap();
        assert_eq!(ok.entries[0].key, "a");
        assert!(ok.problems.is_empty());
    }

    #[test]
    fn never_panics_on_fragments() {
        for s in [
            "@",
            "@{",
            "@misc{",
            "@misc{a,",
            "@misc{a, t",
            "@misc{a, t=",
            "@misc{a, t={",
            "@misc{a, t=\"",
            "@misc{a, t=x #",
            "@string{",
            "@string{x=",
            "@comment{",
            "@preamble{",
            "\\",
            "{}}}@@@",
            "@misc{a, t={\\",
            "@misc{a, t=\"\\",
            "é@ü{ö,",
            "@misc(a, t = {)})",
        ] {
            let _ = parse(s);
        }
    }
}
