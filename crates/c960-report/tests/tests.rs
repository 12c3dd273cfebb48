//! The integration tests of c960-report, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod common;

mod charts;
mod join;
mod published;
mod published_dfrc;
mod published_v2;
