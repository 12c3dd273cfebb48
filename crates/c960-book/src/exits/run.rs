//! Running the expansion of many starts: journaled and resumable on
//! `c960-runner` (one start per journal line), and reading finished runs
//! back, one directory or the shards of one run.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use c960_core::{Setup, Shard, Variant};
use c960_engine::{AnyEngine, Engine as _, EngineInfo, EngineSpec, Limit, pool::PoolOptions};
use c960_runner::{Flow, Progress, RunError, Spare, run_journaled};
use c960_store::{JOURNAL_FILE, Journal, RunDir, Validation};
use serde::{Deserialize, Serialize};

use super::{
    expand::{StartExits, Tree, check_start, expand},
    plan::{PLAN_FILE, Plan},
};

/// What to expand and how.
#[derive(Clone, Debug)]
pub struct ExpandConfig {
    /// The engine and its options.
    pub engine: EngineSpec,
    /// The tree each start grows.
    pub tree: Tree,
    /// The starts (one variant).
    pub setups: Vec<Setup>,
    /// Engine processes at once.
    pub jobs: usize,
    /// Extra attempts for a start whose engine died.
    pub retries: u32,
    /// The run directory (its journal).
    pub run: PathBuf,
    /// This run's part of the starts.
    pub shard: Shard,
    /// Refuse, before any search, an engine that reports no WDL (for a
    /// draw-rate window).
    pub needs_wdl: bool,
    /// Drop journal lines that cannot be trusted (and say so) instead of
    /// refusing to resume.
    pub repair: bool,
}

impl ExpandConfig {
    /// The starts of this run's shard.
    #[must_use]
    pub fn starts(&self) -> Vec<Setup> {
        self.setups
            .iter()
            .copied()
            .filter(|s| self.shard.contains(s.id(), 0))
            .collect()
    }
}

/// The settings an expansion journal belongs to: results are only mixed
/// when these are equal, so a resume with another engine, network, limit,
/// `MultiPV`, depth in plies or variant is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitSettings {
    /// The engine's `id name`.
    pub engine: String,
    /// Its executable.
    pub engine_path: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_args: Vec<String>,
    /// The package it runs from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_package: Option<String>,
    /// The script inside the package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_script: Option<String>,
    /// Its network files and their hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_network: Option<c960_engine::Network>,
    /// Every option set.
    pub engine_options: Vec<(String, String)>,
    /// The WDL model, if the engine offers one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wdl_model: Option<String>,
    /// The search at each node.
    pub limit: Limit,
    /// Lines per node.
    pub multipv: u32,
    /// Plies to the deepest exits.
    pub plies: u32,
    /// The shallowest exit ply, when exits are not the leaves alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_exit_ply: Option<u32>,
    /// Chess960 or DFRC.
    pub variant: Variant,
}

impl ExitSettings {
    /// The settings of an expansion by `engine` of `tree` in `variant`.
    #[must_use]
    pub fn new(engine: &EngineInfo, tree: Tree, variant: Variant) -> ExitSettings {
        ExitSettings {
            engine: engine.name.clone(),
            engine_path: engine.path.clone(),
            engine_args: engine.args.clone(),
            engine_package: engine.package.clone(),
            engine_script: engine.script.clone(),
            engine_network: engine.network.clone(),
            engine_options: engine.options.clone(),
            wdl_model: engine.wdl.as_ref().map(|w| w.model.clone()),
            limit: tree.limit,
            multipv: tree.multipv,
            plies: tree.plies,
            first_exit_ply: (tree.first_exit_ply < tree.plies).then_some(tree.first_exit_ply),
            variant,
        }
    }

    /// The tree these settings grow.
    #[must_use]
    pub fn tree(&self) -> Tree {
        Tree {
            limit: self.limit,
            multipv: self.multipv,
            plies: self.plies,
            first_exit_ply: self.first_exit_ply.unwrap_or(self.plies),
        }
    }
}

/// A finished (or interrupted) expansion, or the expansions read back
/// from run directories.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// The settings of the journals (one or more).
    pub settings: ExitSettings,
    /// Every start's exits, by setup number.
    pub starts: BTreeMap<u32, StartExits>,
    /// Starts that failed in this run (setup, reason).
    pub failed: Vec<(u32, String)>,
    /// Starts taken from the journal.
    pub resumed: usize,
    /// Whether the run stopped before every start was tried.
    pub interrupted: bool,
    /// The journals read or written, with their SHA-256.
    pub journals: Vec<(PathBuf, String)>,
    /// What [`read_runs`]' `trim` counted (`None` for a run).
    pub trimmed: Option<usize>,
    /// Journal lines `repair` dropped in this run.
    pub repaired: Vec<c960_store::DroppedLine>,
}

/// Runs (or resumes) the expansion of `config.starts()`. `stop`, once set,
/// lets running starts finish and starts no new one; `on_progress` follows
/// each start.
///
/// # Errors
/// A [`RunError`]: an engine that cannot be used, a journal of other
/// settings or damaged, a directory held by another run.
pub fn run(
    config: &ExpandConfig,
    stop: &AtomicBool,
    on_progress: impl FnMut(Progress),
) -> Result<Expansion, RunError> {
    let starts = config.starts();
    if starts.is_empty() {
        return Err(RunError::Invalid(format!(
            "shard {} holds none of the {}: use at most {}",
            config.shard,
            c960_core::plural(config.setups.len(), "start", "starts"),
            c960_core::plural(config.setups.len(), "shard", "shards")
        )));
    }
    let variant = starts[0].variant();
    config.tree.check().map_err(RunError::Invalid)?;
    // The plan, written before the first search, is put back with the
    // journal when the run is refused before any work.
    let dir = RunDir::hold(&config.run, &[JOURNAL_FILE, PLAN_FILE])?;
    let result = run_held(config, &dir, &starts, variant, stop, on_progress);
    dir.release(result)
}

/// [`run`] in the held run directory `dir`.
fn run_held(
    config: &ExpandConfig,
    dir: &RunDir,
    starts: &[Setup],
    variant: Variant,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(Progress),
) -> Result<Expansion, RunError> {
    dir.check_outputs(&[JOURNAL_FILE])?;
    let spec = config.engine.with_multipv(config.tree.multipv);
    let first = spec.start()?;
    if config.needs_wdl {
        check_wdl(first.info()).map_err(RunError::Invalid)?;
    }
    let settings = ExitSettings::new(first.info(), config.tree, variant);
    let path = config.run.join(JOURNAL_FILE);
    let tree = config.tree;
    let validation = Validation {
        check: Box::new(move |entry: &StartExits| {
            let setup = Setup::new(variant, entry.setup).map_err(|e| e.to_string())?;
            check_start(entry, setup, tree)
        }),
        key: Box::new(|entry: &StartExits| Some(entry.setup.to_string())),
    };
    let repaired = if config.repair {
        Journal::repair(&path, &validation)?
    } else {
        Vec::new()
    };
    let (mut journal, entries) =
        Journal::<StartExits>::open_checked(&path, &settings, &validation)?;
    let mut done: BTreeMap<u32, StartExits> = entries.into_iter().map(|e| (e.setup, e)).collect();
    let todo: Vec<Setup> = starts
        .iter()
        .copied()
        .filter(|s| !done.contains_key(&s.id()))
        .collect();
    let resumed = starts.len() - todo.len();
    Plan::new(&config.setups, config.shard, starts.len()).write(&config.run)?;
    let mut progress = Progress {
        done: resumed as u64,
        failed: 0,
        total: starts.len() as u64,
        resumed: resumed as u64,
    };
    on_progress(progress);
    let spare = Spare::new(first);
    let start = || match spare.take() {
        Some(engine) => Ok(engine),
        None => spec.start(),
    };
    let work = |engine: &mut AnyEngine, setup: &Setup| expand(engine, *setup, tree);
    let mut failed = Vec::new();
    run_journaled(
        &mut journal,
        &start,
        &todo,
        &work,
        PoolOptions {
            workers: config.jobs,
            retries: config.retries,
        },
        stop,
        |finished, recorder| {
            let setup = todo[finished.index].id();
            match finished.outcome {
                Ok(entry) => {
                    if !recorder.append(&entry) {
                        return Flow::Halt;
                    }
                    done.insert(setup, entry);
                    progress.done += 1;
                }
                Err(failure) => {
                    failed.push((setup, failure.reason));
                    progress.failed += 1;
                }
            }
            on_progress(progress);
            Flow::Go
        },
    )?;
    drop(journal);
    let wanted: Vec<u32> = starts.iter().map(|s| s.id()).collect();
    done.retain(|id, _| wanted.binary_search(id).is_ok());
    let interrupted = done.len() + failed.len() < starts.len();
    failed.sort();
    Ok(Expansion {
        settings,
        starts: done,
        failed,
        resumed,
        interrupted,
        journals: vec![(path.clone(), file_sha256(&path)?)],
        trimmed: None,
        repaired,
    })
}

fn file_sha256(path: &Path) -> Result<String, RunError> {
    let bytes = std::fs::read(path)
        .map_err(|e| RunError::Invalid(format!("cannot read {}: {e}", path.display())))?;
    Ok(crate::sha256_hex(&bytes))
}

/// Reads the journals of the run directories `dirs` (one run, or the
/// shards of one run) without an engine: their settings must be equal,
/// and a start found in two of them must have the same exits.
///
/// # Errors
/// [`RunError::Invalid`] naming the directory whose journal is missing,
/// of other settings, damaged, or in conflict with another.
///
/// `trim` is applied to each start as it is read (to drop the exits a book
/// cannot keep, so that memory holds only what a window keeps, however
/// many starts the runs hold) and returns the count it wants summed into
/// [`Expansion::trimmed`] (say, the candidates it saw).
pub fn read_runs(
    dirs: &[PathBuf],
    trim: &dyn Fn(&mut StartExits) -> usize,
) -> Result<Expansion, RunError> {
    let mut trimmed = 0;
    let mut settings: Option<(ExitSettings, c960_store::Settings, &Path)> = None;
    let mut starts: BTreeMap<u32, StartExits> = BTreeMap::new();
    let mut journals = Vec::new();
    for dir in dirs {
        // A run still being expanded is not read.
        let _lock = c960_store::DirLock::shared(dir)?;
        let path = dir.join(JOURNAL_FILE);
        let (header, theirs) = Journal::<StartExits>::read_header(&path)
            .map_err(|e| RunError::Invalid(e.to_string()))?;
        let ours = exit_settings(&path, &header)?;
        let reference = if let Some((first, raw, first_dir)) = &settings {
            if *first != ours {
                return Err(RunError::Invalid(format!(
                    "{} was expanded with other settings than {} ({})",
                    dir.display(),
                    first_dir.display(),
                    theirs.differences(raw)
                )));
            }
            raw.clone()
        } else {
            settings = Some((ours.clone(), theirs.clone(), dir.as_path()));
            theirs
        };
        let (variant, tree) = (ours.variant, ours.tree());
        let check = |entry: &StartExits| {
            let setup = Setup::new(variant, entry.setup).map_err(|e| e.to_string())?;
            check_start(entry, setup, tree)
        };
        let mut conflict = None;
        let mut held = BTreeSet::new();
        Journal::<StartExits>::read_records(&path, &reference, &check, |mut entry, _, _| {
            held.insert(entry.setup);
            let counted = trim(&mut entry);
            match starts.get(&entry.setup) {
                Some(known) if *known != entry => conflict = Some(entry.setup),
                Some(_) => {}
                None => {
                    trimmed += counted;
                    starts.insert(entry.setup, entry);
                }
            }
            Ok(())
        })
        .map_err(|e| RunError::Invalid(e.to_string()))?;
        Plan::check_finished(dir, &held)?;
        if let Some(setup) = conflict {
            return Err(RunError::Invalid(format!(
                "{} holds other exits for {} than an earlier run directory",
                dir.display(),
                variant.label(setup)
            )));
        }
        journals.push((path.clone(), file_sha256(&path)?));
    }
    let Some((settings, _, _)) = settings else {
        return Err(RunError::Invalid("no run directory to read".to_owned()));
    };
    Ok(Expansion {
        settings,
        starts,
        failed: Vec::new(),
        resumed: 0,
        interrupted: false,
        journals,
        trimmed: Some(trimmed),
        repaired: Vec::new(),
    })
}

/// The exit settings in the header of the journal at `path`.
fn exit_settings(path: &Path, header: &[u8]) -> Result<ExitSettings, RunError> {
    serde_json::from_slice::<serde_json::Value>(header)
        .ok()
        .and_then(|v| v.get("settings").cloned())
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(|| {
            RunError::Invalid(format!(
                "{} is not the journal of a `c960 book exits` run",
                path.display()
            ))
        })
}

/// Refuses an engine without a WDL model for a window of the engine's own
/// draw chance (`--draw-rate` without `--draw-model`).
///
/// # Errors
/// The refusal in words, naming the engine.
pub fn check_wdl(engine: &c960_engine::EngineInfo) -> Result<(), String> {
    if engine.wdl.is_some() {
        return Ok(());
    }
    Err(format!(
        "--draw-rate needs the engine's WDL model, and {} reports none; use --cp, or \
         --draw-model with a model fitted to games",
        engine.name
    ))
}
