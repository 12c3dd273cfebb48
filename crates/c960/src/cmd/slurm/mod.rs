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
//!
//! This module checks the command and shards it; [`scripts`] writes the
//! two batch scripts and [`jobs`] submits them with `sbatch`, logs the job
//! ids and runs the rounds of adaptive self-play.

mod book;
mod jobs;
mod quote;
mod scripts;

use std::{env, fmt::Write as _, path::PathBuf};

use anyhow::{Context, Result, bail};
use c960_selfplay::SelfplayConfig;

use self::{
    jobs::{next_round, submit},
    quote::shell_quote,
    scripts::{Jobs, Merge},
};
use crate::{
    cli::{BookExitsArgs, InputError, SlurmArgs, SlurmCommand, SlurmOptions},
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

/// What `c960 slurm` shards.
struct Sharded<'a> {
    /// The c960 command each task runs.
    command: &'static str,
    /// The run directory.
    out: Option<PathBuf>,
    /// The flag that names the run directory (and each task's shard).
    dir_flag: &'static str,
    slurm: &'a SlurmOptions,
    /// The file a finished shard has.
    done: &'static str,
    /// The settings of adaptive self-play.
    adaptive: Option<SelfplayConfig>,
    /// The expansion of an exit book.
    book: Option<&'a BookExitsArgs>,
}

/// The command to shard, checked.
fn sharded(args: &SlurmArgs) -> Result<Sharded<'_>> {
    let mut adaptive: Option<SelfplayConfig> = None;
    let (command, out, slurm, done) = match &args.command {
        SlurmCommand::Sweep { args, slurm } => {
            no_shard(args.shard.is_some())?;
            let config = crate::cmd::sweep::config(args)?;
            let searches = config.searches();
            at_most_one_shard_a_unit(slurm.shards.get(), searches, ("search", "searches"))?;
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
            // Pairs of two engines stay in one shard.
            let per_position = if config.engine_b.is_some() {
                config.games_per_position.get().div_ceil(2)
            } else {
                config.games_per_position.get()
            };
            let units = config.positions.len() as u64 * u64::from(per_position);
            let unit = if config.engine_b.is_some() {
                ("pair of games", "pairs of games")
            } else {
                ("game", "games")
            };
            at_most_one_shard_a_unit(slurm.shards.get(), units, unit)?;
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
            plan.check_shardable()?;
            ("run", Some(plan.out().to_owned()), slurm, "run.json")
        }
        SlurmCommand::BookExits { args, slurm } => return book::sharded(args, slurm),
    };
    Ok(Sharded {
        command,
        out,
        dir_flag: "--out",
        slurm,
        done,
        adaptive,
        book: None,
    })
}

pub(crate) fn run(args: &SlurmArgs) -> Result<()> {
    let Sharded {
        command,
        out,
        dir_flag,
        slurm,
        done,
        mut adaptive,
        book,
    } = sharded(args)?;
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
    within_max_shards(slurm.shards.get())?;
    check_slurm_values(slurm)?;
    let cwd = env::current_dir().context("the current directory")?;
    let out = cwd.join(out);
    let exe = env::current_exe().context("the c960 executable")?;
    let argv: Vec<String> = env::args().collect();
    let (task_args, book) = match book {
        Some(args) => {
            let (task_args, book) = book::split(&argv, args, &cwd);
            (task_args, Some(book))
        }
        None => (task_args(&argv, command), None),
    };
    check_text("the working directory", &cwd.to_string_lossy())?;
    check_text(dir_flag, &out.to_string_lossy())?;
    check_text("the c960 executable's path", &exe.to_string_lossy())?;
    for arg in task_args.iter().chain(book.iter().flat_map(|b| &b.args)) {
        check_text("an argument", arg)?;
    }
    if let Some(book) = book.as_ref().and_then(|b| b.out.as_ref()) {
        check_text("--out", &book.to_string_lossy())?;
    }
    let name = job_name(&out);
    let result = match &book {
        Some(book) => book.result(&out, slurm.shards.get()),
        None => format!(
            "{}/{done} once the merge has run (it resubmits unfinished shards itself)",
            out.display()
        ),
    };
    let jobs = Jobs {
        exe: &exe,
        cwd: &cwd,
        out: &out,
        name: &name,
        slurm,
        done,
        dir_flag,
        result: &result,
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
    let merge = match (&book, round) {
        (Some(book), _) => Merge::Book(book),
        (None, Some(_)) => Merge::Rounds,
        (None, None) => Merge::Shards,
    };
    let scripts = jobs.write_scripts(&task_args, &merge)?;
    summary(&jobs, command, round, &scripts)
}

/// Says what was written, and submits it (`--submit`) or says how.
fn summary(
    jobs: &Jobs<'_>,
    command: &str,
    round: Option<u32>,
    (shard_script, merge_script): &(PathBuf, PathBuf),
) -> Result<()> {
    let (slurm, out) = (jobs.slurm, jobs.out);
    let mut text = Text::default();
    let n = slurm.shards.get();
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
        submit(&mut text, jobs, shard_script, merge_script)?;
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

/// Refuses more shards than work units: a shard without work would write
/// an empty table.
fn at_most_one_shard_a_unit(shards: u32, units: u64, (one, many): (&str, &str)) -> Result<()> {
    within_max_shards(shards)?;
    if u64::from(shards) > units {
        bail!(InputError(format!(
            "--shards {shards} is more than the run's {}: use at most {units}",
            c960_core::plural(units, one, many)
        )));
    }
    Ok(())
}

/// Refuses more than [`MAX_SHARDS`] shards.
fn within_max_shards(shards: u32) -> Result<()> {
    if shards > MAX_SHARDS {
        bail!(InputError(format!(
            "--shards {shards} is out of range 1..={MAX_SHARDS} (a Slurm array holds at most \
             MaxArraySize tasks, 1001 by default)"
        )));
    }
    Ok(())
}

/// The most shards `c960 slurm` writes an array for.
const MAX_SHARDS: u32 = 10_000;

/// Refuses `text` (named `what`) when it holds a control character: it
/// goes into a batch script, where a newline would start a command of its
/// own in a comment line (`#SBATCH`) that no quoting protects.
fn check_text(what: &str, text: &str) -> Result<()> {
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        bail!(InputError(format!(
            "{what} {text:?} holds the control character {c:?}, which c960 slurm does not \
             write into a batch script"
        )));
    }
    Ok(())
}

/// `--partition` and `--time` as Slurm spells them: a partition list of
/// names (letters, digits, `_ . -`, comma-separated) and a time of digits
/// with `-` and `:` (or `UNLIMITED`).
fn check_slurm_values(slurm: &SlurmOptions) -> Result<()> {
    if let Some(p) = &slurm.partition
        && (p.is_empty()
            || !p
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-,".contains(c)))
    {
        bail!(InputError(format!(
            "--partition {p:?} is not a Slurm partition list (names of letters, digits, _ . -, \
             separated by commas)"
        )));
    }
    if let Some(t) = &slurm.time
        && !(["UNLIMITED", "INFINITE"].contains(&t.to_ascii_uppercase().as_str())
            || (!t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_digit() || c == ':' || c == '-')))
    {
        bail!(InputError(format!(
            "--time {t:?} is not a Slurm time limit (MINUTES, HH:MM:SS, D-HH:MM:SS or UNLIMITED)"
        )));
    }
    Ok(())
}

/// The jobs' name: `c960-` and the run directory's name, with anything
/// but letters, digits and `_ . -` as `_` (it goes unquoted into `#SBATCH`
/// lines and the `squeue --name` c960 prints).
fn job_name(out: &std::path::Path) -> String {
    let dir = out
        .file_name()
        .map_or_else(|| "run".into(), |n| n.to_string_lossy());
    let safe: String = dir
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("c960-{safe}")
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
}
