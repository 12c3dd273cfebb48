//! The importer on hand-made PGN with every defect of real data, its
//! zstd-compressed twin, and games written by python-chess.

use std::{fs, path::PathBuf, process::Command};

use c960_games::{Filters, ImportedGame, SkipReason, import, import_to};
use polars::prelude::*;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn read_all(
    files: &[PathBuf],
    filters: &Filters,
) -> (c960_games::ImportSummary, Vec<ImportedGame>) {
    let mut games = Vec::new();
    let summary = import(files, filters, |g| {
        games.push(g);
        Ok(())
    })
    .unwrap();
    (summary, games)
}

#[test]
fn every_defect_is_counted_and_good_games_are_kept() {
    let (summary, games) = read_all(&[fixture("defects.pgn")], &Filters::default());
    assert_eq!(summary.read, 13);
    assert_eq!(summary.kept, 4);
    let expected = [
        (SkipReason::NotChess960, 1),
        (SkipReason::UnknownFen, 1),
        (SkipReason::MalformedFen, 1),
        (SkipReason::BadCastlingField, 2),
        (SkipReason::NotAStartPosition, 1),
        (SkipReason::IllegalMove, 1),
        (SkipReason::NoResult, 2),
    ];
    for (reason, n) in expected {
        assert_eq!(summary.skipped.get(&reason), Some(&n), "{reason:?}");
    }
    assert_eq!(summary.skipped.values().sum::<u64>(), 9);
    assert!(summary.examples[&SkipReason::UnknownFen].ends_with("defects.pgn #5"));

    let classical = &games[0];
    assert_eq!(classical.sp, 518);
    assert_eq!(
        classical.moves, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1 g8f6 d2d3 e8h8 c1g5 h7h6",
        "castling as king takes rook"
    );
    assert_eq!(classical.white_castling, Some(('h', 7)));
    assert_eq!(classical.black_castling, Some(('h', 10)));
    assert_eq!(
        (classical.result, classical.termination),
        ("1-0", "resignation")
    );
    assert_eq!(
        (classical.white_elo, classical.black_elo),
        (Some(2100), Some(2050))
    );
    assert_eq!(classical.time_control.as_deref(), Some("180+2"));

    let swap = &games[1];
    assert_eq!(swap.sp, 91, "Shredder-FEN of NNRKBRQB");
    assert_eq!(swap.moves, "b2b3 b7b6 d1c1 g7g6 b1c3");
    assert_eq!(swap.white_castling, Some(('a', 3)));
    assert_eq!((swap.result, swap.white_score), ("1/2-1/2", 0.5));
    assert_eq!(swap.termination, "draw-agreed");

    let no_fen = &games[2];
    assert_eq!((no_fen.sp, no_fen.moves.as_str()), (518, "e2e4 e7e5"));

    let mate = &games[3];
    assert_eq!((mate.result, mate.termination), ("0-1", "checkmate"));
    assert_eq!(mate.date.as_deref(), Some("2023.11.30"), "UTCDate");
    assert_eq!(mate.plies, 4);
}

#[test]
fn filters_count_what_they_drop() {
    let filters = Filters {
        min_rating: Some(1600),
        ..Filters::default()
    };
    let (summary, games) = read_all(&[fixture("defects.pgn")], &filters);
    assert_eq!(summary.kept, 2);
    // The 1500-rated game and four unrated ones (a rating filter needs
    // ratings); games with a bad FEN keep their FEN reason.
    assert_eq!(summary.skipped.get(&SkipReason::Rating), Some(&5));
    assert_eq!(summary.skipped.get(&SkipReason::UnknownFen), Some(&1));
    let filters = Filters {
        time_controls: vec!["180+2".into()],
        since: Some("2024.01.01".into()),
        ..Filters::default()
    };
    let (summary, games2) = read_all(&[fixture("defects.pgn")], &filters);
    assert_eq!(summary.kept, 1);
    assert_eq!(games2[0].sp, 518);
    assert_eq!(summary.skipped.get(&SkipReason::TimeControl), Some(&5));
    assert_eq!(summary.skipped.get(&SkipReason::Date), Some(&1));
    assert_eq!(games[0].white, "Alice");
}

#[test]
fn a_zstd_file_reads_like_its_plain_twin_and_a_cut_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let plain = fs::read(fixture("defects.pgn")).unwrap();
    let compressed = zstd::encode_all(&plain[..], 3).unwrap();
    let zst = dir.path().join("defects.pgn.zst");
    fs::write(&zst, &compressed).unwrap();
    let (a, games_a) = read_all(&[fixture("defects.pgn")], &Filters::default());
    let (b, games_b) = read_all(&[zst], &Filters::default());
    assert_eq!((a.read, a.kept, &a.skipped), (b.read, b.kept, &b.skipped));
    assert_eq!(a.bytes, b.bytes, "bytes counted after decompression");
    let moves = |g: &[ImportedGame]| g.iter().map(|g| g.moves.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&games_a), moves(&games_b));

    // A download cut short: the compressed stream ends mid-frame.
    let cut = dir.path().join("cut.pgn.zst");
    fs::write(&cut, &compressed[..compressed.len() / 2]).unwrap();
    let (summary, _) = read_all(std::slice::from_ref(&cut), &Filters::default());
    assert_eq!(summary.truncated_files, [cut]);
    assert!(summary.read < a.read);
    assert!(summary.skipped.contains_key(&SkipReason::NoResult));
}

#[test]
fn import_writes_the_game_table_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let summary = import_to(&[fixture("defects.pgn")], &Filters::default(), &out).unwrap();
    assert_eq!(summary.kept, 4);
    let frame = ParquetReader::new(fs::File::open(out.join("games.parquet")).unwrap())
        .finish()
        .unwrap();
    assert_eq!(frame.height(), 4);
    // The columns of self-play's game table come first, in its order.
    let names: Vec<&str> = frame
        .get_column_names()
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(&names[..16], c960_store::columns::GAMES);
    let game = frame.column("game").unwrap().u32().unwrap();
    // Two games from SP 518 (numbered 0 and 1) and one from SP 91.
    assert_eq!(
        (game.get(0), game.get(1), game.get(2)),
        (Some(0), Some(0), Some(1))
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("import.json")).unwrap()).unwrap();
    assert_eq!(json["summary"]["kept"], 4);
    assert_eq!(json["summary"]["skipped"]["bad-castling-field"], 2);
    let leftovers: Vec<_> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// The position table has the columns the report reads, in the order the
/// run-directory contract (`c960_store::columns`) names them.
#[test]
fn the_position_table_has_the_columns_of_the_contract() {
    use c960_store::columns::{GAME_SUMMARY, IMPORT_TERMINATIONS, check_order};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    import_to(&[fixture("defects.pgn")], &Filters::default(), &out).unwrap();
    let file = fs::File::open(out.join(c960_store::POSITIONS_TABLE)).unwrap();
    let frame = ParquetReader::new(file).finish().unwrap();
    let names: Vec<String> = frame
        .get_column_names()
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut wanted = vec!["games"];
    wanted.extend(GAME_SUMMARY);
    wanted.extend(IMPORT_TERMINATIONS[3..].iter().map(|(c, _)| *c));
    check_order(&names, &wanted).unwrap();
}

/// python-chess plays seeded random games from ten start positions, writes
/// them as PGN and lists their moves in UCI (Chess960 castling); the import
/// must find the same positions, moves and results.
#[test]
fn games_written_by_python_chess_import_correctly() {
    let python = std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("pc.pgn");
    let script = r#"
import sys, random, json, chess, chess.pgn
rng = random.Random(7)
expected = []
with open(sys.argv[1], "w") as out:
    for sp in [0, 91, 292, 518, 534, 700, 959, 80, 42, 412]:
        board = chess.Board.from_chess960_pos(sp)
        game = chess.pgn.Game.from_board(board)
        node = game
        moves = []
        for _ in range(rng.randint(20, 120)):
            legal = list(board.legal_moves)
            if not legal:
                break
            castles = [m for m in legal if board.is_castling(m)]
            move = rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(legal)
            moves.append(board.uci(move, chess960=True))
            board.push(move)
            node = node.add_variation(move)
        outcome = board.outcome()
        result = outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2"])
        game.headers["Result"] = result
        print(game, file=out, end="\n\n")
        expected.append({"sp": sp, "moves": " ".join(moves), "result": result})
print(json.dumps(expected))
"#;
    let output = Command::new(&python)
        .args(["-c", script])
        .arg(&pgn)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python} (python-chess: pip install chess): {e}"));
    assert!(
        output.status.success(),
        "python-chess (pip install chess) failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let expected: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let text = fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[Variant \"Chess960\"]"),
        "python-chess wrote Chess960 tags"
    );
    let (summary, games) = read_all(&[pgn], &Filters::default());
    assert_eq!(summary.kept, 10, "{summary:?}");
    for (game, want) in games.iter().zip(expected.as_array().unwrap()) {
        assert_eq!(u64::from(game.sp), want["sp"].as_u64().unwrap());
        assert_eq!(
            game.moves,
            want["moves"].as_str().unwrap(),
            "SP {}",
            game.sp
        );
        assert_eq!(game.result, want["result"].as_str().unwrap());
    }
}

#[test]
fn a_long_tag_is_read_and_a_too_long_one_skips_only_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let game = |site: &str, result: &str| {
        format!(
            "[Site \"{site}\"]\n[Variant \"Chess960\"]\n\
             [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
             1. e4 e5 {result}\n\n"
        )
    };
    for (site_len, kept) in [(100_000, 3), (3 * c960_games::MAX_TAG_LINE, 2)] {
        let path = dir.path().join(format!("{site_len}.pgn"));
        let long = "s".repeat(site_len);
        let pgn = [game("a", "1-0"), game(&long, "0-1"), game("c", "1/2-1/2")].concat();
        fs::write(&path, pgn).unwrap();
        let (summary, games) = read_all(&[path], &Filters::default());
        assert_eq!(summary.read, 3, "{site_len}");
        assert_eq!(summary.kept, kept, "{site_len}");
        assert!(summary.truncated_files.is_empty(), "{site_len}");
        assert_eq!(games.last().unwrap().result, "1/2-1/2", "{site_len}");
        if kept == 2 {
            assert_eq!(summary.skipped.get(&SkipReason::TagTooLong), Some(&1));
        }
    }
}
