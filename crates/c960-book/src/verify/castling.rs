//! A book line's castling field read against the rooks on the board, in
//! both of the runners' readings of `KQkq`.
//!
//! File letters (Shredder-FEN, `HAha`) name one rook to every reader.
//! `K`/`Q` name "the rook on the king's h-side / a-side", which is one
//! rook only while a side has one rook there: cutechess (like X-FEN and
//! python-chess) takes the outermost, fastchess the one nearest the king.

use shakmaty::{Bitboard, Board, Color, File, Square};

/// How a line writes its castling rights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineNotation {
    /// `-`: no rights.
    None,
    /// Rook files only (`HAha`).
    Shredder,
    /// `K`, `Q`, `k`, `q` only.
    Kqkq,
    /// Both in one field (X-FEN writes a file only for an inner rook).
    Mixed,
}

/// The rooks a castling field names.
#[derive(Clone, Debug)]
pub(crate) struct Rights {
    /// The outermost-rook reading (cutechess, X-FEN, python-chess).
    pub(crate) outermost: Bitboard,
    /// The nearest-rook reading (fastchess).
    pub(crate) nearest: Bitboard,
    /// How the field was written.
    pub(crate) notation: LineNotation,
}

/// Reads `field` against `board`: each right must name a rook of its
/// colour on its back rank, with that colour's king on the back rank, at
/// most one right on each side of the king.
pub(crate) fn read(board: &Board, field: &str) -> Result<Rights, String> {
    let mut rights = Rights {
        outermost: Bitboard::EMPTY,
        nearest: Bitboard::EMPTY,
        notation: LineNotation::None,
    };
    if field == "-" {
        return Ok(rights);
    }
    let (mut files, mut letters) = (false, false);
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let name = color_name(color);
        let backrank = color.backrank();
        let Some(king) = board.king_of(color).filter(|k| k.rank() == backrank) else {
            return Err(format!(
                "castling right {ch} but the {name} king is not on its back rank"
            ));
        };
        let rooks = board.by_color(color) & board.rooks() & backrank;
        let (outer, inner) = match ch.to_ascii_lowercase() {
            'k' | 'q' => {
                letters = true;
                let kingside = ch.eq_ignore_ascii_case(&'k');
                let side: Bitboard = rooks
                    .into_iter()
                    .filter(|sq| (sq.file() > king.file()) == kingside)
                    .collect();
                let (outer, inner) = if kingside {
                    (side.last(), side.first())
                } else {
                    (side.first(), side.last())
                };
                let (Some(outer), Some(inner)) = (outer, inner) else {
                    return Err(format!(
                        "castling right {ch} but no {name} rook on the {} side of the king ({king})",
                        if kingside { "h" } else { "a" }
                    ));
                };
                (outer, inner)
            }
            letter @ 'a'..='h' => {
                files = true;
                let file = File::from_char(letter).expect("a to h");
                let square = Square::from_coords(file, backrank);
                if !rooks.contains(square) {
                    return Err(format!(
                        "castling right {ch} but no {name} rook on {square}"
                    ));
                }
                (square, square)
            }
            _ => {
                return Err(format!(
                    "{ch:?} in the castling field {field:?} is not a right"
                ));
            }
        };
        if rights.outermost.contains(outer) || rights.nearest.contains(inner) {
            return Err(format!(
                "castling field {field:?} names the rook on {outer} twice"
            ));
        }
        let same_side = (rights.outermost & backrank)
            .into_iter()
            .any(|sq| (sq.file() > king.file()) == (outer.file() > king.file()));
        if same_side {
            return Err(format!(
                "castling field {field:?} gives {name} two rights on the same side of the king"
            ));
        }
        rights.outermost.add(outer);
        rights.nearest.add(inner);
    }
    rights.notation = match (files, letters) {
        (true, true) => LineNotation::Mixed,
        (true, false) => LineNotation::Shredder,
        (false, true) => LineNotation::Kqkq,
        (false, false) => LineNotation::None,
    };
    Ok(rights)
}

/// Castling rights as Shredder-FEN letters (White's first, each colour's
/// from the h-file down), `-` for none.
pub(crate) fn letters(rights: Bitboard) -> String {
    let mut text = String::new();
    for color in Color::ALL {
        let mut files: Vec<char> = (rights & color.backrank())
            .into_iter()
            .map(|sq| sq.file().char())
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        text.extend(files.into_iter().map(|f| {
            if color == Color::White {
                f.to_ascii_uppercase()
            } else {
                f
            }
        }));
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}
