//! A `c960 slurm` request checked and carried out: the work counted
//! against the shards, every path and argument checked for a batch
//! script, the scripts written and, with `--submit`, submitted.

use std::path::{Path, PathBuf};

use c960_selfplay::SelfplayConfig;

use super::{
    Outcome, Request, SlurmError, SlurmOptions, Work, Written,
    book::{self, Book},
    checks::{
        at_most_one_shard_a_unit, check_slurm_values, check_text, job_name, task_args,
        within_max_shards,
    },
    jobs::{next_round, submit},
    scripts::{Jobs, Merge},
};

/// What a kind of work shards as.
struct Shape {
    /// The c960 command each task runs.
    command: &'static str,
    /// The flag that names the run directory (and each task's shard).
    dir_flag: &'static str,
    /// The file a finished shard has.
    done: &'static str,
}

impl Work {
    /// Its shape, refusing more shards than work units.
    fn shape(&self, slurm: &SlurmOptions) -> Result<Shape, SlurmError> {
        let shards = slurm.shards.get();
        let (command, dir_flag, done) = match self {
            Work::Sweep { searches } => {
                at_most_one_shard_a_unit(shards, *searches, ("search", "searches"))?;
                ("sweep", "--out", "manifest.json")
            }
            Work::Selfplay(config) => {
                // Pairs of two engines stay in one shard.
                let pairs = config.engine_b.is_some();
                let per_position = if pairs {
                    config.games_per_position.get().div_ceil(2)
                } else {
                    config.games_per_position.get()
                };
                let units = config.positions.len() as u64 * u64::from(per_position);
                let unit = if pairs {
                    ("pair of games", "pairs of games")
                } else {
                    ("game", "games")
                };
                at_most_one_shard_a_unit(shards, units, unit)?;
                ("selfplay", "--out", "manifest.json")
            }
            Work::Run => ("run", "--out", "run.json"),
            Work::BookExits(exits) => {
                at_most_one_shard_a_unit(shards, exits.starts, ("start", "starts"))?;
                ("book exits", "--run", c960_store::JOURNAL_FILE)
            }
        };
        Ok(Shape {
            command,
            dir_flag,
            done,
        })
    }
}

/// A request checked: everything the scripts need.
struct Plan {
    command: &'static str,
    dir_flag: &'static str,
    done: &'static str,
    slurm: SlurmOptions,
    cwd: PathBuf,
    exe: PathBuf,
    /// The run directory (absolute).
    out: PathBuf,
    name: String,
    /// What the merge job leaves, in words.
    result: String,
    /// The tasks' c960 arguments.
    task_args: Vec<String>,
    /// For an exit book, what the merge job builds.
    book: Option<Book>,
    /// For adaptive self-play, its settings.
    adaptive: Option<Box<SelfplayConfig>>,
}

/// Carries out `c960 slurm`: checks the request, then writes the two
/// scripts (and submits them with `--submit`), or with `--next-round`
/// merges the round of adaptive self-play the shards played.
///
/// # Errors
///
/// A request that cannot be sharded or written into a batch script
/// ([`SlurmError::Input`]), a journal of rounds that does not fit, and
/// scripts, logs or jobs that cannot be written or submitted.
pub fn slurm(request: Request) -> Result<Outcome, SlurmError> {
    let mut plan = Plan::new(request)?;
    let round = match plan.adaptive.take() {
        Some(mut config) => {
            config.out.clone_from(&plan.out);
            if plan.slurm.next_round {
                return Ok(Outcome::Round(Box::new(next_round(&plan.jobs(), &config)?)));
            }
            Some(c960_selfplay::open_rounds(&config)?)
        }
        None => None,
    };
    let merge = match (&plan.book, round) {
        (Some(book), _) => Merge::Book(book),
        (None, Some(_)) => Merge::Rounds,
        (None, None) => Merge::Shards,
    };
    let jobs = plan.jobs();
    let (shard_script, merge_script) = jobs.write_scripts(&plan.task_args, &merge)?;
    let submitted = if plan.slurm.submit {
        Some(submit(&jobs, &shard_script, &merge_script)?)
    } else {
        None
    };
    Ok(Outcome::Written(Written {
        command: plan.command,
        name: plan.name.clone(),
        shards: plan.slurm.shards.get(),
        cpus_per_task: plan.slurm.cpus_per_task.get(),
        shard_script,
        merge_script,
        round,
        result: plan.result.clone(),
        submitted,
        out: plan.out,
    }))
}

impl Plan {
    /// Checks `request` in the order `c960 slurm` always has.
    fn new(request: Request) -> Result<Plan, SlurmError> {
        let Request {
            work,
            out,
            slurm,
            cwd,
            exe,
            argv,
        } = request;
        let Shape {
            command,
            dir_flag,
            done,
        } = work.shape(&slurm)?;
        let (adaptive, exits) = match work {
            Work::Selfplay(config) if config.options.adaptive.is_some() => (Some(config), None),
            Work::BookExits(exits) => (None, Some(exits)),
            _ => (None, None),
        };
        if slurm.next_round && adaptive.is_none() {
            return Err(SlurmError::Input(
                "--next-round is for adaptive self-play (c960 slurm selfplay with \
                 --target-halfwidth or --budget)"
                    .to_owned(),
            ));
        }
        let Some(out) = out else {
            return Err(SlurmError::Input(
                "c960 slurm needs --out DIR: the run directory every task shares".to_owned(),
            ));
        };
        within_max_shards(slurm.shards.get())?;
        check_slurm_values(&slurm)?;
        let out = cwd.join(out);
        let (task_args, book) = match &exits {
            Some(exits) => {
                let (task_args, book) = book::split(&argv, exits, &cwd);
                (task_args, Some(book))
            }
            None => (task_args(&argv, command), None),
        };
        check_all_text(&cwd, (dir_flag, &out), &exe, &task_args, book.as_ref())?;
        let result = match &book {
            Some(book) => book.result(&out, slurm.shards.get()),
            None => format!(
                "{}/{done} once the merge has run (it resubmits unfinished shards itself)",
                out.display()
            ),
        };
        Ok(Plan {
            command,
            dir_flag,
            done,
            name: job_name(&out),
            slurm,
            cwd,
            exe,
            out,
            result,
            task_args,
            book,
            adaptive,
        })
    }

    fn jobs(&self) -> Jobs<'_> {
        Jobs {
            exe: &self.exe,
            cwd: &self.cwd,
            out: &self.out,
            name: &self.name,
            slurm: &self.slurm,
            done: self.done,
            dir_flag: self.dir_flag,
        }
    }
}

/// Refuses a control character in anything that goes into the scripts:
/// the working directory, the run directory (named by `dir_flag`), the
/// executable's path, the tasks' arguments and the book's.
fn check_all_text(
    cwd: &Path,
    (dir_flag, out): (&str, &Path),
    exe: &Path,
    task_args: &[String],
    book: Option<&Book>,
) -> Result<(), SlurmError> {
    check_text("the working directory", &cwd.to_string_lossy())?;
    check_text(dir_flag, &out.to_string_lossy())?;
    check_text("the c960 executable's path", &exe.to_string_lossy())?;
    for arg in task_args.iter().chain(book.iter().flat_map(|b| &b.args)) {
        check_text("an argument", arg)?;
    }
    if let Some(book) = book.and_then(|b| b.out.as_ref()) {
        check_text("--out", &book.to_string_lossy())?;
    }
    Ok(())
}
