//! The self-play runner: the run directory held, the run prepared
//! (`prepared`: engines, journal), the games still to play (uniform, or
//! round by round for an adaptive run), and the outputs written from the
//! journal in (SP, game) order with the manifest.

use std::{collections::HashSet, sync::atomic::AtomicBool};

use c960_core::{GameKey, Setup};
use c960_store::manifest::SelfplayManifest;

use crate::{
    JOURNAL_FILE, PgnExtras, Progress, SelfplayConfig, SelfplayError, SelfplayOutcome, adaptive,
    manifest::{manifest, now},
    prepared::{Prepared, in_shard, wanted},
    processes_label,
    tables::{manifest_json, match_json, write_run_outputs},
    validate,
};

/// Runs (or resumes) self-play. `stop`, once set, lets games in progress
/// finish and starts no new one; `on_progress` follows each game.
pub fn run(
    config: &SelfplayConfig,
    stop: &AtomicBool,
    on_progress: impl FnMut(Progress),
) -> Result<SelfplayOutcome, SelfplayError> {
    validate(config)?;
    let dir = c960_store::RunDir::hold(&config.out, &[JOURNAL_FILE, crate::ROUNDS_FILE])?;
    // Outputs that cannot be replaced are refused before any work.
    let result = dir
        .check_outputs(&crate::OUTPUT_FILES)
        .map_err(SelfplayError::from)
        .and_then(|()| run_locked(config, stop, on_progress));
    // A refused run (an engine that does not start or ignores its limit)
    // leaves the directory as it was.
    dir.release(result)
}

fn run_locked(
    config: &SelfplayConfig,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(Progress),
) -> Result<SelfplayOutcome, SelfplayError> {
    let started = now();
    let clock = std::time::Instant::now();
    let mut state = Prepared::new(config)?;
    refuse_mixed_kinds(config, state.done.len())?;
    let (jobs, slots) = if state.sprt_decided(config) {
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
    let engines: Vec<_> = std::iter::once(state.engine_a)
        .chain(state.engine_b)
        .collect();
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
        write_finished(config, &outcome, started)?;
    }
    Ok(outcome)
}

/// Refuses to mix adaptive and uniform self-play in one directory: an
/// adaptive run's directory has its journal of rounds from its first game
/// on, so games without it were played uniformly (`games` is how many
/// the journal holds). A shard of an adaptive run keeps its rounds in the
/// run directory, not its own.
fn refuse_mixed_kinds(config: &SelfplayConfig, games: usize) -> Result<(), SelfplayError> {
    let rounds = config.out.join(crate::ROUNDS_FILE).exists();
    let whole_adaptive = config.options.adaptive.is_some() && config.options.rounds_from.is_none();
    let dir = config.out.display();
    if whole_adaptive && !rounds && games > 0 {
        return Err(SelfplayError::Invalid(format!(
            "{dir} holds {} of uniform self-play (it has no {}); adaptive self-play needs a \
             directory of its own",
            c960_core::plural(games, "game", "games"),
            crate::ROUNDS_FILE
        )));
    }
    if config.options.adaptive.is_none() && rounds {
        return Err(SelfplayError::Invalid(format!(
            "{dir} holds an adaptive run ({}): resume it with its --target-halfwidth or \
             --budget, or play uniform self-play in another directory",
            crate::ROUNDS_FILE
        )));
    }
    Ok(())
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
            .map(|(o, k)| (Setup::from(o.position), k * config.games_per_position.get()))
            .collect(),
        None => config.positions.iter().map(|p| (*p, 0)).collect(),
    }
}

/// The games still to play, round by round (a round is one game, or one
/// colour-reversed pair, from every position or opening), so an interrupted
/// run covers all of them evenly.
fn jobs(config: &SelfplayConfig, done: &HashSet<GameKey>) -> Vec<(Setup, u32)> {
    let round: u32 = if config.engine_b.is_some() { 2 } else { 1 };
    let slots = slots(config);
    (0..config.games_per_position.get())
        .step_by(round as usize)
        .flat_map(|first| {
            slots.iter().flat_map(move |(p, base)| {
                (first..(first + round).min(config.games_per_position.get()))
                    .map(move |g| (*p, base + g))
            })
        })
        .filter(|(p, g)| in_shard(config, p.id(), *g) && !done.contains(&GameKey::new(p.id(), *g)))
        .collect()
}

/// The games of `slots` in this run's shard.
fn games_in_shard(config: &SelfplayConfig, slots: &[(Setup, u32)]) -> u64 {
    slots
        .iter()
        .map(|(p, base)| {
            (0..config.games_per_position.get())
                .filter(|g| in_shard(config, p.id(), base + g))
                .count() as u64
        })
        .sum()
}

/// Writes games (PGN, Parquet) in (SP, game) order straight from the
/// journal, the position table (Parquet, CSV) and the manifest.
pub(crate) fn write_outputs(
    config: &SelfplayConfig,
    outcome: &SelfplayOutcome,
    manifest: &SelfplayManifest,
) -> Result<(), SelfplayError> {
    let extras = PgnExtras {
        scores: config.keep_scores,
        processes: processes_label(config.options.shared_process),
        variant: config.variant(),
    };
    write_run_outputs(
        &config.out,
        &outcome.journal,
        &|key| wanted(config, key.setup, key.game),
        &extras,
        &outcome.positions,
        &manifest_json(manifest)?,
        match_json(manifest)?.as_deref(),
    )
}

/// Writes the outputs and manifest of a finished run (`started` when this
/// run began; a rerun of a finished run keeps when it was made).
fn write_finished(
    config: &SelfplayConfig,
    outcome: &SelfplayOutcome,
    started: String,
) -> Result<(), SelfplayError> {
    let mut manifest = manifest(config, outcome, started);
    let worked = outcome.timing.games > 0 || !outcome.failed.is_empty();
    (manifest.started, manifest.finished) =
        c960_store::manifest::kept_times(&config.out, manifest.started, manifest.finished, worked);
    write_outputs(config, outcome, &manifest)
}
