//! c960-store: how c960 puts results on disk safely. Files are written
//! atomically (a temporary file beside the target, synced, then renamed),
//! and long runs append each finished unit of work durably to a journal so
//! that a run killed at any moment resumes where it stopped.

mod atomic;
mod journal;

pub use atomic::write_atomically;
pub use journal::{Journal, JournalError};
