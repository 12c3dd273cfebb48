//! The column names of a Parquet table, and some of its columns: the one
//! reader behind the tables the report and the verdicts read (runs,
//! verdict inputs, DFRC sweeps).

use std::{io, path::Path};

use polars::prelude::*;
use thiserror::Error;

use crate::CorruptFile;

/// Why a table's columns cannot be read.
#[derive(Debug, Error)]
pub enum ColumnsError {
    /// The file cannot be opened.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// Polars refused the table.
    #[error("{}", crate::polars_reason(.0))]
    Polars(#[from] PolarsError),
    /// The file is not readable Parquet.
    #[error(transparent)]
    Corrupt(#[from] CorruptFile),
}

/// Reads `path` once: its column names, and the columns `wanted` when
/// asked for.
fn read(
    path: &Path,
    wanted: Option<Vec<String>>,
) -> Result<(Vec<String>, Option<DataFrame>), ColumnsError> {
    let file = crate::open_input(path).map_err(|e| {
        if crate::is_bad_input(&e) {
            crate::bad_input(format!("{}: {e}", path.display()))
        } else {
            io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))
        }
    })?;
    crate::quietly(|| -> PolarsResult<_> {
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
    .map_err(ColumnsError::from)
}

/// The names of the table's columns, in table order.
pub fn parquet_column_names(path: &Path) -> Result<Vec<String>, ColumnsError> {
    Ok(read(path, None)?.0)
}

/// The columns `wanted` of the table, in the order asked for.
pub fn parquet_columns(path: &Path, wanted: Vec<String>) -> Result<DataFrame, ColumnsError> {
    Ok(read(path, Some(wanted))?.1.unwrap_or_default())
}
