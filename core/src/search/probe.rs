//! The zero-result probe: is a zero an empty literature or an over-tight query?
//!
//! Every backend ANDs a query's terms, so a long query can return a true,
//! well-formed zero about a populated topic. The probe measures instead of
//! guessing: it reduces the query to its canonical set of content terms
//! (lowercased, punctuation trimmed, stopwords dropped, deduplicated, sorted),
//! searches that reduction once, then drops one term at a time in canonical
//! order, stopping at the first hit. Because the drops come from a sorted set
//! rather than from positions in the typed query, the verdict cannot change
//! when the same terms are re-ordered, re-cased, punctuated or padded with
//! stopwords. The probe is a state machine, not a loop: [`ProbeMachine`] says
//! which request to make next (with the delay to wait first, as data) and
//! consumes its outcome, so the browser owns every request and every timer.

use crate::works::Service;
use serde::{Deserialize, Serialize};

/// Content terms a query needs before a zero is probed.
pub const MIN_CONTENT_TERMS: usize = 7;
/// Default cap on leave-one-out drops.
pub const DEFAULT_MAX_DROPS: usize = 6;
/// Default pause between probe requests, in milliseconds (never before the first).
pub const DEFAULT_DELAY_MS: u64 = 1000;

/// English function words dropped from a query before probing. A short
/// hand-kept list: the probe needs only the words that narrow nothing.
const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
    "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few",
    "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him",
    "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more",
    "most", "my", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other", "our",
    "ours", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that",
    "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those", "through",
    "to", "too", "under", "until", "up", "upon", "using", "very", "via", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "within",
    "without", "would", "you", "your", "yours",
];

/// Probe settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "ProbeSettings"))]
pub struct ProbeConfig {
    /// Most leave-one-out drops to try.
    pub max_drops: usize,
    /// Milliseconds to wait before every probe request but the first.
    pub delay_ms: u64,
    /// Content terms needed before probing.
    pub min_terms: usize,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig {
            max_drops: DEFAULT_MAX_DROPS,
            delay_ms: DEFAULT_DELAY_MS,
            min_terms: MIN_CONTENT_TERMS,
        }
    }
}

/// What the probe did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ProbeState {
    /// Not run: results came back, or too few content terms.
    NotRun,
    /// A relaxation found papers.
    Hits,
    /// No relaxation tried found anything.
    Empty,
    /// The probe could not run or finish.
    Inconclusive,
}

/// Why the probe ended as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ProbeReason {
    /// The search returned papers; nothing to probe.
    ResultsReturned,
    /// Fewer content terms than the minimum.
    TooFewContentTerms,
    /// The query has a double quote; un-quoting would broaden it.
    QuotedPhrase,
    /// No backend that answered is available to probe.
    NoBackendAvailable,
    /// A probe request failed.
    BackendError,
    /// The reduction itself (nothing dropped) found papers.
    ReductionRecovered,
}

/// The probe's report, as it appears in a search response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Probe {
    /// Outcome.
    pub state: ProbeState,
    /// Why; `None` when a single term was named, or a clean empty.
    pub reason: Option<ProbeReason>,
    /// Backend probed (`s2`, `openalex`, …).
    pub backend: Option<String>,
    /// Number of canonical content terms.
    pub content_terms: usize,
    /// Leave-one-out drops actually tried.
    pub drops_tried: usize,
    /// The cap on drops.
    pub max_drops: usize,
    /// The term whose removal recovered hits.
    pub dropped_term: Option<String>,
    /// The relaxed query that hit (to retry).
    pub query: Option<String>,
}

impl Probe {
    /// The report when no backend can be probed (every one failed, or none
    /// was asked): inconclusive, never a clean zero. The one place it is
    /// built; the CLI and the JavaScript package call it.
    pub fn no_backend(query: &str, cfg: ProbeConfig) -> Probe {
        Probe {
            state: ProbeState::Inconclusive,
            reason: Some(ProbeReason::NoBackendAvailable),
            backend: None,
            content_terms: content_terms(query).len(),
            drops_tried: 0,
            max_drops: cfg.max_drops,
            dropped_term: None,
            query: None,
        }
    }
}

/// One probe request to make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProbeRequest {
    /// Backend to send it to.
    pub backend: Service,
    /// Query text.
    pub query: String,
    /// The term left out (`None` for the baseline reduction).
    pub dropped_term: Option<String>,
    /// Milliseconds to wait before sending.
    pub delay_ms: u64,
}

/// What a probe request returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// The backend answered with this many hits.
    Hits(u64),
    /// The request failed.
    Failed,
}

/// The canonical content terms of a query: whitespace tokens lowercased,
/// punctuation trimmed from both ends, stopwords and empties dropped,
/// deduplicated and sorted.
pub fn content_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = query
        .split_whitespace()
        .map(|t| {
            t.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|t| !t.is_empty() && !STOPWORDS.contains(&t.as_str()))
        .collect();
    terms.sort();
    terms.dedup();
    terms
}

fn has_quote(query: &str) -> bool {
    query.contains(['"', '\u{201c}', '\u{201d}'])
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    Baseline,
    Drop(usize),
    Done(Probe),
}

/// The probe as a state machine: [`next_request`](Self::next_request) and
/// [`consume`](Self::consume) until [`result`](Self::result) is `Some`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeMachine {
    cfg: ProbeConfig,
    backend: Option<Service>,
    terms: Vec<String>,
    phase: Phase,
    sent: usize,
}

impl ProbeMachine {
    /// Starts a probe for `query` whose search found `total_hits` papers over
    /// all searched backends; `answered` lists the backends that answered, in
    /// preference order (the first is probed).
    pub fn new(query: &str, total_hits: usize, answered: &[Service], cfg: ProbeConfig) -> Self {
        let terms = content_terms(query);
        let backend = answered.first().copied();
        let mut m = ProbeMachine {
            cfg,
            backend,
            terms,
            phase: Phase::Baseline,
            sent: 0,
        };
        let early = if total_hits > 0 {
            Some((ProbeState::NotRun, ProbeReason::ResultsReturned))
        } else if m.terms.len() < cfg.min_terms {
            Some((ProbeState::NotRun, ProbeReason::TooFewContentTerms))
        } else if has_quote(query) {
            Some((ProbeState::Inconclusive, ProbeReason::QuotedPhrase))
        } else if backend.is_none() {
            Some((ProbeState::Inconclusive, ProbeReason::NoBackendAvailable))
        } else {
            None
        };
        if let Some((state, reason)) = early {
            m.phase = Phase::Done(m.report(state, Some(reason), 0, None, None));
        }
        m
    }

    /// The canonical content terms.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    fn report(
        &self,
        state: ProbeState,
        reason: Option<ProbeReason>,
        drops_tried: usize,
        dropped_term: Option<String>,
        query: Option<String>,
    ) -> Probe {
        Probe {
            state,
            reason,
            backend: self.backend.map(|b| super::backend_name(b).to_string()),
            content_terms: self.terms.len(),
            drops_tried,
            max_drops: self.cfg.max_drops,
            dropped_term,
            query,
        }
    }

    fn query_without(&self, skip: Option<usize>) -> String {
        self.terms
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn drops(&self) -> usize {
        self.cfg.max_drops.min(self.terms.len())
    }

    /// The next request to make, or `None` when the probe is finished.
    pub fn next_request(&self) -> Option<ProbeRequest> {
        let backend = self.backend?;
        let delay_ms = if self.sent == 0 { 0 } else { self.cfg.delay_ms };
        match &self.phase {
            Phase::Baseline => Some(ProbeRequest {
                backend,
                query: self.query_without(None),
                dropped_term: None,
                delay_ms,
            }),
            Phase::Drop(i) => Some(ProbeRequest {
                backend,
                query: self.query_without(Some(*i)),
                dropped_term: self.terms.get(*i).cloned(),
                delay_ms,
            }),
            Phase::Done(_) => None,
        }
    }

    /// Feeds the outcome of the request last returned by `next_request`.
    pub fn consume(&mut self, outcome: ProbeOutcome) {
        self.sent += 1;
        let next = match (&self.phase, outcome) {
            (Phase::Done(_), _) => return,
            (Phase::Baseline, ProbeOutcome::Failed) => Phase::Done(self.report(
                ProbeState::Inconclusive,
                Some(ProbeReason::BackendError),
                0,
                None,
                None,
            )),
            (Phase::Drop(i), ProbeOutcome::Failed) => Phase::Done(self.report(
                ProbeState::Inconclusive,
                Some(ProbeReason::BackendError),
                *i,
                None,
                None,
            )),
            (Phase::Baseline, ProbeOutcome::Hits(n)) if n > 0 => Phase::Done(self.report(
                ProbeState::Hits,
                Some(ProbeReason::ReductionRecovered),
                0,
                None,
                Some(self.query_without(None)),
            )),
            (Phase::Baseline, ProbeOutcome::Hits(_)) => {
                if self.drops() == 0 {
                    Phase::Done(self.report(ProbeState::Empty, None, 0, None, None))
                } else {
                    Phase::Drop(0)
                }
            }
            (Phase::Drop(i), ProbeOutcome::Hits(n)) if n > 0 => Phase::Done(self.report(
                ProbeState::Hits,
                None,
                i + 1,
                self.terms.get(*i).cloned(),
                Some(self.query_without(Some(*i))),
            )),
            (Phase::Drop(i), ProbeOutcome::Hits(_)) => {
                if i + 1 >= self.drops() {
                    Phase::Done(self.report(ProbeState::Empty, None, i + 1, None, None))
                } else {
                    Phase::Drop(i + 1)
                }
            }
        };
        self.phase = next;
    }

    /// The report, once finished.
    pub fn result(&self) -> Option<&Probe> {
        match &self.phase {
            Phase::Done(p) => Some(p),
            _ => None,
        }
    }

    /// Drives the machine to the end with `answer` standing in for the
    /// network (tests, recorded runs). Returns the report and the requests made.
    pub fn run(
        mut self,
        mut answer: impl FnMut(&ProbeRequest) -> ProbeOutcome,
    ) -> (Probe, Vec<ProbeRequest>) {
        let mut made = Vec::new();
        // Bounded: baseline + at most `drops()` requests.
        for _ in 0..=self.drops() + 1 {
            let Some(req) = self.next_request() else {
                break;
            };
            let out = answer(&req);
            made.push(req);
            self.consume(out);
        }
        let probe = self.result().cloned().unwrap_or_else(|| {
            self.report(
                ProbeState::Inconclusive,
                Some(ProbeReason::BackendError),
                0,
                None,
                None,
            )
        });
        (probe, made)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONG: &str =
        "single-cell differential abundance testing neighbourhood graphs mouse atlas";

    fn check_terms(q: &str, expected: &[&str]) {
        assert_eq!(content_terms(q), expected, "{q}");
    }

    #[test]
    fn terms() {
        check_terms("The Cat, the cat!", &["cat"]);
        check_terms("  (graphs) of  MICE ", &["graphs", "mice"]);
        check_terms("single-cell RNA-seq", &["rna-seq", "single-cell"]);
        check_terms("of the and", &[]);
        check_terms("", &[]);
    }

    /// Answers: hits iff the request's query does not contain `binding`
    /// (the term whose presence makes the conjunction empty).
    fn oracle(binding: &'static str) -> impl FnMut(&ProbeRequest) -> ProbeOutcome {
        move |r| {
            let has = r.query.split(' ').any(|t| t == binding);
            ProbeOutcome::Hits(if has { 0 } else { 12 })
        }
    }

    fn check_probe(
        query: &str,
        hits: usize,
        answer: impl FnMut(&ProbeRequest) -> ProbeOutcome,
        state: ProbeState,
        reason: Option<ProbeReason>,
        dropped: Option<&str>,
        requests: usize,
    ) {
        let m = ProbeMachine::new(
            query,
            hits,
            &[Service::SemanticScholar],
            ProbeConfig::default(),
        );
        let (p, made) = m.run(answer);
        assert_eq!(
            (p.state, p.reason, p.dropped_term.as_deref(), made.len()),
            (state, reason, dropped, requests),
            "{query}"
        );
    }

    #[test]
    fn verdicts() {
        use ProbeReason::*;
        use ProbeState::*;
        let never = |_: &ProbeRequest| ProbeOutcome::Hits(0);
        let always = |_: &ProbeRequest| ProbeOutcome::Hits(3);
        let fail = |_: &ProbeRequest| ProbeOutcome::Failed;
        check_probe(LONG, 5, never, NotRun, Some(ResultsReturned), None, 0);
        check_probe(
            "deep learning for cats",
            0,
            never,
            NotRun,
            Some(TooFewContentTerms),
            None,
            0,
        );
        check_probe(
            &format!("\"{LONG}\""),
            0,
            always,
            Inconclusive,
            Some(QuotedPhrase),
            None,
            0,
        );
        // Baseline hits: a stopword/punctuation was binding; no term is named.
        check_probe(LONG, 0, always, Hits, Some(ReductionRecovered), None, 1);
        // Sorted terms: abundance atlas differential graphs mouse neighbourhood single-cell testing.
        check_probe(
            LONG,
            0,
            oracle("abundance"),
            Hits,
            None,
            Some("abundance"),
            2,
        );
        check_probe(LONG, 0, oracle("graphs"), Hits, None, Some("graphs"), 5);
        // "testing" sorts 8th, past the cap of 6: a fail-safe empty.
        check_probe(LONG, 0, oracle("testing"), Empty, None, None, 7);
        check_probe(LONG, 0, never, Empty, None, None, 7);
        check_probe(LONG, 0, fail, Inconclusive, Some(BackendError), None, 1);
    }

    #[test]
    fn no_backend_is_inconclusive() {
        let m = ProbeMachine::new(LONG, 0, &[], ProbeConfig::default());
        let p = m.result().unwrap();
        assert_eq!(
            (p.state, p.reason),
            (
                ProbeState::Inconclusive,
                Some(ProbeReason::NoBackendAvailable)
            )
        );
    }

    #[test]
    fn delays_are_one_second_between_never_before_first() {
        let m = ProbeMachine::new(LONG, 0, &[Service::OpenAlex], ProbeConfig::default());
        let (p, made) = m.run(|_| ProbeOutcome::Hits(0));
        let delays: Vec<u64> = made.iter().map(|r| r.delay_ms).collect();
        assert_eq!(delays, vec![0, 1000, 1000, 1000, 1000, 1000, 1000]);
        assert_eq!((p.drops_tried, p.max_drops, p.content_terms), (6, 6, 8));
        assert_eq!(p.backend.as_deref(), Some("openalex"));
        assert_eq!(
            made[0].query,
            "abundance atlas differential graphs mouse neighbourhood single-cell testing"
        );
        assert_eq!(made[1].dropped_term.as_deref(), Some("abundance"));
    }

    #[test]
    fn max_drops_is_configurable() {
        let cfg = ProbeConfig {
            max_drops: 2,
            ..ProbeConfig::default()
        };
        let (p, made) =
            ProbeMachine::new(LONG, 0, &[Service::OpenAlex], cfg).run(|_| ProbeOutcome::Hits(0));
        assert_eq!(
            (p.state, p.drops_tried, made.len()),
            (ProbeState::Empty, 2, 3)
        );
    }

    #[test]
    fn failure_mid_drops_reports_drops_tried() {
        let mut n = 0;
        let (p, _) =
            ProbeMachine::new(LONG, 0, &[Service::OpenAlex], ProbeConfig::default()).run(|_| {
                n += 1;
                if n < 4 {
                    ProbeOutcome::Hits(0)
                } else {
                    ProbeOutcome::Failed
                }
            });
        assert_eq!(
            (p.state, p.reason, p.drops_tried),
            (ProbeState::Inconclusive, Some(ProbeReason::BackendError), 2)
        );
    }

    /// Regression guard for the seed's order-dependence bug: the verdict must
    /// not change when the same terms are re-ordered, re-cased, punctuated or
    /// decorated with stopwords.
    #[test]
    fn verdict_is_order_invariant() {
        let variants = [
            LONG,
            "mouse atlas testing graphs neighbourhood abundance differential single-cell",
            "MOUSE, Atlas; testing (graphs) Neighbourhood: abundance differential Single-Cell!",
            "the mouse atlas and testing of the graphs in a neighbourhood with abundance for differential single-cell",
            "Single-cell single-cell differential abundance testing on neighbourhood graphs of the mouse atlas",
        ];
        for binding in ["abundance", "graphs", "testing", "mouse", "zzz"] {
            let verdicts: Vec<_> = variants
                .iter()
                .map(|q| {
                    let (p, made) = ProbeMachine::new(
                        q,
                        0,
                        &[Service::SemanticScholar],
                        ProbeConfig::default(),
                    )
                    .run(oracle(binding));
                    (p, made.into_iter().map(|r| r.query).collect::<Vec<_>>())
                })
                .collect();
            for v in &verdicts {
                assert_eq!(v, &verdicts[0], "binding {binding}");
            }
        }
    }
}
