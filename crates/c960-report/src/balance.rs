//! Balance verdicts from runs: per-position estimates, intervals and
//! verdicts with error control, with the reliability of each method
//! (`c960 balance`). The statistics are `c960-balance`'s; this module reads
//! run tables and writes the verdict table.
//!
//! - **Games** (self-play or imported, `games.parquet`): each position's
//!   White scores in game order give an anytime-valid confidence sequence
//!   (valid however the number of games was chosen, adaptive play included)
//!   and anytime-valid p-values for the verdicts — or, with `fixed_n` when
//!   the games per position were fixed before play, normal intervals and
//!   tests, which are narrower; the estimate is shrunk
//!   toward the mean of all games (normal–normal empirical Bayes with the
//!   pooled per-game variance); reliability is split-half over games.
//! - **Sweeps** (`sweep.parquet`): runs of the same engine and limit are
//!   repeats (and a `repeat` column, where present, too); each engine's
//!   per-position mean and standard error feed the multi-engine consensus
//!   (see `c960_balance::consensus`), on the first engine's centipawn
//!   scale; repeatability is split-half over repeats. Verdicts take the
//!   consensus estimate and its standard error as normal.
//!
//! The verdict a position gets comes from the games when there are any, and
//! from the consensus sweep otherwise; both sets of columns are kept.

use std::{
    collections::BTreeMap,
    fs::File,
    io,
    path::{Path, PathBuf},
};

use c960_balance::{
    consensus::{EngineMeans, consensus},
    reliability::{SplitHalf, components, describe, split_half},
    sequential::confidence_sequence,
    shrink::shrink,
    verdict::{Band, Claims, Decision, Verdict, decide},
};
use c960_core::{POSITION_COUNT, StartPosition};
use polars::prelude::*;
use serde::Serialize;

use crate::ReportError;

/// The verdict table's file names.
pub const BALANCE_CSV: &str = "balance.csv";
/// The summary with reliability and settings.
pub const BALANCE_JSON: &str = "balance.json";

/// What counts as balanced and the error rate.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Half width of the balanced band for game scores (White's score).
    pub band_score: f64,
    /// Half width of the balanced band for engine scores (centipawns).
    pub band_cp: f64,
    /// False discovery rate of the verdicts.
    pub level: f64,
    /// Seed of the random splits for split-half reliability.
    pub seed: u64,
    /// The number of games per position was fixed before play (uniform
    /// play, no stopping by results): fixed-n normal intervals and tests
    /// instead of anytime-valid ones (narrower; wrong after adaptive play).
    pub fixed_n: bool,
}

impl Default for Settings {
    /// ±0.02 in White's score, ±10 cp, FDR 5%, seed 0.
    fn default() -> Settings {
        Settings {
            band_score: 0.02,
            band_cp: 10.0,
            level: 0.05,
            seed: 0,
            fixed_n: false,
        }
    }
}

/// Random splits for split-half reliability.
const SPLITS: usize = 21;

/// One position's figures from games.
#[derive(Clone, Debug, Serialize)]
pub struct GamesRow {
    /// Games.
    pub games: u64,
    /// White's mean score.
    pub score: f64,
    /// Anytime-valid 95% interval of the score.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Shrunk estimate.
    pub shrunk: f64,
    /// Its 95% interval.
    pub shrunk_low: f64,
    /// Its upper end.
    pub shrunk_high: f64,
    /// The verdict from games.
    pub decision: Decision,
}

/// One position's figures from the consensus sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepRow {
    /// Engines that scored it.
    pub engines: usize,
    /// Consensus estimate, centipawns on the reference engine's scale.
    pub estimate: f64,
    /// Its 95% interval.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Its standard error.
    pub se: f64,
    /// Shrunk estimate.
    pub shrunk: f64,
    /// Its 95% interval.
    pub shrunk_low: f64,
    /// Its upper end.
    pub shrunk_high: f64,
    /// The verdict from the sweep.
    pub decision: Decision,
}

/// One engine's sweeps.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// Engine and limit.
    pub name: String,
    /// Repeats per position (the most any position has).
    pub repeats: usize,
    /// Split-half repeatability of its per-position means (none with one
    /// repeat).
    pub repeatability: Option<SplitHalf>,
}

/// Reliability and counts of one method.
#[derive(Clone, Debug, Serialize)]
pub struct MethodSummary {
    /// Split-half reliability of the per-position estimates.
    pub reliability: Option<SplitHalf>,
    /// Variance-components reliability (average per position).
    pub components_reliability: Option<f64>,
    /// What the reliability means, in words.
    pub words: String,
    /// The all-position mean the band is centred on.
    pub mean: f64,
    /// The band's half width.
    pub band: f64,
    /// Positions per verdict.
    pub verdicts: BTreeMap<String, usize>,
}

impl MethodSummary {
    fn new(
        reliability: Option<SplitHalf>,
        components_reliability: Option<f64>,
        mean: f64,
        band: f64,
        decisions: &[Decision],
    ) -> MethodSummary {
        MethodSummary {
            words: describe(reliability.map(|r| r.whole)).to_owned(),
            reliability,
            components_reliability,
            mean,
            band,
            verdicts: count(decisions),
        }
    }
}

/// Everything `c960 balance` computes.
#[derive(Clone, Debug, Serialize)]
pub struct Balance {
    /// Settings.
    pub settings: Settings,
    /// Games' method, when there were games.
    pub games: Option<MethodSummary>,
    /// Sweeps' method, when there were sweeps.
    pub sweep: Option<MethodSummary>,
    /// Each engine's repeats and repeatability.
    pub engines: Vec<EngineSummary>,
    /// Agreement between engines.
    pub agreement: Vec<c960_balance::consensus::Agreement>,
    /// Per position (by SP) from games.
    #[serde(skip)]
    pub games_rows: BTreeMap<u16, GamesRow>,
    /// Per position (by SP) from sweeps.
    #[serde(skip)]
    pub sweep_rows: BTreeMap<u16, SweepRow>,
    /// Input files.
    pub inputs: Vec<String>,
    /// The c960 version.
    pub c960_version: String,
    /// How the figures are made.
    pub method: String,
}

const METHOD: &str = "Games: per-position anytime-valid confidence sequences (predictable plug-in \
empirical Bernstein, Waudby-Smith & Ramdas 2024) and e-process p-values; estimates shrunk toward \
the mean of all games by normal-normal empirical Bayes (Paule-Mandel signal variance, pooled \
per-game variance). Sweeps: runs of one engine and limit are repeats; engines combined by a \
one-factor consensus on the first engine's centipawn scale, with normal p-values. Verdicts: the \
claim with the smallest p-value per position, doubled, and Benjamini-Hochberg q-values over all \
positions; a verdict is made where q <= the stated level. Reliability: median split-half \
correlation over 21 seeded random splits, projected by Spearman-Brown.";

/// Scores of a games table per position, in game order.
fn read_games(path: &Path) -> Result<BTreeMap<u16, Vec<f64>>, ReportError> {
    let file = File::open(path).map_err(|e| io_error(path, &e))?;
    let frame = ParquetReader::new(file)
        .with_columns(Some(vec!["sp".into(), "game".into(), "white_score".into()]))
        .finish()?;
    let sp = frame.column("sp")?.cast(&DataType::UInt32)?;
    let game = frame.column("game")?.cast(&DataType::UInt64)?;
    let score = frame.column("white_score")?.cast(&DataType::Float64)?;
    let (sp, game, score) = (sp.u32()?, game.u64()?, score.f64()?);
    let mut rows: Vec<(u16, u64, f64)> = Vec::with_capacity(frame.height());
    for i in 0..frame.height() {
        if let (Some(s), Some(g), Some(x)) = (sp.get(i), game.get(i), score.get(i)) {
            let s = u16::try_from(s)
                .ok()
                .filter(|s| *s < POSITION_COUNT)
                .ok_or_else(|| bad(path, format!("row {i} has SP {s}, outside 0..=959")))?;
            if !(0.0..=1.0).contains(&x) {
                return Err(bad(path, format!("row {i} has White's score {x}")));
            }
            rows.push((s, g, x));
        }
    }
    rows.sort_by_key(|r| (r.0, r.1));
    let mut out: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
    for (s, _, x) in rows {
        out.entry(s).or_default().push(x);
    }
    Ok(out)
}

/// A sweep's rows: (engine label, SP, repeat, centipawns).
fn read_sweep(path: &Path, run: usize) -> Result<Vec<(String, u16, String, f64)>, ReportError> {
    let file = File::open(path).map_err(|e| io_error(path, &e))?;
    let frame = ParquetReader::new(file).finish()?;
    let text = |name: &str| -> Result<Vec<String>, ReportError> {
        let c = frame.column(name)?.cast(&DataType::String)?;
        let c = c.str()?;
        Ok((0..c.len())
            .map(|i| c.get(i).unwrap_or_default().to_owned())
            .collect())
    };
    let engine = text("engine")?;
    let limit = text("limit")?;
    let sp = frame.column("sp")?.cast(&DataType::UInt32)?;
    let cp = frame.column("score_cp")?.cast(&DataType::Float64)?;
    let mate = frame.column("score_mate")?.cast(&DataType::Float64)?;
    let repeat = match frame.column("repeat") {
        Ok(c) => Some(c.cast(&DataType::UInt64)?),
        Err(_) => None,
    };
    let (sp, cp, mate) = (sp.u32()?, cp.f64()?, mate.f64()?);
    let mut out = Vec::with_capacity(frame.height());
    for i in 0..frame.height() {
        let s = sp
            .get(i)
            .and_then(|s| u16::try_from(s).ok())
            .filter(|s| *s < POSITION_COUNT)
            .ok_or_else(|| bad(path, format!("row {i} has no SP in 0..=959")))?;
        // A mate in a start position is out of reach; treat it as ±10 pawns.
        let value = match (cp.get(i), mate.get(i)) {
            (Some(v), _) => v,
            (None, Some(m)) => 1000.0 * m.signum(),
            (None, None) => continue,
        };
        let r = repeat
            .as_ref()
            .and_then(|c| c.u64().ok().and_then(|c| c.get(i)))
            .map_or_else(|| format!("run{run}"), |r| format!("run{run}.{r}"));
        out.push((format!("{} {}", engine[i], limit[i]), s, r, value));
    }
    Ok(out)
}

fn io_error(path: &Path, e: &io::Error) -> ReportError {
    ReportError::Io(io::Error::new(
        e.kind(),
        format!("cannot read {}: {e}", path.display()),
    ))
}

fn bad(path: &Path, reason: String) -> ReportError {
    ReportError::BadRun {
        dir: path.to_owned(),
        reason,
    }
}

/// The table inside a run directory, or the file itself.
fn table(path: &Path, name: &str) -> PathBuf {
    if path.is_dir() {
        path.join(name)
    } else {
        path.to_owned()
    }
}

/// The table of every search of a sweep: a sweep with repeats keeps them
/// in `repeats.parquet` beside its per-position `sweep.parquet`.
fn searches(file: &Path) -> PathBuf {
    let repeats = file.with_file_name(c960_store::REPEATS_TABLE);
    if file
        .file_name()
        .is_some_and(|n| n == c960_store::SWEEP_TABLE)
        && repeats.is_file()
    {
        repeats
    } else {
        file.to_owned()
    }
}

/// Computes the verdicts from game tables and sweep tables (files or run
/// directories).
pub fn compute(
    games: &[PathBuf],
    sweeps: &[PathBuf],
    settings: Settings,
) -> Result<Balance, ReportError> {
    let mut inputs = Vec::new();
    let mut scores: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
    for path in games {
        let file = table(path, c960_store::GAMES_TABLE);
        for (sp, s) in read_games(&file)? {
            scores.entry(sp).or_default().extend(s);
        }
        inputs.push(file.display().to_string());
    }
    let mut sweep_rows = Vec::new();
    for (run, path) in sweeps.iter().enumerate() {
        let file = searches(&table(path, c960_store::SWEEP_TABLE));
        sweep_rows.extend(read_sweep(&file, run)?);
        inputs.push(file.display().to_string());
    }
    let (games_summary, games_rows) = if scores.is_empty() {
        (None, BTreeMap::new())
    } else {
        let (s, r) = from_games(&scores, settings);
        (Some(s), r)
    };
    let (sweep_summary, engines, agreement, sweep_map) = if sweep_rows.is_empty() {
        (None, Vec::new(), Vec::new(), BTreeMap::new())
    } else {
        from_sweeps(&sweep_rows, settings)
    };
    Ok(Balance {
        settings,
        games: games_summary,
        sweep: sweep_summary,
        engines,
        agreement,
        games_rows,
        sweep_rows: sweep_map,
        inputs,
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        method: METHOD.to_owned(),
    })
}

#[allow(clippy::cast_precision_loss)]
fn from_games(
    scores: &BTreeMap<u16, Vec<f64>>,
    settings: Settings,
) -> (MethodSummary, BTreeMap<u16, GamesRow>) {
    let all: Vec<f64> = scores.values().flatten().copied().collect();
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    // The per-game variance pooled within positions.
    let (mut ss, mut df) = (0.0, 0.0);
    for s in scores.values() {
        if s.len() >= 2 {
            let m = s.iter().sum::<f64>() / s.len() as f64;
            ss += s.iter().map(|x| (x - m).powi(2)).sum::<f64>();
            df += (s.len() - 1) as f64;
        }
    }
    let per_game = if df > 0.0 { ss / df } else { 0.125 };
    let band = Band {
        centre: mean,
        half_width: settings.band_score,
    };
    let sps: Vec<u16> = scores.keys().copied().collect();
    let means: Vec<f64> = sps
        .iter()
        .map(|sp| scores[sp].iter().sum::<f64>() / scores[sp].len() as f64)
        .collect();
    let ses: Vec<f64> = sps
        .iter()
        .map(|sp| (per_game / scores[sp].len() as f64).sqrt())
        .collect();
    let claims: Vec<Claims> = sps
        .iter()
        .enumerate()
        .map(|(i, sp)| {
            if settings.fixed_n {
                Claims::normal(means[i], ses[i], band)
            } else {
                Claims::anytime(&scores[sp], band)
            }
        })
        .collect();
    let decisions = decide(&claims, settings.level);
    let shrunk = shrink(&means, &ses, 0.95).map(|(_, rows)| rows);
    let groups: Vec<Vec<f64>> = sps.iter().map(|sp| scores[sp].clone()).collect();
    let reliability = split_half(&groups, SPLITS, settings.seed);
    let components_reliability = components(&means, &ses).map(|c| c.reliability);
    let mut rows = BTreeMap::new();
    for (i, sp) in sps.iter().enumerate() {
        let cs = if settings.fixed_n {
            let half = 1.959_963_984_540_054 * ses[i];
            c960_balance::sequential::Sequence {
                mean: means[i],
                low: (means[i] - half).max(0.0),
                high: (means[i] + half).min(1.0),
                n: scores[sp].len() as u64,
            }
        } else {
            confidence_sequence(&scores[sp], 0.05)
        };
        let (s, lo, hi) = shrunk.as_ref().map_or((means[i], cs.low, cs.high), |r| {
            (r[i].estimate, r[i].low, r[i].high)
        });
        rows.insert(
            *sp,
            GamesRow {
                games: scores[sp].len() as u64,
                score: means[i],
                low: cs.low,
                high: cs.high,
                shrunk: s,
                shrunk_low: lo,
                shrunk_high: hi,
                decision: decisions[i],
            },
        );
    }
    let summary = MethodSummary::new(
        reliability,
        components_reliability,
        mean,
        settings.band_score,
        &decisions,
    );
    (summary, rows)
}

fn count(decisions: &[Decision]) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = Verdict::ALL
        .iter()
        .map(|v| (v.name().to_owned(), 0))
        .collect();
    for d in decisions {
        *out.entry(d.verdict.name().to_owned()).or_default() += 1;
    }
    out
}

type SweepResult = (
    Option<MethodSummary>,
    Vec<EngineSummary>,
    Vec<c960_balance::consensus::Agreement>,
    BTreeMap<u16, SweepRow>,
);

/// Each engine's per-position means and standard errors over repeats,
/// with its repeatability, in the order the engines first appear.
#[allow(clippy::cast_precision_loss)]
fn engine_means(
    rows: &[(String, u16, String, f64)],
    settings: Settings,
) -> (Vec<u16>, Vec<EngineSummary>, Vec<EngineMeans>) {
    // engine → SP → values over repeats
    let mut by_engine: BTreeMap<&str, BTreeMap<u16, Vec<f64>>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (engine, sp, _, value) in rows {
        if !by_engine.contains_key(engine.as_str()) {
            order.push(engine);
        }
        by_engine
            .entry(engine)
            .or_default()
            .entry(*sp)
            .or_default()
            .push(*value);
    }
    let sps: Vec<u16> = (0..POSITION_COUNT)
        .filter(|sp| by_engine.values().any(|e| e.contains_key(sp)))
        .collect();
    let mut engines = Vec::new();
    let mut means = Vec::new();
    let mean_of = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let se_of = |v: &Vec<f64>| {
        (v.len() >= 2).then(|| {
            let m = mean_of(v);
            let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
            (var / v.len() as f64).sqrt()
        })
    };
    for name in &order {
        let per = &by_engine[name];
        let groups: Vec<Vec<f64>> = per.values().cloned().collect();
        engines.push(EngineSummary {
            name: (*name).to_owned(),
            repeats: per.values().map(Vec::len).max().unwrap_or(0),
            repeatability: split_half(&groups, SPLITS, settings.seed),
        });
        means.push(EngineMeans {
            name: (*name).to_owned(),
            means: sps.iter().map(|sp| per.get(sp).map(mean_of)).collect(),
            ses: sps.iter().map(|sp| per.get(sp).and_then(se_of)).collect(),
        });
    }
    (sps, engines, means)
}

#[allow(clippy::cast_precision_loss)]
fn from_sweeps(rows: &[(String, u16, String, f64)], settings: Settings) -> SweepResult {
    let (sps, engines, means) = engine_means(rows, settings);
    // Only engines whose noise was measured (two or more repeats) can be
    // weighted; a single search per position says nothing about its error,
    // so without any such engine every sweep verdict stays unresolved.
    let agreement: Vec<_> = (0..means.len())
        .flat_map(|a| (a + 1..means.len()).map(move |b| (a, b)))
        .map(|(a, b)| c960_balance::consensus::agree(&means[a], &means[b]))
        .collect();
    let measured: Vec<EngineMeans> = means
        .iter()
        .filter(|m| m.ses.iter().filter(|s| s.is_some()).count() * 2 > m.ses.len())
        .cloned()
        .collect();
    if measured.is_empty() {
        return unmeasured(&means[0], &sps, settings, engines, agreement);
    }
    let Some(result) = consensus(&measured, 0.95) else {
        return (None, engines, agreement, BTreeMap::new());
    };
    let present: Vec<(u16, c960_balance::consensus::Estimate)> = sps
        .iter()
        .zip(&result.positions)
        .filter_map(|(sp, e)| e.map(|e| (*sp, e)))
        .collect();
    let values: Vec<f64> = present.iter().map(|p| p.1.estimate).collect();
    let ses: Vec<f64> = present.iter().map(|p| p.1.se).collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let band = Band {
        centre: mean,
        half_width: settings.band_cp,
    };
    let claims: Vec<Claims> = present
        .iter()
        .map(|(_, e)| Claims::normal(e.estimate, e.se, band))
        .collect();
    let decisions = decide(&claims, settings.level);
    let shrunk = shrink(&values, &ses, 0.95).map(|(_, r)| r);
    // The consensus's reliability: that of its best-measured engine when
    // only one engine has repeats; with several, the components estimate.
    let reliability = engines
        .iter()
        .filter_map(|e| e.repeatability)
        .max_by(|a, b| a.whole.total_cmp(&b.whole));
    let components_reliability = components(&values, &ses).map(|c| c.reliability);
    let mut out = BTreeMap::new();
    for (i, (sp, e)) in present.iter().enumerate() {
        let (s, lo, hi) = shrunk.as_ref().map_or((e.estimate, e.low, e.high), |r| {
            (r[i].estimate, r[i].low, r[i].high)
        });
        out.insert(
            *sp,
            SweepRow {
                engines: e.engines,
                estimate: e.estimate,
                low: e.low,
                high: e.high,
                se: e.se,
                shrunk: s,
                shrunk_low: lo,
                shrunk_high: hi,
                decision: decisions[i],
            },
        );
    }
    let summary = MethodSummary::new(
        reliability,
        components_reliability,
        mean,
        settings.band_cp,
        &decisions,
    );
    (Some(summary), engines, agreement, out)
}

/// Sweep figures when no engine's noise is measured: the first engine's
/// means, no intervals, every verdict unresolved.
#[allow(clippy::cast_precision_loss)]
fn unmeasured(
    reference: &EngineMeans,
    sps: &[u16],
    settings: Settings,
    engines: Vec<EngineSummary>,
    agreement: Vec<c960_balance::consensus::Agreement>,
) -> SweepResult {
    let unresolved = Decision {
        verdict: Verdict::Unresolved,
        candidate: Verdict::Unresolved,
        p_value: 1.0,
        q_value: 1.0,
    };
    let present: Vec<(u16, f64)> = sps
        .iter()
        .zip(&reference.means)
        .filter_map(|(sp, m)| m.map(|m| (*sp, m)))
        .collect();
    let mean = present.iter().map(|p| p.1).sum::<f64>() / present.len().max(1) as f64;
    let rows: BTreeMap<u16, SweepRow> = present
        .iter()
        .map(|&(sp, estimate)| {
            (
                sp,
                SweepRow {
                    engines: 1,
                    estimate,
                    low: f64::NAN,
                    high: f64::NAN,
                    se: f64::NAN,
                    shrunk: estimate,
                    shrunk_low: f64::NAN,
                    shrunk_high: f64::NAN,
                    decision: unresolved,
                },
            )
        })
        .collect();
    let decisions: Vec<Decision> = rows.values().map(|r| r.decision).collect();
    let summary = MethodSummary {
        reliability: None,
        components_reliability: None,
        words: "one search per position: the sweep's noise is unknown, so it ranks nothing \
                with known reliability and decides no verdict (sweep with repeats to measure it)"
            .to_owned(),
        mean,
        band: settings.band_cp,
        verdicts: count(&decisions),
    };
    (Some(summary), engines, agreement, rows)
}

impl Balance {
    /// The verdict table: one row per position with any data, by SP.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let sps: Vec<u16> = (0..POSITION_COUNT)
            .filter(|sp| self.games_rows.contains_key(sp) || self.sweep_rows.contains_key(sp))
            .collect();
        // The primary verdict: from games when there are any.
        let primary = |sp: &u16| -> Option<(&'static str, Decision, f64, f64, f64)> {
            if let Some(r) = self.games_rows.get(sp) {
                Some(("games", r.decision, r.shrunk, r.shrunk_low, r.shrunk_high))
            } else {
                self.sweep_rows
                    .get(sp)
                    .map(|r| ("sweep", r.decision, r.shrunk, r.shrunk_low, r.shrunk_high))
            }
        };
        let p: Vec<_> = sps.iter().map(primary).collect();
        let finite = |v: f64| v.is_finite().then_some(v);
        let placement: Vec<String> = sps
            .iter()
            .map(|sp| {
                StartPosition::new(*sp)
                    .map(StartPosition::placement)
                    .unwrap_or_default()
            })
            .collect();
        let mut columns = vec![
            Column::new(
                "sp".into(),
                sps.iter().map(|s| u32::from(*s)).collect::<Vec<_>>(),
            ),
            Column::new("placement".into(), placement),
            Column::new(
                "verdict".into(),
                p.iter()
                    .map(|x| x.map(|x| x.1.verdict.name()))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "q_value".into(),
                p.iter().map(|x| x.map(|x| x.1.q_value)).collect::<Vec<_>>(),
            ),
            Column::new(
                "balance_estimate".into(),
                p.iter().map(|x| x.map(|x| x.2)).collect::<Vec<_>>(),
            ),
            Column::new(
                "balance_low".into(),
                p.iter()
                    .map(|x| x.and_then(|x| finite(x.3)))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "balance_high".into(),
                p.iter()
                    .map(|x| x.and_then(|x| finite(x.4)))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "verdict_method".into(),
                p.iter().map(|x| x.map(|x| x.0)).collect::<Vec<_>>(),
            ),
        ];
        columns.extend(self.method_columns(&sps));
        DataFrame::new(sps.len(), columns)
    }

    /// Each method's own columns.
    fn method_columns(&self, sps: &[u16]) -> Vec<Column> {
        let g = |f: &dyn Fn(&GamesRow) -> f64| -> Vec<Option<f64>> {
            sps.iter()
                .map(|sp| self.games_rows.get(sp).map(f))
                .collect()
        };
        // Figures that are not measured (NaN) are left empty.
        let s = |f: &dyn Fn(&SweepRow) -> f64| -> Vec<Option<f64>> {
            sps.iter()
                .map(|sp| self.sweep_rows.get(sp).map(f).filter(|v| v.is_finite()))
                .collect()
        };
        vec![
            Column::new(
                "games".into(),
                sps.iter()
                    .map(|sp| self.games_rows.get(sp).map(|r| r.games))
                    .collect::<Vec<_>>(),
            ),
            Column::new("games_score".into(), g(&|r| r.score)),
            Column::new("games_score_low".into(), g(&|r| r.low)),
            Column::new("games_score_high".into(), g(&|r| r.high)),
            Column::new(
                "games_verdict".into(),
                sps.iter()
                    .map(|sp| self.games_rows.get(sp).map(|r| r.decision.verdict.name()))
                    .collect::<Vec<_>>(),
            ),
            Column::new("games_q_value".into(), g(&|r| r.decision.q_value)),
            Column::new(
                "sweep_engines".into(),
                sps.iter()
                    .map(|sp| self.sweep_rows.get(sp).map(|r| r.engines as u32))
                    .collect::<Vec<_>>(),
            ),
            Column::new("sweep_cp".into(), s(&|r| r.estimate)),
            Column::new("sweep_cp_low".into(), s(&|r| r.low)),
            Column::new("sweep_cp_high".into(), s(&|r| r.high)),
            Column::new("sweep_shrunk_cp".into(), s(&|r| r.shrunk)),
            Column::new(
                "sweep_verdict".into(),
                sps.iter()
                    .map(|sp| self.sweep_rows.get(sp).map(|r| r.decision.verdict.name()))
                    .collect::<Vec<_>>(),
            ),
            Column::new("sweep_q_value".into(), s(&|r| r.decision.q_value)),
        ]
    }

    /// Writes `balance.csv` and `balance.json` into `dir`, atomically.
    pub fn write(&self, dir: &Path) -> Result<(), ReportError> {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, &e))?;
        let mut frame = self.frame()?;
        c960_store::write_atomically(&dir.join(BALANCE_CSV), |out| {
            CsvWriter::new(out)
                .include_header(true)
                .finish(&mut frame)
                .map_err(io::Error::other)
        })?;
        let json = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        c960_store::write_atomically(&dir.join(BALANCE_JSON), |out| {
            io::Write::write_all(out, json.as_bytes())?;
            io::Write::write_all(out, b"\n")
        })?;
        Ok(())
    }
}

/// The positions whose verdict is `verdict` in a `balance.csv`.
pub fn positions_with_verdict(
    csv: &Path,
    verdict: Verdict,
) -> Result<Vec<StartPosition>, ReportError> {
    let frame = CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(csv.to_owned()))?
        .finish()?;
    let sp = frame.column("sp")?.cast(&DataType::UInt32)?;
    let v = frame.column("verdict")?.cast(&DataType::String)?;
    let (sp, v) = (sp.u32()?, v.str()?);
    let mut out = Vec::new();
    for i in 0..frame.height() {
        if v.get(i) == Some(verdict.name())
            && let Some(s) = sp.get(i).and_then(|s| u16::try_from(s).ok())
        {
            out.push(StartPosition::new(s).map_err(|e| bad(csv, e.to_string()))?);
        }
    }
    Ok(out)
}
