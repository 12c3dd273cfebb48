//! `c960 sweep`: score start positions with a UCI engine.

use std::{
    path::PathBuf,
    thread,
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};
use c960_core::parse_position_set;
use c960_engine::{Limit, uci::UciConfig, uci::find_stockfish};
use c960_sweep::{CSV_FILE, MANIFEST_FILE, PARQUET_FILE, SweepConfig};
use indicatif::{ProgressBar, ProgressStyle};

use crate::{
    cli::{InputError, SweepArgs},
    interrupt::{self, Interrupted},
};

/// Turns the flags into a sweep configuration, rejecting nonsense before
/// any engine starts.
fn config(args: &SweepArgs) -> Result<SweepConfig> {
    let limit = match (args.depth, args.nodes, args.movetime) {
        (Some(d), _, _) => Limit::Depth(d),
        (_, _, Some(ms)) => Limit::MoveTime(ms),
        (_, Some(n), _) => Limit::Nodes(n),
        (None, None, None) => Limit::Nodes(1_000_000),
    };
    let zero = match limit {
        Limit::Depth(d) => d == 0,
        Limit::Nodes(n) | Limit::MoveTime(n) => n == 0,
    };
    if zero {
        bail!(InputError(format!(
            "the limit must be positive, not {limit}"
        )));
    }
    if args.multipv == 0 {
        bail!(InputError("--multipv must be at least 1".to_owned()));
    }
    if args.jobs == Some(0) {
        bail!(InputError("--jobs must be at least 1".to_owned()));
    }
    let positions = parse_position_set(&args.positions)?;
    let path = if args.engine == "stockfish" {
        find_stockfish().unwrap_or_else(|| PathBuf::from("stockfish"))
    } else {
        PathBuf::from(&args.engine)
    };
    let mut engine = UciConfig::new(path);
    engine.threads = args.threads;
    engine.hash_mb = args.hash;
    for option in &args.options {
        let Some((name, value)) = option.split_once('=') else {
            bail!(InputError(format!("--option {option:?} is not NAME=VALUE")));
        };
        engine
            .options
            .push((name.trim().to_owned(), value.trim().to_owned()));
    }
    if let Some(secs) = args.watchdog {
        if !(secs > 0.0 && secs.is_finite()) {
            bail!(InputError(format!(
                "--watchdog {secs} must be a positive number of seconds"
            )));
        }
        engine.watchdog = Some(Duration::from_secs_f64(secs));
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = engine
            .path
            .file_stem()
            .map_or_else(|| "engine".into(), |s| s.to_string_lossy().into_owned());
        let limit = limit.to_string().replace(' ', "");
        PathBuf::from("runs").join(format!("sweep-{stem}-{limit}-mpv{}", args.multipv))
    });
    Ok(SweepConfig {
        engine,
        limit,
        multipv: args.multipv,
        positions,
        jobs,
        retries: args.retries,
        out,
    })
}

pub(crate) fn run(args: &SweepArgs) -> Result<()> {
    let config = config(args)?;
    interrupt::install();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(config.positions.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} positions  {per_sec}  ETA {eta}  {msg}",
            )
            .expect("a valid template"),
        );
        bar
    };
    let started = Instant::now();
    let mut first = true;
    let outcome = c960_sweep::run(&config, &interrupt::STOP, |p| {
        if first {
            // Positions from the journal are not this run's speed.
            bar.set_position(p.done as u64);
            bar.reset_eta();
            first = false;
        } else {
            bar.set_position(p.done as u64);
        }
        if p.failed > 0 {
            bar.set_message(format!("{} failed", p.failed));
        }
    })
    .with_context(|| format!("sweep into {}", config.out.display()))?;
    bar.finish_and_clear();

    let dir = config.out.display();
    if outcome.interrupted {
        return Err(Interrupted(format!(
            "interrupted: {} of {} positions are saved in {}; run the same command again to resume",
            outcome.rows.len(),
            config.positions.len(),
            outcome.journal.display()
        ))
        .into());
    }
    if !args.quiet {
        println!(
            "{} positions evaluated ({} from the journal) with {} at {} in {:.1}s",
            outcome.rows.len(),
            outcome.resumed,
            outcome.engine.name,
            config.limit,
            started.elapsed().as_secs_f64()
        );
        for file in [PARQUET_FILE, CSV_FILE, MANIFEST_FILE] {
            println!("  {dir}/{file}");
        }
    }
    if !outcome.failed.is_empty() {
        let first = &outcome.failed[0];
        bail!(
            "{} position(s) failed (listed in {dir}/{MANIFEST_FILE}), e.g. SP {}: {}; \
             run the same command again to retry them",
            outcome.failed.len(),
            first.sp,
            first.reason
        );
    }
    Ok(())
}
