//! Runs of a few positions with the built-in engine: what the observer is
//! told, `run.json` across runs of one directory, a stopped run, a dry
//! run, refusals, and the summary's ranking.

use std::{
    cell::RefCell,
    fs,
    num::NonZeroUsize,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use anyhow::Result;
use c960_runner::Progress;

use super::{builtin, config, input_error, one_position};
use crate::run::{
    Finished, Observer, PlanOptions, RunOptions, Silent, Start, Stopped, prepare, resolve,
};

/// What a run told, in order.
#[derive(Default)]
struct Told(Vec<String>);

impl Observer for Told {
    fn starting(&mut self) {
        self.0.push("starting".to_owned());
    }

    fn started(&mut self, start: &Start) {
        self.0.push(start.to_string());
    }

    fn stage(&mut self, index: usize, of: usize, name: &str, total: u64, unit: &str) {
        self.0.push(format!("[{index}/{of}] {name} {total} {unit}"));
    }

    fn progress(&mut self, progress: Progress) {
        self.0.push(format!("{}/{}", progress.done, progress.total));
    }

    fn cleared(&mut self) {
        self.0.push("cleared".to_owned());
    }
}

fn run_once(options: &PlanOptions, stop: bool, observer: &mut dyn Observer) -> Result<Finished> {
    let asked = RefCell::new(Vec::new());
    let resolve_engine = builtin(&asked);
    let prepared = prepare(resolve(options)?, None, &resolve_engine, false)?;
    prepared.run(&AtomicBool::new(stop), observer)
}

#[test]
fn a_shard_records_itself_and_a_second_run_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard");
    let options = PlanOptions {
        positions: Some("518,519".to_owned()),
        shard: Some("0/2".parse().unwrap()),
        ..one_position(&out)
    };
    let mut told = Told::default();
    match run_once(&options, false, &mut told).unwrap() {
        Finished::Shard { shard, out: dir } => {
            assert_eq!(shard.to_string(), "0/2");
            assert_eq!(dir, out);
        }
        _ => panic!("a shard builds no report"),
    }
    let first = told.0.first().cloned().unwrap_or_default();
    assert!(
        first.starts_with("c960 run (quick) with c960 builtin"),
        "{first}"
    );
    assert!(
        first.ends_with(&format!(
            ": 2 positions; sweep at nodes 300; no self-play into {}",
            out.display()
        )),
        "{first}"
    );
    let stages: Vec<&String> = told.0.iter().filter(|t| t.starts_with('[')).collect();
    assert_eq!(
        stages,
        ["[1/3] positions 960 positions", "[2/3] sweep 2 searches"]
    );
    assert!(!out.join("report").exists());
    let read = || -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(out.join("run.json")).unwrap()).unwrap()
    };
    let record = read();
    assert_eq!(record["kind"], "run");
    assert_eq!(record["plan"]["shard"], "0/2");
    assert_eq!(record["plan"]["sweep"]["nodes"], 300);
    assert_eq!(record["jobs"], 1);
    assert!(record.get("report").is_none());
    assert!(record["finished"].is_string());
    let whats: Vec<&str> = record["stages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["what"].as_str())
        .collect();
    assert_eq!(
        whats,
        [
            "960 positions with their features",
            "1 position at nodes 300 (0 from the journal)"
        ]
    );

    // The same plan again: the sweep comes from its journal, and run.json
    // keeps the first run, adding this one as a resumption.
    run_once(&options, false, &mut Silent).unwrap();
    let resumed = read();
    assert_eq!(resumed["stages"], record["stages"]);
    assert_eq!(resumed["finished"], record["finished"]);
    let resumptions = resumed["resumptions"].as_array().unwrap();
    assert_eq!(resumptions.len(), 1);
    assert_eq!(
        resumptions[0]["stages"][1]["what"],
        "1 position at nodes 300 (1 from the journal)"
    );

    // Other settings in the directory are refused, naming what differs;
    // the number of jobs may differ.
    let said = input_error(run_once(
        &PlanOptions {
            sweep_nodes: Some(400),
            ..options.clone()
        },
        false,
        &mut Silent,
    ));
    assert!(
        said.contains(
            "holds a c960 run made with other settings (sweep.nodes: 300 there, 400 now)"
        ),
        "{said}"
    );
    let more_jobs = PlanOptions {
        jobs: NonZeroUsize::new(2),
        ..options
    };
    run_once(&more_jobs, false, &mut Silent).unwrap();
    assert_eq!(read()["resumptions"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_stopped_run_says_what_is_saved_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let options = PlanOptions {
        shard: Some("1/2".parse().unwrap()),
        positions: Some("518,519".to_owned()),
        ..one_position(&out)
    };
    let mut told = Told::default();
    let err = run_once(&options, true, &mut told).unwrap_err();
    let stopped = err.downcast_ref::<Stopped>().expect("a stopped run");
    assert_eq!(
        (stopped.during, stopped.saved, stopped.unit),
        (" during the sweep", 0, "searches")
    );
    let journal = out.join("sweep").join(c960_store::JOURNAL_FILE);
    assert_eq!(stopped.journal, journal);
    let said = err.to_string();
    assert_eq!(
        said,
        format!(
            "interrupted during the sweep: 0 of {} searches are saved in {}; run the same \
             command again to resume",
            stopped.planned,
            journal.display()
        )
    );
    assert_eq!(told.0.last().map(String::as_str), Some("cleared"));
    // Not finished: the same plan runs it to its end.
    let record = fs::read_to_string(out.join("run.json")).unwrap();
    assert!(!record.contains("\"finished\""), "{record}");
    assert!(matches!(
        run_once(&options, false, &mut Silent).unwrap(),
        Finished::Shard { .. }
    ));
    let record = fs::read_to_string(out.join("run.json")).unwrap();
    assert!(record.contains("\"finished\""), "{record}");
    assert!(!record.contains("resumptions"), "{record}");
}

#[test]
fn the_summary_ranks_the_positions_by_their_distance_from_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let options = PlanOptions {
        positions: Some("0-11".to_owned()),
        sweep_nodes: Some(5000),
        ..one_position(&out)
    };
    let asked = RefCell::new(Vec::new());
    let resolve_engine = builtin(&asked);
    let prepared = prepare(resolve(&options).unwrap(), None, &resolve_engine, false).unwrap();
    let sweep = &prepared.sweeps[0];
    let engine = sweep.engine.start().unwrap();
    let stop = AtomicBool::new(false);
    let (swept, time) =
        crate::run::stages::sweep_stage(sweep, engine, None, (&stop, &mut Silent), 3).unwrap();
    assert_eq!(time.what, "12 positions at nodes 5000 (0 from the journal)");
    let report = crate::run::Report {
        plan: prepared.plan,
        engines: vec!["E".to_owned()],
        rows: swept.rows,
        played: Vec::new(),
        times: vec![time],
        before: None,
        dir: out.join("report"),
        verdicts: None,
    };
    let summary = report.summary().unwrap();
    let mut lines = summary.lines();
    let first = lines.next().unwrap();
    assert!(
        first.starts_with("c960 run (quick) finished in "),
        "{first}"
    );
    assert!(first.ends_with("s with E"), "{first}");
    // SP and centipawns of the lines under a heading.
    let under = |heading: &str| -> Vec<(u32, f64)> {
        summary
            .lines()
            .skip_while(|l| !l.starts_with(heading))
            .skip(1)
            .take_while(|l| l.starts_with("  SP "))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                (words[1].parse().unwrap(), words[3].parse().unwrap())
            })
            .collect()
    };
    let most = under("most balanced (smallest |engine score|)");
    let least = under("least balanced");
    assert_eq!((most.len(), least.len()), (5, 5), "{summary}");
    let distance =
        |ranked: &[(u32, f64)]| ranked.iter().map(|(_, cp)| cp.abs()).collect::<Vec<_>>();
    assert!(distance(&most).is_sorted(), "{summary}");
    assert!(distance(&least).iter().rev().is_sorted(), "{summary}");
    assert!(distance(&most)[4] <= distance(&least)[4], "{summary}");
    assert!(
        most.iter().chain(&least).all(|(sp, _)| *sp < 12),
        "{summary}"
    );
    let agreement = summary.lines().last().unwrap();
    assert!(
        agreement.contains("] over 12 positions (Pearson, 95% bootstrap"),
        "{agreement}"
    );
}

#[test]
fn a_run_directory_holding_something_else_is_refused_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("run.json"), "{\"kind\": 3}").unwrap();
    let mut told = Told::default();
    let said = input_error(run_once(&one_position(&out), false, &mut told));
    assert!(
        said.contains("run.json is not a c960 run record: "),
        "{said}"
    );
    assert!(!told.0.iter().any(|t| t.starts_with('[')), "{:?}", told.0);
    assert!(!out.join("positions.csv").exists());
    // The config file must not be one of the run's outputs.
    let asked = RefCell::new(Vec::new());
    let plan = resolve(&one_position(&out)).unwrap();
    let config = out.join("positions.csv");
    let said = prepare(plan, Some(&config), &builtin(&asked), false)
        .unwrap_err()
        .to_string();
    assert!(said.contains("--config"), "{said}");
    assert!(
        asked.borrow().is_empty(),
        "no engine is chosen for a refused run"
    );
}

#[test]
fn a_dry_run_checks_the_plan_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let asked = RefCell::new(Vec::new());
    let engines = builtin(&asked);
    let stop = AtomicBool::new(false);
    let plan = PlanOptions {
        games: Some(2),
        ..one_position(&out)
    };
    let options = RunOptions {
        plan: &plan,
        dry_run: true,
        repair: false,
        engines: &engines,
        stop: &stop,
    };
    let mut told = Told::default();
    let Finished::DryRun(plan) = crate::run::run(options, &mut told).unwrap() else {
        panic!("a dry run");
    };
    assert_eq!(plan.out(), out);
    assert!(told.0.is_empty(), "{:?}", told.0);
    // The one engine was chosen once (self-play takes the sweep's), and
    // not started.
    assert_eq!(asked.borrow().len(), 1);
    assert!(!out.join("run.json").exists());
    let shown = serde_json::to_value(&*plan).unwrap();
    assert_eq!(shown["engine"], "builtin");
    assert_eq!(shown["selfplay"]["games"], 2);
    // A bad plan is refused before any engine is chosen.
    let bad = PlanOptions {
        sweep_nodes: Some(0),
        ..one_position(&out)
    };
    input_error(crate::run::run(
        RunOptions {
            plan: &bad,
            ..options
        },
        &mut told,
    ));
    assert_eq!(asked.borrow().len(), 1);
}

#[test]
fn the_observer_is_told_before_the_engines_start() {
    let dir = tempfile::tempdir().unwrap();
    let plan = PlanOptions {
        shard: Some("1/2".parse().unwrap()),
        positions: Some("518,519".to_owned()),
        ..one_position(&dir.path().join("run"))
    };
    let asked = RefCell::new(Vec::new());
    let engines = builtin(&asked);
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        plan: &plan,
        dry_run: false,
        repair: true,
        engines: &engines,
        stop: &stop,
    };
    let mut told = Told::default();
    let finished = crate::run::run(options, &mut told).unwrap();
    assert!(matches!(finished, Finished::Shard { .. }));
    assert_eq!(told.0[0], "starting");
    assert!(
        told.0[1].starts_with("c960 run (quick) with "),
        "{:?}",
        told.0
    );
}

/// Issue 48, item 16 in process: two raters whose engines are told apart
/// by name but answer alike once started (here both resolve to the
/// built-in engine: a copied binary or a wrapper does the same) are one
/// rater, refused before any sweep writes a row.
#[test]
fn raters_whose_engines_answer_alike_are_refused_before_any_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let file = config(
        dir.path(),
        "positions = \"0-3\"\n[selfplay]\ngames = 0\n\
         [[raters]]\nname = \"a\"\nengine = \"stockfish\"\nnodes = 300\n\
         [[raters]]\nname = \"b\"\nengine = \"ethereal\"\nnodes = 300\n",
    );
    let options = PlanOptions {
        config: Some(file.clone()),
        out: Some(out.clone()),
        jobs: NonZeroUsize::new(1),
        ..PlanOptions::default()
    };
    let asked = RefCell::new(Vec::new());
    let plan = resolve(&options).unwrap();
    assert_eq!(plan.raters.len(), 2);
    let said = match prepare(plan, Some(&file), &builtin(&asked), false) {
        Ok(prepared) => input_error(prepared.run(&AtomicBool::new(false), &mut Told::default())),
        Err(e) => input_error(Err::<(), _>(e)),
    };
    assert!(said.contains("raters a and b are one rater"), "{said}");
    let names: Vec<String> = asked.borrow().iter().map(|(n, _)| n.to_string()).collect();
    assert!(
        names.iter().any(|n| n == "stockfish") && names.iter().any(|n| n == "ethereal"),
        "both raters' engines were chosen: {names:?}"
    );
    let rows = walk_files(&out)
        .into_iter()
        .filter(|p| p.ends_with("sweep.parquet") || p.ends_with("journal.jsonl"))
        .count();
    assert_eq!(rows, 0, "no sweep wrote anything");
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                found.extend(walk_files(&path));
            } else {
                found.push(path);
            }
        }
    }
    found
}
