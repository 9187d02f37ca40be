//! Rewriting cited keys in place, byte for byte.

use super::scan::scan;
use serde::Serialize;
use std::collections::BTreeMap;

/// A key rewritten by [`sync_keys`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Replacement {
    /// The key as it was.
    pub old: String,
    /// The key it became.
    pub new: String,
    /// 1-based line of the key.
    pub line: usize,
    /// 1-based column of the key.
    pub column: usize,
}

/// The renames [`sync_keys`] applies for a pool: each paper's agent `key` →
/// its `bibtex_key`, where both are set and they differ (as the reference does).
pub fn pool_key_map(papers: &[crate::pool::PoolPaper]) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for p in papers {
        if let (Some(old), Some(new)) = (p.key.as_deref(), p.bibtex_key.as_deref()) {
            if !old.is_empty() && !new.is_empty() && old != new {
                map.insert(old.to_string(), new.to_string());
            }
        }
    }
    map
}

/// Rewrites cited keys through `map` (old key → new key), only inside cite
/// commands and only the key's own bytes; every other byte stays as it was.
/// Keys in comments and verbatim text are not touched; keys written in the
/// body of a definition (`\newcommand{\classics}{\citep{a}}`) are rewritten.
///
/// ```
/// use std::collections::BTreeMap;
/// let map = BTreeMap::from([("lewis2020rag".to_string(), "lewis2020retrieval".to_string())]);
/// let (out, done) = citegate_core::tex::sync_keys("\\citep{lewis2020rag,  x} lewis2020rag", &map);
/// assert_eq!(out, "\\citep{lewis2020retrieval,  x} lewis2020rag");
/// assert_eq!(done.len(), 1);
/// ```
pub fn sync_keys(source: &str, map: &BTreeMap<String, String>) -> (String, Vec<Replacement>) {
    let mut out = String::with_capacity(source.len());
    let mut done = Vec::new();
    let mut copied = 0;
    let found = scan(source);
    let mut cites: Vec<_> = found.cites().chain(found.in_definitions()).collect();
    cites.sort_by_key(|c| c.start);
    for cite in cites {
        let Some(new) = map.get(cite.key) else {
            continue;
        };
        // A key broken by a comment is not one run of bytes; leave it alone.
        if source.get(cite.start..cite.end) != Some(cite.key) || cite.start < copied {
            continue;
        }
        out.push_str(source.get(copied..cite.start).unwrap_or(""));
        out.push_str(new);
        copied = cite.end;
        done.push(Replacement {
            old: cite.key.to_string(),
            new: new.clone(),
            line: cite.line,
            column: cite.column,
        });
    }
    out.push_str(source.get(copied..).unwrap_or(""));
    (out, done)
}
