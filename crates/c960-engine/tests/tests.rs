//! The integration tests of c960-engine, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod builtin;
mod fake;
mod parse;
mod stockfish;
