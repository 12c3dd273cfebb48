//! The plan a run resolves from its profile, its TOML file and its flags,
//! in that order (later ones winning), with the sweep's raters: the
//! file's, or the research design's.

use std::{
    fs,
    num::{NonZeroU32, NonZeroUsize},
    path::PathBuf,
};

use anyhow::{Result, bail};
use c960_engine::{EngineName, UciOption};
use serde::Deserialize;

use super::{
    InputError,
    plan::{Plan, Profile},
    raters::{RaterPlan, check_rater_engines, check_raters, quick_raters, research_raters},
};

/// The TOML file: any subset of [`Plan`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePlan {
    profile: Option<Profile>,
    out: Option<PathBuf>,
    engine: Option<EngineName>,
    options: Option<Vec<UciOption>>,
    hash: Option<NonZeroU32>,
    jobs: Option<NonZeroUsize>,
    positions: Option<String>,
    seed: Option<u64>,
    sweep: Option<FileSweep>,
    raters: Option<Vec<RaterPlan>>,
    selfplay: Option<FileSelfplay>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSweep {
    nodes: Option<u64>,
    multipv: Option<NonZeroU32>,
    repeats: Option<NonZeroU32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSelfplay {
    games: Option<u32>,
    target_halfwidth: Option<f64>,
    budget: Option<u64>,
    nodes: Option<u64>,
    jitter: Option<f64>,
    max_plies: Option<NonZeroU32>,
    resign_cp: Option<i32>,
    resign_plies: Option<u32>,
    draw_cp: Option<i32>,
    draw_plies: Option<u32>,
    draw_after: Option<u32>,
}

macro_rules! set {
    ($target:expr, $value:expr) => {
        if let Some(v) = $value {
            $target = v;
        }
    };
}

/// What the command line sets of a plan: each `None` (or empty) leaves the
/// profile's or the config file's value.
#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    /// The profile (default: quick, or the config file's).
    pub profile: Option<Profile>,
    /// A TOML file with run settings, read between the profile and these.
    pub config: Option<PathBuf>,
    /// The run directory.
    pub out: Option<PathBuf>,
    /// The engine.
    pub engine: Option<EngineName>,
    /// UCI options (empty: the config file's).
    pub options: Vec<UciOption>,
    /// Engine hash per process, MiB.
    pub hash: Option<NonZeroU32>,
    /// Engine processes at once.
    pub jobs: Option<NonZeroUsize>,
    /// Which positions: `all`, or numbers and ranges.
    pub positions: Option<String>,
    /// The run's seed.
    pub seed: Option<u64>,
    /// Sweep: nodes per position.
    pub sweep_nodes: Option<u64>,
    /// Sweep: best moves per position.
    pub multipv: Option<NonZeroU32>,
    /// Sweep: searches per position.
    pub repeats: Option<NonZeroU32>,
    /// Self-play: games per position.
    pub games: Option<u32>,
    /// Self-play, adaptive: target half width.
    pub target_halfwidth: Option<f64>,
    /// Self-play, adaptive: total games.
    pub budget: Option<u64>,
    /// Self-play: nodes per move.
    pub selfplay_nodes: Option<u64>,
    /// Self-play: relative jitter of the node budget per move.
    pub jitter: Option<f64>,
    /// The shard this run plays (a whole one is no shard).
    pub shard: Option<c960_core::Shard>,
}

/// Resolves the plan: profile, then the TOML file, then the options.
pub fn resolve(args: &PlanOptions) -> Result<Plan> {
    let file: FilePlan = match &args.config {
        Some(path) => {
            let text = fs::read_to_string(path)
                .map_err(|e| InputError(format!("cannot read {}: {e}", path.display())))?;
            toml::from_str(&text).map_err(|e| {
                // The line at fault, so that the key is named.
                let at = e.span().map_or_else(String::new, |span| {
                    let line = text[..span.start.min(text.len())].matches('\n').count();
                    let shown = text.lines().nth(line).unwrap_or_default().trim();
                    format!(" (line {}: {shown})", line + 1)
                });
                InputError(format!(
                    "{} is not a valid run configuration: {}{at}",
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
    let file_sweep = file.sweep.is_some();
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
    let single = file_sweep
        || args.sweep_nodes.is_some()
        || args.multipv.is_some()
        || args.repeats.is_some();
    plan.raters = raters(&plan, profile, file.raters, single)?;
    check_raters(&plan.raters)?;
    check_rater_engines(&plan.raters)?;
    if plan.shard.is_some() {
        plan.check_shardable()?;
    }
    if plan.sweep.nodes == 0 || plan.selfplay.nodes == 0 {
        bail!(InputError("node limits must be positive".to_owned()));
    }
    c960_selfplay::check_jitter("jitter", plan.selfplay.jitter).map_err(InputError)?;
    Ok(plan)
}

/// The raters of a plan: the file's, else the profile's design (its engines
/// where `auto` finds them, or the one engine named); `single` (flags or a
/// `[sweep]` section that set one engine's search) makes a sweep of one
/// engine.
fn raters(
    plan: &Plan,
    profile: Profile,
    from_file: Option<Vec<RaterPlan>>,
    single: bool,
) -> Result<Vec<RaterPlan>> {
    Ok(match from_file {
        Some(_) if plan.engine != EngineName::Auto => bail!(InputError(
            "the config file's [[raters]] name their own engines; an engine named by --engine \
             or `engine =` cannot replace them: give one or the other"
                .to_owned()
        )),
        Some(_) if single => bail!(InputError(
            "[sweep], --sweep-nodes, --multipv and --repeats set the search of one engine; the \
             config file's [[raters]] set each rater's: give one or the other"
                .to_owned()
        )),
        Some(raters) => raters,
        None if single => Vec::new(),
        None => match profile {
            Profile::Research => research_raters(&plan.engine),
            Profile::Quick => quick_raters(&plan.engine),
        },
    })
}
