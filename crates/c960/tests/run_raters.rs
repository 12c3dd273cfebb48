//! `c960 run`'s raters and profiles: the research profile takes the
//! strongest engines installed, raters come from a config file each into
//! its own directory, settings that cannot be are refused, and the help
//! states each profile as `--dry-run` resolves it.

use crate::util;

use std::{fmt::Write as _, fs};

use util::Dir;

use crate::run::plan;

#[test]
fn the_research_profile_takes_the_strongest_engines_installed() {
    let dir = Dir::new();
    // With Stockfish 19 from npm beside Debian's Stockfish 15.1, each
    // rater of the design runs on its own engine.
    let out =
        util::run_command(dir.command_with_npm(&["run", "--profile", "research", "--dry-run"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let research: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let raters: Vec<(String, String, u64)> = research["raters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["engine"].as_str().unwrap().to_owned(),
                r["nodes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        raters,
        [
            ("stockfish-npm-4m".into(), "stockfish-npm".into(), 4_000_000),
            ("stockfish-4m".into(), "stockfish".into(), 4_000_000),
            (
                "stockfish-npm-1m-multipv3".into(),
                "stockfish-npm".into(),
                1_000_000
            ),
            ("stockfish-1m-hash64".into(), "stockfish".into(), 1_000_000),
        ]
    );
    // A named engine rates alone, with the design's settings.
    let builtin = plan(&dir, &["--profile", "research", "--engine", "builtin"]);
    assert_eq!(builtin["raters"].as_array().unwrap().len(), 3);
    assert!(
        builtin["raters"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["engine"] == "builtin")
    );
}

/// `4000000` as `4,000,000`, as the help writes numbers.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The profile `name`'s line in `c960 run --help`, on one line.
fn profile_line(help: &str, name: &str) -> String {
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = help
        .find(&format!("- {name}: "))
        .unwrap_or_else(|| panic!("no {name} profile in the help: {help}"));
    let rest = &help[start + 3..];
    rest[..rest.find(" - ").or_else(|| rest.find(" --")).unwrap()].to_owned()
}

#[test]
fn the_help_states_each_profile_as_dry_run_resolves_it() {
    let dir = Dir::new();
    let help = dir.ok(&["run", "--help"]);
    let line = |name: &str| profile_line(&help, name);
    // The quick profile's one sweep (for an engine not of its design), as
    // the config file's keys show it.
    let quick = plan(&dir, &["--engine", "builtin"]);
    // The config file's keys, shown with the quick profile's values.
    let raw = dir.ok(&["run", "--help"]);
    let config = raw
        .split("the values shown are the quick profile's):")
        .nth(1)
        .and_then(|rest| rest.split("Instead of [sweep]").next())
        .expect("the config keys in c960 run --help");
    let mut section = String::new();
    let mut shown = 0;
    for entry in config.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(name) = entry.strip_prefix('[').and_then(|e| e.strip_suffix(']')) {
            section = name.to_owned();
            continue;
        }
        let (key, value) = entry.split_once(" = ").unwrap();
        let value = value.split("    #").next().unwrap().trim();
        let resolved = if section.is_empty() {
            &quick[key]
        } else {
            &quick[section.as_str()][key]
        };
        if key == "jobs" || key == "out" {
            continue; // machine- and directory-dependent
        }
        if key == "engine" {
            // The setting; `--dry-run` names the engine it chooses here.
            assert_eq!(value, "\"auto\"", "engine in the help");
            shown += 1;
            continue;
        }
        assert_eq!(value, resolved.to_string(), "{section}.{key} in the help");
        shown += 1;
    }
    assert!(shown >= 20, "only {shown} keys shown");
    let research = plan(&dir, &["--profile", "research"]);
    let described = line("research");
    let raters = research["raters"].as_array().unwrap();
    assert!(described.contains(&format!("{} raters", raters.len())) || raters.len() < 4);
    for r in raters {
        let mut figure = format!("at {} nodes", grouped(r["nodes"].as_u64().unwrap()));
        if r["multipv"] != 1 {
            write!(figure, " with MultiPV {}", r["multipv"]).unwrap();
        }
        if r["hash"] != 16 {
            write!(figure, " with Hash {}", r["hash"]).unwrap();
        }
        assert!(
            described.contains(&figure),
            "{figure:?} not in {described:?}"
        );
    }
    let selfplay = &research["selfplay"];
    for figure in [
        format!(
            "{} self-play games per position at {} nodes a move",
            selfplay["games"],
            grouped(selfplay["nodes"].as_u64().unwrap())
        ),
        format!("target ±{}", selfplay["target_halfwidth"]),
        format!(
            "up to {} games",
            grouped(selfplay["budget"].as_u64().unwrap())
        ),
    ] {
        assert!(
            described.contains(&figure),
            "{figure:?} not in {described:?}"
        );
    }
}

#[test]
fn the_help_states_the_quick_design_and_its_time_as_the_readme_does() {
    let dir = Dir::new();
    let help = dir.ok(&["run", "--help"]);
    let line = |name: &str| profile_line(&help, name);
    // The quick profile's one sweep, for an engine not of its design.
    let quick = plan(&dir, &["--engine", "builtin"]);
    let described = line("quick");
    // The design's raters as `--dry-run` resolves them with both engines
    // installed and with one alone.
    let both = util::run_command(dir.command_with_npm(&["run", "--dry-run"]));
    assert_eq!(both.code, 0, "{}", both.stderr);
    let both: serde_json::Value = serde_json::from_str(&both.stdout).unwrap();
    let alone = plan(&dir, &[]);
    let nodes =
        |plan: &serde_json::Value, i: usize| grouped(plan["raters"][i]["nodes"].as_u64().unwrap());
    assert_eq!(both["raters"].as_array().unwrap().len(), 2);
    assert_eq!(both["selfplay"]["games"], 0);
    for figure in [
        format!(
            "2 raters sweep every position, Stockfish 19 (npm `stockfish`) at {} nodes",
            nodes(&both, 0)
        ),
        format!("Stockfish (Debian) at {} nodes", nodes(&both, 1)),
        format!("or {} nodes", nodes(&alone, 0)),
        format!(
            "one sweep at {} nodes",
            grouped(quick["sweep"]["nodes"].as_u64().unwrap())
        ),
        "no self-play".to_owned(),
        format!(
            "games per position at {} nodes a move",
            grouped(quick["selfplay"]["nodes"].as_u64().unwrap())
        ),
    ] {
        assert!(
            described.contains(&figure),
            "{figure:?} not in {described:?}"
        );
    }
    // The time the help promises is the README's and the main help's.
    let minutes = described
        .split_once("All 960 positions within ")
        .and_then(|(_, rest)| rest.split_once(" minutes on two cores"))
        .map_or_else(
            || panic!("no time in the quick profile's help: {described}"),
            |(n, _)| n.parse::<u32>().unwrap(),
        );
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        readme.contains(&format!("within {minutes} minutes on two cores")),
        "the README's quick start does not give the help's {minutes} minutes"
    );
    assert!(
        dir.ok(&["--help"])
            .contains(&format!("the whole pipeline, within {minutes} minutes"))
    );
}

#[test]
fn raters_from_a_config_file_each_sweep_into_their_own_directory() {
    let dir = Dir::new();
    fs::write(
        dir.file("raters.toml"),
        "positions = \"0-11\"\n[selfplay]\ngames = 0\n\
         [[raters]]\nname = \"small\"\nengine = \"builtin\"\nnodes = 2000\n\
         [[raters]]\nname = \"large\"\nengine = \"builtin\"\nnodes = 8000\nhash = 4\n\
         [[raters]]\nname = \"wide\"\nengine = \"builtin\"\nnodes = 4000\nmultipv = 2\n",
    )
    .unwrap();
    dir.ok(&["run", "--config", "raters.toml", "--out", "r", "--quiet"]);
    for name in ["small", "large", "wide"] {
        assert!(
            dir.file("r/raters")
                .join(name)
                .join("sweep.parquet")
                .is_file(),
            "{name}"
        );
    }
    assert!(!dir.file("r/sweep").exists());
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/run.json")).unwrap()).unwrap();
    assert_eq!(record["raters"].as_array().unwrap().len(), 3);
    assert_eq!(record["plan"]["raters"][1]["hash"], 4);
    // The report combines the three raters into one consensus.
    let balance: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("r/report/balance.json")).unwrap())
            .unwrap();
    assert_eq!(balance["engines"].as_array().unwrap().len(), 3, "{balance}");
    // A second run reuses every rater's searches.
    let again = dir.run(&["run", "--config", "raters.toml", "--out", "r"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stderr.contains("sweep by 3 raters"),
        "{}",
        again.stderr
    );
    assert!(
        again
            .stdout
            .contains("12 positions at nodes 8000 by c960 builtin"),
        "{}",
        again.stdout
    );
    assert_eq!(again.stdout.matches("(12 from the journal)").count(), 3);
}

#[test]
fn rater_settings_that_cannot_be_are_refused_in_one_line() {
    let dir = Dir::new();
    let rater = |name: &str, nodes: u32| {
        format!("[[raters]]\nname = \"{name}\"\nengine = \"builtin\"\nnodes = {nodes}\n")
    };
    for (file, flags, wanted) in [
        (rater("a", 1000) + &rater("a", 2000), &[][..], "used twice"),
        (rater("a", 1000) + &rater("b", 1000), &[], "search alike"),
        (rater("../x", 1000), &[], "rater name"),
        (rater("a", 0), &[], "at least 1"),
        (
            rater("a", 1000),
            &["--engine", "builtin"][..],
            "give one or the other",
        ),
        (
            rater("a", 1000),
            &["--sweep-nodes", "5000"],
            "give one or the other",
        ),
    ] {
        fs::write(dir.file("bad.toml"), file).unwrap();
        let mut args = vec!["run", "--config", "bad.toml", "--dry-run"];
        args.extend(flags);
        let line = dir.bad_input(&args);
        assert!(line.contains(wanted), "{wanted}: {line}");
    }
}
