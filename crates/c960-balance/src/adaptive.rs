//! Adaptive self-play: which positions get the next round of games.
//!
//! A position stays open while its anytime-valid confidence sequence (see
//! [`crate::sequential`]) is wider than the target and still overlaps an
//! edge of the balance band (so its verdict could still go either way).
//! Because the sequence is valid at every number of games, stopping a
//! position when it is narrow enough, or when it already clears the band,
//! leaves its interval valid.

use serde::{Deserialize, Serialize};

use crate::{
    sequential::{ConfidenceState, Sequence},
    verdict::Band,
};

/// When a position has had enough games.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoppingRule {
    /// Stop when the interval's half width is at most this.
    pub target_half_width: f64,
    /// The confidence sequences' error rate (`0.05` for 95%).
    pub alpha: f64,
    /// Half the balance band; a position whose interval lies wholly inside
    /// the band or wholly outside it is decided and stops too.
    pub band_half_width: f64,
}

impl StoppingRule {
    /// Whether a position with interval `sequence` needs more games, with
    /// the band around `centre` (the all-position mean so far).
    #[must_use]
    pub fn is_open(&self, sequence: &Sequence, centre: f64) -> bool {
        if sequence.half_width() <= self.target_half_width {
            return false;
        }
        let band = Band {
            centre,
            half_width: self.band_half_width,
        };
        let above = sequence.low > band.high();
        let below = sequence.high < band.low();
        let inside = sequence.low > band.low() && sequence.high < band.high();
        !(above || below || inside)
    }
}

/// Every position's running interval, for deciding rounds.
#[derive(Clone, Debug)]
pub struct Tracker {
    rule: StoppingRule,
    states: Vec<ConfidenceState>,
    sum: f64,
    games: u64,
}

impl Tracker {
    /// `positions` positions with no game yet.
    #[must_use]
    pub fn new(rule: StoppingRule, positions: usize) -> Tracker {
        Tracker {
            rule,
            states: vec![ConfidenceState::new(rule.alpha); positions],
            sum: 0.0,
            games: 0,
        }
    }

    /// Records one game's White score for position `index`; games of a
    /// position must come in game order.
    pub fn push(&mut self, index: usize, score: f64) {
        self.states[index].push(score);
        self.sum += score;
        self.games += 1;
    }

    /// The all-position mean of every game so far (½ before any).
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn centre(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.sum / self.games as f64
        }
    }

    /// Position `index`'s interval.
    #[must_use]
    pub fn sequence(&self, index: usize) -> Sequence {
        self.states[index].sequence()
    }

    /// The positions that get a game in the next round, in index order.
    #[must_use]
    pub fn open(&self) -> Vec<usize> {
        let centre = self.centre();
        (0..self.states.len())
            .filter(|&i| self.rule.is_open(&self.states[i].sequence(), centre))
            .collect()
    }

    /// Games recorded.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }
}
