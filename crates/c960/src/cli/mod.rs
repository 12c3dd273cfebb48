//! The command line as typed: one struct per subcommand, mirroring the flags.
//! Each subcommand module validates its struct before doing any work.
//! Here: the command itself and the value types several commands share;
//! `runs.rs` the engine runs' flags, `organizer.rs` the organizer's,
//! `data.rs` those of the commands that read and show data.

mod book;
mod book_checks;
mod book_exits;
mod data;
mod organizer;
mod runs;

pub(crate) use book::*;
pub(crate) use book_checks::*;
pub(crate) use book_exits::*;
pub(crate) use data::*;
pub(crate) use organizer::*;
pub(crate) use runs::*;

use clap::{Parser, Subcommand, ValueEnum};

/// A flag value that parses but makes no sense (an exit code 2 error):
/// the library's one kind of refusal in words.
pub(crate) use c960_ops::InputError;

#[derive(Debug, Parser)]
#[command(
    name = "c960",
    version,
    about = "Measure how balanced each Chess960 start position is",
    long_about = "c960 knows all 960 Chess960 (Fischer Random) start positions by their \
                  Scharnagl number (SP 0..=959, SP 518 = classical), computes their static \
                  features (weak pawns, pawns attackable on move 1, castling opportunities), \
                  scores them with an engine, plays self-play games from them, reports the \
                  results as tables, charts and a static site, and draws positions for \
                  tournaments reproducibly.",
    after_help = format!(
        "Examples:\n  \
         c960 run                               # the whole pipeline, within {} minutes\n  \
         c960 positions --out positions.csv\n  \
         c960 show 518\n  \
         c960 draw --phrase \"Club Open 2026 round 1\"\n  \
         c960 dice 2 3 3 2 3",
        runs::QUICK_MINUTES
    )
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The whole pipeline: positions, engine sweep, self-play and report.
    Run(RunArgs),
    /// Write all 960 positions with every feature, one row each.
    Positions(PositionsArgs),
    /// Show one position: board, numbers, FENs and every feature.
    Show(ShowArgs),
    /// Draw positions for a tournament, reproducibly, from a seed or a phrase.
    Draw(DrawArgs),
    /// A tournament kit: announcement, printable round sheets with castling
    /// rules in words, and a verifiable draw record.
    Tournament(TournamentArgs),
    /// Turn die rolls into a position with the dice procedure.
    Dice(DiceArgs),
    /// Score start positions with an engine (Stockfish when installed).
    Sweep(SweepArgs),
    /// Play engine games from start positions: White's score with intervals.
    Selfplay(Box<SelfplayArgs>),
    /// Run the built-in engine as a UCI engine on standard input and output.
    Uci(UciArgs),
    /// Build the report: table, charts and a static site for all positions.
    Report(ReportArgs),
    /// Verdicts per position with error control, and how reliable each
    /// method's ranking is, from games and sweeps.
    Balance(BalanceArgs),
    /// Agreement of a per-position column with independent analyses:
    /// correlations with bootstrap intervals, decile overlap, offset, scale.
    Compare(CompareArgs),
    /// Import Chess960 games from PGN (or .pgn.zst) into a game table.
    Import(ImportArgs),
    /// One position's opening tree from self-play or imported games.
    Openings(OpeningsArgs),
    /// Merge shard directories (or runs of the same settings) into one run.
    Merge(MergeArgs),
    /// Rebuild a self-play run directory from its published game table.
    Restore(RestoreArgs),
    /// Opening books for engine testers: start positions, balanced
    /// starts, exits in an evaluation window; and a line-by-line checker.
    Book(BookArgs),
    /// Write (and submit) a Slurm array job of shards and the merge after it.
    Slurm(SlurmArgs),
    /// Shell completions, generated from the same definitions as --help.
    Completions(CompletionsArgs),
    /// The man pages, generated from the same definitions as --help.
    Man(ManArgs),
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
                        c960 completions bash > ~/.local/share/bash-completion/completions/c960\n  \
                        c960 completions zsh > ~/.zfunc/_c960\n  \
                        c960 completions fish > ~/.config/fish/completions/c960.fish")]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
                        c960 man | man -l -                  # read it\n  \
                        c960 man --out man                   # c960.1 and c960-run.1, ...")]
pub(crate) struct ManArgs {
    /// Write c960.1 and one page per subcommand (c960-run.1, ...) into this
    /// directory instead of printing c960.1.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<std::path::PathBuf>,
}

/// Table formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// A JSON array with one object per position.
    Json,
    /// Apache Parquet (needs --out).
    Parquet,
}

/// A count that must be at least 1 (`NonZeroU32`, `usize`, ...): the
/// parser of every such flag, so that zero is refused in one place, in
/// words, whatever the type would take.
pub(crate) fn at_least_one<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    let refused = || "must be a whole number, at least 1".to_owned();
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => text.parse().map_err(|_| refused()),
        _ => Err(refused()),
    }
}

/// Which family of start positions: c960-core's own type, parsed by clap.
pub(crate) use c960_core::Variant;

/// The parser of a flag whose values are a library's type (which cannot
/// derive clap's `ValueEnum`): each value's name, its help, and the value.
pub(crate) fn named_values<T: Copy + Send + Sync + 'static>(
    values: &'static [(&'static str, &'static str, T)],
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    PossibleValuesParser::new(
        values
            .iter()
            .map(|&(name, help, _)| PossibleValue::new(name).help(help)),
    )
    .map(move |name| {
        values
            .iter()
            .find(|&&(n, ..)| n == name)
            .map(|&(.., value)| value)
            .expect("clap passes only the names it was given")
    })
}

/// `--variant`'s parser: its two names, with help, as c960-core's type.
pub(crate) fn variant_parser() -> impl clap::builder::TypedValueParser<Value = Variant> {
    named_values(&[
        (
            "chess960",
            "The 960 Chess960 positions (both sides alike)",
            Variant::Chess960,
        ),
        (
            "dfrc",
            "Double Fischer Random: 921,600 setups, each side's rank drawn apart",
            Variant::Dfrc,
        ),
    ])
}

/// Formats for a report about a few positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// Readable text.
    Text,
    /// JSON.
    Json,
}
