//! Selections from a balance table (`balance.csv`, from `c960 balance` or
//! `c960 report`), shared by `c960 draw` (its balance filters) and `c960
//! book balanced`: a verdict, the N fairest to a reference, or those whose
//! whole 95 % interval lies within a distance of it — read from the
//! table's bytes, whose SHA-256 the draw record and the book manifest
//! name. `c960 draw --verify --balance` selects again from the record's
//! words.

use std::path::Path;

use c960_core::StartPosition;
use c960_report::kit::BalanceRecord;
use c960_verdict::{BalanceTable, Reference};

use super::DrawError;

pub use c960_verdict::fair::Selection;

/// The selection a draw record names, if its words are c960's.
///
/// # Errors
///
/// What in the record's `balance` is not c960's, naming the field.
pub fn selection_of_record(record: &BalanceRecord) -> Result<Selection, String> {
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
        (None, Some(cp)) if cp.is_finite() && cp > 0.0 => Ok(Selection::Within(cp, reference()?)),
        _ => Err("\"balance.fairest\" or \"balance.within\" is not above 0".to_owned()),
    }
}

/// A balance table as `--balance` names it.
pub struct Table {
    table: BalanceTable,
}

impl Table {
    /// Reads `path` (a `balance.csv`, or the directory holding one);
    /// a table that contradicts itself is bad input, in one line.
    ///
    /// # Errors
    ///
    /// A table that cannot be read or contradicts itself.
    pub fn read(path: &Path) -> Result<Table, DrawError> {
        let table =
            BalanceTable::read(path).map_err(|e| DrawError::Input(format!("--balance {e}")))?;
        Ok(Table { table })
    }

    /// The file name and SHA-256, as a record names the table.
    #[must_use]
    pub fn names(&self) -> (&str, &str) {
        (&self.table.file, &self.table.sha256)
    }

    /// The positions `selection` keeps, ascending, and the reference's
    /// value (for `fairest` and `within`); with `not_drawish`, among the
    /// positions left once that share (%) of the most drawish is left out.
    ///
    /// # Errors
    ///
    /// A selection or a share the table cannot give.
    pub fn select(
        &self,
        selection: Selection,
        not_drawish: Option<f64>,
    ) -> Result<(Vec<StartPosition>, Option<f64>), DrawError> {
        let bad = |e: String| DrawError::Input(format!("--balance {}: {e}", self.table.file));
        let left_out = match not_drawish {
            Some(percent) => self.table.most_drawish(percent).map_err(bad)?,
            None => std::collections::BTreeSet::new(),
        };
        self.table
            .select_excluding(selection, &left_out)
            .map_err(bad)
    }

    /// The record of `selection` in this table, keeping `positions`.
    #[must_use]
    pub fn record(
        &self,
        selection: Selection,
        not_drawish: Option<f64>,
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
            reference: reference.map(|r: Reference| r.name().to_owned()),
            reference_cp,
            not_drawish,
            file: self.table.file.clone(),
            sha256: self.table.sha256.clone(),
            positions,
        }
    }
}
