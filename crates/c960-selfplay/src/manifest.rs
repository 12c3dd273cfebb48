//! What a self-play run reports: its outcome, the manifest that records
//! its provenance, and the notes every output carries.

use std::{path::PathBuf, time::SystemTime};

use c960_core::{Setup, Shard, Variant};
use c960_engine::EngineInfo;
use c960_store::RunKind;
use serde::{Deserialize, Serialize};

use crate::{
    AdaptiveRecord, Control, MatchStats, MissingGame, PositionSummary, Rules, SelfplayConfig,
    processes_label,
};

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
    pub fn key(&self) -> c960_core::GameKey {
        c960_core::GameKey::new(self.sp, self.game)
    }
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

/// Provenance of a run: what the run writes, and what its readers (a
/// restore from the published game table, the merge of a sharded
/// adaptive run's rounds) read back. Fields that older versions did not
/// write read as their defaults, named at each.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
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

impl Manifest {
    /// The manifest as the run's files carry it: pretty JSON.
    ///
    /// # Errors
    /// When it cannot be serialized (it always can).
    pub fn to_json(&self) -> Result<String, crate::SelfplayError> {
        Ok(serde_json::to_string_pretty(self).map_err(std::io::Error::other)?)
    }

    /// `match.json`'s text, for a run of two engines.
    pub(crate) fn match_json(&self) -> std::io::Result<Option<String>> {
        self.match_stats
            .as_ref()
            .map(|stats| {
                crate::tables::MatchRun {
                    c960_version: &self.c960_version,
                    engines: &self.engines,
                    limit: self.limit,
                    limit_b: self.limit_b,
                    positions: &self.positions,
                    seed: self.seed,
                    replays_exactly: self.replays_exactly,
                    finished: &self.finished,
                }
                .render(stats)
            })
            .transpose()
    }
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
    crate::SHARED_PROCESS.to_owned()
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

/// The manifest of a finished run.
pub(crate) fn manifest(
    config: &SelfplayConfig,
    outcome: &SelfplayOutcome,
    started: String,
) -> Manifest {
    Manifest {
        kind: RunKind::Selfplay,
        variant: config.variant(),
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        engines: outcome.engines.clone(),
        processes: processes_label(config.options.shared_process).to_owned(),
        limit: config.control_a(),
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
        games_per_position: config.games_per_position.get(),
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

pub(crate) fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// Writes the outputs and manifest of a finished run (`started` when this
/// run began; a rerun of a finished run keeps when it was made).
pub(crate) fn write_finished(
    config: &SelfplayConfig,
    outcome: &crate::SelfplayOutcome,
    started: String,
) -> Result<(), crate::SelfplayError> {
    let mut manifest = manifest(config, outcome, started);
    let worked = outcome.timing.games > 0 || !outcome.failed.is_empty();
    (manifest.started, manifest.finished) =
        c960_store::manifest::kept_times(&config.out, manifest.started, manifest.finished, worked);
    crate::run::write_outputs(config, outcome, &manifest)
}
