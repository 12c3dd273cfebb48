//! `c960 import`: the summary of what was read, kept and skipped, and bad
//! arguments as one-line errors.

use crate::util;

use util::Dir;

fn fixture() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-games/tests/fixtures/defects.pgn"
    )
    .to_owned()
}

#[test]
fn import_prints_what_it_kept_and_skipped() {
    let dir = Dir::new();
    let out = dir.ok(&["import", &fixture(), "--out", "games"]);
    assert!(
        out.starts_with("13 games read, 4 kept, 9 skipped from 1 file,"),
        "{out}"
    );
    for line in [
        "skipped        1  not Chess960 (Variant tag)",
        "skipped        1  FEN \"?\"",
        "skipped        2  invalid castling field in the FEN",
        "skipped        1  illegal move",
        "skipped        2  no result (truncated, or *)",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    assert!(dir.file("games/games.parquet").is_file());
    assert!(dir.file("games/import.json").is_file());
    let filtered = dir.ok(&[
        "import",
        &fixture(),
        "--out",
        "rated",
        "--min-rating",
        "2000",
        "--since",
        "2024-01-01",
    ]);
    assert!(filtered.starts_with("13 games read, 1 kept"), "{filtered}");
    assert!(filtered.contains("outside the rating range"), "{filtered}");
}

#[test]
fn bad_import_arguments_are_one_line_errors() {
    let dir = Dir::new();
    assert!(
        dir.bad_input(&["import", "no/such.pgn"])
            .contains("no/such.pgn: no such file")
    );
    assert!(
        dir.bad_input(&["import", &fixture(), "--since", "yesterday"])
            .contains("is not a date")
    );
    assert!(
        dir.bad_input(&[
            "import",
            &fixture(),
            "--min-rating",
            "2500",
            "--max-rating",
            "2000"
        ])
        .contains("above --max-rating")
    );
    assert!(dir.bad_input(&["import"]).contains("required"));
    assert!(!dir.file("runs").exists());
}

#[test]
fn openings_prints_a_positions_tree_from_imported_games() {
    let dir = Dir::new();
    let pgn = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-games/tests/fixtures/tree.pgn"
    );
    dir.ok(&["import", pgn, "--out", "games", "--quiet"]);
    let out = dir.ok(&[
        "openings",
        "RNBQKBNR",
        "--games",
        "games",
        "--min-share",
        "0.5",
    ]);
    assert!(
        out.starts_with("SP 518 RNBQKBNR: 5 games in games/games.parquet"),
        "{out}"
    );
    assert!(out.contains("+2 =2 -1"), "{out}");
    let tree: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("lines reached"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(tree.len(), 3, "{out}");
    assert!(
        tree[0].starts_with("1. e4 ") && tree[0].contains(" 80.0%"),
        "{out}"
    );
    assert!(tree[1].starts_with("  1... e5 "), "{out}");
    assert!(tree[2].starts_with("    2. Nf3 "), "{out}");
    assert!(
        !out.contains("openings reached by at least 10%"),
        "thresholds below --min-share are left out"
    );
    let all = dir.ok(&["openings", "518", "--games", "games/games.parquet"]);
    assert!(all.contains("4. O-O"), "castling in SAN: {all}");
    assert!(all.contains("openings reached by at least 10% of the games:"));
    assert!(
        all.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O"),
        "{all}"
    );
    let table = dir.ok(&["openings", "--first-moves", "--games", "games"]);
    let rows: Vec<&str> = table.lines().collect();
    assert!(rows[0].starts_with("sp,placement,move_uci,move_san,games,share,"));
    assert_eq!(rows.len(), 4, "{table}");
    assert!(
        rows[1].starts_with("91,NNRKBRQB,b2b3,b3,1,1.0,1,0,0,1.0,"),
        "{table}"
    );
    assert!(
        rows[2].starts_with("518,RNBQKBNR,e2e4,e4,4,0.8,1,2,1,0.5,"),
        "{table}"
    );
    assert!(
        rows[3].starts_with("518,RNBQKBNR,d2d4,d4,1,0.2,1,0,0,1.0,"),
        "{table}"
    );
    dir.ok(&[
        "openings",
        "--first-moves",
        "--games",
        "games",
        "--out",
        "first.csv",
    ]);
    assert_eq!(
        std::fs::read_to_string(dir.file("first.csv")).unwrap(),
        table
    );
    assert!(
        dir.bad_input(&["openings", "518", "--games", "nothing"])
            .contains("no game table")
    );
    assert!(
        dir.bad_input(&["openings", "960", "--games", "games"])
            .contains("out of range")
    );
}

#[test]
fn imported_games_flow_into_the_report() {
    let dir = Dir::new();
    dir.ok(&["import", &fixture(), "--out", "human", "--quiet"]);
    let table = std::fs::read_to_string(dir.file("human/positions.csv")).unwrap();
    let classical = table.lines().find(|l| l.starts_with("518,")).unwrap();
    // Three games from SP 518: two won by White, one mate by Black.
    assert!(
        classical.starts_with("518,RNBQKBNR,3,2,0,1,"),
        "{classical}"
    );
    dir.ok(&["report", "--games", "human", "--out", "site", "--quiet"]);
    let page = std::fs::read_to_string(dir.file("site/positions/518.html")).unwrap();
    assert!(page.contains("games <small>import_human</small>"), "{page}");
    assert!(page.contains("over 3 games: +2 =0 −1"), "{page}");
    assert!(page.contains("checkmate 1, resignation 2"), "{page}");
    assert!(page.contains("<h2>Openings in imported games"), "{page}");
    let index = std::fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert!(
        index.contains("imported games with 4 games from defects.pgn"),
        "{index}"
    );
    assert!(index.contains("charts/selfplay-score-import_human.svg"));
    assert!(
        dir.bad_input(&["report", "--games", "human", "--selfplay", "human"])
            .contains("holds imported games (give them with --games)")
    );
}
