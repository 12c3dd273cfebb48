//! A recorded `agreement.json` shown again without the tables it was
//! computed from. It is shown only if it was made for the estimate this
//! report gives and its figures follow from its points: the headline (the
//! tables' standardized mean, or the only table) is recomputed from the
//! points with the recorded seed and must be the recorded one; each
//! table's row must be one a comparison can give over those points
//! (positions among them, intervals around their values, decile shares a
//! whole number of positions); each table is named with a SHA-256 of 64
//! hex digits, the mean after them with their count.
//!
//! A table's own row cannot follow from the points: each table given with
//! the record (matched by the SHA-256 the record names for it) is compared
//! again and its row must be the recomputed one. The rows recomputed (the
//! given tables', the mean's) are marked so; the others are shown as
//! recorded, and the site says so beside them.

use std::{
    fs,
    path::{Path, PathBuf},
};

use c960_balance::agreement::{
    Bootstrap, Comparison, Estimate, compare, compare_by_sp, significant,
};
use c960_store::read_position_column;

use std::collections::BTreeMap;

use super::{Agreement, Analysis};
use crate::VerdictError;

/// How far a recomputed figure may be from its record: the points are
/// rounded to 12 significant digits, so the figures recomputed from them
/// differ from those computed from the tables in the last digits only.
const TOLERANCE: f64 = 1e-9;

/// Shows again an agreement recorded in `record` (an `agreement.json` of
/// an earlier report), refused unless every recorded estimate is the one
/// this report gives the same position and every figure follows from the
/// recorded points: the tables it was computed from need not be at hand.
/// Each of `tables` (`sp,value` files or `FILE:COLUMN`) must be one the
/// record names by its SHA-256, and its row is recomputed from it. The
/// estimate is `ours`, described by `estimate`.
pub fn from_record(
    (estimate, ours): (&str, &BTreeMap<u32, f64>),
    record: &Path,
    tables: &[PathBuf],
) -> Result<Agreement, VerdictError> {
    let bad = |reason: String| VerdictError::BadInput {
        path: record.to_path_buf(),
        reason,
    };
    let text = fs::read_to_string(record).map_err(|e| bad(format!("cannot be read: {e}")))?;
    // Every number was written to 12 significant digits, so it reads back
    // as exactly the number it was written from.
    let mut agreement: Agreement = serde_json::from_str(&text)
        .map_err(|e| bad(format!("is not an agreement.json of c960 report: {e}")))?;
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
    let seed = agreement.seed;
    let references = &mut agreement.references;
    if let [_, .., mean] = references.as_mut_slice() {
        mean.recomputed = true;
    }
    let rows = references.len() - usize::from(references.len() > 1);
    for table in tables {
        recompute_row(&mut references[..rows], table, (ours, seed), bad)?;
    }
    Ok(agreement)
}

/// Recomputes the row of `rows` whose SHA-256 is `table`'s file's from
/// `table` against `ours` with the recorded `seed`, and marks it so;
/// refused (`bad`, naming the record) if the table is none of them, was
/// given already, or its row is not what the table gives.
fn recompute_row(
    rows: &mut [Analysis],
    table: &Path,
    (ours, seed): (&BTreeMap<u32, f64>, u64),
    bad: impl Fn(String) -> VerdictError,
) -> Result<(), VerdictError> {
    let spec = table.to_string_lossy();
    let column = read_position_column(&spec).map_err(|e| VerdictError::BadInput {
        path: e.path.clone(),
        reason: e.reason,
    })?;
    let sha256 = c960_store::sha256_hex(&fs::read(&column.path)?);
    let Some(row) = rows.iter_mut().find(|r| r.sha256 == sha256) else {
        return Err(bad(format!(
            "names no table with the SHA-256 of --validation {spec} ({sha256}): give only the \
             tables it was computed from"
        )));
    };
    if row.recomputed {
        return Err(bad(format!(
            "--validation {spec}: {:?} is given twice",
            row.name
        )));
    }
    let bootstrap = Bootstrap {
        seed,
        ..Bootstrap::default()
    };
    let name = row.name.clone();
    let differs = |why: String| {
        bad(format!(
            "its row for {name:?} is not what --validation {spec} gives: {why}"
        ))
    };
    let recomputed = compare_by_sp(ours, &column.values, bootstrap)
        .map_err(|why| differs(why.describe("the report's estimate", &name)))?;
    if row.positions != column.values.len() {
        return Err(differs(format!(
            "positions {} recorded, {} in the table",
            row.positions,
            column.values.len()
        )));
    }
    follows(&row.comparison, &recomputed, true, "the table").map_err(differs)?;
    row.recomputed = true;
    Ok(())
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
            return Err(if earlier.name == table.name {
                format!("lists the row of {:?} twice", table.name)
            } else {
                format!(
                    "names one file twice ({:?} and {:?} have one SHA-256)",
                    earlier.name, table.name
                )
            });
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
    follows(
        &headline.comparison,
        &recomputed,
        mean.is_some(),
        "the points",
    )
    .map_err(|why| {
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

/// Whether `recorded` is `recomputed` (within [`TOLERANCE`]) from `from`
/// (the points, or the table); with `units`, its offset and scale too.
fn follows(
    recorded: &Comparison,
    recomputed: &Comparison,
    units: bool,
    from: &str,
) -> Result<(), String> {
    if recorded.positions != recomputed.positions {
        return Err(format!(
            "compared over {} positions recorded, {} from {from}",
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
            Err(format!("{what} {a} recorded, {b} from {from}"))
        })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    /// A value that varies with the SP and `stream`, not linearly.
    fn wobble(sp: u32, stream: u32) -> f64 {
        f64::from((sp.wrapping_mul(2_654_435_761) ^ stream.wrapping_mul(40_503)) % 2001) / 10.0
    }

    /// The estimate over SP 0-47, two tables of it with noise in `dir`,
    /// and their rows as a report records them.
    fn two_tables(dir: &Path) -> (BTreeMap<u32, f64>, Vec<PathBuf>, Vec<Analysis>) {
        let ours: BTreeMap<u32, f64> = (0..48).map(|sp| (sp, wobble(sp, 1))).collect();
        let (mut paths, mut rows) = (Vec::new(), Vec::new());
        for stream in [2, 3] {
            let path = dir.join(format!("t{stream}.csv"));
            let mut text = String::from("sp,value\n");
            for (sp, v) in &ours {
                let _ = writeln!(text, "{sp},{}", v + 2.0 * wobble(*sp, stream));
            }
            fs::write(&path, &text).unwrap();
            let column = read_position_column(&path.to_string_lossy()).unwrap();
            rows.push(Analysis {
                name: format!("t{stream}.csv"),
                sha256: c960_store::sha256_hex(text.as_bytes()),
                positions: column.values.len(),
                comparison: compare_by_sp(&ours, &column.values, Bootstrap::default()).unwrap(),
                recomputed: false,
            });
            paths.push(path);
        }
        (ours, paths, rows)
    }

    fn bad(reason: String) -> VerdictError {
        VerdictError::BadInput {
            path: PathBuf::from("record.json"),
            reason,
        }
    }

    #[test]
    fn a_row_edited_consistently_is_refused_when_its_table_is_given() {
        let dir = tempfile::tempdir().unwrap();
        let (ours, paths, mut rows) = two_tables(dir.path());
        let seed = Bootstrap::default().seed;
        rows[0].comparison.pearson = Estimate {
            value: 0.99,
            low: 0.985,
            high: 0.995,
        };
        let refused = recompute_row(&mut rows, &paths[0], (&ours, seed), bad)
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with("record.json: its row for \"t2.csv\" is not what --validation")
                && refused.contains("pearson 0.99 recorded"),
            "{refused}"
        );
        // The other table's row is recomputed, the same as recorded.
        recompute_row(&mut rows, &paths[1], (&ours, seed), bad).unwrap();
        assert!(!rows[0].recomputed && rows[1].recomputed);
        // Given twice, or a table the record does not name: refused.
        let twice = recompute_row(&mut rows, &paths[1], (&ours, seed), bad).unwrap_err();
        assert!(twice.to_string().contains("is given twice"), "{twice}");
        let other = dir.path().join("other.csv");
        fs::write(&other, "sp,value\n1,2\n").unwrap();
        let unnamed = recompute_row(&mut rows, &other, (&ours, seed), bad).unwrap_err();
        assert!(
            unnamed
                .to_string()
                .contains("names no table with the SHA-256"),
            "{unnamed}"
        );
    }

    #[test]
    fn a_duplicated_row_is_named_as_a_row_given_twice() {
        let dir = tempfile::tempdir().unwrap();
        let (_, _, rows) = two_tables(dir.path());
        let agreement = |references: Vec<Analysis>| Agreement {
            estimate: "e".to_owned(),
            references,
            seed: Bootstrap::default().seed,
            points: Vec::new(),
        };
        let twice = vec![rows[0].clone(), rows[0].clone(), rows[1].clone()];
        let why = check_figures(&agreement(twice)).unwrap_err();
        assert_eq!(why, "lists the row of \"t2.csv\" twice");
        // Two names for one file: both named.
        let mut renamed = rows[0].clone();
        renamed.name = "copy.csv".to_owned();
        let why =
            check_figures(&agreement(vec![rows[0].clone(), renamed, rows[1].clone()])).unwrap_err();
        assert!(
            why.contains("\"t2.csv\" and \"copy.csv\" have one SHA-256"),
            "{why}"
        );
    }

    #[test]
    fn a_row_whose_table_is_not_given_is_shown_as_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let (ours, paths, mut rows) = two_tables(dir.path());
        // Its positions edited: refused with the table, shown as recorded
        // (and so marked) without it.
        rows[1].positions = 47;
        let seed = Bootstrap::default().seed;
        let refused = recompute_row(&mut rows, &paths[1], (&ours, seed), bad).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("positions 47 recorded, 48 in the table"),
            "{refused}"
        );
        recompute_row(&mut rows, &paths[0], (&ours, seed), bad).unwrap();
        let agreement = Agreement {
            estimate: "e".to_owned(),
            references: rows,
            seed,
            points: Vec::new(),
        };
        let csv = super::super::csv(&agreement).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].ends_with(",\"recomputed\""), "{csv}");
        assert!(lines[1].ends_with(",\"true\"") && lines[2].ends_with(",\"false\""));
    }
}
