//! `c960 report` on DFRC sweeps: a sweep of a small stratified sample with
//! the built-in engine, then the DFRC site with its numbers and provenance;
//! DFRC and Chess960 runs together are refused in one line.

use crate::util;

use std::path::PathBuf;

use util::Dir;

/// Sweeps `sample:N:7` with the built-in engine into `run`.
fn sweep(dir: &Dir, set: &str, repeats: &str) {
    dir.ok(&[
        "sweep",
        "--variant",
        "dfrc",
        "--positions",
        set,
        "--engine",
        "builtin",
        "--nodes",
        "400",
        "--repeats",
        repeats,
        "--jobs",
        "2",
        "--quiet",
        "--out",
        "run",
    ]);
}

#[test]
fn a_dfrc_sweep_with_repeats_reports_its_setups_with_verdicts() {
    let dir = Dir::new();
    sweep(&dir, "sample:48:7,symmetric", "2");
    let out = dir.ok(&["report", "--sweep", "run", "--out", "site"]);
    assert!(
        out.contains("DFRC report for 1008 setups from 1 sweep:"),
        "{out}"
    );
    let index = std::fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert!(index.contains("<h1>Double Fischer Random Chess"));
    // Provenance: engine, limit, repeats, seed, version, the set.
    for needed in [
        "positions sample:48:7,symmetric",
        "up to 2 searches per setup",
        "seed ",
        "c960 0.",
        "nodes 400",
    ] {
        assert!(index.contains(needed), "no {needed:?} on the page");
    }
    // The symmetric setups against the rest, with their counts.
    assert!(index.contains("n = 960</li>"), "the 960 symmetric setups");
    assert!(index.contains("Search noise: one search's standard deviation"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("site/dfrc.json")).unwrap())
            .unwrap();
    let analysis = &json["analyses"][0];
    assert_eq!(analysis["decided"], true);
    assert_eq!(analysis["symmetric"]["symmetric"]["n"], 960);
    assert_eq!(json["runs"][0]["manifest"]["variant"], "dfrc");
    let counts = analysis["verdicts"].as_object().unwrap();
    let total: u64 = counts.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(total, 1008);
    // Each group's n adds up to the setups, for every feature.
    let groups = analysis["groups"].as_array().unwrap();
    let weak: u64 = groups
        .iter()
        .filter(|g| g["feature"] == "weak_diff")
        .map(|g| g["cp"]["n"].as_u64().unwrap())
        .sum();
    assert_eq!(weak, 1008);
    let setups = std::fs::read_to_string(dir.file("site/dfrc_setups.csv")).unwrap();
    assert_eq!(setups.lines().count(), 1009);
    let regression = std::fs::read_to_string(dir.file("site/dfrc_regression.csv")).unwrap();
    assert!(regression.contains(",white_weak,"), "{regression}");
}

#[test]
fn a_dfrc_sweep_without_repeats_says_its_setups_have_no_intervals() {
    let dir = Dir::new();
    sweep(&dir, "sample:30:3", "1");
    dir.ok(&["report", "--sweep", "run", "--out", "site", "--quiet"]);
    let index = std::fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert!(index.contains("one search per setup: the search noise is not measured"));
    assert!(index.contains("not measured</td>"), "no per-setup interval");
    assert!(
        index.contains("Verdicts: balanced 0, less-for-white 0, more-for-white 0, unresolved 30."),
        "no setup is decided"
    );
    assert!(
        index.contains("Symmetric (the Chess960 positions): none in this set"),
        "a sample without symmetric setups says so"
    );
}

#[test]
fn dfrc_and_chess960_sweeps_in_one_report_are_refused_in_one_line() {
    let dir = Dir::new();
    sweep(&dir, "0-3", "1");
    let chess960 = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let run = dir.run(&[
        "report",
        "--sweep",
        "run",
        "--sweep",
        chess960.to_str().unwrap(),
        "--out",
        "site",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("a report is of one variant"),
        "{}",
        run.stderr
    );
    assert!(!dir.file("site").exists());
}

#[test]
fn a_dfrc_self_play_run_is_refused_in_one_line() {
    let dir = Dir::new();
    dir.ok(&[
        "selfplay",
        "--variant",
        "dfrc",
        "--positions",
        "5",
        "--engine",
        "builtin",
        "--nodes",
        "100",
        "--games-per-position",
        "2",
        "--max-plies",
        "20",
        "--quiet",
        "--out",
        "games",
    ]);
    let run = dir.run(&["report", "--selfplay", "games", "--out", "site"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("the DFRC report reads sweeps only"),
        "{}",
        run.stderr
    );
    assert!(!dir.file("site").exists());
}
