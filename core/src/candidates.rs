//! Phase-1 candidates: `raw_candidates.json`, `outline.json` and pre-dedup.
//!
//! Pre-dedup removes the same paper found by several queries before the
//! slow, rate-limited verification. Its rule is the reference's: first an
//! exact key (the arXiv id from the URL or snippet, else the normalized
//! title), then a fuzzy pass that merges any later title whose Levenshtein
//! ratio with an earlier surviving one is at least 92, keeping the earliest.
//! The reference does that second pass as an all-pairs loop. We compute the
//! *same* result — the same pairs are compared in the same order — but
//! skip pairs that provably cannot reach the threshold: a ratio of at least
//! `t` allows at most `k(m)` edits for the longer length `m`, so titles
//! whose lengths differ by more than `k` are never compared; a character
//! histogram gives a second lower bound on the distance for free; and the
//! pairs left are scored by `rapidfuzz`'s bit-parallel Levenshtein with `k`
//! as its cutoff, which stops as soon as the distance exceeds it. A test
//! compares this with the naive loop on random inputs.
//!
//! Candidates can also be discovered here from an outline's queries: the
//! caller runs each query on a search backend and [`from_works`] turns the
//! answers into candidates. It merges only what is certainly the same paper
//! (a shared DOI, arXiv id, index id or normalized title), so one paper found
//! by several queries arrives as one candidate with every query's tag;
//! near-identical titles are left to pre-dedup, which owns the fuzzy rule.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::works::Work;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One search result waiting for verification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The title as the search engine showed it.
    pub title: String,
    /// The abstract preview or snippet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
    /// The result's URL (the name used by the search helpers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// The result's URL (the name used by the reference pre-dedup script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The outline tags of the queries that found it (`intro`, `related_work[2.1]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discovered_for: Option<Vec<String>>,
    /// Every other field, kept as it was.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Candidate {
    /// A candidate with a title and nothing else.
    pub fn titled(title: impl Into<String>) -> Self {
        Candidate {
            title: title.into(),
            snippet: None,
            source_url: None,
            url: None,
            discovered_for: None,
            extra: Map::new(),
        }
    }
}

fn shape(msg: impl Into<String>, loc: Location) -> Error {
    Error::new(ErrorKind::Shape, msg).at(loc)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn opt_string(
    map: &mut Map<String, Value>,
    key: &str,
    list: &str,
    i: usize,
) -> Result<Option<String>> {
    match map.shift_remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(shape(
            format!("`{key}` must be a string, got {}", type_name(&other)),
            Location::default()
                .index(i)
                .field(format!("{list}[{i}].{key}")),
        )),
    }
}

fn candidate_from_value(value: Value, list: &str, i: usize) -> Result<Candidate> {
    let Value::Object(mut map) = value else {
        return Err(shape(
            format!("a candidate must be an object, got {}", type_name(&value)),
            Location::default().index(i).field(format!("{list}[{i}]")),
        ));
    };
    let title = match opt_string(&mut map, "title", list, i)? {
        Some(t) if !t.trim().is_empty() => t,
        _ => {
            return Err(
                Error::new(ErrorKind::MissingField, "the candidate has no title").at(
                    Location::default()
                        .index(i)
                        .field(format!("{list}[{i}].title")),
                ),
            )
        }
    };
    let snippet = opt_string(&mut map, "snippet", list, i)?;
    let source_url = opt_string(&mut map, "source_url", list, i)?;
    let url = opt_string(&mut map, "url", list, i)?;
    let discovered_for = match map.shift_remove("discovered_for") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => {
            let mut tags = Vec::with_capacity(items.len());
            for (j, item) in items.into_iter().enumerate() {
                match item {
                    Value::String(s) => tags.push(s),
                    other => {
                        return Err(shape(
                            format!(
                                "a `discovered_for` tag must be a string, got {}",
                                type_name(&other)
                            ),
                            Location::default()
                                .index(i)
                                .field(format!("{list}[{i}].discovered_for[{j}]")),
                        ))
                    }
                }
            }
            Some(tags)
        }
        Some(other) => {
            return Err(shape(
                format!(
                    "`discovered_for` must be a list of tags, got {}",
                    type_name(&other)
                ),
                Location::default()
                    .index(i)
                    .field(format!("{list}[{i}].discovered_for")),
            ))
        }
    };
    Ok(Candidate {
        title,
        snippet,
        source_url,
        url,
        discovered_for,
        extra: map,
    })
}

/// Parses `raw_candidates.json`: a bare list, `{"candidates": […]}` or
/// `{"papers": […]}`.
///
/// Errors: invalid JSON (line and column), another top-level shape, or a
/// candidate without a title or with a field of the wrong type (index and
/// field, e.g. `candidates[3].title`).
pub fn parse_candidates(text: &str) -> Result<Vec<Candidate>> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::json(&e))?;
    let (list, items) = match value {
        Value::Array(items) => ("candidates", items),
        Value::Object(mut map) => {
            let name = if map.contains_key("candidates") {
                "candidates"
            } else if map.contains_key("papers") {
                "papers"
            } else {
                return Err(shape(
                    "expected a list of candidates or an object with `candidates` or `papers`",
                    Location::default(),
                ));
            };
            match map.shift_remove(name) {
                Some(Value::Array(items)) => (name, items),
                Some(Value::Null) => (name, Vec::new()),
                Some(other) => {
                    return Err(shape(
                        format!("`{name}` must be a list, got {}", type_name(&other)),
                        Location::default().field(name),
                    ))
                }
                None => (name, Vec::new()),
            }
        }
        other => {
            return Err(shape(
                format!(
                    "expected a list of candidates or an object with `candidates`, got {}",
                    type_name(&other)
                ),
                Location::default(),
            ))
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| candidate_from_value(v, list, i))
        .collect()
}

/// One search query derived from the outline, with the tag its results get.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    /// The query text.
    pub query: String,
    /// `intro` or `related_work[2.<i+1>]`.
    pub discovered_for: String,
}

fn outline_field<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(shape(
            format!("`{path}` must be an object, got {}", type_name(other)),
            Location::default().field(path),
        )),
    }
}

fn string_list(v: Option<&Value>, path: &str) -> Result<Vec<String>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(j, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(shape(
                    format!("a query must be a string, got {}", type_name(other)),
                    Location::default().field(format!("{path}[{j}]")),
                )),
            })
            .collect(),
        Some(other) => Err(shape(
            format!(
                "`{path}` must be a list of strings, got {}",
                type_name(other)
            ),
            Location::default().field(path),
        )),
    }
}

/// Turns `outline.json` into search queries.
///
/// `introduction_strategy.search_directions` become queries tagged `intro`;
/// the `sota_investigation_mission` and `limitation_search_queries` of
/// `related_work_strategy.subsections[i]` become queries tagged
/// `related_work[2.<i+1>]`. Blank queries are skipped.
pub fn outline_queries(text: &str) -> Result<Vec<Query>> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::json(&e))?;
    let Value::Object(top) = value else {
        return Err(shape(
            format!(
                "the outline must be a JSON object, got {}",
                type_name(&value)
            ),
            Location::default(),
        ));
    };
    let mut out = Vec::new();
    let mut push = |q: String, tag: &str| {
        if !q.trim().is_empty() {
            out.push(Query {
                query: q.trim().to_string(),
                discovered_for: tag.to_string(),
            });
        }
    };
    if let Some(intro) = outline_field(&top, "introduction_strategy", "introduction_strategy")? {
        for q in string_list(
            intro.get("search_directions"),
            "introduction_strategy.search_directions",
        )? {
            push(q, "intro");
        }
    }
    if let Some(rw) = outline_field(&top, "related_work_strategy", "related_work_strategy")? {
        let subsections = match rw.get("subsections") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a.clone(),
            Some(other) => {
                return Err(shape(
                    format!("`subsections` must be a list, got {}", type_name(other)),
                    Location::default().field("related_work_strategy.subsections"),
                ))
            }
        };
        for (i, sub) in subsections.iter().enumerate() {
            let path = format!("related_work_strategy.subsections[{i}]");
            let Value::Object(sub) = sub else {
                return Err(shape(
                    format!("a subsection must be an object, got {}", type_name(sub)),
                    Location::default().index(i).field(path),
                ));
            };
            let tag = format!("related_work[2.{}]", i + 1);
            let sota = string_list(
                sub.get("sota_investigation_mission"),
                &format!("{path}.sota_investigation_mission"),
            )?;
            for q in sota {
                push(q, &tag);
            }
            let limits = string_list(
                sub.get("limitation_search_queries"),
                &format!("{path}.limitation_search_queries"),
            )?;
            for q in limits {
                push(q, &tag);
            }
        }
    }
    Ok(out)
}

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

fn merge_into(target: &mut Candidate, other: &Candidate) {
    let merged = crate::pool::merge_tags(
        target.discovered_for.as_deref().unwrap_or(&[]),
        other.discovered_for.as_deref().unwrap_or(&[]),
    );
    target.discovered_for = Some(merged);
}

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

/// Characters of an abstract kept in a discovered candidate's snippet.
pub const SNIPPET_CHARS: usize = 240;

/// The snippet of a search result: the start of its abstract (cut at a word
/// boundary within [`SNIPPET_CHARS`], with `…` when cut), else `venue, year`
/// (or whichever of the two is known), else nothing.
pub fn work_snippet(work: &Work) -> Option<String> {
    if let Some(text) = work.abstract_text.as_deref() {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !flat.is_empty() {
            if flat.chars().count() <= SNIPPET_CHARS {
                return Some(flat);
            }
            let head: String = flat.chars().take(SNIPPET_CHARS).collect();
            let cut = match head.rfind(' ') {
                Some(at) if at > 0 => head.get(..at).unwrap_or(&head),
                _ => head.as_str(),
            };
            return Some(format!("{}…", cut.trim_end_matches([',', ';', ':', ' '])));
        }
    }
    let venue = work
        .venue
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty());
    match (venue, work.year()) {
        (Some(v), Some(y)) => Some(format!("{v}, {y}")),
        (Some(v), None) => Some(v.to_string()),
        (None, Some(y)) => Some(y.to_string()),
        (None, None) => None,
    }
}

/// The page a search result points to, most stable first: its DOI
/// (`https://doi.org/…`), its arXiv abstract page, its Semantic Scholar page,
/// its OpenAlex page. The arXiv page comes before the index pages because
/// pre-dedup and the verifier's batch lookup read the arXiv id from this URL.
pub fn work_url(work: &Work) -> Option<String> {
    if let Some(doi) = work.doi.as_deref().and_then(crate::works::bare_doi) {
        return Some(format!("https://doi.org/{doi}"));
    }
    if let Some(id) = work.arxiv_id.as_deref().filter(|s| !s.trim().is_empty()) {
        return Some(format!("https://arxiv.org/abs/{}", id.trim()));
    }
    if let Some(id) = work.s2_id.as_deref().filter(|s| !s.trim().is_empty()) {
        return Some(format!(
            "https://www.semanticscholar.org/paper/{}",
            id.trim()
        ));
    }
    let oa = work
        .openalex_id
        .as_deref()
        .filter(|s| !s.trim().is_empty())?;
    let oa = oa.trim();
    Some(if oa.starts_with("http") {
        oa.to_string()
    } else {
        format!("https://openalex.org/{oa}")
    })
}

/// A candidate for one search result found by a query tagged `tag`. The
/// DOI, when known, is kept as an extra `doi` field so verification can look
/// the paper up by it instead of searching its title.
pub fn candidate_from_work(work: &Work, tag: &str) -> Candidate {
    let mut c = Candidate::titled(work.title.trim());
    c.snippet = work_snippet(work);
    c.source_url = work_url(work);
    c.discovered_for = Some(vec![tag.to_string()]);
    if let Some(doi) = work.doi.as_deref().and_then(crate::works::bare_doi) {
        c.extra.insert("doi".into(), Value::String(doi));
    }
    c
}

/// The keys under which two results are the same paper: the DOI (case
/// folded), the arXiv id, the Semantic Scholar id, the OpenAlex id and the
/// normalized title. Sharing any one is enough.
fn work_keys(work: &Work) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(d) = work.doi_key() {
        keys.push(format!("doi:{d}"));
    }
    if let Some(a) = work.arxiv_id.as_deref().filter(|s| !s.trim().is_empty()) {
        keys.push(format!(
            "arxiv:{}",
            crate::works::strip_arxiv_version(a).to_lowercase()
        ));
    }
    if let Some(s) = work.s2_id.as_deref().filter(|s| !s.trim().is_empty()) {
        keys.push(format!("s2:{}", s.trim()));
    }
    if let Some(o) = work.openalex_id.as_deref().filter(|s| !s.trim().is_empty()) {
        let o = o.trim();
        keys.push(format!("openalex:{}", o.rsplit('/').next().unwrap_or(o)));
    }
    let t = crate::title::normalize(&work.title);
    if !t.is_empty() {
        keys.push(format!("title:{t}"));
    }
    keys
}

/// Turns search results into candidates, in the order they were found.
///
/// `found` lists, query by query, the query's tag and the works it returned
/// (one backend's list, or the fused list of several). Each titled work
/// becomes a candidate ([`candidate_from_work`]); a paper found again —
/// same DOI, arXiv id, index id or normalized title as an earlier result —
/// keeps its first candidate, gains the new tag after the earlier ones (no
/// repeats), and fills a missing snippet, URL or DOI from the new record.
/// Works without a title are skipped: a candidate is identified by it.
pub fn from_works<'a, I>(found: I) -> Vec<Candidate>
where
    I: IntoIterator<Item = (&'a str, &'a [Work])>,
{
    let mut out: Vec<Candidate> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (tag, works) in found {
        for work in works {
            if work.title.trim().is_empty() {
                continue;
            }
            let keys = work_keys(work);
            let new = candidate_from_work(work, tag);
            let at = keys.iter().find_map(|k| seen.get(k).copied());
            let index = match at.and_then(|i| out.get_mut(i).map(|c| (i, c))) {
                Some((i, c)) => {
                    merge_into(c, &new);
                    if c.snippet.is_none() {
                        c.snippet = new.snippet;
                    }
                    if c.source_url.is_none() {
                        c.source_url = new.source_url;
                    }
                    if let (false, Some(d)) = (c.extra.contains_key("doi"), new.extra.get("doi")) {
                        c.extra.insert("doi".into(), d.clone());
                    }
                    i
                }
                None => {
                    out.push(new);
                    out.len() - 1
                }
            };
            for k in keys {
                seen.entry(k).or_insert(index);
            }
        }
    }
    out
}

/// Writes candidates as a `raw_candidates.json` list (pretty printed, fields
/// in the order of [`Candidate`]), readable again by [`parse_candidates`].
pub fn to_json(candidates: &[Candidate]) -> String {
    serde_json::to_string_pretty(candidates).unwrap_or_else(|_| "[]".into())
}

/// How a discovery run from an outline went, for its summary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiscoveryCounts {
    /// Candidates found.
    pub candidates: usize,
    /// Queries in the outline.
    pub queries: usize,
    /// Queries sent before the run ended (fewer than `queries` when stopped).
    pub asked: usize,
    /// Queries that failed on every backend asked.
    pub failed_queries: usize,
    /// Single searches (one backend, one query) that failed.
    pub failed_searches: usize,
}

/// The overall outcome of a discovery run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscoveryOutcome {
    /// Every query asked answered on every backend, and all were asked.
    Ok,
    /// Some searches failed, or the run was stopped before the end.
    Partial,
    /// Every query asked failed on every backend.
    Error,
}

/// The outcome and the summary line of a discovery run. A failed search is
/// said, never read as "nothing found"; a stopped run says how far it got.
pub fn discovery_summary(c: DiscoveryCounts) -> (DiscoveryOutcome, String) {
    let DiscoveryCounts {
        candidates: n,
        queries: total,
        asked,
        failed_queries,
        failed_searches,
    } = c;
    let stopped = asked < total;
    let outcome = if asked > 0 && failed_queries == asked {
        DiscoveryOutcome::Error
    } else if failed_searches > 0 || stopped {
        DiscoveryOutcome::Partial
    } else {
        DiscoveryOutcome::Ok
    };
    let mut text = if failed_searches > 0 {
        format!(
            "INCOMPLETE: {n} candidates from {} of {total} queries; {failed_queries} queries failed on every backend asked, {failed_searches} searches failed (listed below)",
            asked.saturating_sub(failed_queries)
        )
    } else if stopped {
        format!("{n} candidates from {asked} of {total} queries")
    } else {
        format!("{n} candidates from {total} queries")
    };
    if stopped {
        text.push_str(&format!(
            "; stopped by you before the other {} queries (press Discover to run them all)",
            total - asked
        ));
    }
    (outcome, text)
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

    fn check_summary(
        (candidates, queries, asked, failed_queries, failed_searches): (
            usize,
            usize,
            usize,
            usize,
            usize,
        ),
        outcome: DiscoveryOutcome,
        text: &str,
    ) {
        let c = DiscoveryCounts {
            candidates,
            queries,
            asked,
            failed_queries,
            failed_searches,
        };
        assert_eq!(discovery_summary(c), (outcome, text.to_string()), "{c:?}");
    }

    #[test]
    fn discovery_summaries() {
        use DiscoveryOutcome::*;
        check_summary((11, 7, 7, 0, 0), Ok, "11 candidates from 7 queries");
        check_summary((0, 7, 7, 0, 0), Ok, "0 candidates from 7 queries");
        check_summary((10, 7, 7, 1, 1), Partial, "INCOMPLETE: 10 candidates from 6 of 7 queries; 1 queries failed on every backend asked, 1 searches failed (listed below)");
        check_summary((11, 7, 7, 0, 1), Partial, "INCOMPLETE: 11 candidates from 7 of 7 queries; 0 queries failed on every backend asked, 1 searches failed (listed below)");
        check_summary((0, 7, 7, 7, 7), Error, "INCOMPLETE: 0 candidates from 0 of 7 queries; 7 queries failed on every backend asked, 7 searches failed (listed below)");
        check_summary((4, 7, 3, 0, 0), Partial, "4 candidates from 3 of 7 queries; stopped by you before the other 4 queries (press Discover to run them all)");
        check_summary((0, 7, 2, 2, 2), Error, "INCOMPLETE: 0 candidates from 0 of 7 queries; 2 queries failed on every backend asked, 2 searches failed (listed below); stopped by you before the other 5 queries (press Discover to run them all)");
        // Stopped before the first query: nothing failed, nothing asked.
        check_summary((0, 7, 0, 0, 0), Partial, "0 candidates from 0 of 7 queries; stopped by you before the other 7 queries (press Discover to run them all)");
    }

    fn check_arxiv(text: &str, expected: Option<&str>) {
        assert_eq!(arxiv_id(text).as_deref(), expected, "arxiv_id({text:?})");
    }

    #[test]
    fn finds_arxiv_ids() {
        check_arxiv("https://arxiv.org/abs/1706.03762", Some("1706.03762"));
        check_arxiv("https://arxiv.org/abs/1706.03762v5", Some("1706.03762"));
        check_arxiv("http://ARXIV.ORG/pdf/2101.00001v2.pdf", Some("2101.00001"));
        check_arxiv("https://arxiv.org/abs/2101.12345", Some("2101.12345"));
        check_arxiv(
            "https://arxiv.org/abs/hep-th/9901001v3",
            Some("hep-th/9901001"),
        );
        check_arxiv(
            "https://arxiv.org/abs/math.AG/0309136",
            Some("math/0309136"),
        );
        check_arxiv("Preprint arXiv:2303.08774 [cs.CL]", Some("2303.08774"));
        check_arxiv("arXiv: nothing here", None);
        check_arxiv("https://arxiv.org/abs/17.0376", None);
        check_arxiv("https://openreview.net/forum?id=abc", None);
        check_arxiv("", None);
        check_arxiv("arxiv.org/abs/", None);
        check_arxiv("arxiv:ü", None);
    }

    fn cand(title: &str, url: Option<&str>, tags: &[&str]) -> Candidate {
        let mut c = Candidate::titled(title);
        c.url = url.map(str::to_string);
        c.discovered_for = Some(tags.iter().map(|s| s.to_string()).collect());
        c
    }

    #[test]
    fn exact_then_fuzzy() {
        let input = vec![
            cand(
                "Attention Is All You Need",
                Some("https://arxiv.org/abs/1706.03762"),
                &["intro"],
            ),
            cand(
                "Transformer paper",
                Some("https://arxiv.org/abs/1706.03762v2"),
                &["related_work[2.1]"],
            ),
            cand(
                "attention is all you need.",
                None,
                &["related_work[2.2]", "intro"],
            ),
            cand("Deep Residual Learning", None, &["intro"]),
        ];
        let r = pre_dedup(input);
        assert_eq!((r.n_before_dedup, r.n_after_dedup, r.n_removed), (4, 2, 2));
        assert_eq!(
            r.candidates[0].discovered_for.as_deref().unwrap(),
            ["intro", "related_work[2.1]", "related_work[2.2]"]
        );
    }

    fn check_outline_err(text: &str, field: &str) {
        let e = outline_queries(text).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some(field), "{text}: {e}");
    }

    #[test]
    fn outline_turns_into_tagged_queries() {
        let q = outline_queries(
            r#"{"introduction_strategy": {"search_directions": ["a", " "]},
                "related_work_strategy": {"subsections": [
                   {"methodology_cluster": "x", "sota_investigation_mission": "s1", "limitation_search_queries": ["l1", "l2"]},
                   {"sota_investigation_mission": "s2"}]}}"#,
        )
        .unwrap();
        let got: Vec<(String, String)> =
            q.into_iter().map(|q| (q.query, q.discovered_for)).collect();
        let want = [
            ("a", "intro"),
            ("s1", "related_work[2.1]"),
            ("l1", "related_work[2.1]"),
            ("l2", "related_work[2.1]"),
            ("s2", "related_work[2.2]"),
        ];
        assert_eq!(got.len(), want.len());
        for ((q, t), (wq, wt)) in got.iter().zip(want) {
            assert_eq!((q.as_str(), t.as_str()), (wq, wt));
        }
        check_outline_err(r#"{"introduction_strategy": 3}"#, "introduction_strategy");
        check_outline_err(
            r#"{"introduction_strategy": {"search_directions": [1]}}"#,
            "introduction_strategy.search_directions[0]",
        );
        check_outline_err(
            r#"{"related_work_strategy": {"subsections": [{"limitation_search_queries": {}}]}}"#,
            "related_work_strategy.subsections[0].limitation_search_queries",
        );
    }

    fn work(title: &str, f: impl FnOnce(&mut Work)) -> Work {
        let mut w = Work::empty(crate::works::Service::SemanticScholar);
        w.title = title.into();
        f(&mut w);
        w
    }

    fn check_snippet(w: Work, expected: Option<&str>) {
        assert_eq!(work_snippet(&w).as_deref(), expected, "{w:?}");
    }

    #[test]
    fn snippets_from_abstract_or_venue_and_year() {
        use crate::works::PubDate;
        let year = |y| {
            Some(PubDate {
                year: y,
                month: None,
                day: None,
            })
        };
        check_snippet(
            work("t", |w| {
                w.abstract_text = Some("  We  show\nthat x. ".into())
            }),
            Some("We show that x."),
        );
        let long = "word ".repeat(100);
        let got = work_snippet(&work("t", |w| w.abstract_text = Some(long.clone()))).unwrap();
        assert!(got.ends_with("word…"), "{got}");
        assert!(got.chars().count() <= SNIPPET_CHARS + 1, "{got}");
        let unbroken = "x".repeat(SNIPPET_CHARS + 5);
        check_snippet(
            work("t", |w| w.abstract_text = Some(unbroken.clone())),
            Some(&format!("{}…", "x".repeat(SNIPPET_CHARS))),
        );
        check_snippet(
            work("t", |w| {
                w.abstract_text = Some(" ".into());
                w.venue = Some("NeurIPS".into());
                w.published = year(2017);
            }),
            Some("NeurIPS, 2017"),
        );
        check_snippet(work("t", |w| w.venue = Some("ICLR".into())), Some("ICLR"));
        check_snippet(work("t", |w| w.published = year(2020)), Some("2020"));
        check_snippet(work("t", |w| w.venue = Some("  ".into())), None);
        check_snippet(work("t", |_| {}), None);
    }

    fn check_url(w: Work, expected: Option<&str>) {
        assert_eq!(work_url(&w).as_deref(), expected, "{w:?}");
    }

    #[test]
    fn urls_prefer_doi_then_arxiv_then_index_pages() {
        let all = |w: &mut Work| {
            w.doi = Some("10.1/AB".into());
            w.arxiv_id = Some("1706.03762".into());
            w.s2_id = Some("abc".into());
            w.openalex_id = Some("W1".into());
        };
        check_url(work("t", all), Some("https://doi.org/10.1/AB"));
        check_url(
            work("t", |w| {
                all(w);
                w.doi = Some("not a doi".into());
            }),
            Some("https://arxiv.org/abs/1706.03762"),
        );
        check_url(
            work("t", |w| w.s2_id = Some("abc".into())),
            Some("https://www.semanticscholar.org/paper/abc"),
        );
        check_url(
            work("t", |w| w.openalex_id = Some("W1".into())),
            Some("https://openalex.org/W1"),
        );
        check_url(
            work("t", |w| {
                w.openalex_id = Some("https://openalex.org/W2".into())
            }),
            Some("https://openalex.org/W2"),
        );
        check_url(work("t", |w| w.s2_id = Some(" ".into())), None);
    }

    /// `(tag, works)` per query → `(title, tags, source_url)` per candidate.
    fn check_found(found: &[(&str, Vec<Work>)], expected: &[(&str, &[&str], Option<&str>)]) {
        let got = from_works(found.iter().map(|(t, w)| (*t, w.as_slice())));
        let got: Vec<(String, Vec<String>, Option<String>)> = got
            .into_iter()
            .map(|c| (c.title, c.discovered_for.unwrap_or_default(), c.source_url))
            .collect();
        let want: Vec<(String, Vec<String>, Option<String>)> = expected
            .iter()
            .map(|(t, tags, u)| {
                (
                    t.to_string(),
                    tags.iter().map(|s| s.to_string()).collect(),
                    u.map(str::to_string),
                )
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn works_become_candidates_merged_across_queries() {
        let doi = |d: &str| {
            let d = d.to_string();
            move |w: &mut Work| w.doi = Some(d)
        };
        let a = work("A", doi("10.1/a"));
        let a_upper = work("A (journal version)", doi("10.1/A"));
        let b = work("B", |w| w.arxiv_id = Some("2001.00001v2".into()));
        let b_again = work("B, the preprint", |w| {
            w.arxiv_id = Some("2001.00001".into())
        });
        let c = work("The C Paper", |_| {});
        let c_title = work("the c paper.", |w| w.s2_id = Some("s2c".into()));
        let untitled = work("  ", doi("10.1/z"));
        let rw1 = "related_work[2.1]";
        check_found(&[], &[]);
        check_found(
            &[
                ("intro", vec![a.clone(), b.clone()]),
                (rw1, vec![b_again, a_upper, c.clone()]),
                ("intro", vec![c_title.clone(), untitled]),
            ],
            &[
                ("A", &["intro", rw1], Some("https://doi.org/10.1/a")),
                (
                    "B",
                    &["intro", rw1],
                    Some("https://arxiv.org/abs/2001.00001v2"),
                ),
                (
                    "The C Paper",
                    &[rw1, "intro"],
                    Some("https://www.semanticscholar.org/paper/s2c"),
                ),
            ],
        );
        // Regression: the same query listing a paper twice adds its tag once.
        check_found(
            &[("intro", vec![a.clone(), a.clone()])],
            &[("A", &["intro"], Some("https://doi.org/10.1/a"))],
        );
        // Different papers with different titles stay apart.
        check_found(
            &[("intro", vec![a, c])],
            &[
                ("A", &["intro"], Some("https://doi.org/10.1/a")),
                ("The C Paper", &["intro"], None),
            ],
        );
    }

    #[test]
    fn discovered_candidates_round_trip_through_raw_candidates_json() {
        let w = work("Attention", |w| {
            w.doi = Some("https://doi.org/10.5/X".into());
            w.abstract_text = Some("We propose.".into());
        });
        let found = from_works([("intro", std::slice::from_ref(&w))]);
        let text = to_json(&found);
        assert_eq!(parse_candidates(&text).unwrap(), found);
        assert_eq!(
            found.first().and_then(|c| c.extra.get("doi")),
            Some(&Value::String("10.5/X".into()))
        );
    }
}
