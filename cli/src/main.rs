//! `citegate`: the core's checks as a native command-line tool.
//!
//! This crate is glue: it reads files, calls `citegate-core`, prints text or
//! JSON and picks an exit code. No decision is made here that the core does
//! not make. Each domain's subcommands live in their own module.
//!
//! Exit codes follow the reference scripts: 0 pass, 1 fail (the check ran and
//! found problems), 2 bad input or usage.

mod bib_cmds;
mod http;
mod io;
mod live;
mod match_cmds;
mod pool_cmds;
mod search_cmds;
mod tex_cmds;

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
    Bib(bib_cmds::BibCommand),
    #[command(flatten)]
    Match(match_cmds::MatchCommand),
    #[command(flatten)]
    Pool(pool_cmds::PoolCommand),
    #[command(flatten)]
    Search(search_cmds::SearchCommand),
    #[command(flatten)]
    Tex(tex_cmds::TexCommand),
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
    io::exit_quietly_on_broken_pipe();
    let parsed = hyphen_values(Cli::command())
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
    let code = match cli.command {
        Command::Bib(cmd) => cmd.run(),
        Command::Match(cmd) => cmd.run(),
        Command::Pool(cmd) => cmd.run(),
        Command::Search(cmd) => cmd.run(),
        Command::Tex(cmd) => cmd.run(),
    };
    ExitCode::from(code)
}
