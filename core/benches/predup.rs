//! Pre-dedup of 1,000 and 10,000 generated candidates.
//!
//! Titles are 5–14 words drawn from 3,000 syllable-built words (so letter
//! frequencies look like English titles and many titles share words and
//! lengths); about a third of the candidates are copies of an earlier
//! title with up to four character edits, and one in ten carries an arXiv
//! URL. The bound to meet is 10,000 candidates in under 2 s.

use citegate_core::candidates::{pre_dedup, Candidate};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};

struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const SYLLABLES: &[&str] = &[
    "at", "ten", "tion", "spar", "se", "gra", "ph", "neu", "ral", "lear", "ning", "de", "ep", "mo",
    "del", "trans", "for", "mer", "vi", "si", "on", "lan", "gua", "ge", "ef", "fi", "cient", "ro",
    "bust", "net", "works", "sur", "vey", "sca", "ling", "laws", "dif", "fu", "re", "tri", "val",
    "con", "text", "pre", "train", "ed", "in", "ter", "ac", "ti", "ve",
];

fn generate(n: usize) -> Vec<Candidate> {
    let mut rng = Lcg(42);
    let words: Vec<String> = (0..3000)
        .map(|_| {
            (0..1 + rng.below(3))
                .map(|_| SYLLABLES[rng.below(SYLLABLES.len())])
                .collect()
        })
        .collect();
    let mut titles: Vec<String> = Vec::with_capacity(n);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let title = if !titles.is_empty() && rng.below(3) == 0 {
            let mut chars: Vec<char> = titles[rng.below(titles.len())].chars().collect();
            for _ in 0..rng.below(5) {
                let pos = rng.below(chars.len());
                chars[pos] = (b'a' + rng.below(26) as u8) as char;
            }
            chars.into_iter().collect()
        } else {
            (0..5 + rng.below(10))
                .map(|_| words[rng.below(words.len())].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        titles.push(title.clone());
        let mut c = Candidate::titled(title);
        if rng.below(10) == 0 {
            c.source_url = Some(format!("https://arxiv.org/abs/2101.{:05}", rng.below(n)));
        }
        c.discovered_for = Some(vec![format!("related_work[2.{}]", i % 5)]);
        out.push(c);
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pre_dedup");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let input = generate(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &input, |b, input| {
            b.iter(|| pre_dedup(black_box(input.clone())))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
