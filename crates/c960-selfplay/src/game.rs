//! One game between engines from a start position: the move loop, the
//! rules that end it, and its record.

use std::collections::HashMap;

use c960_core::{
    StartPosition,
    shakmaty::{
        CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Position, uci::UciMove,
        zobrist::Zobrist64,
    },
};
use c960_engine::{Engine, EngineError, GamePosition, Limit, Score, Search};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

/// When a game is stopped early, and how long it may last.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// A game reaching this many plies is a draw (`ply-cap`).
    pub max_plies: u32,
    /// Resign when the score stays beyond this many centipawns (from
    /// White's view, either sign) ...
    pub resign_cp: i32,
    /// ... for this many consecutive plies, i.e. both engines agree.
    pub resign_plies: u32,
    /// Adjudicate a draw when |score| stays within this many centipawns ...
    pub draw_cp: i32,
    /// ... for this many consecutive plies ...
    pub draw_plies: u32,
    /// ... once the game has lasted this many plies.
    pub draw_after_ply: u32,
}

impl Default for Rules {
    /// Resign at 1000 cp for 6 plies (3 moves of each side); draw within
    /// 10 cp for 12 plies after ply 80; at most 400 plies.
    fn default() -> Rules {
        Rules {
            max_plies: 400,
            resign_cp: 1000,
            resign_plies: 6,
            draw_cp: 10,
            draw_plies: 12,
            draw_after_ply: 80,
        }
    }
}

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
}

impl Termination {
    /// All terminations, in table order.
    pub const ALL: [Termination; 8] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::PlyCap,
        Termination::Resignation,
        Termination::DrawAdjudication,
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
        }
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

    /// White's score: 1, ½ or 0.
    #[must_use]
    pub fn white_score(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    fn win_for(color: Color) -> Outcome {
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
    pub sp: u16,
    /// Index of the game among the position's games.
    pub game: u32,
    /// The game's seed (node jitter).
    pub seed: u64,
    /// White's engine.
    pub white: String,
    /// Black's engine.
    pub black: String,
    /// The per-move limit before jitter, e.g. `nodes 3000`.
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
    /// Wall time the engines spent on this game's searches, as measured by
    /// the driver. Not saved: it differs from run to run.
    #[serde(skip)]
    pub search_time: std::time::Duration,
}

/// What one game needs to know.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Scharnagl number recorded with the game.
    pub sp: u16,
    /// The position the game starts from (a start position, or any
    /// position in tests).
    pub start: Chess,
    /// Index of the game among the position's games.
    pub game: u32,
    /// The seed for the node jitter.
    pub seed: u64,
    /// The limit per move before jitter.
    pub limit: Limit,
    /// Relative node jitter: each move's node budget is drawn uniformly from
    /// `nodes × [1 − jitter, 1 + jitter]` (only for node limits).
    pub jitter: f64,
    /// The rules.
    pub rules: Rules,
    /// Whether to keep the score after each move.
    pub keep_scores: bool,
}

/// The node budget for one move: `nodes × (1 − j + 2j·u)` rounded, with
/// `u = next_u64 / 2^64` from the game's `ChaCha8` stream (seeded with
/// `seed_from_u64(seed)`), at least 1. Other limits are used as they are.
#[must_use]
pub fn jittered(limit: Limit, jitter: f64, rng: &mut ChaCha8Rng) -> Limit {
    match limit {
        Limit::Nodes(n) if jitter > 0.0 => {
            #[allow(clippy::cast_precision_loss)]
            let u = rng.next_u64() as f64 / 18_446_744_073_709_551_616.0;
            #[allow(clippy::cast_precision_loss, clippy::cast_sign_loss)]
            let nodes = (n as f64 * (1.0 - jitter + 2.0 * jitter * u)).round() as u64;
            Limit::Nodes(nodes.max(1))
        }
        other => other,
    }
}

/// Centipawns for the score curve: mates as ±(100000 − moves).
fn curve_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// Plays one game: `white` and `black` may be the same engine. Engine
/// faults end the game as an error, never as a result.
pub fn play(
    spec: &GameSpec,
    white: &mut dyn Engine,
    mut black: Option<&mut dyn Engine>,
) -> Result<GameRecord, EngineError> {
    let white_name = white.info().name.clone();
    let black_name = black
        .as_ref()
        .map_or_else(|| white_name.clone(), |b| b.info().name.clone());
    white.new_game()?;
    if let Some(b) = black.as_deref_mut() {
        b.new_game()?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut game = GamePosition::new(spec.start.clone());
    let mut seen: HashMap<u64, u8> = HashMap::new();
    let hash = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    seen.insert(hash(game.current()), 1);
    let mut moves = Vec::new();
    let mut white_scores: Vec<Score> = Vec::new();
    let mut castling: [Option<Castling>; 2] = [None, None];
    let mut search_time = std::time::Duration::ZERO;
    let rules = spec.rules;

    let (result, termination) = loop {
        let position = game.current();
        // Rules of the game first, then adjudication, then the ply cap.
        if position.is_checkmate() {
            break (Outcome::win_for(!position.turn()), Termination::Checkmate);
        }
        if position.is_stalemate() {
            break (Outcome::Draw, Termination::Stalemate);
        }
        if position.is_insufficient_material() {
            break (Outcome::Draw, Termination::InsufficientMaterial);
        }
        if seen.get(&hash(position)).copied().unwrap_or(0) >= 3 {
            break (Outcome::Draw, Termination::ThreefoldRepetition);
        }
        if position.halfmoves() >= 100 {
            break (Outcome::Draw, Termination::FiftyMoves);
        }
        if let Some(outcome) = adjudicate(&rules, &white_scores) {
            break outcome;
        }
        if moves.len() >= rules.max_plies as usize {
            break (Outcome::Draw, Termination::PlyCap);
        }

        let turn = position.turn();
        let engine: &mut dyn Engine = match (turn, black.as_deref_mut()) {
            (Color::Black, Some(b)) => b,
            _ => &mut *white,
        };
        let limit = jittered(spec.limit, spec.jitter, &mut rng);
        let answer = engine.search(&game, Search::new(limit))?;
        search_time += answer.elapsed;
        let m = answer.best_move;
        if let Some(side) = m.castling_side() {
            let slot = &mut castling[usize::from(turn == Color::Black)];
            if slot.is_none() {
                *slot = Some(Castling {
                    ply: moves.len() as u32 + 1,
                    side: if side == CastlingSide::QueenSide {
                        'a'
                    } else {
                        'h'
                    },
                });
            }
        }
        // A score is needed for adjudication; an engine that gives none is
        // taken as saying nothing, which never adjudicates.
        white_scores.push(answer.white_score().unwrap_or(Score::Cp(0)));
        moves.push(UciMove::from_move(m, CastlingMode::Chess960).to_string());
        game.push(m)
            .expect("the driver checks that the best move is legal");
        *seen.entry(hash(game.current())).or_insert(0) += 1;
    };

    Ok(GameRecord {
        sp: spec.sp,
        game: spec.game,
        seed: spec.seed,
        white: white_name,
        black: black_name,
        limit: spec.limit.to_string(),
        result,
        termination,
        plies: moves.len() as u32,
        moves,
        white_castling: castling[0],
        black_castling: castling[1],
        scores: spec
            .keep_scores
            .then(|| white_scores.iter().map(|s| curve_value(*s)).collect()),
        search_time,
    })
}

/// Resignation when the last `resign_plies` scores (White's view, one per
/// move, so both engines) are all beyond `resign_cp` on the same side; a
/// draw when the last `draw_plies` are all within `draw_cp` after
/// `draw_after_ply`.
fn adjudicate(rules: &Rules, scores: &[Score]) -> Option<(Outcome, Termination)> {
    let value = |s: &Score| match s {
        Score::Cp(cp) => i64::from(*cp),
        Score::Mate(n) if *n > 0 => 1_000_000,
        Score::Mate(_) => -1_000_000,
    };
    let last = |k: u32| {
        scores
            .len()
            .checked_sub(k as usize)
            .map(|from| &scores[from..])
    };
    if rules.resign_plies > 0
        && let Some(window) = last(rules.resign_plies)
    {
        let limit = i64::from(rules.resign_cp);
        if window.iter().all(|s| value(s) >= limit) {
            return Some((Outcome::WhiteWins, Termination::Resignation));
        }
        if window.iter().all(|s| value(s) <= -limit) {
            return Some((Outcome::BlackWins, Termination::Resignation));
        }
    }
    if rules.draw_plies > 0
        && scores.len() >= rules.draw_after_ply as usize
        && let Some(window) = last(rules.draw_plies)
        && window
            .iter()
            .all(|s| value(s).abs() <= i64::from(rules.draw_cp))
    {
        return Some((Outcome::Draw, Termination::DrawAdjudication));
    }
    None
}

impl GameSpec {
    /// A game from a start position with default rules and no jitter.
    #[must_use]
    pub fn from_start(position: StartPosition, game: u32, seed: u64, limit: Limit) -> GameSpec {
        GameSpec {
            sp: position.sp(),
            start: position.to_position(),
            game,
            seed,
            limit,
            jitter: 0.0,
            rules: Rules::default(),
            keep_scores: false,
        }
    }
}
