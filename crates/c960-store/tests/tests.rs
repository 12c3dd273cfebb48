//! The integration tests of c960-store, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod architecture;
mod circles;
mod integrity;
mod one_model;
mod shape;
mod store;
