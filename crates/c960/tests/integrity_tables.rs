//! Nothing lost, nothing mixed, in tables, journals and manifests: flipped
//! bytes, edited manifests, journal lines that cannot be trusted,
//! conflicting duplicates, illegal moves, errors said once, two runs on one
//! directory.

use crate::util;

use std::{fs, path::Path, process::Stdio};

use util::{Dir, fake_engine, run_command};

use crate::integrity::{fake_sweep, json, one_line, swept, wait_for};

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
    assert!(
        line.contains("manifest.json: limit: invalid type: integer `7`, expected a string"),
        "{line}"
    );
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
    // A run from before seals: no journal checksums, no manifest field of
    // a version that seals (otherwise the table is refused for its
    // missing seal alone).
    fs::remove_file(dir.file("a/journal.jsonl")).unwrap();
    let path = dir.file("a/manifest.json");
    let mut manifest = json(&path);
    manifest.as_object_mut().unwrap().remove("repeats");
    let text = serde_json::to_string_pretty(&manifest).unwrap();
    fs::write(&path, text.replace("\"nodes 10\"", "\"nodes 40000\"")).unwrap();
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(line.contains("rows were made at \"nodes 10\""), "{line}");
}

/// Issue 48, item 21: a table from before a column existed (no seal, no
/// `score_cp`) is bad input for `report` and `balance`, refused in one
/// line naming the column, never polars' own words with exit 1; and no
/// output directory is left behind.
#[test]
fn a_legacy_table_without_score_cp_is_one_line_of_bad_input() {
    use polars::prelude::*;
    let dir = Dir::new();
    swept(&dir, "a", "0-2");
    let frame = ParquetReader::new(fs::File::open(dir.file("a/sweep.parquet")).unwrap())
        .finish()
        .unwrap();
    let mut frame = frame.drop("score_cp").unwrap();
    ParquetWriter::new(fs::File::create(dir.file("a/sweep.parquet")).unwrap())
        .finish(&mut frame)
        .unwrap();
    fs::remove_file(dir.file("a/journal.jsonl")).unwrap();
    let path = dir.file("a/manifest.json");
    let mut manifest = json(&path);
    manifest.as_object_mut().unwrap().remove("repeats");
    fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let line = dir.bad_input(&["report", "--sweep", "a", "--out", "site", "--quiet"]);
    assert!(
        line.contains("a: sweep.parquet has no column score_cp: not a sweep table"),
        "{line}"
    );
    assert!(!line.contains("unable to find column"), "{line}");
    assert!(!dir.file("site").exists());
    let line = dir.bad_input(&["balance", "--sweep", "a", "--out", "verdicts"]);
    assert!(line.contains("it has no column score_cp"), "{line}");
    assert!(
        !dir.file("verdicts").exists(),
        "a refused balance leaves no directory"
    );
}
