//! Whether each sweep's scores are exact or bounds (its table's `bound`
//! column), read with the run's other columns (`join::per_position`) for
//! the pages that say so.

use std::collections::BTreeMap;

use polars::prelude::*;

/// Each sweep's `bound` column by SP (`exact`, `lower`, `upper`; White's
/// view), or `None` for a table that does not record it.
#[derive(Debug)]
pub struct Bounds {
    /// The run's label.
    pub label: String,
    /// Its bound per position.
    pub by_sp: Option<BTreeMap<u16, String>>,
}

/// The `bound` column of a sweep's table as read (with its `sp`), by SP;
/// the first search's, for a sweep with repeats.
pub(crate) fn by_sp(run: &DataFrame) -> PolarsResult<BTreeMap<u16, String>> {
    let sps = run.column("sp")?.cast(&DataType::UInt32)?;
    let bounds = run.column("bound")?;
    Ok(sps
        .u32()?
        .iter()
        .zip(bounds.str()?.iter())
        .filter_map(|(sp, bound)| Some((u16::try_from(sp?).ok()?, bound?.to_owned())))
        .collect())
}
