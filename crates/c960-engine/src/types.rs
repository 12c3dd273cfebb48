//! The protocol-independent engine API: positions to search, limits, and
//! typed search results.

use std::{fmt, str::FromStr, time::Duration};

use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, fen::Fen, uci::UciMove};

use c960_core::StartPosition;

/// How long a search may run. It serializes as its text, the arguments of
/// a UCI `go` command (`nodes 1000000`), and parses back from it, so that
/// rows and manifests hold one spelling that code compares as a `Limit`.
///
/// # Examples
/// ```
/// use c960_engine::Limit;
/// let limit: Limit = "nodes 1000000".parse().unwrap();
/// assert_eq!(limit, Limit::Nodes(1_000_000));
/// assert_eq!(limit.to_string(), "nodes 1000000");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Limit {
    /// Search to this depth (plies).
    Depth(u32),
    /// Search this many nodes.
    Nodes(u64),
    /// Search for this many milliseconds.
    MoveTime(u64),
    /// Play on the clock: both sides' time left and increments, as the
    /// engine would be told in a game.
    Clock(Clock),
}

/// The clocks of a game at one move: `go wtime .. btime .. winc .. binc ..
/// [movestogo ..]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// White's time left, in milliseconds.
    pub wtime_ms: u64,
    /// Black's time left, in milliseconds.
    pub btime_ms: u64,
    /// White's increment per move, in milliseconds.
    pub winc_ms: u64,
    /// Black's increment per move, in milliseconds.
    pub binc_ms: u64,
    /// Moves of the side to move until its next time control, if the time
    /// control has periods.
    pub movestogo: Option<u32>,
}

impl Clock {
    /// A time per move for engines that take no clock (the built-in
    /// engine): a share of the time left (`movestogo`, else 25 moves) plus
    /// three quarters of the increment, at least 5 ms and at most half the
    /// time left.
    #[must_use]
    pub fn move_time_ms(&self, turn: Color) -> u64 {
        let (time, inc) = match turn {
            Color::White => (self.wtime_ms, self.winc_ms),
            Color::Black => (self.btime_ms, self.binc_ms),
        };
        let moves = u64::from(self.movestogo.unwrap_or(25).max(1));
        (time / moves + inc * 3 / 4).clamp(5, (time / 2).max(5))
    }
}

impl Limit {
    /// The limit as the arguments of a UCI `go` command.
    #[must_use]
    pub fn to_uci(self) -> String {
        match self {
            Limit::Depth(d) => format!("depth {d}"),
            Limit::Nodes(n) => format!("nodes {n}"),
            Limit::MoveTime(ms) => format!("movetime {ms}"),
            Limit::Clock(c) => {
                let togo = c
                    .movestogo
                    .map(|m| format!(" movestogo {m}"))
                    .unwrap_or_default();
                format!(
                    "wtime {} btime {} winc {} binc {}{togo}",
                    c.wtime_ms, c.btime_ms, c.winc_ms, c.binc_ms
                )
            }
        }
    }

    /// The limit for an engine that takes no clock: a clock becomes a time
    /// per move for the side to move (see [`Clock::move_time_ms`]).
    #[must_use]
    pub fn without_clock(self, turn: Color) -> Limit {
        match self {
            Limit::Clock(c) => Limit::MoveTime(c.move_time_ms(turn)),
            other => other,
        }
    }

    /// How long to wait for an answer before declaring the engine hung:
    /// generous, so that only a real hang trips it.
    ///
    /// - movetime: twice the time plus 10 s;
    /// - nodes: as if the engine searched only 10,000 nodes per second,
    ///   plus 10 s;
    /// - depth: 10 minutes (depth gives no bound on time);
    /// - clock: the larger time left plus 10 s (a late answer is a loss on
    ///   time for the harness to rule, not a hang).
    #[must_use]
    pub fn watchdog(self) -> Duration {
        match self {
            Limit::MoveTime(ms) => Duration::from_millis(ms.saturating_mul(2)) + GRACE,
            Limit::Nodes(n) => Duration::from_millis(n / 10) + GRACE,
            Limit::Depth(_) => Duration::from_mins(10),
            Limit::Clock(c) => Duration::from_millis(c.wtime_ms.max(c.btime_ms)) + GRACE,
        }
    }
}

const GRACE: Duration = Duration::from_secs(10);

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci())
    }
}

impl From<Limit> for String {
    fn from(limit: Limit) -> String {
        limit.to_uci()
    }
}

impl TryFrom<String> for Limit {
    type Error = String;

    fn try_from(text: String) -> Result<Limit, String> {
        text.parse()
    }
}

impl FromStr for Limit {
    type Err = String;

    /// Parses what [`Limit::to_uci`] writes.
    fn from_str(text: &str) -> Result<Limit, String> {
        let wrong =
            || format!("{text:?} is not a search limit (nodes N, depth N, movetime MS or a clock)");
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |word: &str| word.parse::<u64>().map_err(|_| wrong());
        match words.as_slice() {
            ["nodes", n] => Ok(Limit::Nodes(number(n)?)),
            ["depth", d] => Ok(Limit::Depth(d.parse().map_err(|_| wrong())?)),
            ["movetime", ms] => Ok(Limit::MoveTime(number(ms)?)),
            ["wtime", w, "btime", b, "winc", wi, "binc", bi, rest @ ..] => {
                let movestogo = match rest {
                    [] => None,
                    ["movestogo", m] => Some(m.parse().map_err(|_| wrong())?),
                    _ => return Err(wrong()),
                };
                Ok(Limit::Clock(Clock {
                    wtime_ms: number(w)?,
                    btime_ms: number(b)?,
                    winc_ms: number(wi)?,
                    binc_ms: number(bi)?,
                    movestogo,
                }))
            }
            _ => Err(wrong()),
        }
    }
}

/// An evaluation: centipawns or a forced mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves; negative when the side is being mated, 0
    /// when it is already checkmated.
    Mate(i32),
}

impl Score {
    /// The same evaluation from the other side's point of view.
    #[must_use]
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// A score given from the point of view of `turn`, seen from White's.
    #[must_use]
    pub fn for_white(self, turn: Color) -> Score {
        match turn {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }

    /// Centipawns, if this is not a mate score.
    #[must_use]
    pub fn cp(self) -> Option<i32> {
        match self {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        }
    }

    /// Moves to mate, if this is a mate score.
    #[must_use]
    pub fn mate(self) -> Option<i32> {
        match self {
            Score::Cp(_) => None,
            Score::Mate(n) => Some(n),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "{cp:+}"),
            Score::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// Whether a score is exact or only a bound from an unfinished iteration.
/// It serializes as its name (`exact`, `lower`, `upper`) and parses back.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Bound {
    /// The score is exact.
    #[default]
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

impl Bound {
    /// The bound as rows spell it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        }
    }

    /// Whether the score is exact (serde's `skip_serializing_if` takes a
    /// reference).
    #[must_use]
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn is_exact(&self) -> bool {
        *self == Bound::Exact
    }

    /// The same bound from the other side's point of view.
    #[must_use]
    pub fn negate(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }

    /// A bound given for `turn`, seen from White's point of view.
    #[must_use]
    pub fn for_white(self, turn: Color) -> Bound {
        match turn {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Bound> for String {
    fn from(bound: Bound) -> String {
        bound.name().to_owned()
    }
}

impl TryFrom<String> for Bound {
    type Error = String;

    fn try_from(text: String) -> Result<Bound, String> {
        text.parse()
    }
}

impl FromStr for Bound {
    type Err = String;

    fn from_str(text: &str) -> Result<Bound, String> {
        [Bound::Exact, Bound::Lower, Bound::Upper]
            .into_iter()
            .find(|b| b.name() == text)
            .ok_or_else(|| format!("unknown bound {text:?} (exact, lower or upper)"))
    }
}

/// Win, draw and loss expectation in per mille (they sum to 1000).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Wdl {
    /// Chance of a win, per mille.
    pub win: u32,
    /// Chance of a draw, per mille.
    pub draw: u32,
    /// Chance of a loss, per mille.
    pub loss: u32,
}

impl Wdl {
    /// The same expectation from the other side's point of view.
    #[must_use]
    pub fn negate(self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// A WDL given from the point of view of `turn`, seen from White's.
    #[must_use]
    pub fn for_white(self, turn: Color) -> Wdl {
        match turn {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }
}

/// One principal variation of a search (one per `MultiPV` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1 for the best line, 2 for the second, ...
    pub multipv: u32,
    /// Depth of the iteration that produced it.
    pub depth: u32,
    /// Selective depth, if reported.
    pub seldepth: Option<u32>,
    /// The score from the side to move.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Win/draw/loss from the side to move, if the engine reports it.
    pub wdl: Option<Wdl>,
    /// The moves, starting with the line's first move.
    pub pv: Vec<Move>,
}

/// The answer to one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The side to move in the searched position.
    pub turn: Color,
    /// The move the engine plays.
    pub best_move: Move,
    /// The reply the engine expects, if it says.
    pub ponder: Option<Move>,
    /// The last reported line for each `MultiPV` index, best first.
    pub lines: Vec<Line>,
    /// Nodes searched, if reported.
    pub nodes: Option<u64>,
    /// Search time reported by the engine.
    pub time: Option<Duration>,
    /// Wall time from sending the search to receiving the best move, as
    /// measured by the driver (zero for in-process engines that do not
    /// measure it).
    pub elapsed: Duration,
}

impl SearchResult {
    /// The best line, if the engine reported any.
    #[must_use]
    pub fn best_line(&self) -> Option<&Line> {
        self.lines.first()
    }

    /// The best line's score from the side to move.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        self.best_line().map(|l| l.score)
    }

    /// The best line's score from White's point of view.
    #[must_use]
    pub fn white_score(&self) -> Option<Score> {
        self.score().map(|s| s.for_white(self.turn))
    }

    /// The best line's WDL from White's point of view.
    #[must_use]
    pub fn white_wdl(&self) -> Option<Wdl> {
        self.best_line()
            .and_then(|l| l.wdl)
            .map(|w| w.for_white(self.turn))
    }
}

/// A position to search, as engines want it: a start position and the
/// moves played from it.
#[derive(Clone, Debug)]
pub struct GamePosition {
    start_fen: String,
    start: Chess,
    moves: Vec<Move>,
    current: Chess,
}

impl GamePosition {
    /// Starts from a position (set up in Chess960 castling mode).
    #[must_use]
    pub fn new(start: Chess) -> GamePosition {
        GamePosition {
            start_fen: shredder_fen(&start),
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// Starts from one of the 960 start positions.
    #[must_use]
    pub fn from_start(position: StartPosition) -> GamePosition {
        GamePosition::new(position.to_position())
    }

    /// Plays a move, if it is legal.
    pub fn push(&mut self, m: Move) -> Result<(), Move> {
        if self.current.is_legal(m) {
            self.current.play_unchecked(m);
            self.moves.push(m);
            Ok(())
        } else {
            Err(m)
        }
    }

    /// The start position's Shredder-FEN.
    #[must_use]
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the moves.
    #[must_use]
    pub fn current(&self) -> &Chess {
        &self.current
    }

    /// The UCI `position` command: Shredder-FEN and moves in Chess960
    /// notation (castling as king takes own rook).
    #[must_use]
    pub fn to_uci(&self) -> String {
        let mut command = format!("position fen {}", self.start_fen);
        if !self.moves.is_empty() {
            command.push_str(" moves");
            for m in &self.moves {
                command.push(' ');
                command.push_str(&UciMove::from_move(*m, CastlingMode::Chess960).to_string());
            }
        }
        command
    }
}

/// Shredder-FEN of any position: castling rights written as rook files.
#[must_use]
pub fn shredder_fen(position: &Chess) -> String {
    let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
    let rights = position.castles().castling_rights();
    let mut castling = String::new();
    for color in Color::ALL {
        let mut files: Vec<char> = rights
            .into_iter()
            .filter(|sq| sq.rank() == color.backrank())
            .map(|sq| sq.file().char())
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        for file in files {
            castling.push(if color == Color::White {
                file.to_ascii_uppercase()
            } else {
                file
            });
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    fields[2] = castling;
    fields.join(" ")
}
