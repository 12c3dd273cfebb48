//! What `c960 slurm` says: the scripts written, how to submit them or
//! follow the jobs submitted, and what the merge of a round decided.

use std::{fmt::Write as _, path::Path};

use anyhow::Result;
use c960_ops::slurm::{RoundDecision, RoundDone, Submitted, Written, shell_quote};

use crate::output::Text;

/// Says what was written, and the jobs submitted or how to submit them.
pub(super) fn written(w: &Written) -> Result<()> {
    let (n, out) = (w.shards, &w.out);
    let mut text = Text::default();
    writeln!(
        text,
        "wrote {} (array 0-{}: c960 {} --shard I/{n} --jobs {} into {}/shards/I) and {}",
        w.shard_script.display(),
        n - 1,
        w.command,
        w.cpus_per_task,
        out.display(),
        w.merge_script.display()
    )?;
    if let Some(round) = w.round {
        writeln!(
            text,
            "adaptive: the shards play round {round} (round 0: the initial games); after each \
             round the merge job merges it into {}, decides the next round from all games so far \
             ({}/{}) and submits it, until the rule stops",
            out.display(),
            out.display(),
            c960_selfplay::ROUNDS_FILE
        )?;
    }
    if let Some(Submitted { array, merge }) = &w.submitted {
        writeln!(
            text,
            "submitted the shards as job {array} (array 0-{}) and the merge as job {merge}",
            n - 1
        )?;
        follow(&mut text, &w.name, &out.join("slurm"))?;
        writeln!(text, "result:   {}", w.result)?;
    } else {
        writeln!(text, "to submit (or run the same command with --submit):")?;
        writeln!(
            text,
            "  array=$(sbatch --parsable {})",
            shell_quote(&w.shard_script.to_string_lossy())
        )?;
        writeln!(
            text,
            "  sbatch --dependency=afterany:${{array%%;*}} {}",
            shell_quote(&w.merge_script.to_string_lossy())
        )?;
    }
    text.print()?;
    Ok(())
}

/// How to follow the jobs.
fn follow(text: &mut Text, name: &str, dir: &Path) -> Result<()> {
    writeln!(text, "follow:   squeue --name {name}")?;
    writeln!(
        text,
        "history:  sacct --name {name} --format=JobID,JobName,State,Elapsed,ExitCode"
    )?;
    writeln!(text, "logs:     {}/logs/", dir.display())?;
    writeln!(text, "jobs:     {}/jobs.log", dir.display())?;
    Ok(())
}

/// What the merge of a round of adaptive self-play decided.
pub(super) fn round(done: &RoundDone) -> Result<()> {
    let (out, n) = (&done.out, done.shards);
    let mut text = Text::default();
    match &done.step {
        RoundDecision::Resubmitted { round, list, jobs } => writeln!(
            text,
            "round {round}: shards {list} unfinished: resubmitted as job {}, merge as job {}",
            jobs.array, jobs.merge
        )?,
        RoundDecision::Next { round, jobs } => {
            writeln!(
                text,
                "round {} decided: more games for {} of {} still open; written to {}",
                round.round,
                c960_core::plural(round.targets.len(), "position", "positions"),
                round.open,
                out.join(c960_selfplay::ROUNDS_FILE).display()
            )?;
            if let Some(Submitted { array, merge }) = jobs {
                writeln!(
                    text,
                    "submitted round {} as job {array} (array 0-{}) and its merge as job {merge}",
                    round.round,
                    n - 1
                )?;
                follow(&mut text, &done.name, &out.join("slurm"))?;
            } else {
                writeln!(
                    text,
                    "play it: each shard's command again (--shard I/{n} --rounds-from {}), then \
                     --next-round again",
                    out.display()
                )?;
            }
        }
        RoundDecision::Finished(outcome) => {
            writeln!(
                text,
                "adaptive self-play finished: {} games from {} positions in {}",
                outcome.games,
                outcome.positions.len(),
                out.display()
            )?;
            if let Some(record) = &outcome.adaptive {
                crate::cmd::selfplay::write_adaptive(&mut text, record)?;
            }
            if !outcome.failed.is_empty() {
                writeln!(
                    text,
                    "{} failed, listed in {}/manifest.json",
                    c960_core::plural(outcome.failed.len(), "game", "games"),
                    out.display()
                )?;
            }
        }
    }
    text.print()?;
    Ok(())
}
