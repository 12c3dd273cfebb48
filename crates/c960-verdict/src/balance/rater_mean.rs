//! The first rater's own mean per position over its repeated searches,
//! with the normal interval of that mean: what a position page shows as
//! the reference rater's view when it searched more than once.

use std::collections::BTreeMap;

use crate::Interval;

/// One rater's mean score at a position over its repeated searches.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RaterMean {
    /// Searches of the position.
    pub searches: usize,
    /// Their mean score, centipawns.
    pub mean: f64,
    /// The normal 95% interval of the mean (its standard error from the
    /// searches' spread); `None` when every search gave the same score.
    pub interval: Option<Interval>,
}

/// The first rater's [`RaterMean`] at each position it searched more than
/// once.
pub(super) fn first_rater_means(
    sweep_rows: &[(String, u16, String, f64)],
) -> BTreeMap<u16, RaterMean> {
    let Some(first) = sweep_rows.first().map(|r| &r.0) else {
        return BTreeMap::new();
    };
    let mut by_sp: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
    for (rater, sp, _, score) in sweep_rows {
        if rater == first {
            by_sp.entry(*sp).or_default().push(*score);
        }
    }
    by_sp
        .into_iter()
        .filter(|(_, scores)| scores.len() > 1)
        .filter_map(|(sp, scores)| {
            let mean = c960_balance::means::mean(&scores)?;
            let se = c960_balance::means::se(&scores).unwrap_or(0.0);
            Some((
                sp,
                RaterMean {
                    searches: scores.len(),
                    mean,
                    interval: (se > 0.0).then(|| crate::figures::normal_interval(mean, se)),
                },
            ))
        })
        .collect()
}
