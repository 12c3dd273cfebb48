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

/// The features, per side first (the regression's), then the asymmetries.
pub const FEATURES: [Feature; 14] = [
    Feature {
        name: "white_weak",
        words: "White's weak pawns (undefended or defended only by the king)",
        kind: FeatureKind::PerSide,
        value: |r| count(r.white_weak),
    },
    Feature {
        name: "black_weak",
        words: "Black's weak pawns",
        kind: FeatureKind::PerSide,
        value: |r| count(r.black_weak),
    },
    Feature {
        name: "white_attackable",
        words: "Black's pawns White can attack with its first move",
        kind: FeatureKind::PerSide,
        value: |r| count(r.white_attackable),
    },
    Feature {
        name: "black_attackable",
        words: "White's pawns Black can attack with its first move",
        kind: FeatureKind::PerSide,
        value: |r| count(r.black_attackable),
    },
    Feature {
        name: "white_castle_first_move",
        words: "White's castlings legal on move 1",
        kind: FeatureKind::PerSide,
        value: |r| castles(r.white_castle_a_first_move, r.white_castle_h_first_move),
    },
    Feature {
        name: "black_castle_first_move",
        words: "Black's castlings legal on its first move",
        kind: FeatureKind::PerSide,
        value: |r| castles(r.black_castle_a_first_move, r.black_castle_h_first_move),
    },
    Feature {
        name: "white_corner_bishops",
        words: "White's bishops in a corner (on a long diagonal)",
        kind: FeatureKind::PerSide,
        value: |r| count(r.white_corner_bishops),
    },
    Feature {
        name: "black_corner_bishops",
        words: "Black's bishops in a corner",
        kind: FeatureKind::PerSide,
        value: |r| count(r.black_corner_bishops),
    },
    Feature {
        name: "weak_diff",
        words: "weak pawns, White's minus Black's",
        kind: FeatureKind::Asymmetry,
        value: |r| r.weak_diff,
    },
    Feature {
        name: "attackable_diff",
        words: "pawns attackable on the first move, by White minus by Black",
        kind: FeatureKind::Asymmetry,
        value: |r| r.attackable_diff,
    },
    Feature {
        name: "castle_first_move_diff",
        words: "castlings legal on the first move, White's minus Black's",
        kind: FeatureKind::Asymmetry,
        value: |r| r.castle_first_move_diff,
    },
    Feature {
        name: "castle_a_first_move_diff",
        words: "a-side castling legal on the first move, White's minus Black's",
        kind: FeatureKind::Asymmetry,
        value: |r| {
            castles(r.white_castle_a_first_move, false)
                - castles(r.black_castle_a_first_move, false)
        },
    },
    Feature {
        name: "castle_h_first_move_diff",
        words: "h-side castling legal on the first move, White's minus Black's",
        kind: FeatureKind::Asymmetry,
        value: |r| {
            castles(false, r.white_castle_h_first_move)
                - castles(false, r.black_castle_h_first_move)
        },
    },
    Feature {
        name: "corner_bishops_diff",
        words: "corner bishops, White's minus Black's",
        kind: FeatureKind::Asymmetry,
        value: |r| r.corner_bishops_diff,
    },
];

/// The per-side features, the regression's.
pub const PER_SIDE: usize = 8;
