//! The integration tests of c960-core, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod castling;
mod dfrc;
mod draws;
mod features;
mod positions;
mod words;
