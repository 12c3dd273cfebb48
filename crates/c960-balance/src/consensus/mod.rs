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
//!
//! The model cannot be fooled into certainty by its inputs: raters are
//! checked before they are combined ([`raters`]): a copy of another rater
//! (or one that differs from it only in settings that do not change its
//! searches) is merged into it and named, since two copies would look like
//! two raters agreeing perfectly; a rater whose scores run against the
//! others', one with too few positions, scores out of bounds or no spread
//! is refused by name; every rater is put on one scale over the positions
//! all of them score.
//!
//! Raters disagree far more about some positions than about others, so the
//! variance above is only the average: each position's interval is scaled
//! by how much its raters actually disagree there (Cochran's `Q` of its
//! views over its degrees of freedom, the ratio of their disagreement to
//! the model's), moderated toward the ratios of positions of its size by
//! empirical Bayes (a scaled inverse-χ² prior fitted from the 960 ratios,
//! Smyth 2004, whose scale follows the size of the position's estimate, as
//! raters that differ in scale disagree more the larger the advantage; see
//! [`crate::moderate`]). A position whose raters agree gets a narrower
//! interval than one where they scatter, and both use Student's t on the
//! prior's degrees of freedom plus the position's own ([`Moderation`]).

use serde::Serialize;

use crate::{
    agreement::decile_overlap,
    moderate::VariancePrior,
    normal,
    reliability::{SplitHalf, pearson, spearman},
    rng::Rng,
    student,
};

pub mod raters;

pub use raters::{COPY_CORRELATION, MAX_SCORE, MIN_POSITIONS, Merged, RaterError};

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
    /// Degrees of freedom of the Student's t behind the interval and the
    /// verdicts (the prior's plus the position's own; infinite: normal).
    pub df: f64,
    /// The raters' disagreement at this position against the model's
    /// (Cochran's `Q` over its degrees of freedom; about 1 where they
    /// disagree as much as they do on average, NaN with fewer than two
    /// raters).
    pub spread: f64,
    /// The moderated ratio its variance was multiplied by: `spread`
    /// pulled toward the prior (see [`Moderation`]).
    pub moderated: f64,
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
    /// Raters found to be copies of others and merged into them.
    pub merged: Vec<Merged>,
    /// The raters' disagreement against the model's, pooled and position
    /// by position, and the prior each position's is moderated toward.
    pub moderation: Moderation,
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

/// Checks the raters and merges copies (see [`raters`]): the raters the
/// consensus is made of, and the merges, each to be named to the user.
/// Every score must be finite and within bounds; when more than one rater
/// is left, each must score enough positions and vary.
pub fn prepare(engines: &[EngineMeans]) -> Result<(Vec<EngineMeans>, Vec<Merged>), RaterError> {
    if let Some(first) = engines.first() {
        for engine in engines {
            assert_eq!(
                engine.means.len(),
                first.means.len(),
                "engines cover different positions"
            );
        }
    }
    raters::check_bounds(engines)?;
    // The direction is checked before copies are merged too: a copy of an
    // honest rater is evidence against a flipped one, which two raters
    // left after merging could not tell apart.
    if engines.len() > 2 {
        let means: Vec<Vec<Option<f64>>> = engines.iter().map(|e| e.means.clone()).collect();
        let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
        raters::check_direction(&means, &names)?;
    }
    let (kept, merged) = raters::merge_copies(engines);
    if kept.len() > 1 {
        raters::check_each(&kept)?;
    }
    Ok((kept, merged))
}

/// Combines `engines` (raters; the first is the reference scale) with
/// intervals at `level`, weighted as `weights` says. Raters are checked
/// and copies merged first ([`prepare`]); a rater with too few positions,
/// scores out of bounds, no spread beyond its noise, or scores that run
/// against the others' is refused, naming it. Each rater is put on one
/// scale over the positions all raters score.
///
/// Each position's interval is then scaled by the raters' actual
/// disagreement there: Cochran's Q of its views (with each rater's
/// modelled variance) over its degrees of freedom, a ratio that is about 1
/// where they disagree as the model says, moderated toward the ratios of
/// positions of its size by empirical Bayes ([`crate::moderate`], Smyth
/// 2004, the prior's scale a log-linear trend in the size), as
/// the between-study variance of a random-effects meta-analysis is
/// rescaled by Hartung–Knapp–Sidik–Jonkman. The interval and the
/// verdicts then use Student's t on the moderated degrees of freedom
/// ([`Moderation`]).
///
/// # Panics
/// With no rater, or raters covering different numbers of positions.
#[allow(clippy::cast_precision_loss)]
pub fn consensus(
    engines: &[EngineMeans],
    level: f64,
    weights: Weights,
) -> Result<Consensus, RaterError> {
    assert!(!engines.is_empty(), "a consensus needs a rater");
    let (engines, merged) = prepare(engines)?;
    let positions = engines[0].means.len();
    let (scales, z) = raters::standardized(&engines)?;
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    raters::check_direction(&z, &names)?;
    let heterogeneity = Heterogeneity::of(engines.len());
    let own = raters::own_views(&z);
    let reference = &scales[0];
    let to_reference = reference.signal_sd * loading(own[0]);
    // Each rater's error variance in units of `c`, pooled over positions.
    let variance: Vec<f64> = scales
        .iter()
        .zip(&own)
        .map(|(s, &own)| (s.pooled * s.pooled + own) / (1.0 - own))
        .collect();
    let weight_of = |e: usize| match weights {
        // A rater without error (one rater searched once) is taken at face
        // value; it is then the only one.
        Weights::Data if variance[e] > 0.0 => 1.0 / variance[e],
        Weights::Data => 1e12,
        Weights::Equal => 1.0,
    };
    let total: f64 = (0..engines.len()).map(weight_of).sum();
    // Each rater's view of each position on the common scale.
    let common_scale: Vec<Vec<Option<f64>>> = (0..positions)
        .map(|i| {
            z.iter()
                .zip(&own)
                .map(|(rater, &own)| rater[i].map(|value| value / loading(own)))
                .collect()
        })
        .collect();
    let rater_weights: Vec<f64> = (0..engines.len()).map(weight_of).collect();
    let spreads = disagreement(&common_scale, &variance);
    let sizes = sizes(&common_scale, &rater_weights, reference.mean, to_reference);
    let moderation = moderation(&spreads, &sizes);
    let estimates = combine(
        &common_scale,
        &Combination {
            weights: &rater_weights,
            variance: &variance,
            spreads: &spreads,
            sizes: &sizes,
            moderation: &moderation,
            centre: reference.mean,
            to_reference,
            intervals: heterogeneity != Heterogeneity::Unknown,
            level,
        },
    );
    let agreement = (0..engines.len())
        .flat_map(|e| (e + 1..engines.len()).map(move |f| (e, f)))
        .map(|(e, f)| agree(&engines[e], &engines[f]))
        .collect();
    Ok(Consensus {
        common: common_scale,
        positions: estimates,
        engines: engines
            .iter()
            .zip(&scales)
            .map(|(e, s)| EngineScale {
                name: e.name.clone(),
                mean: s.mean,
                signal_sd: s.signal_sd,
                noise: s.noise,
            })
            .collect(),
        weights: rater_weights.iter().map(|w| w / total).collect(),
        disagreement: own,
        weighting: weights,
        heterogeneity,
        agreement,
        merged,
        moderation,
    })
}

/// What [`combine`] needs besides the views.
struct Combination<'a> {
    /// Each rater's weight.
    weights: &'a [f64],
    /// Each rater's error variance on the common scale.
    variance: &'a [f64],
    /// Each position's disagreement ratio and its degrees of freedom.
    spreads: &'a [(f64, f64)],
    /// Each position's size ([`sizes`]), the covariate of the prior.
    sizes: &'a [f64],
    /// The prior the ratios are moderated toward.
    moderation: &'a Moderation,
    /// The reference rater's mean, where the common scale's 0 lies.
    centre: f64,
    /// The factor from the common scale to the reference rater's.
    to_reference: f64,
    /// Whether the raters' disagreement can be measured (else no interval).
    intervals: bool,
    /// The intervals' confidence level.
    level: f64,
}

/// Each position's estimate from its views on the common scale (by
/// position, then rater): the weighted mean on the reference rater's
/// scale, its standard error from the raters' variances scaled by the
/// position's moderated disagreement, and its Student's t interval.
fn combine(views: &[Vec<Option<f64>>], c: &Combination<'_>) -> Vec<Option<Estimate>> {
    let zq = normal::quantile(0.5 + c.level / 2.0);
    // The critical value for each number of degrees of freedom met.
    let mut critical: Vec<(f64, f64)> = Vec::new();
    let mut critical_value = |df: f64| {
        if let Some(&(_, q)) = critical.iter().find(|(d, _)| d.total_cmp(&df).is_eq()) {
            return q;
        }
        let q = if df.is_finite() {
            student::two_sided(c.level, df)
        } else {
            zq
        };
        critical.push((df, q));
        q
    };
    views
        .iter()
        .zip(c.spreads.iter().zip(c.sizes))
        .map(|(position, (&(spread, own_df), &size))| {
            let (mut sw, mut swu, mut swwv, mut count) = (0.0, 0.0, 0.0, 0);
            for (e, view) in position.iter().enumerate() {
                if let Some(value) = view {
                    let w = c.weights[e];
                    sw += w;
                    swu += w * value;
                    swwv += w * w * c.variance[e];
                    count += 1;
                }
            }
            (count > 0).then(|| {
                let estimate = c.centre + swu / sw * c.to_reference;
                if !c.intervals {
                    return Estimate {
                        estimate,
                        se: f64::NAN,
                        low: f64::NAN,
                        high: f64::NAN,
                        engines: count,
                        df: f64::NAN,
                        spread: f64::NAN,
                        moderated: f64::NAN,
                    };
                }
                let moderated = c.moderation.prior.posterior_at(spread, own_df, size);
                let se = (swwv * moderated.variance / (sw * sw)).sqrt() * c.to_reference;
                let half = critical_value(moderated.df) * se;
                Estimate {
                    estimate,
                    se,
                    low: estimate - half,
                    high: estimate + half,
                    engines: count,
                    df: moderated.df,
                    spread,
                    moderated: moderated.variance,
                }
            })
        })
        .collect()
}

/// How the raters' disagreement was moderated position by position: the
/// pooled ratio of their disagreement to the model's, and the prior the
/// positions' own ratios are pulled toward (see [`crate::moderate`]).
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Moderation {
    /// Cochran's `Q / df` pooled over positions: about 1 when the raters
    /// disagree as the model says.
    pub pooled: f64,
    /// Its degrees of freedom (views minus one, summed over positions).
    pub df: f64,
    /// The prior of the positions' disagreement ratios, fitted from all of
    /// them: `df` (`d0`) says how much they differ beyond chance (infinite:
    /// no more than chance), `scale` (`s0²`) the typical ratio.
    pub prior: VariancePrior,
}

/// Each position's disagreement: Cochran's `Q` of its views (on the common
/// scale) about their inverse-variance mean, with each rater's modelled
/// variance, over its degrees of freedom (views minus one), and those
/// degrees of freedom; `(NaN, 0)` with fewer than two views.
fn disagreement(views: &[Vec<Option<f64>>], variance: &[f64]) -> Vec<(f64, f64)> {
    views
        .iter()
        .map(|position| {
            let present: Vec<(f64, f64)> = position
                .iter()
                .zip(variance)
                .filter_map(|(u, v)| Some(((*u)?, *v)))
                .filter(|(_, v)| *v > 0.0)
                .collect();
            if present.len() < 2 {
                return (f64::NAN, 0.0);
            }
            let sw: f64 = present.iter().map(|(_, v)| 1.0 / v).sum();
            let mean = present.iter().map(|(u, v)| u / v).sum::<f64>() / sw;
            let q = present
                .iter()
                .map(|(u, v)| (u - mean).powi(2) / v)
                .sum::<f64>();
            let df = f64::from(u32::try_from(present.len() - 1).unwrap_or(u32::MAX));
            (q / df, df)
        })
        .collect()
}

/// Each position's size: how far its weighted mean view lies from 0 on
/// the reference rater's scale (equal chances, for centipawns); NaN
/// without a view. Raters that differ in scale disagree more the further a
/// position is from 0, so the prior of the disagreement follows it.
fn sizes(views: &[Vec<Option<f64>>], weights: &[f64], centre: f64, to_reference: f64) -> Vec<f64> {
    views
        .iter()
        .map(|position| {
            let (sw, swu) = position
                .iter()
                .zip(weights)
                .filter_map(|(u, w)| Some((*w, w * (*u)?)))
                .fold((0.0, 0.0), |(a, b), (w, wu)| (a + w, b + wu));
            (centre + swu / sw * to_reference).abs()
        })
        .collect()
}

/// The [`Moderation`] of the positions' disagreement `ratios` (each with
/// its degrees of freedom), its prior's scale following the positions'
/// `sizes`.
fn moderation(ratios: &[(f64, f64)], sizes: &[f64]) -> Moderation {
    let ((s2, df), x): ((Vec<f64>, Vec<f64>), Vec<f64>) = ratios
        .iter()
        .zip(sizes)
        .filter(|((s, d), x)| *d > 0.0 && s.is_finite() && x.is_finite())
        .map(|(&(s, d), &x)| ((s, d), x))
        .unzip();
    let total: f64 = df.iter().sum();
    let q: f64 = s2.iter().zip(&df).map(|(s, d)| s * d).sum();
    let prior = VariancePrior::fit_along(&s2, &df, Some(&x)).unwrap_or(VariancePrior {
        df: f64::INFINITY,
        scale: 1.0,
        units: 0,
        trend: None,
    });
    Moderation {
        pooled: if total > 0.0 { q / total } else { 1.0 },
        df: total,
        prior,
    }
}

/// The loading of a standardized rater on the common component when a
/// share `own` of its signal variance is its own: `sqrt(1 − own)`.
fn loading(own: f64) -> f64 {
    (1.0 - own).sqrt()
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

#[cfg(test)]
mod tests;
