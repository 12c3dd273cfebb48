//! The DFRC analysis on synthetic sweeps with known truth.

// Feature counts and repeats are small whole numbers.
#![allow(clippy::cast_precision_loss, clippy::too_many_lines)]

use c960_balance::{rng::Rng, verdict::Verdict};
use c960_core::{DfrcFeatures, DfrcRecord, DfrcSetup, StartPosition, stratified_sample};

use super::{Settings, SetupScore, Sweep};

/// The analysis of `scores` with the default settings.
fn analyse(scores: &[SetupScore]) -> super::Analysis {
    let sweep = Sweep {
        label: "dfrc_sweep_synthetic_nodes_1",
        scores,
        repeatability: None,
    };
    super::analyse(sweep, Settings::default())
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
    let a = analyse(&scores);
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
    let a = analyse(&scores);
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
    let a = analyse(&scores);
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
