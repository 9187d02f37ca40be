//! PDF objects and the lexer that reads them, for both the file body and
//! content streams. Every read is bounds-checked: malformed bytes end a read
//! with `None`, never a panic.

use std::collections::BTreeMap;

/// A PDF object (ISO 32000-1, 7.3). Streams keep their dictionary and the
/// byte range of their raw data in the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Object {
    Null,
    Bool(bool),
    Int(i64),
    Real(f64),
    Name(Vec<u8>),
    Str(Vec<u8>),
    Array(Vec<Object>),
    Dict(Dict),
    Ref(u32),
    /// An operator keyword in a content stream (`Tj`, `BT`…).
    Op(Vec<u8>),
}

pub(crate) type Dict = BTreeMap<Vec<u8>, Object>;

impl Object {
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Object::Int(i) => Some(*i as f64),
            Object::Real(r) => Some(*r),
            _ => None,
        }
    }
    pub(crate) fn as_name(&self) -> Option<&[u8]> {
        match self {
            Object::Name(n) => Some(n),
            _ => None,
        }
    }
    pub(crate) fn as_dict(&self) -> Option<&Dict> {
        match self {
            Object::Dict(d) => Some(d),
            _ => None,
        }
    }
    pub(crate) fn as_array(&self) -> Option<&[Object]> {
        match self {
            Object::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Nesting deeper than this is not a real document (and would overflow the stack).
const MAX_DEPTH: usize = 64;

pub(crate) fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0 | 0x0c)
}

fn is_delim(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// A cursor over bytes that reads PDF tokens and objects.
pub(crate) struct Lexer<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(bytes: &'a [u8], pos: usize) -> Self {
        Lexer { bytes, pos }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(crate) fn skip_white(&mut self) {
        while let Some(b) = self.peek() {
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(c) = self.peek() {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// A regular token (number, keyword) as bytes.
    fn word(&mut self) -> &'a [u8] {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if is_white(b) || is_delim(b) {
                break;
            }
            self.pos += 1;
        }
        self.bytes.get(start..self.pos).unwrap_or_default()
    }

    /// The next object, or `None` at the end or on bytes that are no object.
    /// `R` references are folded (`12 0 R`) when `refs` is set (file body).
    pub(crate) fn object(&mut self, refs: bool) -> Option<Object> {
        self.object_at(refs, 0)
    }

    fn object_at(&mut self, refs: bool, depth: usize) -> Option<Object> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_white();
        let b = self.peek()?;
        match b {
            b'/' => {
                self.pos += 1;
                Some(Object::Name(self.name()))
            }
            b'(' => {
                self.pos += 1;
                Some(Object::Str(self.literal()))
            }
            b'<' if self.bytes.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                let mut dict = Dict::new();
                loop {
                    self.skip_white();
                    match self.peek() {
                        None => return Some(Object::Dict(dict)),
                        Some(b'>') => {
                            self.pos += 2;
                            return Some(Object::Dict(dict));
                        }
                        Some(b'/') => {
                            self.pos += 1;
                            let key = self.name();
                            match self.object_at(refs, depth + 1) {
                                Some(value) => {
                                    dict.insert(key, value);
                                }
                                None => return Some(Object::Dict(dict)),
                            }
                        }
                        // A stray token in a dictionary: skip it.
                        Some(_) => {
                            self.object_at(refs, depth + 1)?;
                        }
                    }
                }
            }
            b'<' => {
                self.pos += 1;
                Some(Object::Str(self.hex()))
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_white();
                    match self.peek() {
                        None => return Some(Object::Array(items)),
                        Some(b']') => {
                            self.pos += 1;
                            return Some(Object::Array(items));
                        }
                        Some(_) => {
                            let item = self.object_at(refs, depth + 1)?;
                            if refs && item == Object::Op(b"R".to_vec()) {
                                fold_ref(&mut items);
                            } else {
                                items.push(item);
                            }
                        }
                    }
                }
            }
            b']' | b')' | b'>' | b'{' | b'}' => {
                self.pos += 1;
                Some(Object::Op(vec![b]))
            }
            _ => {
                let word = self.word();
                if word.is_empty() {
                    self.pos += 1;
                    return Some(Object::Op(vec![b]));
                }
                Some(self.number_or_keyword(word, refs))
            }
        }
    }

    fn number_or_keyword(&mut self, word: &[u8], refs: bool) -> Object {
        if let Some(n) = number(word) {
            // `12 0 R` in a dictionary value: look ahead for the generation and `R`.
            if refs {
                if let Object::Int(id) = n {
                    let save = self.pos;
                    self.skip_white();
                    let generation = self.word();
                    if !generation.is_empty() && generation.iter().all(u8::is_ascii_digit) {
                        self.skip_white();
                        if self.word() == b"R" {
                            return Object::Ref(u32::try_from(id).unwrap_or(0));
                        }
                    }
                    self.pos = save;
                }
            }
            return n;
        }
        match word {
            b"true" => Object::Bool(true),
            b"false" => Object::Bool(false),
            b"null" => Object::Null,
            _ => Object::Op(word.to_vec()),
        }
    }

    fn name(&mut self) -> Vec<u8> {
        let raw = self.word();
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            if b == b'#' {
                if let Some(v) = raw.get(i + 1..i + 3).and_then(hex_pair) {
                    out.push(v);
                    i += 3;
                    continue;
                }
            }
            out.push(b);
            i += 1;
        }
        out
    }

    fn literal(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                    out.push(b);
                }
                b'\\' => {
                    let Some(c) = self.peek() else { break };
                    self.pos += 1;
                    match c {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'\r' => {
                            if self.peek() == Some(b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        b'0'..=b'7' => {
                            let mut v = u32::from(c - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((v & 0xff) as u8);
                        }
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
        out
    }

    fn hex(&mut self) -> Vec<u8> {
        let mut digits = Vec::new();
        while let Some(b) = self.peek() {
            self.pos += 1;
            if b == b'>' {
                break;
            }
            if b.is_ascii_hexdigit() {
                digits.push(b);
            }
        }
        if digits.len() % 2 == 1 {
            digits.push(b'0');
        }
        digits.chunks(2).filter_map(hex_pair).collect()
    }
}

fn fold_ref(items: &mut Vec<Object>) {
    let n = items.len();
    if n >= 2 {
        if let (Some(Object::Int(id)), Some(Object::Int(_))) = (items.get(n - 2), items.get(n - 1))
        {
            let id = u32::try_from(*id).unwrap_or(0);
            items.truncate(n - 2);
            items.push(Object::Ref(id));
        }
    }
}

fn hex_pair(pair: &[u8]) -> Option<u8> {
    let s = std::str::from_utf8(pair).ok()?;
    u8::from_str_radix(s, 16).ok()
}

fn number(word: &[u8]) -> Option<Object> {
    let first = *word.first()?;
    if !(first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.')) {
        return None;
    }
    let s = std::str::from_utf8(word).ok()?;
    if let Ok(i) = s.parse::<i64>() {
        return Some(Object::Int(i));
    }
    // PDF reals have no exponent; `--5` and `5.` occur in the wild.
    let trimmed = s.trim_start_matches(['+', '-']);
    let negative = s.starts_with('-');
    let v: f64 = if trimmed.is_empty() {
        0.0
    } else if trimmed.ends_with('.') {
        trimmed.trim_end_matches('.').parse().ok()?
    } else {
        trimmed.parse().ok()?
    };
    v.is_finite()
        .then_some(Object::Real(if negative { -v } else { v }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Option<Object> {
        Lexer::new(s.as_bytes(), 0).object(true)
    }

    #[test]
    fn objects_read_as_iso_32000_writes_them() {
        let check =
            |input: &str, expected: Object| assert_eq!(read(input), Some(expected), "{input}");
        check("12", Object::Int(12));
        check("-.5", Object::Real(-0.5));
        check("/A#20B", Object::Name(b"A B".to_vec()));
        check("(a\\(b\\)c (d))", Object::Str(b"a(b)c (d)".to_vec()));
        check("(\\101\\0502)", Object::Str(b"A(2".to_vec()));
        check("<4142 4>", Object::Str(b"AB@".to_vec()));
        check(
            "[1 0 R 2]",
            Object::Array(vec![Object::Ref(1), Object::Int(2)]),
        );
        check(
            "<</K 7 0 R /N 3>>",
            Object::Dict(Dict::from([
                (b"K".to_vec(), Object::Ref(7)),
                (b"N".to_vec(), Object::Int(3)),
            ])),
        );
    }

    #[test]
    fn unclosed_and_deep_input_ends_without_panic() {
        assert!(read(&"[".repeat(10_000)).is_none());
        assert_eq!(read("<<"), Some(Object::Dict(Dict::new())));
        assert_eq!(read("(abc"), Some(Object::Str(b"abc".to_vec())));
    }
}
