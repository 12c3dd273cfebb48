//! `c960 sweep --variant dfrc`: Double Fischer Random setups swept like
//! Chess960 positions, named by their DFRC index, sharded and merged into
//! the table one run writes, and searched by a real engine exactly as the
//! Chess960 position on the symmetric diagonal.

use crate::util;

use std::{fs, path::Path};

use polars::prelude::*;
use util::{Dir, read_parquet as read, u32_column as u32s};

fn strings(frame: &DataFrame, name: &str) -> Vec<String> {
    let c = frame.column(name).unwrap().str().unwrap();
    (0..c.len()).map(|i| c.get(i).unwrap().to_owned()).collect()
}

fn manifest(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The table without its engine clock, for comparing runs.
fn without_time(path: &Path) -> DataFrame {
    read(path).drop("time_ms").unwrap()
}

const BUILTIN: [&str; 6] = [
    "--engine", "builtin", "--nodes", "1500", "--quiet", "--jobs",
];

#[test]
fn a_dfrc_sample_is_named_by_index_with_each_sides_rank() {
    let dir = Dir::new();
    let mut args = vec!["sweep", "--variant", "dfrc", "--positions", "sample:40:7"];
    args.extend(BUILTIN);
    args.extend(["2", "--repeats", "2", "--out", "run"]);
    dir.ok(&args);

    let table = read(&dir.file("run/sweep.parquet"));
    assert_eq!(table.height(), 40);
    let names: Vec<&str> = table
        .get_column_names()
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(
        &names[..4],
        ["setup", "white_sp", "black_sp", "placement"],
        "{names:?}"
    );
    assert!(!names.contains(&"sp"), "{names:?}");
    let setups = u32s(&table, "setup");
    let expected: Vec<u32> = c960_core::stratified_sample(40, 7)
        .into_iter()
        .map(c960_core::DfrcSetup::index)
        .collect();
    assert_eq!(setups, expected);
    let (white, black) = (u32s(&table, "white_sp"), u32s(&table, "black_sp"));
    let placements = strings(&table, "placement");
    for (k, n) in setups.iter().enumerate() {
        assert_eq!((white[k], black[k]), (n % 960, n / 960));
        let setup = c960_core::DfrcSetup::new(*n).unwrap();
        assert_eq!(placements[k], setup.placement());
    }
    // Every White SP of a 40-setup sample is distinct (the sample is
    // stratified), and most setups are asymmetric.
    assert!(white.iter().zip(&black).filter(|(w, b)| w != b).count() >= 39);

    let searches = read(&dir.file("run/repeats.parquet"));
    assert_eq!(searches.height(), 80);
    let names: Vec<&str> = searches
        .get_column_names()
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(
        &names[..6],
        [
            "setup",
            "repeat",
            "node_budget",
            "white_sp",
            "black_sp",
            "placement"
        ]
    );

    let m = manifest(&dir.file("run/manifest.json"));
    assert_eq!(m["variant"], "dfrc");
    assert_eq!(m["positions"], "sample:40:7");
    assert_eq!(m["rows"], 40);
    assert_eq!(m["repeatability"]["positions"], 40);
    // The journal is labelled with the variant: a Chess960 sweep cannot
    // resume it.
    let run = dir.run(&[
        "sweep",
        "--positions",
        "0-9",
        "--engine",
        "builtin",
        "--nodes",
        "1500",
        "--repeats",
        "2",
        "--quiet",
        "--out",
        "run",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("settings"), "{}", run.stderr);
}

#[test]
fn dfrc_shards_merge_into_the_unsharded_table() {
    let dir = Dir::new();
    let set = "0-5,921590-921599,497798-497830";
    let sweep = |out: &str, shard: Option<&str>| {
        let mut args = vec!["sweep", "--variant", "dfrc", "--positions", set];
        args.extend(BUILTIN);
        args.extend(["1", "--repeats", "2", "--seed", "4", "--out", out]);
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        dir.ok(&args);
    };
    sweep("whole", None);
    // Shards finish in any order; one setup's repeats land in different
    // shards.
    for shard in ["2/3", "0/3", "1/3"] {
        sweep(&format!("s{}", &shard[..1]), Some(shard));
    }
    dir.ok(&["merge", "s1", "s0", "s2", "--out", "merged", "--quiet"]);
    for table in ["sweep.parquet", "repeats.parquet"] {
        let whole = without_time(&dir.file(&format!("whole/{table}")));
        let merged = without_time(&dir.file(&format!("merged/{table}")));
        assert_eq!(
            whole.height(),
            if table == "sweep.parquet" { 49 } else { 98 }
        );
        assert!(whole.equals_missing(&merged), "{table} differs");
    }
    let m = manifest(&dir.file("merged/manifest.json"));
    assert_eq!(m["variant"], "dfrc");
    assert_eq!(m["positions"], set);

    // A missing shard is named by its setups.
    let out = dir.bad_input(&["merge", "s0", "s1", "--out", "partial"]);
    assert!(out.contains("setup "), "{out}");
}

#[test]
fn bad_dfrc_sets_are_one_line_errors() {
    let dir = Dir::new();
    for (set, says) in [
        ("921600", "out of range"),
        ("sample:0:1", "sample:0:1"),
        ("white:960", "960 is out of range"),
    ] {
        let mut args = vec!["sweep", "--variant", "dfrc", "--positions", set];
        args.extend(BUILTIN);
        args.extend(["1", "--out", "bad"]);
        let err = dir.bad_input(&args);
        assert!(err.contains(says), "{set}: {err}");
    }
    assert!(!dir.file("bad/journal.jsonl").exists());
}

#[test]
fn stockfish_searches_the_symmetric_setup_as_the_chess960_position() {
    let dir = Dir::new();
    let limit = ["--engine", "stockfish", "--nodes", "30000", "--quiet"];
    let mut args = vec![
        "sweep",
        "--variant",
        "dfrc",
        "--positions",
        "497798,500000,0,921599",
        "--out",
        "dfrc",
    ];
    args.extend(limit);
    let run = dir.run(&args);
    assert_eq!(
        run.code, 0,
        "{}\nStockfish is required for this test: install it with `apt-get install stockfish`",
        run.stderr
    );
    let mut args = vec!["sweep", "--positions", "518", "--out", "c960"];
    args.extend(limit);
    dir.ok(&args);

    let dfrc = read(&dir.file("dfrc/sweep.parquet"));
    let chess960 = read(&dir.file("c960/sweep.parquet"));
    assert_eq!(u32s(&dfrc, "setup"), [0, 497_798, 500_000, 921_599]);
    // 497798 = 518 × 961: the classical position, searched from the same
    // FEN with a cleared hash, gives the same search.
    let at = 1;
    for column in ["score_cp", "depth", "nodes", "wdl_win", "wdl_draw"] {
        let a = dfrc.column(column).unwrap().get(at).unwrap().into_static();
        let b = chess960
            .column(column)
            .unwrap()
            .get(0)
            .unwrap()
            .into_static();
        assert_eq!(a, b, "{column}");
    }
    assert_eq!(
        strings(&dfrc, "best_move_uci")[at],
        strings(&chess960, "best_move_uci")[0]
    );
    // Asymmetric setups: Black's rank is its own (500000 = White SP 800,
    // Black SP 520).
    assert_eq!(u32s(&dfrc, "white_sp")[2], 800);
    assert_eq!(u32s(&dfrc, "black_sp")[2], 520);
    let m = manifest(&dir.file("dfrc/manifest.json"));
    assert_eq!(
        m["engine"]["name"].as_str().unwrap().split(' ').next(),
        Some("Stockfish")
    );
    // Running again reads every row back from the journal, checking each
    // best move and line legal in its own setup.
    let out = dir.ok(&[
        "sweep",
        "--variant",
        "dfrc",
        "--positions",
        "497798,500000,0,921599",
        "--out",
        "dfrc",
        "--engine",
        "stockfish",
        "--nodes",
        "30000",
    ]);
    assert!(
        out.contains("4 positions evaluated (4 from the journal)"),
        "{out}"
    );
}
