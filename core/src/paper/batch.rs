//! "Which of these thousand papers cite works that are not there?" — many
//! papers checked one by one as [`super::check`] checks one, gathered into
//! one report a program chair reads, ordered by what needs a look.
//!
//! A [`Paper`] is one paper's result: its entries in the `check --json`
//! shape (kept as that JSON, so the batch's `report.json` is exactly what
//! `check --json` gives per entry) with the parts a summary reads (class,
//! title, the reason in words, the evidence in lines), or the error that
//! kept it from being checked. It is also one line of the batch's
//! checkpoint ([`Paper::checkpoint_line`], [`read_checkpoint`]): a line is
//! whole JSON or ignored, so a file cut short by a kill loses at most the
//! paper being written. [`Report`] orders the papers by their flags.

use super::PaperRefs;
use crate::bibtex::check::{OnlineEntry, OnlineReport};
use crate::bibtex::verdict::{Class, ClassCounts};
use crate::resolve::Route;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A stable fingerprint of a paper's inputs: its files' paths and bytes, in
/// the order given (a changed file is a different paper to the checkpoint).
pub fn fingerprint(parts: &[(&str, &[u8])]) -> String {
    let mut h = Sha256::new();
    for (path, bytes) in parts {
        h.update((path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Which of `n` shares a paper named `name` falls in (`0..n`): a stable
/// hash of the name, the same on every machine and version, so `n`
/// machines each taking one share check every paper once.
pub fn share_of(name: &str, n: u64) -> u64 {
    let digest = Sha256::digest(name.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first) % n.max(1)
}

/// A class written by its name ([`Class::name`]), read back the same way.
mod class_name {
    use super::Class;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Class, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Class, D::Error> {
        let name = String::deserialize(d)?;
        Class::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown class `{name}`")))
    }
}

/// One entry of a paper in a batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The entry's key.
    pub key: String,
    /// The verdict's name (`valid`, `hallucinated`, `uncertain`).
    pub verdict: String,
    /// What a chair does with it.
    #[serde(with = "class_name")]
    pub class: Class,
    /// The title the paper gives, when one was read.
    pub title: Option<String>,
    /// Why, in words: the reasons, or the resolver's summary when there
    /// are none and the entry is not valid; empty for a valid entry.
    pub reason: String,
    /// The resolver's decision in words.
    pub summary: String,
    /// What each source answered, one line each.
    pub evidence: Vec<String>,
    /// The reference as printed, when read from a paper's text.
    pub raw: Option<String>,
    /// The entry exactly as `check --json` writes it.
    pub json: Value,
}

fn route_name(r: Route) -> &'static str {
    match r {
        Route::Doi => "doi",
        Route::Arxiv => "arxiv",
        Route::Title => "title",
    }
}

impl Entry {
    /// The batch entry of a `check` entry whose reference has `title`.
    pub fn of(e: &OnlineEntry, title: Option<String>) -> Entry {
        let reason = if e.reasons.is_empty() {
            if e.class == Class::Valid {
                String::new()
            } else {
                e.summary.clone()
            }
        } else {
            e.reasons
                .iter()
                .map(|r| r.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        };
        let evidence = e
            .evidence
            .iter()
            .map(|ev| {
                let mut line = format!(
                    "{} by {} `{}`: {}",
                    ev.source,
                    route_name(ev.route),
                    ev.asked,
                    ev.answered
                );
                if let Some(d) = &ev.dump {
                    line.push_str(&format!(" ({d})"));
                }
                if let Some(w) = ev.records.first() {
                    let t = if w.title.is_empty() {
                        "(no title)"
                    } else {
                        w.title.as_str()
                    };
                    match &w.published {
                        Some(p) => line.push_str(&format!(": {t} ({})", p.year)),
                        None => line.push_str(&format!(": {t}")),
                    }
                    if ev.records.len() > 1 {
                        line.push_str(&format!(" and {} more", ev.records.len() - 1));
                    }
                }
                if let Some(err) = &ev.error {
                    line.push_str(&format!(": {}", err.message));
                }
                line
            })
            .collect();
        Entry {
            key: e.key.clone(),
            verdict: serde_json::to_value(e.verdict)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            class: e.class,
            title,
            reason,
            summary: e.summary.clone(),
            evidence,
            raw: e.raw.clone(),
            json: serde_json::to_value(e).unwrap_or(Value::Null),
        }
    }
}

/// One paper of a batch: checked, or the error that stopped it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paper {
    /// The paper's name: its path under the batch's input, or `arXiv:ID`.
    pub file: String,
    /// [`fingerprint`] of its inputs.
    pub fingerprint: String,
    /// Whether it was checked without sending requests.
    pub offline: bool,
    /// Why it could not be checked (unreadable, no bibliography).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its entries in file order.
    #[serde(default)]
    pub entries: Vec<Entry>,
}

impl Paper {
    /// A paper checked: `online` is [`super::check::online_report`] over
    /// `refs`.
    pub fn checked(
        fingerprint: String,
        offline: bool,
        refs: &PaperRefs,
        online: &OnlineReport,
    ) -> Paper {
        let entries = online
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let title = refs.references.get(i).and_then(|r| r.title.clone());
                Entry::of(e, title)
            })
            .collect();
        Paper {
            file: refs.file.clone(),
            fingerprint,
            offline,
            error: None,
            entries,
        }
    }

    /// A paper that could not be checked, for `reason`.
    pub fn failed(file: String, fingerprint: String, offline: bool, reason: String) -> Paper {
        Paper {
            file,
            fingerprint,
            offline,
            error: Some(reason),
            entries: Vec::new(),
        }
    }

    /// Its entries in each class.
    pub fn classes(&self) -> ClassCounts {
        let mut c = ClassCounts::default();
        for e in &self.entries {
            c.add(e.class);
        }
        c
    }

    /// Entries a chair must look at: fabricated, miscited or retracted.
    pub fn flagged(&self) -> usize {
        let c = self.classes();
        c.fabricated + c.miscited + c.retracted
    }

    /// The paper as one checkpoint line: JSON and a newline, nothing else.
    pub fn checkpoint_line(&self) -> String {
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }
}

/// The papers of a checkpoint file's text, one a line. A line that is not
/// a whole paper (the last one, cut by a kill) is skipped; a later line for
/// the same file replaces an earlier one.
pub fn read_checkpoint(text: &str) -> Vec<Paper> {
    let mut out: Vec<Paper> = Vec::new();
    for line in text.lines() {
        let Ok(p) = serde_json::from_str::<Paper>(line) else {
            continue;
        };
        match out.iter_mut().find(|q| q.file == p.file) {
            Some(q) => *q = p,
            None => out.push(p),
        }
    }
    out
}

/// A batch's papers, most flagged first.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The papers in report order.
    pub papers: Vec<Paper>,
}

impl Report {
    /// The report over `papers`, ordered: most flagged entries first, then
    /// papers that could not be checked, then most unverified, then by name.
    pub fn new(mut papers: Vec<Paper>) -> Report {
        papers.sort_by(|a, b| {
            b.flagged()
                .cmp(&a.flagged())
                .then(b.error.is_some().cmp(&a.error.is_some()))
                .then(b.classes().unverified.cmp(&a.classes().unverified))
                .then(a.file.cmp(&b.file))
        });
        Report { papers }
    }

    /// Entries of every paper in each class.
    pub fn totals(&self) -> ClassCounts {
        let mut c = ClassCounts::default();
        for e in self.papers.iter().flat_map(|p| &p.entries) {
            c.add(e.class);
        }
        c
    }

    /// Papers that could not be checked.
    pub fn failed(&self) -> usize {
        self.papers.iter().filter(|p| p.error.is_some()).count()
    }
}

/// One paper as `report.json` writes it.
#[derive(Serialize)]
struct PaperJson<'a> {
    file: &'a str,
    references: usize,
    classes: ClassCounts,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    entries: Vec<&'a Value>,
}

impl Serialize for Report {
    /// `{"papers": [{"file", "references", "classes", "error"?, "entries":
    /// [the check --json entries]}], "totals", "failed"}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let papers: Vec<PaperJson<'_>> = self
            .papers
            .iter()
            .map(|p| PaperJson {
                file: &p.file,
                references: p.entries.len(),
                classes: p.classes(),
                error: p.error.as_deref(),
                entries: p.entries.iter().map(|e| &e.json).collect(),
            })
            .collect();
        let mut st = s.serialize_struct("Report", 3)?;
        st.serialize_field("papers", &papers)?;
        st.serialize_field("totals", &self.totals())?;
        st.serialize_field("failed", &self.failed())?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, class: Class) -> Entry {
        Entry {
            key: key.into(),
            verdict: "valid".into(),
            class,
            title: Some(format!("title of {key}")),
            reason: String::new(),
            summary: String::new(),
            evidence: vec![],
            raw: None,
            json: serde_json::json!({"key": key, "class": class.name()}),
        }
    }

    fn paper(file: &str, classes: &[Class]) -> Paper {
        Paper {
            file: file.into(),
            fingerprint: "f".into(),
            offline: true,
            error: None,
            entries: classes
                .iter()
                .enumerate()
                .map(|(i, c)| entry(&format!("k{i}"), *c))
                .collect(),
        }
    }

    #[test]
    fn papers_are_ordered_by_flags_then_errors_then_unverified_then_name() {
        use Class::*;
        let failed = Paper::failed("broken.pdf".into(), "f".into(), true, "no text".into());
        let r = Report::new(vec![
            paper("a.bib", &[Valid, Valid]),
            paper("b.bib", &[Unverified, Valid]),
            failed,
            paper("c.bib", &[Miscited, Valid]),
            paper("d.bib", &[Fabricated, Retracted, Miscited]),
            paper("e.bib", &[Fabricated, Valid]),
        ]);
        let order: Vec<&str> = r.papers.iter().map(|p| p.file.as_str()).collect();
        assert_eq!(
            order,
            ["d.bib", "c.bib", "e.bib", "broken.pdf", "b.bib", "a.bib"]
        );
        assert_eq!(r.totals().fabricated, 2);
        assert_eq!(r.failed(), 1);
    }

    #[test]
    fn a_checkpoint_line_reads_back_and_a_torn_line_is_skipped() {
        let a = paper("a.bib", &[Class::Miscited, Class::Valid]);
        let b = paper("b.bib", &[Class::Fabricated]);
        let line_b = b.checkpoint_line();
        let torn = &line_b[..line_b.len() / 2];
        let text = format!("{}{torn}", a.checkpoint_line());
        assert_eq!(read_checkpoint(&text), vec![a.clone()]);
        // A later line for the same paper replaces the earlier.
        let a2 = paper("a.bib", &[Class::Valid]);
        let text = format!("{}{}{}", a.checkpoint_line(), line_b, a2.checkpoint_line());
        assert_eq!(read_checkpoint(&text), vec![a2, b]);
        // An unknown class is not a paper.
        let bad = a.checkpoint_line().replace("\"miscited\"", "\"weird\"");
        assert!(read_checkpoint(&bad).is_empty());
    }

    #[test]
    fn the_fingerprint_changes_with_a_path_or_a_byte() {
        let f = fingerprint(&[("a.bib", b"@x{k}")]);
        assert_eq!(f.len(), 32);
        assert_eq!(f, fingerprint(&[("a.bib", b"@x{k}")]));
        assert_ne!(f, fingerprint(&[("b.bib", b"@x{k}")]));
        assert_ne!(f, fingerprint(&[("a.bib", b"@x{l}")]));
        // Paths and bytes are framed: moving a byte across is a change.
        assert_ne!(fingerprint(&[("ab", b"c")]), fingerprint(&[("a", b"bc")]));
    }

    #[test]
    fn shares_cover_every_paper_once_and_are_stable() {
        let names: Vec<String> = (0..200).map(|i| format!("paper{i}.pdf")).collect();
        let shares: Vec<u64> = names.iter().map(|n| share_of(n, 4)).collect();
        assert!(shares.iter().all(|s| *s < 4));
        for s in 0..4 {
            let count = shares.iter().filter(|x| **x == s).count();
            assert!((25..=75).contains(&count), "share {s} holds {count} of 200");
        }
        // Fixed values (SHA-256's first 8 bytes, little-endian, mod 4, as
        // any tool can compute them): a machine of another build agrees.
        assert_eq!(share_of("paper0.pdf", 4), 1);
        assert_eq!(share_of("a.bib", 4), 3);
        assert_eq!(share_of("anything", 1), 0);
        assert_eq!(share_of("anything", 0), 0);
    }

    #[test]
    fn the_report_json_holds_each_entry_as_check_writes_it() {
        let r = Report::new(vec![paper("a.bib", &[Class::Fabricated])]);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["papers"][0]["file"], "a.bib");
        assert_eq!(v["papers"][0]["references"], 1);
        assert_eq!(v["papers"][0]["classes"]["fabricated"], 1);
        assert_eq!(
            v["papers"][0]["entries"][0],
            serde_json::json!({"key": "k0", "class": "fabricated"})
        );
        assert!(v["papers"][0].get("error").is_none());
    }
}
