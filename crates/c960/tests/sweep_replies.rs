//! `c960 sweep --reply` end to end: the difficulty of White's first move
//! and of Black's reply, measured from engines whose answers are known
//! (the fake engine: its plain lines, more lines asked for than there are
//! moves, lines with mates, bounds and ties) and from real Stockfish,
//! whose tables replay and whose measures follow from their own move
//! columns.

use crate::util;

use std::collections::BTreeMap;

use c960_core::{
    StartPosition,
    shakmaty::{Chess, Position, uci::UciMove},
};
use c960_sweep::DIFFICULTY_COLUMNS;
use util::{Dir, csv_records, fake_engine, run_command};

use crate::lying_engines;

/// `c960 sweep --reply` of SP 5 and 518 (2,000 nodes) with the fake
/// engine in `mode`.
fn fake(dir: &Dir, mode: &str, multipv: &str) -> Vec<BTreeMap<String, String>> {
    let run = run_command(lying_engines::sweep_command(
        dir,
        &fake_engine(),
        mode,
        &["--multipv", multipv, "--reply"],
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    csv_records(&dir.file("out/sweep.csv"), &[])
}

/// The measures of a row: lines, good moves, gap and bound lines for White
/// and for Black, then the two asymmetries.
fn measures(row: &BTreeMap<String, String>) -> [&str; 10] {
    DIFFICULTY_COLUMNS.map(|c| row[c].as_str())
}

fn start(sp: &str) -> Chess {
    StartPosition::new(sp.parse().unwrap())
        .unwrap()
        .to_position()
}

fn after(position: &Chess, uci: &str) -> Chess {
    let m = uci.parse::<UciMove>().unwrap().to_move(position).unwrap();
    let mut next = position.clone();
    next.play_unchecked(m);
    next
}

#[test]
fn plain_lines_give_the_good_moves_and_gaps_their_scores_imply() {
    // The fake engine scores its k-th line (from 0) 7k centipawns below
    // the first for the side to move: 0, 7, 14 and 21 lie within 25 cp,
    // 28 does not; the gap is 7. Both sides alike: no asymmetry.
    let dir = Dir::new();
    let rows = fake(&dir, "", "8");
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(
            measures(row),
            ["8", "4", "7", "0", "8", "4", "7", "0", "0", "0"]
        );
        // The reply answers the row's best move.
        let position = after(&start(&row["sp"]), &row["best_move_uci"]);
        assert!(position.turn().is_black());
        assert!(
            row["reply_move1_uci"]
                .parse::<UciMove>()
                .unwrap()
                .to_move(&position)
                .is_ok()
        );
        assert_eq!(row["reply_move1_uci"], row["reply_best_move_uci"]);
        assert_eq!(row["reply_nodes"], "2000");
    }
}

#[test]
fn more_lines_asked_for_than_there_are_moves_score_every_move() {
    let dir = Dir::new();
    for row in fake(&dir, "", "60") {
        let position = start(&row["sp"]);
        let white = position.legal_moves().len();
        let black = after(&position, &row["best_move_uci"]).legal_moves().len();
        assert!(white < 60 && black < 60);
        assert_eq!(row["white_lines"], white.to_string());
        assert_eq!(row["black_lines"], black.to_string());
        // The columns of lines the engine could not give stay empty.
        assert_eq!(row["move60_uci"], "");
        assert_eq!(row[&format!("reply_move{black}_uci")].len(), 4);
        assert_eq!(row[&format!("reply_move{}_uci", black + 1)], "");
    }
}

#[test]
fn mates_bounds_and_ties_are_read_as_documented() {
    // --odd-lines, from the side to move (B its score): B; mate -2 (the
    // move is mated: -1000 cp); B as an upper bound (a tie); B-25 as a
    // lower bound (on the window's edge); then B-28 for White, B-10 for
    // Black; B-35.
    let dir = Dir::new();
    let rows = fake(&dir, "--odd-lines", "6");
    for row in &rows {
        assert_eq!(
            measures(row),
            ["6", "3", "0", "2", "6", "4", "0", "2", "-1", "0"],
            "{row:?}"
        );
        // Scores in the table are White's: White is mated after White's
        // second line, and mates after Black's.
        assert_eq!(row["move2_mate"], "-2");
        assert_eq!(row["move2_cp"], "");
        assert_eq!(row["reply_move2_mate"], "2");
        let b: i32 = row["move1_cp"].parse().unwrap();
        assert_eq!(row["move4_cp"], (b - 25).to_string());
        let reply: i32 = row["reply_move1_cp"].parse().unwrap();
        assert_eq!(row["reply_move5_cp"], (reply + 10).to_string());
        // Bounds too are White's: Black's upper bound is White's lower.
        let bounds = |prefix: &str| -> Vec<String> {
            (1..=6)
                .map(|k| row[&format!("{prefix}{k}_bound")].clone())
                .collect()
        };
        assert_eq!(
            bounds("move"),
            ["exact", "exact", "upper", "lower", "exact", "exact"]
        );
        assert_eq!(
            bounds("reply_move"),
            ["exact", "exact", "lower", "upper", "exact", "exact"]
        );
    }
}

#[test]
fn a_reply_needs_more_than_one_line() {
    let dir = Dir::new();
    let engine = fake_engine();
    let line = dir.bad_input(&[
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "5",
        "--reply",
        "--out",
        "out",
    ]);
    assert!(line.contains("--multipv 2 or more"), "{line}");
}

#[test]
fn stockfish_replies_replay_and_their_measures_follow_from_the_move_columns() {
    let dir = Dir::new();
    let sweep = |out: &str| {
        let run = dir.run(&[
            "sweep",
            "--engine",
            "stockfish",
            "--positions",
            "0,518,959",
            "--nodes",
            "20000",
            "--multipv",
            "5",
            "--reply",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        csv_records(&dir.file(out).join("sweep.csv"), &[])
    };
    let first = sweep("a");
    assert_eq!(first.len(), 3);
    for row in &first {
        assert!(row["engine"].starts_with("Stockfish"), "{row:?}");
        let nodes: u64 = row["reply_nodes"].parse().unwrap();
        assert!(nodes >= 20_000 / 4, "{row:?}");
        assert!(row["reply_depth"].parse::<u32>().unwrap() >= 1);
        // Black's best move is legal after White's best move.
        let position = after(&start(&row["sp"]), &row["best_move_uci"]);
        after(&position, &row["reply_best_move_uci"]);
        // The measures again, from the move columns: White's scores as
        // they stand, Black's negated (no mate at these depths).
        let scores = |prefix: &str, sign: i32| -> Vec<i32> {
            (1..=5)
                .map(|k| sign * row[&format!("{prefix}{k}_cp")].parse::<i32>().unwrap())
                .collect()
        };
        let side = |scores: Vec<i32>| {
            let best = *scores.iter().max().unwrap();
            let good = i32::try_from(scores.iter().filter(|&&s| s >= best - 25).count()).unwrap();
            let mut sorted = scores.clone();
            sorted.sort_unstable();
            (good, best - sorted[sorted.len() - 2])
        };
        let (white_good, white_gap) = side(scores("move", 1));
        let (black_good, black_gap) = side(scores("reply_move", -1));
        let cell = |c: &str| row[c].parse::<i32>().unwrap();
        assert_eq!(cell("white_good_moves"), white_good);
        assert_eq!(cell("white_gap_cp"), white_gap);
        assert_eq!(cell("black_good_moves"), black_good);
        assert_eq!(cell("black_gap_cp"), black_gap);
        assert_eq!(cell("good_moves_asymmetry"), white_good - black_good);
        assert_eq!(cell("gap_asymmetry_cp"), white_gap - black_gap);
        let bound_lines = |prefix: &str| {
            (1..=5)
                .filter(|k| row[&format!("{prefix}{k}_bound")] != "exact")
                .count()
        };
        assert_eq!(
            cell("white_bound_lines"),
            i32::try_from(bound_lines("move")).unwrap()
        );
        assert_eq!(
            cell("black_bound_lines"),
            i32::try_from(bound_lines("reply_move")).unwrap()
        );
    }
    // One thread, a node limit and a cleared hash for each search: the
    // same table again, apart from the engine's clock.
    let clock = ["time_ms", "reply_time_ms"];
    sweep("b");
    assert_eq!(
        csv_records(&dir.file("b/sweep.csv"), &clock),
        csv_records(&dir.file("a/sweep.csv"), &clock)
    );
}
