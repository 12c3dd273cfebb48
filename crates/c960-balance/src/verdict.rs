//! Verdicts for all positions at once, with the false discovery rate
//! controlled (Benjamini & Hochberg 1995).
//!
//! Around a centre `μ` (by default the all-position mean) a band
//! `[μ − δ, μ + δ]` says what counts as balanced. Three claims are possible
//! for a position with true value `θ`: `more-for-white` (`θ > μ + δ`),
//! `less-for-white` (`θ < μ − δ`) and `balanced` (`μ − δ < θ < μ + δ`, an
//! equivalence test: two one-sided tests, TOST). Each claim has a p-value
//! against its complement; a position's candidate is the claim with the
//! smallest, and its p-value is doubled: whatever `θ` is, at most two of the
//! three claims are false, so by the union bound the chance that the
//! candidate is false and its doubled p-value at most `α` is at most `α`.
//! Benjamini–Hochberg over the positions' doubled p-values then gives each
//! position a q-value, and a candidate with `q ≤ level` is the verdict;
//! otherwise the position is `unresolved`. The expected share of false
//! verdicts among all verdicts stays at or below `level` when positions
//! are independent (as separately played games and searches are).

use serde::{Deserialize, Serialize};

use crate::{normal, sequential, student};

/// What the data say about one position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// White's edge is within the band.
    Balanced,
    /// White's edge is above the band.
    MoreForWhite,
    /// White's edge is below the band.
    LessForWhite,
    /// The data do not decide at the stated false discovery rate.
    Unresolved,
}

impl Verdict {
    /// All verdicts, in table order.
    pub const ALL: [Verdict; 4] = [
        Verdict::Balanced,
        Verdict::MoreForWhite,
        Verdict::LessForWhite,
        Verdict::Unresolved,
    ];

    /// The kebab-case name used in tables, pages and flags.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Balanced => "balanced",
            Verdict::MoreForWhite => "more-for-white",
            Verdict::LessForWhite => "less-for-white",
            Verdict::Unresolved => "unresolved",
        }
    }

    /// The verdict with this name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// What counts as balanced: `centre ± half_width`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Band {
    /// The centre (the all-position mean by default).
    pub centre: f64,
    /// Half the band's width, `δ`.
    pub half_width: f64,
}

impl Band {
    /// The lower edge.
    #[must_use]
    pub fn low(&self) -> f64 {
        self.centre - self.half_width
    }

    /// The upper edge.
    #[must_use]
    pub fn high(&self) -> f64 {
        self.centre + self.half_width
    }
}

/// The p-values of the three claims for one position.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Claims {
    /// Against `θ ≤ μ + δ`.
    pub more: f64,
    /// Against `θ ≥ μ − δ`.
    pub less: f64,
    /// Against `θ ∉ (μ − δ, μ + δ)` (the larger of two one-sided p-values).
    pub balanced: f64,
}

impl Claims {
    /// The claims for an estimate with a normal standard error (a fixed
    /// number of observations, or a consensus of raters). An error that is
    /// zero, unknown or not finite supports no claim: identical repeats
    /// measure nothing about the truth, so they prove nothing.
    #[must_use]
    pub fn normal(estimate: f64, se: f64, band: Band) -> Claims {
        if !(se > 0.0 && se.is_finite() && estimate.is_finite()) {
            return Claims {
                more: 1.0,
                less: 1.0,
                balanced: 1.0,
            };
        }
        let above_high = normal::upper_tail((estimate - band.high()) / se);
        let below_low = normal::cdf((estimate - band.low()) / se);
        let above_low = normal::upper_tail((estimate - band.low()) / se);
        let below_high = normal::cdf((estimate - band.high()) / se);
        Claims {
            more: above_high,
            less: below_low,
            balanced: above_low.max(below_high),
        }
    }

    /// The claims for an estimate whose standard error has `df` degrees of
    /// freedom (Student's t; infinite `df` is [`Claims::normal`]), as a
    /// consensus whose variance is moderated position by position has. An
    /// error that is zero, unknown or not finite supports no claim.
    #[must_use]
    pub fn student(estimate: f64, se: f64, df: f64, band: Band) -> Claims {
        if !df.is_finite() {
            return Claims::normal(estimate, se, band);
        }
        if !(se > 0.0 && se.is_finite() && estimate.is_finite() && df > 0.0) {
            return Claims {
                more: 1.0,
                less: 1.0,
                balanced: 1.0,
            };
        }
        let t = |edge: f64| (estimate - edge) / se;
        let above_low = student::upper_tail(t(band.low()), df);
        let below_high = student::cdf(t(band.high()), df);
        Claims {
            more: student::upper_tail(t(band.high()), df),
            less: student::cdf(t(band.low()), df),
            balanced: above_low.max(below_high),
        }
    }

    /// The claims for game scores in \[0, 1\] from anytime-valid p-values,
    /// valid however the number of games was chosen.
    #[must_use]
    pub fn anytime(scores: &[f64], band: Band) -> Claims {
        Claims {
            more: sequential::p_above(scores, band.high()),
            less: sequential::p_below(scores, band.low()),
            balanced: sequential::p_above(scores, band.low())
                .max(sequential::p_below(scores, band.high())),
        }
    }

    /// The candidate claim and its (doubled) p-value.
    #[must_use]
    pub fn candidate(&self) -> (Verdict, f64) {
        let mut best = (Verdict::MoreForWhite, self.more);
        if self.less < best.1 {
            best = (Verdict::LessForWhite, self.less);
        }
        if self.balanced < best.1 {
            best = (Verdict::Balanced, self.balanced);
        }
        (best.0, (2.0 * best.1).min(1.0))
    }
}

/// One position's verdict.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The verdict.
    pub verdict: Verdict,
    /// The claim the data lean to, whether or not it is significant.
    pub candidate: Verdict,
    /// The candidate's p-value (doubled, see the module docs).
    pub p_value: f64,
    /// The Benjamini–Hochberg q-value.
    pub q_value: f64,
}

/// Benjamini–Hochberg adjusted p-values (q-values), in input order:
/// `q_(k) = min over j ≥ k of m·p_(j) / j`, capped at 1.
///
/// # Examples
/// ```
/// use c960_balance::verdict::q_values;
/// let q = q_values(&[0.01, 0.04, 0.03, 0.5]);
/// let expected = [0.04, 0.16 / 3.0, 0.16 / 3.0, 0.5];
/// assert!(q.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-15));
/// ```
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn q_values(p: &[f64]) -> Vec<f64> {
    let m = p.len() as f64;
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut q = vec![1.0; p.len()];
    let mut running = 1.0f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min(p[i] * m / (rank + 1) as f64);
        q[i] = running.min(1.0);
    }
    q
}

/// Verdicts for every position from its claims, at false discovery rate
/// `level`.
#[must_use]
pub fn decide(claims: &[Claims], level: f64) -> Vec<Decision> {
    let candidates: Vec<(Verdict, f64)> = claims.iter().map(Claims::candidate).collect();
    let p: Vec<f64> = candidates.iter().map(|c| c.1).collect();
    let q = q_values(&p);
    candidates
        .iter()
        .zip(q)
        .map(|(&(candidate, p_value), q_value)| Decision {
            verdict: if q_value <= level {
                candidate
            } else {
                Verdict::Unresolved
            },
            candidate,
            p_value,
            q_value,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_values_match_an_independent_computation() {
        // Benjamini–Hochberg by hand: m·p_(k)/k, then running minima from the top.
        let p = [
            0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216,
        ];
        let expected = [
            0.01,
            0.04,
            0.084,
            0.084,
            0.084,
            0.1,
            0.105_714_285_714_285_7,
            0.216,
            0.216,
            0.216,
        ];
        for (q, e) in q_values(&p).iter().zip(expected) {
            assert!((q - e).abs() < 1e-12, "{q} vs {e}");
        }
    }

    #[test]
    fn clear_cases_get_their_verdicts() {
        let band = Band {
            centre: 0.54,
            half_width: 0.02,
        };
        let claims = [
            Claims::normal(0.60, 0.005, band),
            Claims::normal(0.48, 0.005, band),
            Claims::normal(0.54, 0.002, band),
            Claims::normal(0.56, 0.05, band),
        ];
        let verdicts: Vec<Verdict> = decide(&claims, 0.05).iter().map(|d| d.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::MoreForWhite,
                Verdict::LessForWhite,
                Verdict::Balanced,
                Verdict::Unresolved
            ]
        );
        // Few degrees of freedom make the same estimate less certain.
        let normal = Claims::normal(0.60, 0.02, band);
        let t = Claims::student(0.60, 0.02, 5.0, band);
        assert!(t.more > normal.more, "{t:?} {normal:?}");
        assert_eq!(Claims::student(0.60, 0.02, f64::INFINITY, band), normal);
        assert_eq!(
            Verdict::from_name("more-for-white"),
            Some(Verdict::MoreForWhite)
        );
    }
}
