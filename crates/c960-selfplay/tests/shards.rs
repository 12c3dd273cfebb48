//! Shards and their merge, as properties: for random shard counts, random
//! orders of the inputs and duplicated inputs, the merge of the shards
//! equals the unsharded run; gaps are listed, conflicting duplicates and
//! mixed settings refused. Built-in engine at small node limits.

use std::num::NonZeroU32;
use std::{
    fs,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use c960_core::{Shard, StartPosition};
use c960_engine::{EngineSpec, Limit};
use c960_selfplay::{
    GameRecord, MATCH_FILE, MatchOptions, MissingGame, Rules, SelfplayConfig, SelfplayError, merge,
    run,
};
use c960_store::Journal;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::Value;

fn builtin() -> EngineSpec {
    EngineSpec::Builtin {
        hash_mb: 1,
        watchdog: None,
    }
}

fn config(out: &Path, paired: bool, shard: Shard) -> SelfplayConfig {
    SelfplayConfig {
        engine: builtin(),
        engine_b: paired.then(builtin),
        limit: Limit::Nodes(150),
        jitter: 0.1,
        rules: Rules {
            max_plies: NonZeroU32::new(60).unwrap(),
            ..Rules::default()
        },
        games_per_position: NonZeroU32::new(4).unwrap(),
        positions: [3u16, 4, 5, 518, 959]
            .iter()
            .map(|&sp| StartPosition::new(sp).unwrap().into())
            .collect(),
        seed: 11,
        jobs: 1,
        retries: 0,
        keep_scores: true,
        out: out.to_owned(),
        options: MatchOptions::default(),
        shard,
    }
}

fn play(config: &SelfplayConfig) {
    let outcome = run(config, &AtomicBool::new(false), |_| {}).unwrap();
    assert!(!outcome.interrupted && outcome.failed.is_empty());
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The manifest without what differs between two runs of one command (the
/// clock, the processes used, and the shard list).
fn settled_manifest(dir: &Path) -> Value {
    let mut manifest: Value = serde_json::from_str(&read(&dir.join("manifest.json"))).unwrap();
    let object = manifest.as_object_mut().unwrap();
    for key in ["started", "finished", "jobs", "this_run", "shards"] {
        object.remove(key);
    }
    manifest
}

/// The merged directory holds what the unsharded run wrote.
fn assert_same_run(whole: &Path, merged: &Path) {
    for file in ["games.pgn", "positions.csv"] {
        assert_eq!(
            read(&whole.join(file)),
            read(&merged.join(file)),
            "{file} differs"
        );
    }
    assert_eq!(settled_manifest(whole), settled_manifest(merged));
    let lines = |dir: &Path| {
        let mut lines: Vec<String> = read(&dir.join("journal.jsonl"))
            .lines()
            .map(str::to_owned)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(lines(whole), lines(merged), "journals differ");
    if whole.join(MATCH_FILE).exists() {
        let matches = |dir: &Path| {
            let mut m: Value = serde_json::from_str(&read(&dir.join(MATCH_FILE))).unwrap();
            m.as_object_mut().unwrap().remove("finished");
            m
        };
        assert_eq!(matches(whole), matches(merged));
    }
}

fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.next_u32() as usize % (i + 1);
        items.swap(i, j);
    }
}

#[test]
fn merged_shards_equal_the_unsharded_run_for_random_shard_counts_and_orders() {
    let temp = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(960);
    for paired in [false, true] {
        let whole = temp.path().join(format!("whole-{paired}"));
        play(&config(&whole, paired, Shard::WHOLE));
        for trial in 0..3 {
            let count = 1 + rng.next_u32() % 5;
            let mut order: Vec<u32> = (0..count).collect();
            shuffle(&mut order, &mut rng);
            let base = temp.path().join(format!("p{paired}-t{trial}"));
            let mut dirs: Vec<PathBuf> = Vec::new();
            // Shards finish in a random order; each holds only its units,
            // and both games of a pair are in one shard.
            for &index in &order {
                let shard = Shard::new(index, count).unwrap();
                let dir = base.join(index.to_string());
                play(&config(&dir, paired, shard));
                for line in read(&dir.join("journal.jsonl")).lines().skip(1) {
                    let game: GameRecord = serde_json::from_str(line).unwrap();
                    let unit = if paired { game.game / 2 } else { game.game };
                    assert!(
                        shard.contains(game.sp, unit),
                        "{shard}: SP {} game {}",
                        game.sp,
                        game.game
                    );
                }
                let manifest: Value =
                    serde_json::from_str(&read(&dir.join("manifest.json"))).unwrap();
                assert_eq!(manifest["shard"] == Value::Null, count == 1);
                dirs.push(dir);
            }
            // A shard given twice, and the whole run given too, count once.
            let mut inputs = dirs.clone();
            let twice = rng.next_u32() as usize % dirs.len();
            inputs.push(dirs[twice].clone());
            if rng.next_u32() % 2 == 0 {
                inputs.push(whole.clone());
            }
            shuffle(&mut inputs, &mut rng);
            let merged = base.join("merged");
            let outcome = merge(&inputs, &merged, false).unwrap();
            assert!(outcome.missing.is_empty());
            assert!(
                outcome.duplicates > 0,
                "a shard given twice was not noticed"
            );
            assert_eq!(outcome.games, 20);
            assert_same_run(&whole, &merged);
        }
    }
}

#[test]
fn a_missing_shard_is_a_gap_listed_by_game() {
    let temp = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..3)
        .map(|i| {
            let dir = temp.path().join(i.to_string());
            play(&config(&dir, false, Shard::new(i, 3).unwrap()));
            dir
        })
        .collect();
    let out = temp.path().join("merged");
    let partial = [dirs[0].clone(), dirs[2].clone()];
    let err = merge(&partial, &out, false).unwrap_err();
    assert!(matches!(err, SelfplayError::Invalid(_)));
    assert!(err.is_bad_input());
    let message = err.to_string();
    assert!(
        message.contains("no input holds") && message.contains("--allow-missing"),
        "{message}"
    );
    assert!(
        !out.join("manifest.json").exists(),
        "a refused merge wrote outputs"
    );

    let outcome = merge(&partial, &out, true).unwrap();
    let shard = Shard::new(1, 3).unwrap();
    let expected: Vec<MissingGame> = [3u16, 4, 5, 518, 959]
        .iter()
        .flat_map(|&sp| {
            (0..4).map(move |game| MissingGame {
                sp: u32::from(sp),
                game,
            })
        })
        .filter(|m| shard.contains(m.sp, m.game))
        .collect();
    assert_eq!(outcome.missing, expected);
    let manifest: Value = serde_json::from_str(&read(&out.join("manifest.json"))).unwrap();
    assert_eq!(
        manifest["missing"].as_array().unwrap().len(),
        expected.len()
    );
    assert_eq!(manifest["games"], 20 - expected.len());
    assert_eq!(manifest["shards"], serde_json::json!(["0/3", "2/3"]));
}

#[test]
fn two_different_games_for_one_unit_are_refused() {
    let temp = tempfile::tempdir().unwrap();
    let a = temp.path().join("a");
    play(&config(&a, false, Shard::WHOLE));
    // A journal of the same settings holding one game relabelled as
    // another game of its position: a valid line, but not that game.
    let journal = a.join("journal.jsonl");
    let (_, settings) = Journal::<GameRecord>::read_header(&journal).unwrap();
    let games: Vec<GameRecord> = read(&journal)
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = games.iter().find(|g| g.sp == 518 && g.game == 0).unwrap();
    let other = games
        .iter()
        .find(|g| g.sp == 518 && g.moves != first.moves)
        .expect("two different games from SP 518");
    let mut forged = other.clone();
    forged.game = first.game;
    forged.seed = first.seed;
    let b = temp.path().join("b");
    fs::create_dir_all(&b).unwrap();
    let (mut writer, _) = Journal::<GameRecord>::open(&b.join("journal.jsonl"), &settings).unwrap();
    writer.append(&forged).unwrap();
    drop(writer);
    let err = merge(&[a.clone(), b.clone()], &temp.path().join("merged"), false).unwrap_err();
    assert!(err.to_string().contains("SP 518 game 0"), "{err}");
    assert!(err.to_string().contains("conflicting duplicate"), "{err}");
}

#[test]
fn runs_of_other_settings_are_refused_naming_the_setting() {
    let temp = tempfile::tempdir().unwrap();
    let a = temp.path().join("a");
    play(&config(&a, false, Shard::new(0, 2).unwrap()));
    let b = temp.path().join("b");
    let mut other = config(&b, false, Shard::new(1, 2).unwrap());
    other.limit = Limit::Nodes(160);
    play(&other);
    let err = merge(&[a.clone(), b.clone()], &temp.path().join("m1"), false).unwrap_err();
    let message = err.to_string();
    assert!(err.is_bad_input());
    assert!(
        message.contains("other settings") && message.contains("limit"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1);

    let c = temp.path().join("c");
    let mut other = config(&c, false, Shard::new(1, 2).unwrap());
    other.seed = 12;
    play(&other);
    let message = merge(&[a.clone(), c], &temp.path().join("m2"), false)
        .unwrap_err()
        .to_string();
    assert!(message.contains("seed"), "{message}");

    let d = temp.path().join("d");
    let mut other = config(&d, false, Shard::new(1, 2).unwrap());
    other.games_per_position = NonZeroU32::new(6).unwrap();
    play(&other);
    let message = merge(&[a, d], &temp.path().join("m3"), false)
        .unwrap_err()
        .to_string();
    assert!(message.contains("games_per_position"), "{message}");
}

/// The position table has the columns the report reads, in the order the
/// run-directory contract (`c960_store::columns`) names them.
#[test]
fn the_position_table_has_the_columns_of_the_contract() {
    use c960_store::columns::{GAME_SUMMARY, SELFPLAY_TERMINATIONS, check_order};
    use polars::prelude::{ParquetReader, SerReader};
    let dir = tempfile::tempdir().unwrap();
    play(&config(dir.path(), false, Shard::default()));
    let file = fs::File::open(dir.path().join(c960_selfplay::POSITIONS_PARQUET)).unwrap();
    let frame = ParquetReader::new(file).finish().unwrap();
    let names: Vec<String> = frame
        .get_column_names()
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut wanted = vec!["games", "distinct_games"];
    wanted.extend(GAME_SUMMARY);
    wanted.extend(SELFPLAY_TERMINATIONS[3..].iter().map(|(c, _)| *c));
    check_order(&names, &wanted).unwrap();
}
