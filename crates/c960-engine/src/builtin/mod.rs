//! The built-in engine: in-process, deterministic for node and depth
//! limits, behind the same [`Engine`] trait as the UCI driver.

// Plies (at most 128), square counts (at most 64) and scores (within
// ±32,000) convert between integer types without loss.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

mod eval;
mod search;

use std::time::{Duration, Instant};

use shakmaty::Position;

use crate::{
    Bound, Engine, EngineError, EngineInfo, GamePosition, Line, Search, SearchResult,
    types::shredder_fen,
};

pub use eval::evaluate;
pub(crate) use search::{Iteration, Searcher, key, to_score};

/// Name the built-in engine reports.
pub const NAME: &str = concat!("c960 builtin ", env!("CARGO_PKG_VERSION"));

/// The built-in engine.
pub struct BuiltinEngine {
    info: EngineInfo,
    searcher: Searcher,
    watch: Watch,
}

/// When a search is abandoned as hung.
#[derive(Copy, Clone, Debug)]
enum Watch {
    /// Never: a search runs to its limit (or to `stop`).
    Off,
    /// After the limit's watchdog ([`crate::Limit::watchdog`]).
    Limit,
    /// After this long.
    Fixed(Duration),
}

impl BuiltinEngine {
    /// A new engine with a hash table of `hash_mb` MiB.
    ///
    /// # Panics
    ///
    /// Panics if the hash table cannot be allocated; [`BuiltinEngine::try_new`]
    /// reports that as an error instead.
    #[must_use]
    pub fn new(hash_mb: usize) -> BuiltinEngine {
        BuiltinEngine::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A new engine with a hash table of `hash_mb` MiB, or an
    /// [`EngineError::Option`] if the table cannot be allocated.
    pub fn try_new(hash_mb: usize) -> Result<BuiltinEngine, EngineError> {
        let searcher = Searcher::new(hash_mb).map_err(|e| EngineError::Option {
            name: NAME.to_owned(),
            reason: format!("cannot allocate a hash table of {hash_mb} MiB ({e})"),
        })?;
        Ok(BuiltinEngine {
            info: EngineInfo {
                name: NAME.to_owned(),
                author: Some("the c960 developers".to_owned()),
                path: "builtin".to_owned(),
                options: vec![("Hash".to_owned(), hash_mb.to_string())],
                ..EngineInfo::default()
            },
            searcher,
            watch: Watch::Off,
        })
    }

    /// Abandons searches that take longer than `watchdog`, or with `None`
    /// than their limit's watchdog ([`crate::Limit::watchdog`]), as the UCI
    /// driver stops a hung engine: such a search fails with
    /// [`EngineError::Timeout`]. Without this call searches run to their
    /// limit (or to UCI `stop`) however long that takes.
    pub fn set_watchdog(&mut self, watchdog: Option<Duration>) {
        self.watch = watchdog.map_or(Watch::Limit, Watch::Fixed);
    }

    /// Lets another thread end searches early by setting `flag`.
    pub(crate) fn set_stop_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.searcher.external_stop = Some(flag);
    }

    /// Searches like [`Engine::search`], calling `on_iteration` after every
    /// completed iteration (for UCI `info` lines).
    pub(crate) fn search_with(
        &mut self,
        position: &GamePosition,
        search: Search,
        on_iteration: impl FnMut(&Iteration),
    ) -> Result<SearchResult, EngineError> {
        let started = Instant::now();
        let current = position.current();
        if current.legal_moves().is_empty() {
            return Err(EngineError::NoMove {
                name: self.info.name.clone(),
                fen: shredder_fen(current),
            });
        }
        // Hashes of the game's earlier positions, for repetitions.
        let mut history = Vec::with_capacity(position.moves().len());
        let mut replay = position.start().clone();
        for m in position.moves() {
            history.push(key(&replay));
            replay.play_unchecked(*m);
        }
        self.searcher.watchdog = match self.watch {
            Watch::Off => None,
            Watch::Limit => Some(search.limit.watchdog()),
            Watch::Fixed(watchdog) => Some(watchdog),
        };
        let iteration = self.searcher.search(
            current,
            &history,
            search.limit,
            search.multipv as usize,
            on_iteration,
        );
        if self.searcher.timed_out {
            return Err(EngineError::Timeout {
                name: self.info.name.clone(),
                phase: format!("searching ({})", search.limit),
                waited: self.searcher.watchdog.unwrap_or_default(),
            });
        }
        let lines: Vec<Line> = iteration
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| Line {
                multipv: i as u32 + 1,
                depth: iteration.depth,
                seldepth: Some(iteration.seldepth),
                score: to_score(l.score),
                bound: Bound::Exact,
                wdl: None,
                pv: l.pv.clone(),
            })
            .collect();
        let best_move = lines[0].pv[0];
        let ponder = lines[0].pv.get(1).copied();
        Ok(SearchResult {
            turn: current.turn(),
            best_move,
            ponder,
            lines,
            nodes: Some(iteration.nodes),
            time: Some(iteration.elapsed),
            elapsed: started.elapsed(),
        })
    }
}

impl Engine for BuiltinEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.searcher.clear();
        Ok(())
    }

    fn search(
        &mut self,
        position: &GamePosition,
        search: Search,
    ) -> Result<SearchResult, EngineError> {
        self.search_with(position, search, |_| {})
    }
}

impl std::fmt::Debug for BuiltinEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinEngine")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}
