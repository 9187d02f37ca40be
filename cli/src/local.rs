//! The local index (crate `citegate-index`) as a source of the resolver:
//! `--index DIR` (or `index` in the `--config` file) and `--offline`.
//!
//! The core says what to ask ([`resolve::Run::local_asks`]) and decides
//! from the answers ([`resolve::Run::take_local`]); this module only looks
//! the questions up and turns the index's records into the core's `Work`s,
//! each answer naming its dump and the dump's date.

use crate::error::Error;
use crate::index_cmds::index_error;
use citegate_core::resolve::{self, Answer, LocalAnswer, Route};
use citegate_core::works::{Author, PubDate, Service, Work};
use citegate_index::{Hit, Index, Source};
use clap::Args;
use std::collections::HashMap;
use std::path::PathBuf;

/// The flags of a command that can ask the local index.
#[derive(Args, Clone, Default, Debug)]
pub struct LocalArgs {
    /// A local index built by `citegate index build`, asked before any
    /// service (no rate limit); overrides `index` in the --config file
    #[arg(long, value_name = "DIR")]
    pub index: Option<PathBuf>,
    /// Send no request: only the local index and the cache answer, and an
    /// entry they do not settle is left unverified
    #[arg(long)]
    pub offline: bool,
}

/// An open index with the date of each of its dumps.
pub struct Local {
    ix: Index,
    labels: HashMap<Source, String>,
    /// The dumps the index holds, in one fixed order: each answers a title
    /// search, with its records or with none.
    sources: Vec<Source>,
}

fn service_of(source: Source) -> Service {
    match source {
        Source::Dblp => Service::Dblp,
        Source::Arxiv => Service::Arxiv,
        Source::OpenAlex => Service::OpenAlex,
        Source::Crossref => Service::Crossref,
    }
}

/// An index record as the core's `Work`.
fn work_of(hit: &Hit) -> Work {
    let w = &hit.work;
    let mut work = Work::empty(service_of(hit.source));
    work.id = Some(w.key.clone());
    if hit.source == Source::OpenAlex {
        work.openalex_id = Some(w.key.clone());
    }
    work.doi = w.doi.clone();
    work.arxiv_id = w.arxiv.clone();
    work.title = w.title.clone();
    work.authors = w
        .authors
        .iter()
        .map(|name| Author {
            name: name.clone(),
            given: None,
            family: None,
        })
        .collect();
    work.published = w.year.map(|year| PubDate {
        year,
        month: None,
        day: None,
    });
    work.venue = w.venue.clone();
    work.kind = Some(w.kind.clone()).filter(|k| !k.is_empty());
    work
}

impl Local {
    /// Opens the index in `dir`.
    pub fn open(dir: &std::path::Path) -> Result<Local, Error> {
        let ix = Index::open(dir).map_err(index_error)?;
        let mut dates: HashMap<Source, String> = HashMap::new();
        let mut sources = Vec::new();
        for d in ix.dumps().map_err(index_error)? {
            let Some(source) = Source::from_name(&d.source) else {
                continue;
            };
            if !sources.contains(&source) {
                sources.push(source);
            }
            let Some(date) = d.date else {
                continue;
            };
            // Several files of one dump (OpenAlex's parts): the newest date.
            let e = dates.entry(source).or_default();
            if date > *e {
                *e = date;
            }
        }
        let labels = dates
            .into_iter()
            .map(|(s, date)| {
                let label = format!("{} dump of {date}, local index", service_of(s).label());
                (s, label)
            })
            .collect();
        sources.sort_by_key(|s| {
            [
                Source::Dblp,
                Source::Arxiv,
                Source::OpenAlex,
                Source::Crossref,
            ]
            .iter()
            .position(|o| o == s)
        });
        Ok(Local {
            ix,
            labels,
            sources,
        })
    }

    fn label(&self, source: Source) -> String {
        self.labels.get(&source).cloned().unwrap_or_else(|| {
            format!(
                "{} dump of unknown date, local index",
                service_of(source).label()
            )
        })
    }

    /// Asks the index every question `run` has for it and hands the answers
    /// over; returns the number of questions.
    pub fn answer(&self, run: &mut resolve::Run, title_hits: usize) -> Result<usize, Error> {
        let asks = run.local_asks();
        let answers = self.look_up(&asks, title_hits)?;
        run.take_local(answers);
        Ok(asks.len())
    }

    /// As [`Local::answer`], the questions split in order over `readers`
    /// (each its own connection to the same index), one thread each; the
    /// answers are handed over in the questions' order, so the result is
    /// the one reader's.
    pub fn answer_with(
        readers: &mut [Local],
        run: &mut resolve::Run,
        title_hits: usize,
    ) -> Result<usize, Error> {
        let asks = run.local_asks();
        if readers.is_empty() {
            return Ok(0);
        }
        let per = asks.len().div_ceil(readers.len()).max(1);
        let parts: Vec<Result<Vec<LocalAnswer>, Error>> = std::thread::scope(|scope| {
            let handles: Vec<_> = readers
                .iter_mut()
                .zip(asks.chunks(per))
                // `&mut`: each connection goes to one thread only.
                .map(|(reader, chunk)| scope.spawn(move || reader.look_up(chunk, title_hits)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(Error::failed("a lookup in the local index stopped"))
                    })
                })
                .collect()
        });
        let mut answers = Vec::new();
        for part in parts {
            answers.extend(part?);
        }
        run.take_local(answers);
        Ok(asks.len())
    }

    /// The index's answers to `asks` (the relay's index route answers
    /// pages with it).
    pub fn look_up(
        &self,
        asks: &[(usize, Route, String)],
        title_hits: usize,
    ) -> Result<Vec<LocalAnswer>, Error> {
        let mut answers = Vec::new();
        for (slot, route, text) in asks {
            let hits = match route {
                Route::Doi => self.ix.by_doi(text),
                Route::Arxiv => self.ix.by_arxiv(text),
                Route::Title => self.ix.search_title(text),
            }
            .map_err(index_error)?;
            if *route == Route::Title {
                // One answer per dump: its nearest records, best first, or
                // none (a dump that holds no near title has answered too).
                let mut by_source: Vec<(Source, Vec<Work>)> =
                    self.sources.iter().map(|s| (*s, Vec::new())).collect();
                for h in &hits {
                    match by_source.iter_mut().find(|(s, _)| *s == h.source) {
                        Some((_, works)) if works.len() < title_hits.max(1) => {
                            works.push(work_of(h))
                        }
                        Some(_) => {}
                        None => by_source.push((h.source, vec![work_of(h)])),
                    }
                }
                for (source, works) in by_source {
                    answers.push(LocalAnswer {
                        slot: *slot,
                        route: *route,
                        service: service_of(source),
                        dump: self.label(source),
                        answer: Answer::Hits { works },
                    });
                }
            } else {
                for h in &hits {
                    answers.push(LocalAnswer {
                        slot: *slot,
                        route: *route,
                        service: service_of(h.source),
                        dump: self.label(h.source),
                        answer: Answer::Found { work: work_of(h) },
                    });
                }
            }
        }
        Ok(answers)
    }
}
