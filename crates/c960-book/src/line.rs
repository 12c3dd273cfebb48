//! One book line: the position as a six-field FEN whose castling field
//! names the castling rooks by their files (Shredder-FEN, `HAha` for the
//! classical setup).
//!
//! Why this form: `KQkq` is read differently by the runners (fastchess
//! takes K/Q as the rook nearest the king, cutechess as the outermost
//! rook), while file letters mean one rook to every reader. A line holds
//! no `;`: fastchess reads a line with one as EPD with opcodes, and no
//! runner needs them, since the move counters are the FEN's own fields.

use shakmaty::Chess;

/// The format of every book line, as manifests state it.
pub const FORMAT: &str = "one position per line: a six-field FEN (placement, side to move, \
                          castling, en passant, halfmove clock, fullmove number) with \
                          Shredder-FEN castling (the castling rooks' files); no EPD opcodes";

/// The book line of `position` (set up in Chess960 castling mode).
#[must_use]
pub fn book_line(position: &Chess) -> String {
    c960_engine::shredder_fen(position)
}

#[cfg(test)]
mod tests {
    use c960_core::StartPosition;

    use super::*;

    #[test]
    fn the_classical_start_is_written_with_rook_files() {
        let line = book_line(&StartPosition::CLASSICAL.to_position());
        assert_eq!(
            line,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert!(!line.contains(';'));
    }
}
