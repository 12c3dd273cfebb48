//! Whether each sweep's scores are exact or bounds (its table's `bound`
//! column), read once with the other inputs for the pages that say so.

use std::{collections::BTreeMap, io, path::Path};

use polars::prelude::*;

use crate::{RunKind, Source};

/// Each sweep's `bound` column by SP (`exact`, `lower`, `upper`; White's
/// view), or `None` for a table that does not record it.
pub(crate) struct Bounds {
    /// The run's label.
    pub(crate) label: String,
    /// Its bound per position.
    pub(crate) by_sp: Option<BTreeMap<u16, String>>,
}

/// The bounds of every sweep among `sources`, read from their tables (the
/// first search's, for a sweep with repeats).
pub(crate) fn read_bounds(sources: &[Source]) -> io::Result<Vec<Bounds>> {
    sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .map(|s| {
            Ok(Bounds {
                label: s.label.clone(),
                by_sp: bounds_of(&s.table)?,
            })
        })
        .collect()
}

fn bounds_of(path: &Path) -> io::Result<Option<BTreeMap<u16, String>>> {
    let read = || -> PolarsResult<Option<DataFrame>> {
        let mut reader = ParquetReader::new(c960_store::open_input(path)?);
        if !reader.schema()?.contains("bound") {
            return Ok(None);
        }
        reader
            .with_columns(Some(vec!["sp".to_owned(), "bound".to_owned()]))
            .finish()
            .map(Some)
    };
    let frame = c960_store::quietly(read)
        .map_err(io::Error::other)?
        .map_err(io::Error::other)?;
    let Some(frame) = frame else {
        return Ok(None);
    };
    let sps = frame
        .column("sp")
        .map_err(io::Error::other)?
        .cast(&DataType::UInt32);
    let sps = sps.map_err(io::Error::other)?;
    let bounds = frame.column("bound").map_err(io::Error::other)?;
    let (sps, bounds) = (
        sps.u32().map_err(io::Error::other)?,
        bounds.str().map_err(io::Error::other)?,
    );
    Ok(Some(
        sps.iter()
            .zip(bounds.iter())
            .filter_map(|(sp, bound)| Some((u16::try_from(sp?).ok()?, bound?.to_owned())))
            .collect(),
    ))
}
