//! Every table c960 writes is built the same way: one row per record,
//! one column per field. [`Frame`] turns a slice of records into a polars
//! `DataFrame` column by column, in the order the columns are named:
//!
//! ```
//! use c960_store::Frame;
//!
//! struct Row { sp: u32, placement: String, cp: Option<i32> }
//! let rows = [Row { sp: 518, placement: "RNBQKBNR".into(), cp: Some(20) }];
//! let frame = Frame::new(&rows)
//!     .column("sp", |r| r.sp)
//!     .column("placement", |r| r.placement.as_str())
//!     .column("score_cp", |r| r.cp)
//!     .build()?;
//! assert_eq!(frame.get_column_names(), ["sp", "placement", "score_cp"]);
//! # Ok::<(), polars::prelude::PolarsError>(())
//! ```
//!
//! A cell's Rust type gives its column's dtype as polars' `NamedFrom`
//! does: `u32` is `UInt32`, `i32` `Int32`, `u64` `UInt64`, `f64`
//! `Float64`, `bool` `Boolean`, `&str` and `String` `String`, and an
//! `Option` of any of them the same dtype with nulls. A slice without rows
//! gives a frame without rows with the same columns and dtypes.

use polars::prelude::*;

/// A table under construction: the rows it is built from and the columns
/// named so far, in order.
#[must_use = "a frame is only made by `build`"]
pub struct Frame<'a, R> {
    rows: &'a [R],
    columns: Vec<Column>,
}

impl<'a, R> Frame<'a, R> {
    /// A table of `rows`, one row each, without columns yet.
    pub fn new(rows: &'a [R]) -> Self {
        Self {
            rows,
            columns: Vec::new(),
        }
    }

    /// Adds the column `name` with the cell `cell` gives for each row, in
    /// the rows' order. The name may be computed (`format!("move{k}_uci")`).
    pub fn column<T, Phantom>(
        mut self,
        name: impl Into<PlSmallStr>,
        cell: impl FnMut(&'a R) -> T,
    ) -> Self
    where
        Phantom: ?Sized,
        Series: NamedFrom<Vec<T>, Phantom>,
    {
        let cells: Vec<T> = self.rows.iter().map(cell).collect();
        self.columns.push(Column::new(name.into(), cells));
        self
    }

    /// Adds the column `name` with `values` made beforehand (one per row,
    /// in the rows' order), for cells cheaper to move than to compute
    /// again; [`build`](Self::build) refuses a column of another length.
    pub fn values<V, Phantom>(mut self, name: impl Into<PlSmallStr>, values: V) -> Self
    where
        Phantom: ?Sized,
        Series: NamedFrom<V, Phantom>,
    {
        self.columns.push(Column::new(name.into(), values));
        self
    }

    /// Puts the columns named so far into `frame`, which has a row per row
    /// given, in order from its column `at` on.
    ///
    /// # Errors
    /// A name `frame` already has, `at` past its last column, or a row
    /// count that is not `frame`'s.
    pub fn insert_into(self, frame: &mut DataFrame, at: usize) -> PolarsResult<()> {
        for (k, column) in self.columns.into_iter().enumerate() {
            frame.insert_column(at + k, column)?;
        }
        Ok(())
    }

    /// Puts the columns named so far after the last column of `frame`,
    /// which has a row per row given.
    ///
    /// # Errors
    /// As [`insert_into`](Self::insert_into).
    pub fn append_to(self, frame: &mut DataFrame) -> PolarsResult<()> {
        let at = frame.width();
        self.insert_into(frame, at)
    }

    /// The table: one row per row given, the columns in the order named.
    ///
    /// # Errors
    /// A column of [`values`](Self::values) whose length is not the
    /// number of rows, or two columns of the same name.
    pub fn build(self) -> PolarsResult<DataFrame> {
        DataFrame::new(self.rows.len(), self.columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Row {
        sp: u32,
        diff: i32,
        games: u64,
        share: f64,
        flag: bool,
        text: String,
        cp: Option<i32>,
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                sp: 518,
                diff: -1,
                games: 7,
                share: 0.5,
                flag: true,
                text: "RNBQKBNR".into(),
                cp: Some(20),
            },
            Row {
                sp: 0,
                diff: 2,
                games: 0,
                share: 0.25,
                flag: false,
                text: "BBQNNRKR".into(),
                cp: None,
            },
        ]
    }

    fn table(rows: &[Row]) -> PolarsResult<DataFrame> {
        Frame::new(rows)
            .column("sp", |r| r.sp)
            .column("diff", |r| r.diff)
            .column("games", |r| r.games)
            .column("share", |r| r.share)
            .column("flag", |r| r.flag)
            .column("text", |r| r.text.as_str())
            .column("owned", |r| r.text.to_lowercase())
            .column("cp", |r| r.cp)
            .column("label", |r| r.cp.map(|cp| cp.to_string()))
            .column(format!("move{}_uci", 1), |_| None::<String>)
            .build()
    }

    fn dtypes(frame: &DataFrame) -> Vec<(String, DataType)> {
        frame
            .columns()
            .iter()
            .map(|c| (c.name().to_string(), c.dtype().clone()))
            .collect()
    }

    fn expected_dtypes() -> Vec<(String, DataType)> {
        [
            ("sp", DataType::UInt32),
            ("diff", DataType::Int32),
            ("games", DataType::UInt64),
            ("share", DataType::Float64),
            ("flag", DataType::Boolean),
            ("text", DataType::String),
            ("owned", DataType::String),
            ("cp", DataType::Int32),
            ("label", DataType::String),
            ("move1_uci", DataType::String),
        ]
        .into_iter()
        .map(|(n, d)| (n.to_owned(), d))
        .collect()
    }

    #[test]
    fn frame_columns_keep_their_order_types_and_cells() {
        let frame = table(&rows()).unwrap();
        assert_eq!(dtypes(&frame), expected_dtypes());
        assert_eq!(frame.height(), 2);
        let sp: Vec<u32> = frame["sp"].u32().unwrap().into_no_null_iter().collect();
        assert_eq!(sp, [518, 0]);
        let cp = frame["cp"].i32().unwrap();
        assert_eq!((cp.get(0), cp.get(1)), (Some(20), None));
        let owned = frame["owned"].str().unwrap();
        assert_eq!(
            (owned.get(0), owned.get(1)),
            (Some("rnbqkbnr"), Some("bbqnnrkr"))
        );
        assert_eq!(frame["label"].null_count(), 1);
        assert_eq!(frame["move1_uci"].null_count(), 2);
    }

    #[test]
    fn frame_of_no_rows_has_every_column_and_dtype() {
        let frame = table(&[]).unwrap();
        assert_eq!(frame.height(), 0);
        assert_eq!(dtypes(&frame), expected_dtypes());
    }

    #[test]
    fn frame_values_join_the_row_columns_in_order() {
        let rows = rows();
        let frame = Frame::new(&rows)
            .column("sp", |r| r.sp)
            .values("moves", vec!["e4", "d4"])
            .column("games", |r| r.games)
            .build()
            .unwrap();
        assert_eq!(frame.get_column_names(), ["sp", "moves", "games"]);
        assert_eq!(frame["moves"].dtype(), &DataType::String);
    }

    #[test]
    fn frame_refuses_values_of_another_length() {
        let rows = rows();
        let built = Frame::new(&rows)
            .column("sp", |r| r.sp)
            .values("moves", vec!["e4"])
            .build();
        assert!(built.is_err());
    }

    #[test]
    fn frame_columns_go_into_a_table_at_their_place() {
        let rows = rows();
        let mut table = Frame::new(&rows)
            .column("sp", |r| r.sp)
            .column("text", |r| r.text.as_str())
            .build()
            .unwrap();
        Frame::new(&rows)
            .column("diff", |r| r.diff)
            .column("games", |r| r.games)
            .insert_into(&mut table, 1)
            .unwrap();
        Frame::new(&rows)
            .column("flag", |r| r.flag)
            .append_to(&mut table)
            .unwrap();
        assert_eq!(
            table.get_column_names(),
            ["sp", "diff", "games", "text", "flag"]
        );
        let twice = Frame::new(&rows)
            .column("sp", |r| r.sp)
            .append_to(&mut table);
        assert!(twice.is_err());
        let fewer = Frame::new(&rows[..1])
            .column("cp", |r| r.cp)
            .append_to(&mut table);
        assert!(fewer.is_err());
    }
}
