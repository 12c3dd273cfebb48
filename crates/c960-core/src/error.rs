//! Typed errors for parsing start positions, drawing and rolling dice.

use shakmaty::Role;
use thiserror::Error;

/// Why a text is not one of the 960 start positions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartPositionError {
    /// A Scharnagl number outside `0..=959`.
    #[error("position number {0} is out of range 0..=959")]
    OutOfRange(i128),
    /// Text that looked like a number but is not an integer.
    #[error("{0:?} is not a position number (expected an integer in 0..=959)")]
    NotANumber(String),
    /// Text that is neither a number, a placement nor a FEN.
    #[error("{0:?} is not a position number (0..=959), a placement (such as RNBQKBNR) or a FEN")]
    Unrecognised(String),
    /// A position set that is not numbers and ranges.
    #[error(
        "{0:?} is not a set of positions (expected `all` or numbers and ranges such as 0-99,518)"
    )]
    BadSet(String),
    /// A placement that does not have eight squares.
    #[error("placement {placement:?} has {len} squares, expected 8")]
    PlacementLength {
        /// The text as given.
        placement: String,
        /// Its number of characters.
        len: usize,
    },
    /// A placement with a letter that is not K, Q, R, B or N.
    #[error("placement {placement:?} contains {piece:?}, expected only K, Q, R, B and N")]
    InvalidPiece {
        /// The text as given.
        placement: String,
        /// The offending character.
        piece: char,
    },
    /// A placement with too many or too few pieces of one kind.
    #[error(
        "placement {placement} has {found} {name}, expected {expected}",
        name = role_name(*role, *found)
    )]
    PieceCount {
        /// The placement.
        placement: String,
        /// The piece kind that is miscounted.
        role: Role,
        /// How many there are.
        found: u8,
        /// How many a start position has.
        expected: u8,
    },
    /// Both bishops on squares of one colour.
    #[error(
        "placement {placement} has both bishops on {shade} squares ({} and {}); \
         they must stand on opposite colours",
        squares[0], squares[1]
    )]
    BishopsSameColour {
        /// The placement.
        placement: String,
        /// The bishops' squares.
        squares: [String; 2],
        /// `light` or `dark`.
        shade: &'static str,
    },
    /// The king is not between the two rooks.
    #[error("placement {placement} does not have the king between the rooks")]
    KingNotBetweenRooks {
        /// The placement.
        placement: String,
    },
    /// A FEN that does not parse.
    #[error("malformed FEN {fen:?}: {reason}")]
    MalformedFen {
        /// The text as given.
        fen: String,
        /// What is wrong.
        reason: String,
    },
    /// A well-formed FEN that is not a start position.
    #[error("FEN {fen:?} is not a Chess960 start position: {reason}")]
    NotAStartPosition {
        /// The text as given.
        fen: String,
        /// What is wrong.
        reason: String,
    },
}

fn role_name(role: Role, count: u8) -> String {
    let name = match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    };
    if count == 1 {
        name.to_owned()
    } else {
        format!("{name}s")
    }
}

/// Why a draw cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DrawError {
    /// Zero rounds asked for.
    #[error("the number of rounds must be at least 1")]
    NoRounds,
    /// The filters exclude every position.
    #[error("no position passes the filters ({filters})")]
    NothingLeft {
        /// The filters, as given.
        filters: String,
    },
    /// Fewer candidates than rounds.
    #[error(
        "only {candidates} positions pass the filters ({filters}), fewer than the {rounds} \
         distinct rounds asked for"
    )]
    TooFewCandidates {
        /// Positions left after the filters.
        candidates: usize,
        /// Rounds asked for.
        rounds: usize,
        /// The filters, as given.
        filters: String,
    },
    /// A key of sealed rounds that is not 64 hexadecimal digits.
    #[error("{key:?} is not a key: a key is 64 hexadecimal digits")]
    BadKey {
        /// The text given.
        key: String,
    },
}

/// Why a sequence of die rolls does not give a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceError {
    /// A value that a six-sided die cannot show.
    #[error("roll {index} is {value}, but a die shows 1 to 6")]
    NotADieRoll {
        /// 1-based index of the roll.
        index: usize,
        /// The value given.
        value: i64,
    },
    /// Rolls ran out before every piece was placed.
    #[error("the rolls ran out before the {step} was placed: at least one more roll is needed")]
    TooFewRolls {
        /// The piece still to place.
        step: &'static str,
    },
    /// Rolls left over once the position was complete.
    #[error(
        "the position was complete after roll {used}, but {} followed",
        crate::plural(*.extra, "more roll", "more rolls")
    )]
    TooManyRolls {
        /// Rolls used.
        used: usize,
        /// Rolls left over.
        extra: usize,
    },
}
