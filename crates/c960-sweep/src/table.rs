//! The sweep table as a polars `DataFrame`, written as Parquet (with the
//! manifest in the file's key-value metadata) and as CSV.

use std::{io, path::Path};

use c960_store::write_atomically;
use polars::prelude::*;

use crate::SweepRow;

/// Key of the manifest in the Parquet file's key-value metadata.
pub const PARQUET_MANIFEST_KEY: &str = "c960.manifest";

/// One column per field; `TopMove`s become `move{k}_uci`, `move{k}_san`,
/// `move{k}_cp`, `move{k}_mate` for k = 1..=`multipv`.
pub fn frame(rows: &[SweepRow], multipv: u32) -> PolarsResult<DataFrame> {
    let strings = |f: fn(&SweepRow) -> &str| rows.iter().map(f).collect::<Vec<&str>>();
    let mut columns = vec![
        Column::new(
            "sp".into(),
            rows.iter().map(|r| u32::from(r.sp)).collect::<Vec<_>>(),
        ),
        Column::new("placement".into(), strings(|r| &r.placement)),
        Column::new("engine".into(), strings(|r| &r.engine)),
        Column::new("engine_options".into(), strings(|r| &r.engine_options)),
        Column::new("limit".into(), strings(|r| &r.limit)),
        Column::new(
            "depth".into(),
            rows.iter().map(|r| r.depth).collect::<Vec<_>>(),
        ),
        Column::new(
            "seldepth".into(),
            rows.iter().map(|r| r.seldepth).collect::<Vec<_>>(),
        ),
        Column::new(
            "nodes".into(),
            rows.iter().map(|r| r.nodes).collect::<Vec<_>>(),
        ),
        Column::new(
            "time_ms".into(),
            rows.iter().map(|r| r.time_ms).collect::<Vec<_>>(),
        ),
        Column::new(
            "score_cp".into(),
            rows.iter().map(|r| r.score_cp).collect::<Vec<_>>(),
        ),
        Column::new(
            "score_mate".into(),
            rows.iter().map(|r| r.score_mate).collect::<Vec<_>>(),
        ),
        Column::new("bound".into(), strings(|r| &r.bound)),
        Column::new(
            "wdl_win".into(),
            rows.iter().map(|r| r.wdl_win).collect::<Vec<_>>(),
        ),
        Column::new(
            "wdl_draw".into(),
            rows.iter().map(|r| r.wdl_draw).collect::<Vec<_>>(),
        ),
        Column::new(
            "wdl_loss".into(),
            rows.iter().map(|r| r.wdl_loss).collect::<Vec<_>>(),
        ),
        Column::new("best_move_uci".into(), strings(|r| &r.best_move_uci)),
        Column::new("best_move_san".into(), strings(|r| &r.best_move_san)),
        Column::new("pv_san".into(), strings(|r| &r.pv_san)),
    ];
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
    DataFrame::new(rows.len(), columns)
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
