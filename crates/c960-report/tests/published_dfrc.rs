//! The DFRC sample in `data/dfrc-sample-stockfish-15.1/` is whole and
//! consistent with its manifest: the 20,000 setups of `sample:20000:1`,
//! two searches each, the published repeatability recomputed from the
//! published rows, and the per-setup means those of the searches.

use crate::common;

use std::{fs, path::PathBuf};

use c960_balance::reliability::split_half;
use common::{f64s, read_parquet, scores_by_unit, u64s};
use polars::prelude::*;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/dfrc-sample-stockfish-15.1")
}

fn parquet(name: &str) -> DataFrame {
    read_parquet(&dir().join(name))
}

#[test]
fn the_dfrc_sample_is_whole_and_its_repeatability_recomputes() {
    let path = dir().join("manifest.json");
    let m: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap();
    assert_eq!(m["kind"], "sweep");
    assert_eq!(m["variant"], "dfrc");
    assert_eq!(m["engine"]["name"], "Stockfish 15.1");
    assert_eq!(m["limit"], "nodes 100000");
    assert_eq!(m["repeats"], 2);
    assert_eq!(m["positions"], "sample:20000:1");
    assert_eq!(m["rows"], 20_000);
    assert!(m["failed"].as_array().unwrap().is_empty());
    let seed = m["seed"].as_u64().unwrap();

    let searches = parquet("repeats.parquet");
    assert_eq!(searches.height(), 40_000);
    let setup = u64s(&searches, "setup");
    let repeat = u64s(&searches, "repeat");
    let (white, black) = (u64s(&searches, "white_sp"), u64s(&searches, "black_sp"));
    let budget = u64s(&searches, "node_budget");
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..searches.height() {
        assert!(
            seen.insert((setup[i], repeat[i])),
            "one row per (setup, repeat)"
        );
        assert!(repeat[i] < 2);
        assert_eq!((white[i], black[i]), (setup[i] % 960, setup[i] / 960));
        assert!(
            (75_000..=125_000).contains(&budget[i]),
            "budget {}",
            budget[i]
        );
    }
    let sample: Vec<u64> = c960_core::stratified_sample(20_000, 1)
        .into_iter()
        .map(|s| u64::from(s.index()))
        .collect();
    let published: std::collections::BTreeSet<u64> = setup.iter().copied().collect();
    assert_eq!(
        published.into_iter().collect::<Vec<_>>(),
        sample,
        "the stratified sample"
    );

    let groups = scores_by_unit(&searches, &setup);
    let recomputed = split_half(&groups, 201, seed).unwrap();
    let published = &m["repeatability"];
    assert!((recomputed.half - published["split_half"].as_f64().unwrap()).abs() < 1e-12);
    assert!((recomputed.whole - published["all_repeats"].as_f64().unwrap()).abs() < 1e-12);
    assert!(recomputed.whole >= 0.9, "two searches resolve the setups");

    let setups = parquet("sweep.parquet");
    assert_eq!(setups.height(), 20_000);
    let means = f64s(&setups, "score_cp_mean");
    for (k, group) in groups.iter().enumerate() {
        let mean = group.iter().sum::<f64>() / 2.0;
        assert!((means[k].unwrap() - mean).abs() < 1e-9, "row {k}");
    }
}
