//! The one reader of a verdict table (`balance.csv`, from `c960 balance`
//! or `c960 report`): its rows typed ([`BalanceRow`]), named by its file
//! name and SHA-256 as a draw record or a book manifest names it, and
//! refused in one line when it contradicts itself — a column named twice,
//! a position listed twice, a placement that is not its SP's, a cell that
//! is not a number, a verdict or method c960 does not write, an interval
//! whose low end lies above its high end or that does not hold its
//! estimate, a q-value outside 0..1, or a figure beyond what any engine or
//! game gives.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

use c960_balance::{consensus::MAX_SCORE, verdict::Verdict};
use c960_core::StartPosition;
use c960_store::{BALANCE_CSV, columns::balance as column, sha256_hex};
use thiserror::Error;

use crate::{BalanceRow, Interval, balance::Method, reference::Scale};

/// A verdict table that cannot be read, with why (one line).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}: {reason}")]
pub struct TableError {
    /// The table as given.
    pub file: String,
    /// What is wrong.
    pub reason: String,
}

/// A verdict table read from its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceTable {
    /// The file name, without its directory.
    pub file: String,
    /// The SHA-256 of its bytes.
    pub sha256: String,
    /// Its rows, in table order.
    pub rows: Vec<BalanceRow>,
}

/// The header's columns a reader takes, by position in the header.
struct Columns {
    sp: usize,
    verdict: usize,
    placement: Option<usize>,
    q_value: Option<usize>,
    estimate: Option<usize>,
    low: Option<usize>,
    high: Option<usize>,
    method: Option<usize>,
    raters: Option<usize>,
}

impl Columns {
    /// The columns of `header`, refused if it names one twice or lacks
    /// `sp` or `verdict`.
    fn of(header: &[String]) -> Result<Columns, String> {
        for (i, name) in header.iter().enumerate() {
            if header[..i].contains(name) {
                return Err(format!(
                    "the header names column {name} twice: which would be read?"
                ));
            }
        }
        let at = |name: &str| header.iter().position(|h| h == name);
        let verdict = at(column::VERDICT).ok_or_else(|| {
            "it has no verdict column; give the balance.csv (or its directory) that c960 \
             balance or c960 report writes"
                .to_owned()
        })?;
        let sp = at(column::SP).ok_or_else(|| "it has no sp column".to_owned())?;
        Ok(Columns {
            sp,
            verdict,
            placement: at(column::PLACEMENT),
            q_value: at(column::Q_VALUE),
            estimate: at(column::ESTIMATE),
            low: at(column::LOW),
            high: at(column::HIGH),
            method: at(column::METHOD),
            raters: at(column::SWEEP_ENGINES),
        })
    }
}

impl BalanceTable {
    /// The `balance.csv` that `path` names (the file, or the one in the
    /// directory given), checked to be a regular file without opening it:
    /// a FIFO would block its read for ever, so a flag's parser refuses
    /// it before any work.
    pub fn file_of(path: &Path) -> Result<PathBuf, TableError> {
        let csv = if path.is_dir() {
            path.join(BALANCE_CSV)
        } else {
            path.to_owned()
        };
        c960_store::check_input(&csv).map_err(|e| TableError {
            file: csv.display().to_string(),
            reason: reason_of(&e),
        })?;
        Ok(csv)
    }

    /// Reads `path`: a `balance.csv`, or the directory holding one.
    pub fn read(path: &Path) -> Result<BalanceTable, TableError> {
        let csv = Self::file_of(path)?;
        let bad = |reason: String| TableError {
            file: csv.display().to_string(),
            reason,
        };
        let bytes = c960_store::read_input(&csv).map_err(|e| bad(reason_of(&e)))?;
        let rows = rows_of(&bytes).map_err(bad)?;
        Ok(BalanceTable {
            file: csv.file_name().map_or_else(
                || csv.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            sha256: sha256_hex(&bytes),
            rows,
        })
    }

    /// The positions whose verdict is `verdict`, ascending.
    #[must_use]
    pub fn with_verdict(&self, verdict: Verdict) -> Vec<StartPosition> {
        let mut kept: Vec<StartPosition> = self
            .rows
            .iter()
            .filter(|r| r.verdict == verdict)
            .map(|r| r.sp)
            .collect();
        kept.sort_unstable();
        kept
    }
}

/// Why a table's file cannot be read, in words: bad input says what the
/// path is; any other error is the system's.
fn reason_of(error: &std::io::Error) -> String {
    if c960_store::is_bad_input(error) {
        error.to_string()
    } else {
        format!("cannot read it: {error}")
    }
}

/// The rows of a verdict table's bytes, checked.
fn rows_of(bytes: &[u8]) -> Result<Vec<BalanceRow>, String> {
    let mut reader = csv::Reader::from_reader(bytes);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| format!("not a CSV table: {e}"))?
        .iter()
        .map(|h| h.trim().to_owned())
        .collect();
    let columns = Columns::of(&header)?;
    let mut rows: Vec<BalanceRow> = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| format!("line {line}: {e}"))?;
        let row = row_of(&record, &columns).map_err(|e| format!("line {line}: {e}"))?;
        if !seen.insert(row.sp) {
            return Err(format!(
                "SP {} appears twice (line {line}): a verdict table lists each position once",
                row.sp.sp()
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// One row, checked against itself.
fn row_of(record: &csv::StringRecord, columns: &Columns) -> Result<BalanceRow, String> {
    let cell = |c: Option<usize>| c.and_then(|c| record.get(c)).unwrap_or("").trim();
    let number = |c: Option<usize>, name: &str| -> Result<Option<f64>, String> {
        let text = cell(c);
        if text.is_empty() {
            return Ok(None);
        }
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(Some)
            .ok_or_else(|| format!("{name} {text:?} is not a number"))
    };
    let sp = StartPosition::from_sp_str(cell(Some(columns.sp))).map_err(|e| e.to_string())?;
    let placement = cell(columns.placement);
    if !placement.is_empty() && placement != sp.placement() {
        return Err(format!(
            "SP {} is {}, not {placement:?}: the placement is not its SP's",
            sp.sp(),
            sp.placement()
        ));
    }
    let verdict_text = cell(Some(columns.verdict));
    let verdict = Verdict::from_name(verdict_text).ok_or_else(|| {
        format!(
            "SP {}: the verdict {verdict_text:?} is not one c960 writes ({})",
            sp.sp(),
            Verdict::ALL.map(Verdict::name).join(", ")
        )
    })?;
    let method = match cell(columns.method) {
        "" => None,
        text => Some(Method::from_name(text).ok_or_else(|| {
            format!(
                "SP {}: the method {text:?} is neither sweep nor games",
                sp.sp()
            )
        })?),
    };
    let q_value = number(columns.q_value, column::Q_VALUE)?;
    if let Some(q) = q_value.filter(|q| !(0.0..=1.0).contains(q)) {
        return Err(format!("SP {}: the q-value {q} is outside 0..1", sp.sp()));
    }
    let estimate = number(columns.estimate, column::ESTIMATE)?;
    let low = number(columns.low, column::LOW)?;
    let high = number(columns.high, column::HIGH)?;
    let interval = match (low, high) {
        (Some(low), Some(high)) => Some(Interval { low, high }),
        (None, None) => None,
        _ => {
            return Err(format!(
                "SP {}: one end of the interval is missing",
                sp.sp()
            ));
        }
    };
    check_figures(sp, method, estimate, interval)?;
    let raters = match cell(columns.raters) {
        "" => None,
        text => Some(text.parse::<u32>().map_err(|_| {
            format!(
                "SP {}: {} {text:?} is not a count",
                sp.sp(),
                column::SWEEP_ENGINES
            )
        })?),
    };
    Ok(BalanceRow {
        sp,
        verdict,
        q_value,
        method,
        estimate,
        interval,
        raters,
    })
}

/// Refuses figures no engine or game gives, and an interval that is
/// upside down or does not hold its estimate.
fn check_figures(
    sp: StartPosition,
    method: Option<Method>,
    estimate: Option<f64>,
    interval: Option<Interval>,
) -> Result<(), String> {
    let sp = sp.sp();
    let (range, unit) = match method.map(Method::scale) {
        Some(Scale::Score) => ((0.0, 1.0), "a score"),
        _ => ((-MAX_SCORE, MAX_SCORE), "centipawns"),
    };
    let figures = estimate
        .into_iter()
        .chain(interval.into_iter().flat_map(|i| [i.low, i.high]));
    for value in figures {
        if value < range.0 || value > range.1 {
            return Err(format!(
                "SP {sp}: {value:e} is outside {}..{} ({unit}): no engine or game gives it",
                range.0, range.1
            ));
        }
    }
    if let Some(i) = interval {
        if i.low > i.high {
            return Err(format!(
                "SP {sp}: the interval's low end {} lies above its high end {}",
                i.low, i.high
            ));
        }
        if let Some(e) = estimate.filter(|e| !i.contains(*e)) {
            return Err(format!(
                "SP {sp}: the estimate {e} lies outside its interval {} to {}",
                i.low, i.high
            ));
        }
    }
    Ok(())
}
