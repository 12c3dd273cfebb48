//! The setup features the DFRC report groups and regresses White's
//! advantage on: each side's own (from the columns of `c960 positions
//! --variant dfrc`) and the asymmetries between the sides.

use c960_core::DfrcRecord;
use serde::Serialize;

/// Whether a feature describes one side or the difference between them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeatureKind {
    /// One side's own feature.
    PerSide,
    /// White's feature minus Black's.
    Asymmetry,
}

/// A feature of a setup that the report groups by.
#[derive(Copy, Clone, Debug)]
pub struct Feature {
    /// Its column name (as in `c960 positions --variant dfrc` where it
    /// has one).
    pub name: &'static str,
    /// What it counts, in words.
    pub words: &'static str,
    /// Per side or asymmetry.
    pub kind: FeatureKind,
    /// Its value for a setup.
    pub value: fn(&DfrcRecord) -> i32,
}

// Feature counts are at most eight.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
const fn count(n: usize) -> i32 {
    n as i32
}

const fn castles(a: bool, h: bool) -> i32 {
    a as i32 + h as i32
}

/// One side's own feature.
const fn per_side(
    name: &'static str,
    words: &'static str,
    value: fn(&DfrcRecord) -> i32,
) -> Feature {
    Feature {
        name,
        words,
        kind: FeatureKind::PerSide,
        value,
    }
}

/// White's feature minus Black's.
const fn asymmetry(
    name: &'static str,
    words: &'static str,
    value: fn(&DfrcRecord) -> i32,
) -> Feature {
    Feature {
        name,
        words,
        kind: FeatureKind::Asymmetry,
        value,
    }
}

/// The features, per side first (the regression's), then the asymmetries.
pub const FEATURES: [Feature; 14] = [
    per_side(
        "white_weak",
        "White's weak pawns (undefended or defended only by the king)",
        |r| count(r.white_weak),
    ),
    per_side("black_weak", "Black's weak pawns", |r| count(r.black_weak)),
    per_side(
        "white_attackable",
        "Black's pawns White can attack with its first move",
        |r| count(r.white_attackable),
    ),
    per_side(
        "black_attackable",
        "White's pawns Black can attack with its first move",
        |r| count(r.black_attackable),
    ),
    per_side(
        "white_castle_first_move",
        "White's castlings legal on move 1",
        |r| castles(r.white_castle_a_first_move, r.white_castle_h_first_move),
    ),
    per_side(
        "black_castle_first_move",
        "Black's castlings legal on its first move",
        |r| castles(r.black_castle_a_first_move, r.black_castle_h_first_move),
    ),
    per_side(
        "white_corner_bishops",
        "White's bishops in a corner (on a long diagonal)",
        |r| count(r.white_corner_bishops),
    ),
    per_side("black_corner_bishops", "Black's bishops in a corner", |r| {
        count(r.black_corner_bishops)
    }),
    asymmetry("weak_diff", "weak pawns, White's minus Black's", |r| {
        r.weak_diff
    }),
    asymmetry(
        "attackable_diff",
        "pawns attackable on the first move, by White minus by Black",
        |r| r.attackable_diff,
    ),
    asymmetry(
        "castle_first_move_diff",
        "castlings legal on the first move, White's minus Black's",
        |r| r.castle_first_move_diff,
    ),
    asymmetry(
        "castle_a_first_move_diff",
        "a-side castling legal on the first move, White's minus Black's",
        |r| {
            castles(r.white_castle_a_first_move, false)
                - castles(r.black_castle_a_first_move, false)
        },
    ),
    asymmetry(
        "castle_h_first_move_diff",
        "h-side castling legal on the first move, White's minus Black's",
        |r| {
            castles(false, r.white_castle_h_first_move)
                - castles(false, r.black_castle_h_first_move)
        },
    ),
    asymmetry(
        "corner_bishops_diff",
        "corner bishops, White's minus Black's",
        |r| r.corner_bishops_diff,
    ),
];

/// The per-side features, the regression's.
pub const PER_SIDE: usize = 8;
