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
                  Examples:\n  \
                  c960 book starts --out c960_FRC_starts.epd\n  \
                  c960 book starts --variant dfrc --out c960_DFRC_starts.epd"
)]
pub(crate) struct BookArgs {
    #[command(subcommand)]
    pub(crate) command: BookCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum BookCommand {
    /// The start positions as a book: Chess960 in SP order, DFRC setups in
    /// index order (white SP × 960 + black SP).
    Starts(BookStartsArgs),
    /// Positions a few plies after each start, kept by an evaluation
    /// window (White's centipawns or the engine's draw rate).
    Exits(Box<super::BookExitsArgs>),
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
