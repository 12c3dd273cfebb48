//! Win, draw and loss chances of an engine match from an opening's score:
//! the logistic model engines use for their own WDL (a win when the score
//! plus noise clears a threshold `a`, with spread `b`), fitted by maximum
//! likelihood to games actually played between two engines of different
//! strength, so that it predicts the draw rate of those games rather than
//! of the long searches an engine's built-in model was fitted to.
//!
//! For a game whose opening scores `cp` for White (centipawns) and where
//! the stronger engine plays White (`s = +1`) or Black (`s = −1`):
//!
//! ```text
//! v = cp + s·δ
//! P(White wins) = 1 / (1 + exp((a − v) / b))
//! P(Black wins) = 1 / (1 + exp((a + v) / b))
//! P(draw)       = 1 − P(White wins) − P(Black wins)
//! ```
//!
//! `δ` is the stronger engine's edge on the same scale. An opening played
//! twice with colours reversed (a game pair) has the mean of the two
//! games' chances.

use nalgebra::{Matrix3, Vector3};
use serde::{Deserialize, Serialize};

use crate::{Estimate, normal};

/// A game's result from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWins,
}

/// One game the model is fitted to.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Game {
    /// The opening's score for White, centipawns.
    pub cp: f64,
    /// Whether the stronger engine played White.
    pub stronger_white: bool,
    /// The result.
    pub outcome: Outcome,
}

/// The model's parameters.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WdlModel {
    /// The threshold a side's score must clear to win, centipawns (> 0).
    pub a: f64,
    /// The spread of the logistic, centipawns (> 0).
    pub b: f64,
    /// The stronger engine's edge, centipawns.
    pub shift: f64,
}

fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl WdlModel {
    /// White's win, draw and loss chances in one game.
    #[must_use]
    pub fn game(&self, cp: f64, stronger_white: bool) -> [f64; 3] {
        let v = if stronger_white {
            cp + self.shift
        } else {
            cp - self.shift
        };
        let win = logistic((v - self.a) / self.b);
        let loss = logistic((-v - self.a) / self.b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// The draw chance of a game pair from an opening scored `cp`: the
    /// mean over the two colour assignments.
    #[must_use]
    pub fn pair_draw(&self, cp: f64) -> f64 {
        f64::midpoint(self.game(cp, true)[1], self.game(cp, false)[1])
    }

    /// White's expected score over a game pair from an opening scored
    /// `cp` (wins plus half the draws, mean of the two games).
    #[must_use]
    pub fn pair_white_score(&self, cp: f64) -> f64 {
        let score = |[w, d, _]: [f64; 3]| w + d / 2.0;
        f64::midpoint(score(self.game(cp, true)), score(self.game(cp, false)))
    }

    /// The chance that the side the opening favours wins both games of a
    /// pair, whichever engine plays it: a pair that says nothing of which
    /// engine is stronger.
    #[must_use]
    pub fn pair_colour_decided(&self, cp: f64) -> f64 {
        let strong_white = self.game(cp, true);
        let weak_white = self.game(cp, false);
        if cp >= 0.0 {
            strong_white[0] * weak_white[0]
        } else {
            strong_white[2] * weak_white[2]
        }
    }

    fn from_theta(theta: Vector3<f64>) -> WdlModel {
        WdlModel {
            a: theta[0].exp(),
            b: theta[1].exp(),
            shift: theta[2],
        }
    }

    fn theta(&self) -> Vector3<f64> {
        Vector3::new(self.a.ln(), self.b.ln(), self.shift)
    }
}

/// Observed against predicted draws in one band of scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Band {
    /// Lowest |score| in the band, centipawns.
    pub low_cp: f64,
    /// Highest |score|.
    pub high_cp: f64,
    /// Games in the band.
    pub games: usize,
    /// Drawn games / games.
    pub observed_draws: f64,
    /// The model's mean draw chance over the band's games.
    pub predicted_draws: f64,
}

/// A fitted model with what it was fitted to and how well it fits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WdlFit {
    /// The maximum-likelihood parameters.
    pub model: WdlModel,
    /// Covariance of (ln a, ln b, shift), from the observed information.
    pub covariance: [[f64; 3]; 3],
    /// Games fitted.
    pub games: usize,
    /// Their log-likelihood at the fit.
    pub log_likelihood: f64,
    /// Drawn games / games.
    pub observed_draws: f64,
    /// Observed against predicted draws by |score|, in bands of about
    /// equal size.
    pub bands: Vec<Band>,
}

/// Why a model could not be fitted.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FitError {
    /// Too few games, or no spread of results.
    #[error("{0}")]
    TooLittle(String),
    /// The likelihood has no maximum inside the parameters' range.
    #[error("the WDL model did not converge: {0}")]
    NoFit(String),
}

fn log_likelihood(games: &[Game], theta: Vector3<f64>) -> f64 {
    let model = WdlModel::from_theta(theta);
    games
        .iter()
        .map(|g| {
            let p = model.game(g.cp, g.stronger_white);
            let chance = match g.outcome {
                Outcome::WhiteWins => p[0],
                Outcome::Draw => p[1],
                Outcome::BlackWins => p[2],
            };
            chance.max(1e-300).ln()
        })
        .sum()
}

/// Nelder–Mead on `f` from `start` with initial steps `step`.
fn minimize(
    f: impl Fn(Vector3<f64>) -> f64,
    start: Vector3<f64>,
    step: Vector3<f64>,
) -> Vector3<f64> {
    let mut simplex: Vec<(Vector3<f64>, f64)> = (0..4)
        .map(|i| {
            let mut x = start;
            if i > 0 {
                x[i - 1] += step[i - 1];
            }
            (x, f(x))
        })
        .collect();
    for _ in 0..5_000 {
        simplex.sort_by(|p, q| p.1.total_cmp(&q.1));
        let spread = (simplex[3].1 - simplex[0].1).abs();
        let size = (1..4)
            .map(|i| (simplex[i].0 - simplex[0].0).amax())
            .fold(0.0, f64::max);
        if spread < 1e-10 && size < 1e-8 {
            break;
        }
        let centroid = (simplex[0].0 + simplex[1].0 + simplex[2].0) / 3.0;
        let worst = simplex[3];
        let reflect = centroid + (centroid - worst.0);
        let fr = f(reflect);
        if fr < simplex[0].1 {
            let expand = centroid + 2.0 * (centroid - worst.0);
            let fe = f(expand);
            simplex[3] = if fe < fr { (expand, fe) } else { (reflect, fr) };
        } else if fr < simplex[2].1 {
            simplex[3] = (reflect, fr);
        } else {
            let contract = centroid + 0.5 * (worst.0 - centroid);
            let fc = f(contract);
            if fc < worst.1 {
                simplex[3] = (contract, fc);
            } else {
                let best = simplex[0].0;
                for point in simplex.iter_mut().skip(1) {
                    point.0 = best + 0.5 * (point.0 - best);
                    point.1 = f(point.0);
                }
            }
        }
    }
    simplex.sort_by(|p, q| p.1.total_cmp(&q.1));
    simplex[0].0
}

/// The Hessian of `f` at `x` by central differences.
fn hessian(f: &impl Fn(Vector3<f64>) -> f64, x: Vector3<f64>) -> Matrix3<f64> {
    let h = 1e-4;
    let mut out = Matrix3::zeros();
    for i in 0..3 {
        for j in 0..3 {
            let step = |di: f64, dj: f64| {
                let mut y = x;
                y[i] += di;
                y[j] += dj;
                f(y)
            };
            out[(i, j)] = (step(h, h) - step(h, -h) - step(-h, h) + step(-h, -h)) / (4.0 * h * h);
        }
    }
    out
}

/// Fits the model to `games` by maximum likelihood.
///
/// # Errors
/// [`FitError::TooLittle`] with fewer than 30 games or without wins,
/// draws and losses; [`FitError::NoFit`] when the likelihood has no
/// interior maximum (its curvature there is not positive definite).
pub fn fit(games: &[Game]) -> Result<WdlFit, FitError> {
    if games.len() < 30 {
        return Err(FitError::TooLittle(format!(
            "{} games are too few to fit a WDL model (at least 30)",
            games.len()
        )));
    }
    let draws = games.iter().filter(|g| g.outcome == Outcome::Draw).count();
    if draws == 0 || draws == games.len() {
        return Err(FitError::TooLittle(
            "a WDL model needs both drawn and decided games".to_owned(),
        ));
    }
    let negative = |theta: Vector3<f64>| -log_likelihood(games, theta);
    let start = Vector3::new(150_f64.ln(), 80_f64.ln(), 0.0);
    let mut theta = minimize(negative, start, Vector3::new(0.5, 0.5, 50.0));
    // A restart from the first optimum guards against a stalled simplex.
    theta = minimize(negative, theta, Vector3::new(0.1, 0.1, 10.0));
    let information = hessian(&negative, theta);
    let covariance = information
        .try_inverse()
        .filter(|c| (0..3).all(|i| c[(i, i)] > 0.0 && c[(i, i)].is_finite()))
        .ok_or_else(|| {
            FitError::NoFit("the likelihood is flat or not curved at its maximum".to_owned())
        })?;
    let model = WdlModel::from_theta(theta);
    #[allow(clippy::cast_precision_loss)]
    let observed_draws = draws as f64 / games.len() as f64;
    Ok(WdlFit {
        model,
        covariance: [0, 1, 2].map(|i| [0, 1, 2].map(|j| covariance[(i, j)])),
        games: games.len(),
        log_likelihood: -negative(theta),
        observed_draws,
        bands: bands(games, &model, 6),
    })
}

/// Observed against predicted draws in `count` bands of |score| of about
/// equal size.
fn bands(games: &[Game], model: &WdlModel, count: usize) -> Vec<Band> {
    let mut sorted: Vec<&Game> = games.iter().collect();
    sorted.sort_by(|p, q| p.cp.abs().total_cmp(&q.cp.abs()));
    let size = sorted.len().div_ceil(count);
    sorted
        .chunks(size.max(1))
        .map(|band| {
            #[allow(clippy::cast_precision_loss)]
            let n = band.len() as f64;
            let drawn = band.iter().filter(|g| g.outcome == Outcome::Draw).count();
            #[allow(clippy::cast_precision_loss)]
            let observed_draws = drawn as f64 / n;
            Band {
                low_cp: band[0].cp.abs(),
                high_cp: band[band.len() - 1].cp.abs(),
                games: band.len(),
                observed_draws,
                predicted_draws: band
                    .iter()
                    .map(|g| model.game(g.cp, g.stronger_white)[1])
                    .sum::<f64>()
                    / n,
            }
        })
        .collect()
}

impl WdlFit {
    /// `measure(model)` with its interval at [`crate::LEVEL`], by the
    /// delta method over the parameters' covariance.
    #[must_use]
    pub fn estimate(&self, measure: impl Fn(&WdlModel) -> f64) -> Estimate {
        let theta = self.model.theta();
        let value = measure(&self.model);
        let h = 1e-5;
        let gradient = Vector3::from_fn(|i, _| {
            let mut up = theta;
            up[i] += h;
            let mut down = theta;
            down[i] -= h;
            (measure(&WdlModel::from_theta(up)) - measure(&WdlModel::from_theta(down))) / (2.0 * h)
        });
        let covariance = Matrix3::from_fn(|i, j| self.covariance[i][j]);
        let variance = (gradient.transpose() * covariance * gradient)[(0, 0)].max(0.0);
        let half = normal::two_sided(crate::LEVEL) * variance.sqrt();
        Estimate {
            value,
            low: value - half,
            high: value + half,
        }
    }

    /// The scores (for the favoured side, ≥ 0) whose pair draw chance lies
    /// in `low..=high` (fractions), as a band `(from, to)` of centipawns:
    /// the draw chance falls as |score| grows, so the band is one interval.
    /// `None` when no score reaches the window (even 0 cp draws less than
    /// `low`) or every score up to 2,000 cp draws more than `low`.
    #[must_use]
    pub fn score_band(&self, low: f64, high: f64) -> Option<(f64, f64)> {
        let model = self.model;
        let draw = |cp: f64| model.pair_draw(cp);
        // The smallest |score| whose draw chance is at most `level`.
        let crossing = |level: f64| {
            if draw(0.0) <= level {
                return Some(0.0);
            }
            let (mut lo, mut hi) = (0.0_f64, 2_000.0_f64);
            if draw(hi) > level {
                return None;
            }
            for _ in 0..100 {
                let mid = f64::midpoint(lo, hi);
                if draw(mid) > level {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            Some(hi)
        };
        if draw(0.0) < low {
            return None;
        }
        let from = crossing(high)?;
        let to = crossing(low)?;
        Some((from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn simulate(model: WdlModel, n: usize, seed: u64) -> Vec<Game> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|i| {
                let cp = 300.0 * rng.uniform() - 100.0;
                let stronger_white = i % 2 == 0;
                let [w, d, _] = model.game(cp, stronger_white);
                let u = rng.uniform();
                let outcome = if u < w {
                    Outcome::WhiteWins
                } else if u < w + d {
                    Outcome::Draw
                } else {
                    Outcome::BlackWins
                };
                Game {
                    cp,
                    stronger_white,
                    outcome,
                }
            })
            .collect()
    }

    #[test]
    fn chances_sum_to_one_and_draws_fall_with_the_score() {
        let model = WdlModel {
            a: 200.0,
            b: 70.0,
            shift: 60.0,
        };
        for cp in [-500.0, -100.0, 0.0, 37.0, 250.0] {
            for white in [true, false] {
                let p = model.game(cp, white);
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!(p.iter().all(|&x| (0.0..=1.0).contains(&x)));
            }
        }
        assert!(model.pair_draw(0.0) > model.pair_draw(100.0));
        assert!(model.pair_draw(100.0) > model.pair_draw(200.0));
        assert!((model.pair_draw(80.0) - model.pair_draw(-80.0)).abs() < 1e-12);
        assert!(model.pair_white_score(100.0) > 0.5);
        assert!((model.pair_white_score(0.0) - 0.5).abs() < 1e-12);
        // The stronger engine wins more with either colour.
        assert!(model.game(0.0, true)[0] > model.game(0.0, false)[0]);
        assert!(model.pair_colour_decided(400.0) > model.pair_colour_decided(100.0));
    }

    #[test]
    fn the_fit_recovers_known_parameters_within_their_intervals() {
        let truth = WdlModel {
            a: 180.0,
            b: 60.0,
            shift: 70.0,
        };
        let mut covered = [0; 3];
        let runs = 40;
        for seed in 0..runs {
            let fit = fit(&simulate(truth, 2_000, seed)).unwrap();
            let sd: Vec<f64> = (0..3).map(|i| fit.covariance[i][i].sqrt()).collect();
            let estimates = [fit.model.a.ln(), fit.model.b.ln(), fit.model.shift];
            let truths = [truth.a.ln(), truth.b.ln(), truth.shift];
            for i in 0..3 {
                if (estimates[i] - truths[i]).abs() <= 1.96 * sd[i] {
                    covered[i] += 1;
                }
            }
            let draws = fit.estimate(|m| m.pair_draw(100.0));
            assert!(draws.low < draws.value && draws.value < draws.high);
        }
        // 95 % intervals: at least 33 of 40 cover (P < 0.01 to fail by chance).
        assert!(
            covered.iter().all(|&c| c >= 33),
            "covered {covered:?} of {runs}"
        );
    }

    #[test]
    fn the_score_band_brackets_the_draw_window() {
        let fit = fit(&simulate(
            WdlModel {
                a: 180.0,
                b: 60.0,
                shift: 70.0,
            },
            3_000,
            7,
        ))
        .unwrap();
        let (from, to) = fit.score_band(0.48, 0.52).unwrap();
        assert!(from < to);
        assert!((fit.model.pair_draw(from) - 0.52).abs() < 1e-6);
        assert!((fit.model.pair_draw(to) - 0.48).abs() < 1e-6);
        // No score draws more than a pair from 0 cp.
        let most = fit.model.pair_draw(0.0);
        assert_eq!(fit.score_band(most + 0.01, 1.0), None);
        assert_eq!(fit.score_band(most - 0.01, 1.0).map(|b| b.0), Some(0.0));
        let observed: usize = fit.bands.iter().map(|b| b.games).sum();
        assert_eq!(observed, 3_000);
    }

    #[test]
    fn too_few_or_one_sided_games_are_refused() {
        let games = simulate(
            WdlModel {
                a: 180.0,
                b: 60.0,
                shift: 70.0,
            },
            20,
            1,
        );
        assert!(matches!(fit(&games), Err(FitError::TooLittle(_))));
        let all_draws: Vec<Game> = (0..50)
            .map(|i| Game {
                cp: f64::from(i),
                stronger_white: i % 2 == 0,
                outcome: Outcome::Draw,
            })
            .collect();
        assert!(matches!(fit(&all_draws), Err(FitError::TooLittle(_))));
    }
}
