//! `c960 book exits`: expand the starts with the engine's `MultiPV` lines
//! (journaled, resumable, sharded like a sweep), then choose the exits in
//! a window; or choose them from finished runs (`--from`).

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use c960_book::exits::{
    self, Choice, DEFAULT_NODES, ExpandConfig, Expansion, Measure, Quota, Tree, Window,
};
use c960_core::{Setup, Variant};
use c960_engine::Limit;

use crate::{
    cli::{BookExitsArgs, InputError},
    cmd::engine_args::default_out,
    follow::{Follow, interrupted},
    interrupt,
    output::{self, Text},
};

pub(crate) fn run(args: &BookExitsArgs) -> Result<()> {
    output::check_out(&args.out)?;
    let choice = choice(args)?;
    let expansion = if args.from.is_empty() {
        expand(args, &choice)?
    } else {
        exits::read_runs(&args.from).context("reading the runs")?
    };
    if choice.window.measure == Measure::DrawRate && expansion.settings.wdl_model.is_none() {
        bail!(InputError(format!(
            "--draw-rate needs the engine's WDL model, and {} reports none; use --cp",
            expansion.settings.engine
        )));
    }
    let starts = exits::in_book_order(&expansion);
    let selection = exits::select(&starts, choice.window, choice.quota, choice.seed);
    if selection.kept == 0 {
        bail!(InputError(format!(
            "empty selection: none of the {} candidate exits of {} start(s) lies in the window \
             {}; widen the window, or expand more (--multipv, --plies)",
            selection.candidates, selection.starts, choice.window
        )));
    }
    let variant = expansion.settings.variant;
    let setups = if args.from.is_empty() && variant == Variant::Dfrc && args.shard.is_none() {
        args.positions.trim().to_owned()
    } else {
        exits::setups_text(variant, &expansion)
    };
    let manifest = exits::manifest(&expansion, &choice, &selection, setups);
    let written = c960_book::write_book(&args.out, selection.lines.clone(), manifest)
        .with_context(|| format!("writing {}", args.out.display()))?;
    let mut text = Text::default();
    if !args.engine.quiet {
        writeln!(
            text,
            "{} exits written to {} (SHA-256 {}): {} in the window {} of {} candidates from {} \
             start(s), {} start(s) in the book",
            written.lines,
            args.out.display(),
            written.sha256,
            selection.in_window,
            choice.window,
            selection.candidates,
            selection.starts,
            selection.starts_kept
        )?;
    }
    text.print()?;
    Ok(())
}

/// The window, quota and seed, refused before any engine starts.
fn choice(args: &BookExitsArgs) -> Result<Choice> {
    let window = match (args.cp, args.draw_rate) {
        (Some(range), _) => Window::new(Measure::Cp, range),
        (None, Some(range)) => Window::new(Measure::DrawRate, range),
        (None, None) => Err("give a window: --cp LOW..HIGH or --draw-rate LOW..HIGH".to_owned()),
    }
    .map_err(InputError)?;
    let quota = match (args.count, args.per_start) {
        (Some(n), _) => Quota::Count(n),
        (None, Some(k)) => Quota::PerStart(k),
        (None, None) => Quota::All,
    };
    Ok(Choice {
        window,
        quota,
        seed: args.seed,
    })
}

/// Runs (or resumes) the expansion with a progress bar; Ctrl-C stops it
/// with what is journaled kept.
fn expand(args: &BookExitsArgs, choice: &Choice) -> Result<Expansion> {
    let limit = args.limit.limit(Limit::Nodes(DEFAULT_NODES))?;
    let setups = Setup::parse_set(args.variant, &args.positions)?;
    let engine = args
        .engine
        .engine_spec(&args.engine.engine, &args.engine.options)?;
    let tree = Tree {
        limit,
        multipv: args.multipv.get(),
        plies: args.plies.get(),
    };
    let mut suffix = format!("mpv{}-p{}", tree.multipv, tree.plies);
    if args.variant == Variant::Dfrc {
        suffix = format!("dfrc-{suffix}");
    }
    let run = args
        .run
        .clone()
        .unwrap_or_else(|| default_out("exits", &engine, limit, &suffix));
    let config = ExpandConfig {
        engine,
        tree,
        setups,
        jobs: args.engine.jobs(),
        retries: args.engine.retries,
        run,
        shard: args.shard.unwrap_or_default(),
        needs_wdl: choice.window.measure == Measure::DrawRate,
    };
    interrupt::install();
    let bar = args
        .engine
        .progress_bar(config.starts().len() as u64, "starts");
    let mut follow = Follow::new(&bar);
    let expansion = exits::run(&config, &interrupt::STOP, |p| follow.update(p))
        .with_context(|| format!("expanding into {}", config.run.display()))?;
    bar.finish_and_clear();
    let journal = config.run.join(c960_store::JOURNAL_FILE);
    if expansion.interrupted {
        return Err(interrupted(
            "",
            expansion.starts.len() as u64,
            follow.planned(),
            "starts",
            &journal,
        ));
    }
    if let Some((setup, reason)) = expansion.failed.first() {
        bail!(
            "{} failed, e.g. {}: {reason}; run the same command again to retry them",
            crate::output::count(expansion.failed.len(), "start", "starts"),
            args.variant.label(*setup)
        );
    }
    Ok(expansion)
}
