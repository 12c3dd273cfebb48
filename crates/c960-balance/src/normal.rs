//! The standard normal distribution: CDF, upper tail and quantile.

/// `P(Z ≤ x)` for a standard normal `Z`.
///
/// # Examples
/// ```
/// use c960_balance::normal::cdf;
/// assert!((cdf(0.0) - 0.5).abs() < 1e-15);
/// assert!((cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-12);
/// ```
#[must_use]
pub fn cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// `P(Z > x)`, accurate far into the tail (no `1 − cdf` cancellation).
#[must_use]
pub fn upper_tail(x: f64) -> f64 {
    0.5 * libm::erfc(x / std::f64::consts::SQRT_2)
}

/// The quantile `z` with `cdf(z) = p`, for `p` in (0, 1): Acklam's rational
/// approximation refined by two Newton steps (about 1e-15 relative).
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
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    assert!(p > 0.0 && p < 1.0, "quantile of {p}: p must be in (0, 1)");
    let low = 0.024_25;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let mut x = if p < low {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - low {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    for _ in 0..2 {
        let density = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        x -= (cdf(x) - p) / density;
    }
    x
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
            assert!((cdf(z) - p).abs() < 1e-12 * p.max(1e-3), "p = {p}: z = {z}");
        }
        // Published values.
        assert!((quantile(0.95) - 1.644_853_626_951_472).abs() < 1e-12);
        assert!((upper_tail(3.0) - 1.349_898_031_630_094_5e-3).abs() < 1e-15);
    }
}
