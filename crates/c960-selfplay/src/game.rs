//! One game between engines from a start position: the move loop, the
//! rules that end it, and its record.

use std::{collections::HashMap, fmt, str::FromStr, time::Instant};

use c960_core::{
    Setup,
    shakmaty::{
        CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, uci::UciMove,
        zobrist::Zobrist64,
    },
};
use c960_engine::{Clock, Engine, EngineError, GamePosition, Limit, Score, Search};
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
    pub controls: [Control; 2],
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

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How long one side may think.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// A limit per move (nodes jittered by the game's seed): games replay
    /// exactly.
    Fixed(Limit),
    /// A clock; the side whose clock runs out loses on time.
    Clock(TimeControl),
    /// A time per move in milliseconds (`--st`); a side that takes longer
    /// loses on time.
    PerMove(u64),
}

impl Control {
    /// Whether games under this control replay exactly (fixed limits).
    #[must_use]
    pub fn replays(self) -> bool {
        matches!(self, Control::Fixed(Limit::Nodes(_) | Limit::Depth(_)))
    }

    /// The PGN `TimeControl` value for timed controls: `40/60+0.6`,
    /// `10+0.1`, `1.5/move`.
    #[must_use]
    pub fn pgn(self) -> Option<String> {
        match self {
            Control::Fixed(_) => None,
            Control::Clock(tc) => Some(tc.to_string()),
            Control::PerMove(ms) => Some(format!("{}/move", seconds(ms))),
        }
    }
}

impl fmt::Display for Control {
    /// `nodes 5000`, `tc 40/60+0.6`, `st 1.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::Fixed(limit) => write!(f, "{limit}"),
            Control::Clock(tc) => write!(f, "tc {tc}"),
            Control::PerMove(ms) => write!(f, "st {}", seconds(*ms)),
        }
    }
}

/// Milliseconds as seconds without trailing zeros: `1.5`, `60`, `0.05`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_owned()
    }
}

/// A clock time control as the match runners write it:
/// `MOVES/SECONDS+INC` (a period of MOVES moves, repeated) or
/// `SECONDS+INC` (the whole game), the increment optional.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period, if the control has periods.
    pub moves: Option<u32>,
    /// Time per period (or for the game), in milliseconds.
    pub base_ms: u64,
    /// Increment per move, in milliseconds.
    pub inc_ms: u64,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", seconds(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", seconds(self.inc_ms))?;
        }
        Ok(())
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| {
            format!(
                "time control {text:?} {why}: write MOVES/SECONDS+INC or SECONDS+INC, e.g. 40/60+0.6 or 10+0.1"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m
                    .trim()
                    .parse()
                    .map_err(|_| bad("has no whole number of moves"))?;
                if moves == 0 {
                    return Err(bad("has 0 moves per period"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = parse_seconds(base).ok_or_else(|| bad("has no valid seconds"))?;
        let inc_ms = parse_seconds(inc).ok_or_else(|| bad("has no valid increment"))?;
        if base_ms == 0 {
            return Err(bad("gives no time"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

/// Seconds (decimals allowed) as whole milliseconds, if valid.
#[must_use]
pub fn parse_seconds(text: &str) -> Option<u64> {
    let value: f64 = text.trim().parse().ok()?;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (value.is_finite() && (0.0..1e9).contains(&value)).then(|| (value * 1000.0).round() as u64)
}

/// One side's clock during a game.
#[derive(Copy, Clone, Debug)]
struct SideClock {
    control: Control,
    /// Time left in milliseconds (clock controls).
    left_ms: u64,
    /// Moves this side has made.
    moves: u32,
}

impl SideClock {
    fn new(control: Control) -> SideClock {
        let left_ms = match control {
            Control::Clock(tc) => tc.base_ms,
            _ => 0,
        };
        SideClock {
            control,
            left_ms,
            moves: 0,
        }
    }

    fn inc_ms(&self) -> u64 {
        match self.control {
            Control::Clock(tc) => tc.inc_ms,
            _ => 0,
        }
    }

    fn movestogo(&self) -> Option<u32> {
        match self.control {
            Control::Clock(TimeControl {
                moves: Some(period),
                ..
            }) => Some(period - self.moves % period),
            _ => None,
        }
    }

    /// Charges one move that took `ms`; false when the side overstepped
    /// its time by more than `margin_ms`.
    fn charge(&mut self, ms: u64, margin_ms: u64) -> bool {
        self.moves += 1;
        match self.control {
            Control::Fixed(_) => true,
            Control::PerMove(limit) => ms <= limit + margin_ms,
            Control::Clock(tc) => {
                if ms > self.left_ms + margin_ms {
                    return false;
                }
                self.left_ms = self.left_ms.saturating_sub(ms) + tc.inc_ms;
                if tc
                    .moves
                    .is_some_and(|period| self.moves.is_multiple_of(period))
                {
                    self.left_ms += tc.base_ms;
                }
                true
            }
        }
    }
}

/// The limit for the side to move: its fixed limit (jittered), its clock
/// with the other side's, or its time per move.
fn move_limit(clocks: &[SideClock; 2], turn: Color, jitter: f64, rng: &mut ChaCha8Rng) -> Limit {
    let (white, black) = (&clocks[0], &clocks[1]);
    let mine = &clocks[usize::from(turn == Color::Black)];
    match mine.control {
        Control::Fixed(limit) => jittered(limit, jitter, rng),
        Control::PerMove(ms) => Limit::MoveTime(ms),
        Control::Clock(_) => Limit::Clock(Clock {
            wtime_ms: white.left_ms,
            btime_ms: black.left_ms,
            winc_ms: white.inc_ms(),
            binc_ms: black.inc_ms(),
            movestogo: mine.movestogo(),
        }),
    }
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
        if moves.len() >= rules.max_plies as usize {
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
        if !clocks[usize::from(turn == Color::Black)].charge(took_ms, spec.time_margin_ms) {
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
    pub fn from_start(position: impl Into<Setup>, game: u32, seed: u64, limit: Limit) -> GameSpec {
        let position: Setup = position.into();
        GameSpec {
            sp: position.id(),
            start: position.to_position(),
            game,
            seed,
            controls: [Control::Fixed(limit); 2],
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
        let [white, black] = self.controls;
        if white == black {
            white.to_string()
        } else {
            format!("white: {white}; black: {black}")
        }
    }

    /// White's and Black's PGN time controls, when a side plays on time.
    #[must_use]
    pub fn time_controls(&self) -> Option<[String; 2]> {
        let [white, black] = self.controls.map(Control::pgn);
        match (white, black) {
            (None, None) => None,
            (w, b) => Some([
                w.unwrap_or_else(|| "-".to_owned()),
                b.unwrap_or_else(|| "-".to_owned()),
            ]),
        }
    }
}
