//! Generated benchmark inputs, the same for every runner.
//!
//! The criterion benches (`core/benches/`), the JavaScript runs (node and
//! Chromium) and the reference Python scripts must time the same inputs, so
//! the inputs are made here once, from a fixed-seed generator, as the text a
//! user would hand citegate (`.json`, `.tex`, `.bib`). `cargo run -p
//! citegate-core --example bench_inputs -- DIR` writes them to files; the
//! benches call the functions directly. Titles are built from syllables so
//! that their letter statistics look like English titles, and many share
//! words, which is what makes fuzzy matching work hard.
#![allow(dead_code)]

use std::collections::BTreeMap;

/// A small deterministic generator (a 64-bit LCG; no dependency needed).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

const SYLLABLES: &[&str] = &[
    "at", "ten", "tion", "spar", "se", "gra", "ph", "neu", "ral", "lear", "ning", "de", "ep", "mo",
    "del", "trans", "for", "mer", "vi", "si", "on", "lan", "gua", "ge", "ef", "fi", "cient", "ro",
    "bust", "net", "works", "sur", "vey", "sca", "ling", "laws", "dif", "fu", "re", "tri", "val",
    "con", "text", "pre", "train", "ed", "in", "ter", "ac", "ti", "ve",
];

fn words(rng: &mut Lcg) -> Vec<String> {
    (0..3000)
        .map(|_| {
            (0..1 + rng.below(3))
                .map(|_| SYLLABLES[rng.below(SYLLABLES.len())])
                .collect()
        })
        .collect()
}

fn title(rng: &mut Lcg, words: &[String]) -> String {
    (0..5 + rng.below(10))
        .map(|_| words[rng.below(words.len())].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn edit(rng: &mut Lcg, text: &str, max_edits: usize) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.below(max_edits + 1) {
        let pos = rng.below(chars.len());
        chars[pos] = (b'a' + rng.below(26) as u8) as char;
    }
    chars.into_iter().collect()
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// `n` title pairs: half near-duplicates (up to six edits, case changed),
/// half unrelated titles.
pub fn title_pairs(n: usize) -> Vec<(String, String)> {
    let mut rng = Lcg(7);
    let words = words(&mut rng);
    (0..n)
        .map(|i| {
            let a = title(&mut rng, &words);
            let b = if i % 2 == 0 {
                edit(&mut rng, &a, 6).to_uppercase()
            } else {
                title(&mut rng, &words)
            };
            (a, b)
        })
        .collect()
}

/// `raw_candidates.json` text with `n` candidates: about a third are copies
/// of an earlier title with up to four character edits, one in ten has an
/// arXiv URL.
pub fn candidates_json(n: usize) -> String {
    let mut rng = Lcg(42);
    let words = words(&mut rng);
    let mut titles: Vec<String> = Vec::with_capacity(n);
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        let t = if !titles.is_empty() && rng.below(3) == 0 {
            let earlier = titles[rng.below(titles.len())].clone();
            edit(&mut rng, &earlier, 4)
        } else {
            title(&mut rng, &words)
        };
        titles.push(t.clone());
        let url = if rng.below(10) == 0 {
            format!(
                ", \"source_url\": \"https://arxiv.org/abs/2101.{:05}\"",
                rng.below(n)
            )
        } else {
            String::new()
        };
        items.push(format!(
            "{{\"title\": {}{url}, \"discovered_for\": [\"related_work[2.{}]\"]}}",
            json_str(&t),
            i % 5
        ));
    }
    format!("{{\"candidates\": [\n{}\n]}}\n", items.join(",\n"))
}

/// Number of papers in the coverage pool.
pub const POOL_PAPERS: usize = 500;

/// `citation_pool.json` text with [`POOL_PAPERS`] keyed papers.
pub fn pool_json() -> String {
    let mut rng = Lcg(11);
    let words = words(&mut rng);
    let papers: Vec<String> = (0..POOL_PAPERS)
        .map(|i| {
            format!(
                "{{\"paperId\": \"p{i:04}\", \"title\": {}, \"year\": {}, \"abstract\": \"a\", \"bibtex_key\": \"key{i}\", \"discovered_for\": [\"sec{}\"]}}",
                json_str(&title(&mut rng, &words)),
                1990 + rng.below(34),
                i % 7
            )
        })
        .collect();
    format!("{{\"papers\": [\n{}\n]}}\n", papers.join(",\n"))
}

/// A LaTeX project of about `bytes` bytes: `main.tex` inputs 50 section
/// files of prose with a cite every few lines (natbib forms, optional
/// notes, several keys per cite, some keys outside the pool, comments).
pub fn tex_tree(bytes: usize) -> BTreeMap<String, String> {
    let mut rng = Lcg(5);
    let words = words(&mut rng);
    let sections = 50;
    let per = bytes / sections;
    let mut files = BTreeMap::new();
    let mut main = String::from("\\documentclass{article}\n\\begin{document}\n");
    for s in 0..sections {
        let name = format!("sections/s{s:02}.tex");
        main.push_str(&format!("\\input{{sections/s{s:02}}}\n"));
        let mut text = String::with_capacity(per + 200);
        while text.len() < per {
            text.push_str(&title(&mut rng, &words));
            text.push(' ');
            match rng.below(8) {
                0 => text.push_str(&format!("\\citep{{key{}}}", rng.below(POOL_PAPERS))),
                1 => text.push_str(&format!(
                    "\\citet[p.~{}]{{key{}, key{}}}",
                    rng.below(300),
                    rng.below(POOL_PAPERS),
                    rng.below(POOL_PAPERS)
                )),
                2 => text.push_str(&format!("\\cite{{ghost{}}}", rng.below(50))),
                3 => text.push_str("% a comment \\cite{commented}"),
                _ => {}
            }
            text.push_str(".\n");
        }
        files.insert(name, text);
    }
    main.push_str("\\end{document}\n");
    files.insert("main.tex".to_string(), main);
    files
}

/// One `.tex` file of about `bytes` bytes with `cites` cite commands
/// (natbib forms with optional notes, several keys per cite, keys outside
/// the pool, comments), short prose between them: the single-file draft of
/// the whole-process coverage comparison (bench/whole_process.sh).
pub fn tex_single(bytes: usize, cites: usize) -> String {
    let mut rng = Lcg(13);
    let words = words(&mut rng);
    let mut text = String::with_capacity(bytes + 200);
    text.push_str("\\documentclass{article}\n\\begin{document}\n");
    let per = bytes / cites.max(1);
    for _ in 0..cites {
        let start = text.len();
        match rng.below(8) {
            0 | 1 => text.push_str(&format!(
                "\\citet[p.~{}]{{key{}, key{}}}",
                rng.below(300),
                rng.below(POOL_PAPERS),
                rng.below(POOL_PAPERS)
            )),
            2 => text.push_str(&format!("\\cite{{ghost{}}}", rng.below(50))),
            _ => text.push_str(&format!("\\citep{{key{}}}", rng.below(POOL_PAPERS))),
        }
        while text.len() - start < per.saturating_sub(7) {
            text.push(' ');
            text.push_str(&words[rng.below(words.len())]);
        }
        if rng.below(10) == 0 {
            text.push_str(" % see \\cite{commented}");
        }
        text.push_str(".\n");
    }
    text.push_str("\\end{document}\n");
    text
}

/// A `.bib` with `n` entries: articles, conference papers and books with
/// LaTeX accents, `@string` macros, and a few faults layer 1 reports
/// (missing field, bad year, DOI as URL, duplicate key).
pub fn bib(n: usize) -> String {
    let mut rng = Lcg(3);
    let words = words(&mut rng);
    let mut out = String::from("@string{jml = {Journal of Machine Learning}}\n\n");
    for i in 0..n {
        let t = title(&mut rng, &words);
        let author = format!(
            "M{}ller, J{{\\\"o}}rg and Smith, Ann and {} {}",
            "\\\"u",
            words[rng.below(words.len())],
            words[rng.below(words.len())]
        );
        let key = if i % 997 == 5 {
            "dup".to_string()
        } else {
            format!("k{i}")
        };
        let year = if i % 101 == 0 {
            "in press".to_string()
        } else {
            (1980 + rng.below(45)).to_string()
        };
        let doi = if i % 53 == 0 {
            format!("https://doi.org/10.1000/{i}")
        } else {
            format!("10.1000/{i}")
        };
        match i % 3 {
            0 => out.push_str(&format!(
                "@article{{{key},\n  title = {{{t}}},\n  author = {{{author}}},\n  journal = jml,\n  year = {year},\n  volume = {{{}}},\n  pages = {{1--{}}},\n  doi = {{{doi}}}\n}}\n\n",
                rng.below(40),
                rng.below(30) + 2
            )),
            1 => out.push_str(&format!(
                "@inproceedings{{{key},\n  title = \"{t}\",\n  author = \"{author}\",\n  booktitle = {{Proceedings of {}}},\n  year = {{{year}}}\n}}\n\n",
                words[rng.below(words.len())]
            )),
            _ => out.push_str(&format!(
                "@book{{{key},\n  title = {{{t}}},\n  author = {{{author}}},\n  year = {{{year}}}\n}}\n\n"
            )),
        }
    }
    out
}

/// Three services' result lists of `n` works each, as JSON (an array of
/// `{service, works}`): a third of the works are shared by DOI between
/// lists, some only by title.
pub fn fusion_json(n: usize) -> String {
    let mut rng = Lcg(9);
    let words = words(&mut rng);
    let shared: Vec<(String, String)> = (0..n)
        .map(|i| (title(&mut rng, &words), format!("10.5555/shared.{i}")))
        .collect();
    let mut lists = Vec::new();
    for (s, service) in ["semantic_scholar", "openalex", "crossref"]
        .iter()
        .enumerate()
    {
        let mut works = Vec::new();
        for i in 0..n {
            let (t, doi) = if rng.below(3) == 0 {
                shared[rng.below(n)].clone()
            } else {
                (title(&mut rng, &words), format!("10.5555/{s}.{i}"))
            };
            let doi = if rng.below(10) == 0 {
                String::new()
            } else {
                format!(", \"doi\": {}", json_str(&doi))
            };
            works.push(format!(
                "{{\"source\": \"{service}\", \"id\": \"{s}-{i}\"{doi}, \"title\": {}, \"authors\": [{{\"name\": \"Ann Smith\"}}], \"published\": {{\"year\": {}}}, \"citation_count\": {}}}",
                json_str(&t),
                1990 + rng.below(34),
                rng.below(5000)
            ));
        }
        lists.push(format!(
            "{{\"service\": \"{service}\", \"works\": [\n{}\n]}}",
            works.join(",\n")
        ));
    }
    format!("[\n{}\n]\n", lists.join(",\n"))
}
