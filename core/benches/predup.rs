//! Pre-dedup of 1,000 and 10,000 generated candidates.
//!
//! Titles are 5–14 words drawn from 3,000 syllable-built words (so letter
//! frequencies look like English titles and many titles share words and
//! lengths); about a third of the candidates are copies of an earlier
//! title with up to four character edits, and one in ten carries an arXiv
//! URL. The bound to meet is 10,000 candidates in under 2 s.
//!
//! The candidates come from `inputs::candidates_json`, shared with the
//! JavaScript and Python runs of BENCHMARKS.md.

mod inputs;

use citegate_core::candidates::{parse_candidates, pre_dedup};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pre_dedup");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let input = parse_candidates(&inputs::candidates_json(n)).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &input, |b, input| {
            b.iter(|| pre_dedup(black_box(input.clone())))
        });
    }
    group.finish();
    // What the JavaScript `preDedup(text)` does inside wasm: parse the
    // `raw_candidates.json` text, pre-dedup, write the result as JSON text.
    // The wasm figures include this, so these are the ones to compare with.
    let mut group = c.benchmark_group("pre_dedup_from_json");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let text = inputs::candidates_json(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| {
                let list = parse_candidates(black_box(text)).unwrap();
                serde_json::to_string(&pre_dedup(list)).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
