//! `c960 slurm ... --submit` on a real one-node Slurm cluster, started by
//! scripts/slurm-cluster.sh (CI installs Debian's slurm-wlm and munge): a
//! sharded sweep and a sharded self-play with the built-in engine, one
//! array task cancelled mid-run with `scancel` and resubmitted by the merge
//! job, the merged result equal to a single-process run of the same seed;
//! and adaptive self-play round by round, each round's merge job deciding
//! and submitting the next, equal to the single-process adaptive run.

use crate::util;

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
    sync::Mutex,
    thread,
    time::{Duration, Instant},
};

use serde_json::Value;
use util::Dir;

/// One test at a time on the one-node cluster (its two CPUs).
pub(crate) static CLUSTER: Mutex<()> = Mutex::new(());

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/slurm-cluster.sh")
}

/// Starts the one-node cluster (nothing to do when it runs) and returns
/// its `SLURM_CONF`.
pub(crate) fn cluster() -> String {
    let installed = [
        "/usr/sbin/slurmctld",
        "/usr/sbin/slurmd",
        "/usr/sbin/munged",
    ]
    .iter()
    .all(|p| Path::new(p).exists());
    assert!(
        installed,
        "Slurm is not installed: this test needs Debian's slurm-wlm and munge \
         (apt-get install slurm-wlm munge; CI installs them) and starts a one-node cluster \
         with scripts/slurm-cluster.sh start"
    );
    let start = Command::new(script()).arg("start").output().unwrap();
    assert!(
        start.status.success(),
        "scripts/slurm-cluster.sh start failed: {}{}",
        String::from_utf8_lossy(&start.stdout),
        String::from_utf8_lossy(&start.stderr)
    );
    let env = Command::new(script()).arg("env").output().unwrap();
    String::from_utf8(env.stdout)
        .unwrap()
        .trim()
        .strip_prefix("export SLURM_CONF=")
        .expect("scripts/slurm-cluster.sh env prints export SLURM_CONF=...")
        .to_owned()
}

fn slurm(conf: &str, args: &[&str]) -> String {
    let output = Command::new(args[0])
        .args(&args[1..])
        .env("SLURM_CONF", conf)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", args[0]));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Waits for `path`, or fails with the queue and the job logs.
pub(crate) fn wait_for(conf: &str, path: &Path, logs: &Path, seconds: u64) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while !path.exists() {
        if Instant::now() > deadline {
            let mut logs_text = String::new();
            for entry in fs::read_dir(logs).into_iter().flatten().flatten() {
                let _ = write!(
                    logs_text,
                    "== {}\n{}\n",
                    entry.path().display(),
                    fs::read_to_string(entry.path()).unwrap_or_default()
                );
            }
            panic!(
                "{} did not appear within {seconds}s\nqueue:\n{}\n{logs_text}",
                path.display(),
                slurm(conf, &["squeue"])
            );
        }
        thread::sleep(Duration::from_millis(100));
    }
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// A manifest without the clock, the processes and the shard list.
fn settled(path: &Path) -> Value {
    let mut m = json(path);
    for key in [
        "started", "finished", "jobs", "this_run", "shards", "resumed",
    ] {
        m.as_object_mut().unwrap().remove(key);
    }
    m
}

fn journal_rows(path: &Path) -> Vec<Value> {
    let mut rows: Vec<Value> = fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut row: Value = serde_json::from_str(l).unwrap();
            let row_object = row.as_object_mut().unwrap();
            row_object.remove("time_ms");
            row_object.remove("c960_sum");
            row
        })
        .collect();
    rows.sort_by_key(|r| (r["sp"].as_u64(), r["game"].as_u64()));
    rows
}

pub(crate) fn submitted(dir: &Dir, conf: &str, args: &[&str]) -> String {
    let mut command = dir.command(args);
    command.env("SLURM_CONF", conf);
    let run = util::run_command(command);
    assert_eq!(run.code, 0, "c960 {args:?}: {}", run.stderr);
    assert!(run.stdout.contains("squeue --name"), "{}", run.stdout);
    run.stdout
}

#[test]
fn sharded_sweep_and_selfplay_on_slurm_equal_one_process_runs() {
    let _cluster = CLUSTER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let conf = cluster();
    let dir = Dir::new();
    sharded_sweep(&conf, &dir);
    sharded_selfplay_with_a_cancelled_task(&conf, &dir);
}

/// A sweep in 2 shards equals one process's.
fn sharded_sweep(conf: &str, dir: &Dir) {
    let sweep = [
        "sweep",
        "--engine",
        "builtin",
        "--nodes",
        "3000",
        "--positions",
        "0-19",
        "--quiet",
    ];
    let mut args = vec!["slurm"];
    args.extend(sweep);
    args.extend(["--out", "sweep", "--shards", "2", "--submit"]);
    submitted(dir, conf, &args);
    let mut args = sweep.to_vec();
    args.extend(["--jobs", "2", "--out", "sweep-whole"]);
    dir.ok(&args);
    wait_for(
        conf,
        &dir.file("sweep/manifest.json"),
        &dir.file("sweep/slurm/logs"),
        180,
    );
    assert_eq!(
        journal_rows(&dir.file("sweep/journal.jsonl")),
        journal_rows(&dir.file("sweep-whole/journal.jsonl"))
    );
    assert_eq!(
        settled(&dir.file("sweep/manifest.json")),
        settled(&dir.file("sweep-whole/manifest.json"))
    );
    assert_eq!(
        json(&dir.file("sweep/manifest.json"))["shards"],
        serde_json::json!(["0/2", "1/2"])
    );
}

/// Self-play in 2 shards, shard 1 cancelled mid-run and resubmitted by the
/// merge job, equals one process's.
fn sharded_selfplay_with_a_cancelled_task(conf: &str, dir: &Dir) {
    let selfplay = [
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "2000",
        "--positions",
        "0-9",
        "--games-per-position",
        "12",
        "--seed",
        "5",
        "--quiet",
    ];
    let mut args = vec!["slurm"];
    args.extend(selfplay);
    args.extend(["--out", "sp", "--shards", "2", "--submit"]);
    submitted(dir, conf, &args);
    let jobs = fs::read_to_string(dir.file("sp/slurm/jobs.log")).unwrap();
    let array = jobs
        .lines()
        .find_map(|l| l.strip_prefix("shards "))
        .expect("the array job id in jobs.log")
        .to_owned();
    let journal = dir.file("sp/shards/1/journal.jsonl");
    let deadline = Instant::now() + Duration::from_mins(2);
    while fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 3 {
        assert!(Instant::now() < deadline, "shard 1 never started");
        thread::sleep(Duration::from_millis(50));
    }
    slurm(conf, &["scancel", &format!("{array}_1")]);
    thread::sleep(Duration::from_secs(1));
    assert!(
        !dir.file("sp/shards/1/manifest.json").exists(),
        "shard 1 finished before it could be cancelled: give it more games"
    );
    // One process of the same command meanwhile.
    let mut args = selfplay.to_vec();
    args.extend(["--jobs", "2", "--out", "sp-whole"]);
    dir.ok(&args);
    wait_for(
        conf,
        &dir.file("sp/manifest.json"),
        &dir.file("sp/slurm/logs"),
        300,
    );
    let jobs = fs::read_to_string(dir.file("sp/slurm/jobs.log")).unwrap();
    assert!(jobs.contains("resubmitted shards 1\n"), "{jobs}");
    // The resubmitted task resumed from its journal instead of starting
    // over.
    let shard = json(&dir.file("sp/shards/1/manifest.json"));
    assert!(
        shard["this_run"]["games"].as_u64() < shard["games"].as_u64(),
        "shard 1 replayed its games: {shard}"
    );
    for file in ["games.pgn", "positions.csv"] {
        assert_eq!(
            fs::read_to_string(dir.file(&format!("sp/{file}"))).unwrap(),
            fs::read_to_string(dir.file(&format!("sp-whole/{file}"))).unwrap(),
            "{file} differs"
        );
    }
    assert_eq!(
        settled(&dir.file("sp/manifest.json")),
        settled(&dir.file("sp-whole/manifest.json"))
    );
    assert_eq!(
        journal_rows(&dir.file("sp/journal.jsonl")),
        journal_rows(&dir.file("sp-whole/journal.jsonl"))
    );
}

/// Adaptive self-play in 2 shards submitted once, one task of the first
/// round cancelled: the merge job resubmits it, and every round's merge job
/// decides the next round and submits it until the budget is spent; the
/// result equals the single-process adaptive run's.
#[test]
fn adaptive_selfplay_on_slurm_runs_round_by_round_to_the_one_process_result() {
    let _cluster = CLUSTER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let conf = cluster();
    let dir = Dir::new();
    let selfplay = [
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "50",
        "--positions",
        "0-3",
        "--games-per-position",
        "2",
        "--round-games",
        "2",
        "--max-plies",
        "80",
        "--seed",
        "4",
        "--target-halfwidth",
        "0.3",
        "--budget",
        "22",
        "--quiet",
    ];
    let mut args = vec!["slurm"];
    args.extend(selfplay);
    args.extend(["--out", "asp", "--shards", "2", "--submit"]);
    let printed = submitted(&dir, &conf, &args);
    assert!(printed.contains("round 0"), "{printed}");
    // Shard 1 of round 0 cancelled at once: the merge job resubmits it.
    let jobs = fs::read_to_string(dir.file("asp/slurm/jobs.log")).unwrap();
    let array = jobs
        .lines()
        .find_map(|l| l.strip_prefix("shards "))
        .expect("the array job id in jobs.log")
        .to_owned();
    slurm(&conf, &["scancel", &format!("{array}_1")]);
    let mut args = selfplay.to_vec();
    args.extend(["--out", "asp-whole"]);
    dir.ok(&args);
    wait_for(
        &conf,
        &dir.file("asp/manifest.json"),
        &dir.file("asp/slurm/logs"),
        300,
    );
    let rounds = json(&dir.file("asp-whole/manifest.json"))["adaptive"]["rounds"]
        .as_u64()
        .unwrap();
    assert!(rounds >= 2, "too few rounds to test: {rounds}");
    // Each round was submitted by the merge job of the round before; the
    // last one logs the end once the outputs are written.
    let log = dir.file("asp/slurm/jobs.log");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !fs::read_to_string(&log).unwrap().ends_with("finished\n") {
        assert!(Instant::now() < deadline, "the last merge job never ended");
        thread::sleep(Duration::from_millis(100));
    }
    let jobs = fs::read_to_string(&log).unwrap();
    assert!(jobs.contains("resubmitted shards 1\n"), "{jobs}");
    for round in 1..=rounds {
        assert!(jobs.contains(&format!("round {round}\nshards ")), "{jobs}");
    }
    for file in ["games.pgn", "positions.csv", "rounds.jsonl"] {
        assert_eq!(
            fs::read_to_string(dir.file(&format!("asp/{file}"))).unwrap(),
            fs::read_to_string(dir.file(&format!("asp-whole/{file}"))).unwrap(),
            "{file} differs"
        );
    }
    assert_eq!(
        settled(&dir.file("asp/manifest.json")),
        settled(&dir.file("asp-whole/manifest.json"))
    );
    assert_eq!(
        journal_rows(&dir.file("asp/journal.jsonl")),
        journal_rows(&dir.file("asp-whole/journal.jsonl"))
    );
    assert_eq!(
        json(&dir.file("asp/manifest.json"))["shards"],
        serde_json::json!(["0/2", "1/2"])
    );
}
