//! `c960 sweep` end to end: the fake engine for faults, kills and resumes;
//! real Stockfish for sane, reproducible rows.

use crate::util;

use std::{
    collections::BTreeSet,
    fs,
    path::Path,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use polars::prelude::*;
use util::{Dir, fake_engine, run_command};

fn fake_sweep(dir: &Dir, out: &str, extra: &[&str]) -> Command {
    fake_sweep_with(dir, out, "10", true, extra)
}

/// `c960 sweep` with the fake engine at `--nodes NODES` into `out`.
fn fake_sweep_with(dir: &Dir, out: &str, nodes: &str, quiet: bool, extra: &[&str]) -> Command {
    let engine = fake_engine();
    let mut args = vec![
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        nodes,
        "--out",
        out,
    ];
    if quiet {
        args.push("--quiet");
    }
    args.extend_from_slice(extra);
    dir.command(&args)
}

fn csv_rows(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_owned)
        .collect()
}

/// SPs in a sweep journal, with repeats.
fn journal_sps(path: &Path) -> Vec<u64> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["sp"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

#[test]
fn a_sweep_writes_table_manifest_and_parquet_metadata() {
    let dir = Dir::new();
    let run = run_command(fake_sweep(
        &dir,
        "out",
        &["--positions", "0-9,518", "--multipv", "2", "--jobs", "2"],
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = csv_rows(&dir.file("out/sweep.csv"));
    assert_eq!(rows.len(), 12);
    assert!(rows[0].starts_with("sp,placement,engine,engine_options,limit,depth"));
    assert!(rows[0].ends_with("move2_uci,move2_san,move2_cp,move2_mate"));
    assert!(rows[11].starts_with("518,RNBQKBNR,c960-fake-uci,"));

    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("out/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["kind"], "sweep");
    assert_eq!(manifest["engine"]["name"], "c960-fake-uci");
    assert_eq!(manifest["limit"], "nodes 10");
    assert_eq!(manifest["positions"], "0-9,518");
    assert_eq!(manifest["rows"], 11);
    assert_eq!(manifest["c960_version"], env!("CARGO_PKG_VERSION"));

    let mut reader = ParquetReader::new(fs::File::open(dir.file("out/sweep.parquet")).unwrap());
    let metadata = reader.get_metadata().unwrap().clone();
    let kv = metadata.key_value_metadata().as_ref().unwrap();
    let stored = kv
        .iter()
        .find(|k| k.key == "c960.manifest")
        .and_then(|k| k.value.clone())
        .expect("the manifest is in the Parquet metadata");
    let stored: serde_json::Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(stored, manifest);
    let frame = reader.finish().unwrap();
    assert_eq!(frame.height(), 11);
    assert_eq!(
        frame.column("sp").unwrap().u32().unwrap().get(10),
        Some(518)
    );
}

#[test]
fn a_finished_sweep_is_not_searched_again() {
    let dir = Dir::new();
    let first = run_command(fake_sweep(&dir, "out", &["--positions", "0-4"]));
    assert_eq!(first.code, 0, "{}", first.stderr);
    let before = fs::read(dir.file("out/sweep.csv")).unwrap();
    let again = run_command(fake_sweep_with(
        &dir,
        "out",
        "10",
        false,
        &["--positions", "0-4"],
    ));
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stdout
            .starts_with("5 positions evaluated (5 from the journal)"),
        "{}",
        again.stdout
    );
    assert_eq!(fs::read(dir.file("out/sweep.csv")).unwrap(), before);
    assert_eq!(journal_sps(&dir.file("out/journal.jsonl")).len(), 5);
}

#[test]
fn a_journal_from_other_settings_is_refused() {
    let dir = Dir::new();
    assert_eq!(
        run_command(fake_sweep(&dir, "out", &["--positions", "0-2"])).code,
        0
    );
    let run = run_command(fake_sweep_with(
        &dir,
        "out",
        "11",
        true,
        &["--positions", "0-2"],
    ));
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(r#"limit: "nodes 10" there, "nodes 11" now"#),
        "{}",
        run.stderr
    );
    assert_eq!(journal_sps(&dir.file("out/journal.jsonl")).len(), 3);
}

#[test]
fn a_sweep_killed_at_any_moment_resumes_to_the_same_table() {
    let dir = Dir::new();
    // Reference: one uninterrupted run.
    let reference = run_command(fake_sweep(
        &dir,
        "whole",
        &["--positions", "0-119", "--jobs", "2"],
    ));
    assert_eq!(reference.code, 0, "{}", reference.stderr);
    let expected = csv_rows(&dir.file("whole/sweep.csv"));

    // The same sweep, slowed down and killed (SIGKILL) several times.
    for kill_after_ms in [150, 300, 450] {
        let mut command = fake_sweep(&dir, "killed", &["--positions", "0-119", "--jobs", "2"]);
        command
            .env("C960_FAKE_UCI", "--slow 30")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        thread::sleep(Duration::from_millis(kill_after_ms));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            !dir.file("killed/sweep.csv").exists(),
            "killed before the end"
        );
    }
    let partial = journal_sps(&dir.file("killed/journal.jsonl"));
    assert!(
        !partial.is_empty() && partial.len() < 120,
        "{} done",
        partial.len()
    );

    let resumed = run_command(fake_sweep(
        &dir,
        "killed",
        &["--positions", "0-119", "--jobs", "2"],
    ));
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(csv_rows(&dir.file("killed/sweep.csv")), expected);
    let sps = journal_sps(&dir.file("killed/journal.jsonl"));
    let distinct: BTreeSet<u64> = sps.iter().copied().collect();
    assert_eq!(sps.len(), 120, "no position evaluated twice");
    assert_eq!(distinct.len(), 120);
}

#[test]
fn ctrl_c_stops_cleanly_and_says_how_to_resume() {
    let dir = Dir::new();
    let mut command = fake_sweep(&dir, "out", &["--positions", "0-199", "--jobs", "1"]);
    command
        .env("C960_FAKE_UCI", "--slow 20")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command.spawn().unwrap();
    thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "stops promptly");
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("run the same command again to resume"),
        "{stderr}"
    );
    let done = journal_sps(&dir.file("out/journal.jsonl")).len();
    assert!(done > 0 && done < 200, "{done}");
    let finish = run_command(fake_sweep(&dir, "out", &["--positions", "0-199"]));
    assert_eq!(finish.code, 0, "{}", finish.stderr);
    assert_eq!(csv_rows(&dir.file("out/sweep.csv")).len(), 201);
}

#[test]
fn crashing_engines_fail_positions_with_the_reason_and_the_sweep_goes_on() {
    let dir = Dir::new();
    let mut command = fake_sweep(&dir, "out", &["--positions", "0-3", "--retries", "1"]);
    command.env("C960_FAKE_UCI", "--crash");
    let run = run_command(command);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("4 positions failed"), "{}", run.stderr);
    assert!(run.stderr.contains("asked to crash"), "{}", run.stderr);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("out/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["failed"].as_array().unwrap().len(), 4);
    assert_eq!(manifest["failed"][0]["attempts"], 2);
    // Failed positions are tried again by the next run.
    let retry = run_command(fake_sweep(
        &dir,
        "out",
        &["--positions", "0-3", "--retries", "1"],
    ));
    assert_eq!(retry.code, 0, "{}", retry.stderr);
    assert_eq!(csv_rows(&dir.file("out/sweep.csv")).len(), 5);
}

#[test]
fn hanging_and_cheating_engines_are_recorded_as_failures() {
    for (mode, reason) in [
        ("--hang", "did not answer"),
        ("--illegal", "not legal"),
        ("--garbage", "zz99"),
    ] {
        let dir = Dir::new();
        let mut command = fake_sweep(
            &dir,
            "out",
            &["--positions", "5", "--retries", "0", "--watchdog", "0.3"],
        );
        command.env("C960_FAKE_UCI", mode);
        let run = run_command(command);
        assert_eq!(run.code, 1, "{mode}: {}", run.stderr);
        assert!(run.stderr.contains(reason), "{mode}: {}", run.stderr);
    }
}

#[test]
fn unusable_engines_and_bad_flags_are_one_line_errors() {
    let dir = Dir::new();
    let missing = dir.bad_input(&[
        "sweep",
        "--engine",
        "/nonexistent/engine",
        "--positions",
        "1",
    ]);
    assert!(missing.contains("not found"), "{missing}");
    let mut command = fake_sweep(&dir, "out", &["--positions", "1"]);
    command.env("C960_FAKE_UCI", "--no-chess960");
    let run = run_command(command);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("does not support Chess960"),
        "{}",
        run.stderr
    );
    let mut command = fake_sweep(&dir, "out2", &["--positions", "1"]);
    command.env("C960_FAKE_UCI", "--not-uci");
    let run = run_command(command);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is not a UCI engine"), "{}", run.stderr);
    assert!(
        dir.bad_input(&["sweep", "--positions", "0-960"])
            .contains("out of range")
    );
    assert!(
        dir.bad_input(&["sweep", "--nodes", "0"])
            .contains("must be positive")
    );
    assert!(
        dir.bad_input(&["sweep", "--multipv", "0"])
            .contains("at least 1")
    );
    assert!(
        dir.bad_input(&["sweep", "--nodes", "5", "--depth", "3"])
            .contains("cannot be used")
    );
    assert!(
        dir.bad_input(&["sweep", "--option", "Hash"])
            .contains("NAME=VALUE")
    );
}

#[test]
fn stockfish_sweeps_are_sane_and_reproducible() {
    let dir = Dir::new();
    let args = |out: &'static str| {
        vec![
            "sweep",
            "--engine",
            "stockfish",
            "--positions",
            "0,91,292,518,534,700,959,80",
            "--nodes",
            "20000",
            "--multipv",
            "2",
            "--jobs",
            "2",
            "--quiet",
            "--out",
            out,
        ]
    };
    let a = dir.run(&args("a"));
    assert_eq!(
        a.code, 0,
        "{}\nStockfish is required for this test: install it with `apt-get install stockfish`",
        a.stderr
    );
    assert_eq!(dir.run(&args("b")).code, 0);
    let read = |name: &str| {
        CsvReadOptions::default()
            .try_into_reader_with_file_path(Some(dir.file(name)))
            .unwrap()
            .finish()
            .unwrap()
    };
    let (a, b) = (read("a/sweep.csv"), read("b/sweep.csv"));
    assert_eq!(a.height(), 8);
    // Every column but the engine's clock repeats exactly.
    let without_time = |f: &DataFrame| f.drop("time_ms").unwrap();
    assert!(without_time(&a).equals_missing(&without_time(&b)));
    let sp = a.column("sp").unwrap().i64().unwrap();
    let cp = a.column("score_cp").unwrap().i64().unwrap();
    let classical = (0..a.height()).find(|i| sp.get(*i) == Some(518)).unwrap();
    let score = cp.get(classical).expect("a centipawn score for SP 518");
    assert!((-50..=100).contains(&score), "SP 518: {score} cp");
    for i in 0..a.height() {
        let wdl: i64 = ["wdl_win", "wdl_draw", "wdl_loss"]
            .iter()
            .map(|c| a.column(c).unwrap().i64().unwrap().get(i).unwrap())
            .sum();
        assert_eq!(wdl, 1000);
    }
    let engine = a
        .column("engine")
        .unwrap()
        .str()
        .unwrap()
        .get(0)
        .unwrap()
        .to_owned();
    assert!(engine.starts_with("Stockfish"), "{engine}");
}
