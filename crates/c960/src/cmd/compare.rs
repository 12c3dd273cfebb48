//! `c960 compare`: how far a per-position column agrees with independent
//! per-position tables — each one, and their standardized mean.

use std::fmt::Write as _;

use anyhow::Result;
use c960_store::{CsvCell, PositionColumn, read_position_column, spreadsheet_csv};
use c960_verdict::agreement::{Bootstrap, ColumnComparison as Row, compare_columns};
use serde::Serialize;

use crate::{
    cli::{CompareArgs, CompareFormat, InputError},
    output::{Out, Text},
};

#[derive(Debug, Serialize)]
struct Report {
    c960_version: &'static str,
    /// What was judged (`FILE:COLUMN`).
    ours: String,
    /// Positions it scores.
    ours_positions: usize,
    seed: u64,
    rows: Vec<Row>,
}

pub(crate) fn run(args: &CompareArgs) -> Result<()> {
    if args.resamples < 100 {
        return Err(InputError(format!(
            "--resamples {} is too few for a 95% interval (at least 100)",
            args.resamples
        ))
        .into());
    }
    let read = |spec: &str| read_position_column(spec).map_err(|e| InputError(e.to_string()));
    let ours = read(&args.ours)?;
    let references = args
        .references
        .iter()
        .map(|spec| read(spec))
        .collect::<Result<Vec<_>, _>>()?;
    // The tables read are inputs: `--out` may not be one of them.
    let claim = references.iter().fold(
        c960_store::Claim::new().input(&ours.path, "the column judged"),
        |claim, r| claim.input(&r.path, "--with"),
    );
    let out = Out::claim(args.out.as_deref(), claim)?;
    let bootstrap = Bootstrap {
        resamples: args.resamples,
        seed: args.seed,
        ..Bootstrap::default()
    };
    let named: Vec<(String, PositionColumn)> =
        references.into_iter().map(|r| (name(&r), r)).collect();
    let rows = compare_columns(&ours, &named, bootstrap).map_err(InputError)?;
    let report = Report {
        c960_version: env!("CARGO_PKG_VERSION"),
        ours: ours.to_string(),
        ours_positions: ours.values.len(),
        seed: args.seed,
        rows,
    };
    let text = match args.format {
        CompareFormat::Text => text(&report),
        CompareFormat::Csv => csv(&report)?,
        CompareFormat::Json => format!("{}\n", serde_json::to_string_pretty(&report)?),
    };
    let mut written = Text::default();
    written.write_str(&text)?;
    written.write(&out)?;
    Ok(())
}

/// A reference's short name: its file name, with the column when named.
fn name(reference: &PositionColumn) -> String {
    let file = reference.path.file_name().map_or_else(
        || reference.path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    if reference.column == "value" {
        file
    } else {
        format!("{file}:{}", reference.column)
    }
}

fn text(report: &Report) -> String {
    let mut out = String::new();
    let level = report
        .rows
        .first()
        .map_or(c960_verdict::agreement::LEVEL, |r| r.comparison.level);
    let resamples = report.rows.first().map_or(0, |r| r.comparison.resamples);
    let _ = writeln!(
        out,
        "{} ({} positions) against independent tables; {:.0}% percentile bootstrap intervals \
         over positions ({resamples} resamples, seed {})",
        report.ours,
        report.ours_positions,
        level * 100.0,
        report.seed
    );
    let width = report
        .rows
        .iter()
        .map(|r| r.reference.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    let _ = writeln!(
        out,
        "{:<width$}  {:>5}  {:<22}  {:<22}  {:>7}  {:>10}  {:>8}  {:>7}",
        "reference", "n", "Pearson r", "Spearman", "top 10%", "bottom 10%", "offset", "scale"
    );
    for row in &report.rows {
        let c = &row.comparison;
        let ci =
            |e: c960_balance::Estimate| format!("{:.3} [{:.3}, {:.3}]", e.value, e.low, e.high);
        let _ = writeln!(
            out,
            "{:<width$}  {:>5}  {:<22}  {:<22}  {:>6.0}%  {:>9.0}%  {:>8.2}  {:>7.3}",
            row.reference,
            c.positions,
            ci(c.pearson),
            ci(c.spearman),
            c.top_decile * 100.0,
            c.bottom_decile * 100.0,
            c.offset,
            c.scale
        );
    }
    let _ = writeln!(
        out,
        "(offset: our mean minus theirs; scale: ours per unit of theirs by least squares; the \
         mean of several tables is in standard deviations)"
    );
    out
}

/// One row per reference, every cell quoted and the names made inert for
/// spreadsheets.
fn csv(report: &Report) -> Result<String> {
    let header = [
        "reference",
        "source",
        "ours",
        "positions",
        "pearson",
        "pearson_low",
        "pearson_high",
        "spearman",
        "spearman_low",
        "spearman_high",
        "top_decile",
        "bottom_decile",
        "offset",
        "scale",
        "level",
        "resamples",
        "seed",
    ];
    let rows = report.rows.iter().map(|row| {
        let c = &row.comparison;
        let numbers = [
            c.pearson.value,
            c.pearson.low,
            c.pearson.high,
            c.spearman.value,
            c.spearman.low,
            c.spearman.high,
            c.top_decile,
            c.bottom_decile,
            c.offset,
            c.scale,
            c.level,
        ];
        let mut record = vec![
            CsvCell::Text(&row.reference),
            CsvCell::Text(&row.source),
            CsvCell::Text(&report.ours),
            CsvCell::Number(c.positions.to_string()),
        ];
        record.extend(numbers.iter().map(|n| CsvCell::Number(n.to_string())));
        record.push(CsvCell::Number(c.resamples.to_string()));
        record.push(CsvCell::Number(report.seed.to_string()));
        record
    });
    Ok(spreadsheet_csv(&header, rows)?)
}
