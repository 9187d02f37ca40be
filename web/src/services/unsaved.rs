//! Writes that did not reach the browser's storage, kept until they do, so
//! the person hears of them.
//!
//! Pages save their work in the background and go on showing it whether or
//! not the write succeeded; a failure used to be dropped there. Every
//! workspace and cache write now reports to one [`Unsaved`] list: a failed
//! write adds (or refreshes) its document, a later successful write of the
//! same document takes it off. The app's frame shows the list in one banner
//! ([`crate::components::UnsavedBanner`]) naming what was not saved and how
//! to free space. Nothing on the page is taken away: the work stays in
//! memory, where the person can still download it.

use super::db::StoreError;
use super::store::keys;
use leptos::prelude::*;

/// The document the response cache's writes are filed under.
pub const CACHE_DOCUMENT: &str = "cache";

/// One document whose last write failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsavedWrite {
    /// The document's workspace name (without the paper's prefix), or
    /// [`CACHE_DOCUMENT`].
    pub key: String,
    /// The browser's storage for this site is full (its quota is used up).
    pub quota: bool,
    /// What the browser said, for a failure other than the quota.
    pub reason: String,
}

/// The documents whose last write failed; cheap to copy.
#[derive(Debug, Clone, Copy)]
pub struct Unsaved(RwSignal<Vec<UnsavedWrite>>);

impl Default for Unsaved {
    fn default() -> Self {
        Unsaved(RwSignal::new(Vec::new()))
    }
}

impl Unsaved {
    /// Files the outcome of a write of `key`: a failure is listed (once per
    /// document), a success takes the document off the list.
    pub fn note(&self, key: &str, result: &Result<(), StoreError>) {
        match result {
            Ok(()) => {
                if self.0.with_untracked(|v| v.iter().any(|w| w.key == key)) {
                    self.0.update(|v| v.retain(|w| w.key != key));
                }
            }
            Err(e) => {
                let write = UnsavedWrite {
                    key: key.to_string(),
                    quota: is_quota(&e.message),
                    reason: e.message.clone(),
                };
                self.0.update(|v| {
                    v.retain(|w| w.key != key);
                    v.push(write);
                });
            }
        }
    }

    /// The documents not saved, in the order they failed (reactive).
    pub fn list(&self) -> Vec<UnsavedWrite> {
        self.0.get()
    }
}

/// Whether a storage error says the site's quota is used up (IndexedDB's
/// `QuotaExceededError`; the message is lowercased by `db`).
pub fn is_quota(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("quotaexceeded") || m.contains("quota")
}

/// A workspace document's name in a person's words.
pub fn describe(key: &str) -> String {
    let fixed = match key {
        keys::SETTINGS => Some("your settings"),
        keys::LIBRARY => Some("the reference library"),
        keys::PAPERS => Some("the list of papers"),
        keys::POOL => Some("the pool"),
        keys::CANDIDATES => Some("the candidates"),
        keys::REPORTS => Some("the reports"),
        CACHE_DOCUMENT => Some("answers fetched from the services (the response cache)"),
        "page:bibtex" => Some("the BibTeX check's files"),
        "page:coverage" => Some("the Coverage page's files"),
        "page:pool" => Some("the Pool page's inputs"),
        "page:discover" => Some("the Pool page's outline search"),
        "page:crosscheck" => Some("the Cross-check page's pool"),
        "write" => Some("the Write page's drafts"),
        _ => None,
    };
    if let Some(words) = fixed {
        return words.to_string();
    }
    match key.strip_prefix(keys::RUN_PREFIX) {
        Some(run) if run.starts_with("resolve-") => "the BibTeX check's progress".to_string(),
        Some(_) => "a run's progress (its checkpoint)".to_string(),
        None => format!("the document {key:?}"),
    }
}

/// The banner's sentence for `writes` (empty when nothing is unsaved).
pub fn banner_text(writes: &[UnsavedWrite]) -> String {
    if writes.is_empty() {
        return String::new();
    }
    let mut what: Vec<String> = writes.iter().map(|w| describe(&w.key)).collect();
    what.dedup();
    let why = if writes.iter().any(|w| w.quota) {
        "the browser's storage for this site is full".to_string()
    } else {
        let reasons: Vec<&str> = writes.iter().map(|w| w.reason.as_str()).collect();
        format!("the browser refused to store it ({})", reasons.join("; "))
    };
    format!(
        "Not saved in this browser: {} — {why}. Everything is still on this page: download \
         what you need before you reload. To free space, clear the response cache in \
         Settings or remove papers you no longer need.",
        what.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_describe(key: &str, expected: &str) {
        assert_eq!(describe(key), expected);
    }

    #[test]
    fn documents_are_named_in_words() {
        check_describe("pool", "the pool");
        check_describe("library", "the reference library");
        check_describe("page:bibtex", "the BibTeX check's files");
        check_describe("run:resolve-00ab", "the BibTeX check's progress");
        check_describe("run:cross-12", "a run's progress (its checkpoint)");
        check_describe(
            "cache",
            "answers fetched from the services (the response cache)",
        );
        check_describe("odd", "the document \"odd\"");
    }

    fn write(key: &str, reason: &str) -> UnsavedWrite {
        UnsavedWrite {
            key: key.into(),
            quota: is_quota(reason),
            reason: reason.into(),
        }
    }

    #[test]
    fn a_full_quota_is_said_in_words_with_how_to_free_space() {
        let text = banner_text(&[
            write(
                "page:bibtex",
                "put: quotaexceedederror: the quota has been exceeded",
            ),
            write(
                "run:resolve-1",
                "put: quotaexceedederror: the quota has been exceeded",
            ),
        ]);
        assert!(text.starts_with(
            "Not saved in this browser: the BibTeX check's files, the BibTeX check's progress — the browser's storage for this site is full."
        ), "{text}");
        assert!(
            text.contains("clear the response cache in Settings"),
            "{text}"
        );
        assert!(!text.contains("quotaexceedederror"), "{text}");
    }

    #[test]
    fn another_failure_names_what_the_browser_said() {
        let text = banner_text(&[write(
            "pool",
            "put: invalidstateerror: the database is closing",
        )]);
        assert!(
            text.contains("the pool — the browser refused to store it (put: invalidstateerror: the database is closing)"),
            "{text}"
        );
    }

    #[test]
    fn nothing_unsaved_is_no_banner() {
        assert_eq!(banner_text(&[]), "");
    }

    #[test]
    fn a_later_successful_write_takes_the_document_off() {
        let unsaved = Unsaved::default();
        let full = Err(StoreError {
            message: "put: quotaexceedederror".into(),
        });
        unsaved.note("pool", &full);
        unsaved.note("pool", &full);
        unsaved.note("library", &full);
        assert_eq!(
            unsaved
                .0
                .get_untracked()
                .iter()
                .map(|w| w.key.as_str())
                .collect::<Vec<_>>(),
            ["pool", "library"]
        );
        unsaved.note("pool", &Ok(()));
        assert_eq!(
            unsaved
                .0
                .get_untracked()
                .iter()
                .map(|w| w.key.as_str())
                .collect::<Vec<_>>(),
            ["library"]
        );
    }
}
