//! Agreement with independent analyses: the report's balance estimate (the
//! sweep consensus, else the games) against per-position tables that other
//! people made with other engines and settings — each one, and their
//! standardized mean — with bootstrap intervals, as `c960 compare` gives
//! them. The tables are read for comparison only: nothing of them enters an
//! estimate, and the site records each one's file name and SHA-256 so a
//! reader can fetch the same files and check every figure.
//!
//! `agreement.json` also records each position's point of the chart, so a
//! site can be rebuilt from it ([`from_record`]) without the tables: a
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

use askama::Template;
use c960_balance::agreement::{
    Bootstrap, Comparison, SAME_MEASUREMENT, compare_by_sp, significant, standardized_mean_by_sp,
};
use c960_store::{CsvCell, read_position_column, spreadsheet_csv};
use serde::{Deserialize, Serialize};

use crate::{
    ReportError,
    balance::Balance,
    charts::{self, Shown},
};

/// The agreement files in the site.
pub const AGREEMENT_JSON: &str = "agreement.json";
/// The same, one row per reference.
pub const AGREEMENT_CSV: &str = "agreement.csv";
/// The scatter chart's name (`charts/agreement.svg` and `.png`).
const CHART: &str = "agreement";

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

/// Compares `balance`'s estimate with each of `tables` (`sp,value` CSV
/// files or `FILE:COLUMN`) and their mean; writes `agreement.json`,
/// `agreement.csv` and the scatter chart of the estimate against the mean
/// into `out`. `None` without tables.
pub fn compute_and_write(
    balance: &Balance,
    tables: &[PathBuf],
    out: &Path,
) -> Result<Option<(Agreement, Shown)>, ReportError> {
    if tables.is_empty() {
        return Ok(None);
    }
    let (estimate, ours) = estimate_of(balance);
    let mut columns: Vec<c960_store::PositionColumn> = Vec::new();
    let bootstrap = Bootstrap::default();
    let mut references = Vec::new();
    for table in tables {
        let (reference, column) = compare_table(table, &ours, &columns, bootstrap)?;
        references.push(reference);
        columns.push(column);
    }
    let tables_by_sp: Vec<&BTreeMap<u32, f64>> = columns.iter().map(|c| &c.values).collect();
    let mean = standardized_mean_by_sp(&tables_by_sp);
    if columns.len() > 1 {
        let label = format!("mean of the {} (standardized)", columns.len());
        let comparison =
            compare_by_sp(&ours, &mean, bootstrap).map_err(|why| ReportError::BadRun {
                dir: tables[0].clone(),
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
    let agreement = Agreement {
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
    };
    write(&agreement, out).map(Some)
}

/// One independent table (`table`: a file or `FILE:COLUMN`) against the
/// estimate `ours`, with the column read; refused if it repeats one of
/// `earlier` or is the same measurement as the estimate.
fn compare_table(
    table: &Path,
    ours: &BTreeMap<u32, f64>,
    earlier: &[c960_store::PositionColumn],
    bootstrap: Bootstrap,
) -> Result<(Analysis, c960_store::PositionColumn), ReportError> {
    let bad = |reason: String| ReportError::BadRun {
        dir: table.to_path_buf(),
        reason,
    };
    let spec = table.to_string_lossy();
    let column = read_position_column(&spec).map_err(|e| ReportError::BadRun {
        dir: e.path.clone(),
        reason: e.reason,
    })?;
    let bytes = fs::read(&column.path).map_err(ReportError::Io)?;
    let sha256 = c960_store::sha256_hex(&bytes);
    if let Some(earlier) = earlier.iter().find(|c| c.values == column.values) {
        return Err(bad(format!(
            "holds the same values as {earlier}: a table given twice would weigh twice in \
             the mean; give each table once"
        )));
    }
    let name = column
        .path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let comparison = compare_by_sp(ours, &column.values, bootstrap)
        .map_err(|why| bad(why.describe("the report's estimate", &name)))?;
    if comparison.pearson.value >= SAME_MEASUREMENT {
        return Err(bad(format!(
            "agrees with the report's estimate at r = {:.6}: it is the same measurement (a \
             copy or a rescaling), not an independent analysis",
            comparison.pearson.value
        )));
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

/// The estimate the analyses are compared with: the sweep consensus when
/// the report has sweeps, else White's score in games; its description and
/// its value per SP.
fn estimate_of(balance: &Balance) -> (&'static str, BTreeMap<u32, f64>) {
    if balance.sweep_rows.is_empty() {
        (
            "White's score in games (games_score in balance.csv)",
            balance
                .games_rows
                .iter()
                .map(|(sp, r)| (u32::from(*sp), r.score))
                .collect(),
        )
    } else {
        (
            "the consensus of the sweeps (sweep_cp in balance.csv, centipawns)",
            balance
                .sweep_rows
                .iter()
                .map(|(sp, r)| (u32::from(*sp), r.estimate))
                .collect(),
        )
    }
}

/// Writes `agreement.json`, `agreement.csv` and the chart of its points.
fn write(agreement: &Agreement, out: &Path) -> Result<(Agreement, Shown), ReportError> {
    let tables = agreement
        .references
        .iter()
        .filter(|r| !r.sha256.is_empty())
        .count();
    let json = serde_json::to_string_pretty(agreement).map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join(AGREEMENT_JSON), |w| {
        io::Write::write_all(w, format!("{json}\n").as_bytes())
    })?;
    let csv = csv(agreement)?;
    c960_store::write_atomically(&out.join(AGREEMENT_CSV), |w| {
        io::Write::write_all(w, csv.as_bytes())
    })?;
    let scatter = charts::Scatter {
        title: "Balance estimate against the independent analyses".to_owned(),
        provenance: format!(
            "x: the standardized mean of {tables} independent analyses; y: {}",
            agreement.estimate
        ),
        points: agreement.points.clone(),
        x_desc: "independent analyses, standard deviations".to_owned(),
        y_desc: "c960's balance estimate".to_owned(),
        marked: None,
    };
    let ([svg, _], hotspots) = charts::write_with_hotspots(&scatter, &out.join("charts"), CHART)
        .map_err(ReportError::Io)?;
    let shown = Shown {
        title: scatter.title,
        file: svg.strip_prefix(out).unwrap_or(&svg).to_path_buf(),
        hotspots,
    };
    Ok((agreement.clone(), shown))
}

/// One row per reference, every cell quoted and the names made inert for
/// spreadsheets.
fn csv(agreement: &Agreement) -> io::Result<String> {
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

/// The index's section (`templates/agreement/section.html`): what was
/// compared, a table of the agreements with their intervals, and how to
/// check them.
#[must_use]
pub fn section(agreement: &Agreement, chart: &str) -> String {
    let interval = |c: &c960_balance::agreement::Estimate| {
        format!("{:.2} ({:.2} to {:.2})", c.value, c.low, c.high)
    };
    Section {
        estimate: &agreement.estimate,
        rows: agreement
            .references
            .iter()
            .map(|r| {
                let c = &r.comparison;
                Row {
                    name: &r.name,
                    positions: c.positions,
                    pearson: interval(&c.pearson),
                    spearman: interval(&c.spearman),
                    top: format!("{:.0}", c.top_decile * 100.0),
                    bottom: format!("{:.0}", c.bottom_decile * 100.0),
                    recorded: !r.recomputed,
                }
            })
            .collect(),
        recorded: agreement.references.iter().any(|r| !r.recomputed),
        chart,
    }
    .to_string()
}

/// The index's agreement section.
#[derive(Template)]
#[template(path = "agreement/section.html")]
struct Section<'a> {
    estimate: &'a str,
    rows: Vec<Row<'a>>,
    /// Whether any row is shown as recorded, not recomputed.
    recorded: bool,
    chart: &'a str,
}

/// One analysis against the estimate, its numbers as the table shows them.
struct Row<'a> {
    name: &'a str,
    positions: usize,
    pearson: String,
    spearman: String,
    top: String,
    bottom: String,
    /// Shown as an `agreement.json` recorded it: its table was not given.
    recorded: bool,
}

/// One sentence for the fair positions page
/// (`templates/agreement/sentence.html`): how far the independent analyses
/// agree with the ranking it is made from.
#[must_use]
pub fn sentence(agreement: &Agreement) -> String {
    let Some(headline) = agreement.headline() else {
        return String::new();
    };
    let c = &headline.comparison;
    Sentence {
        pearson: format!(
            "{:.2} (95% interval {:.2} to {:.2})",
            c.pearson.value, c.pearson.low, c.pearson.high
        ),
        positions: c.positions,
        name: &headline.name,
    }
    .to_string()
}

/// The fair positions page's sentence on the agreement.
#[derive(Template)]
#[template(path = "agreement/sentence.html")]
struct Sentence<'a> {
    pearson: String,
    positions: usize,
    name: &'a str,
}
