//! The Slurm plans in process: the scripts written for hostile paths and
//! what bash and sbatch read of them, the shards planned against the
//! work, the refusals, and the exit book's merge job.

use std::{
    fs,
    num::NonZeroU32,
    path::{Path, PathBuf},
    process::Command,
};

use super::{checks::task_args, quote::sbatch_quote, *};

fn options(shards: u32) -> SlurmOptions {
    SlurmOptions {
        shards: NonZeroU32::new(shards).unwrap(),
        partition: None,
        time: None,
        cpus_per_task: NonZeroU32::new(2).unwrap(),
        submit: false,
        next_round: false,
    }
}

fn argv(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

fn sweep(cwd: &Path, out: &str, shards: u32, searches: u64) -> Request {
    Request {
        work: Work::Sweep { searches },
        out: Some(out.into()),
        slurm: options(shards),
        cwd: cwd.to_owned(),
        exe: cwd.join("bin dir").join("c960"),
        argv: argv(&[
            "c960", "slurm", "sweep", "--engine", "builtin", "--shards", "4", "--out", out,
            "--nodes", "1000",
        ]),
    }
}

fn written(request: Request) -> Written {
    match slurm(request).unwrap() {
        Outcome::Written(written) => written,
        Outcome::Round(round) => panic!("expected scripts, got {round:?}"),
    }
}

fn refused(request: Request) -> String {
    match slurm(request) {
        Err(SlurmError::Input(message)) => message,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// What bash makes of `words` (one argument each, NUL-separated).
fn bash_words(words: &str) -> Vec<String> {
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("printf '%s\\0' {words}"))
        .output()
        .expect("bash runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .split_terminator('\0')
        .map(str::to_owned)
        .collect()
}

const HOSTILE: [&str; 6] = [
    "plain",
    "a b",
    "it's",
    "$(touch x) `y` \"z\"",
    "100% #not a comment",
    "*?[a]~",
];

#[test]
fn bash_reads_every_quoted_word_back_as_it_was() {
    let quoted: Vec<String> = HOSTILE.iter().map(|w| shell_quote(w)).collect();
    assert_eq!(bash_words(&quoted.join(" ")), HOSTILE);
    assert_eq!(shell_quote("--nodes"), "--nodes");
    assert_eq!(shell_quote(""), "''");
}

#[test]
fn sbatch_quoting_escapes_all_but_plain_characters() {
    for word in HOSTILE {
        let quoted = sbatch_quote(word);
        // Unescaped, only letters, digits and -_./%:,+@= remain.
        let mut chars = quoted.chars();
        let mut back = String::new();
        while let Some(c) = chars.next() {
            if c == '\\' {
                back.push(chars.next().expect("an escaped character"));
            } else {
                assert!(
                    c.is_ascii_alphanumeric() || "-_./%:,+@=".contains(c),
                    "{quoted}"
                );
                back.push(c);
            }
        }
        assert_eq!(back, word);
    }
}

#[test]
fn the_scripts_of_a_hostile_run_directory_quote_it_for_each_reader() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("work 'dir'");
    fs::create_dir(&cwd).unwrap();
    let out = "runs/a b$(x)%a #z";
    let w = written(sweep(&cwd, out, 4, 100));
    let run = cwd.join(out);
    assert_eq!(w.out, run);
    assert_eq!(w.shard_script, run.join("slurm/shard.sbatch"));
    assert_eq!(w.name, "c960-a_b__x__a__z");
    assert_eq!((w.command, w.shards, w.cpus_per_task), ("sweep", 4, 2));
    assert!(w.submitted.is_none() && w.round.is_none());
    assert!(run.join("slurm/logs").is_dir() && run.join("shards").is_dir());

    let shard = fs::read_to_string(&w.shard_script).unwrap();
    let lines: Vec<&str> = shard.lines().collect();
    assert_eq!(lines[0], "#!/bin/bash");
    assert!(lines.contains(&"#SBATCH --job-name=c960-a_b__x__a__z"));
    assert!(lines.contains(&"#SBATCH --array=0-3"));
    assert!(lines.contains(&"#SBATCH --cpus-per-task=2"));
    let chdir = format!("#SBATCH --chdir={}", sbatch_quote(&cwd.to_string_lossy()));
    assert!(lines.contains(&chdir.as_str()), "{shard}");
    // Slurm's file-name patterns: a % of the path doubled.
    assert!(
        shard.contains("%%a\\ \\#z/slurm/logs/shard-%a-%A.out"),
        "{shard}"
    );
    // bash reads the command's words back whole.
    let command = lines
        .iter()
        .position(|l| l.contains("--shard \"$shard/4\""))
        .expect("the task's command");
    let words = bash_words(lines[command].split(" --shard").next().unwrap());
    let exe = cwd.join("bin dir/c960").to_string_lossy().into_owned();
    assert_eq!(
        words,
        [
            exe.as_str(),
            "sweep",
            "--engine",
            "builtin",
            "--nodes",
            "1000"
        ]
    );
    assert!(lines[command + 1].contains(&shell_quote(&run.join("shards").to_string_lossy())));

    let merge = fs::read_to_string(&w.merge_script).unwrap();
    assert!(merge.contains(&format!("out={}\n", shell_quote(&run.to_string_lossy()))));
    assert!(merge.contains("for i in $(seq 0 3); do"), "{merge}");
    assert!(
        merge.contains(
            "[ -e \"$out/slurm/finished/$i\" ] && [ -e \"$out/shards/$i/manifest.json\" ]"
        )
    );
    assert!(merge.contains(&format!(
        "exec {} merge \"${{shards[@]}}\" --out \"$out\"",
        shell_quote(&exe)
    )));
    assert!(merge.contains(&format!("\"$attempt\" -ge {ATTEMPTS}")));
    for script in [&w.shard_script, &w.merge_script] {
        let check = Command::new("bash").arg("-n").arg(script).status().unwrap();
        assert!(check.success(), "{} is not bash", script.display());
    }
    assert!(w.result.ends_with(
        "/manifest.json once the merge has run (it resubmits unfinished shards itself)"
    ));
}

#[test]
fn partition_and_time_go_into_the_header_and_odd_values_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let with = |partition: &str, time: &str| {
        let mut request = sweep(dir.path(), "run", 2, 10);
        request.slurm.partition = Some(partition.to_owned());
        request.slurm.time = Some(time.to_owned());
        request
    };
    let w = written(with("short,long", "1-04:00:00"));
    let shard = fs::read_to_string(w.shard_script).unwrap();
    assert!(shard.contains("#SBATCH --partition=short,long\n#SBATCH --time=1-04:00:00\n"));
    written(with("short", "unlimited"));
    assert!(refused(with("a b", "10")).starts_with("--partition \"a b\" is not"));
    assert!(refused(with("", "10")).starts_with("--partition \"\" is not"));
    assert!(refused(with("p", "4h")).starts_with("--time \"4h\" is not a Slurm time limit"));
}

#[test]
fn shards_are_planned_against_the_work() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        refused(sweep(dir.path(), "run", 5, 4)),
        "--shards 5 is more than the run's 4 searches: use at most 4"
    );
    assert_eq!(
        refused(sweep(dir.path(), "run", 2, 1)),
        "--shards 2 is more than the run's 1 search: use at most 1"
    );
    written(sweep(dir.path(), "ok", 4, 4));
    let message = refused(sweep(dir.path(), "run", MAX_SHARDS + 1, u64::MAX));
    assert!(
        message.starts_with("--shards 10001 is out of range 1..=10000"),
        "{message}"
    );
    let mut run = sweep(dir.path(), "run", MAX_SHARDS + 1, 1);
    run.work = Work::Run;
    assert!(refused(run).starts_with("--shards 10001 is out of range"));
    let mut no_out = sweep(dir.path(), "run", 2, 10);
    no_out.out = None;
    assert_eq!(
        refused(no_out),
        "c960 slurm needs --out DIR: the run directory every task shares"
    );
    let mut next = sweep(dir.path(), "run", 2, 10);
    next.slurm.next_round = true;
    assert!(refused(next).starts_with("--next-round is for adaptive self-play"));
    assert!(
        !dir.path().join("run").exists(),
        "nothing is written for a refusal"
    );
}

#[test]
fn control_characters_never_reach_a_script() {
    let dir = tempfile::tempdir().unwrap();
    let message = refused(sweep(dir.path(), "run\n#SBATCH --x", 2, 10));
    assert!(message.starts_with("--out \""), "{message}");
    assert!(
        message.contains("holds the control character '\\n'"),
        "{message}"
    );
    let mut request = sweep(dir.path(), "run", 2, 10);
    request.argv.push("--label=a\tb".to_owned());
    assert!(refused(request).starts_with("an argument \"--label=a\\tb\""));
    let mut request = sweep(dir.path(), "run", 2, 10);
    request.exe = PathBuf::from("/bin/c\r960");
    assert!(refused(request).starts_with("the c960 executable's path"));
}

#[test]
fn the_commands_own_refusals() {
    assert!(no_shard(false).is_ok());
    let error = no_shard(true).unwrap_err();
    assert!(error.is_bad_input());
    assert_eq!(
        error.to_string(),
        "c960 slurm gives each task its --shard; use --shards N"
    );
    assert!(
        check_selfplay(true, false)
            .unwrap_err()
            .to_string()
            .starts_with("--sprt and --openings")
    );
    assert!(
        check_selfplay(false, true)
            .unwrap_err()
            .to_string()
            .contains("--rounds-from")
    );
    check_selfplay(false, false).unwrap();
    assert!(check_run(true).is_err() && check_run(false).is_ok());
    assert_eq!(
        book_run(false, false, Some(Path::new("r"))).unwrap(),
        Path::new("r")
    );
    assert!(
        book_run(false, true, Some(Path::new("r")))
            .unwrap_err()
            .to_string()
            .contains("leave out --from")
    );
    assert!(
        book_run(false, false, None)
            .unwrap_err()
            .to_string()
            .contains("needs --run DIR")
    );
    assert!(
        book_run(true, true, None)
            .unwrap_err()
            .to_string()
            .contains("--shard")
    );
}

#[test]
fn task_args_drop_the_flags_each_task_sets() {
    let argv = argv(&[
        "c960",
        "slurm",
        "selfplay",
        "--nodes",
        "300",
        "--shards",
        "4",
        "--out",
        "x",
        "--jobs=3",
        "--submit",
        "--seed",
        "7",
        "--cpus-per-task",
        "2",
        "--quiet",
        "--partition=short",
    ]);
    assert_eq!(
        task_args(&argv, "selfplay"),
        ["selfplay", "--nodes", "300", "--seed", "7"]
    );
    assert_eq!(task_args(&argv[..2], "sweep"), ["sweep"]);
}

#[test]
fn an_exit_book_is_expanded_by_the_shards_and_built_by_the_merge_job() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let request = |cp: bool| Request {
        work: Work::BookExits(BookExits {
            positions: "0-9".to_owned(),
            starts: 10,
            out: Some("book.epd".into()),
            window: cp,
        }),
        out: Some("exp".into()),
        slurm: options(3),
        cwd: cwd.to_owned(),
        exe: "/usr/bin/c960".into(),
        argv: argv(&[
            "c960",
            "slurm",
            "book-exits",
            "--positions",
            "0-9",
            "--run",
            "exp",
            "--cp",
            "-20..20",
            "--draw-model=m.json",
            "--draw-model",
            "model.json",
            "--sidecar",
            "--plies",
            "4",
            "--shards",
            "3",
            "--out",
            "book.epd",
        ]),
    };
    let w = written(request(true));
    assert_eq!(w.command, "book exits");
    let shard = fs::read_to_string(&w.shard_script).unwrap();
    assert!(
        shard.contains("/usr/bin/c960 book exits --positions 0-9 --plies 4 --shard"),
        "{shard}"
    );
    assert!(shard.contains(&format!(
        "--run {}/\"$shard\"",
        shell_quote(&cwd.join("exp/shards").to_string_lossy())
    )));
    let merge = fs::read_to_string(&w.merge_script).unwrap();
    assert!(
        merge.contains("[ -e \"$out/shards/$i/journal.jsonl\" ]"),
        "{merge}"
    );
    let model = shell_quote(&cwd.join("model.json").to_string_lossy());
    let book = shell_quote(&cwd.join("book.epd").to_string_lossy());
    assert!(
        merge.contains(&format!(
            "exec /usr/bin/c960 book exits --from \"${{shards[@]}}\" --positions 0-9 --cp \
             -20..20 --draw-model=m.json --draw-model {model} --sidecar --out {book}\n"
        )),
        "{merge}"
    );
    assert!(w.result.starts_with(&format!(
        "{} once the merge has run",
        cwd.join("book.epd").display()
    )));

    // Without a window the merge job only checks the shards.
    let w = written(request(false));
    let merge = fs::read_to_string(&w.merge_script).unwrap();
    assert!(
        merge.contains("(afterany). Checks\n# the shards when all finished"),
        "{merge}"
    );
    assert!(merge.contains("make a book with: c960 book exits --from $out/shards/*"));
    assert!(w.result.starts_with(&format!(
        "the journals of {}/shards/0..2",
        cwd.join("exp").display()
    )));

    let mut too_many = request(true);
    too_many.slurm = options(11);
    assert_eq!(
        refused(too_many),
        "--shards 11 is more than the run's 10 starts: use at most 10"
    );
}
