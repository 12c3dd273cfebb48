//! One page per position: its board, facts, the castling rules in words,
//! what each run measured there, its openings in each game run, and its
//! downloads (diagram, games, table row), each a file beside the page
//! (`positions/518.svg`, `.json`, `.pgn`), so that pages keep short lines
//! and a changed number changes one short line.

use askama::Template;
use c960_core::{Features, Lang, StartPosition, shakmaty::CastlingSide};
use polars::prelude::*;

use super::{cell, integer_at, number_at, page, raters};
use crate::{
    RunKind, Source, Trees,
    html::{escape, escape_prose},
};

/// The board as SVG: weak pawns ringed in red, castling target squares
/// (c1/g1, c8/g8) outlined in green, with the legend.
#[must_use]
pub fn board_svg(position: StartPosition) -> String {
    board_svg_of(&Features::of(position))
}

/// [`board_svg`] for features already computed.
fn board_svg_of(features: &Features) -> String {
    crate::board::diagram_svg_of(features, crate::board::Marks::ALL, Some(340), Lang::En)
}

/// A position's page and the files it offers for download.
pub(super) struct PositionFiles {
    /// `positions/SP.html`.
    pub(super) html: String,
    /// `positions/SP.svg`: the page's diagram.
    pub(super) svg: String,
    /// `positions/SP.json`: the position's row of the table.
    pub(super) json: String,
}

/// Everything a position's page is made from.
pub(super) struct PageInputs<'a> {
    pub(super) frame: &'a DataFrame,
    pub(super) sources: &'a [Source],
    pub(super) trees: &'a [(String, Trees)],
    pub(super) verdicts: Option<&'a crate::balance::Balance>,
    /// Each sweep's scores that are bounds.
    pub(super) bounds: &'a [crate::bounds::Bounds],
    /// Each position's draw chance and expected score, by SP.
    pub(super) outcomes: &'a std::collections::BTreeMap<u16, crate::view::OutcomeView>,
}

pub(super) fn position_page(
    inputs: &PageInputs<'_>,
    row: usize,
    sp: StartPosition,
    has_pgn: bool,
) -> PositionFiles {
    let PageInputs {
        frame,
        sources,
        trees,
        verdicts,
        bounds,
        outcomes,
    } = *inputs;
    let features = Features::of(sp);
    let board = board_svg_of(&features);
    let mut facts = Vec::new();
    feature_facts(frame, row, &mut facts);
    castling_facts(&features, &mut facts);
    run_facts(frame, sources, row, &mut facts);
    let openings = trees
        .iter()
        .filter_map(|(label, by_sp)| {
            let tree = by_sp.get(&sp.sp())?;
            let imported = sources
                .iter()
                .any(|s| s.label == *label && s.kind == RunKind::Import);
            Some(opening_section(frame, sources, row, label, tree, imported))
        })
        .collect();
    let body = PositionPage {
        sp: sp.sp(),
        prev: (sp.sp() + 959) % 960,
        next: (sp.sp() + 1) % 960,
        placement: sp.placement(),
        quote: escape_prose(
            &crate::sheet::facts(
                &features,
                &raters::measured(
                    frame,
                    sources,
                    row,
                    (verdicts, outcomes.get(&sp.sp()).cloned()),
                ),
                Lang::En,
            )
            .join(" "),
        ),
        board: &board,
        pgn_sample: has_pgn.then_some(crate::downloads::PGN_SAMPLE),
        balance: raters::section(frame, sources, bounds, verdicts, row),
        xfen: sp.to_xfen(),
        shredder: sp.to_shredder_fen(),
        mirror: features.mirror.sp(),
        mirror_placement: features.mirror.placement(),
        facts,
        castling: c960_core::castling_texts(sp, Lang::En)
            .iter()
            .map(|text| (escape_prose(&text.title), escape_prose(&text.sentences())))
            .collect(),
        openings,
    }
    .to_string();
    PositionFiles {
        html: page(
            &format!("SP {} {}", sp.sp(), sp.placement()),
            1,
            &super::failures_banner(sources, Some(sp.sp())),
            &body,
        ),
        svg: format!("{board}\n"),
        json: row_json(frame, row),
    }
}

/// A position's page (`templates/site/position.html`): its board, facts,
/// castling rules, the runs' numbers and openings, and its downloads (the
/// diagram as SVG and, drawn by the page's script, as PNG with the marks
/// or clean for print; the games as PGN, with `pgn_sample` games at most;
/// the table row as JSON), each a file beside the page.
#[derive(Template)]
#[template(path = "site/position.html")]
struct PositionPage<'a> {
    sp: u16,
    prev: u16,
    next: u16,
    placement: String,
    /// The facts in a sentence (HTML).
    quote: String,
    board: &'a str,
    pgn_sample: Option<usize>,
    /// The balance section (HTML).
    balance: String,
    xfen: String,
    shredder: String,
    mirror: u16,
    mirror_placement: String,
    facts: Vec<Fact>,
    /// Each castling rule's title and sentences (HTML).
    castling: Vec<(String, String)>,
    /// Each game run's openings (HTML).
    openings: Vec<String>,
}

/// A row of the facts table: its name, the run it is from, and its value
/// (HTML).
struct Fact {
    name: String,
    label: Option<String>,
    value: String,
}

impl Fact {
    fn new(name: &str, value: String) -> Self {
        Fact {
            name: name.to_owned(),
            label: None,
            value,
        }
    }

    fn of_run(name: String, s: &Source, value: String) -> Self {
        Fact {
            name,
            label: Some(s.shown_name()),
            value,
        }
    }
}

/// The position's own features from the table.
fn feature_facts(frame: &DataFrame, row: usize, facts: &mut Vec<Fact>) {
    for (name, column) in [
        ("legal first moves", "legal_first_moves"),
        ("undefended pawns", "undefended_files"),
        ("king-only pawns", "king_only_files"),
        ("attackable on move 1", "first_move_attacks"),
        ("castling a-side on move 1", "castle_a_first_move"),
        ("castling a-side kind", "castle_a_kind"),
        ("castling h-side on move 1", "castle_h_first_move"),
        ("castling h-side kind", "castle_h_kind"),
        ("corner bishops", "corner_bishops"),
        ("queen in a corner", "queen_in_corner"),
    ] {
        facts.push(Fact::new(name, cell(frame, column, row, false)));
    }
}

/// What stands in the way of castling on each side.
fn castling_facts(features: &Features, facts: &mut Vec<Fact>) {
    for side in [CastlingSide::QueenSide, CastlingSide::KingSide] {
        let c = features.castling.get(side);
        let blockers: Vec<String> = c.blockers.into_iter().map(|s| s.to_string()).collect();
        facts.push(Fact::new(
            if side == CastlingSide::QueenSide {
                "in the way of a-side castling"
            } else {
                "in the way of h-side castling"
            },
            if blockers.is_empty() {
                "nothing".to_owned()
            } else {
                blockers.join(" ")
            },
        ));
    }
}

/// The position's row of the table as JSON, one column a line.
fn row_json(frame: &DataFrame, row: usize) -> String {
    let mut json = serde_json::Map::new();
    for column in frame.columns() {
        let value = match column.get(row) {
            Ok(AnyValue::Null) | Err(_) => serde_json::Value::Null,
            Ok(v) if column.dtype().is_integer() => v
                .extract::<i64>()
                .map_or(serde_json::Value::Null, serde_json::Value::from),
            Ok(v) if column.dtype().is_float() => v
                .extract::<f64>()
                .and_then(serde_json::Number::from_f64)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Ok(AnyValue::Boolean(b)) => serde_json::Value::Bool(b),
            Ok(AnyValue::String(s)) => serde_json::Value::String(s.to_owned()),
            Ok(_) => serde_json::Value::String(cell(frame, column.name(), row, false)),
        };
        json.insert(column.name().to_string(), value);
    }
    let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
    text.push('\n');
    text
}

/// A sweep with repeats: the mean over its searches and their spread,
/// the position's engine score.
fn repeat_facts(s: &Source, c: &RunCells<'_>, facts: &mut Vec<Fact>) {
    facts.push(Fact::of_run(
        format!("engine score, mean of {} searches", s.manifest.searches()),
        s,
        format!(
            "{} cp (s.d. {}, s.e. {}); White expects {}",
            c.text("score_cp_mean", false),
            c.text("score_cp_sd", false),
            c.text("score_cp_se", false),
            c.text("white_expected_mean", false)
        ),
    ));
}

/// A multi-line sweep's moves with their scores, best first for White, who
/// moves: mates to give (soonest first), centipawns, then mates to suffer
/// (latest first), whatever order the engine sent them in.
fn best_first(c: &RunCells<'_>, lines: u32) -> Vec<String> {
    let mut moves: Vec<((u8, i64), String)> = (1..=lines)
        .filter_map(|k| {
            let san = c.text(&format!("move{k}_san"), false);
            let cp = c.integer(&format!("move{k}_cp"));
            let mate = c.integer(&format!("move{k}_mate"));
            let (order, score) = match (mate, cp) {
                (Some(m), _) if m > 0 => ((0, m), format!("mate {m}")),
                (Some(m), _) => ((2, m), format!("mate {m}")),
                (None, Some(v)) => ((1, -v), format!("{v:+}")),
                (None, None) => ((1, 0), String::new()),
            };
            (!san.is_empty()).then(|| (order, format!("{san} ({score})")))
        })
        .collect();
    moves.sort_by_key(|m| m.0);
    moves.into_iter().map(|m| m.1).collect()
}

/// The WDL of a search, or that the engine gives none.
fn wdl(c: &RunCells<'_>) -> String {
    let (w, d, l) = (
        c.text("wdl_win", false),
        c.text("wdl_draw", false),
        c.text("wdl_loss", false),
    );
    if w.is_empty() || d.is_empty() || l.is_empty() {
        "no WDL (the engine does not report one)".to_owned()
    } else {
        format!("WDL {w}/{d}/{l}")
    }
}

fn run_facts(frame: &DataFrame, sources: &[Source], row: usize, facts: &mut Vec<Fact>) {
    // With several raters, the raters' table above shows each one's score
    // and line: the facts do not repeat them.
    let raters = sources.iter().filter(|s| s.kind == RunKind::Sweep).count();
    for s in sources {
        let c = RunCells {
            frame,
            label: &s.label,
            row,
        };
        match s.kind {
            RunKind::Sweep if raters > 1 => {}
            RunKind::Sweep => sweep_facts(s, &c, facts),
            RunKind::Selfplay | RunKind::Import => game_facts(s, &c, facts),
        }
    }
}

/// A sweep's facts on a position's page: its score, best line and best
/// first moves (`c` reads the run's cells).
fn sweep_facts(s: &Source, c: &RunCells<'_>, facts: &mut Vec<Fact>) {
    let searches = s.manifest.searches();
    if searches > 1 {
        repeat_facts(s, c, facts);
        facts.push(Fact::new(
            &format!("first of the {searches} searches"),
            format!("{} cp, {}", c.text("score_cp", false), wdl(c)),
        ));
    } else {
        facts.push(Fact::of_run(
            "engine score".to_owned(),
            s,
            format!("{} cp, {}", c.text("score_cp", false), wdl(c)),
        ));
    }
    // The line begins with the best move: shown once.
    let line = c.text("pv_san", false);
    facts.push(Fact::new(
        if searches > 1 {
            "its best line"
        } else {
            "best line"
        },
        if line.is_empty() {
            c.text("best_move_san", false)
        } else {
            line
        },
    ));
    let lines = s.manifest.lines();
    if lines > 1 {
        let moves = best_first(c, lines);
        facts.push(Fact::new("best first moves", moves.join(", ")));
    }
}

/// A game run's facts on a position's page: White's score, how the games
/// ended and who castled where (`c` reads the run's cells).
fn game_facts(s: &Source, c: &RunCells<'_>, facts: &mut Vec<Fact>) {
    facts.push(Fact::of_run(
        if s.kind == RunKind::Import {
            "games"
        } else {
            "self-play"
        }
        .to_owned(),
        s,
        format!(
            "White {} ({} {}) over {} games: +{} ={} −{}",
            c.text("white_score", true),
            crate::view::interval_name(&c.text("interval", false)),
            shown_range(
                &c.text("white_score_low", true),
                &c.text("white_score_high", true)
            ),
            c.text("games", false),
            c.text("white_wins", false),
            c.text("draws", false),
            c.text("black_wins", false)
        ),
    ));
    let terminations: &[(&str, &str)] = if s.kind == RunKind::Import {
        &crate::IMPORT_TERMINATIONS
    } else {
        &crate::TERMINATIONS
    };
    let ended: Vec<String> = terminations
        .iter()
        .filter_map(|(column, name)| {
            c.integer(column)
                .filter(|n| *n != 0)
                .map(|n| format!("{name} {n}"))
        })
        .collect();
    facts.push(Fact::new("how games ended", ended.join(", ")));
    facts.push(Fact::new(
        "castled (share of games)",
        format!(
            "White a-side {}, h-side {}; Black a-side {}, h-side {}; median castling ply White {}, Black {}",
            c.text("white_castled_a", true),
            c.text("white_castled_h", true),
            c.text("black_castled_a", true),
            c.text("black_castled_h", true),
            one_decimal(c.number("white_median_castle_ply")),
            one_decimal(c.number("black_median_castle_ply"))
        ),
    ));
}

/// `low–high`, or that there is no interval when both ends are alike.
fn shown_range(low: &str, high: &str) -> String {
    if low == high {
        "no interval: the games do not vary".to_owned()
    } else {
        format!("{low}–{high}")
    }
}

/// A number shown with one decimal ("" for none).
fn one_decimal(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.1}"))
}

/// One run's cells in a row of the report's table (its columns are
/// `LABEL__NAME`): as the page shows them, or typed.
struct RunCells<'a> {
    frame: &'a DataFrame,
    label: &'a str,
    row: usize,
}

impl RunCells<'_> {
    fn column(&self, name: &str) -> String {
        format!("{}__{name}", self.label)
    }

    /// The cell as the page shows it (`percent`: a share as a percentage).
    fn text(&self, name: &str, percent: bool) -> String {
        cell(self.frame, &self.column(name), self.row, percent)
    }

    /// The number in the cell, typed.
    fn number(&self, name: &str) -> Option<f64> {
        number_at(self.frame, &self.column(name), self.row)
    }

    /// The integer in the cell, typed.
    fn integer(&self, name: &str) -> Option<i64> {
        integer_at(self.frame, &self.column(name), self.row)
    }
}

/// Lines shown on a position page: reached by at least this share.
const PAGE_SHARE: f64 = crate::TREE_SHARE;

/// A position page's openings from one self-play run
/// (`templates/site/openings.html`): the first moves with their shares and
/// scores beside the engine's best first move, and every line reached by
/// at least 5% of the games.
fn opening_section(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    label: &str,
    tree: &c960_games::Tree,
    imported: bool,
) -> String {
    let best: Vec<String> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .map(|s| cell(frame, &format!("{}__best_move_san", s.label), row, false))
        .filter(|m| !m.is_empty())
        .collect();
    let opening_row = |label: String, line: &c960_games::Line| {
        let (mean, low, high) = line.counts.interval();
        OpeningRow {
            label,
            share: format!("{:.1}", tree.share(line) * 100.0),
            games: line.counts.games,
            mean: format!("{:.1}", mean * 100.0),
            range: if high - low > 1e-9 {
                format!("{:.1}–{:.1}%", low * 100.0, high * 100.0)
            } else {
                "no interval: the games do not vary".to_owned()
            },
            wins: line.counts.white_wins,
            draws: line.counts.draws,
            losses: line.counts.black_wins,
        }
    };
    // The run as captions name it (engine and budget), not its column
    // prefix.
    let shown = sources
        .iter()
        .find(|s| s.label == label)
        .map_or_else(|| label.to_owned(), Source::shown_name);
    Openings {
        imported,
        label: &shown,
        games: tree.root.games,
        best: best.join(", "),
        named: tree.interval.name(),
        moves: tree
            .next_moves("")
            .into_iter()
            .map(|line| opening_row(escape(&line.numbered()), line))
            .collect(),
        share: format!("{:.0}", PAGE_SHARE * 100.0),
        plies: tree.plies,
        lines: tree
            .openings(PAGE_SHARE)
            .into_iter()
            .map(|line| {
                let ply = line.san.len() - 1;
                let label = format!(
                    "{}{}",
                    "&nbsp;&nbsp;".repeat(ply),
                    escape(&c960_games::tree::numbered(&line.san[ply..], ply))
                );
                opening_row(label, line)
            })
            .collect(),
    }
    .to_string()
}

/// A game run's openings on a position's page.
#[derive(Template)]
#[template(path = "site/openings.html")]
struct Openings<'a> {
    imported: bool,
    label: &'a str,
    games: u64,
    /// The sweeps' best first moves (HTML).
    best: String,
    named: String,
    moves: Vec<OpeningRow>,
    /// The share a line must reach to be listed, in percent.
    share: String,
    plies: usize,
    lines: Vec<OpeningRow>,
}

/// A move or line with its share, games and White's score.
struct OpeningRow {
    /// The move or line (HTML).
    label: String,
    share: String,
    games: u64,
    mean: String,
    range: String,
    wins: u64,
    draws: u64,
    losses: u64,
}
