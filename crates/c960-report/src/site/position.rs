//! One page per position: its board, facts, the castling rules in words,
//! what each run measured there, its openings in each game run, and its
//! downloads (diagram, games, table row), each a file beside the page
//! (`positions/518.svg`, `.json`, `.pgn`), so that pages keep short lines
//! and a changed number changes one short line.

use std::fmt::Write as _;

use c960_core::{Features, Lang, StartPosition, shakmaty::CastlingSide};
use polars::prelude::*;

use super::{cell, page, raters};
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
    pub(super) bounds: &'a [raters::Bounds],
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
    } = *inputs;
    let features = Features::of(sp);
    let mut body = String::new();
    let prev = (sp.sp() + 959) % 960;
    let next = (sp.sp() + 1) % 960;
    let _ = writeln!(
        body,
        "<p class=\"nav\"><a href=\"../index.html\">all positions</a> · <a href=\"{prev}.html\">← SP {prev}</a> · <a href=\"{next}.html\">SP {next} →</a></p>\n<h1>SP {} <span class=\"mono\">{}</span></h1>",
        sp.sp(),
        sp.placement()
    );
    let _ = writeln!(
        body,
        "<p class=\"quote\">{}</p>",
        escape_prose(
            &crate::sheet::facts(
                &features,
                &raters::measured(frame, sources, row, verdicts),
                Lang::En
            )
            .join(" ")
        )
    );
    let board = board_svg_of(&features);
    body.push_str(&board);
    body.push('\n');
    body.push_str(&downloads(sp, has_pgn));
    body.push_str(&raters::section(frame, sources, bounds, verdicts, row));
    body.push_str("<table class=\"facts\">\n");
    let mut fact = |name: &str, value: String| {
        let _ = writeln!(body, "<tr><th>{name}</th><td>{value}</td></tr>");
    };
    feature_facts(frame, row, &features, &mut fact);
    run_facts(frame, sources, row, &mut fact);
    body.push_str("</table>\n<h2>Castling in this position</h2>\n");
    for text in c960_core::castling_texts(sp, Lang::En) {
        let _ = writeln!(
            body,
            "<h3>{}</h3>\n<p>{}</p>",
            escape_prose(&text.title),
            escape_prose(&text.sentences())
        );
    }
    for (label, by_sp) in trees {
        if let Some(tree) = by_sp.get(&sp.sp()) {
            let imported = sources
                .iter()
                .any(|s| s.label == *label && s.kind == RunKind::Import);
            body.push_str(&opening_section(frame, sources, row, label, tree, imported));
        }
    }
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

/// The position's own facts: FENs, mirror twin and every feature.
fn feature_facts(
    frame: &DataFrame,
    row: usize,
    features: &Features,
    fact: &mut impl FnMut(&str, String),
) {
    let sp = features.position;
    fact("X-FEN", format!("<code>{}</code>", escape(&sp.to_xfen())));
    fact(
        "Shredder-FEN",
        format!("<code>{}</code>", escape(&sp.to_shredder_fen())),
    );
    fact(
        "mirror twin",
        format!(
            "<a href=\"{0}.html\">SP {0}</a> <span class=\"mono\">{1}</span>",
            features.mirror.sp(),
            features.mirror.placement()
        ),
    );
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
        fact(name, cell(frame, column, row, false));
    }
    for side in [CastlingSide::QueenSide, CastlingSide::KingSide] {
        let c = features.castling.get(side);
        let blockers: Vec<String> = c.blockers.into_iter().map(|s| s.to_string()).collect();
        fact(
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
        );
    }
}

/// The name of a game run's interval for White's score, from its table's
/// `interval` column (`trinomial`, `pairs` or `anytime`).
pub(super) fn interval_name(kind: &str) -> &'static str {
    match kind {
        "pairs" => "95% interval over colour-reversed pairs",
        "anytime" => "95% anytime-valid interval",
        _ => "95% trinomial interval",
    }
}

/// The page's downloads, each a file beside the page: the diagram as SVG
/// (and as PNG, drawn by the page's script, with the marks or clean for
/// print), the position's games as PGN, its table row as JSON.
fn downloads(sp: StartPosition, has_pgn: bool) -> String {
    let n = sp.sp();
    let mut links = vec![
        format!("<a class=\"download\" download=\"SP-{n}.svg\" href=\"{n}.svg\">diagram (SVG)</a>"),
        format!(
            "<a class=\"download\" data-png download=\"SP-{n}.png\" href=\"#\">diagram (PNG)</a>"
        ),
        format!(
            "<a class=\"download\" data-png=\"clean\" download=\"SP-{n}-clean.png\" href=\"#\">diagram for print, no marks (PNG)</a>"
        ),
    ];
    if has_pgn {
        links.push(format!(
            "<a class=\"download\" download=\"SP-{n}.pgn\" href=\"{n}.pgn\">games (PGN, a sample of up to {})</a>",
            crate::downloads::PGN_SAMPLE
        ));
    }
    links.push(format!(
        "<a class=\"download\" download=\"SP-{n}.json\" href=\"{n}.json\">table row (JSON)</a>"
    ));
    format!(
        "<p class=\"downloads\">Download: {}</p>\n",
        links.join(" · ")
    )
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
fn repeat_facts(
    s: &Source,
    c: &impl Fn(&str, bool) -> String,
    fact: &mut impl FnMut(&str, String),
) {
    fact(
        &format!(
            "engine score, mean of {} searches <small>{}</small>",
            s.manifest.searches(),
            escape(&s.label)
        ),
        format!(
            "{} cp (s.d. {}, s.e. {}); White expects {}",
            c("score_cp_mean", false),
            c("score_cp_sd", false),
            c("score_cp_se", false),
            c("white_expected_mean", false)
        ),
    );
}

/// A multi-line sweep's moves with their scores, best first for White, who
/// moves: mates to give (soonest first), centipawns, then mates to suffer
/// (latest first), whatever order the engine sent them in.
fn best_first(c: &dyn Fn(&str, bool) -> String, lines: u32) -> Vec<String> {
    let mut moves: Vec<((u8, i64), String)> = (1..=lines)
        .filter_map(|k| {
            let san = c(&format!("move{k}_san"), false);
            let cp = c(&format!("move{k}_cp"), false);
            let mate = c(&format!("move{k}_mate"), false);
            let (order, score) = match mate.parse::<i64>() {
                Ok(m) if m > 0 => ((0, m), format!("mate {mate}")),
                Ok(m) => ((2, m), format!("mate {mate}")),
                Err(_) => match cp.parse::<i64>() {
                    Ok(v) => ((1, -v), format!("{v:+}")),
                    Err(_) => ((1, 0), cp),
                },
            };
            (!san.is_empty()).then(|| (order, format!("{san} ({score})")))
        })
        .collect();
    moves.sort_by_key(|m| m.0);
    moves.into_iter().map(|m| m.1).collect()
}

/// The WDL of a search, or that the engine gives none.
fn wdl(c: &impl Fn(&str, bool) -> String) -> String {
    let (w, d, l) = (
        c("wdl_win", false),
        c("wdl_draw", false),
        c("wdl_loss", false),
    );
    if w.is_empty() || d.is_empty() || l.is_empty() {
        "no WDL (the engine does not report one)".to_owned()
    } else {
        format!("WDL {w}/{d}/{l}")
    }
}

fn run_facts(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    fact: &mut impl FnMut(&str, String),
) {
    for s in sources {
        let c =
            |name: &str, percent: bool| cell(frame, &format!("{}__{name}", s.label), row, percent);
        match s.kind {
            RunKind::Sweep => sweep_facts(s, &c, fact),
            RunKind::Selfplay | RunKind::Import => game_facts(s, &c, fact),
        }
    }
}

/// A sweep's facts on a position's page: its score, best line and best
/// first moves (`c` reads the run's cells).
fn sweep_facts(s: &Source, c: &impl Fn(&str, bool) -> String, fact: &mut impl FnMut(&str, String)) {
    let searches = s.manifest.searches();
    if searches > 1 {
        repeat_facts(s, c, fact);
        fact(
            &format!("first of the {searches} searches"),
            format!("{} cp, {}", c("score_cp", false), wdl(c)),
        );
    } else {
        fact(
            &format!("engine score <small>{}</small>", escape(&s.label)),
            format!("{} cp, {}", c("score_cp", false), wdl(c)),
        );
    }
    // The line begins with the best move: shown once.
    let line = c("pv_san", false);
    fact(
        if searches > 1 {
            "its best line"
        } else {
            "best line"
        },
        if line.is_empty() {
            c("best_move_san", false)
        } else {
            line
        },
    );
    let lines = s.manifest.lines();
    if lines > 1 {
        let moves = best_first(c, lines);
        fact("best first moves", moves.join(", "));
    }
}

/// A game run's facts on a position's page: White's score, how the games
/// ended and who castled where (`c` reads the run's cells).
fn game_facts(s: &Source, c: &impl Fn(&str, bool) -> String, fact: &mut impl FnMut(&str, String)) {
    fact(
        &format!(
            "{} <small>{}</small>",
            if s.kind == RunKind::Import {
                "games"
            } else {
                "self-play"
            },
            escape(&s.label)
        ),
        format!(
            "White {} ({} {}) over {} games: +{} ={} −{}",
            c("white_score", true),
            interval_name(&c("interval", false)),
            shown_range(&c("white_score_low", true), &c("white_score_high", true)),
            c("games", false),
            c("white_wins", false),
            c("draws", false),
            c("black_wins", false)
        ),
    );
    let terminations: &[(&str, &str)] = if s.kind == RunKind::Import {
        &crate::IMPORT_TERMINATIONS
    } else {
        &crate::TERMINATIONS
    };
    let ended: Vec<String> = terminations
        .iter()
        .filter_map(|(column, name)| {
            let n = c(column, false);
            (!n.is_empty() && n != "0").then(|| format!("{name} {n}"))
        })
        .collect();
    fact("how games ended", ended.join(", "));
    fact(
        "castled (share of games)",
        format!(
            "White a-side {}, h-side {}; Black a-side {}, h-side {}; median castling ply White {}, Black {}",
            c("white_castled_a", true),
            c("white_castled_h", true),
            c("black_castled_a", true),
            c("black_castled_h", true),
            one_decimal(&c("white_median_castle_ply", false)),
            one_decimal(&c("black_median_castle_ply", false))
        ),
    );
}

/// `low–high`, or that there is no interval when both ends are alike.
fn shown_range(low: &str, high: &str) -> String {
    if low == high {
        "no interval: the games do not vary".to_owned()
    } else {
        format!("{low}–{high}")
    }
}

/// A number shown with one decimal ("" stays "").
fn one_decimal(text: &str) -> String {
    text.parse::<f64>()
        .map_or_else(|_| text.to_owned(), |v| format!("{v:.1}"))
}

/// Lines shown on a position page: reached by at least this share.
const PAGE_SHARE: f64 = crate::TREE_SHARE;

/// A position page's openings from one self-play run: the first moves with
/// their shares and scores beside the engine's best first move, and every
/// line reached by at least 5% of the games.
fn opening_section(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    label: &str,
    tree: &c960_games::Tree,
    imported: bool,
) -> String {
    let mut html = String::new();
    let _ = writeln!(
        html,
        "<h2>Openings in {} <small>{}</small></h2>\n<p>{} games. First moves played, most played first:</p>",
        if imported {
            "imported games"
        } else {
            "self-play"
        },
        escape(label),
        tree.root.games
    );
    let best: Vec<String> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .map(|s| cell(frame, &format!("{}__best_move_san", s.label), row, false))
        .filter(|m| !m.is_empty())
        .collect();
    if !best.is_empty() {
        let _ = writeln!(
            html,
            "<p>The engine's best first move: <b>{}</b>.</p>",
            best.join(", ")
        );
    }
    let named = tree.interval.name();
    let _ = writeln!(
        html,
        "<table class=\"facts openings\"><thead><tr><th>move</th><th>share</th><th>games</th><th>White's score ({named})</th><th>+ = −</th></tr></thead><tbody>"
    );
    let row_html = |html: &mut String, label: String, line: &c960_games::Line| {
        let (mean, low, high) = line.counts.interval();
        let range = if high - low > 1e-9 {
            format!("{:.1}–{:.1}%", low * 100.0, high * 100.0)
        } else {
            "no interval: the games do not vary".to_owned()
        };
        let _ = writeln!(
            html,
            "<tr><td class=\"mono\">{label}</td><td>{:.1}%</td><td>{}</td><td>{:.1}% ({range})</td><td>+{} ={} −{}</td></tr>",
            tree.share(line) * 100.0,
            line.counts.games,
            mean * 100.0,
            line.counts.white_wins,
            line.counts.draws,
            line.counts.black_wins
        );
    };
    for line in tree.next_moves("") {
        row_html(&mut html, escape(&line.numbered()), line);
    }
    html.push_str("</tbody></table>\n");
    let lines = tree.openings(PAGE_SHARE);
    if !lines.is_empty() {
        let _ = writeln!(
            html,
            "<p>Lines reached by at least {:.0}% of the games (up to {} plies):</p>\n<table class=\"facts openings\"><thead><tr><th>line</th><th>share</th><th>games</th><th>White's score ({named})</th><th>+ = −</th></tr></thead><tbody>",
            PAGE_SHARE * 100.0,
            tree.plies
        );
        for line in lines {
            let ply = line.san.len() - 1;
            let label = format!(
                "{}{}",
                "&nbsp;&nbsp;".repeat(ply),
                escape(&c960_games::tree::numbered(&line.san[ply..], ply))
            );
            row_html(&mut html, label, line);
        }
        html.push_str("</tbody></table>\n");
    }
    html
}
