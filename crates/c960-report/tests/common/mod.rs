//! Reading the published datasets' Parquet files in tests: checked against
//! their seal first, so a truncated or edited file fails with its path.

use std::{collections::BTreeMap, fs, path::Path};

use polars::prelude::*;

/// The table at `path`, after its seal is checked.
pub(crate) fn read_parquet(path: &Path) -> DataFrame {
    c960_store::check_parquet(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ParquetReader::new(fs::File::open(path).unwrap())
        .finish()
        .unwrap()
}

/// Column `name` as unsigned integers (no nulls allowed).
pub(crate) fn u64s(frame: &DataFrame, name: &str) -> Vec<u64> {
    let c = frame.column(name).unwrap().cast(&DataType::UInt64).unwrap();
    let c = c.u64().unwrap();
    (0..c.len()).map(|i| c.get(i).unwrap()).collect()
}

/// Column `name` as floats, nulls kept.
pub(crate) fn f64s(frame: &DataFrame, name: &str) -> Vec<Option<f64>> {
    let c = frame
        .column(name)
        .unwrap()
        .cast(&DataType::Float64)
        .unwrap();
    let c = c.f64().unwrap();
    (0..c.len()).map(|i| c.get(i)).collect()
}

/// A published sweep's searches as the sweep groups them for its
/// repeatability: each unit's scores (mates counted as ±1000 cp) in repeat
/// order, units in `key` order, `key` naming the unit of each row.
pub(crate) fn scores_by_unit(searches: &DataFrame, key: &[u64]) -> Vec<Vec<f64>> {
    let cp = f64s(searches, "score_cp");
    let mate = f64s(searches, "score_mate");
    let repeat = u64s(searches, "repeat");
    let mut groups: BTreeMap<u64, Vec<(u64, f64)>> = BTreeMap::new();
    for i in 0..searches.height() {
        let value = cp[i].unwrap_or_else(|| 1000.0 * mate[i].unwrap().signum());
        groups.entry(key[i]).or_default().push((repeat[i], value));
    }
    groups
        .into_values()
        .map(|mut g| {
            g.sort_by_key(|(r, _)| *r);
            g.into_iter().map(|(_, v)| v).collect()
        })
        .collect()
}
