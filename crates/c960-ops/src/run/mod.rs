//! A whole run in one run directory — positions, engine sweep, self-play,
//! report — from a profile, a TOML file and the command's options. A run
//! goes, file by file:
//!
//! 1. `resolve.rs` merges the profile, the config file and the options
//!    once (the sweep's raters, if any, from `raters.rs`) into one typed
//!    [`Plan`] of `plan.rs` (an unknown key or a wrong type is an error),
//!    and `configs.rs` turns it into the stages' configurations,
//!    `c960_sweep::SweepConfig` and `c960_selfplay::SelfplayConfig`
//!    ([`prepare`]); a dry run ends there.
//! 2. [`Prepared::run`] starts the engine once and names it before
//!    anything is written, then runs the stages of `stages.rs`, telling an
//!    [`Observer`] how they go: `positions.csv` (the features of
//!    `c960-core`), `sweep/` (the sweep searches with the engine already
//!    started), `selfplay/` (games with one engine process per side) and
//!    `report/` (`c960-report`'s site). The sweep and self-play stages run
//!    on `c960-runner`: each finished search or game is in the stage's
//!    `journal.jsonl` before it counts, so the same plan resumes a stopped
//!    run, and a finished stage's tables and `manifest.json` are written
//!    atomically from it.
//! 3. `run.json` records the resolved plan, the engine, the c960 version
//!    and the time per stage (`record.rs`); `summary.rs` says what was
//!    made and how far its ranking agrees with the published v4 consensus
//!    (`v4.rs`).

mod configs;
mod plan;
mod raters;
mod record;
mod resolve;
mod stages;
mod start;
mod summary;
mod v4;

#[cfg(test)]
mod tests;

use std::{
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
    time::Instant,
};

use anyhow::{Context, Result};
use c960_selfplay::{PositionSummary, SelfplayConfig};
use c960_sweep::{SweepConfig, SweepRow};
use serde::Serialize;

pub use configs::{EngineRequest, RATERS_DIR, ResolveEngine};
pub use plan::{Plan, PlanRecord, Profile, QUICK_MINUTES, RaterPlan};
use record::RUN_RECORD;
pub use resolve::{PlanOptions, resolve};
pub use stages::{Observer, Silent, StageTime, Stopped, write_position_table_csv};
use stages::{selfplay_stage, sweep_stage, write_positions};
pub use start::Start;

/// A plan, a config file or a run directory the run refuses is bad input
/// (the one kind every command uses).
pub use crate::failure::InputError;

/// What `run.json` records.
#[derive(Serialize)]
struct RunRecord<'a> {
    kind: &'static str,
    c960_version: &'static str,
    plan: &'a Plan,
    engine: String,
    /// Each rater's engine, when the sweep has several raters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    raters: Vec<String>,
    jobs: usize,
    stages: &'a [StageTime],
    /// Absent for a shard: the merge of all shards builds the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<PathBuf>,
    finished: String,
}

impl<'a> RunRecord<'a> {
    /// A finished run's record: `engine` is the first sweep's, `jobs` its
    /// engines at once.
    fn finished(plan: &'a Plan, (engine, jobs): (&str, usize), stages: &'a [StageTime]) -> Self {
        RunRecord {
            kind: "run",
            c960_version: env!("CARGO_PKG_VERSION"),
            plan,
            engine: engine.to_owned(),
            raters: Vec::new(),
            jobs,
            stages,
            report: None,
            finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        }
    }
}

/// Everything a run takes besides the [`Observer`] it tells how it goes.
#[derive(Clone, Copy)]
pub struct RunOptions<'a> {
    /// What the command line sets of the plan.
    pub plan: &'a PlanOptions,
    /// Only resolve and check the plan: no engine starts and no stage
    /// runs.
    pub dry_run: bool,
    /// Drop journal lines that cannot be trusted instead of refusing to
    /// resume.
    pub repair: bool,
    /// How the run's engines are chosen.
    pub engines: ResolveEngine<'a>,
    /// Set to stop the run cleanly.
    pub stop: &'a AtomicBool,
}

/// A whole `c960 run`: resolves the plan ([`resolve`]), claims its outputs
/// and makes the stages' configurations ([`prepare`]); a dry run ends
/// there with the plan as this machine resolves its engines. Else
/// `observer` is told the engines are [`starting`](Observer::starting),
/// and [`Prepared::run`] runs the stages.
pub fn run(options: RunOptions<'_>, observer: &mut dyn Observer) -> Result<Finished> {
    let plan = resolve(options.plan)?;
    let config = options.plan.config.as_deref();
    let prepared = prepare(plan, config, options.engines, options.repair)?;
    if options.dry_run {
        let resolved = prepared.plan.with_engines_resolved();
        return Ok(Finished::DryRun(Box::new(resolved)));
    }
    observer.starting();
    prepared.run(options.stop, observer)
}

/// A run ready to start: its outputs claimed, the stages' configurations
/// made from its plan and checked (what a dry run validates).
#[derive(Debug)]
pub struct Prepared {
    plan: Plan,
    sweeps: Vec<SweepConfig>,
    selfplay: Option<SelfplayConfig>,
    repair: bool,
}

/// Claims the run's outputs (its directory, `config` as an input that
/// must not be one of them) and makes the stages' configurations, with
/// engines as `resolve` chooses them. No stage runs and no engine
/// starts. With `repair`, journal lines that cannot be trusted are
/// dropped instead of refused.
pub fn prepare(
    plan: Plan,
    config: Option<&Path>,
    resolve: ResolveEngine<'_>,
    repair: bool,
) -> Result<Prepared> {
    let mut outputs =
        c960_store::Claim::new().run_dir(&plan.out, "--out", &["positions.csv", RUN_RECORD]);
    if let Some(config) = config {
        outputs = outputs.input(config, "--config");
    }
    outputs.take()?;
    let (mut sweeps, selfplay) = configs::configs(&plan, resolve)?;
    for sweep in &mut sweeps {
        sweep.repair = repair;
    }
    Ok(Prepared {
        plan,
        sweeps,
        selfplay,
        repair,
    })
}

/// How a run ended.
#[derive(Debug)]
pub enum Finished {
    /// A dry run: the plan, with the engines `auto` chooses on this
    /// machine.
    DryRun(Box<Plan>),
    /// One shard's run, which ends after self-play: the merge of all
    /// shards builds the report.
    Shard {
        /// The shard it played.
        shard: c960_core::Shard,
        /// Its run directory.
        out: PathBuf,
    },
    /// A whole run, with its report.
    Run(Box<Report>),
}

/// What a whole run made, for its closing summary.
#[derive(Debug)]
pub struct Report {
    plan: Plan,
    /// The engines, each once, for people.
    engines: Vec<String>,
    rows: Vec<SweepRow>,
    played: Vec<PositionSummary>,
    times: Vec<StageTime>,
    /// The earlier runs' time, summed, when this run resumed a finished one.
    before: Option<f64>,
    dir: PathBuf,
    verdicts: Option<c960_report::balance::Balance>,
}

impl Report {
    /// The report's directory (`report/` of the run directory).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The closing summary: where the report is, the time per stage, the
    /// most and least balanced positions, each method's reliability and
    /// the agreement with the published v4 consensus.
    pub fn summary(&self) -> Result<String> {
        summary::summary(
            &self.plan,
            &self.engines.join(", "),
            &self.rows,
            &self.played,
            (&self.times, self.before),
            &self.dir,
            self.verdicts.as_ref(),
        )
    }
}

impl Prepared {
    /// The plan the run follows.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Runs the plan: starts its engines, claims the run directory, and
    /// runs every stage (resuming what its journals hold), telling
    /// `observer` how it goes; `stop` set stops the run cleanly (the
    /// error is then [`Stopped`]).
    pub fn run(self, stop: &AtomicBool, observer: &mut dyn Observer) -> Result<Finished> {
        let Prepared {
            plan,
            sweeps,
            selfplay,
            repair,
        } = self;
        let (started, engines, named) = start::start_engines(&plan, &sweeps)?;
        observer.started(&Start::of(&plan, &named, &sweeps, selfplay.as_ref()));
        let (_lock, earlier) = claim(&plan, selfplay.as_ref(), repair, observer)?;
        let stages_total = if selfplay.is_some() { 4 } else { 3 };
        let mut times = vec![write_positions(&plan.out, observer, stages_total)?];
        let mut swept = Vec::new();
        for (i, (sweep, engine)) in sweeps.iter().zip(started).enumerate() {
            let rater = (sweeps.len() > 1).then_some((i + 1, sweeps.len()));
            let (outcome, time) =
                sweep_stage(sweep, engine, rater, (stop, observer), stages_total)?;
            times.push(time);
            swept.push(outcome);
        }
        let first = swept.swap_remove(0);
        let mut runs: Vec<PathBuf> = sweeps.iter().map(|s| s.out.clone()).collect();
        let mut played: Vec<PositionSummary> = Vec::new();
        if let Some(selfplay) = &selfplay {
            let (outcome, time) = selfplay_stage(selfplay, (stop, observer), stages_total)?;
            times.push(time);
            played = outcome.positions;
            runs.push(selfplay.out.clone());
        }
        let engine = (first.engine.name.as_str(), sweeps[0].jobs);
        if let Some(shard) = plan.shard {
            let record = RunRecord::finished(&plan, engine, &times);
            record::write(&plan.out, record::RunFile::of(&record)?, earlier)?;
            let out = plan.out.clone();
            return Ok(Finished::Shard { shard, out });
        }
        let report = report_stage(&runs, &plan.out, observer, stages_total)?;
        times.push(report.1);
        let mut record = RunRecord::finished(&plan, engine, &times);
        if sweeps.len() > 1 {
            record.raters = engines;
        }
        record.report = Some(report.0.join("index.html"));
        let before = record::earlier_seconds(earlier.as_ref());
        record::write(&plan.out, record::RunFile::of(&record)?, earlier)?;
        Ok(Finished::Run(Box::new(Report {
            plan,
            engines: named,
            rows: first.rows,
            played,
            times,
            before,
            dir: report.0,
            verdicts: report.2,
        })))
    }
}

/// Stage 4: the report's site, from the run's stages' directories.
fn report_stage(
    runs: &[PathBuf],
    out: &Path,
    observer: &mut dyn Observer,
    stages_total: usize,
) -> Result<(PathBuf, StageTime, Option<c960_report::balance::Balance>)> {
    let clock = Instant::now();
    observer.stage(stages_total, stages_total, "report", 1, "site");
    let report_dir = out.join("report");
    let built = c960_report::build(runs, &report_dir)
        .with_context(|| format!("report into {}", report_dir.display()))?;
    observer.cleared();
    let time = StageTime {
        stage: "report",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!("{} pages, {} chart files", built.pages, built.charts.len()),
        resumed: 0,
    };
    Ok((report_dir, time, built.verdicts))
}

/// Locks the run directory (creating it) for this run's life, refuses it
/// if it holds a run of other settings, checks its own outputs, and with
/// `repair` repairs the self-play journal (the sweep repairs its own).
/// Returns the claim (the lock, and for a first run what to put back if
/// it does no work) and the earlier run's `run.json`.
fn claim(
    plan: &Plan,
    selfplay: Option<&SelfplayConfig>,
    repair: bool,
    observer: &mut dyn Observer,
) -> Result<(Claimed, Option<record::RunFile>)> {
    let noted = record::Noted::note(&plan.out);
    let dir = c960_store::RunDir::lock(&plan.out).inspect_err(|_| noted.abandon())?;
    // Other settings in this directory are refused before anything is
    // written; a first run records its plan at once, so that a run killed
    // before it finished refuses them too.
    let earlier = record::earlier(&plan.out)?;
    let first = if let Some(earlier) = &earlier {
        record::check_plan(&plan.out, earlier, plan)?;
        None
    } else {
        record::write(&plan.out, record::RunFile::first(plan)?, None)?;
        Some(noted.arm())
    };
    let lock = Claimed { _first: first, dir };
    lock.dir.check_outputs(&["positions.csv", RUN_RECORD])?;
    if repair && let Some(selfplay) = selfplay {
        let dropped = c960_selfplay::checks::repair(selfplay)
            .with_context(|| format!("repair {}", selfplay.out.display()))?;
        observer.repaired(&selfplay.out.join(c960_selfplay::JOURNAL_FILE), &dropped);
    }
    Ok((lock, earlier))
}

/// A claimed run directory. The fields drop in order: what a first run
/// puts back goes before the lock is released.
struct Claimed {
    _first: Option<record::FirstRun>,
    dir: c960_store::RunDir,
}
