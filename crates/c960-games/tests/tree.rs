//! The opening tree on a small hand-made PGN whose answers are known.

use std::path::PathBuf;

use c960_core::StartPosition;
use c960_games::{Filters, Tree, import_to};

fn tree(sp: u16, plies: usize) -> Tree {
    let dir = tempfile::tempdir().unwrap();
    let pgn = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree.pgn");
    let summary = import_to(&[pgn], &Filters::default(), dir.path()).unwrap();
    assert_eq!(summary.kept, 6);
    Tree::from_games(
        &dir.path().join("games.parquet"),
        StartPosition::new(sp).unwrap(),
        plies,
    )
    .unwrap()
}

#[test]
fn counts_shares_and_scores_of_every_line() {
    let t = tree(518, 12);
    // Five games from SP 518: +2 =2 -1.
    assert_eq!(t.root.games, 5);
    assert_eq!(
        (t.root.white_wins, t.root.draws, t.root.black_wins),
        (2, 2, 1)
    );
    assert!((t.root.white_score() - 0.6).abs() < 1e-12);

    let first: Vec<(String, u64)> = t
        .next_moves("")
        .iter()
        .map(|l| (l.numbered(), l.counts.games))
        .collect();
    assert_eq!(first, [("1. e4".to_owned(), 4), ("1. d4".to_owned(), 1)]);
    let e4 = &t.lines["e2e4"];
    assert!((t.share(e4) - 0.8).abs() < 1e-12);
    assert!((e4.counts.white_score() - 0.5).abs() < 1e-12, "+1 =2 -1");
    let replies: Vec<(String, u64)> = t
        .next_moves("e2e4")
        .iter()
        .map(|l| (l.san.last().unwrap().clone(), l.counts.games))
        .collect();
    assert_eq!(replies, [("e5".to_owned(), 3), ("c5".to_owned(), 1)]);
    let nc6 = &t.lines["e2e4 e7e5 g1f3 b8c6"];
    assert_eq!(nc6.numbered(), "1. e4 e5 2. Nf3 Nc6");
    assert_eq!(nc6.counts.games, 2);
    assert!((nc6.counts.white_score() - 0.75).abs() < 1e-12, "+1 =1");
    let (mean, low, high) = nc6.counts.interval();
    assert!(low < mean && mean < high, "an interval, not a point");

    // Openings reached by at least half the games.
    let half: Vec<String> = t.openings(0.5).iter().map(|l| l.numbered()).collect();
    assert_eq!(half, ["1. e4", "1. e4 e5", "1. e4 e5 2. Nf3"]);
    // Every line at 20% (one game in five).
    assert_eq!(t.openings(0.2).len(), t.lines.len());
}

#[test]
fn castling_is_written_o_o_from_king_takes_rook() {
    let t = tree(518, 12);
    let line = &t.lines["e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1"];
    assert_eq!(line.numbered(), "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O");
    let black = t
        .lines
        .values()
        .find(|l| l.uci.last().map(String::as_str) == Some("e8h8"))
        .unwrap();
    assert_eq!(black.san.last().unwrap(), "O-O");
    // SP 91 NNRKBRQB: king d1 and rook c1 swap, O-O-O.
    let swap = tree(91, 12);
    assert_eq!(swap.root.games, 1);
    assert_eq!(swap.lines["b2b3 b7b6 d1c1"].numbered(), "1. b3 b6 2. O-O-O");
    // The depth limit holds.
    let shallow = tree(518, 2);
    assert!(shallow.lines.values().all(|l| l.uci.len() <= 2));
    assert_eq!(shallow.lines.len(), 5, "e4, d4, e4 e5, e4 c5, d4 d5");
}

#[test]
fn frequent_trees_keep_the_frequent_lines_with_exact_counts() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree.pgn");
    import_to(&[pgn], &Filters::default(), dir.path()).unwrap();
    let games = dir.path().join("games.parquet");
    let full = c960_games::trees_by_position(&games, 12).unwrap();
    // With no threshold, every line: the same trees as a full build.
    let all = c960_games::frequent_trees(&games, 12, 0.0).unwrap();
    assert_eq!(all.keys().collect::<Vec<_>>(), [&91, &518]);
    for (sp, tree) in &full {
        assert_eq!(all[sp].root, tree.root);
        assert_eq!(all[sp].lines, tree.lines, "SP {sp}");
    }
    // At 50%: first moves, then below e4 (80%), e4 e5 (60%) and
    // e4 e5 Nf3 (60%) only.
    let half = c960_games::frequent_trees(&games, 12, 0.5).unwrap();
    let lines: Vec<&str> = half[&518].lines.keys().map(String::as_str).collect();
    assert_eq!(
        lines,
        [
            "d2d4",
            "e2e4",
            "e2e4 c7c5",
            "e2e4 e7e5",
            "e2e4 e7e5 g1f3",
            "e2e4 e7e5 g1f3 b8c6",
            "e2e4 e7e5 g1f3 g8f6"
        ]
    );
    for (key, line) in &half[&518].lines {
        assert_eq!(line, &full[&518].lines[key], "{key}: exact counts and SAN");
    }
}
