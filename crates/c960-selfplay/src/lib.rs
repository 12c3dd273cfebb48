//! c960-selfplay: engine games from Chess960 start positions, with White's
//! score per position and a confidence interval.
//!
//! Games are played as the standard match runners play them: one engine
//! process and hash per side, `ucinewgame` to each before every game; on a
//! node limit, a clock or a time per move; from the bare start positions or
//! an opening book. Two engines play colour-reversed pairs, summed up by
//! pentanomial statistics and, optionally, a generalized SPRT.
//!
//! Each game has a seed that jitters the node budget of every move, so
//! repeated games from one position differ while the opening is left to the
//! engines; the same seed replays the same game. Games are journaled as
//! they finish (a killed run resumes with exactly the games of an
//! uninterrupted one), statistics are aggregated one game at a time, and
//! the outputs are written in (SP, game) order from the journal, so memory
//! stays flat however many games are played.
//!
//! Modules, in the order a run uses them: `config` (what to play, its
//! checks, each game's seed), `run` (the runner: engines started once, the
//! journal opened, the games handed to `c960-runner`'s job runner), `game`
//! (one game between two engine processes), `stats` and `pairs`
//! (per-position statistics and A-vs-B pairs, one game at a time, with
//! c960-balance's statistics), [`adaptive`]
//! (rounds toward open verdicts), `tables` and `pgn` (the outputs),
//! `manifest` (outcome and provenance), `merge` and `sharded` (shards
//! merged into one run, adaptive rounds on a cluster), `restore` (a run
//! directory rebuilt from its published game table), [`checks`] (what a
//! journaled game must satisfy) and `openings` (books).

pub mod adaptive;
pub mod checks;
mod config;
mod game;
mod manifest;
mod merge;
mod openings;
mod pairs;
mod pgn;
mod restore;
mod run;
mod sharded;
mod stats;
mod tables;

pub use adaptive::{Adaptive, AdaptiveRecord, ROUNDS_FILE, Round};
// The match statistics live in c960-balance; the run's configuration and
// manifest hold them, so they are part of this crate's API too.
pub use c960_balance::elo::{MatchStats, Sprt, SprtState};
pub use c960_runner::{Progress, RunError};
pub(crate) use config::validate;
pub use config::{
    MatchOptions, PROCESS_PER_SIDE, SHARED_PROCESS, SelfplayConfig, game_seed, processes_label,
};
pub use game::{
    Castling, Control, GameRecord, GameSpec, Outcome, Rules, Termination, TimeControl, jittered,
    parse_seconds, play,
};
pub use manifest::{
    ADAPTIVE_NOTE, CLOCK_NOTE, FailedGame, MATCH_NOTES, Manifest, Merged, RunTiming,
    SelfplayOutcome,
};
pub(crate) use manifest::{manifest, now};
pub use merge::{MergeOutcome, MissingGame, merge};
pub use openings::{Book, Opening, OpeningOrder};
pub use pairs::PairTally;
pub use pgn::{PgnExtras, write_game, write_game_with};
pub use restore::{RestoreOutcome, restore};
pub use run::run;
pub(crate) use run::{Prepared, write_outputs};
pub use sharded::{RoundStep, merge_round, open_rounds};
pub use stats::{Interval, PositionStats, PositionSummary, trinomial_interval};
pub(crate) use tables::write_run_outputs;

/// The journal of finished games.
pub use c960_store::JOURNAL_FILE;
/// All games as PGN.
pub const PGN_FILE: &str = "games.pgn";
/// One row per game.
pub const GAMES_FILE: &str = c960_store::GAMES_TABLE;
/// One row per position, Parquet.
pub const POSITIONS_PARQUET: &str = c960_store::POSITIONS_TABLE;
/// One row per position, CSV.
pub const POSITIONS_CSV: &str = c960_store::POSITIONS_CSV;
/// Provenance.
pub const MANIFEST_FILE: &str = c960_store::MANIFEST_FILE;
/// Engine A against B: pentanomial counts, score, Elo, LOS and SPRT.
pub const MATCH_FILE: &str = "match.json";

/// Why a run could not go on: the runner's one error type.
pub type SelfplayError = RunError;
