//! Ordinary least squares with heteroskedasticity-robust standard errors
//! (nalgebra underneath): HC3 (each squared residual divided by
//! `(1 − h_i)²`, recommended for samples of any size by Long & Ervin 2000),
//! which the intervals use, and HC1 (White's with the `n / (n − k)`
//! correction), shown beside it. An intercept is always fitted; a feature
//! that is constant, or a linear combination of the features before it, is
//! dropped and named.

// Counts of rows convert to floats without loss; the algebra keeps the
// textbook's names (n, k, x, y, t).
#![allow(clippy::cast_precision_loss, clippy::many_single_char_names)]

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use crate::{LEVEL, student};

/// One fitted coefficient.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coefficient {
    /// The feature (`intercept` for the constant).
    pub name: String,
    /// The estimate: units of `y` per unit of the feature.
    pub estimate: f64,
    /// Its HC3 standard error.
    pub se_hc3: f64,
    /// Its HC1 standard error.
    pub se_hc1: f64,
    /// Lower end of the 95% interval (HC3, Student's t with `n − k`
    /// degrees of freedom).
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Two-sided p-value of a zero coefficient (HC3, the interval's t
    /// distribution).
    pub p_value: f64,
}

/// A fitted regression.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Regression {
    /// Rows fitted.
    pub n: usize,
    /// Intercept first, then the features kept, in the order given.
    pub coefficients: Vec<Coefficient>,
    /// Features dropped as constant or collinear.
    pub dropped: Vec<String>,
    /// Share of the variance explained.
    pub r_squared: f64,
    /// Standard deviation of the residuals (`n − k`).
    pub residual_sd: f64,
}

/// A column whose variance left after the columns before it is below this
/// share of its own counts as collinear with them.
const COLLINEAR: f64 = 1e-9;

/// Regresses `y` on the features `x` (one row per observation, one value
/// per name) with an intercept. `None` when there are no more rows than
/// coefficients.
///
/// # Examples
/// ```
/// use c960_balance::regression::ols;
/// let x: Vec<Vec<f64>> = (0..10).map(|i| vec![f64::from(i)]).collect();
/// let y: Vec<f64> = (0..10).map(|i| 2.0 + 3.0 * f64::from(i)).collect();
/// let fit = ols(&["x"], &x, &y).unwrap();
/// assert!((fit.coefficients[1].estimate - 3.0).abs() < 1e-9);
/// ```
///
/// # Panics
/// Panics if `x` and `y` differ in length or a row of `x` does not have
/// one value per name.
#[must_use]
pub fn ols(names: &[&str], x: &[Vec<f64>], y: &[f64]) -> Option<Regression> {
    assert_eq!(x.len(), y.len(), "one row of features per value");
    let n = y.len();
    if n == 0 {
        return None;
    }
    let width = names.len() + 1;
    let full = DMatrix::from_fn(n, width, |i, c| if c == 0 { 1.0 } else { x[i][c - 1] });
    let gram = full.tr_mul(&full);
    let (kept, dropped) = independent_columns(&gram);
    let dropped = dropped.iter().map(|&c| names[c - 1].to_owned()).collect();
    let k = kept.len();
    if n <= k {
        return None;
    }
    let design = full.select_columns(&kept);
    let bread = gram
        .select_rows(&kept)
        .select_columns(&kept)
        .cholesky()?
        .inverse();
    let y = DVector::from_column_slice(y);
    let beta = &bread * design.tr_mul(&y);
    let residuals = &y - &design * &beta;
    // Leverage h_i = x_i' (X'X)^-1 x_i: the diagonal of the hat matrix.
    let leverage = (&design * &bread).component_mul(&design).column_sum();
    let meat = |weights: &DVector<f64>| {
        let mut weighted = design.clone();
        for (mut row, w) in weighted.row_iter_mut().zip(weights.iter()) {
            row *= *w;
        }
        design.tr_mul(&weighted)
    };
    let squared = residuals.map(|e| e * e);
    let hc3_weights = squared.zip_map(&leverage, |e2, h| e2 / (1.0 - h).max(1e-12).powi(2));
    let hc1 = &bread * meat(&squared) * &bread;
    let hc3 = &bread * meat(&hc3_weights) * &bread;
    let rss = squared.sum();
    let mean = y.mean();
    let tss: f64 = y.iter().map(|v| (v - mean).powi(2)).sum();
    let df = (n - k) as f64;
    let scale = n as f64 / df;
    let t = student::two_sided(LEVEL, df);
    let coefficients = kept
        .iter()
        .enumerate()
        .map(|(j, &c)| {
            let se3 = hc3[(j, j)].max(0.0).sqrt();
            Coefficient {
                name: if c == 0 {
                    "intercept".to_owned()
                } else {
                    names[c - 1].to_owned()
                },
                estimate: beta[j],
                se_hc3: se3,
                se_hc1: (scale * hc1[(j, j)]).max(0.0).sqrt(),
                low: beta[j] - t * se3,
                high: beta[j] + t * se3,
                // The same t distribution as the interval, so a p-value
                // below 0.05 and an interval excluding 0 always agree.
                p_value: if se3 > 0.0 {
                    student::two_sided_p(beta[j] / se3, df)
                } else {
                    f64::from(u8::from(beta[j] == 0.0))
                },
            }
        })
        .collect();
    Some(Regression {
        n,
        coefficients,
        dropped,
        r_squared: if tss > 0.0 { 1.0 - rss / tss } else { 0.0 },
        residual_sd: (rss / df).sqrt(),
    })
}

/// The columns of the Gram matrix `gram` to keep, in order, and those
/// dropped: a column is kept when its variance left after the kept columns
/// before it (the Schur complement `g_jj − g_jK G_KK⁻¹ g_Kj`, the square of
/// its Cholesky pivot) is more than [`COLLINEAR`] of its own.
fn independent_columns(gram: &DMatrix<f64>) -> (Vec<usize>, Vec<usize>) {
    let (mut kept, mut dropped): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for column in 0..gram.ncols() {
        let own = gram[(column, column)];
        let left = if kept.is_empty() {
            own
        } else {
            let cross = gram.select_rows(&kept).column(column).clone_owned();
            // The kept columns are independent, so their Gram matrix is
            // positive definite.
            let solved = gram
                .select_rows(&kept)
                .select_columns(&kept)
                .cholesky()
                .map_or(f64::NAN, |c| cross.dot(&c.solve(&cross)));
            own - solved
        };
        if own > 0.0 && left > COLLINEAR * own {
            kept.push(column);
        } else {
            dropped.push(column);
        }
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn a_textbook_fit_is_exact() {
        // y = 2 + 3 x exactly: the fit recovers it with no error.
        let x: Vec<Vec<f64>> = (0..10).map(|i| vec![f64::from(i)]).collect();
        let y: Vec<f64> = (0..10).map(|i| 2.0 + 3.0 * f64::from(i)).collect();
        let r = ols(&["x"], &x, &y).unwrap();
        assert!((r.coefficients[0].estimate - 2.0).abs() < 1e-9);
        assert!((r.coefficients[1].estimate - 3.0).abs() < 1e-9);
        assert!(r.coefficients[1].se_hc3 < 1e-6);
        assert!((r.r_squared - 1.0).abs() < 1e-12);
    }

    #[test]
    fn robust_errors_match_an_independent_computation() {
        // x = 0..5, y as below; HC1 and HC3 by hand (numpy):
        // beta = (0.8, 1.1); residuals e = y − Xβ; leverage h.
        let x: Vec<Vec<f64>> = (0..6).map(|i| vec![f64::from(i)]).collect();
        let y = [1.0, 1.5, 3.5, 4.0, 4.5, 7.0];
        let r = ols(&["x"], &x, &y).unwrap();
        let (b0, b1) = (r.coefficients[0].estimate, r.coefficients[1].estimate);
        let xs: Vec<f64> = (0..6).map(f64::from).collect();
        let mean_x = 2.5;
        let sxx: f64 = xs.iter().map(|v| (v - mean_x).powi(2)).sum();
        let slope = xs.iter().zip(y).map(|(a, b)| (a - mean_x) * b).sum::<f64>() / sxx;
        assert!((b1 - slope).abs() < 1e-12);
        assert!((b0 - (y.iter().sum::<f64>() / 6.0 - slope * mean_x)).abs() < 1e-12);
        // The slope's robust variance: Σ (x − x̄)² w_i / Sxx².
        let resid: Vec<f64> = xs.iter().zip(y).map(|(a, b)| b - b0 - b1 * a).collect();
        let h: Vec<f64> = xs
            .iter()
            .map(|a| 1.0 / 6.0 + (a - mean_x).powi(2) / sxx)
            .collect();
        let v3: f64 = (0..6)
            .map(|i| (xs[i] - mean_x).powi(2) * resid[i].powi(2) / (1.0 - h[i]).powi(2))
            .sum::<f64>()
            / sxx.powi(2);
        let v1: f64 = (0..6)
            .map(|i| (xs[i] - mean_x).powi(2) * resid[i].powi(2))
            .sum::<f64>()
            / sxx.powi(2)
            * 6.0
            / 4.0;
        assert!((r.coefficients[1].se_hc3 - v3.sqrt()).abs() < 1e-10);
        assert!((r.coefficients[1].se_hc1 - v1.sqrt()).abs() < 1e-10);
    }

    #[test]
    fn constant_and_collinear_features_are_dropped_by_name() {
        let mut rng = Rng::new(1);
        let x: Vec<Vec<f64>> = (0..50)
            .map(|_| {
                let a = rng.normal();
                vec![a, 3.0, 2.0 * a]
            })
            .collect();
        let y: Vec<f64> = x.iter().map(|r| 1.0 + r[0] + rng.normal()).collect();
        let r = ols(&["a", "constant", "twice a"], &x, &y).unwrap();
        assert_eq!(r.dropped, ["constant", "twice a"]);
        assert_eq!(r.coefficients.len(), 2);
    }

    #[test]
    fn hc3_intervals_cover_a_planted_slope_under_heteroskedastic_noise() {
        // Noise grows with x: the robust interval still covers the slope
        // about 95 times in 100.
        let mut rng = Rng::new(11);
        let covered = (0..400)
            .filter(|_| {
                let x: Vec<Vec<f64>> = (0..200).map(|_| vec![rng.uniform() * 4.0]).collect();
                let y: Vec<f64> = x
                    .iter()
                    .map(|r| 5.0 - 2.0 * r[0] + (0.5 + 3.0 * r[0]) * rng.normal())
                    .collect();
                let c = &ols(&["x"], &x, &y).unwrap().coefficients[1];
                c.low < -2.0 && -2.0 < c.high
            })
            .count();
        assert!((364..=396).contains(&covered), "{covered} of 400");
    }

    #[test]
    fn a_dfrc_coefficient_p_value_agrees_with_its_interval() {
        // Few setups and a weak slope: p-values near 0.05, where a normal
        // p-value beside a t interval disagreed.
        let mut rng = Rng::new(12);
        for _ in 0..300 {
            let x: Vec<Vec<f64>> = (0..8).map(|_| vec![rng.uniform()]).collect();
            let y: Vec<f64> = x.iter().map(|r| 0.8 * r[0] + 0.3 * rng.normal()).collect();
            let c = &ols(&["x"], &x, &y).unwrap().coefficients[1];
            let excludes_zero = c.low > 0.0 || c.high < 0.0;
            assert_eq!(c.p_value < 0.05, excludes_zero, "{c:?}");
        }
    }
}
