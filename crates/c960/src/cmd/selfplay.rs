//! `c960 selfplay`: engine games from start positions.

use std::{fmt::Write as _, time::Instant};

use anyhow::{Context, Result, bail};
use c960_core::parse_position_set;
use c960_engine::Limit;
use c960_selfplay::{
    GAMES_FILE, MANIFEST_FILE, PGN_FILE, POSITIONS_CSV, POSITIONS_PARQUET, Rules, SelfplayConfig,
};

use crate::{
    cli::{InputError, SelfplayArgs},
    cmd::engine_args::default_out,
    interrupt::{self, Interrupted},
    output::Text,
};

fn config(args: &SelfplayArgs) -> Result<SelfplayConfig> {
    let limit = args.limit.limit(Limit::Nodes(5_000))?;
    if !(0.0..1.0).contains(&args.jitter) {
        bail!(InputError(format!(
            "--jitter {} must be at least 0 and below 1",
            args.jitter
        )));
    }
    if args.max_plies == 0 {
        bail!(InputError(
            "--max-plies must be at least 1 (a game of 0 plies is no game)".to_owned()
        ));
    }
    if args.games_per_position == 0 {
        bail!(InputError(
            "--games-per-position must be at least 1".to_owned()
        ));
    }
    if args.engine_b.is_some() && args.games_per_position % 2 == 1 {
        bail!(InputError(
            "--games-per-position must be even with --engine-b (colour-reversed pairs)".to_owned()
        ));
    }
    let positions = parse_position_set(&args.positions)?;
    let engine = args
        .engine
        .engine_spec(&args.engine.engine, &args.engine.options)?;
    let engine_b = match args.engine_b.as_deref() {
        Some(b) => Some(args.engine.engine_spec(b, &args.options_b)?),
        None if !args.options_b.is_empty() => {
            bail!(InputError("--option-b needs --engine-b".to_owned()))
        }
        None => None,
    };
    let out = args.out.clone().unwrap_or_else(|| {
        default_out(
            "selfplay",
            &engine,
            limit,
            &format!("g{}-s{}", args.games_per_position, args.seed),
        )
    });
    Ok(SelfplayConfig {
        engine,
        engine_b,
        limit,
        jitter: args.jitter,
        rules: Rules {
            max_plies: args.max_plies,
            resign_cp: args.resign_cp,
            resign_plies: args.resign_plies,
            draw_cp: args.draw_cp,
            draw_plies: args.draw_plies,
            draw_after_ply: args.draw_after,
        },
        games_per_position: args.games_per_position,
        positions,
        seed: args.seed,
        jobs: args.engine.jobs()?,
        retries: args.engine.retries,
        keep_scores: args.scores,
        out,
    })
}

pub(crate) fn run(args: &SelfplayArgs) -> Result<()> {
    let config = config(args)?;
    let outputs = [
        GAMES_FILE,
        MANIFEST_FILE,
        PGN_FILE,
        POSITIONS_CSV,
        POSITIONS_PARQUET,
        c960_selfplay::JOURNAL_FILE,
    ]
    .map(|f| config.out.join(f));
    c960_store::check_output(&outputs.each_ref().map(std::path::PathBuf::as_path))?;
    c960_store::remove_stale_temporaries(&config.out);
    if args.engine.repair {
        let dropped = c960_selfplay::checks::repair(&config)
            .with_context(|| format!("repair {}", config.out.display()))?;
        crate::cmd::sweep::report_repairs(&config.out.join(c960_selfplay::JOURNAL_FILE), &dropped);
    }
    interrupt::install();
    let total = config.positions.len() as u64 * u64::from(config.games_per_position);
    let bar = args.engine.progress_bar(total, "games");
    let started = Instant::now();
    let mut first = true;
    let outcome = c960_selfplay::run(&config, &interrupt::STOP, |p| {
        bar.set_position(p.done);
        if first {
            bar.reset_eta();
            first = false;
        }
        if p.failed > 0 {
            bar.set_message(format!("{} failed", p.failed));
        }
    })
    .with_context(|| format!("self-play into {}", config.out.display()))?;
    bar.finish_and_clear();

    let dir = config.out.display();
    if outcome.interrupted {
        return Err(Interrupted(format!(
            "interrupted: {} of {total} games are saved in {}; run the same command again to resume",
            outcome.games,
            outcome.journal.display()
        ))
        .into());
    }
    let mut text = Text::default();
    if !args.engine.quiet {
        let names: Vec<&str> = outcome.engines.iter().map(|e| e.name.as_str()).collect();
        writeln!(
            text,
            "{} games ({} from the journal) from {} positions by {} at {} in {:.1}s",
            outcome.games,
            outcome.resumed,
            outcome.positions.len(),
            names.join(" vs "),
            config.limit,
            started.elapsed().as_secs_f64()
        )?;
        for file in [
            PGN_FILE,
            GAMES_FILE,
            POSITIONS_PARQUET,
            POSITIONS_CSV,
            MANIFEST_FILE,
        ] {
            writeln!(text, "  {dir}/{file}")?;
        }
    }
    text.print()?;
    if let Some(first) = outcome.failed.first() {
        bail!(
            "{} game(s) failed (listed in {dir}/{MANIFEST_FILE}), e.g. SP {} game {}: {}; \
             run the same command again to retry them",
            outcome.failed.len(),
            first.sp,
            first.game,
            first.reason
        );
    }
    Ok(())
}
