//! c960-report: the data behind reports, and the report itself. Loads the
//! static features of all 960 positions, any number of sweep, self-play and
//! import runs, and joins them on SP into one tidy
//! per-position table. Runs are kept apart by provenance: each run's
//! columns carry a label made from its engine and limit, and two runs with
//! the same label are refused.
//!
//! [`build`] makes the whole report, in this order (one module each):
//! - `source`: each run directory read through its typed manifest
//!   ([`c960_store::RunManifest`]) and labelled ([`source()`]);
//! - `join`: the per-position table ([`per_position`]), with the game
//!   runs' first moves and the verdicts joined on SP, written as
//!   `positions.parquet` and `positions.csv` ([`write_table`]);
//! - [`balance`]: verdicts with error control (`balance.csv`, `.json`);
//! - `chart_data`: the charts' data from the table, drawn by [`charts`];
//! - [`site`]: the static site (index, fair positions, one page per
//!   position, with [`sheet`] texts, [`board`] diagrams and [`downloads`]).
//!
//! Sweeps of Double Fischer Random Chess setups (manifest `"variant":
//! "dfrc"`) get their own report instead, [`dfrc`]; a report is of one
//! variant, so DFRC and Chess960 runs are not mixed.
//!
//! Printed material beside the site: the writers' position sheets
//! ([`sheet`]) and the organizer's tournament kit ([`kit`]: announcement,
//! round sheets, the draw record and how to verify it).
//!
//! Shared with the command line: the position table's layout
//! ([`chess960_frame`], [`dfrc_frame`], which `c960 positions` writes), the
//! frame of every HTML page ([`html::Page`]: the site, the writers' sheets
//! and the tournament kit) and the board drawing ([`board`], one list of
//! shapes rendered as SVG and PNG).

pub mod agreement;
pub mod balance;
pub mod board;
mod chart_data;
pub mod charts;
pub mod dfrc;
pub mod downloads;
mod features;
pub mod html;
mod join;
pub mod kit;
mod parquet_columns;
pub mod sheet;
pub mod site;
mod source;

use std::{
    collections::BTreeMap,
    io,
    path::{Path, PathBuf},
};

use c960_store::{CorruptFile, DirLock, GAMES_TABLE, LockError, check_parquet, quietly};
use polars::prelude::*;
use thiserror::Error;

pub use c960_store::RunKind;
pub use chart_data::castling_opportunities;
pub use features::{chess960_frame, dfrc_frame, features_frame};
pub use join::{IMPORT_TERMINATIONS, TERMINATIONS, per_position, write_table};
pub use source::{Source, labels, lock_dir, manifest_path, source};

/// Why the table cannot be made.
#[derive(Debug, Error)]
pub enum ReportError {
    /// A run directory that is missing files or is not a finished run.
    #[error("{}: {reason}", dir.display())]
    BadRun {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Two runs with the same engine and limit.
    #[error("{} and {} have the same provenance ({label}); give only one", first.display(), second.display())]
    Duplicate {
        /// The label both would get.
        label: String,
        /// The first run.
        first: PathBuf,
        /// The second run.
        second: PathBuf,
    },
    /// Reading or writing tables failed.
    #[error("{}", c960_store::polars_reason(.0))]
    Polars(#[from] PolarsError),
    /// Writing files failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A game table that cannot be replayed.
    #[error(transparent)]
    Openings(#[from] c960_games::TreeError),
    /// An input table that is damaged or does not match its manifest.
    #[error(transparent)]
    Corrupt(#[from] CorruptFile),
    /// A run or the output is in use by another process.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Reading the inputs failed inside a dependency (damaged data).
    #[error("cannot read the inputs: {0}")]
    Unreadable(String),
    /// Raters that cannot be combined (named).
    #[error(transparent)]
    Raters(#[from] c960_balance::consensus::RaterError),
}

impl ReportError {
    /// Whether the inputs (not the machine) are at fault: missing,
    /// damaged or inconsistent runs.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ReportError::BadRun { .. }
                | ReportError::Duplicate { .. }
                | ReportError::Corrupt(_)
                | ReportError::Unreadable(_)
                | ReportError::Raters(_)
        ) || matches!(self, ReportError::Io(e) if c960_store::is_bad_input(e))
    }
}

/// Plies of the opening trees in the report.
pub const TREE_PLIES: usize = 12;

/// The report's opening trees go below lines reached by at least this share
/// of a position's games (and list every first move).
pub const TREE_SHARE: f64 = 0.05;

/// The opening trees of one self-play run, by SP.
pub type Trees = BTreeMap<u16, c960_games::Tree>;

/// What `build` wrote.
#[derive(Clone, Debug)]
pub struct Built {
    /// The runs, as labelled.
    pub sources: Vec<Source>,
    /// Chart files (SVG and PNG), relative to the output directory.
    pub charts: Vec<PathBuf>,
    /// Pages written.
    pub pages: usize,
    /// The verdicts and each method's reliability, when the runs have
    /// games or sweeps.
    pub verdicts: Option<balance::Balance>,
    /// The DFRC report, when the runs are DFRC sweeps (`sources` is then
    /// empty: the sweeps are in it).
    pub dfrc: Option<dfrc::DfrcBuilt>,
}

/// Builds the whole report into `out`: the per-position table
/// (`positions.parquet`, `positions.csv`), the charts (`charts/*.svg` and
/// `*.png`) and the site (`index.html`, `fair.html`, `positions/*.html`).
///
/// The report is built in a temporary directory beside `out` and swapped
/// in as a whole: a report that fails or is killed leaves the previous
/// one as it was. The inputs are locked for reading and `out` for writing
/// meanwhile.
///
/// When the runs are DFRC sweeps, the report is the DFRC one
/// ([`dfrc::build_into`]); DFRC and Chess960 runs together are bad input.
pub fn build(runs: &[PathBuf], out: &Path) -> Result<Built, ReportError> {
    build_with(runs, out, &Options::default())
}

/// What a report adds to its runs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Independent per-position tables to measure the balance estimate
    /// against (see [`agreement`]).
    pub validation: Vec<PathBuf>,
    /// An agreement recorded by an earlier report (its `agreement.json`),
    /// shown again instead of comparing with tables (see
    /// [`agreement::from_record`]).
    pub agreement: Option<PathBuf>,
}

/// [`build`] with `options`.
pub fn build_with(runs: &[PathBuf], out: &Path, options: &Options) -> Result<Built, ReportError> {
    let dfrc = is_dfrc(runs)?;
    let compared = options
        .validation
        .first()
        .or(options.agreement.as_ref())
        .cloned();
    if let (true, Some(dir)) = (dfrc, &compared) {
        return Err(ReportError::BadRun {
            dir: dir.clone(),
            reason: "independent analyses are per Chess960 position; a DFRC report takes none"
                .to_owned(),
        });
    }
    let mut locks = Vec::new();
    for dir in runs {
        locks.push(DirLock::shared(lock_dir(dir))?);
    }
    let swap = site::Swap::begin(out)?;
    let built = match quietly(|| {
        if dfrc {
            dfrc::build_into(runs, swap.building()).map(|d| Built {
                sources: Vec::new(),
                charts: d.charts.clone(),
                pages: 1,
                verdicts: None,
                dfrc: Some(d),
            })
        } else {
            build_into(runs, swap.building(), options)
        }
    }) {
        Ok(Ok(built)) => built,
        Ok(Err(e)) => {
            let building = swap.building().display().to_string();
            swap.abandon();
            // Name the files where they were going, not where they were built.
            return Err(match e {
                ReportError::Io(e) => ReportError::Io(io::Error::new(
                    e.kind(),
                    e.to_string().replace(&building, &out.display().to_string()),
                )),
                e => e,
            });
        }
        Err(panic) => {
            swap.abandon();
            return Err(ReportError::Unreadable(panic));
        }
    };
    swap.finish()?;
    drop(locks);
    Ok(built)
}

/// Whether `runs` are DFRC runs (all of them), refusing a mix of DFRC and
/// Chess960 runs.
fn is_dfrc(runs: &[PathBuf]) -> Result<bool, ReportError> {
    let variants = runs
        .iter()
        .map(|dir| dfrc::variant_is_dfrc(dir))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = variants.iter().position(|v| *v == Some(true)) else {
        return Ok(false);
    };
    if let Some(other) = variants.iter().position(|v| *v == Some(false)) {
        return Err(ReportError::BadRun {
            dir: runs[other].clone(),
            reason: format!(
                "a Chess960 run given with the DFRC sweep {}: a report is of one variant",
                runs[first].display()
            ),
        });
    }
    Ok(true)
}

/// Builds the report into `out` (the directory that is swapped in).
fn build_into(runs: &[PathBuf], out: &Path, options: &Options) -> Result<Built, ReportError> {
    let (frame, sources) = per_position(runs)?;
    let mut trees: Vec<(String, Trees)> = Vec::new();
    let mut samples: Vec<(String, site::Samples)> = Vec::new();
    for source in sources.iter().filter(|s| s.kind.has_games()) {
        let games = source.dir.join(GAMES_TABLE);
        check_parquet(&games)?;
        trees.push((
            source.label.clone(),
            c960_games::frequent_trees_with(
                &games,
                TREE_PLIES,
                TREE_SHARE,
                c960_games::IntervalKind::of_run(&source.manifest),
            )?,
        ));
        samples.push((
            source.label.clone(),
            downloads::sample_games(&games, downloads::PGN_SAMPLE, 0)?,
        ));
    }
    let frame = join::with_first_moves(frame, &trees)?;
    // Verdicts with error control from the same runs (balance.csv and
    // balance.json beside the table; their columns join the table).
    let games: Vec<PathBuf> = sources
        .iter()
        .filter(|s| s.kind.has_games())
        .map(|s| s.dir.join(GAMES_TABLE))
        .collect();
    let sweeps: Vec<PathBuf> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .map(|s| s.table.clone())
        .collect();
    let verdicts = if games.is_empty() && sweeps.is_empty() {
        None
    } else {
        let b = balance::compute_any(&games, &sweeps, balance::Settings::default())?;
        if let Some(b) = &b {
            b.write(out)?;
        }
        b
    };
    let frame = match &verdicts {
        Some(b) => join::with_verdicts(&frame, b)?,
        None => frame,
    };
    write_table(out, &frame, &sources)?;
    for (label, by_sp) in &trees {
        join::write_first_moves(out, &frame, label, by_sp, &sources)?;
    }
    let mut shelf = chart_data::write_charts(out, &frame, &sources)?;
    let agreement = match &verdicts {
        Some(b) => match &options.agreement {
            Some(record) => Some(agreement::from_record(b, record, out)?),
            None => agreement::compute_and_write(b, &options.validation, out)?,
        },
        None if !options.validation.is_empty() || options.agreement.is_some() => {
            return Err(ReportError::BadRun {
                dir: options
                    .validation
                    .first()
                    .or(options.agreement.as_ref())
                    .cloned()
                    .unwrap_or_default(),
                reason: "the runs give no balance estimate to compare with (no sweep, no games)"
                    .to_owned(),
            });
        }
        None => None,
    };
    if let Some((_, chart)) = &agreement {
        shelf.files.push(chart.file.clone());
        shelf.files.push(chart.file.with_extension("png"));
    }
    site::write_site(
        out,
        &site::Site {
            frame: &frame,
            sources: &sources,
            charts: &shelf.shown,
            trees: &trees,
            samples: &samples,
            verdicts: verdicts.as_ref(),
            agreement: agreement.as_ref().map(|(a, c)| (a, c)),
        },
    )?;
    Ok(Built {
        sources,
        charts: shelf.files,
        pages: frame.height() + 2,
        verdicts,
        dfrc: None,
    })
}
