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
    fs::File,
    hash::{DefaultHasher, Hash, Hasher},
    io::{self, BufRead, BufReader, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
};

use c960_core::{GameKey, Setup, Shard};
use c960_store::{
    Journal, JournalError, RunDir, RunKind, Settings,
    merge::{
        ExistingOutput, GAMES, MergeInput, agree, existing_output, missing_message,
        output_would_lose, outside_the_run, read_inputs, refuse_mixed, unfinished,
    },
    write_atomically,
};
use serde::{Deserialize, Serialize};

use crate::{
    FailedGame, GAMES_FILE, GameRecord, JOURNAL_FILE, MANIFEST_FILE, Manifest, MatchStats, Merged,
    PGN_FILE, POSITIONS_PARQUET, PairTally, PgnExtras, PositionStats, PositionSummary, RunTiming,
    SHARED_PROCESS, SelfplayError,
    checks::{check_game, game_limits},
    processes_label, write_run_outputs,
};

/// A game of the run that no input has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MissingGame {
    /// Scharnagl number.
    pub sp: u32,
    /// Game index.
    pub game: u32,
}

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
type Input = MergeInput<Manifest>;

/// Where one game's line is: input, byte offset, and a hash of the line.
type Place = (usize, u64, u64);

/// Merges the self-play directories `inputs` into `out` (see the module
/// documentation).
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
) -> Result<MergeOutcome, SelfplayError> {
    let invalid = SelfplayError::Invalid;
    c960_store::create_dir(out)?;
    let _dir = RunDir::lock(out).map_err(io::Error::other)?;
    let (read, _locks) = read_inputs::<GameRecord, Manifest>(
        inputs,
        out,
        JOURNAL_FILE,
        RunKind::Selfplay,
        "self-play",
    )?;
    refuse_adaptive(&read)?;
    let first = &read[0];
    for other in &read[1..] {
        agree(first, other, &fields(first, other))?;
    }
    let Some(plan) = read.iter().find_map(|i| i.manifest.as_ref()) else {
        return Err(invalid(format!(
            "no input has finished (no {MANIFEST_FILE}): nothing says which games the run covers"
        )));
    };
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
    let places = unite(&read, plan)?;
    if existing == ExistingOutput::SameRun {
        keeps_output(out, &first.settings, &places.units)?;
    }
    let missing: Vec<MissingGame> = positions
        .iter()
        .flat_map(|p| (0..plan.games_per_position).map(move |game| GameKey::new(p.id(), game)))
        .filter(|unit| !places.units.contains_key(unit))
        .map(|key| MissingGame {
            sp: key.setup,
            game: key.game,
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let unfinished = unfinished(&read);
    if !missing.is_empty() && !allow_missing {
        let shown: Vec<String> = missing
            .iter()
            .take(6)
            .map(|m| format!("{} game {}", variant.label(m.sp), m.game))
            .collect();
        return Err(invalid(missing_message(
            missing.len(),
            GAMES,
            &shown,
            &unfinished,
        )));
    }

    let paired = plan.engines.len() > 1;
    let journal = out.join(JOURNAL_FILE);
    let (stats, pairs) = write_journal(&read, &places.units, &journal, paired)?;
    let summaries: Vec<PositionSummary> = PositionStats::rows(&positions, &stats, paired);
    let games: u64 = summaries.iter().map(|p| p.games).sum();
    let match_stats = paired.then(|| pairs.stats(None));
    let manifest = merged_manifest(&read, plan, games, match_stats, missing);
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
        &manifest.to_json()?,
        manifest.match_json()?.as_deref(),
    )?;
    Ok(MergeOutcome {
        games,
        duplicates: places.duplicates,
        missing: manifest.merged.missing,
        shards: manifest.merged.shards,
        unfinished,
    })
}

/// Adaptive runs and their shards are never merged here: their rounds are
/// merged one by one into the run directory.
fn refuse_adaptive(read: &[Input]) -> Result<(), SelfplayError> {
    if let Some(adaptive) = read
        .iter()
        .find(|i| i.manifest.as_ref().is_some_and(|m| m.adaptive.is_some()))
    {
        return Err(SelfplayError::Invalid(format!(
            "{} is an adaptive run: its games follow rounds decided from all positions, \
             so it is never sharded and has nothing to merge",
            adaptive.dir.display()
        )));
    }
    if let Some(shard) = read
        .iter()
        .find(|i| i.manifest.as_ref().is_some_and(|m| m.round.is_some()))
    {
        return Err(SelfplayError::Invalid(format!(
            "{} is a shard of an adaptive run: its rounds are merged one by one into the \
             run directory (c960 slurm selfplay --next-round)",
            shard.dir.display()
        )));
    }
    Ok(())
}

/// Refuses to replace the run in `out` (of the inputs' settings) when it
/// holds a game that no input has.
fn keeps_output(
    out: &Path,
    settings: &Settings,
    units: &BTreeMap<GameKey, Place>,
) -> Result<(), SelfplayError> {
    let mut lost = 0;
    let mut first = None;
    Journal::<GameRecord>::read_records(
        &out.join(JOURNAL_FILE),
        settings,
        &|_| Ok(()),
        |game, _, _| {
            if !units.contains_key(&game.key()) {
                lost += 1;
                first.get_or_insert(game.key());
            }
            Ok(())
        },
    )?;
    match first {
        Some(GameKey { setup, game }) => {
            Err(output_would_lose(out, lost, GAMES, &format!("SP {setup} game {game}")).into())
        }
        None => Ok(()),
    }
}

/// Where each game of the run is, over all inputs.
struct Places {
    /// By (SP, game): the first input that has it.
    units: BTreeMap<GameKey, Place>,
    /// Games found again in a later input (or line) and counted once.
    duplicates: u64,
}

/// Reads every input's journal, checked, and unites their games of the
/// run; refuses two different games for one unit of a run that replays
/// exactly.
fn unite(read: &[Input], plan: &Manifest) -> Result<Places, SelfplayError> {
    let first = &read[0];
    let sps: BTreeSet<u32> = Setup::parse_set(plan.variant, &plan.positions)
        .map_err(|e| SelfplayError::Invalid(e.to_string()))?
        .iter()
        .map(|p| p.id())
        .collect();
    let limits = game_limits(plan.limit, plan.limit_b);
    let variant = plan.variant;
    let check = move |game: &GameRecord| check_game(game, &limits, variant);
    let mut places = Places {
        units: BTreeMap::new(),
        duplicates: 0,
    };
    for (k, input) in read.iter().enumerate() {
        let path = input.dir.join(JOURNAL_FILE);
        let mut refused = None;
        let mut outside: (usize, Option<GameKey>) = (0, None);
        let result = Journal::<GameRecord>::read_records(
            &path,
            &first.settings,
            &check,
            |game, at, line| {
                if !sps.contains(&game.sp) || game.game >= plan.games_per_position {
                    outside.0 += 1;
                    outside.1.get_or_insert(game.key());
                    return Ok(());
                }
                let hash = line_hash(line);
                match places.units.get(&game.key()) {
                    None => {
                        places.units.insert(game.key(), (k, at, hash));
                    }
                    Some(&(from, _, seen)) => {
                        if plan.replays_exactly && seen != hash {
                            refused = Some(format!(
                                "cannot merge {} with {}: SP {} game {} is two different games \
                                 in a run that replays exactly (a conflicting duplicate)",
                                input.dir.display(),
                                read[from].dir.display(),
                                game.sp,
                                game.game
                            ));
                            return Err(JournalError::Io {
                                path: path.clone(),
                                source: io::Error::other("conflicting duplicate"),
                            });
                        }
                        places.duplicates += 1;
                    }
                }
                Ok(())
            },
        );
        if let Some(message) = refused {
            return Err(SelfplayError::Invalid(message));
        }
        result.map_err(|e| refuse_mixed(first, input, e))?;
        if let (count, Some(GameKey { setup: sp, game })) = outside {
            return Err(outside_the_run(
                &input.dir,
                count,
                GAMES,
                &format!("{} game {game}", plan.variant.label(sp)),
                &format!(
                    "positions {}, {} games per position",
                    plan.positions, plan.games_per_position
                ),
            )
            .into());
        }
    }
    Ok(places)
}

/// Writes the merged journal: the first input's header, then each game's
/// line copied from its input, in (SP, game) order. Returns the games'
/// statistics, aggregated as they pass.
fn write_journal(
    read: &[Input],
    units: &BTreeMap<GameKey, Place>,
    journal: &Path,
    paired: bool,
) -> Result<(BTreeMap<u32, PositionStats>, PairTally), SelfplayError> {
    let mut stats: BTreeMap<u32, PositionStats> = BTreeMap::new();
    let mut pairs = PairTally::default();
    let mut readers = read
        .iter()
        .map(|i| File::open(i.dir.join(JOURNAL_FILE)).map(BufReader::new))
        .collect::<io::Result<Vec<_>>>()?;
    write_atomically(journal, |file| {
        let mut file = io::BufWriter::new(file);
        file.write_all(&read[0].header)?;
        let mut line = Vec::new();
        for &(k, at, _) in units.values() {
            let reader = &mut readers[k];
            reader.seek(SeekFrom::Start(at))?;
            line.clear();
            reader.read_until(b'\n', &mut line)?;
            let game: GameRecord = serde_json::from_slice(&line).map_err(io::Error::other)?;
            stats.entry(game.sp).or_default().add(&game, paired);
            if paired {
                pairs.add(&game);
            }
            file.write_all(&line)?;
        }
        file.flush()
    })?;
    Ok((stats, pairs))
}

/// The merged run's manifest: the run's settings from `plan`, the merged
/// counts, the inputs' timings summed and the span of their clocks.
fn merged_manifest(
    read: &[Input],
    plan: &Manifest,
    games: u64,
    match_stats: Option<MatchStats>,
    missing: Vec<MissingGame>,
) -> Manifest {
    let heads: Vec<&Manifest> = read.iter().filter_map(|i| i.manifest.as_ref()).collect();
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
    Manifest {
        kind: c960_store::RunKind::Selfplay,
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
fn fields(a: &Input, b: &Input) -> Vec<(&'static str, String, String)> {
    let (Some(x), Some(y)) = (&a.manifest, &b.manifest) else {
        return Vec::new();
    };
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
