//! In-process tests of a run: plans resolved from profiles, config files
//! and options, the stages' configurations, and whole runs of one position
//! with the built-in engine (their `run.json`, summary, resumption, stop
//! and refusal).

use std::{
    cell::RefCell,
    fs,
    num::{NonZeroU32, NonZeroUsize},
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use anyhow::Result;
use c960_engine::{EngineName, EngineSpec};
use c960_runner::Progress;

use super::{
    EngineRequest, Finished, InputError, Observer, PlanOptions, Profile, Silent, Start, Stopped,
    configs::configs, prepare, resolve,
};

/// The built-in engine for every request, each request kept.
fn builtin(
    asked: &RefCell<Vec<(EngineName, u32)>>,
) -> impl Fn(EngineRequest<'_>) -> Result<EngineSpec> {
    move |r: EngineRequest<'_>| {
        asked.borrow_mut().push((r.engine.clone(), r.hash.get()));
        Ok(EngineSpec::Builtin {
            hash_mb: r.hash.get() as usize,
            watchdog: None,
        })
    }
}

/// Options for a run of SP 518 alone with the built-in engine.
fn one_position(out: &Path) -> PlanOptions {
    PlanOptions {
        out: Some(out.to_owned()),
        engine: Some(EngineName::Builtin),
        positions: Some("518".to_owned()),
        sweep_nodes: Some(300),
        jobs: NonZeroUsize::new(1),
        ..PlanOptions::default()
    }
}

/// The message of an error that must be bad input.
fn input_error(result: Result<impl std::fmt::Debug>) -> String {
    let err = result.expect_err("refused");
    assert!(
        err.chain().any(<dyn std::error::Error>::is::<InputError>),
        "not bad input: {err:#}"
    );
    format!("{err:#}")
}

fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("run.toml");
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_profile_then_the_file_then_the_options_set_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let file = config(
        dir.path(),
        "profile = \"research\"\nseed = 7\npositions = \"0-9\"\n[sweep]\nnodes = 5000\n\
         [selfplay]\ngames = 3\njitter = 0.2\n",
    );
    let plan = resolve(&PlanOptions {
        config: Some(file),
        engine: Some(EngineName::Builtin),
        seed: Some(9),
        games: Some(4),
        ..PlanOptions::default()
    })
    .unwrap();
    assert_eq!(plan.profile, Profile::Research);
    assert_eq!(plan.out(), Path::new("runs/research"));
    assert_eq!(plan.seed, 9, "the option wins over the file");
    assert_eq!(plan.positions, "0-9", "the file wins over the profile");
    assert_eq!(plan.sweep.nodes, 5000);
    // The research profile's repeats stay: the file did not set them.
    assert_eq!(plan.sweep.repeats.get(), 4);
    assert_eq!((plan.selfplay.games, plan.selfplay.jitter), (4, 0.2));
    // A [sweep] section makes a sweep of one engine, not the design's raters.
    assert!(plan.raters.is_empty());
    assert!(plan.adaptive_selfplay());
}

#[test]
fn a_config_file_with_an_unknown_key_is_refused_naming_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), "seed = 1\n\n[sweep]\nnodez = 5\n");
    let said = input_error(resolve(&PlanOptions {
        config: Some(file.clone()),
        ..PlanOptions::default()
    }));
    assert!(said.contains("is not a valid run configuration"), "{said}");
    assert!(said.ends_with("(line 4: nodez = 5)"), "{said}");
    let said = input_error(resolve(&PlanOptions {
        config: Some(dir.path().join("missing.toml")),
        ..PlanOptions::default()
    }));
    assert!(said.starts_with("cannot read "), "{said}");
}

#[test]
fn impossible_settings_are_bad_input() {
    let builtin = || PlanOptions {
        engine: Some(EngineName::Builtin),
        ..PlanOptions::default()
    };
    let said = input_error(resolve(&PlanOptions {
        selfplay_nodes: Some(0),
        ..builtin()
    }));
    assert_eq!(said, "node limits must be positive");
    assert!(
        resolve(&PlanOptions {
            jitter: Some(1.5),
            ..builtin()
        })
        .is_err()
    );
    let dir = tempfile::tempdir().unwrap();
    let raters = "[[raters]]\nname = \"a\"\nengine = \"builtin\"\nnodes = 100\n";
    let said = input_error(resolve(&PlanOptions {
        config: Some(config(dir.path(), raters)),
        ..builtin()
    }));
    assert!(said.contains("cannot replace them"), "{said}");
    let said = input_error(resolve(&PlanOptions {
        config: Some(config(dir.path(), raters)),
        sweep_nodes: Some(10),
        ..PlanOptions::default()
    }));
    assert!(said.contains("give one or the other"), "{said}");
    let twice = format!("{raters}{}", raters.replace("100", "200"));
    let said = input_error(resolve(&PlanOptions {
        config: Some(config(dir.path(), &twice)),
        ..PlanOptions::default()
    }));
    assert_eq!(said, "rater name a is used twice");
    let alike = format!("{raters}{}", raters.replace("\"a\"", "\"b\""));
    let said = input_error(resolve(&PlanOptions {
        config: Some(config(dir.path(), &alike)),
        ..PlanOptions::default()
    }));
    assert!(said.starts_with("raters a and b search alike"), "{said}");
    let said = input_error(resolve(&PlanOptions {
        config: Some(config(dir.path(), &raters.replace("\"a\"", "\"../a\""))),
        ..PlanOptions::default()
    }));
    assert!(said.starts_with("rater name \"../a\" must be"), "{said}");
}

#[test]
fn the_research_design_with_one_engine_keeps_each_distinct_search_once() {
    let plan = resolve(&PlanOptions {
        profile: Some(Profile::Research),
        engine: Some(EngineName::Builtin),
        ..PlanOptions::default()
    })
    .unwrap();
    let names: Vec<&str> = plan.raters.iter().map(|r| r.name.as_str()).collect();
    // Two raters at 4,000,000 nodes differ only in their engine: with one
    // engine they are one.
    assert_eq!(
        names,
        ["builtin-4m", "builtin-1m-multipv3", "builtin-1m-hash64"]
    );
    let said = plan.check_shardable().unwrap_err().to_string();
    assert!(said.contains("sweeps by 3 raters (builtin-4m, "), "{said}");
    // A shard of such a plan is refused when it is resolved.
    let said = input_error(resolve(&PlanOptions {
        profile: Some(Profile::Research),
        engine: Some(EngineName::Builtin),
        shard: Some("1/4".parse().unwrap()),
        ..PlanOptions::default()
    }));
    assert!(
        said.contains("c960 merge merges one sweep per run"),
        "{said}"
    );
    // A whole shard is no shard.
    let whole = resolve(&PlanOptions {
        shard: Some("0/1".parse().unwrap()),
        ..one_position(Path::new("x"))
    })
    .unwrap();
    assert!(whole.shard.is_none());
}

#[test]
fn the_profiles_describe_the_settings_they_plan() {
    let quick = Profile::Quick.plan();
    assert!(!quick.adaptive_selfplay());
    assert_eq!((quick.sweep.nodes, quick.selfplay.games), (100_000, 0));
    let said = Profile::Quick.describe();
    assert!(
        said.starts_with(&format!(
            "All 960 positions within {} minutes",
            super::QUICK_MINUTES
        )),
        "{said}"
    );
    assert!(said.contains("one sweep at 100,000 nodes"), "{said}");
    assert!(
        said.contains("games per position at 2,000 nodes a move"),
        "{said}"
    );
    let said = Profile::Research.describe();
    assert!(said.contains("4 raters sweep every position"), "{said}");
    assert!(said.contains("at 1,000,000 nodes with MultiPV 3"), "{said}");
    assert!(said.contains("with Hash 64"), "{said}");
    assert!(
        said.ends_with("(target ±0.05) up to 96,000 games in all"),
        "{said}"
    );
    assert_eq!(
        Profile::ALL.map(Profile::name),
        ["quick", "research"],
        "the names the config file takes"
    );
}

#[test]
fn each_rater_sweeps_into_its_own_directory_and_self_play_takes_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let text = "games = 2\n";
    let file = config(
        dir.path(),
        &format!(
            "[selfplay]\n{text}\n[[raters]]\nname = \"deep\"\nengine = \"builtin\"\nnodes = 900\n\
             hash = 32\n[[raters]]\nname = \"wide\"\nengine = \"builtin\"\nnodes = 300\n\
             multipv = 2\n"
        ),
    );
    let plan = resolve(&PlanOptions {
        config: Some(file),
        out: Some(PathBuf::from("o")),
        hash: NonZeroU32::new(8),
        jobs: NonZeroUsize::new(3),
        ..PlanOptions::default()
    })
    .unwrap();
    let asked = RefCell::new(Vec::new());
    let (sweeps, selfplay) = configs(&plan, &builtin(&asked)).unwrap();
    let outs: Vec<&Path> = sweeps.iter().map(|s| s.out.as_path()).collect();
    assert_eq!(
        outs,
        [Path::new("o/raters/deep"), Path::new("o/raters/wide")]
    );
    assert_eq!(sweeps[1].multipv.get(), 2);
    assert!(sweeps.iter().all(|s| s.jobs == 3));
    // Each rater at its own hash; self-play at the plan's.
    assert_eq!(
        asked
            .borrow()
            .iter()
            .map(|(_, hash)| *hash)
            .collect::<Vec<_>>(),
        [32, 16, 8]
    );
    let selfplay = selfplay.expect("two games per position");
    assert_eq!(selfplay.out, Path::new("o/selfplay"));
    assert_eq!(selfplay.games_per_position.get(), 2);
    assert!(selfplay.options.adaptive.is_none());
    assert!(matches!(
        selfplay.engine,
        EngineSpec::Builtin { hash_mb: 8, .. }
    ));
}

/// What a run told, in order.
#[derive(Default)]
struct Told(Vec<String>);

impl Observer for Told {
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
        Finished::Run(_) => panic!("a shard builds no report"),
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
        super::stages::sweep_stage(sweep, engine, None, (&stop, &mut Silent), 3).unwrap();
    assert_eq!(time.what, "12 positions at nodes 5000 (0 from the journal)");
    let report = super::Report {
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
