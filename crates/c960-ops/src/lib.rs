//! The workflows the `c960` command runs, as a library (cargo's `ops`
//! layer): the binary parses flags, calls one function here, and prints.

pub mod draw;
pub mod failure;
pub mod run;
pub mod slurm;

pub use failure::InputError;
