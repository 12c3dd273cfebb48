//! `c960 run`: the whole pipeline in one run directory — positions, engine
//! sweep, self-play, report — with a profile, a TOML file and flags, one
//! progress display and a summary. A run goes, file by file:
//!
//! 1. `resolve.rs` merges the profile, the `--config` file and the flags
//!    once (the sweep's raters, if any, from `raters.rs`) into one typed
//!    `Plan` of `plan.rs` (an unknown key or a wrong type is an error), and
//!    `configs.rs` turns it into the stages' configurations,
//!    `c960_sweep::SweepConfig` and `c960_selfplay::SelfplayConfig`.
//! 2. `run` (here) starts the engine once and names it before anything is
//!    written, then runs the stages of `stages.rs` under one progress
//!    display: `positions.csv` (the features of `c960-core`), `sweep/` (the
//!    sweep searches with the engine already started), `selfplay/` (games
//!    with one engine process per side) and `report/` (`c960-report`'s
//!    site). The sweep and self-play stages run on `c960-runner`: each
//!    finished search or game is in the stage's `journal.jsonl` before it
//!    counts, so the same command resumes a stopped run, and a finished
//!    stage's tables and `manifest.json` are written atomically from it.
//! 3. `run.json` records the resolved plan, the engine, the c960 version
//!    and the time per stage; `summary.rs` prints what was made and how
//!    far its ranking agrees with the published v4 consensus (`v4.rs`).

mod configs;
mod help;
mod plan;
pub(crate) use help::run_after_help;
mod raters;
mod record;
mod resolve;
mod stages;
mod summary;
mod v4;

use std::{fmt::Write as _, num::NonZeroU32, path::PathBuf, time::Instant};

use anyhow::{Context, Result};
use c960_selfplay::{PositionSummary, SelfplayConfig};
use serde::Serialize;

use crate::{cli::RunArgs, interrupt, output::Text, output::say};

use configs::configs;
use plan::Plan;
use record::RUN_RECORD;
pub(crate) use resolve::plan;
use stages::{Display, StageTime, selfplay_stage, sweep_stage, write_positions};
use summary::summary;

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

pub(crate) fn run(args: &RunArgs) -> Result<()> {
    let plan = plan(args)?;
    let mut outputs =
        c960_store::Claim::new().run_dir(&plan.out, "--out", &["positions.csv", RUN_RECORD]);
    if let Some(config) = &args.config {
        outputs = outputs.input(config, "--config");
    }
    outputs.take()?;
    // The dry run validates exactly what the real run does (quietly: it
    // prints nothing but the plan); only the engine is not started.
    let (mut sweeps, selfplay) = configs(&plan, args.quiet || args.dry_run)?;
    for sweep in &mut sweeps {
        sweep.repair = args.repair;
    }
    if args.dry_run {
        let mut text = Text::default();
        let resolved = plan.with_engines_resolved();
        writeln!(text, "{}", serde_json::to_string_pretty(&resolved)?)?;
        return Ok(text.print()?);
    }
    // Before any engine starts: a stop signal then stops its engines too.
    interrupt::install();
    let (started, engines, named) = start_engines(&plan, &sweeps, selfplay.as_ref(), args.quiet)?;
    let sweep = &sweeps[0];
    let (_lock, earlier) = claim(&plan, selfplay.as_ref(), args.repair)?;
    let stages_total = if selfplay.is_some() { 4 } else { 3 };
    let display = Display::new(args.quiet);
    let mut times = Vec::new();

    times.push(write_positions(&plan.out, &display, stages_total)?);

    let mut swept = Vec::new();
    for (i, (sweep, engine)) in sweeps.iter().zip(started).enumerate() {
        let rater = (sweeps.len() > 1).then_some((i + 1, sweeps.len()));
        let (outcome, time) = sweep_stage(sweep, engine, rater, &display, stages_total)?;
        times.push(time);
        swept.push(outcome);
    }
    let first = &swept[0];

    let mut runs: Vec<PathBuf> = sweeps.iter().map(|s| s.out.clone()).collect();
    let mut played: Vec<PositionSummary> = Vec::new();
    if let Some(selfplay) = &selfplay {
        let (outcome, time) = selfplay_stage(selfplay, &display, stages_total)?;
        times.push(time);
        played = outcome.positions;
        runs.push(selfplay.out.clone());
    }

    if plan.shard.is_some() {
        let engine = (first.engine.name.as_str(), sweep.jobs);
        return finish_shard(&plan, engine, &times, args.quiet, earlier);
    }

    // 4. Report.
    let clock = Instant::now();
    display.stage(stages_total, stages_total, "report", 1, "site");
    let report_dir = plan.out.join("report");
    let built = c960_report::build(&runs, &report_dir)
        .with_context(|| format!("report into {}", report_dir.display()))?;
    display.bar.finish_and_clear();
    times.push(StageTime {
        stage: "report",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!("{} pages, {} chart files", built.pages, built.charts.len()),
        resumed: 0,
    });

    let record = RunRecord {
        kind: "run",
        c960_version: env!("CARGO_PKG_VERSION"),
        plan: &plan,
        engine: first.engine.name.clone(),
        raters: if swept.len() > 1 {
            engines.clone()
        } else {
            Vec::new()
        },
        jobs: sweep.jobs,
        stages: &times,
        report: Some(report_dir.join("index.html")),
        finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    let before = record::earlier_seconds(earlier.as_ref());
    record::write(&plan.out, record::RunFile::of(&record)?, earlier)?;
    if !args.quiet {
        summary(
            &plan,
            &named.join(", "),
            &first.rows,
            &played,
            (&times, before),
            &report_dir,
            built.verdicts.as_ref(),
        )?
        .print()?;
    }
    Ok(())
}

/// Starts every rater's engine once before anything is written: a broken
/// engine is reported at once, and the run says which engines it uses.
/// Each sweep then searches with its engine, so it is launched once.
/// Returns the engines, their labels, and each label once for people.
fn start_engines(
    plan: &Plan,
    sweeps: &[c960_sweep::SweepConfig],
    selfplay: Option<&SelfplayConfig>,
    quiet: bool,
) -> Result<(Vec<c960_engine::AnyEngine>, Vec<String>, Vec<String>)> {
    let mut started = Vec::new();
    for sweep in sweeps {
        started.push(
            sweep
                .engine
                .with_multipv(sweep.multipv.get())
                .start()
                .map_err(c960_runner::RunError::from)?,
        );
    }
    raters::check_started_raters(&plan.raters, sweeps, &mut started)?;
    let engines: Vec<String> = started
        .iter()
        .map(|e| {
            use c960_engine::Engine as _;
            e.info().label()
        })
        .collect();
    let named: Vec<String> = engines.iter().fold(Vec::new(), |mut named, e| {
        if !named.contains(e) {
            named.push(e.clone());
        }
        named
    });
    let sweep = &sweeps[0];
    if !quiet {
        let searches = if sweeps.len() == 1 {
            format!(
                "sweep at {}{}",
                sweep.limit,
                if sweep.multipv > NonZeroU32::MIN {
                    format!(" with MultiPV {}", sweep.multipv)
                } else {
                    String::new()
                }
            )
        } else {
            format!("sweep by {} raters", sweeps.len())
        };
        say!(
            "c960 run ({}) with {}: {} positions; {searches}; {} into {}",
            plan.profile.name(),
            named.join(", "),
            sweep.positions.len(),
            selfplay.map_or("no self-play".to_owned(), |s| format!(
                "self-play {} per position at {} per move",
                c960_core::plural(s.games_per_position.get(), "game", "games"),
                s.limit
            )),
            plan.out.display()
        );
    }
    Ok((started, engines, named))
}

/// A shard's run ends after self-play: `run.json` says which shard it
/// played (and marks it finished); the merge of all shards builds the
/// report.
fn finish_shard(
    plan: &Plan,
    (engine, jobs): (&str, usize),
    times: &[StageTime],
    quiet: bool,
    earlier: Option<record::RunFile>,
) -> Result<()> {
    let record = RunRecord {
        kind: "run",
        c960_version: env!("CARGO_PKG_VERSION"),
        plan,
        engine: engine.to_owned(),
        raters: Vec::new(),
        jobs,
        stages: times,
        report: None,
        finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    record::write(&plan.out, record::RunFile::of(&record)?, earlier)?;
    if !quiet {
        let mut text = Text::default();
        writeln!(
            text,
            "shard {} of c960 run finished in {}; merge every shard with c960 merge DIR... --out DIR",
            plan.shard.map(|s| s.to_string()).unwrap_or_default(),
            plan.out.display()
        )?;
        text.print()?;
    }
    Ok(())
}

/// Locks the run directory (creating it) for this run's life, refuses it
/// if it holds a run of other settings, checks its own outputs, and with
/// `--repair` repairs the self-play journal (the sweep repairs its own).
/// Returns the claim (the lock, and for a first run what to put back if
/// it does no work) and the earlier run's `run.json`.
fn claim(
    plan: &Plan,
    selfplay: Option<&SelfplayConfig>,
    repair: bool,
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
        crate::cmd::sweep::report_repairs(
            &selfplay.out.join(c960_selfplay::JOURNAL_FILE),
            &dropped,
        );
    }
    Ok((lock, earlier))
}

/// A claimed run directory. The fields drop in order: what a first run
/// puts back goes before the lock is released.
struct Claimed {
    _first: Option<record::FirstRun>,
    dir: c960_store::RunDir,
}
