//! A book's manifest, written beside it (`NAME.epd` → `NAME.json`): what
//! the book holds, how it was made, and its line count and SHA-256, so a
//! tester can tell the book they downloaded is the one described. Written
//! by `c960-book`; the model lives here with the run directories' own.

use std::path::{Path, PathBuf};

use c960_core::Variant;
use serde::{Deserialize, Serialize};

/// What kind of book it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BookKind {
    /// Start positions as they are (Chess960 in SP order, DFRC setups in
    /// index order).
    Starts,
    /// The start positions of a balance table nearest equal chances.
    Balanced,
    /// Positions a few plies after the starts, kept by an evaluation
    /// window.
    Exits,
}

/// A book's manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookManifest {
    /// What kind of book.
    pub kind: BookKind,
    /// Chess960 or DFRC.
    pub variant: Variant,
    /// The book file's name (beside the manifest).
    pub file: String,
    /// How each line is written.
    pub format: String,
    /// Lines in the book.
    pub lines: u64,
    /// SHA-256 of the book file, lowercase hex.
    pub sha256: String,
    /// What the lines hold, as official-stockfish/books' `books.json`
    /// lists each book (filled in when the book is written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contents: Option<BookContents>,
    /// The c960 version that wrote it.
    pub c960_version: String,
    /// Which setups the book was made from, as named (`all`, `0-99`,
    /// `sample:2000:1`).
    pub setups: String,
    /// How the book was made, section by section (the selection from a
    /// balance table, the engine and its window), as its maker records it.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub made_with: serde_json::Map<String, serde_json::Value>,
    /// Notes for the reader.
    pub notes: String,
}

/// A book's lines counted as official-stockfish/books' `books.json`
/// counts them (`total`, `white`, `black`, `min_depth`, `max_depth`), with
/// the castling notation every line uses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookContents {
    /// Lines.
    pub total: u64,
    /// Lines with White to move.
    pub white_to_move: u64,
    /// Lines with Black to move.
    pub black_to_move: u64,
    /// The fewest plies from the start position to a line (from its
    /// fullmove number and side to move).
    pub min_plies: u32,
    /// The most plies.
    pub max_plies: u32,
    /// How castling rights are written: always Shredder-FEN (the castling
    /// rooks' files), which every runner reads alike.
    pub castling: String,
}

impl BookContents {
    /// The castling notation of every c960 book.
    pub const SHREDDER_FEN: &'static str = "Shredder-FEN (the castling rooks' files)";

    /// Counts one FEN line: its side to move and plies from the start.
    pub fn count(&mut self, fen: &str) {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let black = fields.get(1) == Some(&"b");
        let fullmove: u32 = fields.get(5).and_then(|f| f.parse().ok()).unwrap_or(1);
        let plies = 2 * fullmove.saturating_sub(1) + u32::from(black);
        if self.total == 0 {
            self.min_plies = plies;
            self.max_plies = plies;
            Self::SHREDDER_FEN.clone_into(&mut self.castling);
        }
        self.min_plies = self.min_plies.min(plies);
        self.max_plies = self.max_plies.max(plies);
        self.total += 1;
        if black {
            self.black_to_move += 1;
        } else {
            self.white_to_move += 1;
        }
    }
}

/// The manifest's path beside `book`: the extension replaced by `json`.
#[must_use]
pub fn book_manifest_path(book: &Path) -> PathBuf {
    book.with_extension("json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_count_sides_to_move_and_plies_from_the_move_counters() {
        let mut contents = BookContents::default();
        contents.count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        contents.count("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1");
        contents.count("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w HAha - 0 2");
        assert_eq!(
            contents,
            BookContents {
                total: 3,
                white_to_move: 2,
                black_to_move: 1,
                min_plies: 0,
                max_plies: 2,
                castling: BookContents::SHREDDER_FEN.to_owned(),
            }
        );
    }

    #[test]
    fn the_manifest_sits_beside_the_book() {
        assert_eq!(
            book_manifest_path(Path::new("books/c960_FRC_starts.epd")),
            PathBuf::from("books/c960_FRC_starts.json")
        );
    }
}
