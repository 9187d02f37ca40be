//! The writing prompt, filled from a citation pool.
//!
//! The pool is only worth building if the writing step is held to it, so
//! the prompt states the paper's rules as hard constraints: cite only the
//! pool, cite at least ⌊0.9 · n⌋ of its n papers, treat nothing dated on or
//! after the cutoff as a baseline to beat, and claim no win over a paper the
//! experimental log does not evaluate. The default template is worded here;
//! a user can bring their own. Templates use Python's `str.format` syntax —
//! the syntax of the paper's own prompt — so one written for the reference
//! pipeline works unchanged: `{paper_count}`, `{min_cite_paper_count}` and
//! `{cutoff_date}` are replaced, `{{` and `}}` stand for single braces, and
//! any other `{name}` is an error that names its line and column rather
//! than a prompt sent with a hole in it.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::pool::{min_cite_count, Pool};
use serde::Serialize;

/// The default writing prompt (our wording of the paper's rules).
pub const DEFAULT_TEMPLATE: &str = r"You are drafting the Introduction and Related Work of a research paper.

You receive: the LaTeX skeleton of the paper (fill in only those two
sections and return every other line unchanged), a plan for the two
sections, the project's idea and experimental log, and the verified
citation pool (each paper with its citation key and abstract).

Citation rules — each one is checked after you answer:
  1. Cite only papers from the citation pool, by their keys, written as
     \cite{{key}}. A key that is not in the pool is an error; do not add
     any paper of your own.
  2. The pool holds {paper_count} papers. Cite at least
     {min_cite_paper_count} of them across the two sections. Use the
     Introduction for the broad problem, key figures and foundational work,
     and Related Work for close comparison, grouping similar methods in one
     citation.
  3. Base what you say about a paper on its abstract in the pool.
  4. Research cutoff: {cutoff_date}. A paper published on or after that
     date is concurrent work. Never present it as a prior baseline that
     this work improves on.
  5. Claim that this work beats a cited paper, or is state of the art
     against it, only if that paper is evaluated in the experimental log.
     Describe every other paper as concurrent, orthogonal or conceptually
     related work.

Return the complete LaTeX file in one ```latex block.
";

/// The values a template is filled with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PromptValues {
    /// The number of papers in the pool.
    pub paper_count: usize,
    /// `floor(0.9 · paper_count)`.
    pub min_cite_paper_count: u64,
    /// The research cutoff, `YYYY-MM-DD`.
    pub cutoff_date: String,
}

impl PromptValues {
    /// The values for a pool and a cutoff. The minimum is always recomputed
    /// from the pool's size, so a stale `min_cite_paper_count` cannot leak in.
    pub fn from_pool(pool: &Pool, cutoff: crate::cutoff::Date) -> Self {
        PromptValues {
            paper_count: pool.papers.len(),
            min_cite_paper_count: min_cite_count(pool.papers.len()),
            cutoff_date: cutoff.to_string(),
        }
    }
}

fn template_error(msg: String, line: usize, column: usize) -> Error {
    Error::new(ErrorKind::InvalidValue, msg).at(Location::default().at(line, column))
}

/// Fills a template in `str.format` syntax with the three placeholders.
///
/// ```
/// use citegate_core::prompt::{fill, PromptValues};
/// let v = PromptValues { paper_count: 22, min_cite_paper_count: 19, cutoff_date: "2024-10-01".into() };
/// assert_eq!(fill("cite {min_cite_paper_count} of {paper_count}, \\cite{{k}}", &v).unwrap(),
///            "cite 19 of 22, \\cite{k}");
/// assert!(fill("{unknown}", &v).is_err());
/// ```
pub fn fill(template: &str, values: &PromptValues) -> Result<String> {
    let mut out = String::with_capacity(template.len() + 32);
    let mut chars = template.chars().peekable();
    let (mut line, mut col) = (1usize, 1usize);
    while let Some(c) = chars.next() {
        let (at_line, at_col) = (line, col);
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                col += 1;
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                col += 1;
                out.push('}');
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                for n in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                        col = 1;
                    } else {
                        col += 1;
                    }
                    if n == '}' {
                        closed = true;
                        break;
                    }
                    name.push(n);
                }
                if !closed {
                    return Err(template_error(
                        "a `{` is never closed (write `{{` for a literal brace)".into(),
                        at_line,
                        at_col,
                    ));
                }
                match name.trim() {
                    "paper_count" => out.push_str(&values.paper_count.to_string()),
                    "min_cite_paper_count" => {
                        out.push_str(&values.min_cite_paper_count.to_string())
                    }
                    "cutoff_date" => out.push_str(&values.cutoff_date),
                    other => {
                        return Err(template_error(
                            format!(
                                "unknown placeholder `{{{other}}}` (known: paper_count, min_cite_paper_count, cutoff_date; write `{{{{` for a literal brace)"
                            ),
                            at_line,
                            at_col,
                        ))
                    }
                }
            }
            '}' => {
                return Err(template_error(
                    "a lone `}` (write `}}` for a literal brace)".into(),
                    at_line,
                    at_col,
                ))
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> PromptValues {
        PromptValues {
            paper_count: 22,
            min_cite_paper_count: 19,
            cutoff_date: "2024-10-01".into(),
        }
    }

    fn check(template: &str, expected: std::result::Result<&str, (usize, usize)>) {
        let got = fill(template, &values())
            .map_err(|e| (e.location.line.unwrap_or(0), e.location.column.unwrap_or(0)));
        assert_eq!(got.as_deref().map_err(|e| *e), expected, "{template:?}");
    }

    #[test]
    fn fills_placeholders() {
        check("{paper_count}", Ok("22"));
        check("at least {min_cite_paper_count}", Ok("at least 19"));
        check("after {cutoff_date}.", Ok("after 2024-10-01."));
        check(r"\cite{{key}}", Ok(r"\cite{key}"));
        check("no braces", Ok("no braces"));
        check("a\n  {oops}", Err((2, 3)));
        check("x }", Err((1, 3)));
        check("{never", Err((1, 1)));
        check("", Ok(""));
    }

    #[test]
    fn default_template_carries_every_rule() {
        let text = fill(DEFAULT_TEMPLATE, &values()).unwrap();
        for needle in [
            "Cite only papers from the citation pool",
            "The pool holds 22 papers",
            "at least\n     19 of them",
            "Research cutoff: 2024-10-01",
            "evaluated in the experimental log",
            r"\cite{key}",
        ] {
            assert!(text.contains(needle), "missing {needle:?}");
        }
        assert!(!text.contains('{') || text.contains(r"\cite{key}"));
    }

    /// The paper's own prompt is written in `str.format` syntax; a template
    /// in that style must fill without errors.
    #[test]
    fn reference_style_template_fills() {
        let t = "You have access to the abstract of {paper_count} collected papers.\n\
                 You MUST cite at least {min_cite_paper_count} of them.\n\
                 Ensure every \\cite{{key}} exists. Do not treat papers after {cutoff_date} as baselines.\n\
                 \\usepackage[capitalize]{{cleveref}}";
        let text = fill(t, &values()).unwrap();
        assert!(text.contains("abstract of 22 collected"));
        assert!(text.contains("\\usepackage[capitalize]{cleveref}"));
    }
}
