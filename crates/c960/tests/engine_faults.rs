//! Engine answers that must not become rows, and engines that must not run
//! away: a best move without a scored line, WDL that is not per mille,
//! engines that ignore their limit (the fake engine and Debian's Ethereal
//! 12), `--max-plies 0`, the built-in engine's watchdog and a huge hash.
//! Each test is named after its defect and fails without the fix.

use crate::util;

use std::{
    fs,
    path::Path,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use util::{Dir, fake_engine, run_command};

/// `c960 sweep` with the fake engine, told how to misbehave.
fn fake_sweep(dir: &Dir, mode: &str, args: &[&str]) -> util::Run {
    let engine = fake_engine();
    let mut all = vec![
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--out",
        "out",
        "--quiet",
        "--jobs",
        "1",
    ];
    all.extend_from_slice(args);
    let mut command = dir.command(&all);
    command.env("C960_FAKE_UCI", mode);
    run_command(command)
}

/// The journal's entries with `"status": "done"`.
fn done_entries(dir: &Dir) -> usize {
    fs::read_to_string(dir.file("out/journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"status\":\"done\""))
        .count()
}

fn assert_nothing_published(dir: &Dir) {
    for file in ["sweep.parquet", "sweep.csv", "manifest.json"] {
        assert!(!dir.file("out").join(file).exists(), "{file} was written");
    }
}

#[test]
fn a_bestmove_without_an_info_line_is_a_fault_not_a_row_of_depth_0() {
    let dir = Dir::new();
    let run = fake_sweep(
        &dir,
        "--no-info",
        &["--nodes", "100", "--positions", "5", "--retries", "0"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("sent bestmove without an info line with a score"),
        "{}",
        run.stderr
    );
    assert_eq!(done_entries(&dir), 0, "no row without depth or score");
}

#[test]
fn a_wdl_that_does_not_add_up_to_1000_is_refused() {
    let dir = Dir::new();
    let run = fake_sweep(
        &dir,
        "--bad-wdl",
        &["--nodes", "100", "--positions", "5", "--retries", "0"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("wdl 900 900 900 adds up to 2700, not 1000"),
        "{}",
        run.stderr
    );
    assert_eq!(done_entries(&dir), 0);
}

#[test]
fn an_engine_that_ignores_node_limits_is_refused_naming_the_limits_it_honours() {
    let dir = Dir::new();
    let run = fake_sweep(
        &dir,
        "--ignore-nodes",
        &["--nodes", "200000", "--positions", "0-3"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    for part in [
        "does not honour the limit `nodes 200000`",
        "stopped at depth 1 after 6 nodes",
        "at least 1/4 of its nodes",
        "honours `go depth` (use --depth N)",
    ] {
        assert!(run.stderr.contains(part), "{part}: {}", run.stderr);
    }
    assert_eq!(done_entries(&dir), 0);
    assert_nothing_published(&dir);
    // The same engine at a depth limit is fine.
    let run = fake_sweep(
        &Dir::new(),
        "--ignore-nodes",
        &["--depth", "7", "--positions", "0-3"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn an_engine_that_ignores_depth_limits_is_refused_naming_the_limits_it_honours() {
    let dir = Dir::new();
    let run = fake_sweep(
        &dir,
        "--ignore-depth",
        &["--depth", "9", "--positions", "7"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("stopped at depth 1 of 9"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("honours `go nodes` (use --nodes N)"),
        "{}",
        run.stderr
    );
    assert_nothing_published(&dir);
    let dir = Dir::new();
    let run = fake_sweep(
        &dir,
        "--ignore-depth --ignore-nodes",
        &["--depth", "9", "--positions", "7"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("honours neither node nor depth limits"),
        "{}",
        run.stderr
    );
}

/// Debian's Ethereal 12, which these tests need.
fn ethereal() -> &'static str {
    let path = "/usr/games/ethereal-chess";
    assert!(
        Path::new(path).is_file(),
        "Ethereal is not installed at {path}: install it with `apt-get install ethereal-chess`"
    );
    path
}

#[test]
fn ethereal_ignoring_go_nodes_is_refused_and_its_depth_limit_works() {
    let engine = ethereal();
    let dir = Dir::new();
    let run = run_command(dir.command(&[
        "sweep",
        "--engine",
        engine,
        "--nodes",
        "200000",
        "--positions",
        "518,0",
        "--out",
        "out",
        "--quiet",
    ]));
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not honour the limit `nodes 200000`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("honours `go depth` (use --depth N)"),
        "{}",
        run.stderr
    );
    assert_nothing_published(&dir);

    let run = run_command(dir.command(&[
        "sweep",
        "--engine",
        engine,
        "--depth",
        "6",
        "--positions",
        "518,0",
        "--out",
        "depth",
        "--quiet",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let csv = fs::read_to_string(dir.file("depth/sweep.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    for row in rows {
        // The columns `limit` and `depth`.
        assert!(row.contains(",depth 6,6,"), "{row}");
    }
}

#[test]
fn max_plies_0_is_bad_input() {
    let dir = Dir::new();
    let engine = fake_engine();
    let error = dir.bad_input(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--max-plies",
        "0",
        "--positions",
        "0",
    ]);
    assert!(
        error.contains("'--max-plies <N>': must be a whole number, at least 1"),
        "{error}"
    );
    fs::write(dir.file("run.toml"), "[selfplay]\nmax_plies = 0\n").unwrap();
    let error = dir.bad_input(&["run", "--config", "run.toml", "--dry-run"]);
    assert!(
        error.contains("expected a nonzero u32 (line 2: max_plies = 0)"),
        "{error}"
    );
    assert!(!dir.file("runs").exists());
}

/// Runs `command`, killing it if it is not done within `limit`.
fn run_within(mut command: Command, limit: Duration) -> (util::Run, Duration) {
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still running after {limit:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
    let elapsed = started.elapsed();
    let output = child.wait_with_output().unwrap();
    let run = util::Run {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code().unwrap(),
    };
    (run, elapsed)
}

#[test]
fn the_builtin_engine_obeys_the_watchdog() {
    let dir = Dir::new();
    let command = dir.command(&[
        "sweep",
        "--engine",
        "builtin",
        "--positions",
        "0",
        "--depth",
        "60",
        "--watchdog",
        "1",
        "--retries",
        "0",
        "--out",
        "out",
        "--quiet",
    ]);
    let (run, elapsed) = run_within(command, Duration::from_secs(30));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("did not answer within 1s"),
        "{}",
        run.stderr
    );
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

#[test]
fn a_huge_hash_is_bad_input_not_an_abort() {
    let dir = Dir::new();
    for engine in ["builtin", fake_engine().to_str().unwrap()] {
        let error = dir.bad_input(&[
            "sweep",
            "--engine",
            engine,
            "--hash",
            "1000000000",
            "--positions",
            "0",
            "--out",
            "out",
        ]);
        assert!(
            error.contains("--hash 1000000000 MiB")
                && error.contains("is more than this machine's memory"),
            "{error}"
        );
    }
    let error = dir.bad_input(&["sweep", "--engine", "builtin", "--hash", "0"]);
    assert!(
        error.contains("'--hash <MB>': must be a whole number, at least 1"),
        "{error}"
    );
    let error = dir.bad_input(&[
        "run",
        "--engine",
        "builtin",
        "--hash",
        "1000000000",
        "--dry-run",
    ]);
    assert!(error.contains("more than this machine's memory"), "{error}");
    assert!(!dir.file("out").exists());
}
