//! A recorded `agreement.json` shown again without the tables it was
//! computed from. It is shown only if it was made for the estimate this
//! report gives and its figures follow from its points: the headline (the
//! tables' standardized mean, or the only table) is recomputed from the
//! points with the recorded seed and must be the recorded one; each
//! table's row must be one a comparison can give over those points
//! (positions among them, intervals around their values, decile shares a
//! whole number of positions); each table is named with a SHA-256 of 64
//! hex digits, the mean after them with their count.

use std::{fs, path::Path};

use c960_balance::agreement::{Bootstrap, Comparison, Estimate, compare, significant};

use super::{Agreement, Analysis, estimate_of, write};
use crate::{ReportError, balance::Balance, charts::Shown};

/// How far a recomputed figure may be from its record: the points are
/// rounded to 12 significant digits, so the figures recomputed from them
/// differ from those computed from the tables in the last digits only.
const TOLERANCE: f64 = 1e-9;

/// Shows again an agreement recorded in `record` (an `agreement.json` of
/// an earlier report), refused unless every recorded estimate is the one
/// this report gives the same position and every figure follows from the
/// recorded points: the tables it was computed from need not be at hand.
pub fn from_record(
    balance: &Balance,
    record: &Path,
    out: &Path,
) -> Result<(Agreement, Shown), ReportError> {
    let bad = |reason: String| ReportError::BadRun {
        dir: record.to_path_buf(),
        reason,
    };
    let text = fs::read_to_string(record).map_err(|e| bad(format!("cannot be read: {e}")))?;
    // Every number was written to 12 significant digits, so it reads back
    // as exactly the number it was written from.
    let agreement: Agreement = serde_json::from_str(&text)
        .map_err(|e| bad(format!("is not an agreement.json of c960 report: {e}")))?;
    let (estimate, ours) = estimate_of(balance);
    if agreement.estimate != estimate {
        return Err(bad(format!(
            "compares {}, this report's estimate is {estimate}",
            agreement.estimate
        )));
    }
    for &(sp, _, recorded) in &agreement.points {
        let now = ours.get(&sp).copied().map(significant);
        if now.map(f64::to_bits) != Some(recorded.to_bits()) {
            return Err(bad(format!(
                "was made for another estimate: SP {sp} is {recorded} there, {} now",
                now.map_or_else(|| "absent".to_owned(), |v| v.to_string())
            )));
        }
    }
    if agreement.points.is_empty() || agreement.references.is_empty() {
        return Err(bad("records no comparison".to_owned()));
    }
    check_figures(&agreement).map_err(bad)?;
    write(&agreement, out)
}

/// Whether every figure of `agreement` follows from its points; why not,
/// in one line.
fn check_figures(agreement: &Agreement) -> Result<(), String> {
    let references = &agreement.references;
    let (tables, mean) = match references.split_last() {
        Some((mean, tables)) if !tables.is_empty() => (tables, Some(mean)),
        _ => (references.as_slice(), None),
    };
    for (i, table) in tables.iter().enumerate() {
        let digest = &table.sha256;
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "the SHA-256 of {:?} is not 64 hex digits",
                table.name
            ));
        }
        if let Some(earlier) = tables[..i].iter().find(|t| t.sha256 == *digest) {
            return Err(format!(
                "names one file twice ({:?} and {:?} have one SHA-256)",
                earlier.name, table.name
            ));
        }
    }
    if let Some(mean) = mean {
        let label = format!("mean of the {} (standardized)", tables.len());
        if mean.name != label || !mean.sha256.is_empty() {
            return Err(format!(
                "its last row {:?} is not the {label} of its {} tables",
                mean.name,
                tables.len()
            ));
        }
    }
    if !agreement.points.windows(2).all(|w| w[0].0 < w[1].0) {
        return Err("its points are not one per SP in order".to_owned());
    }
    let points = agreement.points.len();
    let headline = mean.unwrap_or(&tables[0]);
    for reference in references {
        plausible(reference, points).map_err(|why| format!("{:?}: {why}", reference.name))?;
    }
    let bootstrap = Bootstrap {
        seed: agreement.seed,
        ..Bootstrap::default()
    };
    let (x, y): (Vec<f64>, Vec<f64>) = agreement.points.iter().map(|p| (p.2, p.1)).unzip();
    let recomputed = compare(&x, &y, bootstrap)
        .ok_or_else(|| "its points give no comparison (too few, or no spread)".to_owned())?;
    // Offset and scale are in the table's own units with one table, and
    // the points hold its standardized values: they follow from the points
    // for the mean only.
    follows(&headline.comparison, &recomputed, mean.is_some()).map_err(|why| {
        format!(
            "its figures for {:?} do not follow from its points: {why}",
            headline.name
        )
    })?;
    if headline.positions < points {
        return Err(format!(
            "{:?} scores {} positions, fewer than its {points} points",
            headline.name, headline.positions
        ));
    }
    Ok(())
}

/// Whether `reference` is a comparison that can be made over (a subset
/// of) `points` positions with c960's bootstrap.
#[allow(clippy::cast_precision_loss)]
fn plausible(reference: &Analysis, points: usize) -> Result<(), String> {
    let c = &reference.comparison;
    let defaults = Bootstrap::default();
    if c.resamples != defaults.resamples || c.level.to_bits() != defaults.level.to_bits() {
        return Err(format!(
            "{} resamples at level {}, c960 report draws {} at {}",
            c.resamples, c.level, defaults.resamples, defaults.level
        ));
    }
    if !(10..=points).contains(&c.positions) || c.positions > reference.positions {
        return Err(format!(
            "compared over {} positions, not 10 to its {points} points and at most the {} it \
             scores",
            c.positions, reference.positions
        ));
    }
    if reference.positions > 960 {
        return Err(format!("scores {} positions of 960", reference.positions));
    }
    for (what, e) in [("pearson", c.pearson), ("spearman", c.spearman)] {
        let inside = |v: f64| (-1.0..=1.0).contains(&v);
        if !(inside(e.low) && inside(e.high) && e.low <= e.value && e.value <= e.high) {
            return Err(format!(
                "{what} {} with the interval {} to {} is no correlation with its interval",
                e.value, e.low, e.high
            ));
        }
    }
    let tenth = (c.positions / 10) as f64;
    for (what, share) in [
        ("top_decile", c.top_decile),
        ("bottom_decile", c.bottom_decile),
    ] {
        let count = share * tenth;
        if !(0.0..=1.0).contains(&share) || (count - count.round()).abs() > TOLERANCE * tenth {
            return Err(format!(
                "{what} {share} is not a share of the {tenth} positions in a tenth"
            ));
        }
    }
    if !(c.offset.is_finite() && c.scale.is_finite()) {
        return Err("offset and scale must be numbers".to_owned());
    }
    Ok(())
}

/// Whether `recorded` is `recomputed` (within [`TOLERANCE`]); with
/// `units`, its offset and scale too.
fn follows(recorded: &Comparison, recomputed: &Comparison, units: bool) -> Result<(), String> {
    if recorded.positions != recomputed.positions {
        return Err(format!(
            "positions {} recorded, {} points",
            recorded.positions, recomputed.positions
        ));
    }
    let close = |a: f64, b: f64| (a - b).abs() <= TOLERANCE * a.abs().max(b.abs()).max(1.0);
    let estimate = |what: &str, a: Estimate, b: Estimate| {
        [
            (what.to_owned(), a.value, b.value),
            (format!("{what}_low"), a.low, b.low),
            (format!("{what}_high"), a.high, b.high),
        ]
    };
    let mut figures = Vec::new();
    figures.extend(estimate("pearson", recorded.pearson, recomputed.pearson));
    figures.extend(estimate("spearman", recorded.spearman, recomputed.spearman));
    let mut named = |what: &str, a: f64, b: f64| figures.push((what.to_owned(), a, b));
    named("top_decile", recorded.top_decile, recomputed.top_decile);
    named(
        "bottom_decile",
        recorded.bottom_decile,
        recomputed.bottom_decile,
    );
    if units {
        named("offset", recorded.offset, recomputed.offset);
        named("scale", recorded.scale, recomputed.scale);
    }
    figures
        .iter()
        .find(|(_, a, b)| !close(*a, *b))
        .map_or(Ok(()), |(what, a, b)| {
            Err(format!("{what} {a} recorded, {b} from the points"))
        })
}
