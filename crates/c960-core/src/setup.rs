//! What a run evaluates: a Chess960 start position or a Double Fischer
//! Random setup, named by one number (the SP, or the DFRC index) within
//! its variant.
//!
//! ```
//! use c960_core::{Setup, Variant};
//!
//! let setups = Setup::parse_set(Variant::Dfrc, "symmetric")?;
//! assert_eq!(setups.len(), 960);
//! assert_eq!(setups[518].id(), 518 * 961);
//! assert_eq!(setups[518].placement(), "RNBQKBNR/RNBQKBNR");
//! let classical = Setup::parse_set(Variant::Chess960, "518")?;
//! assert_eq!(classical[0].to_position(), setups[518].to_position());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::{collections::BTreeSet, fmt};

use serde::{Deserialize, Serialize};
use shakmaty::Chess;

use crate::{DfrcError, DfrcSetup, StartPosition, StartPositionError};

/// The family of start setups a run draws from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The 960 Chess960 positions, both sides alike.
    #[default]
    Chess960,
    /// Double Fischer Random: 921,600 setups, each side's rank drawn apart.
    Dfrc,
}

impl Variant {
    /// Whether this is the default variant (Chess960), which manifests and
    /// journals leave unsaid.
    #[must_use]
    pub fn is_chess960(&self) -> bool {
        *self == Variant::Chess960
    }

    /// The name of one setup's number in tables: `sp` or `setup`.
    #[must_use]
    pub fn id_column(self) -> &'static str {
        match self {
            Variant::Chess960 => "sp",
            Variant::Dfrc => "setup",
        }
    }

    /// How a setup is named in messages: `SP 518` or `setup 497798`.
    #[must_use]
    pub fn label(self, id: u32) -> String {
        match self {
            Variant::Chess960 => format!("SP {id}"),
            Variant::Dfrc => format!("setup {id}"),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Chess960 => "chess960",
            Variant::Dfrc => "dfrc",
        })
    }
}

/// One start setup of either variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Setup {
    /// A Chess960 start position.
    Chess960(StartPosition),
    /// A Double Fischer Random setup.
    Dfrc(DfrcSetup),
}

/// A set or a number that names no setup of its variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A Chess960 set or SP.
    #[error(transparent)]
    Chess960(#[from] StartPositionError),
    /// A DFRC set or index.
    #[error(transparent)]
    Dfrc(#[from] DfrcError),
}

impl Setup {
    /// The setup numbered `id` in `variant` (an SP, or a DFRC index).
    ///
    /// # Errors
    /// When `id` is out of the variant's range.
    pub fn new(variant: Variant, id: u32) -> Result<Setup, SetupError> {
        Ok(match variant {
            Variant::Chess960 => {
                Setup::Chess960(StartPosition::new(u16::try_from(id).unwrap_or(u16::MAX))?)
            }
            Variant::Dfrc => Setup::Dfrc(DfrcSetup::new(id)?),
        })
    }

    /// The setups a set names: Chess960 sets as `c960 sweep --positions`
    /// takes them (`all`, `0-99,518`), DFRC sets as
    /// [`crate::parse_dfrc_set`] does (`symmetric`, `white:518`,
    /// `sample:N:SEED`, ranges of indices), in ascending order.
    ///
    /// # Errors
    /// When the text is not a set of the variant.
    pub fn parse_set(variant: Variant, text: &str) -> Result<Vec<Setup>, SetupError> {
        Ok(match variant {
            Variant::Chess960 => crate::parse_position_set(text)?
                .into_iter()
                .map(Setup::Chess960)
                .collect(),
            Variant::Dfrc => crate::parse_dfrc_set(text)?
                .into_iter()
                .map(Setup::Dfrc)
                .collect(),
        })
    }

    /// A set's text for `setups`: Chess960 positions compressed to ranges
    /// (as [`crate::format_position_set`]), DFRC setups as ranges of
    /// indices (`all` for all 921,600).
    #[must_use]
    pub fn format_set(setups: &[Setup]) -> String {
        let chess960: Vec<StartPosition> = setups
            .iter()
            .filter_map(|s| match s {
                Setup::Chess960(p) => Some(*p),
                Setup::Dfrc(_) => None,
            })
            .collect();
        if chess960.len() == setups.len() {
            return crate::format_position_set(&chess960);
        }
        let ids: BTreeSet<u32> = setups.iter().map(|s| s.id()).collect();
        if ids.len() == crate::DFRC_COUNT as usize {
            return "all".to_owned();
        }
        let mut parts = Vec::new();
        let mut iter = ids.into_iter().peekable();
        while let Some(first) = iter.next() {
            let mut last = first;
            while iter.peek() == Some(&(last + 1)) {
                last = iter.next().unwrap_or(last);
            }
            parts.push(if first == last {
                first.to_string()
            } else {
                format!("{first}-{last}")
            });
        }
        parts.join(",")
    }

    /// The variant this setup belongs to.
    #[must_use]
    pub fn variant(self) -> Variant {
        match self {
            Setup::Chess960(_) => Variant::Chess960,
            Setup::Dfrc(_) => Variant::Dfrc,
        }
    }

    /// The setup's number within its variant: the SP, or the DFRC index.
    #[must_use]
    pub fn id(self) -> u32 {
        match self {
            Setup::Chess960(p) => u32::from(p.sp()),
            Setup::Dfrc(s) => s.index(),
        }
    }

    /// White's back rank (`RNBQKBNR`), or both ranks for DFRC, White's
    /// first (`RNBQKBNR/RNBQKBNR`).
    #[must_use]
    pub fn placement(self) -> String {
        match self {
            Setup::Chess960(p) => p.placement(),
            Setup::Dfrc(s) => s.placement(),
        }
    }

    /// The start position, in shakmaty's Chess960 castling mode.
    #[must_use]
    pub fn to_position(self) -> Chess {
        match self {
            Setup::Chess960(p) => p.to_position(),
            Setup::Dfrc(s) => s.to_position(),
        }
    }

    /// The start position's X-FEN (castling by file letters where the
    /// rook is not the outermost one, as PGN readers take it).
    #[must_use]
    pub fn to_xfen(self) -> String {
        match self {
            Setup::Chess960(p) => p.to_xfen(),
            Setup::Dfrc(s) => s.to_xfen(),
        }
    }

    /// How the setup is named in messages: `SP 518` or `setup 497798`.
    #[must_use]
    pub fn label(self) -> String {
        self.variant().label(self.id())
    }
}

impl From<StartPosition> for Setup {
    fn from(position: StartPosition) -> Setup {
        Setup::Chess960(position)
    }
}

impl From<DfrcSetup> for Setup {
    fn from(setup: DfrcSetup) -> Setup {
        Setup::Dfrc(setup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_in_both_variants() {
        for (variant, id) in [
            (Variant::Chess960, 0),
            (Variant::Chess960, 959),
            (Variant::Dfrc, 0),
            (Variant::Dfrc, 921_599),
            (Variant::Dfrc, 518 * 961),
        ] {
            let setup = Setup::new(variant, id).unwrap();
            assert_eq!((setup.variant(), setup.id()), (variant, id));
        }
        assert!(Setup::new(Variant::Chess960, 960).is_err());
        assert!(Setup::new(Variant::Chess960, 70_000).is_err());
        assert!(Setup::new(Variant::Dfrc, 921_600).is_err());
    }

    #[test]
    fn symmetric_dfrc_setups_are_the_chess960_positions() {
        let chess960 = Setup::parse_set(Variant::Chess960, "all").unwrap();
        let symmetric = Setup::parse_set(Variant::Dfrc, "symmetric").unwrap();
        for (a, b) in chess960.iter().zip(&symmetric) {
            assert_eq!(a.to_position(), b.to_position());
            assert_eq!(b.id(), a.id() * 961);
        }
    }

    #[test]
    fn sets_format_back_to_what_parses_to_them() {
        for (variant, text) in [
            (Variant::Chess960, "0-9,518"),
            (Variant::Dfrc, "0-9,518,921599"),
            (Variant::Dfrc, "sample:50:3"),
            (Variant::Dfrc, "white:4"),
        ] {
            let setups = Setup::parse_set(variant, text).unwrap();
            let again = Setup::parse_set(variant, &Setup::format_set(&setups)).unwrap();
            assert_eq!(again, setups, "{text}");
        }
        assert_eq!(
            Setup::format_set(&Setup::parse_set(Variant::Dfrc, "all").unwrap()),
            "all"
        );
    }
}
