//! `c960`: the command line of the c960 pipeline. Thin by design: it parses
//! flags (`cli.rs`), validates them and calls the library crates (`cmd/`,
//! one module per subcommand), and prints (`output.rs`). Commands that run
//! engines show progress and stop on Ctrl-C one way (`follow.rs`,
//! `interrupt.rs`), and every error ends in `exit_code` here, the one
//! place that maps errors to exit codes: 2 for bad input, 130 for Ctrl-C,
//! 1 for anything else.
//!
//! To follow `c960 run` from the command line to the files it writes,
//! start at `cli::RunArgs`, then `cmd/run/`, which hands the run to
//! `c960-ops` (its `run` module doc walks through the stages), which calls
//! `c960-sweep` and `c960-selfplay` (both run their work on `c960-runner`,
//! writing through `c960-store`) and `c960-report`.

mod cli;
mod cmd;
mod follow;
mod interrupt;
mod output;

use std::{io, process::ExitCode};

use clap::{CommandFactory as _, FromArgMatches as _, error::ErrorKind};

use crate::{
    cli::{Cli, Command},
    output::say,
};

fn main() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(err) => return report_usage_error(&err),
    };
    let result = match cli.command {
        Command::Run(args) => cmd::run::run(&args),
        Command::Positions(args) => cmd::positions::run(&args),
        Command::Show(args) => cmd::show::run(&args),
        Command::Draw(args) => cmd::draw::run(&args),
        Command::Tournament(args) => cmd::tournament::run(&args),
        Command::Dice(args) => cmd::dice::run(&args),
        Command::Sweep(args) => cmd::sweep::run(&args),
        Command::Selfplay(args) => cmd::selfplay::run(&args),
        Command::Uci(_) => cmd::uci::run(),
        Command::Report(args) => cmd::report::run(&args),
        Command::Balance(args) => cmd::balance::run(&args),
        Command::Compare(args) => cmd::compare::run(&args),
        Command::Import(args) => cmd::import::run(&args),
        Command::Openings(args) => cmd::openings::run(&args),
        Command::Merge(args) => cmd::merge::run(&args),
        Command::Restore(args) => cmd::restore::run(&args),
        Command::Book(args) => cmd::book::run(&args),
        Command::Slurm(args) => cmd::slurm::run(&args),
        Command::Completions(args) => cmd::reference::completions(&args),
        Command::Man(args) => cmd::reference::man(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            say!("c960: error: {}", one_line(&message(&err)));
            ExitCode::from(exit_code(&err))
        }
    }
}

/// The command line, with every flag that takes a value accepting negative
/// numbers: `--jitter -0.5` reaches the flag's own range check instead of
/// being read as a flag `-0`.
fn command() -> clap::Command {
    fn negatives(command: clap::Command) -> clap::Command {
        command
            .mut_args(|arg| {
                if arg.get_action().takes_values() {
                    arg.allow_negative_numbers(true)
                } else {
                    arg
                }
            })
            .mut_subcommands(negatives)
    }
    // `c960 run --help` ends with a config file written from the plan
    // itself, so help and `--dry-run` agree.
    let cli =
        Cli::command().mut_subcommand("run", |run| run.after_help(cmd::run::run_after_help()));
    negatives(cli)
}

/// Help and version go to stdout with success; every other parse error is
/// bad input: one line on stderr, exit code 2.
fn report_usage_error(err: &clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Printing help can only fail on a closed stdout; nothing to add.
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(2)
        }
        _ => {
            // clap's message is the paragraph before the usage block.
            let rendered = err.render().to_string();
            let paragraph: Vec<&str> = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            let message = paragraph.join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            say!("c960: error: {} (see --help)", clip_long_words(message));
            ExitCode::from(2)
        }
    }
}

/// 130 for a run stopped by Ctrl-C; 2 for bad input (a position, draw or
/// dice rolls that cannot be, an engine that cannot be used, a run
/// directory made with other settings); 1 for anything else.
fn exit_code(err: &anyhow::Error) -> u8 {
    if err
        .chain()
        .any(<dyn std::error::Error>::is::<interrupt::Interrupted>)
    {
        return 130;
    }
    // Each library error says whether the input is at fault; the library
    // reads them (`c960_ops::failure`).
    if err.chain().any(c960_ops::failure::is_bad_input) {
        2
    } else {
        1
    }
}

/// A reader that closes the pipe early (`c960 positions | head`) is not an
/// error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes joined by ": ", each said once: a cause
/// whose text an outer message already includes is not repeated.
fn message(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if part.is_empty() || text.contains(&part) {
            continue;
        }
        // A cause that repeats the context and goes on ("cannot write X"
        // then "cannot write X: why") is said once.
        if !text.is_empty() && part.starts_with(&text) {
            text = part;
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn one_line(message: &str) -> String {
    clip_long_words(&message.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Words longer than this are shortened in error messages (paths this long
/// are shown whole).
const LONGEST_WORD: usize = 160;

/// Shortens every word (run of non-space characters) longer than
/// [`LONGEST_WORD`] characters to its first 100 and last 40 characters
/// around a bracketed ellipsis, with its length: a 100 KB argument echoed in an error
/// stays readable, and a long path keeps its file name.
fn clip_long_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut rest = message;
    while !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(end);
        let chars = word.chars().count();
        if chars > LONGEST_WORD {
            // A bracketed ellipsis marks what was left out: between digits
            // a bare one would read as a range.
            out.extend(word.chars().take(100));
            out.push_str("[…]");
            out.extend(word.chars().skip(chars - 40));
            out.push_str(" (");
            out.push_str(&chars.to_string());
            out.push_str(" characters, shortened)");
        } else {
            out.push_str(word);
        }
        let spaces = tail.len() - tail.trim_start().len();
        out.push_str(&tail[..spaces]);
        rest = &tail[spaces..];
    }
    out
}
