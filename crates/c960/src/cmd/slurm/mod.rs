//! `c960 slurm`: a sharded sweep, self-play, run or exit-book expansion as
//! a Slurm array job and a merge job after it (planned, written and
//! submitted by `c960_ops::slurm`). Here: the flags turned into the
//! library's request (each command's own settings checked as that command
//! checks them), and what came back printed.

mod print;

use std::env;

use anyhow::{Context, Result};
use c960_book::exits::{DEFAULT_NODES, Measure, Tree};
use c960_core::Setup;
use c960_engine::{Engine as _, Limit};
use c960_ops::slurm::{self as ops, BookExits, Outcome, Request, Work};

use crate::cli::{BookExitsArgs, InputError, SlurmArgs, SlurmCommand, SlurmOptions};

impl SlurmOptions {
    /// The library's options these flags give.
    fn options(&self) -> ops::SlurmOptions {
        ops::SlurmOptions {
            shards: self.shards,
            partition: self.partition.clone(),
            time: self.time.clone(),
            cpus_per_task: self.cpus_per_task,
            submit: self.submit,
            next_round: self.next_round,
        }
    }
}

/// The work of the command to shard, checked as that command checks it,
/// the run directory it names, and the Slurm flags.
fn work(args: &SlurmArgs) -> Result<(Work, Option<std::path::PathBuf>, &SlurmOptions)> {
    Ok(match &args.command {
        SlurmCommand::Sweep { args, slurm } => {
            ops::no_shard(args.shard.is_some())?;
            let searches = crate::cmd::sweep::config(args)?.searches();
            (Work::Sweep { searches }, args.out.clone(), slurm)
        }
        SlurmCommand::Selfplay { args, slurm } => {
            ops::no_shard(args.shard.is_some())?;
            ops::check_selfplay(
                args.sprt.is_some() || args.openings.is_some(),
                args.rounds_from.is_some(),
            )?;
            let config = crate::cmd::selfplay::config(args)?;
            (Work::Selfplay(Box::new(config)), args.out.clone(), slurm)
        }
        SlurmCommand::Run { args, slurm } => {
            ops::no_shard(args.shard.is_some())?;
            let plan = crate::cmd::run::plan(args)?;
            ops::check_run(plan.adaptive_selfplay())?;
            plan.check_shardable()?;
            (Work::Run, Some(plan.out().to_owned()), slurm)
        }
        SlurmCommand::BookExits { args, slurm } => {
            let run = ops::book_run(
                args.shard.is_some(),
                !args.from.is_empty(),
                args.run.as_deref(),
            )?;
            (book_exits(args, &run)?, Some(run), slurm)
        }
    })
}

/// `c960 slurm book-exits`, checked before anything is written: the book's
/// window and file, the expansion's tree, the starts and the engine.
fn book_exits(args: &BookExitsArgs, run: &std::path::Path) -> Result<Work> {
    let choice = crate::cmd::book::exits::choice(args)?;
    if let Some((_, out)) = &choice {
        crate::cmd::book::exits::claim(out, args, Some(run))?;
    }
    let limit = args.limit.limit(Limit::Nodes(DEFAULT_NODES))?;
    Tree {
        limit,
        multipv: args.multipv.get(),
        plies: args.plies.get(),
        first_exit_ply: args.exits_from.unwrap_or(args.plies.get()),
    }
    .check()
    .map_err(InputError)?;
    let spec = args
        .engine
        .engine_spec(&args.engine.engine, &args.engine.options)?;
    // A window of the engine's own WDL needs an engine that reports one:
    // asked here, before any job is submitted, not by the merge job hours
    // later.
    if choice.is_some_and(|(c, _)| c.window.measure == Measure::DrawRate) {
        c960_book::exits::check_wdl(spec.start()?.info()).map_err(InputError)?;
    }
    let starts = Setup::parse_set(args.variant, &args.positions)?.len();
    Ok(Work::BookExits(BookExits {
        positions: args.positions.clone(),
        starts: starts as u64,
        out: args.out.clone(),
        window: args.cp.is_some() || args.draw_rate.is_some(),
    }))
}

pub(crate) fn run(args: &SlurmArgs) -> Result<()> {
    let (work, out, slurm) = work(args)?;
    let request = Request {
        work,
        out,
        slurm: slurm.options(),
        cwd: env::current_dir().context("the current directory")?,
        exe: env::current_exe().context("the c960 executable")?,
        argv: env::args().collect(),
    };
    match ops::slurm(request)? {
        Outcome::Written(written) => print::written(&written),
        Outcome::Round(done) => print::round(&done),
    }
}
