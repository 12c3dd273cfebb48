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
    /// The search of the position after `best_move_uci` (Black's reply),
    /// in a sweep that searches replies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<Box<Reply>>,
}

/// The search of the position after White's best move: Black to move, with
/// the same limit and `MultiPV` as the search of the start. Scores are from
/// White's point of view, as in the rest of the row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
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
    /// Black's best move in UCI (Chess960 notation).
    pub best_move_uci: String,
    /// Black's best move in SAN.
    pub best_move_san: String,
    /// The first moves of the `MultiPV` lines, best first.
    pub top_moves: Vec<TopMove>,
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
    /// Whether the line's score is exact or a bound (White's view): absent
    /// when exact.
    #[serde(default, skip_serializing_if = "Bound::is_exact")]
    pub bound: Bound,
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
        SweepRow {
            sp: position.id(),
            placement: position.placement(),
            engine: engine.name.clone(),
            engine_options: engine.options_string(),
            limit,
            depth: best.map_or(0, |l| l.depth),
            seldepth: best.and_then(|l| l.seldepth),
            nodes: result.nodes,
            time_ms: time_ms(result),
            score_cp: white.and_then(Score::cp),
            score_mate: white.and_then(Score::mate),
            bound: white_bound(result),
            wdl_win: wdl.map(|w| w.win),
            wdl_draw: wdl.map(|w| w.draw),
            wdl_loss: wdl.map(|w| w.loss),
            best_move_uci: uci(result.best_move),
            best_move_san: SanPlus::from_move(start.clone(), result.best_move).to_string(),
            pv_san: best.map(|l| san_line(&start, &l.pv)).unwrap_or_default(),
            top_moves: top_moves(&start, result),
            repeat: 0,
            node_budget: None,
            reply: None,
        }
    }

    /// The same row with `reply`, the search of the position after its
    /// best move.
    #[must_use]
    pub fn with_reply(mut self, reply: Reply) -> SweepRow {
        self.reply = Some(Box::new(reply));
        self
    }

    /// The row with the engine's clock left out (of the reply's search
    /// too): what two runs with the same settings agree on.
    #[must_use]
    pub fn without_time(&self) -> SweepRow {
        let mut row = self.clone();
        row.time_ms = None;
        if let Some(reply) = row.reply.as_mut() {
            reply.time_ms = None;
        }
        row
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

impl Reply {
    /// The reply from a search of `after`, the position after White's
    /// best move.
    #[must_use]
    pub fn new(after: &Chess, result: &SearchResult) -> Reply {
        let best = result.best_line();
        let white = result.white_score();
        Reply {
            depth: best.map_or(0, |l| l.depth),
            seldepth: best.and_then(|l| l.seldepth),
            nodes: result.nodes,
            time_ms: time_ms(result),
            score_cp: white.and_then(Score::cp),
            score_mate: white.and_then(Score::mate),
            bound: white_bound(result),
            best_move_uci: uci(result.best_move),
            best_move_san: SanPlus::from_move(after.clone(), result.best_move).to_string(),
            top_moves: top_moves(after, result),
        }
    }
}

/// The centipawn value given to a mate score when scores are averaged.
pub const MATE_CP: f64 = 1000.0;

/// The first move of each line of `result`, a search of `searched`, with
/// its score from White's point of view.
fn top_moves(searched: &Chess, result: &SearchResult) -> Vec<TopMove> {
    result
        .lines
        .iter()
        .filter_map(|line| {
            let first = *line.pv.first()?;
            let score = line.score.for_white(result.turn);
            Some(TopMove {
                uci: uci(first),
                san: SanPlus::from_move(searched.clone(), first).to_string(),
                cp: score.cp(),
                mate: score.mate(),
                bound: line.bound.for_white(result.turn),
            })
        })
        .collect()
}

/// The best line's bound from White's point of view (exact without lines).
fn white_bound(result: &SearchResult) -> Bound {
    result
        .best_line()
        .map_or(Bound::Exact, |l| l.bound.for_white(result.turn))
}

/// The engine's search time in milliseconds.
fn time_ms(result: &SearchResult) -> Option<u64> {
    result
        .time
        .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX))
}

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
