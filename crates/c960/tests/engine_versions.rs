//! Stockfish from npm chosen by version (`stockfish-npm@17.1`,
//! `stockfish-npm@18`), installed side by side under npm aliases (`sf17`,
//! `sf18`) beside the package `stockfish`: real sweeps whose manifests pin
//! the package, the script inside it, the network and the WDL model without
//! a path of this machine, and the refusals of a version that is not
//! installed and of a network that differs from the run's journal.

use crate::util;

use std::{fs, path::Path};

use sha2::Digest as _;
use util::{Dir, npm_path, run_command};

/// `c960 sweep` of SP 0 and 518 at a low node limit with `engine`, into
/// `out`; its manifest.
fn sweep(dir: &Dir, engine: &str, out: &str) -> serde_json::Value {
    let run = run_command(dir.command_with_npm(&[
        "sweep",
        "--engine",
        engine,
        "--positions",
        "0,518",
        "--nodes",
        "20000",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        out,
    ]));
    assert_eq!(run.code, 0, "{engine}: {}", run.stderr);
    serde_json::from_str(&fs::read_to_string(dir.file(out).join("manifest.json")).unwrap()).unwrap()
}

/// The package directory of the installed `stockfish@VERSION` (an alias
/// such as `sf17`), from `$C960_NODE_MODULES`.
fn package_dir(version: &str) -> std::path::PathBuf {
    std::env::split_paths(&npm_path())
        .flat_map(|dir| fs::read_dir(dir).into_iter().flatten())
        .map(|entry| entry.unwrap().path())
        .find(|dir| {
            fs::read_to_string(dir.join("package.json")).is_ok_and(|text| {
                let json: serde_json::Value = serde_json::from_str(&text).unwrap();
                json["name"] == "stockfish" && json["version"] == version
            })
        })
        .unwrap_or_else(|| {
            panic!(
                "stockfish@{version} is not installed beside Stockfish 19: `npm install \
                 sf17@npm:stockfish@17.1.0 sf18@npm:stockfish@18.0.8` in a node_modules named \
                 by C960_NODE_MODULES"
            )
        })
}

/// Every string in `value`, keys and values.
fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                out.push(key.clone());
                strings(v, out);
            }
        }
        _ => {}
    }
}

/// Checks what a manifest pins of a Stockfish from npm: its name, package,
/// script, network (names, files, and their SHA-256 computed here from the
/// installed files), WDL, and that no string names a path of this machine.
fn check_pinned(
    manifest: &serde_json::Value,
    (name, version, script): (&str, &str, &str),
    network: &str,
) {
    let engine = &manifest["engine"];
    assert!(
        engine["name"].as_str().unwrap().starts_with(name),
        "{engine}"
    );
    assert_eq!(
        engine["package"],
        format!("stockfish@{version}"),
        "{engine}"
    );
    assert_eq!(engine["script"], script, "{engine}");
    assert!(engine.get("args").is_none(), "{engine}");
    let names = engine["network"]["names"].as_array().unwrap();
    assert_eq!(names[0], network, "{engine}");
    let files: Vec<&str> = engine["network"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        !files.is_empty()
            && files
                .iter()
                .all(|f| Path::new(f).extension().is_some_and(|e| e == "wasm"))
    );
    let package = package_dir(version);
    let mut hasher = sha2::Sha256::new();
    for file in &files {
        hasher.update(fs::read(package.join(file)).unwrap());
    }
    let sha = hasher
        .finalize()
        .iter()
        .fold(String::new(), |hex, b| hex + &format!("{b:02x}"));
    assert_eq!(engine["network"]["sha256"], sha, "{engine}");
    assert_eq!(engine["wdl"]["reported"], true, "{engine}");
    assert!(
        engine["wdl"]["model"]
            .as_str()
            .unwrap()
            .contains("UCI_ShowWDL"),
        "{engine}"
    );
    let mut all = Vec::new();
    strings(manifest, &mut all);
    for text in all {
        assert!(
            !text.starts_with('/') && !text.contains("node_modules") && !text.contains("/root"),
            "a path of this machine in the manifest: {text}"
        );
    }
}

#[test]
fn engine_choice_by_version_sweeps_with_stockfish_17_1_and_18() {
    let dir = Dir::new();
    let sf17 = sweep(&dir, "stockfish-npm@17.1", "sf17");
    check_pinned(
        &sf17,
        (
            "Stockfish 17.1",
            "17.1.0",
            "src/stockfish-17.1-single-a496a04.js",
        ),
        "nn-1c0000000000.nnue",
    );
    assert_eq!(
        sf17["engine"]["network"]["files"].as_array().unwrap().len(),
        6,
        "the network in six parts"
    );
    let sf18 = sweep(&dir, "stockfish-npm@18", "sf18");
    check_pinned(
        &sf18,
        ("Stockfish 18", "18.0.8", "bin/stockfish-18-single.js"),
        "nn-c288c895ea92.nnue",
    );
    // The rows carry the WDL the manifest says is reported.
    let csv = fs::read_to_string(dir.file("sf18/sweep.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let win = header.iter().position(|h| *h == "wdl_win").unwrap();
    for row in csv.lines().skip(1) {
        assert!(!row.split(',').nth(win).unwrap().is_empty(), "{row}");
    }
    // The lite build of 17.1 is its own script; without a version the
    // package `stockfish` (19) is found first, as before.
    let lite = sweep(&dir, "stockfish-npm-lite@17.1", "lite17");
    assert_eq!(
        lite["engine"]["script"],
        "src/stockfish-17.1-lite-single-03e3232.js"
    );
    let plain = sweep(&dir, "stockfish-npm", "plain");
    assert_eq!(plain["engine"]["package"], "stockfish@19.0.0");
    assert_eq!(plain["engine"]["script"], "bin/stockfish-19-single.js");
}

#[test]
fn engine_version_not_installed_is_refused_naming_what_to_install() {
    let dir = Dir::new();
    let refused = |args: &[&str]| {
        let run = run_command(dir.command_with_npm(args));
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{:?}", run.stderr);
        run.stderr
    };
    let sweep = refused(&[
        "sweep",
        "--engine",
        "stockfish-npm@17.2",
        "--positions",
        "518",
        "--nodes",
        "1000",
        "--out",
        "s",
    ]);
    assert!(
        sweep.contains("stockfish-npm@17.2: no stockfish 17.2 package in C960_NODE_MODULES (")
            && sweep.contains("install it with `npm install sf17@npm:stockfish@17.2` in that"),
        "{sweep}"
    );
    assert!(!dir.file("s").exists(), "nothing written");
    fs::write(
        dir.file("raters.toml"),
        "positions = \"0-3\"\n[selfplay]\ngames = 0\n[[raters]]\nname = \"old\"\n\
         engine = \"stockfish-npm@15\"\nnodes = 1000\n",
    )
    .unwrap();
    let run = refused(&["run", "--config", "raters.toml", "--out", "r", "--quiet"]);
    assert!(
        run.contains("stockfish-npm@15: no stockfish 15 package")
            && run.contains("npm install sf15@npm:stockfish@15"),
        "{run}"
    );
    assert!(!dir.file("r").exists(), "nothing written");
    let slurm = refused(&[
        "slurm",
        "sweep",
        "--engine",
        "stockfish-npm-lite@18.1",
        "--positions",
        "0-9",
        "--nodes",
        "1000",
        "--out",
        "cluster",
        "--shards",
        "2",
    ]);
    assert!(
        slurm.contains("stockfish-npm-lite@18.1: no stockfish 18.1 package"),
        "{slurm}"
    );
    assert!(!dir.file("cluster").exists(), "nothing written");
}

/// `line` (a journal line) with `from` replaced by `to` and its checksum
/// made anew, as the journal writes it.
fn resealed(line: &str, from: &str, to: &str) -> String {
    let body = line
        .split(",\"c960_sum\":")
        .next()
        .unwrap()
        .replace(from, to)
        + "}";
    let sum = sha2::Sha256::digest(body.as_bytes())[..8]
        .iter()
        .fold(String::new(), |hex, b| hex + &format!("{b:02x}"));
    format!("{},\"c960_sum\":\"{sum}\"}}", &body[..body.len() - 1])
}

#[test]
fn a_network_that_differs_from_the_journal_is_refused_on_resume() {
    let dir = Dir::new();
    let manifest = sweep(&dir, "stockfish-npm@18", "run");
    let installed = manifest["engine"]["network"]["sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    // The run was made with network X; the package installed now carries Y.
    let journal = dir.file("run/journal.jsonl");
    let text = fs::read_to_string(&journal).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let other = "0".repeat(64);
    fs::write(
        &journal,
        format!("{}\n{rest}", resealed(header, &installed, &other)),
    )
    .unwrap();
    let before = fs::read(dir.file("run/sweep.parquet")).unwrap();
    let run = run_command(dir.command_with_npm(&[
        "sweep",
        "--engine",
        "stockfish-npm@18",
        "--positions",
        "0,518",
        "--nodes",
        "20000",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "run",
    ]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{:?}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "engine_network.sha256: \"{other}\" there, \"{installed}\" now"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read(dir.file("run/sweep.parquet")).unwrap(),
        before,
        "the run's table is left as it was"
    );
    assert!(Path::new(&journal).is_file());
}
