//! Intervals and tests for a mean score in \[0, 1\] that stay valid however
//! the number of games was chosen, so that play can stop when the data say
//! so (Waudby-Smith & Ramdas 2024, "Estimating means of bounded random
//! variables by betting", JRSS B).
//!
//! - [`confidence_sequence`]: the predictable plug-in empirical-Bernstein
//!   confidence sequence (their Theorem 2, `c = 1/2`), intersected over time.
//!   With probability at least `1 − α` it covers the true mean at every
//!   number of games at once, hence at any data-dependent stopping time.
//! - [`p_above`] / [`p_below`]: anytime-valid p-values from a betting
//!   e-process (predictable bets by the aGRAPA rule), by Ville's
//!   inequality `P(sup K_t ≥ 1/α) ≤ α` under the null.
//!
//! Observations are taken in the order given (game index order).

use serde::Serialize;

/// The largest bet, as a fraction of the largest that keeps the wealth
/// positive.
const BET_CAP: f64 = 0.5;

/// A mean with an interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Sequence {
    /// The plain mean of the observations.
    pub mean: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Observations.
    pub n: u64,
}

impl Sequence {
    /// Half the interval's width.
    #[must_use]
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Running estimates with the priors of the paper: mean ½ and variance ¼
/// before any observation.
struct Running {
    t: f64,
    sum: f64,
    squares: f64,
}

impl Running {
    fn new() -> Running {
        Running {
            t: 0.0,
            sum: 0.0,
            squares: 0.0,
        }
    }

    /// μ̂ after the observations so far.
    fn mean(&self) -> f64 {
        (0.5 + self.sum) / (self.t + 1.0)
    }

    /// σ̂² after the observations so far.
    fn variance(&self) -> f64 {
        (0.25 + self.squares) / (self.t + 1.0)
    }

    fn push(&mut self, x: f64) {
        self.t += 1.0;
        self.sum += x;
        let m = self.mean();
        self.squares += (x - m) * (x - m);
    }
}

/// The `1 − alpha` confidence sequence for the mean of `xs` (each in
/// \[0, 1\]), evaluated after the last observation and intersected with every
/// earlier one. No observation: the whole of \[0, 1\].
///
/// # Panics
/// Panics if an observation is outside \[0, 1\] or `alpha` not in (0, 1).
#[must_use]
pub fn confidence_sequence(xs: &[f64], alpha: f64) -> Sequence {
    let mut state = ConfidenceState::new(alpha);
    for &x in xs {
        state.push(x);
    }
    state.sequence()
}

/// A confidence sequence kept up to date one observation at a time (O(1)
/// per observation), for adaptive play that looks after every round.
#[derive(Clone, Debug)]
pub struct ConfidenceState {
    log_term: f64,
    t: f64,
    sum: f64,
    squares: f64,
    sum_l: f64,
    sum_lx: f64,
    sum_vpsi: f64,
    low: f64,
    high: f64,
}

impl ConfidenceState {
    /// No observation yet, at level `1 − alpha`.
    ///
    /// # Panics
    /// Panics if `alpha` is not in (0, 1).
    #[must_use]
    pub fn new(alpha: f64) -> ConfidenceState {
        assert!(
            alpha > 0.0 && alpha < 1.0,
            "alpha {alpha} must be in (0, 1)"
        );
        ConfidenceState {
            log_term: (2.0 / alpha).ln(),
            t: 0.0,
            sum: 0.0,
            squares: 0.0,
            sum_l: 0.0,
            sum_lx: 0.0,
            sum_vpsi: 0.0,
            low: 0.0,
            high: 1.0,
        }
    }

    /// Takes one more observation.
    ///
    /// # Panics
    /// Panics if `x` is outside \[0, 1\].
    pub fn push(&mut self, x: f64) {
        assert!(
            (0.0..=1.0).contains(&x),
            "observation {x} is outside [0, 1]"
        );
        let running = Running {
            t: self.t,
            sum: self.sum,
            squares: self.squares,
        };
        let t = self.t + 1.0;
        let lambda = (2.0 * self.log_term / (running.variance() * t * (1.0 + t).ln()))
            .sqrt()
            .min(BET_CAP);
        let v = 4.0 * (x - running.mean()).powi(2);
        let psi = (-(1.0 - lambda).ln() - lambda) / 4.0;
        self.sum_l += lambda;
        self.sum_lx += lambda * x;
        self.sum_vpsi += v * psi;
        self.t = t;
        self.sum += x;
        let m = (0.5 + self.sum) / (t + 1.0);
        self.squares += (x - m) * (x - m);
        let centre = self.sum_lx / self.sum_l;
        let half = (self.log_term + self.sum_vpsi) / self.sum_l;
        self.low = self.low.max(centre - half);
        self.high = self.high.min(centre + half);
    }

    /// The sequence after the observations so far.
    #[must_use]
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub fn sequence(&self) -> Sequence {
        let mean = if self.t == 0.0 {
            0.5
        } else {
            self.sum / self.t
        };
        // The running intersection can cross only on an event of
        // probability below alpha; report the point where it did rather
        // than an empty set.
        let (mut low, mut high) = (self.low, self.high);
        if low > high {
            let mid = f64::midpoint(low, high);
            (low, high) = (mid, mid);
        }
        Sequence {
            mean,
            low: low.max(0.0),
            high: high.min(1.0),
            n: self.t as u64,
        }
    }
}

/// Anytime-valid p-value against `H0: mean ≤ m` (evidence that the mean is
/// above `m`), for `m` in (0, 1): `min(1, 1 / max_t K_t)` with the wealth
/// `K_t = Π (1 + λ_i (x_i − m))` of predictable bets `λ_i ∈ [0, ½ / m]`.
#[must_use]
pub fn p_above(xs: &[f64], m: f64) -> f64 {
    p_value(xs, m, 1.0)
}

/// Anytime-valid p-value against `H0: mean ≥ m` (evidence that the mean is
/// below `m`).
#[must_use]
pub fn p_below(xs: &[f64], m: f64) -> f64 {
    p_value(xs, m, -1.0)
}

fn p_value(xs: &[f64], m: f64, direction: f64) -> f64 {
    if m <= 0.0 {
        // Nothing is below 0: `mean ≥ 0` always holds, `mean ≤ 0` only
        // for all-zero data, which never earns evidence against it here.
        return 1.0;
    }
    if m >= 1.0 {
        return 1.0;
    }
    // Bets keep the wealth factor at or above 1 − BET_CAP.
    let cap = if direction > 0.0 {
        BET_CAP / m
    } else {
        BET_CAP / (1.0 - m)
    };
    let mut running = Running::new();
    let mut log_wealth = 0.0f64;
    let mut best = 0.0f64;
    for &x in xs {
        let edge = direction * (running.mean() - m);
        let lambda = (edge / (running.variance() + edge * edge)).clamp(0.0, cap);
        log_wealth += (1.0 + lambda * direction * (x - m)).ln();
        best = best.max(log_wealth);
        running.push(x);
    }
    (-best).exp().min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_narrows_and_contains_the_mean() {
        let xs: Vec<f64> = (0..2000).map(|i| [1.0, 0.5, 0.5, 0.0][i % 4]).collect();
        let small = confidence_sequence(&xs[..100], 0.05);
        let large = confidence_sequence(&xs, 0.05);
        assert!(large.half_width() < small.half_width());
        assert!(large.low < 0.5 && 0.5 < large.high, "{large:?}");
        // The price of validity at every n: wider than the fixed-n normal
        // interval, by about double at 2,000 games.
        let fixed = 1.96 * (0.125f64 / 2000.0).sqrt();
        assert!(
            large.half_width() > fixed && large.half_width() < 2.2 * fixed,
            "{large:?}"
        );
        assert!((confidence_sequence(&[], 0.05).half_width() - 0.5).abs() < 1e-15);
    }

    #[test]
    fn p_values_find_a_real_edge_and_not_a_false_one() {
        let wins: Vec<f64> = (0..400)
            .map(|i| if i % 3 == 0 { 0.5 } else { 1.0 })
            .collect();
        assert!(p_above(&wins, 0.6) < 1e-6);
        assert!(p_below(&wins, 0.6) > 0.5);
        let even: Vec<f64> = (0..400).map(|i| [1.0, 0.0][i % 2]).collect();
        assert!(p_above(&even, 0.5) > 0.05 && p_below(&even, 0.5) > 0.05);
    }
}
