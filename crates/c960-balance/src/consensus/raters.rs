//! The raters before they are combined: each checked (enough positions,
//! finite scores within bounds, a spread that is more than search noise),
//! copies of one another merged into one, every rater put on one scale
//! over the positions all of them score, and none allowed to run against
//! the others.

use serde::Serialize;
use thiserror::Error;

use super::EngineMeans;
use crate::reliability::{self, pearson};

/// The fewest positions a rater must score, and two raters must share,
/// for its scale and its agreement with the others to be estimated.
pub const MIN_POSITIONS: usize = 10;

/// The largest centipawn score a rater may give (16-bit, the range every
/// UCI engine prints in); anything beyond is a broken table or engine.
pub const MAX_SCORE: f64 = 32_767.0;

/// Two raters whose per-position means correlate at least this much over
/// the positions they share are the same rater twice (a copy, a relabelled
/// copy, or the same engine under settings that do not change its
/// searches) and are merged into one. Distinct engines and budgets agree
/// at 0.6–0.8; repeats of one search at other settings far above.
pub const COPY_CORRELATION: f64 = 0.95;

/// Why raters cannot be combined: each names the rater.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RaterError {
    /// Too few positions to put the rater on the common scale.
    #[error(
        "rater {rater}: scores only {positions} {}; a rater needs at least {MIN_POSITIONS} to \
         be put on the common scale",
        if *.positions == 1 { "position" } else { "positions" }
    )]
    TooFewPositions {
        /// The rater.
        rater: String,
        /// Positions it scores.
        positions: usize,
    },
    /// A score that is not a finite centipawn value within bounds.
    #[error(
        "rater {rater}: a score of {value:.6e} cp is outside ±{MAX_SCORE} (a broken table or \
         engine)"
    )]
    OutOfBounds {
        /// The rater.
        rater: String,
        /// The score.
        value: f64,
    },
    /// Every position gets the same score, or the spread is all noise.
    #[error(
        "rater {rater}: its scores do not vary beyond its search noise, so it says nothing about \
         which position is better"
    )]
    NoSpread {
        /// The rater.
        rater: String,
    },
    /// A rater whose scores run against the others' beyond chance.
    #[error(
        "rater {rater}: its scores run against the other raters' (r = {r:.2} with them, beyond \
         chance): a score with its sign flipped? Every rater must rank the positions the same \
         way round"
    )]
    AgainstTheOthers {
        /// The rater.
        rater: String,
        /// Its correlation with the others (the mean of the pairwise ones).
        r: f64,
    },
    /// Raters with too few positions in common.
    #[error(
        "raters {a} and {b} share only {shared} {}; raters are put on one scale over the \
         positions all of them score, at least {MIN_POSITIONS}",
        if *.shared == 1 { "position" } else { "positions" }
    )]
    TooLittleOverlap {
        /// One rater.
        a: String,
        /// The other.
        b: String,
        /// Positions they share.
        shared: usize,
    },
}

/// A rater found to be a copy of another and merged into it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Merged {
    /// The rater kept (the first given).
    pub kept: String,
    /// The copy merged into it.
    pub copy: String,
    /// Their correlation over the positions they share.
    pub pearson: f64,
    /// Positions they share.
    pub shared: usize,
}

impl std::fmt::Display for Merged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rater {} is a copy of {} (r = {:.3} over {} shared positions): merged into it, \
             counted once",
            self.copy, self.kept, self.pearson, self.shared
        )
    }
}

/// Checks every rater's scores: finite and within ±[`MAX_SCORE`].
pub(super) fn check_bounds(engines: &[EngineMeans]) -> Result<(), RaterError> {
    for engine in engines {
        if let Some(&value) = engine
            .means
            .iter()
            .flatten()
            .find(|v| !v.is_finite() || v.abs() > MAX_SCORE)
        {
            return Err(RaterError::OutOfBounds {
                rater: engine.name.clone(),
                value,
            });
        }
    }
    Ok(())
}

/// Checks that every one of several raters can be put on the common
/// scale: enough positions, and scores that vary.
pub(super) fn check_each(engines: &[EngineMeans]) -> Result<(), RaterError> {
    for engine in engines {
        let present: Vec<f64> = engine.means.iter().flatten().copied().collect();
        if present.len() < MIN_POSITIONS {
            return Err(RaterError::TooFewPositions {
                rater: engine.name.clone(),
                positions: present.len(),
            });
        }
        if present.iter().all(|v| v.total_cmp(&present[0]).is_eq()) {
            return Err(RaterError::NoSpread {
                rater: engine.name.clone(),
            });
        }
    }
    Ok(())
}

/// The pairs of means two raters share.
fn shared(a: &[Option<f64>], b: &[Option<f64>]) -> (Vec<f64>, Vec<f64>) {
    a.iter()
        .zip(b)
        .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
        .unzip()
}

/// Merges raters that are copies of an earlier one (see
/// [`COPY_CORRELATION`]): each copy's means fill the positions its
/// original lacks, and where both score a position their mean is taken
/// with the larger standard error. Returns the raters left and the merges.
pub(super) fn merge_copies(engines: &[EngineMeans]) -> (Vec<EngineMeans>, Vec<Merged>) {
    let mut kept: Vec<EngineMeans> = Vec::new();
    // Each kept rater's members, to average where several score a position.
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut merged = Vec::new();
    for (index, engine) in engines.iter().enumerate() {
        // Identical scores are a copy however few positions they share;
        // near-identical ones need enough positions to be told apart.
        let copy_of = kept.iter().position(|k| {
            let (x, y) = shared(&k.means, &engine.means);
            x.len() >= 3 && x == y
                || x.len() >= MIN_POSITIONS
                    && pearson(&x, &y).is_some_and(|r| r >= COPY_CORRELATION)
        });
        if let Some(k) = copy_of {
            let (x, y) = shared(&kept[k].means, &engine.means);
            merged.push(Merged {
                kept: kept[k].name.clone(),
                copy: engine.name.clone(),
                pearson: pearson(&x, &y).unwrap_or(1.0),
                shared: x.len(),
            });
            members[k].push(index);
        } else {
            kept.push(engine.clone());
            members.push(vec![index]);
        }
    }
    for (rater, group) in kept.iter_mut().zip(&members) {
        if group.len() == 1 {
            continue;
        }
        for i in 0..rater.means.len() {
            let scores: Vec<(f64, Option<f64>)> = group
                .iter()
                .filter_map(|&m| Some((engines[m].means[i]?, engines[m].ses[i])))
                .collect();
            if scores.is_empty() {
                continue;
            }
            #[allow(clippy::cast_precision_loss)]
            let mean = scores.iter().map(|s| s.0).sum::<f64>() / scores.len() as f64;
            rater.means[i] = Some(mean);
            rater.ses[i] = scores.iter().filter_map(|s| s.1).reduce(f64::max);
        }
    }
    (kept, merged)
}

/// How one rater is put on the common scale.
#[derive(Clone, Debug)]
pub(super) struct Scale {
    /// Mean over the common positions.
    pub mean: f64,
    /// Signal standard deviation over them.
    pub signal_sd: f64,
    /// Noise variance over signal variance.
    pub noise: f64,
    /// Pooled standardized noise standard deviation.
    pub pooled: f64,
}

/// The positions every rater scores (at least [`MIN_POSITIONS`]).
pub(super) fn common_positions(engines: &[EngineMeans]) -> Result<Vec<usize>, RaterError> {
    let positions = engines.first().map_or(0, |e| e.means.len());
    let common: Vec<usize> = (0..positions)
        .filter(|&i| engines.iter().all(|e| e.means[i].is_some()))
        .collect();
    if common.len() < MIN_POSITIONS && engines.len() > 1 {
        // Name the pair that shares least.
        let mut worst = (0, 1, usize::MAX);
        for a in 0..engines.len() {
            for b in a + 1..engines.len() {
                let n = shared(&engines[a].means, &engines[b].means).0.len();
                if n < worst.2 {
                    worst = (a, b, n);
                }
            }
        }
        let n = if worst.2 >= MIN_POSITIONS {
            common.len()
        } else {
            worst.2
        };
        return Err(RaterError::TooLittleOverlap {
            a: engines[worst.0].name.clone(),
            b: engines[worst.1].name.clone(),
            shared: n,
        });
    }
    Ok(common)
}

/// A rater's scale over the `common` positions: the mean and the signal
/// standard deviation (the spread of its means with the repeat noise taken
/// out, by variance components). Search noise is much the same for every
/// position of a rater, and per-position errors from a few repeats are too
/// noisy to weight by, so every position gets the rater's pooled error.
#[allow(clippy::cast_precision_loss)]
pub(super) fn scale(engine: &EngineMeans, common: &[usize]) -> Result<Scale, RaterError> {
    let means: Vec<f64> = common.iter().filter_map(|&i| engine.means[i]).collect();
    let ses: Vec<f64> = common
        .iter()
        .map(|&i| engine.ses[i].unwrap_or(0.0))
        .collect();
    let no_spread = || RaterError::NoSpread {
        rater: engine.name.clone(),
    };
    let parts = reliability::components(&means, &ses).ok_or_else(no_spread)?;
    if parts.signal <= 0.0 || !parts.signal.is_finite() {
        return Err(no_spread());
    }
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    let sd = parts.signal.sqrt();
    Ok(Scale {
        mean,
        signal_sd: sd,
        noise: parts.noise / parts.signal,
        pooled: parts.noise.sqrt() / sd,
    })
}

/// Every rater's scale over the positions all of them score, and its
/// standardized means (by rater, then position).
pub(super) type Standardized = (Vec<Scale>, Vec<Vec<Option<f64>>>);

/// Puts every rater on one scale (see [`scale`]) over the positions all of
/// them score (a lone rater over its own).
pub(super) fn standardized(engines: &[EngineMeans]) -> Result<Standardized, RaterError> {
    let common = if engines.len() == 1 {
        (0..engines[0].means.len())
            .filter(|&i| engines[0].means[i].is_some())
            .collect()
    } else {
        common_positions(engines)?
    };
    let scales = engines
        .iter()
        .map(|e| scale(e, &common))
        .collect::<Result<Vec<_>, _>>()?;
    let z = engines
        .iter()
        .zip(&scales)
        .map(|(e, s)| {
            e.means
                .iter()
                .map(|m| m.map(|m| (m - s.mean) / s.signal_sd))
                .collect()
        })
        .collect();
    Ok((scales, z))
}

/// Refuses a rater that runs against the others: one whose mean
/// correlation with them is negative beyond chance (one-sided, 5 %, by
/// Fisher's z over the positions they share), as a score with its sign
/// flipped is; the most negative is named. A rater merely uncorrelated
/// with the others (noise on a few positions) is kept: it shares nothing,
/// so its own view takes all its signal and its weight is tiny.
pub(super) fn check_direction(z: &[Vec<Option<f64>>], names: &[String]) -> Result<(), RaterError> {
    let k = z.len();
    if k < 2 {
        return Ok(());
    }
    let mut worst: Option<(usize, f64)> = None;
    for e in 0..k {
        let pairs: Vec<(f64, usize)> = (0..k)
            .filter(|&f| f != e)
            .filter_map(|f| {
                let (x, y) = shared(&z[e], &z[f]);
                Some((pearson(&x, &y)?, x.len()))
            })
            .collect();
        let Some(fewest) = pairs.iter().map(|p| p.1).min() else {
            continue;
        };
        #[allow(clippy::cast_precision_loss)]
        let r = pairs.iter().map(|p| p.0).sum::<f64>() / pairs.len() as f64;
        #[allow(clippy::cast_precision_loss)]
        let z_score =
            r.clamp(-0.999_999, 0.999_999).atanh() * (fewest as f64 - 3.0).max(0.0).sqrt();
        if z_score < -AGAINST_Z && worst.is_none_or(|(_, w)| r < w) {
            worst = Some((e, r));
        }
    }
    match worst {
        Some((e, r)) => Err(RaterError::AgainstTheOthers {
            rater: names[e].clone(),
            r,
        }),
        None => Ok(()),
    }
}

/// The one-sided 5 % point of the standard normal: a rater's mean
/// correlation with the others is refused when its Fisher z falls below
/// minus this.
const AGAINST_Z: f64 = 1.644_853_626_951_472_2;

/// The smallest own-view share a rater is given: no rater is taken to be
/// the truth itself, which would give it all the weight and an interval
/// of nothing.
pub(super) const MIN_OWN: f64 = 0.01;

/// The largest own-view share a rater is given, so that a rater that
/// shares next to nothing keeps a finite, tiny weight.
pub(super) const MAX_OWN: f64 = 0.99;

/// Each rater's own-view share `η_e² = 1 − λ_e²` from the covariances of
/// the standardized raters over the positions each pair shares (noise is
/// independent between raters, so it leaves them unbiased):
/// `C_ef = λ_e·λ_f`. With three or more raters `λ_e²` is the mean of
/// `C_ef·C_eg / C_fg` over the pairs of other raters whose covariance is
/// clearly positive; with two, both take `λ² = C_12`; with one, 0.
#[allow(clippy::cast_precision_loss)]
pub(super) fn own_views(z: &[Vec<Option<f64>>]) -> Vec<f64> {
    let k = z.len();
    let mut c = vec![vec![f64::NAN; k]; k];
    for e in 0..k {
        for f in e + 1..k {
            let (first, second) = shared(&z[e], &z[f]);
            if first.len() >= 3 {
                let n = first.len() as f64;
                let (ma, mb) = (
                    first.iter().sum::<f64>() / n,
                    second.iter().sum::<f64>() / n,
                );
                let cov = first
                    .iter()
                    .zip(&second)
                    .map(|(a, b)| (a - ma) * (b - mb))
                    .sum::<f64>()
                    / (n - 1.0);
                c[e][f] = cov;
                c[f][e] = cov;
            }
        }
    }
    let clamp = |shared: f64| (1.0 - shared).clamp(MIN_OWN, MAX_OWN);
    (0..k)
        .map(|e| {
            if k == 1 {
                return 0.0;
            }
            if k == 2 {
                let f = 1 - e;
                return clamp(if c[e][f].is_finite() { c[e][f] } else { 0.0 });
            }
            // A rater that does not covary with the others on average
            // shares nothing with them (its products of covariances would
            // read as a loading).
            let with_others: f64 = (0..k)
                .filter(|&f| f != e && c[e][f].is_finite())
                .map(|f| c[e][f])
                .sum();
            if with_others <= 0.0 {
                return MAX_OWN;
            }
            let mut shared = Vec::new();
            for f in 0..k {
                for g in f + 1..k {
                    if f != e && g != e && c[f][g] > 0.05 {
                        let s = c[e][f] * c[e][g] / c[f][g];
                        if s.is_finite() {
                            shared.push(s);
                        }
                    }
                }
            }
            if shared.is_empty() {
                MAX_OWN
            } else {
                clamp(shared.iter().sum::<f64>() / shared.len() as f64)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::RaterError;

    #[test]
    fn a_rater_with_one_position_is_refused_in_the_singular() {
        let few = |positions| {
            RaterError::TooFewPositions {
                rater: "sf".to_owned(),
                positions,
            }
            .to_string()
        };
        assert!(
            few(1).starts_with("rater sf: scores only 1 position; "),
            "{}",
            few(1)
        );
        assert!(
            few(2).starts_with("rater sf: scores only 2 positions; "),
            "{}",
            few(2)
        );
        let overlap = |shared| {
            RaterError::TooLittleOverlap {
                a: "a".to_owned(),
                b: "b".to_owned(),
                shared,
            }
            .to_string()
        };
        assert!(
            overlap(1).contains("share only 1 position; "),
            "{}",
            overlap(1)
        );
        assert!(
            overlap(2).contains("share only 2 positions; "),
            "{}",
            overlap(2)
        );
    }
}
