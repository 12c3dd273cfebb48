//! The figures the report's charts and pages show beside the verdicts,
//! computed here from `c960-balance` so that the report only draws them:
//! a group's mean with its 95% interval ([`GroupMean`]), the
//! least-squares line through a scatter with Pearson's correlation
//! ([`Fit`]), and the normal 95% interval of an estimate with a known
//! standard error ([`normal_interval`]).

use c960_balance::{
    means::{MeanInterval, half_width},
    normal,
    regression::ols,
    reliability::pearson,
};

use crate::Interval;

/// A group's values summarised for a chart: how many, their mean and the
/// half-width of its 95% interval (Student's t, as
/// [`c960_balance::means::MeanInterval`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GroupMean {
    /// Values in the group.
    pub n: usize,
    /// Their mean (0 for none).
    pub mean: f64,
    /// Half-width of the mean's 95% interval (0 for fewer than two
    /// values).
    pub half_width: f64,
}

impl GroupMean {
    /// The summary of `values`.
    #[must_use]
    pub fn of(values: &[f64]) -> GroupMean {
        let (mean, half_width) = match MeanInterval::of(values) {
            Some(interval) => (interval.mean, half_width(values).unwrap_or(0.0)),
            None => (0.0, 0.0),
        };
        GroupMean {
            n: values.len(),
            mean,
            half_width,
        }
    }
}

/// The least-squares line `y = intercept + slope x` through a scatter's
/// points, with their Pearson correlation.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Fit {
    /// The line's slope.
    pub slope: f64,
    /// Its intercept.
    pub intercept: f64,
    /// Pearson's r of the points.
    pub r: f64,
}

impl Fit {
    /// The fit through `points` (`None` for fewer than three points or a
    /// constant coordinate).
    #[must_use]
    pub fn of(points: &[(f64, f64)]) -> Option<Fit> {
        let (x, y): (Vec<Vec<f64>>, Vec<f64>) = points.iter().map(|&(x, y)| (vec![x], y)).unzip();
        let fit = ols(&["x"], &x, &y)?;
        let [intercept, slope] = fit.coefficients.as_slice() else {
            return None;
        };
        Some(Fit {
            slope: slope.estimate,
            intercept: intercept.estimate,
            r: correlation(points)?,
        })
    }
}

/// Pearson's correlation of `points` (`None` for fewer than three points
/// or a constant coordinate).
#[must_use]
pub fn correlation(points: &[(f64, f64)]) -> Option<f64> {
    if points.len() < 3 {
        return None;
    }
    let (x, y): (Vec<f64>, Vec<f64>) = points.iter().copied().unzip();
    pearson(&x, &y)
}

/// The normal 95% interval of `estimate` with standard error `se`.
#[must_use]
pub fn normal_interval(estimate: f64, se: f64) -> Interval {
    let (low, high) = normal::interval(estimate, se);
    Interval { low, high }
}

#[cfg(test)]
mod tests {
    use super::{Fit, GroupMean, correlation};

    #[test]
    fn group_means_take_their_t_interval_from_c960_balance() {
        let g = GroupMean::of(&[1.0, 2.0, 3.0]);
        assert_eq!(g.n, 3);
        assert!((g.mean - 2.0).abs() < 1e-12);
        // Student's t with 2 degrees of freedom (4.30), not the normal 1.96.
        let t = c960_balance::student::two_sided(c960_balance::LEVEL, 2.0);
        assert!((t - 4.303).abs() < 1e-3);
        assert!((g.half_width - t * (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
        let interval = c960_balance::means::MeanInterval::of(&[1.0, 2.0, 3.0]).unwrap();
        assert!((interval.high.unwrap() - (g.mean + g.half_width)).abs() < 1e-12);
        let one = GroupMean::of(&[5.0]);
        assert_eq!((one.n, one.mean, one.half_width), (1, 5.0, 0.0));
        let none = GroupMean::of(&[]);
        assert_eq!((none.n, none.mean, none.half_width), (0, 0.0, 0.0));
    }

    #[test]
    fn a_fit_recovers_a_line_and_its_correlation() {
        // Perfectly linear data correlates at 1, reversed at -1; noise in
        // between; too few points or a constant axis give none.
        let line: Vec<(f64, f64)> = (0..10)
            .map(|i| (f64::from(i), 0.5 + 0.01 * f64::from(i)))
            .collect();
        assert!((correlation(&line).unwrap() - 1.0).abs() < 1e-12);
        let fit = Fit::of(&line).unwrap();
        assert!((fit.slope - 0.01).abs() < 1e-12 && (fit.intercept - 0.5).abs() < 1e-12);
        let reversed: Vec<(f64, f64)> = line.iter().map(|(x, y)| (-x, *y)).collect();
        assert!((correlation(&reversed).unwrap() + 1.0).abs() < 1e-12);
        let known = [(1.0, 2.0), (2.0, 1.0), (3.0, 4.0), (4.0, 3.0)];
        // r = Sxy / sqrt(Sxx Syy) = 3 / sqrt(5 * 5) = 0.6.
        assert!((correlation(&known).unwrap() - 0.6).abs() < 1e-12);
        assert_eq!(correlation(&known[..2]), None);
        assert_eq!(correlation(&[(1.0, 0.5), (2.0, 0.5), (3.0, 0.5)]), None);
        assert_eq!(Fit::of(&known[..2]), None);
    }
}
