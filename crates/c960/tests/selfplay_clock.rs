//! `c960 selfplay` on the clock and with two different engines: clocks sent
//! as UCI expects and kept per side, losses on time, engine B's own
//! settings, Stockfish against Ethereal.

use crate::util;

use std::{collections::BTreeMap, fs};

use util::{Dir, fake_engine, run_command};

use crate::selfplay_match::{ethereal, fake_selfplay, manifest, options, traces};

/// The `clock ...` lines of a fake engine's trace (one per search on the
/// clock), as key → value maps.
fn clock_lines(trace: &[String]) -> Vec<BTreeMap<String, u64>> {
    trace
        .iter()
        .filter_map(|l| l.strip_prefix("clock "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words
                .chunks(2)
                .map(|kv| (kv[0].to_owned(), kv[1].parse().unwrap()))
                .collect()
        })
        .collect()
}

#[test]
fn clocks_are_sent_as_uci_expects_and_kept_per_side() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        fake_engine().to_str().unwrap(),
        "--tc",
        "40/60+0.5",
        "--positions",
        "518",
        "--games-per-position",
        "1",
        "--max-plies",
        "8",
        "--jobs",
        "1",
        "--out",
        "tc",
    ]);
    command.env(
        "C960_FAKE_UCI",
        format!("--slow 30 --trace {}", trace.display()),
    );
    let run = run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("do not replay exactly"),
        "{}",
        run.stdout
    );
    let searching: Vec<Vec<String>> = traces(&trace)
        .into_iter()
        .filter(|t| t.iter().any(|l| l.starts_with("go")))
        .collect();
    let white = searching
        .iter()
        .find(|t| t.contains(&"go w".to_owned()))
        .unwrap();
    let black = searching
        .iter()
        .find(|t| t.contains(&"go b".to_owned()))
        .unwrap();
    let (w, b) = (clock_lines(white), clock_lines(black));
    assert_eq!(w.len(), 4);
    // White's first move: both full clocks, both increments, 40 to go.
    let first = &w[0];
    assert_eq!(first["wtime"], 60_000);
    assert_eq!(first["btime"], 60_000);
    assert_eq!(first["winc"], 500);
    assert_eq!(first["binc"], 500);
    assert_eq!(first["movestogo"], 40);
    // Black's first move: White's clock charged (about 30 ms) and credited.
    let wtime = b[0]["wtime"];
    assert!(wtime < 60_500 - 25 && wtime > 60_500 - 1_000, "{wtime}");
    assert_eq!(b[0]["btime"], 60_000);
    assert_eq!(b[0]["movestogo"], 40);
    // White's second move: 39 to go; its clock as Black saw it.
    assert_eq!(w[1]["movestogo"], 39);
    assert_eq!(w[1]["wtime"], wtime);
    assert!(w[1]["btime"] < 60_500 - 25, "{:?}", w[1]);

    let m = manifest(&dir.file("tc/manifest.json"));
    assert_eq!(m["limit"], "tc 40/60+0.5");
    assert_eq!(m["replays_exactly"], false);
    assert!(
        m["notes"]
            .as_str()
            .unwrap()
            .contains("do not replay exactly")
    );
    let pgn = fs::read_to_string(dir.file("tc/games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"40/60+0.5\"]"), "{pgn}");
    assert!(
        pgn.contains("[C960Replay \"no: played on the clock\"]"),
        "{pgn}"
    );
    // Node-limit runs replay and say so.
    let mut nodes = fake_selfplay(
        &dir,
        "nodes",
        &["--positions", "1", "--games-per-position", "1"],
    );
    nodes.env_remove("C960_FAKE_UCI");
    assert_eq!(run_command(nodes).code, 0);
    let m = manifest(&dir.file("nodes/manifest.json"));
    assert_eq!(m["replays_exactly"], true);
    assert!(
        !fs::read_to_string(dir.file("nodes/games.pgn"))
            .unwrap()
            .contains("TimeControl")
    );
}

#[test]
fn an_engine_that_oversteps_its_time_loses_on_time_and_is_no_fault() {
    let dir = Dir::new();
    let engine = fake_engine();
    let play = |out: &str, extra: &[&str], fake: &str| {
        let mut args = vec![
            "selfplay",
            "--engine",
            engine.to_str().unwrap(),
            "--positions",
            "0,518",
            "--games-per-position",
            "1",
            "--max-plies",
            "6",
            "--retries",
            "0",
            "--quiet",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        let mut command = dir.command(&args);
        command.env("C960_FAKE_UCI", fake);
        run_command(command)
    };
    // The fake thinks its whole clock plus 100 ms: White loses on time on
    // its first move.
    let run = play("clock", &["--tc", "0.3+0.1"], "--overstep 100");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("clock/games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[C960Termination \"time-forfeit\"]").count(),
        2,
        "{pgn}"
    );
    assert_eq!(pgn.matches("[Termination \"time forfeit\"]").count(), 2);
    assert_eq!(pgn.matches("[Result \"0-1\"]").count(), 2);
    assert_eq!(pgn.matches("[PlyCount \"0\"]").count(), 2);
    assert!(pgn.contains("[TimeControl \"0.3+0.1\"]"));
    let m = manifest(&dir.file("clock/manifest.json"));
    assert_eq!(m["failed"].as_array().unwrap().len(), 0, "not a fault");
    let table = fs::read_to_string(dir.file("clock/positions.csv")).unwrap();
    let header: Vec<&str> = table.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|c| *c == "time_forfeit").unwrap();
    for row in table.lines().skip(1) {
        assert_eq!(row.split(',').nth(column), Some("1"), "{table}");
    }

    // Within the time margin it is no loss.
    let run = play(
        "margin",
        &["--tc", "0.3+0.1", "--time-margin", "2000"],
        "--overstep 100",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("margin/games.pgn")).unwrap();
    assert!(!pgn.contains("time-forfeit"), "{pgn}");

    // A time per move too.
    let run = play("st", &["--st", "0.1"], "--overstep 150");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("st/games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[C960Termination \"time-forfeit\"]").count(),
        2,
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"0.1/move\"]"), "{pgn}");
}

#[test]
fn bad_clock_flags_are_one_line_errors() {
    let dir = Dir::new();
    for (tc, needle) in [
        ("40/abc", "--tc"),
        ("0/60+1", "0 moves"),
        ("0+1", "no time"),
        ("x", "MOVES/SECONDS+INC"),
    ] {
        let line = dir.bad_input(&["selfplay", "--tc", tc, "--positions", "1"]);
        assert!(line.contains(needle), "{tc}: {line}");
    }
    assert!(
        dir.bad_input(&["selfplay", "--st", "0", "--positions", "1"])
            .contains("--st")
    );
    assert!(
        dir.bad_input(&["selfplay", "--tc", "10+0.1", "--nodes", "100"])
            .contains("cannot be used with")
    );
}

#[test]
fn engine_b_has_its_own_limit_hash_threads_and_options() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let engine = fake_engine();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--engine-b",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--nodes-b",
        "20",
        "--hash-b",
        "32",
        "--threads-b",
        "2",
        "--option-b",
        "MultiPV=2",
        "--jitter",
        "0",
        "--positions",
        "518",
        "--games-per-position",
        "2",
        "--max-plies",
        "6",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "ab",
    ]);
    command.env("C960_FAKE_UCI", format!("--trace {}", trace.display()));
    let run = run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("ab/manifest.json"));
    let (a, b) = (options(&m["engines"][0]), options(&m["engines"][1]));
    assert_eq!((a["Hash"].as_str(), a["Threads"].as_str()), ("16", "1"));
    assert_eq!((b["Hash"].as_str(), b["Threads"].as_str()), ("32", "2"));
    assert_eq!(b["MultiPV"], "2");
    assert!(!a.contains_key("MultiPV"));
    assert_eq!(m["limit"], "nodes 10");
    assert_eq!(m["limit_b"], "nodes 20");
    // Each process searched with its own engine's limit only.
    for t in traces(&trace) {
        let limits: Vec<&String> = t.iter().filter(|l| l.starts_with("limit")).collect();
        if limits.is_empty() {
            continue;
        }
        let hash = t.iter().find(|l| l.starts_with("setoption Hash")).unwrap();
        let expected = if hash.ends_with("32") {
            "limit nodes 20"
        } else {
            "limit nodes 10"
        };
        assert!(limits.iter().all(|l| *l == expected), "{t:?}");
    }
    let pgn = fs::read_to_string(dir.file("ab/games.pgn")).unwrap();
    assert!(
        pgn.contains("[C960Limit \"white: nodes 10; black: nodes 20\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[C960Limit \"white: nodes 20; black: nodes 10\"]"),
        "{pgn}"
    );

    // Per-side flags need a second engine.
    for flag in ["--nodes-b", "--hash-b", "--threads-b"] {
        let line = dir.bad_input(&["selfplay", flag, "5"]);
        assert!(line.contains("--engine-b"), "{flag}: {line}");
    }
}

#[test]
fn stockfish_against_ethereal_with_a_limit_each_and_on_the_clock() {
    let stockfish = c960_engine::uci::find_stockfish().unwrap_or_else(|| {
        panic!("Stockfish is required for this test: install it with `apt-get install stockfish`")
    });
    ethereal();
    let dir = Dir::new();
    let base = [
        "selfplay",
        "--engine",
        stockfish.to_str().unwrap(),
        "--engine-b",
        "ethereal",
        "--positions",
        "0",
        "--games-per-position",
        "2",
        "--max-plies",
        "30",
        "--jobs",
        "2",
        "--quiet",
    ];
    // Stockfish on nodes, Ethereal (which ignores `go nodes`) on depth.
    let mut args = base.to_vec();
    args.extend(["--nodes", "3000", "--depth-b", "5", "--out", "limits"]);
    let run = dir.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("limits/manifest.json"));
    assert_eq!(m["limit_b"], "depth 5");
    assert_eq!(m["replays_exactly"], true);
    assert!(
        m["engines"][1]["name"]
            .as_str()
            .unwrap()
            .starts_with("Ethereal")
    );
    // Both on the clock.
    let mut args = base.to_vec();
    args.extend(["--tc", "2+0.1", "--time-margin", "300", "--out", "clock"]);
    let run = dir.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("clock/manifest.json"));
    assert_eq!(m["games"], 2);
    assert_eq!(m["replays_exactly"], false);
    let pgn = fs::read_to_string(dir.file("clock/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[TimeControl \"2+0.1\"]").count(), 2);
}
