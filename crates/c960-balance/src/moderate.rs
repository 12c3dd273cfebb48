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
//!
//! When the variances grow or shrink with a covariate of the unit (its
//! level, as gene-wise variances do with expression in limma's
//! `eBayes(trend = TRUE)`, Smyth 2004 §6 and Law et al. 2014), the prior's
//! scale may follow it: `log s0²(x)` is a straight line in the covariate,
//! fitted by least squares to the same `log s_i²` terms, and `d0` comes
//! from their spread about that line. A unit is then pulled toward the
//! typical variance *of units like it*, not of all units
//! ([`VariancePrior::fit_along`], [`VariancePrior::posterior_at`]).

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
    /// How the scale follows a covariate, when it was fitted along one.
    pub trend: Option<Trend>,
}

/// The prior's scale along a covariate: `log s0²(x) = log scale +
/// slope · (x − centre)`, with `x` held within the covariates fitted
/// (`low..=high`), so that no unit is given a variance extrapolated beyond
/// the units seen.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Trend {
    /// The change of `log s0²` per unit of the covariate.
    pub slope: f64,
    /// The covariates' mean, where the prior's `scale` applies.
    pub centre: f64,
    /// The smallest covariate fitted.
    pub low: f64,
    /// The largest covariate fitted.
    pub high: f64,
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
    pub fn fit(s2: &[f64], df: &[f64]) -> Option<VariancePrior> {
        Self::fit_along(s2, df, None)
    }

    /// As [`VariancePrior::fit`], with the scale following `covariate`
    /// (one per unit) when it is given: `log s0²` a least-squares line in
    /// it, `d0` from the spread about the line (its residual degrees of
    /// freedom `n − 2`). Units whose covariate is not finite are left out
    /// of the fit; with fewer than three units left, or all at one
    /// covariate, no trend is fitted.
    ///
    /// # Panics
    /// When `s2`, `df` and `covariate` differ in length.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn fit_along(s2: &[f64], df: &[f64], covariate: Option<&[f64]>) -> Option<VariancePrior> {
        assert_eq!(s2.len(), df.len(), "variances and degrees of freedom");
        if let Some(x) = covariate {
            assert_eq!(s2.len(), x.len(), "variances and covariates");
        }
        let units: Vec<(f64, f64, f64)> = (0..s2.len())
            .map(|i| (s2[i], df[i], covariate.map_or(0.0, |x| x[i])))
            .filter(|(s, d, x)| *d > 0.0 && s.is_finite() && *s >= 0.0 && x.is_finite())
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
            .map(|&(s, d, _)| s.max(floor).ln() - digamma(d / 2.0) + (d / 2.0).ln())
            .collect();
        let mean = e.iter().sum::<f64>() / n;
        let x: Vec<f64> = units.iter().map(|u| u.2).collect();
        let trend = covariate.and_then(|_| line(&x, &e));
        let fitted = |i: usize| trend.map_or(mean, |t| mean + t.slope * (x[i] - t.centre));
        let lost = if trend.is_some() { 2.0 } else { 1.0 };
        let spread = if n > lost {
            (0..units.len())
                .map(|i| (e[i] - fitted(i)).powi(2))
                .sum::<f64>()
                / (n - lost)
        } else {
            0.0
        };
        let chance = units.iter().map(|u| trigamma(u.1 / 2.0)).sum::<f64>() / n;
        let excess = spread - chance;
        let df = if excess > 0.0 {
            2.0 * trigamma_inverse(excess)
        } else {
            f64::INFINITY
        };
        let shift = if df.is_finite() {
            digamma(df / 2.0) - (df / 2.0).ln()
        } else {
            0.0
        };
        Some(VariancePrior {
            df,
            scale: (mean + shift).exp(),
            units: units.len(),
            trend,
        })
    }

    /// The prior's scale at covariate `x` (held within the covariates
    /// fitted); its one scale when no trend was fitted.
    #[must_use]
    pub fn scale_at(&self, x: f64) -> f64 {
        match self.trend {
            Some(t) if x.is_finite() => {
                self.scale * (t.slope * (x.clamp(t.low, t.high) - t.centre)).exp()
            }
            _ => self.scale,
        }
    }

    /// The posterior of a unit with residual variance `s2` on `df` degrees
    /// of freedom (`df` 0: the prior alone), at the prior's one scale.
    #[must_use]
    pub fn posterior(&self, s2: f64, df: f64) -> Moderated {
        self.moderate(self.scale, s2, df)
    }

    /// The posterior of a unit at covariate `x`: as
    /// [`VariancePrior::posterior`] with the scale of units like it
    /// ([`VariancePrior::scale_at`]).
    #[must_use]
    pub fn posterior_at(&self, s2: f64, df: f64, x: f64) -> Moderated {
        self.moderate(self.scale_at(x), s2, df)
    }

    fn moderate(&self, scale: f64, s2: f64, df: f64) -> Moderated {
        if !self.df.is_finite() {
            return Moderated {
                variance: scale,
                df: f64::INFINITY,
            };
        }
        if df <= 0.0 || !s2.is_finite() {
            return Moderated {
                variance: scale,
                df: self.df,
            };
        }
        Moderated {
            variance: (self.df * scale + df * s2) / (self.df + df),
            df: self.df + df,
        }
    }
}

/// The least-squares line of `y` on `x` (slope about the mean of `x`);
/// `None` with fewer than three points or no spread in `x`.
#[allow(clippy::cast_precision_loss)]
fn line(x: &[f64], y: &[f64]) -> Option<Trend> {
    if x.len() < 3 {
        return None;
    }
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxx: f64 = x.iter().map(|v| (v - mx).powi(2)).sum();
    if sxx <= 0.0 || !sxx.is_finite() {
        return None;
    }
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let (low, high) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(*v), h.max(*v))
        });
    Some(Trend {
        slope: sxy / sxx,
        centre: mx,
        low,
        high,
    })
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
    fn a_prior_whose_scale_follows_a_covariate_is_recovered() {
        let mut rng = Rng::new(12);
        // True scale exp(0.05·x) about x = 0..40: from 1 to e² (7.4).
        let x: Vec<f64> = (0..20_000).map(|i| f64::from(i % 41)).collect();
        let s2: Vec<f64> = x
            .iter()
            .map(|x| (0.05 * x).exp() * variances(1, 7, Some(12), 1.0, &mut rng)[0])
            .collect();
        let df = vec![7.0; s2.len()];
        let prior = VariancePrior::fit_along(&s2, &df, Some(&x)).unwrap();
        let trend = prior.trend.unwrap();
        assert!((trend.slope - 0.05).abs() < 0.003, "{prior:?}");
        assert!((prior.df - 12.0).abs() < 1.5, "{prior:?}");
        assert!((prior.scale_at(0.0) - 1.0).abs() < 0.05, "{prior:?}");
        assert!(
            (prior.scale_at(40.0) / (2.0f64).exp() - 1.0).abs() < 0.05,
            "{prior:?}"
        );
        // Held within the covariates fitted.
        assert_eq!(
            prior.scale_at(400.0).to_bits(),
            prior.scale_at(40.0).to_bits()
        );
        // Without the covariate the trend reads as extra spread: a smaller d0.
        let flat = VariancePrior::fit(&s2, &df).unwrap();
        assert!(flat.trend.is_none() && flat.df < prior.df - 2.0, "{flat:?}");
        // The posterior of a unit follows the scale at its covariate.
        let (low, high) = (
            prior.posterior_at(1.0, 7.0, 0.0),
            prior.posterior_at(1.0, 7.0, 40.0),
        );
        assert!(high.variance > 3.0 * low.variance, "{low:?} {high:?}");
        // One covariate for all: no trend can be fitted.
        let same = VariancePrior::fit_along(&s2, &df, Some(&vec![3.0; s2.len()])).unwrap();
        assert!(same.trend.is_none());
    }

    #[test]
    fn the_posterior_pulls_each_variance_toward_the_prior() {
        let prior = VariancePrior {
            df: 14.0,
            scale: 1.0,
            units: 960,
            trend: None,
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
