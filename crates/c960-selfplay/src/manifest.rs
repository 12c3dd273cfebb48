//! What a self-play run reports: its outcome, the manifest that records
//! its provenance (built here; its model is c960-store's
//! [`SelfplayManifest`]), and the notes every output carries.

use std::{path::PathBuf, time::SystemTime};

use c960_core::Setup;
use c960_engine::EngineInfo;
use c960_store::{
    RunKind,
    manifest::{AdaptiveRecord, FailedGame, Merged, RunTiming, SelfplayManifest},
};

use crate::{MatchStats, PositionSummary, SelfplayConfig, processes_label};

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

/// The manifest of a finished run.
pub(crate) fn manifest(
    config: &SelfplayConfig,
    outcome: &SelfplayOutcome,
    started: String,
) -> SelfplayManifest {
    SelfplayManifest {
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

const NOTES: &str = "White's score is (W + D/2) / games with a 95% interval of Wilson's form \
                     (normal for many games, never a point for few): trinomial \
                     (each game an independent win, draw or loss) for one engine, pair-based \
                     (the average of two colour-reversed games as the unit) for two engines. \
                     960 intervals at once need a multiple-comparison correction before any \
                     position is called unbalanced. distinct_games counts different move lists.";

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
