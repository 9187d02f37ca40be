//! Property tests: laws that must hold for every input, not just the fixtures.
//!
//! Each property states an algebraic law (symmetry, idempotence, order
//! independence, round trip) and lets proptest search for a counterexample.
//! Inputs are drawn from small alphabets of ids, DOIs and titles on purpose:
//! collisions are what dedup and fusion are about, and random strings would
//! almost never collide. Case counts are kept low so the file runs in seconds.

use citegate_core::library::{Library, Name, Published, Record};
use citegate_core::pool::{self, Author, Pool, PoolPaper};
use citegate_core::search::{dedup_key, fuse};
use citegate_core::title::{normalize, ratio};
use citegate_core::works::{Service, Work};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Title-like text: letters (with accents and a few LaTeX escapes), digits,
/// punctuation and spaces.
fn titleish() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.:;!?'()-]{0,40}",
        "[a-zA-ZéüßøÆŁİıẞﬁ½²\\\\{}\"'$~ -]{0,30}",
        any::<String>(),
    ]
}

/// Non-empty text: the library reads an empty optional string as absent.
fn small_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}",
        "[^\"\\\\]{1,12}",
        any::<String>().prop_filter("non-empty", |s| !s.is_empty()),
    ]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn ratio_is_symmetric_and_in_range(a in titleish(), b in titleish()) {
        let ab = ratio(&a, &b);
        let ba = ratio(&b, &a);
        prop_assert_eq!(ab.to_bits(), ba.to_bits(), "ratio({:?}, {:?})", a, b);
        prop_assert!((0.0..=100.0).contains(&ab), "ratio {} out of range", ab);
        prop_assert_eq!(ratio(&a, &a), 100.0);
    }

    #[test]
    fn normalize_is_idempotent(t in titleish()) {
        let once = normalize(&t);
        prop_assert_eq!(normalize(&once), once.clone(), "input {:?}", t);
    }
}

// ---- pool dedup ------------------------------------------------------------

fn pool_paper() -> impl Strategy<Value = PoolPaper> {
    (
        prop::option::of(prop::sample::select(vec!["S1", "S2", ""])),
        prop::option::of(prop::sample::select(vec![
            "10.1/A",
            "https://doi.org/10.1/a",
            "10.1/b",
        ])),
        prop::option::of(prop::sample::select(vec!["2101.00001v2", "2101.00001"])),
        prop::sample::select(vec!["Deep Nets", "deep  nets!", "Shallow Nets", ""]),
        prop::option::of(0u32..120),
        prop::collection::vec(
            prop::sample::select(vec!["intro", "rw[2.1]", "rw[2.2]"]),
            0..3,
        ),
    )
        .prop_map(|(id, doi, arxiv, title, score, tags)| {
            let mut ids = Map::new();
            if let Some(d) = doi {
                ids.insert("DOI".into(), Value::String(d.into()));
            }
            if let Some(a) = arxiv {
                ids.insert("ArXiv".into(), Value::String(a.into()));
            }
            PoolPaper {
                paper_id: id.map(str::to_string),
                title: Some(title.to_string()),
                external_ids: (!ids.is_empty()).then_some(ids),
                match_score: score.map(Number::from),
                discovered_for: (!tags.is_empty())
                    .then(|| tags.iter().map(|t| t.to_string()).collect()),
                ..PoolPaper::default()
            }
        })
}

/// Per kept key: the best score and the set of tags (what must not depend on order).
fn kept_summary(papers: &[PoolPaper]) -> BTreeMap<String, (u64, BTreeSet<String>)> {
    papers
        .iter()
        .map(|p| {
            (
                pool::dedup_key(p),
                (
                    p.score().to_bits(),
                    p.discovered_for.iter().flatten().cloned().collect(),
                ),
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn dedup_is_idempotent(papers in prop::collection::vec(pool_paper(), 0..24)) {
        let once = pool::dedupe(papers, None).pool.papers;
        let twice = pool::dedupe(once.clone(), None);
        prop_assert!(twice.collisions.is_empty());
        prop_assert_eq!(twice.pool.papers, once);
    }

    #[test]
    fn dedup_kept_set_is_order_independent(
        (papers, shuffled) in prop::collection::vec(pool_paper(), 0..24)
            .prop_flat_map(|v| (Just(v.clone()), Just(v).prop_shuffle()))
    ) {
        let a = pool::dedupe(papers, None).pool.papers;
        let b = pool::dedupe(shuffled, None).pool.papers;
        prop_assert_eq!(a.len(), b.len());
        prop_assert_eq!(kept_summary(&a), kept_summary(&b));
    }
}

// ---- fusion -----------------------------------------------------------------

fn work(source: Service) -> impl Strategy<Value = Work> {
    (
        prop::option::of(prop::sample::select(vec!["10.5/X", "10.5/x", "10.5/y"])),
        prop::option::of(prop::sample::select(vec!["p1", "p2"])),
        prop::sample::select(vec!["Graph Nets", "graph nets", "Tree Nets"]),
        prop::option::of(prop::sample::select(vec!["NeurIPS", "ICML"])),
    )
        .prop_map(move |(doi, s2, title, venue)| {
            let mut w = Work::empty(source);
            w.doi = doi.map(str::to_string);
            w.s2_id = s2.map(str::to_string);
            w.title = title.to_string();
            w.venue = venue.map(str::to_string);
            w
        })
}

type FusedView = BTreeMap<String, (u64, usize, u64, Vec<String>, usize, bool)>;

fn fused_view(lists: &[(Service, Vec<Work>)], library: &HashSet<String>) -> FusedView {
    let borrowed: Vec<(Service, &[Work])> = lists.iter().map(|(s, w)| (*s, w.as_slice())).collect();
    fuse(&borrowed, library)
        .into_iter()
        .map(|f| {
            (
                dedup_key(&f.work).unwrap_or_default(),
                (
                    f.rrf.to_bits(),
                    f.rank,
                    f.mean_rank.to_bits(),
                    f.sources,
                    f.found_by,
                    f.in_library,
                ),
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn fusion_is_order_invariant_in_its_backends(
        s2 in prop::collection::vec(work(Service::SemanticScholar), 0..6),
        oa in prop::collection::vec(work(Service::OpenAlex), 0..6),
        cr in prop::collection::vec(work(Service::Crossref), 0..6),
        order in Just(vec![0usize, 1, 2]).prop_shuffle(),
    ) {
        let library: HashSet<String> = ["10.5/x".to_string()].into();
        let lists = vec![
            (Service::SemanticScholar, s2),
            (Service::OpenAlex, oa),
            (Service::Crossref, cr),
        ];
        let permuted: Vec<(Service, Vec<Work>)> =
            order.iter().filter_map(|&i| lists.get(i).cloned()).collect();
        let a = fused_view(&lists, &library);
        let b = fused_view(&permuted, &library);
        prop_assert_eq!(a, b);
    }
}

// ---- round trips ------------------------------------------------------------

fn opt_text() -> impl Strategy<Value = Option<String>> {
    prop::option::of(small_text())
}

fn record() -> impl Strategy<Value = Record> {
    (
        "[A-Za-z]{1,8}[0-9]{4}",
        opt_text(),
        small_text(),
        prop::collection::vec((small_text(), small_text()), 0..3),
        (opt_text(), opt_text(), opt_text()),
        prop::option::of((prop::option::of(1900i64..2100), prop::option::of(1i64..13))),
    )
        .prop_map(
            |(id, doi, title, names, (abs, venue, arxiv), published)| Record {
                id,
                doi,
                title,
                authors: names
                    .into_iter()
                    .map(|(first, last)| Name {
                        first,
                        last,
                        extra: Map::new(),
                    })
                    .collect(),
                abstract_text: abs,
                venue,
                published: published.map(|(year, month)| Published {
                    year,
                    month,
                    ..Published::default()
                }),
                arxiv_id: arxiv,
                ..Record::default()
            },
        )
}

fn pool_strategy() -> impl Strategy<Value = Pool> {
    (
        prop::collection::vec(
            (
                pool_paper(),
                opt_text(),
                prop::option::of(-3000i32..3000),
                prop::collection::vec(small_text(), 0..3),
                prop::option::of(("x_[a-z]{1,5}", small_text())),
            ),
            0..8,
        ),
        prop::option::of("20[0-9]{2}-0[1-9]-1[0-9]"),
    )
        .prop_map(|(papers, cutoff)| Pool {
            papers: papers
                .into_iter()
                .map(|(mut p, abs, year, authors, extra)| {
                    p.abstract_text = abs;
                    p.year = year;
                    p.authors = (!authors.is_empty())
                        .then(|| authors.into_iter().map(Author::named).collect());
                    if let Some((k, v)) = extra {
                        p.extra.insert(k, Value::String(v));
                    }
                    p
                })
                .collect(),
            cutoff_date: cutoff,
            ..Pool::default()
        })
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn refs_jsonl_round_trips(records in prop::collection::vec(record(), 0..8)) {
        let mut lib = Library::default();
        for r in records {
            // A repeated DOI is refused by design; the rest must survive.
            let _ = lib.add(r);
        }
        let text = lib.to_jsonl();
        let (back, errors) = Library::parse(&text);
        prop_assert!(errors.is_empty(), "{:?}", errors);
        prop_assert_eq!(back.records().collect::<Vec<_>>(), lib.records().collect::<Vec<_>>());
        prop_assert_eq!(back.to_jsonl(), text);
    }

    #[test]
    fn citation_pool_round_trips(p in pool_strategy()) {
        let text = pool::to_json(&p);
        let back = pool::parse_pool(&text);
        prop_assert!(back.is_ok(), "{:?}", back);
        prop_assert_eq!(back.ok(), Some(p));
    }
}

/// LaTeX made of the pieces the scanner treats specially: cite commands
/// with notes and cites nested in them, wrappers with repeated fixed keys,
/// comments, paragraph breaks, unbalanced brackets and braces.
fn latex_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        r"\cite{a}",
        r"\citep[p.~2]{b, c}",
        r"\citep[see \citet{d}]{e}",
        r"\citep[{\cite{f,g}}][]{h}",
        r"\citep[see \citep[x]{i}]{j}",
        r"\nocite{k}",
        r"\nocite{*}",
        r"\newcommand{\fixed}{\citep{x,y,x}}",
        r"\fixed",
        r"\newcommand{\w}[1]{\citet{#1}}",
        r"\w{l,m}",
        r"\cites{n}[p]{o}",
        "\\cite{p%\n q}",
        " % \\cite{r}\n",
        "\n",
        "\n\n",
        " ",
        "{",
        "}",
        "[",
        "]",
        r"\iffalse",
        r"\fi",
        r"\verb|\cite{s}|",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

/// Each cite a streamed scan hands over: key, offset, `\nocite`.
struct Handed(Vec<(String, usize, bool)>);

impl citegate_core::tex::Visit for Handed {
    fn cite(&mut self, _: &str, c: citegate_core::tex::Found<'_>) {
        self.0.push((c.key.to_string(), c.start, c.nocite));
    }
}

proptest! {
    #![proptest_config(config(512))]

    /// A streamed scan hands over exactly the cites a scan records, in order.
    #[test]
    fn streamed_scan_hands_over_the_recorded_cites(tex in latex_soup()) {
        let recorded: Vec<(String, usize, bool)> = citegate_core::tex::scan(&tex)
            .cites()
            .map(|c| (c.key.to_string(), c.start, c.nocite))
            .collect();
        let mut handed = Handed(Vec::new());
        citegate_core::tex::visit(&tex, &[], &mut handed);
        prop_assert_eq!(handed.0, recorded);
    }
}
