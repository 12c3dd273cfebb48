//! Engine faults as values: every way an engine can fail is one variant.

use std::{path::PathBuf, time::Duration};

use thiserror::Error;

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// No executable at the path, and none of that name on `PATH`.
    #[error("engine {path:?} not found{hint}", path = path.display())]
    NotFound {
        /// The path or name given.
        path: PathBuf,
        /// Advice, such as how to install Stockfish.
        hint: String,
    },
    /// A package asked for by version is not installed (`stockfish-npm@17.1`).
    #[error("{engine}: {reason}")]
    PackageMissing {
        /// The engine as named.
        engine: String,
        /// What is missing and how to install it.
        reason: String,
    },
    /// The executable exists but cannot be started.
    #[error("cannot start engine {path:?}: {reason}", path = path.display())]
    Spawn {
        /// The executable.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// The program does not complete the UCI handshake.
    #[error("{path:?} is not a UCI engine: {reason}", path = path.display())]
    NotUci {
        /// The executable.
        path: PathBuf,
        /// What happened instead of `uciok`.
        reason: String,
    },
    /// The engine does not offer `UCI_Chess960`.
    #[error("engine {name:?} does not support Chess960 (it offers no UCI_Chess960 option)")]
    NoChess960 {
        /// The engine's name.
        name: String,
    },
    /// An option c960 needs is not offered, or a value is out of range.
    #[error("engine {name:?}: {reason}")]
    Option {
        /// The engine's name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The engine process ended while c960 was waiting for it.
    #[error("engine {name:?} crashed while {phase} ({status}){stderr}", stderr = stderr_tail(stderr))]
    Crashed {
        /// The engine's name.
        name: String,
        /// What c960 was waiting for.
        phase: String,
        /// How the process ended.
        status: String,
        /// The end of what it wrote to standard error.
        stderr: String,
    },
    /// The engine did not answer in time and was killed.
    #[error("engine {name:?} did not answer within {}s while {phase}; it was stopped", waited.as_secs_f64())]
    Timeout {
        /// The engine's name.
        name: String,
        /// What c960 was waiting for.
        phase: String,
        /// How long c960 waited.
        waited: Duration,
    },
    /// The engine's move is not legal (or not a move) in the position.
    #[error("engine {name:?} sent {what} {uci:?}, which is not legal in {fen}")]
    IllegalMove {
        /// The engine's name.
        name: String,
        /// `bestmove`, `ponder` or `pv`.
        what: &'static str,
        /// The move as sent.
        uci: String,
        /// The position, as Shredder-FEN.
        fen: String,
    },
    /// The engine sent no move in a position that has legal moves.
    #[error("engine {name:?} sent no best move in {fen}")]
    NoMove {
        /// The engine's name.
        name: String,
        /// The position, as Shredder-FEN.
        fen: String,
    },
    /// The engine's answer cannot be used: a best move without a scored
    /// line, or a line without depth.
    #[error("engine {name:?} gave an unusable answer in {fen}: {reason}")]
    BadAnswer {
        /// The engine's name.
        name: String,
        /// The position, as Shredder-FEN.
        fen: String,
        /// What is missing.
        reason: String,
    },
    /// The engine stopped far short of the search limit: it does not
    /// honour this kind of limit, so its answers are not searches at the
    /// limit asked for.
    #[error(
        "engine {name:?} does not honour the limit `{limit}`: it {reached} ({rule}); {honoured}"
    )]
    LimitIgnored {
        /// The engine's name.
        name: String,
        /// The limit, as sent (`nodes 200000`).
        limit: String,
        /// What the search did instead (`stopped at depth 1 after 6 nodes`).
        reached: String,
        /// The rule it broke.
        rule: String,
        /// Which limits the engine does honour, found by trying them.
        honoured: String,
    },
    /// A line that cannot be read.
    #[error("engine {name:?}: {reason}")]
    Protocol {
        /// The engine's name.
        name: String,
        /// What could not be read.
        reason: String,
    },
}

impl EngineError {
    /// Whether the engine process is unusable after this error, so a pool
    /// must start a new one before retrying.
    #[must_use]
    pub fn engine_is_dead(&self) -> bool {
        !matches!(
            self,
            EngineError::NotFound { .. }
                | EngineError::PackageMissing { .. }
                | EngineError::Spawn { .. }
                | EngineError::NotUci { .. }
                | EngineError::NoChess960 { .. }
                | EngineError::Option { .. }
                | EngineError::LimitIgnored { .. }
        )
    }

    /// Whether starting the engine again cannot help (the configuration is
    /// wrong, not the run).
    #[must_use]
    pub fn is_setup_error(&self) -> bool {
        !self.engine_is_dead()
    }
}

fn stderr_tail(stderr: &str) -> String {
    let trimmed = stderr.trim();
    if trimmed.is_empty() {
        String::new()
    } else {
        let last: Vec<&str> = trimmed.lines().rev().take(3).collect();
        let lines: Vec<&str> = last.into_iter().rev().collect();
        format!("; stderr: {}", lines.join(" | "))
    }
}
