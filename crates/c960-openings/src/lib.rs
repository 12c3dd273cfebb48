//! c960-openings: Chess960 games from the outside world and what is played
//! from each start position. [`import`] reads PGN and `.pgn.zst` files
//! (with pgn-reader), keeps the Chess960 games whose start position is
//! known, and writes the game table self-play writes, counting every defect
//! of real data instead of failing on it.

pub mod import;

pub use import::{Filters, ImportSummary, ImportedGame, SkipReason, import, import_to};
