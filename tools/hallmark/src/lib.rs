//! HALLMARK runs: a benchmark split as a `.bib`, citegate's verdicts on it,
//! HALLMARK's scores and its prediction format.
//!
//! The split (`dev_public.jsonl` and the like) holds BibTeX entries with
//! labels; [`to_bib`] writes the entries alone (no label reaches a checker).
//! [`simulate`] runs citegate's resolver and verdict rules in process
//! against a [`citegate_world::World`], answering each planned request with
//! `World::respond` on a virtual clock, so a whole split takes seconds.
//! [`score`] computes what HALLMARK's `evaluate` reports — detection rate,
//! false-positive rate, F1 on the hallucinated class, tier-weighted F1
//! (tiers weigh 1, 2, 3; a false positive weighs 1) and the detection rate
//! of each type — with "uncertain" counted as valid, as HALLMARK does.
//! [`prediction_line`] writes one line of HALLMARK's prediction JSONL.

use citegate_core::bibtex::parse::parse;
use citegate_core::bibtex::verdict::{self, EntryVerdict, Verdict};
use citegate_core::cutoff::Date;
use citegate_core::resolve::{Next, Options, Reference, Reply, Run, Surface};
use citegate_core::works::request::{Endpoints, Method};
use citegate_world::World;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// One entry of a split.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// `bibtex_key`.
    pub key: String,
    /// `bibtex_type`.
    pub kind: String,
    /// The BibTeX fields, in file order.
    pub fields: Vec<(String, String)>,
    /// Whether HALLMARK labels it hallucinated (`None` when unlabelled).
    pub hallucinated: Option<bool>,
    /// `hallucination_type`.
    pub htype: Option<String>,
    /// `difficulty_tier`.
    pub tier: Option<u8>,
}

/// Reads a split; lines that are not entries are skipped.
pub fn read_split(text: &str) -> Vec<Item> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            let key = v.get("bibtex_key")?.as_str()?.to_string();
            let fields = v
                .get("fields")?
                .as_object()?
                .iter()
                .filter_map(|(k, x)| Some((k.clone(), x.as_str()?.to_string())))
                .collect();
            Some(Item {
                key,
                kind: v
                    .get("bibtex_type")
                    .and_then(Value::as_str)
                    .unwrap_or("misc")
                    .to_string(),
                fields,
                hallucinated: v
                    .get("label")
                    .and_then(Value::as_str)
                    .map(|l| l == "HALLUCINATED"),
                htype: v
                    .get("hallucination_type")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                tier: v
                    .get("difficulty_tier")
                    .and_then(Value::as_u64)
                    .and_then(|t| u8::try_from(t).ok()),
            })
        })
        .collect()
}

/// A field value made safe inside `{…}`: braces that do not balance are dropped.
fn braced(value: &str) -> String {
    let mut depth = 0i32;
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '{' => {
                depth += 1;
                out.push(c);
            }
            '}' if depth == 0 => {}
            '}' => {
                depth -= 1;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    for _ in 0..depth {
        out.push('}');
    }
    out
}

/// The split's entries as a `.bib` file, without labels.
pub fn to_bib(items: &[Item]) -> String {
    let mut out = String::new();
    for it in items {
        out.push_str(&format!("@{}{{{},\n", it.kind, it.key));
        for (k, v) in &it.fields {
            out.push_str(&format!("  {k} = {{{}}},\n", braced(v)));
        }
        out.push_str("}\n\n");
    }
    out
}

/// Endpoints for a world served under `root` (`http://127.0.0.1:PORT`).
pub fn world_endpoints(root: &str) -> Endpoints {
    Endpoints {
        s2_base: format!("{root}/s2/graph/v1"),
        openalex_base: format!("{root}/openalex"),
        crossref_base: format!("{root}/crossref"),
        datacite_base: format!("{root}/datacite"),
        dblp_base: format!("{root}/dblp"),
        arxiv_base: format!("{root}/arxiv"),
        ..Endpoints::default()
    }
}

/// Runs the resolver and the verdict rules over `bib` against `world`, in
/// process: each request is answered by `World::respond`, time is virtual.
/// Returns each entry's key and verdict in file order, and the request count.
pub fn simulate(bib: &str, world: &World, today: Date) -> (Vec<(String, EntryVerdict)>, u64) {
    simulate_with_outage(bib, world, today, &[])
}

/// [`simulate`] with the services under the given world prefixes (`s2`,
/// `crossref`, …) down: each of their requests answers 503.
pub fn simulate_with_outage(
    bib: &str,
    world: &World,
    today: Date,
    down: &[String],
) -> (Vec<(String, EntryVerdict)>, u64) {
    simulate_on(bib, world, today, down, Surface::Native)
}

/// [`simulate_with_outage`] as a run on `surface` asks (a page alone
/// never asks DBLP or arXiv's export API).
pub fn simulate_on(
    bib: &str,
    world: &World,
    today: Date,
    down: &[String],
    surface: Surface,
) -> (Vec<(String, EntryVerdict)>, u64) {
    let parsed = parse(bib);
    let refs: Vec<Reference> = parsed.entries.iter().map(Reference::from_entry).collect();
    let mut opts = Options::new(world_endpoints("http://world"), surface);
    opts.s2_interval_ms = 0;
    let mut run = Run::new(refs, opts);
    let mut now = 0.0f64;
    loop {
        match run.next(now) {
            Next::Send(batch) => {
                for out in batch {
                    let method = match out.request.method {
                        Method::Get => "GET",
                        Method::Post => "POST",
                    };
                    let is_down = down
                        .iter()
                        .any(|d| out.request.url.contains(&format!("//world/{d}/")));
                    let (status, _, body) = if is_down {
                        (503, Vec::new(), String::new())
                    } else {
                        world.respond(
                            method,
                            &out.request.url,
                            out.request.body.as_deref().unwrap_or(""),
                        )
                    };
                    let reply = Reply {
                        status,
                        body,
                        ..Reply::default()
                    };
                    run.answer(out.id, reply, now);
                }
            }
            Next::WaitUntil(t) => now = t.max(now + 1.0),
            Next::AwaitReplies => now += 1.0,
            Next::Done => break,
        }
    }
    let report = run.report();
    let verdicts = parsed
        .entries
        .iter()
        .zip(&report.resolutions)
        .map(|(e, r)| (e.key.clone(), verdict::judge(e, r, today)))
        .collect();
    (verdicts, report.requests)
}

/// HALLMARK's label for a verdict: uncertain counts as valid.
pub fn label(v: Verdict) -> &'static str {
    match v {
        Verdict::Hallucinated => "HALLUCINATED",
        Verdict::Valid | Verdict::Uncertain => "VALID",
    }
}

/// One line of HALLMARK's prediction JSONL (`bibtex_key`, `label`,
/// `confidence`, `reason`, `api_sources_queried`, `api_calls`, …).
pub fn prediction_line(key: &str, verdict: Verdict, reason: &str, sources: &[&str]) -> String {
    let confidence = match verdict {
        Verdict::Hallucinated | Verdict::Valid => 0.9,
        Verdict::Uncertain => 0.5,
    };
    json!({
        "bibtex_key": key,
        "label": label(verdict),
        "confidence": confidence,
        "reason": reason,
        "subtest_results": {},
        "api_sources_queried": sources,
        "wall_clock_seconds": 0.0,
        "api_calls": 0,
        "source": "tool",
    })
    .to_string()
}

/// HALLMARK's scores of a set of predictions (key → predicted hallucinated).
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    /// Labelled entries scored.
    pub n: usize,
    /// Detection rate (recall on hallucinated).
    pub dr: f64,
    /// False-positive rate on valid entries.
    pub fpr: f64,
    /// F1 on the hallucinated class.
    pub f1: f64,
    /// Tier-weighted F1.
    pub tw_f1: f64,
    /// Per type: (detected, total).
    pub per_type: BTreeMap<String, (usize, usize)>,
    /// Valid entries flagged: their keys.
    pub false_positives: Vec<String>,
}

fn f1_of(tp: f64, fp: f64, fn_: f64) -> f64 {
    let p = if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 };
    let r = if tp + fn_ > 0.0 { tp / (tp + fn_) } else { 0.0 };
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// Scores predictions against the split's labels; a missing prediction counts as valid.
pub fn score(items: &[Item], predicted: &HashMap<String, bool>) -> Scores {
    let (mut tp, mut fp, mut fn_, mut tn) = (0.0, 0.0, 0.0, 0.0);
    let (mut wtp, mut wfp, mut wfn) = (0.0, 0.0, 0.0);
    let mut per_type: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut false_positives = Vec::new();
    let mut n = 0;
    for it in items {
        let Some(truth) = it.hallucinated else {
            continue;
        };
        n += 1;
        let said = predicted.get(&it.key).copied().unwrap_or(false);
        if truth {
            let w = f64::from(it.tier.unwrap_or(1).clamp(1, 3));
            let slot = per_type
                .entry(it.htype.clone().unwrap_or_else(|| "unknown".into()))
                .or_default();
            slot.1 += 1;
            if said {
                tp += 1.0;
                wtp += w;
                slot.0 += 1;
            } else {
                fn_ += 1.0;
                wfn += w;
            }
        } else if said {
            fp += 1.0;
            wfp += 1.0;
            false_positives.push(it.key.clone());
        } else {
            tn += 1.0;
        }
    }
    Scores {
        n,
        dr: if tp + fn_ > 0.0 { tp / (tp + fn_) } else { 0.0 },
        fpr: if fp + tn > 0.0 { fp / (fp + tn) } else { 0.0 },
        f1: f1_of(tp, fp, fn_),
        tw_f1: f1_of(wtp, wfp, wfn),
        per_type,
        false_positives,
    }
}

impl Scores {
    /// The report: totals, the per-type table, and the closing line
    /// `hallmark: DR=… FPR=… F1=… n=N`.
    pub fn render(&self) -> String {
        let mut out = format!(
            "DR {:.3}  FPR {:.3}  F1 {:.3}  tier-weighted F1 {:.3}  ({} entries)\n\nper-type detection rate\n",
            self.dr, self.fpr, self.f1, self.tw_f1, self.n
        );
        for (t, (d, total)) in &self.per_type {
            out.push_str(&format!(
                "  {t:<24} {:.3}  ({d}/{total})\n",
                *d as f64 / (*total).max(1) as f64
            ));
        }
        out.push_str(&format!(
            "hallmark: DR={:.3} FPR={:.3} F1={:.3} n={}\n",
            self.dr, self.fpr, self.f1, self.n
        ));
        out
    }
}

/// Per type: how many hallucinated entries were flagged with a reason of
/// their own HALLMARK type (kinds are HALLMARK's names in snake_case), out of
/// how many there are. Detection does not depend on it; the words do.
pub fn naming(
    items: &[Item],
    verdicts: &[(String, EntryVerdict)],
) -> BTreeMap<String, (usize, usize)> {
    let by_key: HashMap<&str, &EntryVerdict> =
        verdicts.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut out: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for it in items.iter().filter(|i| i.hallucinated == Some(true)) {
        let t = it.htype.clone().unwrap_or_default();
        let slot = out.entry(t.clone()).or_default();
        slot.1 += 1;
        let named = by_key.get(it.key.as_str()).is_some_and(|v| {
            v.reasons.iter().any(|r| {
                serde_json::to_value(r.kind)
                    .ok()
                    .and_then(|k| k.as_str().map(|k| k == t))
                    .unwrap_or(false)
            })
        });
        if named {
            slot.0 += 1;
        }
    }
    out
}

/// Today's date from the system clock (UTC), for the future-date rule.
pub fn today_utc() -> Date {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Date::new(y as i32, m as u32, d as u32)
        .unwrap_or_else(|_| Date::new(2026, 1, 1).expect("a valid constant date"))
}

/// Reads `--name value` from the arguments.
pub fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

#[cfg(test)]
mod tests;
