//! How to start a UCI engine: its executable (looked up on `PATH`, with
//! Debian's names for Stockfish and Ethereal), threads, hash, options and
//! time-outs.

use std::{
    env,
    path::{Path, PathBuf},
    time::Duration,
};

use crate::EngineError;

/// Options of known engines that pull evaluations away from a draw
/// (Stockfish's `Contempt` up to version 13, Ethereal's
/// `ContemptDrawPenalty` and `ContemptComplexity`): they bias a balance
/// measurement, so they are set to 0 whenever an engine offers them and the
/// user did not set them.
pub const CONTEMPT_OPTIONS: [&str; 3] = ["Contempt", "ContemptDrawPenalty", "ContemptComplexity"];

/// How to start and set up a UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciConfig {
    /// The executable: a path, or a name looked up on `PATH`.
    pub path: PathBuf,
    /// Arguments passed to it.
    pub args: Vec<String>,
    /// `Threads` (default 1, for reproducible searches).
    pub threads: u32,
    /// `Hash` in MiB (default 16).
    pub hash_mb: u32,
    /// Further options, set after the standard ones, in order.
    pub options: Vec<crate::UciOption>,
    /// How long the `uci` handshake and `isready` may take.
    pub handshake_timeout: Duration,
    /// Overrides the search watchdog derived from the limit.
    pub watchdog: Option<Duration>,
    /// Write each process's UCI traffic, with timestamps, to
    /// `DIR/NAME-PID.log` (see [`UciEngine::log_path`]).
    pub log_dir: Option<PathBuf>,
}

impl UciConfig {
    /// Defaults for the engine at `path`: one thread, 16 MiB hash.
    pub fn new(path: impl Into<PathBuf>) -> UciConfig {
        UciConfig {
            path: path.into(),
            args: Vec::new(),
            threads: 1,
            hash_mb: 16,
            options: Vec::new(),
            handshake_timeout: Duration::from_secs(10),
            watchdog: None,
            log_dir: None,
        }
    }

    /// The executable [`UciEngine::start`] would run: `path` itself if it
    /// names a file, otherwise the first match on `PATH`; an
    /// [`EngineError::NotFound`] if there is none.
    pub fn executable(&self) -> Result<PathBuf, EngineError> {
        resolve(&self.path)
    }
}

/// The executable for `path`: itself if it contains a `/`, otherwise the
/// first match on `PATH`.
pub(super) fn resolve(path: &Path) -> Result<PathBuf, EngineError> {
    let name = path.to_string_lossy();
    let not_found = || EngineError::NotFound {
        path: path.to_owned(),
        hint: if name.contains("stockfish") {
            " (install it with `apt-get install stockfish`, or give --engine PATH)".to_owned()
        } else if name.contains("ethereal") {
            " (install it with `apt-get install ethereal-chess`, or give --engine PATH)".to_owned()
        } else {
            String::new()
        },
    };
    if path.components().count() > 1 || path.is_absolute() {
        return if path.is_file() {
            Ok(path.to_owned())
        } else {
            Err(not_found())
        };
    }
    env::var_os("PATH")
        .and_then(|paths| {
            env::split_paths(&paths)
                .map(|dir| dir.join(path))
                .find(|candidate| candidate.is_file())
        })
        .ok_or_else(not_found)
}

/// Ethereal, if installed: `ethereal-chess` (Debian's name) or `ethereal`
/// on `PATH`, else Debian's `/usr/games/ethereal-chess`.
#[must_use]
pub fn find_ethereal() -> Option<PathBuf> {
    resolve(Path::new("ethereal-chess"))
        .or_else(|_| resolve(Path::new("ethereal")))
        .ok()
        .or_else(|| Some(PathBuf::from("/usr/games/ethereal-chess")).filter(|p| p.is_file()))
}

/// Stockfish, if installed: `stockfish` on `PATH`, else Debian's
/// `/usr/games/stockfish`.
#[must_use]
pub fn find_stockfish() -> Option<PathBuf> {
    resolve(Path::new("stockfish"))
        .ok()
        .or_else(|| Some(PathBuf::from("/usr/games/stockfish")).filter(|p| p.is_file()))
}
