//! c960-balance: the statistics that turn noisy per-position measurements
//! into statements a user can rely on. Pure functions, no I/O.
//!
//! - [`agreement`]: agreement of a measurement with independent ones
//!   (correlations with bootstrap intervals, decile overlap, offset and
//!   scale) and the standardized mean of several.
//! - [`adaptive`]: which positions get the next round of adaptive self-play.
//! - [`normal`] and [`student`]: the normal and Student's t distributions
//!   (statrs underneath), the critical values of two-sided intervals.
//! - [`interval`]: White's score over games with its interval (trinomial
//!   and Wilson's form).
//! - [`reliability`]: correlations, split-half reliability and the
//!   Spearman–Brown projection; how far a ranking can be trusted.
//! - [`shrink`]: normal–normal empirical Bayes shrinkage toward the
//!   all-position mean (Efron & Morris 1975).
//! - [`sequential`]: confidence sequences and e-process p-values for
//!   scores in \[0, 1\] that stay valid when the number of games depends on
//!   the data (Waudby-Smith & Ramdas 2024).
//! - [`verdict`]: per-position verdicts (`balanced`, `more-for-white`,
//!   `less-for-white`, `unresolved`) with Benjamini–Hochberg q-values.
//! - [`consensus`]: several engines' per-position means on one scale.
//! - [`rng`]: the seeded random numbers the methods and simulations use.

pub mod adaptive;
pub mod agreement;
pub mod consensus;
pub mod interval;
pub mod normal;
pub mod reliability;
pub mod rng;
pub mod sequential;
pub mod shrink;
pub mod student;
pub mod verdict;

/// The confidence level of every interval c960 reports (95 %).
pub const LEVEL: f64 = 0.95;
