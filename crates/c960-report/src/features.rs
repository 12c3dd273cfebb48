//! The position table's layout, once: the columns of `c960 positions`
//! (Chess960 and Double Fischer Random) and of the report's
//! `positions.parquet`, from the records c960-core computes (the same
//! numbers as `data/positions.csv`). Counts are `u32`, numbers `u32`,
//! differences `i32`, files and squares text.

use c960_core::{DfrcRecord, Features, PositionRecord};
use c960_store::Frame;
use polars::prelude::*;

/// One row per position, in SP order, with every column of the position
/// table, in its order (`c960 positions`, `positions.csv` of a run).
pub fn features_frame() -> PolarsResult<DataFrame> {
    let rows: Vec<PositionRecord> = Features::all().iter().map(PositionRecord::from).collect();
    chess960_frame(&rows)
}

/// A count of pieces, pawns or moves on one board as a cell: it fits in
/// 32 bits.
#[allow(clippy::cast_possible_truncation)]
fn count(n: usize) -> u32 {
    n as u32
}

/// The Chess960 position table of `rows`.
pub fn chess960_frame(rows: &[PositionRecord]) -> PolarsResult<DataFrame> {
    Frame::new(rows)
        .column("sp", |r| u32::from(r.sp))
        .column("placement", |r| r.placement.as_str())
        .column("xfen", |r| r.xfen.as_str())
        .column("shredder_fen", |r| r.shredder_fen.as_str())
        .column("mirror_sp", |r| u32::from(r.mirror_sp))
        .column("mirror_placement", |r| r.mirror_placement.as_str())
        .column("king_file", |r| r.king_file.to_string())
        .column("rook_a_file", |r| r.rook_a_file.to_string())
        .column("rook_h_file", |r| r.rook_h_file.to_string())
        .column("queen_file", |r| r.queen_file.to_string())
        .column("bishop_files", |r| r.bishop_files.as_str())
        .column("knight_files", |r| r.knight_files.as_str())
        .column("legal_first_moves", |r| count(r.legal_first_moves))
        .column("undefended_pawns", |r| count(r.undefended_pawns))
        .column("undefended_files", |r| r.undefended_files.as_str())
        .column("king_only_pawns", |r| count(r.king_only_pawns))
        .column("king_only_files", |r| r.king_only_files.as_str())
        .column("weak_pawns", |r| count(r.weak_pawns))
        .column("weak_files", |r| r.weak_files.as_str())
        .column("first_move_attackable", |r| count(r.first_move_attackable))
        .column("first_move_attacks", |r| r.first_move_attacks.as_str())
        .column("castle_a_first_move", |r| r.castle_a_first_move)
        .column("castle_a_kind", |r| r.castle_a_kind.as_str())
        .column("castle_a_blockers", |r| count(r.castle_a_blockers))
        .column("castle_a_blocker_squares", |r| {
            r.castle_a_blocker_squares.as_str()
        })
        .column("castle_h_first_move", |r| r.castle_h_first_move)
        .column("castle_h_kind", |r| r.castle_h_kind.as_str())
        .column("castle_h_blockers", |r| count(r.castle_h_blockers))
        .column("castle_h_blocker_squares", |r| {
            r.castle_h_blocker_squares.as_str()
        })
        .column("corner_bishops", |r| count(r.corner_bishops))
        .column("corner_bishop_squares", |r| {
            r.corner_bishop_squares.as_str()
        })
        .column("queen_in_corner", |r| r.queen_in_corner)
        .build()
}

/// The Double Fischer Random setup table of `rows`.
pub fn dfrc_frame(rows: &[DfrcRecord]) -> PolarsResult<DataFrame> {
    Frame::new(rows)
        .column("index", |r| r.index)
        .column("white_sp", |r| u32::from(r.white_sp))
        .column("black_sp", |r| u32::from(r.black_sp))
        .column("symmetric", |r| r.symmetric)
        .column("placement", |r| r.placement.as_str())
        .column("shredder_fen", |r| r.shredder_fen.as_str())
        .column("xfen", |r| r.xfen.as_str())
        .column("white_undefended", |r| count(r.white_undefended))
        .column("black_undefended", |r| count(r.black_undefended))
        .column("white_king_only", |r| count(r.white_king_only))
        .column("black_king_only", |r| count(r.black_king_only))
        .column("white_weak", |r| count(r.white_weak))
        .column("black_weak", |r| count(r.black_weak))
        .column("white_attackable", |r| count(r.white_attackable))
        .column("white_attacks", |r| r.white_attacks.as_str())
        .column("black_attackable", |r| count(r.black_attackable))
        .column("black_attacks", |r| r.black_attacks.as_str())
        .column("white_castle_a_first_move", |r| r.white_castle_a_first_move)
        .column("white_castle_h_first_move", |r| r.white_castle_h_first_move)
        .column("black_castle_a_first_move", |r| r.black_castle_a_first_move)
        .column("black_castle_h_first_move", |r| r.black_castle_h_first_move)
        .column("white_castle_a_kind", |r| r.white_castle_a_kind.as_str())
        .column("white_castle_h_kind", |r| r.white_castle_h_kind.as_str())
        .column("black_castle_a_kind", |r| r.black_castle_a_kind.as_str())
        .column("black_castle_h_kind", |r| r.black_castle_h_kind.as_str())
        .column("white_castle_blockers", |r| count(r.white_castle_blockers))
        .column("black_castle_blockers", |r| count(r.black_castle_blockers))
        .column("white_corner_bishops", |r| count(r.white_corner_bishops))
        .column("black_corner_bishops", |r| count(r.black_corner_bishops))
        .column("weak_diff", |r| r.weak_diff)
        .column("attackable_diff", |r| r.attackable_diff)
        .column("castle_first_move_diff", |r| r.castle_first_move_diff)
        .column("corner_bishops_diff", |r| r.corner_bishops_diff)
        .build()
}
