//! References read from the six typeset PDFs of `tests/fixtures/pdf/`
//! (one per layout), the whole path: bytes, objects, fonts, glyphs, lines,
//! bibliography. Criterion reports the time per file; divide by the page
//! count printed first for the time per page.

use citegate_core::pdf::references;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};

const LAYOUTS: [&str; 6] = ["onecol", "twocol", "ieee", "acm", "llncs", "els"];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pdf_references");
    group.sample_size(20);
    for name in LAYOUTS {
        let path = format!(
            "{}/tests/fixtures/pdf/{name}.pdf",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap();
        let read = references(&bytes).unwrap();
        eprintln!(
            "{name}: {} pages, {} references",
            read.pages,
            read.references.len()
        );
        group.bench_with_input(BenchmarkId::from_parameter(name), &bytes, |b, bytes| {
            b.iter(|| references(black_box(bytes)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
