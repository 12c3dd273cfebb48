//! `c960 book`: opening books for engine testers.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{Variant, variant_parser};

#[derive(Debug, Args)]
#[command(
    after_help = "Every book line is a six-field FEN with Shredder-FEN castling (the castling \
                  rooks' files, HAha for the classical setup), which fastchess, cutechess-cli \
                  and python-chess read alike; a manifest NAME.json beside NAME.epd records \
                  how the book was made, its line count and SHA-256. Name a book with FRC in \
                  it (c960_FRC_starts.epd) and fishtest and OpenBench play it as Chess960.\n\n\
                  `c960 book --verify FILE...` checks books line by line (legal in Chess960, \
                  castling rights naming real rooks, KQkq read alike by fastchess and \
                  cutechess, not game over, no duplicates), naming each bad line as \
                  FILE:LINE: reason; exit code 2 when any line is bad.\n\n\
                  Examples:\n  \
                  c960 book starts --out c960_FRC_starts.epd\n  \
                  c960 book starts --variant dfrc --out c960_DFRC_starts.epd\n  \
                  c960 book balanced --balance data/research-v3/balance.csv --fairest 240 --out c960_FRC_balanced.epd\n  \
                  c960 book --verify c960_FRC_starts.epd FRC_openings.epd"
)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub(crate) struct BookArgs {
    /// Check these books line by line instead of writing one: each bad
    /// line as `FILE:LINE: reason` on stdout, then a summary per book.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(crate) verify: Vec<PathBuf>,
    /// --verify's output: readable lines, or one JSON document.
    #[arg(long, value_enum, requires = "verify")]
    pub(crate) format: Option<super::ReportFormat>,
    #[command(subcommand)]
    pub(crate) command: Option<BookCommand>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum BookCommand {
    /// The start positions as a book: Chess960 in SP order, DFRC setups in
    /// index order (white SP × 960 + black SP).
    Starts(BookStartsArgs),
    /// The start positions of a balance table nearest a reference (equal
    /// chances by default), each position's interval included, in SP
    /// order.
    Balanced(super::BookBalancedArgs),
    /// Check books line by line (the same as `c960 book --verify`).
    Verify(super::BookVerifyArgs),
    /// Positions a few plies after each start, kept by an evaluation
    /// window (White's centipawns or the engine's draw rate).
    Exits(Box<super::BookExitsArgs>),
    /// Fit a draw model for exit books to game pairs played from exits
    /// at the book's budget.
    DrawModel(super::BookDrawModelArgs),
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
                        c960 book starts --out c960_FRC_starts.epd\n  \
                        c960 book starts --variant dfrc --out c960_DFRC_starts.epd\n  \
                        c960 book starts --variant dfrc --positions sample:2000:1 --out c960_DFRC_sample.epd")]
pub(crate) struct BookStartsArgs {
    /// Chess960 positions or Double Fischer Random setups.
    #[arg(long, value_parser = variant_parser(), default_value = "chess960")]
    pub(crate) variant: Variant,
    /// Which setups: `all`, or numbers and ranges such as 0-99,518; with
    /// --variant dfrc also symmetric, white:SP, black:SP, sample:N:SEED.
    #[arg(long, value_name = "SET", default_value = "all")]
    pub(crate) positions: String,
    /// The book file (its manifest goes beside it, extension .json).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
}
