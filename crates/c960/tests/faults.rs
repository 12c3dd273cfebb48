//! Fault injection: a small filesystem (tmpfs) filled up while a sweep,
//! self-play, a report and an import write to it. Every output written
//! before survives unchanged, the error says the disk is full, nothing
//! temporary is left, and once space is freed the same command completes
//! exactly as an uninterrupted run would.
//!
//! Mounting needs root. Outside CI a non-root run skips with a message; in
//! CI (`CI=true`) these tests always run.

use crate::util;

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
    process::Command,
};

use util::Dir;

/// A tmpfs mounted for one test, unmounted when dropped.
struct Small {
    path: PathBuf,
}

impl Small {
    /// Mounts a tmpfs of `megabytes` at `dir/small`, or `None` (with a
    /// message) where that cannot be done outside CI.
    fn mount(dir: &Dir, megabytes: u32) -> Option<Small> {
        let uid = Command::new("id").arg("-u").output().expect("id runs");
        let root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        if !root {
            assert!(
                !ci,
                "the fault-injection tests must mount a tmpfs: run CI as root"
            );
            eprintln!(
                "SKIPPED: filling a filesystem needs root to mount a tmpfs (run as root, or with CI=true to require it)"
            );
            return None;
        }
        let path = dir.file("small");
        fs::create_dir(&path).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(&path)
            .status()
            .expect("mount runs");
        assert!(status.success(), "mount -t tmpfs failed (as root)");
        Some(Small { path })
    }

    fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Fills the filesystem, leaving about `leave` bytes free.
    fn fill(&self, leave: u64) {
        let ballast = self.join("ballast");
        let mut file = fs::File::create(&ballast).unwrap();
        let chunk = vec![0u8; 64 * 1024];
        let mut written = 0u64;
        loop {
            match file.write(&chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => written += n as u64,
            }
        }
        file.set_len(written.saturating_sub(leave)).unwrap();
        file.sync_all().unwrap();
    }

    fn free(&self) {
        fs::remove_file(self.join("ballast")).unwrap();
    }
}

impl Drop for Small {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

/// Every file under `dir` with its content, except the journal (which
/// grows as work is saved) and the lock file.
fn outputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            out.extend(outputs(&path));
        } else if name != "journal.jsonl" && path.extension().is_none_or(|e| e != "lock") {
            out.push((path, fs::read(dir.join(&name)).unwrap()));
        }
    }
    out.sort();
    out
}

/// No temporary file or build directory anywhere under `dir`.
fn no_temporaries(dir: &Path) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            path.extension().is_none_or(|e| e != "tmp")
                && !name.contains(".build.")
                && !name.contains(".old."),
            "left behind: {}",
            path.display()
        );
        if path.is_dir() {
            no_temporaries(&path);
        }
    }
}

/// Runs and expects the full disk to be the one-line error, exit 1.
fn fails_full(dir: &Dir, args: &[&str]) {
    let run = dir.run(args);
    assert_eq!(run.code, 1, "c960 {args:?}: {}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("no space left on device writing"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("thrift") && !run.stderr.contains("ImageError"));
}

fn ok(dir: &Dir, args: &[&str]) {
    let run = dir.run(args);
    assert_eq!(run.code, 0, "c960 {args:?}: {}", run.stderr);
}

/// A sweep CSV without `time_ms`, the engine's clock.
fn without_clock(csv: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(csv);
    let header = reader.headers().unwrap().clone();
    let clock = header.iter().position(|h| h == "time_ms").unwrap();
    reader
        .records()
        .map(|r| {
            r.unwrap()
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != clock)
                .map(|(_, v)| v.to_owned())
                .collect()
        })
        .collect()
}

fn sweep_args(out: &str, positions: &'static str) -> Vec<String> {
    [
        "sweep",
        "--engine",
        "builtin",
        "--nodes",
        "2000",
        "--jobs",
        "2",
        "--quiet",
        "--positions",
        positions,
        "--out",
        out,
    ]
    .map(str::to_owned)
    .to_vec()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_sweep_on_a_full_disk_keeps_its_outputs_and_resumes_identically() {
    let dir = Dir::new();
    let Some(small) = Small::mount(&dir, 4) else {
        return;
    };
    let run = small.join("sweep").display().to_string();
    ok(&dir, &strs(&sweep_args(&run, "0-29")));
    let before = outputs(&small.join("sweep"));
    small.fill(8 * 1024);
    fails_full(&dir, &strs(&sweep_args(&run, "0-119")));
    assert_eq!(outputs(&small.join("sweep")), before, "an output changed");
    no_temporaries(&small.path);
    small.free();
    ok(&dir, &strs(&sweep_args(&run, "0-119")));
    ok(&dir, &strs(&sweep_args("whole", "0-119")));
    assert_eq!(
        without_clock(&fs::read(small.join("sweep/sweep.csv")).unwrap()),
        without_clock(&fs::read(dir.file("whole/sweep.csv")).unwrap())
    );
}

fn selfplay_args(out: &str, positions: &'static str) -> Vec<String> {
    [
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "300",
        "--max-plies",
        "60",
        "--games-per-position",
        "2",
        "--jobs",
        "2",
        "--quiet",
        "--positions",
        positions,
        "--out",
        out,
    ]
    .map(str::to_owned)
    .to_vec()
}

#[test]
fn self_play_on_a_full_disk_keeps_its_outputs_and_resumes_identically() {
    let dir = Dir::new();
    let Some(small) = Small::mount(&dir, 4) else {
        return;
    };
    let run = small.join("sp").display().to_string();
    ok(&dir, &strs(&selfplay_args(&run, "0-1")));
    let before = outputs(&small.join("sp"));
    small.fill(8 * 1024);
    fails_full(&dir, &strs(&selfplay_args(&run, "0-11")));
    assert_eq!(outputs(&small.join("sp")), before, "an output changed");
    no_temporaries(&small.path);
    small.free();
    ok(&dir, &strs(&selfplay_args(&run, "0-11")));
    ok(&dir, &strs(&selfplay_args("whole", "0-11")));
    assert_eq!(
        fs::read(small.join("sp/positions.csv")).unwrap(),
        fs::read(dir.file("whole/positions.csv")).unwrap()
    );
}

#[test]
fn a_report_on_a_full_disk_leaves_the_previous_site_whole() {
    let dir = Dir::new();
    let Some(small) = Small::mount(&dir, 64) else {
        return;
    };
    ok(&dir, &strs(&sweep_args("sweep", "0-19")));
    let site = small.join("site").display().to_string();
    ok(&dir, &["report", "--out", &site, "--quiet"]);
    let before = outputs(&small.join("site"));
    small.fill(256 * 1024);
    fails_full(
        &dir,
        &["report", "--sweep", "sweep", "--out", &site, "--quiet"],
    );
    assert_eq!(outputs(&small.join("site")), before, "the site changed");
    no_temporaries(&small.path);
    small.free();
    ok(
        &dir,
        &["report", "--sweep", "sweep", "--out", &site, "--quiet"],
    );
    ok(
        &dir,
        &["report", "--sweep", "sweep", "--out", "whole", "--quiet"],
    );
    assert_eq!(
        fs::read(small.join("site/positions.csv")).unwrap(),
        fs::read(dir.file("whole/positions.csv")).unwrap()
    );
}

/// Issue 30, item 9: a kit is written as a whole, so a disk that fills up
/// while a new kit is written leaves the old kit, not a mix of both.
#[test]
fn a_kit_on_a_full_disk_leaves_the_previous_kit_whole() {
    let dir = Dir::new();
    let Some(small) = Small::mount(&dir, 1) else {
        return;
    };
    let kit = small.join("kit").display().to_string();
    let args = |phrase: &'static str| {
        [
            "tournament",
            "--phrase",
            phrase,
            "--rounds",
            "5",
            "--out",
            &kit,
        ]
        .map(str::to_owned)
        .to_vec()
    };
    ok(&dir, &strs(&args("Club Open 2025")));
    let before = outputs(&small.join("kit"));
    small.fill(40 * 1024);
    fails_full(&dir, &strs(&args("Club Open 2026")));
    assert_eq!(outputs(&small.join("kit")), before, "the kit changed");
    no_temporaries(&small.path);
    small.free();
    ok(&dir, &strs(&args("Club Open 2026")));
    let record = fs::read_to_string(small.join("kit/draw.json")).unwrap();
    assert!(record.contains("Club Open 2026"), "{record}");
}

#[test]
fn an_import_on_a_full_disk_keeps_its_outputs() {
    let dir = Dir::new();
    let Some(small) = Small::mount(&dir, 4) else {
        return;
    };
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-games/tests/fixtures/defects.pgn"
    );
    let out = small.join("games").display().to_string();
    ok(&dir, &["import", fixture, "--out", &out, "--quiet"]);
    let before = outputs(&small.join("games"));
    small.fill(0);
    let run = dir.run(&["import", fixture, "--out", &out, "--quiet"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("no space left on device"),
        "{}",
        run.stderr
    );
    assert_eq!(outputs(&small.join("games")), before, "an output changed");
    no_temporaries(&small.path);
    small.free();
    ok(&dir, &["import", fixture, "--out", &out, "--quiet"]);
    ok(&dir, &["import", fixture, "--out", "whole", "--quiet"]);
    assert_eq!(
        fs::read(small.join("games/games.parquet")).unwrap(),
        fs::read(dir.file("whole/games.parquet")).unwrap()
    );
}
