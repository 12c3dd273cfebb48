//! `c960 book exits` end to end with real Stockfish at small node counts:
//! legal lines inside the window, no game-over line, determinism, resume
//! after a kill, shards read back together, DFRC samples; and bad input
//! refused in one line.

use crate::util;

use std::{
    collections::{BTreeSet, HashMap},
    fs,
    path::Path,
    process::{Command, Stdio},
    thread,
    time::Duration,
};

use c960_core::shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};
use util::Dir;

pub(crate) const STARTS: &str = "0,91,292,518,700,959";

/// `book exits` with Stockfish at 3000 nodes, `MultiPV` 3, 2 plies.
pub(crate) fn exits<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "book",
        "exits",
        "--engine",
        "/usr/games/stockfish",
        "--nodes",
        "3000",
        "--multipv",
        "3",
        "--plies",
        "2",
        "--jobs",
        "2",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

/// Every exit of a run's journal: its book line → (cp, draw per mille,
/// game over).
pub(crate) fn journal_exits(path: &Path) -> HashMap<String, (Option<i64>, Option<u64>, bool)> {
    let text = fs::read_to_string(path).unwrap();
    let mut exits = HashMap::new();
    for line in text.lines().skip(1) {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        for exit in entry["exits"].as_array().unwrap() {
            exits.insert(
                exit["fen"].as_str().unwrap().to_owned(),
                (
                    exit["cp"].as_i64(),
                    exit["wdl"].get(1).and_then(serde_json::Value::as_u64),
                    exit["game_over"].as_bool().unwrap(),
                ),
            );
        }
    }
    exits
}

fn journal_starts(path: &Path) -> usize {
    fs::read_to_string(path).map_or(0, |t| t.lines().skip(1).count())
}

/// Checks each line of `book`: a legal Chess960 position, not game over,
/// each position once; returns the lines.
pub(crate) fn legal_lines(book: &Path) -> Vec<String> {
    let text = fs::read_to_string(book).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(!lines.is_empty(), "{} is empty", book.display());
    let mut seen = BTreeSet::new();
    for line in &lines {
        assert!(!line.contains(';'), "{line}");
        let position: Chess = line
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!position.is_game_over(), "{line}");
        let key: Vec<&str> = line.split(' ').take(4).collect();
        assert!(seen.insert(key.join(" ")), "duplicate {line}");
    }
    lines
}

#[test]
fn book_exits_lines_are_legal_inside_the_window_and_not_game_over() {
    let dir = Dir::new();
    let run = dir.file("run");
    let run = run.to_str().unwrap();
    dir.ok(&exits(&[
        "--positions",
        STARTS,
        "--cp",
        "0..80",
        "--run",
        run,
        "--out",
        "cp.epd",
    ]));
    let journal = journal_exits(&dir.file("run/journal.jsonl"));
    let lines = legal_lines(&dir.file("cp.epd"));
    for line in &lines {
        let (cp, _, over) = journal[line];
        let cp = cp.expect("a centipawn score");
        assert!((0..=80).contains(&cp), "{line}: {cp}");
        assert!(!over);
    }
    // Every start with an exit in the window is in the book, in SP order.
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("cp.json")).unwrap()).unwrap();
    assert_eq!(manifest["kind"], "exits");
    assert_eq!(manifest["lines"], lines.len());
    assert_eq!(manifest["made_with"]["engine"]["id_name"], "Stockfish 15.1");
    assert_eq!(manifest["made_with"]["expansion"]["nodes"], 3000);
    assert_eq!(manifest["made_with"]["counts"]["kept"], lines.len());
    assert_eq!(manifest["made_with"]["counts"]["starts"], 6);
    let journal_sha = c960_book_sha(&dir.file("run/journal.jsonl"));
    assert_eq!(manifest["made_with"]["runs"][0]["sha256"], journal_sha);

    // A draw-rate book from the same expansion: no search, WDL inside.
    dir.ok(&[
        "book",
        "exits",
        "--from",
        run,
        "--draw-rate",
        "60..100",
        "--per-start",
        "2",
        "--out",
        "dr.epd",
    ]);
    let lines = legal_lines(&dir.file("dr.epd"));
    assert!(lines.len() <= 12);
    for line in &lines {
        let draw = journal[line].1.expect("WDL");
        assert!((600..=1000).contains(&draw), "{line}: {draw}");
    }
}

fn c960_book_sha(path: &Path) -> String {
    c960_book::sha256_hex(&fs::read(path).unwrap())
}

#[test]
fn book_exits_are_deterministic_and_resume_after_kill_or_ctrl_c() {
    let dir = Dir::new();
    let book = |run: &'static str, out: &'static str| {
        let mut args = exits(&["--positions", "0-11", "--cp", "-50..150", "--count", "20"]);
        args.extend(["--run", run, "--out", out]);
        args
    };
    dir.ok(&book("a", "a.epd"));
    dir.ok(&book("b", "b.epd"));
    let a = fs::read(dir.file("a.epd")).unwrap();
    assert_eq!(
        a,
        fs::read(dir.file("b.epd")).unwrap(),
        "two runs, one book"
    );
    assert_eq!(legal_lines(&dir.file("a.epd")).len(), 20);

    // Killed (SIGKILL) once a start is journaled, then run again.
    let args_k = book("k", "k.epd");
    let mut command = dir.command(&args_k);
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = command.spawn().unwrap();
    let journal = dir.file("k/journal.jsonl");
    while journal_starts(&journal) == 0 {
        thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = journal_starts(&journal);
    assert!(!dir.file("k.epd").exists(), "killed before the end");
    assert!((1..12).contains(&partial), "{partial} starts done");
    dir.ok(&args_k);
    assert_eq!(journal_starts(&journal), 12, "no start expanded twice");
    assert_eq!(fs::read(dir.file("k.epd")).unwrap(), a, "resumed = whole");

    // Ctrl-C: the starts in progress finish, exit 130, and it says how to
    // resume.
    let args_i = book("i", "i.epd");
    let mut command = dir.command(&args_i);
    command.stdout(Stdio::null()).stderr(Stdio::piped());
    let child = command.spawn().unwrap();
    let journal = dir.file("i/journal.jsonl");
    while journal_starts(&journal) == 0 {
        thread::sleep(Duration::from_millis(10));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("run the same command again to resume"),
        "{stderr}"
    );
    assert!(journal_starts(&journal) < 12);
    dir.ok(&args_i);
    assert_eq!(
        fs::read(dir.file("i.epd")).unwrap(),
        a,
        "after Ctrl-C = whole"
    );
}

#[test]
fn book_exits_shards_merged_equal_the_whole_run() {
    let dir = Dir::new();
    let window = [
        "--positions",
        STARTS,
        "--cp",
        "-50..150",
        "--per-start",
        "3",
    ];
    let mut whole = exits(&window);
    whole.extend(["--run", "whole", "--out", "whole.epd"]);
    dir.ok(&whole);
    // Shards expand without a window; the book comes from their journals.
    // (SP mod 2: 0, 292, 518, 700 and 91, 959.)
    for (shard, run, starts) in [("0/2", "s0", 4), ("1/2", "s1", 2)] {
        let mut part = exits(&["--positions", STARTS]);
        part.extend(["--shard", shard, "--run", run]);
        dir.ok(&part);
        let journal = dir.file(&format!("{run}/journal.jsonl"));
        assert_eq!(journal_starts(&journal), starts);
    }
    dir.ok(&[
        "book",
        "exits",
        "--from",
        "s0",
        "s1",
        "--cp",
        "-50..150",
        "--per-start",
        "3",
        "--out",
        "merged.epd",
    ]);
    assert_eq!(
        fs::read(dir.file("merged.epd")).unwrap(),
        fs::read(dir.file("whole.epd")).unwrap()
    );
    let counts = |name: &str| {
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.file(name)).unwrap()).unwrap();
        manifest["made_with"]["counts"].clone()
    };
    assert_eq!(counts("merged.json"), counts("whole.json"));
    // Runs of other settings are not mixed.
    let mut other = exits(&[
        "--positions",
        "1",
        "--cp",
        "-50..150",
        "--run",
        "other",
        "--out",
        "o.epd",
    ]);
    other[5] = "2000";
    let _ = dir.run(&other);
    let refused = dir.bad_input(&[
        "book", "exits", "--from", "s0", "other", "--cp", "-50..150", "--out", "x.epd",
    ]);
    assert!(refused.contains("other settings"), "{refused}");
}

#[test]
fn book_exits_work_on_a_dfrc_sample() {
    let dir = Dir::new();
    dir.ok(&exits(&[
        "--variant",
        "dfrc",
        "--positions",
        "sample:3:1",
        "--cp",
        "-200..200",
        "--run",
        "run",
        "--out",
        "c960_DFRC_exits.epd",
    ]));
    let lines = legal_lines(&dir.file("c960_DFRC_exits.epd"));
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("c960_DFRC_exits.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["variant"], "dfrc");
    assert_eq!(manifest["setups"], "sample:3:1");
    assert_eq!(manifest["lines"], lines.len());
    // From the run, the set is named as expanded; another set is refused.
    let from = [
        "book",
        "exits",
        "--from",
        "run",
        "--cp",
        "-200..200",
        "--out",
        "from.epd",
    ];
    let mut named = from.to_vec();
    named.extend(["--positions", "sample:3:1"]);
    dir.ok(&named);
    assert_eq!(
        fs::read(dir.file("from.epd")).unwrap(),
        fs::read(dir.file("c960_DFRC_exits.epd")).unwrap()
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("from.json")).unwrap()).unwrap();
    assert_eq!(manifest["setups"], "sample:3:1");
    let mut other = from.to_vec();
    other.extend(["--positions", "sample:4:1"]);
    let line = dir.bad_input(&other);
    assert!(
        line.contains("--positions sample:4:1 names 4 starts"),
        "{line}"
    );
}

#[test]
fn book_exits_refuses_bad_input_in_one_line() {
    let dir = Dir::new();
    let builtin = |extra: &[&'static str]| {
        let mut args = vec![
            "book",
            "exits",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--nodes",
            "200",
            "--multipv",
            "2",
            "--plies",
            "1",
            "--run",
            "run",
            "--out",
            "b.epd",
        ];
        args.extend_from_slice(extra);
        args
    };
    let line = dir.bad_input(&builtin(&["--cp", "120..90"]));
    assert!(line.contains("--cp 120..90: LOW is above HIGH"), "{line}");
    let line = dir.bad_input(&builtin(&["--cp", "0..40000"]));
    assert!(line.contains("outside the engine's range"), "{line}");
    let line = dir.bad_input(&builtin(&["--draw-rate", "40..101"]));
    assert!(line.contains("outside the engine's range 0..100"), "{line}");
    // A quota of none is refused as the flags are read, before any search.
    for quota in ["--count", "--per-start"] {
        let line = dir.bad_input(&builtin(&["--cp", "90..120", quota, "0"]));
        assert!(
            line.contains(quota) && line.contains("at least 1"),
            "{line}"
        );
    }
    // Trees beyond the bounds (item 15: 6^P searches a start, a stack
    // overflow at --plies 1000) are refused before any engine starts.
    let tree = |multipv: &'static str, plies: &'static str| {
        vec![
            "book",
            "exits",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--nodes",
            "200",
            "--multipv",
            multipv,
            "--plies",
            plies,
            "--cp",
            "90..120",
            "--run",
            "run",
            "--out",
            "b.epd",
        ]
    };
    let line = dir.bad_input(&tree("1", "1000"));
    assert!(
        line.contains("--plies 1000 is out of range 1..=12"),
        "{line}"
    );
    let line = dir.bad_input(&tree("6", "7"));
    assert!(line.contains("searches a start, more than 10000"), "{line}");
    assert!(
        !dir.file("run").exists(),
        "refused before any engine starts"
    );
    // The built-in engine has no WDL model.
    let line = dir.bad_input(&builtin(&["--draw-rate", "48..52"]));
    assert!(
        line.contains("--draw-rate needs the engine's WDL model"),
        "{line}"
    );
    assert_eq!(journal_starts(&dir.file("run/journal.jsonl")), 0);
    // Nothing in the window: no book.
    let line = dir.bad_input(&builtin(&["--cp", "30000..32000"]));
    assert!(line.contains("empty selection"), "{line}");
    assert!(!dir.file("b.epd").exists());
    let line = dir.bad_input(&["book", "exits", "--from", "run", "--out", "b.epd"]);
    assert!(line.contains("give the book's window"), "{line}");
}

#[test]
fn book_exits_refuse_a_damaged_journal_and_repair_it() {
    let dir = Dir::new();
    let mut args = exits(&["--positions", "0,1,2", "--cp", "-100..200"]);
    args.extend(["--run", "run", "--out", "b.epd"]);
    dir.ok(&args);
    let book = fs::read(dir.file("b.epd")).unwrap();
    let journal = dir.file("run/journal.jsonl");
    let text = fs::read_to_string(&journal).unwrap();
    let damaged: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(n, line)| {
            if n == 2 {
                line.replacen("\"cp\":", "\"cp\":1", 1)
            } else {
                line.to_owned()
            }
        })
        .collect();
    fs::write(&journal, damaged.join("\n") + "\n").unwrap();
    let line = dir.bad_input(&args);
    assert!(
        line.contains("journal.jsonl is corrupt at line 3"),
        "{line}"
    );
    let mut repair = args.clone();
    repair.push("--repair");
    let run = dir.run(&repair);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("repaired: dropped"), "{}", run.stderr);
    assert_eq!(fs::read(dir.file("b.epd")).unwrap(), book);
}

/// The published exit books come from their recorded settings: four starts
/// expanded again with the manifest's engine, nodes, K and P and cut with
/// its window, quota and seed give lines that are the published book's, in
/// its order (each start's block where the book has it). The expansion's
/// journal of all 960 starts is not committed; this is its slice.
#[test]
fn the_published_exit_books_regenerate_on_a_slice_of_starts() {
    let books = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/books");
    let dir = Dir::new();
    let mut expanded = false;
    for (name, window) in [
        ("c960_FRC_exits_cp90-120", ["--cp", "90..120"]),
        ("c960_FRC_exits_dr48-52", ["--draw-rate", "48..52"]),
    ] {
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(books.join(format!("{name}.json"))).unwrap())
                .unwrap();
        let made = &manifest["made_with"];
        assert_eq!(made["engine"]["id_name"], "Stockfish 15.1", "{name}");
        let expansion = &made["expansion"];
        let (nodes, multipv, plies) = (
            expansion["nodes"].to_string(),
            expansion["multipv"].to_string(),
            expansion["plies"].to_string(),
        );
        let per_start = made["selection"]["quota"]["per-start"].to_string();
        let seed = made["selection"]["seed"].to_string();
        let mut args = vec!["book", "exits", "--seed", &seed, "--per-start", &per_start];
        if expanded {
            args.extend(["--from", "slice"]);
        } else {
            args.extend([
                "--engine",
                "/usr/games/stockfish",
                "--nodes",
                &nodes,
                "--multipv",
                &multipv,
                "--plies",
                &plies,
                "--positions",
                "0,300,518,959",
                "--jobs",
                "2",
                "--run",
                "slice",
            ]);
        }
        args.extend(window);
        args.extend(["--out", "slice.epd", "--quiet"]);
        dir.ok(&args);
        expanded = true;
        let published = fs::read_to_string(books.join(format!("{name}.epd"))).unwrap();
        let published: Vec<&str> = published.lines().collect();
        let slice = fs::read_to_string(dir.file("slice.epd")).unwrap();
        let at: Vec<usize> = slice
            .lines()
            .map(|line| {
                published
                    .iter()
                    .position(|p| *p == line)
                    .unwrap_or_else(|| panic!("{name} lacks the exit {line}"))
            })
            .collect();
        assert!(!at.is_empty(), "{name}: the slice keeps no exit");
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{name}: order {at:?}");
        // `--help` states how many starts have exits in each window over
        // all 960, from these manifests.
        let kept = made["counts"]["starts_kept"].to_string();
        let help = dir.ok(&["book", "exits", "--help"]);
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let window = window.join(" ");
        assert!(
            help.contains(&format!("{kept} have exits in {window}"))
                || help.contains(&format!("and {kept} in {window}")),
            "--help gives {kept} starts with exits in {window}"
        );
    }
}

#[test]
fn a_book_is_never_made_from_a_run_still_expanding_or_stopped_early() {
    let dir = Dir::new();
    let expand = [
        "book",
        "exits",
        "--engine",
        "builtin",
        "--positions",
        "0-3",
        "--nodes",
        "200",
        "--multipv",
        "2",
        "--plies",
        "1",
        "--quiet",
        "--run",
        "run",
    ];
    dir.ok(&expand);
    let book = [
        "book",
        "exits",
        "--from",
        "run",
        "--cp",
        "-900..900",
        "--out",
        "b.epd",
    ];
    // A run being expanded holds its directory's lock.
    let mut holder = std::process::Command::new("flock")
        .arg("-o")
        .arg(dir.file("run/.c960.lock"))
        .args(["sleep", "30"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let run = dir.run(&book);
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("run is in use by"), "{}", run.stderr);
    assert!(!dir.file("b.epd").exists());
    // A run killed before its end (its last start not journaled).
    let journal = dir.file("run/journal.jsonl");
    let whole = fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert_eq!(lines.len(), 5, "a header and 4 starts");
    fs::write(&journal, lines[..4].join("\n") + "\n").unwrap();
    let line = dir.bad_input(&book);
    assert!(
        line.contains("run holds 3 of the 4 starts its expansion set out to expand"),
        "{line}"
    );
    assert!(!dir.file("b.epd").exists());
    // Resumed to its end, it makes its book.
    dir.ok(&expand);
    dir.ok(&book);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("b.json")).unwrap()).unwrap();
    assert_eq!(manifest["made_with"]["counts"]["starts"], 4);
}
