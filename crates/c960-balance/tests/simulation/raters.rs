//! The rater consensus proved on simulated raters with known truth. Each
//! rater sees a position's true balance θ (centipawns on the reference
//! rater's scale) through its own scale and offset, plus its own
//! systematic view of the position (which repeats do not average out) and
//! search noise (which they do). The positions follow the hardest mix for
//! error control: half at the centre, many exactly on the band's edges.

use c960_balance::{
    consensus::{EngineMeans, Heterogeneity, Weights, consensus},
    reliability::pearson,
    rng::Rng,
    student,
    verdict::{Band, Claims, Verdict, decide},
};

/// The band's half width, cp.
pub(super) const BAND: f64 = 10.0;
/// False discovery rate.
pub(super) const FDR: f64 = 0.05;
/// Replications of each experiment.
pub(super) const RUNS: u64 = 20;

/// A rater: `offset + scale · (θ + own view) + noise` per search.
#[derive(Copy, Clone)]
pub(super) struct Rater {
    pub(super) offset: f64,
    pub(super) scale: f64,
    /// Standard deviation of its own view, cp of θ.
    pub(super) own: f64,
    /// Standard deviation of one search's noise, in its own units.
    pub(super) noise: f64,
    /// Searches per position.
    pub(super) repeats: u32,
}

/// A design like v3's: four raters of different engines and settings,
/// the first the reference (scale 1, offset 0), each with its own view.
pub(super) const DIVERSE: [Rater; 4] = [
    Rater {
        offset: 0.0,
        scale: 1.0,
        own: 4.0,
        noise: 3.0,
        repeats: 1,
    },
    Rater {
        offset: 5.0,
        scale: 1.3,
        own: 6.0,
        noise: 4.0,
        repeats: 1,
    },
    Rater {
        offset: -2.0,
        scale: 0.9,
        own: 7.0,
        noise: 6.0,
        repeats: 1,
    },
    Rater {
        offset: 10.0,
        scale: 1.1,
        own: 8.0,
        noise: 5.0,
        repeats: 2,
    },
];

/// A design like v2's: one rater searched four times; it has a view of
/// its own as every rater does.
const REPEATED: [Rater; 1] = [Rater {
    offset: 0.0,
    scale: 1.0,
    own: 5.0,
    noise: 3.0,
    repeats: 4,
}];

/// True balances: a mean of 34 cp, half the positions at it, many on the
/// band's edges, the rest well outside.
pub(super) fn truths(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            34.0 + match i % 20 {
                0..=9 => 0.0,
                10..=12 => BAND,
                13..=15 => -BAND,
                16 | 17 => 30.0,
                _ => -30.0,
            }
        })
        .collect()
}

pub(super) fn simulate(truth: &[f64], raters: &[Rater], rng: &mut Rng) -> Vec<EngineMeans> {
    raters
        .iter()
        .enumerate()
        .map(|(e, r)| {
            let (means, ses) = truth
                .iter()
                .map(|t| {
                    let seen = r.offset + r.scale * (t + r.own * rng.normal());
                    let k = f64::from(r.repeats);
                    let draws: Vec<f64> = (0..r.repeats)
                        .map(|_| seen + r.noise * rng.normal())
                        .collect();
                    let m = draws.iter().sum::<f64>() / k;
                    let se = (r.repeats > 1).then(|| {
                        let var = draws.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (k - 1.0);
                        (var / k).sqrt()
                    });
                    (Some(m), se)
                })
                .unzip();
            EngineMeans {
                name: format!("rater {e}"),
                means,
                ses,
            }
        })
        .collect()
}

/// Whether a verdict is false for true balance `t` around the band's
/// centre `centre`.
fn is_false(verdict: Verdict, t: f64, centre: f64) -> bool {
    match verdict {
        Verdict::MoreForWhite => t <= centre + BAND,
        Verdict::LessForWhite => t >= centre - BAND,
        Verdict::Balanced => t <= centre - BAND || t >= centre + BAND,
        Verdict::Unresolved => false,
    }
}

/// An estimate, its standard error and the degrees of freedom of its t
/// (infinite: normal).
pub(super) type Interval = (f64, f64, f64);

/// Whether the 95 % interval of `(estimate, se, df)` covers `t`.
pub(super) fn covers(t: f64, (e, se, df): Interval) -> bool {
    let q = if df.is_finite() {
        student::two_sided(0.95, df)
    } else {
        1.959_963_984_540_054
    };
    (e - q * se..=e + q * se).contains(&t)
}

/// Coverage of the truth, false discovery proportion and share decided for
/// intervals `(estimate, se, df)` per position.
#[allow(clippy::cast_precision_loss)]
pub(super) fn judge(truth: &[f64], estimates: &[Interval]) -> (f64, f64, f64) {
    let covered = truth
        .iter()
        .zip(estimates)
        .filter(|(t, e)| covers(**t, **e))
        .count() as f64
        / truth.len() as f64;
    let centre = estimates.iter().map(|e| e.0).sum::<f64>() / estimates.len() as f64;
    let band = Band {
        centre,
        half_width: BAND,
    };
    let claims: Vec<Claims> = estimates
        .iter()
        .map(|&(e, se, df)| Claims::student(e, se, df, band))
        .collect();
    let decisions = decide(&claims, FDR);
    let made = decisions
        .iter()
        .filter(|d| d.verdict != Verdict::Unresolved)
        .count();
    let false_ = decisions
        .iter()
        .zip(truth)
        .filter(|(d, t)| is_false(d.verdict, **t, centre))
        .count();
    let fdp = if made == 0 {
        0.0
    } else {
        false_ as f64 / made as f64
    };
    (covered, fdp, made as f64 / truth.len() as f64)
}

#[allow(clippy::cast_precision_loss)]
pub(super) fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The consensus's `(estimate, se, df)` per position.
fn intervals(raters: &[EngineMeans], weights: Weights) -> Vec<Interval> {
    let result = consensus(raters, 0.95, weights).unwrap();
    assert_eq!(result.heterogeneity, Heterogeneity::of(raters.len()));
    result
        .positions
        .iter()
        .map(|p| {
            let p = p.unwrap();
            (p.estimate, p.se, p.df)
        })
        .collect()
}

#[test]
fn diverse_raters_cover_the_truth_and_keep_the_false_discovery_rate() {
    let truth = truths(960);
    let mut rng = Rng::new(32);
    let mut decided_by = Vec::new();
    for weights in [Weights::Data, Weights::Equal] {
        let (mut coverage, mut fdp, mut decided) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            let raters = simulate(&truth, &DIVERSE, &mut rng);
            let (c, f, d) = judge(&truth, &intervals(&raters, weights));
            coverage.push(c);
            fdp.push(f);
            decided.push(d);
        }
        let (c, f, d) = (mean(&coverage), mean(&fdp), mean(&decided));
        println!("{weights:?}: coverage {c:.3}, false discovery rate {f:.3}, decided {d:.3}");
        assert!((0.93..=0.97).contains(&c), "{weights:?}: coverage {c}");
        assert!(f <= FDR + 0.01, "{weights:?}: false discovery rate {f}");
        assert!(d > 0.15, "{weights:?}: decided only {d}");
        decided_by.push(d);
    }
    // Weighting by quality buys decisions at the same error rate.
    assert!(
        decided_by[0] > decided_by[1] + 0.1,
        "decided {decided_by:?}"
    );
}

#[test]
#[allow(clippy::cast_precision_loss)]
fn a_heterogeneity_blind_interval_overclaims() {
    let truth = truths(960);
    let mut rng = Rng::new(33);
    let (mut repeated, mut blind) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        // v2's design: one rater's repeats, with the interval its repeats
        // give (what v2 published).
        let one = simulate(&truth, &REPEATED, &mut rng);
        let estimates: Vec<Interval> = one[0]
            .means
            .iter()
            .zip(&one[0].ses)
            .map(|(m, s)| (m.unwrap(), s.unwrap(), f64::INFINITY))
            .collect();
        repeated.push(judge(&truth, &estimates));
        // Diverse raters, but an interval from their search noise alone.
        let raters = simulate(&truth, &DIVERSE, &mut rng);
        let result = consensus(&raters, 0.95, Weights::Equal).unwrap();
        let reference = &result.engines[0];
        let to_reference = reference.signal_sd * (1.0 - result.disagreement[0]).sqrt();
        let k = raters.len() as f64;
        let noise: f64 = result
            .engines
            .iter()
            .zip(&result.disagreement)
            .map(|(scale, own)| scale.noise / (1.0 - own))
            .sum::<f64>()
            / (k * k);
        let estimates: Vec<Interval> = result
            .positions
            .iter()
            .map(|p| {
                (
                    p.unwrap().estimate,
                    noise.sqrt() * to_reference,
                    f64::INFINITY,
                )
            })
            .collect();
        blind.push(judge(&truth, &estimates));
    }
    for (name, runs) in [
        ("one rater repeated", &repeated),
        ("noise-only interval", &blind),
    ] {
        let c = mean(&runs.iter().map(|r| r.0).collect::<Vec<_>>());
        let f = mean(&runs.iter().map(|r| r.1).collect::<Vec<_>>());
        println!("{name}: coverage {c:.3}, false discovery rate {f:.3}");
        assert!(
            c < 0.8,
            "{name}: coverage {c} should fall well short of 0.95"
        );
        assert!(
            f > 2.0 * FDR,
            "{name}: false discovery rate {f} should exceed the level"
        );
    }
}

#[test]
fn one_rater_gets_no_interval_however_often_it_repeats() {
    let truth = truths(200);
    let mut rng = Rng::new(34);
    let one = simulate(&truth, &REPEATED, &mut rng);
    let result = consensus(&one, 0.95, Weights::Data).unwrap();
    assert_eq!(result.heterogeneity, Heterogeneity::Unknown);
    for p in result.positions.iter().flatten() {
        assert!(p.se.is_nan() && p.low.is_nan() && p.high.is_nan(), "{p:?}");
    }
}

#[test]
fn data_weights_follow_the_raters_quality_and_own_views_are_recovered() {
    let truth: Vec<f64> = {
        let mut rng = Rng::new(35);
        (0..960).map(|_| 34.0 + 12.0 * rng.normal()).collect()
    };
    let mut rng = Rng::new(36);
    // A good rater, two middling ones and a poor one (a weak engine).
    let raters = [
        Rater {
            offset: 0.0,
            scale: 1.0,
            own: 3.0,
            noise: 2.0,
            repeats: 1,
        },
        Rater {
            offset: 3.0,
            scale: 1.2,
            own: 6.0,
            noise: 3.0,
            repeats: 1,
        },
        Rater {
            offset: 8.0,
            scale: 0.8,
            own: 6.0,
            noise: 3.0,
            repeats: 1,
        },
        Rater {
            offset: -5.0,
            scale: 2.0,
            own: 24.0,
            noise: 5.0,
            repeats: 1,
        },
    ];
    let simulated = simulate(&truth, &raters, &mut rng);
    let result = consensus(&simulated, 0.95, Weights::Data).unwrap();
    // Own share of signal: (own² + (noise/scale)²) / (12² + own² + (noise/scale)²).
    for (r, estimated) in raters.iter().zip(&result.disagreement) {
        let own = r.own.powi(2) + (r.noise / r.scale).powi(2);
        let expected = own / (144.0 + own);
        assert!(
            (estimated - expected).abs() < 0.06,
            "own view {estimated} vs {expected}"
        );
    }
    assert!(
        result.weights[0] > result.weights[1] && result.weights[3] < 0.05,
        "{:?}",
        result.weights
    );
    let r = |weights| {
        let estimates: Vec<f64> = intervals(&simulated, weights).iter().map(|e| e.0).collect();
        pearson(&estimates, &truth).unwrap()
    };
    let (data, equal) = (r(Weights::Data), r(Weights::Equal));
    println!("r with the truth: data weights {data:.3}, equal weights {equal:.3}");
    assert!(data > equal + 0.02, "data {data} vs equal {equal}");
}
