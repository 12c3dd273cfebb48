//! `c960 positions`: the position table for all 960 start positions.

use std::io::{self, Write};

use anyhow::Result;
use c960_core::{Features, PositionRecord};

use crate::{
    cli::{PositionsArgs, TableFormat},
    output,
};

pub(crate) fn run(args: &PositionsArgs) -> Result<()> {
    let records: Vec<PositionRecord> = Features::all().iter().map(PositionRecord::from).collect();
    output::write_to(args.out.as_deref(), |out| match args.format {
        TableFormat::Csv => write_csv(out, &records),
        TableFormat::Json => write_json(out, &records),
    })?;
    Ok(())
}

pub(crate) fn write_csv(out: &mut dyn Write, records: &[PositionRecord]) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for record in records {
        writer.serialize(record).map_err(csv_to_io)?;
    }
    writer.flush()
}

/// The I/O error inside a CSV error keeps its kind (a closed pipe stays a
/// closed pipe).
fn csv_to_io(error: csv::Error) -> io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// A JSON array with one compact object per line.
fn write_json(out: &mut dyn Write, records: &[PositionRecord]) -> io::Result<()> {
    out.write_all(b"[\n")?;
    for (i, record) in records.iter().enumerate() {
        serde_json::to_writer(&mut *out, record)?;
        out.write_all(if i + 1 < records.len() { b",\n" } else { b"\n" })?;
    }
    out.write_all(b"]\n")?;
    Ok(())
}
