//! One game between engines from a start position: the move loop and how
//! the game's [`Rules`] (c960-engine's) end it; `record` holds what a
//! finished game is, `control` each side's clock under its [`Control`].

use std::{collections::HashMap, time::Instant};

use c960_core::{
    Setup,
    shakmaty::{
        ByColor, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position,
        uci::UciMove, zobrist::Zobrist64,
    },
};
use c960_engine::{Control, Engine, EngineError, GamePosition, Limit, Rules, Score, Search};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

mod control;
mod record;

pub use control::jittered;
use control::{SideClock, move_limit};
pub use record::{Castling, GameRecord, Outcome, Termination};

/// What one game needs to know.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Scharnagl number recorded with the game.
    pub sp: u32,
    /// The position the game starts from (a start position, or any
    /// position in tests).
    pub start: Chess,
    /// Index of the game among the position's games.
    pub game: u32,
    /// The seed for the node jitter.
    pub seed: u64,
    /// How long White and Black may think.
    pub controls: ByColor<Control>,
    /// How far past its time a side may answer before it loses on time,
    /// in milliseconds (clock and time-per-move controls).
    pub time_margin_ms: u64,
    /// Relative node jitter: each move's node budget is drawn uniformly from
    /// `nodes × [1 − jitter, 1 + jitter]` (only for node limits).
    pub jitter: f64,
    /// The rules.
    pub rules: Rules,
    /// Whether to keep the score after each move.
    pub keep_scores: bool,
    /// Book moves (UCI, Chess960 notation) played before the engines.
    pub book: Vec<String>,
    /// The book line the opening comes from.
    pub opening: Option<u32>,
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
    let mut clocks = spec.controls.map(SideClock::new);
    for uci in &spec.book {
        let position = game.current();
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(position).ok())
            .ok_or_else(|| EngineError::Protocol {
                name: "opening book".to_owned(),
                reason: format!("book move {uci} is not legal"),
            })?;
        note_castling(&mut castling, m, position.turn(), moves.len());
        moves.push(uci.clone());
        game.push(m).expect("checked to be legal");
        *seen.entry(hash(game.current())).or_insert(0) += 1;
    }
    let rules = spec.rules;

    let (result, termination) = loop {
        let position = game.current();
        // Rules of the game first, then adjudication, then the ply cap.
        if let Some(end) = rules_end(position, seen.get(&hash(position)).copied().unwrap_or(0)) {
            break end;
        }
        if let Some(outcome) = adjudicate(&rules, &white_scores) {
            break outcome;
        }
        if moves.len() >= rules.max_plies.get() as usize {
            break (Outcome::Draw, Termination::PlyCap);
        }

        let turn = position.turn();
        let engine: &mut dyn Engine = match (turn, black.as_deref_mut()) {
            (Color::Black, Some(b)) => b,
            _ => &mut *white,
        };
        let limit = move_limit(&clocks, turn, spec.jitter, &mut rng);
        let asked = Instant::now();
        let answer = engine.search(&game, Search::new(limit))?;
        let took = asked.elapsed();
        search_time += answer.elapsed;
        #[allow(clippy::cast_possible_truncation)]
        let took_ms = took.as_millis() as u64;
        if !clocks.get_mut(turn).charge(took_ms, spec.time_margin_ms) {
            break time_forfeit(position, turn);
        }
        let m = answer.best_move;
        note_castling(&mut castling, m, turn, moves.len());
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
        limit: spec.limit_label(),
        result,
        termination,
        plies: moves.len() as u32,
        moves,
        white_castling: castling[0],
        black_castling: castling[1],
        scores: spec
            .keep_scores
            .then(|| white_scores.iter().map(|s| curve_value(*s)).collect()),
        time_controls: spec.time_controls(),
        book_plies: spec.book.len() as u32,
        opening: spec.opening,
        search_time,
    })
}

/// The end of the game by its rules, if reached: checkmate, stalemate,
/// insufficient material, the third occurrence (`seen` times so far), fifty
/// moves.
fn rules_end(position: &Chess, seen: u8) -> Option<(Outcome, Termination)> {
    if position.is_checkmate() {
        Some((Outcome::win_for(!position.turn()), Termination::Checkmate))
    } else if position.is_stalemate() {
        Some((Outcome::Draw, Termination::Stalemate))
    } else if position.is_insufficient_material() {
        Some((Outcome::Draw, Termination::InsufficientMaterial))
    } else if seen >= 3 {
        Some((Outcome::Draw, Termination::ThreefoldRepetition))
    } else if position.halfmoves() >= 100 {
        Some((Outcome::Draw, Termination::FiftyMoves))
    } else {
        None
    }
}

/// Notes `turn`'s first castling, played at ply `played + 1`.
fn note_castling(castling: &mut [Option<Castling>; 2], m: Move, turn: Color, played: usize) {
    if let Some(side) = m.castling_side() {
        castling[usize::from(turn == Color::Black)].get_or_insert(Castling {
            ply: played as u32 + 1,
            side: if side == CastlingSide::QueenSide {
                'a'
            } else {
                'h'
            },
        });
    }
}

/// `turn` overstepped its time: it loses, unless the other side cannot
/// mate by any series of legal moves (FIDE), which makes it a draw.
fn time_forfeit(position: &Chess, turn: Color) -> (Outcome, Termination) {
    let result = if position.has_insufficient_material(!turn) {
        Outcome::Draw
    } else {
        Outcome::win_for(!turn)
    };
    (result, Termination::TimeForfeit)
}

/// The adjudication after the plies whose scores (White's view, one a
/// ply, so both engines) are `scores`: resignation when the last
/// `resign_plies` are all beyond `resign_cp` on the same side; a draw
/// when the game has reached ply `draw_after_ply` and the last
/// `draw_plies` are all within `draw_cp` (those plies may begin before
/// `draw_after_ply`).
#[must_use]
pub fn adjudicate(rules: &Rules, scores: &[Score]) -> Option<(Outcome, Termination)> {
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
    pub fn from_start(position: impl Into<Setup>, game: u32, seed: u64, limit: Limit) -> GameSpec {
        let position: Setup = position.into();
        GameSpec {
            sp: position.id(),
            start: position.to_position(),
            game,
            seed,
            controls: ByColor::new_with(|_| Control::Fixed(limit)),
            time_margin_ms: 0,
            jitter: 0.0,
            rules: Rules::default(),
            keep_scores: false,
            book: Vec::new(),
            opening: None,
        }
    }

    /// The limits as recorded with the game: one control, or
    /// `white: ...; black: ...` when the sides differ.
    #[must_use]
    pub fn limit_label(&self) -> String {
        let ByColor { white, black } = self.controls;
        if white == black {
            white.to_string()
        } else {
            format!("white: {white}; black: {black}")
        }
    }

    /// White's and Black's PGN time controls, when a side plays on time.
    #[must_use]
    pub fn time_controls(&self) -> Option<[String; 2]> {
        let ByColor { white, black } = self.controls.map(Control::pgn);
        match (white, black) {
            (None, None) => None,
            (w, b) => Some([
                w.unwrap_or_else(|| "-".to_owned()),
                b.unwrap_or_else(|| "-".to_owned()),
            ]),
        }
    }
}
