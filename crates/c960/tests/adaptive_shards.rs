//! Adaptive self-play in shards, round by round, without Slurm: the steps
//! the jobs of `c960 slurm selfplay --target-halfwidth/--budget` run
//! (plan, every shard's part of the round in a random order, merge and
//! decide, ...) give the games, rounds, tables and manifest of the
//! unsharded adaptive run with the same seed; the decision waits for every
//! shard of the round.

use crate::util;

use std::fs;

use serde_json::Value;
use util::Dir;

/// The adaptive self-play both runs share: 7 positions, 2 games each
/// first, rounds of 2 games, the built-in engine on 50 nodes.
fn settings(budget: &str) -> Vec<String> {
    [
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
        "--target-halfwidth",
        "0.3",
        "--budget",
        budget,
        "--quiet",
    ]
    .map(String::from)
    .to_vec()
}

fn with<'a>(base: &'a [String], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter()
        .map(String::as_str)
        .chain(extra.iter().copied())
        .collect()
}

/// A small seeded generator for shard counts and orders.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn shuffled(&mut self, n: u32) -> Vec<u32> {
        let mut order: Vec<u32> = (0..n).collect();
        for i in (1..order.len()).rev() {
            let j = usize::try_from(self.next() % (i as u64 + 1)).unwrap();
            order.swap(i, j);
        }
        order
    }
}

/// Plays shard `i` of `n` of the round decided so far in `out`.
fn play_shard(dir: &Dir, base: &[String], out: &str, i: u32, n: u32) {
    let shard = format!("{i}/{n}");
    let shard_out = format!("{out}/shards/{i}");
    dir.ok(&with(
        base,
        &["--shard", &shard, "--rounds-from", out, "--out", &shard_out],
    ));
}

/// `c960 slurm selfplay ... --next-round` (without --submit).
fn next_round(dir: &Dir, base: &[String], out: &str, n: u32) -> util::Run {
    let shards = n.to_string();
    let mut args = vec!["slurm"];
    args.extend(with(
        base,
        &["--out", out, "--shards", &shards, "--next-round"],
    ));
    dir.run(&args)
}

/// Runs the adaptive self-play in `n` shards round by round, each round's
/// shards in a random order; returns the rounds played.
fn sharded(dir: &Dir, base: &[String], out: &str, n: u32, rng: &mut Rng) -> u32 {
    let shards = n.to_string();
    let mut args = vec!["slurm"];
    args.extend(with(base, &["--out", out, "--shards", &shards]));
    let planned = dir.ok(&args);
    assert!(planned.contains("round 0"), "{planned}");
    for round in 0..40 {
        for i in rng.shuffled(n) {
            play_shard(dir, base, out, i, n);
        }
        let step = next_round(dir, base, out, n);
        assert_eq!(step.code, 0, "round {round}: {}", step.stderr);
        if step.stdout.contains("finished") {
            assert!(dir.file(&format!("{out}/manifest.json")).exists());
            return round;
        }
        assert!(
            step.stdout
                .contains(&format!("round {} decided", round + 1)),
            "{}",
            step.stdout
        );
        assert!(!dir.file(&format!("{out}/manifest.json")).exists());
    }
    panic!("the sharded adaptive run did not stop within 40 rounds");
}

fn json(dir: &Dir, path: &str) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.file(path)).unwrap()).unwrap()
}

/// A manifest without the clock, the processes and the shard list.
fn settled(dir: &Dir, path: &str) -> Value {
    let mut m = json(dir, path);
    for key in ["started", "finished", "jobs", "this_run", "shards"] {
        m.as_object_mut().unwrap().remove(key);
    }
    m
}

/// The journal's games in (SP, game) order, without their timing.
fn journal_rows(dir: &Dir, path: &str) -> Vec<Value> {
    let mut rows: Vec<Value> = fs::read_to_string(dir.file(path))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut row: Value = serde_json::from_str(l).unwrap();
            let object = row.as_object_mut().unwrap();
            object.remove("time_ms");
            object.remove("c960_sum");
            row
        })
        .collect();
    rows.sort_by_key(|r| (r["sp"].as_u64(), r["game"].as_u64()));
    rows
}

/// The outputs of the sharded run in `a` equal the unsharded run's in `b`
/// apart from time columns and the shard list.
fn assert_same_run(dir: &Dir, a: &str, b: &str) {
    for file in ["games.pgn", "positions.csv", "rounds.jsonl"] {
        assert_eq!(
            fs::read_to_string(dir.file(&format!("{a}/{file}"))).unwrap(),
            fs::read_to_string(dir.file(&format!("{b}/{file}"))).unwrap(),
            "{file} differs"
        );
    }
    assert_eq!(
        journal_rows(dir, &format!("{a}/journal.jsonl")),
        journal_rows(dir, &format!("{b}/journal.jsonl"))
    );
    assert_eq!(
        settled(dir, &format!("{a}/manifest.json")),
        settled(dir, &format!("{b}/manifest.json"))
    );
}

#[test]
fn sharded_rounds_equal_the_unsharded_adaptive_run_for_random_shard_counts_and_orders() {
    let mut rng = Rng(960);
    // 40 games: the budget ends whole rounds; 31: the last round is cut.
    for (trial, budget) in ["40", "31"].into_iter().enumerate() {
        let dir = Dir::new();
        let base = settings(budget);
        dir.ok(&with(&base, &["--out", "whole"]));
        let n = 2 + u32::try_from(rng.next() % 3).unwrap();
        let rounds = sharded(&dir, &base, "sp", n, &mut rng);
        assert_same_run(&dir, "sp", "whole");
        let whole = json(&dir, "whole/manifest.json");
        assert_eq!(
            whole["adaptive"]["rounds"].as_u64(),
            Some(u64::from(rounds)),
            "trial {trial}"
        );
        assert!(rounds >= 1, "trial {trial}: no round after the first games");
        assert_eq!(
            whole["games"].as_u64(),
            Some(budget.parse().unwrap()),
            "trial {trial}: the budget is spent"
        );
        let shards: Vec<Value> = (0..n).map(|i| format!("{i}/{n}").into()).collect();
        assert_eq!(
            json(&dir, "sp/manifest.json")["shards"],
            Value::from(shards)
        );
    }
}

#[test]
fn the_next_round_waits_for_every_shard_of_the_current_round() {
    let dir = Dir::new();
    let base = settings("40");
    let mut args = vec!["slurm"];
    args.extend(with(&base, &["--out", "sp", "--shards", "3"]));
    dir.ok(&args);
    let rounds = fs::read_to_string(dir.file("sp/rounds.jsonl")).unwrap();
    assert_eq!(
        rounds.lines().count(),
        1,
        "only the rule's header: {rounds}"
    );
    play_shard(&dir, &base, "sp", 0, 3);
    play_shard(&dir, &base, "sp", 2, 3);
    let early = next_round(&dir, &base, "sp", 3);
    assert_eq!(early.code, 1, "{}", early.stderr);
    assert!(
        early
            .stderr
            .contains("round 0 is not played yet by shard 1 "),
        "{}",
        early.stderr
    );
    assert_eq!(
        fs::read_to_string(dir.file("sp/rounds.jsonl")).unwrap(),
        rounds
    );
    assert!(!dir.file("sp/journal.jsonl").exists());
    play_shard(&dir, &base, "sp", 1, 3);
    let step = next_round(&dir, &base, "sp", 3);
    assert_eq!(step.code, 0, "{}", step.stderr);
    assert!(step.stdout.contains("round 1 decided"), "{}", step.stdout);
    // The shards' manifests now say round 0: none has played round 1.
    let stale = next_round(&dir, &base, "sp", 3);
    assert_eq!(stale.code, 1);
    assert!(
        stale
            .stderr
            .contains("round 1 is not played yet by shards 0,1,2 "),
        "{}",
        stale.stderr
    );
    assert_eq!(
        fs::read_to_string(dir.file("sp/rounds.jsonl"))
            .unwrap()
            .lines()
            .count(),
        2
    );
}

#[test]
fn adaptive_shards_are_refused_where_rounds_cannot_be_followed() {
    let dir = Dir::new();
    let base = settings("40");
    let mut args = vec!["slurm"];
    args.extend(with(&base, &["--out", "sp", "--shards", "2"]));
    dir.ok(&args);
    play_shard(&dir, &base, "sp", 0, 2);
    play_shard(&dir, &base, "sp", 1, 2);
    // c960 merge cannot know the rounds.
    let line = dir.bad_input(&["merge", "sp/shards/0", "sp/shards/1", "--out", "m"]);
    assert!(line.contains("shard of an adaptive run"), "{line}");
    // A shard of adaptive self-play needs the run directory's rounds.
    let line = dir.bad_input(&with(&base, &["--shard", "0/2", "--out", "x"]));
    assert!(line.contains("round by round"), "{line}");
    let line = dir.bad_input(&with(
        &base,
        &["--shard", "0/2", "--rounds-from", "nowhere", "--out", "x"],
    ));
    assert!(line.contains("rounds.jsonl does not exist"), "{line}");
    // Another rule than the run directory's is refused.
    let other = settings("40")
        .into_iter()
        .map(|a| if a == "0.3" { "0.25".to_owned() } else { a })
        .collect::<Vec<_>>();
    let line = dir.bad_input(&with(
        &other,
        &["--shard", "0/2", "--rounds-from", "sp", "--out", "y"],
    ));
    assert!(
        line.contains("0.25") || line.contains("target_half_width"),
        "{line}"
    );
    // --next-round is for adaptive self-play.
    let line = dir.bad_input(&[
        "slurm",
        "selfplay",
        "--engine",
        "builtin",
        "--out",
        "plain",
        "--shards",
        "2",
        "--next-round",
    ]);
    assert!(line.contains("--next-round is for adaptive"), "{line}");
    // A c960 run with adaptive self-play cannot split its rounds.
    let line = dir.bad_input(&[
        "slurm",
        "run",
        "--profile",
        "research",
        "--out",
        "research",
        "--shards",
        "2",
    ]);
    assert!(
        line.contains("c960 slurm selfplay --target-halfwidth"),
        "{line}"
    );
    assert!(!dir.file("research").exists());
}
