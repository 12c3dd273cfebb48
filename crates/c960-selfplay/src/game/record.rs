//! A finished game as journals and tables hold it: the result, how it
//! ended, each side's castling and the moves.

use c960_core::shakmaty::Color;
use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// Fifty moves of each side without a capture or a pawn move.
    FiftyMoves,
    /// The ply cap was reached.
    PlyCap,
    /// Both engines agreed one side is lost.
    Resignation,
    /// Both engines agreed it is a draw.
    DrawAdjudication,
    /// The side to move overstepped its time (a loss, or a draw when the
    /// other side cannot mate): clock games only.
    TimeForfeit,
}

impl Termination {
    /// All terminations, in table order.
    pub const ALL: [Termination; 9] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::PlyCap,
        Termination::Resignation,
        Termination::DrawAdjudication,
        Termination::TimeForfeit,
    ];

    /// The kebab-case name used in tables and PGN.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::ThreefoldRepetition => "threefold-repetition",
            Termination::FiftyMoves => "fifty-moves",
            Termination::PlyCap => "ply-cap",
            Termination::Resignation => "resignation",
            Termination::DrawAdjudication => "draw-adjudication",
            Termination::TimeForfeit => "time-forfeit",
        }
    }

    /// The termination named `name` ([`Termination::name`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The result from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// 1-0
    #[serde(rename = "1-0")]
    WhiteWins,
    /// 1/2-1/2
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// 0-1
    #[serde(rename = "0-1")]
    BlackWins,
}

impl Outcome {
    /// The PGN result.
    #[must_use]
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::Draw => "1/2-1/2",
            Outcome::BlackWins => "0-1",
        }
    }

    /// The result written `text` in PGN ([`Outcome::pgn`]), if any.
    #[must_use]
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins]
            .into_iter()
            .find(|o| o.pgn() == text)
    }

    /// White's score: 1, ½ or 0.
    #[must_use]
    pub fn white_score(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    pub(super) fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

/// When and on which side one player castled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Castling {
    /// The ply of the castling move (1 = White's first move).
    pub ply: u32,
    /// `a` (king to c-file, O-O-O) or `h` (king to g-file, O-O).
    pub side: char,
}

/// Everything about one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Scharnagl number of the start position.
    pub sp: u32,
    /// Index of the game among the position's games.
    pub game: u32,
    /// The game's seed (node jitter).
    pub seed: u64,
    /// White's engine.
    pub white: String,
    /// Black's engine.
    pub black: String,
    /// The per-move limit before jitter, e.g. `nodes 3000`, or the time
    /// control, e.g. `tc 40/60+0.6`; `white: ...; black: ...` when the
    /// sides differ.
    pub limit: String,
    /// The result.
    pub result: Outcome,
    /// How it ended.
    pub termination: Termination,
    /// Number of plies played.
    pub plies: u32,
    /// The moves in UCI, Chess960 notation (castling as king takes rook).
    pub moves: Vec<String>,
    /// White's castling, if any.
    pub white_castling: Option<Castling>,
    /// Black's castling, if any.
    pub black_castling: Option<Castling>,
    /// The score after each move from White's view in centipawns (mates as
    /// ±(100000 − moves)), when asked for.
    pub scores: Option<Vec<i32>>,
    /// White's and Black's time controls in PGN form (`40/60+0.6`,
    /// `10+0.1`, `1.5/move`), for games on the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_controls: Option<[String; 2]>,
    /// Plies at the start of `moves` that came from the opening book (the
    /// engines played the rest; `scores` covers only theirs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub book_plies: u32,
    /// The line of the opening in the book file, for games from a book.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<u32>,
    /// Wall time the engines spent on this game's searches, as measured by
    /// the driver. Not saved: it differs from run to run.
    #[serde(skip)]
    pub search_time: std::time::Duration,
}

impl GameRecord {
    /// This game's key: its setup and index.
    #[must_use]
    pub fn key(&self) -> c960_core::GameKey {
        c960_core::GameKey::new(self.sp, self.game)
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u32) -> bool {
    *n == 0
}
