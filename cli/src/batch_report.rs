//! The batch's report rendered: `report.csv` (one row per entry) and
//! `report.html` (a page a chair opens: no script, a strict
//! Content-Security-Policy, every piece of text from a file or a service
//! made inert and escaped). The order and the counts are the core's
//! (`paper::batch::Report`).

use citegate_core::bibtex::verdict::{Class, ClassCounts};
use citegate_core::inert::one_line;
use citegate_core::paper::batch::{Paper, Report};
use std::fmt::Write;

/// One CSV field: inert, quoted when it holds a comma, a quote or a line
/// end (quotes doubled, RFC 4180). A field a spreadsheet would run as a
/// formula (`=`, `+`, `-`, `@` first) gets a leading `'`.
fn field(text: &str) -> String {
    let mut t = one_line(text);
    if t.starts_with(['=', '+', '-', '@']) {
        t.insert(0, '\'');
    }
    if t.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        t
    }
}

/// `report.csv`: `file,key,verdict,class,title,reason`, one row per entry
/// in report order; a paper that could not be checked is one row with its
/// error as the reason.
pub fn csv(report: &Report) -> String {
    let mut out = String::from("file,key,verdict,class,title,reason\n");
    for p in &report.papers {
        if let Some(err) = &p.error {
            let _ = writeln!(out, "{},,,,,{}", field(&p.file), field(err));
        }
        for e in &p.entries {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{}",
                field(&p.file),
                field(&e.key),
                field(&e.verdict),
                field(e.class.name()),
                field(e.title.as_deref().unwrap_or("")),
                field(&e.reason)
            );
        }
    }
    out
}

/// Text as HTML text: inert, then escaped.
fn text(t: &str) -> String {
    html_escape::encode_text(&one_line(t)).into_owned()
}

/// The class columns of the summary, worst first.
const COLUMNS: [(Class, &str); 5] = [
    (Class::Fabricated, "fabricated"),
    (Class::Miscited, "miscited"),
    (Class::Retracted, "retracted"),
    (Class::Unverified, "could not check"),
    (Class::Valid, "valid"),
];

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:75em;padding:0 1em;color:#111}\
table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}\
th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}\
th{background:#eee}td.n{text-align:right}\
.fabricated,.retracted,.flagged{background:#fdd}.miscited{background:#fed}.unverified{background:#eef}.error{background:#fdd}\
ul{margin:.2em 0;padding-left:1.2em}small{color:#444}";

fn counts_cells(c: ClassCounts) -> String {
    COLUMNS
        .iter()
        .map(|(class, _)| format!("<td class=\"n\">{}</td>", c.get(*class)))
        .collect()
}

/// The id a paper's section takes (`p1`, `p2`… in report order).
fn anchor(i: usize) -> String {
    format!("p{}", i + 1)
}

fn paper_section(out: &mut String, i: usize, p: &Paper) {
    let _ = write!(
        out,
        "<section id=\"{}\"><h2>{}</h2>",
        anchor(i),
        text(&p.file)
    );
    if let Some(err) = &p.error {
        let _ = writeln!(
            out,
            "<p class=\"error\">Could not be checked: {}</p></section>",
            text(err)
        );
        return;
    }
    if p.entries.is_empty() {
        out.push_str("<p>No references were read.</p></section>\n");
        return;
    }
    out.push_str("<table><thead><tr><th>key</th><th>title</th><th>class</th><th>verdict</th><th>why, and what each source answered</th></tr></thead><tbody>\n");
    for e in &p.entries {
        let _ = write!(
            out,
            "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>",
            e.class.name(),
            text(&e.key),
            text(e.title.as_deref().unwrap_or("")),
            text(e.class.name()),
            text(&e.verdict)
        );
        if !e.reason.is_empty() {
            let _ = write!(out, "{}", text(&e.reason));
        }
        if let Some(raw) = &e.raw {
            let _ = write!(out, "<br><small>as printed: {}</small>", text(raw));
        }
        if !e.evidence.is_empty() {
            out.push_str("<ul>");
            for ev in &e.evidence {
                let _ = write!(out, "<li>{}</li>", text(ev));
            }
            out.push_str("</ul>");
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody></table></section>\n");
}

/// `report.html`: the summary table (a row per paper, most flagged first,
/// each linking to its section), then each paper's entries with verdict,
/// class and evidence. No script; styles inline, allowed by the CSP.
pub fn html(report: &Report) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>citegate batch report</title>\n");
    let _ = writeln!(out, "<style>{STYLE}</style></head><body>");
    let t = report.totals();
    let _ = writeln!(
        out,
        "<h1>citegate batch report</h1><p>{} papers, {} references ({}); {} could not be checked. Papers with the most flagged references (fabricated, miscited, retracted) come first.</p>",
        report.papers.len(),
        report.papers.iter().map(|p| p.entries.len()).sum::<usize>(),
        text(&t.describe()),
        report.failed()
    );
    out.push_str("<table><thead><tr><th>paper</th><th>references</th>");
    for (_, head) in COLUMNS {
        let _ = write!(out, "<th>{head}</th>");
    }
    out.push_str("</tr></thead><tbody>\n");
    for (i, p) in report.papers.iter().enumerate() {
        let class = if p.error.is_some() {
            " class=\"error\""
        } else if p.flagged() > 0 {
            " class=\"flagged\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td><a href=\"#{}\">{}</a>{}</td><td class=\"n\">{}</td>{}</tr>",
            anchor(i),
            text(&p.file),
            if p.error.is_some() {
                " (could not be checked)"
            } else {
                ""
            },
            p.entries.len(),
            counts_cells(p.classes())
        );
    }
    out.push_str("</tbody></table>\n");
    for (i, p) in report.papers.iter().enumerate() {
        paper_section(&mut out, i, p);
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_and_formulas_defused() {
        for (input, want) in [
            ("plain", "plain"),
            ("a, b", "\"a, b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("two\nlines", "two lines"),
            ("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""),
            ("-omics", "'-omics"),
        ] {
            assert_eq!(field(input), want, "{input:?}");
        }
    }

    #[test]
    fn html_text_is_escaped() {
        assert_eq!(
            text("<script>alert(1)</script> & \"q\""),
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; \"q\""
        );
    }
}
