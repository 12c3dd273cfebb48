//! Why a report cannot be made ([`ReportError`]).

use std::{io, path::PathBuf};

use c960_store::{CorruptFile, LockError};
use polars::prelude::PolarsError;
use thiserror::Error;

/// Why the table cannot be made.
#[derive(Debug, Error)]
pub enum ReportError {
    /// A run directory that is missing files or is not a finished run.
    #[error("{}: {reason}", dir.display())]
    BadRun {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Two runs with the same engine and limit.
    #[error("{} and {} have the same provenance ({label}); give only one", first.display(), second.display())]
    Duplicate {
        /// The label both would get.
        label: String,
        /// The first run.
        first: PathBuf,
        /// The second run.
        second: PathBuf,
    },
    /// Reading or writing tables failed.
    #[error("{}", c960_store::polars_reason(.0))]
    Polars(#[from] PolarsError),
    /// Writing files failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A game table that cannot be replayed.
    #[error(transparent)]
    Openings(#[from] c960_games::TreeError),
    /// An input table that is damaged or does not match its manifest.
    #[error(transparent)]
    Corrupt(#[from] CorruptFile),
    /// A run or the output is in use by another process.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Reading the inputs failed inside a dependency (damaged data).
    #[error("cannot read the inputs: {0}")]
    Unreadable(String),
    /// Raters that cannot be combined (named).
    #[error(transparent)]
    Raters(#[from] c960_balance::consensus::RaterError),
    /// The verdicts cannot be made.
    #[error(transparent)]
    Verdict(#[from] c960_verdict::VerdictError),
}

impl From<c960_store::ColumnsError> for ReportError {
    fn from(e: c960_store::ColumnsError) -> ReportError {
        match e {
            c960_store::ColumnsError::Io(e) => ReportError::Io(e),
            c960_store::ColumnsError::Polars(e) => ReportError::Polars(e),
            c960_store::ColumnsError::Corrupt(e) => ReportError::Corrupt(e),
        }
    }
}

impl ReportError {
    /// Whether the inputs (not the machine) are at fault: missing,
    /// damaged or inconsistent runs.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ReportError::BadRun { .. }
                | ReportError::Duplicate { .. }
                | ReportError::Corrupt(_)
                | ReportError::Unreadable(_)
                | ReportError::Raters(_)
        ) || matches!(self, ReportError::Io(e) if c960_store::is_bad_input(e))
            || matches!(self, ReportError::Verdict(e) if e.is_bad_input())
    }
}
