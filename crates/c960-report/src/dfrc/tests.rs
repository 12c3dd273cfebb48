//! The DFRC report on synthetic sweeps with known truth.

// Feature counts and repeats are small whole numbers.
#![allow(clippy::cast_precision_loss, clippy::too_many_lines)]

use std::path::Path;

use c960_balance::{rng::Rng, verdict::Verdict};
use c960_core::{DfrcFeatures, DfrcRecord, DfrcSetup, StartPosition, stratified_sample};
use c960_store::Frame;
use polars::prelude::*;

use super::{
    analyse,
    analysis::Settings,
    input::{DfrcRun, SetupScore},
};

/// A run of `scores` with a minimal manifest (no files).
fn run(scores: Vec<SetupScore>, repeats: u32) -> DfrcRun {
    let text = format!(
        r#"{{"kind":"sweep","variant":"dfrc","engine":{{"name":"Synthetic"}},"limit":"nodes 1","repeats":{repeats},"positions":"test"}}"#
    );
    DfrcRun {
        label: "dfrc_sweep_synthetic_nodes_1".to_owned(),
        dir: "synthetic".into(),
        manifest: c960_store::RunManifest::parse(&text).unwrap(),
        failed: Vec::new(),
        scores,
    }
}

fn single(setup: DfrcSetup, cp: f64) -> SetupScore {
    SetupScore {
        setup,
        cp,
        cp_sd: None,
        searches: 1,
        expected: None,
    }
}

fn record(setup: DfrcSetup) -> DfrcRecord {
    DfrcRecord::from(&DfrcFeatures::of(setup))
}

fn castles(a: bool, h: bool) -> f64 {
    f64::from(u8::from(a) + u8::from(h))
}

#[test]
fn a_planted_weak_pawn_effect_is_recovered_within_its_interval() {
    // White's advantage falls 8 cp per weak White pawn and rises 8 cp per
    // weak Black pawn; each castling legal on move 1 is worth 6 cp; the
    // noise grows with White's weak pawns (heteroskedastic).
    let mut rng = Rng::new(5);
    let scores: Vec<SetupScore> = stratified_sample(4000, 5)
        .into_iter()
        .map(|setup| {
            let r = record(setup);
            let truth = 20.0 - 8.0 * r.white_weak as f64
                + 8.0 * r.black_weak as f64
                + 6.0 * castles(r.white_castle_a_first_move, r.white_castle_h_first_move)
                - 6.0 * castles(r.black_castle_a_first_move, r.black_castle_h_first_move);
            let noise = (10.0 + 5.0 * r.white_weak as f64) * rng.normal();
            single(setup, truth + noise)
        })
        .collect();
    let a = analyse(&run(scores, 1), Settings::default());
    let r = a.regression.as_ref().unwrap();
    assert_eq!(r.n, 4000);
    let truth = [
        ("intercept", 20.0),
        ("white_weak", -8.0),
        ("black_weak", 8.0),
        ("white_attackable", 0.0),
        ("black_attackable", 0.0),
        ("white_castle_first_move", 6.0),
        ("black_castle_first_move", -6.0),
        ("white_corner_bishops", 0.0),
        ("black_corner_bishops", 0.0),
    ];
    assert!(r.dropped.is_empty(), "{:?}", r.dropped);
    for (c, (name, value)) in r.coefficients.iter().zip(truth) {
        assert_eq!(c.name, name);
        assert!(
            (c.estimate - value).abs() < 4.0 * c.se_hc3,
            "{name}: {} ± {} vs {value}",
            c.estimate,
            c.se_hc3
        );
    }
    for c in &r.coefficients[1..3] {
        assert!(c.low < c.estimate && c.estimate < c.high);
        assert!(
            c.high < 0.0 || c.low > 0.0,
            "{}: the effect is found",
            c.name
        );
    }
    let (w, b) = (&r.coefficients[1], &r.coefficients[2]);
    assert!(w.low < -8.0 && -8.0 < w.high, "{w:?}");
    assert!(b.low < 8.0 && 8.0 < b.high, "{b:?}");
    // The weak-pawn asymmetry's groups fall with the asymmetry, and each
    // group says how many setups it has.
    let groups: Vec<_> = a
        .groups
        .iter()
        .filter(|g| g.feature == "weak_diff")
        .collect();
    assert_eq!(groups.iter().map(|g| g.cp.n).sum::<usize>(), 4000);
    let at = |v: i32| groups.iter().find(|g| g.value == v).unwrap().cp;
    assert!(at(-1).low.unwrap() > at(1).high.unwrap());
    // Without repeats nothing is decided, and the report says why.
    assert!(!a.decided);
    assert_eq!(a.verdicts["unresolved"], 4000);
    assert!(a.noise.words.starts_with("one search per setup"));
}

#[test]
fn the_symmetric_setups_planted_apart_are_found_apart() {
    // Symmetric setups: 25 cp with sd 10; the rest: 0 cp with sd 30.
    let mut rng = Rng::new(9);
    let mut scores: Vec<SetupScore> = StartPosition::all()
        .map(|sp| single(DfrcSetup::symmetric(sp), 25.0 + 10.0 * rng.normal()))
        .collect();
    scores.extend(
        stratified_sample(3000, 9)
            .into_iter()
            .filter(|s| !s.is_symmetric())
            .map(|s| single(s, 30.0 * rng.normal())),
    );
    scores.sort_by_key(|s| s.setup);
    let a = analyse(&run(scores, 1), Settings::default());
    let s = &a.symmetric;
    assert_eq!(s.symmetric.n, 960);
    let mean = s.mean_difference.unwrap();
    assert!(
        mean.low < 25.0 && 25.0 < mean.high && mean.low > 0.0,
        "{mean:?}"
    );
    let spread = s.sd_difference.unwrap();
    assert!(
        spread.low < -20.0 && -20.0 < spread.high && spread.high < 0.0,
        "{spread:?}"
    );
    // The group of symmetric setups has no asymmetry.
    let zero = a
        .groups
        .iter()
        .find(|g| g.feature == "weak_diff" && g.value == 0)
        .unwrap();
    assert!(zero.cp.n >= 960);
}

#[test]
fn verdicts_with_repeats_find_the_planted_extremes() {
    // Four searches per setup with a search sd of 4 cp: most setups sit at
    // the mean, ten far above it and ten far below.
    let mut rng = Rng::new(2);
    let setups = stratified_sample(500, 2);
    let scores: Vec<SetupScore> = setups
        .iter()
        .enumerate()
        .map(|(i, &setup)| {
            let truth = match i % 50 {
                0 => 140.0,
                1 => -100.0,
                _ => 20.0,
            };
            let searches: Vec<f64> = (0..4).map(|_| truth + 4.0 * rng.normal()).collect();
            let mean = searches.iter().sum::<f64>() / 4.0;
            SetupScore {
                setup,
                cp: mean,
                cp_sd: c960_balance::means::sd(&searches),
                searches: 4,
                expected: Some(0.5),
            }
        })
        .collect();
    let a = analyse(&run(scores, 4), Settings::default());
    assert!(a.decided);
    let noise = a.noise.search_sd.unwrap();
    assert!((3.0..5.0).contains(&noise), "{noise}");
    for (i, row) in a
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                setups.iter().position(|s| s.index() == r.setup).unwrap(),
                (i, r),
            )
        })
        .map(|(k, (_, r))| (k, r))
    {
        let expected = match i % 50 {
            0 => Verdict::MoreForWhite,
            1 => Verdict::LessForWhite,
            _ => continue,
        };
        assert_eq!(row.verdict, expected, "setup {}", row.setup);
        assert!(row.q_value <= 0.05);
    }
    assert_eq!(a.verdicts["more-for-white"], 10);
    assert_eq!(a.verdicts["less-for-white"], 10);
    assert!(a.verdicts["balanced"] > 400, "{:?}", a.verdicts);
    // The least balanced are the planted ones; the most balanced are
    // balanced.
    assert!(
        a.least_balanced[..10]
            .iter()
            .all(|r| r.verdict != Verdict::Balanced)
    );
    assert!(
        a.most_balanced
            .iter()
            .all(|r| r.verdict == Verdict::Balanced)
    );
    // Each setup's interval covers its truth about 95 times in 100.
    let covered = a
        .rows
        .iter()
        .filter(|r| {
            let k = setups.iter().position(|s| s.index() == r.setup).unwrap();
            let truth = match k % 50 {
                0 => 140.0,
                1 => -100.0,
                _ => 20.0,
            };
            r.low.unwrap() < truth && truth < r.high.unwrap()
        })
        .count();
    assert!((455..=495).contains(&covered), "{covered} of 500");
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
