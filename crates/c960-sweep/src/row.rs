//! One row of a sweep: everything the engine said about one start position,
//! with scores from White's point of view.

use c960_core::{
    Setup,
    shakmaty::{CastlingMode, Chess, Move, san::SanPlus, uci::UciMove},
};
use c960_engine::{Bound, EngineInfo, Limit, Score, SearchResult};
use serde::{Deserialize, Serialize};

/// The evaluation of one start position. Every field is the same in two
/// runs with the same settings (one thread, node limit) except `time_ms`,
/// the engine's own clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The setup's number: the Scharnagl number, or the DFRC index in a
    /// DFRC sweep (the `setup` column of its tables).
    pub sp: u32,
    /// White's back rank (both ranks, White's first, for DFRC).
    pub placement: String,
    /// Engine name (`id name`).
    pub engine: String,
    /// Engine options as `Name=value, ...`.
    pub engine_options: String,
    /// The search limit, e.g. `nodes 1000000`.
    pub limit: Limit,
    /// Depth of the last iteration reported.
    pub depth: u32,
    /// Selective depth, if reported.
    pub seldepth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Search time in milliseconds, as the engine reports it.
    pub time_ms: Option<u64>,
    /// Centipawns for White (absent for a mate score).
    pub score_cp: Option<i32>,
    /// Moves to mate for White (negative: White is mated).
    pub score_mate: Option<i32>,
    /// Whether the score is exact or a bound (White's view).
    pub bound: Bound,
    /// White's win chance, per mille, if the engine reports WDL.
    pub wdl_win: Option<u32>,
    /// Draw chance, per mille.
    pub wdl_draw: Option<u32>,
    /// White's loss chance, per mille.
    pub wdl_loss: Option<u32>,
    /// Best move in UCI (Chess960 notation: castling as king takes rook).
    pub best_move_uci: String,
    /// Best move in SAN.
    pub best_move_san: String,
    /// The principal variation in SAN, space-separated.
    pub pv_san: String,
    /// The first moves of the `MultiPV` lines, best first.
    pub top_moves: Vec<TopMove>,
    /// Which repeat of the position this search is (0 without repeats).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repeat: u32,
    /// The node budget this search had, when repeats perturb it (the
    /// run's limit otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_budget: Option<u64>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's signature
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The first move of one `MultiPV` line with its score (White's view).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopMove {
    /// In UCI (Chess960 notation).
    pub uci: String,
    /// In SAN.
    pub san: String,
    /// Centipawns for White.
    pub cp: Option<i32>,
    /// Moves to mate for White.
    pub mate: Option<i32>,
}

/// A score's rank for the side it is given for, higher better: a mate
/// to give (the sooner the better), then centipawns, then a mate to
/// suffer (the later the better).
fn mover_rank(score: Score) -> (i8, i64) {
    match score {
        Score::Mate(n) if n > 0 => (2, -i64::from(n)),
        Score::Cp(cp) => (1, i64::from(cp)),
        Score::Mate(n) => (0, -i64::from(n)),
    }
}

impl SweepRow {
    /// The search this row is: its setup and repeat.
    #[must_use]
    pub fn key(&self) -> c960_core::SearchKey {
        c960_core::SearchKey::new(self.sp, self.repeat)
    }

    /// Builds the row for `position` from a search of its start.
    #[must_use]
    pub fn new(
        position: Setup,
        engine: &EngineInfo,
        limit: Limit,
        result: &SearchResult,
    ) -> SweepRow {
        let start = position.to_position();
        let best = result.best_line();
        let white = result.white_score();
        let wdl = result.white_wdl();
        // Best first for the side to move: an engine stopped by its limit
        // reports some lines from the depth before, out of order.
        let mut lines: Vec<&c960_engine::Line> = result.lines.iter().collect();
        lines.sort_by_key(|line| std::cmp::Reverse(mover_rank(line.score)));
        let top_moves = lines
            .into_iter()
            .filter_map(|line| {
                let first = *line.pv.first()?;
                let score = line.score.for_white(result.turn);
                Some(TopMove {
                    uci: uci(first),
                    san: SanPlus::from_move(start.clone(), first).to_string(),
                    cp: score.cp(),
                    mate: score.mate(),
                })
            })
            .collect();
        SweepRow {
            sp: position.id(),
            placement: position.placement(),
            engine: engine.name.clone(),
            engine_options: engine.options_string(),
            limit,
            depth: best.map_or(0, |l| l.depth),
            seldepth: best.and_then(|l| l.seldepth),
            nodes: result.nodes,
            time_ms: result
                .time
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            score_cp: white.and_then(Score::cp),
            score_mate: white.and_then(Score::mate),
            bound: best.map_or(Bound::Exact, |l| l.bound.for_white(result.turn)),
            wdl_win: wdl.map(|w| w.win),
            wdl_draw: wdl.map(|w| w.draw),
            wdl_loss: wdl.map(|w| w.loss),
            best_move_uci: uci(result.best_move),
            best_move_san: SanPlus::from_move(start.clone(), result.best_move).to_string(),
            pv_san: best.map(|l| san_line(&start, &l.pv)).unwrap_or_default(),
            top_moves,
            repeat: 0,
            node_budget: None,
        }
    }

    /// The same row as repeat `repeat`, searched with `node_budget` nodes.
    #[must_use]
    pub fn for_repeat(mut self, repeat: u32, node_budget: Option<u64>) -> SweepRow {
        self.repeat = repeat;
        self.node_budget = node_budget;
        self
    }

    /// White's expected score from the engine's WDL, `(W + D/2) / 1000`,
    /// if the engine reported WDL.
    #[must_use]
    pub fn white_expected(&self) -> Option<f64> {
        match (self.wdl_win, self.wdl_draw) {
            (Some(w), Some(d)) => Some((f64::from(w) + f64::from(d) / 2.0) / 1000.0),
            _ => None,
        }
    }

    /// The score in centipawns for White, with a mate counted as ±10 pawns
    /// (a mate in a start position is out of reach of any real search).
    #[must_use]
    pub fn white_cp(&self) -> Option<f64> {
        match (self.score_cp, self.score_mate) {
            (Some(cp), _) => Some(f64::from(cp)),
            (None, Some(m)) => Some(MATE_CP * f64::from(m.signum())),
            (None, None) => None,
        }
    }
}

/// The centipawn value given to a mate score when scores are averaged.
pub const MATE_CP: f64 = 1000.0;

fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Chess960).to_string()
}

fn san_line(start: &Chess, moves: &[Move]) -> String {
    let mut position = start.clone();
    moves
        .iter()
        .map(|m| SanPlus::from_move_and_play_unchecked(&mut position, *m).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use c960_core::{
        StartPosition,
        shakmaty::{Color, Position as _},
    };
    use c960_engine::{Line, SearchResult};

    use super::*;

    #[test]
    fn multipv_moves_are_stored_in_score_order_best_first() {
        let position = StartPosition::new(518).unwrap();
        let moves = position.to_position().legal_moves();
        // Line 2 from the depth before scores above line 1; line 4 is a
        // mate to suffer, line 3 a mate to give.
        let scores = [
            Score::Cp(20),
            Score::Cp(35),
            Score::Mate(9),
            Score::Mate(-3),
            Score::Cp(-40),
        ];
        let lines: Vec<Line> = scores
            .iter()
            .zip(&moves)
            .zip(1..)
            .map(|((score, m), multipv)| Line {
                multipv,
                depth: 12,
                seldepth: None,
                score: *score,
                bound: Bound::Exact,
                wdl: None,
                pv: vec![m.clone()],
            })
            .collect();
        let result = SearchResult {
            turn: Color::White,
            best_move: moves[0].clone(),
            ponder: None,
            lines,
            nodes: None,
            time: None,
            elapsed: std::time::Duration::ZERO,
        };
        let row = SweepRow::new(
            position.into(),
            &EngineInfo::default(),
            Limit::Nodes(1),
            &result,
        );
        let shown: Vec<(Option<i32>, Option<i32>)> =
            row.top_moves.iter().map(|t| (t.cp, t.mate)).collect();
        assert_eq!(
            shown,
            [
                (None, Some(9)),
                (Some(35), None),
                (Some(20), None),
                (Some(-40), None),
                (None, Some(-3)),
            ]
        );
        assert_eq!(row.top_moves[1].uci, uci(moves[1].clone()));
        // The engine's own best move and score are kept as it gave them.
        assert_eq!(row.score_cp, Some(20));
        assert_eq!(row.best_move_uci, uci(moves[0].clone()));
    }
}
