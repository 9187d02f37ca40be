//! Title-score throughput on `title_pairs.tsv` (written by `bench_inputs`),
//! for bench/whole_process.sh, which runs it in turn with the Python
//! reference on the same file: `bench_title FILE [ROUNDS]` prints the best
//! round of each workload in pairs per second.
//!
//! - `score`: `title::score` (both titles normalized, then the ratio);
//! - `ratio`: `title::ratio_normalized` on titles normalized beforehand.

use citegate_core::title;
use std::hint::black_box;
use std::time::Instant;

fn best<F: FnMut() -> f64>(rounds: usize, mut f: F) -> (f64, f64) {
    let mut best = f64::INFINITY;
    let mut sink = 0.0;
    for _ in 0..rounds {
        let t = Instant::now();
        sink += f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, sink)
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
    let (t_score, s1) = best(rounds, || {
        pairs
            .iter()
            .map(|(a, b)| title::score(black_box(a), black_box(b), false) as f64)
            .sum()
    });
    let (t_ratio, s2) = best(rounds, || {
        normalized
            .iter()
            .map(|(a, b)| title::ratio_normalized(black_box(a), black_box(b)))
            .sum()
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
