//! Adaptive self-play (`--target-halfwidth`, `--budget`): rounds go to the
//! open positions, decisions are journaled and replay exactly, a killed run
//! resumes to the same games, the budget holds and can be raised, and the
//! intervals are the anytime-valid ones.

use crate::util;

use std::{
    collections::BTreeMap,
    fs,
    process::{Command, Stdio},
    thread,
    time::Duration,
};

use util::{Dir, run_command};

fn adaptive(dir: &Dir, out: &str, extra: &[&str]) -> Command {
    let mut args = vec![
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "50",
        "--positions",
        "0-5,518",
        "--games-per-position",
        "2",
        "--round-games",
        "2",
        "--max-plies",
        "80",
        "--seed",
        "4",
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    dir.command(&args)
}

fn manifest(dir: &Dir, out: &str) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.file(&format!("{out}/manifest.json"))).unwrap())
        .unwrap()
}

/// Games per SP from the positions table.
fn games_per_position(dir: &Dir, out: &str) -> BTreeMap<u32, u64> {
    let text = fs::read_to_string(dir.file(&format!("{out}/positions.csv"))).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (sp, games, interval) = (col("sp"), col("games"), col("interval"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(
                f[interval], "anytime",
                "adaptive intervals are anytime-valid"
            );
            (f[sp].parse().unwrap(), f[games].parse().unwrap())
        })
        .collect()
}

#[test]
fn rounds_go_to_open_positions_within_the_budget_and_replay() {
    let dir = Dir::new();
    let args = ["--target-halfwidth", "0.3", "--budget", "40"];
    let run = run_command(adaptive(&dir, "a", &args));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir, "a");
    let a = &m["adaptive"];
    assert_eq!(a["budget"], 40);
    assert_eq!(a["initial_games"], 2);
    assert!(a["rounds"].as_u64().unwrap() >= 1, "{a}");
    assert!(a["rule"].as_str().unwrap().contains("anytime-valid"));
    assert!(m["notes"].as_str().unwrap().contains("anytime-valid"));
    let games = games_per_position(&dir, "a");
    let total: u64 = games.values().sum();
    assert!(total <= 40 && total > 14, "{games:?}");
    assert_eq!(m["games"], total);
    assert!(games.values().all(|g| *g >= 2));

    // Each round extends only positions that had the fewest-so-far
    // decision's targets, and the journal of rounds replays the run.
    let rounds = fs::read_to_string(dir.file("a/rounds.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = rounds
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, a["rounds"].as_u64().unwrap());
    let mut targets: BTreeMap<u64, u64> = games.keys().map(|sp| (u64::from(*sp), 2)).collect();
    for round in &lines {
        for t in round["targets"].as_array().unwrap() {
            let (sp, n) = (t[0].as_u64().unwrap(), t[1].as_u64().unwrap());
            assert!(n > targets[&sp], "a round adds games");
            targets.insert(sp, n);
        }
    }
    for (sp, n) in &games {
        assert_eq!(targets[&u64::from(*sp)], *n, "SP {sp} played its targets");
    }

    // The same command replays the same games.
    assert_eq!(run_command(adaptive(&dir, "b", &args)).code, 0);
    assert_eq!(
        fs::read_to_string(dir.file("a/games.pgn")).unwrap(),
        fs::read_to_string(dir.file("b/games.pgn")).unwrap()
    );

    // A larger budget continues the finished run: earlier games are kept.
    let more = ["--target-halfwidth", "0.3", "--budget", "60"];
    let run = run_command(adaptive(&dir, "a", &more));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let grown = games_per_position(&dir, "a");
    assert!(grown.values().sum::<u64>() > total);
    assert!(grown.values().sum::<u64>() <= 60);
    assert!(grown.iter().all(|(sp, g)| *g >= games[sp]));
}

#[test]
fn a_killed_adaptive_run_resumes_to_the_same_games() {
    let dir = Dir::new();
    let args = ["--target-halfwidth", "0.3", "--budget", "60", "--jobs", "2"];
    assert_eq!(run_command(adaptive(&dir, "whole", &args)).code, 0);
    let expected = fs::read_to_string(dir.file("whole/games.pgn")).unwrap();
    for kill_after_ms in [150, 350, 600] {
        let mut command = adaptive(&dir, "killed", &args);
        command.stdout(Stdio::null()).stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        thread::sleep(Duration::from_millis(kill_after_ms));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let run = run_command(adaptive(&dir, "killed", &args));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        fs::read_to_string(dir.file("killed/games.pgn")).unwrap(),
        expected
    );
    assert_eq!(
        fs::read_to_string(dir.file("killed/rounds.jsonl"))
            .unwrap()
            .lines()
            .count(),
        fs::read_to_string(dir.file("whole/rounds.jsonl"))
            .unwrap()
            .lines()
            .count()
    );
}

#[test]
fn adaptive_settings_that_cannot_work_are_refused() {
    let dir = Dir::new();
    let line = dir.bad_input(&[
        "selfplay",
        "--engine",
        "builtin",
        "--positions",
        "0-9",
        "--games-per-position",
        "4",
        "--budget",
        "30",
        "--out",
        "x",
    ]);
    assert!(line.contains("below the first round's 40 games"), "{line}");
    let line = dir.bad_input(&[
        "selfplay",
        "--engine",
        "builtin",
        "--engine-b",
        "builtin",
        "--positions",
        "0-9",
        "--games-per-position",
        "2",
        "--target-halfwidth",
        "0.1",
        "--out",
        "x",
    ]);
    assert!(
        line.contains("adaptive self-play is for one engine"),
        "{line}"
    );
    let line = dir.bad_input(&[
        "selfplay",
        "--engine",
        "builtin",
        "--target-halfwidth",
        "0.7",
        "--out",
        "x",
    ]);
    assert!(line.contains("--target-halfwidth"), "{line}");
    // Rounds are decided from every position's games: no shards.
    let line = dir.bad_input(&[
        "selfplay",
        "--engine",
        "builtin",
        "--target-halfwidth",
        "0.1",
        "--shard",
        "0/2",
        "--out",
        "x",
    ]);
    assert!(line.contains("run it unsharded"), "{line}");

    // The rule is part of the run: another target does not resume it.
    let dir = Dir::new();
    let args = ["--target-halfwidth", "0.3", "--budget", "20"];
    assert_eq!(run_command(adaptive(&dir, "r", &args)).code, 0);
    let run = run_command(adaptive(
        &dir,
        "r",
        &["--target-halfwidth", "0.2", "--budget", "20"],
    ));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("settings"), "{}", run.stderr);
}
