//! `c960 report`: the per-position table, charts and static site.

use std::{fmt::Write as _, time::Instant};

use anyhow::{Context, Result, bail};
use c960_report::{RunKind, build, source};
use c960_store::POSITIONS_TABLE;

use crate::{
    cli::{InputError, ReportArgs},
    output::Text,
};

pub(crate) fn run(args: &ReportArgs) -> Result<()> {
    // Runs being written are not read (the report locks them again).
    let mut locks = Vec::new();
    for dir in args
        .sweeps
        .iter()
        .chain(&args.selfplays)
        .chain(&args.imports)
    {
        locks.push(c960_store::DirLock::shared(dir)?);
    }
    // Each directory must hold the kind of run its flag says.
    for (dirs, kind, flag) in [
        (&args.sweeps, RunKind::Sweep, "--sweep"),
        (&args.selfplays, RunKind::Selfplay, "--selfplay"),
        (&args.imports, RunKind::Import, "--games"),
    ] {
        for dir in dirs {
            let found = source(dir)?;
            if found.kind != kind {
                let what = match found.kind {
                    RunKind::Sweep => "a sweep (give it with --sweep)",
                    RunKind::Selfplay => "a self-play run (give it with --selfplay)",
                    RunKind::Import => "imported games (give them with --games)",
                };
                bail!(InputError(format!(
                    "{flag} {}: that directory holds {what}",
                    dir.display()
                )));
            }
        }
    }
    let started = Instant::now();
    let runs: Vec<_> = args
        .sweeps
        .iter()
        .chain(&args.selfplays)
        .chain(&args.imports)
        .cloned()
        .collect();
    let built =
        build(&runs, &args.out).with_context(|| format!("report into {}", args.out.display()))?;
    // Runs with failures are reported, and flagged on every page.
    for source in &built.sources {
        if let Some(failures) = source.failures() {
            eprintln!(
                "c960: warning: {} has {failures}; the report has no numbers for them",
                source.dir.display()
            );
        }
    }
    if !args.quiet {
        let mut text = Text::default();
        writeln!(
            text,
            "report for 960 positions from {} run(s): {} pages, {} chart files in {:.1}s",
            built.sources.len(),
            built.pages,
            built.charts.len(),
            started.elapsed().as_secs_f64()
        )?;
        writeln!(text, "  {}/index.html", args.out.display())?;
        writeln!(text, "  {}/{POSITIONS_TABLE}", args.out.display())?;
        text.print()?;
    }
    Ok(())
}
