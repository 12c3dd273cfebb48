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
fn fake_sweep(dir: &Dir, out: &str, extra: &[&str]) -> Command {
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

fn swept(dir: &Dir, out: &str, positions: &str) {
    let run = run_command(fake_sweep(dir, out, &["--positions", positions]));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn one_line(stderr: &str) -> &str {
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr.trim_end()
}

/// Waits until `path` exists.
fn wait_for(path: &Path) {
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
    let fine = fs::read_to_string(dir.file("site/positions/500.html")).unwrap();
    assert!(fine.contains("Incomplete input") && !fine.contains("SP 500 failed"));
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

/// Flips 8 bytes of `path` at `offset` (from the end if negative).
fn flip(path: &Path, offset: i64) {
    let mut bytes = fs::read(path).unwrap();
    let start = if offset < 0 {
        bytes.len() - usize::try_from(-offset).unwrap()
    } else {
        usize::try_from(offset).unwrap()
    };
    for b in &mut bytes[start..start + 8] {
        *b ^= 0x21;
    }
    fs::write(path, bytes).unwrap();
}

#[test]
fn flipped_bytes_in_a_table_are_a_one_line_error_never_numbers_or_a_panic() {
    let dir = Dir::new();
    swept(&dir, "a", "0-99");
    fs::copy(dir.file("a/sweep.parquet"), dir.file("good.parquet")).unwrap();
    flip(&dir.file("a/sweep.parquet"), 200);
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("a/sweep.parquet"), "{line}");
    assert!(line.contains("damaged"), "{line}");
    assert!(!dir.file("site").exists());

    // A damaged footer: polars would panic; c960 says which file.
    fs::copy(dir.file("good.parquet"), dir.file("a/sweep.parquet")).unwrap();
    flip(&dir.file("a/sweep.parquet"), -40);
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("a/sweep.parquet"), "{line}");
    // Truncated.
    let bytes = fs::read(dir.file("good.parquet")).unwrap();
    fs::write(dir.file("a/sweep.parquet"), &bytes[..bytes.len() / 2]).unwrap();
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("a/sweep.parquet"), "{line}");
}

#[test]
fn an_edited_manifest_cannot_relabel_a_run() {
    let dir = Dir::new();
    swept(&dir, "a", "0-9");
    let path = dir.file("a/manifest.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\"nodes 10\"", "\"nodes 40000\"")).unwrap();
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("does not match"), "{line}");
}

/// Journal lines of `path` (header first).
fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A journal line as an older c960 wrote it: without its checksum.
fn unsealed(line: &str) -> String {
    let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
    value.as_object_mut().unwrap().remove("c960_sum");
    value.to_string()
}

/// `value` as a journal line with a valid checksum, as a deliberate
/// forger would write it: content checks must catch what checksums cannot.
fn sealed(value: &serde_json::Value) -> String {
    use sha2::Digest as _;
    let body = value.to_string();
    let digest = sha2::Sha256::digest(body.as_bytes());
    let sum: String = digest[..8]
        .iter()
        .fold(String::new(), |hex, b| hex + &format!("{b:02x}"));
    format!("{},\"c960_sum\":\"{sum}\"}}", &body[..body.len() - 1])
}

#[test]
fn journal_lines_that_cannot_be_trusted_stop_a_resume_until_repaired() {
    type Edit = fn(&str) -> String;
    let cases: [(&str, Edit); 4] = [
        ("checksum", |l| l.replace("\"depth\":", "\"depth\":1")),
        ("RNBQKBNR", |l| {
            // Relabelled to another SP (its checksum forged).
            let mut v: serde_json::Value = serde_json::from_str(&unsealed(l)).unwrap();
            v["sp"] = 518.into();
            sealed(&v)
        }),
        ("not legal", |l| {
            let mut v: serde_json::Value = serde_json::from_str(&unsealed(l)).unwrap();
            v["best_move_uci"] = "zz99".into();
            sealed(&v)
        }),
        ("WDL", |l| {
            let mut v: serde_json::Value = serde_json::from_str(&unsealed(l)).unwrap();
            v["wdl_win"] = 900.into();
            v["wdl_draw"] = 900.into();
            v["wdl_loss"] = 900.into();
            sealed(&v)
        }),
    ];
    for (reason, edit) in cases {
        let dir = Dir::new();
        swept(&dir, "a", "0-5");
        let before = fs::read(dir.file("a/sweep.csv")).unwrap();
        let journal = dir.file("a/journal.jsonl");
        let mut text = lines(&journal);
        text[3] = edit(&text[3]);
        fs::write(&journal, text.join("\n") + "\n").unwrap();

        let run = run_command(fake_sweep(&dir, "a", &["--positions", "0-5"]));
        assert_eq!(run.code, 2, "{reason}: {}", run.stderr);
        let line = one_line(&run.stderr);
        assert!(
            line.contains("journal.jsonl") && line.contains("line 4"),
            "{line}"
        );
        assert!(line.contains(reason), "{reason}: {line}");

        let repaired = run_command(fake_sweep(&dir, "a", &["--positions", "0-5", "--repair"]));
        assert_eq!(repaired.code, 0, "{reason}: {}", repaired.stderr);
        assert!(
            repaired.stderr.contains("repaired: dropped") && repaired.stderr.contains("line 4"),
            "{}",
            repaired.stderr
        );
        let manifest = json(&dir.file("a/manifest.json"));
        assert_eq!(manifest["repaired"][0]["line"], 4, "{manifest}");
        // The dropped position was evaluated again: the same table.
        assert_eq!(
            without_clock(&fs::read(dir.file("a/sweep.csv")).unwrap()),
            without_clock(&before),
            "{reason}"
        );
    }
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

#[test]
fn a_conflicting_duplicate_is_refused_not_taken() {
    let dir = Dir::new();
    swept(&dir, "a", "0-3");
    let journal = dir.file("a/journal.jsonl");
    let mut text = lines(&journal);
    let mut copy: serde_json::Value = serde_json::from_str(&unsealed(&text[1])).unwrap();
    let cp = copy["score_cp"].as_i64().unwrap();
    copy["score_cp"] = (cp + 500).into();
    text.push(sealed(&copy));
    fs::write(&journal, text.join("\n") + "\n").unwrap();
    let run = run_command(fake_sweep(&dir, "a", &["--positions", "0-3"]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(one_line(&run.stderr).contains("conflicting duplicate"));
    let repaired = run_command(fake_sweep(&dir, "a", &["--positions", "0-3", "--repair"]));
    assert_eq!(repaired.code, 0, "{}", repaired.stderr);
    assert_eq!(repaired.stderr.matches("repaired: dropped").count(), 2);
}

#[test]
fn an_illegal_move_in_a_self_play_journal_is_refused() {
    let dir = Dir::new();
    let engine = fake_engine();
    let args = [
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
        "sp",
        "--quiet",
    ];
    let first = dir.run(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let before = fs::read(dir.file("sp/games.pgn")).unwrap();
    let journal = dir.file("sp/journal.jsonl");
    let mut text = lines(&journal);
    let mut game: serde_json::Value = serde_json::from_str(&unsealed(&text[2])).unwrap();
    game["moves"][3] = "a1a8".into();
    text[2] = sealed(&game);
    fs::write(&journal, text.join("\n") + "\n").unwrap();
    let run = dir.run(&args);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let line = one_line(&run.stderr);
    assert!(line.contains("line 3") && line.contains("move 4"), "{line}");
    let mut repair = args.to_vec();
    repair.push("--repair");
    let repaired = dir.run(&repair);
    assert_eq!(repaired.code, 0, "{}", repaired.stderr);
    assert!(repaired.stderr.contains("dropped"), "{}", repaired.stderr);
    assert_eq!(fs::read(dir.file("sp/games.pgn")).unwrap(), before);
}

#[test]
fn an_error_is_said_once_in_one_line() {
    let dir = Dir::new();
    for args in [
        &[
            "sweep",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--out",
            "/proc/x",
            "--quiet",
        ][..],
        &[
            "selfplay",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--out",
            "/proc/x",
            "--quiet",
        ],
        &[
            "run",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--games",
            "0",
            "--out",
            "/proc/x",
            "--quiet",
        ],
    ] {
        let run = dir.run(args);
        assert_ne!(run.code, 0);
        let line = one_line(&run.stderr);
        assert_eq!(line.matches("cannot create /proc/x").count(), 1, "{line}");
        assert_eq!(line.matches("os error 2").count(), 1, "{line}");
    }
}

#[test]
fn a_manifest_of_the_wrong_shape_is_refused() {
    let dir = Dir::new();
    swept(&dir, "a", "0-2");
    let path = dir.file("a/manifest.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replace("\"limit\": \"nodes 10\"", "\"limit\": 7"),
    )
    .unwrap();
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("limit must be a non-empty string"), "{line}");
}

#[test]
fn a_second_c960_run_on_one_directory_is_refused() {
    let dir = Dir::new();
    let engine = fake_engine();
    let args = [
        "run",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "0-29",
        "--sweep-nodes",
        "10",
        "--games",
        "0",
        "--jobs",
        "1",
        "--out",
        "r",
        "--quiet",
    ];
    let mut first = dir.command(&args);
    first.env("C960_FAKE_UCI", "--slow 40");
    let mut first = first
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(&dir.file("r/sweep/journal.jsonl"));
    let second = dir.run(&args);
    assert_eq!(second.code, 1, "{}", second.stderr);
    let line = one_line(&second.stderr);
    assert!(
        line.contains(&format!("in use by process {}", first.id())),
        "{line}"
    );
    assert!(line.contains("c960 run"), "{line}");
    assert!(first.wait().unwrap().success());
    assert_eq!(json(&dir.file("r/sweep/manifest.json"))["rows"], 30);
}

#[test]
fn a_manifest_edited_together_with_the_table_metadata_still_must_match_the_rows() {
    use polars::prelude::*;
    let dir = Dir::new();
    swept(&dir, "a", "0-2");
    // An older table (no seal, no manifest inside) with an edited manifest.
    let mut frame = ParquetReader::new(fs::File::open(dir.file("a/sweep.parquet")).unwrap())
        .finish()
        .unwrap();
    ParquetWriter::new(fs::File::create(dir.file("a/sweep.parquet")).unwrap())
        .finish(&mut frame)
        .unwrap();
    let path = dir.file("a/manifest.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\"nodes 10\"", "\"nodes 40000\"")).unwrap();
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("rows were made at \"nodes 10\""), "{line}");
}
