//! Reviewer marks: a person who checked a flagged entry by hand says it is
//! confirmed (the flag stands) or a false alarm (the entry is right; the
//! check stops failing on it), with a note. A mark holds the fingerprint of
//! the entry it was made on, so a changed entry loses its mark and is judged
//! again.
//!
//! The edges read marks from where they keep them (the CLI from `--accept
//! FILE` or the `[accept]` table of a `citegate.toml` beside the
//! bibliography); the type, the fingerprint and the matching live here.

use super::check::OnlineReport;
use super::parse::{Bibliography, Entry};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What the reviewer found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MarkStatus {
    /// The flag is right: the entry stays flagged.
    Confirmed,
    /// The flag is wrong: the entry no longer fails the check.
    FalseAlarm,
}

/// One reviewer mark on one entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    /// The entry's key (in a `citegate.toml`, the name of the mark's table
    /// `[accept.KEY]`, which the reader sets here).
    #[serde(default)]
    pub key: String,
    /// Confirmed or false alarm.
    pub status: MarkStatus,
    /// Why, in the reviewer's words.
    #[serde(default)]
    pub note: String,
    /// [`fingerprint`] of the entry the mark was made on.
    pub fingerprint: String,
}

/// A mark applied to an entry, as the report shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Accepted {
    /// Confirmed or false alarm.
    pub status: MarkStatus,
    /// The reviewer's note.
    pub note: String,
    /// `accepted by a reviewer: NOTE` or `confirmed by a reviewer: NOTE`.
    pub message: String,
}

/// A mark that was not applied, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StaleMark {
    /// The mark's key.
    pub key: String,
    /// Why it was not applied, in words.
    pub message: String,
}

/// The fingerprint of an entry's content: its kind and every field (name
/// and value, white space collapsed, in name order), hashed with SHA-256 and
/// written as 16 hex digits. Moving an entry, reordering or reindenting its
/// fields keeps it; changing any value, adding or removing a field does not.
///
/// ```
/// use citegate_core::bibtex::{accept, parse};
/// let a = parse::parse("@article{k, title={A  Title}, year={2020}}");
/// let b = parse::parse("@article{k,\n  year = {2020},\n  title = {A Title}\n}");
/// let c = parse::parse("@article{k, title={A Title}, year={2021}}");
/// let f = |b: &parse::Bibliography| accept::fingerprint(&b.entries[0]);
/// assert_eq!(f(&a), f(&b));
/// assert_ne!(f(&a), f(&c));
/// assert_eq!(f(&a).len(), 16);
/// ```
pub fn fingerprint(entry: &Entry) -> String {
    let mut fields: Vec<(String, String)> = entry
        .fields
        .iter()
        .map(|f| {
            let value: Vec<&str> = f.value.split_whitespace().collect();
            (f.name.to_lowercase(), value.join(" "))
        })
        .collect();
    fields.sort();
    let mut h = Sha256::new();
    h.update(entry.kind.to_lowercase().as_bytes());
    for (name, value) in &fields {
        h.update(b"\n");
        h.update(name.as_bytes());
        h.update(b"=");
        h.update(value.as_bytes());
    }
    h.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Applies `marks` to the online verdicts of `bib` (made by
/// [`super::check::online_report`] over it): each mark whose key names an
/// entry with the same fingerprint is set on that entry's verdict; the
/// others go to the report's `stale_marks`, each with the reason (no such
/// entry; the entry changed since it was marked).
pub fn apply(online: &mut OnlineReport, bib: &Bibliography, marks: &[Mark]) {
    let stale = &mut online.stale_marks;
    for mark in marks {
        let Some((i, entry)) = bib
            .entries
            .iter()
            .enumerate()
            .find(|(_, e)| e.key == mark.key)
        else {
            stale.push(StaleMark {
                key: mark.key.clone(),
                message: format!(
                    "the mark on `{}` names no entry of the bibliography",
                    mark.key
                ),
            });
            continue;
        };
        let now = fingerprint(entry);
        if now != mark.fingerprint {
            stale.push(StaleMark {
                key: mark.key.clone(),
                message: format!(
                    "the entry `{}` changed since it was marked (fingerprint {} was {}): it is judged again",
                    mark.key, now, mark.fingerprint
                ),
            });
            continue;
        }
        if let Some(e) = online.entries.get_mut(i) {
            let said = match mark.status {
                MarkStatus::Confirmed => "confirmed by a reviewer",
                MarkStatus::FalseAlarm => "accepted by a reviewer",
            };
            e.accepted = Some(Accepted {
                status: mark.status,
                note: mark.note.clone(),
                message: if mark.note.trim().is_empty() {
                    said.to_string()
                } else {
                    format!("{said}: {}", mark.note.trim())
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bibtex::check::{OnlineEntry, OnlineReport};
    use crate::bibtex::parse::parse;
    use crate::bibtex::verdict::{Class, Verdict};

    const BIB: &str = "@misc{tool, title={A Tool}, url={https://x.org}}\n@article{odd, title={An Odd Paper}, journal={J}, year={2020}}\n";

    fn report(bib: &Bibliography) -> OnlineReport {
        let entries = bib
            .entries
            .iter()
            .map(|e| OnlineEntry {
                key: e.key.clone(),
                line: e.line,
                verdict: Verdict::Uncertain,
                class: Class::Unverified,
                reasons: vec![],
                outcome: "unverified",
                summary: String::new(),
                corrected: None,
                changes: Vec::new(),
                notices: vec![],
                fingerprint: fingerprint(e),
                accepted: None,
                evidence: vec![],
                raw: None,
            })
            .collect();
        OnlineReport {
            valid: 0,
            hallucinated: 0,
            uncertain: bib.entries.len(),
            classes: Default::default(),
            requests: 0,
            from_cache: 0,
            stale_marks: vec![],
            entries,
        }
    }

    fn mark(key: &str, status: MarkStatus, fingerprint: &str) -> Mark {
        Mark {
            key: key.into(),
            status,
            note: "checked the repository by hand".into(),
            fingerprint: fingerprint.into(),
        }
    }

    /// (marks, expected accepted message per entry, expected stale keys, passes)
    fn check(marks: &[Mark], accepted: [Option<&str>; 2], stale: &[&str], passes: bool) {
        let bib = parse(BIB);
        let mut online = report(&bib);
        apply(&mut online, &bib, marks);
        let left = &online.stale_marks;
        let got: Vec<Option<&str>> = online
            .entries
            .iter()
            .map(|e| e.accepted.as_ref().map(|a| a.message.as_str()))
            .collect();
        assert_eq!(got, accepted, "{marks:?}");
        let keys: Vec<&str> = left.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, stale, "{marks:?}");
        assert_eq!(online.passes(), passes, "{marks:?}");
    }

    #[test]
    fn marks_apply_only_to_the_entry_they_were_made_on() {
        use MarkStatus::{Confirmed, FalseAlarm};
        let bib = parse(BIB);
        let (tool, odd) = (fingerprint(&bib.entries[0]), fingerprint(&bib.entries[1]));
        let ok = "accepted by a reviewer: checked the repository by hand";
        check(&[], [None, None], &[], false);
        check(
            &[mark("tool", FalseAlarm, &tool)],
            [Some(ok), None],
            &[],
            false,
        );
        // Every flagged entry accepted as a false alarm: the check passes.
        check(
            &[
                mark("tool", FalseAlarm, &tool),
                mark("odd", FalseAlarm, &odd),
            ],
            [Some(ok), Some(ok)],
            &[],
            true,
        );
        // A confirmed flag stays a failure.
        check(
            &[
                mark("tool", FalseAlarm, &tool),
                mark("odd", Confirmed, &odd),
            ],
            [
                Some(ok),
                Some("confirmed by a reviewer: checked the repository by hand"),
            ],
            &[],
            false,
        );
        // A changed entry (another fingerprint) and an unknown key lose their marks.
        check(
            &[
                mark("tool", FalseAlarm, &odd),
                mark("gone", FalseAlarm, &tool),
            ],
            [None, None],
            &["tool", "gone"],
            false,
        );
    }

    #[test]
    fn stale_marks_say_why() {
        let bib = parse(BIB);
        let mut online = report(&bib);
        apply(
            &mut online,
            &bib,
            &[mark("tool", MarkStatus::FalseAlarm, "0000000000000000")],
        );
        assert_eq!(
            online.stale_marks[0].message,
            format!(
                "the entry `tool` changed since it was marked (fingerprint {} was 0000000000000000): it is judged again",
                fingerprint(&bib.entries[0])
            )
        );
    }
}
