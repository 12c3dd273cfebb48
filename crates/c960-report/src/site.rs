//! The report as a static site that opens from disk: `index.html` (charts
//! and a sortable, filterable table of all positions), one page per
//! position ([`position`]), and `fair.html` for organizers ([`fair`]). No
//! network, no CDN: the page script is written beside the pages. The site
//! is built beside its target and swapped in whole ([`swap`]).
//!
//! This module holds what every page shares (the page frame, table cells,
//! the inputs' provenance and failures, the reliability note) and the
//! index.

mod fair;
mod notes;
mod outcome;
mod position;
mod raters;

use std::{fs, io, path::Path};

use askama::Template;
use c960_core::StartPosition;
use polars::prelude::*;

use crate::{RunKind, Source, Trees, html::escape};

pub use crate::charts::Shown;

/// Plies of the opening trees in the report.
pub const TREE_PLIES: usize = 12;

/// The report's opening trees go below lines reached by at least this share
/// of a position's games (and list every first move).
pub const TREE_SHARE: f64 = 0.05;
pub use crate::view::q_value_text;
pub(crate) use notes::{Failure, warning};
use notes::{balance_note, failures_banner, provenance, provenance_of, reliability_note};
pub use position::board_svg;

pub(crate) const SCRIPT: &str = include_str!("../assets/table.js");
pub(crate) const STYLE: &str = include_str!("../assets/style.css");

/// Writes the site into `dir`: `index.html`, `fair.html`,
/// `positions/<sp>.html` with its downloads beside it (`<sp>.svg`,
/// `<sp>.json`, `<sp>.pgn`), `style.css`, `table.js`. `charts` are file names
/// (relative to `dir`) of SVG charts shown on the index. `dir` is a report
/// being built beside its target (`c960_store::DirSwap`): its pages are written without syncs of
/// their own, and the swap makes them durable before they are in place.
pub fn write_site(dir: &Path, site: &Site<'_>) -> io::Result<()> {
    let Site {
        frame,
        sources,
        charts,
        trees,
        samples,
        verdicts,
        agreement,
        bounds,
    } = *site;
    fs::create_dir_all(dir.join("positions"))?;
    // Every page opens with the inputs' failures, if any (a position's
    // page with its own).
    let banner = failures_banner(sources, None);
    let write = |name: &Path, text: &str| {
        c960_store::write_built(name, |out| io::Write::write_all(out, text.as_bytes()))
    };
    write(&dir.join("style.css"), STYLE)?;
    write(&dir.join("table.js"), SCRIPT)?;
    let columns = run_columns(sources);
    let reliability = reliability_note(verdicts, true);
    let (section, sentence) = agreement.map_or_else(Default::default, |(a, chart)| {
        (
            crate::agreement::section(a, &chart.file.to_string_lossy()),
            crate::agreement::sentence(a),
        )
    });
    let lead = format!("{reliability}{section}");
    let lead = format!("{lead}{}", provenance_of(sources, bounds));
    let body = index(frame, (sources, verdicts), &columns, charts, &lead);
    write(
        &dir.join("index.html"),
        &page("c960 report", 0, &banner, &body),
    )?;
    // fair.html counts its verdicts against its own reference (in its
    // note), not against the mean of all positions.
    let lead = format!("{}{sentence}", reliability_note(verdicts, false));
    let body = fair::fair(frame, sources, verdicts, &lead);
    write(
        &dir.join("fair.html"),
        &page("Fair positions", 0, &banner, &body),
    )?;
    let inputs = position::PageInputs {
        frame,
        sources,
        trees,
        verdicts,
        bounds,
        outcomes: &outcome::views(verdicts),
    };
    for row in 0..frame.height() {
        let sp = StartPosition::new(row as u16).map_err(io::Error::other)?;
        let pgn: String = samples
            .iter()
            .filter_map(|(label, by_sp)| {
                let imported = sources
                    .iter()
                    .any(|s| s.label == *label && s.kind == RunKind::Import);
                by_sp
                    .get(&sp.sp())
                    .map(|games| crate::downloads::pgn(sp, label, imported, games))
            })
            .collect();
        if !pgn.is_empty() {
            write(&crate::downloads::pgn_path(dir, sp.sp()), &pgn)?;
        }
        let files = position::position_page(&inputs, row, sp, !pgn.is_empty());
        write(
            &dir.join(format!("positions/{}.html", sp.sp())),
            &files.html,
        )?;
        write(&dir.join(format!("positions/{}.svg", sp.sp())), &files.svg)?;
        write(
            &dir.join(format!("positions/{}.json", sp.sp())),
            &files.json,
        )?;
    }
    Ok(())
}

/// What the site is made of.
#[derive(Clone, Copy)]
pub struct Site<'a> {
    /// The per-position table.
    pub frame: &'a DataFrame,
    /// The runs.
    pub sources: &'a [Source],
    /// The charts shown on the index.
    pub charts: &'a [Shown],
    /// The game runs' opening trees, by run label.
    pub trees: &'a [(String, Trees)],
    /// The games sampled for the PGN downloads, by run label.
    pub samples: &'a [(String, Samples)],
    /// The verdicts, when the runs give any.
    pub verdicts: Option<&'a crate::balance::Balance>,
    /// The agreement with independent analyses and its chart, when asked.
    pub agreement: Option<(&'a crate::agreement::Agreement, &'a Shown)>,
    /// Whether each sweep's scores are exact or bounds.
    pub(crate) bounds: &'a [crate::bounds::Bounds],
}

/// The games sampled for each position's PGN download, by run label.
pub type Samples = std::collections::BTreeMap<u16, Vec<crate::downloads::SampleGame>>;

/// A page of the site, `depth` directories below its top (where
/// `style.css` and `table.js` are), with `banner` above `body`.
pub(crate) fn page(title: &str, depth: usize, banner: &str, body: &str) -> String {
    crate::html::Page {
        lang: "en",
        title,
        head: &SiteHead {
            up: &"../".repeat(depth),
        }
        .to_string(),
        banner,
        body: &format!("{body}\n"),
    }
    .render()
}

/// The number in a cell of `frame` as the table holds it (a float or an
/// integer column; never read back from text), if it holds one.
fn number_at(frame: &DataFrame, column: &str, row: usize) -> Option<f64> {
    match frame.column(column).ok()?.get(row).ok()? {
        AnyValue::Float64(v) => Some(v),
        AnyValue::Float32(v) => Some(f64::from(v)),
        v if v.dtype().is_integer() => v.extract::<f64>(),
        _ => None,
    }
}

/// The integer in an integer cell of `frame`, if it holds one.
fn integer_at(frame: &DataFrame, column: &str, row: usize) -> Option<i64> {
    let value = frame.column(column).ok()?.get(row).ok()?;
    if value.dtype().is_integer() {
        value.extract::<i64>()
    } else {
        None
    }
}

/// The value of a boolean cell of `frame`, if it holds one.
fn flag_at(frame: &DataFrame, column: &str, row: usize) -> Option<bool> {
    match frame.column(column).ok()?.get(row).ok()? {
        AnyValue::Boolean(b) => Some(b),
        _ => None,
    }
}

/// The count in an integer cell of `frame`, if it holds one.
fn count_at(frame: &DataFrame, column: &str, row: usize) -> Option<u64> {
    let value = frame.column(column).ok()?.get(row).ok()?;
    if value.dtype().is_integer() {
        value.extract::<u64>()
    } else {
        None
    }
}

/// A cell of `frame` as text ("" when null).
fn cell(frame: &DataFrame, column: &str, row: usize, percent: bool) -> String {
    let Ok(series) = frame.column(column) else {
        return String::new();
    };
    match series.get(row) {
        Ok(AnyValue::Null) | Err(_) => String::new(),
        Ok(AnyValue::Float64(v)) if percent => format!("{:.1}%", v * 100.0),
        Ok(AnyValue::Float64(v)) => format!("{v:.3}"),
        Ok(AnyValue::String(s)) => escape(s),
        Ok(AnyValue::Boolean(b)) => if b { "yes" } else { "no" }.to_owned(),
        Ok(v) => v.to_string(),
    }
}

/// The head of a site page (`templates/site/head.html`): the style sheet
/// and the table script, `up` (`../` per level) above the page.
#[derive(Template)]
#[template(path = "site/head.html")]
struct SiteHead<'a> {
    up: &'a str,
}

/// The index's body; `lead` (HTML, with the inputs' provenance) follows
/// its heading. With a consensus of several raters, the table shows it
/// with its interval before each rater's own column.
fn index(
    frame: &DataFrame,
    (sources, verdicts): (&[Source], Option<&crate::balance::Balance>),
    columns: &[RunColumn],
    charts: &[Shown],
    lead: &str,
) -> String {
    let consensus =
        |row: usize| raters::consensus_row(verdicts, u16::try_from(row).unwrap_or(u16::MAX));
    let has_consensus = (0..frame.height()).any(|row| consensus(row).is_some());
    let has_verdicts = frame.column("verdict").is_ok();
    let outcome = outcome::cells(verdicts);
    let difficulty = outcome::difficulty_cells(verdicts);
    IndexPage {
        lead,
        balance_note: balance_note(
            sources,
            verdicts
                .filter(|_| has_consensus)
                .map(|b| b.engines.len() - b.merged.len()),
        ),
        charts: charts.iter().map(figure).collect(),
        fixed: [
            ("SP", "num"),
            ("placement", "text"),
            ("weak pawns", "num"),
            ("undefended", "text"),
            ("king-only", "text"),
            ("attackable on move 1", "num"),
            ("castle a on move 1", "text"),
            ("castle h on move 1", "text"),
        ],
        has_consensus,
        extras: outcome::Extras {
            outcome: !outcome.is_empty(),
            difficulty: !difficulty.is_empty(),
        },
        columns,
        has_verdicts,
        rows: (0..frame.height())
            .map(|row| IndexRow {
                sp: cell(frame, "sp", row, false),
                placement: cell(frame, "placement", row, false),
                features: [
                    "weak_pawns",
                    "undefended_files",
                    "king_only_files",
                    "first_move_attackable",
                    "castle_a_first_move",
                    "castle_h_first_move",
                ]
                .map(|column| cell(frame, column, row, false)),
                consensus: consensus(row).map(|r| {
                    (
                        format!("{:+.0}", r.shrunk),
                        format!("{:+.0} to {:+.0}", r.shrunk_low, r.shrunk_high),
                    )
                }),
                outcome: u16::try_from(row)
                    .ok()
                    .and_then(|sp| outcome.get(&sp))
                    .map(|o| (o.draw.clone(), o.interval.clone(), o.character)),
                difficulty: u16::try_from(row)
                    .ok()
                    .and_then(|sp| difficulty.get(&sp))
                    .cloned(),
                runs: columns
                    .iter()
                    .map(|c| cell(frame, &c.column, row, c.percent))
                    .collect(),
                verdict: has_verdicts.then(|| cell(frame, "verdict", row, false)),
            })
            .collect(),
    }
    .to_string()
}

/// The index's body (`templates/site/index.html`).
#[derive(Template)]
#[template(path = "site/index.html")]
struct IndexPage<'a> {
    lead: &'a str,
    balance_note: String,
    charts: Vec<Figure<'a>>,
    fixed: [(&'static str, &'static str); 8],
    has_consensus: bool,
    extras: outcome::Extras,
    columns: &'a [RunColumn],
    has_verdicts: bool,
    rows: Vec<IndexRow>,
}

/// One position's row of the index's table, its cells as HTML.
struct IndexRow {
    sp: String,
    placement: String,
    features: [String; 6],
    consensus: Option<(String, String)>,
    /// Draw chance, its interval and the character.
    outcome: Option<(String, String, &'static str)>,
    /// White's good moves, Black's, and the asymmetry.
    difficulty: Option<[String; 3]>,
    runs: Vec<String>,
    verdict: Option<String>,
}

/// One column of a run in the tables: header (with the run's label
/// below it, if shown), column name, number format.
struct RunColumn {
    header: String,
    label: Option<String>,
    column: String,
    percent: bool,
    text: bool,
}

fn run_columns(sources: &[Source]) -> Vec<RunColumn> {
    let mut columns = Vec::new();
    for s in sources {
        let short = s.label.clone();
        match s.kind {
            RunKind::Sweep => {
                let repeats = s.manifest.searches();
                columns.push(if repeats > 1 {
                    RunColumn {
                        header: format!("mean cp of {repeats} searches"),
                        label: Some(short),
                        column: format!("{}__score_cp_mean", s.label),
                        percent: false,
                        text: false,
                    }
                } else {
                    RunColumn {
                        header: "score cp".to_owned(),
                        label: Some(short),
                        column: format!("{}__score_cp", s.label),
                        percent: false,
                        text: false,
                    }
                });
                columns.push(RunColumn {
                    header: "engine's first move".to_owned(),
                    label: None,
                    column: format!("{}__best_move_san", s.label),
                    percent: false,
                    text: true,
                });
            }
            RunKind::Selfplay | RunKind::Import => {
                columns.push(RunColumn {
                    header: "White score".to_owned(),
                    label: Some(short),
                    column: format!("{}__white_score", s.label),
                    percent: true,
                    text: false,
                });
                columns.push(RunColumn {
                    header: "games".to_owned(),
                    label: None,
                    column: format!("{}__games", s.label),
                    percent: false,
                    text: false,
                });
                columns.push(RunColumn {
                    header: "most played first move".to_owned(),
                    label: None,
                    column: format!("{}__first_move", s.label),
                    percent: false,
                    text: true,
                });
                columns.push(RunColumn {
                    header: "its share".to_owned(),
                    label: None,
                    column: format!("{}__first_move_share", s.label),
                    percent: true,
                    text: false,
                });
            }
        }
    }
    columns
}

/// A chart as a figure: the image, and over it, for per-position charts,
/// a transparent SVG of linked points whose titles name the position and
/// its value (hover shows them, a click opens the position's page). The
/// overlay scales with the image, so it works at any width.
fn figure(chart: &Shown) -> Figure<'_> {
    let (width, height) = crate::charts::size();
    Figure {
        file: chart.file.to_string_lossy().into_owned(),
        title: &chart.title,
        width,
        height,
        hotspots: chart
            .hotspots
            .iter()
            .map(|spot| Spot {
                sp: spot.sp,
                x: spot.x,
                y: spot.y,
                placement: u16::try_from(spot.sp)
                    .ok()
                    .and_then(|sp| StartPosition::new(sp).ok())
                    .map(StartPosition::placement)
                    .unwrap_or_default(),
                value: &spot.value,
            })
            .collect(),
    }
}

/// A chart on the index (`templates/site/figure.html`).
struct Figure<'a> {
    file: String,
    title: &'a str,
    width: u32,
    height: u32,
    hotspots: Vec<Spot<'a>>,
}

/// A linked point over a chart.
struct Spot<'a> {
    sp: u32,
    x: i32,
    y: i32,
    placement: String,
    value: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_in_the_provenance_has_no_limit_and_no_question_mark() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join(c960_store::MANIFEST_FILE),
            r#"{"kind":"import","files":["defects.pgn"],"games":4,"c960_version":"0.1.0"}"#,
        )
        .unwrap();
        let source = crate::source(dir.path()).unwrap();
        let line = provenance(&[source]);
        assert!(
            line.contains(
                "imported games with 4 games from defects.pgn, finish time not recorded, c960 0.1.0"
            ),
            "{line}"
        );
        assert!(!line.contains('?'), "{line}");
    }
}
