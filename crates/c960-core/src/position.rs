//! The 960 start positions: Scharnagl numbers, placements, FENs and mirror twins.

use std::{fmt, str::FromStr};

use shakmaty::{
    Bitboard, Board, ByRole, CastlingMode, Chess, Color, EnPassantMode, File, Position, Rank, Role,
    Square, fen::Fen,
};

use crate::error::StartPositionError;

/// Number of Chess960 start positions.
pub const POSITION_COUNT: u16 = 960;

/// One of the 960 Chess960 start positions, identified by its Scharnagl
/// number ("SP") in `0..=959`.
///
/// Construction validates the number, so every value of this type is a
/// legal start position.
///
/// # Examples
///
/// ```
/// use c960_core::StartPosition;
///
/// let classical = StartPosition::new(518)?;
/// assert_eq!(classical.placement(), "RNBQKBNR");
/// assert_eq!(classical, StartPosition::CLASSICAL);
/// assert_eq!(
///     classical.to_shredder_fen(),
///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
/// );
/// # Ok::<(), c960_core::StartPositionError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StartPosition(u16);

impl StartPosition {
    /// The classical chess setup, SP 518 (`RNBQKBNR`).
    pub const CLASSICAL: StartPosition = StartPosition(518);

    /// The start position with Scharnagl number `sp`.
    pub fn new(sp: u16) -> Result<StartPosition, StartPositionError> {
        if sp < POSITION_COUNT {
            Ok(StartPosition(sp))
        } else {
            Err(StartPositionError::OutOfRange(i128::from(sp)))
        }
    }

    /// All 960 start positions in Scharnagl order.
    pub fn all() -> impl DoubleEndedIterator<Item = StartPosition> + ExactSizeIterator {
        (0..POSITION_COUNT).map(StartPosition)
    }

    /// The Scharnagl number, `0..=959`.
    #[must_use]
    pub const fn sp(self) -> u16 {
        self.0
    }

    /// The full board (both sides, pawns included), from
    /// [`shakmaty::Board::chess960`].
    #[must_use]
    pub const fn board(self) -> Board {
        Board::chess960(self.0 as u32)
    }

    /// The roles on White's back rank, file a first.
    #[must_use]
    pub fn back_rank(self) -> [Role; 8] {
        let board = self.board();
        File::ALL.map(|file| {
            board
                .role_at(Square::from_coords(file, Rank::First))
                .expect("a start position fills the back rank")
        })
    }

    /// The back rank as eight upper-case letters, file a first
    /// (`RNBQKBNR` for SP 518).
    #[must_use]
    pub fn placement(self) -> String {
        self.back_rank()
            .iter()
            .map(|role| role.upper_char())
            .collect()
    }

    /// A position ready to play from, with castling rights in
    /// [`CastlingMode::Chess960`] (also for SP 518).
    #[must_use]
    pub fn to_position(self) -> Chess {
        Fen::from_ascii(self.to_shredder_fen().as_bytes())
            .expect("a start position has a valid FEN")
            .into_position(CastlingMode::Chess960)
            .expect("a start position is legal")
    }

    /// X-FEN: castling rights as `KQkq` (a start position has exactly one
    /// rook on each side of the king, so the letters are never ambiguous).
    #[must_use]
    pub fn to_xfen(self) -> String {
        Fen::from_position(&self.to_position(), EnPassantMode::Legal).to_string()
    }

    /// Shredder-FEN: castling rights as the files of the rooks (`HAha` for
    /// SP 518), the form UCI engines need with `UCI_Chess960`.
    #[must_use]
    pub fn to_shredder_fen(self) -> String {
        let board = self.board();
        let rooks = board.rooks() & board.white() & Bitboard::from_rank(Rank::First);
        let mut castling = String::with_capacity(4);
        for upper in [true, false] {
            for rook in rooks.into_iter().rev() {
                let file = rook.file().char();
                castling.push(if upper {
                    file.to_ascii_uppercase()
                } else {
                    file
                });
            }
        }
        format!("{} w {castling} - 0 1", board.board_fen())
    }

    /// The mirror twin: the back rank reflected left to right. Never the
    /// position itself, and `p.mirror().mirror() == p`.
    #[must_use]
    pub fn mirror(self) -> StartPosition {
        let mut rank = self.back_rank();
        rank.reverse();
        StartPosition::from_back_rank(&rank).expect("the reflection of a start position is one")
    }

    /// The start position with the given White back rank, file a first.
    pub fn from_back_rank(rank: &[Role; 8]) -> Result<StartPosition, StartPositionError> {
        let placement = || rank.iter().map(|r| r.upper_char()).collect::<String>();
        check_piece_counts(*rank, placement)?;
        let files_of = |wanted: Role| {
            rank.iter()
                .enumerate()
                .filter(move |(_, role)| **role == wanted)
                .map(|(file, _)| file)
        };
        let bishops: Vec<usize> = files_of(Role::Bishop).collect();
        if bishops[0] % 2 == bishops[1] % 2 {
            let shade = if bishops[0].is_multiple_of(2) {
                "dark"
            } else {
                "light"
            };
            return Err(StartPositionError::BishopsSameColour {
                placement: placement(),
                squares: [bishops[0], bishops[1]].map(|f| square_name(f, Rank::First)),
                shade,
            });
        }
        let king = files_of(Role::King).next().expect("counted one king");
        let rooks: Vec<usize> = files_of(Role::Rook).collect();
        if !(rooks[0] < king && king < rooks[1]) {
            return Err(StartPositionError::KingNotBetweenRooks {
                placement: placement(),
            });
        }

        let sp = scharnagl(*rank, &bishops);
        let position = StartPosition(sp as u16);
        debug_assert_eq!(&position.back_rank(), rank);
        Ok(position)
    }

    /// Parses a placement such as `RNBQKBNR` (case-insensitive, file a
    /// first).
    pub fn from_placement(placement: &str) -> Result<StartPosition, StartPositionError> {
        let chars: Vec<char> = placement.chars().collect();
        if chars.len() != 8 {
            return Err(StartPositionError::PlacementLength {
                placement: placement.to_owned(),
                len: chars.len(),
            });
        }
        let mut rank = [Role::Pawn; 8];
        for (slot, ch) in rank.iter_mut().zip(&chars) {
            *slot = match Role::from_char(ch.to_ascii_lowercase()) {
                Some(role) if role != Role::Pawn => role,
                _ => {
                    return Err(StartPositionError::InvalidPiece {
                        placement: placement.to_owned(),
                        piece: *ch,
                    });
                }
            };
        }
        StartPosition::from_back_rank(&rank)
    }

    /// Parses a Scharnagl number such as `518`.
    pub fn from_sp_str(number: &str) -> Result<StartPosition, StartPositionError> {
        let trimmed = number.trim();
        let value: i128 = trimmed
            .parse()
            .map_err(|_| StartPositionError::NotANumber(number.to_owned()))?;
        u16::try_from(value)
            .ok()
            .filter(|sp| *sp < POSITION_COUNT)
            .map(StartPosition)
            .ok_or(StartPositionError::OutOfRange(value))
    }

    /// Parses an X-FEN or Shredder-FEN of a start position: a legal Chess960
    /// setup with White to move, full castling rights, no en-passant square
    /// and move counters `0 1` (or none, as an EPD writes it).
    pub fn from_fen(fen: &str) -> Result<StartPosition, StartPositionError> {
        let malformed = |reason: String| StartPositionError::MalformedFen {
            fen: fen.to_owned(),
            reason,
        };
        let not_start = |reason: &str| StartPositionError::NotAStartPosition {
            fen: fen.to_owned(),
            reason: reason.to_owned(),
        };
        let parsed: Fen = fen.trim().parse().map_err(|e| malformed(format!("{e}")))?;
        // An EPD's four fields are a FEN without its move counters (which a
        // start position has as 0 1).
        let fields = fen.split_whitespace().count();
        if fields != 6 && fields != 4 {
            return Err(malformed(format!(
                "expected 6 fields (or the 4 of an EPD), found {fields}"
            )));
        }
        let setup = parsed.as_setup();
        let board = &setup.board;

        let mut rank = [Role::Pawn; 8];
        for (slot, file) in rank.iter_mut().zip(File::ALL) {
            *slot = match board.piece_at(Square::from_coords(file, Rank::First)) {
                Some(piece) if piece.color == Color::White && piece.role != Role::Pawn => {
                    piece.role
                }
                _ => {
                    return Err(not_start(
                        "rank 1 must hold White's eight pieces (no pawns, no gaps)",
                    ));
                }
            };
        }
        let position = StartPosition::from_back_rank(&rank)?;
        if position.board() != *board {
            return Err(not_start(
                "the other ranks must be White's pawns on rank 2, Black's pawns on rank 7 \
                 and Black's pieces mirroring White's on rank 8, with ranks 3 to 6 empty",
            ));
        }
        if setup.turn != Color::White {
            return Err(not_start("White must be to move"));
        }
        let corners = position.to_position().castles().castling_rights();
        if setup.castling_rights != corners {
            return Err(not_start(
                "castling rights must be complete for both sides (KQkq, or the rook files)",
            ));
        }
        if setup.ep_square.is_some() {
            return Err(not_start("there can be no en-passant square"));
        }
        if setup.halfmoves != 0 || setup.fullmoves.get() != 1 {
            return Err(not_start("the move counters must be 0 1"));
        }
        Ok(position)
    }
}

/// Parses a set of positions: `all`, or comma-separated numbers and
/// inclusive ranges such as `0-99,518`. The result is sorted, without
/// duplicates.
///
/// # Examples
///
/// ```
/// let set = c960_core::parse_position_set("3,0-2,518,2")?;
/// let sps: Vec<u16> = set.iter().map(|p| p.sp()).collect();
/// assert_eq!(sps, [0, 1, 2, 3, 518]);
/// assert_eq!(c960_core::parse_position_set("all")?.len(), 960);
/// # Ok::<(), c960_core::StartPositionError>(())
/// ```
pub fn parse_position_set(text: &str) -> Result<Vec<StartPosition>, StartPositionError> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(StartPosition::all().collect());
    }
    let mut set = std::collections::BTreeSet::new();
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(StartPositionError::BadSet(text.to_owned()));
        }
        match part.split_once('-') {
            Some((from, to)) if !from.trim().is_empty() => {
                let from = StartPosition::from_sp_str(from)?;
                let to = StartPosition::from_sp_str(to)?;
                if from > to {
                    return Err(StartPositionError::BadSet(text.to_owned()));
                }
                set.extend((from.0..=to.0).map(StartPosition));
            }
            _ => {
                set.insert(StartPosition::from_sp_str(part)?);
            }
        }
    }
    Ok(set.into_iter().collect())
}

/// Writes a set of positions compactly, the inverse of
/// [`parse_position_set`]: `all`, or numbers and ranges such as `0-99,518`.
#[must_use]
pub fn format_position_set(positions: &[StartPosition]) -> String {
    let mut sps: Vec<u16> = positions.iter().map(|p| p.0).collect();
    sps.sort_unstable();
    sps.dedup();
    if sps.len() == usize::from(POSITION_COUNT) {
        return "all".to_owned();
    }
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sps.len() {
        let start = sps[i];
        while i + 1 < sps.len() && sps[i + 1] == sps[i] + 1 {
            i += 1;
        }
        parts.push(if sps[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", sps[i])
        });
        i += 1;
    }
    parts.join(",")
}

impl FromStr for StartPosition {
    type Err = StartPositionError;

    /// Accepts a Scharnagl number (`518`), a placement (`RNBQKBNR`) or a FEN.
    fn from_str(s: &str) -> Result<StartPosition, StartPositionError> {
        let s = s.trim();
        if s.contains('/') {
            StartPosition::from_fen(s)
        } else if s.starts_with(['-', '+']) || s.chars().any(|c| c.is_ascii_digit()) {
            StartPosition::from_sp_str(s)
        } else if !s.is_empty() && s.chars().all(char::is_alphabetic) {
            StartPosition::from_placement(s)
        } else {
            Err(StartPositionError::Unrecognised(s.to_owned()))
        }
    }
}

impl fmt::Display for StartPosition {
    /// `SP 518 (RNBQKBNR)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SP {} ({})", self.0, self.placement())
    }
}

/// The knight pairs of the Scharnagl numbering, as indices into the five
/// squares left after bishops and queen (`NN---`, `N-N--`, ...).
const KNIGHT_PAIRS: [[usize; 2]; 10] = [
    [0, 1],
    [0, 2],
    [0, 3],
    [0, 4],
    [1, 2],
    [1, 3],
    [1, 4],
    [2, 3],
    [2, 4],
    [3, 4],
];

fn square_name(file: usize, rank: Rank) -> String {
    Square::from_coords(File::new(file as u32), rank).to_string()
}

/// Refuses a back rank without two knights, two bishops, two rooks, one
/// queen and one king (`placement` names it).
fn check_piece_counts(
    rank: [Role; 8],
    placement: impl Fn() -> String,
) -> Result<(), StartPositionError> {
    let mut counts = ByRole::new_with(|_| 0u8);
    for role in &rank {
        *counts.get_mut(*role) += 1;
    }
    let expected = ByRole {
        pawn: 0,
        knight: 2,
        bishop: 2,
        rook: 2,
        queen: 1,
        king: 1,
    };
    for role in Role::ALL {
        if counts.get(role) != expected.get(role) {
            return Err(StartPositionError::PieceCount {
                placement: placement(),
                role,
                found: *counts.get(role),
                expected: *expected.get(role),
            });
        }
    }
    Ok(())
}

/// The Scharnagl number of a valid back rank whose bishops stand on the
/// files `bishops`.
fn scharnagl(rank: [Role; 8], bishops: &[usize]) -> usize {
    // Scharnagl numbering (docs/domain.md#numbering-scharnagl): light bishop, dark bishop,
    // queen among the six free squares, knight pair among the last five.
    let light = bishops
        .iter()
        .find(|f| *f % 2 == 1)
        .expect("one light bishop")
        / 2;
    let dark = bishops
        .iter()
        .find(|f| *f % 2 == 0)
        .expect("one dark bishop")
        / 2;
    let without_bishops: Vec<Role> = rank
        .iter()
        .copied()
        .filter(|r| *r != Role::Bishop)
        .collect();
    let queen = without_bishops
        .iter()
        .position(|r| *r == Role::Queen)
        .expect("one queen");
    let knights: Vec<usize> = without_bishops
        .iter()
        .filter(|r| **r != Role::Queen)
        .enumerate()
        .filter(|(_, r)| **r == Role::Knight)
        .map(|(i, _)| i)
        .collect();
    let pair = KNIGHT_PAIRS
        .iter()
        .position(|p| p[0] == knights[0] && p[1] == knights[1])
        .expect("two knights among five squares");
    pair * 96 + queen * 16 + dark * 4 + light
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_positions() {
        assert_eq!(StartPosition(0).placement(), "BBQNNRKR");
        assert_eq!(StartPosition(518).placement(), "RNBQKBNR");
        assert_eq!(StartPosition(959).placement(), "RKRNNQBB");
    }

    #[test]
    fn parse_dispatches_on_form() {
        assert_eq!("518".parse(), Ok(StartPosition::CLASSICAL));
        assert_eq!("rnbqkbnr".parse(), Ok(StartPosition::CLASSICAL));
        assert_eq!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse(),
            Ok(StartPosition::CLASSICAL)
        );
        assert!(matches!(
            "R?BQKBNR".parse::<StartPosition>(),
            Err(StartPositionError::Unrecognised(_))
        ));
    }
}
