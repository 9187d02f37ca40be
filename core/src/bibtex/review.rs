//! A person's review of the corrections: each [`Change`] accepted,
//! refused or not yet looked at, and the fixed `.bib` written from the
//! accepted ones only. A change nobody accepted is never applied.

use super::check::OnlineReport;
use super::parse::Bibliography;
use super::report::{fixed_bib_accepting, FixedBib};
use super::verdict::Change;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The decisions taken so far, by change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    decided: BTreeMap<String, bool>,
}

/// How many changes of a report are accepted, refused and still to review.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ReviewTally {
    /// Accepted: in the fixed `.bib`.
    pub accepted: usize,
    /// Refused: left as the entry writes it.
    pub refused: usize,
    /// Not looked at yet: left as written too.
    pub pending: usize,
}

/// A change's identity: its entry, its field and the value proposed, so a
/// decision never carries over to another proposal for the same field.
fn id(key: &str, change: &Change) -> String {
    format!("{key}\u{1f}{}\u{1f}{}", change.field, change.record)
}

impl Review {
    /// Accepts (`true`) or refuses (`false`) the change of entry `key`.
    pub fn decide(&mut self, key: &str, change: &Change, accepted: bool) {
        self.decided.insert(id(key, change), accepted);
    }

    /// The decision on a change: `None` while nobody looked at it.
    pub fn decision(&self, key: &str, change: &Change) -> Option<bool> {
        self.decided.get(&id(key, change)).copied()
    }

    /// Accepts every change of `online` not refused already.
    pub fn accept_rest(&mut self, online: &OnlineReport) {
        for e in &online.entries {
            for c in &e.changes {
                self.decided.entry(id(&e.key, c)).or_insert(true);
            }
        }
    }

    /// The changes of `online` by decision.
    pub fn tally(&self, online: &OnlineReport) -> ReviewTally {
        let mut t = ReviewTally::default();
        for e in &online.entries {
            for c in &e.changes {
                match self.decision(&e.key, c) {
                    Some(true) => t.accepted += 1,
                    Some(false) => t.refused += 1,
                    None => t.pending += 1,
                }
            }
        }
        t
    }

    /// `source` with the accepted changes set, every other byte as written.
    pub fn fixed_bib(&self, source: &str, bib: &Bibliography, online: &OnlineReport) -> FixedBib {
        fixed_bib_accepting(source, bib, online, |key, c| {
            self.decision(key, c) == Some(true)
        })
    }
}

impl ReviewTally {
    /// The tally in words, for the line beside the download.
    pub fn words(&self) -> String {
        let total = self.accepted + self.refused + self.pending;
        let noun = if total == 1 {
            "correction"
        } else {
            "corrections"
        };
        format!(
            "{total} {noun}: {} accepted, {} refused, {} to review",
            self.accepted, self.refused, self.pending
        )
    }
}
