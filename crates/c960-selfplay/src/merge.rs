//! `c960 merge` for self-play: shard directories (and run directories of
//! the same settings) into one run directory with the journal, PGN,
//! tables, `match.json` and manifest a single run writes.
//!
//! Every input's journal is read without changing it and checked as a
//! resume checks it (its settings line, each line's checksum, legal moves
//! and a result that follows from them); the settings lines and the
//! manifests' c960 version, positions and games per position must agree.
//! Games are united by (SP, game): a game two inputs both played counts
//! once, and when the run replays exactly the two must be equal, else the
//! merge is refused. The merged journal is written in (SP, game) order by
//! copying each game's line from its input (only the line offsets are held
//! in memory), and the outputs are written from it by the writers of a
//! single run, so memory stays flat however many games there are.

use std::{
    collections::{BTreeMap, BTreeSet},
    hash::{DefaultHasher, Hash, Hasher},
    io,
    path::{Path, PathBuf},
};

use c960_core::{GameKey, Setup, Shard};
use c960_store::{
    RunKind,
    manifest::{FailedGame, Merged, MissingGame, RunTiming, SHARED_PROCESS, SelfplayManifest},
    merge::{
        ExistingOutput, GAMES, MergeInput, MergeRefusal, RunFiles, Unit, Unite, begin,
        existing_output, keeps_output, missing, unfinished, unite, write_journal,
    },
};

use crate::{
    GAMES_FILE, GameRecord, JOURNAL_FILE, MANIFEST_FILE, MatchStats, PGN_FILE, POSITIONS_PARQUET,
    PairTally, PgnExtras, PositionStats, PositionSummary, SelfplayError,
    checks::{check_game, game_limits},
    processes_label,
    tables::{manifest_json, match_json, write_run_outputs},
};

/// What a merge produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeOutcome {
    /// Games in the merged outputs.
    pub games: u64,
    /// Games found in more than one input and counted once.
    pub duplicates: u64,
    /// Games of the run that no input has.
    pub missing: Vec<MissingGame>,
    /// The shards merged (inputs that played one part).
    pub shards: Vec<Shard>,
    /// Inputs without a manifest: runs that have not finished.
    pub unfinished: Vec<PathBuf>,
}

/// One input: its directory, manifest (if it finished) and journal header.
type Input = MergeInput<SelfplayManifest>;

/// A self-play run's files, as a merge reads them.
const SELFPLAY: RunFiles<'static> = RunFiles {
    journal: JOURNAL_FILE,
    kind: RunKind::Selfplay,
    what: "self-play",
    covers: "games",
};

/// Merges the self-play directories `inputs` into `out` (see the module
/// documentation).
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
) -> Result<MergeOutcome, SelfplayError> {
    let invalid = SelfplayError::Invalid;
    let merging =
        begin::<GameRecord, SelfplayManifest>(inputs, out, SELFPLAY, refuse_adaptive, fields)?;
    let (read, plan, first) = (&merging.read, merging.plan(), merging.first());
    if plan.openings.is_some() {
        return Err(invalid(
            "runs from an opening book cannot be merged; play them unsharded".to_owned(),
        ));
    }
    let variant = plan.variant;
    let positions = Setup::parse_set(variant, &plan.positions)
        .map_err(|e| invalid(format!("manifest positions {:?}: {e}", plan.positions)))?;
    let existing = existing_output(
        out,
        JOURNAL_FILE,
        &first.settings,
        &[MANIFEST_FILE, GAMES_FILE, PGN_FILE, POSITIONS_PARQUET],
    )?;
    let united = unite_games(read, plan)?;
    if existing == ExistingOutput::SameRun {
        keeps_output(
            out,
            JOURNAL_FILE,
            first,
            &united.units,
            GAMES,
            |game: GameRecord| Some(game.key()),
            |GameKey { setup, game }| format!("SP {setup} game {game}"),
        )?;
    }
    let missing = missing_games(read, plan, &positions, &united.units, allow_missing)?;
    let paired = plan.engines.len() > 1;
    let journal = out.join(JOURNAL_FILE);
    let (stats, pairs) = write_games(read, &united.units, &journal, paired)?;
    let summaries: Vec<PositionSummary> = PositionStats::rows(&positions, &stats, paired);
    let games: u64 = summaries.iter().map(|p| p.games).sum();
    let match_stats = paired.then(|| pairs.stats(None));
    let manifest = merged_manifest(read, plan, games, match_stats, missing);
    let extras = PgnExtras {
        scores: first
            .settings
            .field::<bool>("keep_scores")
            .and_then(Result::ok)
            .unwrap_or(false),
        processes: processes_label(plan.processes == SHARED_PROCESS),
        variant,
    };
    write_run_outputs(
        out,
        &journal,
        &|_| true,
        &extras,
        &summaries,
        &manifest_json(&manifest)?,
        match_json(&manifest)?.as_deref(),
    )?;
    Ok(MergeOutcome {
        games,
        duplicates: united.duplicates as u64,
        missing: manifest.merged.missing,
        shards: manifest.merged.shards,
        unfinished: unfinished(read),
    })
}

/// Adaptive runs and their shards are never merged here: their rounds are
/// merged one by one into the run directory.
fn refuse_adaptive(read: &[Input]) -> Result<(), MergeRefusal> {
    if let Some(adaptive) = read
        .iter()
        .find(|i| i.manifest.as_ref().is_some_and(|m| m.adaptive.is_some()))
    {
        return Err(MergeRefusal::Invalid(format!(
            "{} is an adaptive run: its games follow rounds decided from all positions, \
             so it is never sharded and has nothing to merge",
            adaptive.dir.display()
        )));
    }
    if let Some(shard) = read
        .iter()
        .find(|i| i.manifest.as_ref().is_some_and(|m| m.round.is_some()))
    {
        return Err(MergeRefusal::Invalid(format!(
            "{} is a shard of an adaptive run: its rounds are merged one by one into the \
             run directory (c960 slurm selfplay --next-round)",
            shard.dir.display()
        )));
    }
    Ok(())
}

/// Each game of the run over all inputs, with a hash of its line; a game
/// found again counts once (and must be the same game where the run
/// replays exactly).
fn unite_games(
    read: &[Input],
    plan: &SelfplayManifest,
) -> Result<c960_store::merge::United<GameKey, u64>, SelfplayError> {
    let sps: BTreeSet<u32> = Setup::parse_set(plan.variant, &plan.positions)
        .map_err(|e| SelfplayError::Invalid(e.to_string()))?
        .iter()
        .map(|p| p.id())
        .collect();
    let limits = game_limits(plan.limit, plan.limit_b);
    let variant = plan.variant;
    let how = Unite {
        files: SELFPLAY,
        units: GAMES,
        check: &move |game: &GameRecord| check_game(game, &limits, variant),
        unit: &|game: GameRecord, line: &[u8]| Some((game.key(), line_hash(line))),
        in_run: &|key: &GameKey| sps.contains(&key.setup) && key.game < plan.games_per_position,
        same: plan
            .replays_exactly
            .then_some(&u64::eq as &dyn Fn(&u64, &u64) -> bool),
        name: &|key: GameKey| format!("{} game {}", variant.label(key.setup), key.game),
        conflict: &|key: GameKey| {
            format!("SP {} game {} is two different games", key.setup, key.game)
        },
        plan: format!(
            "positions {}, {} games per position",
            plan.positions, plan.games_per_position
        ),
    };
    Ok(unite(read, &how)?)
}

/// The games of the run that no input has, in (SP, game) order; refused
/// (the first six named) unless `allow_missing`.
fn missing_games(
    read: &[Input],
    plan: &SelfplayManifest,
    positions: &[Setup],
    units: &BTreeMap<GameKey, Unit<u64>>,
    allow_missing: bool,
) -> Result<Vec<MissingGame>, SelfplayError> {
    let wanted: BTreeSet<GameKey> = positions
        .iter()
        .flat_map(|p| (0..plan.games_per_position).map(move |game| GameKey::new(p.id(), game)))
        .collect();
    let variant = plan.variant;
    let missing = missing(read, wanted, units, allow_missing, (GAMES, 6), |key| {
        format!("{} game {}", variant.label(key.setup), key.game)
    })?;
    Ok(missing
        .into_iter()
        .map(|key| MissingGame {
            sp: key.setup,
            game: key.game,
        })
        .collect())
}

/// Writes the merged journal (see [`write_journal`]) and returns the
/// games' statistics, aggregated as they pass.
fn write_games(
    read: &[Input],
    units: &BTreeMap<GameKey, Unit<u64>>,
    journal: &Path,
    paired: bool,
) -> Result<(BTreeMap<u32, PositionStats>, PairTally), SelfplayError> {
    let mut stats: BTreeMap<u32, PositionStats> = BTreeMap::new();
    let mut pairs = PairTally::default();
    write_journal(read, JOURNAL_FILE, units, journal, |line| {
        let game: GameRecord = serde_json::from_slice(line).map_err(io::Error::other)?;
        stats.entry(game.sp).or_default().add(&game, paired);
        if paired {
            pairs.add(&game);
        }
        Ok(())
    })?;
    Ok((stats, pairs))
}

/// The merged run's manifest: the run's settings from `plan`, the merged
/// counts, the inputs' timings summed and the span of their clocks.
fn merged_manifest(
    read: &[Input],
    plan: &SelfplayManifest,
    games: u64,
    match_stats: Option<MatchStats>,
    missing: Vec<MissingGame>,
) -> SelfplayManifest {
    let heads: Vec<&SelfplayManifest> = read.iter().filter_map(|i| i.manifest.as_ref()).collect();
    let (started, finished) = c960_store::merge::time_span(
        heads
            .iter()
            .map(|h| (h.started.as_str(), h.finished.as_str())),
    );
    let mut shards: Vec<Shard> = heads
        .iter()
        .flat_map(|h| h.shard.iter().chain(&h.merged.shards).copied())
        .collect();
    shards.sort_unstable();
    shards.dedup();
    let failed: Vec<FailedGame> = heads
        .iter()
        .flat_map(|h| h.failed.iter())
        .filter(|f| {
            missing
                .binary_search(&MissingGame {
                    sp: f.sp,
                    game: f.game,
                })
                .is_ok()
        })
        .map(|f| (f.key(), f.clone()))
        .collect::<BTreeMap<_, _>>()
        .into_values()
        .collect();
    let this_run = heads.iter().fold(RunTiming::default(), |sum, h| RunTiming {
        games: sum.games + h.this_run.games,
        moves: sum.moves + h.this_run.moves,
        wall_seconds: sum.wall_seconds + h.this_run.wall_seconds,
        search_seconds: sum.search_seconds + h.this_run.search_seconds,
    });
    SelfplayManifest {
        kind: RunKind::Selfplay,
        variant: plan.variant,
        c960_version: plan.c960_version.clone(),
        engines: plan.engines.clone(),
        processes: plan.processes.clone(),
        limit: plan.limit,
        limit_b: plan.limit_b,
        replays_exactly: plan.replays_exactly,
        time_margin_ms: plan.time_margin_ms,
        openings: None,
        engine_logs: plan.engine_logs.clone(),
        jitter: plan.jitter,
        rules: plan.rules,
        seed: plan.seed,
        games_per_position: plan.games_per_position,
        positions: plan.positions.clone(),
        games,
        failed,
        jobs: heads.iter().map(|h| h.jobs).sum(),
        this_run,
        match_stats,
        started,
        finished,
        notes: plan.notes.clone(),
        adaptive: None,
        shard: None,
        round: None,
        merged: Merged { shards, missing },
    }
}

fn line_hash(line: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    line.hash(&mut hasher);
    hasher.finish()
}

/// The manifest fields two inputs must share where both finished:
/// version, positions, games per position and processes.
fn fields(x: &SelfplayManifest, y: &SelfplayManifest) -> Vec<(&'static str, String, String)> {
    vec![
        (
            "c960_version",
            x.c960_version.clone(),
            y.c960_version.clone(),
        ),
        ("positions", x.positions.clone(), y.positions.clone()),
        (
            "games_per_position",
            x.games_per_position.to_string(),
            y.games_per_position.to_string(),
        ),
        ("processes", x.processes.clone(), y.processes.clone()),
    ]
}
