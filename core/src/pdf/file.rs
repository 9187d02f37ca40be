//! A PDF file's objects and pages, read without trusting its cross-reference
//! table: every `N G obj` in the body is found by a scan, and objects inside
//! object streams are unpacked. A damaged or truncated file still yields the
//! objects that are whole, so the pages before the damage can be read.

use super::object::{Dict, Lexer, Object};
use std::collections::HashMap;
use std::io::Read;

/// A decoded stream larger than this is not text of a paper (zip-bomb guard).
const MAX_STREAM: u64 = 64 << 20;
/// A page tree deeper than this or with more pages is not a paper.
const MAX_PAGES: usize = 5_000;

/// An object in the file: its value, and for a stream the raw data's range.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub(crate) value: Object,
    pub(crate) data: Option<(usize, usize)>,
}

/// A parsed file: objects by number (the last definition wins, as an
/// incremental update means), and the trailer dictionaries seen.
pub(crate) struct File<'a> {
    bytes: &'a [u8],
    objects: HashMap<u32, Stored>,
    /// Objects unpacked from object streams (never streams themselves).
    packed: HashMap<u32, Object>,
    trailer: Dict,
}

impl<'a> File<'a> {
    pub(crate) fn parse(bytes: &'a [u8]) -> File<'a> {
        let mut file = File {
            bytes,
            objects: HashMap::new(),
            packed: HashMap::new(),
            trailer: Dict::new(),
        };
        file.scan();
        file.unpack_object_streams();
        file
    }

    fn scan(&mut self) {
        let bytes = self.bytes;
        let mut from = 0;
        while let Some(i) = memchr::memmem::find(bytes.get(from..).unwrap_or_default(), b"obj") {
            let at = from + i;
            from = at + 3;
            if let Some(id) = object_header(bytes, at) {
                let mut lx = Lexer::new(bytes, at + 3);
                let Some(value) = lx.object(true) else {
                    continue;
                };
                lx.skip_white();
                let mut data = None;
                if bytes
                    .get(lx.pos..)
                    .is_some_and(|rest| rest.starts_with(b"stream"))
                {
                    let mut s = lx.pos + 6;
                    if bytes.get(s) == Some(&b'\r') {
                        s += 1;
                    }
                    if bytes.get(s) == Some(&b'\n') {
                        s += 1;
                    }
                    let declared = value
                        .as_dict()
                        .and_then(|d| d.get(b"Length".as_slice()))
                        .and_then(|l| match l {
                            Object::Int(n) => usize::try_from(*n).ok(),
                            _ => None,
                        });
                    let end = match declared {
                        Some(n)
                            if s.checked_add(n)
                                .is_some_and(|e| e <= bytes.len() && ends_stream(bytes, e)) =>
                        {
                            s + n
                        }
                        // No usable /Length (indirect, wrong): the next `endstream`.
                        _ => match memchr::memmem::find(
                            bytes.get(s..).unwrap_or_default(),
                            b"endstream",
                        ) {
                            Some(k) => s + k,
                            // Truncated inside the stream: keep what is there.
                            None => bytes.len(),
                        },
                    };
                    data = Some((s, end));
                    from = from.max(end);
                }
                self.objects.insert(id, Stored { value, data });
            }
        }
        // Trailers: classic `trailer << … >>`, and cross-reference streams'
        // dictionaries (they carry /Root and /Encrypt too).
        let mut from = 0;
        while let Some(i) = memchr::memmem::find(bytes.get(from..).unwrap_or_default(), b"trailer")
        {
            let at = from + i + 7;
            from = at;
            if let Some(Object::Dict(d)) = Lexer::new(bytes, at).object(true) {
                self.trailer.extend(d);
            }
        }
        for stored in self.objects.values() {
            if let Object::Dict(d) = &stored.value {
                if d.get(b"Type".as_slice()).and_then(Object::as_name) == Some(b"XRef") {
                    for key in [b"Root".as_slice(), b"Encrypt", b"Info"] {
                        if let Some(v) = d.get(key) {
                            self.trailer.insert(key.to_vec(), v.clone());
                        }
                    }
                }
            }
        }
    }

    fn unpack_object_streams(&mut self) {
        let streams: Vec<u32> = self
            .objects
            .iter()
            .filter(|(_, s)| {
                s.value
                    .as_dict()
                    .and_then(|d| d.get(b"Type".as_slice()))
                    .and_then(Object::as_name)
                    == Some(b"ObjStm")
            })
            .map(|(id, _)| *id)
            .collect();
        for id in streams {
            let Some(stored) = self.objects.get(&id) else {
                continue;
            };
            let Some(dict) = stored.value.as_dict() else {
                continue;
            };
            let n = dict
                .get(b"N".as_slice())
                .and_then(Object::as_f64)
                .unwrap_or(0.0) as usize;
            let first = dict
                .get(b"First".as_slice())
                .and_then(Object::as_f64)
                .unwrap_or(0.0) as usize;
            let Ok(data) = self.stream_data(stored) else {
                continue;
            };
            let mut lx = Lexer::new(&data, 0);
            let mut index = Vec::new();
            for _ in 0..n.min(100_000) {
                let (Some(Object::Int(num)), Some(Object::Int(off))) =
                    (lx.object(false), lx.object(false))
                else {
                    break;
                };
                index.push((num, off));
            }
            for (num, off) in index {
                let (Ok(num), Ok(off)) = (u32::try_from(num), usize::try_from(off)) else {
                    continue;
                };
                let Some(value) = first
                    .checked_add(off)
                    .and_then(|at| Lexer::new(&data, at).object(true))
                else {
                    continue;
                };
                // A packed object is replaced by a later plain definition only.
                if !self.objects.contains_key(&num) {
                    self.packed.insert(num, value);
                }
            }
        }
    }

    /// Whether the file declares encryption.
    pub(crate) fn encrypted(&self) -> bool {
        self.trailer.contains_key(b"Encrypt".as_slice())
    }

    /// An object by value, references followed (up to a bound: cycles end).
    pub(crate) fn resolve<'o>(&'o self, mut obj: &'o Object) -> &'o Object {
        for _ in 0..32 {
            match obj {
                Object::Ref(id) => {
                    obj = match self.objects.get(id) {
                        Some(s) => &s.value,
                        None => match self.packed.get(id) {
                            Some(v) => v,
                            None => return &Object::Null,
                        },
                    }
                }
                _ => return obj,
            }
        }
        &Object::Null
    }

    /// A dictionary entry, references followed.
    pub(crate) fn get<'o>(&'o self, dict: &'o Dict, key: &[u8]) -> Option<&'o Object> {
        dict.get(key).map(|v| self.resolve(v))
    }

    /// The decoded data of the stream an object (or reference) names.
    pub(crate) fn stream(&self, obj: &Object) -> Result<Vec<u8>, StreamError> {
        let Object::Ref(id) = obj else {
            return Err(StreamError::Missing);
        };
        let stored = self.objects.get(id).ok_or(StreamError::Missing)?;
        self.stream_data(stored)
    }

    fn stream_data(&self, stored: &Stored) -> Result<Vec<u8>, StreamError> {
        let (s, e) = stored.data.ok_or(StreamError::Missing)?;
        let raw = self.bytes.get(s..e).ok_or(StreamError::Missing)?;
        let dict = stored.value.as_dict().ok_or(StreamError::Missing)?;
        let filters: Vec<&[u8]> = match dict.get(b"Filter".as_slice()).map(|f| self.resolve(f)) {
            Some(Object::Name(n)) => vec![n.as_slice()],
            Some(Object::Array(a)) => a.iter().filter_map(|f| self.resolve(f).as_name()).collect(),
            _ => Vec::new(),
        };
        let mut data = raw.to_vec();
        for f in filters {
            data = match f {
                b"FlateDecode" | b"Fl" => inflate(&data)?,
                b"ASCIIHexDecode" | b"AHx" => {
                    let mut text = data;
                    text.push(b'>');
                    match Lexer::new(&[b"<".as_slice(), &text].concat(), 0).object(false) {
                        Some(Object::Str(s)) => s,
                        _ => return Err(StreamError::Damaged),
                    }
                }
                _ => return Err(StreamError::Unsupported),
            };
        }
        Ok(data)
    }

    /// The page dictionaries in order, with resources inherited.
    pub(crate) fn pages(&self) -> Vec<Page<'_>> {
        let mut out = Vec::new();
        let root = self
            .trailer
            .get(b"Root".as_slice())
            .map(|r| self.resolve(r))
            .and_then(Object::as_dict)
            .or_else(|| self.find_type(b"Catalog"));
        let top = root
            .and_then(|r| self.get(r, b"Pages"))
            .and_then(Object::as_dict);
        if let Some(top) = top {
            self.walk(top, None, 0, &mut out);
        }
        if out.is_empty() {
            // No usable page tree (damaged): every page object in file order.
            let mut ids: Vec<&u32> = self.objects.keys().collect();
            ids.sort();
            for id in ids {
                if let Some(Object::Dict(d)) = self.objects.get(id).map(|s| &s.value) {
                    if d.get(b"Type".as_slice()).and_then(Object::as_name) == Some(b"Page") {
                        out.push(Page {
                            dict: d,
                            resources: self.get(d, b"Resources").and_then(Object::as_dict),
                        });
                    }
                }
            }
        }
        out.truncate(MAX_PAGES);
        out
    }

    fn walk<'o>(
        &'o self,
        node: &'o Dict,
        resources: Option<&'o Dict>,
        depth: usize,
        out: &mut Vec<Page<'o>>,
    ) {
        if depth > 32 || out.len() >= MAX_PAGES {
            return;
        }
        let resources = self
            .get(node, b"Resources")
            .and_then(Object::as_dict)
            .or(resources);
        match self.get(node, b"Kids").and_then(Object::as_array) {
            Some(kids) => {
                for kid in kids {
                    if let Some(d) = self.resolve(kid).as_dict() {
                        self.walk(d, resources, depth + 1, out);
                    }
                }
            }
            None => out.push(Page {
                dict: node,
                resources,
            }),
        }
    }

    fn find_type(&self, ty: &[u8]) -> Option<&Dict> {
        self.objects.values().find_map(|s| {
            let d = s.value.as_dict()?;
            (d.get(b"Type".as_slice()).and_then(Object::as_name) == Some(ty)).then_some(d)
        })
    }
}

/// A page: its dictionary and the resources in force for it.
pub(crate) struct Page<'o> {
    pub(crate) dict: &'o Dict,
    pub(crate) resources: Option<&'o Dict>,
}

/// Why a stream's data could not be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamError {
    Missing,
    Damaged,
    Unsupported,
}

fn inflate(data: &[u8]) -> Result<Vec<u8>, StreamError> {
    let mut out = Vec::new();
    let mut reader = flate2::read::ZlibDecoder::new(data).take(MAX_STREAM);
    match reader.read_to_end(&mut out) {
        Ok(_) => Ok(out),
        // A truncated stream: what inflated before the cut is still text.
        Err(_) if !out.is_empty() => Ok(out),
        Err(_) => Err(StreamError::Damaged),
    }
}

/// `N G obj` ending at `at` (the `obj` keyword's start): the object number.
fn object_header(bytes: &[u8], at: usize) -> Option<u32> {
    // `obj` must stand alone: not `endobj`, followed by a delimiter.
    let after = bytes.get(at + 3).copied().unwrap_or(b' ');
    if !(super::object::is_white(after) || matches!(after, b'<' | b'[' | b'(' | b'/' | b'%')) {
        return None;
    }
    // Read backwards: the generation, then the object number.
    let (_generation, before) = number_before(bytes, at)?;
    let (id, _) = number_before(bytes, before)?;
    u32::try_from(id).ok()
}

/// The unsigned number that ends, after white space, just before `i`, and
/// where it starts.
fn number_before(bytes: &[u8], i: usize) -> Option<(u64, usize)> {
    let end = back_white(bytes, i)?;
    let mut s = end;
    while s > 0 && bytes.get(s - 1).is_some_and(u8::is_ascii_digit) {
        s -= 1;
    }
    if s == end || end - s > 10 {
        return None;
    }
    let n = std::str::from_utf8(bytes.get(s..end)?).ok()?.parse().ok()?;
    Some((n, s))
}

/// The end of the token before `i` after skipping white space (at least one).
fn back_white(bytes: &[u8], mut i: usize) -> Option<usize> {
    let from = i;
    while i > 0
        && bytes
            .get(i - 1)
            .copied()
            .is_some_and(super::object::is_white)
    {
        i -= 1;
    }
    (i < from).then_some(i)
}

fn ends_stream(bytes: &[u8], e: usize) -> bool {
    let mut lx = Lexer::new(bytes, e);
    lx.skip_white();
    bytes
        .get(lx.pos..)
        .is_some_and(|r| r.starts_with(b"endstream"))
}
