//! What a failure means for whoever ran the command: the input is at
//! fault (bad input, exit status 2) or something else failed (exit
//! status 1). Each library error says which of its kinds are the input's
//! (`is_bad_input` on the error types, [`c960_store::bad_input`] inside an
//! `io::Error`); this module is the one place that reads them, so the
//! command line holds no list of error types.

use std::error::Error;

/// A refusal of the input in words: a flag value that parses but makes no
/// sense, a file or directory a command refuses. Bad input wherever it is
/// raised.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// Whether `cause` (one error of a chain) says the input is at fault.
#[must_use]
pub fn is_bad_input(cause: &(dyn Error + 'static)) -> bool {
    fn says<E: Error + 'static>(cause: &(dyn Error + 'static), test: fn(&E) -> bool) -> bool {
        cause.downcast_ref::<E>().is_some_and(test)
    }
    cause.is::<InputError>()
        || cause.is::<c960_core::StartPositionError>()
        || cause.is::<c960_core::DfrcError>()
        || cause.is::<c960_core::SetupError>()
        || cause.is::<c960_core::DrawError>()
        || cause.is::<c960_core::DiceError>()
        || cause.is::<c960_store::CorruptFile>()
        || says(cause, crate::draw::DrawError::is_bad_input)
        || says(cause, crate::slurm::SlurmError::is_bad_input)
        || says(cause, c960_runner::RunError::is_bad_input)
        || says(cause, c960_report::ReportError::is_bad_input)
        || says(cause, c960_verdict::VerdictError::is_bad_input)
        || says(cause, |e: &c960_store::JournalError| {
            matches!(e, c960_store::JournalError::Corrupt { .. })
        })
        || says(cause, c960_store::is_bad_input)
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;

    #[test]
    fn each_library_error_is_read_by_what_it_says_of_itself() {
        assert!(is_bad_input(&InputError("--count 0".to_owned())));
        assert!(is_bad_input(&c960_core::StartPositionError::OutOfRange(
            960
        )));
        assert!(is_bad_input(&c960_store::bad_input("x is a FIFO")));
        assert!(!is_bad_input(&io::Error::other("disk full")));
        // The same type, told apart by its kind.
        assert!(is_bad_input(&c960_runner::RunError::Invalid(
            "no positions".to_owned()
        )));
        assert!(!is_bad_input(&c960_runner::RunError::Io(io::Error::other(
            "disk full"
        ))));
        assert!(is_bad_input(&c960_runner::RunError::Io(
            c960_store::bad_input("a directory at sweep.parquet")
        )));
        assert!(is_bad_input(&crate::draw::DrawError::Input(
            "--phrase must not be empty".to_owned()
        )));
        // Found anywhere in a chain.
        let wrapped = anyhow::Error::new(InputError("bad".to_owned())).context("cannot draw");
        assert!(wrapped.chain().any(is_bad_input));
        let failed = anyhow::Error::new(io::Error::other("disk full")).context("cannot write x");
        assert!(!failed.chain().any(is_bad_input));
    }
}
