//! Inputs that are not regular files (issue 48, item 1): a FIFO named as
//! a balance table or a draw record is refused in one line, exit 2,
//! without waiting for a writer. Each test fails (hangs, then is killed)
//! without the fix.

use crate::util;

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use util::Dir;

/// Runs `c960 ARGS` in `dir`, killing it after 20 s: a FIFO input must
/// never block. Returns its exit code and stderr.
fn run_bounded(dir: &Dir, args: &[&str]) -> (i32, String) {
    let mut child = dir
        .command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
            return (status.code().expect("exit code"), stderr);
        }
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("c960 {args:?} still waits after 20 s: an input blocked it");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn mkfifo(dir: &Dir, name: &str) {
    assert!(
        Command::new("mkfifo")
            .arg(dir.file(name))
            .status()
            .unwrap()
            .success()
    );
}

#[test]
fn a_fifo_as_balance_table_or_draw_record_is_refused_without_waiting() {
    let dir = Dir::new();
    mkfifo(&dir, "fifo.csv");
    std::fs::create_dir(dir.file("table")).unwrap();
    mkfifo(&dir, "table/balance.csv");
    mkfifo(&dir, "draw.json");
    let cases: [&[&str]; 9] = [
        &[
            "draw",
            "--seed",
            "1",
            "--fairest",
            "5",
            "--balance",
            "fifo.csv",
        ],
        &[
            "draw",
            "--seed",
            "1",
            "--verdict",
            "balanced",
            "--balance",
            "table",
        ],
        &[
            "tournament",
            "--seed",
            "1",
            "--rounds",
            "2",
            "--fairest",
            "5",
            "--balance",
            "fifo.csv",
            "--out",
            "kit",
        ],
        &["draw", "--seed", "1", "--exclude-drawn", "draw.json"],
        &[
            "tournament",
            "--seed",
            "1",
            "--rounds",
            "2",
            "--exclude-drawn",
            "draw.json",
            "--out",
            "kit",
        ],
        &["draw", "--verify", "draw.json"],
        &["draw", "--verify", "/dev/null"],
        &[
            "book",
            "balanced",
            "--balance",
            "fifo.csv",
            "--fairest",
            "3",
            "--out",
            "b.epd",
        ],
        &[
            "book",
            "balanced",
            "--balance",
            "table",
            "--fairest",
            "3",
            "--out",
            "b.epd",
        ],
    ];
    for args in cases {
        let (code, stderr) = run_bounded(&dir, args);
        assert_eq!(code, 2, "c960 {args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "c960 {args:?}: {stderr}");
        assert!(
            stderr.contains("is a FIFO, not a regular file")
                || stderr.contains("is a device, not a regular file"),
            "c960 {args:?}: {stderr}"
        );
    }
    assert!(!dir.file("kit").exists() && !dir.file("b.epd").exists());
}

/// Issue 48, item 22: a FIFO where a run's `sweep.parquet` belongs is said
/// to be a FIFO, not "missing", and blocks neither `report` nor `balance`.
#[test]
fn a_fifo_sweep_table_is_named_a_fifo_and_blocks_nothing() {
    let dir = Dir::new();
    dir.ok(&[
        "sweep",
        "--engine",
        "builtin",
        "--nodes",
        "200",
        "--positions",
        "0-1",
        "--out",
        "s",
        "--quiet",
    ]);
    std::fs::create_dir(dir.file("f")).unwrap();
    std::fs::copy(dir.file("s/manifest.json"), dir.file("f/manifest.json")).unwrap();
    mkfifo(&dir, "f/sweep.parquet");
    let cases: [&[&str]; 3] = [
        &["report", "--sweep", "f", "--out", "site"],
        &["balance", "--sweep", "f", "--out", "bal"],
        &["balance", "--sweep", "f/sweep.parquet", "--out", "bal"],
    ];
    for args in cases {
        let (code, stderr) = run_bounded(&dir, args);
        assert_eq!(code, 2, "c960 {args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "c960 {args:?}: {stderr}");
        assert!(
            stderr.contains("sweep.parquet: it is a FIFO, not a regular file")
                && !stderr.contains("missing"),
            "c960 {args:?}: {stderr}"
        );
    }
}
