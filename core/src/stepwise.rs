//! Long work a step at a time: the one shape of every sliced job, so a
//! caller that must not block (the browser page, which yields to the event
//! loop between slices) drives them all with one loop.
//!
//! A job does a bounded amount of work per [`Stepwise::step`], reports how
//! far it is with [`Stepwise::progress`], and gives its result with
//! [`Stepwise::finish`] (which does whatever is left). For every job here,
//! any sequence of steps then `finish` gives exactly what the all-at-once
//! function gives; the tests below check that through the trait.
//!
//! The jobs: pre-dedup of the pool's candidates ([`PreDedupRun`]), the
//! BibTeX reader ([`parse::Incremental`]) and the BibTeX layer-1 checks
//! ([`format::Layer1`]).

use crate::bibtex::{format, parse};
use crate::candidates::{PreDedup, PreDedupRun};

/// A job done a step at a time.
pub trait Stepwise {
    /// What the finished job gives.
    type Output;

    /// Does at most about `budget` units of work (the unit is the job's:
    /// candidates, bytes, entries; at least one unit); `true` once done.
    fn step(&mut self, budget: usize) -> bool;

    /// Units done so far and the total, for a progress bar.
    fn progress(&self) -> (usize, usize);

    /// Does what is left and gives the result.
    fn finish(self) -> Self::Output
    where
        Self: Sized;
}

/// Runs `job` to the end in steps of `budget`, calling `on_step` with its
/// progress after each step that did not finish it.
pub fn run_in_steps<S: Stepwise>(
    mut job: S,
    budget: usize,
    mut on_step: impl FnMut((usize, usize)),
) -> S::Output {
    while !job.step(budget) {
        on_step(job.progress());
    }
    job.finish()
}

impl Stepwise for PreDedupRun {
    type Output = PreDedup;

    /// The unit is a candidate compared with the rest.
    fn step(&mut self, budget: usize) -> bool {
        PreDedupRun::step(self, budget)
    }

    fn progress(&self) -> (usize, usize) {
        PreDedupRun::progress(self)
    }

    fn finish(self) -> PreDedup {
        PreDedupRun::finish(self)
    }
}

impl Stepwise for parse::Incremental<'_> {
    type Output = parse::Bibliography;

    /// The unit is a byte of the text (whole items are read).
    fn step(&mut self, budget: usize) -> bool {
        parse::Incremental::step(self, budget)
    }

    fn progress(&self) -> (usize, usize) {
        parse::Incremental::progress(self)
    }

    fn finish(self) -> parse::Bibliography {
        parse::Incremental::finish(self)
    }
}

impl Stepwise for format::Layer1<'_> {
    type Output = Vec<format::Finding>;

    /// The unit is an entry checked.
    fn step(&mut self, budget: usize) -> bool {
        format::Layer1::step(self, budget)
    }

    fn progress(&self) -> (usize, usize) {
        format::Layer1::progress(self)
    }

    fn finish(self) -> Vec<format::Finding> {
        format::Layer1::finish(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::{self, Candidate};

    /// Drives `make()` through the trait at every budget in `budgets` and
    /// checks that each gives `expected`, that progress never goes back and
    /// never passes the total.
    fn check<S: Stepwise>(make: impl Fn() -> S, budgets: &[usize], expected: &S::Output)
    where
        S::Output: PartialEq + std::fmt::Debug,
    {
        for &budget in budgets {
            let mut last = (0, 0);
            let got = run_in_steps(make(), budget, |(at, total)| {
                assert!(at >= last.0 && at <= total, "{at}/{total} after {last:?}");
                last = (at, total);
            });
            assert_eq!(&got, expected, "budget {budget}");
        }
    }

    fn cand(title: &str) -> Candidate {
        serde_json::from_value(serde_json::json!({ "title": title })).unwrap()
    }

    #[test]
    fn pre_dedup_in_steps_is_pre_dedup() {
        let list: Vec<Candidate> = [
            "Attention Is All You Need",
            "Deep Residual Learning",
            "attention is all you need.",
            "Deep Residual Learning for Image Recognition",
            "Attention is all you need!",
            "BERT",
        ]
        .into_iter()
        .map(cand)
        .collect();
        let expected = candidates::pre_dedup(list.clone());
        check(
            || PreDedupRun::new(list.clone(), candidates::PRE_DEDUP_THRESHOLD),
            &[1, 2, 1000],
            &expected,
        );
    }

    const BIB: &str = "@string{j = {Journal}}\n@article{a, title={A}, journal=j, year=2020}\n\
        @misc{b, title={B}}\n@article{a, title={A again}}\n@book{c, title={C}, year={3000}}\n";

    #[test]
    fn bibtex_reading_in_steps_is_parse() {
        check(
            || parse::Incremental::new(BIB),
            &[1, 7, 1 << 20],
            &parse::parse(BIB),
        );
    }

    #[test]
    fn layer_one_in_steps_is_check_entries() {
        let bib = parse::parse(BIB);
        let expected = format::check_entries(&bib, 2026);
        assert!(!expected.is_empty());
        check(|| format::Layer1::new(&bib, 2026), &[1, 2, 100], &expected);
    }
}
