//! Selections from a balance table (`balance.csv`, from `c960 balance` or
//! `c960 report`), shared by `c960 draw` (its balance filters) and `c960
//! book balanced`: a verdict, the N fairest to a reference, or those whose
//! whole 95 % interval lies within a distance of it — read from the
//! table's bytes, whose SHA-256 the draw record and the book manifest
//! name. `c960 draw --verify --balance` selects again from the record's
//! words.

use std::{collections::BTreeSet, path::Path};

use anyhow::Result;
use c960_core::{Key, StartPosition};
use c960_report::kit::BalanceRecord;
use sha2::{Digest, Sha256};

use crate::cli::{InputError, ReferenceArg};

/// The column of a position's estimate (White's edge in centipawns) that
/// `fairest` and `within` read, and those of its 95 % interval.
pub(crate) const ESTIMATE_COLUMN: &str = "balance_estimate";
/// The columns of the 95 % interval: low end, high end.
pub(crate) const INTERVAL_COLUMNS: [&str; 2] = ["balance_low", "balance_high"];

/// What the balance estimates are measured from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reference {
    /// Equal chances: 0 cp.
    Equal,
    /// The typical position: the mean `balance_estimate` of the table.
    Typical,
    /// The classical setup: SP 518's `balance_estimate`.
    Classical,
}

impl Reference {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Reference::Equal => "equal",
            Reference::Typical => "typical",
            Reference::Classical => "classical",
        }
    }

    fn from_name(name: &str) -> Option<Reference> {
        [Reference::Equal, Reference::Typical, Reference::Classical]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

impl From<ReferenceArg> for Reference {
    fn from(arg: ReferenceArg) -> Reference {
        match arg {
            ReferenceArg::Equal => Reference::Equal,
            ReferenceArg::Typical => Reference::Typical,
            ReferenceArg::Classical => Reference::Classical,
        }
    }
}

/// Which of the table's positions a draw or a book keeps.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Selection {
    /// Those with this verdict.
    Verdict(c960_balance::verdict::Verdict),
    /// The N whose interval's farther end is nearest the reference.
    Fairest(usize, Reference),
    /// Those whose whole interval lies within this many cp of it.
    Within(f64, Reference),
}

impl Selection {
    /// The selection a draw record names, if its words are c960's.
    pub(crate) fn of_record(record: &BalanceRecord) -> Result<Selection, String> {
        let reference = || {
            record
                .reference
                .as_deref()
                .and_then(Reference::from_name)
                .ok_or_else(|| {
                    format!(
                        "\"balance.reference\" is {:?}, not equal, typical or classical",
                        record.reference
                    )
                })
        };
        let given = [
            record.verdict.is_some(),
            record.fairest.is_some(),
            record.within.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(
                "\"balance\" gives none or more than one of \"verdict\", \"fairest\" and \"within\""
                    .to_owned(),
            );
        }
        if let Some(verdict) = &record.verdict {
            if record.reference.is_some() || record.reference_cp.is_some() {
                return Err("a \"verdict\" filter gives no \"reference\"".to_owned());
            }
            return c960_balance::verdict::Verdict::ALL
                .into_iter()
                .find(|v| v.name() == verdict)
                .map(Selection::Verdict)
                .ok_or_else(|| format!("\"balance.verdict\" is {verdict:?}, not a verdict"));
        }
        if record.reference_cp.is_none_or(|v| !v.is_finite()) {
            return Err("\"balance.reference_cp\" is missing".to_owned());
        }
        match (record.fairest, record.within) {
            (Some(n), _) if n > 0 => Ok(Selection::Fairest(n, reference()?)),
            (None, Some(cp)) if cp.is_finite() && cp > 0.0 => {
                Ok(Selection::Within(cp, reference()?))
            }
            _ => Err("\"balance.fairest\" or \"balance.within\" is not above 0".to_owned()),
        }
    }
}

/// One row of a balance table.
struct Row {
    sp: StartPosition,
    verdict: String,
    method: String,
    estimate: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
}

/// A balance table read from its bytes.
pub(crate) struct Table {
    /// The file name, without its directory.
    file: String,
    sha256: String,
    rows: Vec<Row>,
}

impl Table {
    /// Reads `path` (a `balance.csv`, or the directory holding one).
    pub(crate) fn read(path: &Path) -> Result<Table> {
        let csv = if path.is_dir() {
            path.join(c960_report::balance::BALANCE_CSV)
        } else {
            path.to_owned()
        };
        let bad = |what: String| InputError(format!("--balance {}: {what}", csv.display()));
        let bytes = std::fs::read(&csv).map_err(|e| bad(format!("cannot read it: {e}")))?;
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        let header = reader
            .headers()
            .map_err(|e| bad(e.to_string()))?
            .iter()
            .map(str::to_owned)
            .collect::<Vec<_>>();
        let column = |name: &str| header.iter().position(|h| h == name);
        let Some(verdict) = column("verdict") else {
            return Err(bad(
                "it has no verdict column; give the balance.csv (or its directory) that \
                 c960 balance or c960 report writes"
                    .to_owned(),
            )
            .into());
        };
        let (sp, method) = (column("sp"), column("verdict_method"));
        let (estimate, low, high) = (
            column(ESTIMATE_COLUMN),
            column(INTERVAL_COLUMNS[0]),
            column(INTERVAL_COLUMNS[1]),
        );
        let Some(sp) = sp else {
            return Err(bad("it has no sp column".to_owned()).into());
        };
        let mut rows: Vec<Row> = Vec::new();
        let mut seen = BTreeSet::new();
        for (i, record) in reader.records().enumerate() {
            let record = record.map_err(|e| bad(e.to_string()))?;
            let cell = |c: Option<usize>| c.and_then(|c| record.get(c)).unwrap_or("").trim();
            let number = |c: Option<usize>, name: &str| -> Result<Option<f64>, InputError> {
                let text = cell(c);
                if text.is_empty() {
                    return Ok(None);
                }
                text.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .map(Some)
                    .ok_or_else(|| bad(format!("row {}: {name} {text:?} is not a number", i + 1)))
            };
            let position = StartPosition::from_sp_str(cell(Some(sp)))
                .map_err(|e| bad(format!("row {}: {e}", i + 1)))?;
            if !seen.insert(position) {
                return Err(bad(format!(
                    "SP {} appears twice: a verdict table lists each position once",
                    position.sp()
                ))
                .into());
            }
            rows.push(Row {
                sp: position,
                verdict: cell(Some(verdict)).to_owned(),
                method: cell(method).to_owned(),
                estimate: number(estimate, "balance_estimate")?,
                low: number(low, "balance_low")?,
                high: number(high, "balance_high")?,
            });
        }
        Ok(Table {
            file: csv.file_name().map_or_else(
                || csv.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            sha256: Key(Sha256::digest(&bytes).into()).to_string(),
            rows,
        })
    }

    /// The file name and SHA-256, as a record names the table.
    pub(crate) fn names(&self) -> (&str, &str) {
        (&self.file, &self.sha256)
    }

    /// The reference's value: 0, the mean estimate, or SP 518's.
    fn reference_cp(&self, reference: Reference) -> Result<f64, String> {
        let estimates: Vec<f64> = self.rows.iter().filter_map(|r| r.estimate).collect();
        match reference {
            Reference::Equal => Ok(0.0),
            Reference::Typical if estimates.is_empty() => {
                Err("it has no balance_estimate".to_owned())
            }
            Reference::Typical => {
                #[allow(clippy::cast_precision_loss)]
                let n = estimates.len() as f64;
                Ok(estimates.iter().sum::<f64>() / n)
            }
            Reference::Classical => self
                .rows
                .iter()
                .find(|r| r.sp.sp() == 518)
                .and_then(|r| r.estimate)
                .ok_or_else(|| "it has no balance_estimate for SP 518".to_owned()),
        }
    }

    /// The positions `selection` keeps, ascending, and the reference's
    /// value (for `fairest` and `within`). Intervals are read in
    /// centipawns, so a table with verdicts from games is refused for
    /// them.
    pub(crate) fn select(
        &self,
        selection: Selection,
    ) -> Result<(Vec<StartPosition>, Option<f64>), InputError> {
        let bad = |what: String| InputError(format!("--balance {}: {what}", self.file));
        let reference = match selection {
            Selection::Verdict(verdict) => {
                let mut kept: Vec<StartPosition> = self
                    .rows
                    .iter()
                    .filter(|r| r.verdict == verdict.name())
                    .map(|r| r.sp)
                    .collect();
                kept.sort_unstable();
                return Ok((kept, None));
            }
            Selection::Fairest(_, reference) | Selection::Within(_, reference) => reference,
        };
        if let Some(row) = self.rows.iter().find(|r| r.method != "sweep") {
            return Err(bad(format!(
                "SP {} has its verdict from {:?}, not from engine sweeps: --fairest and --within \
                 read intervals in centipawns",
                row.sp.sp(),
                row.method
            )));
        }
        let value = self.reference_cp(reference).map_err(bad)?;
        let mut intervals: Vec<(f64, StartPosition)> = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let (Some(low), Some(high)) = (row.low, row.high) else {
                return Err(bad(format!(
                    "SP {} has no balance_low and balance_high",
                    row.sp.sp()
                )));
            };
            intervals.push(((low - value).abs().max((high - value).abs()), row.sp));
        }
        let mut kept: Vec<StartPosition> = match selection {
            Selection::Fairest(n, _) => {
                if n > intervals.len() {
                    return Err(bad(format!(
                        "--fairest {n}: the table has {} positions",
                        intervals.len()
                    )));
                }
                intervals.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                intervals.iter().take(n).map(|(_, sp)| *sp).collect()
            }
            Selection::Within(cp, _) => intervals
                .iter()
                .filter(|(distance, _)| *distance <= cp)
                .map(|(_, sp)| *sp)
                .collect(),
            Selection::Verdict(_) => unreachable!("returned above"),
        };
        kept.sort_unstable();
        Ok((kept, Some(value)))
    }

    /// The record of `selection` in this table, keeping `positions`.
    pub(crate) fn record(
        &self,
        selection: Selection,
        positions: usize,
        reference_cp: Option<f64>,
    ) -> BalanceRecord {
        let (verdict, fairest, within, reference) = match selection {
            Selection::Verdict(v) => (Some(v.name().to_owned()), None, None, None),
            Selection::Fairest(n, r) => (None, Some(n), None, Some(r)),
            Selection::Within(cp, r) => (None, None, Some(cp), Some(r)),
        };
        BalanceRecord {
            verdict,
            fairest,
            within,
            reference: reference.map(|r| r.name().to_owned()),
            reference_cp,
            file: self.file.clone(),
            sha256: self.sha256.clone(),
            positions,
        }
    }
}
