//! `c960 run --help`'s text after the flags: where settings come from, the
//! config file's keys with the quick profile's values (written from the
//! plan itself, so help and `--dry-run` agree), raters and examples.

use std::fmt::Write as _;

use c960_ops::run::{PlanRecord, Profile};

/// What follows `c960 run --help`'s flags: where settings come from, and a
/// config file with every key, written from the quick profile's own
/// settings (so the values shown are the defaults the code uses), then
/// raters and examples.
pub(crate) fn run_after_help() -> String {
    let plan = Profile::Quick.plan();
    // Through a table, so that keys are listed alphabetically.
    let toml = toml::Table::try_from(PlanRecord::from(plan))
        .and_then(|table| toml::to_string(&table))
        .unwrap_or_default();
    let comments = [
        ("profile", "quick or research"),
        ("out", "default runs/PROFILE"),
        (
            "engine",
            "auto, builtin, stockfish, ethereal, stockfish-npm[@VERSION], \
             stockfish-npm-lite[@VERSION], or a command",
        ),
        ("options", "UCI options, NAME=VALUE"),
        ("positions", "or e.g. \"0-99,518\""),
        ("repeats", "searches per position"),
        ("games", "per position; 0 = no self-play"),
        (
            "target_halfwidth",
            "adaptive rounds until every interval is this narrow (0 = off)",
        ),
        ("budget", "adaptive: total games (0 = no cap)"),
    ];
    let mut config = String::new();
    for line in toml.lines() {
        if line.is_empty() {
            continue;
        }
        let key = line.split(" = ").next().unwrap_or_default();
        let _ = match comments.iter().find(|(k, _)| *k == key) {
            Some((_, comment)) => writeln!(config, "  {line}    # {comment}"),
            None => writeln!(config, "  {line}"),
        };
        if key == "hash" {
            config.push_str("  jobs = 2    # default: the number of cores\n");
        }
    }
    format!(
        "Settings come from the profile, then the --config file, then flags. The run directory \
         (default runs/PROFILE) gets positions.csv, sweep/ (or raters/NAME/), selfplay/, report/ \
         (index.html, positions.parquet, charts) and run.json (the resolved settings, engine and \
         time per stage). Stop it at any time: the same command resumes, and finished stages are \
         reused.\n\n\
         A config file sets any of these keys (all optional; the values shown are the quick \
         profile's):\n{config}\n\
         Instead of [sweep], raters (each profile has its own design): each an engine with its \
         own search, into raters/NAME/, combined into one consensus:\n  \
         [[raters]]\n  \
         name = \"sf19-4m\"\n  \
         engine = \"stockfish-npm\"\n  \
         nodes = 4000000\n  \
         multipv = 1    # optional, as hash and repeats\n  \
         [[raters]]\n  \
         name = \"sf-1m-hash64\"\n  \
         engine = \"stockfish\"\n  \
         nodes = 1000000\n  \
         hash = 64\n\n\
         Examples:\n  \
         c960 run                                   # quick profile\n  \
         c960 run --profile research                # hours; resumable\n  \
         c960 run --config run.toml --games 0       # no self-play\n  \
         c960 run --positions 0-99,518 --sweep-nodes 300000 --out runs/first100"
    )
}
