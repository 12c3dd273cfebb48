//! Reading the published datasets' Parquet files in tests: checked against
//! their seal first, so a truncated or edited file fails with its path.

use std::{fs, path::Path};

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
