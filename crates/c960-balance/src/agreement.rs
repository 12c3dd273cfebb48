//! How far one per-position measurement agrees with another made
//! independently: Pearson's and Spearman's correlations with percentile
//! bootstrap intervals over positions, the overlap of the top and bottom
//! deciles, and the offset and scale between the two. Also the standardized
//! mean of several independent tables, the yardstick that is steadier than
//! any one of them.

use std::collections::BTreeMap;

use serde::Serialize;

pub use crate::Estimate;
use crate::{
    reliability::{ResampleRanks, pearson, spearman},
    rng::Rng,
};

/// Agreement of `ours` with `theirs` over the positions both have.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Comparison {
    /// Positions compared.
    pub positions: usize,
    /// Pearson's r.
    pub pearson: Estimate,
    /// Spearman's rank correlation.
    pub spearman: Estimate,
    /// Share of their top decile (highest values) that is in ours.
    pub top_decile: f64,
    /// Share of their bottom decile that is in ours.
    pub bottom_decile: f64,
    /// Mean of ours minus mean of theirs (in our units when theirs are in
    /// the same units).
    pub offset: f64,
    /// Ours per unit of theirs: the slope of ours on theirs by least
    /// squares.
    pub scale: f64,
    /// The confidence level of the intervals.
    pub level: f64,
    /// Bootstrap resamples drawn.
    pub resamples: usize,
}

/// Bootstrap settings: resamples, seed and confidence level.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Bootstrap {
    /// Resamples of the positions.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
    /// Confidence level of the intervals (0.95).
    pub level: f64,
}

impl Default for Bootstrap {
    fn default() -> Bootstrap {
        Bootstrap {
            resamples: 2000,
            seed: 0,
            level: crate::LEVEL,
        }
    }
}

/// Compares paired values (`ours[i]` and `theirs[i]` belong to one
/// position). `None` with fewer than 10 pairs or no spread in either.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn compare(ours: &[f64], theirs: &[f64], bootstrap: Bootstrap) -> Option<Comparison> {
    assert_eq!(ours.len(), theirs.len(), "values must be paired");
    let count = ours.len();
    if count < 10 {
        return None;
    }
    let r = pearson(ours, theirs)?;
    let rho = spearman(ours, theirs)?;
    let mut rng = Rng::new(bootstrap.seed);
    let (mut rs, mut rhos) = (Vec::new(), Vec::new());
    let (mut ours_drawn, mut theirs_drawn) = (vec![0.0; count], vec![0.0; count]);
    // Each resample's ranks come from one ordering of each side (Spearman's
    // rank correlation of a resample without sorting it).
    let (mut ours_ranks, mut theirs_ranks) = (ResampleRanks::new(ours), ResampleRanks::new(theirs));
    let (mut ours_ranked, mut theirs_ranked) = (vec![0.0; count], vec![0.0; count]);
    let mut picks = vec![0; count];
    for _ in 0..bootstrap.resamples {
        for (slot, pick) in picks.iter_mut().enumerate() {
            *pick = rng.index(count);
            ours_drawn[slot] = ours[*pick];
            theirs_drawn[slot] = theirs[*pick];
        }
        ours_ranks.ranks(&picks, &mut ours_ranked);
        theirs_ranks.ranks(&picks, &mut theirs_ranked);
        // A resample without spread has no correlation; it is skipped.
        if let (Some(pe), Some(sp)) = (
            pearson(&ours_drawn, &theirs_drawn),
            pearson(&ours_ranked, &theirs_ranked),
        ) {
            rs.push(pe);
            rhos.push(sp);
        }
    }
    let interval = |value: f64, mut draws: Vec<f64>| {
        let (low, high) = percentiles(&mut draws, bootstrap.level).unwrap_or((value, value));
        Estimate { value, low, high }
    };
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mx, my) = (mean(ours), mean(theirs));
    let sxy: f64 = ours
        .iter()
        .zip(theirs)
        .map(|(a, b)| (a - mx) * (b - my))
        .sum();
    let syy: f64 = theirs.iter().map(|b| (b - my).powi(2)).sum();
    let rounded = |e: Estimate| Estimate {
        value: significant(e.value),
        low: significant(e.low),
        high: significant(e.high),
    };
    Some(Comparison {
        positions: count,
        pearson: rounded(interval(r, rs)),
        spearman: rounded(interval(rho, rhos)),
        top_decile: significant(decile_overlap(ours, theirs, true)),
        bottom_decile: significant(decile_overlap(ours, theirs, false)),
        offset: significant(mx - my),
        scale: significant(sxy / syy),
        level: bootstrap.level,
        resamples: bootstrap.resamples,
    })
}

/// `x` to 12 significant digits, and 0 below 1e-9 in size: far beyond
/// what any figure here means, and short enough that its JSON text reads
/// back as exactly this number (a recorded comparison is the one it was
/// written from).
#[must_use]
pub fn significant(x: f64) -> f64 {
    if x.abs() < 1e-9 {
        return 0.0;
    }
    if !x.is_finite() {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// The `(1 − level)/2` and `(1 + level)/2` percentiles of `draws`.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation
)]
fn percentiles(draws: &mut [f64], level: f64) -> Option<(f64, f64)> {
    if draws.is_empty() {
        return None;
    }
    draws.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let pos = q * (draws.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        draws[lo] + (draws[hi] - draws[lo]) * (pos - pos.floor())
    };
    Some((at((1.0 - level) / 2.0), at(f64::midpoint(1.0, level))))
}

/// Share of the top (or bottom) tenth of `x` that is also in that of `y`
/// (NaN with fewer than ten values).
#[must_use]
#[allow(clippy::cast_precision_loss, clippy::many_single_char_names)]
pub fn decile_overlap(x: &[f64], y: &[f64], top: bool) -> f64 {
    let k = x.len() / 10;
    if k == 0 {
        return f64::NAN;
    }
    let pick = |v: &[f64]| {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
        if top {
            order.reverse();
        }
        order.truncate(k);
        order
    };
    let (a, b) = (pick(x), pick(y));
    a.iter().filter(|i| b.contains(i)).count() as f64 / k as f64
}

/// Pearson's r from which a table is taken for the very measurement it
/// is compared with (a copy, or a rescaling of it) rather than an
/// independent one: independent analyses of the 960 positions agree far
/// less (r = 0.68–0.90).
pub const SAME_MEASUREMENT: f64 = 0.999_999;

/// Why two tables give no comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoComparison {
    /// They share fewer than ten positions.
    TooFew {
        /// The positions they share.
        shared: usize,
    },
    /// Ours has the same value at every shared position.
    OursFlat {
        /// The positions they share.
        shared: usize,
    },
    /// Theirs has the same value at every shared position.
    TheirsFlat {
        /// The positions they share.
        shared: usize,
    },
    /// Ours holds a value so large that its square overflows, so no
    /// statistic of it can be computed.
    OursOverflows {
        /// The value.
        value: f64,
    },
    /// Theirs holds such a value.
    TheirsOverflows {
        /// The value.
        value: f64,
    },
}

impl NoComparison {
    /// Why, in one line, naming `ours` and `theirs`.
    #[must_use]
    pub fn describe(self, ours: &str, theirs: &str) -> String {
        match self {
            NoComparison::TooFew { shared } => {
                format!("{ours} and {theirs} share {shared} positions; at least 10 are needed")
            }
            NoComparison::OursFlat { shared } => format!(
                "{ours} has no spread: the same value at all {shared} positions it shares \
                 with {theirs}"
            ),
            NoComparison::TheirsFlat { shared } => format!(
                "{theirs} has no spread: the same value at all {shared} positions it shares \
                 with {ours}"
            ),
            NoComparison::OursOverflows { value } => format!(
                "{ours} holds the value {value:e}, too large for any statistic (its square \
                 overflows)"
            ),
            NoComparison::TheirsOverflows { value } => format!(
                "{theirs} holds the value {value:e}, too large for any statistic (its square \
                 overflows)"
            ),
        }
    }
}

/// The largest value whose statistics can be computed: the sum of the
/// squares of a thousand values this size stays finite.
const OVERFLOW: f64 = 1e150;

/// `ours` against `theirs` (values by SP) over the SPs both have:
/// [`compare`] of the paired values, or why there is none.
///
/// # Errors
///
/// Fewer than ten shared positions, either side without spread over
/// them, or a value too large for any statistic.
pub fn compare_by_sp(
    ours: &BTreeMap<u32, f64>,
    theirs: &BTreeMap<u32, f64>,
    bootstrap: Bootstrap,
) -> Result<Comparison, NoComparison> {
    let (x, y): (Vec<f64>, Vec<f64>) = ours
        .iter()
        .filter_map(|(sp, v)| theirs.get(sp).map(|t| (*v, *t)))
        .unzip();
    let shared = x.len();
    let flat = |v: &[f64]| v.iter().all(|a| a.to_bits() == v[0].to_bits());
    // Sums of squares of values past 1e150 overflow; no table of balance
    // holds such numbers.
    let huge = |v: &[f64]| v.iter().copied().find(|a| a.abs() > OVERFLOW);
    if let Some(value) = huge(&x) {
        Err(NoComparison::OursOverflows { value })
    } else if let Some(value) = huge(&y) {
        Err(NoComparison::TheirsOverflows { value })
    } else if shared < 10 {
        Err(NoComparison::TooFew { shared })
    } else if flat(&y) {
        Err(NoComparison::TheirsFlat { shared })
    } else if flat(&x) {
        Err(NoComparison::OursFlat { shared })
    } else {
        compare(&x, &y, bootstrap).ok_or(NoComparison::TooFew { shared })
    }
}

/// [`standardized_mean`] of tables given as values by SP (0..960), as
/// values by SP.
#[must_use]
pub fn standardized_mean_by_sp(tables: &[&BTreeMap<u32, f64>]) -> BTreeMap<u32, f64> {
    let columns: Vec<Vec<Option<f64>>> = tables
        .iter()
        .map(|t| (0..960).map(|sp| t.get(&sp).copied()).collect())
        .collect();
    standardized_mean(&columns)
        .into_iter()
        .zip(0u32..)
        .filter_map(|(v, sp)| v.map(|v| (sp, v)))
        .collect()
}

/// The standardized mean of several tables: each table's values become
/// z-scores (minus its mean over its positions, divided by its standard
/// deviation), and each position gets the mean of the z-scores it has.
/// `tables[t][i]` is table `t`'s value at position `i` (`None` where it has
/// none); a table without spread is left out.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn standardized_mean(tables: &[Vec<Option<f64>>]) -> Vec<Option<f64>> {
    let positions = tables.first().map_or(0, Vec::len);
    let mut sum = vec![0.0; positions];
    let mut count = vec![0usize; positions];
    for table in tables {
        assert_eq!(
            table.len(),
            positions,
            "tables must cover one position order"
        );
        let values: Vec<f64> = table.iter().flatten().copied().collect();
        if values.len() < 2 {
            continue;
        }
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var =
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (values.len() - 1) as f64;
        if var <= 0.0 {
            continue;
        }
        let sd = var.sqrt();
        for (i, v) in table.iter().enumerate() {
            if let Some(v) = v {
                sum[i] += (v - mean) / sd;
                count[i] += 1;
            }
        }
    }
    sum.iter()
        .zip(&count)
        .map(|(s, &c)| (c > 0).then(|| s / c as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_numbers_read_back_as_written() {
        let mut rng = Rng::new(3);
        for _ in 0..20_000 {
            let x = significant(rng.normal() * 10f64.powf(rng.normal() * 3.0));
            let text = serde_json::to_string(&x).unwrap();
            let back: f64 = serde_json::from_str(&text).unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{text}");
        }
        assert_eq!(
            significant(0.123_456_789_012_345_67).to_bits(),
            0.123_456_789_012f64.to_bits()
        );
    }

    fn correlated(n: usize, noise: f64, seed: u64) -> (Vec<f64>, Vec<f64>) {
        let mut rng = Rng::new(seed);
        let truth: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let a = truth
            .iter()
            .map(|t| 30.0 + 20.0 * (t + noise * rng.normal()))
            .collect();
        let b = truth
            .iter()
            .map(|t| 0.5 + 0.1 * (t + noise * rng.normal()))
            .collect();
        (a, b)
    }

    #[test]
    fn the_bootstrap_interval_covers_the_true_correlation() {
        // Truth with unit variance, each measure with noise 0.75: the true
        // correlation of the two measures is 1 / (1 + 0.75²) = 0.64.
        let truth = 1.0 / (1.0 + 0.75_f64.powi(2));
        let mut covered = 0;
        for seed in 0..200 {
            let (a, b) = correlated(200, 0.75, seed);
            let c = compare(
                &a,
                &b,
                Bootstrap {
                    resamples: 400,
                    seed,
                    level: 0.95,
                },
            )
            .unwrap();
            assert!(c.pearson.low <= c.pearson.value && c.pearson.value <= c.pearson.high);
            if c.pearson.low <= truth && truth <= c.pearson.high {
                covered += 1;
            }
        }
        // 95% nominal; the percentile bootstrap runs a little short at n = 200.
        assert!((180..=199).contains(&covered), "covered {covered} of 200");
    }

    #[test]
    fn offset_scale_and_deciles_describe_a_linear_map() {
        let theirs: Vec<f64> = (0..100).map(f64::from).collect();
        let ours: Vec<f64> = theirs.iter().map(|t| 2.0 * t + 5.0).collect();
        let c = compare(&ours, &theirs, Bootstrap::default()).unwrap();
        assert!((c.pearson.value - 1.0).abs() < 1e-12);
        assert!((c.scale - 2.0).abs() < 1e-12);
        assert!((c.offset - (2.0 * 49.5 + 5.0 - 49.5)).abs() < 1e-9);
        assert!((c.top_decile - 1.0).abs() < 1e-12 && (c.bottom_decile - 1.0).abs() < 1e-12);
        let reversed: Vec<f64> = theirs.iter().map(|t| -t).collect();
        let c = compare(&reversed, &theirs, Bootstrap::default()).unwrap();
        assert!(c.top_decile.abs() < 1e-12 && c.bottom_decile.abs() < 1e-12);
    }

    #[test]
    fn too_few_or_flat_values_give_no_comparison() {
        assert!(compare(&[1.0; 5], &[2.0; 5], Bootstrap::default()).is_none());
        let flat = vec![3.0; 50];
        let rising: Vec<f64> = (0..50).map(f64::from).collect();
        assert!(compare(&flat, &rising, Bootstrap::default()).is_none());
    }

    #[test]
    fn no_comparison_says_which_side_lacks_what() {
        let rising: BTreeMap<u32, f64> = (0..50).map(|sp| (sp, f64::from(sp))).collect();
        let flat: BTreeMap<u32, f64> = (0..50).map(|sp| (sp, 3.0)).collect();
        let few: BTreeMap<u32, f64> = (0..5).map(|sp| (sp, f64::from(sp))).collect();
        let b = Bootstrap::default();
        assert_eq!(
            compare_by_sp(&rising, &flat, b),
            Err(NoComparison::TheirsFlat { shared: 50 })
        );
        assert_eq!(
            compare_by_sp(&flat, &rising, b),
            Err(NoComparison::OursFlat { shared: 50 })
        );
        assert_eq!(
            compare_by_sp(&rising, &few, b),
            Err(NoComparison::TooFew { shared: 5 })
        );
        assert!(
            NoComparison::TheirsFlat { shared: 50 }
                .describe("ours.csv", "flat.csv")
                .starts_with("flat.csv has no spread")
        );
        let itself = compare_by_sp(&rising, &rising, b).unwrap();
        assert!(itself.pearson.value >= SAME_MEASUREMENT);
    }

    #[test]
    fn the_standardized_mean_weighs_tables_equally_whatever_their_units() {
        let a = vec![Some(0.0), Some(10.0), Some(20.0), None];
        let b = vec![Some(0.50), Some(0.51), None, Some(0.52)];
        let mean = standardized_mean(&[a, b]);
        // Table a: mean 10, sd 10 → z = -1, 0, 1; table b: mean 0.51,
        // sd 0.01 → z = -1, 0, 1.
        let expected = [Some(-1.0), Some(0.0), Some(1.0), Some(1.0)];
        for (m, e) in mean.iter().zip(expected) {
            assert!((m.unwrap() - e.unwrap()).abs() < 1e-9, "{mean:?}");
        }
        assert_eq!(
            standardized_mean(&[vec![None, Some(1.0)]]),
            vec![None, None]
        );
    }
}
