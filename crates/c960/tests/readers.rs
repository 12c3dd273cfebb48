//! What users read: `c960 report` over published rater tables, the run
//! summary's consensus, q-values, engine lines, counts in words, and
//! refusals of missing inputs.

use crate::util;

use std::{fs, path::PathBuf};

use util::Dir;

/// A file of the published datasets.
fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

#[test]
fn report_sweep_file_parquet_reads_a_published_rater_table() {
    // A rater as datasets publish it: its table and manifest side by side.
    let dir = Dir::new();
    fs::create_dir_all(dir.file("published")).unwrap();
    fs::create_dir_all(dir.file("run")).unwrap();
    for (from, published, run) in [
        (
            "research-v3/stockfish-4m-sweep.parquet",
            "published/stockfish-4m-sweep.parquet",
            "run/sweep.parquet",
        ),
        (
            "research-v3/stockfish-4m-manifest.json",
            "published/stockfish-4m-manifest.json",
            "run/manifest.json",
        ),
    ] {
        fs::copy(data(from), dir.file(published)).unwrap();
        fs::copy(data(from), dir.file(run)).unwrap();
    }
    dir.ok(&[
        "report",
        "--sweep",
        "published/stockfish-4m-sweep.parquet",
        "--out",
        "from-file",
        "--quiet",
    ]);
    // The table given alone reads as its run directory does, and its
    // directory is read as it is (no lock file left in it).
    dir.ok(&["report", "--sweep", "run", "--out", "from-dir", "--quiet"]);
    for table in ["positions.csv", "balance.csv"] {
        assert!(
            fs::read(dir.file(&format!("from-file/{table}"))).unwrap()
                == fs::read(dir.file(&format!("from-dir/{table}"))).unwrap(),
            "{table}"
        );
    }
    assert!(!dir.file("published/.c960.lock").exists());
    // Without its manifest the table is refused in one line naming it.
    fs::remove_file(dir.file("published/stockfish-4m-manifest.json")).unwrap();
    let line = dir.bad_input(&[
        "report",
        "--sweep",
        "published/stockfish-4m-sweep.parquet",
        "--out",
        "x",
    ]);
    assert!(
        line.contains("published/stockfish-4m-manifest.json cannot be read"),
        "{line}"
    );
    // A self-play run is several tables: it is given as its directory.
    fs::write(
        dir.file("published/games-manifest.json"),
        r#"{"kind":"selfplay","engines":[{"name":"A"},{"name":"B"}],"limit":"nodes 5"}"#,
    )
    .unwrap();
    fs::copy(
        dir.file("published/stockfish-4m-sweep.parquet"),
        dir.file("published/games.parquet"),
    )
    .unwrap();
    let line = dir.bad_input(&[
        "report",
        "--selfplay",
        "published/games.parquet",
        "--out",
        "x",
    ]);
    assert!(line.contains("give its run directory"), "{line}");
}

#[test]
fn with_several_raters_the_run_summary_ranks_by_the_consensus() {
    let dir = Dir::new();
    fs::write(
        dir.file("raters.toml"),
        "positions = \"0-11\"\n[selfplay]\ngames = 0\n\
         [[raters]]\nname = \"small\"\nengine = \"builtin\"\nnodes = 2000\n\
         [[raters]]\nname = \"large\"\nengine = \"builtin\"\nnodes = 8000\n\
         [[raters]]\nname = \"wide\"\nengine = \"builtin\"\nnodes = 4000\nmultipv = 2\n",
    )
    .unwrap();
    let run = dir.run(&["run", "--config", "raters.toml", "--out", "r"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.stdout;
    assert!(
        out.contains(
            "most balanced by the consensus of 3 raters (smallest |estimate|; 95% interval)"
        ),
        "{out}"
    );
    // Each listed position with balance.csv's estimate and interval.
    let csv = fs::read_to_string(dir.file("r/report/balance.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (sp, estimate, low, high) = (
        at("sp"),
        at(c960_store::columns::balance::ESTIMATE),
        at(c960_store::columns::balance::LOW),
        at(c960_store::columns::balance::HIGH),
    );
    let listed: Vec<&str> = out.lines().filter(|l| l.starts_with("  SP ")).collect();
    assert_eq!(listed.len(), 10, "{out}");
    let mut checked = 0;
    for row in lines {
        let cells: Vec<&str> = row.split(',').collect();
        let number = |i: usize| cells[i].parse::<f64>().unwrap();
        let wanted = format!(
            "{:+6.1} cp [{:+.1}, {:+.1}]",
            number(estimate),
            number(low),
            number(high)
        );
        let label = format!("  SP {:>3}  ", cells[sp]);
        if let Some(shown) = listed.iter().find(|l| l.starts_with(&label)) {
            assert!(shown.ends_with(&wanted), "{shown} is not {wanted}");
            checked += 1;
        }
    }
    assert_eq!(checked, 10, "{out}");
}

#[test]
fn exit_codes_a_missing_balance_file_is_bad_input() {
    let dir = Dir::new();
    fs::create_dir_all(dir.file("empty")).unwrap();
    for (command, extra) in [
        ("draw", &["--seed", "1"][..]),
        (
            "tournament",
            &["--seed", "1", "--rounds", "2", "--out", "kit"][..],
        ),
    ] {
        for (given, named) in [
            ("no-such.csv", "cannot read no-such.csv"),
            ("empty", "cannot read empty/balance.csv"),
        ] {
            let mut args = vec![command, "--verdict", "balanced", "--balance", given];
            args.extend(extra);
            let line = dir.bad_input(&args);
            assert!(
                line.contains("--balance") && line.contains(named),
                "{command}: {line}"
            );
        }
    }
    assert!(!dir.file("kit").exists());
}

#[test]
fn docs_organizer_md_names_files_that_exist() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = fs::read_to_string(root.join("docs/organizer.md")).unwrap();
    let named: Vec<&str> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("crates/"))
        .collect();
    assert!(
        named.contains(&"crates/c960-report/lang/kit.toml"),
        "{named:?}"
    );
    for path in named {
        assert!(root.join(path).exists(), "docs/organizer.md names {path}");
    }
}
