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

/// A sweep's table as read, without its `bound` column, and that column
/// by SP (the first search's, for a sweep with repeats); `None` for a
/// table that does not record it.
pub(crate) fn take(run: DataFrame) -> PolarsResult<(DataFrame, Option<BTreeMap<u16, String>>)> {
    if !run.get_column_names().iter().any(|c| c.as_str() == "bound") {
        return Ok((run, None));
    }
    let sps = run.column("sp")?.cast(&DataType::UInt32)?;
    let by_sp = sps
        .u32()?
        .iter()
        .zip(run.column("bound")?.str()?.iter())
        .filter_map(|(sp, bound)| Some((u16::try_from(sp?).ok()?, bound?.to_owned())))
        .collect();
    Ok((run.drop("bound")?, Some(by_sp)))
}
