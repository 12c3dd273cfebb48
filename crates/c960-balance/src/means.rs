//! Means of groups: a mean with its 95% interval (Student's t), the
//! difference of two means (Welch) and of two standard deviations (a seeded
//! percentile bootstrap).

// Group sizes (at most 921,600 DFRC setups) convert to floats without loss.
#![allow(clippy::cast_precision_loss)]

use serde::Serialize;

use crate::{LEVEL, rng::Rng, student};

/// The critical value of a two-sided t interval at [`LEVEL`].
fn t_critical(df: f64) -> f64 {
    student::two_sided(LEVEL, df)
}

/// The mean of a group of setups with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct MeanInterval {
    /// Setups in the group.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// Their standard deviation (none for one setup).
    pub sd: Option<f64>,
    /// Lower end of the 95% interval of the mean (Student's t; none for
    /// one setup).
    pub low: Option<f64>,
    /// Its upper end.
    pub high: Option<f64>,
}

impl MeanInterval {
    /// The mean of `values` with its interval; `None` when empty.
    #[must_use]
    pub fn of(values: &[f64]) -> Option<MeanInterval> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = sd(values);
        let half = half_width(values);
        Some(MeanInterval {
            n: values.len(),
            mean,
            sd,
            low: half.map(|h| mean - h),
            high: half.map(|h| mean + h),
        })
    }
}

/// The sample standard deviation (`n − 1`); `None` below two values.
#[must_use]
pub fn sd(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    Some((values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt())
}

/// The standard error of the mean, `sd / √n`; `None` below two values.
#[must_use]
pub fn se(values: &[f64]) -> Option<f64> {
    sd(values).map(|s| s / (values.len() as f64).sqrt())
}

/// The standard error of a mean of `n` values whose standard deviation
/// is `sd`: `sd / √n` (infinite for no values).
///
/// # Examples
///
/// ```
/// assert_eq!(c960_balance::means::se_of(6.0, 4), 3.0);
/// ```
#[must_use]
pub fn se_of(sd: f64, n: u32) -> f64 {
    sd / f64::from(n).sqrt()
}

/// The mean of `values`; `None` when empty.
///
/// # Examples
///
/// ```
/// assert_eq!(c960_balance::means::mean(&[1.0, 2.0, 6.0]), Some(3.0));
/// assert_eq!(c960_balance::means::mean(&[]), None);
/// ```
#[must_use]
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The half-width of the 95% interval of the mean of `values` (Student's
/// t with `n − 1` degrees of freedom); `None` below two values.
#[must_use]
pub fn half_width(values: &[f64]) -> Option<f64> {
    let n = values.len() as f64;
    sd(values).map(|s| t_critical(n - 1.0) * s / n.sqrt())
}

/// The pooled variance of `groups` about their own means: the sum of
/// squared deviations over the degrees of freedom (`n − 1` each, groups
/// of one adding none); `None` without a group of two values.
#[must_use]
pub fn pooled_variance<'a>(groups: impl IntoIterator<Item = &'a [f64]>) -> Option<f64> {
    let (mut ss, mut df) = (0.0, 0.0);
    for group in groups {
        if group.len() >= 2 {
            let mean = group.iter().sum::<f64>() / group.len() as f64;
            ss += group.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
            df += (group.len() - 1) as f64;
        }
    }
    (df > 0.0).then(|| ss / df)
}

/// The pooled standard deviation of groups given as `(sd, n)`: each
/// variance weighted by its `n − 1`; `None` without a group of two.
#[must_use]
pub fn pooled_sd(groups: impl IntoIterator<Item = (f64, u32)>) -> Option<f64> {
    let (mut sum, mut df) = (0.0, 0.0);
    for (sd, n) in groups {
        if n >= 2 {
            sum += f64::from(n - 1) * sd * sd;
            df += f64::from(n - 1);
        }
    }
    (df > 0.0).then(|| (sum / df).sqrt())
}

/// A difference between two groups with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// The first group's figure minus the second's.
    pub estimate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

/// The difference of the means of `a` and `b` (`a − b`) with Welch's 95%
/// interval (unequal variances, Welch–Satterthwaite degrees of freedom);
/// `None` unless both have two values or more.
#[must_use]
pub fn welch(a: &[f64], b: &[f64]) -> Option<Difference> {
    let (ma, mb) = (MeanInterval::of(a)?, MeanInterval::of(b)?);
    let (va, vb) = (
        ma.sd?.powi(2) / a.len() as f64,
        mb.sd?.powi(2) / b.len() as f64,
    );
    let se = (va + vb).sqrt();
    let estimate = ma.mean - mb.mean;
    if se == 0.0 {
        return Some(Difference {
            estimate,
            low: estimate,
            high: estimate,
        });
    }
    let df = (va + vb).powi(2)
        / (va.powi(2) / (a.len() as f64 - 1.0) + vb.powi(2) / (b.len() as f64 - 1.0));
    let half = t_critical(df) * se;
    Some(Difference {
        estimate,
        low: estimate - half,
        high: estimate + half,
    })
}

/// The difference of the standard deviations of `a` and `b` (`a − b`)
/// with a 95% percentile-bootstrap interval from `resamples` resamples of
/// each group drawn with the seeded generator; `None` unless both have
/// two values or more.
#[must_use]
pub fn sd_difference(a: &[f64], b: &[f64], resamples: usize, seed: u64) -> Option<Difference> {
    let estimate = sd(a)? - sd(b)?;
    let mut rng = Rng::new(seed);
    let mut draw = |values: &[f64]| {
        let sample: Vec<f64> = (0..values.len())
            .map(|_| values[rng.index(values.len())])
            .collect();
        sd(&sample).unwrap_or(0.0)
    };
    let mut differences: Vec<f64> = (0..resamples).map(|_| draw(a) - draw(b)).collect();
    differences.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let i = ((resamples as f64 - 1.0) * q).round();
        // `i` is within 0..resamples by construction.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        differences[i as usize]
    };
    Some(Difference {
        estimate,
        low: at((1.0 - LEVEL) / 2.0),
        high: at(f64::midpoint(1.0, LEVEL)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_sd_se_half_width_and_pooling_follow_their_formulas() {
        let values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        // Squared deviations from the mean 5 sum to 32: variance 32 / 7.
        let sd = (32.0f64 / 7.0).sqrt();
        assert!((super::sd(&values).unwrap() - sd).abs() < 1e-12);
        assert!((se(&values).unwrap() - sd / 8f64.sqrt()).abs() < 1e-12);
        let t = student::two_sided(LEVEL, 7.0);
        assert!((half_width(&values).unwrap() - t * sd / 8f64.sqrt()).abs() < 1e-12);
        let interval = MeanInterval::of(&values).unwrap();
        assert!((interval.high.unwrap() - 5.0 - half_width(&values).unwrap()).abs() < 1e-12);
        assert_eq!(se(&[1.0]), None);
        assert_eq!(half_width(&[1.0]), None);

        // Groups {1, 3} and {2, 4, 6} and a lone 9: (2 + 8) / (1 + 2).
        let groups: [&[f64]; 3] = [&[1.0, 3.0], &[2.0, 4.0, 6.0], &[9.0]];
        assert!((pooled_variance(groups).unwrap() - 10.0 / 3.0).abs() < 1e-12);
        assert_eq!(pooled_variance([&[9.0][..]]), None);
        let pooled = pooled_sd([(2f64.sqrt(), 2), (2.0, 3), (5.0, 1)]).unwrap();
        assert!((pooled - (10.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(pooled_sd([(5.0, 1)]), None);
    }

    #[test]
    fn a_mean_interval_covers_the_truth_about_95_times_in_100() {
        let mut rng = Rng::new(7);
        let covered = (0..2000)
            .filter(|_| {
                let values: Vec<f64> = (0..8).map(|_| 30.0 + 10.0 * rng.normal()).collect();
                let m = MeanInterval::of(&values).unwrap();
                m.low.unwrap() < 30.0 && 30.0 < m.high.unwrap()
            })
            .count();
        assert!((1860..=1940).contains(&covered), "{covered} of 2000");
    }

    #[test]
    fn welch_and_the_bootstrap_find_planted_differences() {
        let mut rng = Rng::new(3);
        let a: Vec<f64> = (0..400).map(|_| 25.0 + 20.0 * rng.normal()).collect();
        let b: Vec<f64> = (0..4000).map(|_| 5.0 + 40.0 * rng.normal()).collect();
        let mean = welch(&a, &b).unwrap();
        assert!(mean.low < 20.0 && 20.0 < mean.high, "{mean:?}");
        assert!(mean.high - mean.low < 8.0, "{mean:?}");
        let spread = sd_difference(&a, &b, 500, 1).unwrap();
        assert!(spread.low < -20.0 && -20.0 < spread.high, "{spread:?}");
        assert!(spread.high < 0.0, "{spread:?}");
        // One value says nothing about a spread.
        assert!(welch(&[1.0], &b).is_none());
        assert_eq!(MeanInterval::of(&[4.0]).unwrap().low, None);
    }
}
