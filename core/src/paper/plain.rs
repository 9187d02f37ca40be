//! A pasted reference list, or a `.txt`/`.md` file, split into references:
//! one per numbered item (`[12]`, `12.`, `(12)`), else one per paragraph,
//! else one per line that starts flush left when the others hang indented,
//! else one per line. A line broken inside a word (`distri-` / `buted`) is
//! joined without its hyphen; a hyphen before a capital or a digit is real
//! and kept.

use super::{fields, Reference};

/// Whether a line opens a numbered item: `[12]`, `12.`, `(12)`, `12)`.
fn numbered(line: &str) -> bool {
    let t = line.trim_start();
    let t = t
        .strip_prefix("- ")
        .or_else(|| t.strip_prefix("* "))
        .unwrap_or(t);
    if let Some(rest) = t.strip_prefix('[') {
        // `[12]`, `[Smi+11]`: a label has a digit (`[Online]` is not one).
        return rest.find(']').is_some_and(|e| {
            e > 0
                && e <= 16
                && rest
                    .get(..e)
                    .is_some_and(|l| l.chars().any(|c| c.is_ascii_digit()) && !l.contains(' '))
        });
    }
    let t = t.strip_prefix('(').unwrap_or(t);
    let d = t.chars().take_while(char::is_ascii_digit).count();
    // Up to three digits: a line may start with a year (`1969. ISBN …`).
    d > 0
        && d <= 3
        && (t
            .get(d..)
            .is_some_and(|r| r.starts_with(". ") || r.starts_with(") ")))
}

/// Joins the lines of one reference, undoing line-end hyphenation where it
/// is a break.
pub fn join_lines(lines: &[&str]) -> String {
    let mut out = String::new();
    for line in lines {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        let broken = out.ends_with('-')
            && !out.ends_with("--")
            && out.chars().rev().nth(1).is_some_and(char::is_lowercase)
            && l.chars().next().is_some_and(char::is_lowercase);
        if broken {
            out.pop();
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push(' ');
        }
        out.push_str(l);
    }
    out
}

/// Whether a line opens the way an author list does: its first piece
/// (up to a comma, ` and ` or a full stop after a name) looks like a name.
fn opens_like_authors(line: &str) -> bool {
    let t = line.trim();
    let first = t
        .split([',', ';'])
        .next()
        .unwrap_or("")
        .split(" and ")
        .next()
        .unwrap_or("");
    let words = first.split_whitespace().count();
    (1..=4).contains(&words)
        && (t.contains(',') || t.contains(" and "))
        && fields::starts_with_name(first)
}

/// Splits a run of lines with no labels and no indents (text copied from
/// an author-year list) where a line ends a sentence and the next opens
/// like an author list.
fn split_run((first, lines): (usize, Vec<&str>)) -> Vec<(usize, Vec<&str>)> {
    let mut out: Vec<(usize, Vec<&str>)> = Vec::new();
    for (i, l) in lines.into_iter().enumerate() {
        let ends = out.last().and_then(|(_, g)| g.last()).is_some_and(|p| {
            p.trim_end().ends_with(['.', '?', '!']) || p.trim_end().ends_with('/')
        });
        match out.last_mut() {
            Some((_, g)) if !(ends && opens_like_authors(l)) => g.push(l),
            _ => out.push((first + i, vec![l])),
        }
    }
    out
}

/// The references of a text list, each parsed into fields, with its line.
pub fn read(text: &str) -> Vec<Reference> {
    split(text)
        .into_iter()
        .map(|(line, raw)| {
            let md = raw.trim_start_matches(['-', '*', ' ']);
            let mut r = fields::parse(md);
            r.raw = raw;
            r.line = Some(line);
            r
        })
        .collect()
}

/// The reference strings of a list with their 1-based first lines.
pub fn split(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut groups: Vec<(usize, Vec<&str>)> = Vec::new();
    let numbered_items = lines.iter().filter(|l| numbered(l)).count() >= 2;
    let paragraphs = lines.iter().any(|l| l.trim().is_empty())
        && lines.iter().filter(|l| !l.trim().is_empty()).count()
            > lines
                .split(|l| l.trim().is_empty())
                .filter(|g| !g.is_empty())
                .count();
    let indented = |l: &str| l.starts_with([' ', '\t']);
    let hanging = lines.iter().any(|l| indented(l))
        && lines.iter().any(|l| !indented(l) && !l.trim().is_empty());
    // A numbered item, a paragraph (a blank line ends a reference), a
    // flush-left line under hanging indents, else every line.
    let starts_item = |l: &str| {
        if numbered_items {
            numbered(l)
        } else if paragraphs {
            false
        } else if hanging {
            !indented(l)
        } else {
            true
        }
    };
    let mut blank = true;
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() {
            blank = true;
            continue;
        }
        if blank || starts_item(l) || groups.is_empty() {
            groups.push((i + 1, vec![l]));
        } else if let Some(g) = groups.last_mut() {
            g.1.push(l);
        }
        blank = false;
    }
    if !numbered_items && (paragraphs || !hanging) {
        groups = groups.into_iter().flat_map(split_run).collect();
    }
    groups
        .into_iter()
        .map(|(n, ls)| (n, join_lines(&ls)))
        .filter(|(_, s)| s.chars().filter(|c| c.is_alphabetic()).count() >= 8)
        .collect()
}
