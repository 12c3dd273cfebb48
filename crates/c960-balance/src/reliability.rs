//! How far a per-position ranking can be trusted: correlations, the
//! split-half reliability of per-position means and the Spearman–Brown
//! projection to the whole sample.

use serde::Serialize;

use crate::rng::Rng;

/// Pearson's correlation of paired values; `None` for fewer than three
/// pairs, when either side does not vary, or when the values are so large
/// that the sums of squares overflow.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    assert_eq!(x.len(), y.len(), "paired values of different lengths");
    let n = x.len();
    if n < 3 {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    // Values so large that their squares overflow give no correlation.
    let r = sxy / (sxx * syy).sqrt();
    let finite = sxx.is_finite() && syy.is_finite() && sxy.is_finite() && r.is_finite();
    (sxx > 0.0 && syy > 0.0 && finite).then_some(r)
}

/// Ranks from 1, ties sharing their average rank.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut ranks = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]].total_cmp(&x[order[i]]).is_eq() {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            ranks[k] = rank;
        }
        i = j + 1;
    }
    ranks
}

/// The average ranks of resamples of one set of values, found without
/// sorting each resample: the values are ordered once, and a resample's
/// ranks follow from how often it drew each distinct value. They are the
/// ranks [`ranks`] gives the drawn values, to the bit.
pub(crate) struct ResampleRanks {
    /// Each value's place among the distinct values, from the smallest.
    distinct: Vec<usize>,
    /// Per distinct value: how often the resample drew it.
    drawn: Vec<usize>,
    /// Per distinct value: its average rank in the resample.
    rank: Vec<f64>,
}

impl ResampleRanks {
    pub(crate) fn new(x: &[f64]) -> ResampleRanks {
        let mut order: Vec<usize> = (0..x.len()).collect();
        order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
        let mut distinct = vec![0; x.len()];
        let mut place = 0;
        for (i, &k) in order.iter().enumerate() {
            if i > 0 && x[k].total_cmp(&x[order[i - 1]]).is_ne() {
                place += 1;
            }
            distinct[k] = place;
        }
        let places = if x.is_empty() { 0 } else { place + 1 };
        ResampleRanks {
            distinct,
            drawn: vec![0; places],
            rank: vec![0.0; places],
        }
    }

    /// Writes into `out[slot]` the average rank, within the resample, of
    /// the value at index `picks[slot]`.
    #[allow(clippy::cast_precision_loss)]
    pub(crate) fn ranks(&mut self, picks: &[usize], out: &mut [f64]) {
        self.drawn.fill(0);
        for &k in picks {
            self.drawn[self.distinct[k]] += 1;
        }
        let mut first = 0;
        for (&count, rank) in self.drawn.iter().zip(&mut self.rank) {
            if count > 0 {
                // As `ranks`: ties from place i to j share (i + j) / 2 + 1.
                *rank = (first + first + count - 1) as f64 / 2.0 + 1.0;
                first += count;
            }
        }
        for (slot, &k) in out.iter_mut().zip(picks) {
            *slot = self.rank[self.distinct[k]];
        }
    }
}

/// Spearman's rank correlation (Pearson's on average ranks).
#[must_use]
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    pearson(&ranks(x), &ranks(y))
}

/// The Spearman–Brown projection: the reliability of the mean of `k`
/// parallel measurements, each of reliability `r`: `k·r / (1 + (k − 1)·r)`.
///
/// # Examples
/// ```
/// use c960_balance::reliability::spearman_brown;
/// assert!((spearman_brown(0.7, 2.0) - 0.8235).abs() < 1e-4);
/// assert!((spearman_brown(0.7, 4.0) - 0.9032).abs() < 1e-4);
/// ```
#[must_use]
pub fn spearman_brown(r: f64, k: f64) -> f64 {
    k * r / (1.0 + (k - 1.0) * r)
}

/// The split-half reliability of per-position means.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct SplitHalf {
    /// Median over the random splits of the correlation between the two
    /// halves' per-position means.
    pub half: f64,
    /// The Spearman–Brown projection of `half` to the whole sample
    /// (`2r / (1 + r)`): the reliability of the published means.
    pub whole: f64,
    /// Random splits the median is over.
    pub splits: usize,
    /// Positions with at least two observations (the others take no part).
    pub positions: usize,
}

/// Split-half reliability: each position's observations (games or repeats)
/// are split at random into halves of ⌊n/2⌋ and ⌈n/2⌉, the per-position
/// means of the halves are correlated over positions (Pearson), and the
/// median of `splits` such correlations is projected to the whole by
/// Spearman–Brown. Seeded, so it recomputes exactly. `None` with fewer than
/// three positions of two or more observations or halves that do not vary.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn split_half(groups: &[Vec<f64>], splits: usize, seed: u64) -> Option<SplitHalf> {
    let usable: Vec<&Vec<f64>> = groups.iter().filter(|g| g.len() >= 2).collect();
    if usable.len() < 3 || splits == 0 {
        return None;
    }
    let mut rng = Rng::new(seed);
    let mut rs = Vec::with_capacity(splits);
    let mut order = Vec::new();
    for _ in 0..splits {
        let mut a = Vec::with_capacity(usable.len());
        let mut b = Vec::with_capacity(usable.len());
        for group in &usable {
            order.clear();
            order.extend(0..group.len());
            rng.shuffle(&mut order);
            let half = group.len() / 2;
            let mean =
                |idx: &[usize]| idx.iter().map(|&i| group[i]).sum::<f64>() / idx.len() as f64;
            a.push(mean(&order[..half]));
            b.push(mean(&order[half..]));
        }
        if let Some(r) = pearson(&a, &b) {
            rs.push(r);
        }
    }
    SplitHalf::from_splits(rs, usable.len())
}

impl SplitHalf {
    /// The split-half reliability from the halves' correlations `rs` (one
    /// a split) over `positions` positions: their median, projected to the
    /// whole. `None` without a split.
    pub(crate) fn from_splits(mut rs: Vec<f64>, positions: usize) -> Option<SplitHalf> {
        if rs.is_empty() {
            return None;
        }
        rs.sort_by(f64::total_cmp);
        let half = if rs.len() % 2 == 1 {
            rs[rs.len() / 2]
        } else {
            f64::midpoint(rs[rs.len() / 2 - 1], rs[rs.len() / 2])
        };
        Some(SplitHalf {
            half,
            whole: spearman_brown(half, 2.0),
            splits: rs.len(),
            positions,
        })
    }
}

/// Variance components of per-position means with known standard errors:
/// the signal variance `τ² = Var(means) − mean(se²)` (floored at 0) and the
/// average reliability `τ² / (τ² + se_i²)` of a position's mean.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Components {
    /// Variance of the true per-position values, by moments.
    pub signal: f64,
    /// Mean squared standard error.
    pub noise: f64,
    /// Mean over positions of `τ² / (τ² + se_i²)`.
    pub reliability: f64,
}

/// Variance components (see [`Components`]); `None` for fewer than three
/// positions.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn components(means: &[f64], standard_errors: &[f64]) -> Option<Components> {
    assert_eq!(means.len(), standard_errors.len());
    let n = means.len();
    if n < 3 {
        return None;
    }
    let m = means.iter().sum::<f64>() / n as f64;
    let var = means.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64;
    let noise = standard_errors.iter().map(|s| s * s).sum::<f64>() / n as f64;
    let signal = (var - noise).max(0.0);
    let reliability = standard_errors
        .iter()
        .map(|s| {
            if signal > 0.0 {
                signal / (signal + s * s)
            } else {
                0.0
            }
        })
        .sum::<f64>()
        / n as f64;
    Some(Components {
        signal,
        noise,
        reliability,
    })
}

/// Words for a ranking's reliability, shown next to every ranking: below
/// 0.5 a ranking is mostly noise and says so.
#[must_use]
pub fn describe(reliability: Option<f64>) -> &'static str {
    match reliability {
        None => "reliability unknown (too little data to measure it): do not rank by this",
        Some(r) if r < 0.5 => "reliability below 0.5: this ranking is mostly noise",
        Some(r) if r < 0.8 => "moderate reliability: neighbouring ranks often swap",
        Some(r) if r < 0.9 => "good reliability: broad groups are stable",
        Some(_) => "high reliability: the ranking repeats",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_average_ties() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 100.0]), Some(1.0));
    }

    #[test]
    fn resample_ranks_are_the_ranks_of_the_drawn_values_to_the_bit() {
        let mut rng = Rng::new(11);
        // Ties, a signed zero and repeated draws, as bootstrap resamples have.
        let x: Vec<f64> = (0..200)
            .map(|i| match i % 7 {
                0 => 0.0,
                1 => -0.0,
                _ => (rng.normal() * 4.0).round(),
            })
            .collect();
        let mut resampled = ResampleRanks::new(&x);
        let mut out = vec![0.0; x.len()];
        for _ in 0..50 {
            let picks: Vec<usize> = (0..x.len()).map(|_| rng.index(x.len())).collect();
            resampled.ranks(&picks, &mut out);
            let drawn: Vec<f64> = picks.iter().map(|&k| x[k]).collect();
            let sorted = ranks(&drawn);
            assert!(
                out.iter()
                    .zip(&sorted)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{out:?} {sorted:?}"
            );
        }
        assert!(ResampleRanks::new(&[]).rank.is_empty());
    }

    #[test]
    fn pearson_matches_a_worked_example() {
        // numpy.corrcoef([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])[0, 1]
        let r = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 5.0, 4.0, 5.0]).unwrap();
        assert!((r - 0.774_596_669_241_483_4).abs() < 1e-12);
        assert_eq!(pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), None);
    }

    #[test]
    fn split_half_of_pure_noise_is_near_zero_and_of_signal_near_truth() {
        let mut rng = Rng::new(7);
        // 400 positions, 20 observations each, signal sd 1, noise sd 2:
        // true reliability of a 20-observation mean = 1 / (1 + 4/20) = 0.833.
        let groups: Vec<Vec<f64>> = (0..400)
            .map(|_| {
                let truth = rng.normal();
                (0..20).map(|_| truth + 2.0 * rng.normal()).collect()
            })
            .collect();
        let s = split_half(&groups, 21, 1).unwrap();
        assert!((s.whole - 0.833).abs() < 0.05, "{s:?}");
        let noise: Vec<Vec<f64>> = (0..400)
            .map(|_| (0..20).map(|_| rng.normal()).collect())
            .collect();
        let s = split_half(&noise, 21, 1).unwrap();
        assert!(s.half.abs() < 0.1, "{s:?}");
        // Seeded: the same figure again.
        assert_eq!(split_half(&noise, 21, 1), split_half(&noise, 21, 1));
    }
}
