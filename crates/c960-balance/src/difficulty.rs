//! How hard one move choice is, from the scores an engine gives its top
//! moves (a `MultiPV` search): how many moves are nearly as good as the
//! best (the good-move density) and how far the best stands above the
//! second best (the gap).
//!
//! A choice with many good moves forgives: a player who misses the best
//! move still finds one within a small margin of it. A choice with one
//! good move and a wide gap demands the only move. The two measures read
//! the same scores from two sides: one counts the moves near the top, the
//! other measures the step below it.

/// Moves whose score is at most this many centipawns below the best count
/// as good (the best itself included).
pub const GOOD_MOVE_WINDOW_CP: i32 = 25;

/// The difficulty of one move choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Moves scored: the lines the engine reported (its `MultiPV`, or
    /// fewer when the position has fewer legal moves).
    pub lines: usize,
    /// Moves within [`GOOD_MOVE_WINDOW_CP`] of the best, the best
    /// included: from 1 to `lines`. It is counted among the lines scored,
    /// so a count equal to a full `MultiPV` means "this many or more".
    pub good_moves: usize,
    /// The best score minus the second best, in centipawns (0 when they
    /// tie); `None` with a single line.
    pub gap_cp: Option<i32>,
}

/// The choice among moves scored `scores_cp` (centipawns from the point of
/// view of the side to move, in any order; ties count as they stand: two
/// best moves of equal score give a gap of 0 and both count as good).
/// `None` without scores.
///
/// # Examples
/// ```
/// use c960_balance::difficulty::choice;
/// let c = choice(&[30, 27, 10, 4, -40]).unwrap();
/// assert_eq!((c.lines, c.good_moves, c.gap_cp), (5, 3, Some(3)));
/// ```
#[must_use]
pub fn choice(scores_cp: &[i32]) -> Option<Choice> {
    let mut sorted = scores_cp.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let best = *sorted.first()?;
    let good_moves = sorted
        .iter()
        .filter(|&&s| i64::from(best) - i64::from(s) <= i64::from(GOOD_MOVE_WINDOW_CP))
        .count();
    Some(Choice {
        lines: sorted.len(),
        good_moves,
        gap_cp: sorted.get(1).map(|second| best.saturating_sub(*second)),
    })
}

/// White's measure minus Black's: the asymmetry of one measure between
/// White's first move and Black's reply (saturating at the ends of `i32`).
/// `None` when either is missing.
#[must_use]
pub fn asymmetry(white: Option<i32>, black: Option<i32>) -> Option<i32> {
    Some(white?.saturating_sub(black?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_moves_within_the_window_and_the_step_below_the_best() {
        // The window is inclusive: 25 cp below the best is still good.
        let c = choice(&[40, 15, 14, 39]).unwrap();
        assert_eq!(c.lines, 4);
        assert_eq!(c.good_moves, 3);
        assert_eq!(c.gap_cp, Some(1));
    }

    #[test]
    fn reads_scores_in_any_order() {
        let ordered = choice(&[50, 30, 20, -10]).unwrap();
        let shuffled = choice(&[-10, 20, 50, 30]).unwrap();
        assert_eq!(ordered, shuffled);
        assert_eq!(ordered.good_moves, 2);
        assert_eq!(ordered.gap_cp, Some(20));
    }

    #[test]
    fn ties_give_a_zero_gap_and_all_count_as_good() {
        let c = choice(&[12, 12, 12]).unwrap();
        assert_eq!((c.good_moves, c.gap_cp), (3, Some(0)));
    }

    #[test]
    fn one_line_has_one_good_move_and_no_gap() {
        let c = choice(&[-300]).unwrap();
        assert_eq!((c.lines, c.good_moves, c.gap_cp), (1, 1, None));
        assert_eq!(choice(&[]), None);
    }

    #[test]
    fn an_only_move_stands_alone() {
        let c = choice(&[80, -20, -25, -90]).unwrap();
        assert_eq!((c.good_moves, c.gap_cp), (1, Some(100)));
    }

    #[test]
    fn extreme_scores_do_not_overflow() {
        let c = choice(&[i32::MAX, i32::MIN]).unwrap();
        assert_eq!(c.good_moves, 1);
        assert_eq!(c.gap_cp, Some(i32::MAX));
    }

    #[test]
    fn asymmetry_is_white_minus_black() {
        assert_eq!(asymmetry(Some(5), Some(2)), Some(3));
        assert_eq!(asymmetry(Some(1), Some(8)), Some(-7));
        assert_eq!(asymmetry(None, Some(8)), None);
        assert_eq!(asymmetry(Some(1), None), None);
        assert_eq!(asymmetry(Some(i32::MAX), Some(-1)), Some(i32::MAX));
    }
}
