//! Nothing lost, mixed or invented where c960 writes (issue 30): a report
//! never deletes files it did not write, a merge never replaces another
//! run, a lock file never follows a link, a merge says what it cannot
//! merge and keeps every shard in its provenance. Each test is named after
//! its defect and fails without the fix.

use crate::util;

use std::{fs, os::unix::fs::symlink};

use util::Dir;

/// `command` with the flags of `defaults` that `extra` does not give, then
/// `extra`.
fn with_defaults<'a>(
    command: &[&'a str],
    defaults: &[(&'a str, &'a str)],
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = command.to_vec();
    for (flag, value) in defaults {
        if !extra.contains(flag) {
            args.extend([*flag, *value]);
        }
    }
    args.extend_from_slice(extra);
    args
}

/// `c960 sweep` of SP 0..3 with the built-in engine into `out`.
fn sweep(dir: &Dir, out: &str, extra: &[&str]) -> util::Run {
    let defaults = [("--positions", "0-3"), ("--nodes", "300")];
    let command = [
        "sweep", "--engine", "builtin", "--jobs", "1", "--quiet", "--out", out,
    ];
    dir.run(&with_defaults(&command, &defaults, extra))
}

#[test]
fn report_out_never_deletes_files_it_did_not_write() {
    let dir = Dir::new();
    for (file, text) in [
        ("d/.git/HEAD", "x"),
        ("d/.env", "y"),
        ("d/positions/notes.txt", "z"),
        ("e/.notes", "n"),
        ("f/charts/mine.txt", "c"),
    ] {
        let path = dir.file(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
    }
    for (out, kept) in [
        ("d", ".git"),
        ("d", ".env"),
        ("e", ".notes"),
        ("f", "charts/mine.txt"),
    ] {
        let line = dir.bad_input(&["report", "--out", out, "--quiet"]);
        assert!(line.contains("which c960 report did not write"), "{line}");
        assert!(
            dir.file(out).join(kept).exists(),
            "{out}/{kept} was deleted"
        );
    }
    assert_eq!(fs::read_to_string(dir.file("d/.git/HEAD")).unwrap(), "x");
    assert_eq!(
        fs::read_to_string(dir.file("d/positions/notes.txt")).unwrap(),
        "z"
    );
    // A report replaces a report.
    dir.ok(&["report", "--out", "site", "--quiet"]);
    dir.ok(&["report", "--out", "site", "--quiet"]);
}

#[test]
fn lock_files_never_follow_a_symbolic_link() {
    let dir = Dir::new();
    fs::write(dir.file("v.txt"), "precious").unwrap();
    fs::create_dir(dir.file("d")).unwrap();
    symlink("../v.txt", dir.file("d/.c960.lock")).unwrap();
    let run = sweep(&dir, "d", &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    symlink("v.txt", dir.file(".site.lock")).unwrap();
    let line = dir.bad_input(&["report", "--out", "site", "--quiet"]);
    assert!(line.contains("symbolic link"), "{line}");
    assert_eq!(fs::read_to_string(dir.file("v.txt")).unwrap(), "precious");
    assert!(!dir.file("site").exists());
}

/// `c960 selfplay` of SP 0..1 with the built-in engine into `out`.
fn selfplay(dir: &Dir, out: &str, extra: &[&str]) {
    let defaults = [
        ("--positions", "0-1"),
        ("--games-per-position", "2"),
        ("--nodes", "200"),
        ("--max-plies", "16"),
    ];
    let command = [
        "selfplay", "--engine", "builtin", "--jobs", "1", "--quiet", "--out", out,
    ];
    dir.ok(&with_defaults(&command, &defaults, extra));
}

#[test]
fn merge_out_never_replaces_a_run_of_other_settings() {
    let dir = Dir::new();
    selfplay(&dir, "run", &["--seed", "1"]);
    for i in 0..2 {
        let (out, shard) = (format!("s{i}"), format!("{i}/2"));
        selfplay(&dir, &out, &["--seed", "2", "--shard", &shard]);
    }
    let journal = fs::read_to_string(dir.file("run/journal.jsonl")).unwrap();
    let line = dir.bad_input(&["merge", "s0", "s1", "--out", "run", "--quiet"]);
    assert!(
        line.contains("already holds a run of other settings"),
        "{line}"
    );
    assert!(line.contains("seed"), "{line}");
    assert_eq!(
        fs::read_to_string(dir.file("run/journal.jsonl")).unwrap(),
        journal
    );
    // A run of the same settings with games the shards lack is kept too.
    selfplay(&dir, "more", &["--seed", "2", "--games-per-position", "4"]);
    let line = dir.bad_input(&["merge", "s0", "s1", "--out", "more", "--quiet"]);
    assert!(line.contains("that no input has"), "{line}");
    // Merging again into the merged run replaces it with the same run.
    dir.ok(&["merge", "s0", "s1", "--out", "merged", "--quiet"]);
    dir.ok(&["merge", "s0", "s1", "--out", "merged", "--quiet"]);

    // A sweep's merge never lands beside another sweep's repeats.
    assert_eq!(
        sweep(&dir, "rep", &["--positions", "20-23", "--repeats", "2"]).code,
        0
    );
    for i in 0..2 {
        let (out, shard) = (format!("w{i}"), format!("{i}/2"));
        assert_eq!(sweep(&dir, &out, &["--shard", &shard]).code, 0);
    }
    let line = dir.bad_input(&["merge", "w0", "w1", "--out", "rep", "--quiet"]);
    assert!(
        line.contains("already holds a run of other settings"),
        "{line}"
    );
    assert!(dir.file("rep/repeats.parquet").exists());
    let table = fs::read_to_string(dir.file("rep/sweep.csv")).unwrap();
    assert!(table.lines().nth(1).unwrap().starts_with("20,"), "{table}");
}

#[test]
fn merge_refuses_games_of_unfinished_shards_outside_the_run() {
    let dir = Dir::new();
    selfplay(&dir, "s0", &["--shard", "0/2"]);
    selfplay(&dir, "s1", &["--shard", "1/2", "--positions", "0-3"]);
    // s1 has not finished (as if killed before its outputs).
    fs::remove_file(dir.file("s1/manifest.json")).unwrap();
    let line = dir.bad_input(&["merge", "s0", "s1", "--out", "m", "--quiet"]);
    assert!(line.contains("s1 holds"), "{line}");
    assert!(line.contains("outside the run"), "{line}");
    assert!(!dir.file("m/journal.jsonl").exists());
}

#[test]
fn merged_provenance_keeps_every_shard() {
    let dir = Dir::new();
    for i in 0..3 {
        let (out, shard) = (format!("s{i}"), format!("{i}/3"));
        selfplay(&dir, &out, &["--shard", &shard]);
    }
    dir.ok(&[
        "merge",
        "s0",
        "s2",
        "--out",
        "m",
        "--allow-missing",
        "--quiet",
    ]);
    dir.ok(&["merge", "m", "s1", "--out", "all", "--quiet"]);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("all/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["shards"], serde_json::json!(["0/3", "1/3", "2/3"]));
}

#[test]
fn a_run_whose_manifest_predates_processes_merges_like_the_published_v1_run() {
    let dir = Dir::new();
    selfplay(&dir, "v1", &["--shared-process"]);
    let path = dir.file("v1/manifest.json");
    let manifest = fs::read_to_string(&path).unwrap();
    let old: String = manifest
        .lines()
        .filter(|l| !l.trim_start().starts_with("\"processes\""))
        .fold(String::new(), |text, l| text + l + "\n");
    assert_ne!(old, manifest);
    fs::write(&path, old).unwrap();
    dir.ok(&["merge", "v1", "--out", "m", "--quiet"]);
    let merged = fs::read_to_string(dir.file("m/manifest.json")).unwrap();
    assert!(merged.contains("one shared by both sides"), "{merged}");
}

/// Issue 30 item 15: a sweep of nothing (a shard without searches) was
/// written as a table without rows, which `c960 balance` turned into a
/// `balance.csv` of headers with exit 0; it is refused where it is made.
#[test]
fn a_sweep_of_nothing_is_refused_not_written_as_an_empty_table() {
    let dir = Dir::new();
    let run = sweep(&dir, "empty", &["--positions", "0", "--shard", "1/2"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("holds no search of this sweep, which has 1 search: use at most 1 shard"),
        "{}",
        run.stderr
    );
    assert!(
        !dir.file("empty").exists(),
        "a refused sweep wrote its directory"
    );
    let line = dir.bad_input(&[
        "slurm",
        "sweep",
        "--engine",
        "builtin",
        "--positions",
        "0-3",
        "--out",
        "s",
        "--shards",
        "5",
    ]);
    assert!(line.contains("more than the run's 4 searches:"), "{line}");
}

/// Issue 30 item 8: adaptive and uniform self-play never mix in one
/// directory, an adaptive run's rounds are decided over the positions it
/// began with, and its budget cannot drop below the games its rounds gave.
#[test]
fn adaptive_and_uniform_self_play_never_mix_and_rounds_keep_their_settings() {
    let dir = Dir::new();
    let adaptive = [
        "--games-per-position",
        "2",
        "--round-games",
        "2",
        "--target-halfwidth",
        "0.01",
    ];
    let with = |extra: &[&'static str]| {
        let mut args = adaptive.to_vec();
        args.extend_from_slice(extra);
        args
    };
    let refused = |out: &str, args: Vec<&str>| {
        let defaults = [
            ("--positions", "0-3"),
            ("--nodes", "200"),
            ("--max-plies", "16"),
        ];
        let command = [
            "selfplay", "--engine", "builtin", "--jobs", "1", "--quiet", "--out", out,
        ];
        dir.bad_input(&with_defaults(&command, &defaults, &args))
    };
    selfplay(
        &dir,
        "u",
        &["--positions", "0-3", "--games-per-position", "3"],
    );
    let line = refused("u", with(&["--budget", "20"]));
    assert!(line.contains("12 games of uniform self-play"), "{line}");

    selfplay(&dir, "a", &with(&["--positions", "0-3", "--budget", "12"]));
    let rounds = fs::read_to_string(dir.file("a/rounds.jsonl")).unwrap();
    assert!(
        rounds
            .lines()
            .next()
            .unwrap()
            .contains("\"positions\":\"0-3\""),
        "{rounds}"
    );
    let line = refused("a", vec!["--games-per-position", "2"]);
    assert!(line.contains("holds an adaptive run"), "{line}");
    let line = refused("a", with(&["--positions", "0-4", "--budget", "12"]));
    assert!(
        line.contains("other settings") && line.contains("positions"),
        "{line}"
    );
    let line = refused("a", with(&["--budget", "10"]));
    assert!(line.contains("--budget 10 is below the 12 games"), "{line}");
    // The same settings, or a higher budget, resume it.
    selfplay(&dir, "a", &with(&["--positions", "0-3", "--budget", "14"]));
}

/// Issue 30 acceptance: a run directory with a hostile name never reaches
/// the report's pages as markup, and its JSON stays JSON.
#[test]
fn hostile_run_names_reach_the_report_pages_escaped() {
    let dir = Dir::new();
    let name = "sw <b>x<i> \"q\" 's' $(touch pwned) &amp; `touch pwned2`";
    assert_eq!(sweep(&dir, name, &["--positions", "0-1"]).code, 0);
    dir.ok(&["report", "--sweep", name, "--out", "site", "--quiet"]);
    let mut pages = vec![dir.file("site/index.html"), dir.file("site/fair.html")];
    pages.push(dir.file("site/positions/0.html"));
    // The name is in the JSON beside the pages, as a JSON string.
    let balance = fs::read_to_string(dir.file("site/balance.json")).unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&balance).unwrap();
    assert!(parsed.to_string().contains("$(touch pwned)"), "{balance}");
    for page in pages {
        let html = fs::read_to_string(&page).unwrap();
        assert!(!html.contains("<b>x<i>"), "{}", page.display());
    }
    assert!(!dir.file("pwned").exists() && !dir.file("pwned2").exists());
}
