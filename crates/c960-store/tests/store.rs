//! Atomic writes and journals, including the states a killed process leaves.

use std::{
    fs,
    io::{self, Write},
};

use c960_store::{Journal, JournalError, write_atomically};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Row {
    sp: u16,
    score: i32,
}

#[derive(Serialize)]
struct Settings {
    limit: String,
    engine: String,
}

fn settings(limit: &str) -> Settings {
    Settings {
        limit: limit.to_owned(),
        engine: "fake".to_owned(),
    }
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn an_atomic_write_replaces_the_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    write_atomically(&path, |w| w.write_all(b"one")).unwrap();
    write_atomically(&path, |w| w.write_all(b"two")).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "two");
    assert_eq!(names(dir.path()), ["out.csv"]);
}

#[test]
fn a_failed_atomic_write_keeps_the_old_file_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    write_atomically(&path, |w| w.write_all(b"good")).unwrap();
    let err = write_atomically(&path, |w| {
        w.write_all(b"half of a new fi")?;
        Err(io::Error::other("disk on fire"))
    })
    .unwrap_err();
    assert!(err.to_string().contains("disk on fire"));
    assert_eq!(fs::read_to_string(&path).unwrap(), "good");
    assert_eq!(names(dir.path()), ["out.csv"]);
    let missing = write_atomically(&dir.path().join("no/such/dir.csv"), |_| Ok(())).unwrap_err();
    assert!(missing.to_string().contains("does not exist"), "{missing}");
}

#[test]
fn a_journal_keeps_records_across_opens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (mut j, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert!(old.is_empty());
    j.append(&Row { sp: 1, score: 5 }).unwrap();
    j.append(&Row { sp: 2, score: -3 }).unwrap();
    drop(j);
    let (mut j, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert_eq!(old, [Row { sp: 1, score: 5 }, Row { sp: 2, score: -3 }]);
    j.append(&Row { sp: 3, score: 0 }).unwrap();
    drop(j);
    let (_, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert_eq!(old.len(), 3);
}

#[test]
fn a_journal_written_whole_is_the_journal_appends_write() {
    let rows = [Row { sp: 7, score: 12 }, Row { sp: 3, score: -40 }];
    let dir = tempfile::tempdir().unwrap();
    let appended = dir.path().join("appended.jsonl");
    let (mut j, _) = Journal::<Row>::open(&appended, &settings("nodes 10")).unwrap();
    for row in &rows {
        j.append(row).unwrap();
    }
    drop(j);
    let whole = dir.path().join("whole.jsonl");
    Journal::<Row>::write_whole(&whole, &settings("nodes 10"), &rows).unwrap();
    assert_eq!(fs::read(&whole).unwrap(), fs::read(&appended).unwrap());
    // It reopens as a journal of the same settings and takes appends.
    let (mut j, old) = Journal::<Row>::open(&whole, &settings("nodes 10")).unwrap();
    assert_eq!(old, rows);
    j.append(&Row { sp: 1, score: 0 }).unwrap();
    drop(j);
    assert_eq!(
        Journal::<Row>::open(&whole, &settings("nodes 10"))
            .unwrap()
            .1
            .len(),
        3
    );
    assert!(matches!(
        Journal::<Row>::open(&whole, &settings("nodes 20")),
        Err(JournalError::SettingsDiffer { .. })
    ));
}

#[test]
fn a_journal_with_other_settings_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (mut j, _) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    j.append(&Row { sp: 1, score: 5 }).unwrap();
    drop(j);
    let err = Journal::<Row>::open(&path, &settings("nodes 20")).unwrap_err();
    assert!(matches!(err, JournalError::SettingsDiffer { .. }));
    assert!(
        err.to_string()
            .contains(r#"limit: "nodes 10" there, "nodes 20" now"#),
        "{err}"
    );
    // Nothing was changed by the refusal.
    let (_, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert_eq!(old.len(), 1);
}

#[test]
fn an_unterminated_last_line_from_a_kill_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (mut j, _) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    j.append(&Row { sp: 1, score: 5 }).unwrap();
    drop(j);
    fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(br#"{"sp":2,"sc"#)
        .unwrap();
    let (mut j, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert_eq!(old, [Row { sp: 1, score: 5 }]);
    j.append(&Row { sp: 2, score: 7 }).unwrap();
    drop(j);
    let (_, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert_eq!(old, [Row { sp: 1, score: 5 }, Row { sp: 2, score: 7 }]);
}

#[test]
fn a_header_cut_short_starts_the_journal_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    fs::write(&path, r#"{"c960_jour"#).unwrap();
    let (_, old) = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap();
    assert!(old.is_empty());
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(r#"{"c960_journal":1,"settings":{"limit":"nodes 10""#),
        "{text}"
    );
}

#[test]
fn corrupt_journals_are_errors_not_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    fs::write(&path, "sp,score\n1,5\n").unwrap();
    let err = Journal::<Row>::open(&path, &settings("nodes 10")).unwrap_err();
    assert!(
        matches!(err, JournalError::Corrupt { line: 1, .. }),
        "{err}"
    );
    let (mut j, _) = Journal::<Row>::open(&dir.path().join("j2"), &settings("x")).unwrap();
    j.append(&Row { sp: 1, score: 5 }).unwrap();
    drop(j);
    let j2 = dir.path().join("j2");
    let mut text = fs::read_to_string(&j2).unwrap();
    text.push_str("garbage\n");
    fs::write(&j2, text).unwrap();
    let err = Journal::<Row>::open(&j2, &settings("x")).unwrap_err();
    assert!(
        matches!(err, JournalError::Corrupt { line: 3, .. }),
        "{err}"
    );
}
