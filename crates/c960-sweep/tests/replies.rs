//! Sweeps with replies (the position after each best move searched too):
//! every reply is a legal search of that position, the difficulty columns
//! are the measures of the rows, shards merge into the unsharded sweep,
//! and replies never mix with plain searches. Built-in engine at a small
//! node limit.

use std::{fs, num::NonZeroU32, path::Path, sync::atomic::AtomicBool};

use c960_core::{
    Shard, StartPosition, Variant,
    shakmaty::{CastlingMode, Chess, Position, uci::UciMove},
};
use c960_sweep::{
    DIFFICULTY_COLUMNS, Difficulty, RepeatPlan, SweepConfig, SweepRow, check_row, merge, run,
};
use polars::prelude::*;

use crate::shards::{config, manifest, rows, sweep, with_repeats};

fn replying(out: &Path, shard: Shard) -> SweepConfig {
    SweepConfig {
        reply: true,
        multipv: NonZeroU32::new(3).unwrap(),
        ..config(out, shard)
    }
}

/// The position after `row`'s best move.
fn after_best(row: &SweepRow) -> Chess {
    let mut position = StartPosition::new(u16::try_from(row.sp).unwrap())
        .unwrap()
        .to_position();
    let best = row
        .best_move_uci
        .parse::<UciMove>()
        .unwrap()
        .to_move(&position)
        .unwrap();
    position.play_unchecked(best);
    position
}

/// A count as a cell of an integer column.
fn n(count: usize) -> Option<i64> {
    i64::try_from(count).ok()
}

fn table(dir: &Path, file: &str) -> DataFrame {
    ParquetReader::new(fs::File::open(dir.join(file)).unwrap())
        .finish()
        .unwrap()
}

/// The column `name` as optional integers.
fn ints(frame: &DataFrame, name: &str) -> Vec<Option<i64>> {
    let column = frame.column(name).unwrap().cast(&DataType::Int64).unwrap();
    let values = column.i64().unwrap();
    (0..values.len()).map(|i| values.get(i)).collect()
}

#[test]
fn each_reply_searches_the_position_after_the_best_move_and_the_table_measures_both() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("whole");
    let rows = sweep(&replying(&out, Shard::WHOLE));
    assert_eq!(rows.len(), 12);
    for row in &rows {
        check_row(row, Variant::Chess960).unwrap();
        let reply = row.reply.as_ref().expect("every row has its reply");
        let after = after_best(row);
        assert!(after.turn().is_black());
        // Three lines each way (every position here has more legal moves),
        // each starting with a legal move of its position, best first.
        assert_eq!(row.top_moves.len(), 3);
        assert_eq!(reply.top_moves.len(), 3);
        assert_eq!(reply.top_moves[0].uci, reply.best_move_uci);
        for line in &reply.top_moves {
            let m = line.uci.parse::<UciMove>().unwrap().to_move(&after);
            assert!(m.is_ok(), "{} after {}", line.uci, row.best_move_uci);
        }
        assert_eq!(
            UciMove::from_move(
                reply
                    .best_move_uci
                    .parse::<UciMove>()
                    .unwrap()
                    .to_move(&after)
                    .unwrap(),
                CastlingMode::Chess960
            )
            .to_string(),
            reply.best_move_uci
        );
    }

    let frame = table(&out, c960_sweep::PARQUET_FILE);
    let columns: Vec<Vec<Option<i64>>> =
        DIFFICULTY_COLUMNS.iter().map(|m| ints(&frame, m)).collect();
    let sps = ints(&frame, "sp");
    for (i, sp) in sps.iter().enumerate() {
        let row = rows.iter().find(|r| Some(i64::from(r.sp)) == *sp).unwrap();
        let d = Difficulty::of(row).unwrap();
        let expected: Vec<Option<i64>> = d.cells().iter().map(|c| c.map(i64::from)).collect();
        let got: Vec<Option<i64>> = columns.iter().map(|c| c[i]).collect();
        assert_eq!(got, expected, "SP {sp:?}");
        assert!((1..=3).contains(&d.white.good_moves));
        assert_eq!(
            got[8],
            Some(n(d.white.good_moves).unwrap() - n(d.black.good_moves).unwrap())
        );
    }
    // The reply's lines, scores from White's point of view, as the start's.
    assert_eq!(
        ints(&frame, "reply_move1_cp"),
        rows.iter()
            .map(|r| r.reply.as_ref().unwrap().top_moves[0].cp.map(i64::from))
            .collect::<Vec<_>>()
    );
    let manifest = manifest(&out);
    assert_eq!(manifest["reply"], true);
    assert!(
        manifest["notes"]
            .as_str()
            .unwrap()
            .contains("within 25 cp of the best")
    );
}

#[test]
fn shards_with_replies_merge_into_the_unsharded_sweep() {
    let temp = tempfile::tempdir().unwrap();
    let whole = temp.path().join("whole");
    sweep(&replying(&whole, Shard::WHOLE));
    let dirs: Vec<_> = (0..3)
        .map(|i| {
            let dir = temp.path().join(i.to_string());
            sweep(&replying(&dir, Shard::new(i, 3).unwrap()));
            dir
        })
        .collect();
    let merged = temp.path().join("merged");
    let outcome = merge(&dirs, &merged, false).unwrap();
    assert_eq!(outcome.rows, 12);
    let mut expected = rows(&whole);
    expected.sort_by_key(|r| r.sp);
    assert_eq!(rows(&merged), expected);
    assert_eq!(manifest(&merged), manifest(&whole));
    let header = |dir: &Path| {
        fs::read_to_string(dir.join(c960_sweep::CSV_FILE))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(header(&merged), header(&whole));
    assert!(header(&whole).ends_with("good_moves_asymmetry,gap_asymmetry_cp"));
}

#[test]
fn replies_never_mix_with_plain_searches() {
    let temp = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    // A journal with replies does not resume as a plain sweep, nor the
    // reverse.
    let a = temp.path().join("a");
    sweep(&replying(&a, Shard::new(0, 2).unwrap()));
    let plain = SweepConfig {
        multipv: NonZeroU32::new(3).unwrap(),
        ..config(&a, Shard::new(0, 2).unwrap())
    };
    let err = run(&plain, &stop, |_| {}).unwrap_err().to_string();
    assert!(err.contains("reply"), "{err}");
    // Nor do shards of the two kinds merge.
    let b = temp.path().join("b");
    sweep(&SweepConfig {
        multipv: NonZeroU32::new(3).unwrap(),
        ..config(&b, Shard::new(1, 2).unwrap())
    });
    let err = merge(&[a, b], &temp.path().join("m"), false).unwrap_err();
    assert!(err.is_bad_input(), "{err}");
    assert!(err.to_string().contains("reply"), "{err}");
    // One line a search measures no choice.
    let one = SweepConfig {
        multipv: NonZeroU32::MIN,
        ..replying(&temp.path().join("one"), Shard::WHOLE)
    };
    let err = run(&one, &stop, |_| {}).unwrap_err();
    assert!(err.is_bad_input());
    assert!(err.to_string().contains("--multipv 2 or more"), "{err}");
}

#[test]
fn repeated_searches_with_replies_keep_the_difficulty_columns() {
    let temp = tempfile::tempdir().unwrap();
    let plan = RepeatPlan {
        repeats: NonZeroU32::new(2).unwrap(),
        seed: 3,
        jitter: 0.25,
    };
    let out = temp.path().join("r");
    let rows = sweep(&SweepConfig {
        reply: true,
        multipv: NonZeroU32::new(2).unwrap(),
        ..with_repeats(&out, Shard::WHOLE, plan)
    });
    assert_eq!(rows.len(), 24);
    // Each repeat's reply answers that repeat's own best move.
    for row in &rows {
        check_row(row, Variant::Chess960).unwrap();
        assert!(row.reply.is_some());
    }
    for file in [c960_sweep::REPEATS_PARQUET, c960_sweep::PARQUET_FILE] {
        let frame = table(&out, file);
        assert!(
            ints(&frame, "white_good_moves")
                .iter()
                .all(|g| matches!(g, Some(1 | 2)))
        );
        assert!(ints(&frame, "black_gap_cp").iter().all(Option::is_some));
    }
}
