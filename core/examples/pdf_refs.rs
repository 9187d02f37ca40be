//! Reads the references of each PDF given and prints one JSON line per file:
//! its pages, its references (raw string, label, page) and the time one read
//! took per page (the best of five, after one warm-up read).
//!
//! `cargo run --profile bench -p citegate-core --example pdf_refs -- FILE.pdf...`

use std::time::Instant;

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let first = citegate_core::pdf::references(&bytes);
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                let _ = citegate_core::pdf::references(&bytes);
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        let line = match first {
            Ok(read) => serde_json::json!({
                "file": path,
                "pages": read.pages,
                "ms_per_page": 1000.0 * best / f64::from(read.pages.max(1)),
                "references": read.references,
            }),
            Err(e) => serde_json::json!({"file": path, "error": e.to_string()}),
        };
        println!("{line}");
    }
}
