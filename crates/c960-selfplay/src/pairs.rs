//! Engine A against engine B: games gathered into colour-reversed pairs,
//! whose pentanomial counts c960-balance's `elo` turns into statistics.

use std::collections::HashMap;

use c960_balance::elo::{MatchStats, Sprt};
use c960_core::PairKey;

use crate::{GameRecord, Outcome};

/// Pairs of games between A and B, gathered one game at a time.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    /// The first game of each unfinished pair, by (SP, pair index).
    pending: HashMap<PairKey, f64>,
    /// Pairs by A's pair score: LL, LD, DD/WL, WD, WW.
    pentanomial: [u64; 5],
    /// Of the DD/WL pairs, those with a win and a loss.
    win_loss: u64,
    /// A's wins, draws and losses over the games of finished pairs.
    wdl: [u64; 3],
}

impl PairTally {
    /// Adds one game (A is White in even games); returns whether it
    /// finished a pair.
    pub fn add(&mut self, game: &GameRecord) -> bool {
        let a_white = game.game.is_multiple_of(2);
        let a_score = match (game.result, a_white) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => 1.0,
            _ => 0.0,
        };
        let key = PairKey::new(game.sp, game.game / 2);
        let Some(first) = self.pending.remove(&key) else {
            self.pending.insert(key, a_score);
            return false;
        };
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let index = ((first + a_score) * 2.0).round() as usize;
        self.pentanomial[index] += 1;
        if index == 2 && (first - a_score).abs() > 0.25 {
            self.win_loss += 1;
        }
        for s in [first, a_score] {
            #[allow(clippy::float_cmp)]
            let slot = if s == 1.0 {
                0
            } else if s == 0.5 {
                1
            } else {
                2
            };
            self.wdl[slot] += 1;
        }
        true
    }

    /// The statistics so far, with the SPRT's state if one is run.
    #[must_use]
    pub fn stats(&self, sprt: Option<Sprt>) -> MatchStats {
        MatchStats::from_pentanomial(self.pentanomial, self.win_loss, self.wdl, sprt)
    }
}
