//! What `c960 slurm` refuses before anything is written: commands that
//! cannot be sharded, more shards than work, partition and time values
//! Slurm would not read, and text no batch script can hold; and the
//! task's command line, the jobs' name.

use std::path::{Path, PathBuf};

use super::{MAX_SHARDS, SlurmError, SlurmOptions};

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

fn refuse<T>(message: impl Into<String>) -> Result<T, SlurmError> {
    Err(SlurmError::Input(message.into()))
}

/// Refuses a `--shard` given to `c960 slurm`.
///
/// # Errors
///
/// When `given`.
pub fn no_shard(given: bool) -> Result<(), SlurmError> {
    if given {
        return refuse("c960 slurm gives each task its --shard; use --shards N");
    }
    Ok(())
}

/// Refuses self-play that needs the whole match in one run (`whole_match`:
/// `--sprt` or `--openings`) and a `--rounds-from` given.
///
/// # Errors
///
/// When either is given.
pub fn check_selfplay(whole_match: bool, rounds_from: bool) -> Result<(), SlurmError> {
    if whole_match {
        return refuse(
            "--sprt and --openings need the whole match in one run: run them without c960 slurm",
        );
    }
    if rounds_from {
        return refuse("c960 slurm gives each task its --rounds-from");
    }
    Ok(())
}

/// Refuses a `c960 run` that plays adaptive self-play.
///
/// # Errors
///
/// When `adaptive_selfplay`.
pub fn check_run(adaptive_selfplay: bool) -> Result<(), SlurmError> {
    if adaptive_selfplay {
        return refuse(
            "this c960 run plays adaptive self-play, whose rounds need every position's games: \
             on Slurm, run its sweep with c960 slurm sweep and its self-play with c960 slurm \
             selfplay --target-halfwidth W --budget GAMES",
        );
    }
    Ok(())
}

/// The run directory of `c960 slurm book-exits` (`--run`), refusing a
/// `--shard` and `--from` (`from_given`).
///
/// # Errors
///
/// A `--shard`, `--from` or no `--run`.
pub fn book_run(
    shard_given: bool,
    from_given: bool,
    run: Option<&Path>,
) -> Result<PathBuf, SlurmError> {
    no_shard(shard_given)?;
    if from_given {
        return refuse(
            "c960 slurm book-exits builds the book from its shards' journals itself: leave out \
             --from (c960 book exits --from DIR/shards/* makes another book from them)",
        );
    }
    match run {
        Some(run) => Ok(run.to_owned()),
        None => refuse(
            "c960 slurm book-exits needs --run DIR: the run directory every task shares (each \
             shard's journal goes to DIR/shards/I)",
        ),
    }
}

/// Refuses more shards than work units: a shard without work would write
/// an empty table.
pub(super) fn at_most_one_shard_a_unit(
    shards: u32,
    units: u64,
    (one, many): (&str, &str),
) -> Result<(), SlurmError> {
    within_max_shards(shards)?;
    if u64::from(shards) > units {
        return refuse(format!(
            "--shards {shards} is more than the run's {}: use at most {units}",
            c960_core::plural(units, one, many)
        ));
    }
    Ok(())
}

/// Refuses more than [`MAX_SHARDS`] shards.
pub(super) fn within_max_shards(shards: u32) -> Result<(), SlurmError> {
    if shards > MAX_SHARDS {
        return refuse(format!(
            "--shards {shards} is out of range 1..={MAX_SHARDS} (a Slurm array holds at most \
             MaxArraySize tasks, 1001 by default)"
        ));
    }
    Ok(())
}

/// Refuses `text` (named `what`) when it holds a control character: it
/// goes into a batch script, where a newline would start a command of its
/// own in a comment line (`#SBATCH`) that no quoting protects.
pub(super) fn check_text(what: &str, text: &str) -> Result<(), SlurmError> {
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return refuse(format!(
            "{what} {text:?} holds the control character {c:?}, which c960 slurm does not \
             write into a batch script"
        ));
    }
    Ok(())
}

/// `--partition` and `--time` as Slurm spells them: a partition list of
/// names (letters, digits, `_ . -`, comma-separated) and a time of digits
/// with `-` and `:` (or `UNLIMITED`).
pub(super) fn check_slurm_values(slurm: &SlurmOptions) -> Result<(), SlurmError> {
    if let Some(p) = &slurm.partition
        && (p.is_empty()
            || !p
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-,".contains(c)))
    {
        return refuse(format!(
            "--partition {p:?} is not a Slurm partition list (names of letters, digits, _ . -, \
             separated by commas)"
        ));
    }
    if let Some(t) = &slurm.time
        && !(["UNLIMITED", "INFINITE"].contains(&t.to_ascii_uppercase().as_str())
            || (!t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_digit() || c == ':' || c == '-')))
    {
        return refuse(format!(
            "--time {t:?} is not a Slurm time limit (MINUTES, HH:MM:SS, D-HH:MM:SS or UNLIMITED)"
        ));
    }
    Ok(())
}

/// The jobs' name: `c960-` and the run directory's name, with anything
/// but letters, digits and `_ . -` as `_` (it goes unquoted into `#SBATCH`
/// lines and the `squeue --name` c960 prints).
pub(super) fn job_name(out: &Path) -> String {
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

/// The task's c960 arguments: everything after `slurm` but the flags of
/// `c960 slurm` and those each task sets itself.
pub(super) fn task_args(argv: &[String], command: &str) -> Vec<String> {
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
