//! Empirical-Bayes moderation of many small-sample variances (Smyth 2004,
//! "Linear models and empirical Bayes methods for assessing differential
//! expression in microarray experiments", Stat. Appl. Genet. Mol. Biol.
//! 3:3; the `squeezeVar` and `fitFDist` of limma).
//!
//! Each unit `i` (a position) has a residual variance `s_i²` on `d_i`
//! degrees of freedom, `d_i s_i² / σ_i² ~ χ²_{d_i}`. The true variances
//! follow a scaled inverse-χ² prior, `d0 s0² / σ_i² ~ χ²_{d0}`, whose two
//! parameters are fitted from all the units' `s_i²` by moments of
//! `log s_i²` (its mean and variance under the model are
//! `log s0² + ψ(d_i/2) − ψ(d0/2) + log(d0/d_i)` and
//! `ψ'(d_i/2) + ψ'(d0/2)`, `ψ` the digamma and `ψ'` the trigamma
//! function). Each unit's posterior variance is
//! `(d0 s0² + d_i s_i²) / (d0 + d_i)`: its own, pulled toward the prior by
//! as much as its few degrees of freedom make it untrustworthy. A mean
//! divided by its posterior standard error follows Student's t on
//! `d0 + d_i` degrees of freedom (exactly, under the model, given `s_i²`),
//! so intervals and tests use that t. When the `s_i²` vary no more than
//! chance allows, `d0` is infinite and every unit gets the pooled `s0²`
//! with normal intervals.

use serde::Serialize;
use statrs::function::gamma::digamma;

/// The fitted prior of the variances.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct VariancePrior {
    /// Its degrees of freedom `d0` (infinite when the variances vary no
    /// more than chance allows).
    #[serde(serialize_with = "finite_or_null")]
    pub df: f64,
    /// Its scale `s0²`, the typical variance.
    pub scale: f64,
    /// The units the prior was fitted from (those with a residual
    /// variance).
    pub units: usize,
}

/// An infinite prior degree of freedom is written as `null` (JSON has no
/// infinity). Serde hands the value by reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn finite_or_null<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        serializer.serialize_f64(*value)
    } else {
        serializer.serialize_none()
    }
}

/// One unit's moderated variance.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Moderated {
    /// The posterior variance `(d0 s0² + d s²) / (d0 + d)`.
    pub variance: f64,
    /// Its degrees of freedom `d0 + d` (infinite with an infinite prior).
    pub df: f64,
}

impl VariancePrior {
    /// The prior fitted (by moments of `log s²`) from the residual
    /// variances `s2` with degrees of freedom `df`, unit by unit; units
    /// with no degrees of freedom are left out. Variances of zero are
    /// raised to `10⁻⁵` of the median, as limma does, so that their
    /// logarithm is finite. `None` when no unit has a variance.
    ///
    /// # Panics
    /// When `s2` and `df` differ in length.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn fit(s2: &[f64], df: &[f64]) -> Option<VariancePrior> {
        assert_eq!(s2.len(), df.len(), "variances and degrees of freedom");
        let units: Vec<(f64, f64)> = s2
            .iter()
            .zip(df)
            .filter(|(s, d)| **d > 0.0 && s.is_finite() && **s >= 0.0)
            .map(|(s, d)| (*s, *d))
            .collect();
        if units.is_empty() {
            return None;
        }
        let mut sorted: Vec<f64> = units.iter().map(|u| u.0).collect();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        let floor = if median > 0.0 { median * 1e-5 } else { 1.0 };
        let n = units.len() as f64;
        let e: Vec<f64> = units
            .iter()
            .map(|&(s, d)| s.max(floor).ln() - digamma(d / 2.0) + (d / 2.0).ln())
            .collect();
        let mean = e.iter().sum::<f64>() / n;
        let spread = if units.len() > 1 {
            e.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let chance = units.iter().map(|u| trigamma(u.1 / 2.0)).sum::<f64>() / n;
        let excess = spread - chance;
        if excess > 0.0 {
            let df = 2.0 * trigamma_inverse(excess);
            let scale = (mean + digamma(df / 2.0) - (df / 2.0).ln()).exp();
            Some(VariancePrior {
                df,
                scale,
                units: units.len(),
            })
        } else {
            Some(VariancePrior {
                df: f64::INFINITY,
                scale: mean.exp(),
                units: units.len(),
            })
        }
    }

    /// The posterior of a unit with residual variance `s2` on `df` degrees
    /// of freedom (`df` 0: the prior alone).
    #[must_use]
    pub fn posterior(&self, s2: f64, df: f64) -> Moderated {
        if !self.df.is_finite() {
            return Moderated {
                variance: self.scale,
                df: f64::INFINITY,
            };
        }
        if df <= 0.0 || !s2.is_finite() {
            return Moderated {
                variance: self.scale,
                df: self.df,
            };
        }
        Moderated {
            variance: (self.df * self.scale + df * s2) / (self.df + df),
            df: self.df + df,
        }
    }
}

/// The trigamma function `ψ'(x)`, the derivative of the digamma function,
/// for `x > 0`: the recurrence `ψ'(x) = ψ'(x + 1) + 1/x²` up to 10, then
/// its asymptotic series (error below 10⁻¹⁴).
#[must_use]
pub fn trigamma(x: f64) -> f64 {
    let mut x = x;
    let mut sum = 0.0;
    while x < 10.0 {
        sum += 1.0 / (x * x);
        x += 1.0;
    }
    let r = 1.0 / (x * x);
    sum + 1.0 / x
        + r / 2.0
        + r / x
            * (1.0 / 6.0
                + r * (-1.0 / 30.0 + r * (1.0 / 42.0 + r * (-1.0 / 30.0 + r * 5.0 / 66.0))))
}

/// The `x > 0` with `ψ'(x) = y` for `y > 0` (trigamma falls from infinity
/// to 0, so bisection on `log x` finds it).
#[must_use]
pub fn trigamma_inverse(y: f64) -> f64 {
    if y > 1e7 {
        return 1.0 / y.sqrt();
    }
    if y < 1e-6 {
        return 1.0 / y;
    }
    let (mut low, mut high) = ((1e-8f64).ln(), (1e8f64).ln());
    for _ in 0..200 {
        let mid = f64::midpoint(low, high);
        if trigamma(mid.exp()) > y {
            low = mid;
        } else {
            high = mid;
        }
    }
    f64::midpoint(low, high).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn trigamma_matches_known_values() {
        // ψ'(1) = π²/6, ψ'(1/2) = π²/2, ψ'(10) from scipy.special.polygamma(1, 10).
        let pi2 = std::f64::consts::PI.powi(2);
        assert!((trigamma(1.0) - pi2 / 6.0).abs() < 1e-12);
        assert!((trigamma(0.5) - pi2 / 2.0).abs() < 1e-12);
        assert!((trigamma(10.0) - 0.105_166_335_681_685_3).abs() < 1e-13);
        for x in [0.3, 1.7, 7.5, 250.0] {
            assert!((trigamma_inverse(trigamma(x)) - x).abs() < 1e-9 * x, "{x}");
        }
    }

    /// Variances of `n` units with `d` degrees of freedom whose true
    /// variances follow the prior (`d0`, `s0²`).
    fn variances(n: usize, d: u32, d0: Option<u32>, s02: f64, rng: &mut Rng) -> Vec<f64> {
        let chi2 = |k: u32, rng: &mut Rng| -> f64 { (0..k).map(|_| rng.normal().powi(2)).sum() };
        (0..n)
            .map(|_| {
                let sigma2 = d0.map_or(s02, |d0| f64::from(d0) * s02 / chi2(d0, rng));
                sigma2 * chi2(d, rng) / f64::from(d)
            })
            .collect()
    }

    #[test]
    fn the_prior_is_recovered_from_simulated_variances() {
        let mut rng = Rng::new(11);
        let s2 = variances(20_000, 7, Some(12), 2.0, &mut rng);
        let prior = VariancePrior::fit(&s2, &vec![7.0; s2.len()]).unwrap();
        assert!((prior.df - 12.0).abs() < 1.5, "{prior:?}");
        assert!((prior.scale - 2.0).abs() < 0.05, "{prior:?}");
        // Variances that differ only by chance: an infinite prior, the
        // pooled variance for every unit, normal intervals.
        let s2 = variances(20_000, 7, None, 2.0, &mut rng);
        let prior = VariancePrior::fit(&s2, &vec![7.0; s2.len()]).unwrap();
        assert!(prior.df > 200.0, "{prior:?}");
        let post = prior.posterior(10.0, 7.0);
        assert!((post.variance - 2.0).abs() < 0.1, "{post:?}");
    }

    #[test]
    fn the_posterior_pulls_each_variance_toward_the_prior() {
        let prior = VariancePrior {
            df: 14.0,
            scale: 1.0,
            units: 960,
        };
        let wide = prior.posterior(4.0, 7.0);
        assert!((wide.variance - 2.0).abs() < 1e-12 && (wide.df - 21.0).abs() < 1e-12);
        let narrow = prior.posterior(0.1, 7.0);
        assert!((narrow.variance - 0.7).abs() < 1e-12);
        // A unit without degrees of freedom of its own gets the prior.
        assert_eq!(
            prior.posterior(f64::NAN, 0.0),
            Moderated {
                variance: 1.0,
                df: 14.0
            }
        );
    }
}
