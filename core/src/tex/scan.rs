//! The scanner: one forward pass over a source that finds cites, `\nocite{*}` and includes.

use serde::Serialize;
use std::collections::HashMap;

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
    /// Where `\\nocite{*}` occurs; it cites the whole bibliography, not a key.
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

/// Scans a LaTeX source for cites, `\\nocite{*}` and included files.
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
    /// Where each `\\nocite{*}` star stands; turned into places at the end.
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
