//! The writing step: a model drafts the Introduction and Related Work into
//! the template, and the draft is held to the pool until it passes.
//!
//! The loop is a state machine with no IO. [`WriteLoop::next`] says what to
//! do: [`Step::Ask`] with the messages to send to the model, or
//! [`Step::Done`] with the report. The caller (the CLI, the app) sends the
//! messages with [`provider`]'s request, streams the answer, and hands the
//! text back with [`WriteLoop::answer`], which runs the four checks
//! ([`checks`]) and records the round. A failed draft is answered with a
//! re-prompt naming exactly what failed; after `max_reprompts` re-prompts
//! (3 by default) the loop stops with a warning and the best draft, as the
//! seed's "What to do on failure" says. A transport error (a bad key, a rate
//! limit, a prompt too long) never reaches the loop, so it costs no round:
//! the caller shows it and asks again for the same step.
//!
//! The history ([`Round`]s) is plain data (serde), so a run survives a reload:
//! [`WriteLoop::resume`] rebuilds the loop from the inputs and the history.
//!
//! ```
//! use citegate_core::write::{Inputs, Step, WriteLoop};
//! let inputs = Inputs {
//!     template: "\\section{Introduction}\n\\section{Related Work}\n\\section{Method}\nM.\n".into(),
//!     pool: r#"{"papers":[{"title":"A","bibtex_key":"a","year":2020,"discovered_for":["intro"]}]}"#.into(),
//!     outline: "{}".into(), idea: "An idea.".into(), log: "A log.".into(), cutoff: "2024-10-01".into(),
//! };
//! let mut run = WriteLoop::new(&inputs, 3).unwrap();
//! assert!(matches!(run.next(), Step::Ask(_)));
//! run.answer("```latex\n\\section{Introduction}\nAs \\cite{a} shows.\n\\section{Related Work}\nSee \\cite{a}.\n\\section{Method}\nM.\n```");
//! let Step::Done(report) = run.next() else { panic!() };
//! assert!(report.pass);
//! ```

pub mod checks;
mod extract;
pub mod provider;
pub mod sections;

pub use extract::extract_latex;

use crate::coverage::{self, PoolEntry, Threshold};
use crate::cutoff::Date;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::prompt::{self, PromptValues};
use checks::{Checks, LatePaper};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Re-prompts after the first draft, by default (the seed: "after 2-3 re-prompts").
pub const DEFAULT_MAX_REPROMPTS: usize = 3;

/// Our anti-leakage instruction, sent before the writing prompt. The seed
/// requires one and does not give its text; this is ours.
pub const ANTI_LEAKAGE: &str = "Work only from the material given in this conversation.
Do not draw on anything you may remember about this project, its authors, or
a paper that already describes it, and do not reveal or guess who the authors
are. Do not name, cite or describe any paper, result, dataset, model or event
that the material does not contain, and nothing dated on or after the research
cutoff unless the citation pool holds it. What you say about a cited paper
must follow from its title and abstract as given. If the material does not
support a statement, leave the statement out.
";

/// The files the seed names, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inputs {
    /// `template.tex`.
    pub template: String,
    /// `citation_pool.json`.
    pub pool: String,
    /// `outline.json` (its `intro_related_work_plan`, or the whole outline).
    pub outline: String,
    /// `idea.md`.
    pub idea: String,
    /// `experimental_log.md`.
    pub log: String,
    /// The research cutoff, `YYYY-MM-DD`.
    pub cutoff: String,
}

/// Who speaks a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions.
    System,
    /// Our side.
    User,
    /// The model.
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: String,
}

impl Message {
    fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
        }
    }
}

/// What became of one answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// No LaTeX file could be taken from the answer.
    NoLatex {
        /// Why, for people.
        message: String,
    },
    /// The draft was checked.
    Checked {
        /// The four checks.
        checks: Box<Checks>,
    },
}

/// One round: what was asked, what came back, what the checks said, and the
/// re-prompt it leads to (empty when the draft passes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based.
    pub number: usize,
    /// The messages sent.
    pub prompt: Vec<Message>,
    /// The model's whole answer.
    pub answer: String,
    /// The checks, or why there was nothing to check.
    pub outcome: Outcome,
    /// The instruction for the next round; empty when the draft passed.
    pub reprompt: String,
}

impl Round {
    /// The checks, if the answer held a draft.
    pub fn checks(&self) -> Option<&Checks> {
        match &self.outcome {
            Outcome::Checked { checks } => Some(checks),
            Outcome::NoLatex { .. } => None,
        }
    }

    /// A one-line summary for a terminal or a history list.
    pub fn summary(&self) -> String {
        match &self.outcome {
            Outcome::NoLatex { message } => format!("round {}: {message}", self.number),
            Outcome::Checked { checks: c } => format!(
                "round {}: {} of 4 checks pass — template {}, keys {}, coverage {}/{} = {:.1}% (need {}) {}, cutoff {}",
                self.number,
                c.passed(),
                if c.template.pass { "kept" } else { "changed" },
                if c.keys.pass { "ok".to_string() } else { format!("{} invented", c.keys.invented.len()) },
                c.coverage.n_cited,
                c.coverage.n_pool,
                c.coverage.percent,
                c.coverage.min_required,
                if c.coverage.pass { "ok" } else { "short" },
                if c.cutoff.pass { "ok" } else { "late paper as baseline" },
            ),
        }
    }
}

/// The end of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// True iff the final draft passes all four checks.
    pub pass: bool,
    /// Rounds run.
    pub rounds: usize,
    /// The number of the round whose draft is kept, if any round gave one.
    pub best_round: Option<usize>,
    /// Why the run stopped short, when it did.
    pub warning: Option<String>,
    /// `intro_relwork.tex`: the two sections of the kept draft.
    pub intro_relwork: Option<String>,
    /// `template.tex`: the template with the kept draft's two sections put in.
    pub full: Option<String>,
    /// A note on papers dated after the cutoff.
    pub cutoff_note: String,
}

/// What to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send these messages to the model and pass its answer to [`WriteLoop::answer`].
    Ask(Vec<Message>),
    /// The run is over.
    Done(Report),
}

/// The writing loop.
#[derive(Debug, Clone)]
pub struct WriteLoop {
    template: String,
    pool: Vec<PoolEntry>,
    late: Vec<LatePaper>,
    threshold: Threshold,
    first: Vec<Message>,
    max_reprompts: usize,
    history: Vec<Round>,
}

fn input_error(file: &str, e: Error) -> Error {
    e.in_file(file)
}

/// The part of `outline.json` the writing step reads.
fn outline_plan(text: &str) -> Result<String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| Error::json(&e).in_file("outline.json"))?;
    let plan = match &v {
        Value::Object(m) => m.get("intro_related_work_plan").unwrap_or(&v),
        _ => {
            return Err(
                Error::new(ErrorKind::Shape, "the outline must be a JSON object")
                    .at(Location::file("outline.json")),
            )
        }
    };
    Ok(serde_json::to_string_pretty(plan).unwrap_or_default())
}

fn fence(lang: &str, body: &str) -> String {
    // A body holding ``` would close the fence early; a longer fence cannot be closed by it.
    let mut ticks = "```".to_string();
    while body.contains(&ticks) {
        ticks.push('`');
    }
    let nl = if body.ends_with('\n') { "" } else { "\n" };
    format!("{ticks}{lang}\n{body}{nl}{ticks}\n")
}

impl WriteLoop {
    /// A new run over `inputs`, with at most `max_reprompts` re-prompts.
    /// Errors name the input file that is wrong.
    pub fn new(inputs: &Inputs, max_reprompts: usize) -> Result<Self> {
        sections::template_layout(&inputs.template)?;
        let pool = crate::pool::parse_pool(&inputs.pool)
            .map_err(|e| input_error("citation_pool.json", e))?;
        // The keyed papers the gate counts, or the gate's own error when none is.
        let (entries, _unkeyed) = coverage::Against::Pool(pool.papers.clone())
            .entries()
            .map_err(|e| input_error("citation_pool.json", e))?;
        let cutoff = Date::parse_iso(inputs.cutoff.trim())
            .map_err(|e| e.at(Location::default().field("cutoff")))?;
        let plan = outline_plan(&inputs.outline)?;
        let threshold = Threshold::parse(coverage::DEFAULT_THRESHOLD)?;
        let late = checks::late_papers(&pool.papers, cutoff);
        let mut values = PromptValues::from_pool(&pool, cutoff);
        // The gate counts keyed papers; so does the prompt.
        values.paper_count = entries.len();
        values.min_cite_paper_count = threshold.min_required(entries.len()) as u64;
        let system = format!(
            "{ANTI_LEAKAGE}\n{}",
            prompt::fill(prompt::DEFAULT_TEMPLATE, &values)?
        );
        let papers: Vec<Value> = pool
            .papers
            .iter()
            .filter_map(|p| {
                let key = p.bibtex_key.as_deref()?.trim();
                (!key.is_empty()).then(|| {
                    json!({
                        "key": key,
                        "title": p.title,
                        "year": p.year,
                        "venue": p.venue,
                        "abstract": p.abstract_text,
                        "discovered_for": p.discovered_for,
                    })
                })
            })
            .collect();
        let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        let mut user = String::new();
        user.push_str("template.tex:\n");
        user.push_str(&fence("latex", &inputs.template));
        user.push_str("\nintro_related_work_plan (from outline.json):\n");
        user.push_str(&fence("json", &plan));
        user.push_str("\nproject_idea (idea.md):\n");
        user.push_str(&fence("markdown", &inputs.idea));
        user.push_str("\nproject_experimental_log (experimental_log.md):\n");
        user.push_str(&fence("markdown", &inputs.log));
        user.push_str("\ncitation_checklist (the only keys you may cite):\n");
        user.push_str(&fence("text", &keys.join("\n")));
        user.push_str("\ncollected_papers:\n");
        user.push_str(&fence(
            "json",
            &serde_json::to_string_pretty(&papers).unwrap_or_default(),
        ));
        if !late.is_empty() {
            user.push_str(&format!(
                "\nConcurrent work: these pool papers are dated on or after the cutoff ({}); cite them only as concurrent work, never as baselines: {}\n",
                cutoff,
                late.iter().map(|l| l.key.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
        Ok(WriteLoop {
            template: inputs.template.clone(),
            pool: entries,
            late,
            threshold,
            first: vec![
                Message::new(Role::System, system),
                Message::new(Role::User, user),
            ],
            max_reprompts,
            history: Vec::new(),
        })
    }

    /// A run rebuilt from its inputs and the rounds already done.
    pub fn resume(inputs: &Inputs, max_reprompts: usize, history: Vec<Round>) -> Result<Self> {
        let mut run = WriteLoop::new(inputs, max_reprompts)?;
        run.history = history;
        Ok(run)
    }

    /// The rounds so far.
    pub fn history(&self) -> &[Round] {
        &self.history
    }

    /// Pool papers dated on or after the cutoff.
    pub fn late_papers(&self) -> &[LatePaper] {
        &self.late
    }

    /// The next step.
    pub fn next(&self) -> Step {
        match self.history.last() {
            None => Step::Ask(self.first.clone()),
            Some(last) if last.reprompt.is_empty() => Step::Done(self.report()),
            Some(_) if self.history.len() > self.max_reprompts => Step::Done(self.report()),
            Some(last) => {
                let mut m = self.first.clone();
                let previous = match extract_latex(&last.answer) {
                    Ok(tex) => fence("latex", &tex),
                    Err(_) => last.answer.clone(),
                };
                m.push(Message::new(Role::Assistant, previous));
                m.push(Message::new(Role::User, last.reprompt.clone()));
                Step::Ask(m)
            }
        }
    }

    /// Records the model's answer to the current [`Step::Ask`] and checks it.
    /// Returns `None` (and records nothing) when the run is already done.
    pub fn answer(&mut self, text: &str) -> Option<&Round> {
        let Step::Ask(prompt) = self.next() else {
            return None;
        };
        let (outcome, reprompt) = match extract_latex(text) {
            Err(e) => (
                Outcome::NoLatex { message: e.message.clone() },
                format!(
                    "Your answer held no usable LaTeX file ({}). Return the complete template.tex, with the Introduction and Related Work filled in, in one ```latex block.\n",
                    e.message
                ),
            ),
            Ok(draft) => {
                let c = checks::run(&self.template, &draft, &self.pool, &self.late, &self.threshold);
                let r = checks::reprompt(&c);
                (Outcome::Checked { checks: Box::new(c) }, r)
            }
        };
        self.history.push(Round {
            number: self.history.len() + 1,
            prompt,
            answer: text.to_string(),
            outcome,
            reprompt,
        });
        self.history.last()
    }

    /// The round whose draft is kept: most checks passed, then most pool papers cited, then the latest.
    pub fn best(&self) -> Option<&Round> {
        self.history
            .iter()
            .filter_map(|r| r.checks().map(|c| (r, c)))
            .max_by_key(|(r, c)| (c.passed(), c.coverage.n_cited, r.number))
            .map(|(r, _)| r)
    }

    /// The report as things stand: used when the caller has to stop early
    /// (a refused key, a prompt too long), so the rounds done are not lost.
    pub fn stop(&self) -> Report {
        self.report()
    }

    fn report(&self) -> Report {
        let best = self.best();
        let draft = best.and_then(|r| extract_latex(&r.answer).ok());
        let pass = self
            .history
            .last()
            .is_some_and(|r| r.checks().is_some_and(Checks::all_pass));
        let warning = if pass {
            None
        } else {
            Some(match best.and_then(|r| r.checks().map(|c| (r, c))) {
                Some((r, c)) => format!(
                    "stopped after {} rounds without a draft that passes every check; keeping round {} ({} of 4 checks pass, {}/{} papers cited)",
                    self.history.len(), r.number, c.passed(), c.coverage.n_cited, c.coverage.n_pool
                ),
                None if self.history.is_empty() => "stopped before any answer".to_string(),
                None => format!("stopped after {} rounds; no answer held a LaTeX file", self.history.len()),
            })
        };
        let cutoff_note = if self.late.is_empty() {
            "the pool holds no paper dated on or after the cutoff".to_string()
        } else {
            format!(
                "the pool holds {} paper(s) dated on or after the cutoff ({}); they may be cited only as concurrent work",
                self.late.len(),
                self.late.iter().map(|l| l.key.as_str()).collect::<Vec<_>>().join(", ")
            )
        };
        Report {
            pass,
            rounds: self.history.len(),
            best_round: best.map(|r| r.number),
            warning,
            intro_relwork: draft.as_deref().map(sections::sections_text),
            full: draft
                .as_deref()
                .map(|d| sections::splice(&self.template, d)),
            cutoff_note,
        }
    }
}

#[cfg(test)]
mod tests;
