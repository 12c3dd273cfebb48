//! `c960 sweep --repeats K`: K reproducible searches per position with
//! recorded node budgets, per-position means over them, the run's
//! repeatability, resume per (position, repeat), and the verdicts read
//! from the searches.

use crate::util;

use std::{
    collections::BTreeMap,
    fs,
    path::Path,
    process::{Command, Stdio},
    thread,
    time::Duration,
};

use polars::prelude::*;
use util::{Dir, fake_engine, run_command};

fn fake_repeats(dir: &Dir, out: &str, extra: &[&str]) -> Command {
    let engine = fake_engine();
    let mut args = vec![
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "1000",
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    dir.command(&args)
}

fn read(path: &Path) -> DataFrame {
    ParquetReader::new(fs::File::open(path).unwrap())
        .finish()
        .unwrap()
}

fn u64s(frame: &DataFrame, name: &str) -> Vec<Option<u64>> {
    let c = frame.column(name).unwrap().cast(&DataType::UInt64).unwrap();
    let c = c.u64().unwrap();
    (0..c.len()).map(|i| c.get(i)).collect()
}

fn f64s(frame: &DataFrame, name: &str) -> Vec<Option<f64>> {
    let c = frame
        .column(name)
        .unwrap()
        .cast(&DataType::Float64)
        .unwrap();
    let c = c.f64().unwrap();
    (0..c.len()).map(|i| c.get(i)).collect()
}

fn manifest(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn repeats_have_their_own_rows_budgets_and_means() {
    let dir = Dir::new();
    let args = ["--positions", "0-5,518", "--repeats", "3", "--seed", "5"];
    let run = run_command(fake_repeats(&dir, "r", &args));
    assert_eq!(run.code, 0, "{}", run.stderr);

    let searches = read(&dir.file("r/repeats.parquet"));
    assert_eq!(searches.height(), 21);
    let names: Vec<&str> = searches
        .get_column_names()
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(&names[..4], ["sp", "repeat", "node_budget", "placement"]);
    let sps = u64s(&searches, "sp");
    let repeats = u64s(&searches, "repeat");
    let budgets = u64s(&searches, "node_budget");
    let nodes = u64s(&searches, "nodes");
    for i in 0..21 {
        assert_eq!(repeats[i], Some(i as u64 % 3), "rows in (sp, repeat) order");
        let b = budgets[i].unwrap();
        assert!((750..=1250).contains(&b), "budget {b}");
        // The fake engine searches exactly the nodes it is given.
        assert_eq!(nodes[i], Some(b), "the search had its budget");
    }
    assert_eq!(sps[20], Some(518));
    let distinct: std::collections::BTreeSet<_> = budgets.iter().collect();
    assert!(distinct.len() >= 18, "budgets differ between repeats");

    // The per-position table: one row each, means over the repeats.
    let positions = read(&dir.file("r/sweep.parquet"));
    assert_eq!(positions.height(), 7);
    assert_eq!(u64s(&positions, "repeats"), vec![Some(3); 7]);
    let cp = f64s(&searches, "score_cp");
    let mean = f64s(&positions, "score_cp_mean");
    for (k, m) in mean.iter().enumerate() {
        let expected = (cp[3 * k].unwrap() + cp[3 * k + 1].unwrap() + cp[3 * k + 2].unwrap()) / 3.0;
        assert!((m.unwrap() - expected).abs() < 1e-9);
    }
    // The fake engine's WDL is 100/800/100: White expects 0.5 every time.
    for e in f64s(&positions, "white_expected_mean") {
        assert!((e.unwrap() - 0.5).abs() < 1e-12);
    }
    assert_eq!(f64s(&positions, "white_expected_sd"), vec![Some(0.0); 7]);

    let m = manifest(&dir.file("r/manifest.json"));
    assert_eq!(m["repeats"], 3);
    assert_eq!(m["seed"], 5);
    assert_eq!(m["rows"], 7);
    assert!(
        m["repeat_rule"]
            .as_str()
            .unwrap()
            .contains("[0.750, 1.250]")
    );
    assert!(m["repeatability"]["all_repeats"].is_number());
    assert!(m["notes"].as_str().unwrap().contains("repeats.parquet"));

    // The same seed replays the same searches; another seed draws other
    // budgets.
    assert_eq!(run_command(fake_repeats(&dir, "again", &args)).code, 0);
    assert_eq!(
        fs::read_to_string(dir.file("r/repeats.csv")).unwrap(),
        fs::read_to_string(dir.file("again/repeats.csv")).unwrap()
    );
    let other = ["--positions", "0-5,518", "--repeats", "3", "--seed", "6"];
    assert_eq!(run_command(fake_repeats(&dir, "other", &other)).code, 0);
    assert_ne!(
        u64s(&read(&dir.file("other/repeats.parquet")), "node_budget"),
        budgets
    );
}

#[test]
fn a_killed_sweep_with_repeats_resumes_each_search_once() {
    let dir = Dir::new();
    let args = [
        "--positions",
        "0-39",
        "--repeats",
        "3",
        "--seed",
        "2",
        "--jobs",
        "2",
    ];
    assert_eq!(run_command(fake_repeats(&dir, "whole", &args)).code, 0);
    let expected = fs::read_to_string(dir.file("whole/repeats.csv")).unwrap();
    for kill_after_ms in [200, 400] {
        let mut command = fake_repeats(&dir, "killed", &args);
        command
            .env("C960_FAKE_UCI", "--slow 20")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        thread::sleep(Duration::from_millis(kill_after_ms));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(
        !dir.file("killed/repeats.csv").exists(),
        "killed before the end"
    );
    let resumed = run_command(fake_repeats(&dir, "killed", &args));
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(
        fs::read_to_string(dir.file("killed/repeats.csv")).unwrap(),
        expected
    );
    // Every (SP, repeat) search is in the journal exactly once.
    let mut seen: BTreeMap<(u64, u64), usize> = BTreeMap::new();
    for line in fs::read_to_string(dir.file("killed/journal.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
    {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let key = (v["sp"].as_u64().unwrap(), v["repeat"].as_u64().unwrap_or(0));
        *seen.entry(key).or_default() += 1;
    }
    assert_eq!(seen.len(), 120);
    assert!(seen.values().all(|n| *n == 1));
}

#[test]
fn repeats_refuse_what_would_not_replay_or_not_match() {
    let dir = Dir::new();
    let engine = fake_engine();
    let engine = engine.to_str().unwrap();
    let line = dir.bad_input(&[
        "sweep",
        "--engine",
        engine,
        "--depth",
        "3",
        "--repeats",
        "2",
        "--out",
        "d",
    ]);
    assert!(line.contains("--repeats needs a node limit"), "{line}");
    let line = dir.bad_input(&[
        "sweep",
        "--engine",
        engine,
        "--nodes",
        "100",
        "--repeats",
        "0",
        "--out",
        "d",
    ]);
    assert!(
        line.contains("'--repeats <K>': must be a whole number, at least 1"),
        "{line}"
    );
    let line = dir.bad_input(&[
        "sweep",
        "--engine",
        engine,
        "--nodes",
        "100",
        "--repeats",
        "2",
        "--repeat-jitter",
        "1.5",
        "--out",
        "d",
    ]);
    assert!(line.contains("jitter"), "{line}");

    // A journal of two repeats is not resumed as three, nor with another
    // seed: the searches would not be this run's.
    let two = ["--positions", "0-3", "--repeats", "2", "--seed", "1"];
    assert_eq!(run_command(fake_repeats(&dir, "j", &two)).code, 0);
    for other in [
        ["--positions", "0-3", "--repeats", "3", "--seed", "1"],
        ["--positions", "0-3", "--repeats", "2", "--seed", "9"],
    ] {
        let run = run_command(fake_repeats(&dir, "j", &other));
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("settings"), "{}", run.stderr);
    }
}

#[test]
fn stockfish_repeats_measure_their_repeatability_and_feed_the_verdicts() {
    let dir = Dir::new();
    let run = dir.run(&[
        "sweep",
        "--engine",
        "stockfish",
        "--nodes",
        "20000",
        "--positions",
        "0-15",
        "--repeats",
        "4",
        "--seed",
        "3",
        "--jobs",
        "2",
        "--out",
        "sf",
    ]);
    assert_eq!(
        run.code, 0,
        "{}\nStockfish is required for this test: install it with `apt-get install stockfish`",
        run.stderr
    );
    assert!(
        run.stdout.contains("repeatability over 4 repeats"),
        "{}",
        run.stdout
    );
    let m = manifest(&dir.file("sf/manifest.json"));
    let r = &m["repeatability"];
    let (half, whole) = (
        r["split_half"].as_f64().unwrap(),
        r["all_repeats"].as_f64().unwrap(),
    );
    // Spearman-Brown from halves to the whole.
    assert!((whole - 2.0 * half / (1.0 + half)).abs() < 1e-9);
    assert_eq!(r["positions"], 16);
    assert_eq!(r["repeats"], 4);

    // Real searches at different budgets disagree: the noise is measured.
    let positions = read(&dir.file("sf/sweep.parquet"));
    let sds = f64s(&positions, "score_cp_sd");
    assert!(
        sds.iter().filter(|s| s.unwrap() > 0.0).count() >= 8,
        "{sds:?}"
    );
    let expected = f64s(&positions, "white_expected_mean");
    assert!(expected.iter().all(|e| (0.0..=1.0).contains(&e.unwrap())));

    // The verdicts read every search, not one per position.
    let out = dir.ok(&["balance", "--sweep", "sf", "--out", "b"]);
    assert!(!out.is_empty());
    let summary = manifest(&dir.file("b/balance.json"));
    let engines = summary["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 1);
    assert_eq!(engines[0]["repeats"], 4, "{summary}");
    let balance = fs::read_to_string(dir.file("b/balance.csv")).unwrap();
    assert_eq!(balance.lines().count(), 17);
}

#[test]
fn the_report_ranks_a_sweep_with_repeats_by_its_means() {
    let dir = Dir::new();
    let args = ["--positions", "0-9", "--repeats", "3", "--seed", "2"];
    assert_eq!(run_command(fake_repeats(&dir, "r", &args)).code, 0);
    let out = dir.ok(&["report", "--sweep", "r", "--out", "site", "--quiet"]);
    assert_eq!(out, "");
    let index = fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert!(
        index.contains("mean cp of 3 searches"),
        "index names the means"
    );
    let table = read(&dir.file("site/positions.parquet"));
    let label = table
        .get_column_names()
        .iter()
        .find_map(|n| {
            n.as_str()
                .strip_suffix("__score_cp_mean")
                .map(str::to_owned)
        })
        .expect("the means join the per-position table");
    let means = f64s(&table, &format!("{label}__score_cp_mean"));
    let repeats = u64s(&table, &format!("{label}__repeats"));
    assert_eq!(means.iter().filter(|m| m.is_some()).count(), 10);
    assert_eq!(
        repeats.iter().flatten().copied().collect::<Vec<_>>(),
        vec![3; 10]
    );
    let page = fs::read_to_string(dir.file("site/positions/0.html")).unwrap();
    assert!(
        page.contains("mean of 3 searches"),
        "the position page says so"
    );
}
