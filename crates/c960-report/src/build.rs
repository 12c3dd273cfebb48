//! Building the whole report: the runs read and joined, the verdicts, the
//! charts and the site, built beside the output and swapped in whole
//! ([`build`], [`build_with`]).

use std::{
    io,
    path::{Path, PathBuf},
};

use c960_store::{DirLock, GAMES_TABLE, check_parquet, quietly};

use crate::{
    ReportError, RunKind, Source, Trees, agreement, balance, chart_data, dfrc, downloads, join,
    per_position,
    site::{self, TREE_PLIES, TREE_SHARE},
    write_table,
};

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
    /// shown again instead of comparing with tables; with it, `validation`
    /// names tables of the record whose rows are recomputed (see
    /// [`agreement::from_record`]).
    pub agreement: Option<PathBuf>,
    /// A sweep with replies whose difficulty measures join the verdicts
    /// (see [`balance::Balance::with_difficulty`]).
    pub difficulty: Option<PathBuf>,
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
        locks.push(DirLock::shared(c960_store::lock_dir(dir))?);
    }
    let swap = crate::swap::Swap::begin(out)?;
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
    let (frame, sources, bounds) = per_position(runs)?;
    let (trees, samples) = games_of(&sources)?;
    let frame = join::with_first_moves(frame, &trees)?;
    // Verdicts with error control from the same runs (balance.csv and
    // balance.json beside the table; their columns join the table).
    let verdicts = verdicts_of(&sources, out, options.difficulty.as_deref())?;
    let frame = match &verdicts {
        Some(b) => join::with_verdicts(&frame, b)?,
        None => frame,
    };
    write_table(out, &frame, &sources)?;
    for (label, by_sp) in &trees {
        join::write_first_moves(out, &frame, label, by_sp, &sources)?;
    }
    let mut shelf = chart_data::write_charts(out, &frame, &sources)?;
    let agreement = agreement_of(verdicts.as_ref(), options, out)?;
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
            bounds: &bounds,
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

/// The opening trees and the sampled games of each game run, by label.
type GamesOf = (Vec<(String, Trees)>, Vec<(String, site::Samples)>);

/// The game runs' opening trees and the games sampled for the PGN
/// downloads.
fn games_of(sources: &[Source]) -> Result<GamesOf, ReportError> {
    let mut trees = Vec::new();
    let mut samples = Vec::new();
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
    Ok((trees, samples))
}

/// The verdicts from the runs' games and sweeps, written into `out`
/// (`balance.csv`, `balance.json`); none without games or sweeps.
fn verdicts_of(
    sources: &[Source],
    out: &Path,
    difficulty: Option<&Path>,
) -> Result<Option<balance::Balance>, ReportError> {
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
    if games.is_empty() && sweeps.is_empty() {
        if let Some(path) = difficulty {
            return Err(ReportError::BadRun {
                dir: path.to_owned(),
                reason: "difficulty joins the balance verdicts: give the sweeps to rate too"
                    .to_owned(),
            });
        }
        return Ok(None);
    }
    let mut b = balance::compute_any(&games, &sweeps, balance::Settings::default())?;
    if let Some(path) = difficulty {
        b = b.map(|found| found.with_difficulty(path)).transpose()?;
    }
    if let Some(b) = &b {
        b.write_in(out)?;
    }
    Ok(b)
}

/// The agreement with independent analyses, when `options` ask for it:
/// recorded earlier or compared now; refused without verdicts.
fn agreement_of(
    verdicts: Option<&balance::Balance>,
    options: &Options,
    out: &Path,
) -> Result<Option<(agreement::Agreement, site::Shown)>, ReportError> {
    match verdicts {
        Some(b) => match &options.agreement {
            Some(record) => Ok(Some(agreement::from_record(
                b,
                record,
                &options.validation,
                out,
            )?)),
            None => agreement::compute_and_write(b, &options.validation, out),
        },
        None if !options.validation.is_empty() || options.agreement.is_some() => {
            Err(ReportError::BadRun {
                dir: options
                    .validation
                    .first()
                    .or(options.agreement.as_ref())
                    .cloned()
                    .unwrap_or_default(),
                reason: "the runs give no balance estimate to compare with (no sweep, no games)"
                    .to_owned(),
            })
        }
        None => Ok(None),
    }
}
