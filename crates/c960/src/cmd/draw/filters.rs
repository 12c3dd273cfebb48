//! The draw filters from the command line, shared by `c960 draw` and
//! `c960 tournament`: excluded positions (numbers and ranges, a preset,
//! earlier kits' draws), feature limits and a balance filter.

use std::{collections::BTreeSet, path::Path};

use anyhow::Result;
use c960_core::{Allowed, DrawFilter, Key, Seal, StartPosition, draw_sealed, parse_position_set};
use c960_report::kit::{BalanceRecord, DrawnRecord, Excluded, SECRET_FILE, secret_of};
use c960_verdict::Reference;
use sha2::{Digest, Sha256};

use super::record::Record;
use crate::{
    cli::{DrawFilterArgs, InputError},
    cmd::balance_table::{Selection, Table},
};

/// A draw's filter, the balance table it reads and where its excluded
/// positions come from.
pub(crate) struct Filters {
    pub(crate) filter: DrawFilter,
    pub(crate) balance: Option<BalanceRecord>,
    pub(crate) excluded: Excluded,
}

impl DrawFilterArgs {
    /// The filter these flags describe. Draw records and kits name the
    /// balance table and earlier draws by file name and SHA-256, never by
    /// a local path.
    pub(crate) fn to_filter(&self) -> Result<Filters> {
        let mut exclude: BTreeSet<StartPosition> = BTreeSet::new();
        for part in self.exclude.iter().filter(|s| !s.trim().is_empty()) {
            exclude.extend(parse_position_set(part)?);
        }
        let mut excluded = Excluded::default();
        if let Some(preset) = self.exclude_preset {
            excluded.preset = Some(preset.name().to_owned());
            exclude.extend(
                preset
                    .positions()
                    .iter()
                    .map(|&sp| StartPosition::new(sp).expect("a preset lists SP numbers")),
            );
        }
        for file in &self.exclude_drawn {
            let drawn = drawn_positions(file)?;
            exclude.extend(
                drawn
                    .sps
                    .iter()
                    .map(|&sp| StartPosition::new(sp).expect("a checked record")),
            );
            excluded.drawn.push(drawn);
        }
        let (only, balance) = self.balance_filter()?.unzip();
        Ok(Filters {
            filter: DrawFilter {
                exclude,
                max_undefended: self.max_undefended,
                max_king_only: self.max_king_only,
                max_weak: self.max_weak,
                no_first_move_attack: self.no_first_move_attack,
                no_first_move_castling: self.no_first_move_castling,
                only,
            },
            balance,
            excluded,
        })
    }

    /// The selection --verdict, --fairest or --within asks for.
    fn selection(&self) -> Result<Option<Selection>> {
        let reference = self.reference.unwrap_or(Reference::DEFAULT);
        if self.reference.is_some() && self.fairest.is_none() && self.within.is_none() {
            return Err(
                InputError("--reference goes with --fairest or --within".to_owned()).into(),
            );
        }
        Ok(match (self.verdict, self.fairest, self.within) {
            (Some(verdict), _, _) => Some(Selection::Verdict(verdict)),
            (None, Some(0), _) => {
                return Err(InputError("--fairest must be at least 1".to_owned()).into());
            }
            (None, Some(n), _) => Some(Selection::Fairest(n, reference)),
            (None, None, Some(cp)) if !(cp.is_finite() && cp > 0.0) => {
                return Err(
                    InputError(format!("--within {cp} must be a distance above 0 cp")).into(),
                );
            }
            (None, None, Some(cp)) => Some(Selection::Within(cp, reference)),
            (None, None, None) => None,
        })
    }

    /// The positions the balance filter keeps, and its record.
    fn balance_filter(&self) -> Result<Option<(Allowed, BalanceRecord)>> {
        let selection = self.selection()?;
        let (Some(selection), Some(path)) = (selection, &self.balance) else {
            if self.not_drawish.is_some() && selection.is_none() {
                return Err(InputError(
                    "--not-drawish goes with --verdict, --fairest or --within".to_owned(),
                )
                .into());
            }
            if self.balance.is_some() {
                return Err(InputError(
                    "--balance needs --verdict, --fairest or --within (or --verify)".to_owned(),
                )
                .into());
            }
            return Ok(None);
        };
        let table = Table::read(path)?;
        let (positions, reference_cp) = table.select(selection, self.not_drawish)?;
        let record = table.record(selection, self.not_drawish, positions.len(), reference_cp);
        Ok(Some((
            Allowed {
                label: record.label(),
                positions: positions.into_iter().collect(),
            },
            record,
        )))
    }
}

/// Every position an earlier kit drew, from its `draw.json`: the
/// published rounds, and the sealed ones opened with the `SECRET.txt`
/// beside it (refused without it).
fn drawn_positions(file: &Path) -> Result<DrawnRecord> {
    let bytes = c960_store::read_input(file).map_err(|e| {
        InputError(format!(
            "--exclude-drawn: {}",
            super::record::unreadable(file, &e)
        ))
    })?;
    let record = Record::read(file)?;
    let mut positions = record.published.clone();
    if let Some((commitment, count)) = record.sealed {
        let secret_file = file.with_file_name(SECRET_FILE);
        let first = record.published.len() + 1;
        let rounds = if count == 1 {
            format!("round {first} is sealed")
        } else {
            format!("rounds {first}-{} are sealed", record.total)
        };
        let text = read_secret(&secret_file, file, &rounds)?;
        let seal: Option<Seal> = secret_of(&text)
            .map(|secret: Key| Seal::new(secret, record.published.len(), record.total))
            .filter(|seal| seal.commitment == commitment);
        let Some(seal) = seal else {
            return Err(InputError(format!(
                "--exclude-drawn {}: {} does not hold the secret of its sealed rounds \
                 (fingerprint {commitment})",
                file.display(),
                secret_file.display()
            ))
            .into());
        };
        let drawn = draw_sealed(
            &record.method,
            record.published.len(),
            &seal.keys,
            &record.candidates,
        )?
        .positions;
        // The rounds the kit published are excluded as published: a record
        // whose published rounds its own method does not draw is refused.
        if drawn[..record.published.len()] != record.published[..] {
            return Err(InputError(format!(
                "--exclude-drawn {}: its published rounds are not the ones its method and \
                 candidates draw (c960 draw --verify says where): the record was changed",
                file.display()
            ))
            .into());
        }
        positions.extend_from_slice(&drawn[record.published.len()..]);
    }
    let mut sps: Vec<u16> = positions.iter().map(|p| p.sp()).collect();
    sps.sort_unstable();
    Ok(DrawnRecord {
        file: file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        sha256: Key(Sha256::digest(&bytes).into()).to_string(),
        sps,
    })
}

/// The text of the `SECRET.txt` beside an earlier kit's `draw.json`
/// (`record`), whose `rounds` are sealed: refused in words when it is
/// missing, not a regular file (a FIFO would block the read for ever),
/// unreadable or not text.
fn read_secret(secret_file: &Path, record: &Path, rounds: &str) -> Result<String> {
    let refuse = |why: String| -> anyhow::Error {
        InputError(format!(
            "--exclude-drawn {}: {rounds}, and {why}",
            record.display()
        ))
        .into()
    };
    match std::fs::metadata(secret_file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(refuse(format!(
            "no {SECRET_FILE} stands beside it to open them; put that kit's {SECRET_FILE} there \
             (its sealed positions cannot be known without the secret)"
        ))),
        Err(e) => Err(refuse(format!(
            "{} cannot be read: {e}",
            secret_file.display()
        ))),
        Ok(meta) if !meta.is_file() => Err(refuse(format!(
            "{} is not a regular file",
            secret_file.display()
        ))),
        Ok(_) => {
            let bytes = c960_store::read_input(secret_file)
                .map_err(|e| refuse(format!("{} cannot be read: {e}", secret_file.display())))?;
            String::from_utf8(bytes).map_err(|_| {
                refuse(format!(
                    "{} is not text: not the {SECRET_FILE} a kit writes",
                    secret_file.display()
                ))
            })
        }
    }
}
