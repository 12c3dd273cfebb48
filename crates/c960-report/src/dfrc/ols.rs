//! Ordinary least squares with heteroskedasticity-robust standard errors:
//! HC3 (each squared residual divided by `(1 − h_i)²`, recommended for
//! samples of any size by Long & Ervin 2000), which the intervals use, and
//! HC1 (White's with the `n / (n − k)` correction), shown beside it. An intercept is
//! always fitted; a feature that is constant, or a linear combination of
//! the features before it, is dropped and named.

// Counts of setups convert to floats without loss; the matrix algebra
// keeps the textbook's names and indices.
#![allow(
    clippy::cast_precision_loss,
    clippy::many_single_char_names,
    clippy::needless_range_loop
)]

use serde::Serialize;

use super::stats::t_critical;

/// One fitted coefficient.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coefficient {
    /// The feature (`intercept` for the constant).
    pub name: String,
    /// The estimate: centipawns per unit of the feature.
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
    /// Two-sided p-value of a zero coefficient (HC3, normal).
    pub p_value: f64,
}

/// A fitted regression.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Regression {
    /// Setups fitted.
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

/// Regresses `y` on the features `x` (one row per setup, one value per
/// name) with an intercept. `None` when there are no more setups than
/// coefficients.
#[must_use]
pub fn ols(names: &[&str], x: &[Vec<f64>], y: &[f64]) -> Option<Regression> {
    assert_eq!(x.len(), y.len(), "one row of features per value");
    let n = y.len();
    // The design with its intercept, then which columns are independent.
    let row = |i: usize| std::iter::once(1.0).chain(x[i].iter().copied());
    let width = names.len() + 1;
    let mut gram = vec![vec![0.0; width]; width];
    for i in 0..n {
        let r: Vec<f64> = row(i).collect();
        for a in 0..width {
            for b in a..width {
                gram[a][b] += r[a] * r[b];
            }
        }
    }
    for a in 0..width {
        for b in 0..a {
            gram[a][b] = gram[b][a];
        }
    }
    let mut kept: Vec<usize> = Vec::new();
    let mut dropped = Vec::new();
    for column in 0..width {
        let mut trial = kept.clone();
        trial.push(column);
        if independent(&sub(&gram, &trial)) {
            kept = trial;
        } else {
            dropped.push(names[column - 1].to_owned());
        }
    }
    let k = kept.len();
    if n <= k {
        return None;
    }
    let bread = invert(&sub(&gram, &kept))?;
    let design: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let r: Vec<f64> = row(i).collect();
            kept.iter().map(|&c| r[c]).collect()
        })
        .collect();
    let xty: Vec<f64> = (0..k)
        .map(|a| (0..n).map(|i| design[i][a] * y[i]).sum())
        .collect();
    let beta = multiply(&bread, &xty);
    let mut meat1 = vec![vec![0.0; k]; k];
    let mut meat3 = vec![vec![0.0; k]; k];
    let mut rss = 0.0;
    for i in 0..n {
        let fitted: f64 = design[i].iter().zip(&beta).map(|(a, b)| a * b).sum();
        let e = y[i] - fitted;
        rss += e * e;
        let bx = multiply(&bread, &design[i]);
        let leverage: f64 = design[i].iter().zip(&bx).map(|(a, b)| a * b).sum();
        let w3 = e * e / (1.0 - leverage).max(1e-12).powi(2);
        for a in 0..k {
            for b in 0..k {
                let xx = design[i][a] * design[i][b];
                meat1[a][b] += e * e * xx;
                meat3[a][b] += w3 * xx;
            }
        }
    }
    let scale = n as f64 / (n - k) as f64;
    let hc1 = sandwich(&bread, &meat1);
    let hc3 = sandwich(&bread, &meat3);
    let mean = y.iter().sum::<f64>() / n as f64;
    let tss: f64 = y.iter().map(|v| (v - mean).powi(2)).sum();
    let df = (n - k) as f64;
    let t = t_critical(df);
    let coefficients = kept
        .iter()
        .enumerate()
        .map(|(j, &c)| {
            let se3 = hc3[j][j].max(0.0).sqrt();
            Coefficient {
                name: if c == 0 {
                    "intercept".to_owned()
                } else {
                    names[c - 1].to_owned()
                },
                estimate: beta[j],
                se_hc3: se3,
                se_hc1: (scale * hc1[j][j]).max(0.0).sqrt(),
                low: beta[j] - t * se3,
                high: beta[j] + t * se3,
                // The same t distribution as the interval, so a p-value
                // below 0.05 and an interval excluding 0 always agree.
                p_value: if se3 > 0.0 {
                    c960_balance::student::two_sided_p(beta[j] / se3, df)
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
        residual_sd: (rss / (n - k) as f64).sqrt(),
    })
}

/// The rows and columns `keep` of the square matrix `m`.
fn sub(m: &[Vec<f64>], keep: &[usize]) -> Vec<Vec<f64>> {
    keep.iter()
        .map(|&a| keep.iter().map(|&b| m[a][b]).collect())
        .collect()
}

/// Whether the Gram matrix `g` is positive definite with room to spare:
/// no column's variance left after the columns before it falls below a
/// billionth of its own (Cholesky).
fn independent(g: &[Vec<f64>]) -> bool {
    let k = g.len();
    let mut l = vec![vec![0.0; k]; k];
    for j in 0..k {
        let d = g[j][j] - (0..j).map(|m| l[j][m] * l[j][m]).sum::<f64>();
        if g[j][j] <= 0.0 || d <= 1e-9 * g[j][j] {
            return false;
        }
        l[j][j] = d.sqrt();
        for i in j + 1..k {
            let s = g[i][j] - (0..j).map(|m| l[i][m] * l[j][m]).sum::<f64>();
            l[i][j] = s / l[j][j];
        }
    }
    true
}

/// The inverse by Gauss–Jordan elimination with partial pivoting.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let k = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..k).map(|j| f64::from(u8::from(i == j))));
            row
        })
        .collect();
    for c in 0..k {
        let pivot = (c..k).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[pivot][c] == 0.0 {
            return None;
        }
        a.swap(c, pivot);
        let p = a[c][c];
        for v in &mut a[c] {
            *v /= p;
        }
        for r in 0..k {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    let pivot_row = a[c].clone();
                    for (v, pv) in a[r].iter_mut().zip(pivot_row) {
                        *v -= f * pv;
                    }
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[k..].to_vec()).collect())
}

fn multiply(m: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    m.iter()
        .map(|r| r.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

/// `B M B` for symmetric `B`.
fn sandwich(b: &[Vec<f64>], m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = b.len();
    let bm: Vec<Vec<f64>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| (0..k).map(|l| b[i][l] * m[l][j]).sum())
                .collect()
        })
        .collect();
    (0..k)
        .map(|i| {
            (0..k)
                .map(|j| (0..k).map(|l| bm[i][l] * b[l][j]).sum())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use c960_balance::rng::Rng;

    use super::*;

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
