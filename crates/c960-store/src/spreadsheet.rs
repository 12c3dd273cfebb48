//! CSV that a spreadsheet opens as data, never as formulas: every cell is
//! quoted, and a text cell that starts like a formula (`=`, `+`, `-`, `@`,
//! a tab or a carriage return) gets a leading `'`, as spreadsheets
//! themselves mark text. Numbers c960 formats are written as they are
//! (a negative number stays a number).

use std::{borrow::Cow, io};

use polars::prelude::QuoteStyle;

use crate::Frame;

/// One cell of such a table.
#[derive(Clone, Debug, PartialEq)]
pub enum CsvCell<'a> {
    /// Text from anywhere (a file name, a label): made inert.
    Text(&'a str),
    /// A number c960 formatted.
    Number(String),
}

impl CsvCell<'_> {
    fn text(&self) -> Cow<'_, str> {
        match self {
            CsvCell::Text(text) => inert(text),
            CsvCell::Number(number) => Cow::Borrowed(number),
        }
    }
}

/// `text` as a spreadsheet shows it as text: with a leading `'` when it
/// starts like a formula.
#[must_use]
pub fn inert(text: &str) -> Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// The table `header` and `rows` as CSV with every cell quoted.
///
/// # Errors
///
/// None in practice: the table is written to memory.
pub fn spreadsheet_csv<'a>(
    header: &[&str],
    rows: impl IntoIterator<Item = Vec<CsvCell<'a>>>,
) -> io::Result<String> {
    let rows: Vec<Vec<CsvCell<'a>>> = rows.into_iter().collect();
    if let Some(row) = rows.iter().find(|row| row.len() != header.len()) {
        return Err(io::Error::other(format!(
            "a row of {} cells under a header of {}",
            row.len(),
            header.len()
        )));
    }
    let mut frame = header
        .iter()
        .enumerate()
        .fold(Frame::new(&rows), |frame, (i, name)| {
            frame.column(inert(name).as_ref(), move |row| row[i].text().into_owned())
        })
        .build()
        .map_err(io::Error::other)?;
    let mut bytes = Vec::new();
    crate::table_csv::write(&mut bytes, &mut frame, true, QuoteStyle::Always)?;
    String::from_utf8(bytes).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_quoted_and_formulas_are_inert() {
        let text = spreadsheet_csv(
            &["name", "value"],
            [
                vec![
                    CsvCell::Text("=HYPERLINK(\"x\")"),
                    CsvCell::Number("-8.5".to_owned()),
                ],
                vec![CsvCell::Text("a\nb,\"c\""), CsvCell::Number("1".to_owned())],
                vec![CsvCell::Text("+1"), CsvCell::Number("2".to_owned())],
                vec![CsvCell::Text("@x"), CsvCell::Number("3".to_owned())],
            ],
        )
        .unwrap();
        assert_eq!(
            text,
            "\"name\",\"value\"\n\"'=HYPERLINK(\"\"x\"\")\",\"-8.5\"\n\"a\nb,\"\"c\"\"\",\"1\"\n\
             \"'+1\",\"2\"\n\"'@x\",\"3\"\n"
        );
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 4, "one row per record, whatever the cells hold");
        assert_eq!(&rows[1][0], "a\nb,\"c\"");
    }
}
