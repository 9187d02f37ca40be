//! Pre-dedup: the exact pass (arXiv id, else normalized title), then the
//! fuzzy Levenshtein pass, all at once or a few candidates at a time (the
//! rule and its speed-ups are described in the parent module).

use super::{merge_into, Candidate};
use serde::Serialize;

fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

/// Reads an arXiv id starting at `s` (new `2101.00001` or old
/// `hep-th/9901001`, each with an optional `vN`), returning it without the
/// version.
fn read_id(s: &[u8]) -> Option<String> {
    // New style: 4 digits, '.', 4 or 5 digits.
    if s.len() >= 9 && s.iter().take(4).all(|b| is_digit(*b)) && s.get(4) == Some(&b'.') {
        let tail = s.get(5..)?;
        let n = tail.iter().take(5).take_while(|b| is_digit(**b)).count();
        if n >= 4 {
            let id = std::str::from_utf8(s.get(..5 + n)?).ok()?;
            return Some(id.to_string());
        }
        return None;
    }
    // Old style: archive (letters and '-'), optional ".XX" subject class, '/', 7 digits.
    let arch = s
        .iter()
        .take_while(|b| b.is_ascii_alphabetic() || **b == b'-')
        .count();
    if arch < 2 {
        return None;
    }
    let mut pos = arch;
    if s.get(pos) == Some(&b'.')
        && s.get(pos + 1).is_some_and(|b| b.is_ascii_uppercase())
        && s.get(pos + 2).is_some_and(|b| b.is_ascii_uppercase())
    {
        pos += 3;
    }
    if s.get(pos) != Some(&b'/') {
        return None;
    }
    let digits = s.get(pos + 1..)?;
    if digits.len() >= 7 && digits.iter().take(7).all(|b| is_digit(*b)) {
        let archive = std::str::from_utf8(s.get(..arch)?)
            .ok()?
            .to_ascii_lowercase();
        let num = std::str::from_utf8(digits.get(..7)?).ok()?;
        return Some(format!("{archive}/{num}"));
    }
    None
}

/// Finds an arXiv id in a URL or text: after `arxiv.org/abs/`,
/// `arxiv.org/pdf/` or `arXiv:`, new style (`2101.00001v2` → `2101.00001`)
/// or old style (`hep-th/9901001v1` → `hep-th/9901001`). The version is
/// always stripped.
///
/// ```
/// use citegate_core::candidates::arxiv_id;
/// assert_eq!(arxiv_id("https://arxiv.org/abs/2101.00001v2").as_deref(), Some("2101.00001"));
/// assert_eq!(arxiv_id("see arXiv:hep-th/9901001").as_deref(), Some("hep-th/9901001"));
/// assert_eq!(arxiv_id("https://example.org/2101.00001"), None);
/// ```
pub fn arxiv_id(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let bytes = text.as_bytes();
    let markers = ["arxiv.org/abs/", "arxiv.org/pdf/", "arxiv:"];
    let mut best: Option<(usize, String)> = None;
    for marker in markers {
        let mut from = 0;
        while let Some(off) = lower.get(from..).and_then(|rest| rest.find(marker)) {
            let start = from + off + marker.len();
            if let Some(id) = bytes.get(start..).and_then(read_id) {
                if best.as_ref().is_none_or(|(at, _)| start < *at) {
                    best = Some((start, id));
                }
                break;
            }
            from = start;
        }
    }
    best.map(|(_, id)| id)
}

/// The exact pre-dedup key of a candidate: `arxiv:<id>` when an arXiv id
/// is in `source_url`, `url` or `snippet` (in that order), else
/// `title:<normalized title>`.
pub fn exact_key(c: &Candidate) -> String {
    for text in [&c.source_url, &c.url, &c.snippet].into_iter().flatten() {
        if let Some(id) = arxiv_id(text) {
            return format!("arxiv:{id}");
        }
    }
    format!("title:{}", crate::title::normalize(&c.title))
}

/// The reference pre-dedup's title similarity: `(1 - d / max_len) · 100`
/// where `d` is the Levenshtein distance (substitution costs one). Two
/// empty strings score 100, one empty string scores 0.
///
/// This is not [`crate::title::ratio`] (the InDel ratio of the title-match
/// rule); each rule keeps the metric of the script it replaces.
pub fn levenshtein_ratio(a: &str, b: &str) -> f64 {
    let la = a.chars().count();
    let lb = b.chars().count();
    if la == 0 && lb == 0 {
        return 100.0;
    }
    if la == 0 || lb == 0 {
        return 0.0;
    }
    let d = rapidfuzz::distance::levenshtein::distance(a.chars(), b.chars());
    ratio_from(d, la.max(lb))
}

/// The ratio for distance `d` at longer length `m > 0`, computed in the
/// same floating-point steps as the reference.
fn ratio_from(d: usize, m: usize) -> f64 {
    (1.0 - d as f64 / m as f64) * 100.0
}

/// The result of [`pre_dedup`], in the shape of `deduped_candidates.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PreDedup {
    /// The surviving candidates, in input order of their first appearance.
    pub candidates: Vec<Candidate>,
    /// How many came in.
    pub n_before_dedup: usize,
    /// How many survived.
    pub n_after_dedup: usize,
    /// How many were merged away.
    pub n_removed: usize,
}

/// The default fuzzy threshold of pre-dedup.
pub const PRE_DEDUP_THRESHOLD: f64 = 92.0;

/// Pass 1: merge candidates with the same exact key into the first one.
pub fn exact_pass(candidates: Vec<Candidate>) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for c in candidates {
        let key = exact_key(&c);
        match seen.get(&key).and_then(|&i| out.get_mut(i)) {
            Some(first) => merge_into(first, &c),
            None => {
                seen.insert(key, out.len());
                out.push(c);
            }
        }
    }
    out
}

/// Bins of a title's character histogram. Normalized titles are mostly
/// lowercase letters, digits and spaces: modulo 32 the letters and the
/// space get a bin each, so more bins would add little to the bound.
const BINS: usize = 32;

/// A character histogram of a title: 32 bins (code point mod 32), each
/// count capped at 127 and packed eight to a word, so two histograms
/// compare in a few word operations instead of a loop over the bins.
#[derive(Clone, Copy)]
struct Histogram {
    lanes: [u64; BINS / 8],
    /// The sum of the capped counts.
    total: u32,
}

/// The high bit of every byte lane.
const HIGH: u64 = 0x8080_8080_8080_8080;

fn histogram(chars: &[char]) -> Histogram {
    let mut counts = [0u8; BINS];
    for &c in chars {
        if let Some(slot) = counts.get_mut(c as usize % BINS) {
            *slot = (*slot + 1).min(127);
        }
    }
    let mut lanes = [0u64; BINS / 8];
    for (lane, chunk) in lanes.iter_mut().zip(counts.chunks_exact(8)) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        *lane = u64::from_le_bytes(bytes);
    }
    Histogram {
        lanes,
        total: counts.iter().map(|&c| u32::from(c)).sum(),
    }
}

/// A lower bound on the Levenshtein distance from two character histograms:
/// every edit removes at most one unit of each side's surplus, so the
/// distance is at least `max(Σ (a−b)⁺, Σ (b−a)⁺) = (Σ |a−b| + |Σa − Σb|) / 2`.
/// Capping the counts only lowers the bound, so it stays a bound.
fn histogram_bound(a: &Histogram, b: &Histogram) -> u32 {
    // Per byte lane (counts ≤ 127): t = 128 + x − y and u = 128 + y − x
    // never borrow across lanes; |x − y| is t − 128 where x ≥ y, else u − 128.
    let mut acc = 0u64;
    for (&x, &y) in a.lanes.iter().zip(&b.lanes) {
        let t = (x | HIGH).wrapping_sub(y);
        let u = (y | HIGH).wrapping_sub(x);
        let ge = ((t & HIGH) >> 7).wrapping_mul(0xFF);
        let abs = ((t ^ HIGH) & ge) | ((u ^ HIGH) & !ge);
        // Two byte lanes to a 16-bit lane: at most 4 · 2 · 127 each.
        acc += (abs & 0x00FF_00FF_00FF_00FF) + ((abs >> 8) & 0x00FF_00FF_00FF_00FF);
    }
    let sum_abs = (acc.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
    (sum_abs + a.total.abs_diff(b.total)) / 2
}

/// Pass 2: for each surviving candidate in order, merge every later
/// surviving one whose normalized title has `levenshtein_ratio ≥ threshold`
/// with it. Returns the indices merged into each kept index.
/// The fuzzy pass, one candidate at a time: each still-kept title takes
/// every later title within the distance the threshold allows. The state
/// between steps is what the all-at-once loop kept in locals.
struct Fuzzy {
    titles: Vec<Vec<char>>,
    /// k[m]: the largest distance that still passes at longer length m.
    k: Vec<Option<usize>>,
    /// Indices by title length, each in ascending index order.
    buckets: Vec<Vec<usize>>,
    /// The lengths whose bucket is not empty.
    lengths: Vec<usize>,
    hists: Vec<Histogram>,
    /// The histograms of each bucket's titles, in the bucket's order.
    bucket_hists: Vec<Vec<Histogram>>,
    dropped: Vec<bool>,
    merged: Vec<Vec<usize>>,
    matches: Vec<usize>,
    next: usize,
}

impl Fuzzy {
    fn new(titles: Vec<Vec<char>>, threshold: f64) -> Self {
        let n = titles.len();
        let max_len = titles.iter().map(Vec::len).max().unwrap_or(0);
        let k: Vec<Option<usize>> = (0..=max_len)
            .map(|m| {
                if m == 0 {
                    return if 100.0 >= threshold { Some(0) } else { None };
                }
                // The ratio falls as d grows; scan down from the loose bound.
                (0..=m).rev().find(|&d| ratio_from(d, m) >= threshold)
            })
            .collect();
        let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); max_len + 1];
        for (i, t) in titles.iter().enumerate() {
            if let Some(b) = buckets.get_mut(t.len()) {
                b.push(i);
            }
        }
        let lengths: Vec<usize> = (0..=max_len)
            .filter(|&l| buckets.get(l).is_some_and(|b| !b.is_empty()))
            .collect();
        let hists: Vec<Histogram> = titles.iter().map(|t| histogram(t)).collect();
        let bucket_hists: Vec<Vec<Histogram>> = buckets
            .iter()
            .map(|b| b.iter().filter_map(|&j| hists.get(j).copied()).collect())
            .collect();
        Fuzzy {
            titles,
            k,
            buckets,
            lengths,
            hists,
            bucket_hists,
            dropped: vec![false; n],
            merged: vec![Vec::new(); n],
            matches: Vec::new(),
            next: 0,
        }
    }

    /// Visits up to `count` more candidates; `true` once all are visited.
    fn step(&mut self, count: usize) -> bool {
        let Fuzzy {
            titles,
            k,
            buckets,
            lengths,
            hists,
            bucket_hists,
            dropped,
            merged,
            matches,
            next,
        } = self;
        let k_at = |m: usize| k.get(m).copied().flatten();
        let end = next.saturating_add(count.max(1)).min(titles.len());
        for i in *next..end {
            if dropped.get(i).copied().unwrap_or(true) {
                continue;
            }
            let (Some(a), Some(ha)) = (titles.get(i), hists.get(i)) else {
                continue;
            };
            let la = a.len();
            // Built on the first pair the histograms let through.
            let mut scorer = None;
            matches.clear();
            for &lb in lengths.iter() {
                let m = la.max(lb);
                let Some(kmax) = k_at(m) else { continue };
                if la.abs_diff(lb) > kmax {
                    continue;
                }
                let (Some(bucket), Some(bhists)) = (buckets.get(lb), bucket_hists.get(lb)) else {
                    continue;
                };
                let start = bucket.partition_point(|&j| j <= i);
                let later = bucket.get(start..).unwrap_or(&[]);
                for (&j, hb) in later.iter().zip(bhists.get(start..).unwrap_or(&[])) {
                    if dropped.get(j).copied().unwrap_or(true) {
                        continue;
                    }
                    let hit = if m == 0 {
                        true
                    } else if la == 0 || lb == 0 {
                        // One empty title: distance m, ratio 0.
                        kmax >= m
                    } else if histogram_bound(ha, hb) as usize > kmax {
                        false
                    } else {
                        let Some(b) = titles.get(j) else { continue };
                        let args =
                            rapidfuzz::distance::levenshtein::Args::default().score_cutoff(kmax);
                        scorer
                            .get_or_insert_with(|| {
                                rapidfuzz::distance::levenshtein::BatchComparator::new(
                                    a.iter().copied(),
                                )
                            })
                            .distance_with_args(b.iter().copied(), &args)
                            .is_some()
                    };
                    if hit {
                        matches.push(j);
                    }
                }
            }
            matches.sort_unstable();
            for &j in matches.iter() {
                if let Some(d) = dropped.get_mut(j) {
                    *d = true;
                }
            }
            if let Some(list) = merged.get_mut(i) {
                list.extend_from_slice(matches);
            }
        }
        *next = end;
        *next >= titles.len()
    }
}

/// Pre-dedup with the default threshold of 92.
pub fn pre_dedup(candidates: Vec<Candidate>) -> PreDedup {
    pre_dedup_with(candidates, PRE_DEDUP_THRESHOLD)
}

/// Pre-dedup: the exact pass, then the fuzzy pass at `threshold`, with the
/// reference's result (earliest kept, `discovered_for` merged in order).
pub fn pre_dedup_with(candidates: Vec<Candidate>, threshold: f64) -> PreDedup {
    PreDedupRun::new(candidates, threshold).finish()
}

/// Pre-dedup run a few candidates at a time, for callers that must not
/// block (the browser page yields between steps). Any sequence of
/// [`PreDedupRun::step`] calls then [`PreDedupRun::finish`] gives exactly
/// what [`pre_dedup_with`] gives.
pub struct PreDedupRun {
    before: usize,
    kept: Vec<Candidate>,
    fuzzy: Fuzzy,
}

impl PreDedupRun {
    /// Runs the exact pass and prepares the fuzzy one.
    pub fn new(candidates: Vec<Candidate>, threshold: f64) -> Self {
        let before = candidates.len();
        let kept = exact_pass(candidates);
        let titles: Vec<Vec<char>> = kept
            .iter()
            .map(|c| crate::title::normalize(&c.title).chars().collect())
            .collect();
        PreDedupRun {
            before,
            kept,
            fuzzy: Fuzzy::new(titles, threshold),
        }
    }

    /// Compares up to `count` more candidates with the rest; `true` once
    /// all are compared.
    pub fn step(&mut self, count: usize) -> bool {
        self.fuzzy.step(count)
    }

    /// Candidates compared so far and the number left after the exact pass.
    pub fn progress(&self) -> (usize, usize) {
        (self.fuzzy.next, self.kept.len())
    }

    /// Compares the rest and merges each group into its earliest member.
    pub fn finish(mut self) -> PreDedup {
        while !self.fuzzy.step(usize::MAX) {}
        let Fuzzy {
            dropped, merged, ..
        } = self.fuzzy;
        let mut kept = self.kept;
        for (i, group) in merged.iter().enumerate() {
            for &j in group {
                let Some(other) = kept.get(j).cloned() else {
                    continue;
                };
                if let Some(target) = kept.get_mut(i) {
                    merge_into(target, &other);
                }
            }
        }
        let mut idx = 0;
        kept.retain(|_| {
            let keep = !dropped.get(idx).copied().unwrap_or(false);
            idx += 1;
            keep
        });
        let after = kept.len();
        PreDedup {
            candidates: kept,
            n_before_dedup: self.before,
            n_after_dedup: after,
            n_removed: self.before - after,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound computed bin by bin on capped counts, as the packed one must.
    fn bound_by_bins(a: &[char], b: &[char]) -> u32 {
        let count = |t: &[char]| {
            let mut h = [0u32; BINS];
            for &c in t {
                h[c as usize % BINS] = (h[c as usize % BINS] + 1).min(127);
            }
            h
        };
        let (ha, hb) = (count(a), count(b));
        let plus: u32 = ha.iter().zip(&hb).map(|(x, y)| x.saturating_sub(*y)).sum();
        let minus: u32 = ha.iter().zip(&hb).map(|(x, y)| y.saturating_sub(*x)).sum();
        plus.max(minus)
    }

    #[test]
    fn packed_histogram_bound_is_the_bin_bound_and_never_above_the_distance() {
        let mut seed = 5u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let alphabet: Vec<char> = "ab cdefxyzé深Ω0123".chars().collect();
        for i in 0..3000 {
            let len_a = next([10, 80, 400][i % 3]) as usize;
            let len_b = next([10, 80, 400][(i / 3) % 3]) as usize;
            let narrow = 1 + next(alphabet.len() as u64) as usize;
            let mut pick = |n: usize| -> Vec<char> {
                (0..n)
                    .map(|_| alphabet[next(narrow as u64) as usize])
                    .collect()
            };
            let (a, b) = (pick(len_a), pick(len_b));
            let packed = histogram_bound(&histogram(&a), &histogram(&b));
            assert_eq!(packed, bound_by_bins(&a, &b), "{a:?} / {b:?}");
            let d =
                rapidfuzz::distance::levenshtein::distance(a.iter().copied(), b.iter().copied());
            assert!(packed as usize <= d, "bound {packed} > distance {d}");
        }
    }
}
