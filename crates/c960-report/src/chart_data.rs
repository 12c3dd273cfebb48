//! The data behind the report's charts, and the charts written: the static
//! features' charts for all positions, then per sweep ([`sweep`]) and per
//! game run ([`games`]) the charts of its numbers from the per-position
//! table. Every chart carries a provenance line built from its run's
//! manifest.

mod games;
mod sweep;

use std::{
    io,
    path::{Path, PathBuf},
};

use c960_store::RunKind;
use polars::prelude::*;

use crate::{ReportError, Source, charts, site};

/// Charts written so far: files and the titles the index shows.
pub(crate) struct Shelf {
    out: PathBuf,
    /// The charts the index shows.
    pub(crate) shown: Vec<site::Shown>,
    /// The chart files (SVG and PNG), relative to the output directory.
    pub(crate) files: Vec<PathBuf>,
}

/// Writes every chart of the report into `out/charts`: the static
/// features' charts, then each sweep's, then each game run's.
pub(crate) fn write_charts(
    out: &Path,
    frame: &DataFrame,
    sources: &[Source],
) -> Result<Shelf, ReportError> {
    let mut shelf = Shelf {
        out: out.to_owned(),
        shown: Vec::new(),
        files: Vec::new(),
    };
    // The raters' consensus comes first: each position's published
    // estimate with its interval; each rater's own charts follow.
    if let Some(chart) = consensus_intervals(frame)? {
        shelf.add(
            "The raters' consensus: White's edge per position with its 95% interval",
            "consensus",
            &chart,
        )?;
    }
    let weak_by_file = weak_pawns_by_file(frame)?;
    shelf.add("Weak pawns by file", "weak-pawns-by-file", &weak_by_file)?;
    let castling = castling_opportunities(frame)?;
    shelf.add(
        "Castling opportunities",
        "castling-opportunities",
        &castling,
    )?;
    if let Some(chart) = balance_against_difficulty(frame)? {
        shelf.add(
            "Balance against the asymmetry of the first moves",
            "balance-vs-difficulty",
            &chart,
        )?;
    }
    for source in sources.iter().filter(|s| s.kind == RunKind::Sweep) {
        sweep::sweep_charts(&mut shelf, frame, source)?;
    }
    for source in sources.iter().filter(|s| s.kind.has_games()) {
        games::selfplay_charts(&mut shelf, frame, source, sources)?;
    }
    Ok(shelf)
}

impl Shelf {
    /// Writes `chart` as `charts/{name}.svg` and `.png` and lists it.
    fn add(&mut self, title: &str, name: &str, chart: &impl charts::Chart) -> io::Result<()> {
        let ([svg, png], hotspots) =
            charts::write_with_hotspots(chart, &self.out.join("charts"), name)?;
        let relative = |f: &Path| f.strip_prefix(&self.out).unwrap_or(f).to_owned();
        self.files.push(relative(&svg));
        self.files.push(relative(&png));
        self.shown.push(site::Shown {
            title: title.to_owned(),
            file: relative(&svg),
            hotspots,
        });
        Ok(())
    }
}

/// Each position's published estimate with its 95 % interval, sorted,
/// when the verdicts come from a consensus of engine sweeps (none from
/// games or one rater, which have no such interval).
fn consensus_intervals(frame: &DataFrame) -> Result<Option<charts::Intervals>, ReportError> {
    use c960_store::columns::balance as column;
    let (Ok(sp), Ok(estimate), Ok(low), Ok(high), Ok(method)) = (
        frame.column("sp"),
        frame.column(column::ESTIMATE),
        frame.column(column::LOW),
        frame.column(column::HIGH),
        frame.column(column::METHOD),
    ) else {
        return Ok(None);
    };
    let float = |c: &Column| -> PolarsResult<Vec<Option<f64>>> {
        Ok(c.cast(&DataType::Float64)?.f64()?.iter().collect())
    };
    let (estimate, low, high) = (float(estimate)?, float(low)?, float(high)?);
    let method = method.cast(&DataType::String)?;
    let sp = sp.cast(&DataType::UInt32)?;
    let points: Vec<(u32, f64, f64, f64)> = sp
        .u32()?
        .iter()
        .zip(method.str()?.iter())
        .enumerate()
        .filter_map(|(i, (s, m))| {
            (m? == "sweep").then_some(())?;
            Some((s?, estimate[i]?, low[i]?, high[i]?))
        })
        .collect();
    if points.len() < 3 {
        return Ok(None);
    }
    Ok(Some(charts::Intervals {
        title: "The raters' consensus: White's edge per position".to_owned(),
        provenance: "balance.csv's published estimate (shrunk) with its 95% interval, on the \
            reference rater's centipawn scale"
            .to_owned(),
        points,
        y_desc: "White's edge, centipawns, with 95% interval".to_owned(),
        reference: Some(("equal chances: 0 cp".to_owned(), 0.0)),
    }))
}

/// The published balance estimate of each position against how much
/// harder White's first move is than Black's reply (White's good moves
/// minus Black's), the classical setup marked; none without both columns.
fn balance_against_difficulty(frame: &DataFrame) -> Result<Option<charts::Scatter>, ReportError> {
    use c960_store::columns::{balance, difficulty};
    let (Ok(estimate), Ok(asymmetry), Ok(sp)) = (
        frame.column(balance::ESTIMATE),
        frame.column(difficulty::GOOD_MOVES_ASYMMETRY),
        frame.column("sp"),
    ) else {
        return Ok(None);
    };
    let estimate = estimate.cast(&DataType::Float64)?;
    let asymmetry = asymmetry.cast(&DataType::Float64)?;
    let sp = sp.cast(&DataType::UInt32)?;
    let points: Vec<(u32, f64, f64)> = sp
        .u32()?
        .iter()
        .zip(asymmetry.f64()?.iter())
        .zip(estimate.f64()?.iter())
        .filter_map(|((s, x), y)| Some((s?, x?, y?)))
        .collect();
    if points.len() < 3 {
        return Ok(None);
    }
    Ok(Some(charts::Scatter {
        title: "Balance against the asymmetry of the first moves".to_owned(),
        provenance: "balance: the raters' published consensus; good moves: within 25 cp \
            of the best, White's first move minus Black's reply, one engine's MultiPV search"
            .to_owned(),
        points,
        x_desc: "White's good moves minus Black's".to_owned(),
        y_desc: "White's edge, cp (consensus)".to_owned(),
        marked: Some((518, "SP 518, the classical setup".to_owned())),
    }))
}

/// Positions by the number of pieces in the way of each castling (0 means
/// the castling is legal on move 1).
pub fn castling_opportunities(frame: &DataFrame) -> Result<charts::Bars, ReportError> {
    let a = frame.column("castle_a_blockers")?.u32()?.clone();
    let h = frame.column("castle_h_blockers")?.u32()?.clone();
    let most = a.max().unwrap_or(0).max(h.max().unwrap_or(0));
    let count = |values: &UInt32Chunked, k: u32| {
        let n = (0..values.len())
            .filter(|i| values.get(*i) == Some(k))
            .count();
        f64::from(u32::try_from(n).unwrap_or(u32::MAX))
    };
    let categories = (0..=most)
        .map(|k| {
            if k == 0 {
                "0 (legal on move 1)".to_owned()
            } else {
                k.to_string()
            }
        })
        .collect();
    Ok(charts::Bars {
        title: "Castling opportunities: pieces in the way on move 1".to_owned(),
        provenance: "all 960 positions; c960 static features (Black's are the same by symmetry)"
            .to_owned(),
        categories,
        series: vec![
            (
                "a-side (O-O-O)".to_owned(),
                (0..=most).map(|k| count(&a, k)).collect(),
            ),
            (
                "h-side (O-O)".to_owned(),
                (0..=most).map(|k| count(&h, k)).collect(),
            ),
        ],
        x_desc: "pieces between king and rook or on their target squares".to_owned(),
        y_desc: "positions".to_owned(),
    })
}

/// Positions with an undefended / king-only pawn on each file.
fn weak_pawns_by_file(frame: &DataFrame) -> Result<charts::Bars, ReportError> {
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let count = |column: &str| -> Result<Vec<f64>, ReportError> {
        let values = frame.column(column)?.str()?.clone();
        Ok(files
            .iter()
            .map(|f| {
                let n = (0..frame.height())
                    .filter(|i| {
                        values
                            .get(*i)
                            .is_some_and(|v| v.split(' ').any(|x| x == *f))
                    })
                    .count();
                f64::from(u32::try_from(n).unwrap_or(u32::MAX))
            })
            .collect())
    };
    Ok(charts::Bars {
        title: "Weak pawns by file".to_owned(),
        provenance: "all 960 positions; c960 static features".to_owned(),
        categories: files.iter().map(|f| (*f).to_owned()).collect(),
        series: vec![
            ("undefended".to_owned(), count("undefended_files")?),
            (
                "defended by the king only".to_owned(),
                count("king_only_files")?,
            ),
        ],
        x_desc: "file".to_owned(),
        y_desc: "positions with such a pawn on the file".to_owned(),
    })
}

/// A count as a float (counts here are far below 2^32).
fn count(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The provenance line of a sweep's charts: `ENGINE, LIMIT, finished TIME
/// (c960 VERSION)`.
fn chart_provenance(source: &Source) -> String {
    format!(
        "{}, {}, {} ({})",
        source.engines(),
        source.limit(),
        source.finished(),
        source.version()
    )
}

/// What a game run's games are: `ENGINES, LIMIT per move, N games`, or for
/// an import `N imported games from FILES`.
fn games_description(source: &Source) -> String {
    if source.kind == RunKind::Import {
        let games = source.manifest.games.map_or_else(
            || "imported games (count not recorded)".to_owned(),
            |n| format!("{n} imported games"),
        );
        let files = &source.manifest.files;
        let files = if files.is_empty() {
            "files not recorded".to_owned()
        } else {
            files.join(", ")
        };
        return format!("{games} from {files}");
    }
    format!(
        "{}, {} per move, {}",
        source.engines(),
        source.limit(),
        source.games()
    )
}

/// The provenance line of a game run's charts: what its games are, then
/// `finished TIME (c960 VERSION)`.
fn selfplay_provenance(source: &Source) -> String {
    format!(
        "{}, {} ({})",
        games_description(source),
        source.finished(),
        source.version()
    )
}

/// The provenance line of a chart that sets a sweep (x) against a game
/// run (y).
fn pair_provenance(sweep: &Source, games: &Source) -> String {
    format!(
        "x: {}, {}; y: {}",
        sweep.engines(),
        sweep.limit(),
        games_description(games)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source_of(manifest: &str) -> (tempfile::TempDir, Source) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(c960_store::MANIFEST_FILE), manifest).unwrap();
        let source = crate::source(dir.path()).unwrap();
        (dir, source)
    }

    #[test]
    fn chart_provenance_lines_come_from_the_typed_manifest() {
        let (_a, sweep) = source_of(
            r#"{"kind":"sweep","engine":{"name":"E"},"limit":"nodes 9",
                "finished":"2026-01-01T00:00:00Z","c960_version":"0.1.0"}"#,
        );
        let (_b, games) = source_of(
            r#"{"kind":"selfplay","engines":[{"name":"A"}],"limit":"nodes 5","games":20}"#,
        );
        assert_eq!(
            chart_provenance(&sweep),
            "E, nodes 9, finished 2026-01-01T00:00:00Z (c960 0.1.0)"
        );
        assert_eq!(
            selfplay_provenance(&games),
            "A, nodes 5 per move, 20 games, finish time not recorded (c960 version not recorded)"
        );
        // The y side is the game run's description, without its time.
        assert_eq!(
            pair_provenance(&sweep, &games),
            "x: E, nodes 9; y: A, nodes 5 per move, 20 games"
        );
        let (_c, import) = source_of(r#"{"kind":"import","files":["x.pgn","y.pgn"]}"#);
        assert_eq!(
            games_description(&import),
            "imported games (count not recorded) from x.pgn, y.pgn"
        );
    }
}
