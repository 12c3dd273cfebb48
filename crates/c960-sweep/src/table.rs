//! The sweep table as a polars `DataFrame`, written as Parquet (with the
//! manifest in the file's key-value metadata) and as CSV.

use std::{io, path::Path};

use c960_store::{
    columns::{SWEEP_REPEAT_MEANS, SWEEP_SEARCH},
    write_atomically,
};
use polars::prelude::*;

use crate::{SweepRow, repeats};

/// Key of the manifest in the Parquet file's key-value metadata.
pub const PARQUET_MANIFEST_KEY: &str = c960_store::PARQUET_MANIFEST_KEY;

/// One column per field; `TopMove`s become `move{k}_uci`, `move{k}_san`,
/// `move{k}_cp`, `move{k}_mate` for k = 1..=`multipv`.
pub fn frame(rows: &[SweepRow], multipv: u32) -> PolarsResult<DataFrame> {
    let strings = |f: fn(&SweepRow) -> &str| rows.iter().map(f).collect::<Vec<&str>>();
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
    let mut columns = vec![
        Column::new("sp".into(), rows.iter().map(|r| r.sp).collect::<Vec<_>>()),
        Column::new("placement".into(), strings(|r| &r.placement)),
        Column::new("engine".into(), strings(|r| &r.engine)),
        Column::new("engine_options".into(), strings(|r| &r.engine_options)),
        Column::new(
            "limit".into(),
            rows.iter().map(|r| r.limit.to_string()).collect::<Vec<_>>(),
        ),
        Column::new(
            depth.into(),
            rows.iter().map(|r| r.depth).collect::<Vec<_>>(),
        ),
        Column::new(
            "seldepth".into(),
            rows.iter().map(|r| r.seldepth).collect::<Vec<_>>(),
        ),
        Column::new(
            nodes.into(),
            rows.iter().map(|r| r.nodes).collect::<Vec<_>>(),
        ),
        Column::new(
            "time_ms".into(),
            rows.iter().map(|r| r.time_ms).collect::<Vec<_>>(),
        ),
        Column::new(
            score_cp.into(),
            rows.iter().map(|r| r.score_cp).collect::<Vec<_>>(),
        ),
        Column::new(
            score_mate.into(),
            rows.iter().map(|r| r.score_mate).collect::<Vec<_>>(),
        ),
        Column::new("bound".into(), strings(|r| r.bound.name())),
        Column::new(
            wdl_win.into(),
            rows.iter().map(|r| r.wdl_win).collect::<Vec<_>>(),
        ),
        Column::new(
            wdl_draw.into(),
            rows.iter().map(|r| r.wdl_draw).collect::<Vec<_>>(),
        ),
        Column::new(
            wdl_loss.into(),
            rows.iter().map(|r| r.wdl_loss).collect::<Vec<_>>(),
        ),
        Column::new(best_move_uci.into(), strings(|r| &r.best_move_uci)),
        Column::new(best_move_san.into(), strings(|r| &r.best_move_san)),
        Column::new(pv_san.into(), strings(|r| &r.pv_san)),
    ];
    columns.extend(top_move_columns(rows, multipv));
    DataFrame::new(rows.len(), columns)
}

/// The columns of the top `multipv` moves: `move{k}_uci`, `_san`, `_cp`
/// and `_mate` for each k.
fn top_move_columns(rows: &[SweepRow], multipv: u32) -> Vec<Column> {
    let mut columns = Vec::new();
    for k in 0..multipv as usize {
        let top = |r: &SweepRow| r.top_moves.get(k).cloned();
        let n = k + 1;
        columns.push(Column::new(
            format!("move{n}_uci").into(),
            rows.iter()
                .map(|r| top(r).map(|t| t.uci))
                .collect::<Vec<_>>(),
        ));
        columns.push(Column::new(
            format!("move{n}_san").into(),
            rows.iter()
                .map(|r| top(r).map(|t| t.san))
                .collect::<Vec<_>>(),
        ));
        columns.push(Column::new(
            format!("move{n}_cp").into(),
            rows.iter()
                .map(|r| top(r).and_then(|t| t.cp))
                .collect::<Vec<_>>(),
        ));
        columns.push(Column::new(
            format!("move{n}_mate").into(),
            rows.iter()
                .map(|r| top(r).and_then(|t| t.mate))
                .collect::<Vec<_>>(),
        ));
    }
    columns
}

/// One row per (SP, repeat) search: the columns of [`frame`] with
/// `repeat` and `node_budget` after `sp`, in (SP, repeat) order.
pub fn repeats_frame(rows: &[SweepRow], multipv: u32) -> PolarsResult<DataFrame> {
    let mut sorted: Vec<&SweepRow> = rows.iter().collect();
    sorted.sort_by_key(|r| (r.sp, r.repeat));
    let sorted: Vec<SweepRow> = sorted.into_iter().cloned().collect();
    let mut frame = frame(&sorted, multipv)?;
    frame.insert_column(
        1,
        Column::new(
            "repeat".into(),
            sorted.iter().map(|r| r.repeat).collect::<Vec<_>>(),
        ),
    )?;
    frame.insert_column(
        2,
        Column::new(
            "node_budget".into(),
            sorted.iter().map(|r| r.node_budget).collect::<Vec<_>>(),
        ),
    )?;
    Ok(frame)
}

/// One row per position of a sweep with repeats: the search columns of
/// its first finished repeat, then `repeats` and the mean, standard
/// deviation and standard error over its repeats of the score in
/// centipawns (`score_cp_*`) and of White's expected score from WDL
/// (`white_expected_*`).
pub fn positions_frame(rows: &[SweepRow], multipv: u32) -> PolarsResult<DataFrame> {
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
    let mut frame = frame(&firsts, multipv)?;
    let column = |name: &str, f: &dyn Fn(&repeats::PositionMean) -> Option<f64>| {
        Column::new(name.into(), means.iter().map(f).collect::<Vec<_>>())
    };
    let [
        repeats,
        cp_mean,
        cp_sd,
        cp_se,
        expected_mean,
        expected_sd,
        expected_se,
    ] = SWEEP_REPEAT_MEANS;
    let columns = vec![
        Column::new(
            repeats.into(),
            means.iter().map(|m| m.repeats).collect::<Vec<_>>(),
        ),
        column(cp_mean, &|m| m.cp.map(|c| c.mean)),
        column(cp_sd, &|m| m.cp.and_then(|c| c.sd)),
        column(cp_se, &|m| m.cp.and_then(|c| c.se)),
        column(expected_mean, &|m| m.expected.map(|c| c.mean)),
        column(expected_sd, &|m| m.expected.and_then(|c| c.sd)),
        column(expected_se, &|m| m.expected.and_then(|c| c.se)),
    ];
    for c in columns {
        frame.with_column(c)?;
    }
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
    write_atomically(path, |out| {
        CsvWriter::new(out)
            .include_header(true)
            .finish(&mut frame)
            .map_err(io::Error::other)
    })
}
