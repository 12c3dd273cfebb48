//! The column names of a Parquet table, and some of its columns: the one
//! reader behind the report's tables (runs, verdict inputs, DFRC sweeps).

use std::{fs::File, path::Path};

use c960_store::CorruptFile;
use polars::prelude::*;

use crate::ReportError;

/// Reads `path` once: its column names, and the columns `wanted` when
/// asked for.
fn read(
    path: &Path,
    wanted: Option<Vec<String>>,
) -> Result<(Vec<String>, Option<DataFrame>), ReportError> {
    let file = File::open(path).map_err(|e| {
        ReportError::Io(std::io::Error::new(
            e.kind(),
            format!("cannot read {}: {e}", path.display()),
        ))
    })?;
    c960_store::quietly(|| -> PolarsResult<_> {
        let mut reader = ParquetReader::new(file);
        let names: Vec<String> = reader
            .schema()?
            .iter_names()
            .map(ToString::to_string)
            .collect();
        match wanted {
            None => Ok((names, None)),
            Some(columns) => Ok((names, Some(reader.with_columns(Some(columns)).finish()?))),
        }
    })
    .map_err(|panic| CorruptFile {
        path: path.to_owned(),
        reason: format!("unreadable Parquet ({panic})"),
    })?
    .map_err(ReportError::from)
}

/// The names of the table's columns, in table order.
pub(crate) fn names(path: &Path) -> Result<Vec<String>, ReportError> {
    Ok(read(path, None)?.0)
}

/// The columns `wanted` of the table, in the order asked for.
pub(crate) fn columns(path: &Path, wanted: Vec<String>) -> Result<DataFrame, ReportError> {
    Ok(read(path, Some(wanted))?.1.unwrap_or_default())
}
