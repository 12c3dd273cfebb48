//! `c960 slurm`: a sharded sweep, self-play or run as a Slurm array job
//! (one shard per task) and a merge job after it.
//!
//! The scripts go into `DIR/slurm/`: `shard.sbatch` runs the same c960
//! command in every task with `--shard $SLURM_ARRAY_TASK_ID/N`, `--jobs`
//! equal to the task's CPUs and `--out DIR/shards/I`; `merge.sbatch`
//! depends on the array (`afterany`), checks that every shard finished,
//! and either merges the shards into DIR or resubmits the unfinished tasks
//! (the same command resumes from their journals) and itself after them.
//!
//! Adaptive self-play (`--target-halfwidth`, `--budget`) runs round by
//! round: DIR holds the journal of rounds; each task plays its shard's part
//! of the rounds decided so far (`--rounds-from DIR`), and the merge job
//! runs `c960 slurm selfplay ... --next-round --submit`, which merges the
//! round into DIR, decides the next one from all games so far (exactly as
//! the unsharded run decides it), writes it to DIR/rounds.jsonl and submits
//! the next array and merge, until the rule stops and the final tables are
//! written.

use std::{
    env,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, anyhow, bail};
use c960_selfplay::{RoundStep, SelfplayConfig};

use crate::{
    cli::{InputError, SlurmArgs, SlurmCommand, SlurmOptions},
    output::Text,
};

/// How many times the merge job resubmits unfinished shards before it
/// gives up.
const ATTEMPTS: u32 = 3;

/// Flags of `c960 slurm` itself, and flags each task sets, with whether
/// they take a value: left out of the task's command.
const OWN_FLAGS: [(&str, bool); 9] = [
    ("--shards", true),
    ("--partition", true),
    ("--time", true),
    ("--cpus-per-task", true),
    ("--submit", false),
    ("--jobs", true),
    ("--out", true),
    ("--quiet", false),
    ("--next-round", false),
];

/// What `c960 slurm` shards: the command, its run directory, the Slurm
/// options, the file a finished shard has, and the settings of adaptive
/// self-play.
type Sharded<'a> = (
    &'static str,
    Option<PathBuf>,
    &'a SlurmOptions,
    &'static str,
    Option<SelfplayConfig>,
);

/// The command to shard, checked.
fn sharded(args: &SlurmArgs) -> Result<Sharded<'_>> {
    let mut adaptive: Option<SelfplayConfig> = None;
    let (command, out, slurm, done) = match &args.command {
        SlurmCommand::Sweep { args, slurm } => {
            no_shard(args.shard.is_some())?;
            crate::cmd::sweep::config(args)?;
            ("sweep", args.out.clone(), slurm, "manifest.json")
        }
        SlurmCommand::Selfplay { args, slurm } => {
            no_shard(args.shard.is_some())?;
            if args.sprt.is_some() || args.openings.is_some() {
                bail!(InputError(
                    "--sprt and --openings need the whole match in one run: run them without \
                     c960 slurm"
                        .to_owned()
                ));
            }
            if args.rounds_from.is_some() {
                bail!(InputError(
                    "c960 slurm gives each task its --rounds-from".to_owned()
                ));
            }
            let config = crate::cmd::selfplay::config(args)?;
            if config.options.adaptive.is_some() {
                adaptive = Some(config);
            }
            ("selfplay", args.out.clone(), slurm, "manifest.json")
        }
        SlurmCommand::Run { args, slurm } => {
            no_shard(args.shard.is_some())?;
            let plan = crate::cmd::run::plan(args)?;
            if plan.adaptive_selfplay() {
                bail!(InputError(
                    "this c960 run plays adaptive self-play, whose rounds need every position's \
                     games: on Slurm, run its sweep with c960 slurm sweep and its self-play with \
                     c960 slurm selfplay --target-halfwidth W --budget GAMES"
                        .to_owned()
                ));
            }
            ("run", Some(plan.out().to_owned()), slurm, "run.json")
        }
    };
    Ok((command, out, slurm, done, adaptive))
}

pub(crate) fn run(args: &SlurmArgs) -> Result<()> {
    let (command, out, slurm, done, mut adaptive) = sharded(args)?;
    if slurm.next_round && adaptive.is_none() {
        bail!(InputError(
            "--next-round is for adaptive self-play (c960 slurm selfplay with \
             --target-halfwidth or --budget)"
                .to_owned()
        ));
    }
    let Some(out) = out else {
        bail!(InputError(
            "c960 slurm needs --out DIR: the run directory every task shares".to_owned()
        ));
    };
    if slurm.shards == 0 || slurm.cpus_per_task == 0 {
        bail!(InputError(
            "--shards and --cpus-per-task must be at least 1".to_owned()
        ));
    }
    let cwd = env::current_dir().context("the current directory")?;
    let out = cwd.join(out);
    let exe = env::current_exe().context("the c960 executable")?;
    let argv: Vec<String> = env::args().collect();
    let task_args = task_args(&argv, command);
    let name = format!(
        "c960-{}",
        out.file_name()
            .map_or_else(|| "run".into(), |n| n.to_string_lossy())
    );
    let jobs = Jobs {
        exe: &exe,
        cwd: &cwd,
        out: &out,
        name: &name,
        slurm,
        done,
    };
    let round = match adaptive.as_mut() {
        Some(config) => {
            config.out.clone_from(&out);
            if slurm.next_round {
                return next_round(&jobs, config);
            }
            Some(c960_selfplay::open_rounds(config)?)
        }
        None => None,
    };
    let (shard_script, merge_script) = jobs.write_scripts(&task_args, round.is_some())?;

    let mut text = Text::default();
    let n = slurm.shards;
    writeln!(
        text,
        "wrote {} (array 0-{}: c960 {command} --shard I/{n} --jobs {} into {}/shards/I) and {}",
        shard_script.display(),
        n - 1,
        slurm.cpus_per_task,
        out.display(),
        merge_script.display()
    )?;
    if let Some(round) = round {
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
    if slurm.submit {
        submit(&mut text, &jobs, &shard_script, &merge_script)?;
    } else {
        writeln!(text, "to submit (or run the same command with --submit):")?;
        writeln!(
            text,
            "  array=$(sbatch --parsable {})",
            shell_quote(&shard_script.to_string_lossy())
        )?;
        writeln!(
            text,
            "  sbatch --dependency=afterany:${{array%%;*}} {}",
            shell_quote(&merge_script.to_string_lossy())
        )?;
    }
    text.print()?;
    Ok(())
}

/// Submits the array and the merge after it; says how to follow them.
fn submit(
    text: &mut Text,
    jobs: &Jobs<'_>,
    shard_script: &Path,
    merge_script: &Path,
) -> Result<()> {
    let (n, name, out, done) = (jobs.slurm.shards, jobs.name, jobs.out, jobs.done);
    let dir = out.join("slurm");
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
        writeln!(
            text,
            "result:   {}/{done} once the merge has run (it resubmits unfinished shards itself)",
            out.display()
        )?;
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
fn next_round(jobs: &Jobs<'_>, config: &SelfplayConfig) -> Result<()> {
    let (out, n, submit) = (jobs.out, jobs.slurm.shards, jobs.slurm.submit);
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
                    "round {round} is not played yet by shard(s) {list} (no manifest of round \
                     {round} in {}/shards/I): run them, then --next-round again",
                    out.display()
                );
            }
            resubmit(&mut text, &dir, round, &list)?;
        }
        RoundStep::Next(round) => {
            writeln!(
                text,
                "round {} decided: {} of the {} open position(s) get more games; written to {}",
                round.round,
                round.targets.len(),
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
                    "{} game(s) failed, listed in {}/manifest.json",
                    outcome.failed.len(),
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

fn no_shard(given: bool) -> Result<()> {
    if given {
        bail!(InputError(
            "c960 slurm gives each task its --shard; use --shards N".to_owned()
        ));
    }
    Ok(())
}

/// The task's c960 arguments: everything after `slurm` but the flags of
/// `c960 slurm` and those each task sets itself.
fn task_args(argv: &[String], command: &str) -> Vec<String> {
    let start = argv
        .iter()
        .position(|a| a == "slurm")
        .map_or(argv.len(), |i| i + 1);
    let mut out = Vec::new();
    let mut rest = argv[start..].iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, _)) if flag.starts_with("--") => (flag, true),
            _ => (arg.as_str(), false),
        };
        if let Some((_, takes_value)) = OWN_FLAGS.iter().find(|(f, _)| *f == flag) {
            if *takes_value && !inline {
                rest.next();
            }
            continue;
        }
        out.push(arg.clone());
    }
    if out.first().map(String::as_str) != Some(command) {
        out.insert(0, command.to_owned());
    }
    out
}

/// What the two scripts need.
struct Jobs<'a> {
    exe: &'a Path,
    cwd: &'a Path,
    out: &'a Path,
    name: &'a str,
    slurm: &'a SlurmOptions,
    /// The file a finished shard has.
    done: &'a str,
}

impl Jobs<'_> {
    /// Writes `DIR/slurm/shard.sbatch` and `merge.sbatch` (rounds of
    /// adaptive self-play with `adaptive`) and returns their paths.
    fn write_scripts(&self, task_args: &[String], adaptive: bool) -> Result<(PathBuf, PathBuf)> {
        let dir = self.out.join("slurm");
        fs::create_dir_all(dir.join("logs"))
            .with_context(|| format!("cannot create {}", dir.display()))?;
        fs::create_dir_all(self.out.join("shards"))?;
        let shard_script = dir.join("shard.sbatch");
        let merge_script = dir.join("merge.sbatch");
        let mut shard_args = task_args.to_vec();
        let merge_text = if adaptive {
            shard_args.extend([
                "--rounds-from".to_owned(),
                self.out.to_string_lossy().into_owned(),
            ]);
            self.next_round_script(task_args)
        } else {
            self.merge_script()
        };
        write_script(&shard_script, &self.shard_script(&shard_args))?;
        write_script(&merge_script, &merge_text)?;
        Ok((shard_script, merge_script))
    }

    fn header(&self, lines: &[String]) -> String {
        let mut text = String::from("#!/bin/bash\n");
        let mut options = vec![
            format!("--job-name={}", self.name),
            format!("--chdir={}", self.cwd.display()),
            "--ntasks=1".to_owned(),
        ];
        options.extend(lines.iter().cloned());
        if let Some(p) = &self.slurm.partition {
            options.push(format!("--partition={p}"));
        }
        if let Some(t) = &self.slurm.time {
            options.push(format!("--time={t}"));
        }
        for option in options {
            let _ = writeln!(text, "#SBATCH {option}");
        }
        text
    }

    fn shard_script(&self, args: &[String]) -> String {
        let n = self.slurm.shards;
        let logs = self.out.join("slurm").join("logs");
        let mut text = self.header(&[
            format!("--array=0-{}", n - 1),
            format!("--cpus-per-task={}", self.slurm.cpus_per_task),
            format!("--output={}/shard-%a-%A.out", logs.display()),
        ]);
        let command: Vec<String> = std::iter::once(self.exe.to_string_lossy().into_owned())
            .chain(args.iter().cloned())
            .map(|a| shell_quote(&a))
            .collect();
        let _ = write!(
            text,
            "# Written by c960 slurm: shard $SLURM_ARRAY_TASK_ID of {n}, resumed from its journal\n\
             # when run again.\n\
             set -euo pipefail\n\
             shard=\"$SLURM_ARRAY_TASK_ID\"\n\
             exec {} --shard \"$shard/{n}\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\" --quiet \\\n  \
             --out {}/\"$shard\"\n",
            command.join(" "),
            shell_quote(&self.out.join("shards").to_string_lossy()),
        );
        text
    }

    /// The merge job of adaptive self-play: `c960 slurm ... --next-round
    /// --submit` merges the round and submits the next.
    fn next_round_script(&self, args: &[String]) -> String {
        let n = self.slurm.shards;
        let logs = self.out.join("slurm").join("logs");
        let mut text = self.header(&[
            "--cpus-per-task=1".to_owned(),
            format!("--output={}/merge-%j.out", logs.display()),
        ]);
        let command: Vec<String> = [self.exe.to_string_lossy().into_owned(), "slurm".to_owned()]
            .into_iter()
            .chain(args.iter().cloned())
            .map(|a| shell_quote(&a))
            .collect();
        let _ = write!(
            text,
            "# Written by c960 slurm: runs after every shard task of a round ended (afterany).\n\
             # Merges the round into the run directory when every shard played it and decides\n\
             # the next from all games so far (written to rounds.jsonl), then submits it and\n\
             # this job after it; resubmits unfinished shards instead, at most {ATTEMPTS} times;\n\
             # writes the final tables when the rule stops.\n\
             set -euo pipefail\n\
             exec {} --shards {n} --out {} --next-round --submit\n",
            command.join(" "),
            shell_quote(&self.out.to_string_lossy()),
        );
        text
    }

    fn merge_script(&self) -> String {
        let n = self.slurm.shards;
        let logs = self.out.join("slurm").join("logs");
        let mut text = self.header(&[
            "--cpus-per-task=1".to_owned(),
            format!("--output={}/merge-%j.out", logs.display()),
        ]);
        let out = shell_quote(&self.out.to_string_lossy());
        let exe = shell_quote(&self.exe.to_string_lossy());
        let _ = write!(
            text,
            r#"# Written by c960 slurm: runs after every shard task ended (afterany). Merges
# the shards when all finished; otherwise resubmits the unfinished tasks (the same
# command resumes from their journals) and this job after them, at most {ATTEMPTS} times.
set -euo pipefail
out={out}
attempt="${{C960_MERGE_ATTEMPT:-1}}"
unfinished=()
for i in $(seq 0 {last}); do
  [ -e "$out/shards/$i/{done}" ] || unfinished+=("$i")
done
if [ ${{#unfinished[@]}} -gt 0 ]; then
  list=$(IFS=,; echo "${{unfinished[*]}}")
  if [ "$attempt" -ge {ATTEMPTS} ]; then
    echo "c960: shards $list did not finish after $attempt attempts; see $out/slurm/logs" >&2
    exit 1
  fi
  array=$(sbatch --parsable --array="$list" "$out/slurm/shard.sbatch")
  array="${{array%%;*}}"
  merge=$(sbatch --parsable --dependency="afterany:$array" \
    --export="ALL,C960_MERGE_ATTEMPT=$((attempt + 1))" "$out/slurm/merge.sbatch")
  merge="${{merge%%;*}}"
  printf 'resubmitted shards %s\nshards %s\nmerge %s\n' "$list" "$array" "$merge" >>"$out/slurm/jobs.log"
  echo "c960: shards $list unfinished: resubmitted as job $array, merge as job $merge"
  exit 0
fi
shards=()
for i in $(seq 0 {last}); do shards+=("$out/shards/$i"); done
exec {exe} merge "${{shards[@]}}" --out "$out"
"#,
            last = n - 1,
            done = self.done,
        );
        text
    }
}

fn write_script(path: &Path, text: &str) -> Result<()> {
    c960_store::write_atomically(path, |f| std::io::Write::write_all(f, text.as_bytes()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    }
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

/// `text` in single quotes for bash.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_args_drop_the_flags_each_task_sets() {
        let argv: Vec<String> = [
            "c960",
            "slurm",
            "selfplay",
            "--nodes",
            "300",
            "--shards",
            "4",
            "--out",
            "x",
            "--jobs=3",
            "--submit",
            "--seed",
            "7",
            "--cpus-per-task",
            "2",
            "--quiet",
            "--partition=short",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            task_args(&argv, "selfplay"),
            ["selfplay", "--nodes", "300", "--seed", "7"]
        );
    }

    #[test]
    fn shell_quote_keeps_words_whole() {
        assert_eq!(shell_quote("--nodes"), "--nodes");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
