//! Agreement with independent analyses: a balance estimate (the sweep
//! consensus, else the games) against per-position tables that other
//! people made with other engines and settings — each one, and their
//! standardized mean — with bootstrap intervals, as `c960 compare` gives
//! them. The tables are read for comparison only: nothing of them enters an
//! estimate, and the record names each one's file name and SHA-256 so a
//! reader can fetch the same files and check every figure.
//!
//! `agreement.json` also records each position's point of the comparison,
//! so it can be shown again without the tables ([`from_record`]): a
//! published dataset regenerates where its independent analyses are not
//! at hand, and the record is refused if the estimate has changed or its
//! figures do not follow from its points ([`record`]).

mod record;

pub use record::from_record;

use std::{
    collections::BTreeMap,
    fs, io,
    path::{Path, PathBuf},
};

use c960_balance::agreement::{
    SAME_MEASUREMENT, compare_by_sp, significant, standardized_mean_by_sp,
};
pub use c960_balance::{
    LEVEL,
    agreement::{Bootstrap, Comparison, Estimate},
};
use c960_store::{CsvCell, PositionColumn, read_position_column, spreadsheet_csv};
use serde::{Deserialize, Serialize};

use crate::VerdictError;

/// The agreement files of a report.
pub const AGREEMENT_JSON: &str = "agreement.json";
/// The same, one row per reference.
pub const AGREEMENT_CSV: &str = "agreement.csv";

/// One independent table against the estimate.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Analysis {
    /// Its file name (the mean of all of them: `mean of N`).
    pub name: String,
    /// SHA-256 of the file (empty for the mean).
    pub sha256: String,
    /// Positions it scores.
    pub positions: usize,
    /// The comparison over the positions both score.
    pub comparison: Comparison,
    /// Whether this report computed the row (from its table, or the mean
    /// from the points) rather than showing it as an `agreement.json`
    /// recorded it; not part of the record.
    #[serde(skip)]
    pub recomputed: bool,
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Agreement {
    /// What was compared: the consensus of the sweeps, or the games, with
    /// its column in `balance.csv`.
    pub estimate: String,
    /// Each table, then their standardized mean (with two or more).
    pub references: Vec<Analysis>,
    /// The bootstrap's seed.
    pub seed: u64,
    /// Each position's point of the chart: `[sp, the analyses' standardized
    /// mean, the estimate]`.
    pub points: Vec<(u32, f64, f64)>,
}

impl Agreement {
    /// The standardized mean's row, or the only table's.
    #[must_use]
    pub fn headline(&self) -> Option<&Analysis> {
        self.references.last()
    }
}

/// Compares the estimate `ours` (described by `estimate`) with each of
/// `tables` (`sp,value` CSV files or `FILE:COLUMN`) and their standardized
/// mean. `None` without tables.
pub fn compute(
    estimate: &str,
    ours: &BTreeMap<u32, f64>,
    tables: &[PathBuf],
) -> Result<Option<Agreement>, VerdictError> {
    if tables.is_empty() {
        return Ok(None);
    }
    let mut columns: Vec<c960_store::PositionColumn> = Vec::new();
    let bootstrap = Bootstrap::default();
    let mut references = Vec::new();
    for table in tables {
        let (reference, column) = compare_table(table, ours, &columns, bootstrap)?;
        references.push(reference);
        columns.push(column);
    }
    let tables_by_sp: Vec<&BTreeMap<u32, f64>> = columns.iter().map(|c| &c.values).collect();
    let mean = standardized_mean_by_sp(&tables_by_sp);
    if columns.len() > 1 {
        let label = format!("mean of the {} (standardized)", columns.len());
        let comparison =
            compare_by_sp(ours, &mean, bootstrap).map_err(|why| VerdictError::BadInput {
                path: tables[0].clone(),
                reason: why.describe("the report's estimate", &label),
            })?;
        references.push(Analysis {
            name: label,
            sha256: String::new(),
            positions: mean.len(),
            comparison,
            recomputed: true,
        });
    }
    Ok(Some(Agreement {
        estimate: estimate.to_owned(),
        references,
        seed: bootstrap.seed,
        points: ours
            .iter()
            .filter_map(|(sp, v)| {
                mean.get(sp)
                    .map(|m| (*sp, significant(*m), significant(*v)))
            })
            .collect(),
    }))
}

/// One independent table (`table`: a file or `FILE:COLUMN`) against the
/// estimate `ours`, with the column read; refused if it repeats one of
/// `earlier` or is the same measurement as the estimate.
fn compare_table(
    table: &Path,
    ours: &BTreeMap<u32, f64>,
    earlier: &[c960_store::PositionColumn],
    bootstrap: Bootstrap,
) -> Result<(Analysis, c960_store::PositionColumn), VerdictError> {
    let bad = |reason: String| VerdictError::BadInput {
        path: table.to_path_buf(),
        reason,
    };
    let spec = table.to_string_lossy();
    let column = read_position_column(&spec).map_err(|e| VerdictError::BadInput {
        path: e.path.clone(),
        reason: e.reason,
    })?;
    let bytes = fs::read(&column.path)?;
    let sha256 = c960_store::sha256_hex(&bytes);
    if let Some(why) = repeats(&column, earlier) {
        return Err(bad(why));
    }
    let name = column
        .path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let comparison = compare_by_sp(ours, &column.values, bootstrap)
        .map_err(|why| bad(why.describe("the report's estimate", &name)))?;
    if let Some(why) = same_measurement(&comparison, "the report's estimate", "analysis") {
        return Err(bad(why));
    }
    let reference = Analysis {
        name,
        sha256,
        positions: column.values.len(),
        comparison,
        recomputed: true,
    };
    Ok((reference, column))
}

/// Why `column` may not join the tables `earlier`: it holds the same
/// values as one of them, and would weigh twice in their mean.
fn repeats<'a>(
    column: &PositionColumn,
    earlier: impl IntoIterator<Item = &'a PositionColumn>,
) -> Option<String> {
    earlier
        .into_iter()
        .find(|e| e.values == column.values)
        .map(|e| {
            format!(
                "holds the same values as {e}: a table given twice would weigh twice in the \
                 mean; give each table once"
            )
        })
}

/// Why a reference compared with `ours` is not independent of it: the two
/// agree so closely that one is a copy or a rescaling of the other. `kind`
/// names what an independent reference is (an analysis, a table).
fn same_measurement(comparison: &Comparison, ours: &str, kind: &str) -> Option<String> {
    (comparison.pearson.value >= SAME_MEASUREMENT).then(|| {
        format!(
            "agrees with {ours} at r = {:.6}: it is the same measurement (a copy or a \
             rescaling), not an independent {kind}",
            comparison.pearson.value
        )
    })
}

/// One reference column against the compared one, as `c960 compare`
/// gives it.
#[derive(Clone, Debug, Serialize)]
pub struct ColumnComparison {
    /// The reference's name (its file name, or `mean of N`).
    pub reference: String,
    /// Where it was read (`FILE:COLUMN`; empty for the mean).
    pub source: String,
    /// Positions the reference scores.
    pub reference_positions: usize,
    /// The comparison over the positions both score.
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// Compares the column `ours` with each of `references` (each with its
/// short name) and, with two or more, their standardized mean, by
/// `bootstrap`. A reference given twice, or one that is the same
/// measurement as `ours`, is refused in words (bad input).
pub fn compare_columns(
    ours: &PositionColumn,
    references: &[(String, PositionColumn)],
    bootstrap: Bootstrap,
) -> Result<Vec<ColumnComparison>, String> {
    for (i, (_, reference)) in references.iter().enumerate() {
        let earlier: Vec<&PositionColumn> = references[..i].iter().map(|(_, e)| e).collect();
        if let Some(why) = repeats(reference, earlier) {
            return Err(format!("{reference} {why}"));
        }
    }
    let one = |reference: String, source: String, theirs: &BTreeMap<u32, f64>| {
        let comparison = compare_by_sp(&ours.values, theirs, bootstrap)
            .map_err(|why| why.describe(&ours.to_string(), &reference))?;
        if let Some(why) = same_measurement(&comparison, &ours.to_string(), "table") {
            return Err(format!("{reference} {why}"));
        }
        Ok(ColumnComparison {
            reference,
            source,
            reference_positions: theirs.len(),
            comparison,
        })
    };
    let mut rows = references
        .iter()
        .map(|(name, column)| one(name.clone(), column.to_string(), &column.values))
        .collect::<Result<Vec<_>, String>>()?;
    if references.len() > 1 {
        let tables: Vec<&BTreeMap<u32, f64>> = references.iter().map(|(_, c)| &c.values).collect();
        let mean = standardized_mean_by_sp(&tables);
        let label = format!("mean of the {} (standardized)", references.len());
        rows.push(one(label, String::new(), &mean)?);
    }
    Ok(rows)
}

/// Writes `agreement.json` and `agreement.csv` into `out`, each
/// atomically.
pub fn write_tables(agreement: &Agreement, out: &Path) -> Result<(), VerdictError> {
    let json = serde_json::to_string_pretty(agreement).map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join(AGREEMENT_JSON), |w| {
        io::Write::write_all(w, format!("{json}\n").as_bytes())
    })?;
    let csv = csv(agreement)?;
    c960_store::write_atomically(&out.join(AGREEMENT_CSV), |w| {
        io::Write::write_all(w, csv.as_bytes())
    })?;
    Ok(())
}

/// One row per reference, every cell quoted and the names made inert for
/// spreadsheets.
pub(crate) fn csv(agreement: &Agreement) -> io::Result<String> {
    let header = [
        "reference",
        "sha256",
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
        "recomputed",
    ];
    let rows = agreement.references.iter().map(|r| {
        let c = &r.comparison;
        let mut row = vec![
            CsvCell::Text(&r.name),
            CsvCell::Text(&r.sha256),
            CsvCell::Number(c.positions.to_string()),
        ];
        row.extend(
            [
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
            ]
            .iter()
            .map(|n| CsvCell::Number(n.to_string())),
        );
        row.push(CsvCell::Text(if r.recomputed { "true" } else { "false" }));
        row
    });
    spreadsheet_csv(&header, rows)
}
