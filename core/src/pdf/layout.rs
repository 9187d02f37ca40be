//! Glyphs to lines of text in reading order: words spaced by the gaps
//! between glyphs, accents drawn apart put back on their letters, columns
//! read left to right, and running heads and page numbers dropped.

use super::content::Glyph;
use super::glyphs;
use crate::unicode;

/// A line of text on a page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub(crate) text: String,
    /// 1-based page.
    pub(crate) page: u32,
    pub(crate) x0: f64,
    pub(crate) x1: f64,
    /// Baseline.
    pub(crate) y: f64,
    /// Font size of the line's first glyph.
    pub(crate) size: f64,
    /// 0 for the left (or only) column, 1 for the right one.
    pub(crate) column: u8,
}

/// A gap wider than this share of the font size is a word space.
const WORD_GAP: f64 = 0.15;

/// The page's glyphs as lines, in drawing order.
fn lines_of(glyphs: &[Glyph], page: u32) -> Vec<Line> {
    let glyphs = accents_on_next(glyphs);
    let mut lines: Vec<Line> = Vec::new();
    let mut end_x = f64::NEG_INFINITY;
    for g in &glyphs {
        let size = g.size.max(0.1);
        let same_line = lines.last().is_some_and(|l| {
            let dy = (g.y - l.y).abs();
            // Sub- and superscripts stay on their line; a jump back to the
            // left or a baseline shift of most of a line starts a new one.
            dy < 0.6 * l.size.max(size) && g.x > end_x - 2.0 * size && g.x < end_x + 4.0 * size
        });
        if !same_line {
            lines.push(Line {
                text: String::new(),
                page,
                x0: g.x,
                x1: g.x,
                y: g.y,
                size,
                column: 0,
            });
        }
        let Some(line) = lines.last_mut() else {
            continue;
        };
        if same_line {
            let gap = g.x - end_x;
            if let Some(mark) = accent_over(g, end_x, &line.text) {
                line.text.push(mark);
                continue;
            }
            if gap > WORD_GAP * size && !line.text.ends_with(' ') {
                line.text.push(' ');
            }
        }
        line.text.push_str(&g.text);
        end_x = g.x + g.width;
        line.x1 = line.x1.max(end_x);
    }
    for line in &mut lines {
        line.text = tidy(&line.text);
    }
    lines.retain(|l| !l.text.is_empty());
    lines
}

/// TeX's `\accent` draws the accent first, then moves back and draws the
/// letter under it: a spacing accent whose next glyph starts before the
/// accent ends is that letter's combining mark.
fn accents_on_next(glyphs: &[Glyph]) -> Vec<Glyph> {
    let mut out: Vec<Glyph> = Vec::with_capacity(glyphs.len());
    let mut pending: Option<char> = None;
    for (i, g) in glyphs.iter().enumerate() {
        let mut chars = g.text.chars();
        let accent = match (chars.next(), chars.next()) {
            (Some(c), None) => glyphs::combining(c),
            _ => None,
        };
        if let (Some(mark), Some(next)) = (accent, glyphs.get(i + 1)) {
            let under = next.x < g.x + g.width.max(0.1 * g.size)
                && next.x > g.x - g.size
                && (next.y - g.y).abs() < 0.5 * g.size
                && next.text.chars().next().is_some_and(char::is_alphabetic);
            // The letter whose centre is nearer the accent's own.
            let centre = |x: &Glyph| x.x + x.width / 2.0;
            let nearer_next = out.last().is_none_or(|prev| {
                (centre(next) - centre(g)).abs() < (centre(prev) - centre(g)).abs()
                    || (prev.y - g.y).abs() > 0.5 * g.size
            });
            if under && nearer_next && pending.is_none() {
                pending = Some(mark);
                continue;
            }
        }
        let mut g = g.clone();
        if let Some(mark) = pending.take() {
            let mut chars = g.text.chars();
            if let Some(first) = chars.next() {
                let first = if first == 'ı' { 'i' } else { first };
                let joined: String = std::iter::once(first)
                    .chain(std::iter::once(mark))
                    .chain(chars)
                    .collect();
                g.text = unicode::nfc(&joined);
            }
        }
        out.push(g);
    }
    out
}

/// A spacing accent drawn over the previous letter (TeX's `\accent` draws
/// the accent, then moves back under it for the letter, or the reverse):
/// the combining mark to add, when the glyph is an accent over a letter.
fn accent_over(g: &Glyph, end_x: f64, text: &str) -> Option<char> {
    let mut chars = g.text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let mark = glyphs::combining(c)?;
    // The accent sits inside the previous glyph's box (it was drawn after it).
    let overlaps = g.x < end_x - 0.1 * g.size;
    (overlaps && text.chars().last().is_some_and(char::is_alphabetic)).then_some(mark)
}

/// Accents before their letters moved after them, marks composed, white
/// space single.
fn tidy(text: &str) -> String {
    let mut out: Vec<char> = Vec::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        // A spacing accent right before a letter, with no space between:
        // TeX drew it first and the letter under it.
        if let (Some(mark), Some(&next)) = (glyphs::combining(c), chars.get(i + 1)) {
            let before_ok = out
                .last()
                .is_none_or(|p: &char| !p.is_alphanumeric() || c != '`');
            if next.is_alphabetic() && before_ok && c != '~' && c != '^' {
                out.push(if next == 'ı' { 'i' } else { next });
                out.push(mark);
                i += 2;
                continue;
            }
        }
        if ('\u{300}'..='\u{36f}').contains(&c) {
            // A combining mark on a dotless i: the dotted letter's mark.
            if out.last() == Some(&'ı') {
                if let Some(last) = out.last_mut() {
                    *last = 'i';
                }
            }
        }
        if c.is_whitespace() {
            if out.last().is_some_and(|p| *p != ' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    let s: String = out.into_iter().collect();
    unicode::nfc(s.trim())
}

/// Every page's lines in reading order, running heads and page numbers
/// dropped. `pages[i]` is the glyphs of page `i + 1`.
pub(crate) fn read(pages: &[Vec<Glyph>]) -> Vec<Line> {
    let mut per_page: Vec<Vec<Line>> = pages
        .iter()
        .enumerate()
        .map(|(i, g)| order(lines_of(g, u32::try_from(i + 1).unwrap_or(u32::MAX))))
        .collect();
    for lines in &mut per_page {
        drop_isolated_foot(lines);
    }
    drop_furniture(&mut per_page);
    per_page.into_iter().flatten().collect()
}

/// Lines in reading order: when the page has two columns (lines that end
/// left of the middle and lines that start right of it, both many), the
/// left column's lines, then the right one's; full-width lines above the
/// columns first and below them last.
fn order(mut lines: Vec<Line>) -> Vec<Line> {
    if lines.is_empty() {
        return lines;
    }
    let left = lines.iter().map(|l| l.x0).fold(f64::INFINITY, f64::min);
    let right = lines.iter().map(|l| l.x1).fold(f64::NEG_INFINITY, f64::max);
    let mid = (left + right) / 2.0;
    let in_left = lines.iter().filter(|l| l.x1 < mid + 2.0).count();
    let in_right = lines.iter().filter(|l| l.x0 > mid - 2.0).count();
    if in_left < 3 || in_right < 3 {
        return lines;
    }
    for l in &mut lines {
        l.column = u8::from(l.x0 > mid - 2.0);
    }
    let column_top = lines
        .iter()
        .filter(|l| l.x1 < mid + 2.0 || l.x0 > mid - 2.0)
        .map(|l| l.y)
        .fold(f64::NEG_INFINITY, f64::max);
    // Group: 0 spanning above, 1 left, 2 right, 3 spanning below.
    let group = |l: &Line| -> u8 {
        if l.x1 < mid + 2.0 {
            1
        } else if l.x0 > mid - 2.0 {
            2
        } else if l.y > column_top {
            0
        } else {
            3
        }
    };
    lines.sort_by(|a, b| {
        group(a)
            .cmp(&group(b))
            .then(b.y.total_cmp(&a.y))
            .then(a.x0.total_cmp(&b.x0))
    });
    lines
}

/// Drops page numbers and running heads: the top or bottom line of a page
/// that is a number alone, or whose text (digits aside) is the top or
/// bottom line of another page too.
fn drop_furniture(pages: &mut [Vec<Line>]) {
    let key = |l: &Line| -> String {
        l.text
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .collect::<String>()
            .trim()
            .to_lowercase()
    };
    let edges = |lines: &[Line]| -> Vec<usize> {
        let top = lines
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.y.total_cmp(&b.1.y))
            .map(|(i, _)| i);
        let bottom = lines
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.y.total_cmp(&b.1.y))
            .map(|(i, _)| i);
        top.into_iter().chain(bottom).collect()
    };
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for lines in pages.iter() {
        let mut keys: Vec<String> = edges(lines)
            .into_iter()
            .filter_map(|i| lines.get(i))
            .map(key)
            .collect();
        keys.dedup();
        for k in keys {
            *seen.entry(k).or_default() += 1;
        }
    }
    for lines in pages.iter_mut() {
        let mut drop: Vec<usize> = edges(lines)
            .into_iter()
            .filter(|&i| {
                lines.get(i).is_some_and(|l| {
                    let k = key(l);
                    is_page_number(&l.text)
                        || (!k.is_empty() && seen.get(&k).is_some_and(|n| *n > 1))
                })
            })
            .collect();
        drop.sort_unstable();
        drop.dedup();
        for i in drop.into_iter().rev() {
            lines.remove(i);
        }
    }
}

/// Drops a page's bottom line when it stands far below the text above it
/// (a journal's footer such as "Preprint submitted to …").
fn drop_isolated_foot(lines: &mut Vec<Line>) {
    let Some((bottom, foot)) = lines
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.y.total_cmp(&b.1.y))
    else {
        return;
    };
    let above = lines
        .iter()
        .filter(|l| l.y > foot.y && l.x0 < foot.x1 && l.x1 > foot.x0)
        .map(|l| l.y)
        .fold(f64::INFINITY, f64::min);
    let mut gaps: Vec<f64> = lines
        .windows(2)
        .filter_map(|w| match w {
            [a, b] if a.y > b.y && a.column == b.column => Some(a.y - b.y),
            _ => None,
        })
        .collect();
    gaps.sort_by(f64::total_cmp);
    let Some(normal) = gaps.get(gaps.len() / 2).copied() else {
        return;
    };
    if above.is_finite() && above - foot.y > 2.5 * normal {
        lines.remove(bottom);
    }
}

fn is_page_number(text: &str) -> bool {
    let t = text
        .trim()
        .trim_start_matches("Page ")
        .trim_start_matches("page ");
    let t = t.split(" of ").next().unwrap_or(t).trim();
    (!t.is_empty() && t.len() <= 5 && t.chars().all(|c| c.is_ascii_digit()))
        || (t.len() <= 8
            && !t.is_empty()
            && t.chars().all(|c| matches!(c, 'i' | 'v' | 'x' | 'l' | 'c')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(x: f64, y: f64, text: &str) -> Glyph {
        Glyph {
            x,
            y,
            width: 5.0 * text.chars().count() as f64,
            size: 10.0,
            text: text.to_string(),
        }
    }

    #[test]
    fn gaps_make_spaces_and_accents_join_their_letters() {
        // "Erdős": the double acute drawn after the o, over it.
        let g = [
            glyph(0.0, 700.0, "Erd"),
            glyph(15.0, 700.0, "o"),
            glyph(16.0, 700.0, "\u{2dd}"),
            glyph(20.0, 700.0, "s"),
            glyph(30.0, 700.0, "and"),
        ];
        let lines = lines_of(&g, 1);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].text, "Erdős and");
    }

    #[test]
    fn an_accent_drawn_before_its_letter_joins_it() {
        // TeX's \accent: "Ž", the acute centred over where "ı" goes (so it
        // starts inside "Ž"), then "ı" moved back under it.
        let g = [
            Glyph {
                width: 6.1,
                ..glyph(0.0, 700.0, "Ž")
            },
            Glyph {
                width: 5.0,
                ..glyph(4.7, 700.0, "\u{b4}")
            },
            Glyph {
                width: 2.8,
                ..glyph(6.1, 700.0, "ı")
            },
            glyph(8.9, 700.0, "dek"),
        ];
        assert_eq!(lines_of(&g, 1)[0].text, "Žídek");
    }

    #[test]
    fn accent_drawn_before_a_dotless_i_gives_an_i_acute() {
        assert_eq!(tidy("Ž\u{b4}ıdek"), "Žídek");
        assert_eq!(tidy("Žı\u{301}dek"), "Žídek");
    }

    #[test]
    fn page_numbers_and_repeated_heads_are_dropped() {
        let page = |n: u32| {
            vec![
                Line {
                    text: "A Running Head".into(),
                    page: n,
                    x0: 0.0,
                    x1: 100.0,
                    y: 800.0,
                    size: 9.0,
                    column: 0,
                },
                Line {
                    text: format!("body of page {n}"),
                    page: n,
                    x0: 0.0,
                    x1: 100.0,
                    y: 500.0,
                    size: 10.0,
                    column: 0,
                },
                Line {
                    text: n.to_string(),
                    page: n,
                    x0: 50.0,
                    x1: 55.0,
                    y: 50.0,
                    size: 10.0,
                    column: 0,
                },
            ]
        };
        let mut pages = vec![page(1), page(2)];
        drop_furniture(&mut pages);
        let left: Vec<&str> = pages.iter().flatten().map(|l| l.text.as_str()).collect();
        assert_eq!(left, ["body of page 1", "body of page 2"]);
    }
}
