//! Parity of `title::ratio` and `title::score` with python-Levenshtein on
//! the committed vectors (see `fixtures/title/README.md`).

use citegate_core::title;

const VECTORS: &str = include_str!("fixtures/title/vectors.tsv");

struct Vector<'a> {
    line: usize,
    a: &'a str,
    b: &'a str,
    ratio: f64,
    score: i64,
}

fn vectors() -> Vec<Vector<'static>> {
    VECTORS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "line {} has {} fields", i + 1, f.len());
            Vector {
                line: i + 1,
                a: f[0],
                b: f[1],
                ratio: f[2].parse().unwrap(),
                score: f[3].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn ratio_and_score_match_python_levenshtein_on_every_vector() {
    let vs = vectors();
    assert!(vs.len() >= 2000, "only {} vectors", vs.len());
    let mut halves = 0;
    for v in &vs {
        let r = title::ratio(v.a, v.b);
        assert!(
            (r - v.ratio).abs() <= 1e-9,
            "line {}: ratio {r} != python {}",
            v.line,
            v.ratio
        );
        assert_eq!(
            title::score(v.a, v.b, false),
            v.score,
            "line {}: score of {:?} / {:?}",
            v.line,
            v.a,
            v.b
        );
        if (v.ratio.fract() - 0.5).abs() < 1e-9 {
            halves += 1;
        }
    }
    assert!(
        halves >= 100,
        "the vectors must exercise half boundaries, found {halves}"
    );
}

#[test]
fn ratio_is_symmetric_on_the_vectors() {
    for v in vectors() {
        assert_eq!(
            title::ratio(v.a, v.b),
            title::ratio(v.b, v.a),
            "line {}",
            v.line
        );
    }
}

#[test]
fn cached_scorer_gives_the_same_bits_as_score_and_ratio() {
    let vs = vectors();
    // One scorer per pair, and one scorer reused against every found title
    // (its buffer and comparator serve many calls).
    let mut reused = title::TitleScorer::new(vs[0].a);
    for v in &vs {
        let mut s = title::TitleScorer::new(v.a);
        for bypass in [false, true] {
            assert_eq!(
                s.score(v.b, bypass),
                title::score(v.a, v.b, bypass),
                "line {} bypass {bypass}",
                v.line
            );
            assert_eq!(
                reused.score(v.b, bypass),
                title::score(vs[0].a, v.b, bypass),
                "line {} against line {}",
                v.line,
                vs[0].line
            );
        }
        assert_eq!(
            s.ratio(v.b).to_bits(),
            title::ratio(v.a, v.b).to_bits(),
            "line {}",
            v.line
        );
        assert_eq!(s.normalized(), title::normalize(v.a), "line {}", v.line);
    }
}

#[test]
fn normalize_into_reuses_a_dirty_buffer() {
    let mut buf = String::from("left over from before");
    for v in vectors() {
        title::normalize_into(v.b, &mut buf);
        assert_eq!(buf, title::normalize(v.b), "line {}", v.line);
    }
}

/// A small deterministic generator for the property below.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn text(&mut self, alphabet: &[u8], max_len: u64) -> String {
        let len = self.below(max_len + 1);
        (0..len)
            .map(|_| char::from(alphabet[self.below(alphabet.len() as u64) as usize]))
            .collect()
    }
}

/// The ASCII fast path of `ratio_normalized` (its own bit-parallel LCS)
/// against rapidfuzz's InDel distance, bit for bit, on random pairs of every
/// length up to past 256 (where it hands over to rapidfuzz), small and
/// large alphabets, shared prefixes and suffixes.
#[test]
fn ascii_ratio_equals_rapidfuzz_on_random_pairs() {
    let mut rng = Lcg(20);
    let small = b"ab ";
    let large: Vec<u8> = (b' '..=b'~').collect();
    for i in 0..6000 {
        let alphabet: &[u8] = if i % 2 == 0 { small } else { &large };
        let max_len = [8, 70, 140, 300][i % 4];
        let core = rng.text(alphabet, max_len);
        let a = format!("{}{core}{}", rng.text(alphabet, 5), rng.text(alphabet, 5));
        let b = if i % 3 == 0 {
            format!("{}{core}", rng.text(alphabet, 9))
        } else {
            rng.text(alphabet, max_len)
        };
        let lensum = a.len() + b.len();
        let d = rapidfuzz::distance::indel::distance(a.bytes(), b.bytes());
        let expected = if lensum == 0 {
            100.0
        } else {
            (1.0 - d as f64 / lensum as f64) * 100.0
        };
        assert_eq!(
            title::ratio_normalized(&a, &b).to_bits(),
            expected.to_bits(),
            "{a:?} / {b:?}"
        );
    }
}
