//! The standard normal distribution (statrs underneath): CDF, upper tail,
//! quantile, and the critical value of a two-sided interval.

use statrs::distribution::{Continuous, ContinuousCDF, Normal};

fn standard() -> Normal {
    Normal::standard()
}

/// `P(Z ≤ x)` for a standard normal `Z`.
///
/// # Examples
/// ```
/// use c960_balance::normal::cdf;
/// assert!((cdf(0.0) - 0.5).abs() < 1e-15);
/// assert!((cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-11);
/// ```
#[must_use]
pub fn cdf(x: f64) -> f64 {
    standard().cdf(x)
}

/// `P(Z > x)`, accurate far into the tail (no `1 − cdf` cancellation).
#[must_use]
pub fn upper_tail(x: f64) -> f64 {
    standard().sf(x)
}

/// The density at `x`.
#[must_use]
pub fn density(x: f64) -> f64 {
    standard().pdf(x)
}

/// The quantile `z` with `cdf(z) = p`, for `p` in (0, 1).
///
/// # Panics
/// Panics if `p` is not strictly between 0 and 1.
///
/// # Examples
/// ```
/// use c960_balance::normal::quantile;
/// assert!((quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-12);
/// ```
#[must_use]
pub fn quantile(p: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0, "quantile of {p}: p must be in (0, 1)");
    standard().inverse_cdf(p)
}

/// The critical value `z` of a two-sided interval at confidence `level`:
/// `estimate ± z · se` (1.96 at [`crate::LEVEL`]).
///
/// # Examples
/// ```
/// use c960_balance::{LEVEL, normal::two_sided};
/// assert!((two_sided(LEVEL) - 1.959_963_984_540_054).abs() < 1e-12);
/// ```
#[must_use]
pub fn two_sided(level: f64) -> f64 {
    quantile(f64::midpoint(1.0, level))
}

/// The normal 95 % interval `estimate ± z · se` at [`crate::LEVEL`], as
/// `(low, high)`.
///
/// # Examples
/// ```
/// let (low, high) = c960_balance::normal::interval(10.0, 1.0);
/// assert!((low - 8.04).abs() < 0.01 && (high - 11.96).abs() < 0.01);
/// ```
#[must_use]
pub fn interval(estimate: f64, se: f64) -> (f64, f64) {
    let half = two_sided(crate::LEVEL) * se;
    (estimate - half, estimate + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_inverts_cdf_across_the_range() {
        for p in [
            1e-10,
            1e-4,
            0.01,
            0.024,
            0.025,
            0.3,
            0.5,
            0.7,
            0.975,
            0.99,
            1.0 - 1e-9,
        ] {
            let z = quantile(p);
            assert!((cdf(z) - p).abs() < 1e-10 * p, "p = {p}: z = {z}");
        }
        // Published values.
        assert!((quantile(0.95) - 1.644_853_626_951_472).abs() < 1e-12);
        assert!((upper_tail(3.0) / 1.349_898_031_630_094_5e-3 - 1.0).abs() < 1e-9);
        assert!((density(0.0) - 0.398_942_280_401_432_7).abs() < 1e-15);
    }
}
