//! The fair ranking: distances with the whole interval included, ranks
//! shared by distances that show alike, verdicts against the reference
//! that ranks, and what the ranking is worth (noise, unresolved, none).

use c960_balance::{rank::RankInterval, verdict::Verdict};
use c960_verdict::{
    Interval, Reference,
    fair::{Against, Judged, Measure, Rules, Trust, judge, rank},
    reference::Scale,
};

const RULES: Rules = Rules {
    band_cp: 10.0,
    band_score: 0.02,
    level: 0.05,
    reliability: Some(0.9),
};

/// Positions 0, 1, … with these White scores, each with a normal error
/// `sd` and no interval.
fn scores(values: &[f64], sd: f64) -> Vec<Measure> {
    values
        .iter()
        .enumerate()
        .map(|(sp, &value)| Measure {
            sp: u16::try_from(sp).unwrap(),
            value,
            scale: Scale::Score,
            interval: None,
            error: Some((sd, f64::INFINITY)),
        })
        .collect()
}

fn verdict(judged: &Judged, sp: u16) -> Verdict {
    match judged.of(sp).unwrap().against {
        Some(Against::Verdict(v, _)) => v,
        other => panic!("SP {sp}: {other:?}"),
    }
}

#[test]
fn verdicts_are_against_the_reference_that_ranks() {
    // Two positions at 50%, two at 56%, precisely measured: against equal
    // chances the first two are within the band, against the typical
    // position (53%) none is.
    let measures = scores(&[0.50, 0.56, 0.501, 0.561], 0.002);
    let equal = judge(&measures, Reference::Equal, Some(&RULES), true);
    assert_eq!(verdict(&equal, 0), Verdict::Balanced);
    assert_eq!(verdict(&equal, 1), Verdict::MoreForWhite);
    let typical = judge(&measures, Reference::Typical, Some(&RULES), true);
    assert_eq!(verdict(&typical, 0), Verdict::LessForWhite);
    assert_eq!(verdict(&typical, 1), Verdict::MoreForWhite);
    assert_eq!(
        equal.of(0).unwrap().interval,
        Some(RankInterval { low: 1, high: 2 })
    );
    let tally = equal.tally.unwrap();
    assert_eq!(tally.of(Verdict::Balanced), 2);
    assert_eq!(tally.of(Verdict::MoreForWhite), 2);
    assert!((tally.band - 0.02).abs() < 1e-12);
}

#[test]
fn a_ranking_whose_reliability_is_not_above_zero_is_called_noise() {
    let measures = scores(&[0.5198; 960], 0.01);
    let noise = Rules {
        reliability: Some(-0.05),
        ..RULES
    };
    let judged = judge(&measures, Reference::Equal, Some(&noise), true);
    match judged.trust {
        Trust::Noise {
            reliability: Some(r),
            top: Some(top),
        } => {
            assert!((r + 0.05).abs() < 1e-12);
            assert_eq!((top.interval.low, top.interval.high, top.of), (1, 960, 960));
        }
        other => panic!("{other:?}"),
    }
    // Reliable but unresolved: every rank interval is wide.
    let judged = judge(&measures, Reference::Equal, Some(&RULES), true);
    assert!(
        matches!(judged.trust, Trust::Unresolved { .. }),
        "{:?}",
        judged.trust
    );
    // Without errors the ranks carry no interval.
    let engine: Vec<Measure> = [3.0, 1.0]
        .iter()
        .enumerate()
        .map(|(sp, &value)| Measure {
            sp: u16::try_from(sp).unwrap(),
            value,
            scale: Scale::Cp,
            interval: None,
            error: None,
        })
        .collect();
    let judged = judge(&engine, Reference::Equal, None, false);
    assert_eq!(judged.trust, Trust::NoIntervals { published: false });
    assert_eq!(judged.rows[0].ranked.sp, 1);
}

#[test]
fn the_classical_reference_is_the_reference_and_its_error_counts() {
    let mut values = vec![0.58; 960];
    values[518] = 0.535;
    values[3] = 0.54;
    let judged = judge(
        &scores(&values, 0.004),
        Reference::Classical,
        Some(&RULES),
        true,
    );
    assert_eq!(judged.rows[0].ranked.sp, 518);
    assert_eq!(judged.rows[0].against, Some(Against::TheReference));
    assert_eq!(verdict(&judged, 3), Verdict::Balanced);
    assert!(judged.tally.unwrap().own_error);
}

#[test]
fn the_whole_interval_counts_and_distances_that_show_alike_share_a_rank() {
    let at = |sp: u16, value: f64, low: f64, high: f64| Measure {
        sp,
        value,
        scale: Scale::Cp,
        interval: Some(Interval { low, high }),
        error: None,
    };
    // SP 20's estimate is nearest 0 cp, its interval is not; SP 3 and SP
    // 11 lie 4.0 cp away at their farther ends and share rank 1.
    let measures = [
        at(20, 0.5, -31.0, 30.0),
        at(11, 1.0, -2.0, 4.0),
        at(3, 2.0, 0.04, 3.96),
        at(7, 5.0, 1.0, 9.0),
    ];
    let ranked = rank(&measures, Reference::Equal);
    let order: Vec<(u16, usize)> = ranked.iter().map(|r| (r.sp, r.rank)).collect();
    assert_eq!(order, [(3, 1), (11, 1), (7, 3), (20, 4)]);
    assert!((ranked[3].distance - 31.0).abs() < 1e-12);
}
