//! Stockfish 19 from npm (WebAssembly under Node), for real: found by name,
//! run as a command line, reproducible with one thread and a node limit,
//! and named in every output with its package and runtime.

use crate::util;

use std::fs;

use util::{Dir, npm_modules, run_command};

#[test]
fn a_stockfish_19_sweep_names_its_engine_package_and_runtime() {
    let dir = Dir::new();
    let sweep = |out: &str, engine: &str| {
        let run = run_command(dir.command_with_npm(&[
            "sweep",
            "--engine",
            engine,
            "--positions",
            "0,518,959",
            "--nodes",
            "100000",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out,
        ]));
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str::<serde_json::Value>(
            &fs::read_to_string(dir.file(out).join("manifest.json")).unwrap(),
        )
        .unwrap()
    };
    let named = sweep("named", "stockfish-npm");
    let engine = &named["engine"];
    assert!(
        engine["name"].as_str().unwrap().starts_with("Stockfish 19"),
        "{engine}"
    );
    assert_eq!(engine["package"], "stockfish@19.0.0");
    assert!(
        engine["runtime"].as_str().unwrap().starts_with("node v"),
        "{engine}"
    );
    // The script by its place in the package, not by a path of this
    // machine.
    assert_eq!(engine["script"], "bin/stockfish-19-single.js", "{engine}");
    assert!(engine.get("args").is_none(), "{engine}");
    // The same build as a command line gives the same searches: one
    // thread, a node limit and a cleared hash replay exactly.
    let script = npm_modules().join("stockfish/bin/stockfish-19-single.js");
    let command = format!("node '{}'", script.display());
    let by_command = sweep("command", &command);
    assert_eq!(by_command["engine"]["package"], "stockfish@19.0.0");
    // Each row as (header → cell), without the engine's own clock.
    let table = |out: &str| util::csv_records(&dir.file(out).join("sweep.csv"), &["time_ms"]);
    assert_eq!(table("named"), table("command"));
    let rows = table("named");
    assert_eq!(rows.len(), 3);
    // Every score is a sane opening evaluation for White.
    for row in &rows {
        let cp: i32 = row["score_cp"].parse().unwrap();
        assert!((-100..=150).contains(&cp), "{row:?}");
        assert!(row["engine"].starts_with("Stockfish 19"), "{row:?}");
    }
    // `auto` takes Stockfish 19 when it is installed.
    let auto = run_command(dir.command_with_npm(&[
        "sweep",
        "--positions",
        "518",
        "--nodes",
        "20000",
        "--jobs",
        "1",
        "--out",
        "auto",
    ]));
    assert_eq!(auto.code, 0, "{}", auto.stderr);
    assert!(
        auto.stderr.contains("Stockfish from npm"),
        "{}",
        auto.stderr
    );
}

#[test]
fn a_missing_npm_package_is_named_with_its_install_command() {
    let dir = Dir::new();
    let line = dir.bad_input(&["sweep", "--engine", "stockfish-npm", "--positions", "518"]);
    assert!(line.contains("npm install stockfish@19.0.0"), "{line}");
    assert!(!dir.file("runs").exists(), "nothing written");
}
