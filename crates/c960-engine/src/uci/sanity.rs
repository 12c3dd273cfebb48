//! Sanity checks on a UCI engine's answer. A search result is only used
//! when it is a search of the position within the limit asked for:
//!
//! - the best move comes with at least one `info` line that has a depth of
//!   at least 1, a score and a principal variation (`bestmove` alone would
//!   give a row without depth or score);
//! - a node-limited search (`go nodes N`) reports at least N/4 nodes,
//!   and at most 4N + [`NODE_SLACK`] (an engine checks its limit every so
//!   many nodes, per thread): a row says `nodes N`, so the search must be
//!   one;
//! - a depth-limited search (`go depth D`) reports a best line of depth D;
//! - the best line starts with the best move;
//! - no line's `score cp` lies beyond ±[`MAX_SCORE_CP`] (16 bits, what UCI
//!   engines print): a larger one is garbage, not an evaluation;
//! - a mate score is not `mate 0` (the side to move would be mated, yet it
//!   moved), and a principal variation long enough to reach the claimed
//!   mate ends in checkmate exactly there (shakmaty plays it).
//!
//! A search may stop short of its limit for a reason that does not change
//! its answer, and then passes:
//!
//! - the position has a single legal move;
//! - the best line's score is a mate (for either side) that its principal
//!   variation plays out to checkmate: the engine found a forced line to its
//!   end (a claim the line does not show is no reason to stop early);
//! - the best line reached depth [`FULL_DEPTH`]: engines stop iterating
//!   at their maximum depth, which in simple endgames comes after few nodes.
//!
//! Time limits (`go movetime`) are not checked: time is not reproducible.
//! WDL triples that do not add up to 1000 are refused by the parser.

use c960_core::MAX_SCORE_CP;
use shakmaty::{Chess, Move, Position};

use crate::{Limit, Score, Search, SearchResult};

/// A search that reaches this depth has searched enough, whatever its limit.
pub const FULL_DEPTH: u32 = 64;

/// A node-limited search must report at least `1/MIN_NODE_FRACTION` of its
/// node limit.
pub const MIN_NODE_FRACTION: u64 = 4;

/// Nodes a node-limited search may report beyond `MIN_NODE_FRACTION`
/// times its limit: engines check the limit every thousand nodes or so in
/// each thread.
pub const NODE_SLACK: u64 = 10_000;

/// What is wrong with an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The answer itself cannot be used.
    Unusable(String),
    /// The search stopped far short of its limit: what it did instead.
    ShortOfLimit(String),
}

/// The rule a search short of its limit broke, for error messages.
pub(crate) fn rule(limit: Limit) -> String {
    let exemptions = format!(
        "unless the position has one legal move, a mate is found or depth {FULL_DEPTH} is reached"
    );
    match limit {
        Limit::Nodes(_) => format!(
            "a node-limited search must search at least 1/{MIN_NODE_FRACTION} of its nodes \
             {exemptions}"
        ),
        Limit::Depth(_) => format!("a depth-limited search must reach its depth {exemptions}"),
        Limit::MoveTime(_) | Limit::Clock(_) => "time limits are not checked".to_owned(),
    }
}

/// Checks `result`, the answer to `search` in `position`.
pub(crate) fn check(position: &Chess, search: Search, result: &SearchResult) -> Result<(), Fault> {
    let Some(best) = result.best_line() else {
        return Err(Fault::Unusable(
            "it sent bestmove without an info line with a score and a principal variation"
                .to_owned(),
        ));
    };
    if let Some(cp) = result.lines.iter().find_map(|line| match line.score {
        Score::Cp(cp) if cp.unsigned_abs() > MAX_SCORE_CP.unsigned_abs() => Some(cp),
        _ => None,
    }) {
        return Err(Fault::Unusable(format!(
            "it reported score cp {cp}, beyond the ±{MAX_SCORE_CP} centipawns a UCI score can be"
        )));
    }
    if best.depth == 0 {
        return Err(Fault::Unusable(
            "its best line has no depth (depth 0 or none)".to_owned(),
        ));
    }
    if best.pv.first() != Some(&result.best_move) {
        return Err(Fault::Unusable(format!(
            "its best line starts with {}, not with its best move {}",
            best.pv
                .first()
                .map_or_else(|| "nothing".to_owned(), |m| uci(*m)),
            uci(result.best_move)
        )));
    }
    let mate_shown = match best.score {
        Score::Mate(moves) => mate_shown(position, moves, &best.pv).map_err(Fault::Unusable)?,
        Score::Cp(_) => false,
    };
    let finished_early =
        mate_shown || best.depth >= FULL_DEPTH || position.legal_moves().len() == 1;
    match search.limit {
        Limit::Nodes(limit) => match result.nodes {
            None => Err(Fault::ShortOfLimit(format!(
                "reported no node count (depth {})",
                best.depth
            ))),
            Some(nodes) if nodes > limit.saturating_mul(MIN_NODE_FRACTION) + NODE_SLACK => {
                Err(Fault::Unusable(format!(
                    "it reported {nodes} nodes for a search of nodes {limit} (at most \
                     {MIN_NODE_FRACTION} times the limit and {NODE_SLACK} more): the row would not \
                     be the search its limit says"
                )))
            }
            Some(nodes) if !finished_early && nodes.saturating_mul(MIN_NODE_FRACTION) < limit => {
                Err(Fault::ShortOfLimit(format!(
                    "stopped at depth {} after {nodes} nodes",
                    best.depth
                )))
            }
            Some(_) => Ok(()),
        },
        Limit::Depth(depth) if !finished_early && best.depth < depth => Err(Fault::ShortOfLimit(
            format!("stopped at depth {} of {depth}", best.depth),
        )),
        Limit::Depth(_) | Limit::MoveTime(_) | Limit::Clock(_) => Ok(()),
    }
}

/// Whether the principal variation `pv` from `position` shows the mate the
/// score `mate moves` claims (positive: the side to move mates in that many
/// moves; negative: it is mated). `Ok(false)` when the line stops before
/// the mate; an error when the claim is impossible (`mate 0` with moves to
/// make) or the line contradicts it (no checkmate where the claim puts
/// one, or checkmate earlier).
fn mate_shown(position: &Chess, moves: i32, pv: &[Move]) -> Result<bool, String> {
    if moves == 0 {
        return Err(
            "it claims mate 0 (the side to move is mated) in a position with legal moves"
                .to_owned(),
        );
    }
    let plies = if moves > 0 {
        2 * moves.unsigned_abs() - 1
    } else {
        2 * moves.unsigned_abs()
    } as usize;
    let mut after = position.clone();
    for (ply, m) in pv.iter().enumerate() {
        if !after.is_legal(*m) {
            return Err(format!(
                "its line for mate {moves} has the illegal move {} at ply {}",
                uci(*m),
                ply + 1
            ));
        }
        after.play_unchecked(*m);
        if after.is_checkmate() {
            return if ply + 1 == plies {
                Ok(true)
            } else {
                Err(format!(
                    "it claims mate {moves} ({plies} plies) but its line mates after {} plies",
                    ply + 1
                ))
            };
        }
        if ply + 1 == plies {
            return Err(format!(
                "it claims mate {moves} but its line reaches ply {plies} without checkmate"
            ));
        }
    }
    Ok(false)
}

/// A move in Chess960 UCI notation, for messages.
fn uci(m: Move) -> String {
    shakmaty::uci::UciMove::from_move(m, shakmaty::CastlingMode::Chess960).to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use shakmaty::{CastlingMode, Color, fen::Fen};

    use super::*;
    use crate::{Bound, Line};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap()
    }

    fn start() -> Chess {
        Chess::default()
    }

    fn result(position: &Chess, depth: u32, score: Score, nodes: Option<u64>) -> SearchResult {
        let best = position.legal_moves()[0];
        SearchResult {
            turn: Color::White,
            best_move: best,
            ponder: None,
            lines: vec![Line {
                multipv: 1,
                depth,
                seldepth: None,
                score,
                bound: Bound::Exact,
                wdl: None,
                pv: vec![best],
            }],
            nodes,
            time: None,
            elapsed: Duration::ZERO,
        }
    }

    fn nodes(n: u64) -> Search {
        Search::new(Limit::Nodes(n))
    }

    #[test]
    fn a_bestmove_without_an_info_line_is_unusable() {
        let pos = start();
        let mut r = result(&pos, 1, Score::Cp(0), Some(100));
        r.lines.clear();
        assert!(matches!(
            check(&pos, nodes(100), &r),
            Err(Fault::Unusable(m)) if m.contains("without an info line")
        ));
        let r = result(&pos, 0, Score::Cp(0), Some(100));
        assert!(matches!(
            check(&pos, nodes(100), &r),
            Err(Fault::Unusable(_))
        ));
    }

    #[test]
    fn a_score_beyond_16_bits_is_unusable() {
        let pos = start();
        for cp in [MAX_SCORE_CP, -MAX_SCORE_CP, 32_001] {
            assert!(check(&pos, nodes(100), &result(&pos, 9, Score::Cp(cp), Some(100))).is_ok());
        }
        for cp in [MAX_SCORE_CP + 1, -MAX_SCORE_CP - 1, i32::MAX, i32::MIN] {
            let r = result(&pos, 9, Score::Cp(cp), Some(100));
            assert!(matches!(
                check(&pos, nodes(100), &r),
                Err(Fault::Unusable(m)) if m.contains(&format!("score cp {cp}"))
            ));
        }
        // A second line (MultiPV) is checked as well.
        let mut r = result(&pos, 9, Score::Cp(20), Some(100));
        let mut second = r.lines[0].clone();
        second.multipv = 2;
        second.score = Score::Cp(2_147_483_647);
        r.lines.push(second);
        assert!(matches!(
            check(&pos, nodes(100), &r),
            Err(Fault::Unusable(_))
        ));
    }

    #[test]
    fn a_node_limit_must_be_used_to_a_quarter() {
        let pos = start();
        let limit = nodes(200_000);
        assert_eq!(
            check(&pos, limit, &result(&pos, 1, Score::Cp(83), Some(6))),
            Err(Fault::ShortOfLimit(
                "stopped at depth 1 after 6 nodes".to_owned()
            ))
        );
        assert!(check(&pos, limit, &result(&pos, 9, Score::Cp(20), Some(49_999))).is_err());
        assert!(check(&pos, limit, &result(&pos, 9, Score::Cp(20), Some(50_000))).is_ok());
        assert!(check(&pos, limit, &result(&pos, 9, Score::Cp(20), Some(200_100))).is_ok());
        assert!(matches!(
            check(&pos, limit, &result(&pos, 9, Score::Cp(20), None)),
            Err(Fault::ShortOfLimit(m)) if m.contains("no node count")
        ));
    }

    #[test]
    fn a_node_count_far_beyond_the_limit_is_unusable() {
        let pos = start();
        let limit = nodes(1_000);
        assert!(check(&pos, limit, &result(&pos, 9, Score::Cp(20), Some(14_000))).is_ok());
        assert!(matches!(
            check(&pos, limit, &result(&pos, 9, Score::Cp(20), Some(99_999_999))),
            Err(Fault::Unusable(m)) if m.contains("reported 99999999 nodes for a search of nodes 1000")
        ));
        assert!(check(&pos, limit, &result(&pos, 9, Score::Cp(20), Some(14_001))).is_err());
    }

    #[test]
    fn a_depth_limit_must_be_reached() {
        let pos = start();
        let limit = Search::new(Limit::Depth(12));
        assert_eq!(
            check(&pos, limit, &result(&pos, 1, Score::Cp(83), Some(6))),
            Err(Fault::ShortOfLimit("stopped at depth 1 of 12".to_owned()))
        );
        assert!(check(&pos, limit, &result(&pos, 11, Score::Cp(8), Some(9))).is_err());
        assert!(check(&pos, limit, &result(&pos, 12, Score::Cp(8), Some(9))).is_ok());
        // Beyond every engine's maximum depth, reaching FULL_DEPTH is enough.
        let deep = Search::new(Limit::Depth(300));
        assert!(check(&pos, deep, &result(&pos, FULL_DEPTH, Score::Cp(8), None)).is_ok());
        // Time is not checked.
        let time = Search::new(Limit::MoveTime(10_000));
        assert!(check(&pos, time, &result(&pos, 1, Score::Cp(8), Some(1))).is_ok());
    }

    /// `result` with the line `pv` (UCI moves) as its best line.
    fn with_line(position: &Chess, score: Score, nodes: u64, pv: &[&str]) -> SearchResult {
        let mut after = position.clone();
        let moves: Vec<Move> = pv
            .iter()
            .map(|m| {
                let m = m
                    .parse::<shakmaty::uci::UciMove>()
                    .unwrap()
                    .to_move(&after)
                    .unwrap();
                after.play_unchecked(m);
                m
            })
            .collect();
        let mut r = result(position, 5, score, Some(nodes));
        r.best_move = moves[0];
        r.lines[0].pv = moves;
        r
    }

    #[test]
    fn forced_mates_single_moves_and_full_depth_may_stop_early() {
        let limit = nodes(1_000_000);
        let depth = Search::new(Limit::Depth(30));
        // White mates with Ra8; Black to move is mated after Kh8 Ra8.
        let white = position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let black = position("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1");
        for (pos, score, pv) in [
            (&white, Score::Mate(1), &["a1a8"][..]),
            (&black, Score::Mate(-1), &["g8h8", "a1a8"][..]),
        ] {
            let r = with_line(pos, score, 900, pv);
            assert!(check(pos, limit, &r).is_ok());
            assert!(check(pos, depth, &r).is_ok());
        }
        let pos = start();
        assert!(
            check(
                &pos,
                limit,
                &result(&pos, FULL_DEPTH, Score::Cp(0), Some(900))
            )
            .is_ok()
        );
        assert!(
            check(
                &pos,
                limit,
                &result(&pos, FULL_DEPTH - 1, Score::Cp(0), Some(900))
            )
            .is_err()
        );
        // Black's king on h8, in check from the rook on a8: only Kh7.
        let forced = position("R6k/8/5K2/8/8/8/8/8 b - - 0 1");
        assert_eq!(forced.legal_moves().len(), 1);
        assert!(
            check(
                &forced,
                limit,
                &result(&forced, 1, Score::Cp(-900), Some(2))
            )
            .is_ok()
        );
    }

    /// Issue 30 item 7: `score mate 0` with moves to make, and mate claims
    /// that the line does not show, are lies; a claim whose line stops
    /// before the mate is no reason to stop short of the limit.
    #[test]
    fn lying_mate_claims_are_refused_and_unshown_ones_do_not_skip_the_node_check() {
        let pos = start();
        let limit = nodes(2_000);
        let lie = |score, pv: &[&str]| check(&pos, limit, &with_line(&pos, score, 1, pv));
        assert!(
            matches!(lie(Score::Mate(0), &["e2e4"]), Err(Fault::Unusable(m)) if m.contains("mate 0"))
        );
        assert!(
            matches!(lie(Score::Mate(1), &["e2e4"]), Err(Fault::Unusable(m)) if m.contains("without checkmate"))
        );
        // Fool's mate: Black mates on ply 4, so from the start White is
        // mated in 2 (mate -2) - shown, and exempt from the node check.
        assert!(lie(Score::Mate(-2), &["f2f3", "e7e5", "g2g4", "d8h4"]).is_ok());
        assert!(
            matches!(lie(Score::Mate(-3), &["f2f3", "e7e5", "g2g4", "d8h4"]), Err(Fault::Unusable(m)) if m.contains("mates after 4 plies"))
        );
        assert!(matches!(
            lie(Score::Mate(5), &["e2e4"]),
            Err(Fault::ShortOfLimit(_))
        ));
    }

    /// Issue 30 item 15: a best line that starts with another move than the
    /// best move contradicts itself.
    #[test]
    fn a_pv_whose_first_move_is_not_the_best_move_is_unusable() {
        let pos = start();
        let mut r = with_line(&pos, Score::Cp(20), 5_000, &["e2e4", "e7e5"]);
        r.best_move = pos
            .legal_moves()
            .into_iter()
            .find(|m| uci(*m) == "d2d4")
            .unwrap();
        assert!(matches!(
            check(&pos, nodes(5_000), &r),
            Err(Fault::Unusable(m)) if m.contains("starts with e2e4, not with its best move d2d4")
        ));
    }
}
