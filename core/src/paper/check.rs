//! "Are this paper's references real, and do they say what their records
//! say?" — the same report as a `.bib`'s ([`crate::bibtex::check`]), over
//! the references read from the paper.
//!
//! A `.bib`, CSL-JSON or RIS file gets every layer-1 check, as
//! `bibcheck` gives it. References read from a paper's text get none of
//! the BibTeX format rules (a printed reference has no fields to be
//! missing), only the online layers, each entry marked as parsed so the
//! verdict rules allow for the parse, and each online entry carries the
//! reference's `raw` text.

use super::{Format, PaperRefs};
use crate::bibtex::check::{self, FileReport, OnlineReport};
use crate::cutoff::Date;
use crate::resolve;

/// Layer 1 of a paper's references: the `.bib` checks for a bibliography
/// file, none for references read from text. `now_year` is the year the
/// check runs.
pub fn offline_report(refs: &PaperRefs, now_year: i32) -> FileReport {
    let bib = refs.bibliography();
    if refs.format == Format::Bibliography {
        check::check_file(&refs.file, &bib, None, now_year)
    } else {
        check::finish(&refs.file, &bib, None, Vec::new())
    }
}

/// What the verification engine looks up, one per reference, in order
/// (drive a [`resolve::Run`] over them).
pub fn references(refs: &PaperRefs) -> Vec<resolve::Reference> {
    check::references(&refs.bibliography())
}

/// Layers 2–4 from a finished run over [`references`]: the `.bib`'s
/// verdicts, each entry with the reference's raw text.
pub fn online_report(
    refs: &PaperRefs,
    run: &resolve::Report,
    today: Date,
    requests: usize,
    from_cache: usize,
) -> OnlineReport {
    let mut report = check::online_report(&refs.bibliography(), run, today, requests, from_cache);
    for (entry, r) in report.entries.iter_mut().zip(&refs.references) {
        if r.source != super::Source::Bibliography {
            entry.raw = Some(r.raw.clone());
        }
    }
    report
}
