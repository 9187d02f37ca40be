//! Cite commands in LaTeX sources: finding every cited key, and rewriting keys.
//!
//! A regular expression sees a cite command as a flat string, but LaTeX does
//! not: optional arguments may hold braces (`\cite[see {a]b}][]{k}`), keys may
//! be split over lines with a `%` at each line end, a multicite carries any
//! number of `[…]{…}` groups, and a `%` starts a comment unless it is `\%`.
//! So this module is a small hand-written scanner that walks the source once,
//! byte by byte, and knows just enough TeX to get those cases right: comments,
//! control words and symbols, `verbatim`-like environments, `\verb`, and the
//! argument shapes of the natbib and biblatex cite commands. Nesting is
//! tracked with counters and explicit stacks, never with recursion, so ten thousand nested
//! braces cost a counter, not a stack frame, and every access is bounds-checked,
//! so a file that ends in the middle of a command yields what was complete.
//! The scanner records the byte span of each key, which is what lets
//! [`sync_keys`] replace a key and leave every other byte of the file as it was.
//!
//! Commented-out text is not LaTeX input, so a cite inside a comment is neither
//! reported nor rewritten. (The reference script rewrites keys anywhere its
//! pattern matches, comments included; see `DEVIATIONS.md`.)

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// One cited key, where it stands, and the command that cited it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cite {
    /// The key as written, without surrounding spaces.
    pub key: String,
    /// The command's name without the backslash, with a trailing `*` if starred
    /// (`citep`, `citet*`, `parencites`).
    pub command: String,
    /// 1-based line of the key's first character.
    pub line: usize,
    /// 1-based column (in characters) of the key's first character.
    pub column: usize,
    /// Byte offset of the key's first byte in the source.
    pub start: usize,
    /// Byte offset one past the key's last byte in the source.
    pub end: usize,
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Place {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// An `\input{…}` or `\include{…}` found in a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Include {
    /// The file name as written (trimmed).
    pub name: String,
    /// `input` or `include`.
    pub command: String,
    /// 1-based line of the command.
    pub line: usize,
    /// 1-based column of the command's backslash.
    pub column: usize,
}

/// Everything the scanner found in one source.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Scan {
    /// Every cited key, in source order (repeats kept).
    pub cites: Vec<Cite>,
    /// Where `\nocite{*}` occurs; it cites the whole bibliography, not a key.
    pub nocite_all: Vec<Place>,
    /// `\input` and `\include` commands, in source order.
    pub includes: Vec<Include>,
}

/// How a cite command takes its arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Up to two `[…]`, then one `{keys}`.
    Single,
    /// Up to two `(…)`, then one or more groups of up to two `[…]` and a `{keys}`.
    Multi,
}

/// The cite commands we know, natbib and biblatex, with their capitalised
/// forms. A list, not a pattern: `\citestyle{plainnat}` must not cite `plainnat`.
fn cite_shape(name: &str) -> Option<Shape> {
    const SINGLE: &[&str] = &[
        // natbib (and plain LaTeX's \cite)
        "cite",
        "citep",
        "citet",
        "citealt",
        "citealp",
        "citeauthor",
        "citefullauthor",
        "citeyear",
        "citeyearpar",
        "citenum",
        "Cite",
        "Citep",
        "Citet",
        "Citealt",
        "Citealp",
        "Citeauthor",
        "Citefullauthor",
        "Citeyear",
        "Citeyearpar",
        // biblatex
        "autocite",
        "parencite",
        "textcite",
        "footcite",
        "footcitetext",
        "smartcite",
        "supercite",
        "fullcite",
        "footfullcite",
        "nocite",
        "citetitle",
        "citedate",
        "citeurl",
        "notecite",
        "pnotecite",
        "fnotecite",
        "Autocite",
        "Parencite",
        "Textcite",
        "Footcite",
        "Footcitetext",
        "Smartcite",
        "Supercite",
        "Fullcite",
        "Nocite",
        "Citetitle",
        "Citedate",
        "Notecite",
        "Pnotecite",
        "Fnotecite",
    ];
    const MULTI: &[&str] = &[
        "cites",
        "parencites",
        "textcites",
        "autocites",
        "footcites",
        "footcitetexts",
        "smartcites",
        "supercites",
        "Cites",
        "Parencites",
        "Textcites",
        "Autocites",
        "Footcites",
        "Footcitetexts",
        "Smartcites",
        "Supercites",
    ];
    if SINGLE.contains(&name) {
        Some(Shape::Single)
    } else if MULTI.contains(&name) {
        Some(Shape::Multi)
    } else {
        None
    }
}

/// Environments whose body is printed as is, so commands in them do nothing.
const VERBATIM_ENVS: &[&str] = &[
    "verbatim",
    "verbatim*",
    "Verbatim",
    "Verbatim*",
    "BVerbatim",
    "LVerbatim",
    "lstlisting",
    "minted",
    "comment",
    "filecontents",
    "filecontents*",
];

/// Scans a LaTeX source for cites, `\nocite{*}` and included files.
///
/// ```
/// let scan = citegate_core::tex::scan("See \\citep[p.~2]{a, b} % \\cite{c}\n\\input{sec/intro}");
/// let keys: Vec<_> = scan.cites.iter().map(|c| c.key.as_str()).collect();
/// assert_eq!(keys, ["a", "b"]);
/// assert_eq!(scan.includes[0].name, "sec/intro");
/// ```
pub fn scan(source: &str) -> Scan {
    let mut s = Scanner {
        src: source,
        b: source.as_bytes(),
        pos: 0,
        out: Scan::default(),
        nocite_offsets: Vec::new(),
        include_offsets: Vec::new(),
        brace_end: HashMap::new(),
    };
    s.run();
    s.finish()
}

/// Every cited key in a LaTeX source, with its line and command, in source order.
///
/// ```
/// let cites = citegate_core::tex::extract_cites("\\textcites[see][]{a}{b,c}");
/// assert_eq!(cites.len(), 3);
/// assert_eq!(cites[2].key, "c");
/// assert_eq!(cites[2].command, "textcites");
/// ```
pub fn extract_cites(source: &str) -> Vec<Cite> {
    scan(source).cites
}

/// Lines and columns of byte offsets, computed in one forward pass over the
/// source once the scan is done, so positions cost time linear in the file,
/// not in the number of cites times the line length.
fn places(b: &[u8], offsets: &[usize]) -> Vec<Place> {
    let mut out = Vec::with_capacity(offsets.len());
    let (mut at, mut line0, mut col0) = (0usize, 0usize, 0usize);
    for &offset in offsets {
        let to = offset.clamp(at, b.len());
        for &c in b.get(at..to).unwrap_or(&[]) {
            if c == b'\n' {
                line0 += 1;
                col0 = 0;
            } else if c & 0xC0 != 0x80 {
                // Count characters, not UTF-8 continuation bytes.
                col0 += 1;
            }
        }
        at = to;
        out.push(Place {
            line: line0 + 1,
            column: col0 + 1,
        });
    }
    out
}

struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    out: Scan,
    /// Where each `\nocite{*}` star stands; turned into places at the end.
    nocite_offsets: Vec<usize>,
    /// Where each include's backslash stands; turned into places at the end.
    include_offsets: Vec<usize>,
    /// Offset of a matched `{` → offset just past its `}`.
    brace_end: HashMap<usize, usize>,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl Scanner<'_> {
    /// Puts cites in source order (a cite inside a braced note is found after
    /// the command around it) and fills in every line and column.
    fn finish(mut self) -> Scan {
        self.out.cites.sort_by_key(|c| c.start);
        // A command whose note swallowed another command's start (brackets do
        // not nest) is scanned again from its name; a key is reported once.
        self.out.cites.dedup_by_key(|c| c.start);
        let mut offsets: Vec<usize> = self.out.cites.iter().map(|c| c.start).collect();
        self.nocite_offsets.sort_unstable();
        offsets.extend(&self.nocite_offsets);
        offsets.extend(&self.include_offsets);
        offsets.sort_unstable();
        offsets.dedup();
        let found = places(self.b, &offsets);
        let place_of = |offset: usize| {
            offsets
                .binary_search(&offset)
                .ok()
                .and_then(|i| found.get(i).copied())
                .unwrap_or(Place { line: 0, column: 0 })
        };
        for cite in &mut self.out.cites {
            let p = place_of(cite.start);
            cite.line = p.line;
            cite.column = p.column;
        }
        self.out.nocite_all = self.nocite_offsets.iter().map(|&o| place_of(o)).collect();
        for (inc, &o) in self.out.includes.iter_mut().zip(&self.include_offsets) {
            let p = place_of(o);
            inc.line = p.line;
            inc.column = p.column;
        }
        self.out
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    fn run(&mut self) {
        while self.pos < self.b.len() {
            let rest = self.b.get(self.pos..).unwrap_or(&[]);
            match rest.iter().position(|&c| c == b'%' || c == b'\\') {
                None => self.pos = self.b.len(),
                Some(i) => {
                    self.pos += i;
                    if self.at(self.pos) == Some(b'%') {
                        self.pos = self.line_end(self.pos);
                    } else {
                        self.control();
                    }
                }
            }
        }
    }

    /// The offset just past the newline that ends the line holding `i`.
    fn line_end(&self, i: usize) -> usize {
        match self
            .b
            .get(i..)
            .and_then(|r| r.iter().position(|&c| c == b'\n'))
        {
            Some(n) => i + n + 1,
            None => self.b.len(),
        }
    }

    /// Skips spaces, newlines and comments, stopping at a blank line (a `\par`).
    fn skip_ws(&self, mut i: usize) -> usize {
        let mut newlines = 0;
        while let Some(c) = self.at(i) {
            if c == b'\n' {
                newlines += 1;
                if newlines >= 2 {
                    return i;
                }
                i += 1;
            } else if is_ws(c) {
                i += 1;
            } else if c == b'%' {
                // The comment eats its own newline.
                i = self.line_end(i);
                newlines = 0;
            } else {
                break;
            }
        }
        i
    }

    /// At a backslash: read the control sequence and act on it.
    fn control(&mut self) {
        let start = self.pos;
        let name_start = start + 1;
        let mut end = name_start;
        while self.at(end).is_some_and(|c| c.is_ascii_alphabetic()) {
            end += 1;
        }
        if end == name_start {
            // A control symbol such as `\%` or `\\`: skip it whole.
            self.pos = (start + 2).min(self.b.len());
            return;
        }
        self.pos = end;
        let name = self.src.get(name_start..end).unwrap_or("");
        match name {
            "begin" => self.begin_env(),
            "verb" => self.skip_verb(),
            "input" | "include" => self.include(start, name),
            _ => {
                if let Some(shape) = cite_shape(name) {
                    self.cite(name, shape);
                }
            }
        }
    }

    /// After `\begin`: jump over the body of a verbatim-like environment.
    fn begin_env(&mut self) {
        let mut i = self.pos;
        while self.at(i).is_some_and(|c| c == b' ' || c == b'\t') {
            i += 1;
        }
        if self.at(i) != Some(b'{') {
            return;
        }
        let rest = self.b.get(i + 1..).unwrap_or(&[]);
        let Some(close) = rest.iter().take(64).position(|&c| c == b'}') else {
            return;
        };
        let name = self.src.get(i + 1..i + 1 + close).unwrap_or("").trim();
        if !VERBATIM_ENVS.contains(&name) {
            return;
        }
        let body = i + 2 + close;
        let end_tag = format!("\\end{{{name}}}");
        match self.src.get(body..).and_then(|r| r.find(&end_tag)) {
            Some(n) => self.pos = body + n + end_tag.len(),
            None => self.pos = self.b.len(),
        }
    }

    /// After `\verb`: skip `\verb|…|` (or `\verb*|…|`), which cannot span lines.
    fn skip_verb(&mut self) {
        let mut i = self.pos;
        if self.at(i) == Some(b'*') {
            i += 1;
        }
        let Some(delim) = self.at(i) else { return };
        if is_ws(delim) || !delim.is_ascii() {
            return;
        }
        let mut j = i + 1;
        while let Some(c) = self.at(j) {
            if c == delim {
                self.pos = j + 1;
                return;
            }
            if c == b'\n' {
                break;
            }
            j += 1;
        }
        self.pos = j;
    }

    /// After `\input` or `\include`: record the file name.
    fn include(&mut self, start: usize, command: &str) {
        let mut i = self.pos;
        while self.at(i).is_some_and(|c| c == b' ' || c == b'\t') {
            i += 1;
        }
        let (name_start, name_end, next) = if self.at(i) == Some(b'{') {
            let rest = self.b.get(i + 1..).unwrap_or(&[]);
            match rest.iter().position(|&c| c == b'}' || c == b'\n') {
                Some(n) if rest.get(n) == Some(&b'}') => (i + 1, i + 1 + n, i + 2 + n),
                _ => return,
            }
        } else if command == "input" && i > self.pos {
            // TeX's own form: `\input file`, ended by a space or a brace.
            let mut j = i;
            while self
                .at(j)
                .is_some_and(|c| !is_ws(c) && !matches!(c, b'{' | b'}' | b'%' | b'\\'))
            {
                j += 1;
            }
            (i, j, j)
        } else {
            return;
        };
        let name = self.src.get(name_start..name_end).unwrap_or("").trim();
        if !name.is_empty() {
            self.include_offsets.push(start);
            self.out.includes.push(Include {
                name: name.to_string(),
                command: command.to_string(),
                line: 0,
                column: 0,
            });
        }
        self.pos = next;
    }

    /// True if the line starting at `i` is blank: a paragraph break, which
    /// ends any argument of a cite command (they are not `\long`).
    fn blank_line_at(&self, mut i: usize) -> bool {
        while self
            .at(i)
            .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r'))
        {
            i += 1;
        }
        self.at(i) == Some(b'\n')
    }

    /// Skips a `[…]` or `(…)` argument starting at `i`, honouring braces,
    /// escapes and comments. `Err(stop)` if it does not close before a blank
    /// line, an unmatched `}` or the end of the file.
    ///
    /// Brace groups met on the way are remembered, so a note nested in a note
    /// (`\citep[{\citep[{…}]{a}}]{b}`, scanned once per command) jumps over
    /// groups already matched instead of walking them again.
    fn skip_delimited(&mut self, i: usize, close: u8) -> Result<usize, usize> {
        let mut open: Vec<usize> = Vec::new();
        let mut j = i + 1;
        while let Some(c) = self.at(j) {
            match c {
                b'\\' => j += 2,
                b'%' | b'\n' => {
                    j = if c == b'%' { self.line_end(j) } else { j + 1 };
                    if self.blank_line_at(j) {
                        return Err(j);
                    }
                }
                b'{' => match self.brace_end.get(&j) {
                    Some(&end) => j = end,
                    None => {
                        open.push(j);
                        j += 1;
                    }
                },
                b'}' => {
                    // An unmatched `}` closes a group around the command: malformed.
                    let start = open.pop().ok_or(j)?;
                    j += 1;
                    self.brace_end.insert(start, j);
                }
                _ if c == close && open.is_empty() => return Ok(j + 1),
                _ => j += 1,
            }
        }
        Err(self.b.len())
    }

    /// Reads a `{keys}` group starting at `i`. Returns the offset after it and
    /// the keys' spans (start, end, broken by a comment), or `Err(stop)` if the
    /// group does not close before a blank line or the end of the file.
    #[allow(clippy::type_complexity)]
    fn key_group(&self, i: usize) -> Result<(usize, Vec<(usize, usize, bool)>), usize> {
        let mut keys = Vec::new();
        let mut depth: usize = 1;
        let mut key_start: Option<usize> = None;
        let mut key_end = 0;
        let mut commented = false;
        let mut j = i + 1;
        loop {
            let Some(c) = self.at(j) else {
                return Err(self.b.len());
            };
            match c {
                b'%' | b'\n' => {
                    if c == b'%' && key_start.is_some() {
                        commented = true;
                    }
                    j = if c == b'%' { self.line_end(j) } else { j + 1 };
                    if self.blank_line_at(j) {
                        return Err(j);
                    }
                    continue;
                }
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if let Some(s) = key_start {
                            keys.push((s, key_end, commented));
                        }
                        return Ok((j + 1, keys));
                    }
                }
                b',' if depth == 1 => {
                    if let Some(s) = key_start.take() {
                        keys.push((s, key_end, commented));
                    }
                    commented = false;
                    j += 1;
                    continue;
                }
                _ => {}
            }
            if !is_ws(c) {
                if key_start.is_none() {
                    key_start = Some(j);
                }
                // An escape's next byte belongs to the key too.
                let width = if c == b'\\' && self.at(j + 1).is_some() {
                    2
                } else {
                    1
                };
                key_end = j + width;
                j += width;
            } else {
                j += 1;
            }
        }
    }

    /// Records the keys of one `{…}` group.
    fn push_keys(&mut self, command: &str, spans: Vec<(usize, usize, bool)>) {
        for (start, end, commented) in spans {
            let raw = self.src.get(start..end).unwrap_or("");
            let key = if commented {
                strip_comments(raw)
            } else {
                raw.to_string()
            };
            if key.is_empty() {
                continue;
            }
            if key == "*" && command.eq_ignore_ascii_case("nocite") {
                self.nocite_offsets.push(start);
                continue;
            }
            self.out.cites.push(Cite {
                key,
                command: command.to_string(),
                line: 0,
                column: 0,
                start,
                end,
            });
        }
    }

    /// After a cite command's name: read its arguments and record its keys.
    ///
    /// On success the scan resumes right after the command's name, so a cite
    /// inside a braced note (`\citep[{see \citet{b}}]{a}`) is found too. When
    /// an argument runs into a paragraph break or the end of the file, TeX
    /// would swallow it all as a runaway argument; so do we, and the scan
    /// resumes where the argument stopped. Either way no byte is scanned by
    /// a failed argument twice, which keeps the whole scan linear.
    fn cite(&mut self, name: &str, shape: Shape) {
        let after_name = self.pos;
        let mut i = self.skip_ws(self.pos);
        let mut command = name.to_string();
        if self.at(i) == Some(b'*') {
            command.push('*');
            i = self.skip_ws(i + 1);
        }
        if shape == Shape::Multi {
            for _ in 0..2 {
                if self.at(i) != Some(b'(') {
                    break;
                }
                match self.skip_delimited(i, b')') {
                    Ok(next) => i = self.skip_ws(next),
                    Err(stop) => {
                        self.pos = stop;
                        return;
                    }
                }
            }
        }
        loop {
            for _ in 0..2 {
                if self.at(i) != Some(b'[') {
                    break;
                }
                match self.skip_delimited(i, b']') {
                    Ok(next) => i = self.skip_ws(next),
                    Err(stop) => {
                        self.pos = stop;
                        return;
                    }
                }
            }
            if self.at(i) != Some(b'{') {
                self.pos = after_name;
                return;
            }
            let next = match self.key_group(i) {
                Ok((next, spans)) => {
                    self.push_keys(&command, spans);
                    next
                }
                Err(stop) => {
                    self.pos = stop;
                    return;
                }
            };
            // Lookahead for the next multicite group.
            let next_group = match shape {
                Shape::Single => None,
                Shape::Multi => {
                    let k = self.skip_ws(next);
                    matches!(self.at(k), Some(b'[') | Some(b'{')).then_some(k)
                }
            };
            match next_group {
                Some(k) => i = k,
                None => {
                    self.pos = after_name;
                    return;
                }
            }
        }
    }
}

/// A key written over several lines with comments, as TeX reads it: each
/// comment with its newline removed, and the next line's leading spaces.
fn strip_comments(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    loop {
        match find_comment(rest) {
            None => {
                out.push_str(rest.trim());
                return out;
            }
            Some(p) => {
                out.push_str(rest.get(..p).unwrap_or("").trim());
                rest = match rest.get(p..).and_then(|r| r.find('\n')) {
                    Some(n) => rest.get(p + n + 1..).unwrap_or(""),
                    None => "",
                };
            }
        }
    }
}

/// The offset of the first `%` that is not escaped.
fn find_comment(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'%' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A key rewritten by [`sync_keys`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replacement {
    /// The key as it was.
    pub old: String,
    /// The key it became.
    pub new: String,
    /// 1-based line of the key.
    pub line: usize,
    /// 1-based column of the key.
    pub column: usize,
}

/// The renames [`sync_keys`] applies for a pool: each paper's agent `key` →
/// its `bibtex_key`, where both are set and they differ (as the reference does).
pub fn pool_key_map(papers: &[crate::pool::PoolPaper]) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for p in papers {
        if let (Some(old), Some(new)) = (p.key.as_deref(), p.bibtex_key.as_deref()) {
            if !old.is_empty() && !new.is_empty() && old != new {
                map.insert(old.to_string(), new.to_string());
            }
        }
    }
    map
}

/// Rewrites cited keys through `map` (old key → new key), only inside cite
/// commands and only the key's own bytes; every other byte stays as it was.
/// Keys in comments and verbatim text are not touched.
///
/// ```
/// use std::collections::BTreeMap;
/// let map = BTreeMap::from([("lewis2020rag".to_string(), "lewis2020retrieval".to_string())]);
/// let (out, done) = citegate_core::tex::sync_keys("\\citep{lewis2020rag,  x} lewis2020rag", &map);
/// assert_eq!(out, "\\citep{lewis2020retrieval,  x} lewis2020rag");
/// assert_eq!(done.len(), 1);
/// ```
pub fn sync_keys(source: &str, map: &BTreeMap<String, String>) -> (String, Vec<Replacement>) {
    let mut out = String::with_capacity(source.len());
    let mut done = Vec::new();
    let mut copied = 0;
    for cite in scan(source).cites {
        let Some(new) = map.get(&cite.key) else {
            continue;
        };
        // A key broken by a comment is not one run of bytes; leave it alone.
        if source.get(cite.start..cite.end) != Some(cite.key.as_str()) || cite.start < copied {
            continue;
        }
        out.push_str(source.get(copied..cite.start).unwrap_or(""));
        out.push_str(new);
        copied = cite.end;
        done.push(Replacement {
            old: cite.key,
            new: new.clone(),
            line: cite.line,
            column: cite.column,
        });
    }
    out.push_str(source.get(copied..).unwrap_or(""));
    (out, done)
}

/// One source file of a project and what was found in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceFile {
    /// The file's name as given or as resolved from an include.
    pub name: String,
    /// What the scanner found in it.
    pub scan: Scan,
}

/// An `\input`/`\include` whose file was not supplied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingInclude {
    /// The file holding the command.
    pub file: String,
    /// 1-based line of the command.
    pub line: usize,
    /// The name as written.
    pub name: String,
}

/// Several sources scanned together, includes followed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Project {
    /// Each file once, roots first in the order given, then included files
    /// in the order they were first reached.
    pub files: Vec<SourceFile>,
    /// Includes whose file could not be loaded.
    pub missing: Vec<MissingInclude>,
}

impl Project {
    /// Every cite of every file, with the file's name.
    pub fn cites(&self) -> impl Iterator<Item = (&str, &Cite)> + '_ {
        self.files
            .iter()
            .flat_map(|f| f.scan.cites.iter().map(move |c| (f.name.as_str(), c)))
    }
}

/// Normalizes a `/`-separated path: drops `.` parts and folds `dir/..`.
pub fn normalize_path(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => path.get(..i).unwrap_or(""),
        None => "",
    }
}

/// The paths an include may name, most likely first: relative to the root
/// file's directory (where LaTeX runs), then to the including file's; each
/// with `.tex` added first when the name has no `.tex` ending, as `\input` does.
///
/// ```
/// let c = citegate_core::tex::include_candidates("paper/main.tex", "paper/sec/a.tex", "sec/b");
/// assert_eq!(c, ["paper/sec/b.tex", "paper/sec/b", "paper/sec/sec/b.tex", "paper/sec/sec/b"]);
/// ```
pub fn include_candidates(root: &str, from: &str, name: &str) -> Vec<String> {
    let name = name.trim();
    let mut bases = vec![dir_of(root)];
    if dir_of(from) != dir_of(root) {
        bases.push(dir_of(from));
    }
    if name.starts_with('/') {
        bases = vec![""];
    }
    let mut out: Vec<String> = Vec::new();
    for base in bases {
        let joined = if base.is_empty() {
            normalize_path(name)
        } else {
            normalize_path(&format!("{base}/{name}"))
        };
        let mut forms = Vec::new();
        if !joined.ends_with(".tex") {
            forms.push(format!("{joined}.tex"));
        }
        forms.push(joined);
        for f in forms {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// Scans the root files and every file they include, loading each through
/// `load` (which returns `None` for a file it does not have). Each file is
/// scanned once, however often it is included, so include cycles end.
pub fn scan_project_with(
    roots: &[String],
    mut load: impl FnMut(&str) -> Option<String>,
) -> Project {
    let mut project = Project::default();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // (file name, its root, its text)
    let mut queue: VecDeque<(String, String, String)> = VecDeque::new();
    for root in roots {
        if seen.insert(root.clone()) {
            if let Some(text) = load(root) {
                queue.push_back((root.clone(), root.clone(), text));
            }
        }
    }
    while let Some((name, root, text)) = queue.pop_front() {
        let found = scan(&text);
        for inc in &found.includes {
            let mut loaded = false;
            for cand in include_candidates(&root, &name, &inc.name) {
                if seen.contains(&cand) {
                    loaded = true;
                    break;
                }
                if let Some(t) = load(&cand) {
                    seen.insert(cand.clone());
                    queue.push_back((cand, root.clone(), t));
                    loaded = true;
                    break;
                }
            }
            if !loaded {
                project.missing.push(MissingInclude {
                    file: name.clone(),
                    line: inc.line,
                    name: inc.name.clone(),
                });
            }
        }
        project.files.push(SourceFile { name, scan: found });
    }
    project
}

/// [`scan_project_with`] over a map of file name → content.
pub fn scan_project(roots: &[String], files: &BTreeMap<String, String>) -> Project {
    scan_project_with(roots, |name| files.get(name).cloned())
}
