//! The integration tests of c960-sweep, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod published;
mod replies;
mod shards;
