//! `c960 report`: the per-position table, charts and static site.

use std::{fmt::Write as _, time::Instant};

use anyhow::{Context, Result, bail};
use c960_report::{RunKind, build_with, source};
use c960_store::POSITIONS_TABLE;

use crate::{
    cli::{InputError, ReportArgs},
    output::Text,
    output::say,
};

/// The report's outputs and inputs, claimed before any work.
fn claim(args: &ReportArgs) -> c960_store::Claim {
    let mut claim = c960_store::Claim::new().dir(&args.out, "--out");
    for (paths, flag) in [
        (&args.sweeps, "--sweep"),
        (&args.selfplays, "--selfplay"),
        (&args.imports, "--games"),
        (&args.validation, "--validation"),
    ] {
        for path in paths {
            claim = claim.input(path, flag);
        }
    }
    if let Some(agreement) = &args.agreement {
        claim = claim.input(agreement, "--agreement");
    }
    if let Some(difficulty) = &args.difficulty {
        claim = claim.input(difficulty, "--difficulty");
    }
    claim
}

pub(crate) fn run(args: &ReportArgs) -> Result<()> {
    let _claimed = claim(args).take()?;
    // Runs being written are not read (the report locks them again); a
    // sweep table given on its own is guarded by its directory's lock.
    let mut locks = Vec::new();
    for dir in args
        .sweeps
        .iter()
        .chain(&args.selfplays)
        .chain(&args.imports)
    {
        locks.push(c960_store::DirLock::shared(c960_report::lock_dir(dir))?);
    }
    check_kinds(args)?;
    let started = Instant::now();
    let runs: Vec<_> = args
        .sweeps
        .iter()
        .chain(&args.selfplays)
        .chain(&args.imports)
        .cloned()
        .collect();
    let options = c960_report::Options {
        validation: args.validation.clone(),
        agreement: args.agreement.clone(),
        difficulty: args.difficulty.clone(),
    };
    let built = build_with(&runs, &args.out, &options)
        .with_context(|| format!("report into {}", args.out.display()))?;
    if let Some(dfrc) = &built.dfrc {
        return dfrc_summary(args, dfrc, started);
    }
    // Raters merged as copies of others are named.
    for merged in built.verdicts.iter().flat_map(|b| &b.merged) {
        say!("c960: warning: {merged}");
    }
    // Runs with failures are reported, and flagged on every page.
    for source in &built.sources {
        if let Some(failures) = source.failures() {
            say!(
                "c960: warning: {} has {failures}; the report has no numbers for them",
                source.dir.display()
            );
        }
    }
    if !args.quiet {
        let mut text = Text::default();
        writeln!(
            text,
            "report for 960 positions from {}: {} pages, {} chart files in {:.1}s",
            c960_core::plural(built.sources.len(), "run", "runs"),
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

/// Refuses a directory that does not hold the kind of run its flag says.
fn check_kinds(args: &ReportArgs) -> Result<()> {
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
    Ok(())
}

/// The DFRC report's warnings and summary.
fn dfrc_summary(
    args: &ReportArgs,
    built: &c960_report::dfrc::DfrcBuilt,
    started: Instant,
) -> Result<()> {
    for run in built.runs.iter().filter(|r| !r.failed.is_empty()) {
        say!(
            "c960: warning: {} has {}; the report has no numbers for them",
            run.dir.display(),
            c960_core::plural(run.failed.len(), "failed setup", "failed setups")
        );
    }
    if !args.quiet {
        let setups: usize = built.analyses.iter().map(|a| a.rows.len()).sum();
        let mut text = Text::default();
        writeln!(
            text,
            "DFRC report for {} from {}: {} chart files in {:.1}s",
            c960_core::plural(setups, "setup", "setups"),
            c960_core::plural(built.runs.len(), "sweep", "sweeps"),
            built.charts.len(),
            started.elapsed().as_secs_f64()
        )?;
        writeln!(text, "  {}/index.html", args.out.display())?;
        writeln!(
            text,
            "  {}/{}",
            args.out.display(),
            c960_report::dfrc::DFRC_JSON
        )?;
        text.print()?;
    }
    Ok(())
}
