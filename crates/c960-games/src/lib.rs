//! c960-games: Chess960 games from the outside world and what is played
//! from each start position. [`import`] reads PGN and `.pgn.zst` files
//! (with pgn-reader), keeps the Chess960 games whose start position is
//! known, and writes the game table self-play writes, counting every defect
//! of real data instead of failing on it; its files are the driver
//! (`import.rs`), the PGN visitor, the writer of an import's directory and
//! the per-position tally. [`Tree`] is the opening tree of one position
//! from such a table: every line up to N plies with its games, share,
//! results and White's score with an interval, in SAN (its counts and
//! intervals in `tree/counts.rs`, the first-move table in
//! `tree/first_moves.rs`).

pub mod import;
pub mod tree;

pub use import::{
    Filters, ImportSummary, ImportedGame, MAX_TAG_LINE, SkipReason, check_file, import, import_to,
};
pub use tree::{
    Counts, FirstMove, IntervalKind, Line, Tree, TreeError, first_moves, first_moves_frame,
    first_moves_of, first_moves_with, frequent_trees, frequent_trees_with, trees_by_position,
};
