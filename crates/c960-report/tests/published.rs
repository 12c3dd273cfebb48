//! The research dataset published in `data/research-stockfish-15.1/` is
//! whole and consistent with its provenance and with the published sweep:
//! a corrupted or hand-edited file fails here.

use std::{fs, path::PathBuf};

use polars::prelude::*;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/research-stockfish-15.1")
}

fn json(name: &str) -> serde_json::Value {
    let path = dir().join(name);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn parquet(name: &str) -> DataFrame {
    ParquetReader::new(fs::File::open(dir().join(name)).unwrap())
        .finish()
        .unwrap()
}

#[test]
fn the_research_dataset_is_whole_and_matches_its_provenance() {
    let run = json("run.json");
    assert_eq!(run["kind"], "run");
    assert_eq!(run["plan"]["profile"], "research");
    assert_eq!(run["engine"], "Stockfish 15.1");
    assert_eq!(run["plan"]["sweep"]["nodes"], 1_000_000);
    assert_eq!(run["plan"]["sweep"]["multipv"], 3);
    assert_eq!(run["plan"]["selfplay"]["nodes"], 5_000);
    let games_per_position = run["plan"]["selfplay"]["games"].as_u64().unwrap();
    assert!(games_per_position >= 2);
    let selfplay = json("selfplay-manifest.json");
    assert_eq!(selfplay["engines"][0]["name"], "Stockfish 15.1");
    assert_eq!(selfplay["limit"], "nodes 5000");
    assert_eq!(selfplay["positions"], "all");
    assert_eq!(selfplay["games"], 960 * games_per_position);
    assert_eq!(selfplay["failed"].as_array().unwrap().len(), 0);
    let sweep = json("sweep-manifest.json");
    assert_eq!(sweep["limit"], "nodes 1000000");
    assert_eq!(sweep["rows"], 960);

    let table = parquet("positions.parquet");
    assert_eq!(table.height(), 960);
    let csv = CsvReadOptions::default()
        .try_into_reader_with_file_path(Some(dir().join("positions.csv")))
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(csv.height(), 960);
    assert_eq!(
        csv.width(),
        table.width(),
        "CSV and Parquet have the same columns"
    );
    let column = |suffix: &str| -> Column {
        let name = table
            .get_column_names()
            .into_iter()
            .find(|n| n.ends_with(suffix))
            .unwrap_or_else(|| panic!("no column *{suffix}"))
            .to_string();
        table.column(&name).unwrap().clone()
    };
    let games = column("__games").cast(&DataType::UInt64).unwrap();
    let games = games.u64().unwrap();
    assert!(
        (0..960).all(|i| games.get(i) == Some(games_per_position)),
        "every position has the same number of games"
    );
    let score = column("__white_score");
    let low = column("__white_score_low");
    let high = column("__white_score_high");
    let (score, low, high) = (
        score.f64().unwrap(),
        low.f64().unwrap(),
        high.f64().unwrap(),
    );
    for i in 0..960 {
        let (s, l, h) = (
            score.get(i).unwrap(),
            low.get(i).unwrap(),
            high.get(i).unwrap(),
        );
        assert!(
            l <= s && s <= h && (0.0..=1.0).contains(&l) && h <= 1.0,
            "SP {i}"
        );
        assert!(h - l > 0.0, "SP {i}: an interval, not a point");
    }
    // The sweep columns are the published sweep's scores.
    let published = ParquetReader::new(
        fs::File::open(dir().join("../sweep-stockfish-15.1-nodes1000000-mpv3/sweep.parquet"))
            .unwrap(),
    )
    .finish()
    .unwrap();
    let ours = column("__score_cp");
    assert!(
        ours.as_materialized_series().equals_missing(
            published
                .column("score_cp")
                .unwrap()
                .as_materialized_series()
        ),
        "the research table carries the published sweep"
    );

    let all_games = parquet("games.parquet");
    assert_eq!(all_games.height() as u64, 960 * games_per_position);
    let total: f64 = all_games
        .column("white_score")
        .unwrap()
        .f64()
        .unwrap()
        .sum()
        .unwrap();
    let from_table: f64 = (0..960).map(|i| score.get(i).unwrap()).sum::<f64>()
        * f64::from(u32::try_from(games_per_position).unwrap());
    assert!((total - from_table).abs() < 1e-6, "games and table agree");
}
