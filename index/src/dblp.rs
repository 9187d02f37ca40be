//! DBLP's XML (`dblp.xml`, or `.gz`), read as a stream of [`Work`]s.
//!
//! The file is one `<dblp>` element holding millions of flat records
//! (`<article key="…" mdate="…">` with `<author>`, `<title>`, `<year>`,
//! `<journal>` or `<booktitle>`, `<ee>` children). Non-ASCII letters are
//! written as the character entities `dblp.dtd` declares (`&uuml;`); the
//! subset this reader knows is `dblp-entities.dtd` beside this crate. A
//! title may hold markup (`<i>`, `<sub>`, `<sup>`, `<tt>`): its text is kept.

use crate::work::Work;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::collections::HashMap;
use std::io::BufRead;
use std::sync::OnceLock;

/// The entity declarations the reader resolves (and the generator writes).
pub const ENTITIES_DTD: &str = include_str!("../dblp-entities.dtd");

/// The record elements of `dblp.dtd`.
pub const RECORD_KINDS: [&str; 9] = [
    "article",
    "inproceedings",
    "proceedings",
    "book",
    "incollection",
    "phdthesis",
    "mastersthesis",
    "www",
    "data",
];

/// `name → replacement` from [`ENTITIES_DTD`] plus XML's five.
pub fn entities() -> &'static HashMap<String, String> {
    static MAP: OnceLock<HashMap<String, String>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map: HashMap<String, String> = [
            ("lt", "<"),
            ("gt", ">"),
            ("amp", "&"),
            ("apos", "'"),
            ("quot", "\""),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for line in ENTITIES_DTD.lines() {
            let Some(rest) = line.trim().strip_prefix("<!ENTITY ") else {
                continue;
            };
            let mut parts = rest.split('"');
            let name = parts.next().unwrap_or("").trim();
            let value = parts.next().unwrap_or("");
            let ch = value
                .strip_prefix("&#")
                .and_then(|v| v.strip_suffix(';'))
                .and_then(|n| n.parse::<u32>().ok())
                .and_then(char::from_u32);
            if let (false, Some(c)) = (name.is_empty(), ch) {
                map.insert(name.to_string(), c.to_string());
            }
        }
        map
    })
}

/// A reading error: the byte offset where the XML broke and why.
#[derive(Debug, Clone, PartialEq)]
pub struct XmlError {
    /// Byte offset in the (decompressed) stream.
    pub offset: u64,
    /// What is wrong, lowercase.
    pub message: String,
}

/// Bytes as text: UTF-8, or ISO 8859-1 (which `dblp.xml` declares) when
/// they are not UTF-8.
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|b| char::from(*b)).collect(),
    }
}

/// Text with its entities resolved; an unknown entity is kept as written.
fn unescape(raw: &str) -> String {
    let map = entities();
    match quick_xml::escape::unescape_with(raw, |e| map.get(e).map(String::as_str)) {
        Ok(s) => s.into_owned(),
        Err(_) => raw.to_string(),
    }
}

/// The field a text belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    None,
    Author,
    Editor,
    Title,
    Year,
    Journal,
    Booktitle,
    Ee,
    Volume,
}

fn field(name: &[u8]) -> Field {
    match name {
        b"author" => Field::Author,
        b"editor" => Field::Editor,
        b"title" => Field::Title,
        b"year" => Field::Year,
        b"journal" => Field::Journal,
        b"booktitle" => Field::Booktitle,
        b"ee" => Field::Ee,
        b"volume" => Field::Volume,
        _ => Field::None,
    }
}

/// A record being read.
#[derive(Default)]
struct Partial {
    work: Work,
    editors: Vec<String>,
    journal: Option<String>,
    booktitle: Option<String>,
    volume: Option<String>,
    ees: Vec<String>,
}

impl Partial {
    fn finish(mut self) -> Work {
        if self.work.authors.is_empty() {
            self.work.authors = self.editors;
        }
        // CoRR's records carry the arXiv id as volume `abs/2101.00001`.
        if self.journal.as_deref() == Some("CoRR") {
            if let Some(id) = self.volume.as_deref().and_then(|v| v.strip_prefix("abs/")) {
                self.work.take_link(&format!("arXiv:{id}"));
            }
        }
        self.work.venue = self.journal.or(self.booktitle);
        for ee in &self.ees {
            self.work.take_link(ee);
        }
        let t = self.work.title.trim();
        self.work.title = t.split_whitespace().collect::<Vec<_>>().join(" ");
        self.work
    }
}

/// DBLP records from `input`, one at a time.
pub struct DblpReader<R: BufRead> {
    reader: Reader<R>,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> DblpReader<R> {
    /// A reader over `input` (already decompressed).
    pub fn new(input: R) -> DblpReader<R> {
        let mut reader = Reader::from_reader(input);
        reader.config_mut().trim_text(false);
        DblpReader {
            reader,
            buf: Vec::with_capacity(4096),
            done: false,
        }
    }

    fn error(&self, message: impl Into<String>) -> XmlError {
        XmlError {
            offset: self.reader.buffer_position(),
            message: message.into(),
        }
    }

    /// The next record, `None` at the end.
    pub fn next_work(&mut self) -> Option<Result<Work, XmlError>> {
        if self.done {
            return None;
        }
        let r = self.read_record();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }

    fn read_record(&mut self) -> Option<Result<Work, XmlError>> {
        // Depth below the record element; 0 = between records.
        let mut depth = 0usize;
        let mut rec: Option<Partial> = None;
        let mut current = Field::None;
        let mut text = String::new();
        loop {
            self.buf.clear();
            let event = match self.reader.read_event_into(&mut self.buf) {
                Ok(e) => e,
                Err(e) => return Some(Err(self.error(e.to_string().to_lowercase()))),
            };
            match event {
                Event::Eof => {
                    return rec.map(|_| Err(self.error("the file ends inside a record")));
                }
                Event::Start(e) => {
                    if rec.is_some() {
                        depth += 1;
                        if depth == 1 {
                            current = field(e.name().as_ref());
                            text.clear();
                        }
                    } else if RECORD_KINDS.contains(&text_of(e.name().as_ref()).as_str()) {
                        let mut p = Partial::default();
                        p.work.kind = text_of(e.name().as_ref());
                        for a in e.attributes().flatten() {
                            let v = unescape(&text_of(&a.value));
                            match a.key.as_ref() {
                                b"key" => p.work.key = v,
                                b"mdate" => p.work.date = Some(v),
                                _ => {}
                            }
                        }
                        rec = Some(p);
                        depth = 0;
                    }
                }
                Event::Text(t) if rec.is_some() && depth >= 1 && current != Field::None => {
                    text.push_str(&unescape(&text_of(t.as_ref())));
                }
                Event::CData(t) if rec.is_some() && depth >= 1 && current != Field::None => {
                    text.push_str(&text_of(t.as_ref()));
                }
                Event::End(_) => {
                    let Some(p) = rec.as_mut() else { continue };
                    if depth == 0 {
                        return rec.take().map(|p| Ok(p.finish()));
                    }
                    depth -= 1;
                    if depth == 0 {
                        let value = text.trim().to_string();
                        match current {
                            Field::Author => p.work.authors.push(value),
                            Field::Editor => p.editors.push(value),
                            Field::Title => p.work.title = value,
                            Field::Year => p.work.year = value.parse().ok(),
                            Field::Journal => p.journal = Some(value),
                            Field::Booktitle => p.booktitle = Some(value),
                            Field::Ee => p.ees.push(value),
                            Field::Volume => p.volume = Some(value),
                            Field::None => {}
                        }
                        current = Field::None;
                        text.clear();
                    }
                }
                _ => {}
            }
        }
    }
}

impl<R: BufRead> Iterator for DblpReader<R> {
    type Item = Result<Work, XmlError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(xml: &str) -> Vec<Work> {
        DblpReader::new(xml.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .expect("reads")
    }

    #[test]
    fn entities_of_the_dtd_subset_are_known() {
        let m = entities();
        assert_eq!(m.get("uuml").map(String::as_str), Some("ü"));
        assert_eq!(m.get("szlig").map(String::as_str), Some("ß"));
        assert_eq!(m.get("amp").map(String::as_str), Some("&"));
    }

    #[test]
    fn an_article_with_markup_entities_and_a_doi() {
        let xml = r#"<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE dblp SYSTEM "dblp.dtd">
<dblp>
<article mdate="2020-05-01" key="journals/tcs/Muller20">
<author>J&uuml;rgen M&uuml;ller 0001</author>
<author>Ana Garc&iacute;a</author>
<title>On <i>k</i>-Colouring of H<sub>2</sub>-Free Graphs.</title>
<year>2020</year>
<journal>Theor. Comput. Sci.</journal>
<ee>https://doi.org/10.1016/j.tcs.2020.01.001</ee>
</article>
</dblp>"#;
        let w = &read(xml)[0];
        assert_eq!(w.key, "journals/tcs/Muller20");
        assert_eq!(w.kind, "article");
        assert_eq!(w.authors, vec!["Jürgen Müller 0001", "Ana García"]);
        assert_eq!(w.title, "On k-Colouring of H2-Free Graphs.");
        assert_eq!(w.year, Some(2020));
        assert_eq!(w.venue.as_deref(), Some("Theor. Comput. Sci."));
        assert_eq!(w.doi.as_deref(), Some("10.1016/j.tcs.2020.01.001"));
        assert_eq!(w.date.as_deref(), Some("2020-05-01"));
    }

    #[test]
    fn corr_records_give_their_arxiv_id_and_editors_stand_in_for_authors() {
        let xml = r#"<dblp><article key="journals/corr/abs-2101-00001" mdate="2021-01-05"><author>A B</author><title>T.</title><journal>CoRR</journal><volume>abs/2101.00001</volume><year>2021</year><ee type="oa">https://arxiv.org/abs/2101.00001</ee></article>
<proceedings key="conf/x/2020" mdate="2020-01-01"><editor>E F</editor><title>Proc.</title><year>2020</year></proceedings></dblp>"#;
        let ws = read(xml);
        assert_eq!(ws[0].arxiv.as_deref(), Some("2101.00001"));
        assert_eq!(ws[0].doi, None);
        assert_eq!(ws[1].authors, vec!["E F"]);
        assert_eq!(ws[1].kind, "proceedings");
    }

    #[test]
    fn a_file_cut_inside_a_record_is_an_error_not_a_record() {
        let mut r = DblpReader::new(&b"<dblp><article key=\"a\"><title>T"[..]);
        assert!(matches!(r.next(), Some(Err(_))));
        assert!(r.next().is_none());
    }
}
