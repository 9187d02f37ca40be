//! A font as text extraction needs it: how its string bytes split into
//! codes, what text each code stands for, and how wide each glyph is.
//!
//! Text comes from the font's ToUnicode map when it has one; otherwise from
//! its encoding (a base encoding plus `/Differences`, or the encoding built
//! into an embedded Type 1 program) through glyph names.

use super::file::File;
use super::glyphs;
use super::object::{Dict, Lexer, Object};
use std::collections::HashMap;

pub(crate) struct Font {
    /// Bytes per code: 1 for simple fonts, 2 for Identity-encoded Type 0 fonts.
    pub(crate) bytes_per_code: usize,
    to_text: HashMap<u32, String>,
    widths: HashMap<u32, f64>,
    default_width: f64,
    /// Glyph space to text space (1/1000 except for Type 3 fonts).
    pub(crate) scale: f64,
}

impl Font {
    pub(crate) fn load(file: &File<'_>, dict: &Dict) -> Font {
        let subtype = file
            .get(dict, b"Subtype")
            .and_then(Object::as_name)
            .unwrap_or_default();
        let mut font = Font {
            bytes_per_code: 1,
            to_text: HashMap::new(),
            widths: HashMap::new(),
            default_width: 0.0,
            scale: 0.001,
        };
        if subtype == b"Type0" {
            font.bytes_per_code = 2;
            font.default_width = 1000.0;
            let descendant = file
                .get(dict, b"DescendantFonts")
                .and_then(Object::as_array)
                .and_then(|a| a.first())
                .and_then(|d| file.resolve(d).as_dict());
            if let Some(d) = descendant {
                if let Some(dw) = file.get(d, b"DW").and_then(Object::as_f64) {
                    font.default_width = dw;
                }
                if let Some(w) = file.get(d, b"W").and_then(Object::as_array) {
                    font.cid_widths(file, w);
                }
            }
        } else {
            if subtype == b"Type3" {
                if let Some(m) = file.get(dict, b"FontMatrix").and_then(Object::as_array) {
                    font.scale = m
                        .first()
                        .map(|v| file.resolve(v))
                        .and_then(Object::as_f64)
                        .unwrap_or(0.001);
                }
            }
            let first = file
                .get(dict, b"FirstChar")
                .and_then(Object::as_f64)
                .unwrap_or(0.0) as u32;
            if let Some(w) = file.get(dict, b"Widths").and_then(Object::as_array) {
                for (i, v) in w.iter().enumerate().take(65_536) {
                    if let Some(v) = file.resolve(v).as_f64() {
                        font.widths.insert(first.saturating_add(i as u32), v);
                    }
                }
            }
            font.simple_encoding(file, dict);
        }
        if let Some(tu) = dict.get(b"ToUnicode".as_slice()) {
            if let Ok(data) = file.stream(tu) {
                read_cmap(&data, &mut font.to_text);
            }
        }
        font
    }

    fn cid_widths(&mut self, file: &File<'_>, w: &[Object]) {
        let mut i = 0;
        while let Some(first) = w.get(i).map(|v| file.resolve(v)).and_then(Object::as_f64) {
            let first = first as u32;
            match w.get(i + 1).map(|v| file.resolve(v)) {
                Some(Object::Array(list)) => {
                    for (k, v) in list.iter().enumerate().take(65_536) {
                        if let Some(v) = file.resolve(v).as_f64() {
                            self.widths.insert(first.saturating_add(k as u32), v);
                        }
                    }
                    i += 2;
                }
                Some(last) => {
                    let (Some(last), Some(v)) = (
                        last.as_f64(),
                        w.get(i + 2)
                            .map(|v| file.resolve(v))
                            .and_then(Object::as_f64),
                    ) else {
                        return;
                    };
                    for c in first..=(last as u32).min(first.saturating_add(65_536)) {
                        self.widths.insert(c, v);
                    }
                    i += 3;
                }
                None => return,
            }
        }
    }

    fn simple_encoding(&mut self, file: &File<'_>, dict: &Dict) {
        let mut names: HashMap<u32, String> = HashMap::new();
        // The program's own encoding first, then the dictionary's on top.
        if let Some(descriptor) = file.get(dict, b"FontDescriptor").and_then(Object::as_dict) {
            if let Some(program) = descriptor.get(b"FontFile".as_slice()) {
                if let Ok(data) = file.stream(program) {
                    builtin_encoding(&data, &mut names);
                }
            }
        }
        match file.get(dict, b"Encoding") {
            Some(Object::Dict(enc)) => {
                if let Some(diffs) = file.get(enc, b"Differences").and_then(Object::as_array) {
                    let mut code = 0u32;
                    for d in diffs.iter().take(65_536) {
                        match file.resolve(d) {
                            Object::Int(c) => code = u32::try_from(*c).unwrap_or(0),
                            Object::Name(n) => {
                                names.insert(code, String::from_utf8_lossy(n).into_owned());
                                code = code.saturating_add(1);
                            }
                            _ => {}
                        }
                    }
                }
            }
            // A named base encoding: for Latin text its printable ASCII
            // half is the same in Standard, WinAnsi and MacRoman.
            Some(Object::Name(_)) | None => {}
            Some(_) => {}
        }
        // pdfTeX's bitmap (PK) fonts name each glyph by its code (`/a28`):
        // the codes are the TeX font's own, OT1 or T1.
        let tex_codes = !names.is_empty()
            && names.iter().all(|(code, name)| {
                name == ".notdef"
                    || name.strip_prefix('a').and_then(|n| n.parse::<u32>().ok()) == Some(*code)
            });
        if tex_codes {
            let ot1 = names.keys().any(|c| (0x0b..=0x0f).contains(c))
                && !names.keys().any(|c| *c >= 0x80);
            for code in names.keys() {
                if let Some(text) = glyphs::tex_code(*code, ot1) {
                    self.to_text.insert(*code, text.to_string());
                }
            }
            return;
        }
        for (code, name) in names {
            if let Some(text) = glyphs::text_of(&name) {
                self.to_text.insert(code, text);
            }
        }
    }

    /// Splits a string operand into (code, text, width in glyph units).
    pub(crate) fn glyphs(&self, bytes: &[u8]) -> Vec<(u32, String, f64)> {
        bytes
            .chunks(self.bytes_per_code)
            .map(|c| {
                let code = c.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b));
                let text = match self.to_text.get(&code) {
                    Some(t) => t.clone(),
                    None if self.bytes_per_code == 1 => standard(code),
                    None => String::new(),
                };
                let width = self
                    .widths
                    .get(&code)
                    .copied()
                    .unwrap_or(self.default_width);
                (code, text, width)
            })
            .collect()
    }

    /// Whether a code is the word space (for `Tw`, which applies to code 32 only).
    pub(crate) fn is_space(&self, code: u32) -> bool {
        self.bytes_per_code == 1 && code == 32
    }
}

/// A code with no mapping: printable ASCII as itself (Standard encoding's
/// Latin half), the rest as nothing rather than a guess.
fn standard(code: u32) -> String {
    match code {
        0x27 => "\u{2019}".to_string(),
        0x60 => "\u{2018}".to_string(),
        0x21..=0x7e => char::from_u32(code).map(String::from).unwrap_or_default(),
        0x20 => " ".to_string(),
        _ => String::new(),
    }
}

/// `dup 12 /fi put` lines of a Type 1 program's clear-text part.
fn builtin_encoding(program: &[u8], names: &mut HashMap<u32, String>) {
    let clear = match memchr::memmem::find(program, b"eexec") {
        Some(end) => program.get(..end).unwrap_or_default(),
        None => program,
    };
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(clear.get(from..).unwrap_or_default(), b"dup ") {
        let at = from + i + 4;
        from = at;
        let mut lx = Lexer::new(clear, at);
        if let (Some(Object::Int(code)), Some(Object::Name(name))) =
            (lx.object(false), lx.object(false))
        {
            if let Ok(code) = u32::try_from(code) {
                names.insert(code, String::from_utf8_lossy(&name).into_owned());
            }
        }
    }
}

/// Reads `bfchar` and `bfrange` sections of a ToUnicode CMap.
fn read_cmap(data: &[u8], map: &mut HashMap<u32, String>) {
    let mut lx = Lexer::new(data, 0);
    let mut tokens = Vec::new();
    while let Some(t) = lx.object(false) {
        tokens.push(t);
        if tokens.len() > 1_000_000 {
            break;
        }
    }
    let mut i = 0;
    while let Some(t) = tokens.get(i) {
        i += 1;
        match t {
            Object::Op(op) if op == b"beginbfchar" => {
                while let (Some(Object::Str(src)), Some(dst)) = (tokens.get(i), tokens.get(i + 1)) {
                    if let Object::Str(dst) = dst {
                        map.insert(code_of(src), utf16(dst));
                    }
                    i += 2;
                }
            }
            Object::Op(op) if op == b"beginbfrange" => {
                while let (Some(Object::Str(lo)), Some(Object::Str(hi)), Some(dst)) =
                    (tokens.get(i), tokens.get(i + 1), tokens.get(i + 2))
                {
                    let (lo, hi) = (code_of(lo), code_of(hi));
                    let count = hi.saturating_sub(lo).min(65_535);
                    match dst {
                        Object::Str(first) => {
                            let base = utf16(first);
                            let mut chars: Vec<char> = base.chars().collect();
                            for k in 0..=count {
                                map.insert(lo + k, chars.iter().collect());
                                if let Some(last) = chars.last_mut() {
                                    *last = char::from_u32(u32::from(*last) + 1).unwrap_or(*last);
                                }
                            }
                        }
                        Object::Array(list) => {
                            for (k, d) in list.iter().enumerate().take(count as usize + 1) {
                                if let Object::Str(d) = d {
                                    map.insert(lo + k as u32, utf16(d));
                                }
                            }
                        }
                        _ => {}
                    }
                    i += 3;
                }
            }
            _ => {}
        }
    }
}

fn code_of(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .take(4)
        .fold(0u32, |acc, b| (acc << 8) | u32::from(*b))
}

fn utf16(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks(2)
        .map(|c| match c {
            [a, b] => u16::from_be_bytes([*a, *b]),
            [a] => u16::from(*a),
            _ => 0,
        })
        .collect();
    String::from_utf16_lossy(&units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmap_ranges_and_chars_map_codes_to_text() {
        let cmap = b"2 beginbfchar <0C> <00660069> <1B> <00660066> endbfchar
            1 beginbfrange <41> <43> <0061> endbfrange
            1 beginbfrange <10> <11> [<00E9> <0301>] endbfrange";
        let mut map = HashMap::new();
        read_cmap(cmap, &mut map);
        let check = |code: u32, expected: &str| {
            assert_eq!(map.get(&code).map(String::as_str), Some(expected), "{code}")
        };
        check(0x0c, "fi");
        check(0x1b, "ff");
        check(0x41, "a");
        check(0x43, "c");
        check(0x10, "é");
        check(0x11, "\u{301}");
    }

    #[test]
    fn a_type1_program_s_own_encoding_is_read() {
        let mut names = HashMap::new();
        builtin_encoding(b"/Encoding 256 array\ndup 12 /fi put\ndup 65 /A put\nreadonly def\ncurrentfile eexec dup 1 /x put", &mut names);
        assert_eq!(names.get(&12).map(String::as_str), Some("fi"));
        assert_eq!(names.get(&65).map(String::as_str), Some("A"));
        assert_eq!(names.len(), 2);
    }
}
