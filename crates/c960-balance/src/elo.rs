//! Engine A against engine B over colour-reversed pairs: from pentanomial
//! counts, the score, Elo and normalized Elo with 95% intervals from the
//! pair variance, the likelihood of superiority, and the generalized SPRT
//! on the pentanomial model (the method of fishtest and fastchess, after
//! Michel Van den Bergh's notes on the generalized log-likelihood ratio).
//! Counting games into pairs is the game runner's (c960-selfplay's
//! `PairTally`).

use std::{collections::HashMap, fmt, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::{Estimate, LEVEL, normal};

/// The critical value of c960's two-sided intervals.
fn z95() -> f64 {
    normal::two_sided(LEVEL)
}

/// The points of a pair for engine A, as a share of the pair's two points,
/// for the five pentanomial outcomes LL, LD, DD/WL, WD, WW.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Sequential probability ratio test settings: `elo0=E0,elo1=E1,alpha=A,beta=B`
/// with logistic Elo bounds (H0: Elo = E0 against H1: Elo = E1).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// The lower bound of the log-likelihood ratio: `ln(β / (1 − α))`.
    #[must_use]
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound: `ln((1 − β) / α)`.
    #[must_use]
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

impl FromStr for Sprt {
    type Err = String;

    fn from_str(text: &str) -> Result<Sprt, String> {
        let usage = "write elo0=E0,elo1=E1,alpha=A,beta=B, e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05";
        let mut values: HashMap<&str, f64> = HashMap::new();
        for part in text.split(',') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("--sprt: {part:?} is not KEY=VALUE; {usage}"));
            };
            let key = key.trim();
            if !["elo0", "elo1", "alpha", "beta"].contains(&key) {
                return Err(format!("--sprt: unknown key {key:?}; {usage}"));
            }
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: {key}={value:?} is not a number"))?;
            values.insert(key, value);
        }
        let get = |key: &str| {
            values
                .get(key)
                .copied()
                .ok_or_else(|| format!("--sprt: {key} is missing; {usage}"))
        };
        let sprt = Sprt {
            elo0: get("elo0")?,
            elo1: get("elo1")?,
            alpha: get("alpha")?,
            beta: get("beta")?,
        };
        if sprt.elo0 >= sprt.elo1 {
            return Err(format!(
                "--sprt: elo0 {} must be below elo1 {}",
                sprt.elo0, sprt.elo1
            ));
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(format!("--sprt: {name} {p} must lie between 0 and 1"));
            }
        }
        if sprt.alpha + sprt.beta >= 1.0 {
            return Err("--sprt: alpha + beta must be below 1".to_owned());
        }
        Ok(sprt)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// A hypothesis of an SPRT.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hypothesis {
    /// The null hypothesis: Elo = elo0.
    H0,
    /// The alternative: Elo = elo1.
    H1,
}

impl fmt::Display for Hypothesis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hypothesis::H0 => "H0",
            Hypothesis::H1 => "H1",
        })
    }
}

/// Where an SPRT stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    /// The test's settings.
    pub settings: Sprt,
    /// The generalized log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The bound below which H0 is accepted.
    pub lower: f64,
    /// The bound above which H1 is accepted.
    pub upper: f64,
    /// `H0` or `H1` once accepted, else none (the test goes on).
    pub accepted: Option<Hypothesis>,
}

/// Engine A's results against engine B over finished colour-reversed pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchStats {
    /// Finished pairs.
    pub pairs: u64,
    /// Pairs by A's points: LL, LD, DD/WL, WD, WW.
    pub pentanomial: [u64; 5],
    /// Of the DD/WL pairs, those with a win and a loss.
    pub win_loss_pairs: u64,
    /// A's wins, draws and losses in those pairs' games.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// A's losses.
    pub losses: u64,
    /// A's score (points / games), interval from the pair variance.
    pub score: Option<Estimate>,
    /// Logistic Elo of A over B: `−400 log10(1/score − 1)`, interval mapped
    /// from the score's (none when the score or an end is 0 or 1).
    pub elo: Option<Estimate>,
    /// Normalized Elo: `(score − ½) / √(2 σ²) · 800 / ln 10`, σ² the
    /// variance of a pair's score (none when it is 0).
    pub normalized_elo: Option<Estimate>,
    /// Likelihood of superiority: `Φ((score − ½) / √(σ² / pairs))`.
    pub los: Option<f64>,
    /// The SPRT, if run.
    pub sprt: Option<SprtState>,
}

impl MatchStats {
    /// Statistics of pentanomial counts (LL, LD, DD/WL, WD, WW).
    #[must_use]
    pub fn from_pentanomial(
        pentanomial: [u64; 5],
        win_loss_pairs: u64,
        wdl: [u64; 3],
        sprt: Option<Sprt>,
    ) -> MatchStats {
        let pairs: u64 = pentanomial.iter().sum();
        #[allow(clippy::cast_precision_loss)]
        let n = pairs as f64;
        let mut stats = MatchStats {
            pairs,
            pentanomial,
            win_loss_pairs,
            wins: wdl[0],
            draws: wdl[1],
            losses: wdl[2],
            score: None,
            elo: None,
            normalized_elo: None,
            los: None,
            sprt: sprt.map(|settings| {
                let llr = llr(pentanomial, settings);
                let (lower, upper) = (settings.lower(), settings.upper());
                SprtState {
                    settings,
                    llr,
                    lower,
                    upper,
                    accepted: if llr >= upper {
                        Some(Hypothesis::H1)
                    } else if llr <= lower {
                        Some(Hypothesis::H0)
                    } else {
                        None
                    },
                }
            }),
        };
        if pairs == 0 {
            return stats;
        }
        #[allow(clippy::cast_precision_loss)]
        let p: Vec<f64> = pentanomial.iter().map(|&c| c as f64 / n).collect();
        let score: f64 = p.iter().zip(PAIR_SCORES).map(|(p, s)| p * s).sum();
        let variance: f64 = p
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, s)| p * (s - score).powi(2))
            .sum();
        let error = (variance / n).sqrt();
        let (low, high) = (score - z95() * error, score + z95() * error);
        stats.score = Some(Estimate {
            value: score,
            low,
            high,
        });
        let elo = |s: f64| (s > 0.0 && s < 1.0).then(|| -400.0 * (1.0 / s - 1.0).log10());
        if let (Some(value), Some(low), Some(high)) = (elo(score), elo(low), elo(high)) {
            stats.elo = Some(Estimate { value, low, high });
        }
        if variance > 0.0 {
            let nelo = |s: f64| (s - 0.5) / (2.0 * variance).sqrt() * (800.0 / 10f64.ln());
            stats.normalized_elo = Some(Estimate {
                value: nelo(score),
                low: nelo(low),
                high: nelo(high),
            });
            stats.los = Some(normal::cdf((score - 0.5) / error));
        } else {
            // No spread at all: every pair scored the same.
            stats.los = Some(if score > 0.5 {
                1.0
            } else if score < 0.5 {
                0.0
            } else {
                0.5
            });
        }
        stats
    }
}

/// Pairs A won against pairs A lost, `(WW + WD) / (LD + LL)` (fastchess's
/// `PairsRatio`); none when A lost no pair.
#[must_use]
pub fn pairs_ratio(pentanomial: [u64; 5]) -> Option<f64> {
    let [ll, ld, _, wd, ww] = pentanomial;
    #[allow(clippy::cast_precision_loss)]
    (ll + ld > 0).then(|| (ww + wd) as f64 / (ld + ll) as f64)
}

/// Normalized game-pair Elo, `100 · log10((2 WW + WD) / (2 LL + LD))`:
/// an Elo per game pair that depends little on the book's draw rate and
/// bias (the measure of the Stockfish wiki's "Useful data"), with its
/// interval at [`crate::LEVEL`] by the delta method over the pairs (each
/// pair contributes `2·[WW] + [WD]` won and `2·[LL] + [LD]` lost half
/// points). None without a won and a lost half point.
#[must_use]
pub fn game_pair_elo(pentanomial: [u64; 5]) -> Option<Estimate> {
    let [ll, ld, _, wd, ww] = pentanomial;
    let pairs: u64 = pentanomial.iter().sum();
    #[allow(clippy::cast_precision_loss)]
    let (n, [ll, ld, wd, ww]) = (pairs as f64, [ll, ld, wd, ww].map(|c| c as f64));
    let won = (2.0 * ww + wd) / n;
    let lost = (2.0 * ll + ld) / n;
    if won <= 0.0 || lost <= 0.0 {
        return None;
    }
    let var_won = (4.0 * ww + wd) / n - won * won;
    let var_lost = (4.0 * ll + ld) / n - lost * lost;
    // The two counts never both come from one pair: their covariance is
    // −won·lost, which adds 2 to the variance of the log ratio.
    let variance = (var_won / (won * won) + var_lost / (lost * lost) + 2.0) / n;
    let scale = 100.0 / 10f64.ln();
    let value = scale * (won / lost).ln();
    let half = scale * z95() * variance.max(0.0).sqrt();
    Some(Estimate {
        value,
        low: value - half,
        high: value + half,
    })
}

/// The generalized log-likelihood ratio of H1 (score of `elo1`) against
/// H0 (score of `elo0`): `Σ nᵢ ln(p₁ᵢ / p₀ᵢ)`, where `p_s` is the
/// distribution of largest likelihood for the observed pairs among those
/// with mean s. Empty outcomes count 0.001 pairs, so that a test can start.
#[must_use]
pub fn llr(pentanomial: [u64; 5], sprt: Sprt) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let counts: Vec<f64> = pentanomial
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = counts.iter().sum();
    let observed: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let p0 = most_likely(&observed, score(sprt.elo0));
    let p1 = most_likely(&observed, score(sprt.elo1));
    (0..5).map(|i| counts[i] * (p1[i].ln() - p0[i].ln())).sum()
}

/// The distribution over [`PAIR_SCORES`] with mean `s` closest (in
/// likelihood) to `observed`: pᵢ = p̂ᵢ / (1 + θ (aᵢ − s)), θ the root of
/// Σ p̂ᵢ (aᵢ − s) / (1 + θ (aᵢ − s)) = 0 between `−1/(a_max − s)` and
/// `−1/(a_min − s)`, found by bisection (the sum falls as θ grows).
fn most_likely(observed: &[f64], s: f64) -> [f64; 5] {
    let f = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, a)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let mut p = [0.0; 5];
    for (i, (o, a)) in observed.iter().zip(PAIR_SCORES).enumerate() {
        p[i] = o / (1.0 + theta * (a - s));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_likeliest_distribution_has_the_asked_mean() {
        let observed = [0.1, 0.2, 0.4, 0.2, 0.1];
        for s in [0.45, 0.5, 0.52, 0.6] {
            let p = most_likely(&observed, s);
            let mean: f64 = p.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
            assert!((mean - s).abs() < 1e-9, "{s}: {mean}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}
