//! Normal–normal empirical Bayes shrinkage (Efron & Morris 1975): each
//! position's mean is pulled toward the all-position mean by as much as its
//! noise makes it untrustworthy.
//!
//! Model: `x_i ~ N(θ_i, se_i²)`, `θ_i ~ N(μ, τ²)`. `τ̂²` is the Paule–Mandel
//! estimate, the `τ²` at which `Σ (x_i − μ̂)² / (τ² + se_i²) = n − 1` (0 when
//! even `τ² = 0` leaves less spread than that), and `μ̂` the mean weighted by
//! `1 / (τ̂² + se_i²)`; unlike the plain moment estimate it stays accurate
//! when the standard errors differ widely (10 games here, 1,000 there).
//! The estimate is `μ̂ + B_i (x_i − μ̂)` with `B_i = τ̂² / (τ̂² + se_i²)`; its
//! variance is the posterior variance `B_i se_i²` plus `(1 − B_i)² Var(μ̂)`
//! for the estimated centre (τ̂² is treated as known, which understates the
//! width a little when there are few positions; with hundreds it is small).
//! Standard errors with few degrees of freedom (moderated variances) give
//! Student's t intervals on those degrees of freedom ([`shrink_t`]).

use serde::Serialize;

use crate::{normal, student};

/// The fitted prior.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Prior {
    /// The all-position mean `μ̂`.
    pub mean: f64,
    /// The signal variance `τ̂²` (0 when the spread is all noise).
    pub signal_variance: f64,
    /// The variance of `μ̂`.
    pub mean_variance: f64,
}

/// One position's shrunk estimate.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Shrunk {
    /// The shrunk estimate.
    pub estimate: f64,
    /// Its standard deviation.
    pub sd: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// The weight `B_i` of the position's own data (1 = no shrinkage).
    pub weight: f64,
}

/// Shrinks `means` (with standard errors `ses`) toward their mean, with
/// two-sided intervals at `level` (e.g. 0.95). `None` for fewer than three
/// positions.
#[must_use]
pub fn shrink(means: &[f64], ses: &[f64], level: f64) -> Option<(Prior, Vec<Shrunk>)> {
    shrink_t(means, ses, &vec![f64::INFINITY; ses.len()], level)
}

/// [`shrink`] for standard errors that each have degrees of freedom `dfs`
/// (moderated variances): each interval uses Student's t on its own
/// degrees of freedom (infinite: normal).
///
/// # Panics
/// When the three slices differ in length.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn shrink_t(
    means: &[f64],
    ses: &[f64],
    dfs: &[f64],
    level: f64,
) -> Option<(Prior, Vec<Shrunk>)> {
    assert_eq!(
        means.len(),
        ses.len(),
        "means and standard errors differ in length"
    );
    assert_eq!(
        ses.len(),
        dfs.len(),
        "standard errors and degrees of freedom"
    );
    let n = means.len();
    if n < 3 {
        return None;
    }
    let plain = means.iter().sum::<f64>() / n as f64;
    let var = means.iter().map(|x| (x - plain).powi(2)).sum::<f64>() / (n - 1) as f64;
    let signal_variance = paule_mandel(means, ses, var);
    let weights: Vec<f64> = ses
        .iter()
        .map(|s| 1.0 / (signal_variance + s * s).max(f64::MIN_POSITIVE))
        .collect();
    let total: f64 = weights.iter().sum();
    let mean = means.iter().zip(&weights).map(|(x, w)| x * w).sum::<f64>() / total;
    let mean_variance = 1.0 / total;
    let z = normal::quantile(0.5 + level / 2.0);
    let critical = |df: f64| {
        if df.is_finite() {
            student::two_sided(level, df)
        } else {
            z
        }
    };
    let rows = means
        .iter()
        .zip(ses)
        .zip(dfs)
        .map(|((&x, &se), &df)| {
            let s2 = se * se;
            let weight = if signal_variance + s2 > 0.0 {
                signal_variance / (signal_variance + s2)
            } else {
                1.0
            };
            let estimate = mean + weight * (x - mean);
            let sd = (weight * s2 + (1.0 - weight).powi(2) * mean_variance).sqrt();
            let half = critical(df) * sd;
            Shrunk {
                estimate,
                sd,
                low: estimate - half,
                high: estimate + half,
                weight,
            }
        })
        .collect();
    Some((
        Prior {
            mean,
            signal_variance,
            mean_variance,
        },
        rows,
    ))
}

/// The Paule–Mandel between-position variance: the root in `[0, upper]` of
/// `Σ (x_i − μ_w)² / (τ² + se_i²) − (n − 1)`, which falls as `τ²` grows.
#[allow(clippy::cast_precision_loss)]
fn paule_mandel(means: &[f64], ses: &[f64], upper: f64) -> f64 {
    let target = (means.len() - 1) as f64;
    let statistic = |tau2: f64| {
        let w: Vec<f64> = ses
            .iter()
            .map(|s| 1.0 / (tau2 + s * s).max(f64::MIN_POSITIVE))
            .collect();
        let total: f64 = w.iter().sum();
        let m = means.iter().zip(&w).map(|(x, w)| x * w).sum::<f64>() / total;
        means
            .iter()
            .zip(&w)
            .map(|(x, w)| w * (x - m).powi(2))
            .sum::<f64>()
    };
    if statistic(0.0) <= target {
        return 0.0;
    }
    let (mut low, mut high) = (0.0, upper.max(f64::MIN_POSITIVE));
    while statistic(high) > target {
        high *= 2.0;
    }
    for _ in 0..100 {
        let mid = f64::midpoint(low, high);
        if statistic(mid) > target {
            low = mid;
        } else {
            high = mid;
        }
    }
    f64::midpoint(low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_noise_shrinks_to_the_mean_and_clean_data_not_at_all() {
        let (prior, rows) = shrink(&[0.4, 0.5, 0.6], &[1.0, 1.0, 1.0], 0.95).unwrap();
        assert!(prior.signal_variance.abs() < 1e-300);
        assert!(rows.iter().all(|r| (r.estimate - 0.5).abs() < 1e-12));
        let (_, rows) = shrink(&[0.4, 0.5, 0.6], &[0.0, 0.0, 0.0], 0.95).unwrap();
        assert!((rows[0].estimate - 0.4).abs() < 1e-12 && (rows[0].weight - 1.0).abs() < 1e-12);
    }
}
