//! The estimates: per-position sequences, shrinkage and reliability from
//! games; engine means, the consensus and its verdicts from sweeps.

use std::collections::BTreeMap;

use c960_balance::{
    consensus::{EngineMeans, Merged, consensus, prepare},
    means::pooled_variance,
    reliability::{components, split_half},
    sequential::confidence_sequence,
    shrink::{shrink, shrink_t},
    verdict::{Band, Claims, Decision, Verdict, decide},
};
use c960_core::POSITION_COUNT;

use super::{EngineSummary, GamesRow, MethodSummary, Settings, SweepRow};

/// What the sweeps give: the method's summary, each rater's repeats, the
/// raters' agreement, the per-position rows, and the raters merged as
/// copies of others.
pub(super) struct SweepResult {
    pub(super) summary: Option<MethodSummary>,
    pub(super) engines: Vec<EngineSummary>,
    pub(super) agreement: Vec<c960_balance::consensus::Agreement>,
    pub(super) rows: BTreeMap<u16, SweepRow>,
    pub(super) merged: Vec<Merged>,
    pub(super) moderation: Option<c960_balance::consensus::Moderation>,
}

/// Random splits for split-half reliability.
pub(super) const SPLITS: usize = 21;

#[allow(clippy::cast_precision_loss)]
pub(super) fn from_games(
    scores: &BTreeMap<u16, Vec<f64>>,
    settings: Settings,
) -> (MethodSummary, BTreeMap<u16, GamesRow>) {
    let all: Vec<f64> = scores.values().flatten().copied().collect();
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    // The per-game variance pooled within positions.
    let per_game = pooled_variance(scores.values().map(Vec::as_slice)).unwrap_or(0.125);
    let band = Band {
        centre: mean,
        half_width: settings.band_score,
    };
    let sps: Vec<u16> = scores.keys().copied().collect();
    let means: Vec<f64> = sps
        .iter()
        .map(|sp| scores[sp].iter().sum::<f64>() / scores[sp].len() as f64)
        .collect();
    let ses: Vec<f64> = sps
        .iter()
        .map(|sp| (per_game / scores[sp].len() as f64).sqrt())
        .collect();
    let claims: Vec<Claims> = sps
        .iter()
        .enumerate()
        .map(|(i, sp)| {
            if settings.fixed_n {
                Claims::normal(means[i], ses[i], band)
            } else {
                Claims::anytime(&scores[sp], band)
            }
        })
        .collect();
    let decisions = decide(&claims, settings.level);
    let shrunk = shrink(&means, &ses, c960_balance::LEVEL).map(|(_, rows)| rows);
    let groups: Vec<Vec<f64>> = sps.iter().map(|sp| scores[sp].clone()).collect();
    let reliability = split_half(&groups, SPLITS, settings.seed);
    let components_reliability = components(&means, &ses).map(|c| c.reliability);
    let mut rows = BTreeMap::new();
    for (i, sp) in sps.iter().enumerate() {
        let cs = score_interval(&scores[sp], means[i], ses[i], settings.fixed_n);
        // A score lies in [0, 1], and so does its interval.
        let (s, lo, hi, sd) = shrunk
            .as_ref()
            .map_or((means[i], cs.low, cs.high, f64::NAN), |r| {
                (
                    r[i].estimate,
                    r[i].low.max(0.0),
                    r[i].high.min(1.0),
                    r[i].sd,
                )
            });
        rows.insert(
            *sp,
            GamesRow {
                games: scores[sp].len() as u64,
                score: means[i],
                low: cs.low,
                high: cs.high,
                shrunk: s,
                shrunk_low: lo,
                shrunk_high: hi,
                shrunk_sd: sd,
                decision: decisions[i],
            },
        );
    }
    let summary = MethodSummary::new(
        reliability,
        components_reliability,
        mean,
        settings.band_score,
        &decisions,
    );
    (summary, rows)
}

/// A position's White score `mean` of `scores` with its 95 % interval,
/// within 0..1: normal with the standard error `se` for a fixed number of
/// games (`fixed_n`), else the anytime-valid confidence sequence.
#[allow(clippy::cast_precision_loss)]
fn score_interval(
    scores: &[f64],
    mean: f64,
    se: f64,
    fixed_n: bool,
) -> c960_balance::sequential::Sequence {
    if fixed_n {
        let (low, high) = c960_balance::normal::interval(mean, se);
        c960_balance::sequential::Sequence {
            mean,
            low: low.max(0.0),
            high: high.min(1.0),
            n: scores.len() as u64,
        }
    } else {
        confidence_sequence(scores, 0.05)
    }
}

pub(super) fn count(decisions: &[Decision]) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = Verdict::ALL
        .iter()
        .map(|v| (v.name().to_owned(), 0))
        .collect();
    for d in decisions {
        *out.entry(d.verdict.name().to_owned()).or_default() += 1;
    }
    out
}

/// Why one rater decides no verdict, in words.
pub(super) const ONE_RATER: &str = "one rater (one engine with one set of settings): how far its \
    own view of a position differs from the truth cannot be measured without other raters, so \
    its estimates get no interval and decide no verdict; add sweeps of other engines or settings";

/// Each engine's per-position means and standard errors over repeats,
/// with its repeatability, in the order the engines first appear.
#[allow(clippy::cast_precision_loss)]
fn engine_means(
    rows: &[(String, u16, String, f64)],
    settings: Settings,
) -> (Vec<u16>, Vec<EngineSummary>, Vec<EngineMeans>) {
    // engine → SP → values over repeats
    let mut by_engine: BTreeMap<&str, BTreeMap<u16, Vec<f64>>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (engine, sp, _, value) in rows {
        if !by_engine.contains_key(engine.as_str()) {
            order.push(engine);
        }
        by_engine
            .entry(engine)
            .or_default()
            .entry(*sp)
            .or_default()
            .push(*value);
    }
    let sps: Vec<u16> = (0..POSITION_COUNT)
        .filter(|sp| by_engine.values().any(|e| e.contains_key(sp)))
        .collect();
    let mut engines = Vec::new();
    let mut means = Vec::new();
    let mean_of = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let se_of = |v: &Vec<f64>| c960_balance::means::se(v);
    for name in &order {
        let per = &by_engine[name];
        let groups: Vec<Vec<f64>> = per.values().cloned().collect();
        engines.push(EngineSummary {
            name: (*name).to_owned(),
            repeats: per.values().map(Vec::len).max().unwrap_or(0),
            repeatability: split_half(&groups, SPLITS, settings.seed),
        });
        means.push(EngineMeans {
            name: (*name).to_owned(),
            means: sps.iter().map(|sp| per.get(sp).map(mean_of)).collect(),
            ses: sps.iter().map(|sp| per.get(sp).and_then(se_of)).collect(),
        });
    }
    (sps, engines, means)
}

/// Each position's row of the consensus `present`, with its shrunk
/// estimate (when shrinking is possible) and its decision.
fn consensus_rows(
    present: &[(u16, c960_balance::consensus::Estimate)],
    shrunk: Option<&[c960_balance::shrink::Shrunk]>,
    decisions: &[Decision],
) -> BTreeMap<u16, SweepRow> {
    let mut out = BTreeMap::new();
    for (i, (sp, e)) in present.iter().enumerate() {
        let (s, lo, hi, sd) = shrunk.map_or((e.estimate, e.low, e.high, e.se), |r| {
            (r[i].estimate, r[i].low, r[i].high, r[i].sd)
        });
        out.insert(
            *sp,
            SweepRow {
                engines: e.engines,
                estimate: e.estimate,
                low: e.low,
                high: e.high,
                se: e.se,
                df: e.df,
                spread: e.spread,
                shrunk: s,
                shrunk_low: lo,
                shrunk_high: hi,
                shrunk_sd: sd,
                decision: decisions[i],
            },
        );
    }
    out
}

#[allow(clippy::cast_precision_loss)]
pub(super) fn from_sweeps(
    rows: &[(String, u16, String, f64)],
    settings: Settings,
) -> Result<SweepResult, c960_balance::consensus::RaterError> {
    let (sps, engines, means) = engine_means(rows, settings);
    let agreement: Vec<_> = (0..means.len())
        .flat_map(|a| (a + 1..means.len()).map(move |b| (a, b)))
        .map(|(a, b)| c960_balance::consensus::agree(&means[a], &means[b]))
        .collect();
    // One rater cannot reveal its own view of a position: whatever its
    // repeats say, its interval would not cover the truth, so it decides
    // nothing. Copies of one rater are one rater.
    let (raters, merged) = if means.len() == 1 {
        (means, Vec::new())
    } else {
        prepare(&means)?
    };
    if raters.len() == 1 {
        let (summary, rows) = one_rater(&raters[0], &sps, settings, engines.first());
        return Ok(SweepResult {
            summary: Some(summary),
            engines,
            agreement,
            rows,
            merged,
            moderation: None,
        });
    }
    let result = consensus(&raters, c960_balance::LEVEL, settings.weights)?;
    let present: Vec<(u16, c960_balance::consensus::Estimate)> = sps
        .iter()
        .zip(&result.positions)
        .filter_map(|(sp, e)| e.map(|e| (*sp, e)))
        .collect();
    let values: Vec<f64> = present.iter().map(|p| p.1.estimate).collect();
    let ses: Vec<f64> = present.iter().map(|p| p.1.se).collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let band = Band {
        centre: mean,
        half_width: settings.band_cp,
    };
    let claims: Vec<Claims> = present
        .iter()
        .map(|(_, e)| Claims::student(e.estimate, e.se, e.df, band))
        .collect();
    let decisions = decide(&claims, settings.level);
    let dfs: Vec<f64> = present.iter().map(|p| p.1.df).collect();
    let shrunk = shrink_t(&values, &ses, &dfs, c960_balance::LEVEL).map(|(_, r)| r);
    // The consensus's reliability: split-half over its raters, projected
    // to all of them.
    let reliability = result.split_half(SPLITS, settings.seed);
    let components_reliability = components(&values, &ses).map(|c| c.reliability);
    let out = consensus_rows(&present, shrunk.as_deref(), &decisions);
    let summary = MethodSummary::new(
        reliability,
        components_reliability,
        mean,
        settings.band_cp,
        &decisions,
    );
    Ok(SweepResult {
        summary: Some(summary),
        engines,
        agreement,
        rows: out,
        merged,
        moderation: Some(result.moderation),
    })
}

/// Sweep figures from a single rater: its means, no interval, every
/// verdict unresolved. Its repeatability (with repeats) still says how well
/// its ranking repeats.
#[allow(clippy::cast_precision_loss)]
fn one_rater(
    reference: &EngineMeans,
    sps: &[u16],
    settings: Settings,
    engine: Option<&EngineSummary>,
) -> (MethodSummary, BTreeMap<u16, SweepRow>) {
    let unresolved = Decision {
        verdict: Verdict::Unresolved,
        candidate: Verdict::Unresolved,
        p_value: 1.0,
        q_value: 1.0,
    };
    let present: Vec<(u16, f64)> = sps
        .iter()
        .zip(&reference.means)
        .filter_map(|(sp, m)| m.map(|m| (*sp, m)))
        .collect();
    let mean = present.iter().map(|p| p.1).sum::<f64>() / present.len().max(1) as f64;
    let rows: BTreeMap<u16, SweepRow> = present
        .iter()
        .map(|&(sp, estimate)| {
            (
                sp,
                SweepRow {
                    engines: 1,
                    estimate,
                    low: f64::NAN,
                    high: f64::NAN,
                    se: f64::NAN,
                    df: f64::NAN,
                    spread: f64::NAN,
                    shrunk: estimate,
                    shrunk_low: f64::NAN,
                    shrunk_high: f64::NAN,
                    shrunk_sd: f64::NAN,
                    decision: unresolved,
                },
            )
        })
        .collect();
    let decisions: Vec<Decision> = rows.values().map(|r| r.decision).collect();
    let summary = MethodSummary {
        reliability: engine.and_then(|e| e.repeatability),
        components_reliability: None,
        words: ONE_RATER.to_owned(),
        mean,
        band: settings.band_cp,
        verdicts: count(&decisions),
    };
    (summary, rows)
}
