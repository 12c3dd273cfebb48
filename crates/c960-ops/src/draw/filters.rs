//! The draw filters, shared by `c960 draw` and `c960 tournament`:
//! excluded positions (numbers and ranges, a preset, earlier kits'
//! draws), feature limits and a balance filter.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

use c960_balance::verdict::Verdict;
use c960_core::{Allowed, DrawFilter, Key, Seal, StartPosition, draw_sealed, parse_position_set};
use c960_report::kit::{BalanceRecord, DrawnRecord, Excluded, SECRET_FILE, secret_of};
use c960_verdict::Reference;
use sha2::{Digest, Sha256};

use super::{
    DrawError, ExcludePreset,
    balance_table::{Selection, Table},
    record::{Record, unreadable},
};

/// The conditions a drawn position must meet, as the flags give them.
#[derive(Debug, Clone, Default)]
pub struct FilterOptions {
    /// SP numbers and ranges never to draw (`--exclude`).
    pub exclude: Vec<String>,
    /// A named list of positions never to draw.
    pub exclude_preset: Option<ExcludePreset>,
    /// Earlier kits' `draw.json` whose positions are never drawn.
    pub exclude_drawn: Vec<PathBuf>,
    /// At most this many undefended pawns per side.
    pub max_undefended: Option<usize>,
    /// At most this many pawns defended only by the king, per side.
    pub max_king_only: Option<usize>,
    /// At most this many weak pawns per side.
    pub max_weak: Option<usize>,
    /// Only positions where no first move of White attacks an undefended
    /// pawn.
    pub no_first_move_attack: bool,
    /// Only positions where White cannot castle on move 1.
    pub no_first_move_castling: bool,
    /// `--verdict`: only positions with this verdict in the balance table.
    pub verdict: Option<Verdict>,
    /// `--fairest N`.
    pub fairest: Option<usize>,
    /// `--within CP`.
    pub within: Option<f64>,
    /// What `--fairest` and `--within` measure from.
    pub reference: Option<Reference>,
    /// `--not-drawish PERCENT`.
    pub not_drawish: Option<f64>,
    /// The balance table (`balance.csv` or its directory).
    pub balance: Option<PathBuf>,
}

/// A draw's filter, the balance table it reads and where its excluded
/// positions come from.
#[derive(Debug)]
pub struct Filters {
    /// The filter a drawn position passes.
    pub filter: DrawFilter,
    /// The balance table the balance filter read.
    pub balance: Option<BalanceRecord>,
    /// Where the excluded positions come from.
    pub excluded: Excluded,
}

impl Filters {
    /// The filter `options` describe. Draw records and kits name the
    /// balance table and earlier draws by file name and SHA-256, never by
    /// a local path.
    ///
    /// # Errors
    ///
    /// Exclusions that name no positions, earlier draws that cannot be
    /// read or opened, and a balance filter that cannot be applied.
    pub fn from_options(options: &FilterOptions) -> Result<Filters, DrawError> {
        options.to_filter()
    }
}

impl FilterOptions {
    fn to_filter(&self) -> Result<Filters, DrawError> {
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
    fn selection(&self) -> Result<Option<Selection>, DrawError> {
        let reference = self.reference.unwrap_or(Reference::DEFAULT);
        if self.reference.is_some() && self.fairest.is_none() && self.within.is_none() {
            return Err(DrawError::Input(
                "--reference goes with --fairest or --within".to_owned(),
            ));
        }
        Ok(match (self.verdict, self.fairest, self.within) {
            (Some(verdict), _, _) => Some(Selection::Verdict(verdict)),
            (None, Some(0), _) => {
                return Err(DrawError::Input("--fairest must be at least 1".to_owned()));
            }
            (None, Some(n), _) => Some(Selection::Fairest(n, reference)),
            (None, None, Some(cp)) if !(cp.is_finite() && cp > 0.0) => {
                return Err(DrawError::Input(format!(
                    "--within {cp} must be a distance above 0 cp"
                )));
            }
            (None, None, Some(cp)) => Some(Selection::Within(cp, reference)),
            (None, None, None) => None,
        })
    }

    /// The positions the balance filter keeps, and its record.
    fn balance_filter(&self) -> Result<Option<(Allowed, BalanceRecord)>, DrawError> {
        let selection = self.selection()?;
        let (Some(selection), Some(path)) = (selection, &self.balance) else {
            if self.not_drawish.is_some() && selection.is_none() {
                return Err(DrawError::Input(
                    "--not-drawish goes with --verdict, --fairest or --within".to_owned(),
                ));
            }
            if self.balance.is_some() {
                return Err(DrawError::Input(
                    "--balance needs --verdict, --fairest or --within (or --verify)".to_owned(),
                ));
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
fn drawn_positions(file: &Path) -> Result<DrawnRecord, DrawError> {
    let bytes = c960_store::read_input(file)
        .map_err(|e| DrawError::Input(format!("--exclude-drawn: {}", unreadable(file, &e))))?;
    let record = Record::read(file)?;
    // What `draw --verify` refuses is refused here too: published rounds
    // its method and candidates do not give would exclude rounds the kit
    // never published, and leave a published one drawable.
    super::verify::check_published(file, &record).map_err(|e| match e {
        DrawError::Input(why) => DrawError::Input(format!("--exclude-drawn: {why}")),
        e => e,
    })?;
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
            return Err(DrawError::Input(format!(
                "--exclude-drawn {}: {} does not hold the secret of its sealed rounds \
                 (fingerprint {commitment})",
                file.display(),
                secret_file.display()
            )));
        };
        let drawn = draw_sealed(
            &record.method,
            record.published.len(),
            &seal.keys,
            &record.candidates,
        )?
        .positions;
        // The published rounds were checked against the method above.
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
fn read_secret(secret_file: &Path, record: &Path, rounds: &str) -> Result<String, DrawError> {
    let refuse = |why: String| {
        DrawError::Input(format!(
            "--exclude-drawn {}: {rounds}, and {why}",
            record.display()
        ))
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
