//! Nothing lost, nothing mixed: one regression test per way an adversarial
//! user lost or mixed data (concurrent runs, outputs at special files,
//! failed runs reported silently, half-replaced reports, damaged tables
//! and journals, edited manifests).

use crate::util;

use std::{
    fs,
    os::unix::fs::symlink,
    path::Path,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use util::{Dir, fake_engine, run_command};

/// `c960 sweep` with the fake engine at 10 nodes into `out`.
pub(crate) fn fake_sweep(dir: &Dir, out: &str, extra: &[&str]) -> Command {
    let engine = fake_engine();
    let mut args = vec![
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    dir.command(&args)
}

pub(crate) fn swept(dir: &Dir, out: &str, positions: &str) {
    let run = run_command(fake_sweep(dir, out, &["--positions", positions]));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

pub(crate) fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

pub(crate) fn one_line(stderr: &str) -> &str {
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr.trim_end()
}

/// Waits until `path` exists.
pub(crate) fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_mins(1);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn two_runs_on_one_directory_one_is_refused_and_the_other_is_intact() {
    let dir = Dir::new();
    let mut first = fake_sweep(&dir, "out", &["--positions", "0-39", "--jobs", "1"]);
    first.env("C960_FAKE_UCI", "--slow 40");
    let mut first = first
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&dir.file("out/journal.jsonl"));

    // Other settings, same directory: refused at once, naming the holder.
    let engine = fake_engine();
    let started = Instant::now();
    let second = dir.run(&[
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "50",
        "--positions",
        "0-39",
        "--out",
        "out",
        "--quiet",
    ]);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(second.code, 1, "{}", second.stderr);
    let line = one_line(&second.stderr);
    assert!(
        line.contains(&format!("in use by process {}", first.id())),
        "{line}"
    );
    assert!(line.contains("c960 sweep"), "{line}");
    // A report does not read a run being written either.
    let report = dir.run(&["report", "--sweep", "out", "--out", "site", "--quiet"]);
    assert_eq!(report.code, 1, "{}", report.stderr);
    assert!(
        report.stderr.contains("in use by process"),
        "{}",
        report.stderr
    );
    assert!(!dir.file("site").exists());
    // Nor do the verdicts.
    let balance = dir.run(&["balance", "--sweep", "out", "--out", "verdicts"]);
    assert_eq!(balance.code, 1, "{}", balance.stderr);
    assert!(
        balance.stderr.contains("in use by process"),
        "{}",
        balance.stderr
    );
    assert!(!dir.file("verdicts").exists());

    let status = first.wait().unwrap();
    assert!(status.success());
    let manifest = json(&dir.file("out/manifest.json"));
    assert_eq!(manifest["limit"], "nodes 10");
    assert_eq!(manifest["rows"], 40);
    let csv = fs::read_to_string(dir.file("out/sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 41);
    assert!(
        csv.lines().skip(1).all(|l| l.contains(",nodes 10,")),
        "{csv}"
    );
    // The journal holds the first run's positions once each.
    let journal = fs::read_to_string(dir.file("out/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 41);
    // Finished: the directory is free again.
    swept(&dir, "out", "0-39");
}

#[test]
fn outputs_at_a_fifo_a_symlink_or_a_device_are_refused() {
    let dir = Dir::new();
    let fifo = dir.file("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let line = dir.bad_input(&["positions", "--out", "fifo"]);
    assert!(line.contains("FIFO"), "{line}");
    assert!(line.matches("fifo").count() == 1, "{line}");
    fs::write(dir.file("kept.csv"), "mine").unwrap();
    symlink("kept.csv", dir.file("link.csv")).unwrap();
    let line = dir.bad_input(&["positions", "--out", "link.csv"]);
    assert!(line.contains("symbolic link"), "{line}");
    assert!(
        fs::symlink_metadata(dir.file("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(dir.file("kept.csv")).unwrap(), "mine");
    let line = dir.bad_input(&["positions", "--out", "/dev/null"]);
    assert!(line.contains("device"), "{line}");

    // A run refuses before any work: no journal, no engine started.
    fs::create_dir(dir.file("run")).unwrap();
    symlink("../kept.csv", dir.file("run/sweep.csv")).unwrap();
    let run = run_command(fake_sweep(&dir, "run", &["--positions", "0-3"]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(one_line(&run.stderr).contains("symbolic link"));
    assert!(!dir.file("run/journal.jsonl").exists());
    assert_eq!(fs::read_to_string(dir.file("kept.csv")).unwrap(), "mine");
}

#[test]
fn a_failed_sweep_is_flagged_by_the_report() {
    let dir = Dir::new();
    let mut failing = fake_sweep(&dir, "out", &["--positions", "0-3", "--retries", "0"]);
    failing.env("C960_FAKE_UCI", "--crash");
    let run = run_command(failing);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // The table is written with the failures marked: listed in the
    // manifest, in the file and beside it.
    let manifest = json(&dir.file("out/manifest.json"));
    assert_eq!(manifest["rows"], 0);
    assert_eq!(manifest["failed"].as_array().unwrap().len(), 4);

    let report = dir.run(&["report", "--sweep", "out", "--out", "site", "--quiet"]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let warning = one_line(&report.stderr);
    assert!(warning.contains("warning"), "{warning}");
    assert!(warning.contains("4 failed positions"), "{warning}");
    let index = fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert!(index.contains("Incomplete input"), "no banner on the index");
    assert!(index.contains("4 failed positions (SP 0, SP 1, SP 2, SP 3)"));
    let page = fs::read_to_string(dir.file("site/positions/2.html")).unwrap();
    assert!(page.contains("SP 2 failed in this run"), "no note on SP 2");
    // One warning a page: a position's own banner replaces the index's.
    assert_eq!(page.matches("Incomplete input").count(), 1, "{page}");
    assert_eq!(page.matches("role=\"alert\"").count(), 1);
    let fine = fs::read_to_string(dir.file("site/positions/500.html")).unwrap();
    assert!(fine.contains("Incomplete input") && !fine.contains("SP 500 failed"));
    assert_eq!(fine.matches("Incomplete input").count(), 1);
    for name in ["index.html", "fair.html"] {
        let text = fs::read_to_string(dir.file(&format!("site/{name}"))).unwrap();
        assert_eq!(text.matches("role=\"alert\"").count(), 1, "{name}");
    }
}

/// Every name in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every file under `dir` with its content.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(tree(&path));
        } else {
            out.push((path.display().to_string(), fs::read(&path).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_report_killed_or_failing_midway_leaves_the_previous_site_whole() {
    let dir = Dir::new();
    swept(&dir, "a", "0-9");
    let first = dir.run(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let before = tree(&dir.file("site"));
    let beside = names(dir.path());

    // Killed while it writes pages.
    let mut killed = dir
        .command(&["report", "--out", "site", "--quiet"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let building = dir.file(&format!(".site.build.{}", killed.id()));
    wait_for(&building.join("positions"));
    thread::sleep(Duration::from_millis(100));
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert_eq!(tree(&dir.file("site")), before, "the old site changed");

    // Failing midway: a self-play run whose games cannot be read.
    let engine = fake_engine();
    let played = dir.run(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--positions",
        "0-1",
        "--games-per-position",
        "2",
        "--max-plies",
        "20",
        "--out",
        "games",
        "--quiet",
    ]);
    assert_eq!(played.code, 0, "{}", played.stderr);
    fs::write(dir.file("games/games.parquet"), "not parquet").unwrap();
    let failed = dir.run(&[
        "report",
        "--sweep",
        "a",
        "--selfplay",
        "games",
        "--out",
        "site",
    ]);
    assert_eq!(failed.code, 2, "{}", failed.stderr);
    assert!(
        one_line(&failed.stderr).contains("games.parquet"),
        "{}",
        failed.stderr
    );
    assert_eq!(tree(&dir.file("site")), before, "the old site changed");
    // No temporaries left: the killed report's are gone too.
    let mut now = names(dir.path());
    now.retain(|n| n != "games" && n != ".site.lock");
    let mut expected = beside.clone();
    expected.retain(|n| n != ".site.lock");
    assert_eq!(now, expected);
    assert!(
        tree(&dir.file("site")).iter().all(|(p, _)| !p
            .rsplit('/')
            .next()
            .unwrap()
            .contains(".tmp")),
        "temporary files in the site"
    );

    // A report never deletes what it did not write.
    fs::write(dir.file("site/notes.txt"), "mine").unwrap();
    let refused = dir.run(&["report", "--out", "site", "--quiet"]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(one_line(&refused.stderr).contains("notes.txt"));
    assert_eq!(
        fs::read_to_string(dir.file("site/notes.txt")).unwrap(),
        "mine"
    );
}
