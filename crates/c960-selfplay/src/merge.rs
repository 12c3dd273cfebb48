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
    fs::{self, File},
    hash::{DefaultHasher, Hash, Hasher},
    io::{self, BufRead, BufReader, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
};

use c960_core::{Shard, parse_position_set};
use c960_engine::EngineInfo;
use c960_store::{DirLock, Journal, JournalError, write_atomically};
use serde::{Deserialize, Serialize};

use crate::{
    FailedGame, GameRecord, JOURNAL_FILE, MANIFEST_FILE, Manifest, MatchStats, Merged, PairTally,
    PgnExtras, PositionStats, PositionSummary, Rules, RunTiming, SHARED_PROCESS, SelfplayError,
    checks::check_game, processes_label, write_run_outputs,
};

/// A game of the run that no input has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MissingGame {
    /// Scharnagl number.
    pub sp: u16,
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

/// The part of a manifest that says what the run is.
#[derive(Clone, Debug, Deserialize)]
struct Head {
    kind: String,
    c960_version: String,
    engines: Vec<EngineInfo>,
    processes: String,
    limit: String,
    #[serde(default)]
    limit_b: Option<String>,
    replays_exactly: bool,
    #[serde(default)]
    time_margin_ms: Option<u64>,
    #[serde(default)]
    openings: Option<String>,
    #[serde(default)]
    engine_logs: Option<String>,
    jitter: f64,
    rules: Rules,
    seed: u64,
    games_per_position: u32,
    positions: String,
    #[serde(default)]
    failed: Vec<FailedGame>,
    jobs: usize,
    this_run: RunTiming,
    started: String,
    finished: String,
    notes: String,
    #[serde(default)]
    shard: Option<Shard>,
    /// An adaptive run's rule: its games follow rounds, which shards
    /// cannot split.
    #[serde(default)]
    adaptive: Option<serde_json::Value>,
}

/// One input: its directory, manifest (if it finished) and journal header.
struct Input {
    dir: PathBuf,
    head: Option<Head>,
    header: Vec<u8>,
    settings: serde_json::Value,
}

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
    fs::create_dir_all(out)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot create {}: {e}", out.display())))?;
    let _lock = DirLock::exclusive(out).map_err(io::Error::other)?;
    c960_store::remove_stale_temporaries(out);
    let (read, _locks) = read_inputs(inputs, out)?;
    let first = &read[0];
    for other in &read[1..] {
        agree(first, other)?;
    }
    let Some(plan) = read.iter().find_map(|i| i.head.as_ref()) else {
        return Err(invalid(format!(
            "none of the {} input(s) has finished (no {MANIFEST_FILE}): nothing says which \
             games the run covers",
            read.len()
        )));
    };
    if plan.openings.is_some() {
        return Err(invalid(
            "runs from an opening book cannot be merged; play them unsharded".to_owned(),
        ));
    }
    let positions = parse_position_set(&plan.positions)
        .map_err(|e| invalid(format!("manifest positions {:?}: {e}", plan.positions)))?;
    let places = unite(&read, plan)?;
    let missing: Vec<MissingGame> = positions
        .iter()
        .flat_map(|p| (0..plan.games_per_position).map(move |game| (p.sp(), game)))
        .filter(|unit| !places.units.contains_key(unit))
        .map(|(sp, game)| MissingGame { sp, game })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let unfinished: Vec<PathBuf> = read
        .iter()
        .filter(|i| i.head.is_none())
        .map(|i| i.dir.clone())
        .collect();
    if !missing.is_empty() && !allow_missing {
        return Err(invalid(missing_message(&missing, &unfinished)));
    }

    let paired = plan.engines.len() > 1;
    let journal = out.join(JOURNAL_FILE);
    let (stats, pairs) = write_journal(&read, &places.units, &journal, paired)?;
    let summaries: Vec<PositionSummary> = positions
        .iter()
        .map(|p| {
            stats
                .get(&p.sp())
                .cloned()
                .unwrap_or_default()
                .summary(p.sp(), paired)
        })
        .collect();
    let games: u64 = summaries.iter().map(|p| p.games).sum();
    let match_stats = paired.then(|| pairs.stats(None));
    let manifest = merged_manifest(&read, plan, games, match_stats, missing);
    let extras = PgnExtras {
        scores: first
            .settings
            .get("keep_scores")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false),
        processes: processes_label(plan.processes == SHARED_PROCESS),
    };
    write_run_outputs(out, &journal, &|_, _| true, &extras, &summaries, &manifest)?;
    Ok(MergeOutcome {
        games,
        duplicates: places.duplicates,
        missing: manifest.merged.missing,
        shards: manifest.merged.shards,
        unfinished,
    })
}

/// Reads every input, each locked for reading while the merge runs.
fn read_inputs(
    inputs: &[PathBuf],
    out: &Path,
) -> Result<(Vec<Input>, Vec<DirLock>), SelfplayError> {
    if inputs.is_empty() {
        return Err(SelfplayError::Invalid(
            "nothing to merge: name at least one run directory".to_owned(),
        ));
    }
    let out_real = fs::canonicalize(out)?;
    let mut locks = Vec::new();
    let mut read = Vec::new();
    for dir in inputs {
        if fs::canonicalize(dir).is_ok_and(|d| d == out_real) {
            return Err(SelfplayError::Invalid(format!(
                "{} is both an input and the output; merge into another directory",
                dir.display()
            )));
        }
        locks.push(DirLock::shared(dir).map_err(io::Error::other)?);
        read.push(read_input(dir)?);
    }
    Ok((read, locks))
}

/// Where each game of the run is, over all inputs.
struct Places {
    /// By (SP, game): the first input that has it.
    units: BTreeMap<(u16, u32), Place>,
    /// Games found again in a later input (or line) and counted once.
    duplicates: u64,
}

/// Reads every input's journal, checked, and unites their games of the
/// run; refuses two different games for one unit of a run that replays
/// exactly.
fn unite(read: &[Input], plan: &Head) -> Result<Places, SelfplayError> {
    let first = &read[0];
    let sps: BTreeSet<u16> = parse_position_set(&plan.positions)
        .map_err(|e| SelfplayError::Invalid(e.to_string()))?
        .iter()
        .map(|p| p.sp())
        .collect();
    let limits = match &plan.limit_b {
        None => vec![plan.limit.clone()],
        Some(b) => vec![
            format!("white: {}; black: {b}", plan.limit),
            format!("white: {b}; black: {}", plan.limit),
        ],
    };
    let check = move |game: &GameRecord| check_game(game, &limits);
    let mut places = Places {
        units: BTreeMap::new(),
        duplicates: 0,
    };
    for (k, input) in read.iter().enumerate() {
        let path = input.dir.join(JOURNAL_FILE);
        let mut refused = None;
        let result = Journal::<GameRecord>::read_records(
            &path,
            &first.settings,
            &check,
            |game, at, line| {
                if !sps.contains(&game.sp) || game.game >= plan.games_per_position {
                    return Ok(());
                }
                let hash = line_hash(line);
                match places.units.get(&(game.sp, game.game)) {
                    None => {
                        places.units.insert((game.sp, game.game), (k, at, hash));
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
        result.map_err(|e| mixed(first, input, e))?;
    }
    Ok(places)
}

/// Writes the merged journal: the first input's header, then each game's
/// line copied from its input, in (SP, game) order. Returns the games'
/// statistics, aggregated as they pass.
fn write_journal(
    read: &[Input],
    units: &BTreeMap<(u16, u32), Place>,
    journal: &Path,
    paired: bool,
) -> Result<(BTreeMap<u16, PositionStats>, PairTally), SelfplayError> {
    let mut stats: BTreeMap<u16, PositionStats> = BTreeMap::new();
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
    plan: &Head,
    games: u64,
    match_stats: Option<MatchStats>,
    missing: Vec<MissingGame>,
) -> Manifest {
    let heads: Vec<&Head> = read.iter().filter_map(|i| i.head.as_ref()).collect();
    let mut shards: Vec<Shard> = heads.iter().filter_map(|h| h.shard).collect();
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
        .map(|f| ((f.sp, f.game), f.clone()))
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
        kind: "selfplay".to_owned(),
        c960_version: plan.c960_version.clone(),
        engines: plan.engines.clone(),
        processes: plan.processes.clone(),
        limit: plan.limit.clone(),
        limit_b: plan.limit_b.clone(),
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
        started: heads
            .iter()
            .map(|h| h.started.clone())
            .min()
            .unwrap_or_default(),
        finished: heads
            .iter()
            .map(|h| h.finished.clone())
            .max()
            .unwrap_or_default(),
        notes: plan.notes.clone(),
        adaptive: None,
        shard: None,
        merged: Merged { shards, missing },
    }
}

fn line_hash(line: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    line.hash(&mut hasher);
    hasher.finish()
}

fn read_input(dir: &Path) -> Result<Input, SelfplayError> {
    let journal = dir.join(JOURNAL_FILE);
    if !journal.is_file() {
        return Err(SelfplayError::Invalid(format!(
            "{} is not a self-play run directory (no {JOURNAL_FILE})",
            dir.display()
        )));
    }
    let head = match fs::read_to_string(dir.join(MANIFEST_FILE)) {
        Ok(text) => {
            let head: Head = serde_json::from_str(&text).map_err(|e| {
                SelfplayError::Invalid(format!(
                    "{}: not a self-play manifest: {e}",
                    dir.join(MANIFEST_FILE).display()
                ))
            })?;
            if head.kind != "selfplay" {
                return Err(SelfplayError::Invalid(format!(
                    "{} is a {} run, not self-play",
                    dir.display(),
                    head.kind
                )));
            }
            if head.adaptive.is_some() {
                return Err(SelfplayError::Invalid(format!(
                    "{} is an adaptive run: its games follow rounds decided from all positions, \
                     so it is never sharded and has nothing to merge",
                    dir.display()
                )));
            }
            Some(head)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    let (header, settings) = Journal::<GameRecord>::read_header(&journal)?;
    Ok(Input {
        dir: dir.to_owned(),
        head,
        header,
        settings,
    })
}

/// The settings lines, and the manifests' version, positions and games
/// per position, of two inputs must agree.
fn agree(a: &Input, b: &Input) -> Result<(), SelfplayError> {
    if a.settings != b.settings {
        let differences = match Journal::<GameRecord>::read_records(
            &b.dir.join(JOURNAL_FILE),
            &a.settings,
            &|_| Ok(()),
            |_, _, _| Ok(()),
        ) {
            Err(JournalError::SettingsDiffer { differences, .. }) => differences,
            _ => "settings lines differ".to_owned(),
        };
        return Err(differ(a, b, &differences));
    }
    if let (Some(x), Some(y)) = (&a.head, &b.head) {
        let fields = [
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
        ];
        for (name, there, here) in fields {
            if there != here {
                return Err(differ(
                    a,
                    b,
                    &format!("{name}: {there:?} there, {here:?} here"),
                ));
            }
        }
    }
    Ok(())
}

fn differ(a: &Input, b: &Input, differences: &str) -> SelfplayError {
    SelfplayError::Invalid(format!(
        "cannot merge {} with {}: other settings ({differences})",
        b.dir.display(),
        a.dir.display()
    ))
}

fn mixed(first: &Input, input: &Input, e: JournalError) -> SelfplayError {
    match e {
        JournalError::SettingsDiffer { differences, .. } => differ(first, input, &differences),
        e => e.into(),
    }
}

/// The error for missing games: how many, the first few, and which inputs
/// have not finished.
fn missing_message(missing: &[MissingGame], unfinished: &[PathBuf]) -> String {
    let shown: Vec<String> = missing
        .iter()
        .take(6)
        .map(|m| format!("SP {} game {}", m.sp, m.game))
        .collect();
    let more = if missing.len() > shown.len() {
        ", ..."
    } else {
        ""
    };
    let unfinished = if unfinished.is_empty() {
        String::new()
    } else {
        format!(
            "; not finished: {}",
            unfinished
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!(
        "{} game(s) of the run are in no input ({}{more}){unfinished}; finish or add the \
         missing shards, or pass --allow-missing to merge what there is",
        missing.len(),
        shown.join(", ")
    )
}
