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

/// The manifest's path beside `book`: the extension replaced by `json`.
#[must_use]
pub fn book_manifest_path(book: &Path) -> PathBuf {
    book.with_extension("json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_sits_beside_the_book() {
        assert_eq!(
            book_manifest_path(Path::new("books/c960_FRC_starts.epd")),
            PathBuf::from("books/c960_FRC_starts.json")
        );
    }
}
