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
    /// Draw chance, its ends, expected score, its ends.
    outcome: [Option<usize>; 6],
    /// The raters with WDL.
    wdl_raters: Option<usize>,
    /// The six difficulty measures.
    difficulty: [Option<usize>; 6],
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
            wdl_raters: at(column::WDL_RATERS),
            difficulty: c960_store::columns::difficulty::MEASURES.map(at),
            outcome: [
                at(column::DRAW_CHANCE),
                at(column::DRAW_CHANCE_LOW),
                at(column::DRAW_CHANCE_HIGH),
                at(column::WHITE_EXPECTED),
                at(column::WHITE_EXPECTED_LOW),
                at(column::WHITE_EXPECTED_HIGH),
            ],
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

/// The row's position from its `sp` cell, refused when its `placement`
/// cell (if any) is another position's.
fn position_of(sp: &str, placement: &str) -> Result<StartPosition, String> {
    let sp = StartPosition::from_sp_str(sp).map_err(|e| e.to_string())?;
    if !placement.is_empty() && placement != sp.placement() {
        return Err(format!(
            "SP {} is {}, not {placement:?}: the placement is not its SP's",
            sp.sp(),
            sp.placement()
        ));
    }
    Ok(sp)
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
    let sp = position_of(cell(Some(columns.sp)), cell(columns.placement))?;
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
    let outcome = outcome_of(sp, &columns.outcome, &number)?
        .map(|o| with_raters(sp, o, cell(columns.wdl_raters)))
        .transpose()?;
    let difficulty = difficulty_of(sp, record, &columns.difficulty)?;
    Ok(BalanceRow {
        sp,
        verdict,
        q_value,
        method,
        estimate,
        interval,
        raters,
        outcome,
        difficulty,
    })
}

/// A row's difficulty measures: none when its three counts are empty;
/// counts must be whole numbers (good moves at least 1) and the gaps whole
/// centipawns.
fn difficulty_of(
    sp: StartPosition,
    record: &csv::StringRecord,
    at: &[Option<usize>; 6],
) -> Result<Option<crate::FirstMoves>, String> {
    let names = c960_store::columns::difficulty::MEASURES;
    let mut cells = [None; 6];
    for (i, (c, name)) in at.iter().zip(names).enumerate() {
        let text = c.and_then(|c| record.get(c)).unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        cells[i] = Some(
            text.parse::<i32>()
                .map_err(|_| format!("SP {}: {name} {text:?} is not a whole number", sp.sp()))?,
        );
    }
    let [white, black, asymmetry, white_gap, black_gap, gap_asymmetry] = cells;
    match (white, black, asymmetry) {
        (None, None, None) => Ok(None),
        (Some(w), Some(b), Some(a)) if w >= 1 && b >= 1 && a == w - b => {
            Ok(Some(crate::FirstMoves {
                white_good_moves: w.unsigned_abs(),
                black_good_moves: b.unsigned_abs(),
                good_moves_asymmetry: a,
                white_gap_cp: white_gap,
                black_gap_cp: black_gap,
                gap_asymmetry_cp: gap_asymmetry,
            }))
        }
        _ => Err(format!(
            "SP {}: {} must be counts of at least 1 whose difference is {}",
            sp.sp(),
            names[..2].join(" and "),
            names[2]
        )),
    }
}

/// `outcome` with its raters from the `wdl_raters` cell `text`: a count
/// of two or more.
fn with_raters(
    sp: StartPosition,
    outcome: crate::Outcome,
    text: &str,
) -> Result<crate::Outcome, String> {
    let raters = text
        .parse::<u32>()
        .ok()
        .filter(|n| *n >= 2)
        .ok_or_else(|| {
            format!(
                "SP {}: {} {text:?} is not a count of two or more raters",
                sp.sp(),
                column::WDL_RATERS
            )
        })?;
    Ok(crate::Outcome { raters, ..outcome })
}

/// Reads one numeric cell of a row by its column (empty: `None`).
type NumberAt<'a> = dyn Fn(Option<usize>, &str) -> Result<Option<f64>, String> + 'a;

/// A row's draw chance and expected score: all six figures or none, each
/// a share in 0..1 inside its interval.
fn outcome_of(
    sp: StartPosition,
    at: &[Option<usize>; 6],
    number: &NumberAt<'_>,
) -> Result<Option<crate::Outcome>, String> {
    let names = [
        column::DRAW_CHANCE,
        column::DRAW_CHANCE_LOW,
        column::DRAW_CHANCE_HIGH,
        column::WHITE_EXPECTED,
        column::WHITE_EXPECTED_LOW,
        column::WHITE_EXPECTED_HIGH,
    ];
    let mut figures = [0.0; 6];
    let mut present = 0;
    for (i, (c, name)) in at.iter().zip(names).enumerate() {
        if let Some(v) = number(*c, name)? {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("SP {}: {name} {v} is outside 0..1", sp.sp()));
            }
            figures[i] = v;
            present += 1;
        }
    }
    match present {
        0 => return Ok(None),
        6 => {}
        _ => {
            return Err(format!(
                "SP {}: the draw chance and expected score need all six of {}",
                sp.sp(),
                names.join(", ")
            ));
        }
    }
    let [d, dl, dh, e, el, eh] = figures;
    for (name, v, low, high) in [
        (column::DRAW_CHANCE, d, dl, dh),
        (column::WHITE_EXPECTED, e, el, eh),
    ] {
        if !(low <= v && v <= high) {
            return Err(format!(
                "SP {}: {name} {v} lies outside its interval {low} to {high}",
                sp.sp()
            ));
        }
    }
    Ok(Some(crate::Outcome {
        raters: 0,
        draw: d,
        draw_interval: Interval { low: dl, high: dh },
        expected: e,
        expected_interval: Interval { low: el, high: eh },
    }))
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
