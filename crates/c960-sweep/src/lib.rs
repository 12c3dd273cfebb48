//! c960-sweep: scores every start position with a UCI engine, one engine
//! process per job (on `c960-runner`'s job runner), and writes one row per
//! position. Modules: `plan` ([`SweepPlan`]: a sweep as a command asks for
//! it, checked once into a [`SweepConfig`]), `row` (one search's row), `validate` (what a
//! journaled row must satisfy), [`repeats`] (node-perturbed repeats and
//! their repeatability), `table` (Parquet and CSV), `manifest` (how the
//! table was made) and `merge` (shards into one run). A search is keyed by
//! its [`c960_core::SearchKey`] (setup, repeat).
//!
//! A run directory holds `journal.jsonl` (every finished search, appended
//! and synced as it finishes), and once all positions are done,
//! `sweep.parquet`, `sweep.csv` and `manifest.json`, each written
//! atomically. With repeats (see [`repeats`]) the unit of work is one
//! (position, repeat) search: `repeats.parquet` and `repeats.csv` hold one
//! row per search, `sweep.parquet` one row per position with the mean,
//! standard deviation and standard error over its repeats, and the manifest
//! the run's repeatability. Running the same sweep again skips what the journal holds,
//! so a run killed at any moment resumes without losing or repeating work;
//! a journal written with other settings is refused.
//!
//! A sweep with replies ([`SweepConfig::reply`]) also searches, for each
//! position, the position after the engine's best move (Black to move),
//! with the same limit and `MultiPV` and a cleared hash: the row carries it
//! as its [`Reply`], and the tables add its columns and the [`difficulty`]
//! measures of both moves.

pub mod difficulty;
mod merge;
mod plan;
mod prepared;
pub mod repeats;
mod row;
mod table;
mod validate;

use std::{
    collections::BTreeSet,
    io,
    num::NonZeroU32,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
    time::SystemTime,
};

use c960_core::{SearchKey, Setup, Shard, Variant};
use c960_engine::{AnyEngine, EngineInfo, EngineSpec, Limit};
use c960_store::{DroppedLine, RunDir, write_atomically};
use prepared::Prepared;
use serde::{Deserialize, Serialize};

pub use c960_runner::{Progress, RunError};
pub use c960_store::{FailedPosition, Sharding, SweepManifest};
pub use difficulty::{DIFFICULTY_COLUMNS, Difficulty};
pub use merge::{MergeError, MergeOutcome, merge};
pub use plan::SweepPlan;
pub use repeats::{RepeatPlan, Repeatability};
pub use row::{MATE_CP, Reply, SweepRow, TopMove};
pub use table::{PARQUET_MANIFEST_KEY, frame, positions_frame, repeats_frame};
pub use validate::check_row;

/// File names inside a run directory: the journal of finished searches.
pub use c960_store::JOURNAL_FILE;
/// The table as Parquet.
pub const PARQUET_FILE: &str = c960_store::SWEEP_TABLE;
/// The table as CSV.
pub const CSV_FILE: &str = c960_store::SWEEP_CSV;
/// One row per (position, repeat) search, in a sweep with repeats.
pub const REPEATS_PARQUET: &str = c960_store::REPEATS_TABLE;
/// The same as CSV.
pub const REPEATS_CSV: &str = c960_store::REPEATS_CSV;
/// Provenance of the run.
pub const MANIFEST_FILE: &str = c960_store::MANIFEST_FILE;
/// Every file a sweep writes in its directory.
pub const OUTPUT_FILES: [&str; 6] = [
    JOURNAL_FILE,
    PARQUET_FILE,
    CSV_FILE,
    REPEATS_PARQUET,
    REPEATS_CSV,
    MANIFEST_FILE,
];

/// What to sweep and how.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// The engine and its options.
    pub engine: EngineSpec,
    /// The search limit per position.
    pub limit: Limit,
    /// Number of principal variations (top moves) per position.
    pub multipv: NonZeroU32,
    /// The setups to evaluate: Chess960 positions, or DFRC setups (one
    /// variant per run).
    pub positions: Vec<Setup>,
    /// The set as the user named it (`sample:20000:1`), recorded in the
    /// manifest instead of the setups' ranges; `None` records the ranges.
    pub set: Option<String>,
    /// Searches per position and how they differ.
    pub repeats: RepeatPlan,
    /// Engine processes running at once.
    pub jobs: usize,
    /// Extra attempts for a position whose engine died.
    pub retries: u32,
    /// The run directory.
    pub out: PathBuf,
    /// Drop journal lines that cannot be trusted (and say so) instead of
    /// refusing to resume.
    pub repair: bool,
    /// This run's part of the searches ([`Shard::WHOLE`] for all of them):
    /// unit (SP, repeat) of [`Shard::contains`].
    pub shard: Shard,
    /// Also search the position after each best move (Black's reply), with
    /// the same limit and `MultiPV`.
    pub reply: bool,
}

impl SweepConfig {
    /// The searches of the whole run: every position, each repeat.
    #[must_use]
    pub fn searches(&self) -> u64 {
        self.positions.len() as u64 * u64::from(self.repeats.repeats.get())
    }
}

/// One journal line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Entry {
    /// An evaluated position.
    Done(Box<SweepRow>),
    /// A position that failed; a later run tries it again.
    Failed(FailedPosition),
}

/// The settings a journal belongs to: results are only mixed when these
/// are equal.
#[derive(Serialize)]
struct Settings<'a> {
    engine: &'a str,
    engine_path: &'a str,
    /// Absent without arguments, so journals of native engines stay what
    /// they were.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    engine_args: &'a [String],
    /// The package and the script inside it, and the network files with
    /// their hash, for engines run from a package (absent otherwise, so
    /// journals of native engines stay what they were): a resume with
    /// another build or network is refused, naming both.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_package: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_script: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_network: Option<&'a c960_engine::Network>,
    engine_options: &'a [(String, String)],
    limit: Limit,
    multipv: NonZeroU32,
    /// Absent for a plain sweep, so its journals stay what they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    repeats: Option<RepeatPlan>,
    /// Absent for Chess960, so its journals stay what they were.
    #[serde(skip_serializing_if = "Variant::is_chess960")]
    variant: Variant,
    /// Absent without replies, so journals of plain sweeps stay what they
    /// were.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    reply: bool,
}

/// What a sweep produced.
#[derive(Clone, Debug)]
pub struct SweepOutcome {
    /// The engine, as set up.
    pub engine: EngineInfo,
    /// One row per finished search, by (SP, repeat).
    pub rows: Vec<SweepRow>,
    /// Searches that failed in this run.
    pub failed: Vec<FailedPosition>,
    /// Searches taken from the journal instead of run again.
    pub resumed: usize,
    /// The repeatability of the per-position means, with repeats.
    pub repeatability: Option<Repeatability>,
    /// Whether the sweep was stopped before every position was tried; no
    /// table is written then.
    pub interrupted: bool,
    /// The journal.
    pub journal: PathBuf,
    /// Journal lines `--repair` dropped in this run.
    pub repaired: Vec<DroppedLine>,
}

/// Why a sweep could not run: the runner's one error type.
pub type SweepError = RunError;

/// Runs (or resumes) a sweep. `stop`, once set, lets running searches
/// finish and starts no new one; `on_progress` is called after each
/// position.
pub fn run(
    config: &SweepConfig,
    stop: &AtomicBool,
    on_progress: impl FnMut(Progress),
) -> Result<SweepOutcome, SweepError> {
    run_with(config, None, stop, on_progress)
}

/// [`run`] with an engine the caller already started from
/// `config.engine.with_multipv(config.multipv)` (to name it before the
/// sweep): the sweep identifies the run by it and searches with it, so no
/// engine is launched twice.
pub fn run_with_engine(
    config: &SweepConfig,
    engine: AnyEngine,
    stop: &AtomicBool,
    on_progress: impl FnMut(Progress),
) -> Result<SweepOutcome, SweepError> {
    run_with(config, Some(engine), stop, on_progress)
}

fn run_with(
    config: &SweepConfig,
    engine: Option<AnyEngine>,
    stop: &AtomicBool,
    on_progress: impl FnMut(Progress),
) -> Result<SweepOutcome, SweepError> {
    let dir = RunDir::hold(&config.out, &[JOURNAL_FILE])?;
    // A refused sweep (an engine that does not start or ignores its limit)
    // leaves the directory as it was.
    let result = run_locked(config, &dir, engine, stop, on_progress);
    dir.release(result)
}

fn run_locked(
    config: &SweepConfig,
    dir: &RunDir,
    engine: Option<AnyEngine>,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(Progress),
) -> Result<SweepOutcome, SweepError> {
    let started = now();
    let mut state = Prepared::new(config, dir, engine)?;
    let units = units(config);
    let wanted: BTreeSet<SearchKey> = units
        .iter()
        .map(|(p, r)| SearchKey::new(p.id(), *r))
        .collect();
    let todo: Vec<(Setup, u32)> = units
        .iter()
        .copied()
        .filter(|(p, r)| !state.done.contains_key(&SearchKey::new(p.id(), *r)))
        .collect();
    let resumed = wanted.len() - todo.len();
    let mut progress = Progress {
        done: resumed as u64,
        failed: 0,
        total: wanted.len() as u64,
        resumed: resumed as u64,
    };
    on_progress(progress);
    let failed = state.evaluate(config, &todo, stop, |failed, evaluated| {
        progress.done = (resumed + evaluated) as u64;
        progress.failed = failed as u64;
        on_progress(progress);
    })?;

    let rows: Vec<SweepRow> = state
        .done
        .into_iter()
        .filter(|(key, _)| wanted.contains(key))
        .map(|(_, row)| row)
        .collect();
    let interrupted = rows.len() + failed.len() < wanted.len();
    // Whether the table has WDL, from its rows (a resumed run searched
    // none of them now).
    if let Some(wdl) = state.engine.wdl.as_mut() {
        wdl.reported = rows.iter().any(|r| r.wdl_win.is_some());
    }
    let repeatability = config
        .repeats
        .is_repeated()
        .then(|| repeats::repeatability(&rows, config.repeats.seed))
        .flatten();
    let outcome = SweepOutcome {
        engine: state.engine,
        rows,
        failed,
        resumed,
        repeatability,
        interrupted,
        journal: state.journal.path().to_owned(),
        repaired: state.repaired,
    };
    if !interrupted {
        // A rerun of a finished sweep keeps when it was made.
        let kept =
            c960_store::manifest::kept_times(&config.out, started, now(), resumed < wanted.len());
        let manifest = manifest(config, state.variant, &outcome, kept);
        write_outputs(&config.out, &outcome.rows, &manifest)?;
    }
    Ok(outcome)
}

/// The manifest of a finished sweep (`kept`: when it started and
/// finished).
fn manifest(
    config: &SweepConfig,
    variant: Variant,
    outcome: &SweepOutcome,
    kept: (String, String),
) -> SweepManifest {
    SweepManifest {
        kind: c960_store::RunKind::Sweep,
        variant,
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        engine: outcome.engine.clone(),
        limit: config.limit,
        multipv: config.multipv,
        reply: config.reply,
        repeats: config.repeats.repeats,
        repeat_rule: config
            .repeats
            .is_repeated()
            .then(|| config.repeats.describe(config.limit)),
        seed: config.repeats.is_repeated().then_some(config.repeats.seed),
        repeatability: outcome.repeatability,
        positions: config
            .set
            .clone()
            .unwrap_or_else(|| Setup::format_set(&config.positions)),
        rows: outcome
            .rows
            .iter()
            .map(|r| r.sp)
            .collect::<BTreeSet<_>>()
            .len(),
        failed: outcome.failed.clone(),
        resumed: outcome.resumed,
        jobs: config.jobs,
        started: kept.0,
        finished: kept.1,
        notes: notes(config.repeats.is_repeated(), config.reply),
        repaired: outcome.repaired.clone(),
        sharding: Sharding {
            shard: (!config.shard.is_whole()).then_some(config.shard),
            ..Sharding::default()
        },
    }
}

pub(crate) const NOTES: &str = "Scores and WDL are from White's point of view. best_move_uci and move*_uci \
                     use Chess960 notation (castling as king takes rook). time_ms is the \
                     engine's clock: the only column that differs between two runs with the \
                     same settings.";

/// What a sweep with repeats adds to its notes.
pub(crate) const REPEAT_NOTES: &str = " With repeats, repeats.parquet has one row per (sp, repeat) \
    search with its node_budget; sweep.parquet has one row per position whose search columns \
    are those of its first finished repeat and whose score_cp_mean/sd/se and \
    white_expected_mean/sd/se (White's expected score (W + D/2)/1000 from the engine's WDL) are \
    over all its repeats, mates counted as +-1000 cp: rank by the means. repeatability is the \
    median split-half correlation of per-position mean scores over random halves of the \
    repeats, with its Spearman-Brown projection to all repeats.";

/// What a sweep with replies adds to its notes.
pub(crate) const REPLY_NOTES: &str = " With replies, each position's best move was played and \
    the position after it searched with the same limit and MultiPV from a cleared hash: \
    reply_* columns (scores from White's point of view, reply_move*_uci in Chess960 notation); \
    move*_bound and reply_move*_bound say whether a line's score is exact or a bound. \
    white_* and black_* measure White's first move and Black's reply from the chooser's point \
    of view: *_lines the lines scored, *_good_moves the moves within 25 cp of the best \
    (the best included; counted among the lines scored, so a count equal to MultiPV means \
    MultiPV or more), *_gap_cp the best minus the second best, *_bound_lines the lines whose \
    score is a bound (read at the bound); mates count as +-1000 cp. good_moves_asymmetry and \
    gap_asymmetry_cp are White's minus Black's.";

/// The notes of a sweep's manifest.
pub(crate) fn notes(repeated: bool, reply: bool) -> String {
    let mut notes = NOTES.to_owned();
    if repeated {
        notes.push_str(REPEAT_NOTES);
    }
    if reply {
        notes.push_str(REPLY_NOTES);
    }
    notes
}

/// Every (position, repeat) search of the run (of its shard), repeat by
/// repeat, so an interrupted run has covered the positions evenly.
fn units(config: &SweepConfig) -> Vec<(Setup, u32)> {
    (0..config.repeats.repeats.get())
        .flat_map(|r| config.positions.iter().map(move |p| (*p, r)))
        .filter(|(p, r)| config.shard.contains(p.id(), *r))
        .collect()
}

/// Refuses a sweep without positions, of two variants, with a repeat rule
/// its limit does not allow, with replies but one line a search, or of a
/// shard without searches; returns its variant.
pub(crate) fn check_config(config: &SweepConfig) -> Result<Variant, SweepError> {
    if config.positions.is_empty() {
        return Err(SweepError::Invalid("no positions to sweep".to_owned()));
    }
    let variant = config.positions[0].variant();
    if config.positions.iter().any(|p| p.variant() != variant) {
        return Err(SweepError::Invalid(
            "a sweep takes setups of one variant (Chess960 or DFRC), not both".to_owned(),
        ));
    }
    config
        .repeats
        .check(config.limit)
        .map_err(SweepError::Invalid)?;
    if config.reply && config.multipv.get() < 2 {
        return Err(SweepError::Invalid(
            "replies are measured by their top moves: --reply needs --multipv 2 or more".to_owned(),
        ));
    }
    if units(config).is_empty() {
        // Its table would be empty, and read as a sweep of nothing.
        let searches = config.searches();
        return Err(SweepError::Invalid(format!(
            "shard {} holds no search of this sweep, which has {}: use at most {}",
            config.shard,
            c960_core::plural(searches, "search", "searches"),
            c960_core::plural(searches, "shard", "shards")
        )));
    }
    Ok(variant)
}

/// Writes the tables (Parquet, CSV) and then the manifest, all
/// atomically. `rows` holds every search; with repeats
/// (`manifest.repeats` > 1) they go to `repeats.parquet` and the
/// per-position table gets the means over repeats.
pub fn write_outputs(
    dir: &Path,
    rows: &[SweepRow],
    manifest: &SweepManifest,
) -> Result<(), SweepError> {
    let manifest_json = serde_json::to_string_pretty(manifest).map_err(io::Error::other)?;

    let variant = manifest.variant;
    let labelled = |mut frame: polars::prelude::DataFrame| {
        c960_store::label_variant(&mut frame, variant).map(|()| frame)
    };
    let (multipv, reply) = (manifest.multipv.get(), manifest.reply);
    let frame = if manifest.repeats.get() > 1 {
        let searches = table::repeats_frame(rows, multipv, reply)
            .and_then(labelled)
            .map_err(io::Error::other)?;
        table::write_parquet(&dir.join(REPEATS_PARQUET), &searches, &manifest_json)?;
        table::write_csv(&dir.join(REPEATS_CSV), &searches)?;
        table::positions_frame(rows, multipv, reply)
    } else {
        table::frame(rows, multipv, reply)
    }
    .and_then(labelled)
    .map_err(io::Error::other)?;
    table::write_parquet(&dir.join(PARQUET_FILE), &frame, &manifest_json)?;
    table::write_csv(&dir.join(CSV_FILE), &frame)?;
    write_atomically(&dir.join(MANIFEST_FILE), |out| {
        io::Write::write_all(out, manifest_json.as_bytes())?;
        io::Write::write_all(out, b"\n")
    })?;
    Ok(())
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}
