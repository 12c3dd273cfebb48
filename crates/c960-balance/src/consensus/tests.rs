//! Tests of the per-position moderation of the raters' disagreement.

use super::{disagreement, moderation};
use crate::rng::Rng;

/// A size for each of the 960 positions, unrelated to their truth: 0 to 9.
fn sizes() -> Vec<f64> {
    (0..960_u32).map(|i| f64::from(i % 10)).collect()
}

/// Views of 960 positions by three raters whose deviations have
/// variance `actual(i)` at position `i` while the model says 1.
fn views(actual: impl Fn(usize) -> f64) -> Vec<Vec<Option<f64>>> {
    let mut rng = Rng::new(7);
    (0..960)
        .map(|i| {
            let truth = rng.normal();
            (0..3)
                .map(|_| Some(truth + actual(i).sqrt() * rng.normal()))
                .collect()
        })
        .collect()
}

#[test]
fn each_position_s_disagreement_is_moderated_toward_all_positions() {
    let model = [1.0, 1.0, 1.0];
    // Raters that disagree as the model says, everywhere: the ratios
    // differ by chance alone, and every position gets about 1.
    let honest = moderation(&disagreement(&views(|_| 1.0), &model), &sizes());
    assert!((honest.pooled - 1.0).abs() < 0.1, "{honest:?}");
    assert!((honest.df - 1920.0).abs() < 1e-9);
    assert!(honest.prior.df > 15.0, "{honest:?}");
    assert!((honest.prior.scale - 1.0).abs() < 0.15, "{honest:?}");
    // Their disagreement does not follow the size.
    assert!(honest.prior.trend.unwrap().slope.abs() < 0.05, "{honest:?}");
    // Raters that disagree four times as much on half the positions:
    // the prior has few degrees of freedom, and a position's own
    // disagreement counts.
    let ratios = disagreement(&views(|i| if i % 2 == 0 { 4.0 } else { 1.0 }), &model);
    let mixed = moderation(&ratios, &sizes());
    assert!((mixed.pooled - 2.5).abs() < 0.3, "{mixed:?}");
    assert!(mixed.prior.df < 10.0, "{mixed:?}");
    let posterior = |i: usize| {
        mixed
            .prior
            .posterior_at(ratios[i].0, ratios[i].1, sizes()[i])
            .variance
    };
    let mean = |parity: usize| {
        (0..960)
            .filter(|i| i % 2 == parity)
            .map(posterior)
            .sum::<f64>()
            / 480.0
    };
    assert!(mean(0) > 1.5 * mean(1), "{} vs {}", mean(0), mean(1));
}

#[test]
fn disagreement_that_grows_with_the_size_moves_the_prior_along_it() {
    let model = [1.0, 1.0, 1.0];
    let size = sizes();
    // Variance e^{0.2·size}: from 1 at size 0 to 6 at size 9.
    let ratios = disagreement(&views(|i| (0.2 * size[i]).exp()), &model);
    let graded = moderation(&ratios, &size);
    let trend = graded.prior.trend.unwrap();
    assert!((trend.slope - 0.2).abs() < 0.04, "{graded:?}");
    let at = |x: f64| graded.prior.scale_at(x);
    assert!(at(9.0) / at(0.0) > 4.0, "{graded:?}");
    // A position that agrees as much as a typical small one is pulled
    // toward the large positions' scale when it is large.
    let one = |x: f64| graded.prior.posterior_at(1.0, 2.0, x).variance;
    assert!(one(9.0) > 2.0 * one(0.0));
}
