//! Fault injection with engines that lie or run away (issue 30, items 7,
//! 13, 14, 15 and 17): `score mate 0`, a mate claim after one node, a
//! principal variation that does not start with the best move, output that
//! never ends its line, an engine behind a wrapper script without `exec`,
//! and an `id name` that is not UTF-8. Nothing they say may become a row
//! or a game result, and nothing they start may outlive c960.

use crate::util;

use std::{
    fs,
    path::Path,
    time::{Duration, Instant},
};

use util::{Dir, fake_engine, run_command};

/// `c960 sweep` of SP 5 and 518 with the fake engine in `mode`.
fn sweep(dir: &Dir, engine: &Path, mode: &str, extra: &[&str]) -> util::Run {
    run_command(sweep_command(dir, engine, mode, extra))
}

/// The command of [`sweep`], not yet run.
pub(crate) fn sweep_command(
    dir: &Dir,
    engine: &Path,
    mode: &str,
    extra: &[&str],
) -> std::process::Command {
    let mut args = vec![
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "5,518",
        "--nodes",
        "2000",
        "--retries",
        "0",
        "--jobs",
        "1",
        "--out",
        "out",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let mut command = dir.command(&args);
    command.env("C960_FAKE_UCI", mode);
    command
}

/// Rows a sweep journaled as done.
fn rows(dir: &Dir) -> usize {
    fs::read_to_string(dir.file("out/journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"status\":\"done\""))
        .count()
}

/// A lie is a failed search: no row, the position listed as failed, exit 1.
fn assert_refused(run: &util::Run, dir: &Dir, said: &str) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert_eq!(rows(dir), 0, "a lie became a row");
    let manifest = fs::read_to_string(dir.file("out/manifest.json")).unwrap();
    assert!(manifest.contains(said), "{manifest}");
}

#[test]
fn an_engine_claiming_mate_0_is_not_published() {
    let dir = Dir::new();
    let run = sweep(&dir, &fake_engine(), "--mate-zero", &[]);
    assert_refused(&run, &dir, "claims mate 0");
    // The table has no row; the manifest lists the failures.
    let csv = fs::read_to_string(dir.file("out/sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1, "only the header: {csv}");
}

#[test]
fn a_mate_claim_after_one_node_does_not_skip_the_node_check() {
    let dir = Dir::new();
    let run = sweep(&dir, &fake_engine(), "--mate-claim", &[]);
    assert_refused(&run, &dir, "without checkmate");
}

#[test]
fn a_pv_not_starting_with_the_best_move_is_not_stored() {
    let dir = Dir::new();
    let run = sweep(&dir, &fake_engine(), "--pv-not-best", &[]);
    assert_refused(&run, &dir, "not with its best move");
}

#[test]
fn a_lying_engine_does_not_end_every_self_play_game_as_a_resignation() {
    let dir = Dir::new();
    let engine = fake_engine();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "5",
        "--games-per-position",
        "2",
        "--nodes",
        "100",
        "--retries",
        "0",
        "--jobs",
        "1",
        "--out",
        "sp",
        "--quiet",
    ]);
    command.env("C960_FAKE_UCI", "--mate-zero");
    let run = run_command(command);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let journal = fs::read_to_string(dir.file("sp/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1, "no game was kept: {journal}");
    let manifest = fs::read_to_string(dir.file("sp/manifest.json")).unwrap();
    assert!(manifest.contains("claims mate 0"), "{manifest}");
    assert!(manifest.contains("\"games\": 0,"), "{manifest}");
}

#[test]
fn endless_output_without_a_newline_is_cut_off_at_the_line_cap() {
    let dir = Dir::new();
    let started = Instant::now();
    let run = sweep(&dir, &fake_engine(), "--endless", &["--watchdog", "600"]);
    assert_refused(&run, &dir, "a line longer than 65536 bytes");
    // Stopped at the cap, not by the (ten-minute) watchdog.
    assert!(started.elapsed() < Duration::from_mins(1));
}

/// Whether process `pid` is running (a zombie is not).
fn alive(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|s| !s.trim_start().starts_with('Z'))
    })
}

#[test]
fn an_engine_behind_a_wrapper_without_exec_is_stopped_with_it() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = Dir::new();
    let traces = dir.file("traces");
    fs::create_dir(&traces).unwrap();
    // The shell stays the engine's parent: killing the shell alone leaves
    // the engine searching.
    let wrapper = dir.file("engine.sh");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n'{}' --hang --trace '{}'\n",
            fake_engine().display(),
            traces.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    let run = sweep(&dir, &wrapper, "", &["--watchdog", "1"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("did not answer"), "{}", run.stderr);
    let pids: Vec<u32> = fs::read_dir(&traces)
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.trim_end_matches(".trace").parse().unwrap()
        })
        .collect();
    assert!(!pids.is_empty(), "the engine searched");
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let running: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for pid in &running {
        // Clean up what this test started, then fail.
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(running.is_empty(), "engines left searching: {running:?}");
}

#[test]
fn an_engine_name_that_is_not_utf8_is_read_not_taken_for_a_non_uci_engine() {
    let dir = Dir::new();
    let run = sweep(&dir, &fake_engine(), "--latin1-name", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let manifest = fs::read_to_string(dir.file("out/manifest.json")).unwrap();
    assert!(manifest.contains("Moteur d'\u{fffd}checs"), "{manifest}");
}
