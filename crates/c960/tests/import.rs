//! `c960 import`: the summary of what was read, kept and skipped, and bad
//! arguments as one-line errors.

mod util;

use util::Dir;

fn fixture() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-openings/tests/fixtures/defects.pgn"
    )
    .to_owned()
}

#[test]
fn import_prints_what_it_kept_and_skipped() {
    let dir = Dir::new();
    let out = dir.ok(&["import", &fixture(), "--out", "games"]);
    assert!(
        out.starts_with("13 games read, 4 kept, 9 skipped from 1 file(s)"),
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
