//! c960-balance: the statistics that turn noisy per-position measurements
//! into statements a user can rely on. Pure functions, no I/O; every
//! interval at one confidence level, [`LEVEL`], with statrs and nalgebra
//! underneath.
//!
//! - [`agreement`]: agreement of a measurement with independent ones
//!   (correlations with bootstrap intervals, decile overlap, offset and
//!   scale) and the standardized mean of several.
//! - [`adaptive`]: which positions get the next round of adaptive self-play.
//! - [`difficulty`]: how hard a move choice is from an engine's top moves:
//!   the moves near the best (good-move density) and the gap below it.
//! - [`elo`]: engine A against engine B over colour-reversed pairs:
//!   pentanomial score, Elo, normalized Elo, likelihood of superiority and
//!   the generalized SPRT.
//! - [`moderate`]: empirical-Bayes moderation of many small-sample
//!   variances (Smyth 2004), each pulled toward a prior fitted from all.
//! - [`means`]: a group's mean with its interval (Student's t), Welch's
//!   difference of two means and a bootstrap difference of two spreads.
//! - [`regression`]: least squares with HC3 and HC1 robust standard errors
//!   (nalgebra underneath).
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
//! - [`rank`]: rank intervals for a ranking by closeness to a reference,
//!   all positions at once.
//! - [`verdict`]: per-position verdicts (`balanced`, `more-for-white`,
//!   `less-for-white`, `unresolved`) with Benjamini–Hochberg q-values.
//! - [`consensus`]: several engines' per-position means on one scale.
//! - [`wdl`]: win, draw and loss chances of an engine match from an
//!   opening's score, a logistic model fitted to games played.
//! - [`rng`]: the seeded random numbers the methods and simulations use.

pub mod adaptive;
pub mod agreement;
pub mod consensus;
pub mod difficulty;
pub mod elo;
pub mod interval;
pub mod means;
pub mod moderate;
pub mod normal;
pub mod rank;
pub mod regression;
pub mod reliability;
pub mod rng;
pub mod sequential;
pub mod shrink;
pub mod student;
pub mod verdict;
pub mod wdl;

/// The confidence level of every interval c960 reports (95 %).
pub const LEVEL: f64 = 0.95;

/// A statistic with its interval at [`LEVEL`].
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}
