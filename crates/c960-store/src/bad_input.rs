//! Bad input carried through `io::Error`: a path or file the user gave that
//! cannot be used (a directory where a file belongs, a link where a run
//! writes, data that is not what its name says). It travels as an
//! `io::Error` through the layers that do I/O, and the command line tells
//! it from a failure of the machine by its type, never by its error kind.

use std::io;

/// What makes an `io::Error` bad input; its text is the whole message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// An `io::Error` that says the input, not the machine, is at fault.
pub fn bad_input(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, BadInput(message.into()))
}

/// Whether `error` is bad input (made by [`bad_input`]).
#[must_use]
pub fn is_bad_input(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(<dyn std::error::Error + Send + Sync>::is::<BadInput>)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_told_by_its_type_and_says_its_message() {
        let error = bad_input("x is a directory");
        assert!(is_bad_input(&error));
        assert_eq!(error.to_string(), "x is a directory");
        // The kind alone does not make bad input.
        assert!(!is_bad_input(&io::Error::new(
            io::ErrorKind::InvalidInput,
            "x"
        )));
        assert!(!is_bad_input(&io::Error::other("disk full")));
    }
}
