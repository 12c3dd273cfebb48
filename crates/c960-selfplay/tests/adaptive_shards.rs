//! Adaptive self-play in shards, round by round, through the library: for
//! random shard counts and random orders of the shards in every round,
//! [`merge_round`] decides the rounds and writes the outputs of the
//! unsharded adaptive run; a missing shard and shards of other settings are
//! refused.

use std::num::NonZeroU32;
use std::{
    fs,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use c960_core::{Shard, StartPosition};
use c960_engine::{EngineSpec, Limit};
use c960_selfplay::{
    Adaptive, MatchOptions, RoundStep, Rules, SelfplayConfig, SelfplayError, merge_round,
    open_rounds, run,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::Value;

fn config(out: &Path, shard: Shard, rounds_from: Option<&Path>) -> SelfplayConfig {
    SelfplayConfig {
        engine: EngineSpec::Builtin {
            hash_mb: 1,
            watchdog: None,
        },
        engine_b: None,
        limit: Limit::Nodes(60),
        jitter: 0.1,
        rules: Rules {
            max_plies: NonZeroU32::new(60).unwrap(),
            ..Rules::default()
        },
        games_per_position: NonZeroU32::new(2).unwrap(),
        positions: [3u16, 4, 5, 518, 959]
            .iter()
            .map(|&sp| StartPosition::new(sp).unwrap().into())
            .collect(),
        seed: 21,
        jobs: 1,
        retries: 0,
        keep_scores: false,
        out: out.to_owned(),
        options: MatchOptions {
            adaptive: Some(Adaptive {
                target_half_width: 0.3,
                band_half_width: 0.02,
                alpha: 0.05,
                round_games: 2,
                budget: Some(23),
            }),
            rounds_from: rounds_from.map(Path::to_owned),
            ..MatchOptions::default()
        },
        shard,
    }
}

fn shard_dirs(out: &Path, n: u32) -> Vec<PathBuf> {
    (0..n)
        .map(|i| out.join("shards").join(i.to_string()))
        .collect()
}

fn play_shard(out: &Path, i: u32, n: u32) {
    let shard = Shard::new(i, n).unwrap();
    let dir = out.join("shards").join(i.to_string());
    let outcome = run(
        &config(&dir, shard, Some(out)),
        &AtomicBool::new(false),
        |_| {},
    )
    .unwrap();
    assert!(!outcome.interrupted && outcome.failed.is_empty());
    assert!(outcome.round.is_some());
}

/// Plays the run in `n` shards, each round's in a random order, until the
/// rule stops; returns the rounds.
fn sharded(out: &Path, n: u32, rng: &mut ChaCha8Rng) -> u32 {
    let whole = config(out, Shard::WHOLE, None);
    assert_eq!(open_rounds(&whole).unwrap(), 0);
    for round in 0..30 {
        let mut order: Vec<u32> = (0..n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        for i in order {
            play_shard(out, i, n);
        }
        match merge_round(&whole, &shard_dirs(out, n)).unwrap() {
            RoundStep::Next(next) => assert_eq!(next.round, round + 1),
            RoundStep::Finished(outcome) => {
                assert_eq!(outcome.adaptive.unwrap().rounds, round);
                return round;
            }
            RoundStep::Unfinished { .. } => panic!("every shard played round {round}"),
        }
    }
    panic!("no end within 30 rounds");
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn settled(path: &Path) -> Value {
    let mut m: Value = serde_json::from_str(&read(path)).unwrap();
    for key in ["started", "finished", "jobs", "this_run", "shards"] {
        m.as_object_mut().unwrap().remove(key);
    }
    m
}

fn games(path: &Path) -> Vec<Value> {
    let mut rows: Vec<Value> = read(path)
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

#[test]
fn rounds_merged_from_random_shard_counts_and_orders_equal_the_unsharded_run() {
    let temp = tempfile::tempdir().unwrap();
    let whole = temp.path().join("whole");
    let outcome = run(
        &config(&whole, Shard::WHOLE, None),
        &AtomicBool::new(false),
        |_| {},
    )
    .unwrap();
    let rounds = outcome.adaptive.unwrap().rounds;
    assert!(rounds >= 2, "too few rounds to test: {rounds}");
    assert_eq!(outcome.games, 23, "the budget is spent");
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for trial in 0..3 {
        // One shard (a run of 1 shard) first, then random counts.
        let n = if trial == 0 {
            1
        } else {
            2 + (rng.next_u64() % 4) as u32
        };
        let out = temp.path().join(format!("sharded-{trial}"));
        assert_eq!(sharded(&out, n, &mut rng), rounds, "{n} shards");
        for file in ["games.pgn", "positions.csv", "rounds.jsonl"] {
            assert_eq!(
                read(&out.join(file)),
                read(&whole.join(file)),
                "{file} differs with {n} shards"
            );
        }
        assert_eq!(
            games(&out.join("journal.jsonl")),
            games(&whole.join("journal.jsonl"))
        );
        assert_eq!(
            settled(&out.join("manifest.json")),
            settled(&whole.join("manifest.json")),
            "{n} shards"
        );
    }
}

#[test]
fn a_missing_shard_or_a_shard_of_other_settings_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("sp");
    let whole = config(&out, Shard::WHOLE, None);
    open_rounds(&whole).unwrap();
    for i in 0..3 {
        play_shard(&out, i, 3);
    }
    // Two of the three shards: the third's games are in neither.
    let two = &shard_dirs(&out, 3)[..2];
    match merge_round(&whole, two) {
        Err(SelfplayError::Invalid(m)) => assert!(m.contains("give every shard"), "{m}"),
        other => panic!("merged without a shard: {other:?}"),
    }
    assert!(!out.join("journal.jsonl").exists());
    // A shard played at another node limit.
    let other = temp.path().join("other");
    let mut odd = config(
        &other.join("shards/1"),
        Shard::new(1, 3).unwrap(),
        Some(&out),
    );
    odd.limit = Limit::Nodes(61);
    run(&odd, &AtomicBool::new(false), |_| {}).unwrap();
    let mixed = vec![
        out.join("shards/0"),
        other.join("shards/1"),
        out.join("shards/2"),
    ];
    let error = merge_round(&whole, &mixed).unwrap_err();
    assert!(error.is_bad_input(), "{error}");
    assert!(error.to_string().contains("61"), "{error}");
}
