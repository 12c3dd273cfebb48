//! CSV, written one way: every CSV file and stream c960 writes is a table
//! (a polars `DataFrame`, see [`crate::Frame`]) written by polars' CSV
//! writer, with a header, comma-separated, `\n` line ends, and a cell
//! quoted only when it must be ([`write_csv`]) or every cell quoted for
//! spreadsheets ([`crate::spreadsheet_csv`]). A text cell a spreadsheet
//! would take for a formula is made inert in every one of them. A table
//! too large to hold is written in slices ([`write_csv_slices`]), one
//! header for all.

use std::io::{self, Write};

use polars::prelude::*;

/// Writes `frame` as CSV with a header, quoting only the cells that must
/// be (a comma, a quote or a line break inside).
///
/// # Errors
/// When `out` cannot be written.
pub fn write_csv(out: &mut dyn Write, frame: &mut DataFrame) -> io::Result<()> {
    write(out, frame, true, QuoteStyle::Necessary)
}

/// Writes the tables `frame` makes of each slice of rows as one CSV
/// stream: the header once (from the first slice, or from a table of no
/// rows when there is none), then every slice's rows, one slice in
/// memory at a time, empty texts as empty cells
/// ([`empty_text_as_missing`]).
///
/// # Errors
/// When a table cannot be made or `out` cannot be written.
pub fn write_csv_slices<T>(
    out: &mut dyn Write,
    slices: impl Iterator<Item = Vec<T>>,
    frame: fn(&[T]) -> PolarsResult<DataFrame>,
) -> io::Result<()> {
    let mut header = true;
    for slice in slices {
        let mut table = frame(&slice).map_err(io::Error::other)?;
        empty_text_as_missing(&mut table).map_err(io::Error::other)?;
        write(out, &mut table, header, QuoteStyle::Necessary)?;
        header = false;
    }
    if header {
        let mut table = frame(&[]).map_err(io::Error::other)?;
        write(out, &mut table, true, QuoteStyle::Necessary)?;
    }
    Ok(())
}

/// Writes slices of rows as Parquet row groups to `out`, one slice in
/// memory at a time (`frame` makes a slice's table; its schema is that of
/// no rows).
///
/// # Errors
/// When a table cannot be made or `out` cannot be written.
pub fn write_parquet_slices<T>(
    out: &mut dyn Write,
    slices: impl Iterator<Item = Vec<T>>,
    frame: fn(&[T]) -> PolarsResult<DataFrame>,
) -> io::Result<()> {
    let schema = frame(&[]).map_err(io::Error::other)?.schema().clone();
    let mut writer = ParquetWriter::new(out)
        .batched(&schema)
        .map_err(io::Error::other)?;
    for slice in slices {
        writer
            .write_batch(&frame(&slice).map_err(io::Error::other)?)
            .map_err(io::Error::other)?;
    }
    writer.finish().map(|_| ()).map_err(io::Error::other)
}

/// `frame` with every empty text cell made a missing one, which CSV writes
/// as an empty cell (polars quotes an empty text, `""`, to tell it from a
/// missing value): for tables whose texts are never told apart from
/// nothing, such as the position tables, whose CSV has always had empty
/// cells there.
///
/// # Errors
/// When a text column cannot be read back (it always can).
pub fn empty_text_as_missing(frame: &mut DataFrame) -> PolarsResult<()> {
    let texts: Vec<String> = frame
        .columns()
        .iter()
        .filter(|c| c.dtype() == &DataType::String)
        .map(|c| c.name().to_string())
        .collect();
    for name in texts {
        let column = frame.column(&name)?;
        let blanked: StringChunked = column
            .str()?
            .downcast_iter()
            .flat_map(|chunk| chunk.iter())
            .map(|cell| cell.filter(|text| !text.is_empty()))
            .collect();
        frame.replace(&name, blanked.with_name(name.as_str().into()).into_column())?;
    }
    Ok(())
}

/// `frame` with every text cell that a spreadsheet would take for a
/// formula made inert ([`crate::inert`]; a text that is a number as
/// written stays as it is): an engine's `id name` of `=cmd|...` is data in
/// every CSV c960 writes.
fn inert_texts(frame: &mut DataFrame) -> PolarsResult<()> {
    let texts: Vec<String> = frame
        .columns()
        .iter()
        .filter(|c| c.dtype() == &DataType::String)
        .map(|c| c.name().to_string())
        .collect();
    let live = |text: &str| text.parse::<f64>().is_err() && crate::inert(text) != text;
    for name in texts {
        let column = frame.column(&name)?.str()?.clone();
        if !column.iter().flatten().any(live) {
            continue;
        }
        let made_inert: StringChunked = column
            .iter()
            .map(|cell| {
                cell.map(|text| {
                    if live(text) {
                        crate::inert(text).into_owned()
                    } else {
                        text.to_owned()
                    }
                })
            })
            .collect();
        frame.replace(
            &name,
            made_inert.with_name(name.as_str().into()).into_column(),
        )?;
    }
    Ok(())
}

/// Writes `frame` with or without its header, quoted as `quote` says,
/// formulas made inert.
pub(crate) fn write(
    out: &mut dyn Write,
    frame: &mut DataFrame,
    header: bool,
    quote: QuoteStyle,
) -> io::Result<()> {
    inert_texts(frame).map_err(io::Error::other)?;
    CsvWriter::new(out)
        .include_header(header)
        .with_quote_style(quote)
        .finish(frame)
        .map_err(|e| match e {
            PolarsError::IO { error, .. } => io::Error::new(error.kind(), error.to_string()),
            other => io::Error::other(other),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Frame;

    struct Row {
        sp: u32,
        name: &'static str,
        score: Option<f64>,
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                sp: 518,
                name: "plain",
                score: Some(0.5),
            },
            Row {
                sp: 1,
                name: "with, comma and \"quote\"",
                score: None,
            },
        ]
    }

    fn table(rows: &[Row]) -> PolarsResult<DataFrame> {
        Frame::new(rows)
            .column("sp", |r| r.sp)
            .column("name", |r| r.name)
            .column("score", |r| r.score)
            .build()
    }

    #[test]
    fn csv_has_one_header_and_quotes_only_what_must_be() {
        let mut out = Vec::new();
        write_csv(&mut out, &mut table(&rows()).unwrap()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "sp,name,score\n518,plain,0.5\n1,\"with, comma and \"\"quote\"\"\",\n"
        );
    }

    #[test]
    fn formulas_in_any_csv_are_inert_and_numbers_stay_numbers() {
        let names = [
            "=cmd|' /C calc'!A0",
            "@SUM(A1)",
            "-2+3",
            "+1",
            "-12.5",
            "\tx",
            "Stockfish",
        ];
        let rows: Vec<Row> = names
            .iter()
            .map(|&name| Row {
                sp: 0,
                name,
                score: None,
            })
            .collect();
        let mut out = Vec::new();
        write_csv(&mut out, &mut table(&rows).unwrap()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let cells: Vec<String> = csv::Reader::from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap()[1].to_owned())
            .collect();
        assert_eq!(
            cells,
            [
                "'=cmd|' /C calc'!A0",
                "'@SUM(A1)",
                "'-2+3",
                "+1",
                "-12.5",
                "'\tx",
                "Stockfish"
            ]
        );
    }

    #[test]
    fn empty_texts_can_be_written_as_empty_cells() {
        let rows = [Row {
            sp: 7,
            name: "",
            score: None,
        }];
        let mut plain = Vec::new();
        write_csv(&mut plain, &mut table(&rows).unwrap()).unwrap();
        assert_eq!(
            String::from_utf8(plain).unwrap(),
            "sp,name,score\n7,\"\",\n"
        );
        let mut frame = table(&rows).unwrap();
        empty_text_as_missing(&mut frame).unwrap();
        let mut blank = Vec::new();
        write_csv(&mut blank, &mut frame).unwrap();
        assert_eq!(String::from_utf8(blank).unwrap(), "sp,name,score\n7,,\n");
    }

    #[test]
    fn slices_stream_under_one_header_and_no_slice_is_a_header() {
        let all = rows();
        let (first, second) = all.split_at(1);
        let mut whole = Vec::new();
        write_csv(&mut whole, &mut table(&all).unwrap()).unwrap();
        let mut sliced = Vec::new();
        let slices = [first, second].map(|s| {
            s.iter()
                .map(|r| Row {
                    sp: r.sp,
                    name: r.name,
                    score: r.score,
                })
                .collect::<Vec<_>>()
        });
        write_csv_slices(&mut sliced, slices.into_iter(), table).unwrap();
        assert_eq!(sliced, whole);
        let mut empty = Vec::new();
        write_csv_slices(&mut empty, std::iter::empty(), table).unwrap();
        assert_eq!(String::from_utf8(empty).unwrap(), "sp,name,score\n");
    }
}
