//! `c960 sweep`: score start positions with a UCI engine.

use std::{fmt::Write as _, time::Instant};

use anyhow::{Context, Result, bail};
use c960_core::{Setup, Variant};
use c960_engine::Limit;
use c960_sweep::{
    CSV_FILE, MANIFEST_FILE, PARQUET_FILE, REPEATS_CSV, REPEATS_PARQUET, RepeatPlan, SweepConfig,
    SweepPlan,
};

use crate::{
    cli::SweepArgs,
    cmd::engine_args::default_out,
    follow::{Follow, interrupted},
    interrupt,
    output::Text,
    output::say,
};

/// Turns the flags into a sweep plan, checked by the library into its
/// configuration before any engine starts.
pub(crate) fn config(args: &SweepArgs) -> Result<SweepConfig> {
    let limit = args.limit.limit(Limit::Nodes(1_000_000))?;
    let variant = args.variant;
    let positions = Setup::parse_set(variant, &args.positions)?;
    let engine = args
        .engine
        .engine_spec(&args.engine.engine, &args.engine.options)?;
    let repeats = RepeatPlan {
        repeats: args.repeats,
        seed: args.seed,
        jitter: args.repeat_jitter,
    };
    let mut suffix = if repeats.is_repeated() {
        format!("mpv{}-r{}", args.multipv, args.repeats)
    } else {
        format!("mpv{}", args.multipv)
    };
    if args.reply {
        suffix.push_str("-reply");
    }
    if variant == Variant::Dfrc {
        suffix = format!("dfrc-{suffix}");
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out("sweep", &engine, limit, &suffix));
    Ok(SweepPlan {
        engine,
        limit,
        multipv: args.multipv,
        positions,
        set: args.positions.clone(),
        repeats,
        jobs: args.engine.jobs(),
        retries: args.engine.retries,
        out,
        repair: args.engine.repair,
        shard: args.shard.unwrap_or_default(),
        reply: args.reply,
    }
    .config()?)
}

/// The line on the repeatability of a repeated sweep.
fn repeatability(
    text: &mut Text,
    repeatability: Option<c960_sweep::Repeatability>,
) -> std::fmt::Result {
    match repeatability {
        Some(r) => writeln!(
            text,
            "repeatability over {} repeats: split-half r = {:.3}, all {} repeats {:.3} \
             (Spearman-Brown; {} positions): {}",
            r.repeats,
            r.split_half,
            r.repeats,
            r.all_repeats,
            r.positions,
            c960_balance::reliability::describe(Some(r.all_repeats))
        ),
        None => writeln!(
            text,
            "repeatability: not measurable (needs 3 or more positions with 2 or more repeats)"
        ),
    }
}

pub(crate) fn run(args: &SweepArgs) -> Result<()> {
    let config = config(args)?;
    let _claimed = c960_store::Claim::new()
        .run_dir(&config.out, "--out", &c960_sweep::OUTPUT_FILES)
        .take()?;
    interrupt::install();
    let searches = config.searches();
    let unit = if config.repeats.is_repeated() {
        "searches"
    } else {
        "positions"
    };
    let bar = args.engine.progress_bar(searches, unit);
    let started = Instant::now();
    let mut follow = Follow::new(&bar);
    let outcome = c960_sweep::run(&config, &interrupt::STOP, |p| follow.update(p))
        .with_context(|| format!("sweep into {}", config.out.display()))?;
    bar.finish_and_clear();
    report_repairs(&outcome.journal, &outcome.repaired);

    let dir = config.out.display();
    if outcome.interrupted {
        return Err(interrupted(
            "",
            outcome.rows.len() as u64,
            follow.planned(),
            unit,
            &outcome.journal,
        ));
    }
    let mut text = Text::default();
    if !args.engine.quiet {
        writeln!(
            text,
            "{} {unit} evaluated ({} from the journal) with {} at {} in {:.1}s",
            outcome.rows.len(),
            outcome.resumed,
            outcome.engine.name,
            config.limit,
            started.elapsed().as_secs_f64()
        )?;
        if config.repeats.is_repeated() {
            repeatability(&mut text, outcome.repeatability)?;
        }
        let files: &[&str] = if config.repeats.is_repeated() {
            &[
                PARQUET_FILE,
                CSV_FILE,
                REPEATS_PARQUET,
                REPEATS_CSV,
                MANIFEST_FILE,
            ]
        } else {
            &[PARQUET_FILE, CSV_FILE, MANIFEST_FILE]
        };
        for file in files {
            writeln!(text, "  {dir}/{file}")?;
        }
    }
    text.print()?;
    if let Some(first) = outcome.failed.first() {
        bail!(
            "{} failed (listed in {dir}/{MANIFEST_FILE}), e.g. {}: {}; \
             run the same command again to retry them",
            c960_core::plural(outcome.failed.len(), "position", "positions"),
            config.positions[0].variant().label(first.sp),
            first.reason
        );
    }
    Ok(())
}

/// Says on stderr which journal lines `--repair` dropped.
pub(crate) fn report_repairs(journal: &std::path::Path, dropped: &[c960_store::DroppedLine]) {
    for line in dropped {
        say!(
            "c960: repaired: dropped {} line {}: {}",
            journal.display(),
            line.line,
            line.reason
        );
    }
}
