//! The scanner itself: one forward pass over the bytes, with the byte tables and helpers it reads.

use super::*;
use rustc_hash::FxHashMap as HashMap;

/// Lines and columns of byte offsets given in increasing order, found in
/// one forward pass over the source, so positions cost time linear in the
/// file, not in the number of cites times the line length. (An offset before
/// the last one starts the walk over: still right, only slower.)
///
/// The newlines come from one `memchr` iterator over the whole source;
/// characters are counted only between a line's start (or the last offset)
/// and the offset. On a dense draft that is half the time of searching each
/// stretch between two cites anew.
pub(super) struct Liner<'b> {
    pub(super) b: &'b [u8],
    pub(super) newlines: memchr::Memchr<'b>,
    pub(super) next_newline: Option<usize>,
    pub(super) at: usize,
    pub(super) line0: usize,
    pub(super) col0: usize,
}

impl<'b> Liner<'b> {
    pub(super) fn new(b: &'b [u8]) -> Liner<'b> {
        let mut newlines = memchr::memchr_iter(b'\n', b);
        let next_newline = newlines.next();
        Liner {
            b,
            newlines,
            next_newline,
            at: 0,
            line0: 0,
            col0: 0,
        }
    }

    pub(super) fn place(&mut self, offset: usize) -> Place {
        if offset < self.at {
            *self = Liner::new(self.b);
        }
        let to = offset.min(self.b.len()).max(self.at);
        let mut from = self.at;
        while let Some(nl) = self.next_newline {
            if nl >= to {
                break;
            }
            self.line0 += 1;
            self.col0 = 0;
            from = nl + 1;
            self.next_newline = self.newlines.next();
        }
        // Count characters, not UTF-8 continuation bytes.
        let tail = self.b.get(from..to).unwrap_or(&[]);
        self.col0 += tail.iter().filter(|&&c| c & 0xC0 != 0x80).count();
        self.at = to;
        Place {
            line: self.line0 + 1,
            column: self.col0 + 1,
        }
    }
}

pub(super) struct Scanner<'a, 'v> {
    pub(super) src: &'a str,
    pub(super) b: &'a [u8],
    pub(super) pos: usize,
    pub(super) out: Scan,
    /// Where each `\\nocite{*}` star stands; turned into places at the end.
    pub(super) nocite_offsets: Vec<usize>,
    /// Where each include's backslash stands; turned into places at the end.
    pub(super) include_offsets: Vec<usize>,
    /// Offset of a matched `{` → offset just past its `}`.
    pub(super) brace_end: HashMap<usize, usize>,
    /// Cite commands defined so far (by this source or given).
    pub(super) learned: HashMap<String, Form>,
    /// The key spans of the group being read, reused from cite to cite.
    pub(super) spans: Vec<(usize, usize, bool)>,
    /// True while reading a definition's body: `#1` is then a parameter,
    /// kept so the definition can be learned; otherwise it is never a key.
    pub(super) in_definition: bool,
    /// Each command that cites (its name in the source, starred or not),
    /// in the order first met: [`Cite::command`] indexes it.
    pub(super) command_names: Vec<(&'a str, bool)>,
    pub(super) command_ids: HashMap<(&'a str, bool), u32>,
    /// Command ids of built-in commands by table row × 2 + starred.
    pub(super) builtin_ids: Vec<u32>,
    /// Keys that are not one run of the source: [`Cite::key`] indexes them.
    pub(super) written_ids: HashMap<String, u32>,
    /// Where reading stops: the end of the line holding `\endinput`.
    pub(super) stop_at: Option<usize>,
    /// Keys before this offset (the preamble, up to `\begin{document}`) are
    /// not recorded: no `.aux` is open yet, so LaTeX drops a `\nocite` there.
    /// biblatex records them, so with biblatex loaded this is 0.
    pub(super) preamble_end: usize,
    /// Where a streamed scan hands its cites ([`visit()`]); `out.cites`
    /// then holds only the cites not handed over yet.
    pub(super) visit: Option<&'v mut dyn Visit>,
    /// The last cite handed over, for dropping a repeat as [`Self::finish`] does.
    pub(super) handed: Option<Cite>,
    /// Control words holding `cite` looked up lately ([`Self::builtin_cached`]).
    pub(super) builtin_cache: [Option<(&'a str, Option<Known>)>; 8],
}

/// Bytes that carry on a key with nothing to note: not a space, a comment,
/// a brace, a comma or an escape.
pub(super) const PLAIN_KEY_BYTE: [bool; 256] = {
    let mut t = [true; 256];
    let special = [
        b' ', b'\t', b'\n', b'\r', b'\x0c', b'%', b'{', b'}', b',', b'\\',
    ];
    let mut k = 0;
    while k < special.len() {
        t[special[k] as usize] = false;
        k += 1;
    }
    t
};

/// [`PLAIN_KEY_BYTE`]s that make a key [`Scanner::simple_keys`] can
/// take as it is: not `#` (a macro parameter) and not `*` (`\nocite{*}`).
pub(super) const SIMPLE_KEY_BYTE: [bool; 256] = {
    let mut t = PLAIN_KEY_BYTE;
    t[b'#' as usize] = false;
    t[b'*' as usize] = false;
    t
};

/// Bytes [`Scanner::skip_delimited`] acts on, besides the closing one.
pub(super) const DELIMITED_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let special = [b'\\', b'%', b'\n', b'{', b'}'];
    let mut k = 0;
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

/// The offset of the first `%` or `\\` in `b`. The next command is
/// usually a line or so away, where `memchr2`'s set-up and calls cost more
/// than the search: the first 64 bytes are looked at eight at a time in a
/// machine word (a byte equal to either is a zero byte of the word XOR the
/// byte repeated, and the lowest zero byte found by the borrow trick is
/// exact), the rest by `memchr2`.
pub(super) fn next_special(b: &[u8]) -> Option<usize> {
    pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
    pub(super) const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_bytes = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let mut at = 0;
    while at < 64 {
        let Some(word) = b.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        let found =
            zero_bytes(x ^ (ONES * u64::from(b'\\'))) | zero_bytes(x ^ (ONES * u64::from(b'%')));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr::memchr2(b'%', b'\\', b.get(at..)?).map(|n| at + n)
}

/// `a == b` for control words: a name of four to eight bytes (`cite`,
/// `citep`, `citeauthor` is longer) is compared as two overlapping 4-byte
/// words, without the call to `memcmp` that comparing slices makes.
pub(super) fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (4..=8).contains(&n) {
        let word = |s: &[u8], at: usize| {
            s.get(at..at + 4)
                .and_then(|w| <[u8; 4]>::try_from(w).ok())
                .map(u32::from_ne_bytes)
        };
        return word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4);
    }
    a == b
}

pub(super) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl<'a, 'v> Scanner<'a, 'v> {
    pub(super) fn new(src: &'a str, in_definition: bool) -> Scanner<'a, 'v> {
        Scanner {
            src,
            b: src.as_bytes(),
            pos: 0,
            out: Scan::default(),
            nocite_offsets: Vec::new(),
            include_offsets: Vec::new(),
            brace_end: HashMap::default(),
            learned: HashMap::default(),
            spans: Vec::new(),
            command_names: Vec::new(),
            command_ids: HashMap::default(),
            builtin_ids: Vec::new(),
            written_ids: HashMap::default(),
            in_definition,
            stop_at: None,
            preamble_end: if in_definition { 0 } else { preamble_end(src) },
            visit: None,
            handed: None,
            builtin_cache: [None; 8],
        }
    }

    /// [`builtin_lookup`] of a control word holding `cite`, remembered: a
    /// draft uses a few cite commands over and over, and comparing a name
    /// with the one last seen in its slot is cheaper than finding it in the
    /// table (whose lines the scan keeps pushing out of the cache). The
    /// slot is chosen by the name's length and last byte.
    pub(super) fn builtin_cached(&mut self, name: &'a str) -> Option<Known> {
        let last = name.as_bytes().last().copied().map_or(0, usize::from);
        let slot = (name.len() * 3 + last) % self.builtin_cache.len();
        if let Some(Some((seen, known))) = self.builtin_cache.get(slot) {
            if same_name(seen, name) {
                return *known;
            }
        }
        let known = builtin_lookup(name);
        if let Some(entry) = self.builtin_cache.get_mut(slot) {
            *entry = Some((name, known));
        }
        known
    }

    /// Hands the visitor every pending cite before offset `upto`, in the
    /// order and number [`Self::finish`] leaves them: sorted by offset (a
    /// stable sort: cites at one offset keep the order they were found in),
    /// a repeat of the cite before it (same offset, same key) dropped.
    ///
    /// Every cite found later starts at or after the backslash of the
    /// command being read, so called with that offset before each command,
    /// and with `usize::MAX` at the end, this hands over the same sequence as
    /// sorting all the cites at the end would.
    pub(super) fn hand_over(&mut self, upto: usize) {
        let Some(visit) = self.visit.as_deref_mut() else {
            return;
        };
        let pending = &mut self.out.cites;
        if !pending.is_sorted_by_key(|c| c.start) {
            pending.sort_by_key(|c| c.start);
        }
        let n = pending.partition_point(|c| c.start < upto);
        if n == 0 {
            return;
        }
        let (src, written) = (self.src, &self.out.written);
        for c in pending.drain(..n) {
            let key = key_text(src, written, &c);
            if let Some(last) = &self.handed {
                if last.start == c.start && key_text(src, written, last) == key {
                    continue;
                }
            }
            visit.cite(
                src,
                Found {
                    key,
                    start: c.start,
                    nocite: c.nocite(),
                },
            );
            self.handed = Some(c);
        }
    }

    /// Puts cites in source order (a cite inside a braced note is found after
    /// the command around it) and fills in every line and column.
    pub(super) fn finish(mut self) -> Scan {
        // Each name's last definition, if the name is still a cite command.
        let mut seen = std::collections::HashSet::new();
        let mut definitions: Vec<Definition> = std::mem::take(&mut self.out.definitions)
            .into_iter()
            .rev()
            .filter(|d| seen.insert(d.name.clone()))
            .filter(|d| self.learned.get(&d.name) == Some(&d.form))
            .collect();
        definitions.reverse();
        self.out.definitions = definitions;
        // Usually in order already; checking first spares the sort's
        // scratch copy of every cite.
        if !self.out.cites.is_sorted_by_key(|c| c.start) {
            self.out.cites.sort_by_key(|c| c.start);
        }
        // A command whose note swallowed another command's start (brackets do
        // not nest) is scanned again from its name; a key is reported once.
        // (A wrapper's fixed keys share the wrapper's offset, so the key is
        // part of what makes a cite the same.)
        let (src, written) = (self.src, &self.out.written);
        self.out.cites.dedup_by(|a, b| {
            a.start == b.start && key_text(src, written, a) == key_text(src, written, b)
        });
        self.out.in_definitions.sort_by_key(|c| c.start);
        // Each list is in source order, so each is placed in one walk.
        let mut liner = Liner::new(self.b);
        for cite in &mut self.out.cites {
            cite.set_place(liner.place(cite.start));
        }
        let mut liner = Liner::new(self.b);
        for cite in &mut self.out.in_definitions {
            cite.set_place(liner.place(cite.start));
        }
        self.nocite_offsets.sort_unstable();
        let mut liner = Liner::new(self.b);
        self.out.nocite_all = self
            .nocite_offsets
            .iter()
            .map(|&o| liner.place(o))
            .collect();
        let mut liner = Liner::new(self.b);
        for (inc, &o) in self.out.includes.iter_mut().zip(&self.include_offsets) {
            let p = liner.place(o);
            inc.line = p.line;
            inc.column = p.column;
        }
        self.out.commands = self
            .command_names
            .iter()
            .map(|&(name, star)| {
                if star {
                    format!("{name}*")
                } else {
                    name.to_string()
                }
            })
            .collect();
        self.out
    }

    /// The index of a cite command in [`Scan::commands`], added when new.
    pub(super) fn command_id(&mut self, name: &'a str, star: bool) -> u32 {
        // Most drafts use one or two commands over and over.
        if let Some(&(last, last_star)) = self.command_names.last() {
            if last_star == star && last == name {
                return u32::try_from(self.command_names.len() - 1)
                    .unwrap_or(u32::MAX)
                    .min(!NOCITE);
            }
        }
        if let Some(&id) = self.command_ids.get(&(name, star)) {
            return id;
        }
        let id = u32::try_from(self.command_names.len())
            .unwrap_or(u32::MAX)
            .min(!NOCITE);
        self.command_names.push((name, star));
        self.command_ids.insert((name, star), id);
        id
    }

    /// The index of a key in [`Scan::written`], added when new.
    pub(super) fn written_id(&mut self, key: &str) -> u32 {
        if let Some(&id) = self.written_ids.get(key) {
            return id;
        }
        // Never `IN_SOURCE`: past four billion keys the last one is reused.
        let id = u32::try_from(self.out.written.len())
            .unwrap_or(IN_SOURCE - 1)
            .min(IN_SOURCE - 1);
        self.out.written.push(key.to_string());
        self.written_ids.insert(key.to_string(), id);
        id
    }

    pub(super) fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    pub(super) fn run(&mut self) {
        while self.pos < self.b.len() {
            // After `\endinput`, TeX reads the rest of that line only.
            let limit = self.stop_at.unwrap_or(self.b.len()).min(self.b.len());
            if self.pos >= limit {
                self.pos = self.b.len();
                break;
            }
            let rest = self.b.get(self.pos..limit).unwrap_or(&[]);
            match next_special(rest) {
                None => self.pos = self.b.len(),
                Some(i) => {
                    self.pos += i;
                    if self.at(self.pos) == Some(b'%') {
                        self.pos = self.line_end(self.pos);
                    } else {
                        if !self.out.cites.is_empty() {
                            self.hand_over(self.pos);
                        }
                        self.control();
                    }
                }
            }
        }
        self.hand_over(usize::MAX);
    }

    /// The offset just past the newline that ends the line holding `i`.
    pub(super) fn line_end(&self, i: usize) -> usize {
        match self.b.get(i..).and_then(|r| memchr::memchr(b'\n', r)) {
            Some(n) => i + n + 1,
            None => self.b.len(),
        }
    }

    /// Skips spaces, newlines and comments, stopping at a blank line (a `\par`).
    pub(super) fn skip_ws(&self, mut i: usize) -> usize {
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
    pub(super) fn control(&mut self) {
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
        // Cite commands first, the common case in a draft: of the names
        // matched below only biblatex's `\Declare…CiteCommand` hold `cite`.
        if has_cite(name) && !name.starts_with("Declare") {
            self.cite_or_learned(start, name, true);
            return;
        }
        match name {
            "begin" => self.begin_env(),
            "end" => self.end_env(),
            "endinput" => {
                let stop = self.line_end(self.pos);
                self.stop_at = Some(self.stop_at.map_or(stop, |s| s.min(stop)));
            }
            "iffalse" => self.skip_false(),
            "deleted" => self.skip_deleted(),
            "verb" => self.skip_verb(),
            "input" | "include" | "subfile" => self.include(start, name),
            "import" | "subimport" | "inputfrom" | "includefrom" | "subinputfrom"
            | "subincludefrom" => self.import(start, name),
            // Inside a body, a nested definition is read as plain text, so
            // each byte of a source is read by at most two scanners.
            _ if is_definition(name) => {
                if !self.in_definition {
                    self.define(name);
                }
            }
            _ => self.cite_or_learned(start, name, false),
        }
    }

    /// A control word that may be a learned command or a built-in cite
    /// command (`has_cite`: the name is known to hold `cite`).
    pub(super) fn cite_or_learned(&mut self, start: usize, name: &'a str, has_cite: bool) {
        let learned = if self.learned.is_empty() {
            None
        } else {
            self.learned.get(name).cloned()
        };
        if let Some(form) = learned {
            self.use_learned(start, name, &form);
        } else if let Some(known) = if has_cite {
            self.builtin_cached(name)
        } else {
            builtin(name)
        } {
            self.cite(name, known);
        }
    }

    /// After a command that defines a command.
    pub(super) fn define(&mut self, name: &str) {
        match name {
            "def" | "gdef" | "edef" | "xdef" => self.define_def(),
            "let" | "NewCommandCopy" | "RenewCommandCopy" | "DeclareCommandCopy" => {
                self.define_let()
            }
            "DeclareCiteCommand" => self.declare_cite(Shape::Single),
            "DeclareMultiCiteCommand" => self.declare_cite(Shape::Multi),
            "NewDocumentCommand"
            | "RenewDocumentCommand"
            | "ProvideDocumentCommand"
            | "DeclareDocumentCommand" => self.define_document_command(),
            _ => self.define_command(),
        }
    }

    /// After `\end`: `\end{document}` ends what LaTeX reads.
    pub(super) fn end_env(&mut self) {
        let i = self.skip_spaces(self.pos);
        if self
            .b
            .get(i..)
            .is_some_and(|r| r.starts_with(b"{document}"))
        {
            self.pos = self.b.len();
        }
    }

    /// Skips spaces and tabs (not newlines).
    pub(super) fn skip_spaces(&self, mut i: usize) -> usize {
        while self.at(i).is_some_and(|c| c == b' ' || c == b'\t') {
            i += 1;
        }
        i
    }

    /// The control word starting at `i` (a backslash): its name and the offset after it.
    pub(super) fn control_word(&self, i: usize) -> Option<(&'a str, usize)> {
        if self.at(i) != Some(b'\\') {
            return None;
        }
        let mut end = i + 1;
        while self.at(end).is_some_and(|c| c.is_ascii_alphabetic()) {
            end += 1;
        }
        if end == i + 1 {
            // A control symbol: `\@` and the like count as one character.
            return self.src.get(i + 1..i + 2).map(|n| (n, i + 2));
        }
        self.src.get(i + 1..end).map(|n| (n, end))
    }

    /// After `\iffalse`: skip to the matching `\else` or `\fi`, counting the
    /// conditionals nested inside, as TeX does when it skips a false branch.
    pub(super) fn skip_false(&mut self) {
        let mut depth = 0usize;
        let mut i = self.pos;
        loop {
            let rest = self.b.get(i..).unwrap_or(&[]);
            let Some(n) = memchr::memchr2(b'%', b'\\', rest) else {
                self.pos = self.b.len();
                return;
            };
            i += n;
            if self.at(i) == Some(b'%') {
                i = self.line_end(i);
                continue;
            }
            let Some((name, end)) = self.control_word(i) else {
                self.pos = self.b.len();
                return;
            };
            i = end;
            match name {
                "fi" if depth == 0 => break,
                "fi" => depth -= 1,
                "else" | "or" if depth == 0 => break,
                // `\newif\iffoo` defines a conditional; it opens nothing.
                "newif" => {
                    let j = self.skip_ws(i);
                    if let Some((_, after)) = self.control_word(j) {
                        i = after;
                    }
                }
                n if n.starts_with("if") && !matches!(n, "iff" | "ifthenelse") => depth += 1,
                _ => {}
            }
        }
        self.pos = i;
    }

    /// After `\deleted` (the `changes` package, AASTeX): its text is not in
    /// the final document, so its cites are not read.
    pub(super) fn skip_deleted(&mut self) {
        let mut i = self.skip_ws(self.pos);
        if self.at(i) == Some(b'[') {
            match self.skip_delimited(i, b']') {
                Ok(next) => i = self.skip_ws(next),
                Err(_) => return,
            }
        }
        if self.at(i) == Some(b'{') {
            // Unclosed, TeX would read to the end of the file as its argument.
            self.pos = self.group_end(i).unwrap_or(self.b.len());
        }
    }

    /// The offset just past the `}` matching the `{` at `i`, honouring
    /// escapes and comments; `None` if it never closes.
    pub(super) fn group_end(&self, i: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut j = i;
        while let Some(c) = self.at(j) {
            match c {
                b'\\' => j += 2,
                b'%' => j = self.line_end(j),
                b'{' => {
                    depth += 1;
                    j += 1;
                }
                b'}' => {
                    depth = depth.saturating_sub(1);
                    j += 1;
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => j += 1,
            }
        }
        None
    }

    /// The command name a definition defines: `{\name}` or `\name` at `i`.
    pub(super) fn defined_name(&self, i: usize) -> Option<(&'a str, usize)> {
        let i = self.skip_ws(i);
        if self.at(i) == Some(b'{') {
            let j = self.skip_ws(i + 1);
            let (name, after) = self.control_word(j)?;
            let k = self.skip_ws(after);
            (self.at(k) == Some(b'}')).then_some((name, k + 1))
        } else {
            self.control_word(i)
        }
    }

    /// After `\newcommand` and its kin: `*`? `{\name}` `[n]`? `[default]`? `{body}`.
    pub(super) fn define_command(&mut self) {
        let mut i = self.skip_ws(self.pos);
        if self.at(i) == Some(b'*') {
            i += 1;
        }
        let Some((name, after)) = self.defined_name(i) else {
            return;
        };
        i = self.skip_ws(after);
        let mut count = 0usize;
        let mut default = false;
        if self.at(i) == Some(b'[') {
            let Ok(next) = self.skip_delimited(i, b']') else {
                return;
            };
            count = self
                .src
                .get(i + 1..next - 1)
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(0);
            i = self.skip_ws(next);
            if self.at(i) == Some(b'[') {
                let Ok(next) = self.skip_delimited(i, b']') else {
                    return;
                };
                default = true;
                i = self.skip_ws(next);
            }
        }
        let params: String = (1..=count.min(9))
            .map(|k| if k == 1 && default { 'o' } else { 'm' })
            .collect();
        self.define_body(name, params, i);
    }

    /// After `\def`: `\name`, a parameter text up to `{`, then `{body}`.
    pub(super) fn define_def(&mut self) {
        let Some((name, after)) = self.defined_name(self.pos) else {
            return;
        };
        let rest = self.b.get(after..).unwrap_or(&[]);
        let Some(open) = rest.iter().take(200).position(|&c| c == b'{') else {
            return;
        };
        let text = self.src.get(after..after + open).unwrap_or("");
        let count = text.matches('#').count().min(9);
        let params = "m".repeat(count);
        self.define_body(name, params, after + open);
    }

    /// After `\NewDocumentCommand` and its kin: `{\name}{spec}{body}`, with the
    /// argument types `m`, `o`, `O{…}` and `s` understood.
    pub(super) fn define_document_command(&mut self) {
        let Some((name, after)) = self.defined_name(self.pos) else {
            return;
        };
        let i = self.skip_ws(after);
        if self.at(i) != Some(b'{') {
            return;
        }
        let Some(spec_end) = self.group_end(i) else {
            self.pos = self.b.len();
            return;
        };
        let spec = self.src.get(i + 1..spec_end - 1).unwrap_or("");
        let mut params = String::new();
        let mut chars = spec.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                'm' | 'o' | 's' => params.push(c),
                'O' => {
                    params.push('o');
                    // Skip the `{default}`.
                    while chars.next_if(|d| d.is_whitespace()).is_some() {}
                    if chars.next_if_eq(&'{').is_some() {
                        let mut depth = 1;
                        for d in chars.by_ref() {
                            match d {
                                '{' => depth += 1,
                                '}' => depth -= 1,
                                _ => {}
                            }
                            if depth == 0 {
                                break;
                            }
                        }
                    }
                }
                '+' | '!' | ' ' | '\t' | '\n' | '\r' => {}
                // Any other argument type: the uses cannot be read safely.
                _ => {
                    self.pos = spec_end;
                    return;
                }
            }
        }
        self.define_body(name, params, self.skip_ws(spec_end));
    }

    /// Reads a definition's `{body}` at `i`: when the body cites, the command
    /// is learned as a wrapper. Cites in a body are not cites of the document
    /// (LaTeX runs the body only where the command is used), so the scan
    /// resumes after the body.
    pub(super) fn define_body(&mut self, name: &str, params: String, i: usize) {
        let src = self.src;
        if self.at(i) != Some(b'{') {
            return;
        }
        let Some(end) = self.group_end(i) else {
            // A body that never closes runs to the end of the file.
            self.pos = self.b.len();
            return;
        };
        let body = src.get(i + 1..end - 1).unwrap_or("");
        // `\newcommand{\mycite}{\citep}`: another name for a cite command,
        // which then reads its own arguments after the new name.
        if params.is_empty() {
            if let Some(form) = self.form_of_name(body.trim()) {
                self.pos = end;
                self.learn(name, form);
                return;
            }
        }
        let mut inner = Scanner::new(body, true);
        // Lent, not copied: a preamble of many definitions stays linear.
        inner.learned = std::mem::take(&mut self.learned);
        inner.run();
        self.learned = std::mem::take(&mut inner.learned);
        let names = inner.command_names.clone();
        let found = inner.finish();
        self.pos = end;
        // Written keys (not parameters) keep their place in this source.
        let shift = i + 1;
        for c in found.cites.iter().chain(&found.in_definitions) {
            let text = key_text(body, &found.written, c);
            if !text.contains('#') {
                let key = if c.key == IN_SOURCE {
                    IN_SOURCE
                } else {
                    self.written_id(text)
                };
                let command = match names.get(c.command_index()) {
                    Some(&(n, star)) => self.command_id(n, star),
                    None => !NOCITE,
                };
                let mut shifted =
                    Cite::new(c.start + shift, c.end + shift, key, command, c.nocite());
                shifted.line = c.line;
                shifted.column = c.column;
                self.out.in_definitions.push(shifted);
            }
        }
        if found.cites.is_empty() {
            // A redefinition that no longer cites forgets the command.
            self.learned.remove(name);
            return;
        }
        let mut key_params = Vec::new();
        let mut keys = Vec::new();
        for c in &found.cites {
            let text = key_text(body, &found.written, c);
            match param_number(text) {
                Some(k) if k <= params.len() && !key_params.contains(&k) => key_params.push(k),
                Some(_) => {}
                None if !text.contains('#') => keys.push(text.to_string()),
                None => {}
            }
        }
        let nocite = found.cites.iter().all(|c| c.nocite());
        self.learn(
            name,
            Form::Wrapper {
                params,
                key_params,
                keys,
                nocite,
            },
        );
    }

    /// Learns a cite command. [`Self::finish`] keeps each name's last
    /// definition only, so learning costs the same however many there are.
    pub(super) fn learn(&mut self, name: &str, form: Form) {
        self.learned.insert(name.to_string(), form.clone());
        self.out.definitions.push(Definition {
            name: name.to_string(),
            form,
        });
    }

    /// After `\let` (or `\NewCommandCopy`): `\new` `=`? `\old`, or `{\new}{\old}`.
    pub(super) fn define_let(&mut self) {
        let Some((name, after)) = self.defined_name(self.pos) else {
            return;
        };
        let mut i = self.skip_ws(after);
        if self.at(i) == Some(b'=') {
            i = self.skip_ws(i + 1);
        }
        let Some((old, end)) = self.defined_name(i) else {
            return;
        };
        self.pos = end;
        if let Some(form) = self.form_of_name(&format!("\\{old}")) {
            self.learn(name, form);
        }
    }

    /// How the cite command written as `text` (`\citep`, nothing else)
    /// reads its arguments, if it is one.
    pub(super) fn form_of_name(&self, text: &str) -> Option<Form> {
        let name = text.strip_prefix('\\')?;
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        match self.learned.get(name) {
            Some(f) => Some(f.clone()),
            None => builtin(name).map(|k| Form::Like {
                shape: k.shape.name().to_string(),
                nocite: k.nocite,
            }),
        }
    }

    /// After `\DeclareCiteCommand` or `\DeclareMultiCiteCommand`: the named
    /// command takes biblatex's arguments. The code arguments are left to
    /// the scan; they cite nothing themselves.
    pub(super) fn declare_cite(&mut self, shape: Shape) {
        let mut i = self.skip_ws(self.pos);
        if self.at(i) == Some(b'*') {
            // The starred variant of a command declared the same way.
            i += 1;
        }
        let Some((name, after)) = self.defined_name(i) else {
            return;
        };
        self.pos = after;
        self.learn(
            name,
            Form::Like {
                shape: shape.name().to_string(),
                nocite: false,
            },
        );
    }

    /// A use of a learned command.
    pub(super) fn use_learned(&mut self, start: usize, name: &'a str, form: &Form) {
        match form {
            Form::Like { shape, nocite } => {
                if let Some(shape) = Shape::parse(shape) {
                    self.cite(
                        name,
                        Known {
                            shape,
                            nocite: *nocite,
                            row: LEARNED,
                        },
                    );
                }
            }
            Form::Wrapper {
                params,
                key_params,
                keys,
                nocite,
            } => self.use_wrapper(start, name, params, key_params, keys, *nocite),
        }
    }

    /// A use of a wrapper: reads its arguments as declared and records the
    /// keys of the parameters its body cites, then its fixed keys.
    pub(super) fn use_wrapper(
        &mut self,
        start: usize,
        name: &'a str,
        params: &str,
        key_params: &[usize],
        keys: &[String],
        nocite: bool,
    ) {
        let after_name = self.pos;
        let mut i = after_name;
        for (k, p) in params.chars().enumerate() {
            let j = self.skip_ws(i);
            match p {
                's' => {
                    if self.at(j) == Some(b'*') {
                        i = j + 1;
                    }
                }
                'o' => {
                    if self.at(j) == Some(b'[') {
                        match self.skip_delimited(j, b']') {
                            Ok(next) => i = next,
                            Err(stop) => {
                                self.pos = stop;
                                return;
                            }
                        }
                    }
                }
                _ => {
                    if self.at(j) != Some(b'{') {
                        // An argument of one token, or none at all: TeX
                        // would take the next token; a key is never one.
                        self.pos = after_name;
                        return;
                    }
                    if key_params.contains(&(k + 1)) {
                        let command = self.command_id(name, false);
                        match self.read_keys(j, command, nocite) {
                            Ok(next) => i = next,
                            Err(stop) => {
                                self.pos = stop;
                                return;
                            }
                        }
                    } else {
                        match self.group_end(j) {
                            Some(next) => i = next,
                            None => {
                                self.pos = self.b.len();
                                return;
                            }
                        }
                    }
                }
            }
        }
        if start < self.preamble_end {
            self.pos = after_name;
            return;
        }
        let command = self.command_id(name, false);
        for key in keys {
            let key = self.written_id(key);
            self.out
                .cites
                .push(Cite::new(start, after_name, key, command, nocite));
        }
        self.pos = after_name;
    }

    /// After `\begin`: jump over the body of a verbatim-like environment.
    pub(super) fn begin_env(&mut self) {
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
        match self
            .b
            .get(body..)
            .and_then(|r| memchr::memmem::find(r, end_tag.as_bytes()))
        {
            Some(n) => self.pos = body + n + end_tag.len(),
            None => self.pos = self.b.len(),
        }
    }

    /// After `\verb`: skip `\verb|…|` (or `\verb*|…|`), which cannot span lines.
    pub(super) fn skip_verb(&mut self) {
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
    pub(super) fn include(&mut self, start: usize, command: &str) {
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
                dir: None,
                line: 0,
                column: 0,
            });
        }
        self.pos = next;
    }

    /// After one of the `import` package's commands: `*`? `{dir}{file}`.
    pub(super) fn import(&mut self, start: usize, command: &str) {
        let mut i = self.skip_ws(self.pos);
        if self.at(i) == Some(b'*') {
            i = self.skip_ws(i + 1);
        }
        let mut args = Vec::new();
        for _ in 0..2 {
            if self.at(i) != Some(b'{') {
                return;
            }
            let Some(end) = self.group_end(i) else {
                self.pos = self.b.len();
                return;
            };
            args.push(self.src.get(i + 1..end - 1).unwrap_or("").trim());
            i = self.skip_ws(end);
        }
        let (Some(dir), Some(file)) = (args.first(), args.get(1)) else {
            return;
        };
        if file.is_empty() {
            return;
        }
        self.include_offsets.push(start);
        self.out.includes.push(Include {
            name: file.to_string(),
            command: command.to_string(),
            dir: Some(dir.to_string()),
            line: 0,
            column: 0,
        });
        self.pos = i;
    }

    /// True if the line starting at `i` is blank: a paragraph break, which
    /// ends any argument of a cite command (they are not `\long`).
    pub(super) fn blank_line_at(&self, mut i: usize) -> bool {
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
    pub(super) fn skip_delimited(&mut self, i: usize, close: u8) -> Result<usize, usize> {
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
                _ => {
                    // Ordinary text is taken a run at a time.
                    let rest = self.b.get(j + 1..).unwrap_or(&[]);
                    j += 1 + rest
                        .iter()
                        .position(|&c| DELIMITED_SPECIAL[usize::from(c)] || c == close)
                        .unwrap_or(rest.len());
                }
            }
        }
        Err(self.b.len())
    }

    /// Reads a `{keys}` group starting at `i`. Returns the offset after it and
    /// puts the keys' spans (start, end, broken by a comment) in `keys`
    /// (cleared first), or `Err(stop)` if the
    /// group does not close before a blank line or the end of the file.
    pub(super) fn key_group(
        &self,
        i: usize,
        keys: &mut Vec<(usize, usize, bool)>,
    ) -> Result<usize, usize> {
        keys.clear();
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
                        return Ok(j + 1);
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
                // An escape's next byte belongs to the key too; other key
                // bytes are taken a run at a time.
                let width = if c == b'\\' {
                    if self.at(j + 1).is_some() {
                        2
                    } else {
                        1
                    }
                } else {
                    let rest = self.b.get(j + 1..).unwrap_or(&[]);
                    1 + rest
                        .iter()
                        .position(|&c| !PLAIN_KEY_BYTE[usize::from(c)])
                        .unwrap_or(rest.len())
                };
                key_end = j + width;
                j += width;
            } else {
                j += 1;
            }
        }
    }

    /// The common case of [`Self::read_keys`]: `{a}`, `{a, b}` — keys of
    /// [`SIMPLE_KEY_BYTE`]s with spaces around the commas and nothing else —
    /// read and recorded a key at a time. Such keys need none of the checks
    /// of [`Self::push_keys`] (no comment, no `#`, not `*`, not empty).
    /// `None`, with nothing recorded, for anything else, which
    /// [`Self::key_group`] then reads from the start.
    pub(super) fn simple_keys(&mut self, i: usize, command: u32, nocite: bool) -> Option<usize> {
        let b = self.b;
        let recorded = self.out.cites.len();
        let mut j = i + 1;
        loop {
            while b.get(j) == Some(&b' ') {
                j += 1;
            }
            let rest = b.get(j..).unwrap_or(&[]);
            let run = rest
                .iter()
                .position(|&c| !SIMPLE_KEY_BYTE[usize::from(c)])
                .unwrap_or(rest.len());
            if run == 0 {
                break;
            }
            if j >= self.preamble_end {
                let c = Cite::new(j, j + run, IN_SOURCE, command, nocite);
                self.out.cites.push(c);
            }
            j += run;
            while b.get(j) == Some(&b' ') {
                j += 1;
            }
            match b.get(j) {
                Some(b',') => j += 1,
                Some(b'}') => return Some(j + 1),
                _ => break,
            }
        }
        self.out.cites.truncate(recorded);
        None
    }

    /// [`Self::key_group`] then [`Self::push_keys`], with the span buffer reused.
    pub(super) fn read_keys(
        &mut self,
        i: usize,
        command: u32,
        nocite: bool,
    ) -> Result<usize, usize> {
        if let Some(end) = self.simple_keys(i, command, nocite) {
            return Ok(end);
        }
        let mut spans = std::mem::take(&mut self.spans);
        let read = self.key_group(i, &mut spans);
        if read.is_ok() {
            self.push_keys(command, &spans, nocite);
        }
        self.spans = spans;
        read
    }

    /// Records the keys of one `{…}` group.
    pub(super) fn push_keys(&mut self, command: u32, spans: &[(usize, usize, bool)], nocite: bool) {
        for &(start, end, commented) in spans {
            if start < self.preamble_end {
                continue;
            }
            let raw = self.src.get(start..end).unwrap_or("");
            let stripped;
            let key = if commented {
                stripped = strip_comments(raw);
                stripped.as_str()
            } else {
                raw
            };
            if key.is_empty() {
                continue;
            }
            if key == "*" && nocite {
                self.nocite_offsets.push(start);
                continue;
            }
            // A macro parameter (`#1`) is a key only inside a definition,
            // where it tells which argument a wrapper cites.
            if key.contains('#') && !self.in_definition {
                continue;
            }
            let key = if commented {
                self.written_id(key)
            } else {
                IN_SOURCE
            };
            self.out
                .cites
                .push(Cite::new(start, end, key, command, nocite));
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
    pub(super) fn cite(&mut self, name: &'a str, known: Known) {
        let shape = known.shape;
        let after_name = self.pos;
        let mut i = self.skip_ws(self.pos);
        let star = self.at(i) == Some(b'*');
        if star {
            i = self.skip_ws(i + 1);
        }
        // A built-in command's id is remembered by its row: no hashing.
        let slot = usize::from(known.row) * 2 + usize::from(star);
        let command = match self.builtin_ids.get(slot) {
            Some(&id) if known.row != LEARNED && id != u32::MAX => id,
            _ => {
                let id = self.command_id(name, star);
                if known.row != LEARNED {
                    if self.builtin_ids.len() <= slot {
                        self.builtin_ids.resize(slot + 1, u32::MAX);
                    }
                    if let Some(s) = self.builtin_ids.get_mut(slot) {
                        *s = id;
                    }
                }
                id
            }
        };
        if matches!(shape, Shape::Multi | Shape::Volcites) {
            match self.optionals(i, b'(', b')', 2) {
                Ok(next) => i = next,
                Err(stop) => {
                    self.pos = stop;
                    return;
                }
            }
        }
        loop {
            let before_keys = match shape {
                // apacite's `\cite<see>[p.~2]{k}`: an angle-bracket prefix first.
                Shape::Single => self
                    .optionals(i, b'<', b'>', 1)
                    .and_then(|i| self.optionals(i, b'[', b']', 2)),
                Shape::Multi => self.optionals(i, b'[', b']', 2),
                // `[pre]{volume}[pages]` before the key.
                Shape::Volcite | Shape::Volcites => {
                    self.optionals(i, b'[', b']', 1).and_then(|i| {
                        if self.at(i) != Some(b'{') {
                            return Ok(i);
                        }
                        let end = self.group_end(i).ok_or(self.b.len())?;
                        self.optionals(self.skip_ws(end), b'[', b']', 1)
                    })
                }
            };
            match before_keys {
                Ok(next) => i = next,
                Err(stop) => {
                    self.pos = stop;
                    return;
                }
            }
            if self.at(i) != Some(b'{') {
                self.pos = after_name;
                return;
            }
            let next = match self.read_keys(i, command, known.nocite) {
                Ok(next) => next,
                Err(stop) => {
                    self.pos = stop;
                    return;
                }
            };
            // Lookahead for the next multicite group.
            let next_group = match shape {
                Shape::Single | Shape::Volcite => None,
                Shape::Multi | Shape::Volcites => {
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

    /// Skips up to `max` optional arguments delimited by `open` and `close`
    /// from `i`, and the spaces after each. `Err(stop)` as [`Self::skip_delimited`].
    pub(super) fn optionals(
        &mut self,
        mut i: usize,
        open: u8,
        close: u8,
        max: usize,
    ) -> Result<usize, usize> {
        for _ in 0..max {
            if self.at(i) != Some(open) {
                break;
            }
            let next = self.skip_delimited(i, close)?;
            i = self.skip_ws(next);
        }
        Ok(i)
    }
}

/// Where the preamble ends: the offset of `\begin{document}` in a source
/// that has one (a main file), unless the preamble loads biblatex, which
/// records a `\nocite` given there; 0 otherwise.
///
/// Only a source whose `\documentclass` comes before its `\begin{document}`
/// with no environment opened before it counts as a main file: a chapter that
/// shows a whole document in a `verbatim` example keeps all its keys.
pub(super) fn preamble_end(src: &str) -> usize {
    // A chapter has no `\\begin{document}`: the search reads all of it.
    // `memmem`'s vector search takes 0.1–0.2 ms less than `str::find` on
    // a 5 MB chapter (whole process, medians of 150 runs in turns, three
    // runs: 4.01 → 3.80, 4.05 → 3.92, 4.14 → 4.02 ms).
    let Some(at) = memchr::memmem::find(src.as_bytes(), b"\\begin{document}") else {
        return 0;
    };
    let preamble = src.get(..at).unwrap_or("");
    let main_file = preamble
        .find("\\documentclass")
        .is_some_and(|class| preamble.find("\\begin{").is_none_or(|env| class < env));
    if !main_file {
        return 0;
    }
    if preamble.contains("{biblatex}") || preamble.contains(",biblatex}") {
        0
    } else {
        at
    }
}

/// Whether `name` is a command that defines a command.
pub(super) fn is_definition(name: &str) -> bool {
    matches!(
        name,
        "newcommand"
            | "renewcommand"
            | "providecommand"
            | "DeclareRobustCommand"
            | "newrobustcmd"
            | "renewrobustcmd"
            | "providerobustcmd"
            | "def"
            | "gdef"
            | "edef"
            | "xdef"
            | "let"
            | "NewCommandCopy"
            | "RenewCommandCopy"
            | "DeclareCommandCopy"
            | "DeclareCiteCommand"
            | "DeclareMultiCiteCommand"
            | "NewDocumentCommand"
            | "RenewDocumentCommand"
            | "ProvideDocumentCommand"
            | "DeclareDocumentCommand"
    )
}

/// `n` for a macro parameter `#n`.
pub(super) fn param_number(key: &str) -> Option<usize> {
    let digit = key.strip_prefix('#')?;
    let n: usize = digit.parse().ok()?;
    (digit.len() == 1 && n >= 1).then_some(n)
}

/// A key written over several lines with comments, as TeX reads it: each
/// comment with its newline removed, and the next line's leading spaces.
pub(super) fn strip_comments(raw: &str) -> String {
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
pub(super) fn find_comment(s: &str) -> Option<usize> {
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
