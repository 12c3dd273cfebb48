//! White's score over games with a 95% interval of Wilson's form, shared
//! by self-play and opening statistics.

use serde::Serialize;

use crate::{LEVEL, normal::two_sided};

/// White's expected score with a 95% interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The estimate.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Mean score with a 95% interval for the trinomial model: each game
/// scores 1, ½ or 0, and the per-game variance is estimated from the
/// observed frequencies (as in engine testing). The interval is of Wilson's
/// form, so it never collapses to a point when every game ended alike (ten
/// draws do not prove a score of exactly ½); with many games it is the
/// normal interval.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn trinomial_interval(wins: u64, draws: u64, losses: u64) -> Option<Interval> {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
    let mean = w + d / 2.0;
    let variance = w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2);
    Some(score_interval(mean, variance, n))
}

/// The 95% interval of Wilson's form for a mean score in [0, 1] over `n`
/// units with per-unit `variance`:
/// `(m + z²/2n) / (1 + z²/n) ± z / (1 + z²/n) · sqrt(v/n + z²/4n²)`.
/// With `v = m(1 − m)` this is Wilson's score interval; its width never
/// falls below what `n` units can tell. One unit says nothing about the
/// spread: the interval is then everything, 0 to 1.
pub fn score_interval(mean: f64, variance: f64, n: f64) -> Interval {
    if n < 2.0 {
        return Interval {
            mean,
            low: 0.0,
            high: 1.0,
        };
    }
    let z = two_sided(LEVEL);
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (mean + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (variance / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        mean,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}
