//! The published dataset v4's consensus, built into the binary: a run
//! says how far its ranking agrees with it without network, data
//! directory or working directory.

use std::{collections::BTreeMap, sync::OnceLock};

/// `sp,estimate` for all 960 positions, copied verbatim from
/// `data/research-v4/balance.csv` (the test `the_built_in_v4_consensus_is_the_published_one`
/// in `crates/c960/tests/run.rs` keeps the copy equal to the published file).
const TABLE: &str = include_str!("v4-consensus.csv");

/// What the run's closing line calls it.
pub(super) const NAME: &str = "the published dataset v4 (the consensus of 8 raters)";

/// The v4 consensus estimate (centipawns) by SP.
///
/// # Panics
///
/// If the built-in table is malformed (its test says so first).
pub(super) fn consensus() -> &'static BTreeMap<u32, f64> {
    static TABLE_BY_SP: OnceLock<BTreeMap<u32, f64>> = OnceLock::new();
    TABLE_BY_SP.get_or_init(|| {
        TABLE
            .lines()
            .filter(|line| !line.starts_with('#'))
            .skip(1)
            .map(|line| {
                let (sp, estimate) = line.split_once(',').expect("sp,estimate");
                (
                    sp.parse().expect("an SP"),
                    estimate.parse().expect("an estimate"),
                )
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_table_has_every_position_once() {
        let table = super::consensus();
        assert_eq!(table.len(), 960);
        assert!(table.keys().copied().eq(0..960));
        assert!(table.values().all(|v| v.is_finite()));
    }
}
