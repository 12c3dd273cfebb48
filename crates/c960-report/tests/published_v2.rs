//! The research dataset v2 in `data/research-v2/` is whole and consistent
//! with its manifests, and its published repeatability is recomputed here
//! from its published rows, as is the split-half reliability of its
//! self-play scores: a corrupted, truncated or hand-edited file fails.

use crate::common;

use std::{collections::BTreeMap, fs, path::PathBuf};

use c960_balance::reliability::split_half;
use common::{f64s, read_parquet, scores_by_unit, u64s};
use polars::prelude::*;

/// v2's verdicts as they were published on 2026-11-23 (Stockfish's
/// repeats as the consensus); `balance.csv` beside them is what today's
/// c960 makes of the same tables (the regeneration tests check it).
const PUBLISHED_CSV: &str = "balance-as-published-2026-11-23.csv";
/// Their summary as published.
const PUBLISHED_JSON: &str = "balance-as-published-2026-11-23.json";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/research-v2")
}

fn json(name: &str) -> serde_json::Value {
    let path = dir().join(name);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn parquet(name: &str) -> DataFrame {
    read_parquet(&dir().join(name))
}

#[test]
fn the_stockfish_repeats_are_whole_and_match_their_manifest() {
    let m = json("stockfish-manifest.json");
    assert_eq!(m["kind"], "sweep");
    assert_eq!(m["engine"]["name"], "Stockfish 15.1");
    assert_eq!(m["limit"], "nodes 250000");
    assert_eq!(m["repeats"], 4);
    assert_eq!(m["positions"], "all");
    assert_eq!(m["rows"], 960);
    assert!(m["failed"].as_array().unwrap().is_empty());
    let seed = m["seed"].as_u64().unwrap();

    let searches = parquet("stockfish-repeats.parquet");
    assert_eq!(searches.height(), 3840);
    let sp = u64s(&searches, "sp");
    let repeat = u64s(&searches, "repeat");
    let budget = u64s(&searches, "node_budget");
    let nodes = u64s(&searches, "nodes");
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..searches.height() {
        assert!(seen.insert((sp[i], repeat[i])), "one row per (SP, repeat)");
        assert!(repeat[i] < 4);
        assert!(
            (187_500..=312_500).contains(&budget[i]),
            "budget {}",
            budget[i]
        );
        // Stockfish stops within a few nodes past its budget.
        assert!(nodes[i] >= budget[i] / 4, "searched its budget");
    }
    assert_eq!(seen.len(), 3840);

    // The published repeatability, recomputed from the published rows
    // (mates counted as ±1000 cp, repeats in order, the run's seed).
    let groups = scores_by_unit(&searches, &sp);
    let recomputed = split_half(&groups, 201, seed).unwrap();
    let published = &m["repeatability"];
    assert!((recomputed.half - published["split_half"].as_f64().unwrap()).abs() < 1e-12);
    assert!((recomputed.whole - published["all_repeats"].as_f64().unwrap()).abs() < 1e-12);
    assert!(
        recomputed.whole >= 0.9,
        "the dataset's promise: repeatability 0.9 or more"
    );

    // The per-position table's means are the means of the searches.
    let positions = parquet("stockfish-sweep.parquet");
    assert_eq!(positions.height(), 960);
    let means = f64s(&positions, "score_cp_mean");
    for (k, group) in groups.iter().enumerate() {
        let mean = group.iter().sum::<f64>() / f64::from(u32::try_from(group.len()).unwrap());
        assert!((means[k].unwrap() - mean).abs() < 1e-9, "SP {k}");
    }
}

#[test]
fn ethereal_and_the_consensus_table_cover_every_position() {
    let m = json("ethereal-manifest.json");
    assert_eq!(m["kind"], "sweep");
    assert!(
        m["engine"]["name"]
            .as_str()
            .unwrap()
            .starts_with("Ethereal")
    );
    assert_eq!(m["limit"], "depth 14");
    assert_eq!(m["rows"], 960);
    let options = m["engine"]["options"].to_string();
    assert!(options.contains("ContemptDrawPenalty"), "{options}");
    assert_eq!(parquet("ethereal-sweep.parquet").height(), 960);

    let table = parquet("positions.parquet");
    assert_eq!(table.height(), 960);
    let balance = fs::read_to_string(dir().join(PUBLISHED_CSV)).unwrap();
    let mut lines = balance.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let verdict = header.iter().position(|h| *h == "verdict").unwrap();
    let method = header.iter().position(|h| *h == "verdict_method").unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 960);
    for row in &rows {
        assert!(
            ["balanced", "more-for-white", "less-for-white", "unresolved"].contains(&row[verdict])
        );
        assert_eq!(row[method], "sweep", "verdicts from the consensus sweep");
    }
    let summary = json(PUBLISHED_JSON);
    let engines = summary["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 2);
    assert_eq!(engines[0]["repeats"], 4);
    assert_eq!(summary["agreement"].as_array().unwrap().len(), 1);
    // The published agreement, recomputed from the two engines' tables:
    // Stockfish's means over its repeats against Ethereal's one search.
    let stockfish = f64s(&parquet("stockfish-sweep.parquet"), "score_cp_mean");
    let ethereal = f64s(&parquet("ethereal-sweep.parquet"), "score_cp");
    let pairs: Vec<(f64, f64)> = stockfish
        .iter()
        .zip(&ethereal)
        .filter_map(|(a, b)| Some(((*a)?, (*b)?)))
        .collect();
    let r = c960_balance::reliability::pearson(
        &pairs.iter().map(|p| p.0).collect::<Vec<_>>(),
        &pairs.iter().map(|p| p.1).collect::<Vec<_>>(),
    )
    .unwrap();
    let published = summary["agreement"][0]["pearson"].as_f64().unwrap();
    assert!((r - published).abs() < 1e-9, "{r} against {published}");
}

#[test]
fn the_adaptive_games_are_whole_and_match_their_manifest_and_rounds() {
    let m = json("selfplay-manifest.json");
    assert_eq!(m["kind"], "selfplay");
    assert_eq!(m["engines"][0]["name"], "Stockfish 15.1");
    assert_eq!(m["limit"], "nodes 5000");
    assert_eq!(m["processes"], "one per side");
    assert_eq!(m["positions"], "all");
    assert_eq!(m["seed"], 0);
    assert!(m["failed"].as_array().unwrap().is_empty());
    let adaptive = &m["adaptive"];
    let initial = adaptive["initial_games"].as_u64().unwrap();
    assert_eq!(initial, 20);
    assert_eq!(adaptive["budget"], 24_000);

    // Each position's games are numbered 0..n without a gap, n being its
    // initial games or the last target a round set for it.
    let games = parquet("games.parquet");
    assert_eq!(games.height() as u64, m["games"].as_u64().unwrap());
    let sp = u64s(&games, "sp");
    let game = u64s(&games, "game");
    let score = f64s(&games, "white_score");
    let mut by_sp: BTreeMap<u64, BTreeMap<u64, f64>> = BTreeMap::new();
    for i in 0..games.height() {
        let s = score[i].unwrap();
        assert!([0.0, 0.5, 1.0].contains(&s), "row {i}: White's score {s}");
        assert!(
            by_sp.entry(sp[i]).or_default().insert(game[i], s).is_none(),
            "SP {} game {} twice",
            sp[i],
            game[i]
        );
    }
    assert_eq!(by_sp.len(), 960);
    let rounds = fs::read_to_string(dir().join("selfplay-rounds.jsonl")).unwrap();
    let mut lines = rounds.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["settings"]["initial_games"], initial);
    let mut target: BTreeMap<u64, u64> = (0..960).map(|sp| (sp, initial)).collect();
    let mut played_rounds = 0;
    for line in lines {
        let round: serde_json::Value = serde_json::from_str(line).unwrap();
        played_rounds += 1;
        assert_eq!(round["round"], played_rounds);
        for t in round["targets"].as_array().unwrap() {
            let (s, n) = (t[0].as_u64().unwrap(), t[1].as_u64().unwrap());
            assert!(n > target[&s], "a round adds games to SP {s}");
            target.insert(s, n);
        }
    }
    assert_eq!(adaptive["rounds"], played_rounds);
    for (s, games) in &by_sp {
        let n = target[s];
        assert_eq!(
            games.keys().copied().collect::<Vec<_>>(),
            (0..n).collect::<Vec<_>>(),
            "SP {s}"
        );
    }
    let counts: Vec<u64> = by_sp.values().map(|g| g.len() as u64).collect();
    assert_eq!(counts.iter().sum::<u64>(), 24_000, "the budget, spent");
    assert_eq!(adaptive["games_min"], *counts.iter().min().unwrap());
    assert_eq!(adaptive["games_max"], *counts.iter().max().unwrap());

    // The published split-half reliability of the per-position scores,
    // recomputed from the games in game order (21 splits, seed 0, as
    // balance.json states).
    let summary = json(PUBLISHED_JSON);
    let published = &summary["games"]["reliability"];
    let splits = published["splits"].as_u64().unwrap() as usize;
    let groups: Vec<Vec<f64>> = by_sp
        .values()
        .map(|g| g.values().copied().collect())
        .collect();
    let recomputed = split_half(
        &groups,
        splits,
        summary["settings"]["seed"].as_u64().unwrap(),
    )
    .unwrap();
    assert!((recomputed.half - published["half"].as_f64().unwrap()).abs() < 1e-12);
    assert!((recomputed.whole - published["whole"].as_f64().unwrap()).abs() < 1e-12);
    assert_eq!(published["positions"], 960);
    // The games are far less reliable than the sweep, so the published
    // verdicts are the sweep's, and the games' own stand beside them.
    assert_eq!(summary["verdict_method"], "sweep");
    let verdicts = summary["games"]["verdicts"].as_object().unwrap();
    assert_eq!(
        verdicts.values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
        960
    );
}
