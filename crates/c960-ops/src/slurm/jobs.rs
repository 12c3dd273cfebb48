//! Talking to Slurm: submitting the array and its merge, logging the job
//! ids, and the rounds of adaptive self-play (merge a round, decide and
//! submit the next, or resubmit the shards that did not play it).

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

use c960_selfplay::{RoundStep, SelfplayConfig};

use super::{ATTEMPTS, RoundDecision, RoundDone, SlurmError, Submitted, scripts::Jobs};

/// Submits the array and the merge after it.
pub(super) fn submit(
    jobs: &Jobs<'_>,
    shard_script: &Path,
    merge_script: &Path,
) -> Result<Submitted, SlurmError> {
    let dir = jobs.out.join("slurm");
    let array = sbatch(&[shard_script.as_os_str()])?;
    let dependency = format!("--dependency=afterany:{array}");
    let merge = sbatch(&[dependency.as_ref(), merge_script.as_os_str()])?;
    log_jobs(&dir, &format!("shards {array}\nmerge {merge}\n"))?;
    Ok(Submitted { array, merge })
}

/// Appends `lines` to `dir/jobs.log`.
fn log_jobs(dir: &Path, lines: &str) -> std::io::Result<()> {
    let log = dir.join("jobs.log");
    let mut jobs_log = fs::read_to_string(&log).unwrap_or_default();
    jobs_log.push_str(lines);
    c960_store::write_atomically(&log, |f| std::io::Write::write_all(f, jobs_log.as_bytes()))
}

/// `--next-round`: merges the round the shards played and decides the
/// next; with `--submit`, submits it (or resubmits the shards that have
/// not played the round, at most [`ATTEMPTS`] times in a row).
pub(super) fn next_round(
    jobs: &Jobs<'_>,
    config: &SelfplayConfig,
) -> Result<RoundDone, SlurmError> {
    let (out, n, submit) = (jobs.out, jobs.slurm.shards.get(), jobs.slurm.submit);
    let dir = out.join("slurm");
    let (shard_script, merge_script) = (dir.join("shard.sbatch"), dir.join("merge.sbatch"));
    let shards: Vec<PathBuf> = (0..n)
        .map(|i| out.join("shards").join(i.to_string()))
        .collect();
    let step =
        c960_selfplay::merge_round(config, &shards).map_err(|source| SlurmError::NextRound {
            out: out.to_owned(),
            source: Box::new(source),
        })?;
    let step = match step {
        RoundStep::Unfinished { round, shards } => {
            let list: Vec<String> = shards.iter().map(ToString::to_string).collect();
            let list = list.join(",");
            if !submit {
                return Err(SlurmError::Unfinished(format!(
                    "round {round} is not played yet by {} {list} (no manifest of round {round} \
                     in {}/shards/I): run {}, then --next-round again",
                    if shards.len() == 1 { "shard" } else { "shards" },
                    out.display(),
                    if shards.len() == 1 { "it" } else { "them" }
                )));
            }
            let jobs = resubmit(&dir, round, &list)?;
            RoundDecision::Resubmitted { round, list, jobs }
        }
        RoundStep::Next(round) => {
            let jobs = if submit {
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
                Some(Submitted { array, merge })
            } else {
                None
            };
            RoundDecision::Next { round, jobs }
        }
        RoundStep::Finished(outcome) => {
            log_jobs(&dir, "finished\n")?;
            RoundDecision::Finished(outcome)
        }
    };
    Ok(RoundDone {
        out: out.to_owned(),
        name: jobs.name.to_owned(),
        shards: n,
        step,
    })
}

/// Resubmits the shards `list` that have not played round `round` and the
/// merge job after them, at most [`ATTEMPTS`] times in a row.
fn resubmit(dir: &Path, round: u32, list: &str) -> Result<Submitted, SlurmError> {
    let attempt: u32 = env::var("C960_MERGE_ATTEMPT")
        .ok()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    if attempt >= ATTEMPTS {
        return Err(SlurmError::Unfinished(format!(
            "shards {list} did not finish round {round} after {attempt} attempts; see {}",
            dir.join("logs").display()
        )));
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
    Ok(Submitted { array, merge })
}

/// Submits with `sbatch --parsable` and returns the job id.
fn sbatch(args: &[&std::ffi::OsStr]) -> Result<String, SlurmError> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| {
            SlurmError::Sbatch(format!(
                "cannot run sbatch ({e}): c960 slurm --submit runs where Slurm's commands are \
                 (scripts/slurm-cluster.sh starts a one-node cluster to try it)"
            ))
        })?;
    if !output.status.success() {
        return Err(SlurmError::Sbatch(format!(
            "sbatch failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let id = String::from_utf8_lossy(&output.stdout);
    let id = id.trim().split(';').next().unwrap_or_default().to_owned();
    if id.is_empty() {
        return Err(SlurmError::Sbatch("sbatch printed no job id".to_owned()));
    }
    Ok(id)
}
