//! c960-runner: how c960 runs engine work, the same way for a sweep's
//! searches and for self-play's games.
//!
//! A run starts its engine once to identify it (the identity labels the
//! journal, so a resume with another engine is refused), opens its journal,
//! and then hands the units still to do to a pool of engines
//! ([`run_journaled`]). Each finished unit is appended durably to the
//! journal before anything counts it; a journal that cannot be written
//! stops the pool, and the caller's stop flag (Ctrl-C) lets work in
//! progress finish and starts nothing new. The engines started to identify
//! the run are the first worker's ([`Spare`]), so no engine is launched
//! twice. Every way such a run can fail is one [`RunError`], which says
//! whether the user must change the command (bad input) or may simply run
//! it again; the binary maps that to an exit code in one place.
//!
//! The sweep (`c960-sweep`) and self-play (`c960-selfplay`) crates build
//! on this; what they add is the unit of work (a search, a game), its
//! journal line and their tables.

use std::{
    io,
    path::Path,
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
    thread,
    time::Duration,
};

use c960_engine::{
    EngineError,
    pool::{self, Done, PoolOptions},
};
use c960_store::{CorruptFile, Journal, JournalError, LockError, merge::MergeRefusal};
use serde::{Serialize, de::DeserializeOwned};
use thiserror::Error;

/// Why a run could not go on.
#[derive(Debug, Error)]
pub enum RunError {
    /// An engine cannot be used.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The journal cannot be used.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A file could not be read or written.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Settings that cannot be run (no positions, a multipv of 0, ...).
    #[error("{0}")]
    Invalid(String),
    /// Another process holds the run directory.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// A table that cannot be trusted.
    #[error(transparent)]
    Corrupt(#[from] CorruptFile),
}

impl RunError {
    /// Whether the user must change the command (a wrong engine, a run
    /// directory made with other settings or damaged, nonsense values)
    /// rather than just run it again.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        match self {
            RunError::Engine(e) => e.is_setup_error(),
            RunError::Journal(e) => matches!(
                e,
                JournalError::SettingsDiffer { .. } | JournalError::Corrupt { .. }
            ),
            RunError::Invalid(_) | RunError::Corrupt(_) => true,
            RunError::Io(e) => c960_store::is_bad_input(e),
            RunError::Lock(_) => false,
        }
    }
}

impl From<MergeRefusal> for RunError {
    fn from(e: MergeRefusal) -> RunError {
        match e {
            MergeRefusal::Invalid(m) => RunError::Invalid(m),
            MergeRefusal::Journal(e) => RunError::Journal(e),
            MergeRefusal::Io(e) => RunError::Io(e),
            MergeRefusal::Lock(e) => RunError::Lock(e),
        }
    }
}

/// How far a run is, reported after each finished unit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Units finished, including those taken from the journal.
    pub done: u64,
    /// Units that failed in this run.
    pub failed: u64,
    /// Units in the run (adaptive self-play adds rounds as it decides them).
    pub total: u64,
    /// Units taken from the journal.
    pub resumed: u64,
}

/// The engine (or engines) started to identify a run, kept for the first
/// worker that asks.
#[derive(Debug)]
pub struct Spare<T>(Mutex<Option<T>>);

impl<T> Spare<T> {
    /// Keeps `engines` for the first worker.
    #[must_use]
    pub fn new(engines: T) -> Spare<T> {
        Spare(Mutex::new(Some(engines)))
    }

    /// The kept engines, once; `None` afterwards.
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok().and_then(|mut kept| kept.take())
    }
}

/// Whether the pool goes on after a finished unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Start more units.
    Go,
    /// Start no new unit (an SPRT that decided, say); units in progress
    /// finish and are handed over as usual.
    Halt,
}

/// The journal as a finished unit sees it: [`Recorder::append`] writes a
/// line durably, or remembers the first error (which ends the run).
#[derive(Debug)]
pub struct Recorder<'j, L> {
    journal: &'j mut Journal<L>,
    error: Option<JournalError>,
}

impl<L: Serialize + DeserializeOwned> Recorder<'_, L> {
    /// Appends `line` and syncs it; false when it (or an earlier line)
    /// could not be written, in which case the unit must not be counted.
    pub fn append(&mut self, line: &L) -> bool {
        if self.error.is_some() {
            return false;
        }
        match self.journal.append(line) {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }
}

/// Runs `work` for each of `jobs` on a pool of at most `options.workers`
/// engines made by `start` (never more workers than jobs), handing each
/// finished unit, in completion order, to `on_done` on the calling thread
/// together with the journal. Once `stop` is set (it is only read), or
/// `on_done` returns [`Flow::Halt`], or a journal line cannot be written,
/// no new unit starts and units in progress finish. Returns the journal's
/// error, or the error of an engine that cannot be set up at all.
///
/// # Errors
/// [`RunError::Engine`] when an engine cannot be set up, and
/// [`RunError::Journal`] when a line could not be written.
pub fn run_journaled<E, J, R, L>(
    journal: &mut Journal<L>,
    start: &(dyn Fn() -> Result<E, EngineError> + Sync),
    jobs: &[J],
    work: &(dyn Fn(&mut E, &J) -> Result<R, EngineError> + Sync),
    options: PoolOptions,
    stop: &AtomicBool,
    mut on_done: impl FnMut(Done<R>, &mut Recorder<'_, L>) -> Flow,
) -> Result<(), RunError>
where
    J: Sync,
    R: Send,
    L: Serialize + DeserializeOwned,
{
    let options = PoolOptions {
        workers: options.workers.clamp(1, jobs.len().max(1)),
        ..options
    };
    let mut recorder = Recorder {
        journal,
        error: None,
    };
    with_halt(stop, |halt| {
        pool::run(start, jobs, work, options, halt, |done| {
            let flow = on_done(done, &mut recorder);
            if flow == Flow::Halt || recorder.error.is_some() {
                halt.store(true, Ordering::SeqCst);
            }
        })
    })?;
    match recorder.error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// Runs `body` with a flag of its own that `stop` sets too (watched every
/// 20 ms), so a run can stop its pool without touching the caller's flag.
fn with_halt<T>(stop: &AtomicBool, body: impl FnOnce(&AtomicBool) -> T) -> T {
    let halt = AtomicBool::new(stop.load(Ordering::SeqCst));
    let finished = AtomicBool::new(false);
    thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::SeqCst) {
                if stop.load(Ordering::SeqCst) {
                    halt.store(true, Ordering::SeqCst);
                }
                thread::sleep(Duration::from_millis(20));
            }
        });
        let result = body(&halt);
        finished.store(true, Ordering::SeqCst);
        result
    })
}

/// Creates the run directory `out` (and its parents), with the directory
/// named in the error.
///
/// # Errors
/// When it cannot be created.
pub fn create_run_dir(out: &Path) -> io::Result<()> {
    c960_store::create_dir(out)
}
