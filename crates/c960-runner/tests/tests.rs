//! The integration tests of c960-runner, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod runner;
