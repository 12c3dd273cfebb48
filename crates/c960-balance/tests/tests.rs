//! The integration tests of c960-balance, in one test binary (each file a
//! module): the methods on simulated data, and the match statistics against
//! an independent computation.

mod match_stats;
mod simulation;
