//! How hard a start position's first two moves are, from a sweep row with
//! its reply: White's first move (the lines of the search of the start)
//! and Black's first reply after White's best move (the lines of the
//! reply's search), each as a [`Choice`] of c960-balance, and the
//! asymmetry between them (White's minus Black's).
//!
//! Scores are read from the point of view of the side choosing: White's
//! lines as they stand, the reply's negated. A mate counts as
//! ±[`MATE_CP`] centipawns, as everywhere scores are combined, so two
//! mating moves are both good and a mate stands [`MATE_CP`] minus the
//! other score above a move that does not mate. A line whose score is a
//! bound (the engine stopped inside a search of it) is read at its bound
//! and counted in `bound_lines`.

use c960_balance::difficulty::{Choice, asymmetry, choice};

use crate::{MATE_CP, SweepRow, TopMove};

/// The difficulty columns of a table with replies, in the order of
/// [`Difficulty::cells`].
pub const DIFFICULTY_COLUMNS: [&str; 10] = c960_store::columns::difficulty::ALL;

/// The difficulty of White's first move and of Black's reply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// White's first move.
    pub white: Choice,
    /// Lines of White's search whose score is a bound.
    pub white_bound_lines: usize,
    /// Black's reply after White's best move.
    pub black: Choice,
    /// Lines of the reply's search whose score is a bound.
    pub black_bound_lines: usize,
}

impl Difficulty {
    /// The difficulty of `row`'s position; `None` without a reply or when
    /// either search reported no line.
    #[must_use]
    pub fn of(row: &SweepRow) -> Option<Difficulty> {
        let reply = row.reply.as_ref()?;
        Some(Difficulty {
            white: side(&row.top_moves, 1)?,
            white_bound_lines: bound_lines(&row.top_moves),
            black: side(&reply.top_moves, -1)?,
            black_bound_lines: bound_lines(&reply.top_moves),
        })
    }

    /// The cells of [`DIFFICULTY_COLUMNS`]: per side the lines scored, the
    /// good moves, the gap and the bound lines, then the two asymmetries.
    #[must_use]
    pub fn cells(&self) -> [Option<i32>; 10] {
        [
            count(self.white.lines),
            count(self.white.good_moves),
            self.white.gap_cp,
            count(self.white_bound_lines),
            count(self.black.lines),
            count(self.black.good_moves),
            self.black.gap_cp,
            count(self.black_bound_lines),
            self.good_moves_asymmetry(),
            self.gap_asymmetry_cp(),
        ]
    }

    /// White's good moves minus Black's.
    #[must_use]
    pub fn good_moves_asymmetry(&self) -> Option<i32> {
        asymmetry(count(self.white.good_moves), count(self.black.good_moves))
    }

    /// White's gap minus Black's, in centipawns.
    #[must_use]
    pub fn gap_asymmetry_cp(&self) -> Option<i32> {
        asymmetry(self.white.gap_cp, self.black.gap_cp)
    }
}

/// The choice among `lines` for the side whose scores are White's times
/// `sign`.
fn side(lines: &[TopMove], sign: i32) -> Option<Choice> {
    let scores: Vec<i32> = lines
        .iter()
        .filter_map(|l| white_cp(l).map(|cp| sign * cp))
        .collect();
    choice(&scores)
}

/// A line's score for White in centipawns, a mate as ±[`MATE_CP`].
fn white_cp(line: &TopMove) -> Option<i32> {
    #[allow(clippy::cast_possible_truncation)] // 1000
    const MATE: i32 = MATE_CP as i32;
    match (line.cp, line.mate) {
        (Some(cp), _) => Some(cp),
        (None, Some(m)) => Some(MATE * m.signum()),
        (None, None) => None,
    }
}

fn bound_lines(lines: &[TopMove]) -> usize {
    lines.iter().filter(|l| !l.bound.is_exact()).count()
}

/// A count as a table cell (a `MultiPV` fits in `i32`).
fn count(n: usize) -> Option<i32> {
    i32::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use c960_engine::Bound;

    use super::*;
    use crate::Reply;

    fn line(cp: Option<i32>, mate: Option<i32>, bound: Bound) -> TopMove {
        TopMove {
            uci: String::new(),
            san: String::new(),
            cp,
            mate,
            bound,
        }
    }

    fn cp(cp: i32) -> TopMove {
        line(Some(cp), None, Bound::Exact)
    }

    fn row(white: Vec<TopMove>, black: Option<Vec<TopMove>>) -> SweepRow {
        SweepRow {
            sp: 518,
            placement: "RNBQKBNR".into(),
            engine: String::new(),
            engine_options: String::new(),
            limit: c960_engine::Limit::Nodes(1),
            depth: 1,
            seldepth: None,
            nodes: None,
            time_ms: None,
            score_cp: Some(0),
            score_mate: None,
            bound: Bound::Exact,
            wdl_win: None,
            wdl_draw: None,
            wdl_loss: None,
            best_move_uci: String::new(),
            best_move_san: String::new(),
            pv_san: String::new(),
            top_moves: white,
            repeat: 0,
            node_budget: None,
            reply: black.map(|top_moves| {
                Box::new(Reply {
                    depth: 1,
                    seldepth: None,
                    nodes: None,
                    time_ms: None,
                    score_cp: Some(0),
                    score_mate: None,
                    bound: Bound::Exact,
                    best_move_uci: String::new(),
                    best_move_san: String::new(),
                    top_moves,
                })
            }),
        }
    }

    #[test]
    fn reads_the_reply_from_blacks_side() {
        // White: 40, 30, 10 → two within 25 cp, gap 10. Black's lines are
        // White's scores after Black's moves: −20 is Black's best (+20 for
        // Black), then 10 and 30 (−10 and −30 for Black): one good move,
        // gap 30.
        let r = row(
            vec![cp(40), cp(30), cp(10)],
            Some(vec![cp(-20), cp(10), cp(30)]),
        );
        let d = Difficulty::of(&r).unwrap();
        assert_eq!((d.white.good_moves, d.white.gap_cp), (2, Some(10)));
        assert_eq!((d.black.good_moves, d.black.gap_cp), (1, Some(30)));
        assert_eq!(d.good_moves_asymmetry(), Some(1));
        assert_eq!(d.gap_asymmetry_cp(), Some(-20));
    }

    #[test]
    fn no_reply_no_difficulty() {
        assert_eq!(Difficulty::of(&row(vec![cp(1)], None)), None);
        assert_eq!(Difficulty::of(&row(vec![], Some(vec![cp(1)]))), None);
    }

    #[test]
    fn mates_count_as_a_thousand_centipawns_for_the_side_they_favour() {
        // White mates in 3 or in 5: both good, gap 0; a plain move far below.
        let r = row(
            vec![
                line(None, Some(3), Bound::Exact),
                line(None, Some(5), Bound::Exact),
                cp(200),
            ],
            // Black is mated (White mates in 2) unless it finds the one
            // defence holding White to +90.
            Some(vec![cp(90), line(None, Some(2), Bound::Exact)]),
        );
        let d = Difficulty::of(&r).unwrap();
        assert_eq!((d.white.good_moves, d.white.gap_cp), (2, Some(0)));
        assert_eq!((d.black.good_moves, d.black.gap_cp), (1, Some(910)));
    }

    #[test]
    fn bound_lines_are_read_at_their_bound_and_counted() {
        let r = row(
            vec![cp(30), line(Some(20), None, Bound::Lower), cp(0)],
            Some(vec![
                line(Some(-5), None, Bound::Upper),
                line(Some(0), None, Bound::Lower),
            ]),
        );
        let d = Difficulty::of(&r).unwrap();
        assert_eq!((d.white_bound_lines, d.black_bound_lines), (1, 2));
        assert_eq!((d.white.good_moves, d.white.gap_cp), (2, Some(10)));
        assert_eq!((d.black.good_moves, d.black.gap_cp), (2, Some(5)));
    }
}
