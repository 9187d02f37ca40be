//! A cross-check over recorded answers, as the reference script replays
//! them: papers in order, each index's recorded lookup by DOI and title
//! search read by the core's parsers, and an index whose answer is an error
//! (other than a 404) out for the rest of the run.
//!
//! The command line's `crosscheck --crossref/--openalex` feeds this; it only
//! finds each paper's recorded answers in the files.

use super::IndexAnswer;
use crate::works::{parse_response, ApiError, ApiErrorKind, Service, Work};

/// One paper's recorded answers in one index, as `(status, body)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    /// The lookup by the paper's DOI, when one was recorded.
    pub by_doi: Option<(u16, String)>,
    /// The title search, when one was recorded.
    pub search: Option<(u16, String)>,
}

/// What a replay found: each paper's answers index by index, and each
/// index that went out, with the paper and the error that took it out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    /// Per paper, `(index, answer)` for the indices that had a recorded
    /// answer for it while still in the run.
    pub answers: Vec<Vec<(Service, IndexAnswer)>>,
    /// `(paper position, index, error)` for each index taken out.
    pub out: Vec<(usize, Service, ApiError)>,
    /// `(paper position, index)` for each paper an index had no recorded
    /// answer for (that index says nothing about it).
    pub missing: Vec<(usize, Service)>,
}

/// Replays `indices` over `papers` (`count` of them): `recorded(i, index)`
/// gives paper `i`'s recorded answers in that index, if any. The title
/// search counts only when the DOI lookup found nothing, as live.
pub fn replay(
    count: usize,
    indices: &[Service],
    mut recorded: impl FnMut(usize, Service) -> Option<Recorded>,
) -> Replay {
    let mut r = Replay::default();
    let mut down: Vec<Service> = Vec::new();
    for i in 0..count {
        let mut row = Vec::new();
        for &service in indices {
            if down.contains(&service) {
                continue;
            }
            let Some(rec) = recorded(i, service) else {
                r.missing.push((i, service));
                continue;
            };
            match answer(service, &rec) {
                Ok(a) => row.push((service, a)),
                Err(e) => {
                    down.push(service);
                    r.out.push((i, service, e));
                    row.push((service, IndexAnswer::Unavailable));
                }
            }
        }
        r.answers.push(row);
    }
    r
}

/// The works of one recorded answer; a 404 is none.
fn works(service: Service, (status, body): &(u16, String)) -> Result<Vec<Work>, ApiError> {
    match parse_response(service, *status, body) {
        Ok(page) => Ok(page.works),
        Err(e) if e.kind == ApiErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

fn answer(service: Service, rec: &Recorded) -> Result<IndexAnswer, ApiError> {
    let by_doi = match &rec.by_doi {
        Some(a) => works(service, a)?.into_iter().next().map(Box::new),
        None => None,
    };
    let search = match (&by_doi, &rec.search) {
        (None, Some(a)) => works(service, a)?,
        _ => Vec::new(),
    };
    Ok(IndexAnswer::Answered { by_doi, search })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CROSSREF_WORK: &str =
        r#"{"status":"ok","message-type":"work","message":{"DOI":"10.1/a","title":["A paper"]}}"#;
    const CROSSREF_LIST: &str = r#"{"status":"ok","message-type":"work-list","message":{"items":[{"DOI":"10.1/b","title":["B paper"]}]}}"#;

    fn rec(by_doi: Option<(u16, &str)>, search: Option<(u16, &str)>) -> Recorded {
        Recorded {
            by_doi: by_doi.map(|(s, b)| (s, b.to_string())),
            search: search.map(|(s, b)| (s, b.to_string())),
        }
    }

    /// An answer in short: `doi <DOI>`, `search <n>`, `unavailable`.
    fn short(a: &IndexAnswer) -> String {
        match a {
            IndexAnswer::Unavailable => "unavailable".into(),
            IndexAnswer::Answered {
                by_doi: Some(w), ..
            } => format!("doi {}", w.doi.clone().unwrap_or_default()),
            IndexAnswer::Answered { search, .. } => format!("search {}", search.len()),
        }
    }

    fn check(papers: Vec<Option<Recorded>>, expected: &[&str], out: &[usize]) {
        let n = papers.len();
        let r = replay(n, &[Service::Crossref], |i, _| papers[i].clone());
        let got: Vec<String> = r
            .answers
            .iter()
            .map(|row| row.first().map_or("-".to_string(), |(_, a)| short(a)))
            .collect();
        assert_eq!(got, expected);
        assert_eq!(r.out.iter().map(|(i, _, _)| *i).collect::<Vec<_>>(), out);
    }

    #[test]
    fn a_doi_hit_wins_a_404_falls_to_the_search_an_error_takes_the_index_out() {
        check(
            vec![
                Some(rec(Some((200, CROSSREF_WORK)), Some((200, CROSSREF_LIST)))),
                Some(rec(
                    Some((404, "Resource not found.")),
                    Some((200, CROSSREF_LIST)),
                )),
                None,
                Some(rec(None, Some((503, "busy")))),
                Some(rec(Some((200, CROSSREF_WORK)), None)),
            ],
            &["doi 10.1/a", "search 1", "-", "unavailable", "-"],
            &[3],
        );
    }

    #[test]
    fn unreadable_bodies_take_the_index_out_too() {
        check(
            vec![
                Some(rec(None, Some((200, "<html>")))),
                Some(rec(None, Some((200, CROSSREF_LIST)))),
            ],
            &["unavailable", "-"],
            &[0],
        );
    }
}
