//! How far a ranking by closeness to a reference can be trusted: rank
//! intervals for all positions at once.
//!
//! Positions are ranked by their distance `|θ − r|` from a reference `r`,
//! closest first, equal distances in input order. Each position's estimate
//! with its normal standard error gives an interval for `θ` at level
//! `1 − α/m` (Bonferroni over the `m` positions), so that all `m` intervals
//! hold at once with probability at least `1 − α`. Whenever they do, each
//! distance lies in the interval its estimate allows, and a position's rank
//! lies between one plus the number of positions certainly closer and the
//! number of positions possibly closer (itself included): every rank
//! interval covers its true rank at the same time (the joint rank region of
//! Klein, Wright & Wieczorek 2020). The intervals are conservative: one
//! that spans most positions says the data cannot place the position.
//!
//! A reference that is itself one of the positions (the classical setup,
//! say) is uncertain too: its interval belongs to the same family, and a
//! distance `|θ_j − θ_k|` ranges over the differences the two intervals
//! allow. The reference's own distance is exactly 0.

use crate::normal;

/// What the positions are ranked against: the centre their distances are
/// measured from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Centre {
    /// A number known without error (0 cp, a score of 50 %, or the mean
    /// of many positions, whose error is small against one position's).
    Fixed(f64),
    /// The position at this index, with its own estimate and error.
    Position(usize),
}

/// A position's rank interval: the ranks the data allow, `low..=high`
/// (1 = closest to the reference).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankInterval {
    /// The best rank the data allow.
    pub low: usize,
    /// The worst rank the data allow.
    pub high: usize,
}

impl RankInterval {
    /// How many ranks the interval spans.
    #[must_use]
    pub fn span(&self) -> usize {
        self.high + 1 - self.low
    }

    /// Whether `rank` lies in the interval.
    #[must_use]
    pub fn contains(&self, rank: usize) -> bool {
        (self.low..=self.high).contains(&rank)
    }
}

/// The normal critical value that makes `m` two-sided intervals hold at
/// once with probability at least `level` (Bonferroni).
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn simultaneous_z(m: usize, level: f64) -> f64 {
    normal::quantile(1.0 - (1.0 - level) / (2.0 * m.max(1) as f64))
}

/// Every position's rank interval at joint level `level`, from its
/// `estimates` and standard errors `ses` (same length). An error that is
/// missing, negative or not finite allows any value: such a position can
/// take any rank, and with an uncertain reference every rank is open.
/// An empty input gives an empty answer.
///
/// # Examples
/// ```
/// use c960_balance::rank::{rank_intervals, RankInterval, Centre};
/// // Two positions far apart, one close to 0: their ranks are certain.
/// let r = rank_intervals(&[1.0, 50.0], &[1.0, 1.0], Centre::Fixed(0.0), 0.95);
/// assert_eq!(r, [RankInterval { low: 1, high: 1 }, RankInterval { low: 2, high: 2 }]);
/// ```
#[must_use]
pub fn rank_intervals(
    estimates: &[f64],
    ses: &[f64],
    reference: Centre,
    level: f64,
) -> Vec<RankInterval> {
    rank_intervals_t(
        estimates,
        ses,
        &vec![f64::INFINITY; ses.len()],
        reference,
        level,
    )
}

/// [`rank_intervals`] for standard errors that each have degrees of
/// freedom `dfs` (moderated variances): each position's simultaneous
/// interval uses Student's t on its own degrees of freedom (infinite:
/// normal).
///
/// # Panics
/// When `ses` and `dfs` differ in length.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn rank_intervals_t(
    estimates: &[f64],
    ses: &[f64],
    dfs: &[f64],
    reference: Centre,
    level: f64,
) -> Vec<RankInterval> {
    assert_eq!(
        ses.len(),
        dfs.len(),
        "standard errors and degrees of freedom"
    );
    let m = estimates.len();
    let z = simultaneous_z(m, level);
    let tail = 1.0 - (1.0 - level) / (2.0 * m.max(1) as f64);
    let mut critical: Vec<(f64, f64)> = Vec::new();
    let mut critical_of = |df: f64| {
        if !df.is_finite() {
            return z;
        }
        if let Some(&(_, q)) = critical.iter().find(|(d, _)| d.total_cmp(&df).is_eq()) {
            return q;
        }
        let q = crate::student::quantile(tail, df);
        critical.push((df, q));
        q
    };
    let bounds: Vec<(f64, f64)> = estimates
        .iter()
        .zip(ses)
        .zip(dfs)
        .map(|((&e, &se), &df)| {
            if e.is_finite() && se.is_finite() && se >= 0.0 && df > 0.0 {
                let q = critical_of(df);
                (e - q * se, e + q * se)
            } else {
                (f64::NEG_INFINITY, f64::INFINITY)
            }
        })
        .collect();
    let distances: Vec<(f64, f64)> = (0..m)
        .map(|j| match reference {
            Centre::Fixed(r) => distance_between(bounds[j], (r, r)),
            Centre::Position(k) if k == j => (0.0, 0.0),
            Centre::Position(k) => distance_between(bounds[j], bounds[k]),
        })
        .collect();
    let mut highs: Vec<f64> = distances.iter().map(|d| d.1).collect();
    let mut lows: Vec<f64> = distances.iter().map(|d| d.0).collect();
    highs.sort_by(f64::total_cmp);
    lows.sort_by(f64::total_cmp);
    distances
        .iter()
        .map(|&(low, high)| RankInterval {
            // Certainly closer: its largest distance is below this one's
            // smallest.
            low: 1 + highs.partition_point(|&h| h < low),
            // Possibly closer or tied: its smallest distance is at most
            // this one's largest (this position counts itself).
            high: lows.partition_point(|&l| l <= high).max(1),
        })
        .collect()
}

/// The smallest and largest `|a − b|` for `a` in `x` and `b` in `y`.
fn distance_between(x: (f64, f64), y: (f64, f64)) -> (f64, f64) {
    let (low, high) = (x.0 - y.1, x.1 - y.0);
    let nearest = if low <= 0.0 && high >= 0.0 {
        0.0
    } else {
        low.abs().min(high.abs())
    };
    let farthest = low.abs().max(high.abs());
    (
        nearest,
        if farthest.is_nan() {
            f64::INFINITY
        } else {
            farthest
        },
    )
}

/// The ranks of `values` by distance from `reference` (1 = closest, equal
/// distances in input order).
#[must_use]
pub fn ranks(values: &[f64], reference: f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| {
        (values[a] - reference)
            .abs()
            .total_cmp(&(values[b] - reference).abs())
            .then(a.cmp(&b))
    });
    let mut rank = vec![0; values.len()];
    for (i, &j) in order.iter().enumerate() {
        rank[j] = i + 1;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn overlapping_positions_share_their_possible_ranks() {
        // Estimates 0, 1 and 30 with error 1: z for three intervals at
        // 95 % is 2.39, so the first two can swap and the third cannot.
        let r = rank_intervals(&[0.0, 1.0, 30.0], &[1.0; 3], Centre::Fixed(0.0), 0.95);
        assert_eq!(
            r,
            [
                RankInterval { low: 1, high: 2 },
                RankInterval { low: 1, high: 2 },
                RankInterval { low: 3, high: 3 },
            ]
        );
        // Zero errors: ties stay open, distinct distances are exact.
        let exact = rank_intervals(&[2.0, -2.0, 5.0], &[0.0; 3], Centre::Fixed(0.0), 0.95);
        assert_eq!(exact[2], RankInterval { low: 3, high: 3 });
        assert_eq!(exact[0], RankInterval { low: 1, high: 2 });
        // An unknown error opens every rank.
        let open = rank_intervals(&[0.0, 9.0], &[f64::NAN, 0.1], Centre::Fixed(0.0), 0.95);
        assert_eq!(open[0], RankInterval { low: 1, high: 2 });
        assert!((simultaneous_z(1, 0.95) - 1.959_964).abs() < 1e-6);
    }

    #[test]
    fn an_uncertain_reference_widens_every_interval() {
        let estimates = [10.0, 20.0, 30.0, 60.0];
        let certain = rank_intervals(&estimates, &[1.0; 4], Centre::Fixed(10.0), 0.95);
        assert_eq!(certain[1], RankInterval { low: 2, high: 2 });
        // The same reference as a position with an error of 4: position 1
        // may now be as close as the reference itself (distance 0) or
        // behind position 2; position 3 stays last.
        let ses = [4.0, 1.0, 1.0, 1.0];
        let uncertain = rank_intervals(&estimates, &ses, Centre::Position(0), 0.95);
        assert_eq!(uncertain[0], RankInterval { low: 1, high: 2 });
        assert_eq!(uncertain[1], RankInterval { low: 1, high: 3 });
        assert_eq!(uncertain[3], RankInterval { low: 4, high: 4 });
        assert_eq!(ranks(&[3.0, -1.0, 1.0], 0.0), [3, 1, 2]);
    }

    /// Known truth: true values around 25 cp with a spread of 20 cp and
    /// errors of 1–4 cp, estimates drawn around
    /// them; in at least 95 % of the replications every position's rank
    /// interval holds its true rank, against a fixed reference and against
    /// one of the positions.
    #[test]
    fn rank_intervals_cover_the_true_ranks_of_all_positions_at_once() {
        let mut rng = Rng::new(7);
        let m = 300;
        let truth: Vec<f64> = (0..m).map(|_| 25.0 + 20.0 * rng.normal()).collect();
        let ses: Vec<f64> = [1.0, 2.0, 3.0, 4.0]
            .iter()
            .cycle()
            .take(m)
            .copied()
            .collect();
        for (reference, centre) in [
            (Centre::Fixed(0.0), 0.0),
            (Centre::Fixed(25.0), 25.0),
            (Centre::Position(17), truth[17]),
        ] {
            let true_ranks = ranks(&truth, centre);
            let replications = 200;
            let mut covered = 0;
            let mut spans = 0;
            for _ in 0..replications {
                let estimates: Vec<f64> = truth
                    .iter()
                    .zip(&ses)
                    .map(|(t, se)| t + se * rng.normal())
                    .collect();
                let intervals = rank_intervals(&estimates, &ses, reference, 0.95);
                spans += intervals.iter().map(RankInterval::span).sum::<usize>();
                if intervals
                    .iter()
                    .zip(&true_ranks)
                    .all(|(i, &r)| i.contains(r))
                {
                    covered += 1;
                }
            }
            assert!(
                covered * 100 >= replications * 95,
                "{reference:?}: {covered} of {replications}"
            );
            // Not trivially: on average an interval leaves out over a tenth
            // of the ranks.
            assert!(
                spans * 10 < 9 * replications * m * m,
                "{reference:?}: {spans}"
            );
        }
    }
}
