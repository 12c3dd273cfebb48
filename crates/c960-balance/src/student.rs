//! Student's t distribution (statrs underneath): the quantile for an
//! interval from a few observations and the two-sided p-value that goes
//! with it, so an interval and its p-value always agree.

use statrs::distribution::{ContinuousCDF, StudentsT};

fn with(df: f64) -> StudentsT {
    StudentsT::new(0.0, 1.0, df).expect("degrees of freedom are positive")
}

/// The quantile `t` with `P(T ≤ t) = p` for `df` degrees of freedom.
///
/// # Panics
/// Panics if `p` is not in (0, 1) or `df` is not positive.
///
/// # Examples
/// ```
/// // scipy.stats.t.ppf(0.975, 10)
/// assert!((c960_balance::student::quantile(0.975, 10.0) - 2.228_138_851_986_274).abs() < 1e-9);
/// ```
#[must_use]
pub fn quantile(p: f64, df: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0, "quantile of {p}: p must be in (0, 1)");
    with(df).inverse_cdf(p)
}

/// The critical value of a two-sided interval at confidence `level`.
#[must_use]
pub fn two_sided(level: f64, df: f64) -> f64 {
    quantile(f64::midpoint(1.0, level), df)
}

/// The two-sided p-value of a t statistic: `P(|T| ≥ |t|)`.
///
/// # Examples
/// ```
/// // scipy: 2 * stats.t.sf(2.228138851986274, 10) = 0.05
/// let p = c960_balance::student::two_sided_p(2.228_138_851_986_274, 10.0);
/// assert!((p - 0.05).abs() < 1e-9);
/// ```
#[must_use]
pub fn two_sided_p(t: f64, df: f64) -> f64 {
    2.0 * with(df).sf(t.abs())
}

/// `P(T ≤ t)` on `df` degrees of freedom; infinite `df` is the normal.
#[must_use]
pub fn cdf(t: f64, df: f64) -> f64 {
    if df.is_finite() {
        with(df).cdf(t)
    } else {
        crate::normal::cdf(t)
    }
}

/// `P(T > t)` on `df` degrees of freedom, accurate far into the tail;
/// infinite `df` is the normal.
#[must_use]
pub fn upper_tail(t: f64, df: f64) -> f64 {
    if df.is_finite() {
        with(df).sf(t)
    } else {
        crate::normal::upper_tail(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_the_tables_and_the_p_value_agrees_with_the_interval() {
        // Two-sided 95% critical values (scipy.stats.t.ppf(0.975, df)).
        for (df, t) in [
            (1.0, 12.706_204_736_174_7),
            (2.0, 4.302_652_729_749_464),
            (5.0, 2.570_581_835_636_314),
            (30.0, 2.042_272_456_301_238),
            (1000.0, 1.962_339_080_826_408),
        ] {
            assert!((two_sided(0.95, df) - t).abs() < 1e-8, "df {df}");
            // A statistic on the interval's edge has p = 0.05 exactly.
            assert!((two_sided_p(t, df) - 0.05).abs() < 1e-9, "df {df}");
            assert!((upper_tail(t, df) - 0.025).abs() < 1e-9, "df {df}");
            assert!((cdf(-t, df) - 0.025).abs() < 1e-9, "df {df}");
        }
        assert!((upper_tail(1.959_963_984_540_054, f64::INFINITY) - 0.025).abs() < 1e-10);
    }
}
