//! Balance verdicts from runs: per-position estimates, intervals and
//! verdicts with error control, with the reliability of each method
//! (`c960 balance`). The statistics are `c960-balance`'s; this module reads
//! run tables and writes the verdict table.
//!
//! - **Games** (self-play or imported, `games.parquet`): each position's
//!   White scores in game order give an anytime-valid confidence sequence
//!   (valid however the number of games was chosen, adaptive play included)
//!   and anytime-valid p-values for the verdicts — or, with `fixed_n` when
//!   the games per position were fixed before play, normal intervals and
//!   tests, which are narrower; the estimate is shrunk
//!   toward the mean of all games (normal–normal empirical Bayes with the
//!   pooled per-game variance); reliability is split-half over games.
//! - **Sweeps** (`sweep.parquet`): runs of the same engine and limit are
//!   repeats (and a `repeat` column, where present, too); each engine's
//!   per-position mean and standard error feed the multi-engine consensus
//!   (see `c960_balance::consensus`), on the first engine's centipawn
//!   scale, each position's interval its own (the raters' disagreement
//!   there, moderated toward positions of its size); repeatability is split-half
//!   over repeats. Verdicts take the consensus estimate, its standard
//!   error and its degrees of freedom as Student's t.
//!
//! The verdict a position gets comes from one method, by default the one
//! whose per-position estimates are more reliable (split-half; a method
//! whose reliability is not measured above 0 never wins, and games win a
//! tie), falling back to the other method for positions the chosen
//! one has no data on; both sets of columns are kept.
//!
//! `input` reads the tables, `estimate` computes from them; this module
//! holds the settings, the result and its table.

use std::{collections::BTreeMap, path::PathBuf};

use c960_balance::{
    reliability::{SplitHalf, describe},
    verdict::Decision,
};
use c960_core::{POSITION_COUNT, StartPosition};
use serde::Serialize;

use crate::{BalanceRow, Interval, VerdictError};

mod columns;
pub use columns::compute_into;
mod difficulty;
mod estimate;
mod input;
mod outcome;
mod rater_mean;

pub use difficulty::{Difficulty, MEANING as DIFFICULTY_MEANING};
use estimate::{count, from_games, from_sweeps};
pub use input::is_routine;
use input::{Seen, read_games, read_sweep, searches, table};
pub use outcome::{MEANING as OUTCOME_MEANING, OutcomeRow, Outcomes, RaterAgreement, Reliability};
pub use rater_mean::RaterMean;
use rater_mean::first_rater_means;

/// The verdict table's file names.
pub use c960_store::BALANCE_CSV;

pub use crate::row::Method;

/// The summary with reliability and settings.
pub const BALANCE_JSON: &str = "balance.json";

/// What counts as balanced and the error rate.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Half width of the balanced band for game scores (White's score).
    pub band_score: f64,
    /// Half width of the balanced band for engine scores (centipawns).
    pub band_cp: f64,
    /// False discovery rate of the verdicts.
    pub level: f64,
    /// Seed of the random splits for split-half reliability.
    pub seed: u64,
    /// The number of games per position was fixed before play (uniform
    /// play, no stopping by results): fixed-n normal intervals and tests
    /// instead of anytime-valid ones (narrower; wrong after adaptive play).
    pub fixed_n: bool,
    /// Which method gives each position its verdict.
    pub verdicts_from: VerdictsFrom,
    /// How the sweep consensus weights its raters.
    pub weights: c960_balance::consensus::Weights,
}

impl Default for Settings {
    /// ±0.02 in White's score, ±10 cp, FDR 5%, seed 0, verdicts from the
    /// more reliable method.
    fn default() -> Settings {
        Settings {
            band_score: 0.02,
            band_cp: 10.0,
            level: 0.05,
            seed: 0,
            fixed_n: false,
            verdicts_from: VerdictsFrom::MoreReliable,
            weights: c960_balance::consensus::Weights::Data,
        }
    }
}

/// Which method gives each position its verdict when there are both games
/// and sweeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictsFrom {
    /// The method with the higher split-half reliability (one not measured
    /// above 0 never wins; games win a tie).
    MoreReliable,
    /// The games.
    Games,
    /// The consensus sweep.
    Sweep,
}

/// One position's figures from games.
#[derive(Clone, Debug, Serialize)]
pub struct GamesRow {
    /// Games.
    pub games: u64,
    /// White's mean score.
    pub score: f64,
    /// Anytime-valid 95% interval of the score.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Shrunk estimate.
    pub shrunk: f64,
    /// Its 95% interval.
    pub shrunk_low: f64,
    /// Its upper end.
    pub shrunk_high: f64,
    /// The shrunk estimate's standard deviation.
    pub shrunk_sd: f64,
    /// The verdict from games.
    pub decision: Decision,
}

/// One position's figures from the consensus sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepRow {
    /// Engines that scored it.
    pub engines: usize,
    /// Consensus estimate, centipawns on the reference engine's scale.
    pub estimate: f64,
    /// Its 95% interval.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Its standard error.
    pub se: f64,
    /// The degrees of freedom of the Student's t behind its interval and
    /// verdict (infinite: normal).
    pub df: f64,
    /// The raters' disagreement at the position against the model's (see
    /// `c960_balance::consensus::Estimate::spread`).
    pub spread: f64,
    /// Shrunk estimate.
    pub shrunk: f64,
    /// Its 95% interval.
    pub shrunk_low: f64,
    /// Its upper end.
    pub shrunk_high: f64,
    /// The shrunk estimate's standard deviation.
    pub shrunk_sd: f64,
    /// The verdict from the sweep.
    pub decision: Decision,
}

/// One engine's sweeps.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// Engine and limit.
    pub name: String,
    /// Repeats per position (the most any position has).
    pub repeats: usize,
    /// Split-half repeatability of its per-position means (none with one
    /// repeat).
    pub repeatability: Option<SplitHalf>,
}

/// Reliability and counts of one method.
#[derive(Clone, Debug, Serialize)]
pub struct MethodSummary {
    /// Split-half reliability of the per-position estimates.
    pub reliability: Option<SplitHalf>,
    /// Variance-components reliability (average per position).
    pub components_reliability: Option<f64>,
    /// What the reliability means, in words.
    pub words: String,
    /// The all-position mean the band is centred on.
    pub mean: f64,
    /// The band's half width.
    pub band: f64,
    /// Positions per verdict.
    pub verdicts: BTreeMap<String, usize>,
}

impl MethodSummary {
    fn new(
        reliability: Option<SplitHalf>,
        components_reliability: Option<f64>,
        mean: f64,
        band: f64,
        decisions: &[Decision],
    ) -> MethodSummary {
        MethodSummary {
            words: describe(reliability.map(|r| r.whole)).to_owned(),
            reliability,
            components_reliability,
            mean,
            band,
            verdicts: count(decisions),
        }
    }
}

/// Everything `c960 balance` computes.
#[derive(Clone, Debug, Serialize)]
pub struct Balance {
    /// Settings.
    pub settings: Settings,
    /// Games' method, when there were games.
    pub games: Option<MethodSummary>,
    /// Sweeps' method, when there were sweeps.
    pub sweep: Option<MethodSummary>,
    /// The method whose verdicts the positions get (the other's fill in
    /// positions it has no data on).
    pub verdict_method: Method,
    /// Each engine's repeats and repeatability.
    pub engines: Vec<EngineSummary>,
    /// Agreement between engines.
    pub agreement: Vec<c960_balance::consensus::Agreement>,
    /// Raters found to be copies of others and merged into them (each is
    /// also named on stderr).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<c960_balance::consensus::Merged>,
    /// The consensus raters' disagreement against its model's, pooled, and
    /// the prior each position's own is moderated toward (absent with fewer
    /// than two raters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moderation: Option<c960_balance::consensus::Moderation>,
    /// Each position's draw chance and White's expected score from the
    /// raters' WDL, when two or more raters report one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcomes>,
    /// Why there is no draw chance, when there are sweeps but none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_outcome: Option<String>,
    /// How hard each position's first two moves are, from a sweep with
    /// replies ([`Balance::with_difficulty`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<Difficulty>,
    /// Per position (by SP) from games.
    #[serde(skip)]
    pub games_rows: BTreeMap<u16, GamesRow>,
    /// Per position (by SP) from sweeps.
    #[serde(skip)]
    pub sweep_rows: BTreeMap<u16, SweepRow>,
    /// The first rater's own mean per position over its searches, where
    /// it searched the position more than once (the reference rater whose
    /// scale the consensus is on).
    #[serde(skip)]
    pub first_rater: BTreeMap<u16, RaterMean>,
    /// Input files.
    pub inputs: Vec<String>,
    /// The c960 version.
    pub c960_version: String,
    /// How the figures are made.
    pub method: String,
}

const METHOD: &str = "Games: per-position anytime-valid confidence sequences (predictable plug-in \
empirical Bernstein, Waudby-Smith & Ramdas 2024) and e-process p-values; estimates shrunk toward \
the mean of all games by normal-normal empirical Bayes (Paule-Mandel signal variance, pooled \
per-game variance). Sweeps: runs of one engine and limit are repeats; engines combined by a \
one-factor consensus on the first engine's centipawn scale; each position's variance scaled by \
its raters' own disagreement (Cochran's Q over its degrees of freedom), moderated toward \
positions of its size by empirical Bayes (scaled inverse chi-square prior, Smyth 2004, its scale \
log-linear in the size of the position's estimate as in limma-trend), with Student's t \
intervals and p-values on the moderated degrees of freedom; estimates shrunk toward the mean of \
all positions (normal-normal empirical Bayes). Verdicts: the \
claim with the smallest p-value per position, doubled, and Benjamini-Hochberg q-values over all \
positions; a verdict is made where q <= the stated level. Reliability: median split-half \
correlation over 21 seeded random splits, projected by Spearman-Brown.";

/// Computes the verdicts from game tables and sweep tables (files or run
/// directories); tables that score no position are bad input.
pub fn compute(
    games: &[PathBuf],
    sweeps: &[PathBuf],
    settings: Settings,
) -> Result<Balance, VerdictError> {
    compute_any(games, sweeps, settings)?.ok_or_else(|| VerdictError::BadInput {
        path: games
            .iter()
            .chain(sweeps)
            .next()
            .cloned()
            .unwrap_or_default(),
        reason: "the tables score no position".to_owned(),
    })
}

/// What the tables given to [`compute_any`] hold.
struct Tables {
    /// Each position's game scores, over all game tables.
    scores: BTreeMap<u16, Vec<f64>>,
    /// Every search of the sweeps: (engine, SP, run, score).
    sweep_rows: Vec<(String, u16, String, f64)>,
    /// The WDL of the searches that report one.
    wdl_rows: Vec<outcome::WdlRow>,
    /// The tables read, as given.
    inputs: Vec<String>,
}

/// Reads the game tables `games` and sweep tables `sweeps`, refusing one
/// given twice (by path or content). Each run is read under its shared
/// lock: a run still being written is refused, naming its writer.
fn read_all(games: &[PathBuf], sweeps: &[PathBuf]) -> Result<Tables, VerdictError> {
    let _locks = games
        .iter()
        .chain(sweeps)
        .map(|path| c960_store::DirLock::shared(c960_store::lock_dir(path)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut inputs = Vec::new();
    let mut seen = Seen::default();
    let mut scores: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
    for path in games {
        let file = table(path, c960_store::GAMES_TABLE);
        seen.path(&file)?;
        let read = read_games(&file)?;
        seen.content(&file, &format!("{read:?}"))?;
        for (sp, s) in read {
            scores.entry(sp).or_default().extend(s);
        }
        inputs.push(file.display().to_string());
    }
    let mut sweep_rows = Vec::new();
    let mut wdl_rows = Vec::new();
    for (run, path) in sweeps.iter().enumerate() {
        let file = searches(&table(path, c960_store::SWEEP_TABLE));
        seen.path(&file)?;
        let input::SweepRead { rows: read, wdl } = read_sweep(&file, run)?;
        wdl_rows.extend(wdl);
        // The same searches under another name (a copy, or a second run
        // with the same settings and seed) would count twice.
        let content: Vec<_> = read.iter().map(|r| (&r.0, r.1, r.3.to_bits())).collect();
        seen.content(&file, &format!("{content:?}"))?;
        sweep_rows.extend(read);
        inputs.push(file.display().to_string());
    }
    Ok(Tables {
        scores,
        sweep_rows,
        wdl_rows,
        inputs,
    })
}

/// [`compute`], with `None` when the tables score no position (a sweep
/// whose every search failed, say).
pub fn compute_any(
    games: &[PathBuf],
    sweeps: &[PathBuf],
    settings: Settings,
) -> Result<Option<Balance>, VerdictError> {
    let Tables {
        scores,
        sweep_rows,
        wdl_rows,
        inputs,
    } = read_all(games, sweeps)?;
    if scores.is_empty() && sweep_rows.is_empty() {
        return Ok(None);
    }
    let (games_summary, games_rows) = if scores.is_empty() {
        (None, BTreeMap::new())
    } else {
        let (s, r) = from_games(&scores, settings);
        (Some(s), r)
    };
    let sweeps = if sweep_rows.is_empty() {
        None
    } else {
        Some(from_sweeps(&sweep_rows, settings)?)
    };
    let (sweep_summary, engines, agreement, sweep_map, merged, moderation) = match sweeps {
        None => (
            None,
            Vec::new(),
            Vec::new(),
            BTreeMap::new(),
            Vec::new(),
            None,
        ),
        Some(s) => (
            s.summary,
            s.engines,
            s.agreement,
            s.rows,
            s.merged,
            s.moderation,
        ),
    };
    let (outcome, no_outcome) = outcome_of(&sweep_rows, &wdl_rows, settings);
    let first_rater = first_rater_means(&sweep_rows);
    let verdict_method = choose(
        settings.verdicts_from,
        games_summary.as_ref(),
        sweep_summary.as_ref(),
    );
    Ok(Some(Balance {
        settings,
        games: games_summary,
        sweep: sweep_summary,
        verdict_method,
        engines,
        agreement,
        merged,
        moderation,
        outcome,
        no_outcome,
        difficulty: None,
        games_rows,
        sweep_rows: sweep_map,
        first_rater,
        inputs,
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        method: METHOD.to_owned(),
    }))
}

/// The draw chance and expected score from the raters that report WDL
/// (all raters in the order they first appear), or why there are none;
/// neither without sweeps.
fn outcome_of(
    sweep_rows: &[(String, u16, String, f64)],
    wdl_rows: &[outcome::WdlRow],
    settings: Settings,
) -> (Option<Outcomes>, Option<String>) {
    if sweep_rows.is_empty() {
        return (None, None);
    }
    let mut raters: Vec<String> = Vec::new();
    for (rater, ..) in sweep_rows {
        if !raters.contains(rater) {
            raters.push(rater.clone());
        }
    }
    match outcome::outcome(&raters, wdl_rows, settings.weights, settings.seed) {
        Ok(o) => (Some(o), None),
        Err(why) => (None, Some(why)),
    }
}

/// The method whose verdicts positions get: the one asked for, or the more
/// reliable of the two. A method without data never wins over one with,
/// and one whose reliability is not measured above 0 never wins over the
/// other (when neither is, the engines' view is kept: it is at least not
/// shrunk to one value).
fn choose(
    from: VerdictsFrom,
    games: Option<&MethodSummary>,
    sweep: Option<&MethodSummary>,
) -> Method {
    match (games, sweep) {
        (_, None) => Method::Games,
        (None, Some(_)) => Method::Sweep,
        (Some(g), Some(s)) => match from {
            VerdictsFrom::Games => Method::Games,
            VerdictsFrom::Sweep => Method::Sweep,
            VerdictsFrom::MoreReliable => {
                // A reliability of 0 or less is a ranking of noise: it
                // never wins over another method, measured or not.
                let informative =
                    |m: &MethodSummary| m.reliability.map(|r| r.whole).filter(|r| *r > 0.0);
                match (informative(g), informative(s)) {
                    (Some(a), Some(b)) if b > a => Method::Sweep,
                    (Some(_), _) => Method::Games,
                    (None, _) => Method::Sweep,
                }
            }
        },
    }
}

impl Balance {
    /// Each position's published balance, by SP: from the chosen method,
    /// or from the other where the chosen one has no data on the position.
    #[must_use]
    pub fn rows(&self) -> Vec<BalanceRow> {
        let finite = |low: f64, high: f64| {
            (low.is_finite() && high.is_finite()).then_some(Interval { low, high })
        };
        let of = |sp: u16, method: Method| {
            let (decision, estimate, interval, raters) = match method {
                Method::Games => self.games_rows.get(&sp).map(|r| {
                    (
                        r.decision,
                        r.shrunk,
                        finite(r.shrunk_low, r.shrunk_high),
                        None,
                    )
                })?,
                Method::Sweep => self.sweep_rows.get(&sp).map(|r| {
                    (
                        r.decision,
                        r.shrunk,
                        finite(r.shrunk_low, r.shrunk_high),
                        u32::try_from(r.engines).ok(),
                    )
                })?,
            };
            let outcome = self
                .outcome
                .as_ref()
                .and_then(|o| o.rows.get(&sp))
                .map(|o| crate::row::Outcome {
                    raters: u32::try_from(o.raters).unwrap_or(u32::MAX),
                    draw: o.draw,
                    draw_interval: Interval {
                        low: o.draw_low,
                        high: o.draw_high,
                    },
                    expected: o.expected,
                    expected_interval: Interval {
                        low: o.expected_low,
                        high: o.expected_high,
                    },
                });
            Some(BalanceRow {
                sp: StartPosition::new(sp).ok()?,
                outcome,
                difficulty: self
                    .difficulty
                    .as_ref()
                    .and_then(|d| d.rows.get(&sp).copied()),
                verdict: decision.verdict,
                q_value: Some(decision.q_value),
                method: Some(method),
                estimate: Some(estimate),
                interval,
                raters,
            })
        };
        (0..POSITION_COUNT)
            .filter_map(|sp| {
                of(sp, self.verdict_method).or_else(|| of(sp, self.verdict_method.other()))
            })
            .collect()
    }

    /// The standard deviation and the degrees of freedom of a position's
    /// published estimate (infinite degrees of freedom: normal), when it
    /// has an interval.
    #[must_use]
    pub fn error_of(&self, row: &BalanceRow) -> Option<(f64, f64)> {
        let sp = row.sp.sp();
        let (sd, df) = match row.method? {
            Method::Games => self
                .games_rows
                .get(&sp)
                .map(|r| (r.shrunk_sd, f64::INFINITY))?,
            Method::Sweep => self.sweep_rows.get(&sp).map(|r| (r.shrunk_sd, r.df))?,
        };
        (sd.is_finite() && sd > 0.0).then_some((sd, df))
    }
}
