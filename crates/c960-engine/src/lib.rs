//! c960-engine: a typed chess engine API, independent of any protocol, and
//! a UCI driver behind it. Engine faults (missing engine, crash, hang,
//! illegal move) are values of [`EngineError`], never panics or hangs; a
//! [`pool`] runs jobs over several engines and restarts dead ones.
//! [`Fingerprint`] is an engine as observed (its name, options and one
//! search), which tells one engine under two spellings apart from two.
//! [`EngineName`] is an engine as the user names it (a name or a command
//! line) and [`UciOption`] a UCI option as the user gives it (`NAME=VALUE`),
//! each parsed once where it enters. [`Control`] is how long a side of a
//! game between engines may think (a limit, a clock or a time per move)
//! and [`Rules`] when such a game is stopped early: what self-play plays
//! under and its manifests record (the model in c960-store names them).

pub mod builtin;
mod choice;
mod control;
mod error;
mod fingerprint;
mod info;
mod option;
pub mod pool;
mod rules;
mod spec;
mod types;
pub mod uci;

pub use choice::{EngineIdentity, EngineName, EngineNameError, Resolved};
pub use control::{Control, TimeControl, parse_seconds};
pub use error::EngineError;
pub use fingerprint::{Fingerprint, PROBE_NODES, PROBE_SP};
pub use info::{EngineInfo, Network, WdlReport};
pub use option::{SET_BY_C960, UciOption, UciOptionError, check_user_options};
pub use rules::Rules;
pub use spec::{AnyEngine, EngineSpec};
pub use types::{Bound, Clock, GamePosition, Limit, Line, Score, SearchResult, Wdl, shredder_fen};

/// What to search for: a limit and how many principal variations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// When to stop.
    pub limit: Limit,
    /// Number of principal variations (`MultiPV`), at least 1.
    pub multipv: u32,
}

impl Search {
    /// A single-line search with this limit.
    #[must_use]
    pub fn new(limit: Limit) -> Search {
        Search { limit, multipv: 1 }
    }
}

/// A chess engine: anything that can search a position.
pub trait Engine {
    /// Name, path and options: the provenance of its results.
    fn info(&self) -> &EngineInfo;

    /// Forgets everything learnt from earlier positions (`ucinewgame`).
    fn new_game(&mut self) -> Result<(), EngineError>;

    /// Searches `position` and returns the best move with its lines; the
    /// best move is checked to be legal.
    fn search(
        &mut self,
        position: &GamePosition,
        search: Search,
    ) -> Result<SearchResult, EngineError>;
}
