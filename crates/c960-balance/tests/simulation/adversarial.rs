//! The rater consensus against adversarial rater sets, with known truth:
//! exact copies, near-copies, relabelled copies of part of a rater,
//! a sign-flipped rater, a constant rater, a rater with two positions,
//! and raters on different position sets. Each set either keeps the
//! intervals' coverage at 0.95 (within simulation error) and the false
//! discovery rate at 0.05, or is refused naming the rater. Every set's
//! figures are printed (CI runs this module with `--nocapture`).

use c960_balance::{
    consensus::{EngineMeans, RaterError, Weights, consensus},
    rng::Rng,
};

use super::raters::{DIVERSE, FDR, Interval, RUNS, judge, mean, simulate, truths};

/// Coverage may fall short of 0.95 by no more than the simulation's own
/// error (20 runs of 960 positions).
const COVERAGE: f64 = 0.945;

/// The honest design with `tamper` applied to each replication's raters:
/// coverage, false discovery rate and share decided, averaged over runs.
fn judged(seed: u64, tamper: impl Fn(&mut Vec<EngineMeans>, &mut Rng)) -> (f64, f64, f64) {
    let truth = truths(960);
    let mut rng = Rng::new(seed);
    let (mut coverage, mut fdp, mut decided) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let mut raters = simulate(&truth, &DIVERSE, &mut rng);
        tamper(&mut raters, &mut rng);
        let result = consensus(&raters, 0.95, Weights::Data).unwrap();
        let estimates: Vec<Interval> = result
            .positions
            .iter()
            .map(|p| {
                let p = p.unwrap();
                (p.estimate, p.se, p.df)
            })
            .collect();
        let (c, f, d) = judge(&truth, &estimates);
        coverage.push(c);
        fdp.push(f);
        decided.push(d);
    }
    (mean(&coverage), mean(&fdp), mean(&decided))
}

/// Asserts and prints one adversarial set's figures.
fn holds(name: &str, (c, f, d): (f64, f64, f64)) {
    println!(
        "adversarial set {name}: coverage {c:.3}, false discovery rate {f:.3}, decided {d:.3}"
    );
    assert!(c >= COVERAGE, "{name}: coverage {c}");
    assert!(f <= FDR, "{name}: false discovery rate {f}");
}

/// A copy of rater `e` under another name, with `noise` cp of noise added
/// to each score, over the positions `keep` says.
fn copy_of(
    raters: &[EngineMeans],
    e: usize,
    noise: f64,
    keep: impl Fn(usize) -> bool,
    rng: &mut Rng,
) -> EngineMeans {
    let mut copy = raters[e].clone();
    copy.name = format!("copy of {}", copy.name);
    for (i, m) in copy.means.iter_mut().enumerate() {
        *m = if keep(i) {
            m.map(|v| v + noise * rng.normal())
        } else {
            None
        };
    }
    copy
}

#[test]
fn the_honest_design_holds() {
    holds("honest (four diverse raters)", judged(40, |_, _| {}));
}

#[test]
fn exact_copies_are_merged_and_intervals_hold() {
    holds(
        "exact copies (every rater twice)",
        judged(41, |raters, rng| {
            for e in 0..raters.len() {
                let copy = copy_of(raters, e, 0.0, |_| true, rng);
                raters.push(copy);
            }
        }),
    );
    let truth = truths(960);
    let mut rng = Rng::new(41);
    let mut raters = simulate(&truth, &DIVERSE, &mut rng);
    raters.push(copy_of(&raters, 1, 0.0, |_| true, &mut rng));
    let result = consensus(&raters, 0.95, Weights::Data).unwrap();
    assert_eq!(result.engines.len(), 4, "the copy counts once");
    assert_eq!(result.merged.len(), 1);
    assert_eq!(result.merged[0].copy, "copy of rater 1");
    assert_eq!(result.merged[0].kept, "rater 1");
}

#[test]
fn near_copies_are_merged_and_intervals_hold() {
    holds(
        "near-copies (±1 cp of noise)",
        judged(42, |raters, rng| {
            let copy = copy_of(raters, 0, 1.0, |_| true, rng);
            raters.push(copy);
            let copy = copy_of(raters, 2, 1.0, |_| true, rng);
            raters.push(copy);
        }),
    );
}

#[test]
fn a_relabelled_copy_of_part_of_a_rater_is_merged_and_intervals_hold() {
    holds(
        "subset copy (rater 0 on positions 0-99)",
        judged(43, |raters, rng| {
            let copy = copy_of(raters, 0, 0.0, |i| i < 100, rng);
            raters.push(copy);
        }),
    );
}

#[test]
fn raters_on_different_position_sets_keep_their_intervals() {
    holds(
        "different position sets (overlap 240)",
        judged(44, |raters, _| {
            for (i, m) in raters[3].means.iter_mut().enumerate() {
                if i >= 480 {
                    *m = None;
                }
            }
            for (i, m) in raters[2].means.iter_mut().enumerate() {
                if i < 240 {
                    *m = None;
                }
            }
        }),
    );
}

/// The refusal `tamper` provokes on the honest design.
fn refusal(tamper: impl Fn(&mut Vec<EngineMeans>)) -> RaterError {
    let truth = truths(960);
    let mut raters = simulate(&truth, &DIVERSE, &mut Rng::new(45));
    tamper(&mut raters);
    let error = consensus(&raters, 0.95, Weights::Data).unwrap_err();
    println!("adversarial set refused: {error}");
    error
}

#[test]
fn a_sign_flipped_rater_is_refused() {
    let error = refusal(|raters| {
        let mut flipped = raters[0].clone();
        flipped.name = "flipped".to_owned();
        for m in flipped.means.iter_mut().flatten() {
            *m = -*m;
        }
        raters.push(flipped);
    });
    assert!(
        matches!(&error, RaterError::AgainstTheOthers { rater, r } if rater == "flipped" && *r < 0.0),
        "{error}"
    );
    // Two raters, one flipped: they run against each other.
    let error = refusal(|raters| {
        raters.truncate(2);
        for m in raters[1].means.iter_mut().flatten() {
            *m = -*m;
        }
    });
    assert!(
        matches!(error, RaterError::AgainstTheOthers { .. }),
        "{error}"
    );
}

#[test]
fn a_sign_flip_beside_copies_is_blamed_on_the_flipped_rater() {
    // An honest rater, its exact copy and a flipped one: once the copies
    // are merged, two raters run against each other, but the copy already
    // said which one is honest.
    let error = refusal(|raters| {
        raters.truncate(1);
        let mut copy = raters[0].clone();
        copy.name = "copy".to_owned();
        let mut flipped = raters[0].clone();
        flipped.name = "flipped".to_owned();
        for m in flipped.means.iter_mut().flatten() {
            *m = -*m;
        }
        raters.push(copy);
        raters.push(flipped);
    });
    assert!(
        matches!(&error, RaterError::AgainstTheOthers { rater, .. } if rater == "flipped"),
        "{error}"
    );
}

#[test]
fn a_constant_rater_is_refused() {
    let error = refusal(|raters| {
        let mut constant = raters[0].clone();
        constant.name = "constant".to_owned();
        for m in constant.means.iter_mut().flatten() {
            *m = 25.0;
        }
        raters.push(constant);
    });
    assert_eq!(
        error,
        RaterError::NoSpread {
            rater: "constant".to_owned()
        }
    );
}

#[test]
fn a_rater_with_two_positions_is_refused() {
    let error = refusal(|raters| {
        for (i, m) in raters[2].means.iter_mut().enumerate() {
            if i >= 2 {
                *m = None;
            }
        }
    });
    assert_eq!(
        error,
        RaterError::TooFewPositions {
            rater: "rater 2".to_owned(),
            positions: 2
        }
    );
}

#[test]
fn raters_without_common_positions_are_refused() {
    let error = refusal(|raters| {
        for (i, m) in raters[3].means.iter_mut().enumerate() {
            if i >= 480 {
                *m = None;
            }
        }
        for (i, m) in raters[2].means.iter_mut().enumerate() {
            if i < 480 {
                *m = None;
            }
        }
    });
    assert!(
        matches!(&error, RaterError::TooLittleOverlap { shared: 0, .. }),
        "{error}"
    );
}

#[test]
fn absurd_scores_are_refused() {
    for value in [1e300, f64::INFINITY, 2_147_483_647.0] {
        let error = refusal(|raters| raters[1].means[7] = Some(value));
        assert!(
            matches!(error, RaterError::OutOfBounds { ref rater, .. } if rater == "rater 1"),
            "{error}"
        );
    }
}
