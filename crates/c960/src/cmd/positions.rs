//! `c960 positions`: the position table — the 960 Chess960 positions, or
//! Double Fischer Random setups streamed in slices so memory stays flat for
//! all 921,600.

use std::io::{self, Write};

use anyhow::{Context, Result};
use c960_core::{DfrcFeatures, DfrcRecord, Features, PositionRecord, SideTable, parse_dfrc_set};
use c960_store::{write_csv_slices, write_parquet_slices};
use polars::prelude::{DataFrame, PolarsResult};
use serde::Serialize;

use crate::{
    cli::{InputError, PositionsArgs, TableFormat, Variant},
    output,
};

/// Setups per slice (and Parquet row group).
const SLICE: usize = 65_536;

pub(crate) fn run(args: &PositionsArgs) -> Result<()> {
    if args.format == TableFormat::Parquet && args.out.is_none() {
        return Err(InputError("--format parquet needs --out FILE".to_owned()).into());
    }
    let out = output::Out::claim(args.out.as_deref(), c960_store::Claim::new())?;
    match args.variant {
        Variant::Chess960 => {
            if args.positions != "all" {
                return Err(InputError(
                    "--positions selects DFRC setups; use it with --variant dfrc".to_owned(),
                )
                .into());
            }
            let records: Vec<PositionRecord> =
                Features::all().iter().map(PositionRecord::from).collect();
            out.write(|out| match args.format {
                TableFormat::Csv => write_position_table_csv(out),
                TableFormat::Json => write_json(out, records.len(), records.iter()),
                TableFormat::Parquet => write_parquet(out, &records, c960_report::chess960_frame),
            })?;
        }
        Variant::Dfrc => {
            let setups = parse_dfrc_set(&args.positions)?;
            // Build the per-rank tables before the writer opens its file.
            let _ = SideTable::all();
            let records = || {
                setups.chunks(SLICE).map(|slice| {
                    slice
                        .iter()
                        .map(|s| DfrcRecord::from(&DfrcFeatures::of(*s)))
                        .collect::<Vec<_>>()
                })
            };
            out.write(|out| match args.format {
                TableFormat::Csv => write_csv_slices(out, records(), c960_report::dfrc_frame),
                TableFormat::Json => write_json(out, setups.len(), records().flatten()),
                TableFormat::Parquet => {
                    write_parquet_slices(out, records(), c960_report::dfrc_frame)
                }
            })
            .with_context(|| {
                args.out.as_ref().map_or_else(
                    || "cannot write to standard output".to_owned(),
                    |p| format!("cannot write {}", p.display()),
                )
            })?;
        }
    }
    Ok(())
}

/// The 960 positions' table as CSV, as `c960 positions` writes it (and a
/// run's and a merge's `positions.csv`).
pub(crate) fn write_position_table_csv(out: &mut dyn Write) -> io::Result<()> {
    c960_ops::run::write_position_table_csv(out)
}

/// A JSON array with one compact object per line.
fn write_json<T: Serialize>(
    out: &mut dyn Write,
    count: usize,
    records: impl Iterator<Item = T>,
) -> io::Result<()> {
    out.write_all(b"[\n")?;
    for (i, record) in records.enumerate() {
        serde_json::to_writer(&mut *out, &record)?;
        out.write_all(if i + 1 < count { b",\n" } else { b"\n" })?;
    }
    out.write_all(b"]\n")?;
    Ok(())
}

fn write_parquet<T: Clone>(
    out: &mut dyn Write,
    records: &[T],
    frame: fn(&[T]) -> PolarsResult<DataFrame>,
) -> io::Result<()> {
    write_parquet_slices(out, std::iter::once(records.to_vec()), frame)
}
