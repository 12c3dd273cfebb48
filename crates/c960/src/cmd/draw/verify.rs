//! `c960 draw --verify`: a kit's draw recomputed from its record
//! (`record.rs`), its sealed rounds opened with a key, and its balance
//! filter checked against the table it names.

use std::{fmt::Write as _, path::Path};

use anyhow::Result;
use c960_core::{
    Allowed, Features, Key, StartPosition, draw_among, draw_sealed, open_seal, plural,
};

use super::record;
use crate::{
    cli::InputError,
    cmd::balance_table::{Table, selection_of_record},
    output::Text,
};
use c960_report::kit::BalanceRecord;

/// `c960 draw --verify FILE [--key KEY]`: recomputes a kit's published
/// rounds from its draw record and, with a key, the sealed rounds that key
/// opens.
pub(super) fn verify(file: &Path, key: Option<&str>, table: Option<&Path>) -> Result<()> {
    let record = record::Record::read(file)?;
    let published = &record.published;
    check_published(file, &record)?;
    let mut text = Text::default();
    writeln!(
        text,
        "{}: {} from {} and its {}",
        file.display(),
        if published.len() == 1 {
            "round 1 follows".to_owned()
        } else {
            format!("rounds 1-{} follow", published.len())
        },
        record.method,
        plural(record.candidates.len(), "candidate", "candidates")
    )?;
    if let Some(line) = balance_line(file, &record, table)? {
        writeln!(text, "{line}")?;
    }
    let mut opened: Vec<StartPosition> = Vec::new();
    match (record.sealed, key) {
        (Some((commitment, count)), Some(key)) => {
            opened = open_rounds(&record, key, (commitment, count), &mut text)?;
        }
        (Some((commitment, count)), None) => writeln!(
            text,
            "{} (fingerprint {commitment}); give --key with a key the organizer published to \
             open {}",
            if count == 1 {
                format!("round {} is sealed", record.total)
            } else {
                format!("rounds {}-{} are sealed", published.len() + 1, record.total)
            },
            if count == 1 { "it" } else { "them" }
        )?,
        (None, Some(_)) => {
            return Err(InputError(format!(
                "{} has no sealed rounds: --key opens nothing",
                file.display()
            ))
            .into());
        }
        (None, None) => {}
    }
    for (i, p) in published.iter().chain(&opened).enumerate() {
        let how = if i < published.len() {
            "published"
        } else {
            "opened by the key"
        };
        writeln!(
            text,
            "round {:<3} SP {:>3}  {}  {}  {how}",
            i + 1,
            p.sp(),
            p.placement(),
            p.to_xfen()
        )?;
    }
    for round in published.len() + opened.len() + 1..=record.total {
        writeln!(text, "round {round:<3} sealed")?;
    }
    text.print()?;
    Ok(())
}

/// Refuses a record whose published rounds its method and candidates do
/// not give.
fn check_published(file: &Path, record: &record::Record) -> Result<()> {
    let published = &record.published;
    let recomputed = draw_among(&record.method, published.len().max(1), &record.candidates)?;
    for (round, (given, computed)) in published.iter().zip(&recomputed.positions).enumerate() {
        if given != computed {
            return Err(InputError(format!(
                "{} does not verify: it gives SP {} for round {}, but its method and candidates \
                 give SP {}",
                file.display(),
                given.sp(),
                round + 1,
                computed.sp()
            ))
            .into());
        }
    }
    Ok(())
}

/// The sealed rounds `key` opens (the seal's `commitment` and round
/// `count`), said in `text`; refuses a key that is not the draw's.
fn open_rounds(
    record: &record::Record,
    key: &str,
    (commitment, count): (Key, usize),
    text: &mut Text,
) -> Result<Vec<StartPosition>> {
    let published = &record.published;
    let key: Key = key.parse().map_err(|e| InputError(format!("--key: {e}")))?;
    let keys = open_seal(commitment, key, count).ok_or_else(|| {
        InputError(format!(
            "--key {key} is not a key of this draw: hashing it up to {count} times never \
             gives the fingerprint {commitment}"
        ))
    })?;
    let opened = draw_sealed(&record.method, published.len(), &keys, &record.candidates)?.positions
        [published.len()..]
        .to_vec();
    writeln!(
        text,
        "the key opens sealed round {}: it hashes to the fingerprint {commitment} in {} {}",
        published.len() + keys.len(),
        keys.len(),
        if keys.len() == 1 { "step" } else { "steps" }
    )?;
    Ok(opened)
}

/// What `--verify` says of the record's balance filter: checked against
/// `table`, or where to give it.
fn balance_line(
    file: &Path,
    record: &record::Record,
    table: Option<&Path>,
) -> Result<Option<String>> {
    Ok(match (table, &record.balance) {
        (Some(table), _) => {
            let n = check_table(file, record, table)?;
            Some(format!(
                "its candidates are exactly the positions its filters keep of {} (its SHA-256 \
                 matches; {} kept by {})",
                table.display(),
                plural(n, "position", "positions"),
                record
                    .balance
                    .as_ref()
                    .map_or_else(String::new, BalanceRecord::label)
            ))
        }
        (None, Some(balance)) => Some(format!(
            "its balance filter read {} (SHA-256 {}): give --balance with that table to check \
             the candidates against it",
            balance.file, balance.sha256
        )),
        (None, None) => None,
    })
}

/// Checks the balance table `table` against `record` (read from `file`):
/// the SHA-256 it names, the positions its filter keeps of it, and the
/// candidates exactly those that also pass the other filters. Returns how
/// many positions the balance filter keeps.
fn check_table(file: &Path, record: &record::Record, table: &Path) -> Result<usize> {
    let Some(balance) = &record.balance else {
        return Err(InputError(format!(
            "{} has no balance filter: --balance {} checks nothing",
            file.display(),
            table.display()
        ))
        .into());
    };
    let read = Table::read(table)?;
    let (_, sha256) = read.names();
    if sha256 != balance.sha256 {
        return Err(InputError(format!(
            "--balance {}: its SHA-256 is {sha256}, but {} names {} with SHA-256 {}",
            table.display(),
            file.display(),
            balance.file,
            balance.sha256
        ))
        .into());
    }
    let selection = selection_of_record(balance)
        .map_err(|e| InputError(format!("{} does not verify: {e}", file.display())))?;
    let (positions, reference_cp) = read.select(selection, balance.not_drawish)?;
    let again = read.record(
        selection,
        balance.not_drawish,
        positions.len(),
        reference_cp,
    );
    if again.label() != balance.label() || again.positions != balance.positions {
        return Err(InputError(format!(
            "{} does not verify: its table keeps {} for \"{}\", but it records {} for \"{}\"",
            file.display(),
            plural(again.positions, "position", "positions"),
            again.label(),
            plural(balance.positions, "position", "positions"),
            balance.label()
        ))
        .into());
    }
    let mut filter = record.filter.clone();
    filter.only = Some(Allowed {
        label: again.label(),
        positions: positions.into_iter().collect(),
    });
    let expected: Vec<StartPosition> = filter.candidates(&Features::all());
    if expected != record.candidates {
        return Err(InputError(format!(
            "{} does not verify: its {} are not the {} its filters keep of {}",
            file.display(),
            plural(record.candidates.len(), "candidate", "candidates"),
            plural(expected.len(), "position", "positions"),
            table.display()
        ))
        .into());
    }
    Ok(again.positions)
}
