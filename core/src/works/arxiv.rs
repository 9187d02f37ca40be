//! arXiv export API responses (Atom feeds) read into [`Work`]s.
//!
//! arXiv answers every query — a hit, a miss, a malformed id — with the same
//! Atom envelope, and it reports a bad request not as a JSON error body but as
//! a feed holding one pseudo-entry titled `Error` whose summary is the
//! message. So the feed is read first and judged after: an `Error` entry
//! becomes a typed [`ApiError`] whatever the HTTP status, a feed with no
//! entries is an honest empty page, and only a body that is not an Atom feed
//! at all is [`ApiErrorKind::Malformed`]. The XML itself is read with
//! `quick-xml` (a pull parser with no IO of its own, so it builds on wasm32),
//! matching elements by local name so the `arxiv:` and `opensearch:`
//! prefixes the feed happens to declare do not matter.

use super::{
    bare_doi, strip_arxiv_version, ApiError, ApiErrorKind, Author, Page, PubDate, Service, Work,
};
use quick_xml::events::Event;
use quick_xml::Reader;

/// One `<entry>` as read, before it is judged a work or an error.
#[derive(Default)]
struct Entry {
    id: String,
    title: String,
    summary: String,
    published: String,
    doi: String,
    journal_ref: String,
    authors: Vec<String>,
}

/// Reads an arXiv Atom `body` answered with HTTP `status`.
///
/// An entry titled `Error` (arXiv's way of reporting a bad query) is a
/// [`ApiErrorKind::BadRequest`] carrying the entry's summary; a non-2xx status
/// whose body is not a feed falls back to [`super::parse_error`].
pub fn parse_feed(status: u16, body: &str) -> Result<Page, ApiError> {
    let ok = (200..300).contains(&status);
    let (entries, total) = match read_feed(body) {
        Ok(feed) => feed,
        Err(msg) if ok => return Err(ApiError::malformed(Service::Arxiv, status, msg)),
        Err(_) => return Err(super::parse_error(Service::Arxiv, status, body)),
    };
    if let Some(err) = entries.iter().find(|e| is_error_entry(e)) {
        return Err(ApiError {
            service: Service::Arxiv,
            status,
            kind: ApiErrorKind::BadRequest,
            message: collapse(&err.summary),
        });
    }
    if !ok {
        return Err(super::parse_error(Service::Arxiv, status, body));
    }
    Ok(Page {
        works: entries.into_iter().map(entry_work).collect(),
        total,
        missing: Vec::new(),
    })
}

fn is_error_entry(e: &Entry) -> bool {
    collapse(&e.title) == "Error" || e.id.contains("/api/errors")
}

/// The entries and `opensearch:totalResults` of a feed, or why it is not one.
fn read_feed(body: &str) -> Result<(Vec<Entry>, Option<u64>), String> {
    let mut reader = Reader::from_str(body);
    let mut path: Vec<Vec<u8>> = Vec::new();
    let mut entries = Vec::new();
    let mut entry: Option<Entry> = None;
    let mut text = String::new();
    let mut total = None;
    let mut saw_feed = false;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("body is not xml: {e}"))?;
        match event {
            Event::Start(start) => {
                let name = start.local_name().as_ref().to_vec();
                if path.is_empty() {
                    if name != b"feed" {
                        return Err("expected an atom feed".to_string());
                    }
                    saw_feed = true;
                }
                if name == b"entry" && path.len() == 1 {
                    entry = Some(Entry::default());
                }
                path.push(name);
                text.clear();
            }
            Event::Empty(_) => text.clear(),
            Event::Text(t) => {
                let piece = t.unescape().map_err(|e| format!("bad xml text: {e}"))?;
                text.push_str(&piece);
            }
            Event::CData(c) => text.push_str(&String::from_utf8_lossy(&c.into_inner())),
            Event::End(_) => {
                let name = path.pop().unwrap_or_default();
                let value = std::mem::take(&mut text);
                match (path.len(), entry.as_mut()) {
                    (1, _) if name == b"totalResults" => total = value.trim().parse().ok(),
                    (1, Some(_)) if name == b"entry" => entries.extend(entry.take()),
                    (2, Some(e)) => match name.as_slice() {
                        b"id" => e.id = value,
                        b"title" => e.title = value,
                        b"summary" => e.summary = value,
                        b"published" => e.published = value,
                        b"doi" => e.doi = value,
                        b"journal_ref" => e.journal_ref = value,
                        _ => {}
                    },
                    (3, Some(e))
                        if name == b"name" && path.last().is_some_and(|p| p == b"author") =>
                    {
                        e.authors.push(collapse(&value));
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_feed {
        return Err("expected an atom feed".to_string());
    }
    if !path.is_empty() {
        return Err("body is not xml: the feed is cut short".to_string());
    }
    Ok((entries, total))
}

fn entry_work(e: Entry) -> Work {
    let mut w = Work::empty(Service::Arxiv);
    let id = e.id.trim();
    let raw = id.split_once("/abs/").map_or(id, |(_, tail)| tail);
    let arxiv = strip_arxiv_version(raw);
    if !arxiv.is_empty() {
        w.id = Some(arxiv.clone());
        w.arxiv_id = Some(arxiv);
    }
    w.title = collapse(&e.title);
    w.authors = e
        .authors
        .into_iter()
        .filter(|n| !n.is_empty())
        .map(|name| Author {
            name,
            given: None,
            family: None,
        })
        .collect();
    let day = e.published.trim();
    w.published = PubDate::parse(day.split_once('T').map_or(day, |(d, _)| d));
    w.abstract_text = Some(collapse(&e.summary)).filter(|s| !s.is_empty());
    w.doi = bare_doi(&e.doi);
    w.venue = Some(collapse(&e.journal_ref)).filter(|s| !s.is_empty());
    w
}

/// Whitespace runs (arXiv wraps titles and abstracts) as single spaces.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = r#"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">"#;

    fn feed(inner: &str) -> String {
        format!("{HEAD}{inner}</feed>")
    }

    /// One case: `(status, body)` → `Ok(titles)` or `Err(kind, message)`.
    fn check(status: u16, body: &str, expected: Result<Vec<&str>, (ApiErrorKind, &str)>) {
        let got = parse_feed(status, body);
        match (got, expected) {
            (Ok(page), Ok(titles)) => {
                let have: Vec<&str> = page.works.iter().map(|w| w.title.as_str()).collect();
                assert_eq!(have, titles, "{body}");
            }
            (Err(e), Err((kind, msg))) => {
                assert_eq!(e.kind, kind, "{body}");
                assert!(e.message.contains(msg), "{body}: {}", e.message);
            }
            (got, want) => panic!("{body}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn feeds() {
        use ApiErrorKind::*;
        check(200, &feed(""), Ok(vec![]));
        check(
            200,
            &feed("<entry><id>http://arxiv.org/abs/1v1</id><title>A\n  B</title></entry>"),
            Ok(vec!["A B"]),
        );
        // entities decoded, whitespace collapsed
        check(
            200,
            &feed("<entry><title> Q&amp;A &lt;x&gt;\t</title></entry>"),
            Ok(vec!["Q&A <x>"]),
        );
        check(
            200,
            &feed("<entry><title><![CDATA[raw <b>]]></title></entry>"),
            Ok(vec!["raw <b>"]),
        );
        // arXiv's error pseudo-entry, with either status
        check(
            400,
            &feed("<entry><title>Error</title><summary>bad id</summary></entry>"),
            Err((BadRequest, "bad id")),
        );
        check(
            200,
            &feed("<entry><title>Error</title><summary>bad id</summary></entry>"),
            Err((BadRequest, "bad id")),
        );
        // not a feed
        check(200, "{}", Err((Malformed, "atom feed")));
        check(
            200,
            "<html><body>x</body></html>",
            Err((Malformed, "atom feed")),
        );
        check(200, "", Err((Malformed, "atom feed")));
        check(
            200,
            &format!("{HEAD}<entry><title>x</title>"),
            Err((Malformed, "xml")),
        );
        // regression: mismatched and stray tags are errors, never a panic or a partial page
        check(
            200,
            &format!("{HEAD}<entry></feed>"),
            Err((Malformed, "xml")),
        );
        check(200, "<feed></feed></feed>", Err((Malformed, "")));
        check(
            200,
            "<feed><entry><title>&bogus;</title></entry></feed>",
            Err((Malformed, "xml")),
        );
        // a non-feed error body still has the status's kind
        check(
            503,
            "Service Unavailable",
            Err((Server, "Service Unavailable")),
        );
    }

    #[test]
    fn entry_fields() {
        let body = feed(
            "<entry><id>http://arxiv.org/abs/hep-th/9901001v3</id><title>T</title>\
             <published>1999-01-04T10:00:00Z</published><summary> s\n t </summary>\
             <author><name>Ann  Lee</name></author><author><name>Bo</name></author>\
             <arxiv:doi>10.1/x</arxiv:doi><arxiv:journal_ref>J. X 1 (1999)</arxiv:journal_ref></entry>\
             <opensearch:totalResults>7</opensearch:totalResults>",
        );
        let page = parse_feed(200, &body).unwrap();
        let w = &page.works[0];
        assert_eq!(page.total, Some(7));
        assert_eq!(w.arxiv_id.as_deref(), Some("hep-th/9901001"));
        assert_eq!(w.id, w.arxiv_id);
        assert_eq!(
            w.published,
            Some(PubDate {
                year: 1999,
                month: Some(1),
                day: Some(4)
            })
        );
        assert_eq!(w.abstract_text.as_deref(), Some("s t"));
        let names: Vec<&str> = w.authors.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["Ann Lee", "Bo"]);
        assert_eq!(w.doi.as_deref(), Some("10.1/x"));
        assert_eq!(w.venue.as_deref(), Some("J. X 1 (1999)"));
    }
}
