//! What the DFRC report says about one sweep of Double Fischer Random
//! Chess setups ([`analyse`]): White's advantage by each per-side feature
//! and each asymmetry (group means with intervals), a regression on the
//! per-side features with robust intervals, the symmetric setups against
//! the rest, and each setup's verdict with its q-value. The report reads
//! the sweep and renders this [`Analysis`]; it computes none of it.
//!
//! Group means, the regression and the symmetric comparison treat the
//! setups as a sample of all 921,600: their intervals come from the spread
//! between setups (which includes each search's noise), so they are valid
//! with one search per setup. Per-setup verdicts need each setup's own
//! error, which only repeated searches measure.

// Counts of setups convert to floats without loss.
#![allow(clippy::cast_precision_loss)]

use std::collections::BTreeMap;

/// The figures an [`Analysis`] holds, as `c960-balance` types them.
pub use c960_balance::{
    means::{Difference, MeanInterval},
    regression::{Coefficient, Regression},
};
use c960_balance::{
    means::{mean, sd_difference, se_of, welch},
    regression::ols,
    reliability::{components, describe},
    shrink::shrink,
    verdict::{Band, Claims, Decision, Verdict, decide},
};
use c960_core::{DfrcFeatures, DfrcRecord, DfrcSetup};
use c960_store::Repeatability;
use serde::Serialize;

mod features;

pub use features::{FEATURES, Feature, FeatureKind, PER_SIDE};

/// One setup's score in a sweep, as the report reads it from the sweep's
/// table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SetupScore {
    /// The setup.
    pub setup: DfrcSetup,
    /// White's advantage in centipawns: the mean over the setup's searches
    /// (a mate counts as the sweep's own means count it).
    pub cp: f64,
    /// The standard deviation of its searches (two or more searches).
    pub cp_sd: Option<f64>,
    /// Searches that finished.
    pub searches: u32,
    /// White's expected score from the engine's WDL, when it reported one.
    pub expected: Option<f64>,
}

/// One sweep to analyse: its label, one score per setup (by index) and
/// the repeatability its manifest recorded.
#[derive(Copy, Clone, Debug)]
pub struct Sweep<'a> {
    /// Its label.
    pub label: &'a str,
    /// One score per setup, by index.
    pub scores: &'a [SetupScore],
    /// The repeatability the sweep recorded, as written in its manifest.
    pub repeatability: Option<Repeatability>,
}

/// How verdicts are made.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Half width of the balanced band around the mean of all setups,
    /// centipawns.
    pub band_cp: f64,
    /// False discovery rate of the verdicts.
    pub level: f64,
    /// Setups listed as most and as least balanced.
    pub extremes: usize,
    /// Bootstrap resamples for the difference in spread.
    pub resamples: usize,
    /// Seed of the bootstrap.
    pub seed: u64,
}

impl Default for Settings {
    /// ±10 cp, FDR 5% (as the Chess960 report), 15 setups each way, 1,000
    /// resamples, seed 0.
    fn default() -> Settings {
        Settings {
            band_cp: 10.0,
            level: 0.05,
            extremes: 15,
            resamples: 1000,
            seed: 0,
        }
    }
}

/// One group of setups: those where a feature has one value.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    /// The feature's name.
    pub feature: &'static str,
    /// Per side or asymmetry.
    pub kind: FeatureKind,
    /// The feature's value.
    pub value: i32,
    /// White's advantage in the group, centipawns.
    pub cp: MeanInterval,
    /// White's expected score from WDL in the group, when the engine
    /// reported WDL for all its setups.
    pub expected: Option<MeanInterval>,
}

/// The symmetric setups (the Chess960 positions) against the rest.
#[derive(Clone, Debug, Serialize)]
pub struct Symmetric {
    /// The symmetric setups' advantage.
    pub symmetric: MeanInterval,
    /// The asymmetric setups'.
    pub rest: MeanInterval,
    /// Mean, symmetric minus rest (Welch).
    pub mean_difference: Option<Difference>,
    /// Standard deviation between setups, symmetric minus rest (seeded
    /// percentile bootstrap).
    pub sd_difference: Option<Difference>,
}

/// How noisy one search is, from the repeats.
#[derive(Clone, Debug, Serialize)]
pub struct Noise {
    /// The most searches any setup has.
    pub searches: u32,
    /// Setups with two or more searches.
    pub repeated: usize,
    /// The pooled standard deviation of one search, centipawns (with
    /// repeats).
    pub search_sd: Option<f64>,
    /// The repeatability the sweep recorded (split-half of its repeats),
    /// as written in its manifest.
    pub repeatability: Option<Repeatability>,
    /// Variance-components reliability of the per-setup means.
    pub reliability: Option<f64>,
    /// What that reliability means.
    pub words: String,
}

/// One setup's figures.
#[derive(Clone, Debug, Serialize)]
pub struct SetupRow {
    /// The setup index.
    pub setup: u32,
    /// White's SP.
    pub white_sp: u16,
    /// Black's SP.
    pub black_sp: u16,
    /// Both back ranks, White's first.
    pub placement: String,
    /// Whether it is a Chess960 position.
    pub symmetric: bool,
    /// Searches.
    pub searches: u32,
    /// White's advantage, centipawns.
    pub cp: f64,
    /// Its standard error (from the repeats).
    pub se: Option<f64>,
    /// 95% interval, lower end.
    pub low: Option<f64>,
    /// Upper end.
    pub high: Option<f64>,
    /// Shrunk toward the mean of all setups (with repeats).
    pub shrunk: Option<f64>,
    /// White's expected score from WDL.
    pub expected: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// Its q-value.
    pub q_value: f64,
}

/// Everything the report says about one sweep.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The run's label.
    pub label: String,
    /// Settings.
    pub settings: Settings,
    /// White's advantage over all setups with a score.
    pub overall: Option<MeanInterval>,
    /// White's expected score over all setups, when all have WDL.
    pub overall_expected: Option<MeanInterval>,
    /// The noise of one search and the reliability of the setup means.
    pub noise: Noise,
    /// Group means for every feature and value.
    pub groups: Vec<Group>,
    /// White's advantage regressed on the per-side features.
    pub regression: Option<Regression>,
    /// The symmetric setups against the rest.
    pub symmetric: Symmetric,
    /// Setups per verdict.
    pub verdicts: BTreeMap<String, usize>,
    /// Whether verdicts could be decided (the sweep has repeats).
    pub decided: bool,
    /// The most balanced setups (closest to the mean of all setups).
    pub most_balanced: Vec<SetupRow>,
    /// The least balanced.
    pub least_balanced: Vec<SetupRow>,
    /// Every setup, by index.
    #[serde(skip)]
    pub rows: Vec<SetupRow>,
}

/// A setup's figures with its features.
struct Described<'a> {
    score: &'a SetupScore,
    values: [i32; FEATURES.len()],
}

/// Analyses one sweep.
#[must_use]
pub fn analyse(run: Sweep, settings: Settings) -> Analysis {
    let described: Vec<Described> = run
        .scores
        .iter()
        .map(|score| {
            let record = DfrcRecord::from(&DfrcFeatures::of(score.setup));
            Described {
                score,
                values: FEATURES.map(|f| (f.value)(&record)),
            }
        })
        .collect();
    analyse_described(run, &described, settings)
}

/// The setups grouped by each value of each feature, with their means.
fn feature_groups(described: &[Described]) -> Vec<Group> {
    let mut groups = Vec::new();
    for (k, feature) in FEATURES.iter().enumerate() {
        let mut by_value: BTreeMap<i32, Vec<&Described>> = BTreeMap::new();
        for d in described {
            by_value.entry(d.values[k]).or_default().push(d);
        }
        for (value, members) in by_value {
            let cp: Vec<f64> = members.iter().map(|d| d.score.cp).collect();
            let expected: Option<Vec<f64>> = members.iter().map(|d| d.score.expected).collect();
            groups.push(Group {
                feature: feature.name,
                kind: feature.kind,
                value,
                cp: MeanInterval::of(&cp).expect("a group has members"),
                expected: expected.and_then(|e| MeanInterval::of(&e)),
            });
        }
    }
    groups
}

/// The symmetric setups against the rest: means, and the differences of
/// mean and spread.
fn symmetric(described: &[Described], settings: Settings) -> Symmetric {
    let (sym, rest): (Vec<f64>, Vec<f64>) = {
        let (s, r): (Vec<&Described>, Vec<&Described>) =
            described.iter().partition(|d| d.score.setup.is_symmetric());
        (
            s.iter().map(|d| d.score.cp).collect(),
            r.iter().map(|d| d.score.cp).collect(),
        )
    };
    Symmetric {
        symmetric: MeanInterval::of(&sym).unwrap_or(EMPTY),
        rest: MeanInterval::of(&rest).unwrap_or(EMPTY),
        mean_difference: welch(&sym, &rest),
        sd_difference: sd_difference(&sym, &rest, settings.resamples, settings.seed),
    }
}

fn analyse_described(run: Sweep, described: &[Described], settings: Settings) -> Analysis {
    let cps: Vec<f64> = described.iter().map(|d| d.score.cp).collect();
    let all_expected: Option<Vec<f64>> = described.iter().map(|d| d.score.expected).collect();
    let groups = feature_groups(described);
    let names: Vec<&str> = FEATURES[..PER_SIDE].iter().map(|f| f.name).collect();
    let x: Vec<Vec<f64>> = described
        .iter()
        .map(|d| d.values[..PER_SIDE].iter().map(|v| f64::from(*v)).collect())
        .collect();
    let symmetric = symmetric(described, settings);
    let noise = noise(run);
    let (rows, decided) = setup_rows(run.scores, noise.search_sd, settings);
    let noise = Noise {
        reliability: {
            let ses: Option<Vec<f64>> = rows.iter().map(|r| r.se).collect();
            ses.and_then(|s| components(&cps, &s))
                .map(|c| c.reliability)
        },
        ..noise
    };
    let noise = Noise {
        words: if decided {
            describe(noise.reliability).to_owned()
        } else {
            "one search per setup: the search noise is not measured, so no setup gets an \
             interval or a verdict of its own (sweep with --repeats to measure it); group \
             means, the regression and the comparisons rest on the spread between setups"
                .to_owned()
        },
        ..noise
    };
    let mut verdicts: BTreeMap<String, usize> = Verdict::ALL
        .iter()
        .map(|v| (v.name().to_owned(), 0))
        .collect();
    for r in &rows {
        *verdicts.entry(r.verdict.name().to_owned()).or_default() += 1;
    }
    let (most_balanced, least_balanced) = extremes(&rows, settings.extremes);
    Analysis {
        label: run.label.to_owned(),
        settings,
        overall: MeanInterval::of(&cps),
        overall_expected: all_expected.and_then(|e| MeanInterval::of(&e)),
        noise,
        groups,
        regression: ols(&names, &x, &cps),
        symmetric,
        verdicts,
        decided,
        most_balanced,
        least_balanced,
        rows,
    }
}

/// A group without setups.
const EMPTY: MeanInterval = MeanInterval {
    n: 0,
    mean: f64::NAN,
    sd: None,
    low: None,
    high: None,
};

/// The noise of one search, pooled over the setups with repeats.
fn noise(run: Sweep) -> Noise {
    let repeated_sds = || {
        run.scores
            .iter()
            .filter_map(|s| s.cp_sd.map(|sd| (sd, s.searches)))
            .filter(|&(_, searches)| searches >= 2)
    };
    let repeated = repeated_sds().count();
    Noise {
        searches: run.scores.iter().map(|s| s.searches).max().unwrap_or(0),
        repeated,
        search_sd: c960_balance::means::pooled_sd(repeated_sds()),
        repeatability: run.repeatability,
        reliability: None,
        words: String::new(),
    }
}

/// Searches from which a setup's own spread gives its standard error; with
/// fewer, the noise of one search pooled over all setups does (a spread
/// from a handful of searches is too rough to be taken as known: with four,
/// a normal 95% interval would cover the truth only about 88 times in 100).
pub const OWN_SE_FROM: u32 = 10;

/// Every setup's row with its verdict; whether verdicts were decided.
fn setup_rows(
    scores: &[SetupScore],
    search_sd: Option<f64>,
    settings: Settings,
) -> (Vec<SetupRow>, bool) {
    let se = |s: &SetupScore| match (s.cp_sd, search_sd) {
        (Some(sd), _) if s.searches >= OWN_SE_FROM => Some(se_of(sd, s.searches)),
        (_, Some(pooled)) => Some(se_of(pooled, s.searches)),
        _ => None,
    };
    let ses: Option<Vec<f64>> = scores.iter().map(se).collect();
    let cps: Vec<f64> = scores.iter().map(|s| s.cp).collect();
    let centre = mean(&cps).unwrap_or(0.0);
    let band = Band {
        centre,
        half_width: settings.band_cp,
    };
    let unresolved = Decision {
        verdict: Verdict::Unresolved,
        candidate: Verdict::Unresolved,
        p_value: 1.0,
        q_value: 1.0,
    };
    let (decisions, shrunk) = match &ses {
        Some(ses) => {
            let claims: Vec<Claims> = cps
                .iter()
                .zip(ses)
                .map(|(cp, se)| Claims::normal(*cp, *se, band))
                .collect();
            let shrunk = shrink(&cps, ses, c960_balance::LEVEL).map(|(_, rows)| rows);
            (decide(&claims, settings.level), shrunk)
        }
        None => (vec![unresolved; scores.len()], None),
    };
    let rows = scores
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let se = ses.as_ref().map(|v| v[i]);
            SetupRow {
                setup: s.setup.index(),
                white_sp: s.setup.white().sp(),
                black_sp: s.setup.black().sp(),
                placement: s.setup.placement(),
                symmetric: s.setup.is_symmetric(),
                searches: s.searches,
                cp: s.cp,
                se,
                low: se.map(|e| s.cp - c960_balance::normal::two_sided(c960_balance::LEVEL) * e),
                high: se.map(|e| s.cp + c960_balance::normal::two_sided(c960_balance::LEVEL) * e),
                shrunk: shrunk.as_ref().map(|r| r[i].estimate),
                expected: s.expected,
                verdict: decisions[i].verdict,
                q_value: decisions[i].q_value,
            }
        })
        .collect();
    (rows, ses.is_some())
}

/// The `n` setups closest to the mean of all setups and the `n` farthest
/// from it, by their shrunk estimates when there are any.
fn extremes(rows: &[SetupRow], n: usize) -> (Vec<SetupRow>, Vec<SetupRow>) {
    let value = |r: &SetupRow| r.shrunk.unwrap_or(r.cp);
    let values: Vec<f64> = rows.iter().map(value).collect();
    let centre = mean(&values).unwrap_or(0.0);
    let mut order: Vec<&SetupRow> = rows.iter().collect();
    order.sort_by(|a, b| {
        (value(a) - centre)
            .abs()
            .total_cmp(&(value(b) - centre).abs())
            .then(a.setup.cmp(&b.setup))
    });
    let most = order.iter().take(n).map(|r| (*r).clone()).collect();
    let least = order.iter().rev().take(n).map(|r| (*r).clone()).collect();
    (most, least)
}

#[cfg(test)]
mod tests;
