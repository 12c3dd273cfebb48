//! The job runner with a stand-in engine: every finished unit is journaled
//! once before it is counted, a resume finds it, a halt or the caller's
//! stop flag starts nothing new, the identifying engine is the first
//! worker's, and errors say whether the input was bad.

use std::{
    io,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
};

use c960_engine::{EngineError, pool::PoolOptions};
use c960_runner::{Flow, RunError, Spare, run_journaled};
use c960_store::{Journal, JournalError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Line {
    unit: u32,
    square: u32,
}

/// A stand-in engine: its number says which start made it.
struct Counter(usize);

const SETTINGS: &str = "squares";

fn options(workers: usize) -> PoolOptions {
    PoolOptions {
        workers,
        retries: 0,
    }
}

#[test]
fn every_finished_unit_is_journaled_once_and_a_resume_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (mut journal, before) = Journal::<Line>::open(&path, &SETTINGS).unwrap();
    assert!(before.is_empty());
    let jobs: Vec<u32> = (0..40).collect();
    let mut seen = Vec::new();
    run_journaled(
        &mut journal,
        &|| Ok(Counter(0)),
        &jobs,
        &|_: &mut Counter, unit: &u32| Ok(unit * unit),
        options(3),
        &AtomicBool::new(false),
        |done, journal| {
            let unit = jobs[done.index];
            let square = done.outcome.unwrap();
            assert!(journal.append(&Line { unit, square }));
            seen.push(unit);
            Flow::Go
        },
    )
    .unwrap();
    seen.sort_unstable();
    assert_eq!(seen, jobs);
    drop(journal);
    let (_, lines) = Journal::<Line>::open(&path, &SETTINGS).unwrap();
    let mut units: Vec<u32> = lines.iter().map(|l| l.unit).collect();
    units.sort_unstable();
    assert_eq!(units, jobs);
    assert!(lines.iter().all(|l| l.square == l.unit * l.unit));
}

#[test]
fn a_halt_or_the_callers_stop_starts_nothing_new() {
    let dir = tempfile::tempdir().unwrap();
    let (mut journal, _) =
        Journal::<Line>::open(&dir.path().join("journal.jsonl"), &SETTINGS).unwrap();
    let jobs: Vec<u32> = (0..50).collect();
    let worked = AtomicUsize::new(0);
    let work = |_: &mut Counter, unit: &u32| {
        worked.fetch_add(1, Ordering::SeqCst);
        Ok(*unit)
    };
    // One worker: after the unit that asks for a halt, only the units the
    // worker had already finished (at most the pool's small buffer) are
    // handed over, every one of them, and nothing more is played.
    let mut handed = 0;
    run_journaled(
        &mut journal,
        &|| Ok(Counter(0)),
        &jobs,
        &work,
        options(1),
        &AtomicBool::new(false),
        |_, _| {
            handed += 1;
            if handed == 5 { Flow::Halt } else { Flow::Go }
        },
    )
    .unwrap();
    let played = worked.load(Ordering::SeqCst);
    assert_eq!(handed, played, "every unit played is handed over");
    assert!(
        (5..=8).contains(&played),
        "{played} units played after a halt at 5"
    );

    // The caller's flag, already set: no unit starts, and the flag is
    // only read.
    let stop = AtomicBool::new(true);
    worked.store(0, Ordering::SeqCst);
    run_journaled(
        &mut journal,
        &|| Ok(Counter(0)),
        &jobs,
        &work,
        options(2),
        &stop,
        |_, _| Flow::Go,
    )
    .unwrap();
    assert_eq!(worked.load(Ordering::SeqCst), 0);
    assert!(stop.load(Ordering::SeqCst));
}

#[test]
fn the_identifying_engine_is_the_first_workers_and_never_more_workers_than_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let (mut journal, _) =
        Journal::<Line>::open(&dir.path().join("journal.jsonl"), &SETTINGS).unwrap();
    let spare = Spare::new(Counter(0));
    let started = AtomicUsize::new(0);
    let start = || match spare.take() {
        Some(engine) => Ok(engine),
        None => Ok(Counter(started.fetch_add(1, Ordering::SeqCst) + 1)),
    };
    let used = Mutex::new(Vec::new());
    let jobs = [1_u32, 2];
    run_journaled(
        &mut journal,
        &start,
        &jobs,
        &|engine: &mut Counter, unit: &u32| {
            used.lock().unwrap().push(engine.0);
            Ok(*unit)
        },
        options(8),
        &AtomicBool::new(false),
        |_, _| Flow::Go,
    )
    .unwrap();
    // Two jobs, eight workers asked for: at most two engines, and the
    // identifying one plays.
    assert!(started.load(Ordering::SeqCst) <= 1);
    let used = used.into_inner().unwrap();
    assert_eq!(used.len(), 2);
    assert!(used.contains(&0), "{used:?}");
    assert!(spare.take().is_none());
}

#[test]
fn an_engine_that_cannot_be_set_up_ends_the_run_as_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let (mut journal, _) =
        Journal::<Line>::open(&dir.path().join("journal.jsonl"), &SETTINGS).unwrap();
    let err = run_journaled(
        &mut journal,
        &|| -> Result<Counter, EngineError> {
            Err(EngineError::Spawn {
                path: "/nowhere/engine".into(),
                reason: "No such file or directory".into(),
            })
        },
        &[1_u32],
        &|_: &mut Counter, unit: &u32| Ok(*unit),
        options(1),
        &AtomicBool::new(false),
        |_, _| Flow::Go,
    )
    .unwrap_err();
    assert!(matches!(err, RunError::Engine(_)), "{err}");
    assert!(err.is_bad_input(), "{err}");
}

#[test]
fn bad_input_and_failures_are_told_apart() {
    assert!(RunError::Invalid("no positions".into()).is_bad_input());
    assert!(RunError::Io(c960_store::bad_input("not a file")).is_bad_input());
    // The error kind alone is not bad input: only the type says so.
    assert!(!RunError::Io(io::Error::new(io::ErrorKind::InvalidInput, "x")).is_bad_input());
    assert!(!RunError::Io(io::Error::other("disk full")).is_bad_input());
    let settings = JournalError::SettingsDiffer {
        path: "journal.jsonl".into(),
        differences: "limit: \"nodes 1000\" there, \"nodes 2000\" now".into(),
    };
    assert!(RunError::Journal(settings).is_bad_input());
}
