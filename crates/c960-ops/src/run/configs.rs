//! The stages' configurations made from a plan: a sweep per rater (or the
//! one sweep into `sweep/`) and the self-play, with the engines as the
//! plan names them.

use std::{
    num::{NonZero, NonZeroU32, NonZeroUsize},
    path::PathBuf,
    thread,
};

use anyhow::Result;
use c960_core::{Setup, Variant};
use c960_engine::{EngineName, EngineSpec, Limit, UciOption};
use c960_selfplay::{Adaptive, Rules, SelfplayConfig};
use c960_sweep::{RepeatPlan, SweepConfig, SweepPlan};

use super::plan::Plan;

/// An engine a run asks for: what the plan names, with the options,
/// hash and number of engines at once it runs with (one thread each).
#[derive(Clone, Copy, Debug)]
pub struct EngineRequest<'a> {
    /// The engine as the plan names it (`auto` included).
    pub engine: &'a EngineName,
    /// The plan's UCI options.
    pub options: &'a [UciOption],
    /// Hash per engine process, MiB.
    pub hash: NonZeroU32,
    /// Engines at once (`None`: one per core).
    pub jobs: Option<NonZeroUsize>,
}

/// How a run turns an engine it asks for into an engine to start (the
/// command's own choice of engines, checked as it checks them elsewhere).
pub type ResolveEngine<'a> = &'a dyn Fn(EngineRequest<'_>) -> Result<EngineSpec>;

/// The sweep configurations (one per rater; one into `sweep/` without
/// raters) and the self-play configuration of a plan.
pub(super) fn configs(
    plan: &Plan,
    resolve: ResolveEngine<'_>,
) -> Result<(Vec<SweepConfig>, Option<SelfplayConfig>)> {
    let positions = Setup::parse_set(Variant::Chess960, &plan.positions)?;
    let spec = |engine: &EngineName, hash: NonZeroU32| {
        resolve(EngineRequest {
            engine,
            options: &plan.options,
            hash,
            jobs: plan.jobs,
        })
    };
    let jobs = plan
        .jobs
        .or_else(|| thread::available_parallelism().ok())
        .map_or(1, NonZero::get);
    // One sweep plan per rater, each checked by the library.
    let sweep =
        |engine: EngineSpec, nodes: u64, multipv: NonZeroU32, repeats: NonZeroU32, out: PathBuf| {
            SweepPlan {
                engine,
                limit: Limit::Nodes(nodes),
                multipv,
                positions: positions.clone(),
                set: plan.positions.clone(),
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
                reply: false,
            }
            .config()
        };
    let (sweeps, engine) = if plan.raters.is_empty() {
        let engine: EngineSpec = spec(&plan.engine, plan.hash)?;
        let s = &plan.sweep;
        let only = sweep(
            engine.clone(),
            s.nodes,
            s.multipv,
            s.repeats,
            plan.out.join("sweep"),
        )?;
        (vec![only], engine)
    } else {
        let mut sweeps = Vec::new();
        for r in &plan.raters {
            let engine = spec(&r.engine, r.hash)?;
            let out = plan.out.join(RATERS_DIR).join(&r.name);
            sweeps.push(sweep(engine, r.nodes, r.multipv, r.repeats, out)?);
        }
        // Self-play takes the first rater's engine, at the plan's hash.
        let first = &plan.raters[0];
        let engine = spec(&first.engine, plan.hash)?;
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
        positions,
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
pub const RATERS_DIR: &str = "raters";

/// Games per open position per adaptive round in a run.
pub(super) const ROUND_GAMES: u32 = 10;
