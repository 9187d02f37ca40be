//! The `citegate-index` store (SQLite records and ids, a Tantivy title
//! index beside them; before 2026-12-07, SQLite FTS5 for titles too)
//! against a Tantivy index holding everything, on the same generated DBLP
//! file: build time, size on disk, title lookups a second
//! (candidates from the full-text index, then the core's title ratio) and
//! how often the cited record comes first, for exact and for damaged titles
//! (a word dropped, two letters swapped), and DOI lookups a second.
//!
//! `cargo run --release -- [--records N] [--queries Q] [--dir DIR] [--tantivy no]`

use citegate_core::title;
use citegate_index::dblp::DblpReader;
use citegate_index::gen::Generator;
use citegate_index::{Index, Source, Work};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Schema, Value, STORED, STRING, TEXT};
use tantivy::{TantivyDocument, Term};

const CANDIDATES: usize = 20;

fn dir_size(p: &Path) -> u64 {
    std::fs::read_dir(p)
        .map(|rd| {
            rd.flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

fn works(file: &Path) -> impl Iterator<Item = Work> {
    let f = std::fs::File::open(file).expect("open");
    DblpReader::new(BufReader::with_capacity(1 << 16, f))
        .map(|r| r.expect("xml"))
        .filter(|w| w.kind != "www")
}

/// A damaged copy of a title: the middle word dropped, two letters of the
/// first long word swapped.
fn damaged(t: &str) -> String {
    let mut words: Vec<String> = t.split_whitespace().map(str::to_string).collect();
    if words.len() > 3 {
        words.remove(words.len() / 2);
    }
    if let Some(w) = words.iter_mut().find(|w| w.len() > 5 && w.is_ascii()) {
        let mut b = w.clone().into_bytes();
        b.swap(1, 2);
        *w = String::from_utf8(b).unwrap_or_default();
    }
    words.join(" ")
}

struct Probe {
    key: String,
    title: String,
    doi: Option<String>,
}

/// Whether `key` is among the candidates of the best ratio.
fn first(hits: &[(String, f64)], key: &str) -> bool {
    let best = hits.iter().map(|h| h.1).fold(f64::MIN, f64::max);
    hits.iter().any(|(k, r)| k == key && *r == best)
}

fn report(name: &str, what: &str, n: usize, secs: f64, right: usize) {
    println!(
        "{name:8} {what:14} {:>9.0}/s  first {:>5.1} %",
        n as f64 / secs,
        100.0 * right as f64 / n as f64
    );
}

fn main() {
    let mut records = 200_000u64;
    let mut queries = 2_000usize;
    let mut dir = PathBuf::from("target/index-store-bench");
    let mut tantivy_too = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().expect("a value");
        match a.as_str() {
            "--records" => records = v.parse().expect("number"),
            "--queries" => queries = v.parse().expect("number"),
            "--dir" => dir = PathBuf::from(v),
            "--tantivy" => tantivy_too = v != "no",
            _ => panic!("unknown flag {a}"),
        }
    }
    std::fs::create_dir_all(&dir).expect("dir");
    let xml = dir.join(format!("dblp-{records}.xml"));
    if !xml.exists() {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&xml).expect("create"));
        Generator::new(1)
            .write_file(records, &mut f)
            .expect("generate");
    }
    let total = works(&xml).count();
    let step = (total / queries).max(1);
    let probes: Vec<Probe> = works(&xml)
        .step_by(step)
        .take(queries)
        .map(|w| Probe {
            key: w.key,
            title: w.title,
            doi: w.doi,
        })
        .collect();
    println!(
        "{records} records ({total} works), {} probes, {} MB of XML",
        probes.len(),
        std::fs::metadata(&xml).map(|m| m.len() >> 20).unwrap_or(0)
    );

    // citegate-index: SQLite records, Tantivy titles.
    let sq = dir.join("citegate");
    let _ = std::fs::remove_dir_all(&sq);
    let t = Instant::now();
    let mut ix = Index::create(&sq).expect("create");
    ix.add(Source::Dblp, &xml, None, &mut |_| true)
        .expect("add");
    ix.index_titles(&mut |_| true).expect("titles");
    ix.optimize().expect("optimize");
    drop(ix);
    println!(
        "citegate build {:.1} s, {} MB",
        t.elapsed().as_secs_f64(),
        Index::size_on_disk(&sq) >> 20
    );
    let ix = Index::open(&sq).expect("open");
    for (what, damage) in [("exact title", false), ("damaged title", true)] {
        let t = Instant::now();
        let mut right = 0;
        for p in &probes {
            let q = if damage {
                damaged(&p.title)
            } else {
                p.title.clone()
            };
            let hits: Vec<(String, f64)> = ix
                .search_title(&q)
                .expect("search")
                .into_iter()
                .map(|h| (h.work.key, h.ratio))
                .collect();
            right += usize::from(first(&hits, &p.key));
        }
        report(
            "citegate",
            what,
            probes.len(),
            t.elapsed().as_secs_f64(),
            right,
        );
    }
    let t = Instant::now();
    let mut right = 0;
    for p in &probes {
        if let Some(d) = &p.doi {
            right += usize::from(
                ix.by_doi(d)
                    .expect("doi")
                    .iter()
                    .any(|h| h.work.key == p.key),
            );
        }
    }
    report(
        "citegate",
        "doi",
        probes.len(),
        t.elapsed().as_secs_f64(),
        right,
    );

    if !tantivy_too {
        return;
    }
    // Tantivy.
    let tv = dir.join("tantivy");
    let _ = std::fs::remove_dir_all(&tv);
    std::fs::create_dir_all(&tv).expect("dir");
    let mut sb = Schema::builder();
    let f_norm = sb.add_text_field("norm", TEXT | STORED);
    let f_key = sb.add_text_field("key", STRING | STORED);
    let f_doi = sb.add_text_field("doi", STRING | STORED);
    let f_arxiv = sb.add_text_field("arxiv", STRING | STORED);
    let f_title = sb.add_text_field("title", STORED);
    let f_authors = sb.add_text_field("authors", STORED);
    let f_venue = sb.add_text_field("venue", STORED);
    let f_year = sb.add_i64_field("year", STORED);
    let schema = sb.build();
    let t = Instant::now();
    let index = tantivy::Index::create_in_dir(&tv, schema).expect("tantivy");
    let mut writer: tantivy::IndexWriter = index
        .writer_with_num_threads(1, 100_000_000)
        .expect("writer");
    let mut norm = String::new();
    for w in works(&xml) {
        title::normalize_into(&w.title, &mut norm);
        let mut d = TantivyDocument::default();
        d.add_text(f_norm, &norm);
        d.add_text(f_key, &w.key);
        if let Some(x) = &w.doi {
            d.add_text(f_doi, x.to_ascii_lowercase());
        }
        if let Some(x) = &w.arxiv {
            d.add_text(f_arxiv, x);
        }
        d.add_text(f_title, &w.title);
        d.add_text(
            f_authors,
            serde_json::to_string(&w.authors).unwrap_or_default(),
        );
        if let Some(v) = &w.venue {
            d.add_text(f_venue, v);
        }
        if let Some(y) = w.year {
            d.add_i64(f_year, i64::from(y));
        }
        writer.add_document(d).expect("add");
    }
    writer.commit().expect("commit");
    writer.wait_merging_threads().expect("merge");
    println!(
        "tantivy  build {:.1} s, {} MB",
        t.elapsed().as_secs_f64(),
        dir_size(&tv) >> 20
    );
    let reader = index.reader().expect("reader");
    let searcher = reader.searcher();
    let search = |norm: &str, occur: Occur| -> Vec<(String, f64)> {
        let clauses: Vec<(Occur, Box<dyn Query>)> = norm
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(f_norm, w),
                    IndexRecordOption::Basic,
                ));
                (occur, q)
            })
            .collect();
        let q = BooleanQuery::new(clauses);
        let top = searcher
            .search(&q, &TopDocs::with_limit(CANDIDATES).order_by_score())
            .expect("search");
        top.into_iter()
            .map(|(_, a)| {
                let d: TantivyDocument = searcher.doc(a).expect("doc");
                let key = d
                    .get_first(f_key)
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string();
                let found = d.get_first(f_norm).and_then(|v| v.as_str()).unwrap_or("");
                (key, title::ratio_normalized(norm, found))
            })
            .collect()
    };
    for (what, damage) in [("exact title", false), ("damaged title", true)] {
        let t = Instant::now();
        let mut right = 0;
        for p in &probes {
            let q = title::normalize(&if damage {
                damaged(&p.title)
            } else {
                p.title.clone()
            });
            let mut hits = search(&q, Occur::Must);
            if hits.is_empty() {
                hits = search(&q, Occur::Should);
            }
            right += usize::from(first(&hits, &p.key));
        }
        report(
            "tantivy",
            what,
            probes.len(),
            t.elapsed().as_secs_f64(),
            right,
        );
    }
    let t = Instant::now();
    let mut right = 0;
    for p in &probes {
        if let Some(d) = &p.doi {
            let q = TermQuery::new(
                Term::from_field_text(f_doi, &d.to_ascii_lowercase()),
                IndexRecordOption::Basic,
            );
            let top = searcher
                .search(&q, &TopDocs::with_limit(5).order_by_score())
                .expect("search");
            right += usize::from(top.into_iter().any(|(_, a)| {
                let d: TantivyDocument = searcher.doc(a).expect("doc");
                d.get_first(f_key).and_then(|v| v.as_str()) == Some(p.key.as_str())
            }));
        }
    }
    report(
        "tantivy",
        "doi",
        probes.len(),
        t.elapsed().as_secs_f64(),
        right,
    );
}
