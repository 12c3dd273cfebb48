//! The organizer's draws: reproducible draws for tournament rounds under
//! the draw filters (`filters.rs`), a kit's draw record read back in the
//! one form `c960 tournament` writes (`record.rs`) and verified from it
//! (`verify.rs`), and the balance tables a balance filter selects from
//! ([`balance_table`]).

pub mod balance_table;
mod filters;
mod record;
mod verify;

use c960_core::{Draw, DrawFilter, DrawMethod, Features};
use c960_report::kit::{BalanceRecord, Excluded};

pub use filters::{FilterOptions, Filters};
pub use verify::{Opened, TableCheck, Verified, verify};

/// Named lists of positions to exclude.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExcludePreset {
    /// What Freestyle (Chess960) events declare excluded in advance: SP 518
    /// (the classical setup) and SP 534.
    Freestyle,
}

impl ExcludePreset {
    /// Every preset.
    pub const ALL: [ExcludePreset; 1] = [ExcludePreset::Freestyle];

    /// The preset's name, as records and `--exclude-preset` give it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ExcludePreset::Freestyle => "freestyle",
        }
    }

    /// The SP numbers it excludes.
    #[must_use]
    pub fn positions(self) -> &'static [u16] {
        match self {
            ExcludePreset::Freestyle => &[518, 534],
        }
    }
}

/// Why a draw, a record or a balance table is refused.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// Input that cannot be used (a flag, a draw record, a balance table,
    /// a key), said in one line.
    #[error("{0}")]
    Input(String),
    /// A draw that cannot be made (no rounds, fewer candidates than
    /// rounds).
    #[error("{0}")]
    Draw(#[from] c960_core::DrawError),
    /// Positions to exclude that name no start position.
    #[error("{0}")]
    Position(#[from] c960_core::StartPositionError),
}

impl DrawError {
    /// Whether the error is the input's (every refusal of this module is:
    /// flags, files and keys the user gave).
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            DrawError::Input(_) | DrawError::Draw(_) | DrawError::Position(_)
        )
    }
}

/// The draw method: the phrase when one is given, otherwise the seed.
///
/// # Errors
///
/// A blank phrase (anyone could "recompute" its draw), or neither a phrase
/// nor a seed.
pub fn method(phrase: Option<&str>, seed: Option<u64>) -> Result<DrawMethod, DrawError> {
    match (phrase, seed) {
        (Some(phrase), _) if phrase.trim().is_empty() => {
            Err(DrawError::Input("--phrase must not be empty".to_owned()))
        }
        (Some(phrase), _) => Ok(DrawMethod::Phrase(phrase.to_owned())),
        (None, Some(seed)) => Ok(DrawMethod::Seed(seed)),
        (None, None) => Err(DrawError::Input(
            "a draw needs --seed or --phrase".to_owned(),
        )),
    }
}

/// What `c960 draw` is asked for.
#[derive(Debug, Clone, Default)]
pub struct DrawOptions {
    /// `--phrase`.
    pub phrase: Option<String>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// How many rounds (distinct positions) to draw.
    pub rounds: usize,
    /// The conditions on the drawn positions.
    pub filters: FilterOptions,
}

/// A draw made, with what it was drawn under.
#[derive(Debug)]
pub struct Drawn {
    /// Where the draw's randomness comes from.
    pub method: DrawMethod,
    /// How many rounds were drawn.
    pub rounds: usize,
    /// The filter the candidates passed.
    pub filter: DrawFilter,
    /// The balance table the balance filter read.
    pub balance: Option<BalanceRecord>,
    /// Where the excluded positions come from.
    pub excluded: Excluded,
    /// The positions drawn, one a round, and the candidates' count.
    pub draw: Draw,
}

/// Draws `options.rounds` positions among those the filters let through.
///
/// # Errors
///
/// A blank phrase, filters that cannot be read or applied, and a draw that
/// cannot be made (see [`DrawError`]).
pub fn draw(options: &DrawOptions) -> Result<Drawn, DrawError> {
    // A blank phrase is refused before any file is read.
    let method = method(options.phrase.as_deref(), options.seed)?;
    let Filters {
        filter,
        balance,
        excluded,
    } = Filters::from_options(&options.filters)?;
    let draw = c960_core::draw(&method, options.rounds, &filter, &Features::all())?;
    Ok(Drawn {
        method,
        rounds: options.rounds,
        filter,
        balance,
        excluded,
        draw,
    })
}

#[cfg(test)]
mod tests;
