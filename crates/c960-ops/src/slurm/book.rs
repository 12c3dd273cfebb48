//! `c960 slurm book-exits`: the expansion of an exit book as an array job
//! and the book made from it.
//!
//! Each task expands its shard of the starts (`c960 book exits --shard
//! I/N --run DIR/shards/I`), without a window: a task only expands. Its
//! journal is finished when its command succeeds (an interrupted or failed
//! expansion exits 1 and the merge job resubmits the task, which resumes
//! from the journal). Once every shard finished, the merge job builds the
//! book from their journals (`c960 book exits --from DIR/shards/0 ...
//! --out BOOK` with the window, quota and seed), exactly the book the
//! unsharded command writes; without a window and `--out` it only checks
//! the shards and says how to make a book from them.

use std::path::{Path, PathBuf};

use super::{BookExits, checks::task_args, quote::shell_quote};

/// The flags that choose the book from the expansion (all with a value):
/// the merge job's, left out of the tasks' command.
const BOOK_FLAGS: [&str; 7] = [
    "--cp",
    "--draw-rate",
    "--count",
    "--per-start",
    "--seed",
    "--shuffle",
    "--draw-model",
];
/// The book's flags that take no value.
const BOOK_SWITCHES: [&str; 1] = ["--sidecar"];

/// What the merge job of an exit book runs after the shards.
pub(super) struct Book {
    /// The book file (absolute), `None` when no book is asked for.
    pub(super) out: Option<PathBuf>,
    /// `--positions` and the flags of [`BOOK_FLAGS`] as given.
    pub(super) args: Vec<String>,
}

/// The tasks' arguments (`book exits` and the expansion's flags, without
/// the run directory and the book's flags) and what the merge job needs.
pub(super) fn split(argv: &[String], exits: &BookExits, cwd: &Path) -> (Vec<String>, Book) {
    let mut rest = task_args(argv, "book-exits").into_iter().skip(1);
    let mut tasks = vec!["book".to_owned(), "exits".to_owned()];
    let mut book = vec!["--positions".to_owned(), exits.positions.clone()];
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, _)) if flag.starts_with("--") => (flag, true),
            _ => (arg.as_str(), false),
        };
        if BOOK_SWITCHES.contains(&flag) {
            book.push(arg);
            continue;
        }
        let to_book = BOOK_FLAGS.contains(&flag);
        if !to_book && flag != "--run" {
            tasks.push(arg);
            continue;
        }
        let value = if inline { None } else { rest.next() };
        if to_book {
            // The merge job runs elsewhere: a file it reads is named whole.
            let value = value.map(|v| {
                if flag == "--draw-model" {
                    cwd.join(v).to_string_lossy().into_owned()
                } else {
                    v
                }
            });
            book.push(arg);
            book.extend(value);
        }
    }
    let out = exits
        .out
        .as_ref()
        .filter(|_| exits.window)
        .map(|out| cwd.join(out));
    (tasks, Book { out, args: book })
}

impl Book {
    /// The end of the merge script, after every shard was found finished:
    /// `c960 book exits --from` the shards with the book's flags, or a
    /// note on how to make a book from them.
    pub(super) fn merge_tail(&self, exe: &str, last: u32) -> String {
        let shards =
            format!("shards=()\nfor i in $(seq 0 {last}); do shards+=(\"$out/shards/$i\"); done\n");
        match &self.out {
            Some(out) => {
                let flags: Vec<String> = self.args.iter().map(|a| shell_quote(a)).collect();
                format!(
                    "{shards}exec {exe} book exits --from \"${{shards[@]}}\" {} --out {}\n",
                    flags.join(" "),
                    shell_quote(&out.to_string_lossy())
                )
            }
            None => format!(
                "echo \"c960: every shard expanded, journals in $out/shards/0..{last}; make a \
                 book with: c960 book exits --from $out/shards/* --cp LOW..HIGH --out FILE\"\n"
            ),
        }
    }

    /// What the merge job leaves, for the summary.
    pub(super) fn result(&self, run: &Path, shards: u32) -> String {
        match &self.out {
            Some(out) => format!(
                "{} once the merge has run (it resubmits unfinished shards itself)",
                out.display()
            ),
            None => format!(
                "the journals of {}/shards/0..{}, checked by the merge job (it resubmits \
                 unfinished shards itself); make a book with c960 book exits --from {}/shards/* \
                 --cp LOW..HIGH --out FILE",
                run.display(),
                shards - 1,
                run.display()
            ),
        }
    }
}
