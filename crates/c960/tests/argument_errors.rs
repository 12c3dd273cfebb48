//! Arguments refused with one clear line: negative numbers reach their
//! range check, long values are not echoed in full, a dry run refuses what
//! the run refuses, and a missing engine leaves nothing behind. Each test
//! is named after its defect and fails without the fix.

use crate::util;

use std::{fmt::Write as _, fs};

use util::{Dir, fake_engine};

#[test]
fn a_negative_number_reaches_the_flags_range_check() {
    let dir = Dir::new();
    let engine = fake_engine();
    let error = dir.bad_input(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--jitter",
        "-0.5",
    ]);
    assert!(
        error.contains("--jitter -0.5 must be at least 0 and below 1"),
        "{error}"
    );
    let error = dir.bad_input(&["run", "--jitter", "-0.5", "--dry-run"]);
    assert!(error.contains("jitter -0.5 must be at least 0"), "{error}");
    let error = dir.bad_input(&["sweep", "--engine", "builtin", "--watchdog", "-1"]);
    assert!(
        error.contains("--watchdog -1 must be a positive"),
        "{error}"
    );
    let error = dir.bad_input(&["openings", "518", "--games", "g", "--min-share", "-0.1"]);
    assert!(
        error.contains("--min-share -0.1 must be between"),
        "{error}"
    );
    // An unsigned flag says why a negative value is wrong.
    let error = dir.bad_input(&["sweep", "--nodes", "-5"]);
    assert!(error.contains("invalid value '-5' for '--nodes"), "{error}");
}

#[test]
fn a_100_kb_argument_is_not_echoed_in_full() {
    let dir = Dir::new();
    let long = "7".repeat(100_000);
    let garbage = "x".repeat(100_000);
    for args in [
        vec!["show", garbage.as_str()],
        vec!["sweep", "--positions", garbage.as_str()],
        vec!["sweep", "--nodes", long.as_str()],
        vec!["import", garbage.as_str()],
    ] {
        let error = dir.bad_input(&args);
        assert!(error.len() < 400, "{} bytes: {error:.400}", error.len());
        // What was left out is marked so that digits around it never read
        // as a range ("777…777").
        assert!(error.contains("[…]"), "{error}");
        assert!(error.contains(" characters, shortened)"), "{error}");
        let bare = error.replace("[…]", "");
        assert!(!bare.contains('…'), "{error}");
    }
    // A path of ordinary length is named whole.
    let path = format!("{}/games.pgn", "d".repeat(140));
    let error = dir.bad_input(&["import", &path]);
    assert!(error.contains(&format!("{path}: no such file")), "{error}");
}

#[test]
fn openings_out_writes_the_tree_instead_of_ignoring_it() {
    let dir = Dir::new();
    let pgn = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-games/tests/fixtures/tree.pgn"
    );
    dir.ok(&["import", pgn, "--out", "games", "--quiet"]);
    let printed = dir.ok(&["openings", "518", "--games", "games"]);
    let written = dir.ok(&["openings", "518", "--games", "games", "--out", "tree.txt"]);
    assert_eq!(written, "", "the tree goes to the file");
    assert_eq!(fs::read_to_string(dir.file("tree.txt")).unwrap(), printed);
}

#[test]
fn a_dry_run_refuses_what_the_run_refuses() {
    let dir = Dir::new();
    for (args, says) in [
        (vec!["--positions", "abc"], "abc"),
        (
            vec!["--jobs", "0"],
            "'--jobs <J>': must be a whole number, at least 1",
        ),
        (vec!["--engine", "/nonexistent/engine"], "not found"),
        (vec!["--option", "Hash"], "NAME=VALUE"),
        (
            vec!["--engine", "builtin", "--option", "Contempt=1"],
            "takes no UCI options",
        ),
        (
            vec!["--hash", "0"],
            "'--hash <MB>': must be a whole number, at least 1",
        ),
    ] {
        let mut all = vec!["run", "--dry-run", "--out", "dry"];
        all.extend_from_slice(&args);
        let error = dir.bad_input(&all);
        assert!(error.contains(says), "{args:?}: {error}");
        // The real run refuses it the same way.
        let mut all = vec!["run", "--quiet", "--out", "real"];
        all.extend_from_slice(&args);
        assert_eq!(dir.bad_input(&all), error, "{args:?}");
    }
    assert!(!dir.file("dry").exists() && !dir.file("real").exists());
}

#[test]
fn an_engine_not_found_leaves_no_out_directory() {
    let dir = Dir::new();
    for command in ["sweep", "selfplay"] {
        let error = dir.bad_input(&[
            command,
            "--engine",
            "/nonexistent/engine",
            "--positions",
            "0",
            "--out",
            "out",
        ]);
        assert!(error.contains("not found"), "{error}");
        assert!(!dir.file("out").exists(), "{command} made --out");
    }
    let error = dir.bad_input(&["run", "--engine", "no-such-engine-c960", "--out", "run"]);
    assert!(error.contains("not found"), "{error}");
    assert!(!dir.file("run").exists());
    let mut listing = String::new();
    for entry in fs::read_dir(dir.path()).unwrap() {
        let _ = writeln!(listing, "{}", entry.unwrap().path().display());
    }
    assert_eq!(listing, "", "nothing written");
}

/// Issue 29: an empty `--phrase` was accepted by `c960 draw`.
#[test]
fn an_empty_phrase_is_refused_by_draw() {
    let dir = Dir::new();
    for phrase in ["", "   "] {
        let line = dir.bad_input(&["draw", "--phrase", phrase]);
        assert!(line.contains("--phrase must not be empty"), "{line}");
    }
}

#[test]
fn engine_options_c960_sets_or_the_engine_refuses_are_bad_input() {
    let dir = Dir::new();
    let sweep = |engine: &str, options: &[&str]| {
        let mut args = vec![
            "sweep",
            "--engine",
            engine,
            "--positions",
            "0",
            "--nodes",
            "1000",
            "--out",
            "run",
        ];
        args.extend_from_slice(options);
        dir.bad_input(&args)
    };
    // Options c960 sets itself, or one given twice: refused before any
    // engine starts.
    let line = sweep("builtin", &["--option", "UCI_Chess960=false"]);
    assert!(line.contains("UCI_Chess960"), "{line}");
    let line = sweep("builtin", &["--option", "Hash=16", "--hash", "64"]);
    assert!(line.contains("Hash"), "{line}");
    // A value the engine would choke on: bad input naming the option, not
    // "crashed while setting options". Stockfish is installed where the
    // tests run; without it this fails and says so.
    let line = sweep("stockfish", &["--option", "Move Overhead=abc"]);
    assert!(
        line.contains("Move Overhead") && line.contains("is not a whole number"),
        "{line}"
    );
    assert!(!line.contains("crashed"), "{line}");
    assert!(!dir.file("run/sweep.parquet").exists());
}
