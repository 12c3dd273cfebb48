//! Talking to Slurm: submitting the array and its merge, logging the job
//! ids, and the rounds of adaptive self-play (merge a round, decide and
//! submit the next, or resubmit the shards that did not play it).

use std::{
    env,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, anyhow, bail};
use c960_selfplay::{RoundStep, SelfplayConfig};

use super::{ATTEMPTS, scripts::Jobs};
use crate::output::Text;

/// Submits the array and the merge after it; says how to follow them.
pub(super) fn submit(
    text: &mut Text,
    jobs: &Jobs<'_>,
    shard_script: &Path,
    merge_script: &Path,
) -> Result<()> {
    let (n, name) = (jobs.slurm.shards.get(), jobs.name);
    let dir = jobs.out.join("slurm");
    {
        let array = sbatch(&[shard_script.as_os_str()])?;
        let dependency = format!("--dependency=afterany:{array}");
        let merge = sbatch(&[dependency.as_ref(), merge_script.as_os_str()])?;
        log_jobs(&dir, &format!("shards {array}\nmerge {merge}\n"))?;
        writeln!(
            text,
            "submitted the shards as job {array} (array 0-{}) and the merge as job {merge}",
            n - 1
        )?;
        follow(text, name, &dir)?;
        writeln!(text, "result:   {}", jobs.result)?;
    }
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

/// Appends `lines` to `dir/jobs.log`.
fn log_jobs(dir: &Path, lines: &str) -> Result<()> {
    let log = dir.join("jobs.log");
    let mut jobs_log = fs::read_to_string(&log).unwrap_or_default();
    jobs_log.push_str(lines);
    c960_store::write_atomically(&log, |f| std::io::Write::write_all(f, jobs_log.as_bytes()))?;
    Ok(())
}

/// `--next-round`: merges the round the shards played and decides the
/// next; with `--submit`, submits it (or resubmits the shards that have
/// not played the round, at most [`ATTEMPTS`] times in a row).
pub(super) fn next_round(jobs: &Jobs<'_>, config: &SelfplayConfig) -> Result<()> {
    let (out, n, submit) = (jobs.out, jobs.slurm.shards.get(), jobs.slurm.submit);
    let dir = out.join("slurm");
    let (shard_script, merge_script) = (dir.join("shard.sbatch"), dir.join("merge.sbatch"));
    let shards: Vec<PathBuf> = (0..n)
        .map(|i| out.join("shards").join(i.to_string()))
        .collect();
    let step = c960_selfplay::merge_round(config, &shards)
        .with_context(|| format!("next round of {}", out.display()))?;
    let mut text = Text::default();
    match step {
        RoundStep::Unfinished { round, shards } => {
            let list: Vec<String> = shards.iter().map(ToString::to_string).collect();
            let list = list.join(",");
            if !submit {
                bail!(
                    "round {round} is not played yet by {} {list} (no manifest of round {round} \
                     in {}/shards/I): run {}, then --next-round again",
                    if shards.len() == 1 { "shard" } else { "shards" },
                    out.display(),
                    if shards.len() == 1 { "it" } else { "them" }
                );
            }
            resubmit(&mut text, &dir, round, &list)?;
        }
        RoundStep::Next(round) => {
            writeln!(
                text,
                "round {} decided: more games for {} of {} still open; written to {}",
                round.round,
                c960_core::plural(round.targets.len(), "position", "positions"),
                round.open,
                out.join(c960_selfplay::ROUNDS_FILE).display()
            )?;
            if submit {
                let array = sbatch(&[shard_script.as_os_str()])?;
                let merge = sbatch(&[
                    format!("--dependency=afterany:{array}").as_ref(),
                    "--export=ALL,C960_MERGE_ATTEMPT=1".as_ref(),
                    merge_script.as_os_str(),
                ])?;
                log_jobs(
                    &dir,
                    &format!("round {}\nshards {array}\nmerge {merge}\n", round.round),
                )?;
                writeln!(
                    text,
                    "submitted round {} as job {array} (array 0-{}) and its merge as job {merge}",
                    round.round,
                    n - 1
                )?;
                follow(&mut text, jobs.name, &dir)?;
            } else {
                writeln!(
                    text,
                    "play it: each shard's command again (--shard I/{n} --rounds-from {}), then \
                     --next-round again",
                    out.display()
                )?;
            }
        }
        RoundStep::Finished(outcome) => {
            log_jobs(&dir, "finished\n")?;
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

/// Resubmits the shards `list` that have not played round `round` and the
/// merge job after them, at most [`ATTEMPTS`] times in a row.
fn resubmit(text: &mut Text, dir: &Path, round: u32, list: &str) -> Result<()> {
    let attempt: u32 = env::var("C960_MERGE_ATTEMPT")
        .ok()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    if attempt >= ATTEMPTS {
        bail!(
            "shards {list} did not finish round {round} after {attempt} attempts; see {}",
            dir.join("logs").display()
        );
    }
    let array = sbatch(&[
        format!("--array={list}").as_ref(),
        dir.join("shard.sbatch").as_os_str(),
    ])?;
    let merge = sbatch(&[
        format!("--dependency=afterany:{array}").as_ref(),
        format!("--export=ALL,C960_MERGE_ATTEMPT={}", attempt + 1).as_ref(),
        dir.join("merge.sbatch").as_os_str(),
    ])?;
    log_jobs(
        dir,
        &format!("resubmitted shards {list}\nshards {array}\nmerge {merge}\n"),
    )?;
    writeln!(
        text,
        "round {round}: shards {list} unfinished: resubmitted as job {array}, merge as job {merge}"
    )?;
    Ok(())
}

/// Submits with `sbatch --parsable` and returns the job id.
fn sbatch(args: &[&std::ffi::OsStr]) -> Result<String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| {
            anyhow!(
                "cannot run sbatch ({e}): c960 slurm --submit runs where Slurm's commands are \
                 (scripts/slurm-cluster.sh starts a one-node cluster to try it)"
            )
        })?;
    if !output.status.success() {
        bail!(
            "sbatch failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let id = String::from_utf8_lossy(&output.stdout);
    let id = id.trim().split(';').next().unwrap_or_default().to_owned();
    if id.is_empty() {
        bail!("sbatch printed no job id");
    }
    Ok(id)
}
