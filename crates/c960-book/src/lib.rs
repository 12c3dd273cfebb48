//! c960-book: opening books for engine testers who play Chess960 and
//! Double Fischer Random matches (fastchess, cutechess-cli, fishtest and
//! `OpenBench`).
//!
//! A book is a text file of one position per line ([`line`]: a six-field
//! FEN with Shredder-FEN castling, which every runner reads the same way),
//! with a manifest beside it ([`BookManifest`]: what made it, with the book's
//! line count and SHA-256). [`verify`] checks any book line by line.

pub mod exits;
pub mod line;
pub mod verify;
pub mod write;

pub use c960_store::sha256_hex;
pub use c960_store::{BookKind, BookManifest, book_manifest_path};
pub use line::{FORMAT, book_line};
pub use verify::{BadLine, Checker, Defect, DefectKind, Report, check_book};
pub use write::{BookOutputs, write_book, write_book_with};
