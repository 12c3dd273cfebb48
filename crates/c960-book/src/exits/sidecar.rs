//! The per-line table beside an exit book (`NAME.epd` → `NAME.lines.csv`):
//! for each line, in the book's order, the start it came from, the moves
//! that reach it, the score that chose it and, with a draw model, the
//! model's draw chance (with its interval) and White's expected score
//! over a game pair, in percent; with a balance table, the start's
//! published balance with its 95 % interval.

use std::{collections::BTreeMap, io, path::Path, path::PathBuf};

use c960_core::Variant;

use super::{Chosen, DrawModel, Selection};

/// The sidecar's path beside `book`.
#[must_use]
pub fn sidecar_path(book: &Path) -> PathBuf {
    book.with_extension("lines.csv")
}

/// A start's published balance: the estimate and its 95 % interval (low,
/// high), each `None` where the table has none.
pub type StartEstimate = (Option<f64>, Option<(f64, f64)>);

/// Each start's published balance (a `balance.csv`), for the per-line
/// table: the estimate in centipawns and its 95 % interval, by SP.
#[derive(Clone, Debug, Default)]
pub struct StartBalance {
    /// The table's file name.
    pub file: String,
    /// Its SHA-256.
    pub sha256: String,
    /// Estimate and interval by SP (`None` where the table has none).
    pub by_sp: BTreeMap<u32, StartEstimate>,
}

struct Row<'a> {
    line: u32,
    chosen: &'a Chosen,
    side_to_move: &'static str,
    draw: Option<c960_balance::Estimate>,
    white_score: Option<f64>,
}

/// Writes the sidecar of `selection` (in its order) to `out`.
///
/// # Errors
/// When the table cannot be made or written.
pub fn write_sidecar(
    out: &mut dyn io::Write,
    selection: &Selection,
    variant: Variant,
    model: Option<&DrawModel>,
    balance: Option<&StartBalance>,
) -> io::Result<()> {
    let rows: Vec<Row> = selection
        .chosen
        .iter()
        .zip(1_u32..)
        .map(|(chosen, line)| {
            let cp = chosen.exit.cp.map(f64::from);
            let estimate = |measure: &dyn Fn(&c960_balance::wdl::WdlModel) -> f64| {
                model.and_then(|m| cp.map(|_| m.fit.estimate(measure)))
            };
            Row {
                line,
                chosen,
                side_to_move: if chosen.exit.fen.split(' ').nth(1) == Some("b") {
                    "black"
                } else {
                    "white"
                },
                draw: estimate(&|m| 100.0 * m.pair_draw(cp.unwrap_or_default())),
                white_score: estimate(&|m| m.pair_white_score(cp.unwrap_or_default()))
                    .map(|e| e.value),
            }
        })
        .collect();
    let id_column = match variant {
        Variant::Chess960 => "sp",
        Variant::Dfrc => "setup",
    };
    let mut table = c960_store::Frame::new(&rows)
        .column("line", |r| r.line)
        .column(id_column, |r| r.chosen.setup)
        .column("plies", |r| r.chosen.exit.moves.len() as u32)
        .column("side_to_move", |r| r.side_to_move)
        .column("moves", |r| r.chosen.exit.moves.join(" "))
        .column("fen", |r| r.chosen.exit.fen.as_str())
        .column("score_cp", |r| r.chosen.exit.cp)
        .column("engine_draw_pct", |r| r.chosen.exit.draw_percent())
        .column("model_draw_pct", |r| r.draw.map(|e| round(e.value)))
        .column("model_draw_low", |r| r.draw.map(|e| round(e.low)))
        .column("model_draw_high", |r| r.draw.map(|e| round(e.high)))
        .column("model_white_pct", |r| {
            r.white_score.map(|s| round(100.0 * s))
        });
    if let Some(balance) = balance {
        let of = |r: &Row| balance.by_sp.get(&r.chosen.setup).copied();
        table = table
            .column("start_balance_cp", move |r| {
                of(r).and_then(|b| b.0).map(round)
            })
            .column("start_balance_low", move |r| {
                of(r).and_then(|b| b.1).map(|i| round(i.0))
            })
            .column("start_balance_high", move |r| {
                of(r).and_then(|b| b.1).map(|i| round(i.1))
            });
    }
    let mut frame = table.build().map_err(io::Error::other)?;
    c960_store::write_csv(out, &mut frame)
}

/// Two decimals: the model's chances are not known more finely.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
