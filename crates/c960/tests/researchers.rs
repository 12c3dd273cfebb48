//! What researchers read is right (issue 29, "Researchers"): a refused run
//! leaves its directory as it was, a resumed run keeps its stage times, a
//! run directory refuses other settings, behaviour and documentation of
//! the draw adjudication agree, the progress and summary say what
//! happened, and errors name what was wrong in one line. Each test is
//! named after its defect and fails without the fix.

use crate::util;

use std::{fs, path::Path};

use util::{Dir, fake_engine, run_command};

/// The names under `dir`, sorted, or `None` when it does not exist.
fn listing(dir: &Path) -> Option<Vec<String>> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .ok()?
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Some(names)
}

#[test]
fn a_refused_sweep_leaves_its_directory_as_it_was() {
    let dir = Dir::new();
    let engine = fake_engine();
    let sweep = |out: &str, limit: [&str; 2], mode: &str| {
        let mut command = dir.command(&[
            "sweep",
            "--engine",
            engine.to_str().unwrap(),
            limit[0],
            limit[1],
            "--positions",
            "0-1",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out,
        ]);
        command.env("C960_FAKE_UCI", mode);
        run_command(command)
    };
    // Refused for its limit (as Debian's Ethereal 12 is with --nodes), the
    // corrected command then runs: no journal of the refused one is left
    // to refuse it.
    let refused = sweep("new", ["--nodes", "50000"], "--ignore-nodes");
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert_eq!(listing(&dir.file("new")), None);
    let run = sweep("new", ["--depth", "3"], "--ignore-nodes");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A directory that was there keeps exactly what it held.
    fs::create_dir(dir.file("mine")).unwrap();
    fs::write(dir.file("mine/notes.txt"), "mine").unwrap();
    for mode in ["--ignore-nodes", "--not-uci", "--no-chess960"] {
        let refused = sweep("mine", ["--nodes", "50000"], mode);
        assert_ne!(refused.code, 0, "{mode}: {}", refused.stderr);
        assert_eq!(
            listing(&dir.file("mine")),
            Some(vec!["notes.txt".to_owned()]),
            "{mode}"
        );
    }
    // An engine that is not there: no empty run directory.
    let missing = dir.run(&[
        "sweep",
        "--engine",
        "no-such-engine",
        "--out",
        "gone",
        "--quiet",
    ]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert_eq!(listing(&dir.file("gone")), None);
}

#[test]
fn a_refused_self_play_leaves_its_directory_as_it_was() {
    let dir = Dir::new();
    let engine = fake_engine();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "50000",
        "--positions",
        "0",
        "--games-per-position",
        "2",
        "--quiet",
        "--out",
        "sp",
    ]);
    command.env("C960_FAKE_UCI", "--ignore-nodes");
    let run = run_command(command);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(listing(&dir.file("sp")), None);
}
