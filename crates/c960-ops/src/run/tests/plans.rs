//! Plans resolved from a profile, a config file and options, refused when
//! they cannot be, and the stages' configurations made from them.

use std::{
    cell::RefCell,
    num::{NonZeroU32, NonZeroUsize},
    path::{Path, PathBuf},
};

use c960_engine::{EngineName, EngineSpec};

use super::{builtin, config, input_error, one_position};
use crate::run::{PlanOptions, Profile, configs::configs, resolve};

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
            crate::run::QUICK_MINUTES
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
