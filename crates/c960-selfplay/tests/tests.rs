//! The integration tests of c960-selfplay, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod adaptive_shards;
mod clock;
mod games;
mod restore;
mod shards;
