//! The position table's layout, once: the columns of `c960 positions`
//! (Chess960 and Double Fischer Random) and of the report's
//! `positions.parquet`, from the records c960-core computes (the same
//! numbers as `data/positions.csv`). Counts are `u32`, numbers `u32`,
//! differences `i32`, files and squares text.

use c960_core::{DfrcRecord, Features, PositionRecord};
use polars::prelude::*;

/// One row per position, in SP order, with every column of the position
/// table, in its order (`c960 positions`, `positions.csv` of a run).
pub fn features_frame() -> PolarsResult<DataFrame> {
    let rows: Vec<PositionRecord> = Features::all().iter().map(PositionRecord::from).collect();
    chess960_frame(&rows)
}

/// A column of one field of every row.
macro_rules! column {
    ($rows:expr, $name:ident, $map:expr) => {
        Column::new(
            stringify!($name).into(),
            $rows.iter().map(|r| $map(&r.$name)).collect::<Vec<_>>(),
        )
    };
}

/// How the fields of a record become cells: text, counts, SP numbers and
/// flags.
#[allow(clippy::cast_possible_truncation, clippy::type_complexity)]
fn kinds() -> (
    fn(&String) -> &str,
    fn(&usize) -> u32,
    fn(&u16) -> u32,
    fn(&bool) -> bool,
) {
    // Counts of pieces, pawns or moves on one board fit in 32 bits.
    (String::as_str, |n| *n as u32, |n| u32::from(*n), |b| *b)
}

/// The Chess960 position table of `rows`.
pub fn chess960_frame(rows: &[PositionRecord]) -> PolarsResult<DataFrame> {
    let (text, count, sp, flag) = kinds();
    let file = |c: &char| c.to_string();
    let columns = vec![
        column!(rows, sp, sp),
        column!(rows, placement, text),
        column!(rows, xfen, text),
        column!(rows, shredder_fen, text),
        column!(rows, mirror_sp, sp),
        column!(rows, mirror_placement, text),
        column!(rows, king_file, file),
        column!(rows, rook_a_file, file),
        column!(rows, rook_h_file, file),
        column!(rows, queen_file, file),
        column!(rows, bishop_files, text),
        column!(rows, knight_files, text),
        column!(rows, legal_first_moves, count),
        column!(rows, undefended_pawns, count),
        column!(rows, undefended_files, text),
        column!(rows, king_only_pawns, count),
        column!(rows, king_only_files, text),
        column!(rows, weak_pawns, count),
        column!(rows, weak_files, text),
        column!(rows, first_move_attackable, count),
        column!(rows, first_move_attacks, text),
        column!(rows, castle_a_first_move, flag),
        column!(rows, castle_a_kind, text),
        column!(rows, castle_a_blockers, count),
        column!(rows, castle_a_blocker_squares, text),
        column!(rows, castle_h_first_move, flag),
        column!(rows, castle_h_kind, text),
        column!(rows, castle_h_blockers, count),
        column!(rows, castle_h_blocker_squares, text),
        column!(rows, corner_bishops, count),
        column!(rows, corner_bishop_squares, text),
        column!(rows, queen_in_corner, flag),
    ];
    DataFrame::new(rows.len(), columns)
}

/// The Double Fischer Random setup table of `rows`.
pub fn dfrc_frame(rows: &[DfrcRecord]) -> PolarsResult<DataFrame> {
    let (text, count, sp, flag) = kinds();
    let index = |n: &u32| *n;
    let diff = |d: &i32| *d;
    let columns = vec![
        column!(rows, index, index),
        column!(rows, white_sp, sp),
        column!(rows, black_sp, sp),
        column!(rows, symmetric, flag),
        column!(rows, placement, text),
        column!(rows, shredder_fen, text),
        column!(rows, xfen, text),
        column!(rows, white_undefended, count),
        column!(rows, black_undefended, count),
        column!(rows, white_king_only, count),
        column!(rows, black_king_only, count),
        column!(rows, white_weak, count),
        column!(rows, black_weak, count),
        column!(rows, white_attackable, count),
        column!(rows, white_attacks, text),
        column!(rows, black_attackable, count),
        column!(rows, black_attacks, text),
        column!(rows, white_castle_a_first_move, flag),
        column!(rows, white_castle_h_first_move, flag),
        column!(rows, black_castle_a_first_move, flag),
        column!(rows, black_castle_h_first_move, flag),
        column!(rows, white_castle_a_kind, text),
        column!(rows, white_castle_h_kind, text),
        column!(rows, black_castle_a_kind, text),
        column!(rows, black_castle_h_kind, text),
        column!(rows, white_castle_blockers, count),
        column!(rows, black_castle_blockers, count),
        column!(rows, white_corner_bishops, count),
        column!(rows, black_corner_bishops, count),
        column!(rows, weak_diff, diff),
        column!(rows, attackable_diff, diff),
        column!(rows, castle_first_move_diff, diff),
        column!(rows, corner_bishops_diff, diff),
    ];
    DataFrame::new(rows.len(), columns)
}
