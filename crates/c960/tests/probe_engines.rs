//! Engines and the tables they feed: a centipawn score no engine can print
//! is refused, a run's table rewritten without its seal is not read, one
//! engine under two spellings (or copied, or wrapped) is not two raters, `--dry-run` names the
//! engine `auto` chooses, and a stop signal (SIGTERM, SIGHUP) stops c960's
//! engines as Ctrl-C does.

use crate::util;

use std::{
    fs,
    os::unix::fs::symlink,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use util::{Dir, fake_engine, run_command};

/// `c960 sweep` of SP 5 and 518 into `out` with the fake engine in `mode`.
fn sweep(dir: &Dir, mode: &str, extra: &[&str]) -> Command {
    crate::lying_engines::sweep_command(dir, &fake_engine(), mode, extra)
}

fn one_line(stderr: &str) -> &str {
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr:?}");
    stderr.trim_end()
}

#[test]
fn an_absurd_centipawn_score_is_refused_and_stores_no_row() {
    let dir = Dir::new();
    let run = run_command(sweep(&dir, "--score 2147483647", &[]));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("score cp 2147483647, beyond the ±32767"),
        "{}",
        run.stderr
    );
    let journal = fs::read_to_string(dir.file("out/journal.jsonl")).unwrap_or_default();
    assert!(!journal.contains("\"status\":\"done\""), "a row: {journal}");
    let csv = fs::read_to_string(dir.file("out/sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1, "only the header: {csv}");

    // Stockfish's infinite (32001) and the 16-bit bound are scores.
    let dir = Dir::new();
    let run = run_command(sweep(&dir, "--score -32767", &[]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let csv = fs::read_to_string(dir.file("out/sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
}

/// Rewrites the Parquet file `path` with polars: same rows, no c960
/// metadata (seal and manifest dropped).
fn rewrite(path: &Path) {
    use polars::prelude::*;
    let mut frame = ParquetReader::new(fs::File::open(path).unwrap())
        .finish()
        .unwrap();
    ParquetWriter::new(fs::File::create(path).unwrap())
        .finish(&mut frame)
        .unwrap();
}

#[test]
fn a_table_rewritten_without_its_seal_in_a_sealed_run_is_not_read() {
    let dir = Dir::new();
    let run = run_command(sweep(&dir, "", &[]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    fs::copy(dir.file("out/sweep.csv"), dir.file("theirs.csv")).unwrap();
    rewrite(&dir.file("out/sweep.parquet"));
    let said = "has no seal, yet its run's journal.jsonl shows c960 wrote it sealed";
    for args in [
        &["balance", "--sweep", "out", "--out", "bal"][..],
        &["report", "--sweep", "out", "--out", "site", "--quiet"],
        &["compare", "out/sweep.parquet", "--with", "theirs.csv"],
    ] {
        let line = dir.bad_input(args);
        assert!(
            line.contains("sweep.parquet") && line.contains(said),
            "{args:?}: {line}"
        );
    }
    assert!(!dir.file("bal").exists() && !dir.file("site").exists());
    // A published copy (NAME-sweep.parquet beside NAME-manifest.json, as
    // the datasets hold them) is judged by its own manifest.
    fs::create_dir(dir.file("pub")).unwrap();
    fs::copy(
        dir.file("out/sweep.parquet"),
        dir.file("pub/run1-sweep.parquet"),
    )
    .unwrap();
    fs::copy(
        dir.file("out/manifest.json"),
        dir.file("pub/run1-manifest.json"),
    )
    .unwrap();
    for tool in ["balance", "report"] {
        let line = dir.bad_input(&[tool, "--sweep", "pub/run1-sweep.parquet", "--out", "p"]);
        assert!(
            line.contains("has no seal, yet its run's run1-manifest.json shows"),
            "{tool}: {line}"
        );
    }

    // Without the journal, the manifest says so (a sweep's `repeats`).
    fs::remove_file(dir.file("out/journal.jsonl")).unwrap();
    let line = dir.bad_input(&["report", "--sweep", "out", "--out", "site", "--quiet"]);
    assert!(line.contains("its run's manifest.json shows"), "{line}");

    // A run from before seals (no journal checksums, no such field) is
    // read unchecked, as the published runs of that time are.
    let path = dir.file("out/manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    manifest.as_object_mut().unwrap().remove("repeats");
    fs::write(&path, manifest.to_string()).unwrap();
    dir.ok(&["report", "--sweep", "out", "--out", "site", "--quiet"]);
    let published = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let copy = dir.file("published");
    fs::create_dir(&copy).unwrap();
    for file in ["manifest.json", "sweep.parquet", "sweep.csv"] {
        fs::copy(published.join(file), copy.join(file)).unwrap();
    }
    dir.ok(&[
        "report",
        "--sweep",
        "published",
        "--out",
        "site2",
        "--quiet",
    ]);
}

#[test]
fn an_import_rewritten_without_its_seal_is_not_read() {
    let dir = Dir::new();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../c960-games/tests/fixtures/defects.pgn"
    );
    dir.ok(&["import", fixture, "--out", "imported", "--quiet"]);
    let manifest = fs::read_to_string(dir.file("imported/manifest.json")).unwrap();
    assert!(manifest.contains("\"tables\": \"sealed\""), "{manifest}");
    rewrite(&dir.file("imported/positions.parquet"));
    let line = dir.bad_input(&["report", "--games", "imported", "--out", "site", "--quiet"]);
    assert!(
        line.contains("positions.parquet") && line.contains("manifest.json shows"),
        "{line}"
    );
}

/// A directory holding `name`, a symbolic link to the fake engine.
fn linked_engine(dir: &Dir, name: &str) -> PathBuf {
    let bin = dir.file("bin");
    fs::create_dir_all(&bin).unwrap();
    symlink(fake_engine(), bin.join(name)).unwrap();
    bin
}

/// A run configuration with two raters of these engines and node counts.
fn two_raters(dir: &Dir, (a, nodes_a): (&str, u32), (b, nodes_b): (&str, u32)) {
    fs::write(
        dir.file("run.toml"),
        format!(
            "positions = \"0-3\"\n[selfplay]\ngames = 0\n\
             [[raters]]\nname = \"a\"\nengine = \"{a}\"\nnodes = {nodes_a}\n\
             [[raters]]\nname = \"b\"\nengine = \"{b}\"\nnodes = {nodes_b}\n"
        ),
    )
    .unwrap();
}

#[test]
fn one_engine_under_two_spellings_is_refused_before_searching() {
    let dir = Dir::new();
    let fake = fake_engine();
    let bin = linked_engine(&dir, "my-engine");
    // Its path, and a name `PATH` finds as a link to it.
    two_raters(&dir, (fake.to_str().unwrap(), 500), ("my-engine", 500));
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    for args in [
        &["run", "--config", "run.toml", "--out", "r", "--quiet"][..],
        &["run", "--config", "run.toml", "--out", "r", "--dry-run"],
        &[
            "slurm", "run", "--config", "run.toml", "--out", "r", "--shards", "2",
        ],
    ] {
        let mut command = dir.command(args);
        command.env("PATH", &path);
        let run = run_command(command);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        let line = one_line(&run.stderr);
        assert!(
            line.contains("raters a and b search alike")
                && line.contains("my-engine")
                && line.contains(&fs::canonicalize(&fake).unwrap().display().to_string()),
            "{line}"
        );
        assert!(!dir.file("r").exists(), "{args:?} wrote its directory");
    }
    // The same engine with other settings is another rater.
    two_raters(&dir, (fake.to_str().unwrap(), 500), ("my-engine", 600));
    let mut command = dir.command(&["run", "--config", "run.toml", "--dry-run"]);
    command.env("PATH", &path);
    assert_eq!(run_command(command).code, 0);
}

/// Issue 48, item 16: one engine under a third spelling no path tells
/// apart (a copied binary, an `env` or `sh -c` wrapper) is refused before
/// any sweep by its fingerprint (id name, options, a first search of SP
/// 518), not after every sweep by the report; another engine with the
/// same settings is another rater.
#[test]
fn one_engine_copied_or_wrapped_is_refused_before_any_sweep() {
    let dir = Dir::new();
    let mut engines = vec![fake_engine()];
    if Path::new("/usr/games/stockfish").is_file() {
        engines.push(PathBuf::from("/usr/games/stockfish"));
    }
    for engine in engines {
        let copy = dir.file("engine-copy");
        let _ = fs::remove_file(&copy);
        fs::copy(&engine, &copy).unwrap();
        let engine = engine.to_str().unwrap();
        for other in [
            copy.to_str().unwrap().to_owned(),
            format!("env {engine}"),
            format!("sh -c {engine}"),
        ] {
            two_raters(&dir, (engine, 2000), (&other, 2000));
            let line = dir.bad_input(&["run", "--config", "run.toml", "--out", "r", "--quiet"]);
            assert!(
                line.contains("raters a and b are one rater")
                    && line.contains(&other)
                    && line.contains("SP 518"),
                "{line}"
            );
            assert!(
                !dir.file("r").exists(),
                "{other}: the run wrote its directory"
            );
        }
    }
    // Another engine with the same settings is another rater.
    two_raters(
        &dir,
        (fake_engine().to_str().unwrap(), 2000),
        ("builtin", 2000),
    );
    let config = fs::read_to_string(dir.file("run.toml")).unwrap();
    fs::write(dir.file("run.toml"), config.replace("\"0-3\"", "\"0-11\"")).unwrap();
    dir.ok(&["run", "--config", "run.toml", "--out", "r", "--quiet"]);
}

#[test]
fn a_dry_run_names_the_engine_auto_chooses() {
    let dir = Dir::new();
    let plan: serde_json::Value = serde_json::from_str(&dir.ok(&["run", "--dry-run"])).unwrap();
    let engine = plan["engine"].as_str().unwrap();
    assert_ne!(engine, "auto");
    assert!(
        engine == "builtin" || Path::new(engine).is_file(),
        "{engine}"
    );
    // With no Stockfish to find, `auto` is the built-in engine.
    let mut command = dir.command(&["run", "--dry-run"]);
    command.env("PATH", dir.path());
    let run = run_command(command);
    let plan: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    if !Path::new("/usr/games/stockfish").is_file() {
        assert_eq!(plan["engine"], "builtin");
    }
    // A rater's `auto` too.
    two_raters(&dir, ("auto", 500), ("builtin", 600));
    let plan: serde_json::Value =
        serde_json::from_str(&dir.ok(&["run", "--config", "run.toml", "--dry-run"])).unwrap();
    assert_eq!(plan["raters"][0]["engine"], plan["engine"], "{plan}");
}

/// Whether process `pid` is running (a zombie is not).
fn alive(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|s| !s.trim_start().starts_with('Z'))
    })
}

/// Starts a sweep whose engine hangs in its first search (its watchdog
/// `watchdog` seconds), sends it `signals` once the engine searches, and
/// returns its exit code, its standard error and the engine's process id,
/// once it ended.
fn stopped(signals: &[&str], watchdog: &str) -> (Option<i32>, String, u32) {
    let dir = Dir::new();
    let traces = dir.file("traces");
    fs::create_dir(&traces).unwrap();
    let mode = format!("--hang --trace {}", traces.display());
    let mut command = sweep(&dir, &mode, &["--watchdog", watchdog]);
    let child = command
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let searching = || -> Option<u32> {
        fs::read_dir(&traces).ok()?.find_map(|e| {
            let path = e.ok()?.path();
            let trace = fs::read_to_string(&path).ok()?;
            trace.contains("go ").then(|| {
                path.file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(|s| s.parse().ok())
            })?
        })
    };
    let started = Instant::now();
    let engine = loop {
        if let Some(pid) = searching() {
            break pid;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no search");
        thread::sleep(Duration::from_millis(20));
    };
    for signal in signals {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        thread::sleep(Duration::from_millis(200));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    // The engine had a moment to go, then this test stops what it started.
    let deadline = Instant::now() + Duration::from_secs(2);
    while alive(engine) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    (output.status.code(), stderr, engine)
}

/// Kills `pid` if it still runs and says whether it did.
fn left_running(pid: u32) -> bool {
    let running = alive(pid);
    if running {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    running
}

#[test]
fn sigterm_and_sighup_stop_c960_and_its_hung_engine_as_ctrl_c_does() {
    for signal in ["TERM", "HUP", "INT"] {
        // One signal: the search in progress ends (here by its watchdog),
        // the engine with it, and the run says it was interrupted.
        let (code, stderr, engine) = stopped(&[signal], "2");
        assert!(!left_running(engine), "SIG{signal} left the engine running");
        assert_eq!(code, Some(130), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains("stopping after the work in progress"),
            "{stderr}"
        );
        assert!(stderr.contains("interrupted"), "{stderr}");
        // Two: c960 quits at once and kills the engine first.
        let (code, stderr, engine) = stopped(&[signal, signal], "600");
        assert!(
            !left_running(engine),
            "SIG{signal} twice left the engine running"
        );
        assert_eq!(code, Some(130), "SIG{signal} twice: {stderr}");
        assert!(stderr.contains("stopped at once"), "{stderr}");
    }
}
