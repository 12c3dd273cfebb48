//! One number per Chess960 position, read from any per-position table: a
//! run directory (its balance table, sweep table or game summary), a c960
//! table (Parquet or CSV), or anyone's CSV with an `sp` column. Named as
//! `PATH` (the table's usual column) or `FILE:COLUMN` (`FILE:"COLUMN"` for
//! a column whose name holds a colon, a double quote inside written
//! twice, as in CSV). Every value is checked: each column named once,
//! positions in 0..=959 and each at most once, cells numbers and finite.
//! A table lists the positions it scores; an empty cell is refused, except
//! in c960's own tables (its balance, position and sweep tables, and
//! Parquet tables), which leave a cell empty where a position has no
//! number.

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
};

use polars::prelude::*;
use thiserror::Error;

use crate::{
    BALANCE_CSV, POSITIONS_CSV, POSITIONS_TABLE, SWEEP_CSV, SWEEP_TABLE, check_parquet,
    polars_reason, quietly,
};

/// A per-position column that cannot be read, in one line.
#[derive(Debug, Error)]
#[error("{path}: {reason}", path = path.display())]
pub struct ColumnError {
    /// The table.
    pub path: PathBuf,
    /// What is wrong.
    pub reason: String,
}

/// One column of a per-position table.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionColumn {
    /// The table it was read from.
    pub path: PathBuf,
    /// The column.
    pub column: String,
    /// Value per SP, for the positions the table scores.
    pub values: BTreeMap<u32, f64>,
}

impl fmt::Display for PositionColumn {
    /// `FILE:COLUMN`, the column quoted where it must be to be read back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path.display(), quoted_column(&self.column))
    }
}

/// A column's name as `FILE:COLUMN` gives it: as is, or in double quotes
/// (a quote inside doubled) when it holds a colon or starts with a quote.
fn quoted_column(name: &str) -> String {
    if name.contains(':') || name.starts_with('"') {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_owned()
    }
}

/// The column a table is read by when none is named, in order of
/// preference: a consensus estimate, a sweep's mean over repeats, a single
/// search's score, White's score in games, or an `sp,value` file's value.
pub const DEFAULT_COLUMNS: [&str; 5] = [
    crate::columns::balance::ESTIMATE,
    "score_cp_mean",
    "score_cp",
    "white_score",
    "value",
];

/// Reads `spec`: `PATH` (a directory or a table, by its default column),
/// `FILE:COLUMN` or `FILE:"COLUMN"` (a column whose name holds a colon;
/// a double quote inside is written twice).
pub fn read_position_column(spec: &str) -> Result<PositionColumn, ColumnError> {
    let (path, column) = split_spec(spec);
    let path = if path.is_dir() {
        [BALANCE_CSV, SWEEP_TABLE, POSITIONS_TABLE]
            .iter()
            .map(|name| path.join(name))
            .find(|p| p.is_file())
            .ok_or_else(|| ColumnError {
                reason: format!(
                    "a directory without a per-position table ({BALANCE_CSV}, {SWEEP_TABLE} or \
                     {POSITIONS_TABLE}); name a table as FILE:COLUMN"
                ),
                path: path.clone(),
            })?
    } else {
        path
    };
    let error = |reason: String| ColumnError {
        path: path.clone(),
        reason,
    };
    let is_parquet = path.extension().is_some_and(|e| e == "parquet");
    let table = if is_parquet {
        read_parquet(&path).map_err(error)?
    } else {
        read_csv(&path).map_err(error)?
    };
    table.column(column.as_deref()).map_err(error)
}

/// `PATH` as is when it exists, else `FILE:"COLUMN"` split before its
/// quoted column, or `FILE:COLUMN` split at the last colon after an
/// existing file (a column `a:b` of `t.csv` is `t.csv:a:b` too), or else
/// at the last colon.
fn split_spec(spec: &str) -> (PathBuf, Option<String>) {
    let whole = PathBuf::from(spec);
    if whole.exists() {
        return (whole, None);
    }
    if let Some(split) = split_quoted(spec) {
        return split;
    }
    let after_file = spec.match_indices(':').rev().find_map(|(at, _)| {
        let (file, column) = (&spec[..at], &spec[at + 1..]);
        (!file.is_empty() && !column.is_empty() && Path::new(file).exists())
            .then(|| (PathBuf::from(file), Some(column.to_owned())))
    });
    if let Some(split) = after_file {
        return split;
    }
    match spec.rsplit_once(':') {
        Some((file, column)) if !file.is_empty() && !column.is_empty() => {
            (PathBuf::from(file), Some(column.to_owned()))
        }
        _ => (whole, None),
    }
}

/// `FILE:"COLUMN"`: the last `:"` after which the rest is one quoted
/// name (its quotes doubled), closed by the spec's last character.
fn split_quoted(spec: &str) -> Option<(PathBuf, Option<String>)> {
    let inner = spec.strip_suffix('"')?;
    spec.rmatch_indices(":\"").find_map(|(at, _)| {
        let file = &spec[..at];
        let quoted = inner.get(at + 2..)?;
        let column = unquote(quoted)?;
        (!file.is_empty() && !column.is_empty()).then(|| (PathBuf::from(file), Some(column)))
    })
}

/// The text inside double quotes, if every quote in it is doubled.
fn unquote(quoted: &str) -> Option<String> {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '"' && chars.next() != Some('"') {
            return None;
        }
        out.push(c);
    }
    Some(out)
}

/// A table as text cells: the header, and each row's cells by column with
/// the row's line number for messages.
struct Table {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<(usize, Vec<Option<String>>)>,
    /// Whether an empty cell is a position without a number (c960's own
    /// tables) rather than a mistake.
    empty_cells: bool,
}

/// c960's CSV tables, which leave a cell empty where a position has no
/// number (a failed search, a mate score, no games).
const OWN_CSV_TABLES: [&str; 3] = [BALANCE_CSV, POSITIONS_CSV, SWEEP_CSV];

/// The header, refused if it names a column twice: which of the two
/// would be read?
fn checked_header(header: Vec<String>) -> Result<Vec<String>, String> {
    for (i, name) in header.iter().enumerate() {
        if !name.is_empty() && header[..i].contains(name) {
            return Err(format!(
                "the header names column {name} twice ({})",
                header.join(",")
            ));
        }
    }
    Ok(header)
}

fn read_csv(path: &Path) -> Result<Table, String> {
    let text = crate::read_input(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_slice());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| format!("not a CSV table: {e}"))?
        .iter()
        .map(|h| h.trim().to_owned())
        .collect();
    let header = checked_header(header)?;
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("line {}: {e}", i + 2))?;
        let cells = record
            .iter()
            .map(|c| Some(c.trim().to_owned()).filter(|c| !c.is_empty()))
            .collect();
        rows.push((i + 2, cells));
    }
    let empty_cells = path.file_name().is_some_and(|name| {
        OWN_CSV_TABLES
            .iter()
            .any(|own| name == std::ffi::OsStr::new(own))
    });
    Ok(Table {
        path: path.to_owned(),
        header,
        rows,
        empty_cells,
    })
}

fn read_parquet(path: &Path) -> Result<Table, String> {
    check_parquet(path).map_err(|e| e.reason)?;
    let frame = quietly(|| -> PolarsResult<DataFrame> {
        let file = crate::open_input(path).map_err(PolarsError::from)?;
        ParquetReader::new(file).finish()
    })
    .map_err(|panic| format!("unreadable Parquet ({panic})"))?
    .map_err(|e| polars_reason(&e))?;
    let header: Vec<String> = frame
        .get_column_names()
        .iter()
        .map(ToString::to_string)
        .collect();
    let columns: Vec<Column> = frame
        .columns()
        .iter()
        .map(|c| c.cast(&DataType::String))
        .collect::<PolarsResult<_>>()
        .map_err(|e| polars_reason(&e))?;
    let rows = (0..frame.height())
        .map(|row| {
            let cells = columns
                .iter()
                .map(|c| c.str().ok().and_then(|s| s.get(row)).map(str::to_owned))
                .collect();
            (row + 1, cells)
        })
        .collect();
    Ok(Table {
        path: path.to_owned(),
        header: checked_header(header)?,
        rows,
        empty_cells: true,
    })
}

impl Table {
    fn index(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    fn column(&self, wanted: Option<&str>) -> Result<PositionColumn, String> {
        let Some(sp) = self.index("sp") else {
            return Err(if self.index("setup").is_some() {
                "a Double Fischer Random table (it names setups, not SPs): only Chess960 \
                 per-position tables can be compared"
                    .to_owned()
            } else {
                format!(
                    "no sp column (columns: {}); a per-position table names each position by \
                     its Scharnagl number in a column sp",
                    self.header.join(", ")
                )
            });
        };
        let column = match wanted {
            Some(name) => name.to_owned(),
            None => DEFAULT_COLUMNS
                .iter()
                .find(|c| self.index(c).is_some())
                .map(|c| (*c).to_owned())
                .ok_or_else(|| {
                    format!(
                        "which column? name one as FILE:COLUMN (columns: {})",
                        self.header.join(", ")
                    )
                })?,
        };
        let at = self.index(&column).ok_or_else(|| {
            let quote = if self.header.iter().any(|h| h.contains(':')) {
                "; name a column whose name holds a colon in double quotes, FILE:\"a:b\""
            } else {
                ""
            };
            format!(
                "no column {column:?} (columns: {}){quote}",
                self.header.join(", ")
            )
        })?;
        let mut values = BTreeMap::new();
        for (line, cells) in &self.rows {
            let cell = |i: usize| cells.get(i).cloned().flatten();
            let sp_text = cell(sp).ok_or_else(|| format!("row {line}: the sp cell is empty"))?;
            let number = sp_text
                .parse::<u32>()
                .ok()
                .filter(|n| *n < 960)
                .ok_or_else(|| {
                    format!("row {line}: sp {sp_text:?} is not a position number 0..=959")
                })?;
            let Some(text) = cell(at) else {
                if self.empty_cells {
                    continue;
                }
                return Err(format!(
                    "row {line}: the {column} cell of SP {number} is empty (leave out the \
                     positions a table does not score)"
                ));
            };
            let value = text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("row {line}: {column} {text:?} is not a finite number"))?;
            if values.insert(number, value).is_some() {
                return Err(format!("row {line}: SP {number} appears twice"));
            }
        }
        if values.is_empty() {
            return Err(format!("column {column} scores no position"));
        }
        Ok(PositionColumn {
            path: self.path.clone(),
            column,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_value_file_and_a_named_column_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "a.csv", "sp,value\n0,12.5\n518,-3\n");
        let column = read_position_column(file.to_str().unwrap()).unwrap();
        assert_eq!(column.column, "value");
        assert_eq!(column.values, BTreeMap::from([(0, 12.5), (518, -3.0)]));
        // c960's own tables leave a cell empty where a position has no
        // number.
        let file = write(
            dir.path(),
            BALANCE_CSV,
            &format!(
                "sp,{}\n0,12.5\n1,\n518,-3\n",
                crate::columns::balance::ESTIMATE
            ),
        );
        let column = read_position_column(file.to_str().unwrap()).unwrap();
        assert_eq!(column.values, BTreeMap::from([(0, 12.5), (518, -3.0)]));
        let file = write(dir.path(), "b.csv", "x,sp,cp\n9,7,1e1\n");
        let spec = format!("{}:cp", file.display());
        assert_eq!(
            read_position_column(&spec).unwrap().values,
            BTreeMap::from([(7, 10.0)])
        );
    }

    #[test]
    fn a_column_whose_name_holds_a_colon_is_named_in_quotes() {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "c.csv", "sp,a:b,\"q\"\"x:y\",b\n4,1,2,3\n");
        let read = |column: &str| {
            read_position_column(&format!("{}:{column}", file.display())).map(|c| c.values)
        };
        assert_eq!(read("\"a:b\"").unwrap(), BTreeMap::from([(4, 1.0)]));
        assert_eq!(read("\"q\"\"x:y\"").unwrap(), BTreeMap::from([(4, 2.0)]));
        assert_eq!(read("b").unwrap(), BTreeMap::from([(4, 3.0)]));
        assert_eq!(read("\"b\"").unwrap(), BTreeMap::from([(4, 3.0)]));
        assert_eq!(read("a:b").unwrap(), BTreeMap::from([(4, 1.0)]));
        let err = read("\"a:c\"").unwrap_err().to_string();
        assert!(err.contains("no column \"a:c\""), "{err}");
        assert!(err.contains("FILE:\"a:b\""), "{err}");
        let column = read_position_column(&format!("{}:\"a:b\"", file.display())).unwrap();
        assert_eq!(column.column, "a:b");
        assert_eq!(
            read_position_column(&column.to_string()).unwrap().values,
            column.values,
            "its name reads it back"
        );
    }

    #[test]
    fn bad_tables_are_refused_in_one_line() {
        let dir = tempfile::tempdir().unwrap();
        for (text, wanted) in [
            ("sp,value\n3,1\n3,2\n", "SP 3 appears twice"),
            ("sp,value\n3,abc\n", "\"abc\" is not a finite number"),
            ("sp,value\n3,NaN\n", "not a finite number"),
            ("sp,value\n960,1\n", "not a position number"),
            ("setup,value\n5,1\n", "Double Fischer Random"),
            ("sp,a,b\n1,2,3\n", "which column?"),
            (
                "sp,value\n1,2\n2,\n3,4\n",
                "row 3: the value cell of SP 2 is empty",
            ),
            ("sp,value,value\n1,2,3\n", "names column value twice"),
            ("sp,sp,value\n1,2,3\n", "names column sp twice"),
            ("sp,value\n", "scores no position"),
        ] {
            let file = write(dir.path(), "t.csv", text);
            let err = read_position_column(file.to_str().unwrap())
                .unwrap_err()
                .to_string();
            assert!(err.contains(wanted), "{text:?}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
        let file = write(dir.path(), "t.csv", "sp,value\n1,2\n");
        let err = read_position_column(&format!("{}:nope", file.display())).unwrap_err();
        assert!(err.to_string().contains("no column \"nope\""), "{err}");
        let err = read_position_column(dir.path().to_str().unwrap()).unwrap_err();
        assert!(
            err.to_string().contains("without a per-position table"),
            "{err}"
        );
    }
}
