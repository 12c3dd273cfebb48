//! The methods proved on simulated data with known truth, as the project
//! requires before any number made with them is published: false discovery
//! rate of verdicts, coverage of anytime-valid intervals under adaptive
//! stopping, adaptive against uniform allocation, shrinkage against raw
//! means, and the multi-engine consensus (its raters with their own
//! views in `simulation/raters.rs`, raters whose disagreement varies by
//! position in `simulation/moderated.rs`).
//!
//! Per-game White scores are 1, ½ or 0 with per-position win, draw and loss
//! probabilities; the spread of true scores (s.d. ≈ 0.024 around 0.54) and
//! the per-game s.d. (≈ 0.35) follow the figures in the project's
//! statistics notes.

use c960_balance::{
    adaptive::{StoppingRule, Tracker},
    consensus::{EngineMeans, Weights, consensus},
    reliability::pearson,
    rng::Rng,
    sequential::confidence_sequence,
    shrink::shrink,
    verdict::{Band, Claims, Verdict, decide},
};

mod adversarial;
mod moderated;
mod raters;

const MEAN: f64 = 0.54;
const DELTA: f64 = 0.02;
const LEVEL: f64 = 0.05;

/// A position's truth: its expected White score and draw rate.
#[derive(Copy, Clone)]
struct Truth {
    score: f64,
    draws: f64,
}

impl Truth {
    fn play(self, rng: &mut Rng) -> f64 {
        let win = self.score - self.draws / 2.0;
        let u = rng.uniform();
        if u < win {
            1.0
        } else if u < win + self.draws {
            0.5
        } else {
            0.0
        }
    }

    fn sd(self) -> f64 {
        let win = self.score - self.draws / 2.0;
        let loss = 1.0 - win - self.draws;
        (win * (1.0 - self.score).powi(2)
            + self.draws * (0.5 - self.score).powi(2)
            + loss * self.score.powi(2))
        .sqrt()
    }
}

/// The hardest mix for error control: half the positions at the centre,
/// many exactly on the band's edges (where a false claim is likeliest),
/// the rest clearly outside; draw rates from 0.3 to 0.7.
fn truths(n: usize, rng: &mut Rng) -> Vec<Truth> {
    (0..n)
        .map(|i| {
            let score = match i % 20 {
                0..=9 => MEAN,
                10..=12 => MEAN + DELTA,
                13..=15 => MEAN - DELTA,
                16 | 17 => MEAN + 0.06,
                _ => MEAN - 0.06,
            };
            Truth {
                score,
                draws: 0.3 + 0.4 * rng.uniform(),
            }
        })
        .collect()
}

/// Whether a verdict is false for a position whose true score is `score`.
fn is_false(verdict: Verdict, score: f64) -> bool {
    match verdict {
        Verdict::MoreForWhite => score <= MEAN + DELTA,
        Verdict::LessForWhite => score >= MEAN - DELTA,
        Verdict::Balanced => score <= MEAN - DELTA || score >= MEAN + DELTA,
        Verdict::Unresolved => false,
    }
}

/// Mean and standard error of a list of per-run figures.
#[allow(clippy::cast_precision_loss)]
fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let m = values.iter().sum::<f64>() / n;
    let v = values.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (v / n).sqrt())
}

#[test]
fn verdicts_keep_the_false_discovery_rate_at_fixed_n() {
    let mut rng = Rng::new(1);
    let positions = truths(960, &mut rng);
    let games = 2000.0f64;
    let mut fdrs = Vec::new();
    let mut power = Vec::new();
    for _ in 0..300 {
        let estimates: Vec<(f64, f64)> = positions
            .iter()
            .map(|t| {
                let se = t.sd() / games.sqrt();
                (t.score + se * rng.normal(), se)
            })
            .collect();
        #[allow(clippy::cast_precision_loss)]
        let centre = estimates.iter().map(|e| e.0).sum::<f64>() / estimates.len() as f64;
        let band = Band {
            centre,
            half_width: DELTA,
        };
        let claims: Vec<Claims> = estimates
            .iter()
            .map(|&(x, se)| Claims::normal(x, se, band))
            .collect();
        let decisions = decide(&claims, LEVEL);
        let made = decisions
            .iter()
            .filter(|d| d.verdict != Verdict::Unresolved)
            .count();
        let wrong = decisions
            .iter()
            .zip(&positions)
            .filter(|(d, t)| is_false(d.verdict, t.score))
            .count();
        #[allow(clippy::cast_precision_loss)]
        fdrs.push(wrong as f64 / made.max(1) as f64);
        #[allow(clippy::cast_precision_loss)]
        power.push(made as f64 / 960.0);
    }
    let (fdr, se) = mean_se(&fdrs);
    println!(
        "fixed n = 2000: FDR {fdr:.4} ± {se:.4} (nominal {LEVEL}), share decided {:.3}",
        mean_se(&power).0
    );
    assert!(fdr <= LEVEL + 2.0 * se, "FDR {fdr} ± {se} exceeds {LEVEL}");
    assert!(mean_se(&power).0 > 0.2, "the verdicts decide too little");
}

/// Plays rounds until no position is open (or `cap` games each); with
/// `uniform`, every position plays while any is open.
fn adaptive_run(
    positions: &[Truth],
    rule: StoppingRule,
    cap: usize,
    uniform: bool,
    rng: &mut Rng,
) -> Vec<Vec<f64>> {
    let mut tracker = Tracker::new(rule, positions.len());
    let mut scores = vec![Vec::new(); positions.len()];
    loop {
        let open = tracker.open();
        if open.is_empty() {
            break;
        }
        let round: Vec<usize> = if uniform {
            (0..positions.len()).collect()
        } else {
            open
        };
        let round: Vec<usize> = round
            .into_iter()
            .filter(|&i| scores[i].len() < cap)
            .collect();
        if round.is_empty() {
            break;
        }
        for i in round {
            let x = positions[i].play(rng);
            scores[i].push(x);
            tracker.push(i, x);
        }
    }
    scores
}

#[test]
#[allow(clippy::cast_precision_loss)]
fn adaptive_intervals_cover_and_verdicts_keep_the_rate_and_save_games() {
    let rule = StoppingRule {
        target_half_width: 0.06,
        alpha: 0.05,
        band_half_width: DELTA,
    };
    let mut rng = Rng::new(2);
    let positions = truths(240, &mut rng);
    let (mut covered, mut naive_covered, mut intervals) = (0usize, 0usize, 0usize);
    let mut fdrs = Vec::new();
    let (mut adaptive_games, mut uniform_games) = (0usize, 0usize);
    for _ in 0..12 {
        let scores = adaptive_run(&positions, rule, 5000, false, &mut rng);
        for (s, t) in scores.iter().zip(&positions) {
            let cs = confidence_sequence(s, rule.alpha);
            covered += usize::from(cs.low <= t.score && t.score <= cs.high);
            let n = s.len() as f64;
            let naive = 1.96 * t.sd() / n.sqrt();
            naive_covered += usize::from((cs.mean - t.score).abs() <= naive);
            intervals += 1;
        }
        let all: Vec<f64> = scores.iter().flatten().copied().collect();
        let band = Band {
            centre: all.iter().sum::<f64>() / all.len() as f64,
            half_width: DELTA,
        };
        let claims: Vec<Claims> = scores.iter().map(|s| Claims::anytime(s, band)).collect();
        let decisions = decide(&claims, LEVEL);
        let made = decisions
            .iter()
            .filter(|d| d.verdict != Verdict::Unresolved)
            .count();
        let wrong = decisions
            .iter()
            .zip(&positions)
            .filter(|(d, t)| is_false(d.verdict, t.score))
            .count();
        fdrs.push(wrong as f64 / made.max(1) as f64);
        adaptive_games += all.len();
        uniform_games += adaptive_run(&positions, rule, 5000, true, &mut rng)
            .iter()
            .map(Vec::len)
            .sum::<usize>();
    }
    let coverage = covered as f64 / intervals as f64;
    let naive = naive_covered as f64 / intervals as f64;
    let (fdr, se) = mean_se(&fdrs);
    let ratio = uniform_games as f64 / adaptive_games as f64;
    println!(
        "adaptive: coverage {coverage:.4} (nominal 0.95; a fixed-n interval at the same stops \
         {naive:.4}), FDR {fdr:.4} ± {se:.4}, uniform needs {ratio:.2}x the games"
    );
    assert!(
        coverage >= 0.95,
        "anytime intervals covered only {coverage}"
    );
    assert!(fdr <= LEVEL + 2.0 * se, "FDR {fdr} ± {se} exceeds {LEVEL}");
    assert!(ratio > 1.2, "adaptive allocation saved too little: {ratio}");
}

#[test]
#[allow(clippy::cast_precision_loss)]
fn shrinkage_beats_raw_means_and_its_intervals_cover() {
    let mut rng = Rng::new(3);
    let (mut raw, mut shrunk, mut covered, mut count) = (0.0, 0.0, 0usize, 0usize);
    for _ in 0..50 {
        let truth: Vec<f64> = (0..960).map(|_| MEAN + 0.024 * rng.normal()).collect();
        let ses: Vec<f64> = (0..960)
            .map(|i| 0.35 / [10.0f64, 100.0, 1000.0][i % 3].sqrt())
            .collect();
        let means: Vec<f64> = truth
            .iter()
            .zip(&ses)
            .map(|(t, se)| t + se * rng.normal())
            .collect();
        let (_, rows) = shrink(&means, &ses, 0.95).unwrap();
        for ((t, x), r) in truth.iter().zip(&means).zip(&rows) {
            raw += (x - t).powi(2);
            shrunk += (r.estimate - t).powi(2);
            covered += usize::from(r.low <= *t && *t <= r.high);
            count += 1;
        }
    }
    let coverage = covered as f64 / count as f64;
    println!(
        "shrinkage: MSE ratio shrunk/raw {:.3}, coverage {coverage:.4}",
        shrunk / raw
    );
    assert!(shrunk < 0.5 * raw, "shrinkage MSE {shrunk} vs raw {raw}");
    assert!((0.93..=0.97).contains(&coverage), "coverage {coverage}");
}

#[test]
#[allow(clippy::cast_precision_loss)]
fn consensus_beats_each_engine_and_covers_on_the_reference_scale() {
    let mut rng = Rng::new(4);
    let n: usize = 960;
    let truth: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
    // (offset, scale, per-search noise, repeats, genuine disagreement)
    let specs = [
        (20.0, 12.0, 14.0, 4, 0.2),
        (5.0, 30.0, 20.0, 2, 0.3),
        (-10.0, 8.0, 9.0, 6, 0.4),
    ];
    let engines: Vec<EngineMeans> = specs
        .iter()
        .enumerate()
        .map(|(e, &(offset, scale, noise, repeats, own))| {
            let (means, ses): (Vec<Option<f64>>, Vec<Option<f64>>) = truth
                .iter()
                .map(|t| {
                    let value = offset + scale * (t + own * rng.normal());
                    let draws: Vec<f64> =
                        (0..repeats).map(|_| value + noise * rng.normal()).collect();
                    let k = f64::from(repeats);
                    let m = draws.iter().sum::<f64>() / k;
                    let sd =
                        (draws.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (k - 1.0)).sqrt();
                    (Some(m), Some(sd / k.sqrt()))
                })
                .unzip();
            EngineMeans {
                name: format!("engine {e}"),
                means,
                ses,
            }
        })
        .collect();
    let result = consensus(&engines, 0.95, Weights::Data).unwrap();
    let estimates: Vec<f64> = result
        .positions
        .iter()
        .map(|p| p.unwrap().estimate)
        .collect();
    let r_consensus = pearson(&estimates, &truth).unwrap();
    for engine in &engines {
        let means: Vec<f64> = engine.means.iter().map(|m| m.unwrap()).collect();
        let r = pearson(&means, &truth).unwrap();
        println!("{}: r = {r:.3}", engine.name);
        assert!(
            r_consensus > r,
            "consensus r {r_consensus} not above {}'s {r}",
            engine.name
        );
    }
    let covered = result
        .positions
        .iter()
        .zip(&truth)
        .filter(|(p, t)| {
            let p = p.unwrap();
            let target = 20.0 + 12.0 * **t;
            p.low <= target && target <= p.high
        })
        .count() as f64
        / n as f64;
    println!(
        "consensus: r = {r_consensus:.3}, coverage {covered:.3}, disagreement {:?}",
        result.disagreement
    );
    assert!(covered > 0.92, "consensus intervals covered {covered}");
    assert_eq!(result.agreement.len(), 3);
}
