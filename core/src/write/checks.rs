//! The four checks a draft must pass, and the re-prompt that asks for the fixes.
//!
//! Each check is a pure function of the template, the pool and the draft:
//! (1) the template is kept outside the two sections ([`super::sections`]);
//! (2) every key cited in the two sections is in the pool; (3) the coverage
//! gate ([`crate::coverage`]) on the two sections; (4) no paper dated on or
//! after the cutoff is presented as a baseline. The re-prompt names what
//! failed and nothing else, so a model is never asked to "fix" what was right.

use super::sections::{self, TemplateCheck};
use crate::coverage::{self, CiteAt, Coverage, PoolEntry, Threshold};
use crate::cutoff::{self, Date, PaperDate};
use crate::inert::one_line;
use crate::pool::PoolPaper;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A pool paper dated on or after the cutoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatePaper {
    /// Its key.
    pub key: String,
    /// Its title.
    pub title: String,
    /// Its date as the pool gives it.
    pub date: String,
}

/// A sentence of the draft that cites a late paper in the words of a baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineClaim {
    /// The late paper's key.
    pub key: String,
    /// The sentence, on one line.
    pub sentence: String,
}

/// The outcome of check (4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutoffCheck {
    /// True iff no sentence presents a late paper as a baseline.
    pub pass: bool,
    /// Pool papers dated on or after the cutoff (none in a pool citegate built).
    pub late_in_pool: Vec<LatePaper>,
    /// Sentences that cite one of them next to words of comparison.
    pub claims: Vec<BaselineClaim>,
}

/// The outcome of check (2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeysCheck {
    /// True iff every key cited in the two sections is in the pool.
    pub pass: bool,
    /// Keys cited that the pool does not hold, sorted.
    pub invented: Vec<String>,
}

/// A number of the coverage gate, kept small for the history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageCheck {
    /// True iff at least `min_required` pool papers are cited.
    pub pass: bool,
    /// Pool papers cited.
    pub n_cited: usize,
    /// Pool papers.
    pub n_pool: usize,
    /// `floor(threshold · n_pool)`.
    pub min_required: usize,
    /// `100 · n_cited / n_pool`.
    pub percent: f64,
    /// The uncited papers grouped by `discovered_for`.
    pub uncited_by_tag: Vec<coverage::TagGroup>,
}

impl From<&Coverage> for CoverageCheck {
    fn from(c: &Coverage) -> Self {
        CoverageCheck {
            pass: c.pass,
            n_cited: c.n_cited,
            n_pool: c.n_pool,
            min_required: c.min_required,
            percent: c.percent,
            uncited_by_tag: c.uncited_by_tag.clone(),
        }
    }
}

/// All four checks of one draft.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checks {
    /// (1) the template kept outside the two sections.
    pub template: TemplateCheck,
    /// (2) every cited key in the pool.
    pub keys: KeysCheck,
    /// (3) the coverage gate.
    pub coverage: CoverageCheck,
    /// (4) no late paper as a baseline.
    pub cutoff: CutoffCheck,
}

impl Checks {
    /// How many of the four checks pass.
    pub fn passed(&self) -> usize {
        [
            self.template.pass,
            self.keys.pass,
            self.coverage.pass,
            self.cutoff.pass,
        ]
        .iter()
        .filter(|p| **p)
        .count()
    }

    /// True iff all four pass.
    pub fn all_pass(&self) -> bool {
        self.passed() == 4
    }
}

/// A pool paper's date, if the pool gives one: `publicationDate`, else `year`.
fn paper_date(p: &PoolPaper) -> Option<(PaperDate, String)> {
    if let Some(d) = p
        .publication_date
        .as_deref()
        .filter(|d| !d.trim().is_empty())
    {
        if let Ok(pd) = PaperDate::parse(d) {
            return Some((pd, d.trim().to_string()));
        }
    }
    let y = p.year?;
    Some((PaperDate::parse(&y.to_string()).ok()?, y.to_string()))
}

/// Pool papers (with a key) dated on or after the cutoff.
pub fn late_papers(papers: &[PoolPaper], cutoff: Date) -> Vec<LatePaper> {
    papers
        .iter()
        .filter_map(|p| {
            let key = p.bibtex_key.as_deref()?.trim();
            let (date, text) = paper_date(p)?;
            (!key.is_empty() && !cutoff::check(date, cutoff).pass).then(|| LatePaper {
                key: key.to_string(),
                title: p.title.clone().unwrap_or_default(),
                date: text,
            })
        })
        .collect()
}

/// Words that present a cited paper as something this work is measured against.
const BASELINE_WORDS: &[&str] = &[
    "baseline",
    "outperform",
    "surpass",
    "beat",
    "improve on",
    "improves on",
    "improve upon",
    "improves upon",
    "better than",
    "superior to",
    "state-of-the-art",
    "state of the art",
    "sota",
];

/// Check (4) on the two sections' text.
pub fn check_cutoff(sections_tex: &str, late: &[LatePaper]) -> CutoffCheck {
    let mut claims = Vec::new();
    if !late.is_empty() {
        // Sentences end at a full stop followed by space, or a blank line.
        let text = sections_tex.replace("\n\n", ". ");
        for sentence in text.split(". ") {
            let lower = sentence.to_lowercase();
            if !BASELINE_WORDS.iter().any(|w| lower.contains(w)) {
                continue;
            }
            let cited: Vec<String> = crate::tex::extract_cites(sentence)
                .into_iter()
                .map(|c| c.key)
                .collect();
            for l in late {
                if cited.contains(&l.key) {
                    claims.push(BaselineClaim {
                        key: l.key.clone(),
                        sentence: one_line(sentence.trim()),
                    });
                }
            }
        }
    }
    CutoffCheck {
        pass: claims.is_empty(),
        late_in_pool: late.to_vec(),
        claims,
    }
}

/// Runs the four checks on a draft (the LaTeX file taken from an answer).
pub fn run(
    template: &str,
    draft: &str,
    pool: &[PoolEntry],
    late: &[LatePaper],
    threshold: &Threshold,
) -> Checks {
    let template_check = sections::check_template(template, draft);
    let text = sections::sections_text(draft);
    let scanned = crate::tex::scan(&text);
    let cites: Vec<CiteAt> = scanned
        .cites()
        .map(|c| CiteAt {
            nocite: c.command.eq_ignore_ascii_case("nocite"),
            key: c.key.to_string(),
            file: "intro_relwork.tex".into(),
            line: c.line,
        })
        .collect();
    let cov = coverage::check(pool, &cites, threshold);
    Checks {
        template: template_check,
        keys: KeysCheck {
            pass: cov.foreign.is_empty(),
            invented: cov.foreign.iter().map(|f| f.key.clone()).collect(),
        },
        coverage: CoverageCheck::from(&cov),
        cutoff: check_cutoff(&text, late),
    }
}

/// A tag as the seed writes it in a re-prompt: `intro`, `related work 2.1`.
fn tag_label(tag: &str) -> String {
    match tag
        .strip_prefix("related_work[")
        .and_then(|r| r.strip_suffix(']'))
    {
        Some(sub) => format!("related work {sub}"),
        None => tag.replace('_', " "),
    }
}

/// The instruction appended after a failed draft: one paragraph per failed
/// check, then the closing request. Empty when all four pass.
pub fn reprompt(c: &Checks) -> String {
    if c.all_pass() {
        return String::new();
    }
    let mut s = String::from(
        "Your previous draft did not pass the checks. Fix the following, and only this.\n\n",
    );
    if !c.template.pass {
        for w in &c.template.missing {
            s.push_str(&format!("- The \\section{{{}}} heading is missing. Keep the template's heading exactly as it is.\n", w.name()));
        }
        for w in &c.template.empty {
            s.push_str(&format!("- The {} section is empty. Write it.\n", w.name()));
        }
        if !c.template.diff.is_empty() {
            s.push_str("- You changed the template outside the Introduction and Related Work sections. Everything else must be the template byte for byte. Undo these changes (lines with - are the template, lines with + are your draft):\n");
            s.push_str(&c.template.diff);
            if !c.template.diff.ends_with('\n') {
                s.push('\n');
            }
        }
        s.push('\n');
    }
    if !c.keys.pass {
        s.push_str("- These keys are not in the citation pool; you invented them. Remove each such citation or replace it with the key of a pool paper that supports the sentence:\n");
        for k in &c.keys.invented {
            s.push_str(&format!("    {}\n", one_line(k)));
        }
        s.push('\n');
    }
    if !c.coverage.pass {
        let n_missing: usize = {
            let mut keys: Vec<&str> = c
                .coverage
                .uncited_by_tag
                .iter()
                .flat_map(|g| g.papers.iter().map(|p| p.key.as_str()))
                .collect();
            keys.sort_unstable();
            keys.dedup();
            keys.len()
        };
        s.push_str(&format!(
            "- Your draft cites {} of the {} papers in the pool ({:.1}%); at least {} are required. Work in these {} uncited papers, each where the part of the paper it was found for discusses it:\n",
            c.coverage.n_cited,
            c.coverage.n_pool,
            c.coverage.percent,
            c.coverage.min_required,
            n_missing,
        ));
        let mut by_tag: BTreeMap<usize, &coverage::TagGroup> = BTreeMap::new();
        for (i, g) in c.coverage.uncited_by_tag.iter().enumerate() {
            by_tag.insert(i, g);
        }
        for g in by_tag.values() {
            s.push_str(&format!("  For {}:\n", one_line(&tag_label(&g.tag))));
            for p in &g.papers {
                s.push_str(&format!(
                    "    {} ({})\n",
                    one_line(&p.key),
                    one_line(&p.title)
                ));
            }
        }
        s.push('\n');
    }
    if !c.cutoff.pass {
        s.push_str("- These papers are dated on or after the research cutoff, so they are concurrent work, not baselines this work improves on. Rewrite the sentences that compare against them:\n");
        for cl in &c.cutoff.claims {
            s.push_str(&format!("    {}: {}\n", one_line(&cl.key), cl.sentence));
        }
        s.push('\n');
    }
    s.push_str("Keep every citation of a pool paper that is already there. Return the complete template.tex, with both sections filled in, in one ```latex block.\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "\\section{Introduction}\n\\section{Related Work}\n\\section{Method}\nM.\n";

    fn pool() -> Vec<PoolEntry> {
        [
            ("a", "intro"),
            ("b", "intro"),
            ("c", "related_work[2.1]"),
            ("d", "related_work[2.1]"),
            ("e", "related_work[2.2]"),
        ]
        .iter()
        .map(|(k, t)| PoolEntry {
            key: (*k).into(),
            title: format!("Paper {k}"),
            discovered_for: vec![(*t).into()],
        })
        .collect()
    }

    fn late() -> Vec<LatePaper> {
        vec![LatePaper {
            key: "e".into(),
            title: "Paper e".into(),
            date: "2025".into(),
        }]
    }

    fn draft(intro: &str, rw: &str) -> String {
        format!("\\section{{Introduction}}\n{intro}\n\\section{{Related Work}}\n{rw}\n\\section{{Method}}\nM.\n")
    }

    /// (draft, [template, keys, coverage, cutoff] pass flags, re-prompt must contain)
    fn check(draft: &str, passes: [bool; 4], reprompt_has: &[&str]) {
        let c = run(
            T,
            draft,
            &pool(),
            &late(),
            &Threshold::parse("0.9").unwrap(),
        );
        assert_eq!(
            [c.template.pass, c.keys.pass, c.coverage.pass, c.cutoff.pass],
            passes,
            "{draft:?}"
        );
        let r = reprompt(&c);
        for needle in reprompt_has {
            assert!(r.contains(needle), "{draft:?}: missing {needle:?} in\n{r}");
        }
        if passes == [true; 4] {
            assert!(r.is_empty());
        }
    }

    #[test]
    fn four_checks() {
        check(
            &draft("\\cite{a,b}.", "\\cite{c,d} and concurrent \\cite{e}."),
            [true; 4],
            &[],
        );
        check(
            &draft("\\cite{a,b}.", "\\cite{c,d,e,zz}."),
            [true, false, true, true],
            &["you invented them", "    zz\n"],
        );
        check(
            &draft("\\cite{a}.", "\\cite{c}."),
            [true, true, false, true],
            &[
                "cites 2 of the 5 papers in the pool (40.0%); at least 4",
                "For intro:\n    b (Paper b)\n",
                "For related work 2.1:\n    d (Paper d)\n",
                "For related work 2.2:\n    e (Paper e)\n",
            ],
        );
        check(
            &draft("\\cite{a,b}.", "\\cite{c,d}. We outperform \\cite{e}."),
            [true, true, true, false],
            &["e: We outperform \\cite{e}"],
        );
        check(
            &draft("\\cite{a,b}.", "\\cite{c,d,e}.").replace("M.\n", "Mine.\n"),
            [false, true, true, true],
            &["-M.\n+Mine.\n", "byte for byte"],
        );
        check(
            &draft("", "\\cite{a,b,c,d,e}."),
            [false, true, true, true],
            &["The Introduction section is empty"],
        );
        // Cites outside the two sections do not count.
        check(
            &format!("{}\\cite{{a,b,c,d}}\n", draft("x", "y")),
            [false, true, false, true],
            &["cites 0 of the 5"],
        );
    }

    #[test]
    fn late_papers_from_dates() {
        let p = |k: &str, y: Option<i32>, d: Option<&str>| PoolPaper {
            bibtex_key: Some(k.into()),
            year: y,
            publication_date: d.map(str::to_string),
            ..Default::default()
        };
        let cutoff = Date::parse_iso("2024-10-01").unwrap();
        let papers = vec![
            p("old", Some(2020), None),
            p("same_year", Some(2024), None),
            p("sept", Some(2024), Some("2024-09-30")),
            p("oct", Some(2024), Some("2024-10-01")),
            p("undated", None, None),
        ];
        let keys: Vec<String> = late_papers(&papers, cutoff)
            .into_iter()
            .map(|l| l.key)
            .collect();
        assert_eq!(keys, ["same_year", "oct"]);
    }
}
