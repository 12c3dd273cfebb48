//! The plan of a run: the profiles and their settings, and the one plan
//! that the profile, the TOML file and the flags fill (see `resolve`) and
//! that the stages' configurations are made from (see `configs`).

use std::{
    fmt::Write as _,
    num::{NonZeroU32, NonZeroUsize},
    path::{Path, PathBuf},
};

use c960_engine::{EngineName, UciOption};
use c960_selfplay::Rules;
use serde::{Deserialize, Serialize};

pub use super::raters::RaterPlan;
use super::{
    InputError,
    raters::{DEFAULT_HASH, QUICK_DESIGN, RESEARCH_DESIGN},
};

/// The quick profile's time on two cores with the engines `auto` picks,
/// minutes: what `--help` and the README promise, measured in
/// docs/benchmarks.md ("The quick run").
pub const QUICK_MINUTES: u32 = 10;

/// Everything a run does, resolved from the profile, the TOML file and the
/// flags (in that order, later ones winning). Written to `run.json` (as
/// [`PlanRecord`]: the sweep's one search or its raters, not both).
#[derive(Clone, Debug, Serialize)]
#[serde(into = "PlanRecord")]
pub struct Plan {
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
pub struct PlanRecord {
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

/// Run profiles. Their help (`c960 run --help`) and `--profile`'s values
/// are written from the very settings `--dry-run` shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// All 960 positions in minutes.
    Quick,
    /// Research grade: raters, adaptive self-play; hours, resumable.
    Research,
}

impl Profile {
    /// Every profile, in the order `--help` lists them.
    pub const ALL: [Profile; 2] = [Profile::Quick, Profile::Research];

    /// The profile's own plan, before a config file or flags change it.
    #[must_use]
    pub fn plan(self) -> Plan {
        let rules = Rules::default();
        let (sweep, games, nodes, adaptive) = match self {
            // All 960 positions within QUICK_MINUTES on two cores: the raters of
            // QUICK_DESIGN where their engines are installed (`resolve`), else
            // this one sweep; no games, which at this budget add nothing
            // measurable (docs/benchmarks.md, "The quick run").
            Profile::Quick => (
                SweepPlan {
                    nodes: 100_000,
                    multipv: NonZeroU32::MIN,
                    repeats: NonZeroU32::MIN,
                },
                0,
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
    #[must_use]
    pub fn describe(self) -> String {
        let plan = self.plan();
        let selfplay = &plan.selfplay;
        let games = format!(
            "{} self-play games per position at {} nodes a move",
            grouped(u64::from(selfplay.games)),
            grouped(selfplay.nodes)
        );
        match self {
            Profile::Quick => {
                let [npm, native] = QUICK_DESIGN;
                format!(
                    "All 960 positions within {QUICK_MINUTES} minutes on two cores, ending with \
                     the run's agreement with the published dataset v4: {} raters sweep every \
                     position, {} at {} nodes and {} at {} nodes, where both are installed (one \
                     alone: {} or {} nodes); with another engine, or neither installed (the \
                     built-in engine), one sweep at {} nodes; no self-play (--games N adds N \
                     games per position at {} nodes a move)",
                    QUICK_DESIGN.len(),
                    npm.engine.describe(),
                    grouped(npm.nodes),
                    native.engine.describe(),
                    grouped(native.nodes),
                    grouped(npm.alone),
                    grouped(native.alone),
                    grouped(plan.sweep.nodes),
                    grouped(selfplay.nodes)
                )
            }
            Profile::Research => {
                let raters: Vec<String> = RESEARCH_DESIGN
                    .iter()
                    .map(|design| {
                        let mut rater = format!(
                            "{} at {} nodes",
                            design.engine.describe(),
                            grouped(design.nodes)
                        );
                        if design.multipv > NonZeroU32::MIN {
                            let _ = write!(rater, " with MultiPV {}", design.multipv);
                        }
                        if design.hash != DEFAULT_HASH {
                            let _ = write!(rater, " with Hash {}", design.hash);
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

    /// The profile as `--profile` and the config file spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Research => "research",
        }
    }
}

impl Plan {
    /// The plan with the engines it will use: `auto` (of the run or of a
    /// rater) as the engine it chooses on this machine, for `--dry-run`.
    #[must_use]
    pub fn with_engines_resolved(&self) -> Plan {
        let mut plan = self.clone();
        plan.engine = plan.engine.without_auto();
        for rater in &mut plan.raters {
            rater.engine = rater.engine.without_auto();
        }
        plan
    }

    /// The run directory.
    #[must_use]
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// Refuses shards of a sweep by raters: `c960 merge` merges a run's
    /// one sweep (`sweep/`), not its raters' directories.
    ///
    /// # Errors
    ///
    /// The plan has raters.
    pub fn check_shardable(&self) -> Result<(), InputError> {
        if self.raters.is_empty() {
            return Ok(());
        }
        Err(InputError(format!(
            "this c960 run sweeps by {} raters ({}), and c960 merge merges one sweep per run: \
             shard a run of one engine's search (--sweep-nodes N, or --engine ENGINE), or run \
             the raters without shards",
            self.raters.len(),
            self.raters
                .iter()
                .map(|r| r.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }

    /// Whether its self-play is adaptive (a target half width or a budget).
    #[must_use]
    pub fn adaptive_selfplay(&self) -> bool {
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
