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

pub mod adaptive;
pub mod checks;
mod game;
mod matchstats;
mod merge;
mod openings;
mod pgn;
mod sharded;
mod stats;
mod tables;

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    fs, io,
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
    time::SystemTime,
};

use c960_core::{Setup, Shard, Variant, splitmix64};
use c960_engine::{
    AnyEngine, Engine, EngineError, EngineInfo, EngineSpec, Limit,
    pool::{self, PoolOptions},
};
use c960_store::{Journal, JournalError};
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use adaptive::{Adaptive, AdaptiveRecord, ROUNDS_FILE, Round};
pub use game::{
    Castling, Control, GameRecord, GameSpec, Outcome, Rules, Termination, TimeControl, jittered,
    parse_seconds, play,
};
pub use matchstats::{Estimate, MatchStats, PairTally, Sprt, SprtState, llr};
pub use merge::{MergeOutcome, MissingGame, merge};
pub use openings::{Book, Opening, OpeningOrder};
pub use pgn::{PgnExtras, write_game, write_game_with};
pub use sharded::{RoundStep, merge_round, open_rounds};
pub use stats::{Interval, PositionStats, PositionSummary, trinomial_interval};
pub(crate) use tables::write_run_outputs;

/// The journal of finished games.
pub const JOURNAL_FILE: &str = "journal.jsonl";
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

/// What to play and how.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The engine (both sides, or White in even games against `engine_b`).
    pub engine: EngineSpec,
    /// A second engine: each position is then played in colour-reversed
    /// pairs, A as White in even games and B in odd ones.
    pub engine_b: Option<EngineSpec>,
    /// Limit per move, before jitter.
    pub limit: Limit,
    /// Relative node jitter per move.
    pub jitter: f64,
    /// Game end rules.
    pub rules: Rules,
    /// Games per position.
    pub games_per_position: u32,
    /// The positions.
    pub positions: Vec<Setup>,
    /// The run seed; each game's seed derives from it.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// Replays of a game whose engine failed.
    pub retries: u32,
    /// Keep the score after each move (and put it in the PGN).
    pub keep_scores: bool,
    /// The run directory.
    pub out: PathBuf,
    /// How the match is run beyond the per-move limit.
    pub options: MatchOptions,
    /// This run's part of the games ([`Shard::WHOLE`] for all): unit
    /// (SP, game), or (SP, game / 2) for colour-reversed pairs, of
    /// [`Shard::contains`].
    pub shard: Shard,
}

/// How a match is run beyond the per-move limit. The default is what the
/// standard match runners do: one engine process (and hash) per side.
#[derive(Clone, Debug, Default)]
pub struct MatchOptions {
    /// One engine process plays both colours of a game (one engine only):
    /// faster, but each side then searches with the other side's analysis
    /// in its hash. Recorded in the manifest and the PGN.
    pub shared_process: bool,
    /// A clock or a time per move for engine A (and for both sides of one
    /// engine) in place of `limit`.
    pub control: Option<Control>,
    /// Engine B's own control (limit, clock or time per move); engine A's
    /// when not given.
    pub control_b: Option<Control>,
    /// How far past its time a side may answer before it loses on time,
    /// in milliseconds.
    pub time_margin_ms: u64,
    /// Stop an A-vs-B match when this SPRT accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// Where the engines' UCI logs go (set in the engine specs too), for
    /// the manifest.
    pub log_dir: Option<PathBuf>,
    /// Play these openings (each `games_per_position` times, in
    /// colour-reversed pairs against a second engine) instead of the bare
    /// start positions; `positions` must hold their start positions.
    pub openings: Option<Book>,
    /// Play adaptively: `games_per_position` games each, then rounds for
    /// the positions whose interval is still open (one engine, no book).
    pub adaptive: Option<Adaptive>,
    /// A shard of an adaptive run (with `adaptive` and a shard): the run
    /// directory whose journal of rounds sets the games to play, this
    /// shard's part of every round decided so far.
    pub rounds_from: Option<PathBuf>,
}

impl SelfplayConfig {
    /// The variant of the run's setups (Chess960 when it has none).
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.positions
            .first()
            .map_or(Variant::Chess960, |p| p.variant())
    }

    /// Engine A's control: its clock or time per move, else its limit.
    #[must_use]
    pub fn control_a(&self) -> Control {
        self.options.control.unwrap_or(Control::Fixed(self.limit))
    }

    /// Engine B's control (engine A's unless set).
    #[must_use]
    pub fn control_b(&self) -> Control {
        self.options.control_b.unwrap_or_else(|| self.control_a())
    }

    /// Whether any side plays on time (its games do not replay exactly).
    #[must_use]
    pub fn timed(&self) -> bool {
        let b = self.engine_b.is_some().then(|| self.control_b());
        std::iter::once(self.control_a())
            .chain(b)
            .any(|c| matches!(c, Control::Clock(_) | Control::PerMove(_)))
    }

    /// Whether the same command replays the same games: every side on a
    /// node or depth limit.
    #[must_use]
    pub fn replays_exactly(&self) -> bool {
        let b = self.engine_b.is_some().then(|| self.control_b());
        std::iter::once(self.control_a())
            .chain(b)
            .all(Control::replays)
    }

    /// Engine B's control for the records, when it differs from A's.
    fn limit_b(&self) -> Option<String> {
        (self.engine_b.is_some() && self.control_b() != self.control_a())
            .then(|| self.control_b().to_string())
    }
}

/// The seed of game `game` (pair `game / 2` against a second engine, so
/// both colours of a pair share it) of position `sp`: `SplitMix64` of the run
/// seed, mixed with `sp << 32 | index` and mixed again.
#[must_use]
pub fn game_seed(run_seed: u64, sp: u32, index: u32) -> u64 {
    splitmix64(splitmix64(run_seed) ^ ((u64::from(sp) << 32) | u64::from(index)))
}

/// The settings a journal belongs to: games are only mixed when these are
/// equal. The positions and the number of games are not among them, so a
/// later run can add positions or games.
#[derive(Serialize)]
struct Settings<'a> {
    engine: &'a EngineInfo,
    engine_b: Option<&'a EngineInfo>,
    limit: String,
    jitter: f64,
    rules: Rules,
    seed: u64,
    keep_scores: bool,
    /// `one per side` when one engine plays itself with a process per side;
    /// absent when it shares one process (how journals were written before
    /// the sides got their own processes) and between two engines (always
    /// one process each), so those journals stay resumable.
    #[serde(skip_serializing_if = "Option::is_none")]
    processes: Option<&'static str>,
    /// Engine B's control when it differs from A's.
    #[serde(skip_serializing_if = "Option::is_none")]
    limit_b: Option<String>,
    /// The time margin, for runs on the clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    time_margin_ms: Option<u64>,
    /// The opening book: its openings, order and fingerprint.
    #[serde(skip_serializing_if = "Option::is_none")]
    openings: Option<String>,
    /// Absent for Chess960, so its journals stay what they were.
    #[serde(skip_serializing_if = "Variant::is_chess960")]
    variant: Variant,
}

/// How far a run has come.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Games finished, including those found in the journal.
    pub done: u64,
    /// Games that failed in this run.
    pub failed: u64,
    /// Games in the run.
    pub total: u64,
    /// Games found in the journal at the start.
    pub resumed: u64,
}

/// A game that failed on every attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedGame {
    /// Scharnagl number.
    pub sp: u32,
    /// Game index.
    pub game: u32,
    /// The last error.
    pub reason: String,
    /// The UCI logs of the engine processes of its last attempt (with
    /// `--log-engine`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<String>,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct SelfplayOutcome {
    /// Engines as set up.
    pub engines: Vec<EngineInfo>,
    /// Per-position summaries, by SP.
    pub positions: Vec<PositionSummary>,
    /// Games in the outputs.
    pub games: u64,
    /// Games that failed in this run.
    pub failed: Vec<FailedGame>,
    /// Games taken from the journal.
    pub resumed: u64,
    /// Whether the run stopped before every game was tried (no outputs).
    pub interrupted: bool,
    /// What this run played and how long the engines searched.
    pub timing: RunTiming,
    /// The journal.
    pub journal: PathBuf,
    /// Engine A's results against B over colour-reversed pairs.
    pub match_stats: Option<MatchStats>,
    /// Whether the SPRT accepted a hypothesis and ended the match early.
    pub sprt_stopped: bool,
    /// How an adaptive run ended.
    pub adaptive: Option<AdaptiveRecord>,
    /// The round a shard of an adaptive run has played (0: the initial
    /// games).
    pub round: Option<u32>,
}

/// Why a run could not go on.
#[derive(Debug, Error)]
pub enum SelfplayError {
    /// An engine cannot be used.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The journal cannot be used.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A file could not be read or written.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Nonsense settings.
    #[error("{0}")]
    Invalid(String),
}

impl SelfplayError {
    /// Whether the user must change the command rather than rerun it.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        match self {
            SelfplayError::Engine(e) => e.is_setup_error(),
            SelfplayError::Journal(e) => matches!(e, JournalError::SettingsDiffer { .. }),
            SelfplayError::Invalid(_) => true,
            SelfplayError::Io(_) => false,
        }
    }
}

/// Provenance of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// Always `selfplay`.
    pub kind: String,
    /// The setups' variant: absent for Chess960, `dfrc` for Double Fischer
    /// Random (whose tables name setups in a `setup` column).
    #[serde(default, skip_serializing_if = "Variant::is_chess960")]
    pub variant: Variant,
    /// The c960 version that wrote it.
    pub c960_version: String,
    /// The engines.
    pub engines: Vec<EngineInfo>,
    /// Engine processes per game: `one per side` (each side its own process
    /// and hash, `ucinewgame` to each before every game) or `one shared by
    /// both sides`.
    pub processes: String,
    /// Limit per move before jitter, or engine A's clock (`tc 40/60+0.6`)
    /// or time per move (`st 1.5`).
    pub limit: String,
    /// Engine B's limit or clock, when it differs from A's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_b: Option<String>,
    /// Whether the same command replays the same games: true for node and
    /// depth limits with one thread, false on the clock.
    pub replays_exactly: bool,
    /// How far past its time a side may answer before losing on time, in
    /// milliseconds (runs on the clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
    /// The opening book, if any: file, count, order and fingerprint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Where each engine process's UCI traffic was logged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_logs: Option<String>,
    /// Relative node jitter.
    pub jitter: f64,
    /// Game end rules.
    pub rules: Rules,
    /// Run seed.
    pub seed: u64,
    /// Games per position.
    pub games_per_position: u32,
    /// The positions.
    pub positions: String,
    /// Games in the outputs.
    pub games: u64,
    /// Games that failed.
    pub failed: Vec<FailedGame>,
    /// Games played at once.
    pub jobs: usize,
    /// What this run itself played (not games from the journal) and how
    /// long the engines searched: the harness cost per move is
    /// (wall − search) / moves for one job.
    pub this_run: RunTiming,
    /// Engine A's results against B (two engines only).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_stats: Option<MatchStats>,
    /// The adaptive rule and how the run ended (adaptive runs only); its
    /// intervals are then anytime-valid confidence sequences.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveRecord>,
    /// When this run started.
    pub started: String,
    /// When it finished.
    pub finished: String,
    /// How to read the tables.
    pub notes: String,
    /// The shard this run played (`I/N`), when it played one part only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// A shard of an adaptive run: the last round it has played, its part
    /// of the rounds in the run directory's `rounds.jsonl` (0: the initial
    /// games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// What `c960 merge` made the run of (nothing for a run of its own).
    #[serde(flatten)]
    pub merged: Merged,
}

/// What a merged run's manifest says about its inputs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Merged {
    /// The shards the tables were made from.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<Shard>,
    /// Games of the run that no input had (`--allow-missing`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<MissingGame>,
}

/// Work done by one run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunTiming {
    /// Games played by this run.
    pub games: u64,
    /// Moves played by this run.
    pub moves: u64,
    /// Wall time of the run, in seconds.
    pub wall_seconds: f64,
    /// Wall time between sending each search and receiving its best move,
    /// summed over all moves, in seconds.
    pub search_seconds: f64,
}

/// The engine processes of one worker.
enum Players {
    /// One process plays both colours (`--shared-process`).
    Shared(AnyEngine),
    /// One process per side: two of the same engine, or engines A and B.
    Sides {
        /// Engine A (White in even games against B; White against itself).
        a: AnyEngine,
        /// Engine B, or a second process of engine A.
        b: AnyEngine,
    },
}

impl Players {
    /// The UCI logs of the processes.
    fn logs(&self) -> Vec<String> {
        let engines: Vec<&AnyEngine> = match self {
            Players::Shared(a) => vec![a],
            Players::Sides { a, b } => vec![a, b],
        };
        engines
            .iter()
            .filter_map(|e| e.log_path())
            .map(|p| p.display().to_string())
            .collect()
    }
}

/// How the processes of a run are described in the manifest and the PGN.
#[must_use]
pub fn processes_label(shared: bool) -> &'static str {
    if shared {
        SHARED_PROCESS
    } else {
        PROCESS_PER_SIDE
    }
}

/// The processes of a default run: one engine process and hash per side.
pub const PROCESS_PER_SIDE: &str = "one per side";
/// The processes of a `--shared-process` run.
pub const SHARED_PROCESS: &str = "one shared by both sides";

/// Runs (or resumes) self-play. `stop`, once set, lets games in progress
/// finish and starts no new one; `on_progress` follows each game.
pub fn run(
    config: &SelfplayConfig,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(Progress),
) -> Result<SelfplayOutcome, SelfplayError> {
    validate(config)?;
    let started = now();
    let clock = std::time::Instant::now();
    let _lock = c960_store::DirLock::exclusive(&config.out).map_err(io::Error::other)?;
    let mut state = Prepared::new(config)?;
    let decided_before = state.sprt_decided(config);
    let (jobs, slots) = if decided_before {
        (Vec::new(), slots(config))
    } else {
        (jobs(config, &state.done), slots(config))
    };
    let mut total = games_in_shard(config, &slots);
    // A shard of an adaptive run plays its part of the rounds decided so far.
    let shard_round = match (&config.options.adaptive, &config.options.rounds_from) {
        (Some(rule), Some(dir)) => Some(adaptive::read_rounds(dir, config, rule)?),
        _ => None,
    };
    let jobs = match &shard_round {
        Some((_, targets)) => {
            total = adaptive::games_up_to(config, targets);
            adaptive::round_jobs(config, targets, &state.done, &HashSet::new())
        }
        None => jobs,
    };
    let resumed = state.done.len() as u64;
    let mut progress = Progress {
        done: resumed,
        failed: 0,
        total,
        resumed,
    };
    on_progress(progress);
    let whole_adaptive = config.options.adaptive.filter(|_| shard_round.is_none());
    let (failed, mut timing, adaptive) = if let Some(rule) = &whole_adaptive {
        let played = state.play_adaptive(config, rule, stop, &mut on_progress)?;
        (played.failed, played.timing, Some(played.record))
    } else {
        let (failed, timing) = state.play(config, &jobs, stop, |games, failed| {
            progress.done = resumed + games;
            progress.failed = failed;
            on_progress(progress);
        })?;
        (failed, timing, None)
    };

    let paired = state.engine_b.is_some();
    let positions = state.summaries(config);
    let games: u64 = positions.iter().map(|p| p.games).sum();
    let match_stats = paired.then(|| state.pairs.stats(config.options.sprt));
    let sprt_stopped = state.sprt_decided(config);
    let interrupted = match &adaptive {
        Some(record) => record.is_none(),
        None => !sprt_stopped && games + (failed.len() as u64) < total,
    };
    let mut engines = vec![state.engine_a];
    engines.extend(state.engine_b);
    timing.wall_seconds = clock.elapsed().as_secs_f64();
    let outcome = SelfplayOutcome {
        engines,
        positions,
        games,
        failed,
        resumed,
        interrupted,
        timing,
        journal: state.journal.path().to_owned(),
        match_stats,
        sprt_stopped,
        adaptive: adaptive.flatten(),
        round: shard_round.map(|(round, _)| round),
    };
    if !interrupted {
        write_outputs(config, &outcome, &manifest(config, &outcome, started))?;
    }
    Ok(outcome)
}

/// The manifest of a finished run.
fn manifest(config: &SelfplayConfig, outcome: &SelfplayOutcome, started: String) -> Manifest {
    Manifest {
        kind: "selfplay".to_owned(),
        variant: config.variant(),
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        engines: outcome.engines.clone(),
        processes: processes_label(config.options.shared_process).to_owned(),
        limit: config.control_a().to_string(),
        limit_b: config.limit_b(),
        replays_exactly: config.replays_exactly(),
        time_margin_ms: config.timed().then_some(config.options.time_margin_ms),
        openings: config
            .options
            .openings
            .as_ref()
            .map(|b| format!("{}: {}", b.source, b.describe())),
        engine_logs: config
            .options
            .log_dir
            .as_ref()
            .map(|d| d.display().to_string()),
        jitter: config.jitter,
        rules: config.rules,
        seed: config.seed,
        games_per_position: config.games_per_position,
        positions: Setup::format_set(&config.positions),
        games: outcome.games,
        failed: outcome.failed.clone(),
        jobs: config.jobs,
        this_run: outcome.timing,
        started,
        finished: now(),
        match_stats: outcome.match_stats.clone(),
        adaptive: outcome.adaptive.clone(),
        shard: (!config.shard.is_whole()).then_some(config.shard),
        round: outcome.round,
        merged: Merged::default(),
        notes: match (config.timed(), config.options.adaptive.is_some()) {
            (true, _) => format!("{NOTES} {CLOCK_NOTE}"),
            (false, true) => format!("{NOTES} {ADAPTIVE_NOTE}"),
            (false, false) => NOTES.to_owned(),
        },
    }
}

/// Where each position's or opening's games are numbered from: without a
/// book each position numbers its own games; with one, the games of the
/// k-th opening are k·G .. k·G + G − 1 (G games each).
fn slots(config: &SelfplayConfig) -> Vec<(Setup, u32)> {
    match &config.options.openings {
        Some(book) => book
            .openings
            .iter()
            .zip(0u32..)
            .map(|(o, k)| (Setup::from(o.position), k * config.games_per_position))
            .collect(),
        None => config.positions.iter().map(|p| (*p, 0)).collect(),
    }
}

/// The games still to play, round by round (a round is one game, or one
/// colour-reversed pair, from every position or opening), so an interrupted
/// run covers all of them evenly.
fn jobs(config: &SelfplayConfig, done: &HashSet<(u32, u32)>) -> Vec<(Setup, u32)> {
    let round: u32 = if config.engine_b.is_some() { 2 } else { 1 };
    let slots = slots(config);
    (0..config.games_per_position)
        .step_by(round as usize)
        .flat_map(|first| {
            slots.iter().flat_map(move |(p, base)| {
                (first..(first + round).min(config.games_per_position)).map(move |g| (*p, base + g))
            })
        })
        .filter(|(p, g)| in_shard(config, p.id(), *g) && !done.contains(&(p.id(), *g)))
        .collect()
}

/// The games of `slots` in this run's shard.
fn games_in_shard(config: &SelfplayConfig, slots: &[(Setup, u32)]) -> u64 {
    slots
        .iter()
        .map(|(p, base)| {
            (0..config.games_per_position)
                .filter(|g| in_shard(config, p.id(), base + g))
                .count() as u64
        })
        .sum()
}

/// Whether game `game` of position `sp` is in this run's shard: both games
/// of a colour-reversed pair are one unit.
fn in_shard(config: &SelfplayConfig, sp: u32, game: u32) -> bool {
    let unit = if config.engine_b.is_some() {
        game / 2
    } else {
        game
    };
    config.shard.contains(sp, unit)
}

/// A run ready to play: engines checked, the journal open and aggregated.
/// Engines started to identify a run (A, and B when it plays), kept for
/// the first worker.
type Spare = std::sync::Mutex<Option<(AnyEngine, Option<AnyEngine>)>>;

struct Prepared {
    engine_a: EngineInfo,
    engine_b: Option<EngineInfo>,
    /// The engines started to identify the run (A, and B when it plays),
    /// until the first worker takes them.
    spare: Spare,
    journal: Journal<GameRecord>,
    stats: BTreeMap<u32, PositionStats>,
    done: HashSet<(u32, u32)>,
    /// White's score of every finished game (adaptive runs only).
    scores: adaptive::Scores,
    /// Engine A's colour-reversed pairs against B.
    pairs: PairTally,
}

impl Prepared {
    /// Whether the match's SPRT has accepted a hypothesis.
    fn sprt_decided(&self, config: &SelfplayConfig) -> bool {
        self.engine_b.is_some()
            && config.options.sprt.is_some()
            && self
                .pairs
                .stats(config.options.sprt)
                .sprt
                .is_some_and(|s| s.accepted.is_some())
    }

    fn new(config: &SelfplayConfig) -> Result<Prepared, SelfplayError> {
        fs::create_dir_all(&config.out).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create {}: {e}", config.out.display()),
            )
        })?;
        // Start the engines once up front: a wrong engine is reported before
        // any work, their identities label the journal, and the first
        // worker plays with them.
        let started_a = config.engine.start()?;
        let started_b = match &config.engine_b {
            Some(b) => Some(b.start()?),
            None => None,
        };
        let engine_a = started_a.info().clone();
        let engine_b = started_b.as_ref().map(|b| b.info().clone());
        let checks = [
            (Some(&engine_a), config.control_a()),
            (engine_b.as_ref(), config.control_b()),
        ];
        for (info, control) in checks {
            if let (Some(info), Control::Fixed(limit)) = (info, control)
                && let Some(problem) = info.unsupported_limit(limit)
            {
                return Err(SelfplayError::Invalid(problem));
            }
        }
        let paired = engine_b.is_some();
        let settings = Settings {
            engine: &engine_a,
            engine_b: engine_b.as_ref(),
            limit: config.control_a().to_string(),
            jitter: config.jitter,
            rules: config.rules,
            seed: config.seed,
            keep_scores: config.keep_scores,
            limit_b: config.limit_b(),
            time_margin_ms: config.timed().then_some(config.options.time_margin_ms),
            openings: config.options.openings.as_ref().map(Book::describe),
            processes: (!paired && !config.options.shared_process).then_some(PROCESS_PER_SIDE),
            variant: config.variant(),
        };
        let mut stats: BTreeMap<u32, PositionStats> = BTreeMap::new();
        let mut done = HashSet::new();
        let mut scores = adaptive::Scores::new();
        let keep_scores = config.options.adaptive.is_some();
        let mut pairs = PairTally::default();
        let journal = Journal::<GameRecord>::open_streaming_checked(
            &config.out.join(JOURNAL_FILE),
            &settings,
            &checks::validation(config),
            |game| {
                if wanted(config, game.sp, game.game) && done.insert((game.sp, game.game)) {
                    stats.entry(game.sp).or_default().add(&game, paired);
                    if keep_scores {
                        scores
                            .entry(game.sp)
                            .or_default()
                            .insert(game.game, game.result.white_score());
                    }
                    if paired {
                        pairs.add(&game);
                    }
                }
            },
        )?;
        Ok(Prepared {
            engine_a,
            engine_b,
            spare: std::sync::Mutex::new(Some((started_a, started_b))),
            journal,
            stats,
            done,
            scores,
            pairs,
        })
    }

    /// Plays `jobs` on the pool, journaling and counting each game as it
    /// finishes; `on_finished(games, failed)` (this run's counts) follows
    /// each. Returns the failed games and this run's timing.
    /// Each position's summary of its games: with anytime-valid intervals
    /// in an adaptive run.
    fn summaries(&self, config: &SelfplayConfig) -> Vec<PositionSummary> {
        let paired = self.engine_b.is_some();
        config
            .positions
            .iter()
            .map(|p| {
                let summary = self
                    .stats
                    .get(&p.id())
                    .cloned()
                    .unwrap_or_default()
                    .summary(p.id(), paired);
                match &config.options.adaptive {
                    Some(rule) => self.anytime_summary(summary, rule.alpha),
                    None => summary,
                }
            })
            .collect()
    }

    /// One worker's engines: the identifying engines (`spare`) first, then
    /// new ones.
    fn players(spare: &Spare, config: &SelfplayConfig) -> Result<Players, EngineError> {
        let (a, b) = match spare.lock().ok().and_then(|mut s| s.take()) {
            Some((a, b)) => (a, b),
            None => (config.engine.start()?, None),
        };
        Ok(match &config.engine_b {
            Some(spec) => Players::Sides {
                a,
                b: match b {
                    Some(b) => b,
                    None => spec.start()?,
                },
            },
            None if config.options.shared_process => Players::Shared(a),
            None => Players::Sides {
                b: config.engine.start()?,
                a,
            },
        })
    }

    fn play(
        &mut self,
        config: &SelfplayConfig,
        jobs: &[(Setup, u32)],
        stop: &AtomicBool,
        mut on_finished: impl FnMut(u64, u64),
    ) -> Result<(Vec<FailedGame>, RunTiming), SelfplayError> {
        let paired = self.engine_b.is_some();
        let failed_logs: std::sync::Mutex<HashMap<(u32, u32), Vec<String>>> =
            std::sync::Mutex::default();
        let spare = &self.spare;
        let start = || Prepared::players(spare, config);
        let work = |players: &mut Players, job: &(Setup, u32)| {
            let (position, index) = *job;
            let spec = game_spec(config, paired, position, index);
            let result = match players {
                Players::Sides { a, b } if paired && index % 2 == 1 => play(&spec, b, Some(a)),
                Players::Sides { a, b } => play(&spec, a, Some(b)),
                Players::Shared(a) => play(&spec, a, None),
            };
            if result.is_err() {
                let logs = players.logs();
                if !logs.is_empty()
                    && let Ok(mut map) = failed_logs.lock()
                {
                    map.insert((position.id(), index), logs);
                }
            }
            result
        };
        let mut failed = Vec::new();
        let mut journal_error = None;
        let mut timing = RunTiming::default();
        let (journal, stats, pairs) = (&mut self.journal, &mut self.stats, &mut self.pairs);
        let (done, scores) = (&mut self.done, &mut self.scores);
        let keep_scores = config.options.adaptive.is_some();
        let sprt = config.options.sprt.filter(|_| paired);
        // The pool stops on `halt`: set by the caller's `stop` (mirrored by
        // a watcher) or by an SPRT that accepted a hypothesis.
        with_halt(stop, |halt| {
            pool::run(
                &start,
                jobs,
                &work,
                PoolOptions {
                    workers: config.jobs.clamp(1, jobs.len().max(1)),
                    retries: config.retries,
                },
                halt,
                |finished| {
                    let (position, index) = jobs[finished.index];
                    match finished.outcome {
                        Ok(game) => {
                            if let Err(e) = journal.append(&game) {
                                journal_error.get_or_insert(e);
                                halt.store(true, Ordering::SeqCst);
                                return;
                            }
                            stats.entry(game.sp).or_default().add(&game, paired);
                            done.insert((game.sp, game.game));
                            if keep_scores {
                                scores
                                    .entry(game.sp)
                                    .or_default()
                                    .insert(game.game, game.result.white_score());
                            }
                            if paired
                                && pairs.add(&game)
                                && sprt.is_some()
                                && pairs.stats(sprt).sprt.is_some_and(|s| s.accepted.is_some())
                            {
                                halt.store(true, Ordering::SeqCst);
                            }
                            timing.games += 1;
                            timing.moves += u64::from(game.plies);
                            timing.search_seconds += game.search_time.as_secs_f64();
                        }
                        Err(failure) => failed.push(FailedGame {
                            sp: position.id(),
                            game: index,
                            reason: failure.reason,
                            logs: failed_logs
                                .lock()
                                .ok()
                                .and_then(|mut m| m.remove(&(position.id(), index)))
                                .unwrap_or_default(),
                        }),
                    }
                    on_finished(timing.games, failed.len() as u64);
                },
            )
        })?;
        if let Some(e) = journal_error {
            return Err(e.into());
        }
        failed.sort_by_key(|f| (f.sp, f.game));
        Ok((failed, timing))
    }
}

/// The game to play for job (`position`, `index`): its seed, each side's
/// control (A is White in even games against B) and its opening.
fn game_spec(config: &SelfplayConfig, paired: bool, position: Setup, index: u32) -> GameSpec {
    let opening = config
        .options
        .openings
        .as_ref()
        .and_then(|b| b.openings.get((index / config.games_per_position) as usize));
    let seed_index = if paired { index / 2 } else { index };
    let seed = game_seed(config.seed, position.id(), seed_index);
    let (a, b) = (config.control_a(), config.control_b());
    let controls = if paired && index % 2 == 1 {
        [b, a]
    } else if paired {
        [a, b]
    } else {
        [a, a]
    };
    GameSpec {
        jitter: config.jitter,
        rules: config.rules,
        keep_scores: config.keep_scores,
        controls,
        time_margin_ms: config.options.time_margin_ms,
        book: opening.map(|o| o.moves.clone()).unwrap_or_default(),
        opening: opening.map(|o| o.line),
        ..GameSpec::from_start(position, index, seed, config.limit)
    }
}

/// Runs `body` with a flag of its own that `stop` sets too (watched every
/// 20 ms), so the body can stop its work without touching the caller's.
fn with_halt<T>(stop: &AtomicBool, body: impl FnOnce(&AtomicBool) -> T) -> T {
    let halt = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::SeqCst) {
                if stop.load(Ordering::SeqCst) {
                    halt.store(true, Ordering::SeqCst);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
        let result = body(&halt);
        finished.store(true, Ordering::SeqCst);
        result
    })
}

/// Whether game `game` of position `sp` belongs to this run: adaptive
/// runs take any number of games from their positions.
fn wanted(config: &SelfplayConfig, sp: u32, game: u32) -> bool {
    if !in_shard(config, sp, game) {
        return false;
    }
    if config.options.adaptive.is_some() {
        return config.positions.iter().any(|p| p.id() == sp);
    }
    if let Some(book) = &config.options.openings {
        let k = (game / config.games_per_position) as usize;
        return book
            .openings
            .get(k)
            .is_some_and(|o| u32::from(o.position.sp()) == sp);
    }
    game < config.games_per_position && config.positions.iter().any(|p| p.id() == sp)
}

pub(crate) const NOTES: &str = "White's score is (W + D/2) / games with a 95% interval of Wilson's form \
                     (normal for many games, never a point for few): trinomial \
                     (each game an independent win, draw or loss) for one engine, pair-based \
                     (the average of two colour-reversed games as the unit) for two engines. \
                     960 intervals at once need a multiple-comparison correction before any \
                     position is called unbalanced. distinct_games counts different move lists.";

/// How to read `match.json`.
pub const MATCH_NOTES: &str = "From engine A's side over finished colour-reversed pairs (both \
    games of a pair start from the same position with the same seed). pentanomial counts pairs \
    with A's points 0 (LL), 0.5 (LD), 1 (DD or WL), 1.5 (WD), 2 (WW). score is points / games with \
    a 95% interval from the variance of the pair scores; elo = -400 log10(1/score - 1) with the \
    interval's ends mapped the same way; normalized_elo = (score - 0.5) / sqrt(2 var) * 800 / ln 10, \
    var the variance of a pair's score; los = Phi((score - 0.5) / sqrt(var / pairs)). The SPRT is \
    the generalized SPRT on the pentanomial model with logistic Elo bounds (as fishtest and \
    fastchess compute it; empty outcomes count 0.001 pairs); H0 is accepted at llr <= \
    ln(beta / (1 - alpha)), H1 at llr >= ln((1 - beta) / alpha).";

/// What every output of an adaptive run says.
pub const ADAPTIVE_NOTE: &str = "Adaptive run: positions got different numbers of games, chosen \
    from the results so far (see manifest adaptive and rounds.jsonl), so white_score_low/high are \
    anytime-valid 95% confidence sequences over each position's games in game order (interval = \
    anytime), valid under that data-dependent stopping, not fixed-n intervals.";

/// What every output of a run on the clock says.
pub const CLOCK_NOTE: &str = "Played on the clock: the games depend on the machine's speed and \
                              load and do not replay exactly; node limits do.";

fn validate(config: &SelfplayConfig) -> Result<(), SelfplayError> {
    let invalid = |m: &str| Err(SelfplayError::Invalid(m.to_owned()));
    if config.positions.is_empty() {
        return invalid("no positions to play");
    }
    if config
        .positions
        .iter()
        .any(|p| p.variant() != config.variant())
    {
        return invalid("a run plays setups of one variant (Chess960 or DFRC), not both");
    }
    if config.variant() == Variant::Dfrc && config.options.openings.is_some() {
        return invalid(
            "opening books hold Chess960 positions: play DFRC setups without --openings",
        );
    }
    if config.games_per_position == 0 {
        return invalid("games per position must be at least 1");
    }
    if config.engine_b.is_some() && config.games_per_position % 2 == 1 {
        return invalid(
            "with two engines, games per position must be even (colour-reversed pairs)",
        );
    }
    if !(0.0..1.0).contains(&config.jitter) {
        return invalid("jitter must be at least 0 and below 1");
    }
    if let Some(rule) = &config.options.adaptive {
        if config.engine_b.is_some() || config.options.openings.is_some() {
            return invalid(
                "adaptive self-play is for one engine from the start positions (no --engine-b, no --openings)",
            );
        }
        if !config.shard.is_whole() && config.options.rounds_from.is_none() {
            return invalid(
                "adaptive self-play decides each round from every position's games: run it unsharded (--shard with --target-halfwidth or --budget), or round by round with c960 slurm selfplay",
            );
        }
        if let Err(e) = rule.check(config.games_per_position, config.positions.len()) {
            return Err(SelfplayError::Invalid(e));
        }
    }
    if config.options.rounds_from.is_some() && config.options.adaptive.is_none() {
        return invalid(
            "--rounds-from plays a shard of adaptive self-play: give --target-halfwidth or --budget",
        );
    }
    if !config.shard.is_whole() && config.options.sprt.is_some() {
        return invalid(
            "an SPRT decides on the whole match: run it unsharded (--shard with --sprt)",
        );
    }
    if !config.shard.is_whole() && config.options.openings.is_some() {
        return invalid(
            "shards play the bare start positions: --shard does not combine with --openings",
        );
    }
    if config.engine_b.is_some() && config.options.shared_process {
        return invalid(
            "a shared process is for one engine playing itself, not with a second engine",
        );
    }
    Ok(())
}

/// Writes games (PGN, Parquet) in (SP, game) order straight from the
/// journal, the position table (Parquet, CSV) and the manifest.
fn write_outputs(
    config: &SelfplayConfig,
    outcome: &SelfplayOutcome,
    manifest: &Manifest,
) -> Result<(), SelfplayError> {
    let extras = PgnExtras {
        scores: config.keep_scores,
        processes: processes_label(config.options.shared_process),
        variant: config.variant(),
    };
    write_run_outputs(
        &config.out,
        &outcome.journal,
        &|sp, game| wanted(config, sp, game),
        &extras,
        &outcome.positions,
        manifest,
    )
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}
