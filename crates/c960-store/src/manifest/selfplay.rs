//! A self-play run's manifest as the run writes it, and as its merge, a
//! restore from its published game table and the rounds of a sharded
//! adaptive run read it back; readers of any run read it as a
//! [`super::RunManifest`]. Self-play builds it (`c960-selfplay`'s writer);
//! the types of its fields are c960-engine's (the engines, each side's
//! [`Control`] and the game [`Rules`]) and c960-balance's ([`MatchStats`]).

use c960_balance::elo::MatchStats;
use c960_core::{GameKey, Shard, Variant};
use c960_engine::{Control, EngineInfo, Rules};
use serde::{Deserialize, Serialize};

use super::RunKind;

/// A self-play run's `manifest.json`, its provenance: what the run
/// writes, and what its readers (a merge, a restore from the published
/// game table, the merge of a sharded adaptive run's rounds) read back. Fields that older versions did not
/// write read as their defaults, named at each.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SelfplayManifest {
    /// Always [`RunKind::Selfplay`].
    pub kind: RunKind,
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
    /// both sides`. Absent before the sides had their own processes: one
    /// shared.
    #[serde(default = "shared_process")]
    pub processes: String,
    /// Limit per move before jitter, or engine A's clock (`tc 40/60+0.6`)
    /// or time per move (`st 1.5`).
    pub limit: Control,
    /// Engine B's limit or clock, when it differs from A's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_b: Option<Control>,
    /// Whether the same command replays the same games: true for node and
    /// depth limits with one thread, false on the clock. Absent before
    /// clocks: true.
    #[serde(default = "yes")]
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
    /// Games per position (0 when absent, which no c960 run wrote).
    #[serde(default)]
    pub games_per_position: u32,
    /// The positions.
    pub positions: String,
    /// Games in the outputs.
    pub games: u64,
    /// Games that failed.
    #[serde(default)]
    pub failed: Vec<FailedGame>,
    /// Games played at once.
    #[serde(default)]
    pub jobs: usize,
    /// What this run itself played (not games from the journal) and how
    /// long the engines searched: the harness cost per move is
    /// (wall − search) / moves for one job.
    #[serde(default)]
    pub this_run: RunTiming,
    /// Engine A's results against B (two engines only).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_stats: Option<MatchStats>,
    /// The adaptive rule and how the run ended (adaptive runs only); its
    /// intervals are then anytime-valid confidence sequences.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveRecord>,
    /// When this run started.
    #[serde(default)]
    pub started: String,
    /// When it finished.
    pub finished: String,
    /// How to read the tables.
    #[serde(default)]
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
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Merged {
    /// The shards the tables were made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<Shard>,
    /// Games of the run that no input had (`--allow-missing`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<MissingGame>,
}

fn shared_process() -> String {
    SHARED_PROCESS.to_owned()
}

fn yes() -> bool {
    true
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

impl FailedGame {
    /// The game that failed: its setup and index.
    #[must_use]
    pub fn key(&self) -> GameKey {
        GameKey::new(self.sp, self.game)
    }
}

/// A game of the run that no input has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MissingGame {
    /// Scharnagl number.
    pub sp: u32,
    /// Game index.
    pub game: u32,
}

/// How an adaptive run allocates its games.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adaptive {
    /// A position is done once its interval's half width is at most this
    /// (0: only the band and the budget stop it).
    pub target_half_width: f64,
    /// Half width of the balance band around the all-position mean; a
    /// position whose interval lies wholly inside or outside it is decided.
    pub band_half_width: f64,
    /// Error rate of the confidence sequences.
    pub alpha: f64,
    /// Games each open position gets per round.
    pub round_games: u32,
    /// Total games of the run, round 0 included (none: no cap).
    pub budget: Option<u64>,
}

/// How an adaptive run ended, for the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveRecord {
    /// The rule in words.
    pub rule: String,
    /// The rule's parameters.
    #[serde(flatten)]
    pub settings: Adaptive,
    /// Games every position had before the first round.
    pub initial_games: u32,
    /// Rounds played after the initial games.
    pub rounds: u32,
    /// Why it stopped.
    pub stopped: String,
    /// Positions still open at the end.
    pub open: usize,
    /// The widest interval's half width at the end.
    pub widest_half_width: f64,
    /// Fewest and most games of any position.
    pub games_min: u64,
    /// Most games of any position.
    pub games_max: u64,
}

/// The processes of a default run: one engine process and hash per side.
pub const PROCESS_PER_SIDE: &str = "one per side";
/// The processes of a `--shared-process` run.
pub const SHARED_PROCESS: &str = "one shared by both sides";
