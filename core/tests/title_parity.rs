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
