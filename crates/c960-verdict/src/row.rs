//! One position's published balance, typed: the row of `balance.csv` that
//! the site, the draw and the books read.

use c960_balance::verdict::Verdict;
use c960_core::StartPosition;
use serde::Serialize;

use crate::reference::Scale;

/// A 95 % interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Its low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
}

impl Interval {
    /// How far the interval's farther end lies from `value`: the distance
    /// that holds for every value the interval allows.
    #[must_use]
    pub fn farthest_from(&self, value: f64) -> f64 {
        (self.low - value).abs().max((self.high - value).abs())
    }

    /// Whether `value` lies inside.
    #[must_use]
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }
}

/// One position's published balance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceRow {
    /// The position.
    #[serde(serialize_with = "sp_number")]
    pub sp: StartPosition,
    /// Its verdict at the table's false discovery rate.
    pub verdict: Verdict,
    /// The verdict's Benjamini–Hochberg q-value (a table may leave it
    /// out).
    pub q_value: Option<f64>,
    /// The method the verdict and the estimate come from (a table may
    /// leave it out).
    pub method: Option<Method>,
    /// The published estimate: White's edge in centipawns (sweeps) or
    /// White's score (games), shrunk toward the mean of all positions
    /// (a table may leave it out).
    pub estimate: Option<f64>,
    /// Its 95 % interval (none for one rater, whose own view cannot be
    /// told from the truth).
    pub interval: Option<Interval>,
    /// The raters whose consensus it is (sweeps).
    pub raters: Option<u32>,
    /// Its draw chance and White's expected score, from the raters' WDL
    /// (a table may leave them out).
    pub outcome: Option<Outcome>,
    /// How hard its first two moves are (a table made with a difficulty
    /// sweep).
    pub difficulty: Option<FirstMoves>,
}

/// How hard a position's first two moves are: White's first move and
/// Black's first reply after White's best move (see
/// [`crate::balance::DIFFICULTY_MEANING`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstMoves {
    /// White's moves within 25 cp of the best, the best included.
    pub white_good_moves: u32,
    /// Black's, after White's best move.
    pub black_good_moves: u32,
    /// White's minus Black's.
    pub good_moves_asymmetry: i32,
    /// White's best score minus the second best (none with one line).
    pub white_gap_cp: Option<i32>,
    /// Black's.
    pub black_gap_cp: Option<i32>,
    /// White's minus Black's.
    pub gap_asymmetry_cp: Option<i32>,
}

/// A position's draw chance and White's expected score (0..1), each with
/// its 95 % interval: the raters' WDL models combined (see
/// [`crate::balance::OUTCOME_MEANING`]).
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// The raters with a WDL model it is the consensus of.
    pub raters: u32,
    /// The chance of a draw.
    pub draw: f64,
    /// Its interval.
    pub draw_interval: Interval,
    /// White's expected score.
    pub expected: f64,
    /// Its interval.
    pub expected_interval: Interval,
}

// serde's `serialize_with` hands the field by reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn sp_number<S: serde::Serializer>(sp: &StartPosition, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u16(sp.sp())
}

impl BalanceRow {
    /// The scale of its estimate (centipawns unless it comes from games).
    #[must_use]
    pub fn scale(&self) -> Scale {
        self.method.map_or(Scale::Cp, Method::scale)
    }
}

/// A method of estimating balance.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// White's score in games.
    Games,
    /// The engines' consensus score.
    Sweep,
}

impl Method {
    /// Its name in `balance.csv`'s `verdict_method` column.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Method::Games => "games",
            Method::Sweep => "sweep",
        }
    }

    /// The method with this name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Method> {
        [Method::Games, Method::Sweep]
            .into_iter()
            .find(|m| m.name() == name)
    }

    /// The scale of its figures.
    #[must_use]
    pub fn scale(self) -> crate::reference::Scale {
        match self {
            Method::Games => crate::reference::Scale::Score,
            Method::Sweep => crate::reference::Scale::Cp,
        }
    }

    /// The other method.
    #[must_use]
    pub fn other(self) -> Method {
        match self {
            Method::Games => Method::Sweep,
            Method::Sweep => Method::Games,
        }
    }
}
