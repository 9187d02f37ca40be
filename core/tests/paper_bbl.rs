//! The `.bbl` readers against the entries the `.bbl` files were typeset
//! from: `tools/bblcorpus/make.sh` ran BibTeX and biber over
//! `core/tests/fixtures/bbl/truth.bib` in 17 styles (PROVENANCE.md there).
//! Every field a style prints must come back: title (after
//! normalization), first author's family name, year, DOI and arXiv id.

use citegate_core::bibtex::{self, parse::Entry};
use citegate_core::ids::{ArxivId, Doi};
use citegate_core::names;
use citegate_core::paper::{self, Reference};
use citegate_core::title;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bbl");

/// Per field: (right, printed by the style).
#[derive(Default, Debug)]
struct Score {
    found: (usize, usize),
    title: (usize, usize),
    author: (usize, usize),
    year: (usize, usize),
    doi: (usize, usize),
    arxiv: (usize, usize),
    misses: Vec<String>,
}

fn pct((a, b): (usize, usize)) -> String {
    if b == 0 {
        "—".into()
    } else {
        format!("{:.1}", 100.0 * a as f64 / b as f64)
    }
}

fn tally(s: &mut (usize, usize), ok: bool, miss: &mut Vec<String>, what: String) {
    s.1 += 1;
    if ok {
        s.0 += 1;
    } else {
        miss.push(what);
    }
}

/// The raw text without the URLs that are not DOI links: a DOI inside a
/// publisher's URL is not a printed DOI.
fn without_plain_urls(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(i) = rest.find("\\url{") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let end = after.find('}').map_or(after.len(), |e| e + 1);
        if after[..end].contains("doi.org") {
            out.push_str(&after[..end]);
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn squash_key(t: &str) -> String {
    title::normalize(t).replace(' ', "")
}

fn score(style: &str, truth: &[Entry]) -> Score {
    let bytes = std::fs::read(format!("{DIR}/{style}.bbl")).expect("fixture");
    let refs = paper::read(&format!("{style}.bbl"), &bytes).expect("readable");
    let mut s = Score::default();
    for e in truth {
        let got: Option<&Reference> = refs
            .references
            .iter()
            .find(|r| r.key.as_deref() == Some(e.key.as_str()));
        tally(
            &mut s.found,
            got.is_some(),
            &mut s.misses,
            format!("{}: not read", e.key),
        );
        let Some(r) = got else { continue };
        let raw = r.raw.to_lowercase();
        let flat = squash_key(&r.raw);
        if let Some(t) = e.decoded("title") {
            // A style that prints the title prints its words.
            if flat.contains(&squash_key(&t)) || r.source == paper::Source::Biblatex {
                let ok = r
                    .title
                    .as_deref()
                    .is_some_and(|g| squash_key(g) == squash_key(&t));
                tally(
                    &mut s.title,
                    ok,
                    &mut s.misses,
                    format!("{}: title {:?} want {:?}", e.key, r.title, t),
                );
            }
        }
        if let Some(a) = e.get("author") {
            let (people, _) = names::split(a);
            if let Some(first) = people.first() {
                let want = names::key_of(&first.family);
                let got = r
                    .authors
                    .first()
                    .map(|g| names::key_of(&g.family))
                    .unwrap_or_default();
                let ok = got == want
                    || (!got.is_empty()
                        && want.ends_with(&got)
                        && names::key_of(&first.prefix).len() + got.len() == want.len());
                tally(
                    &mut s.author,
                    ok,
                    &mut s.misses,
                    format!(
                        "{}: first author {:?} want {:?}",
                        e.key,
                        r.authors.first(),
                        first.family
                    ),
                );
            }
        }
        if let Some(Ok(y)) = bibtex::format::entry_year(e) {
            if raw.contains(&y.to_string()) || r.source == paper::Source::Biblatex {
                tally(
                    &mut s.year,
                    r.year == Some(y),
                    &mut s.misses,
                    format!("{}: year {:?} want {y}", e.key, r.year),
                );
            }
        }
        if let Some(d) = e
            .decoded("doi")
            .and_then(|d| Doi::parse(&d))
            .filter(|d| d.arxiv().is_none())
        {
            let printed = without_plain_urls(&raw).contains(&d.as_str().to_lowercase())
                || (r.source == paper::Source::Biblatex);
            if printed {
                tally(
                    &mut s.doi,
                    r.doi.as_ref() == Some(&d),
                    &mut s.misses,
                    format!("{}: doi {:?} want {d}", e.key, r.doi),
                );
            }
        }
        if let Some(a) = e.decoded("eprint").and_then(|a| ArxivId::parse(&a)) {
            if raw.contains(a.as_str()) {
                tally(
                    &mut s.arxiv,
                    r.arxiv.as_ref() == Some(&a),
                    &mut s.misses,
                    format!("{}: arxiv {:?} want {a}", e.key, r.arxiv),
                );
            }
        }
    }
    s
}

const STYLES: &[&str] = &[
    "plain",
    "abbrv",
    "unsrt",
    "alpha",
    "ieeetr",
    "IEEEtran",
    "ACM-Reference-Format",
    "plainnat",
    "abbrvnat",
    "unsrtnat",
    "apalike",
    "splncs04",
    "elsarticle-num",
    "elsarticle-harv",
    "biblatex-numeric",
    "biblatex-authoryear",
    "biblatex-apa",
];

/// The lowest share (percent) of each field a style's `.bbl` must give
/// back. biblatex's fields are exact; the BibTeX styles lose only what the
/// printed text cannot tell (a corporate author `{R Core Team}` read as a
/// person; elsarticle-num's comma-only layout, where a title with a comma
/// or a capitalised one like "Programming Perl" cannot be told from a name).
fn floor(style: &str) -> f64 {
    match style {
        s if s.starts_with("biblatex") => 100.0,
        "elsarticle-num" => 85.0,
        _ => 95.0,
    }
}

fn at_least(style: &str, field: &str, s: (usize, usize)) {
    if s.1 > 0 {
        let p = 100.0 * s.0 as f64 / s.1 as f64;
        assert!(
            p >= floor(style),
            "{style}: {field} {p:.1} % is under {} %",
            floor(style)
        );
    }
}

#[test]
fn bbl_fields_per_style() {
    let truth_text = std::fs::read_to_string(format!("{DIR}/truth.bib")).expect("truth");
    let truth = bibtex::read_bibliography("truth.bib", &truth_text).entries;
    println!("| style | found | title | first author | year | DOI | arXiv |");
    for style in STYLES {
        let s = score(style, &truth);
        println!(
            "| {style} | {} | {} | {} | {} | {} | {} |",
            pct(s.found),
            pct(s.title),
            pct(s.author),
            pct(s.year),
            pct(s.doi),
            pct(s.arxiv)
        );
        for m in &s.misses {
            println!("    {m}");
        }
        assert_eq!(s.found.0, s.found.1, "{style}: every entry is read");
        at_least(style, "title", s.title);
        at_least(style, "first author", s.author);
        at_least(style, "year", s.year);
        at_least(style, "doi", s.doi);
        at_least(style, "arxiv", s.arxiv);
    }
}
