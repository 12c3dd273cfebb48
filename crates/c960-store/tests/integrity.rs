//! Locks, output guards, journal checksums and validation, sealed Parquet:
//! one regression test per way data was lost or silently mixed.

use std::{fs, io::Write, os::unix::fs::symlink, path::Path, process::Command};

use c960_store::{
    DirLock, Journal, JournalError, LockError, Validation, check_output, check_parquet, quietly,
    remove_stale_temporaries, write_atomically, write_sealed,
};
use polars::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Row {
    sp: u16,
    score: i32,
}

fn validation() -> Validation<'static, Row> {
    Validation {
        check: Box::new(|r: &Row| {
            if r.sp < 960 {
                Ok(())
            } else {
                Err(format!("SP {} is out of range", r.sp))
            }
        }),
        key: Box::new(|r: &Row| Some(format!("SP {}", r.sp))),
    }
}

#[test]
fn a_second_writer_is_refused_at_once_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let held = DirLock::exclusive(&run).unwrap();
    let err = DirLock::exclusive(&run).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LockError::Busy { .. }), "{text}");
    assert!(
        text.contains(&format!("process {}", std::process::id())),
        "{text}"
    );
    // Readers wait for the writer too.
    assert!(DirLock::shared(&run).is_err());
    drop(held);
    // Released: readers share, and a writer is refused while they read.
    let a = DirLock::shared(&run).unwrap();
    let b = DirLock::shared(&run).unwrap();
    let err = DirLock::exclusive(&run).unwrap_err().to_string();
    assert!(err.contains("is in use by another c960 process"), "{err}");
    drop((a, b));
    DirLock::exclusive(&run).unwrap();
}

#[test]
fn a_holder_is_named_over_an_older_record_without_its_tail() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    fs::create_dir(&run).unwrap();
    let lock = run.join(".c960.lock");
    // A record longer than any this process writes, left by a crash.
    fs::write(&lock, format!("999999\n{}\n", "c960 sweep ".repeat(400))).unwrap();
    let held = DirLock::exclusive(&run).unwrap();
    let text = fs::read_to_string(&lock).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(std::process::id().to_string().as_str()));
    assert!(!lines.next().unwrap().contains("c960 sweep"), "{text}");
    assert_eq!(lines.next(), None, "{text}");
    drop(held);
}

#[test]
fn a_lock_left_by_a_killed_process_never_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    fs::create_dir(&run).unwrap();
    // A holder that is killed: its lock file stays, with its pid.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec flock --no-fork -x {} sleep 30",
            run.join(".c960.lock").display()
        ))
        .spawn()
        .expect("flock(1) runs");
    let held = (0..100).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        DirLock::exclusive(&run).is_err()
    });
    assert!(held, "held by the child");
    child.kill().unwrap();
    child.wait().unwrap();
    fs::write(run.join(".c960.lock"), "999999\nc960 sweep\n").unwrap();
    DirLock::exclusive(&run).unwrap();
}

#[test]
fn outputs_replace_only_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    fs::write(&target, "keep").unwrap();
    let link = dir.path().join("link.csv");
    symlink(&target, &link).unwrap();
    let fifo = dir.path().join("fifo.csv");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    for (path, what) in [
        (link.as_path(), "symbolic link"),
        (fifo.as_path(), "FIFO"),
        (Path::new("/dev/null"), "device"),
        (sub.as_path(), "directory"),
    ] {
        let err = write_atomically(path, |w| w.write_all(b"new")).unwrap_err();
        assert!(err.to_string().contains(what), "{what}: {err}");
        assert_eq!(err.to_string().matches("cannot write").count(), 1, "{err}");
        assert!(check_output(&[path]).is_err());
    }
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
    assert!(check_output(&[&target, &dir.path().join("new.csv")]).is_ok());
}

#[test]
fn temporaries_of_killed_writers_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(".5.html.999999.0.tmp"), "half").unwrap();
    fs::write(dir.path().join("5.html"), "whole").unwrap();
    let mine = format!(".6.html.{}.0.tmp", std::process::id());
    fs::write(dir.path().join(&mine), "in progress").unwrap();
    assert_eq!(remove_stale_temporaries(dir.path()), 1);
    assert!(dir.path().join("5.html").exists());
    assert!(dir.path().join(&mine).exists());
}

fn journal_with(dir: &Path, rows: &[Row]) -> std::path::PathBuf {
    let path = dir.join("journal.jsonl");
    let (mut j, _) = Journal::<Row>::open(&path, &"settings").unwrap();
    for row in rows {
        j.append(row).unwrap();
    }
    path
}

#[test]
fn a_changed_journal_line_fails_its_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(
        dir.path(),
        &[Row { sp: 1, score: 5 }, Row { sp: 2, score: 7 }],
    );
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.lines().all(|l| l.contains("\"c960_sum\":\"")),
        "{text}"
    );
    fs::write(&path, text.replace("\"score\":7", "\"score\":9")).unwrap();
    let err = Journal::<Row>::open_checked(&path, &"settings", &validation()).unwrap_err();
    assert!(
        matches!(err, JournalError::Corrupt { line: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("checksum"), "{err}");
    assert!(err.to_string().contains("journal.jsonl"), "{err}");
}

/// Issue 30 item 6: a line whose checksum was removed (or its key renamed)
/// while its content was edited must not be trusted when every other line
/// of the journal carries one, neither on resume nor by a merge's reader.
#[test]
fn a_journal_line_without_its_checksum_is_refused_in_a_checksummed_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(
        dir.path(),
        &[Row { sp: 1, score: 5 }, Row { sp: 2, score: 7 }],
    );
    let text = fs::read_to_string(&path).unwrap();
    let sealed: Vec<&str> = text.lines().collect();
    let cut = sealed[2].find(",\"c960_sum\"").unwrap();
    let settings = c960_store::Settings::of(&"settings").unwrap();
    for edited in [
        format!("{}}}", &sealed[2][..cut]).replace("\"score\":7", "\"score\":250"),
        sealed[2]
            .replace("c960_sum", "c960_sux")
            .replace("\"score\":7", "\"score\":250"),
    ] {
        fs::write(&path, format!("{}\n{}\n{edited}\n", sealed[0], sealed[1])).unwrap();
        let err = Journal::<Row>::open_checked(&path, &"settings", &validation()).unwrap_err();
        assert!(
            matches!(err, JournalError::Corrupt { line: 3, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("no checksum"), "{err}");
        let read = Journal::<Row>::read_records(&path, &settings, &|_| Ok(()), |_, _, _| Ok(()));
        assert!(
            matches!(read, Err(JournalError::Corrupt { line: 3, .. })),
            "{read:?}"
        );
        let dropped = Journal::<Row>::repair(&path, &validation()).unwrap();
        assert_eq!(dropped.len(), 1, "{dropped:?}");
    }
}

#[test]
fn journal_lines_without_checksums_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    fs::write(
        &path,
        "{\"c960_journal\":1,\"settings\":\"settings\"}\n{\"sp\":1,\"score\":5}\n",
    )
    .unwrap();
    let (_, rows) = Journal::<Row>::open_checked(&path, &"settings", &validation()).unwrap();
    assert_eq!(rows, [Row { sp: 1, score: 5 }]);
}

#[test]
fn conflicting_duplicates_and_bad_content_are_refused_then_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(
        dir.path(),
        &[
            Row { sp: 1, score: 5 },
            Row { sp: 2, score: 7 },
            Row { sp: 1, score: 6 },
            Row { sp: 2, score: 7 },
            Row { sp: 999, score: 0 },
            Row { sp: 3, score: 1 },
        ],
    );
    let err = Journal::<Row>::open_checked(&path, &"settings", &validation()).unwrap_err();
    assert!(
        matches!(err, JournalError::Corrupt { line: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("conflicting"), "{err}");
    let dropped = Journal::<Row>::repair(&path, &validation()).unwrap();
    let lines: Vec<usize> = dropped.iter().map(|d| d.line).collect();
    assert_eq!(lines, [2, 4, 6], "{dropped:?}");
    assert!(dropped[2].reason.contains("out of range"));
    let (_, rows) = Journal::<Row>::open_checked(&path, &"settings", &validation()).unwrap();
    assert_eq!(
        rows,
        [
            Row { sp: 2, score: 7 },
            Row { sp: 2, score: 7 },
            Row { sp: 3, score: 1 }
        ]
    );
}

fn frame() -> DataFrame {
    df!("sp" => [0u32, 1, 2], "score_cp" => [Some(10i32), None, Some(-3)], "name" => ["a", "b", "c"])
        .unwrap()
}

#[test]
fn sealed_parquet_reads_back_and_flipped_bytes_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    write_atomically(&path, |out| {
        write_sealed(
            out,
            &mut frame(),
            vec![("c960.manifest".into(), "{}".into())],
        )
    })
    .unwrap();
    let info = check_parquet(&path).unwrap();
    assert!(info.sealed);
    assert_eq!(info.rows, 3);
    assert_eq!(info.get("c960.manifest"), Some("{}"));
    let read = ParquetReader::new(fs::File::open(&path).unwrap())
        .finish()
        .unwrap();
    assert!(read.equals_missing(&frame()));

    let mut bytes = fs::read(&path).unwrap();
    for b in &mut bytes[40..48] {
        *b ^= 0x5a;
    }
    fs::write(&path, &bytes).unwrap();
    let err = check_parquet(&path).unwrap_err().to_string();
    assert!(err.contains("t.parquet"), "{err}");
    assert!(!err.contains('\n'), "{err}");
}

#[test]
fn truncated_and_foreign_files_are_one_line_errors_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    write_atomically(&path, |out| write_sealed(out, &mut frame(), Vec::new())).unwrap();
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() - 30]).unwrap();
    let err = check_parquet(&path).unwrap_err().to_string();
    assert!(err.contains("t.parquet") && !err.contains('\n'), "{err}");
    // A damaged footer.
    let mut footer = bytes.clone();
    let n = footer.len();
    for b in &mut footer[n - 60..n - 8] {
        *b = 0xff;
    }
    fs::write(&path, &footer).unwrap();
    let err = check_parquet(&path).unwrap_err().to_string();
    assert!(err.contains("t.parquet") && !err.contains('\n'), "{err}");
    fs::write(&path, "sp,score\n1,2\n").unwrap();
    let err = check_parquet(&path).unwrap_err().to_string();
    assert!(err.contains("t.parquet"), "{err}");
    // Unsealed files (written before seals) read unchecked.
    let mut plain = frame();
    ParquetWriter::new(fs::File::create(&path).unwrap())
        .finish(&mut plain)
        .unwrap();
    assert!(!check_parquet(&path).unwrap().sealed);
}

#[test]
fn panics_inside_quietly_become_errors() {
    let err = quietly(|| -> u32 { panic!("deep inside a dependency") }).unwrap_err();
    assert_eq!(err, "deep inside a dependency");
    assert_eq!(quietly(|| 7).unwrap(), 7);
}
