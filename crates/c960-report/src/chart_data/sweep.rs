//! The charts of one sweep: White's advantage per position and its
//! distribution, grouped by features (weak pawns, castling on move 1,
//! pieces in the way of castling), and the mirror twins' differences.

use std::collections::BTreeMap;

use c960_verdict::figures::GroupMean;
use polars::prelude::*;

use super::{Shelf, chart_provenance};
use crate::{ReportError, Source, charts};

/// The charts of one sweep.
pub(super) fn sweep_charts(
    shelf: &mut Shelf,
    frame: &DataFrame,
    source: &Source,
) -> Result<(), ReportError> {
    let line = chart_provenance(source);
    let scores = sweep_scores(frame, source)?;
    let curve = charts::ScoreCurve {
        title: "White's advantage per position".to_owned(),
        provenance: line.clone(),
        scores: scores.clone(),
    };
    shelf.add(
        &format!(
            "One rater's view ({}): White's advantage per position",
            source.rater()
        ),
        &format!("advantage-{}", source.label),
        &curve,
    )?;
    let histogram = charts::ScoreHistogram {
        title: "Distribution of White's advantage".to_owned(),
        provenance: line.clone(),
        scores: scores.iter().map(|s| s.1).collect(),
        x_desc: "engine score, centipawns (White's view), 10-cp bins".to_owned(),
    };
    shelf.add(
        &format!(
            "One rater's view ({}): distribution of White's advantage",
            source.rater()
        ),
        &format!("histogram-{}", source.label),
        &histogram,
    )?;
    group_charts(shelf, frame, source, &scores, &line)?;
    let twins = mirror_differences(frame, &scores)?;
    let mirror = charts::ScoreHistogram {
        title: "Mirror twins: score difference (the castling effect)".to_owned(),
        provenance: line,
        scores: twins,
        x_desc: "score of the lower SP minus its mirror twin's, centipawns, 10-cp bins".to_owned(),
    };
    shelf.add(
        &format!(
            "One rater's view ({}): mirror twins' score differences",
            source.rater()
        ),
        &format!("mirror-twins-{}", source.label),
        &mirror,
    )?;
    Ok(())
}

/// The charts of White's advantage (`scores`) in a sweep grouped by a
/// feature: weak pawns, castling on move 1, pieces in the way.
fn group_charts(
    shelf: &mut Shelf,
    frame: &DataFrame,
    source: &Source,
    scores: &[(u32, f64)],
    line: &str,
) -> Result<(), ReportError> {
    // White's advantage grouped by a feature: (chart title, index title,
    // file name, grouping, x axis).
    let groupings: [(&str, &str, &str, GroupKey, &str); 3] = [
        (
            "White's advantage by number of weak pawns",
            "White's advantage by weak pawns",
            "by-weak-pawns",
            &|row| weak_group(frame, row),
            "weak pawns per side",
        ),
        (
            "White's advantage by castling legal on move 1",
            "White's advantage by castling on move 1",
            "by-castling",
            &|row| castling_group(frame, row),
            "castling legal on move 1 (each side has the same)",
        ),
        (
            "White's advantage by pieces in the way of castling",
            "White's advantage by pieces in the way",
            "by-castling-blockers",
            &|row| blockers_group(frame, row),
            "pieces between king and rook and on their target squares, both sides together",
        ),
    ];
    for (title, shown, name, key, x_desc) in groupings {
        let chart = charts::GroupMeans {
            title: title.to_owned(),
            provenance: line.to_owned(),
            groups: group_by(frame, scores, key)?
                .into_iter()
                .map(|(label, values)| (label, GroupMean::of(&values)))
                .collect(),
            x_desc: x_desc.to_owned(),
            y_desc: "mean engine score, centipawns (White's view)".to_owned(),
        };
        shelf.add(
            &format!("One rater's view ({}): {shown}", source.rater()),
            &format!("{name}-{}", source.label),
            &chart,
        )?;
    }
    Ok(())
}

/// `(sp, centipawns)` of a sweep, for positions with a centipawn score.
pub(super) fn sweep_scores(
    frame: &DataFrame,
    source: &Source,
) -> Result<Vec<(u32, f64)>, ReportError> {
    let sp = frame.column("sp")?.u32()?.clone();
    // A sweep with repeats is charted by its means over the repeats.
    let mean = format!("{}__score_cp_mean", source.label);
    let name = if frame.column(&mean).is_ok() {
        mean
    } else {
        format!("{}__score_cp", source.label)
    };
    let cp = frame.column(&name)?.cast(&DataType::Float64)?;
    let cp = cp.f64()?.clone();
    Ok((0..frame.height())
        .filter_map(|i| Some((sp.get(i)?, cp.get(i)?)))
        .collect())
}

/// Scores grouped by `key(row)`, which gives a group's order and label
/// (rows are SPs); groups come out in order.
fn group_by(
    frame: &DataFrame,
    scores: &[(u32, f64)],
    key: impl Fn(usize) -> Result<Option<(u32, String)>, ReportError>,
) -> Result<Vec<(String, Vec<f64>)>, ReportError> {
    let mut groups: BTreeMap<(u32, String), Vec<f64>> = BTreeMap::new();
    for (sp, score) in scores {
        let row = *sp as usize;
        if row < frame.height()
            && let Some(k) = key(row)?
        {
            groups.entry(k).or_default().push(*score);
        }
    }
    Ok(groups.into_iter().map(|((_, k), v)| (k, v)).collect())
}

/// A grouping of rows (SPs) for [`group_by`].
type GroupKey<'a> = &'a dyn Fn(usize) -> Result<Option<(u32, String)>, ReportError>;

/// The group "k weak" of a row.
fn weak_group(frame: &DataFrame, row: usize) -> Result<Option<(u32, String)>, ReportError> {
    Ok(frame
        .column("weak_pawns")?
        .u32()?
        .get(row)
        .map(|k| (k, format!("{k} weak"))))
}

/// Which castlings are legal on move 1 in a row's position.
fn castling_group(frame: &DataFrame, row: usize) -> Result<Option<(u32, String)>, ReportError> {
    let a = frame.column("castle_a_first_move")?.bool()?.get(row);
    let h = frame.column("castle_h_first_move")?.bool()?.get(row);
    Ok(match (a, h) {
        (Some(false), Some(false)) => Some((0, "neither".to_owned())),
        (Some(true), Some(false)) => Some((1, "a-side only".to_owned())),
        (Some(false), Some(true)) => Some((2, "h-side only".to_owned())),
        (Some(true), Some(true)) => Some((3, "both".to_owned())),
        _ => None,
    })
}

/// Pieces in the way of castling, both sides together, in a row's position.
fn blockers_group(frame: &DataFrame, row: usize) -> Result<Option<(u32, String)>, ReportError> {
    let a = frame.column("castle_a_blockers")?.u32()?.get(row);
    let h = frame.column("castle_h_blockers")?.u32()?.get(row);
    Ok(a.zip(h).map(|(a, h)| (a + h, format!("{}", a + h))))
}

/// Score of each position minus its mirror twin's, once per pair.
fn mirror_differences(frame: &DataFrame, scores: &[(u32, f64)]) -> Result<Vec<f64>, ReportError> {
    let twin = frame.column("mirror_sp")?.u32()?.clone();
    let by_sp: std::collections::HashMap<u32, f64> = scores.iter().copied().collect();
    Ok(scores
        .iter()
        .filter_map(|(sp, score)| {
            let t = twin.get(*sp as usize)?;
            (*sp < t)
                .then(|| by_sp.get(&t).map(|other| score - other))
                .flatten()
        })
        .collect())
}
