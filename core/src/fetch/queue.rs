//! A queue of planned requests as a step machine: the fetch policy of the
//! parent module applied to a list of [`Request`]s, with the sockets and the
//! sleeping left to the caller.
//!
//! The caller loops: [`Queue::next`] with the current time says which
//! requests to send now ([`Next::Send`]), how long to sleep
//! ([`Next::WaitUntil`]) or that every request has its final answer
//! ([`Next::Done`]); each reply goes back through [`Queue::answer`]. Spacing
//! per service, retries after a rate limit, a server error or a lost
//! response, and "this service is unreachable for the rest of the run" are
//! decided here, so a command-line executor and a test driver share them.
//! A request's final answer is the last reply it got ([`Final`]); reading it
//! (a record, a not-found, the service's error) is the parsers' business.
//! Requests can be added while the queue runs, so a caller can plan a
//! second phase from the answers of the first without losing the spacing.

use super::{fault_of, lane, lane_limits, next_send_at, service_step, Lane, Limits, RetryPolicy};
use super::{Step, DEFAULT_S2_INTERVAL_MS, S2_UNREADABLE_BACKOFF_MS};
use crate::works::request::Request;
use crate::works::Service;
use std::collections::HashMap;

/// One request to send, named by the id its reply must carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The id to pass back to [`Queue::answer`].
    pub id: u64,
    /// What to send.
    pub request: Request,
}

/// What the caller does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Send these requests now and answer each.
    Send(Vec<Outgoing>),
    /// Nothing may go out before this time (ms); sleep until then.
    WaitUntil(f64),
    /// Every request has its final answer.
    Done,
}

/// What came back for one send.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// HTTP status; 0 when no response was read (timeout, refused, dropped).
    pub status: u16,
    /// The body, or for status 0 a lowercase description of the failure.
    pub body: String,
    /// The `Retry-After` delay, when the response carried a readable one.
    pub retry_after_ms: Option<u64>,
    /// The response was withheld by the platform (a browser's CORS check).
    pub blocked_by_policy: bool,
}

/// A request's final answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Final {
    /// HTTP status of the last reply (0: no response).
    pub status: u16,
    /// Body of the last reply, or the failure's description.
    pub body: String,
    /// How many times the request was sent (0 when it never went out
    /// because its service had become unavailable).
    pub tries: u32,
}

#[derive(Debug, Clone)]
struct Item {
    request: Request,
    tries: u32,
    ready_at: f64,
    in_flight: bool,
    done: Option<Final>,
}

/// How a queue paces and retries.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueOptions {
    /// The general retry table.
    pub policy: RetryPolicy,
    /// First wait after an unreadable Semantic Scholar answer
    /// ([`super::service_step`]).
    pub s2_backoff_ms: u64,
    /// Whether a contact address is sent (Crossref's polite pool).
    pub mailto: bool,
    /// Semantic Scholar's spacing.
    pub s2_interval_ms: u64,
    /// Spacing overrides per service (a relay's own limit, a test server),
    /// applied to every lane of the service.
    pub intervals_ms: HashMap<Service, u64>,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            policy: RetryPolicy::default(),
            s2_backoff_ms: S2_UNREADABLE_BACKOFF_MS,
            mailto: false,
            s2_interval_ms: DEFAULT_S2_INTERVAL_MS,
            intervals_ms: HashMap::new(),
        }
    }
}

/// The queue; see the module documentation.
#[derive(Debug, Clone)]
pub struct Queue {
    items: Vec<Item>,
    opts: QueueOptions,
    last_send: HashMap<Lane, f64>,
    unavailable: HashMap<Service, String>,
}

impl Queue {
    /// An empty queue.
    pub fn new(opts: QueueOptions) -> Queue {
        Queue {
            items: Vec::new(),
            opts,
            last_send: HashMap::new(),
            unavailable: HashMap::new(),
        }
    }

    /// Adds a request; returns its index for [`Queue::result`].
    pub fn push(&mut self, request: Request) -> usize {
        let done = self.unavailable.get(&request.service).map(|why| Final {
            status: 0,
            body: why.clone(),
            tries: 0,
        });
        self.items.push(Item {
            request,
            tries: 0,
            ready_at: f64::NEG_INFINITY,
            in_flight: false,
            done,
        });
        self.items.len() - 1
    }

    /// The final answer of request `index`, once it has one.
    pub fn result(&self, index: usize) -> Option<&Final> {
        self.items.get(index).and_then(|i| i.done.as_ref())
    }

    /// `(finished, total)` requests.
    pub fn progress(&self) -> (usize, usize) {
        let done = self.items.iter().filter(|i| i.done.is_some()).count();
        (done, self.items.len())
    }

    /// Whether `service` was given up on for the rest of the run.
    pub fn is_unavailable(&self, service: Service) -> bool {
        self.unavailable.contains_key(&service)
    }

    /// The spacing of the lane `req` is paced in.
    pub fn limits_of(&self, req: &Request) -> Limits {
        limits_for(&self.opts, lane(req))
    }

    /// What to do at time `now` (ms).
    pub fn next(&mut self, now: f64) -> Next {
        let mut send = Vec::new();
        let mut earliest = f64::INFINITY;
        let mut waiting_on_answers = false;
        let mut in_flight: HashMap<Lane, u32> = HashMap::new();
        for item in self.items.iter().filter(|i| i.in_flight) {
            *in_flight.entry(lane(&item.request)).or_default() += 1;
        }
        for (id, item) in self.items.iter_mut().enumerate() {
            if item.done.is_some() {
                continue;
            }
            if item.in_flight {
                waiting_on_answers = true;
                continue;
            }
            let ln = lane(&item.request);
            let lim = limits_for(&self.opts, ln);
            let flying = in_flight.get(&ln).copied().unwrap_or(0);
            if flying >= lim.max_in_flight.max(1) {
                waiting_on_answers = true;
                continue;
            }
            let at = next_send_at(self.last_send.get(&ln).copied(), now, &lim).max(item.ready_at);
            if at <= now {
                item.in_flight = true;
                item.tries += 1;
                self.last_send.insert(ln, now);
                *in_flight.entry(ln).or_default() += 1;
                send.push(Outgoing {
                    id: id as u64,
                    request: item.request.clone(),
                });
            } else {
                earliest = earliest.min(at);
            }
        }
        if !send.is_empty() {
            Next::Send(send)
        } else if earliest.is_finite() {
            Next::WaitUntil(earliest)
        } else if waiting_on_answers {
            // Only answers can move the queue on; a concurrent caller waits
            // for one, a sequential one never gets here.
            Next::WaitUntil(now)
        } else {
            Next::Done
        }
    }

    /// Hands back the reply to the send `id` received at time `now` (ms).
    /// An unknown or already answered id is ignored.
    pub fn answer(&mut self, id: u64, reply: Reply, now: f64) {
        let Some(item) = usize::try_from(id).ok().and_then(|i| self.items.get_mut(i)) else {
            return;
        };
        if !item.in_flight || item.done.is_some() {
            return;
        }
        item.in_flight = false;
        let status = if reply.blocked_by_policy {
            0
        } else {
            reply.status
        };
        let step = match fault_of(status, reply.retry_after_ms) {
            Some(fault) => service_step(
                &self.opts.policy,
                item.request.service,
                fault,
                item.tries,
                self.opts.s2_backoff_ms,
            ),
            None => Step::GiveUp,
        };
        match step {
            Step::Retry { after_ms } => item.ready_at = now + after_ms as f64,
            Step::GiveUp => {
                item.done = Some(Final {
                    status,
                    body: reply.body,
                    tries: item.tries,
                })
            }
            Step::Unavailable => {
                let service = item.request.service;
                let why = format!(
                    "{} unreachable, not asked again in this run: {}",
                    service.name(),
                    reply.body
                );
                item.done = Some(Final {
                    status,
                    body: reply.body,
                    tries: item.tries,
                });
                for other in self.items.iter_mut() {
                    if other.request.service == service && other.done.is_none() && !other.in_flight
                    {
                        other.done = Some(Final {
                            status: 0,
                            body: why.clone(),
                            tries: other.tries,
                        });
                    }
                }
                self.unavailable.insert(service, why);
            }
        }
    }
}

fn limits_for(opts: &QueueOptions, ln: Lane) -> Limits {
    let mut lim = lane_limits(ln, opts.mailto, opts.s2_interval_ms);
    if let Some(ms) = opts.intervals_ms.get(&ln.service) {
        lim.min_interval_ms = *ms;
    }
    lim
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::works::request::Method;

    /// Replies per URL, in order: `(status, Retry-After ms)`; the last repeats.
    type Script<'a> = &'a [(&'a str, &'a [(u16, Option<u64>)])];

    fn req(service: Service, url: &str) -> Request {
        Request {
            service,
            method: Method::Get,
            url: url.to_string(),
            headers: Vec::new(),
            body: None,
        }
    }

    /// Semantic Scholar 1 s apart, Crossref lookups 200 ms apart (its
    /// public pool); short back-offs.
    fn opts() -> QueueOptions {
        QueueOptions {
            policy: RetryPolicy {
                max_tries: 3,
                default_retry_after_ms: 500,
                backoff_ms: 100,
                max_wait_ms: 10_000,
            },
            s2_backoff_ms: 300,
            ..QueueOptions::default()
        }
    }

    /// Drives a queue with scripted replies (per URL, in order; the last
    /// repeats) and returns the send log `(time, url)` and the finals.
    fn drive(requests: &[Request], script: Script<'_>) -> (Vec<(f64, String)>, Vec<Final>) {
        let mut q = Queue::new(opts());
        for r in requests {
            q.push(r.clone());
        }
        let mut now = 0.0;
        let mut log = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for _ in 0..1000 {
            match q.next(now) {
                Next::Done => break,
                Next::WaitUntil(t) => now = t.max(now),
                Next::Send(out) => {
                    for o in out {
                        log.push((now, o.request.url.clone()));
                        let replies = script
                            .iter()
                            .find(|(u, _)| *u == o.request.url)
                            .map(|(_, r)| *r)
                            .unwrap_or(&[(200, None)]);
                        let n = seen.entry(o.request.url.clone()).or_default();
                        let (status, ra) = replies[(*n).min(replies.len() - 1)];
                        *n += 1;
                        let reply = Reply {
                            status,
                            body: format!("b{status}"),
                            retry_after_ms: ra,
                            blocked_by_policy: false,
                        };
                        q.answer(o.id, reply, now);
                    }
                }
            }
        }
        let finals = (0..requests.len())
            .map(|i| q.result(i).cloned().expect("finished"))
            .collect();
        (log, finals)
    }

    fn check(requests: &[Request], script: Script<'_>, sends: &[(f64, &str)], statuses: &[u16]) {
        let (log, finals) = drive(requests, script);
        let want: Vec<(f64, String)> = sends.iter().map(|(t, u)| (*t, u.to_string())).collect();
        assert_eq!(log, want);
        let got: Vec<u16> = finals.iter().map(|f| f.status).collect();
        assert_eq!(got, statuses);
    }

    const S2: Service = Service::SemanticScholar;
    const CR: Service = Service::Crossref;

    #[test]
    fn spacing_per_service() {
        check(
            &[req(S2, "a"), req(S2, "b"), req(CR, "c"), req(CR, "d")],
            &[],
            &[(0.0, "a"), (0.0, "c"), (200.0, "d"), (1000.0, "b")],
            &[200, 200, 200, 200],
        );
    }

    #[test]
    fn rate_limits_wait_for_retry_after_or_the_default() {
        check(
            &[req(S2, "a")],
            &[("a", &[(429, Some(2500)), (200, None)])],
            &[(0.0, "a"), (2500.0, "a")],
            &[200],
        );
        check(
            &[req(S2, "a")],
            &[("a", &[(429, None), (429, None), (429, None)])],
            &[(0.0, "a"), (1000.0, "a"), (2000.0, "a")],
            &[429],
        );
    }

    #[test]
    fn server_errors_back_off_then_give_up() {
        check(
            &[req(CR, "a")],
            &[("a", &[(500, None), (503, None), (200, None)])],
            &[(0.0, "a"), (200.0, "a"), (400.0, "a")],
            &[200],
        );
        check(
            &[req(CR, "a")],
            &[("a", &[(500, None)])],
            &[(0.0, "a"), (200.0, "a"), (400.0, "a")],
            &[500],
        );
    }

    #[test]
    fn a_lost_service_is_not_asked_again() {
        // One retry after no response, then the service is out; the other
        // service carries on.
        check(
            &[req(CR, "a"), req(CR, "b"), req(S2, "c")],
            &[("a", &[(0, None)])],
            &[(0.0, "a"), (0.0, "c"), (200.0, "a")],
            &[0, 0, 200],
        );
        let mut q = Queue::new(opts());
        q.push(req(CR, "a"));
        let Next::Send(out) = q.next(0.0) else {
            panic!("expected a send")
        };
        for round in 0..2 {
            q.answer(
                out[0].id,
                Reply {
                    status: 0,
                    body: "timed out".into(),
                    ..Reply::default()
                },
                0.0,
            );
            if round == 0 {
                assert!(matches!(q.next(1000.0), Next::Send(_)));
            }
        }
        assert!(q.is_unavailable(CR));
        let late = q.push(req(CR, "z"));
        assert_eq!(q.result(late).map(|f| f.tries), Some(0));
        assert!(q.result(late).unwrap().body.contains("timed out"));
        assert_eq!(q.next(2000.0), Next::Done);
    }

    #[test]
    fn services_known_behaviour_comes_from_service_step() {
        // Semantic Scholar's unreadable answer is waited out, not counted
        // as a lost service after one retry.
        check(
            &[req(S2, "a")],
            &[("a", &[(0, None), (0, None), (200, None)])],
            &[(0.0, "a"), (1000.0, "a"), (2000.0, "a")],
            &[200],
        );
        // OpenAlex's 429 is a spent daily budget: unavailable at once.
        check(
            &[req(Service::OpenAlex, "a"), req(Service::OpenAlex, "b")],
            &[("a", &[(429, None)])],
            &[(0.0, "a")],
            &[429, 0],
        );
    }

    #[test]
    fn definite_answers_are_final() {
        check(
            &[req(CR, "a"), req(CR, "b")],
            &[("a", &[(404, None)]), ("b", &[(400, None)])],
            &[(0.0, "a"), (200.0, "b")],
            &[404, 400],
        );
    }

    #[test]
    fn stray_answers_are_ignored() {
        let mut q = Queue::new(opts());
        q.answer(7, Reply::default(), 0.0);
        q.push(req(CR, "a"));
        q.answer(0, Reply::default(), 0.0);
        assert!(matches!(q.next(0.0), Next::Send(_)));
        assert_eq!(q.progress(), (0, 1));
    }
}
