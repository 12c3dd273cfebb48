//! The report for Double Fischer Random Chess sweeps (`c960 report --sweep
//! DIR` where the sweep ran `--variant dfrc`): White's advantage against
//! the asymmetries between the two back ranks.
//!
//! For each sweep ([`DfrcRun::read`]) the analysis
//! ([`c960_verdict::dfrc::analyse`], computed in `c960-verdict`; this
//! module reads and renders it) gives
//! - group means of White's advantage with 95% intervals and `n` for each
//!   per-side feature (weak pawns, pawns attackable on the first move,
//!   castlings legal on the first move, corner bishops) and each asymmetry
//!   (White's minus Black's), with charts of the asymmetries;
//! - an OLS regression of White's advantage on the per-side features, with
//!   heteroskedasticity-robust (HC3, and HC1) intervals;
//! - the symmetric setups (the Chess960 positions) against the rest: the
//!   difference in mean (Welch) and in spread (seeded bootstrap);
//! - each setup's verdict with its Benjamini–Hochberg q-value from the
//!   search noise the repeats measure (`c960-balance`), the most and least
//!   balanced setups, and the sweep's repeatability.
//!
//! The site ([`build_into`]) is `index.html` with the charts, and the
//! numbers in `dfrc.json`, `dfrc_setups.csv`, `dfrc_groups.csv` and
//! `dfrc_regression.csv`; like the Chess960 report it is built beside its
//! target and swapped in whole (`build.rs`).

pub mod charts;
pub mod input;
mod page;

use std::{
    io,
    path::{Path, PathBuf},
};

use c960_store::Frame;
use polars::prelude::*;
use serde::Serialize;

pub use c960_verdict::dfrc::{Analysis, FEATURES, FeatureKind, Settings};
pub use input::{DfrcRun, variant_is_dfrc};

use crate::ReportError;

/// Everything the report computed, as JSON.
pub const DFRC_JSON: &str = "dfrc.json";
/// One row per setup and sweep.
pub const DFRC_SETUPS_CSV: &str = "dfrc_setups.csv";
/// One row per feature value and sweep.
pub const DFRC_GROUPS_CSV: &str = "dfrc_groups.csv";
/// One row per coefficient and sweep.
pub const DFRC_REGRESSION_CSV: &str = "dfrc_regression.csv";

/// What a DFRC report wrote.
#[derive(Clone, Debug)]
pub struct DfrcBuilt {
    /// The sweeps, as read.
    pub runs: Vec<DfrcRun>,
    /// What the report says about each.
    pub analyses: Vec<Analysis>,
    /// Chart files (SVG and PNG), relative to the output directory.
    pub charts: Vec<PathBuf>,
}

/// `dfrc.json`: the inputs' provenance and each sweep's analysis.
#[derive(Serialize)]
struct Summary<'a> {
    variant: &'static str,
    c960_version: &'static str,
    method: &'static str,
    runs: &'a [DfrcRun],
    analyses: &'a [Analysis],
}

/// The analysis of the sweep `run` (`c960-verdict` computes it).
#[must_use]
pub fn analyse(run: &DfrcRun, settings: Settings) -> Analysis {
    c960_verdict::dfrc::analyse(
        c960_verdict::dfrc::Sweep {
            label: &run.label,
            scores: &run.scores,
            repeatability: run.manifest.repeatability,
        },
        settings,
    )
}

/// Builds the DFRC report of the sweeps in `runs` into `out` (the
/// directory that is swapped in).
pub fn build_into(runs: &[PathBuf], out: &Path) -> Result<DfrcBuilt, ReportError> {
    let mut read: Vec<DfrcRun> = Vec::new();
    for dir in runs {
        let run = DfrcRun::read(dir)?;
        if let Some(first) = read.iter().find(|r| r.label == run.label) {
            return Err(ReportError::Duplicate {
                label: run.label,
                first: first.dir.clone(),
                second: dir.clone(),
            });
        }
        read.push(run);
    }
    std::fs::create_dir_all(out)?;
    let analyses: Vec<Analysis> = read
        .iter()
        .map(|r| analyse(r, Settings::default()))
        .collect();
    let mut shown = Vec::new();
    let mut files = Vec::new();
    for (run, a) in read.iter().zip(&analyses) {
        let charts = charts::write_charts(out, run, a)?;
        for (svg, _) in &charts {
            files.push(PathBuf::from(svg));
            files.push(PathBuf::from(svg).with_extension("png"));
        }
        shown.push(charts);
    }
    write_numbers(out, &read, &analyses)?;
    let write = |name: &str, text: &str| {
        c960_store::write_atomically(&out.join(name), |o| {
            io::Write::write_all(o, text.as_bytes())
        })
    };
    write("style.css", crate::site::STYLE)?;
    write("table.js", crate::site::SCRIPT)?;
    write("index.html", &page::index(&read, &analyses, &shown))?;
    Ok(DfrcBuilt {
        runs: read,
        analyses,
        charts: files,
    })
}

/// Writes `dfrc.json` and the CSV tables.
fn write_numbers(out: &Path, runs: &[DfrcRun], analyses: &[Analysis]) -> Result<(), ReportError> {
    let summary = Summary {
        variant: "dfrc",
        c960_version: env!("CARGO_PKG_VERSION"),
        method: "Scores in centipawns from White's point of view (a mate counts ±1000), the mean \
                 over a setup's searches. Group means: Student's t 95% intervals over setups. \
                 Regression: OLS with an intercept on the per-side features, HC3 95% intervals \
                 (HC1 standard errors beside). Symmetric against asymmetric setups: Welch's \
                 interval for the means, a seeded percentile bootstrap for the standard \
                 deviations. Verdicts: each setup's standard error from its own searches (ten \
                 or more) or the pooled noise of one search, three claims against a band around \
                 the mean of all setups, Benjamini–Hochberg q-values; shrinkage: normal–normal \
                 empirical Bayes.",
        runs,
        analyses,
    };
    let json = serde_json::to_string_pretty(&summary).map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join(DFRC_JSON), |o| {
        io::Write::write_all(o, json.as_bytes())?;
        io::Write::write_all(o, b"\n")
    })?;
    let mut setups = DataFrame::empty();
    let mut groups = DataFrame::empty();
    let mut regression = DataFrame::empty();
    for a in analyses {
        setups.vstack_mut(&setups_frame(a)?)?;
        groups.vstack_mut(&groups_frame(a)?)?;
        if let Some(frame) = regression_frame(a)? {
            regression.vstack_mut(&frame)?;
        }
    }
    for (name, frame) in [
        (DFRC_SETUPS_CSV, &mut setups),
        (DFRC_GROUPS_CSV, &mut groups),
        (DFRC_REGRESSION_CSV, &mut regression),
    ] {
        c960_store::write_atomically(&out.join(name), |o| c960_store::write_csv(o, frame))?;
    }
    Ok(())
}

/// One row per setup.
fn setups_frame(a: &Analysis) -> PolarsResult<DataFrame> {
    Frame::new(&a.rows)
        .column("run", |_| a.label.as_str())
        .column("setup", |x| x.setup)
        .column("white_sp", |x| u32::from(x.white_sp))
        .column("black_sp", |x| u32::from(x.black_sp))
        .column("placement", |x| x.placement.as_str())
        .column("symmetric", |x| x.symmetric)
        .column("searches", |x| x.searches)
        .column("score_cp", |x| x.cp)
        .column("se_cp", |x| x.se)
        .column("low_cp", |x| x.low)
        .column("high_cp", |x| x.high)
        .column("shrunk_cp", |x| x.shrunk)
        .column("white_expected", |x| x.expected)
        .column("verdict", |x| x.verdict.name())
        .column("q_value", |x| x.q_value)
        .build()
}

/// One row per feature value.
fn groups_frame(a: &Analysis) -> PolarsResult<DataFrame> {
    Frame::new(&a.groups)
        .column("run", |_| a.label.as_str())
        .column("feature", |x| x.feature)
        .column("kind", |x| match x.kind {
            FeatureKind::PerSide => "per-side",
            FeatureKind::Asymmetry => "asymmetry",
        })
        .column("value", |x| x.value)
        .column("n", |x| x.cp.n as u64)
        .column("mean_cp", |x| x.cp.mean)
        .column("low_cp", |x| x.cp.low)
        .column("high_cp", |x| x.cp.high)
        .column("sd_cp", |x| x.cp.sd)
        .column("mean_expected", |x| x.expected.map(|e| e.mean))
        .column("low_expected", |x| x.expected.and_then(|e| e.low))
        .column("high_expected", |x| x.expected.and_then(|e| e.high))
        .build()
}

/// One row per coefficient, when the regression was fitted.
fn regression_frame(a: &Analysis) -> PolarsResult<Option<DataFrame>> {
    let Some(reg) = &a.regression else {
        return Ok(None);
    };
    Frame::new(&reg.coefficients)
        .column("run", |_| a.label.as_str())
        .column("n", |_| reg.n as u64)
        .column("coefficient", |x| x.name.as_str())
        .column("estimate_cp", |x| x.estimate)
        .column("low_cp", |x| x.low)
        .column("high_cp", |x| x.high)
        .column("se_hc3", |x| x.se_hc3)
        .column("se_hc1", |x| x.se_hc1)
        .column("p_value", |x| x.p_value)
        .build()
        .map(Some)
}

#[cfg(test)]
mod tests;
