//! Several engines' views of the positions combined into one estimate.
//!
//! Engines score on different scales (one engine's 20 cp is another's 35),
//! so each engine is first standardized by its own signal: its per-position
//! means minus their average, divided by the engine's signal standard
//! deviation `τ_e` (the spread of its means with its search noise taken
//! out, by variance components). The standardized values follow a one-factor
//! model, `z_e = sqrt(1 − η_e²)·c + (own view, variance η_e²) + noise`: `c` is
//! what the engines agree on, `η_e²` the share of the engine's signal that
//! is its own, estimated by moments from the pairs of engines over all
//! positions. Each engine's `z_e / sqrt(1 − η_e²)` estimates `c` with
//! variance `((se/τ_e)² + η_e²) / (1 − η_e²)`, where `se²` is the engine's
//! squared standard error pooled over positions (search noise is much the
//! same everywhere, and a few repeats per position estimate it poorly); the consensus is their
//! inverse-variance weighted mean, reported on the first (reference)
//! engine's scale as `μ_ref + τ_ref·sqrt(1 − η_ref²)·c`.

use serde::Serialize;

use crate::{
    normal,
    reliability::{self, pearson, spearman},
};

/// One engine's per-position means (`None` where it has none) and their
/// standard errors (`None` when it searched once).
#[derive(Clone, Debug)]
pub struct EngineMeans {
    /// The engine's name.
    pub name: String,
    /// Per-position means, in one position order shared by all engines.
    pub means: Vec<Option<f64>>,
    /// Their standard errors.
    pub ses: Vec<Option<f64>>,
}

/// How one engine entered the consensus.
#[derive(Clone, Debug, Serialize)]
pub struct EngineScale {
    /// The engine.
    pub name: String,
    /// Average of its per-position means.
    pub mean: f64,
    /// Its signal standard deviation `τ_e`.
    pub signal_sd: f64,
    /// Its average standardized noise variance `mean((se/τ_e)²)`.
    pub noise: f64,
}

/// Agreement between two engines.
#[derive(Clone, Debug, Serialize)]
pub struct Agreement {
    /// First engine.
    pub a: String,
    /// Second engine.
    pub b: String,
    /// Positions both scored.
    pub positions: usize,
    /// Pearson's r of their means.
    pub pearson: Option<f64>,
    /// Spearman's rank correlation.
    pub spearman: Option<f64>,
    /// Share of one engine's top decile that is in the other's top decile.
    pub top_decile: f64,
    /// The same for the bottom decile.
    pub bottom_decile: f64,
}

/// One position's consensus, on the reference engine's scale.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub estimate: f64,
    /// Its standard error.
    pub se: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Engines that scored the position.
    pub engines: usize,
}

/// All positions' consensus.
#[derive(Clone, Debug, Serialize)]
pub struct Consensus {
    /// Per position, in the input order (`None` where no engine scored it).
    pub positions: Vec<Option<Estimate>>,
    /// The engines' scales.
    pub engines: Vec<EngineScale>,
    /// Each engine's variance of genuine disagreement with the others on
    /// the standardized scale, in engine order.
    pub disagreement: Vec<f64>,
    /// Agreement of every pair of engines.
    pub agreement: Vec<Agreement>,
}

/// Combines `engines` (at least one; the first is the reference scale)
/// with intervals at `level`. `None` when an engine has fewer than three
/// positions or no signal.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn consensus(engines: &[EngineMeans], level: f64) -> Option<Consensus> {
    let positions = engines.first()?.means.len();
    let mut scales = Vec::new();
    let mut z: Vec<Vec<Option<(f64, f64)>>> = Vec::new();
    for engine in engines {
        assert_eq!(
            engine.means.len(),
            positions,
            "engines cover different positions"
        );
        let present: Vec<(f64, f64)> = engine
            .means
            .iter()
            .zip(&engine.ses)
            .filter_map(|(m, s)| m.map(|m| (m, s.unwrap_or(0.0))))
            .collect();
        let means: Vec<f64> = present.iter().map(|p| p.0).collect();
        let ses: Vec<f64> = present.iter().map(|p| p.1).collect();
        let parts = reliability::components(&means, &ses)?;
        if parts.signal <= 0.0 {
            return None;
        }
        let mean = means.iter().sum::<f64>() / means.len() as f64;
        let sd = parts.signal.sqrt();
        scales.push(EngineScale {
            name: engine.name.clone(),
            mean,
            signal_sd: sd,
            noise: parts.noise / parts.signal,
        });
        // Search noise is much the same for every position of an engine;
        // per-position errors from a few repeats are too noisy to weight
        // by, so each position gets the engine's pooled error.
        let pooled = parts.noise.sqrt() / sd;
        z.push(
            engine
                .means
                .iter()
                .map(|m| m.map(|m| ((m - mean) / sd, pooled)))
                .collect(),
        );
    }
    let disagreement = disagreement(&z);
    let zq = normal::quantile(0.5 + level / 2.0);
    let reference = &scales[0];
    let estimates = (0..positions)
        .map(|i| {
            let (mut sw, mut swz, mut count) = (0.0, 0.0, 0);
            for (engine, own) in z.iter().zip(&disagreement) {
                if let Some((value, se)) = engine[i] {
                    // z_e = loading_e · c + own deviation + noise: divide by
                    // the loading to estimate the common component c.
                    let loading = loading(*own);
                    let value = value / loading;
                    let variance = (se * se + own) / (loading * loading);
                    // A single engine with no error estimate and no
                    // disagreement to go by is taken at face value.
                    let w = if variance > 0.0 { 1.0 / variance } else { 1e12 };
                    sw += w;
                    swz += w * value;
                    count += 1;
                }
            }
            (count > 0).then(|| {
                let value = swz / sw;
                let scale = reference.signal_sd * loading(disagreement[0]);
                let se = (1.0 / sw).sqrt() * scale;
                let estimate = reference.mean + value * scale;
                Estimate {
                    estimate,
                    se: if se < 1e-5 { 0.0 } else { se },
                    low: estimate - zq * se,
                    high: estimate + zq * se,
                    engines: count,
                }
            })
        })
        .collect();
    let mut agreement = Vec::new();
    for e in 0..engines.len() {
        for f in e + 1..engines.len() {
            agreement.push(agree(&engines[e], &engines[f]));
        }
    }
    Some(Consensus {
        positions: estimates,
        engines: scales,
        disagreement,
        agreement,
    })
}

/// The loading of a standardized engine on the common component when a
/// share `own` of its signal variance is its own: `sqrt(1 − own)`.
fn loading(own: f64) -> f64 {
    (1.0 - own.min(0.99)).sqrt()
}

/// Each engine's disagreement variance `η_e²`. For a pair,
/// `Var(z_e − z_f) − mean(se_e² + se_f²) = η_e² + η_f²`; with three or more
/// engines each `η_e²` is solved from the pairs (averaged over the choices
/// of the other two), with two engines they share the pair's excess
/// equally, with one there is none.
#[allow(clippy::cast_precision_loss)]
fn disagreement(z: &[Vec<Option<(f64, f64)>>]) -> Vec<f64> {
    let k = z.len();
    let mut excess = vec![vec![f64::NAN; k]; k];
    for e in 0..k {
        for f in e + 1..k {
            let pairs: Vec<(f64, f64)> = z[e]
                .iter()
                .zip(&z[f])
                .filter_map(|(a, b)| Some(((*a)?, (*b)?)))
                .map(|(a, b)| (a.0 - b.0, a.1 * a.1 + b.1 * b.1))
                .collect();
            if pairs.len() >= 3 {
                let n = pairs.len() as f64;
                let md = pairs.iter().map(|p| p.0).sum::<f64>() / n;
                let var = pairs.iter().map(|p| (p.0 - md).powi(2)).sum::<f64>() / (n - 1.0);
                let noise = pairs.iter().map(|p| p.1).sum::<f64>() / n;
                excess[e][f] = (var - noise).max(0.0);
                excess[f][e] = excess[e][f];
            }
        }
    }
    (0..k)
        .map(|e| {
            let mut solutions = Vec::new();
            for f in 0..k {
                for g in f + 1..k {
                    if f != e && g != e {
                        let s = (excess[e][f] + excess[e][g] - excess[f][g]) / 2.0;
                        if s.is_finite() {
                            solutions.push(s.max(0.0));
                        }
                    }
                }
            }
            if solutions.is_empty() {
                let shared: Vec<f64> = (0..k)
                    .filter(|&f| f != e && excess[e][f].is_finite())
                    .map(|f| excess[e][f] / 2.0)
                    .collect();
                if shared.is_empty() {
                    0.0
                } else {
                    shared.iter().sum::<f64>() / shared.len() as f64
                }
            } else {
                solutions.iter().sum::<f64>() / solutions.len() as f64
            }
        })
        .collect()
}

/// Pearson, Spearman and decile overlap of two engines' means.
#[must_use]
pub fn agree(a: &EngineMeans, b: &EngineMeans) -> Agreement {
    let (x, y): (Vec<f64>, Vec<f64>) = a
        .means
        .iter()
        .zip(&b.means)
        .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
        .unzip();
    Agreement {
        a: a.name.clone(),
        b: b.name.clone(),
        positions: x.len(),
        pearson: pearson(&x, &y),
        spearman: spearman(&x, &y),
        top_decile: decile_overlap(&x, &y, true),
        bottom_decile: decile_overlap(&x, &y, false),
    }
}

/// Share of the top (or bottom) tenth of `x` that is also in that of `y`.
#[must_use]
#[allow(clippy::many_single_char_names)]
pub fn decile_overlap(x: &[f64], y: &[f64], top: bool) -> f64 {
    let k = x.len() / 10;
    if k == 0 {
        return f64::NAN;
    }
    let pick = |v: &[f64]| {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
        if top {
            order.reverse();
        }
        order.truncate(k);
        order
    };
    let (a, b) = (pick(x), pick(y));
    #[allow(clippy::cast_precision_loss)]
    let shared = a.iter().filter(|i| b.contains(i)).count() as f64 / k as f64;
    shared
}
