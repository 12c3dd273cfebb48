//! `c960 run`: the whole pipeline in one run directory — positions, engine
//! sweep, self-play, report — with a profile, a TOML file and flags, one
//! progress display and a summary. The run itself is `c960_ops::run`'s:
//! here the flags become its [`PlanOptions`], its engines are chosen as
//! every command chooses them (`engine_args.rs`), a stop signal stops it
//! (`interrupt.rs`), `display.rs` shows its stages, and what it made is
//! printed; `help.rs` writes `--help`'s text from the profiles' plans.

mod display;
mod help;
pub(crate) use help::run_after_help;

use std::fmt::Write as _;

use anyhow::Result;
use c960_ops::run::{self as ops, EngineRequest, Finished, Plan, PlanOptions, RunOptions};

use crate::{
    cli::{Profile, RunArgs},
    cmd::engine_args::EngineChoice,
    interrupt::{self, Interrupted},
    output::Text,
};

use display::{Display, Shown};

/// The profiles as `--profile` takes them, each with its description
/// (written from the very settings `--dry-run` shows).
impl clap::ValueEnum for Profile {
    fn value_variants<'a>() -> &'a [Self] {
        &[Profile::Quick, Profile::Research]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let profile = ops_profile(*self);
        Some(clap::builder::PossibleValue::new(profile.name()).help(profile.describe()))
    }
}

/// The library's profile of `--profile`'s.
fn ops_profile(profile: Profile) -> ops::Profile {
    match profile {
        Profile::Quick => ops::Profile::Quick,
        Profile::Research => ops::Profile::Research,
    }
}

/// What the flags set of a run's plan.
fn plan_options(args: &RunArgs) -> PlanOptions {
    PlanOptions {
        profile: args.profile.map(ops_profile),
        config: args.config.clone(),
        out: args.out.clone(),
        engine: args.engine.clone(),
        options: args.options.clone(),
        hash: args.hash,
        jobs: args.jobs,
        positions: args.positions.clone(),
        seed: args.seed,
        sweep_nodes: args.sweep_nodes,
        multipv: args.multipv,
        repeats: args.repeats,
        games: args.games,
        target_halfwidth: args.target_halfwidth,
        budget: args.budget,
        selfplay_nodes: args.selfplay_nodes,
        jitter: args.jitter,
        shard: args.shard,
    }
}

/// Resolves the plan of these flags: the profile, then the `--config`
/// file, then the flags.
pub(crate) fn plan(args: &RunArgs) -> Result<Plan> {
    ops::resolve(&plan_options(args))
}

pub(crate) fn run(args: &RunArgs) -> Result<()> {
    // The dry run validates exactly what the real run does (quietly: it
    // prints nothing but the plan); only the engine is not started.
    let quiet = args.quiet || args.dry_run;
    let choose = |r: EngineRequest<'_>| {
        EngineChoice {
            threads: 1,
            hash: r.hash,
            jobs: r.jobs,
            watchdog: None,
            quiet,
        }
        .engine_spec(r.engine, r.options)
    };
    let options = RunOptions {
        plan: &plan_options(args),
        dry_run: args.dry_run,
        repair: args.repair,
        engines: &choose,
        stop: &interrupt::STOP,
    };
    let display = Display::new(args.quiet);
    let finished =
        ops::run(options, &mut Shown::new(&display, args.quiet)).map_err(|e| match e
            .downcast::<ops::Stopped>()
        {
            Ok(stopped) => Interrupted(stopped.to_string()).into(),
            Err(e) => e,
        })?;
    let mut text = Text::default();
    match finished {
        Finished::DryRun(plan) => writeln!(text, "{}", serde_json::to_string_pretty(&plan)?)?,
        _ if args.quiet => return Ok(()),
        // A shard's run ends after self-play; the merge of all shards
        // builds the report.
        Finished::Shard { shard, out } => writeln!(
            text,
            "shard {shard} of c960 run finished in {}; merge every shard with c960 merge DIR... \
             --out DIR",
            out.display()
        )?,
        Finished::Run(report) => text.write_str(&report.summary()?)?,
    }
    Ok(text.print()?)
}
