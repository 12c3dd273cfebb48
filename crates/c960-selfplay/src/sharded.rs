//! Adaptive self-play in shards, round by round (`c960 slurm selfplay`
//! with `--target-halfwidth` or `--budget`).
//!
//! The run directory holds the journal of rounds, as an unsharded adaptive
//! run's does. Each shard (`--shard I/N --rounds-from DIR`) plays its part
//! of every round decided so far (units (SP, game) of [`c960_core::Shard`],
//! so every game keeps its seed) and records in its manifest the round it
//! has played. Once every shard has played the current round,
//! [`merge_round`] unites their journals into the run directory's journal
//! and decides, from all games so far, exactly what the unsharded run
//! decides from the same games: the next round, appended to the journal of
//! rounds before any shard plays it, or the end, with the tables and
//! manifest of the unsharded run.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs::{self, File},
    io::{self, BufRead, BufReader, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
};

use c960_core::{GameKey, Shard};
use c960_store::{
    Journal, RunDir,
    manifest::{Adaptive, AdaptiveRecord, FailedGame, Merged, RunTiming, SelfplayManifest},
    write_atomically,
};

use crate::{
    GameRecord, JOURNAL_FILE, MANIFEST_FILE, ROUNDS_FILE, Round, SelfplayConfig, SelfplayError,
    SelfplayOutcome,
    adaptive::{self, Next, check_budget, round_settings},
    manifest::{manifest, now},
    prepared::Prepared,
    run::write_outputs,
    validate,
};

/// What [`merge_round`] found or did.
#[derive(Debug)]
pub enum RoundStep {
    /// Shards that have not played the current round yet, by their index
    /// in the list given.
    Unfinished {
        /// The current round (0: the initial games).
        round: u32,
        /// The shards that have not played it.
        shards: Vec<usize>,
    },
    /// The next round, decided and appended to the journal of rounds: the
    /// shards play it next.
    Next(Round),
    /// The rule stopped the run: its outputs are written.
    Finished(Box<SelfplayOutcome>),
}

/// The adaptive run `config` (whole, with a rule) as the run directory of
/// sharded rounds: checks the settings, creates its journal of rounds (or
/// checks that the one there has the same rule) and returns the current
/// round.
pub fn open_rounds(config: &SelfplayConfig) -> Result<u32, SelfplayError> {
    let rule = whole_adaptive(config)?;
    fs::create_dir_all(&config.out).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot create {}: {e}", config.out.display()),
        )
    })?;
    let _dir = RunDir::lock(&config.out).map_err(io::Error::other)?;
    let path = config.out.join(ROUNDS_FILE);
    let (_, rounds) = Journal::<Round>::open(&path, &round_settings(&rule, config, &path))?;
    let (round, targets) = adaptive::targets_after(config, rounds);
    check_budget(&rule, &targets)?;
    Ok(round)
}

/// Merges the current round of the adaptive run `config` (whole, with a
/// rule; `config.out` its run directory) from the shard directories
/// `shards` and decides what comes next (see the module documentation).
/// Nothing is written while a shard has not played the current round.
pub fn merge_round(
    config: &SelfplayConfig,
    shards: &[PathBuf],
) -> Result<RoundStep, SelfplayError> {
    let rule = whole_adaptive(config)?;
    if shards.is_empty() {
        return Err(SelfplayError::Invalid("no shards to merge".to_owned()));
    }
    let _dir = RunDir::lock(&config.out).map_err(io::Error::other)?;
    let path = config.out.join(ROUNDS_FILE);
    let (mut rounds, decided) =
        Journal::<Round>::open(&path, &round_settings(&rule, config, &path))?;
    let (round, targets) = adaptive::targets_after(config, decided);
    check_budget(&rule, &targets)?;

    let mut heads = Vec::new();
    let mut unfinished = Vec::new();
    for (i, dir) in shards.iter().enumerate() {
        match shard_head(dir)? {
            Some(head) if head.round == Some(round) => heads.push(head),
            _ => unfinished.push(i),
        }
    }
    if !unfinished.is_empty() {
        return Ok(RoundStep::Unfinished {
            round,
            shards: unfinished,
        });
    }

    let journal = config.out.join(JOURNAL_FILE);
    let (header, units) = locate(shards, &targets)?;
    // A shard that played the round has each of its games or lists it as
    // failed (as an unsharded run goes on without its failed games).
    let failed: BTreeSet<GameKey> = heads
        .iter()
        .flat_map(|h| h.failed.iter().map(FailedGame::key))
        .collect();
    if let Some(GameKey { setup: sp, game }) = targets
        .iter()
        .flat_map(|(&sp, &t)| (0..t).map(move |g| GameKey::new(sp, g)))
        .find(|unit| !units.contains_key(unit) && !failed.contains(unit))
    {
        return Err(SelfplayError::Invalid(format!(
            "SP {sp} game {game} of round {round} of {} is in no shard's journal and no shard \
             lists it as failed: give every shard of the run",
            config.out.display()
        )));
    }
    unite(shards, &header, &units, &journal)?;
    // The united journal is read back as a resumed unsharded run reads its
    // own: checked against this run's settings, game by game.
    let state = Prepared::new(config)?;
    match adaptive::next_round(&rule, &config.positions, &state.scores, &targets, round + 1) {
        Next::Play(next) => {
            rounds.append(&next)?;
            Ok(RoundStep::Next(next))
        }
        Next::Stop(reason) => {
            let record = state.record(config, &rule, round, reason);
            let outcome = finish(config, &state, &heads, record, journal)?;
            Ok(RoundStep::Finished(Box::new(outcome)))
        }
    }
}

/// Writes the outputs of the finished run from the united journal (read
/// into `state`) and the shards' manifests of the last round.
fn finish(
    config: &SelfplayConfig,
    state: &Prepared,
    heads: &[SelfplayManifest],
    record: AdaptiveRecord,
    journal: PathBuf,
) -> Result<SelfplayOutcome, SelfplayError> {
    // The run's own summaries (adaptive: anytime intervals at its alpha).
    let positions = state.summaries(config);
    let games: u64 = positions.iter().map(|p| p.games).sum();
    let failed: Vec<FailedGame> = heads
        .iter()
        .flat_map(|h| h.failed.iter())
        .filter(|f| !state.done.contains(&f.key()))
        .map(|f| (f.key(), f.clone()))
        .collect::<BTreeMap<_, _>>()
        .into_values()
        .collect();
    // The shards' runs of the last round (earlier rounds' timings are in
    // their logs).
    let timing = heads.iter().fold(RunTiming::default(), |sum, h| RunTiming {
        games: sum.games + h.this_run.games,
        moves: sum.moves + h.this_run.moves,
        wall_seconds: sum.wall_seconds + h.this_run.wall_seconds,
        search_seconds: sum.search_seconds + h.this_run.search_seconds,
    });
    let outcome = SelfplayOutcome {
        engines: vec![state.engine_a.clone()],
        positions,
        games,
        failed,
        resumed: games,
        interrupted: false,
        timing,
        journal,
        match_stats: None,
        sprt_stopped: false,
        adaptive: Some(record),
        round: None,
    };
    let started = heads
        .iter()
        .map(|h| h.started.clone())
        .min()
        .unwrap_or_else(now);
    let mut manifest = manifest(config, &outcome, started);
    manifest.jobs = heads.iter().map(|h| h.jobs).sum();
    let mut list: Vec<Shard> = heads.iter().filter_map(|h| h.shard).collect();
    list.sort_unstable();
    list.dedup();
    manifest.merged = Merged {
        shards: list,
        missing: Vec::new(),
    };
    write_outputs(config, &outcome, &manifest)?;
    Ok(outcome)
}

/// The rule of `config`, checked as a whole adaptive run.
fn whole_adaptive(config: &SelfplayConfig) -> Result<Adaptive, SelfplayError> {
    let Some(rule) = config.options.adaptive else {
        return Err(SelfplayError::Invalid(
            "rounds are for adaptive self-play: give --target-halfwidth or --budget".to_owned(),
        ));
    };
    if !config.shard.is_whole() || config.options.rounds_from.is_some() {
        return Err(SelfplayError::Invalid(
            "the rounds are decided in the whole run's directory, not in a shard".to_owned(),
        ));
    }
    validate(config)?;
    Ok(rule)
}

/// The manifest of the shard in `dir` (what it played), if it has one.
fn shard_head(dir: &Path) -> Result<Option<SelfplayManifest>, SelfplayError> {
    let path = dir.join(MANIFEST_FILE);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(SelfplayError::Io(io::Error::new(
                e.kind(),
                format!("cannot read {}: {e}", path.display()),
            )));
        }
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| SelfplayError::Invalid(format!("{}: {e}", path.display())))
}

/// Each game of the rounds (below its position's target) in the shards'
/// journals, by (SP, game): the first shard that has it and the byte
/// offset of its line; and the first shard's header line. Only line
/// offsets are held in memory.
fn locate(shards: &[PathBuf], targets: &BTreeMap<u32, u32>) -> Result<Located, SelfplayError> {
    let (header, settings) = Journal::<GameRecord>::read_header(&shards[0].join(JOURNAL_FILE))?;
    let mut units: BTreeMap<GameKey, (usize, u64)> = BTreeMap::new();
    for (k, dir) in shards.iter().enumerate() {
        let path = dir.join(JOURNAL_FILE);
        Journal::<GameRecord>::read_records(&path, &settings, &|_| Ok(()), |game, at, _| {
            if targets.get(&game.sp).is_some_and(|&t| game.game < t) {
                units.entry(game.key()).or_insert((k, at));
            }
            Ok(())
        })?;
    }
    Ok((header, units))
}

/// The header line of the shards' journals and where each game is.
type Located = (Vec<u8>, BTreeMap<GameKey, (usize, u64)>);

/// Writes `journal`: `header`, then each game's line copied from its
/// shard, in (SP, game) order.
fn unite(
    shards: &[PathBuf],
    header: &[u8],
    units: &BTreeMap<GameKey, (usize, u64)>,
    journal: &Path,
) -> Result<(), SelfplayError> {
    let mut readers = shards
        .iter()
        .map(|d| File::open(d.join(JOURNAL_FILE)).map(BufReader::new))
        .collect::<io::Result<Vec<_>>>()?;
    write_atomically(journal, |file| {
        let mut file = io::BufWriter::new(file);
        file.write_all(header)?;
        let mut line = Vec::new();
        for &(k, at) in units.values() {
            let reader = &mut readers[k];
            reader.seek(SeekFrom::Start(at))?;
            line.clear();
            reader.read_until(b'\n', &mut line)?;
            file.write_all(&line)?;
        }
        file.flush()
    })?;
    Ok(())
}
