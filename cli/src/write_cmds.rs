//! `write`: the writing step with the user's own language model.
//!
//! The loop, its checks and its re-prompts are the core's
//! (`citegate_core::write`); this module reads the files, sends each step's
//! messages through `llm`, reports each round on stderr and writes the kept
//! draft. The key is read from the environment and goes only into the
//! request to `--llm-base`; it is never printed, and never in `--json`.

use crate::error::{Error, Outcome};
use crate::io::{print_json, read_text, FAIL, PASS};
use crate::llm::Llm;
use citegate_core::write::provider::{self, Api, Provider};
use citegate_core::write::{Inputs, Round, Step, WriteLoop, DEFAULT_MAX_REPROMPTS};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The writing step.
#[derive(Subcommand)]
pub enum WriteCommand {
    /// Draft the Introduction and Related Work with a language model, held to the pool
    Write(WriteArgs),
}

/// The API shape of the model endpoint.
#[derive(Clone, Copy, ValueEnum)]
pub enum ApiArg {
    /// OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, llama.cpp, vLLM)
    Openai,
    /// Anthropic's Messages API
    Anthropic,
}

/// Arguments of `citegate write`.
#[derive(Args)]
pub struct WriteArgs {
    /// The paper's LaTeX skeleton
    #[arg(long)]
    template: PathBuf,
    /// The verified pool, with bibtex keys
    #[arg(long)]
    pool: PathBuf,
    /// The outline (its intro_related_work_plan is sent)
    #[arg(long)]
    outline: PathBuf,
    /// The project's idea
    #[arg(long)]
    idea: PathBuf,
    /// The experimental log
    #[arg(long)]
    log: PathBuf,
    /// The research cutoff, YYYY-MM-DD
    #[arg(long)]
    cutoff: String,
    /// The endpoint's API shape
    #[arg(long, value_enum)]
    api: ApiArg,
    /// The endpoint's base URL, e.g. https://api.openai.com/v1 or http://localhost:11434
    #[arg(long = "llm-base")]
    llm_base: String,
    /// The model name
    #[arg(long)]
    model: String,
    /// Re-prompts after the first draft before stopping with the best draft
    #[arg(long = "max-rounds", default_value_t = DEFAULT_MAX_REPROMPTS)]
    max_rounds: usize,
    /// Output token limit sent to Anthropic's API
    #[arg(long = "max-tokens", default_value_t = provider::DEFAULT_MAX_TOKENS)]
    max_tokens: u32,
    /// Where to write intro_relwork.tex: the template with the two sections
    /// written in, the rest kept verbatim
    #[arg(long)]
    out: PathBuf,
    /// Also write the two sections alone (Introduction and Related Work) here
    #[arg(long = "sections-out")]
    sections_out: Option<PathBuf>,
    /// Print the rounds and the result as JSON on stdout
    #[arg(long)]
    json: bool,
}

impl WriteCommand {
    /// Runs the subcommand and returns the exit code.
    pub fn run(self) -> Outcome {
        match self {
            WriteCommand::Write(a) => run_write(a),
        }
    }
}

/// The key for `api`: its own variable, else `LLM_API_KEY`; empty for a local server.
fn api_key(api: Api) -> String {
    [api.key_variable(), "LLM_API_KEY"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|k| !k.trim().is_empty())
        .unwrap_or_default()
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|e| Error::write(path, &e))
}

fn round_json(r: &Round) -> serde_json::Value {
    json!({
        "number": r.number,
        "summary": r.summary(),
        "outcome": r.outcome,
        "reprompt": r.reprompt,
    })
}

/// Tries a request up to three times when the failure is passing (429, 5xx, a
/// broken stream), waiting as the server asks (at most a minute).
fn ask_with_retries(
    llm: &Llm,
    provider: &Provider,
    key: &str,
    round: usize,
    messages: &[citegate_core::write::Message],
) -> Result<String, provider::ProviderError> {
    let req = provider::request(provider, messages, key)?;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut last = 0usize;
        let got = llm.ask(provider.api, key, &req, &mut |chars| {
            if chars >= last + 2000 {
                last = chars;
                eprintln!("round {round}: {chars} characters received");
            }
        });
        match got {
            Ok(text) => return Ok(text),
            Err(e) if e.error.retryable() && attempt < 3 => {
                let wait = e.retry_after.unwrap_or(5 * attempt as u64).min(60);
                eprintln!(
                    "round {round}: {}; asking again in {wait} s",
                    e.error.message
                );
                std::thread::sleep(std::time::Duration::from_secs(wait));
            }
            Err(e) => return Err(e.error),
        }
    }
}

fn run_write(a: WriteArgs) -> Outcome {
    let inputs = Inputs {
        template: read_text(&a.template)?,
        pool: read_text(&a.pool)?,
        outline: read_text(&a.outline)?,
        idea: read_text(&a.idea)?,
        log: read_text(&a.log)?,
        cutoff: a.cutoff.clone(),
    };
    let mut run = WriteLoop::new(&inputs, a.max_rounds).map_err(Error::core)?;
    let api = match a.api {
        ApiArg::Openai => Api::OpenAi,
        ApiArg::Anthropic => Api::Anthropic,
    };
    let provider = Provider {
        api,
        base_url: a.llm_base.clone(),
        model: a.model.clone(),
        max_tokens: a.max_tokens,
    };
    let key = api_key(api);
    let llm = Llm::new();
    let mut transport_error = None;
    let report = loop {
        match run.next() {
            Step::Done(report) => break report,
            Step::Ask(messages) => {
                let number = run.history().len() + 1;
                eprintln!("round {number}: asking {} ({})", a.model, provider.base_url);
                match ask_with_retries(&llm, &provider, &key, number, &messages) {
                    Ok(text) => {
                        let shown = run.answer(&text).map(|r| (r.summary(), r.reprompt.clone()));
                        if let Some((summary, reprompt)) = shown {
                            eprintln!("{summary}");
                            if !reprompt.is_empty() && run.history().len() <= a.max_rounds {
                                eprintln!("re-prompt:\n{reprompt}");
                            }
                        }
                    }
                    Err(e) => {
                        // Printed once, by `main`, after what was kept is written.
                        transport_error = Some(e);
                        // The loop cannot go on; keep what the rounds so far gave.
                        break run.stop();
                    }
                }
            }
        }
    };
    if let Some(w) = &report.warning {
        eprintln!("warning: {w}");
    }
    eprintln!("{}", report.cutoff_note);
    if let Some(full) = &report.full {
        write_file(&a.out, full)?;
        eprintln!(
            "wrote {} (round {})",
            a.out.display(),
            report.best_round.unwrap_or(0)
        );
    }
    if let (Some(path), Some(text)) = (&a.sections_out, &report.intro_relwork) {
        write_file(path, text)?;
        eprintln!("wrote {}", path.display());
    }
    if a.json {
        print_json(&json!({
            "pass": report.pass && transport_error.is_none(),
            "rounds": run.history().iter().map(round_json).collect::<Vec<_>>(),
            "best_round": report.best_round,
            "warning": report.warning,
            "error": transport_error,
            "cutoff_note": report.cutoff_note,
            "out": report.full.as_ref().map(|_| a.out.display().to_string()),
            "sections_out": report
                .intro_relwork
                .as_ref()
                .and(a.sections_out.as_ref())
                .map(|p| p.display().to_string()),
        }));
    }
    match (transport_error, report.full.is_some()) {
        (None, _) if report.pass => Ok(PASS),
        (None, _) => Ok(FAIL),
        // Nothing kept: the model could not be asked as configured (exit 2).
        (Some(e), false) => Err(Error::service(e.message)),
        // A draft of an earlier round was kept: the run failed (exit 1).
        (Some(e), true) => Err(Error::failed(e.message)),
    }
}
