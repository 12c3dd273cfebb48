//! `c960 selfplay` end to end: outputs, determinism, resume, faults, and
//! the PGN read back by python-chess.

use crate::util;

use std::{
    fs,
    path::Path,
    process::{Command, Stdio},
    thread,
    time::Duration,
};

use util::{Dir, fake_engine, run_command};

fn fake_selfplay(dir: &Dir, out: &str, extra: &[&str]) -> Command {
    let engine = fake_engine();
    let mut args = vec![
        "selfplay",
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

fn pgn_games(path: &Path) -> usize {
    fs::read_to_string(path).unwrap().matches("[Event ").count()
}

fn journal_lines(path: &Path) -> usize {
    fs::read_to_string(path).unwrap().lines().count() - 1
}

/// Reads the PGN with python-chess, replays every move, and checks each
/// game's result and termination against the final board.
fn verify_with_python_chess(pgn: &Path) -> String {
    let python = std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = r#"
import sys, chess, chess.pgn
games = 0
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        assert not game.errors, game.errors
        assert game.headers["Variant"] == "Chess960"
        board = game.board()
        assert board.chess960
        plies = 0
        for move in game.mainline_moves():
            assert board.is_legal(move), move
            board.push(move)
            plies += 1
        assert plies == int(game.headers["PlyCount"]), (plies, game.headers["PlyCount"])
        result = game.headers["Result"]
        why = game.headers["C960Termination"]
        if why == "checkmate":
            assert board.is_checkmate()
            assert result == ("0-1" if board.turn == chess.WHITE else "1-0")
        elif why == "stalemate":
            assert board.is_stalemate() and result == "1/2-1/2"
        elif why == "insufficient-material":
            assert board.is_insufficient_material() and result == "1/2-1/2"
        elif why == "threefold-repetition":
            assert board.is_repetition(3) and result == "1/2-1/2"
        elif why == "fifty-moves":
            assert board.halfmove_clock >= 100 and result == "1/2-1/2"
        else:
            assert why in ("resignation", "draw-adjudication", "ply-cap"), why
print(f"python-chess: {games} games replayed")
"#;
    let output = Command::new(&python)
        .args(["-c", script])
        .arg(pgn)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("No module named 'chess'"),
        "python-chess is required for this test: `pip install chess` (CI installs it into a \
         virtual environment and sets C960_PYTHON)"
    );
    assert!(
        output.status.success(),
        "python-chess rejected {}:\n{stderr}",
        pgn.display()
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn selfplay_writes_pgn_tables_and_manifest() {
    let dir = Dir::new();
    let run = run_command(fake_selfplay(
        &dir,
        "out",
        &[
            "--positions",
            "0-2,518",
            "--games-per-position",
            "3",
            "--jobs",
            "2",
        ],
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(pgn_games(&dir.file("out/games.pgn")), 12);
    let positions = fs::read_to_string(dir.file("out/positions.csv")).unwrap();
    let lines: Vec<&str> = positions.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with(
        "sp,placement,games,distinct_games,white_wins,draws,black_wins,white_score,white_score_low,white_score_high,interval,draw_rate"
    ), "{}", lines[0]);
    // The fake engine ignores the node budget: every game from a position is
    // the same, and the table says so.
    assert!(lines[4].starts_with("518,RNBQKBNR,3,1,"), "{}", lines[4]);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("out/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["kind"], "selfplay");
    assert_eq!(manifest["games"], 12);
    assert_eq!(manifest["engines"][0]["name"], "c960-fake-uci");
    assert_eq!(manifest["rules"]["max_plies"], 400);
    assert!(dir.file("out/games.parquet").is_file());
    assert!(dir.file("out/positions.parquet").is_file());
    verify_with_python_chess(&dir.file("out/games.pgn"));
}

#[test]
fn two_engines_play_colour_reversed_pairs() {
    let dir = Dir::new();
    let engine = fake_engine();
    let run = dir.run(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--engine-b",
        "builtin",
        "--positions",
        "91,518",
        "--games-per-position",
        "4",
        "--nodes",
        "200",
        "--max-plies",
        "30",
        "--quiet",
        "--out",
        "ab",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("ab/games.pgn")).unwrap();
    let whites: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[White ")).collect();
    assert_eq!(whites.len(), 8);
    // A is White in even games, B in odd ones.
    for (i, white) in whites.iter().enumerate() {
        let expected = if i % 2 == 0 {
            "c960-fake-uci"
        } else {
            "c960 builtin"
        };
        assert!(white.contains(expected), "game {i}: {white}");
    }
    let positions = fs::read_to_string(dir.file("ab/positions.csv")).unwrap();
    assert!(
        positions
            .lines()
            .skip(1)
            .all(|l| l.split(',').nth(10) == Some("pairs")),
        "{positions}"
    );
    // Both games of a pair share a seed.
    let seeds: Vec<&str> = pgn
        .lines()
        .filter(|l| l.starts_with("[C960Seed "))
        .collect();
    assert_eq!(seeds[0], seeds[1]);
    assert_ne!(seeds[1], seeds[2]);
    let manifest = fs::read_to_string(dir.file("ab/manifest.json")).unwrap();
    assert!(manifest.contains("c960 builtin") && manifest.contains("c960-fake-uci"));
}

#[test]
fn a_killed_run_resumes_to_the_same_games() {
    let dir = Dir::new();
    let args = [
        "--positions",
        "0-9",
        "--games-per-position",
        "4",
        "--jobs",
        "2",
        "--max-plies",
        "40",
    ];
    let whole = run_command(fake_selfplay(&dir, "whole", &args));
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    for kill_after_ms in [200, 400] {
        let mut command = fake_selfplay(&dir, "killed", &args);
        command
            .env("C960_FAKE_UCI", "--slow 2")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        thread::sleep(Duration::from_millis(kill_after_ms));
        // On a loaded machine the run may not have journaled its first game
        // yet: kill it only once it has (within 30 s).
        let journal = dir.file("killed/journal.jsonl");
        for _ in 0..600 {
            if fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() > 1) {
                break;
            }
            thread::sleep(Duration::from_millis(50));
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let partial = journal_lines(&dir.file("killed/journal.jsonl"));
    assert!(
        partial > 0 && partial < 40,
        "{partial} games before the resume"
    );
    let resumed = run_command(fake_selfplay(&dir, "killed", &args));
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(
        journal_lines(&dir.file("killed/journal.jsonl")),
        40,
        "no game twice"
    );
    assert_eq!(
        fs::read(dir.file("killed/games.pgn")).unwrap(),
        fs::read(dir.file("whole/games.pgn")).unwrap()
    );
    assert_eq!(
        fs::read(dir.file("killed/positions.csv")).unwrap(),
        fs::read(dir.file("whole/positions.csv")).unwrap()
    );
}

#[test]
fn engine_faults_replay_the_game_or_fail_it_never_fake_a_result() {
    let dir = Dir::new();
    let marker = dir.file("crashed-once");
    let mut once = fake_selfplay(
        &dir,
        "once",
        &[
            "--positions",
            "1",
            "--games-per-position",
            "2",
            "--max-plies",
            "20",
        ],
    );
    once.env(
        "C960_FAKE_UCI",
        format!("--crash-once {}", marker.display()),
    );
    let run = run_command(once);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(marker.exists(), "the engine did crash once");
    assert_eq!(pgn_games(&dir.file("once/games.pgn")), 2);

    let mut always = fake_selfplay(
        &dir,
        "always",
        &[
            "--positions",
            "1",
            "--games-per-position",
            "2",
            "--retries",
            "1",
        ],
    );
    always.env("C960_FAKE_UCI", "--crash");
    let run = run_command(always);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("2 games failed"), "{}", run.stderr);
    assert_eq!(
        pgn_games(&dir.file("always/games.pgn")),
        0,
        "no game invented"
    );

    let mut illegal = fake_selfplay(
        &dir,
        "illegal",
        &[
            "--positions",
            "1",
            "--games-per-position",
            "1",
            "--retries",
            "0",
        ],
    );
    illegal.env("C960_FAKE_UCI", "--illegal");
    let run = run_command(illegal);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("not legal"), "{}", run.stderr);
}

#[test]
fn bad_selfplay_flags_are_one_line_errors() {
    let dir = Dir::new();
    assert!(
        dir.bad_input(&[
            "selfplay",
            "--engine-b",
            "stockfish",
            "--games-per-position",
            "3"
        ])
        .contains("even")
    );
    assert!(
        dir.bad_input(&["selfplay", "--jitter", "1.5"])
            .contains("--jitter")
    );
    assert!(
        dir.bad_input(&["selfplay", "--games-per-position", "0"])
            .contains("at least 1")
    );
    assert!(
        dir.bad_input(&["selfplay", "--engine", "/nonexistent", "--positions", "1"])
            .contains("not found")
    );
    let mut no960 = fake_selfplay(&dir, "x", &["--positions", "1"]);
    no960.env("C960_FAKE_UCI", "--no-chess960");
    assert_eq!(run_command(no960).code, 2);
}

#[test]
fn stockfish_games_replay_byte_for_byte_and_load_in_python_chess() {
    let dir = Dir::new();
    let args = |out: &'static str| {
        vec![
            "selfplay",
            "--engine",
            "stockfish",
            "--positions",
            "91,292,518",
            "--games-per-position",
            "2",
            "--nodes",
            "1500",
            "--seed",
            "3",
            "--jobs",
            "2",
            "--quiet",
            "--scores",
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
    let pgn = fs::read(dir.file("a/games.pgn")).unwrap();
    assert_eq!(
        pgn,
        fs::read(dir.file("b/games.pgn")).unwrap(),
        "same seed, same bytes"
    );
    let text = String::from_utf8(pgn).unwrap();
    assert!(text.contains("[White \"Stockfish 15.1\"]"));
    assert!(text.contains("[FEN \"nnrkbrqb/pppppppp/8/8/8/8/PPPPPPPP/NNRKBRQB w KQkq - 0 1\"]"));
    let out = verify_with_python_chess(&dir.file("a/games.pgn"));
    assert!(out.contains("6 games replayed"), "{out}");
    // The jitter makes the two games of a position differ.
    let positions = fs::read_to_string(dir.file("a/positions.csv")).unwrap();
    let distinct: Vec<&str> = positions
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap())
        .collect();
    assert!(distinct.contains(&"2"), "{positions}");
}
