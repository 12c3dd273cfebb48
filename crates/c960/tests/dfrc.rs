//! `c960 positions --variant dfrc` and `c960 show --variant dfrc`: the
//! Double Fischer Random table, checked on its diagonal against the Chess960
//! table and on a stratified sample of asymmetric setups against an
//! independent computation with python-chess.

use crate::util;

use std::process::Command;

use polars::prelude::*;
use util::Dir;

fn python() -> String {
    std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

#[test]
fn the_diagonal_equals_the_chess960_table() {
    let dir = Dir::new();
    let dfrc = dir.ok(&["positions", "--variant", "dfrc", "--positions", "symmetric"]);
    let classic = dir.ok(&["positions"]);
    let dfrc: Vec<csv::StringRecord> = csv::Reader::from_reader(dfrc.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    let mut reader = csv::Reader::from_reader(classic.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let classic: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(dfrc.len(), 960);
    for (d, c) in dfrc.iter().zip(&classic) {
        // index, white_sp, black_sp, symmetric, placement, shredder, xfen, ...
        assert_eq!(d[1], c[col("sp")]);
        assert_eq!(d[3], *"true");
        assert_eq!(d[5], c[col("shredder_fen")]);
        assert_eq!(d[6], c[col("xfen")]);
        assert_eq!(d[7], c[col("undefended_pawns")]);
        assert_eq!(d[8], c[col("undefended_pawns")]);
        assert_eq!(d[11], c[col("weak_pawns")]);
        assert_eq!(d[13], c[col("first_move_attackable")]);
        assert_eq!(
            d[15],
            c[col("first_move_attackable")],
            "Black's mirror White's"
        );
    }
}

/// Recomputes the per-side features of every row with python-chess.
const CHECK: &str = r#"
import csv, sys
import chess

def weak(board, color):
    rank = 1 if color == chess.WHITE else 6
    king = board.king(color)
    undefended, king_only = [], []
    for f in range(8):
        sq = chess.square(f, rank)
        defenders = board.attackers(color, sq)
        if not defenders:
            undefended.append(sq)
        elif set(defenders) == {king}:
            king_only.append(sq)
    return undefended, king_only

def first_moves(board, color, targets):
    b = board.copy()
    b.turn = color
    attacked, castles = set(), {"a": False, "h": False}
    for m in list(b.legal_moves):
        if b.is_castling(m):
            castles["h" if b.is_kingside_castling(m) else "a"] = True
        b.push(m)
        for sq in targets:
            if b.attackers(color, sq):
                attacked.add(sq)
        b.pop()
    return len(attacked), castles

bad = 0
rows = list(csv.DictReader(open(sys.argv[1])))
for row in rows:
    board = chess.Board(row["shredder_fen"], chess960=True)
    wu, wk = weak(board, chess.WHITE)
    bu, bk = weak(board, chess.BLACK)
    wa, wc = first_moves(board, chess.WHITE, bu)
    ba, bc = first_moves(board, chess.BLACK, wu)
    want = {
        "white_undefended": len(wu), "black_undefended": len(bu),
        "white_king_only": len(wk), "black_king_only": len(bk),
        "white_weak": len(wu) + len(wk), "black_weak": len(bu) + len(bk),
        "white_attackable": wa, "black_attackable": ba,
        "white_castle_a_first_move": wc["a"], "white_castle_h_first_move": wc["h"],
        "black_castle_a_first_move": bc["a"], "black_castle_h_first_move": bc["h"],
    }
    for key, value in want.items():
        got = row[key]
        value = str(value).lower()
        if got != value:
            bad += 1
            print(f"{row['placement']} {key}: c960 {got}, python-chess {value}")
asymmetric = sum(1 for r in rows if r["symmetric"] == "false")
print(f"{len(rows)} rows, {asymmetric} asymmetric, {bad} differences")
sys.exit(1 if bad else 0)
"#;

#[test]
fn per_side_features_agree_with_python_chess_on_a_stratified_sample() {
    let dir = Dir::new();
    dir.ok(&[
        "positions",
        "--variant",
        "dfrc",
        "--positions",
        "sample:400:3",
        "--out",
        "sample.csv",
    ]);
    let output = Command::new(python())
        .arg("-c")
        .arg(CHECK)
        .arg(dir.file("sample.csv"))
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e} (this test needs python-chess: pip install chess, or set C960_PYTHON)",
                python()
            )
        });
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("400 rows"), "{stdout}");
}

#[test]
fn all_921600_setups_stream_to_parquet() {
    let dir = Dir::new();
    dir.ok(&[
        "positions",
        "--variant",
        "dfrc",
        "--format",
        "parquet",
        "--out",
        "dfrc.parquet",
    ]);
    let file = std::fs::File::open(dir.file("dfrc.parquet")).unwrap();
    let frame = ParquetReader::new(file).finish().unwrap();
    assert_eq!(frame.height(), 921_600);
    let symmetric = frame
        .column("symmetric")
        .unwrap()
        .bool()
        .unwrap()
        .sum()
        .unwrap();
    assert_eq!(symmetric, 960);
    let index = frame.column("index").unwrap().u32().unwrap();
    assert_eq!((index.get(0), index.get(921_599)), (Some(0), Some(921_599)));
}

#[test]
fn dfrc_bad_input_is_one_line() {
    let dir = Dir::new();
    let line = dir.bad_input(&["show", "--variant", "dfrc", "921600"]);
    assert!(line.contains("out of range 0..=921599"), "{line}");
    let line = dir.bad_input(&["show", "--variant", "dfrc", "BBQNNRKR/RKRNNQBX"]);
    assert!(line.contains("Black's back rank"), "{line}");
    let line = dir.bad_input(&["positions", "--variant", "dfrc", "--positions", "sample:5"]);
    assert!(line.contains("not a set of setups"), "{line}");
    let line = dir.bad_input(&["positions", "--variant", "dfrc", "--format", "parquet"]);
    assert!(line.contains("--out"), "{line}");
    let line = dir.bad_input(&["positions", "--positions", "0-5"]);
    assert!(line.contains("--variant dfrc"), "{line}");
    let shown = dir.ok(&["show", "--variant", "dfrc", "0"]);
    assert!(shown.contains("DFRC setup 0  BBQNNRKR/BBQNNRKR"), "{shown}");
}
