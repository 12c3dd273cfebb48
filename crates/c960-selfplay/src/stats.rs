//! Per-position statistics, aggregated one game at a time in bounded
//! memory: counts, a histogram of castling plies, move-list hashes for
//! counting distinct games, and at most one unfinished colour-reversed pair
//! per pair index.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    hash::{DefaultHasher, Hash, Hasher},
};

use serde::Serialize;

use c960_balance::interval::score_interval;
pub use c960_balance::interval::{Interval, trinomial_interval};
use c960_core::{
    CastlingTally, Setup,
    shakmaty::{ByCastlingSide, ByColor, CastlingSide, Color},
};

use crate::{GameRecord, Outcome, Termination};

/// Running statistics for one start position.
#[derive(Clone, Debug, Default)]
pub struct PositionStats {
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    distinct: HashSet<u64>,
    castling: CastlingTally,
    terminations: HashMap<Termination, u64>,
    pairs: Pairs,
}

/// Colour-reversed pairs (games 2k and 2k+1 between two engines).
#[derive(Clone, Debug, Default)]
struct Pairs {
    pending: HashMap<u32, f64>,
    count: u64,
    sum: f64,
    sum_sq: f64,
}

/// The finished statistics of one position: one row of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionSummary {
    /// Scharnagl number.
    pub sp: u32,
    /// Games played.
    pub games: u64,
    /// Games with distinct move lists.
    pub distinct_games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// White's score (W + D/2) / games, with its 95% interval.
    pub white_score: Option<Interval>,
    /// `trinomial` (games as independent wins, draws and losses) or `pairs`
    /// (colour-reversed pairs between two engines as the unit).
    pub interval_method: &'static str,
    /// Draws / games.
    pub draw_rate: Option<f64>,
    /// Share of games in which each side castled, by the side of the
    /// board it castled to (a-side = `QueenSide`, h-side = `KingSide`).
    #[serde(skip)]
    pub castled: ByColor<ByCastlingSide<Option<f64>>>,
    /// Median ply of each side's castling, over games with castling.
    #[serde(skip)]
    pub median_castle_ply: ByColor<Option<f64>>,
    /// Games per termination, in [`Termination::ALL`] order.
    pub terminations: Vec<u64>,
}

impl PositionStats {
    /// Adds one game. With `paired`, games `2k` and `2k+1` form a
    /// colour-reversed pair.
    pub fn add(&mut self, game: &GameRecord, paired: bool) {
        self.games += 1;
        match game.result {
            Outcome::WhiteWins => self.white_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BlackWins => self.black_wins += 1,
        }
        let mut hasher = DefaultHasher::new();
        game.moves.hash(&mut hasher);
        self.distinct.insert(hasher.finish());
        for (color, castling) in [
            (Color::White, game.white_castling),
            (Color::Black, game.black_castling),
        ] {
            if let Some(c) = castling {
                // The h-side is the king side in Chess960 as in chess.
                let side = if c.side == 'h' {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                self.castling.add(color, side, c.ply);
            }
        }
        *self.terminations.entry(game.termination).or_insert(0) += 1;
        if paired {
            let score = game.result.white_score();
            match self.pairs.pending.remove(&(game.game / 2)) {
                Some(other) => {
                    let pair = f64::midpoint(score, other);
                    self.pairs.count += 1;
                    self.pairs.sum += pair;
                    self.pairs.sum_sq += pair * pair;
                }
                None => {
                    self.pairs.pending.insert(game.game / 2, score);
                }
            }
        }
    }

    /// The table rows of `positions` (in their order) from the statistics
    /// by SP; a position without games gets an empty row.
    #[must_use]
    pub fn rows(
        positions: &[Setup],
        stats: &BTreeMap<u32, PositionStats>,
        paired: bool,
    ) -> Vec<PositionSummary> {
        let none = PositionStats::default();
        positions
            .iter()
            .map(|p| stats.get(&p.id()).unwrap_or(&none).summary(p.id(), paired))
            .collect()
    }

    /// The table row for `sp`.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn summary(&self, sp: u32, paired: bool) -> PositionSummary {
        let n = self.games as f64;
        let share = |count: u64| (self.games > 0).then(|| count as f64 / n);
        let white_score = if paired {
            pair_interval(&self.pairs)
        } else {
            trinomial_interval(self.white_wins, self.draws, self.black_wins)
        };
        PositionSummary {
            sp,
            games: self.games,
            distinct_games: self.distinct.len() as u64,
            white_wins: self.white_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            white_score,
            interval_method: if paired { "pairs" } else { "trinomial" },
            draw_rate: share(self.draws),
            castled: ByColor::new_with(|color| {
                ByCastlingSide::new_with(|side| share(self.castling.games(color, side)))
            }),
            median_castle_ply: ByColor::new_with(|color| self.castling.median_ply(color)),
            terminations: Termination::ALL
                .iter()
                .map(|t| self.terminations.get(t).copied().unwrap_or(0))
                .collect(),
        }
    }
}

/// Mean of the pair scores (average of White's score over two
/// colour-reversed games) with an interval of Wilson's form from their
/// sample variance.
#[allow(clippy::cast_precision_loss)]
fn pair_interval(pairs: &Pairs) -> Option<Interval> {
    if pairs.count == 0 {
        return None;
    }
    let n = pairs.count as f64;
    let mean = pairs.sum / n;
    let variance = if pairs.count < 2 {
        0.0
    } else {
        ((pairs.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0)
    };
    Some(score_interval(mean, variance, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trinomial_interval_matches_a_hand_computation() {
        // 60 wins, 30 draws, 10 losses: mean 0.75; variance
        // 0.6·0.0625 + 0.3·0.0625 + 0.1·0.5625 = 0.1125.
        let z: f64 = 1.959_963_984_540_054;
        let i = trinomial_interval(60, 30, 10).unwrap();
        assert!((i.mean - 0.75).abs() < 1e-12);
        let (n, k) = (100.0, 1.0 + z * z / 100.0);
        let centre = (0.75 + z * z / (2.0 * n)) / k;
        let half = z / k * (0.1125 / n + z * z / (4.0 * n * n)).sqrt();
        assert!((i.low - (centre - half)).abs() < 1e-12);
        assert!((i.high - (centre + half)).abs() < 1e-12);
        // Close to the normal interval with 100 games.
        let normal = z * (0.1125f64 / 100.0).sqrt();
        assert!((i.high - i.low - 2.0 * normal).abs() < 0.01);
        assert_eq!(trinomial_interval(0, 0, 0), None);
        // Ten draws: centred on ½ but not a point.
        let all_draws = trinomial_interval(0, 10, 0).unwrap();
        let half = z / (1.0 + z * z / 10.0) * (z * z / 400.0).sqrt();
        assert!((all_draws.low - (0.5 - half)).abs() < 1e-12);
        assert!((all_draws.high - (0.5 + half)).abs() < 1e-12);
        assert!(all_draws.high - all_draws.low > 0.27);
        // With v = m(1 − m) the formula is Wilson's score interval: two
        // losses give [0, 0.6576] (published Wilson bound for 0/2).
        let losses = trinomial_interval(0, 0, 2).unwrap();
        assert!(losses.low.abs() < 1e-12);
        assert!((losses.high - 0.6576).abs() < 1e-4, "{}", losses.high);
    }

    #[test]
    fn pair_interval_uses_pairs_as_the_unit() {
        // Pairs scoring 1, 0.5, 0.5, 0: mean 0.5, sample variance 1/6.
        let mut pairs = Pairs::default();
        for p in [1.0, 0.5, 0.5, 0.0] {
            pairs.count += 1;
            pairs.sum += p;
            pairs.sum_sq += p * p;
        }
        let i = pair_interval(&pairs).unwrap();
        assert!((i.mean - 0.5).abs() < 1e-12);
        let z: f64 = 1.959_963_984_540_054;
        let half = z / (1.0 + z * z / 4.0) * ((1.0f64 / 6.0) / 4.0 + z * z / 64.0).sqrt();
        assert!((i.high - 0.5 - half).abs() < 1e-12);
        assert_eq!(pair_interval(&Pairs::default()), None);
        let one = Pairs {
            count: 1,
            sum: 0.5,
            sum_sq: 0.25,
            ..Pairs::default()
        };
        let i = pair_interval(&one).unwrap();
        assert_eq!((i.low, i.high), (0.0, 1.0), "one pair: no spread known");
        let single = trinomial_interval(1, 0, 0).unwrap();
        assert_eq!((single.mean, single.low, single.high), (1.0, 0.0, 1.0));
    }

    #[test]
    fn medians_from_histograms() {
        use c960_core::histogram_median as median;
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[0, 0, 1]), Some(2.0));
        assert_eq!(median(&[0, 1, 1]), Some(1.5));
        assert_eq!(median(&[0, 3, 0, 1]), Some(1.0));
    }
}
