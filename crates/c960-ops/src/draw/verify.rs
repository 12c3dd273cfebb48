//! A kit's draw recomputed from its record (`record.rs`), its sealed
//! rounds opened with a key, and its balance filter checked against the
//! table it names: what `c960 draw --verify` says.

use std::path::Path;

use c960_core::{
    Allowed, DrawMethod, Features, Key, StartPosition, draw_among, draw_sealed, open_seal, plural,
};
use c960_report::kit::BalanceRecord;

use super::{
    DrawError,
    balance_table::{Table, selection_of_record},
    record::Record,
};

/// A draw record that verified.
#[derive(Debug)]
pub struct Verified {
    /// The record's draw method.
    pub method: DrawMethod,
    /// How many candidates the record lists.
    pub candidates: usize,
    /// The published rounds, which its method and candidates give.
    pub published: Vec<StartPosition>,
    /// All rounds, sealed ones included.
    pub total: usize,
    /// The sealed rounds' commitment and count.
    pub sealed: Option<(Key, usize)>,
    /// What was checked of its balance filter.
    pub table: TableCheck,
    /// The sealed rounds the key opened.
    pub opened: Option<Opened>,
}

/// The balance filter of a verified record.
#[derive(Debug, PartialEq)]
pub enum TableCheck {
    /// The table given is the one it names, and its candidates are
    /// exactly the positions its filters keep of it.
    Matched {
        /// How many positions the balance filter keeps.
        kept: usize,
        /// The filter's words (`balanced`, `the 40 fairest ...`).
        label: String,
    },
    /// It names a table (file and SHA-256), which was not given.
    NotGiven {
        /// The table's file name.
        file: String,
        /// Its SHA-256.
        sha256: String,
    },
    /// It has no balance filter.
    None,
}

/// Sealed rounds a key opened.
#[derive(Debug, PartialEq)]
pub struct Opened {
    /// The positions of the rounds after the published ones, up to the
    /// key's round.
    pub positions: Vec<StartPosition>,
    /// How many times the key was hashed to reach the fingerprint (its
    /// round is the published rounds plus this).
    pub steps: usize,
}

/// Verifies the draw record `file`: recomputes its published rounds from
/// its method and candidates, checks its balance filter against `table`
/// and, with `key`, opens the sealed rounds that key opens.
///
/// # Errors
///
/// A record not in its one form, published rounds its method and
/// candidates do not give, a table that is not the one it names or does
/// not keep its candidates, and a key that is not the draw's.
pub fn verify(file: &Path, key: Option<&str>, table: Option<&Path>) -> Result<Verified, DrawError> {
    let record = Record::read(file)?;
    check_published(file, &record)?;
    let checked = match (table, &record.balance) {
        (Some(table), _) => TableCheck::Matched {
            kept: check_table(file, &record, table)?,
            label: record
                .balance
                .as_ref()
                .map_or_else(String::new, BalanceRecord::label),
        },
        (None, Some(balance)) => TableCheck::NotGiven {
            file: balance.file.clone(),
            sha256: balance.sha256.clone(),
        },
        (None, None) => TableCheck::None,
    };
    let opened = match (record.sealed, key) {
        (Some(seal), Some(key)) => Some(open_rounds(&record, key, seal)?),
        (None, Some(_)) => {
            return Err(DrawError::Input(format!(
                "{} has no sealed rounds: --key opens nothing",
                file.display()
            )));
        }
        (_, None) => None,
    };
    Ok(Verified {
        method: record.method,
        candidates: record.candidates.len(),
        published: record.published,
        total: record.total,
        sealed: record.sealed,
        table: checked,
        opened,
    })
}

/// Refuses a record whose published rounds its method and candidates do
/// not give.
pub(super) fn check_published(file: &Path, record: &Record) -> Result<(), DrawError> {
    let published = &record.published;
    let recomputed = draw_among(&record.method, published.len().max(1), &record.candidates)?;
    for (round, (given, computed)) in published.iter().zip(&recomputed.positions).enumerate() {
        if given != computed {
            return Err(DrawError::Input(format!(
                "{} does not verify: it gives SP {} for round {}, but its method and candidates \
                 give SP {}",
                file.display(),
                given.sp(),
                round + 1,
                computed.sp()
            )));
        }
    }
    Ok(())
}

/// The sealed rounds `key` opens (the seal's `commitment` and round
/// `count`); refuses a key that is not the draw's.
fn open_rounds(
    record: &Record,
    key: &str,
    (commitment, count): (Key, usize),
) -> Result<Opened, DrawError> {
    let published = &record.published;
    let key: Key = key
        .parse()
        .map_err(|e| DrawError::Input(format!("--key: {e}")))?;
    let keys = open_seal(commitment, key, count).ok_or_else(|| {
        DrawError::Input(format!(
            "--key {key} is not a key of this draw: hashing it up to {count} times never \
             gives the fingerprint {commitment}"
        ))
    })?;
    let positions = draw_sealed(&record.method, published.len(), &keys, &record.candidates)?
        .positions[published.len()..]
        .to_vec();
    Ok(Opened {
        positions,
        steps: keys.len(),
    })
}

/// Checks the balance table `table` against `record` (read from `file`):
/// the SHA-256 it names, the positions its filter keeps of it, and the
/// candidates exactly those that also pass the other filters. Returns how
/// many positions the balance filter keeps.
fn check_table(file: &Path, record: &Record, table: &Path) -> Result<usize, DrawError> {
    let Some(balance) = &record.balance else {
        return Err(DrawError::Input(format!(
            "{} has no balance filter: --balance {} checks nothing",
            file.display(),
            table.display()
        )));
    };
    let read = Table::read(table)?;
    let (_, sha256) = read.names();
    if sha256 != balance.sha256 {
        return Err(DrawError::Input(format!(
            "--balance {}: its SHA-256 is {sha256}, but {} names {} with SHA-256 {}",
            table.display(),
            file.display(),
            balance.file,
            balance.sha256
        )));
    }
    let selection = selection_of_record(balance)
        .map_err(|e| DrawError::Input(format!("{} does not verify: {e}", file.display())))?;
    let (positions, reference_cp) = read.select(selection, balance.not_drawish)?;
    let again = read.record(
        selection,
        balance.not_drawish,
        positions.len(),
        reference_cp,
    );
    if again.label() != balance.label() || again.positions != balance.positions {
        return Err(DrawError::Input(format!(
            "{} does not verify: its table keeps {} for \"{}\", but it records {} for \"{}\"",
            file.display(),
            plural(again.positions, "position", "positions"),
            again.label(),
            plural(balance.positions, "position", "positions"),
            balance.label()
        )));
    }
    let mut filter = record.filter.clone();
    filter.only = Some(Allowed {
        label: again.label(),
        positions: positions.into_iter().collect(),
    });
    let expected: Vec<StartPosition> = filter.candidates(&Features::all());
    if expected != record.candidates {
        return Err(DrawError::Input(format!(
            "{} does not verify: its {} are not the {} its filters keep of {}",
            file.display(),
            plural(record.candidates.len(), "candidate", "candidates"),
            plural(expected.len(), "position", "positions"),
            table.display()
        )));
    }
    Ok(again.positions)
}
