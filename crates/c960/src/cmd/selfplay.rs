//! `c960 selfplay`: engine games from start positions.

use std::{fmt::Write as _, time::Instant};

use anyhow::{Context, Result, bail};
use c960_core::Setup;
use c960_engine::{EngineSpec, Limit};
use c960_selfplay::{
    Adaptive, Book, CLOCK_NOTE, Control, GAMES_FILE, MANIFEST_FILE, MATCH_FILE, MatchOptions,
    MatchStats, OpeningOrder, PGN_FILE, POSITIONS_CSV, POSITIONS_PARQUET, Rules, SelfplayConfig,
    Sprt, TimeControl, parse_seconds,
};

use crate::{
    cli::{InputError, SelfplayArgs, Variant},
    cmd::engine_args::default_out,
    follow::{Follow, interrupted},
    interrupt,
    output::Text,
};

pub(crate) fn config(args: &SelfplayArgs) -> Result<SelfplayConfig> {
    let limit = args.limit.limit(Limit::Nodes(5_000))?;
    c960_selfplay::check_jitter("--jitter", args.jitter).map_err(InputError)?;
    if args.engine_b.is_some() && args.games_per_position.get() % 2 == 1 {
        bail!(InputError(
            "--games-per-position must be even with --engine-b (colour-reversed pairs)".to_owned()
        ));
    }
    let (positions, openings) = positions_and_book(args)?;
    let control = timed_control(args.tc.as_deref(), args.st.as_deref(), "")?;
    let control_b = control_b(args)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(str::parse::<Sprt>)
        .transpose()
        .map_err(InputError)?;
    if let Some(dir) = &args.log_engine {
        std::fs::create_dir_all(dir).map_err(|e| {
            InputError(format!(
                "--log-engine: cannot create {}: {e}",
                dir.display()
            ))
        })?;
    }
    let (engine, engine_b) = engines(args)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| run_dir(args, &engine, limit, control));
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
        jobs: args.engine.jobs(),
        retries: args.engine.retries,
        keep_scores: args.scores,
        out,
        options: MatchOptions {
            shared_process: args.shared_process,
            control,
            control_b,
            time_margin_ms: args.time_margin,
            sprt,
            openings,
            log_dir: args.log_engine.clone(),
            adaptive: adaptive(args),
            rounds_from: args.rounds_from.clone(),
        },
        shard: args.shard.unwrap_or_default(),
    })
}

/// The second engine's control: a fixed --nodes-b or --depth-b, or its
/// own time control.
fn control_b(args: &SelfplayArgs) -> Result<Option<Control>> {
    Ok(match (args.nodes_b, args.depth_b) {
        (Some(0), _) | (_, Some(0)) => {
            bail!(InputError(
                "--nodes-b and --depth-b must be positive".to_owned()
            ))
        }
        (Some(n), _) => Some(Control::Fixed(Limit::Nodes(n))),
        (_, Some(d)) => Some(Control::Fixed(Limit::Depth(d))),
        (None, None) => timed_control(args.tc_b.as_deref(), args.st_b.as_deref(), "-b")?,
    })
}

/// The engine and the second engine (with --engine-b), each logging where
/// --log-engine says.
fn engines(args: &SelfplayArgs) -> Result<(EngineSpec, Option<EngineSpec>)> {
    let engine = with_log(
        args.engine
            .engine_spec(&args.engine.engine, &args.engine.options)?,
        args,
    );
    let engine_b = match args.engine_b.as_ref() {
        Some(b) => Some(with_log(
            engine_b_spec(args.engine.engine_spec(b, &args.options_b)?, args)?,
            args,
        )),
        None if !args.options_b.is_empty() => {
            bail!(InputError("--option-b needs --engine-b".to_owned()))
        }
        None => None,
    };
    Ok((engine, engine_b))
}

/// The adaptive rule, with --target-halfwidth or --budget.
fn adaptive(args: &SelfplayArgs) -> Option<Adaptive> {
    (args.target_halfwidth.is_some() || args.budget.is_some()).then(|| Adaptive {
        target_half_width: args.target_halfwidth.unwrap_or(0.0),
        band_half_width: args.band,
        alpha: c960_selfplay::adaptive::DEFAULT_ALPHA,
        round_games: args.round_games,
        budget: args.budget,
    })
}

/// `runs/selfplay-ENGINE-LIMIT[-BOOK]-gG-sS`, named after the run's settings.
fn run_dir(
    args: &SelfplayArgs,
    engine: &EngineSpec,
    limit: Limit,
    control: Option<Control>,
) -> std::path::PathBuf {
    let mut suffix = format!("g{}-s{}", args.games_per_position, args.seed);
    if let Some(stem) = args.openings.as_ref().and_then(|p| p.file_stem()) {
        suffix = format!("{}-{suffix}", stem.to_string_lossy());
    }
    match control {
        // runs/selfplay-ENGINE-tc40_60+0.6-gG-sS
        Some(c) => {
            let name = c.to_string().replace(' ', "").replace('/', "_");
            std::path::PathBuf::from("runs")
                .join(format!("selfplay-{}-{name}-{suffix}", engine_stem(engine)))
        }
        None => default_out("selfplay", engine, limit, &suffix),
    }
}

/// The positions to play and the opening book, if any (whose start
/// positions are then the positions).
fn positions_and_book(args: &SelfplayArgs) -> Result<(Vec<Setup>, Option<Book>)> {
    let Some(path) = &args.openings else {
        return Ok((Setup::parse_set(args.variant, &args.positions)?, None));
    };
    if args.variant == Variant::Dfrc {
        bail!(InputError(
            "opening books hold Chess960 positions: play DFRC setups without --openings".to_owned()
        ));
    }
    let order: OpeningOrder = args.opening_order.parse().map_err(InputError)?;
    let book = Book::read(path, order, args.seed).map_err(InputError)?;
    let mut sps: Vec<Setup> = book.openings.iter().map(|o| o.position.into()).collect();
    sps.sort_by_key(|p| p.id());
    sps.dedup();
    Ok((sps, Some(book)))
}

/// A clock (`--tc`) or a time per move (`--st`), if given; `suffix` names
/// the flags in errors (`-b` for engine B's).
fn timed_control(tc: Option<&str>, st: Option<&str>, suffix: &str) -> Result<Option<Control>> {
    if let Some(tc) = tc {
        let tc: TimeControl = tc
            .parse()
            .map_err(|e: String| InputError(format!("--tc{suffix}: {e}")))?;
        return Ok(Some(Control::Clock(tc)));
    }
    if let Some(st) = st {
        return match parse_seconds(st) {
            Some(ms) if ms > 0 => Ok(Some(Control::PerMove(ms))),
            _ => bail!(InputError(format!(
                "--st{suffix} {st:?} must be a positive number of seconds"
            ))),
        };
    }
    Ok(None)
}

/// The engine logging its UCI traffic with `--log-engine`.
fn with_log(spec: EngineSpec, args: &SelfplayArgs) -> EngineSpec {
    match spec {
        EngineSpec::Uci(mut config) => {
            config.log_dir.clone_from(&args.log_engine);
            EngineSpec::Uci(config)
        }
        builtin @ EngineSpec::Builtin { .. } => builtin,
    }
}

/// Engine B with its own hash and threads, when given.
fn engine_b_spec(spec: EngineSpec, args: &SelfplayArgs) -> Result<EngineSpec> {
    Ok(match spec {
        EngineSpec::Uci(mut config) => {
            config.hash_mb = args.hash_b.unwrap_or(config.hash_mb);
            config.threads = args.threads_b.unwrap_or(config.threads);
            EngineSpec::Uci(config)
        }
        EngineSpec::Builtin { hash_mb, watchdog } => {
            if args.threads_b.is_some_and(|t| t != 1) {
                bail!(InputError(
                    "the built-in engine searches with one thread (--threads-b)".to_owned()
                ));
            }
            EngineSpec::Builtin {
                hash_mb: args.hash_b.map_or(hash_mb, |h| h as usize),
                watchdog,
            }
        }
    })
}

/// The engine's file name, for default run directories.
fn engine_stem(engine: &EngineSpec) -> String {
    match engine {
        EngineSpec::Uci(config) => config
            .path
            .file_stem()
            .map_or_else(|| "engine".into(), |s| s.to_string_lossy().into_owned()),
        EngineSpec::Builtin { .. } => "builtin".to_owned(),
    }
}

/// The A-vs-B lines of the summary.
fn write_match(
    text: &mut Text,
    engines: &[c960_engine::EngineInfo],
    stats: &MatchStats,
) -> std::fmt::Result {
    let name = |i: usize| engines.get(i).map_or("?", |e| e.name.as_str());
    let [ll, ld, dd, wd, ww] = stats.pentanomial;
    writeln!(
        text,
        "{} vs {}: {} pairs, +{} ={} -{} (A's games)",
        name(0),
        name(1),
        stats.pairs,
        stats.wins,
        stats.draws,
        stats.losses
    )?;
    writeln!(
        text,
        "  pentanomial [LL LD DD/WL WD WW]: [{ll} {ld} {dd} {wd} {ww}] ({} of the DD/WL pairs are WL)",
        stats.win_loss_pairs
    )?;
    let estimate = |e: Option<c960_balance::Estimate>, digits: usize| {
        e.map_or_else(
            || "n/a".to_owned(),
            |e| {
                format!(
                    "{:+.digits$} [{:+.digits$}, {:+.digits$}]",
                    e.value, e.low, e.high
                )
            },
        )
    };
    if let Some(score) = stats.score {
        writeln!(
            text,
            "  score {:.4} [{:.4}, {:.4}]  Elo {}  nElo {}  LOS {}",
            score.value,
            score.low,
            score.high,
            estimate(stats.elo, 1),
            estimate(stats.normalized_elo, 1),
            stats
                .los
                .map_or_else(|| "n/a".to_owned(), |l| format!("{:.1}%", l * 100.0))
        )?;
    }
    if let Some(sprt) = &stats.sprt {
        writeln!(
            text,
            "  SPRT {}: LLR {:.3} in [{:.3}, {:.3}]: {}",
            sprt.settings,
            sprt.llr,
            sprt.lower,
            sprt.upper,
            match sprt.accepted {
                Some(h) => format!("{h} accepted"),
                None => "no decision yet".to_owned(),
            }
        )?;
    }
    Ok(())
}

/// Repairs the journal when asked (the run checks its directory itself).
fn prepare(config: &SelfplayConfig, repair: bool) -> Result<()> {
    if repair {
        let dropped = c960_selfplay::checks::repair(config)
            .with_context(|| format!("repair {}", config.out.display()))?;
        crate::cmd::sweep::report_repairs(&config.out.join(c960_selfplay::JOURNAL_FILE), &dropped);
    }
    Ok(())
}

/// How an adaptive run ended, in one line.
pub(crate) fn write_adaptive(
    text: &mut Text,
    a: &c960_selfplay::AdaptiveRecord,
) -> std::fmt::Result {
    writeln!(
        text,
        "adaptive: {} after {} each; games per position {}..{}; stopped: {}; \
         widest 95% anytime interval +-{:.3}, {} still open",
        c960_core::plural(a.rounds, "round", "rounds"),
        c960_core::plural(a.initial_games, "game", "games"),
        a.games_min,
        a.games_max,
        a.stopped,
        a.widest_half_width,
        c960_core::plural(a.open, "position", "positions")
    )
}

/// The control of the run, and the second engine's where it differs.
fn controls(config: &SelfplayConfig) -> String {
    if config.engine_b.is_some() && config.control_b() != config.control_a() {
        format!("{} (B: {})", config.control_a(), config.control_b())
    } else {
        config.control_a().to_string()
    }
}

/// The error for games that failed, naming the first.
fn refuse_failed(dir: &str, failed: &[c960_selfplay::FailedGame]) -> Result<()> {
    if let Some(first) = failed.first() {
        let logs = if first.logs.is_empty() {
            String::new()
        } else {
            format!(" (engine logs: {})", first.logs.join(", "))
        };
        bail!(
            "{} failed (listed in {dir}/{MANIFEST_FILE}), e.g. SP {} game {}: {}{logs}; \
             run the same command again to retry them",
            c960_core::plural(failed.len(), "game", "games"),
            first.sp,
            first.game,
            first.reason
        );
    }
    Ok(())
}

pub(crate) fn run(args: &SelfplayArgs) -> Result<()> {
    let config = config(args)?;
    let mut claim =
        c960_store::Claim::new().run_dir(&config.out, "--out", &c960_selfplay::OUTPUT_FILES);
    if let Some(book) = &args.openings {
        claim = claim.input(book, "--openings");
    }
    if let Some(rounds) = &args.rounds_from {
        // Shards play inside the run whose rounds they read.
        claim = claim.input(&rounds.join(c960_selfplay::ROUNDS_FILE), "--rounds-from");
    }
    let _claimed = claim.take()?;
    prepare(&config, args.engine.repair)?;
    interrupt::install();
    let total = config.games();
    let bar = args.engine.progress_bar(total, "games");
    let started = Instant::now();
    let mut follow = Follow::new(&bar);
    let outcome = c960_selfplay::run(&config, &interrupt::STOP, |p| follow.update(p))
        .with_context(|| format!("self-play into {}", config.out.display()))?;
    bar.finish_and_clear();

    let dir = config.out.display();
    if outcome.interrupted {
        return Err(interrupted(
            "",
            outcome.games,
            follow.planned(),
            "games",
            &outcome.journal,
        ));
    }
    let mut text = Text::default();
    if !args.engine.quiet {
        let names: Vec<&str> = outcome.engines.iter().map(|e| e.name.as_str()).collect();
        writeln!(
            text,
            "{} games ({} from the journal) from {} positions by {} at {} in {:.1}s",
            outcome.games,
            outcome.resumed,
            outcome.positions.iter().filter(|p| p.games > 0).count(),
            names.join(" vs "),
            controls(&config),
            started.elapsed().as_secs_f64()
        )?;
        writeln!(
            text,
            "engine processes: {}",
            c960_selfplay::processes_label(config.options.shared_process)
        )?;
        if config.timed() {
            writeln!(text, "{CLOCK_NOTE}")?;
        }
        if let Some(a) = &outcome.adaptive {
            write_adaptive(&mut text, a)?;
        }
        if let Some(stats) = &outcome.match_stats {
            write_match(&mut text, &outcome.engines, stats)?;
        }
        for file in [
            PGN_FILE,
            GAMES_FILE,
            POSITIONS_PARQUET,
            POSITIONS_CSV,
            MANIFEST_FILE,
        ] {
            writeln!(text, "  {dir}/{file}")?;
        }
        if outcome.match_stats.is_some() {
            writeln!(text, "  {dir}/{MATCH_FILE}")?;
        }
    }
    text.print()?;
    refuse_failed(&dir.to_string(), &outcome.failed)
}
