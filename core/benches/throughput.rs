//! The performance figures of BENCHMARKS.md: title-score throughput,
//! coverage of a 5 MB LaTeX tree, parsing and layer 1 of a 5,000-entry
//! `.bib`, and fusion of three lists of 100 results. Inputs come from
//! `inputs/` (shared with the JavaScript and Python runs); each is parsed
//! from its text inside the timed part when a user's run would parse it too.

mod inputs;

use citegate_core::bibtex::{format, parse};
use citegate_core::works::{Service, Work};
use citegate_core::{coverage, pool, search, tex, title};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::collections::HashSet;

fn title_scores(c: &mut Criterion) {
    let pairs = inputs::title_pairs(10_000);
    let mut g = c.benchmark_group("title_score");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("10k_pairs", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(a, f)| title::score(black_box(a), black_box(f), false))
                .sum::<i64>()
        })
    });
    g.finish();
    // The bare ratio on titles normalized beforehand: what python-Levenshtein's
    // C `ratio` is timed on in BENCHMARKS.md.
    let normalized: Vec<(String, String)> = pairs
        .iter()
        .map(|(a, f)| (title::normalize(a), title::normalize(f)))
        .collect();
    let mut g = c.benchmark_group("title_ratio");
    g.throughput(Throughput::Elements(normalized.len() as u64));
    g.bench_function("10k_normalized_pairs", |b| {
        b.iter(|| {
            normalized
                .iter()
                .map(|(a, f)| title::ratio_normalized(black_box(a), black_box(f)))
                .sum::<f64>()
        })
    });
    g.finish();
}

fn coverage_5mb(c: &mut Criterion) {
    let files = inputs::tex_tree(5_000_000);
    let pool_text = inputs::pool_json();
    let bytes: usize = files.values().map(String::len).sum();
    let roots = vec!["main.tex".to_string()];
    let threshold = coverage::Threshold::parse("0.90").unwrap();
    let mut g = c.benchmark_group("coverage");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("5mb_tree", |b| {
        b.iter(|| {
            let pool = pool::parse_pool(black_box(&pool_text)).unwrap();
            let project = tex::scan_project(&roots, black_box(&files));
            let cites = coverage::cites_of(&project);
            coverage::check_pool(&pool.papers, &cites, &threshold).unwrap()
        })
    });
    g.finish();
}

fn bib_5000(c: &mut Criterion) {
    let text = inputs::bib(5_000);
    let mut g = c.benchmark_group("bib");
    g.sample_size(20);
    g.throughput(Throughput::Elements(5_000));
    g.bench_function("parse_layer1_5000", |b| {
        b.iter(|| {
            let bib = parse::parse(black_box(&text));
            format::check_entries(&bib, 2025)
        })
    });
    g.finish();
}

fn fusion(c: &mut Criterion) {
    #[derive(serde::Deserialize)]
    struct List {
        service: Service,
        works: Vec<Work>,
    }
    let text = inputs::fusion_json(100);
    let lists: Vec<List> = serde_json::from_str(&text).unwrap();
    let refs: Vec<(Service, &[Work])> = lists
        .iter()
        .map(|l| (l.service, l.works.as_slice()))
        .collect();
    let library: HashSet<String> = (0..50).map(|i| format!("10.5555/shared.{i}")).collect();
    let mut g = c.benchmark_group("fusion");
    g.bench_function("3x100", |b| {
        b.iter(|| search::fuse(black_box(&refs), &library))
    });
    // What the JavaScript `fuse` does inside wasm: read the lists from JSON
    // text, fuse, write the results as JSON text. The wasm figure includes
    // this conversion, so this is the native figure to compare it with.
    g.bench_function("3x100_from_json", |b| {
        b.iter(|| {
            let lists: Vec<List> = serde_json::from_str(black_box(&text)).unwrap();
            let refs: Vec<(Service, &[Work])> = lists
                .iter()
                .map(|l| (l.service, l.works.as_slice()))
                .collect();
            serde_json::to_string(&search::fuse(&refs, &library)).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, title_scores, coverage_5mb, bib_5000, fusion);
criterion_main!(benches);
