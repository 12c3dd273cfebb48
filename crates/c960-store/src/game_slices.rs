//! A game table (`games.parquet` of self-play or `c960 import`) read a
//! slice of rows at a time, so memory holds one slice however many games
//! the table has. Every reader of game tables goes through it: the opening
//! trees, the report's samples and charts, and `c960 restore`.

use std::{
    fs::File,
    path::{Path, PathBuf},
};

use polars::prelude::*;

use crate::parquet::quietly;

/// Rows in a slice when a reader keeps little per row (counts, a sample):
/// 32 of the row groups of 2,048 games that self-play and imports write.
pub const SLICE_ROWS: usize = 1 << 16;

/// A game table's footer, read once: where it is, how many rows it has and
/// its column names.
#[derive(Clone, Debug)]
pub struct GameSlices {
    path: PathBuf,
    rows: usize,
    columns: Vec<String>,
}

impl GameSlices {
    /// Reads the footer of the table at `path` (not its rows).
    pub fn open(path: &Path) -> PolarsResult<GameSlices> {
        let (rows, columns) = read_quietly(path, |mut reader| {
            let columns = reader
                .schema()?
                .iter_names()
                .map(ToString::to_string)
                .collect();
            Ok((reader.num_rows()?, columns))
        })?;
        Ok(GameSlices {
            path: path.to_owned(),
            rows,
            columns,
        })
    }

    /// Its number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether it has a column `name` (imports have `date`, self-play
    /// does not).
    pub fn has_column(&self, name: &str) -> bool {
        self.columns.iter().any(|c| c == name)
    }

    /// Rows `offset..offset + len` (fewer at the end) of `columns`, or of
    /// every column when `None`.
    pub fn read(
        &self,
        columns: Option<&[&str]>,
        offset: usize,
        len: usize,
    ) -> PolarsResult<DataFrame> {
        let columns = columns.map(|c| c.iter().map(|&name| name.to_owned()).collect());
        read_quietly(&self.path, |reader| {
            reader
                .with_columns(columns)
                .with_slice(Some((offset, len)))
                .finish()
        })
    }

    /// The table's slices of `rows` rows each, in row order, with the row
    /// number each starts at.
    pub fn slices<'a>(
        &'a self,
        columns: Option<&'a [&'a str]>,
        rows: usize,
    ) -> impl Iterator<Item = PolarsResult<(usize, DataFrame)>> + 'a {
        (0..self.rows)
            .step_by(rows.max(1))
            .map(move |offset| Ok((offset, self.read(columns, offset, rows)?)))
    }
}

/// Runs `read` on a reader of the file at `path`; a panic inside polars (on
/// a damaged file) becomes an error instead of ending the program.
fn read_quietly<T>(
    path: &Path,
    read: impl FnOnce(ParquetReader<File>) -> PolarsResult<T>,
) -> PolarsResult<T> {
    let file = crate::open_input(path)?;
    quietly(|| read(ParquetReader::new(file))).map_err(|panic| {
        PolarsError::ComputeError(format!("unreadable Parquet ({panic})").into())
    })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_every_row_once_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.parquet");
        let mut frame = df!(
            "sp" => (0..10u32).collect::<Vec<_>>(),
            "moves" => (0..10).map(|i| format!("m{i}")).collect::<Vec<_>>(),
        )
        .unwrap();
        ParquetWriter::new(File::create(&path).unwrap())
            .finish(&mut frame)
            .unwrap();
        let table = GameSlices::open(&path).unwrap();
        assert_eq!(table.rows(), 10);
        assert!(table.has_column("moves") && !table.has_column("date"));
        let mut seen = Vec::new();
        for slice in table.slices(Some(&["sp"]), 4) {
            let (offset, frame) = slice.unwrap();
            assert_eq!(frame.get_column_names(), ["sp"]);
            let sp: Vec<u32> = frame
                .column("sp")
                .unwrap()
                .u32()
                .unwrap()
                .into_no_null_iter()
                .collect();
            assert_eq!(sp.first().copied(), Some(offset as u32));
            seen.extend(sp);
        }
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn a_damaged_table_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.parquet");
        std::fs::write(&path, b"PAR1 this is not a parquet file PAR1").unwrap();
        assert!(GameSlices::open(&path).is_err());
        assert!(GameSlices::open(&dir.path().join("missing.parquet")).is_err());
    }
}
