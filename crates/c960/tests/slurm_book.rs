//! `c960 slurm book-exits`: the expansion of an exit book as a Slurm array
//! (each task expands its shard without a window) and the merge job that
//! builds the book from the shards' journals once all finished. The
//! scripts are run as written (by bash, with a stand-in for sbatch) and on
//! the one-node cluster of slurm.rs; both give the unsharded book byte for
//! byte. Bad input is refused in one line.

use crate::{slurm, util};

use std::{fs, os::unix::fs::PermissionsExt as _, path::Path, process::Command};

use util::Dir;

/// The expansion: the built-in engine, 4 starts, 2 lines, 1 ply.
const EXPAND: [&str; 11] = [
    "--engine",
    "builtin",
    "--nodes",
    "2000",
    "--positions",
    "0-3",
    "--plies",
    "1",
    "--multipv",
    "2",
    "--quiet",
];

/// The book: a wide window, one exit a start, a seed.
const WINDOW: [&str; 5] = ["--cp=-400..400", "--per-start", "1", "--seed", "5"];

/// `c960 slurm book-exits` with the expansion, the window and `extra`.
fn slurm_book<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["slurm", "book-exits"];
    args.extend(EXPAND);
    args.extend(WINDOW);
    args.extend_from_slice(extra);
    args
}

/// The book of the unsharded `c960 book exits` with the same flags.
fn whole_book(dir: &Dir) -> Vec<u8> {
    let mut args = vec!["book", "exits"];
    args.extend(EXPAND);
    args.extend(WINDOW);
    args.extend(["--run", "whole", "--out", "whole.epd"]);
    dir.ok(&args);
    fs::read(dir.file("whole.epd")).unwrap()
}

fn bash(script: &Path, cwd: &Path, env: &[(&str, &str)]) -> util::Run {
    let mut command = Command::new("bash");
    command.arg(script).current_dir(cwd);
    for (key, value) in env {
        command.env(key, value);
    }
    util::run_command(command)
}

/// A directory with a stand-in for sbatch that logs what it is given to
/// `submitted`; returns the `PATH` that finds it first.
fn fake_sbatch(dir: &Dir) -> String {
    let bin = dir.file("bin");
    fs::create_dir(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    fs::write(
        &sbatch,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\necho 42\n",
            dir.file("submitted").display()
        ),
    )
    .unwrap();
    fs::set_permissions(&sbatch, fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

#[test]
fn slurm_book_exits_tasks_expand_and_the_merge_builds_the_unsharded_book() {
    let dir = Dir::new();
    let out = dir.ok(&slurm_book(&[
        "--run", "runs/x", "--out", "b.epd", "--shards", "2", "--jobs", "3",
    ]));
    assert!(
        out.contains("array 0-1: c960 book exits --shard I/2"),
        "{out}"
    );
    let root = dir.path().canonicalize().unwrap();
    let shard = fs::read_to_string(dir.file("runs/x/slurm/shard.sbatch")).unwrap();
    for line in [
        " book exits --engine builtin --nodes 2000 --positions 0-3 --plies 1 --multipv 2 \
         --shard \"$shard/2\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --quiet",
        &format!("--run {}/runs/x/shards/\"$shard\"", root.display()),
    ] {
        assert!(shard.contains(line), "no {line:?} in\n{shard}");
    }
    // Tasks only expand: no book, no window, not the user's run directory.
    for flag in [
        "--out ",
        "--cp=",
        "-400..400",
        "--per-start",
        "--seed",
        "--run runs/x",
    ] {
        assert!(!shard.contains(flag), "{flag} in\n{shard}");
    }
    let merge = fs::read_to_string(dir.file("runs/x/slurm/merge.sbatch")).unwrap();
    for line in [
        "[ -e \"$out/slurm/finished/$i\" ] && [ -e \"$out/shards/$i/journal.jsonl\" ]",
        "sbatch --parsable --array=\"$list\"",
        &format!(
            " book exits --from \"${{shards[@]}}\" --positions 0-3 --cp=-400..400 --per-start 1 \
             --seed 5 --out {}/b.epd\n",
            root.display()
        ),
    ] {
        assert!(merge.contains(line), "no {line:?} in\n{merge}");
    }

    // The scripts as written: shard 0 alone is not enough for the merge job,
    // which resubmits shard 1; once it finished, the book is the whole run's.
    let script = dir.file("runs/x/slurm/shard.sbatch");
    let task = |i| bash(&script, dir.path(), &[("SLURM_ARRAY_TASK_ID", i)]);
    let task_0 = task("0");
    assert_eq!(task_0.code, 0, "{}", task_0.stderr);
    let path = fake_sbatch(&dir);
    let merge_script = dir.file("runs/x/slurm/merge.sbatch");
    let merged = bash(&merge_script, dir.path(), &[("PATH", &path)]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let submitted = fs::read_to_string(dir.file("submitted")).unwrap();
    assert!(submitted.contains("--array=1 "), "{submitted}");
    assert!(!dir.file("b.epd").exists(), "a book from one shard");
    let task_1 = task("1");
    assert_eq!(task_1.code, 0, "{}", task_1.stderr);
    let merged = bash(&merge_script, dir.path(), &[("PATH", &path)]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(fs::read(dir.file("b.epd")).unwrap(), whole_book(&dir));
}

#[test]
fn slurm_book_exits_without_a_book_only_checks_the_shards() {
    let dir = Dir::new();
    dir.ok(&[
        "slurm",
        "book-exits",
        "--engine",
        "builtin",
        "--variant",
        "dfrc",
        "--positions",
        "all",
        "--run",
        "dfrc",
        "--shards",
        "96",
        "--cpus-per-task",
        "8",
    ]);
    let shard = fs::read_to_string(dir.file("dfrc/slurm/shard.sbatch")).unwrap();
    assert!(shard.contains("#SBATCH --array=0-95"), "{shard}");
    assert!(shard.contains("#SBATCH --cpus-per-task=8"), "{shard}");
    assert!(
        shard.contains(" book exits --engine builtin --variant dfrc --positions all --shard"),
        "{shard}"
    );
    let merge = fs::read_to_string(dir.file("dfrc/slurm/merge.sbatch")).unwrap();
    assert!(!merge.contains("--from \"${shards[@]}\""), "{merge}");
    assert!(
        merge.contains("make a book with: c960 book exits --from $out/shards/*"),
        "{merge}"
    );
}

#[test]
fn slurm_book_exits_refuses_bad_input_in_one_line() {
    let dir = Dir::new();
    let line = dir.bad_input(&slurm_book(&["--out", "b.epd", "--shards", "2"]));
    assert!(line.contains("needs --run DIR"), "{line}");
    let line = dir.bad_input(&slurm_book(&[
        "--run", "r", "--out", "b.epd", "--shards", "2", "--shard", "0/2",
    ]));
    assert!(line.contains("gives each task its --shard"), "{line}");
    let line = dir.bad_input(&[
        "slurm",
        "book-exits",
        "--from",
        "r0",
        "r1",
        "--cp",
        "0..50",
        "--out",
        "b.epd",
        "--shards",
        "2",
    ]);
    assert!(line.contains("leave out --from"), "{line}");
    let line = dir.bad_input(&slurm_book(&[
        "--run", "r", "--out", "b.epd", "--shards", "5",
    ]));
    assert!(
        line.contains("--shards 5 is more than the run's 4 starts"),
        "{line}"
    );
    let line = dir.bad_input(&[
        "slurm",
        "book-exits",
        "--cp",
        "0..50",
        "--run",
        "r",
        "--shards",
        "2",
    ]);
    assert!(line.contains("needs --out FILE"), "{line}");
    // A draw-rate window of an engine without a WDL model is refused
    // before any job is written, not by the merge job.
    let line = dir.bad_input(&[
        "slurm",
        "book-exits",
        "--engine",
        "builtin",
        "--draw-rate",
        "48..52",
        "--run",
        "r",
        "--out",
        "b.epd",
        "--shards",
        "2",
    ]);
    assert!(
        line.contains("--draw-rate needs the engine's WDL model"),
        "{line}"
    );
    assert!(!dir.file("r").exists(), "written before the refusal");
    // Trees beyond the bounds, before any job is written.
    for (multipv, plies, said) in [
        ("1", "1000", "--plies 1000 is out of range 1..=12"),
        ("6", "7", "searches a start, more than 10000"),
    ] {
        let line = dir.bad_input(&[
            "slurm",
            "book-exits",
            "--engine",
            "builtin",
            "--multipv",
            multipv,
            "--plies",
            plies,
            "--cp",
            "0..50",
            "--run",
            "r",
            "--out",
            "b.epd",
            "--shards",
            "2",
        ]);
        assert!(line.contains(said), "{line}");
        assert!(!dir.file("r").exists(), "written before the refusal");
    }
}

/// On the one-node cluster: the array and the merge job, submitted and
/// waited for, write the unsharded book byte for byte.
#[test]
fn slurm_book_exits_on_slurm_equals_the_unsharded_book() {
    let _cluster = slurm::CLUSTER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let conf = slurm::cluster();
    let dir = Dir::new();
    let out = slurm::submitted(
        &dir,
        &conf,
        &slurm_book(&["--run", "x", "--out", "b.epd", "--shards", "2", "--submit"]),
    );
    assert!(out.contains("b.epd once the merge has run"), "{out}");
    slurm::wait_for(&conf, &dir.file("b.epd"), &dir.file("x/slurm/logs"), 180);
    assert_eq!(fs::read(dir.file("b.epd")).unwrap(), whole_book(&dir));
}
