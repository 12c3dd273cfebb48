//! The static features of all 960 positions as a polars frame, computed
//! by c960-core (the same numbers as `data/positions.csv`).

use c960_core::{Features, PositionRecord};
use polars::prelude::*;

/// One row per position, in SP order, with every column of the position
/// table, in its order (`c960 positions`, `positions.csv` of a run).
pub fn features_frame() -> PolarsResult<DataFrame> {
    let rows: Vec<PositionRecord> = Features::all().iter().map(PositionRecord::from).collect();
    macro_rules! column {
        ($name:literal, $f:expr) => {
            Column::new($name.into(), rows.iter().map($f).collect::<Vec<_>>())
        };
    }
    let columns = vec![
        column!("sp", |r: &PositionRecord| u32::from(r.sp)),
        column!("placement", |r: &PositionRecord| r.placement.clone()),
        column!("xfen", |r: &PositionRecord| r.xfen.clone()),
        column!("shredder_fen", |r: &PositionRecord| r.shredder_fen.clone()),
        column!("mirror_sp", |r: &PositionRecord| u32::from(r.mirror_sp)),
        column!("mirror_placement", |r: &PositionRecord| r
            .mirror_placement
            .clone()),
        column!("king_file", |r: &PositionRecord| r.king_file.to_string()),
        column!("rook_a_file", |r: &PositionRecord| r
            .rook_a_file
            .to_string()),
        column!("rook_h_file", |r: &PositionRecord| r
            .rook_h_file
            .to_string()),
        column!("queen_file", |r: &PositionRecord| r.queen_file.to_string()),
        column!("bishop_files", |r: &PositionRecord| r.bishop_files.clone()),
        column!("knight_files", |r: &PositionRecord| r.knight_files.clone()),
        column!(
            "legal_first_moves",
            |r: &PositionRecord| r.legal_first_moves as u32
        ),
        column!("undefended_pawns", |r: &PositionRecord| r.undefended_pawns
            as u32),
        column!("undefended_files", |r: &PositionRecord| r
            .undefended_files
            .clone()),
        column!("king_only_pawns", |r: &PositionRecord| r.king_only_pawns
            as u32),
        column!("king_only_files", |r: &PositionRecord| r
            .king_only_files
            .clone()),
        column!("weak_pawns", |r: &PositionRecord| r.weak_pawns as u32),
        column!("weak_files", |r: &PositionRecord| r.weak_files.clone()),
        column!(
            "first_move_attackable",
            |r: &PositionRecord| r.first_move_attackable as u32
        ),
        column!("first_move_attacks", |r: &PositionRecord| r
            .first_move_attacks
            .clone()),
        column!("castle_a_first_move", |r: &PositionRecord| r
            .castle_a_first_move),
        column!("castle_a_kind", |r: &PositionRecord| r
            .castle_a_kind
            .clone()),
        column!(
            "castle_a_blockers",
            |r: &PositionRecord| r.castle_a_blockers as u32
        ),
        column!("castle_a_blocker_squares", |r: &PositionRecord| r
            .castle_a_blocker_squares
            .clone()),
        column!("castle_h_first_move", |r: &PositionRecord| r
            .castle_h_first_move),
        column!("castle_h_kind", |r: &PositionRecord| r
            .castle_h_kind
            .clone()),
        column!(
            "castle_h_blockers",
            |r: &PositionRecord| r.castle_h_blockers as u32
        ),
        column!("castle_h_blocker_squares", |r: &PositionRecord| r
            .castle_h_blocker_squares
            .clone()),
        column!("corner_bishops", |r: &PositionRecord| r.corner_bishops
            as u32),
        column!("corner_bishop_squares", |r: &PositionRecord| r
            .corner_bishop_squares
            .clone()),
        column!("queen_in_corner", |r: &PositionRecord| r.queen_in_corner),
    ];
    DataFrame::new(rows.len(), columns)
}
