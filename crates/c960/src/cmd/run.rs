//! `c960 run`: the whole pipeline in one run directory — positions, engine
//! sweep, self-play, report — with a profile, a TOML file and flags, one
//! progress display and a summary.

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};
use c960_core::{Features, PositionRecord, StartPosition, parse_position_set};
use c960_engine::{EngineSpec, Limit};
use c960_selfplay::{Adaptive, PositionSummary, Rules, SelfplayConfig};
use c960_sweep::{RepeatPlan, SweepConfig, SweepRow};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::{
    cli::{EngineArgs, InputError, Profile, RunArgs},
    interrupt::{self, Interrupted},
    output::Text,
};

/// Everything a run does, resolved from the profile, the TOML file and the
/// flags (in that order, later ones winning). Written to `run.json`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Plan {
    profile: Profile,
    out: PathBuf,
    engine: String,
    options: Vec<String>,
    hash: u32,
    jobs: Option<usize>,
    positions: String,
    seed: u64,
    sweep: SweepPlan,
    selfplay: SelfplayPlan,
    /// The shard this run plays (`--shard`), if one part only.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<c960_core::Shard>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepPlan {
    nodes: u64,
    multipv: u32,
    /// Searches per position (node budgets drawn from the run's seed).
    repeats: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SelfplayPlan {
    /// Games per position (with a budget or target: before the rounds).
    games: u32,
    /// Adaptive: target half width of White's score (0: none).
    #[serde(default)]
    target_halfwidth: f64,
    /// Adaptive: total games (0: none).
    #[serde(default)]
    budget: u64,
    nodes: u64,
    jitter: f64,
    max_plies: u32,
    resign_cp: i32,
    resign_plies: u32,
    draw_cp: i32,
    draw_plies: u32,
    draw_after: u32,
}

/// The TOML file: any subset of [`Plan`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePlan {
    profile: Option<Profile>,
    out: Option<PathBuf>,
    engine: Option<String>,
    options: Option<Vec<String>>,
    hash: Option<u32>,
    jobs: Option<usize>,
    positions: Option<String>,
    seed: Option<u64>,
    sweep: Option<FileSweep>,
    selfplay: Option<FileSelfplay>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSweep {
    nodes: Option<u64>,
    multipv: Option<u32>,
    repeats: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSelfplay {
    games: Option<u32>,
    target_halfwidth: Option<f64>,
    budget: Option<u64>,
    nodes: Option<u64>,
    jitter: Option<f64>,
    max_plies: Option<u32>,
    resign_cp: Option<i32>,
    resign_plies: Option<u32>,
    draw_cp: Option<i32>,
    draw_plies: Option<u32>,
    draw_after: Option<u32>,
}

impl Profile {
    fn plan(self) -> Plan {
        let rules = Rules::default();
        let (sweep, games, nodes, adaptive) = match self {
            // About ten minutes on two cores for all 960 positions.
            Profile::Quick => (
                SweepPlan {
                    nodes: 100_000,
                    multipv: 1,
                    repeats: 1,
                },
                2,
                2_000,
                (0.0, 0),
            ),
            // Hours; resumable at any point. From `just bench-resolve`: four
            // searches of 250,000 nodes repeat at r = 0.97 where one of
            // 1,000,000 repeats at 0.88 (48 positions, Stockfish 15.1), for
            // fewer core-hours; self-play goes adaptive after 20 games
            // each, up to the old uniform budget of 100 games a position.
            Profile::Research => (
                SweepPlan {
                    nodes: 250_000,
                    multipv: 1,
                    repeats: 4,
                },
                20,
                5_000,
                (0.05, 96_000),
            ),
        };
        Plan {
            profile: self,
            out: PathBuf::from("runs").join(self.name()),
            engine: "auto".to_owned(),
            options: Vec::new(),
            hash: 16,
            jobs: None,
            positions: "all".to_owned(),
            seed: 0,
            sweep,
            selfplay: SelfplayPlan {
                games,
                target_halfwidth: adaptive.0,
                budget: adaptive.1,
                nodes,
                jitter: 0.1,
                max_plies: rules.max_plies,
                resign_cp: rules.resign_cp,
                resign_plies: rules.resign_plies,
                draw_cp: rules.draw_cp,
                draw_plies: rules.draw_plies,
                draw_after: rules.draw_after_ply,
            },
            shard: None,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Research => "research",
        }
    }
}

macro_rules! set {
    ($target:expr, $value:expr) => {
        if let Some(v) = $value {
            $target = v;
        }
    };
}

/// Resolves the plan: profile, then the TOML file, then flags.
pub(crate) fn plan(args: &RunArgs) -> Result<Plan> {
    let file: FilePlan = match &args.config {
        Some(path) => {
            let text = fs::read_to_string(path)
                .map_err(|e| InputError(format!("cannot read {}: {e}", path.display())))?;
            toml::from_str(&text).map_err(|e| {
                InputError(format!(
                    "{} is not a valid run configuration: {}",
                    path.display(),
                    e.message()
                ))
            })?
        }
        None => FilePlan::default(),
    };
    let profile = args.profile.or(file.profile).unwrap_or(Profile::Quick);
    let mut plan = profile.plan();
    set!(plan.out, file.out);
    set!(plan.engine, file.engine);
    set!(plan.options, file.options);
    set!(plan.hash, file.hash);
    plan.jobs = file.jobs.or(plan.jobs);
    set!(plan.positions, file.positions);
    set!(plan.seed, file.seed);
    if let Some(s) = file.sweep {
        set!(plan.sweep.nodes, s.nodes);
        set!(plan.sweep.multipv, s.multipv);
        set!(plan.sweep.repeats, s.repeats);
    }
    if let Some(s) = file.selfplay {
        let p = &mut plan.selfplay;
        set!(p.games, s.games);
        set!(p.target_halfwidth, s.target_halfwidth);
        set!(p.budget, s.budget);
        set!(p.nodes, s.nodes);
        set!(p.jitter, s.jitter);
        set!(p.max_plies, s.max_plies);
        set!(p.resign_cp, s.resign_cp);
        set!(p.resign_plies, s.resign_plies);
        set!(p.draw_cp, s.draw_cp);
        set!(p.draw_plies, s.draw_plies);
        set!(p.draw_after, s.draw_after);
    }
    set!(plan.out, args.out.clone());
    set!(plan.engine, args.engine.clone());
    if !args.options.is_empty() {
        plan.options.clone_from(&args.options);
    }
    set!(plan.hash, args.hash);
    plan.jobs = args.jobs.or(plan.jobs);
    set!(plan.positions, args.positions.clone());
    set!(plan.seed, args.seed);
    set!(plan.sweep.nodes, args.sweep_nodes);
    set!(plan.sweep.multipv, args.multipv);
    set!(plan.sweep.repeats, args.repeats);
    set!(plan.selfplay.games, args.games);
    set!(plan.selfplay.target_halfwidth, args.target_halfwidth);
    set!(plan.selfplay.budget, args.budget);
    set!(plan.selfplay.nodes, args.selfplay_nodes);
    set!(plan.selfplay.jitter, args.jitter);
    plan.shard = args.shard.filter(|s| !s.is_whole());
    if plan.sweep.nodes == 0 || plan.selfplay.nodes == 0 {
        bail!(InputError("node limits must be positive".to_owned()));
    }
    if plan.sweep.repeats == 0 {
        bail!(InputError("sweep repeats must be at least 1".to_owned()));
    }
    if plan.sweep.multipv == 0 {
        bail!(InputError("multipv must be at least 1".to_owned()));
    }
    if plan.selfplay.max_plies == 0 {
        bail!(InputError(
            "selfplay.max_plies must be at least 1 (a game of 0 plies is no game)".to_owned()
        ));
    }
    if !(0.0..1.0).contains(&plan.selfplay.jitter) {
        bail!(InputError(format!(
            "jitter {} must be at least 0 and below 1",
            plan.selfplay.jitter
        )));
    }
    Ok(plan)
}

/// The sweep and self-play configurations of a plan.
fn configs(plan: &Plan, quiet: bool) -> Result<(SweepConfig, Option<SelfplayConfig>)> {
    let positions = parse_position_set(&plan.positions)?;
    let engine_args = EngineArgs {
        engine: plan.engine.clone(),
        threads: 1,
        hash: plan.hash,
        options: plan.options.clone(),
        jobs: plan.jobs,
        retries: 2,
        watchdog: None,
        quiet,
        repair: false,
    };
    let engine: EngineSpec = engine_args.engine_spec(&plan.engine, &plan.options)?;
    let jobs = engine_args.jobs()?;
    let sweep = SweepConfig {
        engine: engine.clone(),
        limit: Limit::Nodes(plan.sweep.nodes),
        multipv: plan.sweep.multipv,
        positions: positions
            .iter()
            .copied()
            .map(c960_core::Setup::from)
            .collect(),
        set: None,
        repeats: RepeatPlan {
            repeats: plan.sweep.repeats,
            seed: plan.seed,
            jitter: c960_sweep::repeats::DEFAULT_JITTER,
        },
        jobs,
        retries: 2,
        out: plan.out.join("sweep"),
        repair: false,
        shard: plan.shard.unwrap_or_default(),
    };
    let p = &plan.selfplay;
    let selfplay = (p.games > 0).then(|| SelfplayConfig {
        engine,
        engine_b: None,
        limit: Limit::Nodes(p.nodes),
        jitter: p.jitter,
        rules: Rules {
            max_plies: p.max_plies,
            resign_cp: p.resign_cp,
            resign_plies: p.resign_plies,
            draw_cp: p.draw_cp,
            draw_plies: p.draw_plies,
            draw_after_ply: p.draw_after,
        },
        games_per_position: p.games,
        positions: positions.into_iter().map(c960_core::Setup::from).collect(),
        seed: plan.seed,
        jobs,
        retries: 2,
        keep_scores: false,
        out: plan.out.join("selfplay"),
        options: c960_selfplay::MatchOptions {
            adaptive: (p.target_halfwidth > 0.0 || p.budget > 0).then_some(Adaptive {
                target_half_width: p.target_halfwidth,
                band_half_width: c960_selfplay::adaptive::DEFAULT_BAND,
                alpha: c960_selfplay::adaptive::DEFAULT_ALPHA,
                round_games: ROUND_GAMES,
                budget: (p.budget > 0).then_some(p.budget),
            }),
            ..c960_selfplay::MatchOptions::default()
        },
        shard: plan.shard.unwrap_or_default(),
    });
    Ok((sweep, selfplay))
}

/// Games per open position per adaptive round in a run.
const ROUND_GAMES: u32 = 10;

/// One line of the summary's stage table.
#[derive(Clone, Debug, Serialize)]
struct StageTime {
    stage: &'static str,
    seconds: f64,
    what: String,
}

/// What `run.json` records.
#[derive(Serialize)]
struct RunRecord<'a> {
    kind: &'static str,
    c960_version: &'static str,
    plan: &'a Plan,
    engine: String,
    jobs: usize,
    stages: &'a [StageTime],
    /// Absent for a shard: the merge of all shards builds the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<PathBuf>,
    finished: String,
}

/// The one progress display of a run: a bar per stage, reused.
struct Display {
    bar: ProgressBar,
}

impl Display {
    fn new(quiet: bool) -> Display {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>16} {bar:32} {pos}/{len} {msg}  {per_sec}  ETA {eta}",
            )
            .expect("a valid template"),
        );
        Display { bar }
    }

    fn stage(&self, index: usize, of: usize, name: &str, total: u64, unit: &str) {
        self.bar.set_prefix(format!("[{index}/{of}] {name}"));
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.set_message(unit.to_owned());
        self.bar.reset_eta();
    }
}

pub(crate) fn run(args: &RunArgs) -> Result<()> {
    let plan = plan(args)?;
    // The dry run validates exactly what the real run does (quietly: it
    // prints nothing but the plan); only the engine is not started.
    let (mut sweep, selfplay) = configs(&plan, args.quiet || args.dry_run)?;
    sweep.repair = args.repair;
    if args.dry_run {
        let mut text = Text::default();
        writeln!(text, "{}", serde_json::to_string_pretty(&plan)?)?;
        return Ok(text.print()?);
    }
    // Start the engine once before anything is written: a broken engine is
    // reported at once, and the run says which engine it uses.
    // The sweep then searches with this engine, so it is launched once.
    let started = sweep
        .engine
        .with_multipv(sweep.multipv)
        .start()
        .map_err(c960_sweep::SweepError::from)?;
    let engine = {
        use c960_engine::Engine as _;
        started.info().clone()
    };
    if !args.quiet {
        eprintln!(
            "c960 run ({}) with {}: {} positions; sweep at {}{}; {} into {}",
            plan.profile.name(),
            engine.name,
            sweep.positions.len(),
            sweep.limit,
            if sweep.multipv > 1 {
                format!(" with MultiPV {}", sweep.multipv)
            } else {
                String::new()
            },
            selfplay
                .as_ref()
                .map_or("no self-play".to_owned(), |s| format!(
                    "self-play {} game(s) per position at {} per move",
                    s.games_per_position, s.limit
                )),
            plan.out.display()
        );
    }
    let _lock = claim(&plan, selfplay.as_ref(), args.repair)?;
    interrupt::install();
    let stages_total = if selfplay.is_some() { 4 } else { 3 };
    let display = Display::new(args.quiet);
    let mut times = Vec::new();

    times.push(write_positions(&plan.out, &display, stages_total)?);

    let (swept, time) = sweep_stage(&sweep, started, &display, stages_total)?;
    times.push(time);

    let mut runs = vec![sweep.out.clone()];
    let mut played: Vec<PositionSummary> = Vec::new();
    if let Some(selfplay) = &selfplay {
        let (outcome, time) = selfplay_stage(selfplay, &display, stages_total)?;
        times.push(time);
        played = outcome.positions;
        runs.push(selfplay.out.clone());
    }

    if plan.shard.is_some() {
        return finish_shard(&plan, &swept.engine.name, sweep.jobs, &times, args.quiet);
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
    });

    let record = RunRecord {
        kind: "run",
        c960_version: env!("CARGO_PKG_VERSION"),
        plan: &plan,
        engine: swept.engine.name.clone(),
        jobs: sweep.jobs,
        stages: &times,
        report: Some(report_dir.join("index.html")),
        finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    let json = serde_json::to_string_pretty(&record)?;
    c960_store::write_atomically(&plan.out.join("run.json"), |out| {
        std::io::Write::write_all(out, json.as_bytes())
    })?;
    if !args.quiet {
        summary(
            &plan,
            &swept.engine.name,
            &swept.rows,
            &played,
            &times,
            &report_dir,
            built.verdicts.as_ref(),
        )?
        .print()?;
    }
    Ok(())
}

/// A shard's run ends after self-play: `run.json` says which shard it
/// played (and marks it finished); the merge of all shards builds the
/// report.
fn finish_shard(
    plan: &Plan,
    engine: &str,
    jobs: usize,
    times: &[StageTime],
    quiet: bool,
) -> Result<()> {
    let record = RunRecord {
        kind: "run",
        c960_version: env!("CARGO_PKG_VERSION"),
        plan,
        engine: engine.to_owned(),
        jobs,
        stages: times,
        report: None,
        finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    let json = serde_json::to_string_pretty(&record)?;
    c960_store::write_atomically(&plan.out.join("run.json"), |out| {
        std::io::Write::write_all(out, json.as_bytes())
    })?;
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

impl Plan {
    /// The run directory.
    pub(crate) fn out(&self) -> &Path {
        &self.out
    }

    /// Whether its self-play is adaptive (a target half width or a budget).
    pub(crate) fn adaptive_selfplay(&self) -> bool {
        self.selfplay.target_halfwidth > 0.0 || self.selfplay.budget > 0
    }
}

fn duration(seconds: f64) -> String {
    let d = Duration::from_secs_f64(seconds);
    if d.as_secs() >= 60 {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    } else {
        format!("{seconds:.1}s")
    }
}

/// The closing summary: where the report is, time per stage, and the most
/// and least balanced positions by |engine score|.
fn summary(
    plan: &Plan,
    engine: &str,
    rows: &[SweepRow],
    played: &[PositionSummary],
    times: &[StageTime],
    report: &Path,
    verdicts: Option<&c960_report::balance::Balance>,
) -> Result<Text> {
    let mut text = Text::default();
    let total: f64 = times.iter().map(|t| t.seconds).sum();
    writeln!(
        text,
        "c960 run ({}) finished in {} with {engine}",
        plan.profile.name(),
        duration(total)
    )?;
    writeln!(
        text,
        "  report      {}",
        report.join("index.html").display()
    )?;
    writeln!(
        text,
        "  table       {} (and positions.csv)",
        report.join("positions.parquet").display()
    )?;
    writeln!(
        text,
        "  provenance  {}",
        plan.out.join("run.json").display()
    )?;
    writeln!(text, "time per stage")?;
    for t in times {
        writeln!(
            text,
            "  {:<10}  {:>8}  {}",
            t.stage,
            duration(t.seconds),
            t.what
        )?;
    }
    // By the mean over a position's searches (one search without repeats).
    let mut scored: Vec<(u16, f64)> = c960_sweep::repeats::summarize(rows)
        .iter()
        .filter_map(|m| Some((u16::try_from(m.sp).ok()?, m.cp?.mean)))
        .collect();
    scored.sort_by(|a, b| a.1.abs().total_cmp(&b.1.abs()).then(a.0.cmp(&b.0)));
    let line = |text: &mut Text, sp: u16, cp: f64| -> std::fmt::Result {
        let games = played.iter().find(|p| p.sp == u32::from(sp));
        let selfplay = match games.and_then(|p| p.white_score.as_ref().map(|s| (p.games, s))) {
            Some((n, s)) => format!(
                "   self-play {:.0}% [{:.0}, {:.0}] over {n} games",
                s.mean * 100.0,
                s.low * 100.0,
                s.high * 100.0
            ),
            None => String::new(),
        };
        let placement = StartPosition::new(sp).map(StartPosition::placement);
        writeln!(
            text,
            "  SP {sp:>3}  {}  {cp:+4.0} cp{selfplay}",
            placement.unwrap_or_default()
        )
    };
    if !scored.is_empty() {
        writeln!(text, "most balanced (smallest |engine score|)")?;
        for (sp, cp) in scored.iter().take(5) {
            line(&mut text, *sp, *cp)?;
        }
        writeln!(text, "least balanced")?;
        for (sp, cp) in scored.iter().rev().take(5) {
            line(&mut text, *sp, *cp)?;
        }
    }
    // How far these rankings can be trusted, and what the verdicts say.
    if let Some(b) = verdicts {
        for (name, method) in [("games", &b.games), ("engine sweep", &b.sweep)] {
            if let Some(m) = method {
                let number = m.reliability.map_or_else(
                    || "not measurable".to_owned(),
                    |r| format!("{:.2}", r.whole),
                );
                let counts: Vec<String> =
                    m.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
                writeln!(
                    text,
                    "reliability of the {name} ranking: {number} ({}); verdicts: {}",
                    m.words,
                    counts.join(", ")
                )?;
            }
        }
    }
    Ok(text)
}

/// Stage 1: the position table, as `c960 positions` writes it.
fn write_positions(out: &Path, display: &Display, stages: usize) -> Result<StageTime> {
    let clock = Instant::now();
    display.stage(1, stages, "positions", 960, "positions");
    let records: Vec<PositionRecord> = Features::all().iter().map(PositionRecord::from).collect();
    c960_store::write_atomically(&out.join("positions.csv"), |out| {
        crate::cmd::positions::write_csv(out, &records)
    })?;
    display.bar.set_position(960);
    Ok(StageTime {
        stage: "positions",
        seconds: clock.elapsed().as_secs_f64(),
        what: "960 positions with their features".to_owned(),
    })
}

/// Locks the run directory (creating it) for this run's life, checks its
/// own outputs, and with `--repair` repairs the self-play journal (the
/// sweep repairs its own).
fn claim(
    plan: &Plan,
    selfplay: Option<&SelfplayConfig>,
    repair: bool,
) -> Result<c960_store::DirLock> {
    let lock = c960_store::DirLock::exclusive(&plan.out)?;
    c960_store::remove_stale_temporaries(&plan.out);
    if let Some(selfplay) = selfplay {
        c960_store::remove_stale_temporaries(&selfplay.out);
    }
    c960_store::check_output(&[&plan.out.join("positions.csv"), &plan.out.join("run.json")])?;
    if repair && let Some(selfplay) = selfplay {
        let dropped = c960_selfplay::checks::repair(selfplay)
            .with_context(|| format!("repair {}", selfplay.out.display()))?;
        crate::cmd::sweep::report_repairs(
            &selfplay.out.join(c960_selfplay::JOURNAL_FILE),
            &dropped,
        );
    }
    Ok(lock)
}

/// Stage 2: the engine sweep (resumed from its journal).
fn sweep_stage(
    sweep: &SweepConfig,
    engine: c960_engine::AnyEngine,
    display: &Display,
    stages: usize,
) -> Result<(c960_sweep::SweepOutcome, StageTime)> {
    let clock = Instant::now();
    display.stage(
        2,
        stages,
        "sweep",
        sweep.positions.len() as u64,
        "positions",
    );
    let swept = c960_sweep::run_with_engine(sweep, engine, &interrupt::STOP, |p| {
        display.bar.set_position(p.done as u64);
    })
    .with_context(|| format!("sweep into {}", sweep.out.display()))?;
    crate::cmd::sweep::report_repairs(&swept.journal, &swept.repaired);
    if swept.interrupted {
        display.bar.finish_and_clear();
        return Err(Interrupted(format!(
            "interrupted during the sweep: {} of {} positions are saved; run the same command again to resume",
            swept.rows.len(),
            sweep.positions.len()
        ))
        .into());
    }
    if let Some(first) = swept.failed.first() {
        display.bar.finish_and_clear();
        bail!(
            "{} position(s) failed in the sweep, e.g. SP {}: {}; run the same command again to retry them",
            swept.failed.len(),
            first.sp,
            first.reason
        );
    }
    let time = StageTime {
        stage: "sweep",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!(
            "{} positions at {} ({} from the journal)",
            swept.rows.len(),
            sweep.limit,
            swept.resumed
        ),
    };
    Ok((swept, time))
}

/// Stage 3: self-play (resumed from its journal).
fn selfplay_stage(
    selfplay: &SelfplayConfig,
    display: &Display,
    stages: usize,
) -> Result<(c960_selfplay::SelfplayOutcome, StageTime)> {
    let clock = Instant::now();
    let total = selfplay.positions.len() as u64 * u64::from(selfplay.games_per_position);
    display.stage(3, stages, "self-play", total, "games");
    let outcome = c960_selfplay::run(selfplay, &interrupt::STOP, |p| {
        // Adaptive rounds add games as they are decided.
        display.bar.set_length(p.total);
        display.bar.set_position(p.done);
    })
    .with_context(|| format!("self-play into {}", selfplay.out.display()))?;
    if outcome.interrupted {
        display.bar.finish_and_clear();
        return Err(Interrupted(format!(
            "interrupted during self-play: {} of {} games are saved; run the same command again to resume",
            outcome.games,
            display.bar.length().unwrap_or(total)
        ))
        .into());
    }
    if let Some(first) = outcome.failed.first() {
        display.bar.finish_and_clear();
        bail!(
            "{} game(s) failed in self-play, e.g. SP {} game {}: {}; run the same command again to retry them",
            outcome.failed.len(),
            first.sp,
            first.game,
            first.reason
        );
    }
    let time = StageTime {
        stage: "self-play",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!(
            "{} games at {} per move ({} from the journal)",
            outcome.games, selfplay.limit, outcome.resumed
        ),
    };
    Ok((outcome, time))
}
