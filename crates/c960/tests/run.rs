//! `c960 run`: the whole pipeline in one directory, settings from profile,
//! TOML file and flags, resumable, with a summary.

use crate::util;

use std::fs;

use util::Dir;

pub(crate) fn plan(dir: &Dir, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["run", "--dry-run"];
    all.extend_from_slice(args);
    serde_json::from_str(&dir.ok(&all)).unwrap()
}

/// The names of a plan's raters.
fn names(plan: &serde_json::Value) -> Vec<String> {
    plan["raters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn settings_come_from_profile_then_file_then_flags() {
    let dir = Dir::new();
    let quick = plan(&dir, &[]);
    assert_eq!(quick["profile"], "quick");
    assert_eq!(quick["out"], "runs/quick");
    // `auto` as the engine it chooses here (Stockfish's path, or builtin).
    assert_ne!(quick["engine"], "auto");
    // The quick design's raters: with Debian's Stockfish alone (npm's is
    // hidden from these runs), its rater alone with the whole time.
    assert_eq!(names(&quick), ["stockfish-700k"]);
    assert_eq!(quick["raters"][0]["nodes"], 700_000);
    assert!(quick.get("sweep").is_none(), "raters, not one search");
    assert_eq!(quick["selfplay"]["games"], 0, "no games in the quick run");
    assert_eq!(quick["selfplay"]["nodes"], 2_000);
    assert_eq!(quick["positions"], "all");
    // With Stockfish 19 from npm too: both engines, each at fewer nodes.
    let with_npm = util::run_command(dir.command_with_npm(&["run", "--dry-run"]));
    assert_eq!(with_npm.code, 0, "{}", with_npm.stderr);
    let with_npm: serde_json::Value = serde_json::from_str(&with_npm.stdout).unwrap();
    assert_eq!(names(&with_npm), ["stockfish-npm-150k", "stockfish-350k"]);
    // An engine not of the design (and the built-in engine when neither
    // Stockfish is installed) sweeps alone at the profile's nodes.
    let builtin = plan(&dir, &["--engine", "builtin"]);
    assert!(builtin.get("raters").is_none());
    assert_eq!(builtin["sweep"]["nodes"], 100_000);
    assert_eq!(builtin["sweep"]["multipv"], 1);
    // One of the design's engines named: that one alone.
    let named = plan(&dir, &["--engine", "stockfish"]);
    assert_eq!(names(&named), ["stockfish-700k"]);
    let research = plan(&dir, &["--profile", "research"]);
    assert_eq!(research["out"], "runs/research");
    // The research sweep is a set of raters (`just bench-validity`); with
    // only Debian's Stockfish installed, its settings vary, not its engine.
    assert_eq!(
        names(&research),
        [
            "stockfish-4m",
            "stockfish-1m-multipv3",
            "stockfish-1m-hash64"
        ]
    );
    assert!(research.get("sweep").is_none(), "raters, not one search");
    // One engine's search, set by a flag, is a sweep of that engine alone,
    // the rest from the profile: v2's four searches of 250,000 nodes.
    let alone = plan(&dir, &["--profile", "research", "--sweep-nodes", "250000"]);
    assert!(alone.get("raters").is_none());
    assert_eq!(alone["sweep"]["nodes"], 250_000);
    assert_eq!(alone["sweep"]["repeats"], 4);
    assert_eq!(alone["sweep"]["multipv"], 1);
    assert_eq!(research["selfplay"]["games"], 20);
    assert_eq!(research["selfplay"]["target_halfwidth"], 0.05);
    assert_eq!(research["selfplay"]["budget"], 96_000);
    assert_eq!(research["selfplay"]["nodes"], 5_000);

    fs::write(
        dir.file("run.toml"),
        "profile = \"research\"\nout = \"runs/mine\"\npositions = \"0-99\"\n\
         [sweep]\nnodes = 300000\n[selfplay]\ngames = 8\ndraw_after = 60\n",
    )
    .unwrap();
    let file = plan(&dir, &["--config", "run.toml"]);
    assert_eq!(file["profile"], "research");
    assert_eq!(file["out"], "runs/mine");
    assert_eq!(file["positions"], "0-99");
    assert_eq!(file["sweep"]["nodes"], 300_000);
    assert_eq!(file["sweep"]["repeats"], 4, "the rest from the profile");
    assert_eq!(file["selfplay"]["games"], 8);
    assert_eq!(file["selfplay"]["draw_after"], 60);
    let flags = plan(
        &dir,
        &[
            "--config",
            "run.toml",
            "--profile",
            "quick",
            "--games",
            "0",
            "--sweep-nodes",
            "5000",
        ],
    );
    assert_eq!(flags["profile"], "quick");
    assert_eq!(flags["selfplay"]["games"], 0, "flags win over the file");
    assert_eq!(flags["sweep"]["nodes"], 5000);
    assert_eq!(flags["sweep"]["multipv"], 1, "quick profile underneath");
    assert_eq!(flags["positions"], "0-99", "the file over the profile");
}

#[test]
fn a_run_with_raters_is_not_sharded() {
    // `c960 merge` merges one sweep per run; the quick profile's raters
    // (and the research profile's) are refused before any work.
    let dir = Dir::new();
    let line = dir.bad_input(&["run", "--shard", "0/2", "--quiet"]);
    assert!(line.contains("raters (stockfish-700k)"), "{line}");
    assert!(line.contains("--sweep-nodes"), "{line}");
    let line = dir.bad_input(&["slurm", "run", "--shards", "2", "--out", "s"]);
    assert!(line.contains("raters (stockfish-700k)"), "{line}");
    assert!(!dir.file("runs").exists() && !dir.file("s").exists());
    let plan = plan(&dir, &["--shard", "0/2", "--engine", "builtin"]);
    assert_eq!(plan["shard"], "0/2");
}

#[test]
fn bad_settings_are_one_line_errors() {
    let dir = Dir::new();
    fs::write(dir.file("typo.toml"), "[sweep]\nnodez = 5\n").unwrap();
    let line = dir.bad_input(&["run", "--config", "typo.toml"]);
    assert!(
        line.contains("typo.toml is not a valid run configuration"),
        "{line}"
    );
    assert!(line.contains("nodez"), "{line}");
    fs::write(dir.file("type.toml"), "seed = \"seven\"\n").unwrap();
    assert!(
        dir.bad_input(&["run", "--config", "type.toml"])
            .contains("type.toml")
    );
    assert!(
        dir.bad_input(&["run", "--config", "missing.toml"])
            .contains("cannot read missing.toml")
    );
    assert!(
        dir.bad_input(&["run", "--sweep-nodes", "0"])
            .contains("positive")
    );
    assert!(dir.bad_input(&["run", "--jitter", "1"]).contains("jitter"));
    assert!(
        dir.bad_input(&["run", "--positions", "960", "--quiet"])
            .contains("960")
    );
    assert!(
        dir.bad_input(&["run", "--engine", "/no/such/engine", "--quiet"])
            .contains("/no/such/engine")
    );
    assert!(
        !dir.file("runs").exists(),
        "nothing written for bad settings"
    );
}

#[test]
fn a_small_run_reports_and_a_second_run_reuses_it() {
    let dir = Dir::new();
    let args = [
        "run",
        "--engine",
        "builtin",
        "--positions",
        "0-5,518",
        "--sweep-nodes",
        "3000",
        "--games",
        "2",
        "--selfplay-nodes",
        "300",
        "--jobs",
        "2",
        "--out",
        "r",
    ];
    let first = dir.run(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stderr.contains("c960 run (quick) with c960 builtin"),
        "{}",
        first.stderr
    );
    let out = first.stdout;
    assert!(out.starts_with("c960 run (quick) finished in "), "{out}");
    assert!(out.contains("with c960 builtin"), "{out}");
    assert!(out.contains("  report      r/report/index.html"), "{out}");
    assert!(
        out.contains("7 positions at nodes 3000 (0 from the journal)"),
        "{out}"
    );
    assert!(
        out.contains("14 games at nodes 300 per move (0 from the journal)"),
        "{out}"
    );
    for stage in ["positions", "sweep", "self-play", "report"] {
        assert!(
            out.contains(&format!("\n  {stage:<10}  ")),
            "{stage}: {out}"
        );
    }
    five_each_way(&out);

    for file in [
        "r/positions.csv",
        "r/sweep/sweep.parquet",
        "r/selfplay/games.pgn",
        "r/report/index.html",
        "r/report/fair.html",
        "r/report/positions/518.html",
        "r/report/positions.parquet",
    ] {
        assert!(dir.file(file).is_file(), "{file}");
    }
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/run.json")).unwrap()).unwrap();
    assert_eq!(record["kind"], "run");
    assert!(
        record["engine"]
            .as_str()
            .unwrap()
            .starts_with("c960 builtin")
    );
    assert_eq!(record["plan"]["sweep"]["nodes"], 3000);
    assert_eq!(record["stages"].as_array().unwrap().len(), 4);
    let positions = fs::read_to_string(dir.file("r/positions.csv")).unwrap();
    let committed = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/positions.csv"
    ))
    .unwrap();
    assert_eq!(positions, committed, "the same table as c960 positions");
    let pgn = fs::read_to_string(dir.file("r/selfplay/games.pgn")).unwrap();

    // Again: every stage comes from its journal, the games are the same.
    let second = dir.run(&args);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(
        second
            .stdout
            .contains("7 positions at nodes 3000 (7 from the journal)"),
        "{}",
        second.stdout
    );
    assert!(
        second
            .stdout
            .contains("14 games at nodes 300 per move (14 from the journal)"),
        "{}",
        second.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.file("r/selfplay/games.pgn")).unwrap(),
        pgn
    );

    // Other settings in the same directory are refused, not mixed in.
    let mut other = args.to_vec();
    other[6] = "4000";
    other.push("--quiet");
    let line = dir.bad_input(&other);
    assert!(line.contains("settings"), "{line}");
}

#[test]
fn without_self_play_there_are_three_stages() {
    let dir = Dir::new();
    let out = dir.run(&[
        "run",
        "--engine",
        "builtin",
        "--positions",
        "518",
        "--sweep-nodes",
        "2000",
        "--games",
        "0",
        "--out",
        "r",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("no self-play"), "{}", out.stderr);
    assert!(!out.stdout.contains("self-play "), "{}", out.stdout);
    assert!(!dir.file("r/selfplay").exists());
    assert!(dir.file("r/report/index.html").is_file());
}

#[test]
fn the_summary_ends_with_the_agreement_with_the_published_v4() {
    let dir = Dir::new();
    let run = dir.run(&[
        "run",
        "--engine",
        "builtin",
        "--positions",
        "0-11",
        "--sweep-nodes",
        "2000",
        "--out",
        "r",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("no self-play"),
        "the quick run plays no games"
    );
    let line = run.stdout.lines().last().unwrap();
    let figures = line
        .strip_prefix("agreement with the published dataset v4 (the consensus of 8 raters): r = ")
        .and_then(|rest| rest.strip_suffix(" over 12 positions (Pearson, 95% bootstrap interval)"))
        .unwrap_or_else(|| panic!("{line}"));
    let (r, interval) = figures.split_once(" [").unwrap();
    let (low, high) = interval
        .strip_suffix(']')
        .unwrap()
        .split_once(", ")
        .unwrap();
    let [r, low, high] = [r, low, high].map(|x| x.parse::<f64>().unwrap());
    assert!((-1.0..=1.0).contains(&r) && low <= r && r <= high, "{line}");
}

/// The v4 consensus built into the binary (`crates/c960-ops/src/run/v4-consensus.csv`)
/// is the published one, value for value as its text.
#[test]
fn the_built_in_v4_consensus_is_the_published_one() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let published = fs::read_to_string(format!("{root}/data/research-v4/balance.csv")).unwrap();
    let mut lines = published.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (sp, estimate) = (column("sp"), column("balance_estimate"));
    let expected: Vec<String> = lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len(), "no quoted commas: {line}");
            format!("{},{}", fields[sp], fields[estimate])
        })
        .collect();
    let built_in = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-ops/src/run/v4-consensus.csv"
    ))
    .unwrap();
    let rows: Vec<&str> = built_in
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect();
    assert_eq!(rows[0], "sp,estimate");
    assert_eq!(rows[1..], expected, "the built-in copy of v4 is stale");
    assert_eq!(expected.len(), 960);
}

#[test]
fn a_stockfish_run_records_the_engine() {
    // `auto` finds Stockfish where CI installs it; without it this test
    // fails and says so.
    let dir = Dir::new();
    let run = dir.run(&[
        "run",
        "--positions",
        "0,518",
        "--sweep-nodes",
        "20000",
        "--games",
        "2",
        "--selfplay-nodes",
        "1000",
        "--out",
        "r",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("engine auto: Stockfish at")
            && run.stderr.contains("c960 run (quick) with Stockfish 15.1"),
        "Stockfish is not installed (apt-get install stockfish): {}",
        run.stderr
    );
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/run.json")).unwrap()).unwrap();
    assert_eq!(record["engine"], "Stockfish 15.1");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/selfplay/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["engines"][0]["name"], "Stockfish 15.1");
    assert_eq!(manifest["limit"], "nodes 1000");
}

/// The summary lists five most and five least balanced positions, with
/// self-play beside the engine score.
fn five_each_way(out: &str) {
    let list = |title: &str| -> Vec<String> {
        out.split(title)
            .nth(1)
            .unwrap()
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  SP"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(list("most balanced").len(), 5, "{out}");
    assert_eq!(list("least balanced").len(), 5, "{out}");
    assert!(list("most balanced")[0].contains("self-play"), "{out}");
}

#[test]
fn a_run_with_repeats_and_adaptive_self_play_reports_both() {
    let dir = Dir::new();
    let run = dir.run(&[
        "run",
        "--engine",
        "builtin",
        "--positions",
        "0-5,518",
        "--sweep-nodes",
        "2000",
        "--repeats",
        "3",
        "--games",
        "2",
        "--budget",
        "30",
        "--selfplay-nodes",
        "200",
        "--jobs",
        "2",
        "--out",
        "r",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sweep: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/sweep/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(sweep["repeats"], 3);
    assert!(dir.file("r/sweep/repeats.parquet").is_file());
    let selfplay: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/selfplay/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(selfplay["adaptive"]["budget"], 30);
    assert!(selfplay["games"].as_u64().unwrap() <= 30);
    // The summary ranks by the mean over repeats and states reliability.
    assert!(run.stdout.contains("most balanced"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "agreement with the published dataset v4 (the consensus of 8 raters): not measured \
             (the run and v4 share 7 positions; at least 10 are needed)"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("reliability of the engine sweep ranking"),
        "{}",
        run.stdout
    );
    let plan: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/run.json")).unwrap()).unwrap();
    assert_eq!(plan["plan"]["sweep"]["repeats"], 3);
    assert_eq!(plan["plan"]["selfplay"]["budget"], 30);
}

#[test]
fn each_stage_launches_each_engine_process_once() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir_all(&trace).unwrap();
    let engine = util::fake_engine();
    let mut command = dir.command(&[
        "run",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "0-3",
        "--sweep-nodes",
        "1000",
        "--games",
        "2",
        "--selfplay-nodes",
        "100",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "r",
    ]);
    command.env("C960_FAKE_UCI", format!("--trace {}", trace.display()));
    let run = util::run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Each process writes its own trace file: the sweep's one worker (the
    // engine that named the run) and self-play's process per side, none
    // started only to be identified.
    let traces: Vec<String> = fs::read_dir(&trace)
        .unwrap()
        .map(|f| fs::read_to_string(f.unwrap().path()).unwrap())
        .collect();
    let idle: Vec<&String> = traces
        .iter()
        .filter(|t| !t.lines().any(|l| l.starts_with("go ")))
        .collect();
    assert!(idle.is_empty(), "processes that never searched: {idle:?}");
    assert_eq!(traces.len(), 3, "engine processes launched");
}
