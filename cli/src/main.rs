//! `citegate`: the core's checks as a native command-line tool.
//!
//! This crate is glue: it reads files, calls `citegate-core`, prints text or
//! JSON and picks an exit code. No decision is made here that the core does
//! not make. Each domain's subcommands live in their own module.
//!
//! Exit codes follow the reference scripts: 0 pass, 1 fail (the check ran and
//! found problems), 2 bad input or usage.

mod annotate;
mod batch_cmds;
mod batch_report;
mod bib_cmds;
mod error;
mod http;
mod index_cmds;
mod io;
mod live;
mod llm;
mod local;
mod match_cmds;
mod paper_cmds;
mod pool_cmds;
mod pool_verify;
mod relay_cmds;
mod search_cmds;
mod tex_cmds;
mod write_cmds;

use clap::{Arg, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// citegate — check a paper's citations before you submit it.
#[derive(Parser)]
#[command(name = "citegate", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Batch(batch_cmds::BatchCommand),
    #[command(flatten)]
    Bib(bib_cmds::BibCommand),
    #[command(flatten)]
    Index(index_cmds::IndexCommand),
    #[command(flatten)]
    Match(match_cmds::MatchCommand),
    #[command(flatten)]
    Paper(paper_cmds::PaperCommand),
    #[command(flatten)]
    Pool(pool_cmds::PoolCommand),
    #[command(flatten)]
    Relay(relay_cmds::RelayCommand),
    #[command(flatten)]
    Search(search_cmds::SearchCommand),
    #[command(flatten)]
    Tex(tex_cmds::TexCommand),
    #[command(flatten)]
    Write(write_cmds::WriteCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from these definitions
    Man,
}

/// Examples shown at the end of each subcommand's `--help`.
const EXAMPLES: &[(&str, &str)] = &[
    ("bibcheck", "citegate bibcheck refs.bib --tex main.tex\n  citegate bibcheck zotero.json --format github --fail-on error\n  cat refs.ris | citegate bibcheck - --format sarif > citegate.sarif"),
    ("completions", "citegate completions bash > ~/.local/share/bash-completion/completions/citegate\n  citegate completions zsh > ~/.zfunc/_citegate"),
    ("man", "citegate man > citegate.1 && man ./citegate.1"),
    ("relay", "S2_API_KEY=… citegate relay --listen 127.0.0.1:8787 --app-origin https://citegate.lab.example\n  citegate relay --listen 0.0.0.0:8787 --app-origin https://citegate.lab.example --cache relay-cache.json"),
    ("index", "citegate index build --out idx --dblp dblp.xml.gz --arxiv arxiv-metadata-oai-snapshot.json\n  citegate index lookup --index idx --title \"Attention Is All You Need\""),
];

/// Adds `Examples:` to every subcommand's help (the tables below). All
/// in one pass (`mut_subcommand` by name moved each subcommand to the end
/// of the list, every command's start-up paying for the copies).
fn with_examples(cmd: clap::Command) -> clap::Command {
    cmd.mut_subcommands(|c| {
        let name = c.get_name();
        let text = EXAMPLES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.to_string())
            .or_else(|| example_of(name))
            .unwrap_or_else(|| format!("citegate {name} --help"));
        c.after_help(format!("Examples:\n  {text}"))
    })
}

/// Examples of the other subcommands (the README's, where it has one).
fn example_of(name: &str) -> Option<String> {
    Some(match name {
        "match" => "citegate match --candidate \"Linformer\" --found \"Linformer: Self-Attention with Linear Complexity\" --substring-bypass".into(),
        "cutoff" => "citegate cutoff --paper-year 2024 --paper-month 9 --cutoff 2024-10-01".into(),
        "pre-dedup" => "citegate pre-dedup --in raw_candidates.json --out candidates.json".into(),
        "dedupe" => "citegate dedupe --in raw_pool.json --out citation_pool.json --cutoff 2024-10-01".into(),
        "bibtex" => "citegate bibtex --pool citation_pool.json --out refs.bib --csl-out refs.json".into(),
        "coverage" => "citegate coverage --tex main.tex --pool citation_pool.json".into(),
        "outline-queries" => "citegate outline-queries --outline outline.json --json".into(),
        "verify" => "citegate verify --in candidates.json --cutoff 2024-10-01 --out raw_pool.json".into(),
        "validate-pool" => "citegate validate-pool --pool citation_pool.json --fix".into(),
        "prompt" => "citegate prompt --pool citation_pool.json --out prompt.md".into(),
        "fuse" => "citegate fuse --s2 s2.json --openalex openalex.json --query \"graph transformers\" --human".into(),
        "library" => "citegate library list --library refs.jsonl".into(),
        "crosscheck" => "citegate crosscheck --pool citation_pool.json".into(),
        "cites" => "citegate cites --tex main.tex --json".into(),
        "refs" => "citegate refs paper.bbl --json\n  citegate refs references.txt".into(),
        "batch" => "citegate batch --in submissions/ --out review --index idx --offline\n  citegate batch --in arxiv-ids.txt --out review".into(),
        "check" => "citegate check paper.bbl --online\n  citegate check source.tar.gz --online --json\n  citegate check arXiv:1706.03762 --online --format sarif".into(),
        "sync-keys" => "citegate sync-keys --pool citation_pool.json --tex main.tex --inplace".into(),
        "pool-chain" => "citegate pool-chain --workspace workspace --cutoff 2024-10-01".into(),
        "write" => "citegate write --template template.tex --pool citation_pool.json --outline outline.json --idea idea.md --log experimental_log.md --cutoff 2024-10-01 --api openai --llm-base http://127.0.0.1:11434/v1 --model llama3 --out intro_relwork.tex".into(),
        _ => return None,
    })
}

/// Lets every single-valued flag take a value that begins with `-` (a title
/// such as "-omics data", a negative threshold), in every subcommand.
/// Flags taking several values keep the default, or `--tex a.tex --json`
/// would read `--json` as a file name.
fn hyphen_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg: Arg| {
        let single = arg
            .get_num_args()
            .is_none_or(|n| n.max_values() <= 1 && n.takes_values());
        if single && arg.get_action().takes_values() {
            arg.allow_hyphen_values(true)
        } else {
            arg
        }
    })
    .mut_subcommands(hyphen_values)
}

fn main() -> ExitCode {
    let parsed = hyphen_values(with_examples(Cli::command()))
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version with exit 0 and usage errors with 2.
            let code = e.exit_code();
            let _ = e.print();
            return ExitCode::from(code as u8);
        }
    };
    let outcome = match cli.command {
        Command::Batch(cmd) => cmd.run(),
        Command::Relay(cmd) => cmd.run(),
        Command::Bib(cmd) => cmd.run(),
        Command::Index(cmd) => cmd.run(),
        Command::Match(cmd) => cmd.run(),
        Command::Paper(cmd) => cmd.run(),
        Command::Pool(cmd) => cmd.run(),
        Command::Search(cmd) => cmd.run(),
        Command::Tex(cmd) => cmd.run(),
        Command::Write(cmd) => cmd.run(),
        Command::Completions { shell } => {
            let mut cmd = with_examples(Cli::command());
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "citegate", &mut script);
            io::out!("{}", String::from_utf8_lossy(&script));
            Ok(io::PASS)
        }
        Command::Man => {
            let man = clap_mangen::Man::new(with_examples(Cli::command()));
            let mut page = Vec::new();
            man.render(&mut page)
                .map(|()| {
                    io::out!("{}", String::from_utf8_lossy(&page));
                    io::PASS
                })
                .map_err(|e| error::Error::write(std::path::Path::new("the man page"), &e))
        }
    };
    // The one place an error is printed.
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
