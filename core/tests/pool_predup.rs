//! Pre-dedup: the blocked fuzzy pass must give exactly the all-pairs result.
//!
//! The naive version below is the reference's loop, with its own dynamic
//! programming Levenshtein, so it shares no code with the fast path except
//! the exact pass and title normalization.

use citegate_core::candidates::{exact_pass, pre_dedup_with, Candidate, PreDedupRun};
use citegate_core::title::normalize;

/// Plain O(n·m) Levenshtein distance over chars.
fn lev(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur.push((prev[j + 1] + 1).min(cur[j] + 1).min(prev[j] + cost));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn ratio(a: &[char], b: &[char]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 100.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    (1.0 - lev(a, b) as f64 / a.len().max(b.len()) as f64) * 100.0
}

fn merge(a: &mut Candidate, b: &Candidate) {
    let mut tags = a.discovered_for.clone().unwrap_or_default();
    for t in b.discovered_for.clone().unwrap_or_default() {
        if !tags.contains(&t) {
            tags.push(t);
        }
    }
    a.discovered_for = Some(tags);
}

/// The reference's pass 2, all pairs.
fn naive(cands: Vec<Candidate>, threshold: f64) -> Vec<Candidate> {
    let mut kept = exact_pass(cands);
    let normed: Vec<Vec<char>> = kept
        .iter()
        .map(|c| normalize(&c.title).chars().collect())
        .collect();
    let mut drop = vec![false; kept.len()];
    for i in 0..kept.len() {
        if drop[i] {
            continue;
        }
        for j in i + 1..kept.len() {
            if drop[j] {
                continue;
            }
            if ratio(&normed[i], &normed[j]) >= threshold {
                let other = kept[j].clone();
                merge(&mut kept[i], &other);
                drop[j] = true;
            }
        }
    }
    kept.into_iter()
        .zip(drop)
        .filter(|(_, d)| !d)
        .map(|(c, _)| c)
        .collect()
}

/// A small deterministic generator (64-bit LCG), so the test needs no crate.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: &[&str] = &[
    "attention",
    "sparse",
    "graph",
    "neural",
    "learning",
    "deep",
    "model",
    "transformer",
    "vision",
    "language",
    "efficient",
    "robust",
    "networks",
    "survey",
    "for",
    "of",
    "the",
    "a",
    "scaling",
    "laws",
    "diffusion",
    "retrieval",
    "long",
    "context",
    "x",
    "ab",
];

/// Random titles, many of them small edits of earlier ones, so pairs near
/// the threshold (and chains of near-duplicates) are common.
fn random_candidates(seed: u64, n: usize) -> Vec<Candidate> {
    let mut rng = Lcg(seed);
    let mut titles: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for i in 0..n {
        let title = if !titles.is_empty() && rng.below(3) > 0 {
            let base = titles[rng.below(titles.len())].clone();
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..rng.below(5) {
                let pos = rng.below(chars.len() + 1);
                match rng.below(4) {
                    0 if pos < chars.len() => {
                        chars.remove(pos);
                    }
                    1 if pos < chars.len() => chars[pos] = (b'a' + rng.below(26) as u8) as char,
                    2 => chars.insert(pos, (b'a' + rng.below(26) as u8) as char),
                    _ => chars.insert(pos, ' '),
                }
            }
            chars.into_iter().collect()
        } else {
            let len = 1 + rng.below(12);
            (0..len)
                .map(|_| WORDS[rng.below(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let title = if rng.below(40) == 0 {
            "!!".to_string()
        } else {
            title
        };
        titles.push(title.clone());
        let mut c = Candidate::titled(if title.is_empty() {
            "?".to_string()
        } else {
            title
        });
        if rng.below(10) == 0 {
            c.url = Some(format!("https://arxiv.org/abs/2101.{:05}", rng.below(20)));
        }
        c.discovered_for = Some(vec![format!("tag{}", rng.below(6)), format!("q{i}")]);
        out.push(c);
    }
    out
}

fn check(seed: u64, n: usize, threshold: f64) {
    let input = random_candidates(seed, n);
    let want = naive(input.clone(), threshold);
    let got = pre_dedup_with(input, threshold);
    assert_eq!(
        got.candidates, want,
        "seed {seed}, n {n}, threshold {threshold}"
    );
    assert_eq!(got.n_after_dedup, want.len());
    assert_eq!(got.n_before_dedup, n);
    assert_eq!(got.n_removed, n - want.len());
    // The page's stepped run gives the same result at any step size.
    for count in [1, 7] {
        let mut run = PreDedupRun::new(random_candidates(seed, n), threshold);
        let mut last = 0;
        while !run.step(count) {
            let (done, total) = run.progress();
            assert!(
                done > last && done < total,
                "seed {seed}: progress {done}/{total}"
            );
            last = done;
        }
        assert_eq!(
            run.finish().candidates,
            want,
            "seed {seed}, stepped by {count}"
        );
    }
}

#[test]
fn blocked_pass_equals_all_pairs_on_random_inputs() {
    for seed in 0..16 {
        check(seed, 100, 92.0);
    }
}

#[test]
fn blocked_pass_equals_all_pairs_at_other_thresholds() {
    for (seed, t) in [
        (1, 0.0),
        (2, 50.0),
        (3, 80.0),
        (4, 85.5),
        (5, 95.0),
        (6, 100.0),
        (7, 100.5),
        (8, f64::NAN),
        (9, -3.0),
    ] {
        check(seed, 60, t);
    }
}

/// Guards the boundary: a ratio of exactly 92 merges (`>=`, not `>`).
#[test]
fn ratio_of_exactly_92_merges() {
    // 25 chars, 2 substitutions: 1 - 2/25 = 0.92.
    let a = Candidate::titled("abcdefghijklmnopqrstuvwxy");
    let b = Candidate::titled("abcdefghijklmnopqrstuvwzz");
    let r = pre_dedup_with(vec![a.clone(), b], 92.0);
    assert_eq!(r.n_after_dedup, 1);
    let c = Candidate::titled("abcdefghijklmnopqrstuvzzz");
    assert_eq!(pre_dedup_with(vec![a, c], 92.0).n_after_dedup, 2);
}

/// Guards non-transitivity: B is close to A and C, but C is not close to
/// A, so C survives when B has been merged into A.
#[test]
fn merging_is_not_transitive() {
    let a = Candidate::titled("abcdefghijklmnopqrstuvwxy");
    let b = Candidate::titled("abcdefghijklmnopqrstuvwzz");
    let c = Candidate::titled("abcdefghijklmnopqrstuzzzz");
    let r = pre_dedup_with(vec![a, b, c], 92.0);
    let titles: Vec<&str> = r.candidates.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        ["abcdefghijklmnopqrstuvwxy", "abcdefghijklmnopqrstuzzzz"]
    );
}
