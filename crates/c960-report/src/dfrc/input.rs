//! A DFRC sweep as the report reads it: its manifest (provenance, failed
//! setups) and one score per setup from its table, White's advantage in
//! centipawns (the mean over repeats when the sweep has them), with the
//! spread of its searches.

use std::path::{Path, PathBuf};

use c960_core::DfrcSetup;
use c960_store::{
    CorruptFile, MANIFEST_FILE, PARQUET_MANIFEST_KEY, RunManifest, Variant, check_parquet,
};
pub use c960_verdict::dfrc::SetupScore;
use polars::prelude::*;
use serde::Serialize;

use crate::ReportError;

/// The centipawns a mate counts as, as in the sweep's own means
/// (`c960_sweep::MATE_CP`): a mate in a start setup is out of reach of any
/// real search.
pub const MATE_CP: f64 = 1000.0;

/// The variant a run's manifest names: `Some(true)` for DFRC,
/// `Some(false)` for Chess960 (no `variant`, or `chess960`), `None` when
/// the directory has no manifest (the Chess960 report says why). A
/// manifest that does not read is a bad run naming the file and field.
/// A sweep table given on its own is read by [`crate::source`], which
/// names what is wrong with it; a DFRC sweep is read from its directory.
pub fn variant_is_dfrc(dir: &Path) -> Result<Option<bool>, ReportError> {
    if dir.is_file() {
        let source = crate::source(dir)?;
        if source.manifest.variant == Variant::Dfrc {
            return Err(ReportError::BadRun {
                dir: dir.to_owned(),
                reason: "a DFRC sweep is read from its run directory; give that directory"
                    .to_owned(),
            });
        }
        return Ok(Some(false));
    }
    if !dir.join(MANIFEST_FILE).is_file() {
        return Ok(None);
    }
    let manifest = RunManifest::read(dir).map_err(|e| ReportError::BadRun {
        dir: dir.to_owned(),
        reason: e.to_string(),
    })?;
    Ok(Some(manifest.variant == Variant::Dfrc))
}

/// A DFRC sweep, read.
#[derive(Clone, Debug, Serialize)]
pub struct DfrcRun {
    /// Its label: engine and limit, as the Chess960 report labels runs.
    pub label: String,
    /// The run directory.
    pub dir: PathBuf,
    /// Its manifest (serialized as written).
    pub manifest: RunManifest,
    /// Setups (DFRC indices) whose searches failed, with the reason.
    pub failed: Vec<(u32, String)>,
    /// One score per setup, by index.
    #[serde(skip)]
    pub scores: Vec<SetupScore>,
}

impl DfrcRun {
    /// Reads the DFRC sweep in `dir`.
    pub fn read(dir: &Path) -> Result<DfrcRun, ReportError> {
        let bad = |reason: String| ReportError::BadRun {
            dir: dir.to_owned(),
            reason,
        };
        let manifest = RunManifest::read(dir).map_err(|e| bad(e.to_string()))?;
        if manifest.variant != Variant::Dfrc {
            return Err(bad(format!(
                "not a DFRC run: {MANIFEST_FILE} names no variant dfrc"
            )));
        }
        if manifest.kind != c960_store::RunKind::Sweep {
            return Err(bad(format!(
                "a DFRC {} run: the DFRC report reads sweeps only",
                manifest.kind.name()
            )));
        }
        let failed = manifest
            .failed
            .iter()
            .map(|f| {
                let reason = f.reason.as_deref().unwrap_or("reason not recorded");
                (f.sp, reason.to_owned())
            })
            .collect();
        let label = crate::source::slug(&format!(
            "dfrc sweep {} {}",
            manifest.engine_names().join(" vs "),
            manifest.limit.as_deref().unwrap_or_default()
        ));
        let scores = read_scores(dir, &manifest)?;
        Ok(DfrcRun {
            label,
            dir: dir.to_owned(),
            manifest,
            failed,
            scores,
        })
    }
}

/// A manifest field as text on the report's pages: `not recorded` when
/// absent.
#[must_use]
pub fn recorded<T: ToString>(field: Option<T>) -> String {
    field.map_or_else(|| "not recorded".to_owned(), |v| v.to_string())
}

/// The columns of `wanted` that the DFRC sweep table at `path` has (it
/// must have `setup`).
fn setup_columns(path: &Path, wanted: &[&str]) -> Result<DataFrame, ReportError> {
    let corrupt = |reason: String| CorruptFile {
        path: path.to_owned(),
        reason,
    };
    let names = c960_store::parquet_column_names(path)?;
    if !names.iter().any(|n| n == "setup") {
        return Err(corrupt("has no setup column: it is not a DFRC sweep table".to_owned()).into());
    }
    let present: Vec<String> = wanted
        .iter()
        .filter(|c| names.iter().any(|n| n == *c))
        .map(|c| (*c).to_owned())
        .collect();
    Ok(c960_store::parquet_columns(path, present)?)
}

/// Refuses a sweep table in `dir` whose embedded manifest (`info`) or row
/// count disagrees with the run's `manifest`.
fn check_against_manifest(
    dir: &Path,
    info: &c960_store::ParquetInfo,
    manifest: &RunManifest,
) -> Result<(), ReportError> {
    let path = dir.join(c960_store::SWEEP_TABLE);
    let corrupt = |reason: String| CorruptFile {
        path: path.clone(),
        reason,
    };
    if let Some(inside) = info.get(PARQUET_MANIFEST_KEY) {
        let inside = RunManifest::parse(inside)
            .map_err(|e| corrupt(format!("the manifest inside it cannot be read ({e})")))?;
        if inside != *manifest {
            return Err(ReportError::BadRun {
                dir: dir.to_owned(),
                reason: format!(
                    "{MANIFEST_FILE} does not match the manifest inside {} (edited?)",
                    c960_store::SWEEP_TABLE
                ),
            });
        }
    }
    if let Some(rows) = manifest.rows
        && usize::try_from(rows).ok() != Some(info.rows)
    {
        return Err(corrupt(format!(
            "holds {} rows but its manifest says {rows}",
            info.rows
        ))
        .into());
    }
    Ok(())
}

/// The scores of the sweep table in `dir`, checked against the manifest.
fn read_scores(dir: &Path, manifest: &RunManifest) -> Result<Vec<SetupScore>, ReportError> {
    let path = dir.join(c960_store::SWEEP_TABLE);
    let info = check_parquet(&path)?;
    let corrupt = |reason: String| CorruptFile {
        path: path.clone(),
        reason,
    };
    check_against_manifest(dir, &info, manifest)?;
    let wanted = [
        "setup",
        "score_cp",
        "score_mate",
        "wdl_win",
        "wdl_draw",
        "repeats",
        "score_cp_mean",
        "score_cp_sd",
        "white_expected_mean",
    ];
    let frame = setup_columns(&path, &wanted)?;
    let column = |name: &str| -> Result<Vec<Option<f64>>, ReportError> {
        Ok(match frame.column(name) {
            Ok(c) => c.cast(&DataType::Float64)?.f64()?.iter().collect(),
            Err(_) => vec![None; frame.height()],
        })
    };
    let [setup, cp, mate, win, draw, repeats, mean, sd, expected] = wanted.map(column);
    let (setup, cp, mate, win, draw) = (setup?, cp?, mate?, win?, draw?);
    let (repeats, mean, sd, expected) = (repeats?, mean?, sd?, expected?);
    let mut scores = Vec::with_capacity(frame.height());
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..frame.height() {
        let index = setup[i]
            .filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v < 921_600.0)
            .ok_or_else(|| corrupt(format!("row {i}: setup is not an index 0 to 921599")))?;
        // The index is a whole number below 921,600.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let setup = DfrcSetup::new(index as u32).map_err(|e| corrupt(e.to_string()))?;
        if !seen.insert(setup) {
            return Err(corrupt(format!("setup {} has two rows", setup.index())).into());
        }
        let single = cp[i].or_else(|| mate[i].map(|m| MATE_CP * m.signum()));
        let Some(score) = mean[i].or(single) else {
            continue;
        };
        let wdl = match (win[i], draw[i]) {
            (Some(w), Some(d)) => Some((w + d / 2.0) / 1000.0),
            _ => None,
        };
        // Repeat counts are small whole numbers.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let searches = repeats[i].map_or(1, |r| r as u32);
        scores.push(SetupScore {
            setup,
            cp: score,
            cp_sd: sd[i],
            searches,
            expected: expected[i].or(wdl),
        });
    }
    scores.sort_by_key(|s| s.setup);
    Ok(scores)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mate_counts_as_in_the_sweeps_means() {
        assert!((super::MATE_CP - c960_sweep::MATE_CP).abs() < f64::EPSILON);
    }
}
