//! Position sheets for writers: a paragraph of quotable facts generated
//! from the features and, where there are any, the measurements (engine
//! view with its uncertainty, verdict, games), the diagram and the castling
//! rules in words. Used by `c960 show --format html` and the report's
//! position pages.

use std::fmt::Write as _;

use c960_core::{CastlingKind, Features, Lang, StartPosition, castling_texts};

use crate::{
    board::{Marks, diagram_svg},
    html::escape,
};

/// An engine's view of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineView {
    /// Who says so, e.g. `Stockfish 15.1 at 1,000,000 nodes`.
    pub source: String,
    /// White's advantage in centipawns.
    pub cp: f64,
    /// A 95% interval, when the run measured its noise.
    pub interval: Option<(f64, f64)>,
}

/// How the games from a position went.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesView {
    /// Who played, e.g. `self-play, Stockfish 15.1` or `imported games`.
    pub source: String,
    /// Games.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// White's score with its 95% interval.
    pub score: (f64, f64, f64),
}

/// A verdict with its q-value.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictView {
    /// `balanced`, `more-for-white`, `less-for-white` or `unresolved`.
    pub verdict: String,
    /// The Benjamini–Hochberg q-value.
    pub q_value: f64,
    /// The false discovery rate the verdicts are controlled at.
    pub level: f64,
}

/// What is measured about a position (each part optional).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// The engine's view.
    pub engine: Option<EngineView>,
    /// The games.
    pub games: Option<GamesView>,
    /// The verdict.
    pub verdict: Option<VerdictView>,
}

fn list(items: &[String]) -> String {
    Lang::En.list(items)
}

fn files(files: &[char]) -> String {
    let names: Vec<String> = files.iter().map(|f| format!("{f}-pawn")).collect();
    list(&names)
}

/// The facts as sentences a writer can quote.
#[must_use]
pub fn facts(features: &Features, measured: &Measured) -> Vec<String> {
    let p = features.position;
    let mut out = Vec::new();
    let weak = features.weak_files();
    if weak.is_empty() {
        out.push(format!(
            "SP {} ({}) has no weak pawns: every pawn is defended by a piece other than the king.",
            p.sp(),
            p.placement()
        ));
    } else {
        let mut parts = Vec::new();
        if !features.undefended_files().is_empty() {
            parts.push(format!(
                "{} undefended",
                files(&features.undefended_files())
            ));
        }
        if !features.king_only_files().is_empty() {
            parts.push(format!(
                "{} defended only by the king",
                files(&features.king_only_files())
            ));
        }
        out.push(format!(
            "SP {} ({}) has {} weak pawn{} on each side: {}.",
            p.sp(),
            p.placement(),
            weak.len(),
            if weak.len() == 1 { "" } else { "s" },
            parts.join("; ")
        ));
    }
    if features.first_move_attacks.is_empty() {
        out.push("No undefended black pawn can be attacked with White's first move.".to_owned());
    } else {
        let attacks: Vec<String> = features
            .first_move_attacks
            .iter()
            .map(|a| {
                let moves: Vec<String> = a.moves.iter().map(|m| format!("1.{m}")).collect();
                format!("{} by {}", a.pawn, list(&moves))
            })
            .collect();
        out.push(format!(
            "White can attack an undefended pawn with the first move: {}.",
            attacks.join("; ")
        ));
    }
    let kind = |k: CastlingKind| match k {
        CastlingKind::Normal => "king and rook both move",
        CastlingKind::KingOnly => "only the king moves",
        CastlingKind::RookOnly => "only the rook moves",
        CastlingKind::Swap => "king and rook swap places",
    };
    let a = &features.castling.queen_side;
    let h = &features.castling.king_side;
    let first = match (a.legal_first_move, h.legal_first_move) {
        (true, true) => "both are possible on the first move",
        (true, false) => "a-side castling is possible on the first move",
        (false, true) => "h-side castling is possible on the first move",
        (false, false) => "neither is possible on the first move",
    };
    out.push(format!(
        "In a-side castling (O-O-O) {}, in h-side castling (O-O) {}; {first}.",
        kind(a.kind),
        kind(h.kind)
    ));
    out.extend(measured_facts(measured));
    out.push(format!(
        "Its mirror twin, with the back rank reversed, is SP {} ({}).",
        features.mirror.sp(),
        features.mirror.placement()
    ));
    out
}

/// The sentences about what was measured.
fn measured_facts(measured: &Measured) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(e) = &measured.engine {
        let interval = e.interval.map_or_else(
            || " (a single search: its noise is not measured)".to_owned(),
            |(low, high)| format!(" (95% interval {low:+.0} to {high:+.0})"),
        );
        out.push(format!(
            "{} rates it {:+.0} centipawns for White{interval}.",
            e.source, e.cp
        ));
    }
    if let Some(g) = &measured.games {
        let (score, low, high) = g.score;
        out.push(format!(
            "In {} games ({}) White scored {score:.3} (95% interval {low:.3} to {high:.3}): {} wins, {} draws and {} losses for White.",
            g.games, g.source, g.white_wins, g.draws, g.black_wins
        ));
    }
    if let Some(v) = &measured.verdict {
        let words = match v.verdict.as_str() {
            "balanced" => "balanced: White's edge is within the band around the average position",
            "more-for-white" => "more for White than the average position",
            "less-for-white" => "less for White than the average position",
            _ => "unresolved: the data do not tell it apart from the average position",
        };
        out.push(format!(
            "Verdict: {words} (q = {:.3}, false discovery rate {:.0}%).",
            v.q_value,
            v.level * 100.0
        ));
    }
    out
}

/// A standalone HTML sheet for one position: facts, diagram, FENs and the
/// castling rules in words.
#[must_use]
pub fn sheet_html(position: StartPosition, measured: &Measured) -> String {
    let features = Features::of(position);
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<h1>SP {} <span class=\"mono\">{}</span></h1>\n<div class=\"diagram\">{}</div>\n<p class=\"facts\">{}</p>",
        position.sp(),
        position.placement(),
        diagram_svg(position, Marks::ALL, None),
        escape(&facts(&features, measured).join(" "))
    );
    let _ = writeln!(
        body,
        "<table>\n<tr><th>X-FEN</th><td class=\"mono\">{}</td></tr>\n<tr><th>Shredder-FEN</th><td class=\"mono\">{}</td></tr>\n</table>\n<h2>Castling</h2>",
        position.to_xfen(),
        position.to_shredder_fen()
    );
    for text in castling_texts(position, Lang::En) {
        let _ = writeln!(
            body,
            "<h3>{}</h3>\n<p>{}</p>",
            escape(&text.title),
            escape(&text.sentences())
        );
    }
    let _ = writeln!(
        body,
        "<p class=\"note\">Red ring: weak pawn (undefended or defended only by the king); green square: castling target. Made with c960 {}.</p>",
        env!("CARGO_PKG_VERSION")
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>SP {} {}</title>\n<style>\n{SHEET_CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        position.sp(),
        position.placement()
    )
}

const SHEET_CSS: &str = "body { font-family: 'DejaVu Sans', sans-serif; max-width: 44rem; margin: 0 auto; padding: 1rem; line-height: 1.4; }
.mono { font-family: 'DejaVu Sans Mono', monospace; }
.diagram svg { display: block; width: min(100%, 340px); height: auto; }
td { word-break: break-all; padding-left: 0.6rem; }
th { text-align: left; }
h3 { font-size: 1rem; margin: 0.6rem 0 0.1rem; }
h3 + p { margin: 0; }
.note { color: #555; font-size: 0.85rem; }
";
