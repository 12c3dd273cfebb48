//! Repeated searches and what they say together.
//!
//! One node-limited search of a start position is exactly reproducible, but
//! its score carries search noise about as large as the differences between
//! positions. A sweep with `repeats` K > 1 searches every position K times;
//! the repeats differ in one controlled, recorded way: the node budget of
//! repeat `r` of position `sp` is the run's budget N scaled by a factor
//! drawn uniformly from `[1 − jitter, 1 + jitter]` by a generator seeded
//! with (run seed, SP, repeat). Every search starts from a cleared hash
//! (`ucinewgame` and a fresh search), so a repeat replays exactly and does
//! not depend on which process or order ran it.
//!
//! From the repeats: each position's mean, standard deviation and standard
//! error of the score (centipawns, mates as ±10 pawns) and of White's
//! expected score from the engine's WDL (`(W + D/2) / 1000`); and the run's
//! **repeatability**, the split-half correlation of per-position means over
//! random halves of the repeats (median of many splits) with its
//! Spearman–Brown projection to all K repeats.

use std::num::NonZeroU32;

use c960_balance::reliability::split_half;
use c960_core::splitmix64;
use c960_engine::Limit;
use serde::{Deserialize, Serialize};

use crate::SweepRow;

/// Default half width of the node-budget perturbation between repeats.
pub const DEFAULT_JITTER: f64 = 0.25;

/// Random splits the repeatability is the median over.
pub const SPLITS: usize = 201;

/// How a sweep repeats its searches.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepeatPlan {
    /// Searches per position (1: a plain sweep, the budget unperturbed).
    pub repeats: NonZeroU32,
    /// The run's seed: with SP and repeat, it draws each budget.
    pub seed: u64,
    /// Budgets are drawn from `[N (1 − jitter), N (1 + jitter)]`.
    pub jitter: f64,
}

impl RepeatPlan {
    /// One search per position at exactly the run's limit.
    #[must_use]
    pub fn single() -> RepeatPlan {
        RepeatPlan {
            repeats: NonZeroU32::MIN,
            seed: 0,
            jitter: 0.0,
        }
    }

    /// Whether the run repeats its searches.
    #[must_use]
    pub fn is_repeated(&self) -> bool {
        self.repeats.get() > 1
    }

    /// Checks the plan against the run's limit: repeats need a node limit
    /// (so each replays exactly) and a jitter in `(0, 1)`.
    pub fn check(&self, limit: Limit) -> Result<(), String> {
        if !self.is_repeated() {
            return Ok(());
        }
        if !matches!(limit, Limit::Nodes(_)) {
            return Err(format!(
                "--repeats needs a node limit (--nodes), so that each repeat replays exactly; \
                 got {limit}"
            ));
        }
        if !(self.jitter > 0.0 && self.jitter < 1.0) {
            return Err("the repeat jitter must be above 0 and below 1".to_owned());
        }
        Ok(())
    }

    /// The node budget of repeat `repeat` of position `sp`, or `None` when
    /// the run does not repeat (the limit is used as it is).
    #[must_use]
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    pub fn budget(&self, limit: Limit, sp: u32, repeat: u32) -> Option<u64> {
        let Limit::Nodes(nodes) = limit else {
            return None;
        };
        if !self.is_repeated() {
            return None;
        }
        let u = unit_interval(repeat_seed(self.seed, sp, repeat));
        let factor = 1.0 + self.jitter * (2.0 * u - 1.0);
        Some(((nodes as f64 * factor).round() as u64).max(1))
    }

    /// The limit repeat `repeat` of position `sp` searches with.
    #[must_use]
    pub fn limit(&self, limit: Limit, sp: u32, repeat: u32) -> Limit {
        self.budget(limit, sp, repeat).map_or(limit, Limit::Nodes)
    }

    /// The rule in words, for manifests.
    #[must_use]
    pub fn describe(&self, limit: Limit) -> String {
        if !self.is_repeated() {
            return format!("one search per position at {limit}");
        }
        format!(
            "{} searches per position; repeat r of position sp searches a node budget of \
             {limit} times a factor drawn uniformly from [{:.3}, {:.3}] by a generator seeded \
             with (seed {}, sp, r) (see repeat_seed), from a cleared hash",
            self.repeats,
            1.0 - self.jitter,
            1.0 + self.jitter,
            self.seed
        )
    }
}

/// The seed of repeat `repeat` of position `sp` in a run seeded `seed`.
#[must_use]
pub fn repeat_seed(seed: u64, sp: u32, repeat: u32) -> u64 {
    splitmix64(splitmix64(seed ^ 0x5157_4545_5052_4550) ^ (u64::from(sp) << 32) ^ u64::from(repeat))
}

#[allow(clippy::cast_precision_loss)]
fn unit_interval(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// Mean, standard deviation and standard error of some values.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation (n − 1); `None` for one value.
    pub sd: Option<f64>,
    /// The standard error of the mean, `sd / √n`; `None` for one value.
    pub se: Option<f64>,
}

impl Moments {
    /// The moments of `values`, `None` when there are none.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn of(values: &[f64]) -> Option<Moments> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        Some(Moments {
            mean,
            sd: c960_balance::means::sd(values),
            se: c960_balance::means::se(values),
        })
    }
}

/// One position over its repeats.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionMean {
    /// The setup's number (Scharnagl number, or DFRC index).
    pub sp: u32,
    /// Repeats that finished.
    pub repeats: u32,
    /// The score in centipawns for White over the repeats.
    pub cp: Option<Moments>,
    /// White's expected score from the engine's WDL over the repeats.
    pub expected: Option<Moments>,
}

/// Each position's moments over its repeats, by SP; `rows` in any order.
#[must_use]
pub fn summarize(rows: &[SweepRow]) -> Vec<PositionMean> {
    let mut by_sp: std::collections::BTreeMap<u32, Vec<&SweepRow>> =
        std::collections::BTreeMap::new();
    for row in rows {
        by_sp.entry(row.sp).or_default().push(row);
    }
    by_sp
        .into_iter()
        .map(|(sp, rows)| {
            let cp: Vec<f64> = rows.iter().filter_map(|r| r.white_cp()).collect();
            let expected: Vec<f64> = rows.iter().filter_map(|r| r.white_expected()).collect();
            PositionMean {
                sp,
                repeats: u32::try_from(rows.len()).unwrap_or(u32::MAX),
                cp: Moments::of(&cp),
                expected: Moments::of(&expected),
            }
        })
        .collect()
}

/// How well the run's per-position means would repeat: the manifest
/// contract's type.
pub use c960_store::Repeatability;

/// The run's repeatability over the centipawn scores, `None` with fewer
/// than three positions of two or more repeats.
#[must_use]
pub fn repeatability(rows: &[SweepRow], seed: u64) -> Option<Repeatability> {
    let mut by_sp: std::collections::BTreeMap<u32, Vec<(u32, f64)>> =
        std::collections::BTreeMap::new();
    for row in rows {
        if let Some(cp) = row.white_cp() {
            by_sp.entry(row.sp).or_default().push((row.repeat, cp));
        }
    }
    let groups: Vec<Vec<f64>> = by_sp
        .into_values()
        .map(|mut g| {
            // In repeat order, so the splits do not depend on row order.
            g.sort_by_key(|(r, _)| *r);
            g.into_iter().map(|(_, cp)| cp).collect()
        })
        .collect();
    let repeats = groups.iter().map(Vec::len).max().unwrap_or(0);
    split_half(&groups, SPLITS, seed).map(|s| Repeatability {
        split_half: s.half,
        all_repeats: s.whole,
        splits: s.splits,
        positions: s.positions,
        repeats: u32::try_from(repeats).unwrap_or(u32::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_reproducible_spread_and_centred() {
        let plan = RepeatPlan {
            repeats: NonZeroU32::new(8).unwrap(),
            seed: 7,
            jitter: 0.25,
        };
        let limit = Limit::Nodes(1_000_000);
        let budgets: Vec<u64> = (0..960u32)
            .flat_map(|sp| (0..8).map(move |r| (sp, r)))
            .map(|(sp, r)| plan.budget(limit, sp, r).unwrap())
            .collect();
        assert_eq!(plan.budget(limit, 5, 3), plan.budget(limit, 5, 3));
        assert!(budgets.iter().all(|b| (750_000..=1_250_000).contains(b)));
        #[allow(clippy::cast_precision_loss)]
        let mean = budgets.iter().sum::<u64>() as f64 / budgets.len() as f64;
        assert!((mean - 1_000_000.0).abs() < 5_000.0, "mean budget {mean}");
        let distinct: std::collections::BTreeSet<_> = budgets.iter().collect();
        assert!(distinct.len() > budgets.len() * 9 / 10);
        // Another seed draws other budgets.
        let other = RepeatPlan { seed: 8, ..plan };
        assert_ne!(plan.budget(limit, 5, 3), other.budget(limit, 5, 3));
    }

    #[test]
    fn a_plain_sweep_keeps_its_limit() {
        let limit = Limit::Nodes(1000);
        assert_eq!(RepeatPlan::single().limit(limit, 3, 0), limit);
        assert!(RepeatPlan::single().check(Limit::Depth(5)).is_ok());
        let plan = RepeatPlan {
            repeats: NonZeroU32::new(2).unwrap(),
            seed: 1,
            jitter: 0.1,
        };
        assert!(plan.check(Limit::Depth(5)).unwrap_err().contains("--nodes"));
        assert!(plan.check(limit).is_ok());
    }

    #[test]
    fn moments_match_hand_computation() {
        let m = Moments::of(&[10.0, 20.0, 30.0, 40.0]).unwrap();
        assert!((m.mean - 25.0).abs() < 1e-12);
        let sd = (500.0f64 / 3.0).sqrt();
        assert!((m.sd.unwrap() - sd).abs() < 1e-12);
        assert!((m.se.unwrap() - sd / 2.0).abs() < 1e-12);
        assert_eq!(Moments::of(&[3.0]).unwrap().sd, None);
        assert_eq!(Moments::of(&[]), None);
    }
}
