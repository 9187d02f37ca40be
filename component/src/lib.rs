//! citegate-core as a WebAssembly component: the `citegate` world of
//! `wit/citegate.wit`, built for `wasm32-wasip2` (`component/build.sh`).
//!
//! Like the JavaScript crate (`js/crate/`, `citegate-js`), this crate only converts:
//! WIT records in, core calls, WIT records out. Every decision is the core's.

use citegate_core::bibtex::{self, format};
use citegate_core::{coverage, cutoff, pool, search, tex, title, works};
use exports::citegate::core::checks::{self as wit, Guest};
use std::collections::{BTreeMap, HashSet};

wit_bindgen::generate!({
    world: "citegate",
    path: "../wit",
});

struct Component;
export!(Component);

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn error(e: citegate_core::Error) -> wit::Error {
    let kind = serde_json::to_value(e.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    wit::Error {
        kind,
        message: e.message,
        line: e.location.line.map(u32_of),
        column: e.location.column.map(u32_of),
        index: e.location.index.map(u32_of),
        field: e.location.field.clone(),
    }
}

/// A serde enum's name (`missing_field`), as the JSON output writes it.
fn name_of<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl Guest for Component {
    fn title_score(candidate: String, found: String, substring_bypass: bool) -> i32 {
        i32::try_from(title::score(&candidate, &found, substring_bypass)).unwrap_or(0)
    }

    fn match_titles(
        candidate: String,
        found: String,
        substring_bypass: bool,
        threshold: i32,
    ) -> wit::TitleMatch {
        let m = title::match_titles(&candidate, &found, substring_bypass, i64::from(threshold));
        wit::TitleMatch {
            score: i32::try_from(m.score).unwrap_or(0),
            ratio: m.ratio,
            pass: m.pass,
        }
    }

    fn check_cutoff(paper_date: String, cutoff: String) -> Result<wit::CutoffCheck, wit::Error> {
        let paper = cutoff::PaperDate::parse(&paper_date).map_err(error)?;
        let day = cutoff::Date::parse_iso(&cutoff).map_err(error)?;
        let c = cutoff::check(paper, day);
        Ok(wit::CutoffCheck {
            paper: c.paper.to_string(),
            cutoff: c.cutoff.to_string(),
            pass: c.pass,
        })
    }

    fn parse_bibliography(name: String, text: String) -> wit::Bibliography {
        let bib = bibtex::read_bibliography(&name, &text);
        wit::Bibliography {
            entries: bib
                .entries
                .into_iter()
                .map(|e| wit::Entry {
                    kind: e.kind,
                    key: e.key,
                    line: u32_of(e.line),
                    fields: e.fields.into_iter().map(|f| (f.name, f.value)).collect(),
                })
                .collect(),
            problems: bib.problems.into_iter().map(|p| error(p.error)).collect(),
        }
    }

    fn check_bibliography(name: String, text: String, now_year: i32) -> Vec<wit::Finding> {
        let bib = bibtex::read_bibliography(&name, &text);
        format::check_entries(&bib, now_year)
            .into_iter()
            .map(|f| wit::Finding {
                severity: match f.severity {
                    format::Severity::Error => wit::Severity::Error,
                    format::Severity::Warning => wit::Severity::Warning,
                },
                code: name_of(&f.code),
                key: f.key,
                line: f.line.map(u32_of),
                field: f.field,
                message: f.message,
                suggestion: f.suggestion,
            })
            .collect()
    }

    fn coverage_gate(
        pool_json: String,
        files: Vec<wit::TexFile>,
        roots: Vec<String>,
        threshold: String,
    ) -> Result<wit::Coverage, wit::Error> {
        let papers = pool::parse_dedupe_input(&pool_json).map_err(error)?;
        let files: BTreeMap<String, String> = files.into_iter().map(|f| (f.name, f.text)).collect();
        let roots = if roots.is_empty() {
            files.keys().cloned().collect()
        } else {
            roots
        };
        let project = tex::scan_project(&roots, &files);
        let threshold = coverage::Threshold::parse(if threshold.is_empty() {
            coverage::DEFAULT_THRESHOLD
        } else {
            &threshold
        })
        .map_err(error)?;
        let cites = coverage::cites_of(&project);
        let (c, _unkeyed) = coverage::check_pool(&papers, &cites, &threshold).map_err(error)?;
        Ok(wit::Coverage {
            pass: c.pass,
            n_pool: u32_of(c.n_pool),
            n_cited: u32_of(c.n_cited),
            min_required: u32_of(c.min_required),
            summary: coverage::summary_line(&c, &threshold),
            report_json: serde_json::to_string(&c).unwrap_or_default(),
        })
    }

    fn fuse(lists_json: String, library_dois: Vec<String>) -> Result<String, wit::Error> {
        #[derive(serde::Deserialize)]
        struct ListIn {
            service: works::Service,
            works: Vec<works::Work>,
        }
        let lists: Vec<ListIn> =
            serde_json::from_str(&lists_json).map_err(|e| error(citegate_core::Error::json(&e)))?;
        let library: HashSet<String> = library_dois
            .iter()
            .filter_map(|d| works::doi_key(d))
            .collect();
        let refs: Vec<(works::Service, &[works::Work])> = lists
            .iter()
            .map(|l| (l.service, l.works.as_slice()))
            .collect();
        Ok(serde_json::to_string(&search::fuse(&refs, &library)).unwrap_or_default())
    }
}
