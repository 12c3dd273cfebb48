//! `c960 book exits`: expand the starts with the engine's `MultiPV` lines
//! (journaled, resumable, sharded like a sweep), then choose the exits in
//! a window; or choose them from finished runs (`--from`).

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use c960_book::{
    BookOutputs,
    exits::{
        self, Choice, DEFAULT_NODES, DrawModel, ExpandConfig, Expansion, Measure, Quota,
        StartExits, Tree, Window,
    },
};
use c960_core::{Setup, Variant};
use c960_engine::Limit;

use crate::{
    cli::{BookExitsArgs, InputError},
    cmd::engine_args::default_out,
    follow::{Follow, interrupted},
    interrupt,
    output::{Text, say},
};

pub(crate) fn run(args: &BookExitsArgs) -> Result<()> {
    let choice = choice(args)?;
    let config = if args.from.is_empty() {
        Some(config(args, choice.as_ref().map(|(c, _)| c))?)
    } else {
        None
    };
    let outputs = match &choice {
        Some((_, out)) => Some(claim(out, args, config.as_ref().map(|c| c.run.as_path()))?),
        None => None,
    };
    let expansion = match (&choice, &config) {
        (_, Some(config)) => expand(args, config)?,
        (Some((choice, _)), None) => {
            // Only the exits the window keeps are held: a whole DFRC
            // expansion does not fit in memory.
            let window = choice.window;
            let trim = move |start: &mut StartExits| {
                let mut candidates = 0;
                start.exits.retain(|exit| {
                    window.value(exit).is_some_and(|value| {
                        candidates += 1;
                        window.contains(value)
                    })
                });
                candidates
            };
            exits::read_runs(&args.from, &trim).context("reading the runs")?
        }
        (None, None) => unreachable!("--from needs a window, checked by choice"),
    };
    let (Some((choice, _)), Some(outputs)) = (choice, outputs) else {
        if !args.engine.quiet {
            let journal = expansion.journals.first().map(|(path, _)| path.display());
            let mut text = Text::default();
            writeln!(
                text,
                "{} expanded into {}; make a book with c960 book exits --from DIR \
                 --cp LOW..HIGH --out FILE",
                c960_core::plural(expansion.starts.len(), "start", "starts"),
                journal.map(|j| j.to_string()).unwrap_or_default()
            )?;
            text.print()?;
        }
        return Ok(());
    };
    book(args, &expansion, &choice, &outputs)
}

/// Claims the book and its manifest at `out` before any search: apart
/// from each other and from the run directories read (`--from`) or
/// expanded into (`run`).
pub(crate) fn claim(out: &Path, args: &BookExitsArgs, run: Option<&Path>) -> Result<BookOutputs> {
    let mut claim = c960_store::Claim::new();
    for dir in &args.from {
        claim = claim.input_dir(dir, "--from");
    }
    if let Some(run) = run {
        claim = claim.input_dir(run, "the run directory");
    }
    if let Some(model) = &args.draw_model {
        claim = claim.input(model, "--draw-model");
    }
    if let Some(balance) = &args.balance {
        claim = claim.input(balance, "--balance");
    }
    let sidecar = exits::sidecar_path(out);
    let extra: Vec<(&Path, &str)> = if args.sidecar {
        vec![(sidecar.as_path(), "its per-line table")]
    } else {
        Vec::new()
    };
    Ok(BookOutputs::claim_with(out, &extra, claim)?)
}

/// Chooses the book from `expansion` and writes it with its manifest.
fn book(
    args: &BookExitsArgs,
    expansion: &Expansion,
    choice: &Choice,
    outputs: &BookOutputs,
) -> Result<()> {
    if choice.window.measure == Measure::DrawRate && expansion.settings.wdl_model.is_none() {
        bail!(InputError(format!(
            "--draw-rate needs the engine's WDL model, and {} reports none; use --cp",
            expansion.settings.engine
        )));
    }
    if let Some((path, model)) = &choice.draw_model
        && !model.matches(expansion)
    {
        bail!(InputError(format!(
            "{} was fitted on the scores of {} ({}, MultiPV {}), and the runs were expanded by \
             {} ({}, MultiPV {}): fit a model on these runs' exits",
            path.display(),
            model.scores_from.engine,
            model.scores_from.limit,
            model.scores_from.multipv,
            expansion.settings.engine,
            expansion.settings.limit,
            expansion.settings.multipv
        )));
    }
    let starts = exits::in_book_order(expansion);
    let mut selection = exits::select(&starts, choice.window, choice.quota, choice.seed);
    if let Some(seed) = choice.shuffle {
        selection.shuffle(seed);
    }
    if let Some(candidates) = expansion.trimmed {
        selection.candidates = candidates;
    }
    if selection.kept == 0 {
        bail!(InputError(format!(
            "empty selection: none of the {} candidate exits of {} lies in the window {}; widen \
             the window, or expand more (--multipv, --plies)",
            selection.candidates,
            c960_core::plural(selection.starts, "start", "starts"),
            choice.window
        )));
    }
    if choice.start_balance.is_some() && expansion.settings.variant != Variant::Chess960 {
        bail!(InputError(
            "--balance gives Chess960 starts' balance; a DFRC book's lines have none".to_owned()
        ));
    }
    let setups = setups_named(args, expansion)?;
    let manifest = exits::manifest(expansion, choice, &selection, setups);
    let out = outputs.book();
    let model = choice.draw_model.as_ref().map(|(_, m)| m);
    let variant = expansion.settings.variant;
    let written =
        c960_book::write_book_with(outputs, selection.lines.clone(), manifest, |_, out| {
            exits::write_sidecar(
                out,
                &selection,
                variant,
                model,
                choice.start_balance.as_ref(),
            )
        })
        .with_context(|| format!("writing {}", out.display()))?;
    let mut text = Text::default();
    if !args.engine.quiet {
        writeln!(
            text,
            "{} exits written to {} (SHA-256 {}): {} in the window {} of {} candidates from {}, \
             {} in the book",
            written.lines,
            out.display(),
            written.sha256,
            selection.in_window,
            choice.window,
            selection.candidates,
            c960_core::plural(selection.starts, "start", "starts"),
            c960_core::plural(selection.starts_kept, "start", "starts")
        )?;
    }
    text.print()?;
    Ok(())
}

/// The set the book's manifest names: `--positions` as given when the
/// expansion holds exactly its starts (a DFRC `sample:200:1` stays that),
/// else the starts' ranges. With `--from`, a set other than `all` that the
/// runs do not hold is refused.
fn setups_named(args: &BookExitsArgs, expansion: &Expansion) -> Result<String> {
    let variant = expansion.settings.variant;
    let named: Vec<u32> = Setup::parse_set(variant, &args.positions)?
        .iter()
        .map(|s| s.id())
        .collect();
    let held: Vec<u32> = expansion.starts.keys().copied().collect();
    let given = args.positions.trim();
    if named == held && variant == Variant::Dfrc {
        Ok(given.to_owned())
    } else if named != held && !args.from.is_empty() && given != "all" {
        bail!(InputError(format!(
            "--positions {given} names {}, and the runs hold {} others; name the set the runs \
             expanded, or leave --positions out",
            c960_core::plural(named.len(), "start", "starts"),
            held.len()
        )))
    } else {
        Ok(exits::setups_text(variant, expansion))
    }
}

/// The window, quota and seed with the book file, refused before any
/// engine starts; `None` for an expansion without a book.
pub(crate) fn choice(args: &BookExitsArgs) -> Result<Option<(Choice, PathBuf)>> {
    let mut window = match (args.cp, args.draw_rate) {
        (Some(range), _) => Some(Window::new(Measure::Cp, range)),
        (None, Some(range)) => Some(Window::new(Measure::DrawRate, range)),
        (None, None) => None,
    }
    .transpose()
    .map_err(InputError)?;
    let model = args
        .draw_model
        .as_deref()
        .map(DrawModel::read)
        .transpose()
        .map_err(InputError)?;
    if let (Some(model), Some(w)) = (&model, window) {
        window = Some(w.with_model(model.fit.model));
    }
    let (window, out) = match (window, &args.out) {
        (Some(window), Some(out)) => (window, out.clone()),
        (None, None) if args.from.is_empty() => return Ok(None),
        (Some(_), None) => bail!(InputError(
            "a window needs --out FILE for the book".to_owned()
        )),
        (None, _) => bail!(InputError(
            "give the book's window: --cp LOW..HIGH or --draw-rate LOW..HIGH (and --out FILE)"
                .to_owned()
        )),
    };
    let quota = match (args.count, args.per_start) {
        (Some(n), _) => Quota::Count(n),
        (None, Some(k)) => Quota::PerStart(k),
        (None, None) => Quota::All,
    };
    Ok(Some((
        Choice {
            window,
            quota,
            seed: args.seed,
            draw_model: model.map(|m| (args.draw_model.clone().unwrap_or_default(), m)),
            shuffle: args.shuffle,
            start_balance: args.balance.as_deref().map(start_balance).transpose()?,
        },
        out,
    )))
}

/// The expansion's configuration, its tree checked, before anything is
/// claimed or started.
fn config(args: &BookExitsArgs, choice: Option<&Choice>) -> Result<ExpandConfig> {
    let limit = args.limit.limit(Limit::Nodes(DEFAULT_NODES))?;
    let setups = Setup::parse_set(args.variant, &args.positions)?;
    let engine = args
        .engine
        .engine_spec(&args.engine.engine, &args.engine.options)?;
    let plies = args.plies.get();
    let tree = Tree {
        limit,
        multipv: args.multipv.get(),
        plies,
        first_exit_ply: args.exits_from.unwrap_or(plies),
    };
    tree.check().map_err(InputError)?;
    let mut suffix = format!("mpv{}-p{}", tree.multipv, tree.plies);
    if tree.first_exit_ply < plies {
        suffix = format!("{suffix}-from{}", tree.first_exit_ply);
    }
    if args.variant == Variant::Dfrc {
        suffix = format!("dfrc-{suffix}");
    }
    let run = args
        .run
        .clone()
        .unwrap_or_else(|| default_out("exits", &engine, limit, &suffix));
    Ok(ExpandConfig {
        engine,
        tree,
        setups,
        jobs: args.engine.jobs(),
        retries: args.engine.retries,
        run,
        shard: args.shard.unwrap_or_default(),
        needs_wdl: choice.is_some_and(|c| c.window.measure == Measure::DrawRate),
        repair: args.engine.repair,
    })
}

/// Runs (or resumes) the expansion with a progress bar, after saying how
/// much work it is; Ctrl-C stops it with what is journaled kept.
fn expand(args: &BookExitsArgs, config: &ExpandConfig) -> Result<Expansion> {
    interrupt::install();
    let bar = args
        .engine
        .progress_bar(config.starts().len() as u64, "starts");
    let mut follow = Follow::new(&bar);
    // Said above the bar once the engine is up and the journal read: the
    // starts left (on a terminal; a log keeps bad input to one line).
    let mut said = bar.is_hidden();
    let expansion = exits::run(config, &interrupt::STOP, |p| {
        let left = p.total - p.resumed;
        if !said && left > 0 {
            let estimate = config.tree.estimate(left as usize);
            bar.suspend(|| say!("c960: expanding {estimate}"));
        }
        said = true;
        follow.update(p);
    })
    .with_context(|| format!("expanding into {}", config.run.display()))?;
    bar.finish_and_clear();
    let journal = config.run.join(c960_store::JOURNAL_FILE);
    crate::cmd::sweep::report_repairs(&journal, &expansion.repaired);
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
            c960_core::plural(expansion.failed.len(), "start", "starts"),
            args.variant.label(*setup)
        );
    }
    Ok(expansion)
}

/// Each start's published balance from the table at `path`, for the
/// per-line table.
fn start_balance(path: &Path) -> Result<exits::StartBalance> {
    let table = c960_verdict::BalanceTable::read(path)
        .map_err(|e| InputError(format!("--balance {}: {}", e.file, e.reason)))?;
    Ok(exits::StartBalance {
        file: table.file,
        sha256: table.sha256,
        by_sp: table
            .rows
            .iter()
            .map(|row| {
                let interval = row.interval.map(|i| (i.low, i.high));
                (u32::from(row.sp.sp()), (row.estimate, interval))
            })
            .collect(),
    })
}
