//! `c960 slurm`: a sharded sweep, self-play, run or exit-book expansion
//! as a Slurm array job (one shard per task) and a merge job after it.
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
//! `checks.rs` refuses what cannot be sharded or written into a script,
//! `plan.rs` turns a request into the plan of the two jobs, `scripts.rs`
//! writes the two batch scripts (`book.rs` the exit book's merge) and
//! `jobs.rs` submits them with `sbatch`, logs the job ids and runs the
//! rounds of adaptive self-play.

mod book;
mod checks;
mod jobs;
mod plan;
mod quote;
mod scripts;

use std::{num::NonZeroU32, path::PathBuf};

use c960_selfplay::{Round, SelfplayConfig, SelfplayError, SelfplayOutcome};

pub use checks::{book_run, check_run, check_selfplay, no_shard};
pub use plan::slurm;
pub use quote::shell_quote;

/// How many times the merge job resubmits unfinished shards before it
/// gives up.
pub const ATTEMPTS: u32 = 3;

/// The most shards `c960 slurm` writes an array for.
pub const MAX_SHARDS: u32 = 10_000;

/// How the work is cut and scheduled.
#[derive(Debug, Clone)]
pub struct SlurmOptions {
    /// Array tasks, one shard each.
    pub shards: NonZeroU32,
    /// The Slurm partition (the cluster's default without one).
    pub partition: Option<String>,
    /// The time limit per task, as sbatch takes it.
    pub time: Option<String>,
    /// CPUs per task: the task's `--jobs`.
    pub cpus_per_task: NonZeroU32,
    /// Submit with sbatch (otherwise only write the scripts).
    pub submit: bool,
    /// Adaptive self-play: merge the round the shards played and decide
    /// the next.
    pub next_round: bool,
}

/// The c960 command each task runs, checked, with its work counted.
#[derive(Debug)]
pub enum Work {
    /// `c960 sweep`, of this many searches.
    Sweep {
        /// The searches the sweep makes.
        searches: u64,
    },
    /// `c960 selfplay` with these settings.
    Selfplay(Box<SelfplayConfig>),
    /// `c960 run`.
    Run,
    /// The expansion of `c960 book exits`.
    BookExits(BookExits),
}

/// The expansion of an exit book, as `c960 slurm book-exits` shards it.
#[derive(Debug, Clone)]
pub struct BookExits {
    /// `--positions`, as given.
    pub positions: String,
    /// How many starts they are.
    pub starts: u64,
    /// The book file `--out` (relative to the working directory).
    pub out: Option<PathBuf>,
    /// Whether a window (`--cp` or `--draw-rate`) chooses a book.
    pub window: bool,
}

/// A `c960 slurm` command: the work, the run directory and where c960
/// runs from.
#[derive(Debug)]
pub struct Request {
    /// What each task runs.
    pub work: Work,
    /// The run directory every task shares (relative to `cwd`).
    pub out: Option<PathBuf>,
    /// How the work is cut and scheduled.
    pub slurm: SlurmOptions,
    /// The working directory the jobs run in.
    pub cwd: PathBuf,
    /// The c960 executable the jobs run.
    pub exe: PathBuf,
    /// The command line as given (`c960 slurm selfplay ...`): the tasks
    /// run it without the flags of `c960 slurm`.
    pub argv: Vec<String>,
}

/// What `c960 slurm` did.
#[derive(Debug)]
pub enum Outcome {
    /// The two scripts written, and submitted with `--submit`.
    Written(Written),
    /// `--next-round`: what the merge of a round of adaptive self-play
    /// decided.
    Round(Box<RoundDone>),
}

/// The two scripts of a sharded run.
#[derive(Debug)]
pub struct Written {
    /// The c960 command each task runs (`sweep`, `book exits`).
    pub command: &'static str,
    /// The run directory (absolute).
    pub out: PathBuf,
    /// The jobs' name.
    pub name: String,
    /// Array tasks.
    pub shards: u32,
    /// CPUs per task.
    pub cpus_per_task: u32,
    /// `DIR/slurm/shard.sbatch`.
    pub shard_script: PathBuf,
    /// `DIR/slurm/merge.sbatch`.
    pub merge_script: PathBuf,
    /// For adaptive self-play, the round the shards play.
    pub round: Option<u32>,
    /// What the merge job leaves, in words.
    pub result: String,
    /// The jobs, when submitted.
    pub submitted: Option<Submitted>,
}

/// The job ids of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    /// The array of shards.
    pub array: String,
    /// The merge job after it.
    pub merge: String,
}

/// The merge of a round of adaptive self-play, with what the run is.
#[derive(Debug)]
pub struct RoundDone {
    /// The run directory.
    pub out: PathBuf,
    /// The jobs' name.
    pub name: String,
    /// Array tasks.
    pub shards: u32,
    /// What was decided.
    pub step: RoundDecision,
}

/// What the merge of a round decided.
#[derive(Debug)]
pub enum RoundDecision {
    /// Shards had not played the round: resubmitted, with the merge.
    Resubmitted {
        /// The round.
        round: u32,
        /// The shards resubmitted, comma-separated.
        list: String,
        /// Their jobs.
        jobs: Submitted,
    },
    /// The next round, decided; submitted with `--submit`.
    Next {
        /// The round decided.
        round: Round,
        /// Its jobs, when submitted.
        jobs: Option<Submitted>,
    },
    /// The rule stopped: the final tables are written.
    Finished(Box<SelfplayOutcome>),
}

/// Why `c960 slurm` refused or failed.
#[derive(Debug)]
pub enum SlurmError {
    /// A command, a flag or a path that cannot be sharded or written into
    /// a batch script, said in one line.
    Input(String),
    /// Shards that have not played a round (without `--submit`), or did
    /// not finish it after [`ATTEMPTS`] attempts.
    Unfinished(String),
    /// sbatch could not be run or refused the job.
    Sbatch(String),
    /// A directory of the run (`path`) that could not be created.
    Create {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A script or the job log that could not be written.
    Io(std::io::Error),
    /// Adaptive self-play refused its journal of rounds.
    Rounds(Box<SelfplayError>),
    /// The merge of a round of the run directory `out` failed.
    NextRound {
        /// The run directory.
        out: PathBuf,
        /// Why.
        source: Box<SelfplayError>,
    },
}

impl std::fmt::Display for SlurmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SlurmError::Input(m) | SlurmError::Unfinished(m) | SlurmError::Sbatch(m) => {
                f.write_str(m)
            }
            SlurmError::Create { path, .. } => write!(f, "cannot create {}", path.display()),
            SlurmError::Io(e) => e.fmt(f),
            SlurmError::Rounds(e) => e.fmt(f),
            SlurmError::NextRound { out, .. } => write!(f, "next round of {}", out.display()),
        }
    }
}

impl std::error::Error for SlurmError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SlurmError::Create { source, .. } | SlurmError::Io(source) => Some(source),
            SlurmError::Rounds(e) | SlurmError::NextRound { source: e, .. } => Some(&**e),
            SlurmError::Input(_) | SlurmError::Unfinished(_) | SlurmError::Sbatch(_) => None,
        }
    }
}

impl From<std::io::Error> for SlurmError {
    fn from(e: std::io::Error) -> SlurmError {
        SlurmError::Io(e)
    }
}

impl From<SelfplayError> for SlurmError {
    fn from(e: SelfplayError) -> SlurmError {
        SlurmError::Rounds(Box::new(e))
    }
}

impl SlurmError {
    /// Whether the error is the input's (a refused command, flag or path).
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(self, SlurmError::Input(_))
    }
}

#[cfg(test)]
mod tests;
