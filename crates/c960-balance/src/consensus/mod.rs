//! Several raters' views of the positions combined into one estimate whose
//! interval includes their disagreement.
//!
//! A rater is one engine, version and set of search settings; its repeats
//! (searches with other node budgets) average out its search noise, but not
//! its own systematic view of a position, which only other raters reveal.
//! Raters score on different scales (one engine's 20 cp is another's 35),
//! so each is first standardized by its own signal: its per-position means
//! minus their average, divided by its signal standard deviation `τ_e` (the
//! spread of its means with the repeat noise taken out, by variance
//! components). The standardized values follow a one-factor model,
//! `z_e = λ_e·c + (own view, variance η_e² = 1 − λ_e²) + noise`: `c` is what
//! the raters agree on, `λ_e` how much of the rater's signal it shares. With
//! three or more raters each loading is estimated by moments from the
//! covariances over all positions (`λ_e² = C_ef·C_eg / C_fg`, averaged over
//! the pairs of other raters); with two, they share their covariance
//! equally; with one, nothing can be said about its own view
//! ([`Heterogeneity::Unknown`]) and the consensus has no interval.
//!
//! Each rater's `z_e / λ_e` estimates `c` with variance
//! `((se/τ_e)² + η_e²) / λ_e²`: its own view enters every position's
//! interval as a random effect, as in a random-effects meta-analysis, and
//! a rater searched once carries its search noise inside `η_e²`. The
//! consensus weights raters by the inverse of that variance
//! ([`Weights::Data`], the default) or equally, with the interval computed
//! for the weights used; it is reported on the first (reference) rater's
//! scale as `μ_ref + τ_ref·λ_ref·c`. Its interval covers what the raters
//! agree on; an error that every rater shares is outside any interval made
//! from them, which is why c960 also measures agreement with independent
//! analyses (see [`crate::agreement`]).

use serde::Serialize;

use crate::{
    agreement::decile_overlap,
    normal,
    reliability::{self, SplitHalf, pearson, spearman},
    rng::Rng,
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

/// How the raters are weighted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weights {
    /// By the inverse of each rater's error variance (noise and own view),
    /// as the data estimate it.
    #[default]
    Data,
    /// Equally.
    Equal,
}

/// What is known of the raters' disagreement.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Heterogeneity {
    /// Each rater's own view estimated from three or more raters.
    Estimated,
    /// Two raters: their disagreement is known, how it splits between them
    /// is not; each is taken to hold half.
    SharedEqually,
    /// One rater: its own view cannot be told from the truth, so the
    /// consensus has no interval (repeats measure only search noise).
    Unknown,
}

impl Heterogeneity {
    /// The kind for `raters` raters.
    #[must_use]
    pub fn of(raters: usize) -> Heterogeneity {
        match raters {
            0 | 1 => Heterogeneity::Unknown,
            2 => Heterogeneity::SharedEqually,
            _ => Heterogeneity::Estimated,
        }
    }
}

/// All positions' consensus.
#[derive(Clone, Debug, Serialize)]
pub struct Consensus {
    /// Per position, in the input order (`None` where no rater scored it).
    pub positions: Vec<Option<Estimate>>,
    /// The raters' scales.
    pub engines: Vec<EngineScale>,
    /// Each rater's own-view variance `η_e²` on the standardized scale (the
    /// share of its signal the others do not share), in rater order.
    pub disagreement: Vec<f64>,
    /// Each rater's weight, summing to 1 (over the positions every rater
    /// scores).
    pub weights: Vec<f64>,
    /// How the raters were weighted.
    pub weighting: Weights,
    /// What is known of their disagreement.
    pub heterogeneity: Heterogeneity,
    /// Agreement of every pair of raters.
    pub agreement: Vec<Agreement>,
    /// Each rater's view of each position on the common scale
    /// (`z_e / λ_e`), by position then rater (`None` where a rater has no
    /// search): the raters as exchangeable measures, for their split-half
    /// reliability.
    #[serde(skip)]
    pub common: Vec<Vec<Option<f64>>>,
}

impl Consensus {
    /// Split-half reliability over raters: in each of `splits` seeded random
    /// splits the raters are divided into two halves, each half's weighted
    /// consensus is taken on the common scale, and the halves are correlated
    /// over positions; the median is projected to all raters by
    /// Spearman–Brown. `None` with one rater.
    #[must_use]
    pub fn split_half(&self, splits: usize, seed: u64) -> Option<SplitHalf> {
        let raters = self.weights.len();
        if raters < 2 || splits == 0 {
            return None;
        }
        let mut rng = Rng::new(seed);
        let mut order: Vec<usize> = (0..raters).collect();
        let mut rs = Vec::with_capacity(splits);
        for _ in 0..splits {
            rng.shuffle(&mut order);
            let (a, b) = order.split_at(raters / 2);
            let half = |members: &[usize], position: &[Option<f64>]| {
                let (mut sw, mut swu) = (0.0, 0.0);
                for &e in members {
                    if let Some(u) = position[e] {
                        sw += self.weights[e];
                        swu += self.weights[e] * u;
                    }
                }
                (sw > 0.0).then(|| swu / sw)
            };
            let (x, y): (Vec<f64>, Vec<f64>) = self
                .common
                .iter()
                .filter_map(|position| Some((half(a, position)?, half(b, position)?)))
                .unzip();
            if let Some(r) = pearson(&x, &y) {
                rs.push(r);
            }
        }
        let positions = self
            .common
            .iter()
            .filter(|p| p.iter().flatten().count() >= 2)
            .count();
        SplitHalf::from_splits(rs, positions)
    }
}

/// A rater standardized: each position's `(z, noise s.d.)`.
type Standardized = Vec<Option<(f64, f64)>>;

/// Combines `engines` (raters; at least one, the first is the reference
/// scale) with intervals at `level`, weighted as `weights` says. `None`
/// when a rater has fewer than three positions or no signal.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn consensus(engines: &[EngineMeans], level: f64, weights: Weights) -> Option<Consensus> {
    let positions = engines.first()?.means.len();
    let mut scales = Vec::new();
    let mut z: Vec<Standardized> = Vec::new();
    for engine in engines {
        assert_eq!(
            engine.means.len(),
            positions,
            "engines cover different positions"
        );
        let (scale, standardized) = standardize(engine)?;
        scales.push(scale);
        z.push(standardized);
    }
    let heterogeneity = Heterogeneity::of(engines.len());
    let own = own_views(&z);
    let zq = normal::quantile(0.5 + level / 2.0);
    let reference = &scales[0];
    let to_reference = reference.signal_sd * loading(own[0]);
    // Each rater's error variance in units of `c`, pooled over positions.
    let variance: Vec<f64> = z
        .iter()
        .zip(&own)
        .map(|(rater, &own)| {
            let noise = rater.iter().flatten().map(|p| p.1).next().unwrap_or(0.0);
            (noise * noise + own) / (1.0 - own)
        })
        .collect();
    let weight_of = |e: usize| match weights {
        // A rater without error (one rater searched once) is taken at face
        // value; it is then the only one.
        Weights::Data if variance[e] > 0.0 => 1.0 / variance[e],
        Weights::Data => 1e12,
        Weights::Equal => 1.0,
    };
    let total: f64 = (0..engines.len()).map(weight_of).sum();
    let estimates = (0..positions)
        .map(|i| {
            let (mut sw, mut swu, mut swwv, mut count) = (0.0, 0.0, 0.0, 0);
            for (e, rater) in z.iter().enumerate() {
                if let Some((value, _)) = rater[i] {
                    let w = weight_of(e);
                    sw += w;
                    swu += w * value / loading(own[e]);
                    swwv += w * w * variance[e];
                    count += 1;
                }
            }
            (count > 0).then(|| {
                let estimate = reference.mean + swu / sw * to_reference;
                if heterogeneity == Heterogeneity::Unknown {
                    return Estimate {
                        estimate,
                        se: f64::NAN,
                        low: f64::NAN,
                        high: f64::NAN,
                        engines: count,
                    };
                }
                let se = (swwv / (sw * sw)).sqrt() * to_reference;
                Estimate {
                    estimate,
                    se,
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
    let common = (0..positions)
        .map(|i| {
            z.iter()
                .zip(&own)
                .map(|(rater, &own)| rater[i].map(|(value, _)| value / loading(own)))
                .collect()
        })
        .collect();
    Some(Consensus {
        common,
        positions: estimates,
        engines: scales,
        weights: (0..engines.len()).map(|e| weight_of(e) / total).collect(),
        disagreement: own,
        weighting: weights,
        heterogeneity,
        agreement,
    })
}

/// A rater's scale and its standardized values. Search noise is much the
/// same for every position of a rater, and per-position errors from a few
/// repeats are too noisy to weight by, so every position gets the rater's
/// pooled error.
#[allow(clippy::cast_precision_loss)]
fn standardize(engine: &EngineMeans) -> Option<(EngineScale, Standardized)> {
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
    let pooled = parts.noise.sqrt() / sd;
    let scale = EngineScale {
        name: engine.name.clone(),
        mean,
        signal_sd: sd,
        noise: parts.noise / parts.signal,
    };
    let z = engine
        .means
        .iter()
        .map(|m| m.map(|m| ((m - mean) / sd, pooled)))
        .collect();
    Some((scale, z))
}

/// The loading of a standardized rater on the common component when a
/// share `own` of its signal variance is its own: `sqrt(1 − own)`.
fn loading(own: f64) -> f64 {
    (1.0 - own).sqrt()
}

/// The largest own-view share a rater is given, so that a rater that
/// shares next to nothing keeps a finite, tiny weight.
const MAX_OWN: f64 = 0.99;

/// Each rater's own-view share `η_e² = 1 − λ_e²` from the covariances of
/// the standardized raters over the positions each pair shares (noise is
/// independent between raters, so it leaves them unbiased):
/// `C_ef = λ_e·λ_f`. With three or more raters `λ_e²` is the mean of
/// `C_ef·C_eg / C_fg` over the pairs of other raters whose covariance is
/// clearly positive; with two, both take `λ² = C_12`; with one, 0.
#[allow(clippy::cast_precision_loss)]
fn own_views(z: &[Standardized]) -> Vec<f64> {
    let k = z.len();
    let mut c = vec![vec![f64::NAN; k]; k];
    for e in 0..k {
        for f in e + 1..k {
            let pairs: Vec<(f64, f64)> = z[e]
                .iter()
                .zip(&z[f])
                .filter_map(|(a, b)| Some(((*a)?.0, (*b)?.0)))
                .collect();
            if pairs.len() >= 3 {
                let n = pairs.len() as f64;
                let (ma, mb) = (
                    pairs.iter().map(|p| p.0).sum::<f64>() / n,
                    pairs.iter().map(|p| p.1).sum::<f64>() / n,
                );
                let cov = pairs.iter().map(|p| (p.0 - ma) * (p.1 - mb)).sum::<f64>() / (n - 1.0);
                c[e][f] = cov;
                c[f][e] = cov;
            }
        }
    }
    let clamp = |shared: f64| (1.0 - shared).clamp(0.0, MAX_OWN);
    (0..k)
        .map(|e| {
            if k == 1 {
                return 0.0;
            }
            if k == 2 {
                let f = 1 - e;
                return clamp(if c[e][f].is_finite() { c[e][f] } else { 0.0 });
            }
            let mut shared = Vec::new();
            for f in 0..k {
                for g in f + 1..k {
                    if f != e && g != e && c[f][g] > 0.05 {
                        let s = c[e][f] * c[e][g] / c[f][g];
                        if s.is_finite() {
                            shared.push(s);
                        }
                    }
                }
            }
            if shared.is_empty() {
                MAX_OWN
            } else {
                clamp(shared.iter().sum::<f64>() / shared.len() as f64)
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
