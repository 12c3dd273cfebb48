//! The sweep published in `data/` is what its manifest says, whole and
//! consistent: a corrupted or hand-edited file fails here.

use std::{fs, path::PathBuf};

use c960_core::{StartPosition, shakmaty::uci::UciMove};
use polars::prelude::*;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3")
}

#[test]
fn the_published_stockfish_sweep_is_whole_and_consistent() {
    let path = dir().join("manifest.json");
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(manifest["kind"], "sweep");
    assert_eq!(manifest["engine"]["name"], "Stockfish 15.1");
    assert_eq!(manifest["limit"], "nodes 1000000");
    assert_eq!(manifest["multipv"], 3);
    assert_eq!(manifest["positions"], "all");
    assert_eq!(manifest["rows"], 960);
    assert_eq!(manifest["failed"].as_array().unwrap().len(), 0);
    let options: Vec<String> = manifest["engine"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| format!("{}={}", o[0].as_str().unwrap(), o[1].as_str().unwrap()))
        .collect();
    assert!(options.contains(&"Threads=1".to_owned()), "{options:?}");
    assert!(
        options.contains(&"UCI_Chess960=true".to_owned()),
        "{options:?}"
    );

    let mut reader = ParquetReader::new(fs::File::open(dir().join("sweep.parquet")).unwrap());
    let metadata = reader.get_metadata().unwrap().clone();
    let stored = metadata
        .key_value_metadata()
        .as_ref()
        .and_then(|kv| kv.iter().find(|k| k.key == "c960.manifest"))
        .and_then(|k| k.value.clone())
        .expect("the manifest is in the Parquet metadata");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&stored).unwrap(),
        manifest
    );
    let frame = reader.finish().unwrap();
    assert_eq!(frame.height(), 960);

    let sp = frame.column("sp").unwrap().u32().unwrap();
    let placement = frame.column("placement").unwrap().str().unwrap();
    let best = frame.column("best_move_uci").unwrap().str().unwrap();
    let cp = frame.column("score_cp").unwrap().i32().unwrap();
    let wdl: Vec<&UInt32Chunked> = ["wdl_win", "wdl_draw", "wdl_loss"]
        .iter()
        .map(|c| frame.column(c).unwrap().u32().unwrap())
        .collect();
    for i in 0..960 {
        let position = StartPosition::new(sp.get(i).unwrap() as u16).unwrap();
        assert_eq!(position.sp() as usize, i, "rows in SP order");
        assert_eq!(placement.get(i), Some(position.placement().as_str()));
        let m = best.get(i).unwrap().parse::<UciMove>().unwrap();
        assert!(m.to_move(&position.to_position()).is_ok(), "SP {i}: {m}");
        assert!(cp.get(i).is_some(), "SP {i} has a centipawn score");
        let total: u32 = wdl.iter().map(|c| c.get(i).unwrap()).sum();
        assert_eq!(total, 1000, "SP {i}");
    }

    let csv = CsvReadOptions::default()
        .try_into_reader_with_file_path(Some(dir().join("sweep.csv")))
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(csv.height(), 960);
    let csv_cp = csv.column("score_cp").unwrap().i64().unwrap();
    assert!(
        (0..960).all(|i| csv_cp.get(i) == cp.get(i).map(i64::from)),
        "CSV and Parquet agree"
    );
}
