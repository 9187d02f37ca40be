//! Edits to a `.bib` text that keep every byte they do not change: an
//! entry located by its line and key, a field's value set in place or added
//! before the entry's close. The fixed `.bib` of a report is written here
//! from the corrections a person accepted ([`super::report::fixed_bib`]).

use super::parse::Entry;
use super::verdict::Change;
use std::ops::Range;

/// The entry rewritten from its own fields, each value as written except
/// the changed ones (what "copy the corrected entry" copies).
pub fn rewrite(entry: &Entry, changes: &[Change]) -> String {
    let mut out = format!("@{}{{{},\n", entry.kind, entry.key);
    for f in &entry.fields {
        let value = match changes.iter().find(|c| c.field == f.name) {
            Some(c) => format!("{{{}}}", c.record),
            None => f.raw.clone(),
        };
        out.push_str(&format!("  {} = {value},\n", f.name));
    }
    for c in changes {
        if !entry.fields.iter().any(|f| f.name == c.field) {
            out.push_str(&format!("  {} = {{{}}},\n", c.field, c.record));
        }
    }
    out.push('}');
    out
}

/// The entry `key` whose `@` is on `line` of `source`, with `changes` set:
/// its range in `source` and its new text. A field the entry has gets the
/// new value in place of its value expression (a repeated field: the first,
/// the one BibTeX reads); a field it lacks is added after its last field.
/// `None` when the entry is not there.
pub fn set_fields(
    source: &str,
    line: usize,
    key: &str,
    changes: &[&Change],
) -> Option<(Range<usize>, String)> {
    let range = locate(source, line, key)?;
    let text = &source[range.clone()];
    let fields = field_values(text);
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut added = String::new();
    for c in changes {
        match fields
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(&c.field))
        {
            Some((_, r)) => edits.push((r.clone(), format!("{{{}}}", c.record))),
            None => added.push_str(&format!(",\n  {} = {{{}}}", c.field, c.record)),
        }
    }
    if !added.is_empty() {
        // After the last value (before a trailing comma, which then
        // follows the added fields), or after the key when there is none.
        let at = fields
            .last()
            .map(|(_, r)| r.end)
            .or_else(|| text.find(',').map(|i| i + 1))
            .unwrap_or(text.len() - 1);
        let added = if fields.is_empty() {
            added.trim_start_matches(',').to_string()
        } else {
            added
        };
        edits.push((at..at, added));
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (r, new) in edits {
        out.push_str(&text[at..r.start]);
        out.push_str(&new);
        at = r.end;
    }
    out.push_str(&text[at..]);
    Some((range, out))
}

/// Each field of an entry's text (from `@` to its close): its name and
/// the byte range of its value expression (`{…}`, `"…"`, a macro, `#`
/// joins), blanks around it excluded.
fn field_values(text: &str) -> Vec<(String, Range<usize>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let Some(open) = b.iter().position(|&c| c == b'{' || c == b'(') else {
        return out;
    };
    let close = if b[open] == b'{' { b'}' } else { b')' };
    // Past the key.
    let Some(mut i) = b[open..]
        .iter()
        .position(|&c| c == b',')
        .map(|p| open + p + 1)
    else {
        return out;
    };
    loop {
        // Blanks, commas and `%` comments (which the parser skips too).
        loop {
            match b.get(i) {
                Some(c) if c.is_ascii_whitespace() || *c == b',' => i += 1,
                Some(b'%') => {
                    while b.get(i).is_some_and(|&c| c != b'\n') {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        let name_start = i;
        while b
            .get(i)
            .is_some_and(|c| !c.is_ascii_whitespace() && !b"=,{}()\"#".contains(c))
        {
            i += 1;
        }
        if i == name_start {
            return out;
        }
        let name = text[name_start..i].to_ascii_lowercase();
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            return out;
        }
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let start = i;
        let mut depth = 0usize;
        let mut quoted = false;
        while let Some(&c) = b.get(i) {
            match c {
                b'{' => depth += 1,
                b'}' if depth > 0 => depth -= 1,
                b'"' if depth == 0 => quoted = !quoted,
                b',' if depth == 0 && !quoted => break,
                c if c == close && depth == 0 && !quoted => break,
                _ => {}
            }
            i += 1;
        }
        let mut end = i;
        while end > start && b[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        if end > start {
            out.push((name, start..end));
        }
        if b.get(i) != Some(&b',') {
            return out;
        }
    }
}

/// The byte range of the entry `key` whose `@` is on 1-based `line`:
/// from the `@` to its closing delimiter, included. `None` when the text
/// there is not that entry or is not closed.
pub fn locate(source: &str, line: usize, key: &str) -> Option<std::ops::Range<usize>> {
    let b = source.as_bytes();
    let line_start = if line <= 1 {
        0
    } else {
        b.iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .nth(line - 2)
            .map(|(i, _)| i + 1)?
    };
    let line_end = b[line_start..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| line_start + p);
    let mut from = line_start;
    while let Some(off) = b[from..line_end].iter().position(|&c| c == b'@') {
        let at = from + off;
        if let Some(end) = entry_end(b, at, key) {
            return Some(at..end);
        }
        from = at + 1;
    }
    None
}

/// The end (exclusive) of the entry starting at the `@` at `at`, when its
/// key is `key`.
fn entry_end(b: &[u8], at: usize, key: &str) -> Option<usize> {
    let mut i = at + 1;
    let skip_ws = |i: &mut usize| {
        while b.get(*i).is_some_and(u8::is_ascii_whitespace) {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        i += 1;
    }
    skip_ws(&mut i);
    let close = match b.get(i)? {
        b'{' => b'}',
        b'(' => b')',
        _ => return None,
    };
    i += 1;
    let key_start = i;
    while b.get(i).is_some_and(|&c| c != b',' && c != close) {
        i += 1;
    }
    let written = std::str::from_utf8(b.get(key_start..i)?).ok()?.trim();
    if written != key {
        return None;
    }
    // Braces nest inside values; the entry ends at its own delimiter at
    // depth zero.
    let mut depth = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'{' => depth += 1,
            b'}' if depth > 0 => depth -= 1,
            c if c == close && depth == 0 => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}
