//! A page's content stream run for its text: each glyph with its position,
//! size and advance in page space (ISO 32000-1, 9.4).

use super::file::File;
use super::font::Font;
use super::object::{Dict, Lexer, Object};
use std::collections::HashMap;
use std::rc::Rc;

/// One drawn glyph (or ligature) in page space.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glyph {
    pub(crate) x: f64,
    pub(crate) y: f64,
    /// Advance along the baseline.
    pub(crate) width: f64,
    /// The font size in page space (height of an em).
    pub(crate) size: f64,
    pub(crate) text: String,
}

type Matrix = [f64; 6];

const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

#[derive(Clone)]
struct State {
    ctm: Matrix,
    font: Option<Rc<Font>>,
    size: f64,
    char_space: f64,
    word_space: f64,
    scale: f64,
    leading: f64,
    rise: f64,
}

/// Fonts loaded so far, by object number (or address, for a font written
/// inline): a document's pages share them.
pub(crate) type Fonts = HashMap<usize, Rc<Font>>;

/// The glyphs a page draws, in the order it draws them. Form XObjects are
/// followed (nested to a bound); each font is loaded once per document.
pub(crate) fn run(
    file: &File<'_>,
    content: &[u8],
    resources: Option<&Dict>,
    fonts: &mut Fonts,
) -> Vec<Glyph> {
    let mut out = Vec::new();
    let state = State {
        ctm: IDENTITY,
        font: None,
        size: 0.0,
        char_space: 0.0,
        word_space: 0.0,
        scale: 1.0,
        leading: 0.0,
        rise: 0.0,
    };
    run_in(file, content, resources, state, fonts, &mut out, 0);
    out
}

fn run_in(
    file: &File<'_>,
    content: &[u8],
    resources: Option<&Dict>,
    mut st: State,
    fonts: &mut Fonts,
    out: &mut Vec<Glyph>,
    depth: usize,
) {
    let mut stack: Vec<State> = Vec::new();
    let mut tm = IDENTITY;
    let mut tlm = IDENTITY;
    let mut operands: Vec<Object> = Vec::new();
    let mut lx = Lexer::new(content, 0);
    while let Some(obj) = lx.object(false) {
        let Object::Op(op) = obj else {
            if operands.len() < 64 {
                operands.push(obj);
            }
            continue;
        };
        let num = |i: usize| operands.get(i).and_then(Object::as_f64).unwrap_or(0.0);
        match op.as_slice() {
            b"q" if stack.len() < 256 => stack.push(st.clone()),
            b"Q" => {
                if let Some(s) = stack.pop() {
                    st = s;
                }
            }
            b"cm" => st.ctm = mul(&[num(0), num(1), num(2), num(3), num(4), num(5)], &st.ctm),
            b"BT" => {
                tm = IDENTITY;
                tlm = IDENTITY;
            }
            b"Tf" => {
                st.size = num(1);
                st.font = operands.first().and_then(Object::as_name).and_then(|name| {
                    let dict = resources
                        .and_then(|r| file.get(r, b"Font"))
                        .and_then(Object::as_dict)
                        .and_then(|f| f.get(name))?;
                    let key = match dict {
                        Object::Ref(id) => *id as usize,
                        other => other as *const Object as usize,
                    };
                    let font = fonts.entry(key).or_insert_with(|| {
                        Rc::new(Font::load(
                            file,
                            file.resolve(dict).as_dict().unwrap_or(&Dict::new()),
                        ))
                    });
                    Some(Rc::clone(font))
                });
            }
            b"Tc" => st.char_space = num(0),
            b"Tw" => st.word_space = num(0),
            b"Tz" => st.scale = num(0) / 100.0,
            b"TL" => st.leading = num(0),
            b"Ts" => st.rise = num(0),
            b"Td" => {
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, num(0), num(1)], &tlm);
                tm = tlm;
            }
            b"TD" => {
                st.leading = -num(1);
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, num(0), num(1)], &tlm);
                tm = tlm;
            }
            b"Tm" => {
                tlm = [num(0), num(1), num(2), num(3), num(4), num(5)];
                tm = tlm;
            }
            b"T*" => {
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -st.leading], &tlm);
                tm = tlm;
            }
            b"Tj" | b"'" | b"\"" => {
                if op.as_slice() != b"Tj" {
                    if op.as_slice() == b"\"" {
                        st.word_space = num(0);
                        st.char_space = num(1);
                    }
                    tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -st.leading], &tlm);
                    tm = tlm;
                }
                if let Some(Object::Str(s)) = operands.last() {
                    show(&st, &mut tm, s, out);
                }
            }
            b"TJ" => {
                if let Some(Object::Array(items)) = operands.first() {
                    for item in items {
                        match item {
                            Object::Str(s) => show(&st, &mut tm, s, out),
                            other => {
                                let adjust = other.as_f64().unwrap_or(0.0);
                                let tx = -adjust / 1000.0 * st.size * st.scale;
                                tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &tm);
                            }
                        }
                    }
                }
            }
            b"Do" if depth < 8 => {
                let form = operands.first().and_then(Object::as_name).and_then(|name| {
                    resources
                        .and_then(|r| file.get(r, b"XObject"))
                        .and_then(Object::as_dict)
                        .and_then(|x| x.get(name))
                });
                if let Some(form_ref) = form {
                    if let Some(dict) = file.resolve(form_ref).as_dict() {
                        if dict.get(b"Subtype".as_slice()).and_then(Object::as_name)
                            == Some(b"Form")
                        {
                            if let Ok(data) = file.stream(form_ref) {
                                let mut inner = st.clone();
                                if let Some(m) =
                                    file.get(dict, b"Matrix").and_then(Object::as_array)
                                {
                                    let v: Vec<f64> =
                                        m.iter().filter_map(|x| file.resolve(x).as_f64()).collect();
                                    if let [a, b, c, d, e, f] = v.as_slice() {
                                        inner.ctm = mul(&[*a, *b, *c, *d, *e, *f], &st.ctm);
                                    }
                                }
                                let res = file
                                    .get(dict, b"Resources")
                                    .and_then(Object::as_dict)
                                    .or(resources);
                                run_in(file, &data, res, inner, fonts, out, depth + 1);
                            }
                        }
                    }
                }
            }
            // Inline images: skip their data up to `EI`.
            b"ID" => {
                let rest = content.get(lx.pos..).unwrap_or_default();
                lx.pos += memchr::memmem::find(rest, b"EI").map_or(rest.len(), |i| i + 2);
            }
            _ => {}
        }
        operands.clear();
    }
}

fn show(st: &State, tm: &mut Matrix, s: &[u8], out: &mut Vec<Glyph>) {
    let Some(font) = &st.font else { return };
    for (code, text, w) in font.glyphs(s) {
        let trm = mul(
            &mul(&[st.size * st.scale, 0.0, 0.0, st.size, 0.0, st.rise], tm),
            &st.ctm,
        );
        let advance = (w * font.scale * st.size
            + st.char_space
            + if font.is_space(code) {
                st.word_space
            } else {
                0.0
            })
            * st.scale;
        let page_size = (trm[2] * trm[2] + trm[3] * trm[3]).sqrt();
        // The advance in page space: the text matrix's x axis scaled.
        let sx =
            (tm[0] * st.ctm[0] + tm[1] * st.ctm[2]).hypot(tm[0] * st.ctm[1] + tm[1] * st.ctm[3]);
        if !text.is_empty() && trm[4].is_finite() && trm[5].is_finite() {
            out.push(Glyph {
                x: trm[4],
                y: trm[5],
                width: advance * sx,
                size: page_size,
                text,
            });
        }
        *tm = mul(&[1.0, 0.0, 0.0, 1.0, advance, 0.0], tm);
    }
}
