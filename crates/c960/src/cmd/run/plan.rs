//! The plan of a run: profile, TOML file and flags merged once into the
//! sweep and self-play configurations.

use std::{
    fmt::Write as _,
    fs,
    num::{NonZeroU32, NonZeroUsize},
    path::{Path, PathBuf},
};

use anyhow::{Result, bail};
use c960_core::parse_position_set;
use c960_engine::{EngineName, EngineSpec, Limit, UciOption};
use c960_selfplay::{Adaptive, Rules, SelfplayConfig};
use c960_sweep::{RepeatPlan, SweepConfig};
use serde::{Deserialize, Serialize};

use crate::{
    cli::{InputError, Profile, RunArgs},
    cmd::engine_args::EngineChoice,
};

pub(crate) use super::raters::RaterPlan;
use super::raters::{check_rater_engines, check_raters, raters};

/// Everything a run does, resolved from the profile, the TOML file and the
/// flags (in that order, later ones winning). Written to `run.json` (as
/// [`PlanRecord`]: the sweep's one search or its raters, not both).
#[derive(Clone, Debug, Serialize)]
#[serde(into = "PlanRecord")]
pub(crate) struct Plan {
    pub(super) profile: Profile,
    pub(super) out: PathBuf,
    pub(super) engine: EngineName,
    pub(super) options: Vec<UciOption>,
    pub(super) hash: NonZeroU32,
    pub(super) jobs: Option<NonZeroUsize>,
    pub(super) positions: String,
    pub(super) seed: u64,
    /// The search of a sweep by one engine, into `sweep/`.
    pub(super) sweep: SweepPlan,
    /// The sweep's raters, when it has them (each an engine with its own
    /// search settings, into `raters/NAME/`); empty for one engine with
    /// `sweep`'s settings.
    pub(super) raters: Vec<RaterPlan>,
    pub(super) selfplay: SelfplayPlan,
    /// The shard this run plays (`--shard`), if one part only.
    pub(super) shard: Option<c960_core::Shard>,
}

/// The plan as `run.json` and `--dry-run` show it.
#[derive(Serialize)]
pub(crate) struct PlanRecord {
    profile: Profile,
    out: PathBuf,
    engine: EngineName,
    options: Vec<UciOption>,
    hash: NonZeroU32,
    jobs: Option<NonZeroUsize>,
    positions: String,
    seed: u64,
    #[serde(flatten)]
    search: Search,
    selfplay: SelfplayPlan,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<c960_core::Shard>,
}

/// What the sweep searches: one engine's search, or raters.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Search {
    Sweep(SweepPlan),
    Raters(Vec<RaterPlan>),
}

impl From<Plan> for PlanRecord {
    fn from(plan: Plan) -> PlanRecord {
        PlanRecord {
            profile: plan.profile,
            out: plan.out,
            engine: plan.engine,
            options: plan.options,
            hash: plan.hash,
            jobs: plan.jobs,
            positions: plan.positions,
            seed: plan.seed,
            search: if plan.raters.is_empty() {
                Search::Sweep(plan.sweep)
            } else {
                Search::Raters(plan.raters)
            },
            selfplay: plan.selfplay,
            shard: plan.shard,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SweepPlan {
    pub(super) nodes: u64,
    pub(super) multipv: NonZeroU32,
    /// Searches per position (node budgets drawn from the run's seed).
    pub(super) repeats: NonZeroU32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SelfplayPlan {
    /// Games per position (with a budget or target: before the rounds).
    pub(super) games: u32,
    /// Adaptive: target half width of White's score (0: none).
    #[serde(default)]
    pub(super) target_halfwidth: f64,
    /// Adaptive: total games (0: none).
    #[serde(default)]
    pub(super) budget: u64,
    pub(super) nodes: u64,
    pub(super) jitter: f64,
    pub(super) max_plies: NonZeroU32,
    pub(super) resign_cp: i32,
    pub(super) resign_plies: u32,
    pub(super) draw_cp: i32,
    pub(super) draw_plies: u32,
    pub(super) draw_after: u32,
}

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

/// Engine hash per process, MiB, unless a config file or flag says.
pub(super) const DEFAULT_HASH: NonZeroU32 = NonZeroU32::new(16).unwrap();

impl Profile {
    pub(super) fn plan(self) -> Plan {
        let rules = Rules::default();
        let (sweep, games, nodes, adaptive) = match self {
            // All 960 positions in about 20 minutes on two cores with Stockfish 19
            // from npm, about 7 with Debian's Stockfish 15.1 (docs/researcher.md).
            Profile::Quick => (
                SweepPlan {
                    nodes: 100_000,
                    multipv: NonZeroU32::MIN,
                    repeats: NonZeroU32::MIN,
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
                    multipv: NonZeroU32::MIN,
                    repeats: NonZeroU32::new(4).unwrap(),
                },
                20,
                5_000,
                (0.05, 96_000),
            ),
        };
        Plan {
            profile: self,
            out: PathBuf::from("runs").join(self.name()),
            engine: EngineName::Auto,
            options: Vec::new(),
            hash: DEFAULT_HASH,
            jobs: None,
            positions: "all".to_owned(),
            seed: 0,
            sweep,
            raters: Vec::new(),
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

    /// The profile in words for `c960 run --help`, written from the same
    /// settings that `--dry-run` prints.
    pub(crate) fn describe(self) -> String {
        let plan = self.plan();
        let selfplay = &plan.selfplay;
        let games = format!(
            "{} self-play games per position at {} nodes a move",
            grouped(u64::from(selfplay.games)),
            grouped(selfplay.nodes)
        );
        match self {
            Profile::Quick => format!(
                "All 960 positions in about 20 minutes on two cores (Stockfish 19 from npm; about 7 with Debian's Stockfish 15.1): sweep at {} nodes, {games}",
                grouped(plan.sweep.nodes)
            ),
            Profile::Research => {
                let raters: Vec<String> = super::raters::RESEARCH_DESIGN
                    .iter()
                    .map(|&(engine, nodes, multipv, hash)| {
                        let mut rater =
                            format!("{} at {} nodes", engine.describe(), grouped(nodes));
                        if multipv > NonZeroU32::MIN {
                            let _ = write!(rater, " with MultiPV {multipv}");
                        }
                        if hash != DEFAULT_HASH {
                            let _ = write!(rater, " with Hash {hash}");
                        }
                        rater
                    })
                    .collect();
                format!(
                    "Research grade, hours, resumable: {} raters sweep every position ({}; a \
                     rater whose engine is missing uses the strongest one installed), then \
                     {games}, then adaptive rounds for open positions (target ±{}) up to {} \
                     games in all",
                    raters.len(),
                    raters.join("; "),
                    selfplay.target_halfwidth,
                    grouped(selfplay.budget)
                )
            }
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
    if plan.sweep.nodes == 0 || plan.selfplay.nodes == 0 {
        bail!(InputError("node limits must be positive".to_owned()));
    }
    if !(0.0..1.0).contains(&plan.selfplay.jitter) {
        bail!(InputError(format!(
            "jitter {} must be at least 0 and below 1",
            plan.selfplay.jitter
        )));
    }
    Ok(plan)
}

/// The sweep configurations (one per rater; one into `sweep/` without
/// raters) and the self-play configuration of a plan.
pub(super) fn configs(
    plan: &Plan,
    quiet: bool,
) -> Result<(Vec<SweepConfig>, Option<SelfplayConfig>)> {
    let positions = parse_position_set(&plan.positions)?;
    let choice = |hash: NonZeroU32| EngineChoice {
        threads: 1,
        hash,
        jobs: plan.jobs,
        watchdog: None,
        quiet,
    };
    let jobs = choice(plan.hash).jobs();
    let sweep =
        |engine: EngineSpec, nodes: u64, multipv: NonZeroU32, repeats: NonZeroU32, out: PathBuf| {
            SweepConfig {
                engine,
                limit: Limit::Nodes(nodes),
                multipv,
                positions: positions
                    .iter()
                    .copied()
                    .map(c960_core::Setup::from)
                    .collect(),
                set: None,
                repeats: RepeatPlan {
                    repeats,
                    seed: plan.seed,
                    jitter: c960_sweep::repeats::DEFAULT_JITTER,
                },
                jobs,
                retries: 2,
                out,
                repair: false,
                shard: plan.shard.unwrap_or_default(),
            }
        };
    let (sweeps, engine) = if plan.raters.is_empty() {
        let engine: EngineSpec = choice(plan.hash).engine_spec(&plan.engine, &plan.options)?;
        let s = &plan.sweep;
        let only = sweep(
            engine.clone(),
            s.nodes,
            s.multipv,
            s.repeats,
            plan.out.join("sweep"),
        );
        (vec![only], engine)
    } else {
        let mut sweeps = Vec::new();
        for r in &plan.raters {
            let engine = choice(r.hash).engine_spec(&r.engine, &plan.options)?;
            let out = plan.out.join(RATERS_DIR).join(&r.name);
            sweeps.push(sweep(engine, r.nodes, r.multipv, r.repeats, out));
        }
        // Self-play takes the first rater's engine, at the plan's hash.
        let first = &plan.raters[0];
        let engine = choice(plan.hash).engine_spec(&first.engine, &plan.options)?;
        (sweeps, engine)
    };
    let p = &plan.selfplay;
    let selfplay = NonZeroU32::new(p.games).map(|games| SelfplayConfig {
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
        games_per_position: games,
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
    Ok((sweeps, selfplay))
}

/// Where a run with raters keeps each rater's sweep: `raters/NAME/`.
pub(crate) const RATERS_DIR: &str = "raters";

/// Games per open position per adaptive round in a run.
pub(super) const ROUND_GAMES: u32 = 10;

impl Plan {
    /// The plan with the engines it will use: `auto` (of the run or of a
    /// rater) as the engine it chooses on this machine, for `--dry-run`.
    pub(super) fn with_engines_resolved(&self) -> Plan {
        let mut plan = self.clone();
        plan.engine = plan.engine.without_auto();
        for rater in &mut plan.raters {
            rater.engine = rater.engine.without_auto();
        }
        plan
    }

    /// The run directory.
    pub(crate) fn out(&self) -> &Path {
        &self.out
    }

    /// Whether its self-play is adaptive (a target half width or a budget).
    pub(crate) fn adaptive_selfplay(&self) -> bool {
        self.selfplay.target_halfwidth > 0.0 || self.selfplay.budget > 0
    }
}

/// `4000000` as `4,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
