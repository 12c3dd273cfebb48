//! The per-position join on synthetic runs written by the real writers.

use std::fs;
use std::num::NonZeroU32;

use c960_engine::{Bound, EngineInfo, Limit};
use c960_report::{ReportError, RunKind, labels, per_position, write_table};
use c960_sweep::{Sharding, SweepManifest, SweepRow, TopMove, write_outputs};
use polars::prelude::*;

fn sweep_row(sp: u16, cp: i32) -> SweepRow {
    SweepRow {
        sp: u32::from(sp),
        placement: c960_core::StartPosition::new(sp).unwrap().placement(),
        engine: "Stockfish 15.1".into(),
        engine_options: "Threads=1".into(),
        limit: Limit::Nodes(1000),
        depth: 9,
        seldepth: Some(12),
        nodes: Some(1000),
        time_ms: Some(3),
        score_cp: Some(cp),
        score_mate: None,
        bound: Bound::Exact,
        wdl_win: Some(40),
        wdl_draw: Some(950),
        wdl_loss: Some(10),
        best_move_uci: "e2e4".into(),
        best_move_san: "e4".into(),
        pv_san: "e4 e5".into(),
        top_moves: vec![TopMove {
            uci: "e2e4".into(),
            san: "e4".into(),
            cp: Some(cp),
            mate: None,
            bound: Bound::Exact,
        }],
        repeat: 0,
        node_budget: None,
        reply: None,
    }
}

fn write_sweep(dir: &std::path::Path, limit: &str, rows: &[SweepRow]) {
    fs::create_dir_all(dir).unwrap();
    let manifest = SweepManifest {
        kind: c960_store::RunKind::Sweep,
        variant: c960_core::Variant::Chess960,
        c960_version: "0".into(),
        engine: EngineInfo {
            name: "Stockfish 15.1".into(),
            ..EngineInfo::default()
        },
        limit: limit.parse().unwrap(),
        multipv: NonZeroU32::MIN,
        reply: false,
        repeats: NonZeroU32::MIN,
        repeat_rule: None,
        seed: None,
        repeatability: None,
        positions: "0-2,518".into(),
        rows: rows.len(),
        failed: vec![],
        resumed: 0,
        jobs: 1,
        started: "-".into(),
        finished: "-".into(),
        notes: String::new(),
        repaired: vec![],
        sharding: Sharding::default(),
    };
    write_outputs(dir, rows, &manifest).unwrap();
}

fn write_selfplay(dir: &std::path::Path) {
    fs::create_dir_all(dir).unwrap();
    let mut frame = df!(
        "sp" => [518u32, 91],
        "placement" => ["RNBQKBNR", "NNRKBRQB"],
        "games" => [10u64, 4],
        "distinct_games" => [10u64, 4],
        "white_wins" => [3u64, 1],
        "draws" => [6u64, 2],
        "black_wins" => [1u64, 1],
        "white_score" => [0.6f64, 0.5],
        "white_score_low" => [0.45f64, 0.2],
        "white_score_high" => [0.75f64, 0.8],
        "interval" => ["trinomial", "trinomial"],
        "draw_rate" => [0.6f64, 0.5],
        "white_castled_a" => [0.1f64, 0.5],
        "white_castled_h" => [0.8f64, 0.0],
        "black_castled_a" => [0.2f64, 0.5],
        "black_castled_h" => [0.7f64, 0.0],
        "white_median_castle_ply" => [9.0f64, 1.0],
        "black_median_castle_ply" => [10.0f64, 2.0],
        "checkmate" => [4u64, 2],
        "stalemate" => [0u64, 0],
        "insufficient_material" => [0u64, 0],
        "threefold_repetition" => [2u64, 1],
        "fifty_moves" => [0u64, 0],
        "ply_cap" => [0u64, 0],
        "resignation" => [0u64, 0],
        "draw_adjudication" => [4u64, 1],
    )
    .unwrap();
    ParquetWriter::new(fs::File::create(dir.join("positions.parquet")).unwrap())
        .finish(&mut frame)
        .unwrap();
    let manifest = serde_json::json!({
        "kind": "selfplay",
        "engines": [{"name": "Stockfish 15.1"}],
        "limit": "nodes 5000",
    });
    fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
}

#[test]
fn features_sweeps_and_selfplay_join_on_sp() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = tmp.path().join("sweep");
    write_sweep(
        &sweep,
        "nodes 1000",
        &[sweep_row(0, 12), sweep_row(1, -3), sweep_row(518, 31)],
    );
    let selfplay = tmp.path().join("selfplay");
    write_selfplay(&selfplay);

    let (frame, sources, bounds) = per_position(&[sweep.clone(), selfplay.clone()]).unwrap();
    assert_eq!(frame.height(), 960);
    // The sweep's bounds are read in the same pass, for the pages, and
    // are not a column of the table; a self-play run has none.
    assert_eq!(bounds.len(), 1);
    assert_eq!(bounds[0].label, "sweep_stockfish_15_1_nodes_1000");
    let by_sp = bounds[0]
        .by_sp
        .as_ref()
        .expect("the sweep records its bounds");
    assert_eq!(by_sp.keys().copied().collect::<Vec<_>>(), [0, 1, 518]);
    assert!(by_sp.values().all(|b| b == "exact"), "{by_sp:?}");
    assert!(
        frame
            .get_column_names()
            .iter()
            .all(|c| !c.ends_with("bound")),
        "{:?}",
        frame.get_column_names()
    );
    assert_eq!(sources.len(), 2);
    assert_eq!(sources[0].label, "sweep_stockfish_15_1_nodes_1000");
    assert_eq!(sources[1].label, "selfplay_stockfish_15_1_nodes_5000");
    assert_eq!(labels(&sources, RunKind::Sweep).len(), 1);

    let sp = frame.column("sp").unwrap().u32().unwrap();
    assert!(
        (0..960).all(|i| sp.get(i) == Some(i as u32)),
        "one row per SP, in order"
    );
    let cp = frame
        .column("sweep_stockfish_15_1_nodes_1000__score_cp")
        .unwrap()
        .i32()
        .unwrap();
    assert_eq!(cp.get(0), Some(12));
    assert_eq!(cp.get(1), Some(-3));
    assert_eq!(cp.get(518), Some(31));
    assert_eq!(cp.get(2), None, "no sweep row, no score");
    assert_eq!(cp.null_count(), 957);
    let score = frame
        .column("selfplay_stockfish_15_1_nodes_5000__white_score")
        .unwrap()
        .f64()
        .unwrap();
    assert_eq!(score.get(518), Some(0.6));
    assert_eq!(score.get(91), Some(0.5));
    assert_eq!(score.null_count(), 958);
    // The features are there too, as c960-core computes them.
    let placement = frame.column("placement").unwrap().str().unwrap();
    assert_eq!(placement.get(518), Some("RNBQKBNR"));
    let weak = frame.column("weak_pawns").unwrap().u32().unwrap();
    assert_eq!((0..960).filter(|i| weak.get(*i).unwrap() > 0).count(), 842);

    let out = tmp.path().join("report");
    write_table(&out, &frame, &sources).unwrap();
    let csv = fs::read_to_string(out.join("positions.csv")).unwrap();
    assert_eq!(csv.lines().count(), 961);
    let mut reader = ParquetReader::new(fs::File::open(out.join("positions.parquet")).unwrap());
    let metadata = reader.get_metadata().unwrap().clone();
    let kv = metadata.key_value_metadata().as_ref().unwrap();
    let sources_json = kv
        .iter()
        .find(|k| k.key == "c960.sources")
        .unwrap()
        .value
        .clone()
        .unwrap();
    assert!(sources_json.contains("sweep_stockfish_15_1_nodes_1000"));
    assert_eq!(reader.finish().unwrap().height(), 960);
}

#[test]
fn features_alone_make_a_table() {
    let (frame, sources, _) = per_position(&[]).unwrap();
    assert_eq!(frame.height(), 960);
    assert!(sources.is_empty());
}

#[test]
fn runs_with_the_same_provenance_are_refused_and_bad_dirs_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    write_sweep(&a, "nodes 1000", &[sweep_row(0, 1)]);
    write_sweep(&b, "nodes 1000", &[sweep_row(0, 2)]);
    let err = per_position(&[a.clone(), b]).unwrap_err();
    assert!(matches!(err, ReportError::Duplicate { .. }), "{err}");
    assert!(err.to_string().contains("same provenance"), "{err}");
    // Different limits are kept apart.
    let c = tmp.path().join("c");
    write_sweep(&c, "nodes 2000", &[sweep_row(0, 3)]);
    let (frame, _, _) = per_position(&[a, c]).unwrap();
    assert!(
        frame
            .column("sweep_stockfish_15_1_nodes_2000__score_cp")
            .is_ok()
    );

    let empty = tmp.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let err = per_position(&[empty]).unwrap_err();
    assert!(err.to_string().contains("no manifest.json"), "{err}");
}
