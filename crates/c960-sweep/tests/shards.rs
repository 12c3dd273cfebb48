//! Sweep shards and their merge, as properties: for random shard counts
//! and input orders the merged table equals the unsharded sweep's apart
//! from `time_ms`; gaps are listed and mixed settings refused. Built-in
//! engine at a small node limit.

use std::num::NonZeroU32;
use std::{
    fs,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use c960_core::{Shard, StartPosition};
use c960_engine::{EngineSpec, Limit};
use c960_sweep::{RepeatPlan, SweepConfig, SweepRow, merge, run};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::Value;

pub(crate) fn config(out: &Path, shard: Shard) -> SweepConfig {
    with_repeats(out, shard, RepeatPlan::single())
}

pub(crate) fn with_repeats(out: &Path, shard: Shard, repeats: RepeatPlan) -> SweepConfig {
    SweepConfig {
        engine: EngineSpec::Builtin {
            hash_mb: 1,
            watchdog: None,
        },
        limit: Limit::Nodes(300),
        multipv: NonZeroU32::new(2).unwrap(),
        positions: (10..22)
            .map(|sp| StartPosition::new(sp).unwrap().into())
            .collect(),
        set: None,
        jobs: 1,
        retries: 0,
        out: out.to_owned(),
        repair: false,
        shard,
        repeats,
        reply: false,
    }
}

pub(crate) fn sweep(config: &SweepConfig) -> Vec<SweepRow> {
    let outcome = run(config, &AtomicBool::new(false), |_| {}).unwrap();
    assert!(!outcome.interrupted && outcome.failed.is_empty());
    outcome.rows
}

/// The table's rows with the engine's clock left out.
pub(crate) fn rows(dir: &Path) -> Vec<SweepRow> {
    fs::read_to_string(dir.join("journal.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let entry: Value = serde_json::from_str(l).unwrap();
            let row: SweepRow = serde_json::from_value(entry).unwrap();
            row.without_time()
        })
        .collect()
}

pub(crate) fn manifest(dir: &Path) -> Value {
    let mut m: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    for key in ["started", "finished", "jobs", "shards", "shard", "resumed"] {
        m.as_object_mut().unwrap().remove(key);
    }
    m
}

#[test]
fn merged_shards_of_a_sweep_with_repeats_equal_the_unsharded_sweep() {
    let temp = tempfile::tempdir().unwrap();
    let plan = RepeatPlan {
        repeats: NonZeroU32::new(3).unwrap(),
        seed: 9,
        jitter: 0.25,
    };
    let whole = temp.path().join("whole");
    sweep(&with_repeats(&whole, Shard::WHOLE, plan));
    let mut expected = rows(&whole);
    expected.sort_by_key(|r| (r.sp, r.repeat));
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    for trial in 0..2 {
        let count = 2 + rng.next_u32() % 4;
        let base = temp.path().join(trial.to_string());
        let mut dirs: Vec<PathBuf> = (0..count)
            .map(|i| {
                let dir = base.join(i.to_string());
                let shard = Shard::new(i, count).unwrap();
                for row in sweep(&with_repeats(&dir, shard, plan)) {
                    assert!(shard.contains(row.sp, row.repeat));
                }
                dir
            })
            .collect();
        let turn = rng.next_u32() as usize % dirs.len();
        dirs.rotate_left(turn);
        let merged = base.join("merged");
        let outcome = merge(&dirs, &merged, false).unwrap();
        assert_eq!(outcome.rows, 36);
        assert_eq!(rows(&merged), expected);
        assert_eq!(manifest(&merged), manifest(&whole));
        assert_eq!(
            fs::read_to_string(merged.join("sweep.csv"))
                .unwrap()
                .lines()
                .count(),
            13
        );
    }
    // A missing shard leaves (SP, repeat) searches missing.
    let lonely = temp.path().join("lonely");
    sweep(&with_repeats(&lonely, Shard::new(0, 3).unwrap(), plan));
    let outcome = merge(&[lonely], &temp.path().join("part"), true).unwrap();
    assert_eq!(outcome.missing.len(), 36 - outcome.rows);
    assert!(outcome.missing.iter().any(|key| key.repeat > 0));
}

#[test]
fn merged_sweep_shards_equal_the_unsharded_sweep() {
    let temp = tempfile::tempdir().unwrap();
    let whole = temp.path().join("whole");
    sweep(&config(&whole, Shard::WHOLE));
    let mut expected = rows(&whole);
    expected.sort_by_key(|r| r.sp);
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for trial in 0..3 {
        let count = 2 + rng.next_u32() % 4;
        let base = temp.path().join(trial.to_string());
        let mut dirs: Vec<PathBuf> = (0..count)
            .map(|i| {
                let dir = base.join(i.to_string());
                let shard = Shard::new(i, count).unwrap();
                for row in sweep(&config(&dir, shard)) {
                    assert!(shard.contains(row.sp, 0));
                }
                dir
            })
            .collect();
        let twice = dirs[rng.next_u32() as usize % dirs.len()].clone();
        dirs.push(twice.clone());
        let turn = rng.next_u32() as usize % dirs.len();
        dirs.rotate_left(turn);
        let merged = base.join("merged");
        let outcome = merge(&dirs, &merged, false).unwrap();
        assert_eq!((outcome.rows, outcome.duplicates), (12, rows(&twice).len()));
        assert_eq!(rows(&merged), expected);
        assert_eq!(manifest(&merged), manifest(&whole));
        assert_eq!(outcome.shards.len(), count as usize);
    }
}

#[test]
fn sweep_gaps_are_listed_and_other_settings_refused() {
    let temp = tempfile::tempdir().unwrap();
    let a = temp.path().join("a");
    sweep(&config(&a, Shard::new(0, 2).unwrap()));
    let message = merge(std::slice::from_ref(&a), &temp.path().join("m"), false)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("no input holds 6 searches of the run"),
        "{message}"
    );
    let outcome = merge(std::slice::from_ref(&a), &temp.path().join("m"), true).unwrap();
    assert_eq!(
        outcome.missing,
        [11, 13, 15, 17, 19, 21].map(|sp| c960_core::SearchKey::new(sp, 0))
    );

    let b = temp.path().join("b");
    let mut other = config(&b, Shard::new(1, 2).unwrap());
    other.limit = Limit::Nodes(301);
    sweep(&other);
    let err = merge(&[a, b], &temp.path().join("m2"), false).unwrap_err();
    assert!(err.is_bad_input());
    assert!(err.to_string().contains("limit"), "{err}");
}

/// The per-position table has the columns the report reads, as the
/// run-directory contract (`c960_store::columns`) names them (the means
/// over repeats in its order).
#[test]
fn the_table_has_the_columns_of_the_contract() {
    use c960_store::columns::{SWEEP_REPEAT_MEANS, SWEEP_SEARCH, check_order};
    use polars::prelude::{ParquetReader, SerReader};
    let dir = tempfile::tempdir().unwrap();
    let plan = RepeatPlan {
        repeats: NonZeroU32::new(2).unwrap(),
        seed: 1,
        jitter: 0.25,
    };
    sweep(&with_repeats(dir.path(), Shard::default(), plan));
    let file = fs::File::open(dir.path().join(c960_sweep::PARQUET_FILE)).unwrap();
    let frame = ParquetReader::new(file).finish().unwrap();
    let names: Vec<String> = frame
        .get_column_names()
        .iter()
        .map(ToString::to_string)
        .collect();
    for name in SWEEP_SEARCH {
        assert!(
            names.iter().any(|n| n == name),
            "{name} missing from {names:?}"
        );
    }
    check_order(&names, &SWEEP_REPEAT_MEANS).unwrap();
}
