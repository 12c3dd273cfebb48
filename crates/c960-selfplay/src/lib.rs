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
//! checks, each game's seed), `run` (the runner: the run directory held,
//! the games still to play, the outputs written), `prepared` (engines
//! started once, the journal opened, the games handed to `c960-runner`'s
//! job runner), `game` (one game between two engine processes), `stats`
//! and `pairs` (per-position statistics and A-vs-B pairs, one game at a
//! time, with c960-balance's statistics), [`adaptive`] (rounds toward open
//! verdicts), `tables` and `pgn` (the outputs, `match.json` among them),
//! `manifest` (outcome and provenance), `merge` and `sharded` (shards
//! merged into one run, adaptive rounds on a cluster), `restore` (a run
//! directory rebuilt from its published game table), [`checks`] (what a
//! journaled game must satisfy) and `openings` (books).
//!
//! The manifest's model ([`c960_store::manifest::SelfplayManifest`], with
//! its adaptive rule and record, failed and missing games and timing) is
//! c960-store's, beside the other kinds' manifests; the manifest's fields
//! name each side's [`Control`] and the game [`Rules`], which are
//! c960-engine's. This crate builds the manifest (`manifest`) and writes
//! it with the run's outputs.

pub mod adaptive;
pub mod checks;
mod config;
mod game;
mod manifest;
mod merge;
mod openings;
mod pairs;
mod pgn;
mod prepared;
mod restore;
mod run;
mod sharded;
mod stats;
mod tables;

pub use adaptive::{ROUNDS_FILE, Round};
// The match statistics live in c960-balance; the run's configuration and
// manifest hold them, so they are part of this crate's API too.
pub use c960_balance::elo::{MatchStats, Sprt, SprtState};
// Each side's control and the game rules are c960-engine's, the manifest's
// model c960-store's: the configuration and outcome of a run hold them.
pub use c960_engine::{Control, Rules, TimeControl, parse_seconds};
pub use c960_runner::{Progress, RunError};
pub use c960_store::manifest::{Adaptive, AdaptiveRecord, FailedGame, MissingGame};
pub(crate) use config::validate;
pub use config::{MatchOptions, SelfplayConfig, check_jitter, game_seed, processes_label};
pub use game::{Castling, GameRecord, GameSpec, Outcome, Termination, adjudicate, jittered, play};
pub use manifest::{ADAPTIVE_NOTE, CLOCK_NOTE, SelfplayOutcome};
pub use merge::{MergeOutcome, merge};
pub use openings::{Book, Opening, OpeningOrder};
pub use pairs::PairTally;
pub use pgn::{PgnExtras, write_game, write_game_with};
pub use restore::{RestoreOutcome, restore};
pub use run::run;
pub use sharded::{RoundStep, merge_round, open_rounds};
pub use stats::{Interval, PositionStats, PositionSummary, trinomial_interval};
pub use tables::MATCH_NOTES;
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
/// Every file a self-play run writes in its directory.
pub const OUTPUT_FILES: [&str; 8] = [
    JOURNAL_FILE,
    ROUNDS_FILE,
    GAMES_FILE,
    MANIFEST_FILE,
    PGN_FILE,
    POSITIONS_CSV,
    POSITIONS_PARQUET,
    MATCH_FILE,
];

/// Why a run could not go on: the runner's one error type.
pub type SelfplayError = RunError;
