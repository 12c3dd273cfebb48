//! The sweep table as a polars `DataFrame`, written as Parquet (with the
//! manifest in the file's key-value metadata) and as CSV.

use std::{io, path::Path};

use c960_store::{
    Frame,
    columns::{SWEEP_REPEAT_MEANS, SWEEP_SEARCH},
    write_atomically,
};
use polars::prelude::*;

use crate::{Difficulty, SweepRow, TopMove, difficulty::DIFFICULTY_COLUMNS, repeats};

/// Key of the manifest in the Parquet file's key-value metadata.
pub const PARQUET_MANIFEST_KEY: &str = c960_store::PARQUET_MANIFEST_KEY;

/// One column per field; `TopMove`s become `move{k}_uci`, `move{k}_san`,
/// `move{k}_cp`, `move{k}_mate` for k = 1..=`multipv`. With `reply` (a
/// sweep that searched the position after each best move), each line also
/// gets `move{k}_bound`, and the reply's columns follow, then the
/// difficulty measures (see [`reply_columns`]).
pub fn frame(rows: &[SweepRow], multipv: u32, reply: bool) -> PolarsResult<DataFrame> {
    let [
        score_cp,
        score_mate,
        wdl_win,
        wdl_draw,
        wdl_loss,
        depth,
        nodes,
        best_move_uci,
        best_move_san,
        pv_san,
    ] = SWEEP_SEARCH;
    let frame = Frame::new(rows)
        .column("sp", |r| r.sp)
        .column("placement", |r| r.placement.as_str())
        .column("engine", |r| r.engine.as_str())
        .column("engine_options", |r| r.engine_options.as_str())
        .column("limit", |r| r.limit.to_string())
        .column(depth, |r| r.depth)
        .column("seldepth", |r| r.seldepth)
        .column(nodes, |r| r.nodes)
        .column("time_ms", |r| r.time_ms)
        .column(score_cp, |r| r.score_cp)
        .column(score_mate, |r| r.score_mate)
        .column("bound", |r| r.bound.name())
        .column(wdl_win, |r| r.wdl_win)
        .column(wdl_draw, |r| r.wdl_draw)
        .column(wdl_loss, |r| r.wdl_loss)
        .column(best_move_uci, |r| r.best_move_uci.as_str())
        .column(best_move_san, |r| r.best_move_san.as_str())
        .column(pv_san, |r| r.pv_san.as_str());
    let frame = top_move_columns(frame, multipv, ("move", reply), |r| &r.top_moves);
    if reply {
        reply_columns(frame, multipv).build()
    } else {
        frame.build()
    }
}

/// `frame` with the columns of the top `multipv` moves `lines` gives:
/// `{prefix}{k}_uci`, `_san`, `_cp` and `_mate` for each k, and `_bound`
/// (`exact`, `lower`, `upper`; White's view) when `bounds` is set.
fn top_move_columns<'a>(
    mut frame: Frame<'a, SweepRow>,
    multipv: u32,
    (prefix, bounds): (&str, bool),
    lines: fn(&SweepRow) -> &[TopMove],
) -> Frame<'a, SweepRow> {
    for k in 0..multipv as usize {
        let top = move |r: &SweepRow| lines(r).get(k).cloned();
        let n = k + 1;
        frame = frame
            .column(format!("{prefix}{n}_uci"), move |r| top(r).map(|t| t.uci))
            .column(format!("{prefix}{n}_san"), move |r| top(r).map(|t| t.san))
            .column(format!("{prefix}{n}_cp"), move |r| {
                top(r).and_then(|t| t.cp)
            })
            .column(format!("{prefix}{n}_mate"), move |r| {
                top(r).and_then(|t| t.mate)
            });
        if bounds {
            frame = frame.column(format!("{prefix}{n}_bound"), move |r| {
                top(r).map(|t| t.bound.name())
            });
        }
    }
    frame
}

/// The reply's search (`reply_depth` … `reply_best_move_san`, its lines as
/// `reply_move{k}_*` with their bounds, scores from White's point of
/// view), then the
/// difficulty measures of [`Difficulty`]: per side the lines scored, the
/// good moves (within 25 cp of the best), the gap from the best to the
/// second best and the lines whose score is a bound, then the asymmetries
/// (White's minus Black's).
fn reply_columns(frame: Frame<'_, SweepRow>, multipv: u32) -> Frame<'_, SweepRow> {
    let frame = frame
        .column("reply_depth", |r| r.reply.as_ref().map(|p| p.depth))
        .column("reply_seldepth", |r| {
            r.reply.as_ref().and_then(|p| p.seldepth)
        })
        .column("reply_nodes", |r| r.reply.as_ref().and_then(|p| p.nodes))
        .column("reply_time_ms", |r| {
            r.reply.as_ref().and_then(|p| p.time_ms)
        })
        .column("reply_score_cp", |r| {
            r.reply.as_ref().and_then(|p| p.score_cp)
        })
        .column("reply_score_mate", |r| {
            r.reply.as_ref().and_then(|p| p.score_mate)
        })
        .column("reply_bound", |r| r.reply.as_ref().map(|p| p.bound.name()))
        .column("reply_best_move_uci", |r| {
            r.reply.as_ref().map(|p| p.best_move_uci.as_str())
        })
        .column("reply_best_move_san", |r| {
            r.reply.as_ref().map(|p| p.best_move_san.as_str())
        });
    let mut frame = top_move_columns(frame, multipv, ("reply_move", true), |r| {
        r.reply.as_ref().map_or(&[], |p| p.top_moves.as_slice())
    });
    for (k, name) in DIFFICULTY_COLUMNS.into_iter().enumerate() {
        frame = frame.column(name, move |r| Difficulty::of(r).and_then(|d| d.cells()[k]));
    }
    frame
}

/// One row per (SP, repeat) search: the columns of [`frame`] with
/// `repeat` and `node_budget` after `sp`, in (SP, repeat) order.
pub fn repeats_frame(rows: &[SweepRow], multipv: u32, reply: bool) -> PolarsResult<DataFrame> {
    let mut sorted: Vec<&SweepRow> = rows.iter().collect();
    sorted.sort_by_key(|r| (r.sp, r.repeat));
    let sorted: Vec<SweepRow> = sorted.into_iter().cloned().collect();
    let mut frame = frame(&sorted, multipv, reply)?;
    Frame::new(&sorted)
        .column("repeat", |r| r.repeat)
        .column("node_budget", |r| r.node_budget)
        .insert_into(&mut frame, 1)?;
    Ok(frame)
}

/// One row per position of a sweep with repeats: the search columns of
/// its first finished repeat, then `repeats` and the mean, standard
/// deviation and standard error over its repeats of the score in
/// centipawns (`score_cp_*`) and of White's expected score from WDL
/// (`white_expected_*`).
pub fn positions_frame(rows: &[SweepRow], multipv: u32, reply: bool) -> PolarsResult<DataFrame> {
    let mut first: std::collections::BTreeMap<u32, &SweepRow> = std::collections::BTreeMap::new();
    for row in rows {
        first
            .entry(row.sp)
            .and_modify(|f| {
                if row.repeat < f.repeat {
                    *f = row;
                }
            })
            .or_insert(row);
    }
    let firsts: Vec<SweepRow> = first.values().map(|r| (*r).clone()).collect();
    let means = repeats::summarize(rows);
    let mut frame = frame(&firsts, multipv, reply)?;
    let [
        repeats,
        cp_mean,
        cp_sd,
        cp_se,
        expected_mean,
        expected_sd,
        expected_se,
    ] = SWEEP_REPEAT_MEANS;
    Frame::new(&means)
        .column(repeats, |m| m.repeats)
        .column(cp_mean, |m| m.cp.map(|c| c.mean))
        .column(cp_sd, |m| m.cp.and_then(|c| c.sd))
        .column(cp_se, |m| m.cp.and_then(|c| c.se))
        .column(expected_mean, |m| m.expected.map(|c| c.mean))
        .column(expected_sd, |m| m.expected.and_then(|c| c.sd))
        .column(expected_se, |m| m.expected.and_then(|c| c.se))
        .append_to(&mut frame)?;
    Ok(frame)
}

/// Writes `frame` to `path` as sealed Parquet (row count and data hash)
/// with `manifest` in its metadata.
pub(crate) fn write_parquet(path: &Path, frame: &DataFrame, manifest: &str) -> io::Result<()> {
    let mut frame = frame.clone();
    write_atomically(path, |out| {
        c960_store::write_sealed(
            out,
            &mut frame,
            vec![(PARQUET_MANIFEST_KEY.to_owned(), manifest.to_owned())],
        )
    })
}

/// Writes `frame` to `path` as CSV with a header row.
pub(crate) fn write_csv(path: &Path, frame: &DataFrame) -> io::Result<()> {
    let mut frame = frame.clone();
    write_atomically(path, |out| c960_store::write_csv(out, &mut frame))
}
