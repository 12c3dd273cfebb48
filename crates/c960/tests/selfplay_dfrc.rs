//! `c960 selfplay --variant dfrc`: games from Double Fischer Random setups,
//! named by DFRC index, written as PGN that python-chess replays from each
//! setup's own two back ranks, and sharded, merged and restored like
//! Chess960 games.

use crate::util;

use std::{fs, path::Path, process::Command};

use util::{Dir, read_parquet as read, u32_column as u32s};

const SETUPS: &str = "0,1000,500000,921598";

fn selfplay(dir: &Dir, out: &str, extra: &[&str]) {
    let mut args = vec![
        "selfplay",
        "--variant",
        "dfrc",
        "--positions",
        SETUPS,
        "--engine",
        "builtin",
        "--nodes",
        "300",
        "--max-plies",
        "60",
        "--games-per-position",
        "4",
        "--seed",
        "9",
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    dir.ok(&args);
}

/// Replays every game of the PGN with python-chess from its own FEN and
/// checks that the start board has the setup's two ranks (from
/// positions.csv) and that every move is legal.
fn replay_with_python_chess(pgn: &Path, positions: &Path) -> String {
    let python = std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = r#"
import csv, sys, chess, chess.pgn
ranks = {int(r["setup"]): r["placement"] for r in csv.DictReader(open(sys.argv[2]))}
games = asymmetric = 0
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        assert not game.errors, game.errors
        assert game.headers["Variant"] == "Chess960"
        setup = int(game.headers["C960Setup"].removeprefix("DFRC "))
        white, black = ranks[setup].split("/")
        board = game.board()
        assert board.chess960
        first = "".join(board.piece_at(chess.square(f, 0)).symbol() for f in range(8))
        eighth = "".join(board.piece_at(chess.square(f, 7)).symbol() for f in range(8))
        assert first == white and eighth == black.lower(), (setup, first, eighth, white, black)
        asymmetric += white != black
        # Each side may castle both ways at the start, with its own rooks.
        assert bin(board.castling_rights).count("1") == 4, board.fen()
        for move in game.mainline_moves():
            assert board.is_legal(move), (setup, move)
            board.push(move)
print(f"python-chess: {games} games, {asymmetric} from asymmetric setups")
"#;
    let output = Command::new(&python)
        .args(["-c", script])
        .arg(pgn)
        .arg(positions)
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
        "python-chess rejected the PGN:\n{stderr}"
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn dfrc_games_are_named_by_index_and_replay_in_python_chess() {
    let dir = Dir::new();
    selfplay(&dir, "run", &[]);
    let games = read(&dir.file("run/games.parquet"));
    assert_eq!(games.height(), 16);
    assert_eq!(games.get_column_names()[0].as_str(), "setup");
    let setups = u32s(&games, "setup");
    let (white, black) = (u32s(&games, "white_sp"), u32s(&games, "black_sp"));
    for (k, n) in setups.iter().enumerate() {
        assert_eq!((white[k], black[k]), (n % 960, n / 960));
    }
    let mut distinct = setups.clone();
    distinct.dedup();
    assert_eq!(distinct, [0, 1000, 500_000, 921_598]);

    let positions = read(&dir.file("run/positions.parquet"));
    assert_eq!(u32s(&positions, "setup"), [0, 1000, 500_000, 921_598]);
    assert_eq!(u32s(&positions, "games"), [4, 4, 4, 4]);

    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("run/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["variant"], "dfrc");
    assert_eq!(manifest["positions"], SETUPS);

    let out = replay_with_python_chess(&dir.file("run/games.pgn"), &dir.file("run/positions.csv"));
    assert!(out.contains("16 games, 12 from asymmetric setups"), "{out}");
}

#[test]
fn dfrc_selfplay_shards_merge_into_the_unsharded_run() {
    let dir = Dir::new();
    selfplay(&dir, "whole", &[]);
    selfplay(&dir, "s1", &["--shard", "1/2"]);
    selfplay(&dir, "s0", &["--shard", "0/2"]);
    dir.ok(&["merge", "s1", "s0", "--out", "merged", "--quiet"]);
    assert_eq!(
        fs::read_to_string(dir.file("whole/games.pgn")).unwrap(),
        fs::read_to_string(dir.file("merged/games.pgn")).unwrap()
    );
    let whole = read(&dir.file("whole/games.parquet"));
    let merged = read(&dir.file("merged/games.parquet"));
    assert!(whole.equals_missing(&merged));
    // The merged run also comes back from its game table alone, setups
    // named by DFRC index.
    dir.ok(&[
        "restore",
        "merged/games.parquet",
        "--out",
        "restored",
        "--quiet",
    ]);
    for file in [
        "games.pgn",
        "games.parquet",
        "positions.parquet",
        "manifest.json",
    ] {
        assert!(
            fs::read(dir.file("merged").join(file)).unwrap()
                == fs::read(dir.file("restored").join(file)).unwrap(),
            "restored {file} differs"
        );
    }
}

#[test]
fn dfrc_selfplay_refuses_opening_books_and_bad_sets() {
    let dir = Dir::new();
    fs::write(
        dir.file("book.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    )
    .unwrap();
    for (extra, says) in [
        (vec!["--openings", "book.epd"], "opening books"),
        (vec!["--positions", "921600"], "out of range"),
    ] {
        let mut args = vec![
            "selfplay",
            "--variant",
            "dfrc",
            "--engine",
            "builtin",
            "--quiet",
        ];
        args.extend(extra);
        args.extend(["--out", "bad"]);
        let err = dir.bad_input(&args);
        assert!(err.contains(says), "{err}");
    }
}
