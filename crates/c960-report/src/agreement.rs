//! Agreement with independent analyses as the site shows it: the report's
//! balance estimate (the sweep consensus, else the games) compared by
//! `c960_verdict::agreement` with the tables given (or shown again from a
//! recorded `agreement.json`), written beside the site with the scatter
//! chart of the estimate against the analyses' standardized mean, the
//! index's section and the fair page's sentence.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use askama::Template;
use c960_verdict::agreement::{self as verdict, Estimate};
pub use c960_verdict::agreement::{AGREEMENT_CSV, AGREEMENT_JSON, Agreement, Analysis};

use crate::{
    ReportError,
    balance::Balance,
    charts::{self, Shown},
};

/// The scatter chart's name (`charts/agreement.svg` and `.png`).
const CHART: &str = "agreement";

/// Compares `balance`'s estimate with each of `tables` (`sp,value` CSV
/// files or `FILE:COLUMN`) and their mean; writes `agreement.json`,
/// `agreement.csv` and the scatter chart of the estimate against the mean
/// into `out`. `None` without tables.
pub fn compute_and_write(
    balance: &Balance,
    tables: &[PathBuf],
    out: &Path,
) -> Result<Option<(Agreement, Shown)>, ReportError> {
    let (estimate, ours) = estimate_of(balance);
    match verdict::compute(estimate, &ours, tables)? {
        Some(agreement) => write(agreement, out).map(Some),
        None => Ok(None),
    }
}

/// Shows again an agreement recorded in `record` (an `agreement.json` of
/// an earlier report), refused unless it was made for this report's
/// estimate and every figure follows from its points
/// ([`verdict::from_record`]); each of `tables` is one the record names,
/// and its row is recomputed from it.
pub fn from_record(
    balance: &Balance,
    record: &Path,
    tables: &[PathBuf],
    out: &Path,
) -> Result<(Agreement, Shown), ReportError> {
    let (estimate, ours) = estimate_of(balance);
    let agreement = verdict::from_record((estimate, &ours), record, tables)?;
    write(agreement, out)
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
fn write(agreement: Agreement, out: &Path) -> Result<(Agreement, Shown), ReportError> {
    let tables = agreement
        .references
        .iter()
        .filter(|r| !r.sha256.is_empty())
        .count();
    verdict::write_tables(&agreement, out)?;
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
    Ok((agreement, shown))
}

/// The index's section (`templates/agreement/section.html`): what was
/// compared, a table of the agreements with their intervals, and how to
/// check them.
#[must_use]
pub fn section(agreement: &Agreement, chart: &str) -> String {
    let interval = |c: &Estimate| format!("{:.2} ({:.2} to {:.2})", c.value, c.low, c.high);
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

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    #[test]
    fn a_row_shown_as_recorded_is_marked_so() {
        let dir = tempfile::tempdir().unwrap();
        let ours: BTreeMap<u32, f64> = (0..48).map(|sp| (sp, f64::from(sp * 7 % 48))).collect();
        let tables: Vec<PathBuf> = [2_u32, 3]
            .iter()
            .map(|k| {
                let mut text = String::from("sp,value\n");
                for (sp, v) in &ours {
                    let _ = writeln!(text, "{sp},{}", v + f64::from((sp * k) % 5));
                }
                let path = dir.path().join(format!("t{k}.csv"));
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        let mut agreement = verdict::compute("e", &ours, &tables).unwrap().unwrap();
        agreement.references[1].recomputed = false;
        let section = section(&agreement, "charts/agreement.svg");
        let marked = "(as recorded; not recomputed: its table was not given)";
        assert_eq!(section.matches(marked).count(), 1, "{section}");
        let line = |name: &str| section.lines().find(|l| l.contains(name)).unwrap();
        assert!(line("t3.csv").contains(marked) && !line("t2.csv").contains(marked));
    }
}
