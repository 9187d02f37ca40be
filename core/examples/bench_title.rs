//! Title-score throughput on `title_pairs.tsv` (written by `bench_inputs`),
//! for bench/whole_process.sh, which runs it in turn with the Python
//! reference on the same file: `bench_title FILE [ROUNDS]` prints each
//! workload in pairs per second. The pairs are timed in chunks of 500 and
//! each chunk's best round is kept, so a chunk (about a millisecond) can
//! run between two preemptions even on a shared, busy machine; the total is
//! the sum of those best chunk times (bench/title_reference.py does the same).
//!
//! - `score`: `title::score` (both titles normalized, then the ratio);
//! - `ratio`: `title::ratio_normalized` on titles normalized beforehand.

use citegate_core::title;
use std::hint::black_box;
use std::time::Instant;

/// The sum over chunks of `CHUNK` items of each chunk's best time in
/// `rounds` rounds, and a checksum of the results.
fn best<T>(items: &[T], rounds: usize, f: impl Fn(&T) -> f64) -> (f64, f64) {
    const CHUNK: usize = 500;
    let mut total = 0.0;
    let mut sink = 0.0;
    for chunk in items.chunks(CHUNK) {
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            let t = Instant::now();
            sink += chunk.iter().map(&f).sum::<f64>();
            best = best.min(t.elapsed().as_secs_f64());
        }
        total += best;
    }
    (total, sink)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "title_pairs.tsv".into());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(20);
    let text = std::fs::read_to_string(&path).expect("cannot read the pairs file");
    let pairs: Vec<(&str, &str)> = text.lines().filter_map(|l| l.split_once('\t')).collect();
    let normalized: Vec<(String, String)> = pairs
        .iter()
        .map(|(a, b)| (title::normalize(a), title::normalize(b)))
        .collect();
    let n = pairs.len() as f64;
    let (t_score, s1) = best(&pairs, rounds, |(a, b)| {
        title::score(black_box(a), black_box(b), false) as f64
    });
    let (t_ratio, s2) = best(&normalized, rounds, |(a, b)| {
        title::ratio_normalized(black_box(a), black_box(b))
    });
    println!(
        "citegate score {:.0} pairs/s ({:.2} ms) ratio {:.0} pairs/s ({:.2} ms) [{} pairs, checksum {:.3}]",
        n / t_score,
        t_score * 1e3,
        n / t_ratio,
        t_ratio * 1e3,
        pairs.len(),
        s1 + s2
    );
}
