//! Old checkpoints of the `.bib` verification run, pruned.
//!
//! Each `.bib` the BibTeX page checks has its own checkpoint
//! (`run:resolve-<hash of its references>`, [`super::resolve::checkpoint_key`]),
//! so every edit of the file starts a new one and the old ones would stay in
//! IndexedDB for ever. What a person expects back is the run they were in
//! the middle of, and perhaps the file they had open just before; a week-old
//! draft's half-run is worth nothing, since the response cache answers
//! whatever it had asked. So each paper keeps the checkpoints of its
//! [`KEEP`] most recently started runs, newest first in the document
//! [`RECENT`]; starting a run puts its key first and deletes the paper's
//! other `run:resolve-` checkpoints. Another paper's checkpoints are its
//! own: they are never touched from here. Checkpoints stored before the
//! list existed count as older than every listed one.

use super::db::StoreError;
use super::store::{keys, Workspace};

/// Checkpoints of `.bib` runs kept per paper.
pub const KEEP: usize = 3;

/// The paper's document listing its kept checkpoint keys, most recently
/// started first.
pub const RECENT: &str = "recent-resolve-runs";

/// The start of a `.bib` run's checkpoint key.
pub fn resolve_prefix() -> String {
    format!("{}resolve-", keys::RUN_PREFIX)
}

/// `(kept, deleted)` when the run under `key` starts: `key` first, then
/// the listed keys still `stored` in their order, then the stored keys the
/// list does not know; the first `keep` of them are kept (and become the
/// list), the stored rest are deleted.
pub fn plan(
    recent: &[String],
    stored: &[String],
    key: &str,
    keep: usize,
) -> (Vec<String>, Vec<String>) {
    let mut order: Vec<String> = vec![key.to_string()];
    let listed = recent.iter().filter(|k| stored.contains(k));
    let unlisted = stored.iter().filter(|k| !recent.contains(k));
    for k in listed.chain(unlisted) {
        if !order.contains(k) {
            order.push(k.clone());
        }
    }
    let deleted = order.split_off(keep.max(1).min(order.len()));
    (order, deleted)
}

/// Makes `key` the open paper's most recent `.bib` run and deletes its
/// checkpoints beyond the [`KEEP`] most recent.
pub async fn on_start(ws: &Workspace, key: &str) -> Result<(), StoreError> {
    let stored = ws.keys_with_prefix(&resolve_prefix()).await?;
    let recent: Vec<String> = ws.get(RECENT).await?.unwrap_or_default();
    let (kept, deleted) = plan(&recent, &stored, key, KEEP);
    for k in &deleted {
        ws.remove(k).await?;
    }
    ws.put(RECENT, &kept).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn check(recent: &[&str], stored: &[&str], key: &str, kept: &[&str], deleted: &[&str]) {
        let got = plan(&strings(recent), &strings(stored), key, 3);
        assert_eq!(
            got,
            (strings(kept), strings(deleted)),
            "{recent:?} {stored:?} {key}"
        );
    }

    #[test]
    fn the_run_started_comes_first_and_the_oldest_go() {
        // A first run: nothing to delete.
        check(&[], &[], "a", &["a"], &[]);
        // A run resumed (already listed and stored) moves to the front.
        check(
            &["a", "b", "c"],
            &["a", "b", "c"],
            "c",
            &["c", "a", "b"],
            &[],
        );
        // A fourth file: the least recently started is deleted.
        check(
            &["c", "a", "b"],
            &["a", "b", "c"],
            "d",
            &["d", "c", "a"],
            &["b"],
        );
        // The key not stored yet (the run writes it later) still counts.
        check(&["a"], &["a"], "b", &["b", "a"], &[]);
    }

    #[test]
    fn checkpoints_from_before_the_list_are_the_oldest() {
        // Stored before any list existed: they follow the listed ones.
        check(
            &[],
            &["x", "y", "z", "w"],
            "k",
            &["k", "x", "y"],
            &["z", "w"],
        );
        check(&["y"], &["x", "y", "z"], "k", &["k", "y", "x"], &["z"]);
        // A listed key deleted elsewhere is forgotten, not deleted again.
        check(&["gone", "a"], &["a"], "k", &["k", "a"], &[]);
    }

    #[test]
    fn keep_is_at_least_the_run_started() {
        let got = plan(&strings(&["a"]), &strings(&["a"]), "k", 0);
        assert_eq!(got, (strings(&["k"]), strings(&["a"])));
    }

    #[test]
    fn the_prefix_is_the_checkpoint_keys() {
        assert_eq!(resolve_prefix(), "run:resolve-");
    }
}
