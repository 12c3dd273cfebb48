//! The `c960` command line, driven as a user would: help, every subcommand,
//! every kind of bad input.

use crate::util;

use std::{fs, path::Path};

use util::Dir;

#[test]
fn help_for_every_subcommand_has_examples() {
    let dir = Dir::new();
    for sub in [
        &[][..],
        &["positions"],
        &["show"],
        &["draw"],
        &["dice"],
        &["sweep"],
        &["selfplay"],
        &["uci"],
        &["book"],
        &["book", "starts"],
        &["book", "balanced"],
        &["book", "exits"],
        &["book", "verify"],
    ] {
        let mut args = sub.to_vec();
        args.push("--help");
        let out = dir.ok(&args);
        assert!(out.contains("Examples:"), "c960 {args:?}: {out}");
        assert!(out.contains("Usage: c960"), "c960 {args:?}");
    }
    assert!(dir.ok(&["--version"]).starts_with("c960 "));
}

#[test]
fn no_subcommand_prints_help_and_fails() {
    let run = Dir::new().run(&[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("Usage: c960"));
}

#[test]
fn positions_csv_has_960_rows_with_a_header() {
    let out = Dir::new().ok(&["positions"]);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let headers = reader.headers().unwrap().clone();
    assert_eq!(&headers[0], "sp");
    assert!(headers.iter().any(|h| h == "undefended_files"));
    assert!(headers.iter().any(|h| h == "castle_h_first_move"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 960);
    let classical = &rows[518];
    assert_eq!(&classical[0], "518");
    assert_eq!(&classical[1], "RNBQKBNR");
}

#[test]
fn positions_json_is_an_array_of_960_objects() {
    let dir = Dir::new();
    let out = dir.ok(&["positions", "--format", "json"]);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.len(), 960);
    assert_eq!(rows[91]["placement"], "NNRKBRQB");
    assert_eq!(rows[91]["undefended_files"], "a b");
    assert_eq!(rows[91]["first_move_attacks"], "a7:f3,f4 b7:g3,g4");
    // One object per line.
    assert_eq!(out.lines().count(), 962);
}

#[test]
fn positions_out_writes_the_file_and_nothing_else() {
    let dir = Dir::new();
    assert_eq!(dir.ok(&["positions", "--out", "p.csv"]), "");
    let written = fs::read_to_string(dir.file("p.csv")).unwrap();
    assert_eq!(written, dir.ok(&["positions"]));
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["p.csv"], "no temporary file is left behind");
}

#[test]
fn positions_out_into_a_missing_directory_fails_cleanly() {
    let dir = Dir::new();
    let line = dir.bad_input(&["positions", "--out", "missing/p.csv"]);
    assert!(
        line.contains("the directory missing does not exist"),
        "{line}"
    );
    assert!(!dir.file("missing").exists());
}

#[test]
fn positions_out_onto_a_directory_keeps_it() {
    let dir = Dir::new();
    fs::create_dir(dir.file("d")).unwrap();
    let run = dir.run(&["positions", "--out", "d"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is a directory"), "{}", run.stderr);
    assert!(dir.file("d").is_dir());
}

#[test]
fn show_accepts_a_number_a_placement_and_a_fen() {
    let dir = Dir::new();
    let by_number = dir.ok(&["show", "91"]);
    assert_eq!(dir.ok(&["show", "NNRKBRQB"]), by_number);
    assert_eq!(dir.ok(&["show", "nnrkbrqb"]), by_number);
    assert_eq!(
        dir.ok(&[
            "show",
            "nnrkbrqb/pppppppp/8/8/8/8/PPPPPPPP/NNRKBRQB w FCfc - 0 1"
        ]),
        by_number
    );
    for expected in [
        "SP 91  NNRKBRQB",
        "  1  N N R K B R Q B",
        "  7  p*p*p p p*p p p",
        "Shredder-FEN            nnrkbrqb/pppppppp/8/8/8/8/PPPPPPPP/NNRKBRQB w FCfc - 0 1",
        "Mirror twin             SP 865 BQRBKRNN",
        "Undefended pawns        2: a2 b2 / a7 b7",
        "King-only pawns         1: e2 / e7",
        "Attackable on move 1    2: a7 by 1.f3, 1.f4; b7 by 1.g3, 1.g4",
        "Castling a-side         O-O-O: Kd1-c1, Rc1-d1; swap; legal on move 1; nothing in the way",
        "Corner bishops          1: h1",
    ] {
        assert!(
            by_number.contains(expected),
            "missing {expected:?} in\n{by_number}"
        );
    }
}

#[test]
fn show_json_is_the_table_row() {
    let out = Dir::new().ok(&["show", "518", "--format", "json"]);
    let row: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(row["sp"], 518);
    assert_eq!(row["mirror_sp"], 534);
    assert_eq!(row["castle_a_first_move"], false);
}

#[test]
fn show_rejects_what_is_not_a_start_position() {
    let dir = Dir::new();
    assert_eq!(
        dir.bad_input(&["show", "960"]),
        "c960: error: position number 960 is out of range 0..=959"
    );
    assert!(
        dir.bad_input(&["show", "RNBQKNBR"])
            .contains("both bishops on dark squares")
    );
    assert!(
        dir.bad_input(&["show", "RNBQKBN"])
            .contains("has 7 squares")
    );
    assert!(
        dir.bad_input(&["show", "KRBQRBNN"])
            .contains("king between the rooks")
    );
    assert!(
        dir.bad_input(&[
            "show",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        ])
        .contains("is not a Chess960 start position")
    );
    assert!(
        dir.bad_input(&["show", "rnbqkbnr/ppp"])
            .contains("malformed FEN")
    );
    assert!(
        dir.bad_input(&["show", "R?"])
            .contains("is not a position number")
    );
    assert!(dir.bad_input(&["show"]).contains("required"));
}

#[test]
fn draw_by_seed_is_reproducible_and_pinned() {
    let dir = Dir::new();
    let out = dir.ok(&["draw", "--seed", "2026", "--rounds", "5"]);
    assert_eq!(out, dir.ok(&["draw", "--seed", "2026", "--rounds", "5"]));
    let sps: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(sps, ["100", "716", "2", "395", "461"]);
    assert!(out.starts_with("draw by seed 2026 (ChaCha20): 5 rounds from 960 positions"));
}

#[test]
fn draw_by_phrase_json_records_how_it_was_made() {
    let out = Dir::new().ok(&[
        "draw",
        "--phrase",
        "Club Open 2026 round 1",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["phrase"], "Club Open 2026 round 1");
    assert_eq!(doc["rounds"][0]["sp"], 594);
    assert_eq!(doc["candidates"], 960);
    assert_eq!(doc["c960_version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn draw_filters_are_honoured() {
    let dir = Dir::new();
    let out = dir.ok(&[
        "draw",
        "--seed",
        "9",
        "--rounds",
        "20",
        "--exclude",
        "518,534",
        "--max-undefended",
        "0",
        "--no-first-move-attack",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rounds = doc["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 20);
    assert_eq!(doc["candidates"], 360 - 2);
    for round in rounds {
        let sp = round["sp"].as_u64().unwrap().to_string();
        assert!(sp != "518" && sp != "534");
        let row: serde_json::Value =
            serde_json::from_str(&dir.ok(&["show", &sp, "--format", "json"])).unwrap();
        assert_eq!(row["undefended_pawns"], 0);
        assert_eq!(row["first_move_attackable"], 0);
    }
}

#[test]
fn impossible_draws_are_one_line_errors() {
    let dir = Dir::new();
    assert!(
        dir.bad_input(&["draw", "--seed", "1", "--max-weak", "0", "--rounds", "200"])
            .contains("only 118 positions pass the filters")
    );
    let all: Vec<String> = (0..960).map(|n| n.to_string()).collect();
    let exclude = all.join(",");
    assert!(
        dir.bad_input(&["draw", "--seed", "1", "--exclude", &exclude])
            .contains("no position passes the filters")
    );
    assert!(dir.bad_input(&["draw"]).contains("--seed"));
    assert!(
        dir.bad_input(&["draw", "--seed", "1", "--phrase", "x"])
            .contains("cannot be used")
    );
    assert!(dir.bad_input(&["draw", "--seed", "-3"]).contains("--seed"));
    assert_eq!(
        dir.bad_input(&["draw", "--seed", "1", "--exclude", "960"]),
        "c960: error: position number 960 is out of range 0..=959"
    );
    assert!(
        dir.bad_input(&["draw", "--seed", "1", "--rounds", "0"])
            .contains("at least 1")
    );
}

#[test]
fn dice_gives_the_position_and_reports_rerolls() {
    let dir = Dir::new();
    let out = dir.ok(&["dice", "5", "2", "6", "3", "3", "2", "3"]);
    assert!(out.contains("roll  1: 5  dark-squared bishop: out of range, roll again"));
    assert!(out.contains("roll  2: 2  dark-squared bishop on c1"));
    assert!(out.contains("SP 518 (RNBQKBNR)"));
    assert!(out.contains("rerolls       2"));
    let doc: serde_json::Value =
        serde_json::from_str(&dir.ok(&["dice", "1", "1", "1", "1", "1", "--format", "json"]))
            .unwrap();
    assert_eq!(doc["placement"], "BBQNNRKR");
    assert_eq!(doc["sp"], 0);
}

#[test]
fn wrong_dice_rolls_are_one_line_errors() {
    let dir = Dir::new();
    assert_eq!(
        dir.bad_input(&["dice", "2", "3", "7", "2", "3"]),
        "c960: error: roll 3 is 7, but a die shows 1 to 6"
    );
    assert!(dir.bad_input(&["dice", "-1"]).contains("roll 1 is -1"));
    assert!(
        dir.bad_input(&["dice", "2", "3"])
            .contains("rolls ran out before the queen")
    );
    assert!(
        dir.bad_input(&["dice", "2", "3", "3", "2", "3", "4"])
            .contains("1 more roll")
    );
    assert!(dir.bad_input(&["dice", "x"]).contains("invalid value"));
    assert!(dir.bad_input(&["dice"]).contains("required"));
}

#[test]
fn unknown_subcommands_and_flags_are_one_line_errors() {
    let dir = Dir::new();
    assert!(
        dir.bad_input(&["bogus"])
            .contains("unrecognized subcommand")
    );
    assert!(
        dir.bad_input(&["positions", "--format", "xml"])
            .contains("invalid value")
    );
    assert!(
        dir.bad_input(&["positions", "--bogus"])
            .contains("unexpected argument")
    );
}

/// Regression: `c960 draw ... | head` used to panic ("failed printing to
/// stdout: Broken pipe") because only `positions` handled a closed pipe.
#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::{
        io::Read,
        process::{Command, Stdio},
    };
    // Each prints more than a pipe holds, so the reader leaves first.
    for args in [
        &["positions"][..],
        &["positions", "--format", "json"],
        &["draw", "--seed", "1", "--rounds", "960"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_c960"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // stdout is dropped here: the reader is gone.
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{args:?}: {:?}", output.status);
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{args:?}");
    }
    // A checker naming 20,000 bad lines to a reader that leaves after the
    // first: no "Broken pipe" message, no panic, and the verdict kept
    // (`set -o pipefail; c960 book verify bad.epd | head` fails).
    let dir = util::Dir::new();
    fs::write(dir.file("bad.epd"), "not a fen\n".repeat(20_000)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_c960"))
        .args(["book", "verify", "bad.epd"])
        .current_dir(dir.file(""))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.to_lowercase().contains("broken pipe"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.epd:1: 3 fields") && stderr.contains("(the first of 20000 bad lines)"),
        "{stderr}"
    );
}

/// The committed position table must be what `c960 positions` writes now.
#[test]
fn data_positions_csv_is_up_to_date() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/positions.csv");
    let committed = fs::read_to_string(&committed)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", committed.display()));
    let fresh = util::Dir::new().ok(&["positions"]);
    assert!(
        committed == fresh,
        "data/positions.csv is out of date: regenerate it with \
         `cargo run --release --locked -- positions --out data/positions.csv`"
    );
}
