//! The per-position table of an import, counted as games stream past:
//! games, results and White's score ([`Counts`]), castling per colour and
//! side ([`CastlingTally`], as self-play counts it) and terminations.

use std::collections::BTreeMap;

use c960_core::{
    CastlingTally, StartPosition,
    shakmaty::{CastlingSide, Color},
};
use c960_store::{
    Frame,
    columns::{
        BLACK_CASTLED_A, BLACK_CASTLED_H, BLACK_MEDIAN_CASTLE_PLY, BLACK_WINS, DRAW_RATE, DRAWS,
        INTERVAL, WHITE_CASTLED_A, WHITE_CASTLED_H, WHITE_MEDIAN_CASTLE_PLY, WHITE_SCORE,
        WHITE_SCORE_HIGH, WHITE_SCORE_LOW, WHITE_WINS,
    },
};
use polars::prelude::*;

use super::ImportedGame;
use crate::tree::Counts;

/// Termination names of imported games, in table order.
pub const TERMINATIONS: [&str; 8] = [
    "checkmate",
    "stalemate",
    "insufficient-material",
    "resignation",
    "time-forfeit",
    "draw-agreed",
    "abandoned",
    "rules-infraction",
];

/// One position's imported games, counted as they stream past.
#[derive(Default)]
pub(super) struct PositionTally {
    counts: Counts,
    castling: CastlingTally,
    /// Games per termination, in [`TERMINATIONS`] order.
    terminations: [u64; 8],
}

impl PositionTally {
    /// Counts one game.
    pub(super) fn add(&mut self, game: &ImportedGame) {
        self.counts.add(game.white_score);
        for (color, castling) in [
            (Color::White, game.white_castling),
            (Color::Black, game.black_castling),
        ] {
            if let Some((side, ply)) = castling {
                let side = if side == 'h' {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                self.castling.add(color, side, ply);
            }
        }
        if let Some(k) = TERMINATIONS.iter().position(|t| *t == game.termination) {
            self.terminations[k] += 1;
        }
    }

    /// The share of games in which `color` castled on `side`.
    #[allow(clippy::cast_precision_loss)]
    fn castled(&self, color: Color, side: CastlingSide) -> f64 {
        self.castling.games(color, side) as f64 / self.counts.games.max(1) as f64
    }
}

/// The per-position table of an import: the columns of self-play's
/// position table that human games have (games, W/D/L, White's score with
/// its interval, draw rate, castling rates and median plies) and one count
/// per termination.
#[allow(clippy::cast_precision_loss)]
pub(super) fn positions_frame(tallies: &BTreeMap<u16, PositionTally>) -> PolarsResult<DataFrame> {
    let rows: Vec<(&u16, &PositionTally)> = tallies.iter().collect();
    let share = |n: u64, t: &PositionTally| n as f64 / t.counts.games.max(1) as f64;
    let placement = |sp: u16| {
        StartPosition::new(sp)
            .map(StartPosition::placement)
            .unwrap_or_default()
    };
    let mut frame = Frame::new(&rows)
        .column("sp", |(sp, _)| u32::from(**sp))
        .column("placement", |(sp, _)| placement(**sp))
        .column("games", |(_, t)| t.counts.games)
        .column(WHITE_WINS, |(_, t)| t.counts.white_wins)
        .column(DRAWS, |(_, t)| t.counts.draws)
        .column(BLACK_WINS, |(_, t)| t.counts.black_wins)
        .column(WHITE_SCORE, |(_, t)| t.counts.interval().0)
        .column(WHITE_SCORE_LOW, |(_, t)| t.counts.interval().1)
        .column(WHITE_SCORE_HIGH, |(_, t)| t.counts.interval().2)
        .column(INTERVAL, |_| "trinomial")
        .column(DRAW_RATE, |(_, t)| share(t.counts.draws, t))
        .column(WHITE_CASTLED_A, |(_, t)| {
            t.castled(Color::White, CastlingSide::QueenSide)
        })
        .column(WHITE_CASTLED_H, |(_, t)| {
            t.castled(Color::White, CastlingSide::KingSide)
        })
        .column(BLACK_CASTLED_A, |(_, t)| {
            t.castled(Color::Black, CastlingSide::QueenSide)
        })
        .column(BLACK_CASTLED_H, |(_, t)| {
            t.castled(Color::Black, CastlingSide::KingSide)
        })
        .column(WHITE_MEDIAN_CASTLE_PLY, |(_, t)| {
            t.castling.median_ply(Color::White)
        })
        .column(BLACK_MEDIAN_CASTLE_PLY, |(_, t)| {
            t.castling.median_ply(Color::Black)
        });
    for (k, name) in TERMINATIONS.iter().enumerate() {
        frame = frame.column(name.replace('-', "_"), |(_, t)| t.terminations[k]);
    }
    frame.build()
}
