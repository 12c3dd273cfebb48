//! Which engine to run: a UCI program or the built-in engine. Sweeps and
//! self-play start engines from a spec, one per worker.

use shakmaty::Position;
use std::time::Duration;

use crate::{
    Engine, EngineError, EngineInfo, GamePosition, Search, SearchResult,
    builtin::BuiltinEngine,
    uci::{UciConfig, UciEngine},
};

/// An engine to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// A UCI engine process.
    Uci(UciConfig),
    /// The built-in engine with a hash table of this many MiB.
    Builtin {
        /// Hash table size in MiB.
        hash_mb: usize,
        /// Overrides the search watchdog derived from the limit, as
        /// [`UciConfig::watchdog`] does for UCI engines.
        watchdog: Option<Duration>,
    },
}

impl EngineSpec {
    /// Starts the engine.
    pub fn start(&self) -> Result<AnyEngine, EngineError> {
        match self {
            EngineSpec::Uci(config) => {
                UciEngine::start(config).map(|e| AnyEngine::Uci(Box::new(e)))
            }
            EngineSpec::Builtin { hash_mb, watchdog } => {
                let mut engine = BuiltinEngine::try_new(*hash_mb)?;
                engine.set_watchdog(*watchdog);
                Ok(AnyEngine::Builtin(Box::new(engine)))
            }
        }
    }

    /// The same spec with `MultiPV` set up front (for UCI engines; the
    /// built-in engine takes it per search).
    #[must_use]
    pub fn with_multipv(&self, multipv: u32) -> EngineSpec {
        match self {
            EngineSpec::Uci(config) if multipv > 1 => {
                let mut config = config.clone();
                config.options.push(crate::UciOption {
                    name: "MultiPV".to_owned(),
                    value: multipv.to_string(),
                });
                EngineSpec::Uci(config)
            }
            other => other.clone(),
        }
    }
}

impl AnyEngine {
    /// The file its UCI traffic is logged to, if it is a UCI engine that
    /// logs.
    #[must_use]
    pub fn log_path(&self) -> Option<&std::path::Path> {
        match self {
            AnyEngine::Uci(e) => e.log_path(),
            AnyEngine::Builtin(_) => None,
        }
    }
}

/// A started engine of either kind.
#[derive(Debug)]
pub enum AnyEngine {
    /// A UCI engine process.
    Uci(Box<UciEngine>),
    /// The built-in engine.
    Builtin(Box<BuiltinEngine>),
}

impl Engine for AnyEngine {
    fn info(&self) -> &EngineInfo {
        match self {
            AnyEngine::Uci(e) => e.info(),
            AnyEngine::Builtin(e) => e.info(),
        }
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        match self {
            AnyEngine::Uci(e) => e.new_game(),
            AnyEngine::Builtin(e) => e.new_game(),
        }
    }

    fn search(
        &mut self,
        position: &GamePosition,
        search: Search,
    ) -> Result<SearchResult, EngineError> {
        match self {
            AnyEngine::Uci(e) => e.search(position, search),
            // The built-in engine takes no clock: it gets a time per move.
            AnyEngine::Builtin(e) => {
                let limit = search.limit.without_clock(position.current().turn());
                e.search(position, Search { limit, ..search })
            }
        }
    }
}
