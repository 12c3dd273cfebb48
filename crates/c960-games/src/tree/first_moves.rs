//! The first-move table: for each position, every first move played with
//! its games, results and White's score with an interval.

use std::{collections::BTreeMap, path::Path};

use c960_core::StartPosition;
use c960_store::Frame;
use polars::prelude::*;

use super::{Counts, IntervalKind, Tree, TreeError, frequent_trees_with};

/// One row of the first-move table: a first move played from a position.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstMove {
    /// Scharnagl number.
    pub sp: u16,
    /// The move in UCI (Chess960 castling).
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Games that began with it.
    pub counts: Counts,
    /// All games of the position.
    pub position_games: u64,
}

/// The first-move table of every position in a game table: for each
/// position, every first move played with its games and results. The table
/// is read in slices of 65,536 games, so memory stays bounded (by a slice
/// and one counter per position and first move) however many games there
/// are.
pub fn first_moves(games: &Path) -> Result<Vec<FirstMove>, TreeError> {
    first_moves_with(games, IntervalKind::Trinomial)
}

/// [`first_moves`] with intervals of `kind`.
pub fn first_moves_with(games: &Path, kind: IntervalKind) -> Result<Vec<FirstMove>, TreeError> {
    // Trees one ply deep hold exactly every first move with its games.
    Ok(first_moves_of(&frequent_trees_with(games, 1, 1.0, kind)?))
}

/// The first-move table of trees already built: by SP, most played first.
#[must_use]
pub fn first_moves_of(trees: &BTreeMap<u16, Tree>) -> Vec<FirstMove> {
    trees
        .iter()
        .flat_map(|(sp, tree)| {
            tree.next_moves("").into_iter().map(|line| FirstMove {
                sp: *sp,
                uci: line.uci[0].clone(),
                san: line.san[0].clone(),
                counts: line.counts,
                position_games: tree.root.games,
            })
        })
        .collect()
}

/// The first-move table as a frame: `sp`, `placement`, `move_uci`,
/// `move_san`, `games`, `share` (of the position's games), `white_wins`,
/// `draws`, `black_wins`, `white_score`, `white_score_low`,
/// `white_score_high`, `interval` (its kind: `trinomial` or `anytime`).
pub fn first_moves_frame(rows: &[FirstMove]) -> PolarsResult<DataFrame> {
    #[allow(clippy::cast_precision_loss)]
    let share = |r: &FirstMove| r.counts.games as f64 / r.position_games.max(1) as f64;
    let placement = |sp: u16| {
        StartPosition::new(sp)
            .map(StartPosition::placement)
            .unwrap_or_default()
    };
    Frame::new(rows)
        .column("sp", |r| u32::from(r.sp))
        .column("placement", |r| placement(r.sp))
        .column("move_uci", |r| r.uci.as_str())
        .column("move_san", |r| r.san.as_str())
        .column("games", |r| r.counts.games)
        .column("share", share)
        .column("white_wins", |r| r.counts.white_wins)
        .column("draws", |r| r.counts.draws)
        .column("black_wins", |r| r.counts.black_wins)
        .column("white_score", |r| r.counts.interval().0)
        .column("white_score_low", |r| r.counts.interval().1)
        .column("white_score_high", |r| r.counts.interval().2)
        .column("interval", |r| {
            if r.counts.anytime.is_some() {
                "anytime"
            } else {
                "trinomial"
            }
        })
        .build()
}
