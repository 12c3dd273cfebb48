//! Castling counted over many games, one game at a time in bounded memory:
//! in how many games each colour castled on each side, and a histogram of
//! the plies at which it did. Self-play and imported games are tallied the
//! same way.

use shakmaty::{ByCastlingSide, ByColor, CastlingSide, Color};

/// Castling over a set of games, per colour and side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CastlingTally {
    castled: ByColor<ByCastlingSide<u64>>,
    plies: ByColor<Vec<u64>>,
}

impl CastlingTally {
    /// Counts one game in which `color` castled on `side` at `ply` (the
    /// game's first ply is 1).
    pub fn add(&mut self, color: Color, side: CastlingSide, ply: u32) {
        *self.castled.get_mut(color).get_mut(side) += 1;
        let histogram = self.plies.get_mut(color);
        let ply = ply as usize;
        if histogram.len() <= ply {
            histogram.resize(ply + 1, 0);
        }
        histogram[ply] += 1;
    }

    /// Games in which `color` castled on `side`.
    #[must_use]
    pub fn games(&self, color: Color, side: CastlingSide) -> u64 {
        *self.castled.get(color).get(side)
    }

    /// The median ply of `color`'s castling, over the games in which it
    /// castled (`None` if it never did).
    #[must_use]
    pub fn median_ply(&self, color: Color) -> Option<f64> {
        histogram_median(self.plies.get(color))
    }
}

/// Median of a histogram (index = value), e.g. of castling plies.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn histogram_median(histogram: &[u64]) -> Option<f64> {
    let total: u64 = histogram.iter().sum();
    if total == 0 {
        return None;
    }
    let value_at = |rank: u64| {
        let mut seen = 0;
        for (value, count) in histogram.iter().enumerate() {
            seen += count;
            if seen > rank {
                return value as f64;
            }
        }
        unreachable!("rank below total")
    };
    Some(if total % 2 == 1 {
        value_at(total / 2)
    } else {
        f64::midpoint(value_at(total / 2 - 1), value_at(total / 2))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_is_counted_per_colour_and_side_with_its_median_ply() {
        let mut tally = CastlingTally::default();
        tally.add(Color::White, CastlingSide::KingSide, 9);
        tally.add(Color::White, CastlingSide::KingSide, 13);
        tally.add(Color::White, CastlingSide::QueenSide, 20);
        tally.add(Color::Black, CastlingSide::QueenSide, 4);
        assert_eq!(tally.games(Color::White, CastlingSide::KingSide), 2);
        assert_eq!(tally.games(Color::White, CastlingSide::QueenSide), 1);
        assert_eq!(tally.games(Color::Black, CastlingSide::QueenSide), 1);
        assert_eq!(tally.games(Color::Black, CastlingSide::KingSide), 0);
        assert_eq!(tally.median_ply(Color::White), Some(13.0));
        assert_eq!(tally.median_ply(Color::Black), Some(4.0));
        assert_eq!(CastlingTally::default().median_ply(Color::White), None);
    }
}
