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
    assert!(line.contains("both an input and the output"), "{line}");
}

#[test]
fn merging_one_half_without_the_other_names_the_gap() {
    let dir = Dir::new();
    let mut args = SELFPLAY.to_vec();
    args.extend(["--out", "s0", "--shard", "0/2"]);
    dir.ok(&args);
    let line = dir.bad_input(&["merge", "s0", "--out", "m"]);
    assert!(
        line.contains("4 game(s) of the run are in no input"),
        "{line}"
    );
    let out = dir.ok(&["merge", "s0", "--out", "m", "--allow-missing"]);
    assert!(out.contains("4 game(s) missing"), "{out}");
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
    assert!(summary.contains("merged 8 game(s)"), "{summary}");
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
        out.starts_with("restored 8 game(s) of c960 builtin") && out.contains("4 position(s)"),
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
        ("sp/games.parquet", "sp", "already holds a run"),
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
