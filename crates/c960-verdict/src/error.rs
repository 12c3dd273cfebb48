//! Why a verdict table cannot be made or read ([`VerdictError`]).

use std::{io, path::PathBuf};

use c960_store::{ColumnsError, CorruptFile};
use polars::prelude::PolarsError;
use thiserror::Error;

/// Why the verdicts cannot be made, or a verdict table read.
#[derive(Debug, Error)]
pub enum VerdictError {
    /// An input table or run that cannot be used, with why.
    #[error("{}: {reason}", path.display())]
    BadInput {
        /// The table or run directory.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing tables failed.
    #[error("{}", c960_store::polars_reason(.0))]
    Polars(#[from] PolarsError),
    /// Reading or writing files failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// An input table that is damaged or does not match its manifest.
    #[error(transparent)]
    Corrupt(#[from] CorruptFile),
    /// Raters that cannot be combined (named).
    #[error(transparent)]
    Raters(#[from] c960_balance::consensus::RaterError),
    /// A run still being written (its writer named), or a lock that
    /// cannot be taken.
    #[error(transparent)]
    Lock(#[from] c960_store::LockError),
}

impl From<ColumnsError> for VerdictError {
    fn from(e: ColumnsError) -> VerdictError {
        match e {
            ColumnsError::Io(e) => VerdictError::Io(e),
            ColumnsError::Polars(e) => VerdictError::Polars(e),
            ColumnsError::Corrupt(e) => VerdictError::Corrupt(e),
        }
    }
}

impl VerdictError {
    /// Whether the inputs (not the machine) are at fault.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            VerdictError::BadInput { .. } | VerdictError::Corrupt(_) | VerdictError::Raters(_)
        ) || matches!(self, VerdictError::Io(e) if c960_store::is_bad_input(e))
    }
}
