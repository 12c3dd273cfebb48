//! `--shard`, `c960 merge` and `c960 slurm` on the command line (without a
//! cluster: the scripts are written, not submitted; see slurm.rs for the
//! cluster).

use crate::util;

use std::fs;

use util::Dir;

const SELFPLAY: [&str; 12] = [
    "selfplay",
    "--engine",
    "builtin",
    "--nodes",
    "200",
    "--positions",
    "0-3",
    "--games-per-position",
    "2",
    "--jobs",
    "1",
    "--quiet",
];

/// A sweep of the same positions into `sw`.
const SWEEP: [&str; 12] = [
    "sweep",
    "--engine",
    "builtin",
    "--nodes",
    "200",
    "--positions",
    "0-3",
    "--jobs",
    "1",
    "--quiet",
    "--out",
    "sw",
];

#[test]
fn a_shard_that_is_not_i_of_n_is_bad_input() {
    let dir = Dir::new();
    for bad in ["2/2", "0/0", "1", "a/3"] {
        let mut args = SELFPLAY.to_vec();
        args.extend(["--out", "x", "--shard", bad]);
        let line = dir.bad_input(&args);
        assert!(line.contains("--shard"), "{line}");
    }
    let line = dir.bad_input(&[
        "selfplay",
        "--engine",
        "builtin",
        "--engine-b",
        "builtin",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
        "--shard",
        "0/2",
        "--out",
        "x",
    ]);
    assert!(line.contains("SPRT"), "{line}");
}

#[test]
fn merge_refuses_what_is_not_a_run_and_mixed_kinds() {
    let dir = Dir::new();
    fs::create_dir_all(dir.file("empty")).unwrap();
    let line = dir.bad_input(&["merge", "empty", "--out", "m"]);
    assert!(line.contains("not a c960 run directory"), "{line}");
    let mut args = SELFPLAY.to_vec();
    args.extend(["--out", "sp"]);
    dir.ok(&args);
    dir.ok(&SWEEP);
    let line = dir.bad_input(&["merge", "sp", "sw", "--out", "m"]);
    assert!(
        line.contains("cannot merge sw (sweep) with sp (self-play)"),
        "{line}"
    );
    let line = dir.bad_input(&["merge", "sp", "--out", "sp"]);
    assert!(line.contains("--out sp is also the input sp"), "{line}");
    // Nor into a directory inside an input.
    let line = dir.bad_input(&["merge", "sp", "--out", "sp/inner"]);
    assert!(
        line.contains("--out sp/inner lies inside the input sp"),
        "{line}"
    );
    assert!(!dir.file("sp/inner").exists());
}

#[test]
fn merging_one_half_without_the_other_names_the_gap() {
    let dir = Dir::new();
    let mut args = SELFPLAY.to_vec();
    args.extend(["--out", "s0", "--shard", "0/2"]);
    dir.ok(&args);
    let line = dir.bad_input(&["merge", "s0", "--out", "m"]);
    assert!(line.contains("no input holds 4 games of the run"), "{line}");
    let out = dir.ok(&["merge", "s0", "--out", "m", "--allow-missing"]);
    assert!(out.contains("4 games missing"), "{out}");
}

/// `c960 run --shard` plays its part of the sweep and the self-play and
/// stops before the report; the merge of the shards builds it, with the
/// unsharded run's games.
#[test]
fn run_shards_merge_into_the_unsharded_run() {
    let dir = Dir::new();
    let run = |out: &str, shard: Option<&str>| {
        let mut args = vec![
            "run",
            "--engine",
            "builtin",
            "--positions",
            "0-3",
            "--sweep-nodes",
            "300",
            "--games",
            "2",
            "--selfplay-nodes",
            "200",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out,
        ];
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        dir.ok(&args);
    };
    run("r0", Some("0/2"));
    run("r1", Some("1/2"));
    assert!(!dir.file("r0/report").exists(), "a shard built a report");
    let record = fs::read_to_string(dir.file("r1/run.json")).unwrap();
    assert!(record.contains("\"shard\": \"1/2\""), "{record}");
    let summary = dir.ok(&["merge", "r0", "r1", "--out", "merged"]);
    assert!(summary.contains("merged 8 games"), "{summary}");
    assert!(dir.file("merged/report/index.html").is_file());
    run("whole", None);
    for file in [
        "selfplay/games.pgn",
        "selfplay/positions.csv",
        "positions.csv",
    ] {
        assert_eq!(
            fs::read_to_string(dir.file(&format!("whole/{file}"))).unwrap(),
            fs::read_to_string(dir.file(&format!("merged/{file}"))).unwrap(),
            "{file} differs"
        );
    }
}

#[test]
fn slurm_without_submit_writes_the_array_and_merge_scripts() {
    let dir = Dir::new();
    let mut args = vec!["slurm"];
    args.extend(&SELFPLAY[..SELFPLAY.len() - 3]);
    args.extend([
        "--seed",
        "9",
        "--out",
        "runs/sp",
        "--shards",
        "4",
        "--cpus-per-task",
        "2",
        "--partition",
        "short",
        "--time",
        "1:00:00",
    ]);
    let out = dir.ok(&args);
    assert!(out.contains("array 0-3"), "{out}");
    assert!(out.contains("sbatch --dependency=afterany:"), "{out}");
    let root = dir.path().canonicalize().unwrap();
    let shard = fs::read_to_string(dir.file("runs/sp/slurm/shard.sbatch")).unwrap();
    for line in [
        "#SBATCH --array=0-3",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --partition=short",
        "#SBATCH --time=1:00:00",
        "--shard \"$shard/4\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\"",
        " selfplay --engine builtin --nodes 200 --positions 0-3 --games-per-position 2 --seed 9 ",
    ] {
        assert!(shard.contains(line), "no {line:?} in\n{shard}");
    }
    assert!(
        shard.contains(&format!(
            "--out {}/runs/sp/shards/\"$shard\"",
            root.display()
        )),
        "{shard}"
    );
    let merge = fs::read_to_string(dir.file("runs/sp/slurm/merge.sbatch")).unwrap();
    assert!(
        merge.contains("[ -e \"$out/shards/$i/manifest.json\" ]"),
        "{merge}"
    );
    assert!(
        merge.contains("sbatch --parsable --array=\"$list\""),
        "{merge}"
    );
    assert!(
        merge.contains(" merge \"${shards[@]}\" --out \"$out\""),
        "{merge}"
    );
    let line = dir.bad_input(&["slurm", "sweep", "--engine", "builtin", "--shards", "2"]);
    assert!(line.contains("--out"), "{line}");
}

#[test]
fn restore_rebuilds_a_run_from_its_game_table_and_refuses_bad_tables() {
    let dir = Dir::new();
    let mut args = SELFPLAY.to_vec();
    args.extend(["--out", "sp"]);
    dir.ok(&args);
    dir.ok(&SWEEP);
    let out = dir.ok(&["restore", "sp/games.parquet", "--out", "again"]);
    assert!(
        out.starts_with("restored 8 games of c960 builtin") && out.contains("4 positions"),
        "{out}"
    );
    for file in ["positions.parquet", "games.pgn", "manifest.json"] {
        assert!(
            fs::read(dir.file("sp").join(file)).unwrap()
                == fs::read(dir.file("again").join(file)).unwrap(),
            "{file} differs"
        );
    }
    for (table, out, expected) in [
        ("missing.parquet", "a", "cannot open"),
        ("sp/positions.parquet", "b", "not a self-play game table"),
        ("sp/games.parquet", "sp", "never writes over its inputs"),
        (
            "sw/sweep.parquet",
            "c",
            "a sweep table, not a self-play game table",
        ),
    ] {
        let line = dir.bad_input(&["restore", table, "--out", out]);
        assert!(line.contains(expected), "{line}");
    }
    assert!(!dir.file("a").exists() && !dir.file("b").exists() && !dir.file("c").exists());
}

/// Every file under `dir` whose name contains `part`.
fn files_named(dir: &std::path::Path, part: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().contains(part) && !path.is_dir() {
            found.push(path.clone());
        }
        if entry.file_type().unwrap().is_dir() {
            found.extend(files_named(&path, part));
        }
    }
    found
}

/// Runs a generated batch script with bash, as a Slurm task would (with
/// `env`), from `cwd`.
fn bash(script: &std::path::Path, cwd: &std::path::Path, env: &[(&str, &str)]) -> util::Run {
    let mut command = std::process::Command::new("bash");
    command.arg(script).current_dir(cwd);
    for (key, value) in env {
        command.env(key, value);
    }
    util::run_command(command)
}

/// Issue 30 item 11: the scripts of `c960 slurm` run as written for
/// working directories and run directories with spaces, quotes and `$(…)`
/// in their names; nothing in a name is executed.
#[test]
fn slurm_scripts_quote_hostile_names_and_run_as_written() {
    let dir = Dir::new();
    let cwd = dir.file("work 'q\" $(touch pwned-cwd) `touch pwned-tick`");
    fs::create_dir(&cwd).unwrap();
    let out = "sp \"x\" 'y' $(touch pwned-out) %a #z";
    let args = [
        "slurm",
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "200",
        "--positions",
        "0-1",
        "--games-per-position",
        "2",
        "--seed",
        "9",
        "--out",
        out,
        "--shards",
        "2",
    ];
    let mut command = dir.command(&args);
    command.current_dir(&cwd);
    let run = util::run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run_dir = cwd.join(out);
    let shard = fs::read_to_string(run_dir.join("slurm/shard.sbatch")).unwrap();
    for line in shard.lines().filter(|l| l.starts_with("#SBATCH")) {
        assert!(!line.contains(" $("), "unescaped in {line}");
    }
    assert!(shard.contains("shard-%a-%A.out"), "{shard}");
    assert!(
        shard.contains("%%a\\ \\#z/slurm/logs/"),
        "a % of the path is not a pattern: {shard}"
    );
    for i in ["0", "1"] {
        let task = bash(
            &run_dir.join("slurm/shard.sbatch"),
            dir.path(),
            &[("SLURM_ARRAY_TASK_ID", i), ("SLURM_CPUS_PER_TASK", "1")],
        );
        assert_eq!(task.code, 0, "shard {i}: {}", task.stderr);
    }
    let merge = bash(&run_dir.join("slurm/merge.sbatch"), dir.path(), &[]);
    assert_eq!(merge.code, 0, "{}", merge.stderr);
    assert!(run_dir.join("games.pgn").is_file());
    assert_eq!(
        files_named(dir.path(), "pwned"),
        Vec::<std::path::PathBuf>::new()
    );
}

#[test]
fn slurm_refuses_control_characters_odd_slurm_values_and_absurd_shards() {
    let dir = Dir::new();
    let engine = util::fake_engine();
    let base = [
        "slurm",
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "200",
    ];
    for (extra, said) in [
        (
            vec![
                "--out",
                "s",
                "--shards",
                "2",
                "--partition",
                "debug\ntouch /tmp/pwned",
            ],
            "--partition",
        ),
        (
            vec!["--out", "s", "--shards", "2", "--partition", "a b"],
            "--partition",
        ),
        (
            vec!["--out", "s", "--shards", "2", "--time", "1:00; rm -rf x"],
            "--time",
        ),
        (
            vec!["--out", "new\nline", "--shards", "2"],
            "control character",
        ),
        (vec!["--out", "s", "--shards", "4294967295"], "out of range"),
        (
            vec!["--out", "s", "--shards", "2", "--option", "Contempt=1\nx"],
            "control character",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let line = dir.bad_input(&args);
        assert!(line.contains(said), "{line}");
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "something was written"
    );
}

/// A shard whose positions failed exits 1 and is resubmitted by the merge
/// job, not merged as finished.
#[test]
fn a_slurm_shard_that_exits_1_with_failures_is_not_finished() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = Dir::new();
    let engine = util::fake_engine();
    dir.ok(&[
        "slurm",
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "100",
        "--positions",
        "0-3",
        "--retries",
        "0",
        "--out",
        "s",
        "--shards",
        "2",
    ]);
    let script = dir.file("s/slurm/shard.sbatch");
    let env = |i| [("SLURM_ARRAY_TASK_ID", i), ("SLURM_CPUS_PER_TASK", "1")];
    let mut failing = env("0").to_vec();
    failing.push(("C960_FAKE_UCI", "--crash"));
    let task = bash(&script, dir.path(), &failing);
    assert_eq!(task.code, 1, "{}", task.stderr);
    assert!(
        dir.file("s/shards/0/manifest.json").exists(),
        "its failures are listed"
    );
    assert_eq!(bash(&script, dir.path(), &env("1")).code, 0);
    // A stand-in for sbatch records what the merge job submits.
    let bin = dir.file("bin");
    fs::create_dir(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    fs::write(
        &sbatch,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\necho 42\n",
            dir.file("submitted").display()
        ),
    )
    .unwrap();
    fs::set_permissions(&sbatch, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let merge = bash(
        &dir.file("s/slurm/merge.sbatch"),
        dir.path(),
        &[("PATH", &path)],
    );
    assert_eq!(merge.code, 0, "{}", merge.stderr);
    let submitted = fs::read_to_string(dir.file("submitted")).unwrap();
    assert!(submitted.contains("--array=0 "), "{submitted}");
    assert!(
        !dir.file("s/sweep.parquet").exists(),
        "merged with a failed shard"
    );
}
