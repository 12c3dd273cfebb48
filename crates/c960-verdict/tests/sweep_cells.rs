//! A sweep table whose number columns hold text is refused, never read
//! with the position dropped.

use std::{fs::File, path::Path};

use c960_verdict::{
    VerdictError,
    balance::{Settings, compute},
};
use polars::prelude::*;

/// Writes a sweep table of 12 positions at `path` (with `score_cp` only
/// when given) and returns what `compute` refuses it with.
fn refused(path: &Path, score_cp: Option<Vec<String>>) -> VerdictError {
    let mut frame = df![
        "sp" => (0..12_u32).collect::<Vec<_>>(),
        "engine" => vec!["E"; 12],
        "limit" => vec!["nodes 1"; 12],
        "engine_options" => vec![""; 12],
        "score_mate" => vec![None::<f64>; 12],
    ]
    .unwrap();
    if let Some(scores) = score_cp {
        frame
            .insert_column(4, Column::new("score_cp".into(), scores))
            .unwrap();
    }
    ParquetWriter::new(File::create(path).unwrap())
        .finish(&mut frame)
        .unwrap();
    compute(&[], &[path.to_owned()], Settings::default()).unwrap_err()
}

#[test]
fn a_sweep_score_that_is_not_a_number_is_refused_naming_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let scores: Vec<String> = (0..12)
        .map(|i| {
            if i == 5 {
                "abc".to_owned()
            } else {
                format!("{}", 10 + i)
            }
        })
        .collect();
    let refused = refused(&dir.path().join("sweep.parquet"), Some(scores));
    let text = refused.to_string();
    assert!(matches!(refused, VerdictError::BadInput { .. }), "{text}");
    assert!(
        text.ends_with("row 5 has score_cp \"abc\", not a number"),
        "{text}"
    );
    assert!(refused.is_bad_input());
}

/// Issue 48, item 21 in process: a sweep table from before `score_cp`
/// existed is bad input naming the column, never polars' own words.
#[test]
fn a_legacy_sweep_table_without_score_cp_is_refused_naming_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let refused = refused(&dir.path().join("old-sweep.parquet"), None);
    let text = refused.to_string();
    assert!(refused.is_bad_input(), "{text}");
    assert!(
        text.ends_with("not a table c960 balance reads: it has no column score_cp"),
        "{text}"
    );
}
