//! Each position's draw chance and White's expected score, from the
//! raters' WDL: the win, draw and loss per mille an engine's model gives
//! the searched position. They are combined by the same one-factor
//! consensus as the centipawn scores (`c960_balance::consensus`): one
//! common scale (the first rater's), copies merged into one rater, a rater
//! running against the others or without spread refused, each position's
//! interval its own (its raters' disagreement there, moderated toward
//! positions of its size). A rater that reports no WDL (an engine without a WDL
//! model) is left out and named; with fewer than two raters left there is
//! no interval, so no figure is published.
//!
//! What the figures mean: each engine's model of games between strong
//! engines at long time control, fitted on other openings and extrapolated
//! to the start position; not results of human games.
//!
//! Their reliability is how the raters agree with each other: split-half
//! over raters (with a percentile-bootstrap interval over positions), and
//! each rater's correlation with the consensus of the others.

use std::collections::BTreeMap;

use c960_balance::{
    agreement::{Bootstrap, Comparison, compare},
    consensus::{EngineMeans, Merged, Weights, consensus},
    means::se,
    reliability::SplitHalf,
    rng::Rng,
};
use serde::Serialize;

use super::estimate::SPLITS;

/// One search's WDL: rater, SP, and White's win, draw and loss per mille.
pub(super) type WdlRow = (String, u16, [f64; 3]);

/// Bootstrap resamples of the split-half reliability's interval.
const SPLIT_HALF_RESAMPLES: usize = 200;

/// Bootstrap resamples of each rater's agreement with the others.
const RATER_RESAMPLES: usize = 1000;

/// One position's draw chance and White's expected score (0..1), each with
/// its 95 % interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeRow {
    /// Raters with a WDL model that searched the position.
    pub raters: usize,
    /// The chance that the game is drawn.
    pub draw: f64,
    /// Its interval's low end.
    pub draw_low: f64,
    /// Its high end.
    pub draw_high: f64,
    /// White's expected score: win plus half the draw chance.
    pub expected: f64,
    /// Its interval's low end.
    pub expected_low: f64,
    /// Its high end.
    pub expected_high: f64,
}

/// How well one figure's raters agree.
#[derive(Clone, Debug, Serialize)]
pub struct Reliability {
    /// Split-half reliability over raters (projected to all of them).
    pub split_half: Option<SplitHalf>,
    /// Its 95 % percentile-bootstrap interval over positions.
    pub split_half_low: Option<f64>,
    /// Its high end.
    pub split_half_high: Option<f64>,
    /// Each rater against the consensus of the others.
    pub per_rater: Vec<RaterAgreement>,
}

/// One rater against the others.
#[derive(Clone, Debug, Serialize)]
pub struct RaterAgreement {
    /// The rater.
    pub rater: String,
    /// Its values against the weighted mean of the other raters' on the
    /// common scale (Pearson's and Spearman's correlation with bootstrap
    /// intervals over positions).
    pub with_others: Comparison,
}

/// The draw chance and expected score of every position, and how they
/// were made.
#[derive(Clone, Debug, Serialize)]
pub struct Outcomes {
    /// The raters whose WDL is combined (the first is the scale).
    pub raters: Vec<String>,
    /// Raters left out: they report no WDL.
    pub left_out: Vec<String>,
    /// Raters merged into another as its copies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<Merged>,
    /// The draw chance's reliability.
    pub draw: Reliability,
    /// The expected score's reliability.
    pub expected: Reliability,
    /// What the figures are, in words.
    pub meaning: String,
    /// Per position, by SP.
    #[serde(skip)]
    pub rows: BTreeMap<u16, OutcomeRow>,
}

/// What the figures mean (also in `balance.json`).
pub const MEANING: &str = "draw chance and White's expected score are the engines' WDL models \
    (win, draw and loss per mille at the end of each search) combined by the same consensus as \
    the centipawn scores, on the first WDL rater's scale: each engine's model of games between \
    strong engines at long time control, fitted on other openings and extrapolated to the start; \
    not results of human games";

#[allow(clippy::cast_precision_loss)]
/// The draw chance and expected score from the WDL of the searches `wdl`;
/// `raters` are all the sweeps' raters in order (those without a WDL row
/// are left out). `Err` says, in words, why there is none.
pub(super) fn outcome(
    raters: &[String],
    wdl: &[WdlRow],
    weights: Weights,
    seed: u64,
) -> Result<Outcomes, String> {
    let with: Vec<&String> = raters
        .iter()
        .filter(|r| wdl.iter().any(|w| &w.0 == *r))
        .collect();
    let left_out: Vec<String> = raters
        .iter()
        .filter(|r| !with.contains(r))
        .cloned()
        .collect();
    if with.len() < 2 {
        return Err(format!(
            "{} WDL (a draw chance needs two or more, whose disagreement gives its interval){}",
            c960_core::plural(with.len(), "rater reports", "raters report"),
            if left_out.is_empty() {
                String::new()
            } else {
                format!("; without a WDL model: {}", left_out.join(", "))
            }
        ));
    }
    let sps: Vec<u16> = {
        let mut s: Vec<u16> = wdl.iter().map(|w| w.1).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let why = |what: &str, e: c960_balance::consensus::RaterError| format!("{what}: {e}");
    let draw = consensus(
        &means_of(&with, &sps, wdl, |w| w[1] / 1000.0),
        c960_balance::LEVEL,
        weights,
    )
    .map_err(|e| why("draw chance", e))?;
    let expected = consensus(
        &means_of(&with, &sps, wdl, |w| (w[0] + w[1] / 2.0) / 1000.0),
        c960_balance::LEVEL,
        weights,
    )
    .map_err(|e| why("expected score", e))?;
    if draw.engines.len() < 2 || expected.engines.len() < 2 {
        return Err(format!(
            "the raters with WDL are copies of one rater ({}): one rater gives no interval",
            draw.merged
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let rows = rows_of(&sps, &draw, &expected);
    let kept: Vec<String> = draw.engines.iter().map(|e| e.name.clone()).collect();
    Ok(Outcomes {
        raters: kept,
        left_out,
        merged: draw.merged.clone(),
        draw: reliability(&draw, seed),
        expected: reliability(&expected, seed),
        meaning: MEANING.to_owned(),
        rows,
    })
}

/// Each position's row from the two consensuses, shares kept in 0..1.
fn rows_of(
    sps: &[u16],
    draw: &c960_balance::consensus::Consensus,
    expected: &c960_balance::consensus::Consensus,
) -> BTreeMap<u16, OutcomeRow> {
    let unit = |x: f64| x.clamp(0.0, 1.0);
    sps.iter()
        .enumerate()
        .filter_map(|(i, sp)| {
            let (d, e) = (draw.positions[i]?, expected.positions[i]?);
            Some((
                *sp,
                OutcomeRow {
                    raters: d.engines,
                    draw: unit(d.estimate),
                    draw_low: unit(d.low),
                    draw_high: unit(d.high),
                    expected: unit(e.estimate),
                    expected_low: unit(e.low),
                    expected_high: unit(e.high),
                },
            ))
        })
        .collect()
}

/// Each of the raters `with`'s per-position mean of `value` of its WDL
/// rows over the positions `sps`, with its standard error over repeats.
#[allow(clippy::cast_precision_loss)]
fn means_of(
    with: &[&String],
    sps: &[u16],
    wdl: &[WdlRow],
    value: fn(&[f64; 3]) -> f64,
) -> Vec<EngineMeans> {
    with.iter()
        .map(|rater| {
            let mut by_sp: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
            for (_, sp, w) in wdl.iter().filter(|w| &w.0 == *rater) {
                by_sp.entry(*sp).or_default().push(value(w));
            }
            EngineMeans {
                name: (*rater).clone(),
                means: sps
                    .iter()
                    .map(|sp| {
                        by_sp
                            .get(sp)
                            .map(|v| v.iter().sum::<f64>() / v.len() as f64)
                    })
                    .collect(),
                ses: sps
                    .iter()
                    .map(|sp| by_sp.get(sp).and_then(|v| se(v)))
                    .collect(),
            }
        })
        .collect()
}

/// How the raters of `result` agree: split-half with its bootstrap
/// interval, and each rater against the others.
fn reliability(result: &c960_balance::consensus::Consensus, seed: u64) -> Reliability {
    let split_half = result.split_half(SPLITS, seed);
    let (low, high) = match split_half {
        Some(_) => {
            let mut rng = Rng::new(seed);
            let n = result.common.len();
            let mut draws = Vec::with_capacity(SPLIT_HALF_RESAMPLES);
            let mut resampled = result.clone();
            for _ in 0..SPLIT_HALF_RESAMPLES {
                resampled.common = (0..n)
                    .map(|_| result.common[rng.index(n)].clone())
                    .collect();
                if let Some(r) = resampled.split_half(SPLITS, seed) {
                    draws.push(r.whole);
                }
            }
            percentile_interval(draws)
        }
        None => (None, None),
    };
    let raters = result.weights.len();
    let per_rater = (0..raters)
        .filter_map(|e| {
            let (ours, theirs): (Vec<f64>, Vec<f64>) = result
                .common
                .iter()
                .filter_map(|views| {
                    let own = views[e]?;
                    let (mut sw, mut swu) = (0.0, 0.0);
                    for (f, view) in views.iter().enumerate() {
                        if let (true, Some(u)) = (f != e, view) {
                            sw += result.weights[f];
                            swu += result.weights[f] * u;
                        }
                    }
                    (sw > 0.0).then(|| (own, swu / sw))
                })
                .unzip();
            let bootstrap = Bootstrap {
                resamples: RATER_RESAMPLES,
                seed,
                level: c960_balance::LEVEL,
            };
            Some(RaterAgreement {
                rater: result.engines[e].name.clone(),
                with_others: compare(&ours, &theirs, bootstrap)?,
            })
        })
        .collect();
    Reliability {
        split_half,
        split_half_low: low,
        split_half_high: high,
        per_rater,
    }
}

/// The 2.5th and 97.5th percentiles of `draws` (nearest rank).
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn percentile_interval(mut draws: Vec<f64>) -> (Option<f64>, Option<f64>) {
    if draws.len() < 20 {
        return (None, None);
    }
    draws.sort_by(f64::total_cmp);
    let at = |p: f64| draws[((p * draws.len() as f64).ceil() as usize).clamp(1, draws.len()) - 1];
    let tail = (1.0 - c960_balance::LEVEL) / 2.0;
    (Some(at(tail)), Some(at(1.0 - tail)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raters whose WDL follows a known draw chance per position, each
    /// with its own noise: the consensus recovers the truth's order, covers
    /// it, and names a rater without WDL.
    #[test]
    fn the_raters_wdl_give_each_position_a_draw_chance_with_an_interval() {
        let mut rng = Rng::new(7);
        let truth: Vec<f64> = (0..200).map(|i| 0.6 + 0.3 * f64::from(i) / 200.0).collect();
        let mut wdl = Vec::new();
        for (r, noise) in [0.03, 0.045, 0.06, 0.036].iter().enumerate() {
            for (sp, t) in truth.iter().enumerate() {
                let d = (t + noise * (rng.uniform() * 2.0 - 1.0) * 1.7).clamp(0.0, 1.0);
                let w = (1.0 - d) * 0.6;
                wdl.push((
                    format!("rater {r}"),
                    u16::try_from(sp).unwrap(),
                    [w * 1000.0, d * 1000.0, (1.0 - d - w) * 1000.0],
                ));
            }
        }
        let raters: Vec<String> = (0..4)
            .map(|r| format!("rater {r}"))
            .chain(["no wdl".to_owned()])
            .collect();
        let out = outcome(&raters, &wdl, Weights::Data, 0).unwrap();
        assert_eq!(out.left_out, vec!["no wdl".to_owned()]);
        assert_eq!(out.rows.len(), 200);
        let covered = out
            .rows
            .iter()
            .filter(|(sp, r)| {
                let t = truth[usize::from(**sp)];
                r.draw_low <= t && t <= r.draw_high
            })
            .count();
        assert!(covered >= 180, "{covered} of 200 intervals hold the truth");
        let r = out.draw.split_half.unwrap().whole;
        assert!(r > 0.8, "split-half {r}");
        let (low, high) = (
            out.draw.split_half_low.unwrap(),
            out.draw.split_half_high.unwrap(),
        );
        assert!(low <= r && r <= high && high - low < 0.1, "{low}..{high}");
        assert_eq!(out.draw.per_rater.len(), 4);
        for row in out.rows.values() {
            assert!((0.0..=1.0).contains(&row.expected_low) && row.expected_low <= row.expected);
            assert!(row.draw_low <= row.draw && row.draw <= row.draw_high);
        }
    }

    #[test]
    fn one_rater_with_wdl_gives_no_draw_chance_and_says_why() {
        let wdl: Vec<WdlRow> = (0..50u16)
            .map(|sp| {
                (
                    "a".to_owned(),
                    sp,
                    [100.0, 800.0 + f64::from(sp), 100.0 - f64::from(sp)],
                )
            })
            .collect();
        let why = outcome(&["a".to_owned(), "b".to_owned()], &wdl, Weights::Data, 0).unwrap_err();
        assert!(
            why.contains("1 rater reports WDL") && why.contains("without a WDL model: b"),
            "{why}"
        );
    }
}
