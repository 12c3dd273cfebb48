//! The DFRC report read from synthetic sweep directories and built.

// Feature counts and repeats are small whole numbers.
#![allow(clippy::cast_precision_loss, clippy::too_many_lines)]

use std::path::Path;

use c960_balance::rng::Rng;
use c960_core::{DfrcFeatures, DfrcRecord, DfrcSetup, stratified_sample};
use c960_store::Frame;
use polars::prelude::*;

use super::input::DfrcRun;

fn record(setup: DfrcSetup) -> DfrcRecord {
    DfrcRecord::from(&DfrcFeatures::of(setup))
}

/// Writes a DFRC sweep directory with the sweep's schema: `scores` are
/// each setup's searches in centipawns.
pub(crate) fn write_sweep(dir: &Path, scores: &[(u32, Vec<i32>)], failed: &[u32]) {
    std::fs::create_dir_all(dir).unwrap();
    let repeats = scores.iter().map(|s| s.1.len()).max().unwrap_or(1);
    let n = scores.len();
    let setup = |s: &(u32, Vec<i32>)| DfrcSetup::new(s.0).unwrap();
    let mut frame = Frame::new(scores)
        .column("setup", |s| s.0)
        .column("white_sp", |s| u32::from(setup(s).white().sp()))
        .column("black_sp", |s| u32::from(setup(s).black().sp()))
        .column("placement", |s| setup(s).placement())
        .column("engine", |_| "Synthetic 1")
        .column("engine_options", |_| "")
        .column("limit", |_| "nodes 100")
        .column("depth", |_| 5u32)
        .column("seldepth", |_| 7u32)
        .column("nodes", |_| 100u64)
        .column("time_ms", |_| 1u64)
        .column("score_cp", |s| Some(s.1[0]))
        .column("score_mate", |_| None::<i32>)
        .column("bound", |_| "exact")
        .column("wdl_win", |_| Some(300u32))
        .column("wdl_draw", |_| Some(500u32))
        .column("wdl_loss", |_| Some(200u32))
        .column("best_move_uci", |_| "e2e4")
        .column("best_move_san", |_| "e4")
        .column("pv_san", |_| "e4")
        .column("move1_uci", |_| "e2e4")
        .column("move1_san", |_| "e4")
        .column("move1_cp", |s| Some(s.1[0]))
        .column("move1_mate", |_| None::<i32>);
    if repeats > 1 {
        let moments = |s: &(u32, Vec<i32>)| {
            let v: Vec<f64> = s.1.iter().map(|c| f64::from(*c)).collect();
            (
                v.iter().sum::<f64>() / v.len() as f64,
                c960_balance::means::sd(&v),
            )
        };
        let k = |s: &(u32, Vec<i32>)| s.1.len() as u32;
        frame = frame
            .column("repeats", k)
            .column("score_cp_mean", |s| moments(s).0)
            .column("score_cp_sd", |s| moments(s).1)
            .column("score_cp_se", |s| {
                moments(s).1.map(|sd| c960_balance::means::se_of(sd, k(s)))
            });
        for name in [
            "white_expected_mean",
            "white_expected_sd",
            "white_expected_se",
        ] {
            frame = frame.column(name, |_| Some(0.55f64));
        }
    }
    let mut frame = frame.build().unwrap();
    // Sealed, as c960 writes every table of a run whose manifest records
    // its repeats.
    let file = std::fs::File::create(dir.join(c960_store::SWEEP_TABLE)).unwrap();
    c960_store::write_sealed(file, &mut frame, Vec::new()).unwrap();
    let failed: Vec<String> = failed
        .iter()
        .map(|f| format!(r#"{{"sp":{f},"reason":"engine crashed"}}"#))
        .collect();
    let manifest = format!(
        r#"{{"kind":"sweep","variant":"dfrc","c960_version":"0.1.0","engine":{{"name":"Synthetic 1"}},
        "limit":"nodes 100","multipv":1,"repeats":{repeats},"seed":7,"positions":"sample:{n}:1",
        "rows":{n},"failed":[{}],"finished":"2026-11-23T00:00:00Z"}}"#,
        failed.join(",")
    );
    std::fs::write(dir.join(c960_store::MANIFEST_FILE), manifest).unwrap();
}

/// Scores with a planted weak-pawn effect for the setups of a sample.
fn planted(n: u32, repeats: usize) -> Vec<(u32, Vec<i32>)> {
    let mut rng = Rng::new(4);
    stratified_sample(n, 3)
        .into_iter()
        .map(|s| {
            let r = record(s);
            let truth = 15.0 - 10.0 * f64::from(r.weak_diff);
            // Whole centipawns, as engines report them.
            #[allow(clippy::cast_possible_truncation)]
            let searches = (0..repeats)
                .map(|_| (truth + 6.0 * rng.normal()).round() as i32)
                .collect();
            (s.index(), searches)
        })
        .collect()
}

#[test]
fn a_dfrc_sweep_directory_builds_its_site() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("sweep");
    write_sweep(&sweep, &planted(600, 3), &[921_599]);
    let out = dir.path().join("site");
    let built = crate::build(std::slice::from_ref(&sweep), &out).unwrap();
    let dfrc = built.dfrc.unwrap();
    assert_eq!(
        dfrc.runs[0].failed,
        [(921_599, "engine crashed".to_owned())]
    );
    assert_eq!(dfrc.analyses[0].rows.len(), 600);
    assert!(dfrc.analyses[0].decided);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("Double Fischer Random Chess"));
    assert!(
        index.contains("1 failed setup (921599)"),
        "the failure is flagged"
    );
    assert!(index.contains("seed 7"), "provenance");
    assert!(index.contains("positions sample:600:1"));
    for chart in &dfrc.charts {
        assert!(out.join(chart).exists(), "{}", chart.display());
    }
    assert!(index.contains("charts/dfrc_sweep_synthetic_1_nodes_100-weak_diff.svg"));
    let json: Written =
        serde_json::from_str(&std::fs::read_to_string(out.join(super::DFRC_JSON)).unwrap())
            .unwrap();
    assert_eq!(
        json.analyses[0].regression.coefficients[1].name,
        "white_weak"
    );
    let csv = std::fs::read_to_string(out.join(super::DFRC_SETUPS_CSV)).unwrap();
    assert_eq!(csv.lines().count(), 601);
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .starts_with("run,setup,white_sp,black_sp")
    );
    let groups = std::fs::read_to_string(out.join(super::DFRC_GROUPS_CSV)).unwrap();
    assert!(groups.contains(",weak_diff,asymmetry,"));
}

#[test]
fn dfrc_and_chess960_runs_together_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("dfrc");
    write_sweep(&sweep, &planted(50, 1), &[]);
    let chess960 = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let error = crate::build(&[sweep, chess960], &dir.path().join("site")).unwrap_err();
    assert!(error.is_bad_input());
    assert!(
        error.to_string().contains("a report is of one variant"),
        "{error}"
    );
    assert!(!error.to_string().contains('\n'));
    assert!(!dir.path().join("site").exists(), "nothing written");
}

#[test]
fn two_dfrc_sweeps_with_one_label_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    write_sweep(&a, &planted(40, 1), &[]);
    write_sweep(&b, &planted(40, 1), &[]);
    let error = crate::build(&[a, b], &dir.path().join("site")).unwrap_err();
    assert!(error.is_bad_input(), "{error}");
    assert!(error.to_string().contains("same provenance"), "{error}");
}

#[test]
fn a_mate_without_a_centipawn_score_counts_as_a_thousand() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("sweep");
    write_sweep(&sweep, &planted(20, 1), &[]);
    // The first setup's search found a mate for Black instead of a score.
    let path = sweep.join(c960_store::SWEEP_TABLE);
    let mut frame = ParquetReader::new(std::fs::File::open(&path).unwrap())
        .finish()
        .unwrap();
    let cp: Vec<(usize, Option<i32>)> = frame
        .column("score_cp")
        .unwrap()
        .i32()
        .unwrap()
        .iter()
        .enumerate()
        .collect();
    let columns = Frame::new(&cp)
        .column("score_cp", |(k, c)| c.filter(|_| *k != 0))
        .column("score_mate", |(k, _)| (*k == 0).then_some(-3))
        .build()
        .unwrap()
        .into_columns();
    for column in columns {
        frame.with_column(column).unwrap();
    }
    c960_store::write_sealed(
        std::fs::File::create(&path).unwrap(),
        &mut frame,
        Vec::new(),
    )
    .unwrap();
    let run = DfrcRun::read(&sweep).unwrap();
    let first = planted(20, 1)[0].0;
    let score = run
        .scores
        .iter()
        .find(|s| s.setup.index() == first)
        .unwrap();
    assert!((score.cp + 1000.0).abs() < f64::EPSILON, "{score:?}");
    assert_eq!(run.scores.len(), 20);
    assert!(
        (run.scores[1].expected.unwrap() - 0.55).abs() < 1e-12,
        "from WDL"
    );
}

/// What a test reads back of `dfrc.json`.
#[derive(serde::Deserialize)]
struct Written {
    analyses: Vec<WrittenAnalysis>,
}
#[derive(serde::Deserialize)]
struct WrittenAnalysis {
    regression: WrittenRegression,
}
#[derive(serde::Deserialize)]
struct WrittenRegression {
    coefficients: Vec<WrittenCoefficient>,
}
#[derive(serde::Deserialize)]
struct WrittenCoefficient {
    name: String,
}
