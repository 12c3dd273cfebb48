//! The verdict table's one reader: what `c960 balance` writes reads back as
//! the same typed rows, and a table that contradicts itself is refused in
//! one line naming what is wrong.

use std::{fmt::Write as _, path::Path};

use c960_balance::verdict::Verdict;
use c960_store::columns::balance as column;
use c960_verdict::{
    BalanceTable, Interval, Reference,
    balance::Method,
    fair::{Selection, rank},
};

/// A table with the primary columns, one row per entry of `rows`:
/// `(sp, placement, verdict, estimate, low, high)`.
fn table(rows: &[(u16, &str, &str, &str, &str, &str)]) -> String {
    let mut text = [
        column::SP,
        column::PLACEMENT,
        column::VERDICT,
        column::Q_VALUE,
        column::ESTIMATE,
        column::LOW,
        column::HIGH,
        column::METHOD,
    ]
    .join(",");
    text.push('\n');
    for (sp, placement, verdict, estimate, low, high) in rows {
        writeln!(
            text,
            "{sp},{placement},{verdict},0.01,{estimate},{low},{high},sweep"
        )
        .unwrap();
    }
    text
}

fn read(dir: &Path, text: &str) -> Result<BalanceTable, String> {
    let path = dir.join("balance.csv");
    std::fs::write(&path, text).unwrap();
    BalanceTable::read(&path).map_err(|e| e.to_string())
}

const GOOD: [(u16, &str, &str, &str, &str, &str); 3] = [
    (0, "BBQNNRKR", "balanced", "12.5", "9", "16"),
    (1, "BQNBNRKR", "more-for-white", "40", "31", "49"),
    (518, "RNBQKBNR", "unresolved", "24", "20", "28"),
];

#[test]
fn a_table_reads_as_typed_rows_named_by_its_digest() {
    let dir = tempfile::tempdir().unwrap();
    let t = read(dir.path(), &table(&GOOD)).unwrap();
    assert_eq!(t.file, "balance.csv");
    assert_eq!(t.sha256.len(), 64);
    assert_eq!(t.rows.len(), 3);
    let first = &t.rows[0];
    assert_eq!(first.sp.sp(), 0);
    assert_eq!(first.verdict, Verdict::Balanced);
    assert_eq!(first.method, Some(Method::Sweep));
    assert_eq!(first.estimate, Some(12.5));
    assert_eq!(
        first.interval,
        Some(Interval {
            low: 9.0,
            high: 16.0
        })
    );
    assert_eq!(t.with_verdict(Verdict::MoreForWhite)[0].sp(), 1);
    // The directory holding it reads the same.
    assert_eq!(BalanceTable::read(dir.path()).unwrap(), t);
}

#[test]
fn a_table_that_contradicts_itself_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |text: String, expected: &str| {
        let error = read(dir.path(), &text).unwrap_err();
        assert!(error.contains(expected), "{error}");
        assert!(!error.contains('\n'), "{error}");
    };
    let with = |i: usize,
                row: (
        u16,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    )| {
        let mut rows = GOOD;
        rows[i] = row;
        table(&rows)
    };
    // A column named twice: which would be read?
    let twice = table(&GOOD).replacen(column::HIGH, column::LOW, 1);
    refused(twice, "names column balance_low twice");
    let twice = table(&GOOD).replacen(column::SP, column::VERDICT, 1);
    refused(twice, "names column verdict twice");
    let twice = table(&GOOD).replacen(column::VERDICT, column::SP, 1);
    refused(twice, "names column sp twice");
    refused(
        with(0, (0, "BBQNNRKR", "balanced", "12.5", "16", "9")),
        "low end 16 lies above its high end 9",
    );
    refused(
        with(0, (0, "BBQNNRKR", "balanced", "30", "9", "16")),
        "estimate 30 lies outside its interval",
    );
    refused(
        with(1, (1, "BBQNNRKR", "balanced", "12.5", "9", "16")),
        "SP 1 is BQNBNRKR, not \"BBQNNRKR\"",
    );
    refused(
        with(0, (0, "BBQNNRKR", "balanced", "1e300", "-1e300", "1e301")),
        "outside -32767..32767",
    );
    refused(
        with(0, (0, "BBQNNRKR", "balanced", "abc", "9", "16")),
        &format!("{} \"abc\" is not a number", column::ESTIMATE),
    );
    refused(
        with(0, (0, "BBQNNRKR", "fair", "12.5", "9", "16")),
        "the verdict \"fair\" is not one c960 writes",
    );
    refused(
        with(1, (0, "BBQNNRKR", "balanced", "12.5", "9", "16")),
        "SP 0 appears twice",
    );
    refused(
        table(&GOOD).replace("sweep\n", "engines\n"),
        "the method \"engines\" is neither sweep nor games",
    );
    refused(
        "sp,placement\n0,BBQNNRKR\n".to_owned(),
        "it has no verdict column",
    );
}

#[test]
fn fairest_keeps_the_nearest_by_the_farther_end_of_each_interval() {
    let dir = tempfile::tempdir().unwrap();
    let t = read(
        dir.path(),
        &table(&[
            // Nearer by its estimate, farther by its interval.
            (0, "BBQNNRKR", "unresolved", "2", "-14", "18"),
            (1, "BQNBNRKR", "unresolved", "5", "3", "7"),
            (2, "BQNNRBKR", "unresolved", "-6", "-8", "-4"),
            (518, "RNBQKBNR", "unresolved", "24", "20", "28"),
        ]),
    )
    .unwrap();
    let (kept, value) = t.select(Selection::Fairest(2, Reference::Equal)).unwrap();
    assert_eq!(kept.iter().map(|sp| sp.sp()).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(value, Some(0.0));
    let ranked = rank(&t.measures().unwrap(), Reference::Equal);
    assert_eq!(
        ranked.iter().map(|r| r.sp).collect::<Vec<_>>(),
        [1, 2, 0, 518]
    );
    let (kept, value) = t.select(Selection::Within(8.0, Reference::Equal)).unwrap();
    assert_eq!(kept.len(), 2);
    assert_eq!(value, Some(0.0));
    let (_, classical) = t
        .select(Selection::Fairest(1, Reference::Classical))
        .unwrap();
    assert_eq!(classical, Some(24.0));
    assert_eq!(Reference::default(), Reference::Equal);
    assert_eq!(Reference::DEFAULT, Reference::Equal);
}

/// Issue 48, item 1: a FIFO named as the table (or as the balance.csv in
/// the directory given) is refused in one line without waiting for a
/// writer, by the check a flag's parser runs and by the reader.
#[test]
fn a_fifo_as_the_balance_table_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("balance.csv");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for path in [fifo.as_path(), dir.path()] {
        for error in [
            BalanceTable::file_of(path).unwrap_err(),
            BalanceTable::read(path).unwrap_err(),
        ] {
            let line = error.to_string();
            assert!(
                line.contains("balance.csv: it is a FIFO, not a regular file"),
                "{line}"
            );
            assert_eq!(line.lines().count(), 1, "{line}");
        }
    }
}
