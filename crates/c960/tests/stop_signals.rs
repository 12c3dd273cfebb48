//! Stop signals that always stop: Ctrl-C twice quits at once whatever
//! standard error does, and no engine outlives c960, even killed by
//! SIGKILL.

use std::{
    fs,
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use crate::util::{Dir, fake_engine};

/// `c960 sweep` with a fake engine that hangs in its first search, two
/// engines at once, standard error as given.
fn hung_sweep(dir: &Dir, stderr: Stdio) -> Child {
    let engine = fake_engine();
    dir.command(&[
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--positions",
        "0-3",
        "--jobs",
        "2",
        "--out",
        "out",
    ])
    .env("C960_FAKE_UCI", "--hang")
    .stdout(Stdio::null())
    .stderr(stderr)
    .spawn()
    .unwrap()
}

/// The processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                // `PID (COMM) STATE PPID ...`: COMM may hold spaces.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

/// Whether process `pid` runs (a zombie waiting to be reaped does not).
fn running(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// The engines of `pid`'s pool of two once both run, and a moment more
/// for each to receive its search: a Ctrl-C before any search is under
/// way stops at once (nothing to wait for), which is not what the tests
/// of the second Ctrl-C measure. On a loaded machine the engine that
/// identified the run starts well before the pool's second.
fn pool_searching(pid: u32) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut engines = children_of(pid);
    while engines.len() < 2 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
        engines = children_of(pid);
    }
    thread::sleep(Duration::from_millis(500));
    engines
}

fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits up to 10 s for every process of `pids` to end.
fn all_end(pids: &[u32]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&pid| running(pid)) {
        if Instant::now() > deadline {
            return false;
        }
        thread::sleep(Duration::from_millis(50));
    }
    true
}

#[test]
fn a_second_ctrl_c_quits_at_once_even_when_stderr_cannot_be_written() {
    let dir = Dir::new();
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut c960 = hung_sweep(&dir, Stdio::from(full));
    let engines = pool_searching(c960.id());
    assert_eq!(engines.len(), 2, "the two engines of the pool started");
    signal(c960.id(), "INT");
    thread::sleep(Duration::from_millis(300));
    assert!(
        c960.try_wait().unwrap().is_none(),
        "the first Ctrl-C waits for the work in progress"
    );
    signal(c960.id(), "INT");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = c960.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = c960.kill();
            panic!("c960 did not quit on the second Ctrl-C");
        }
        thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130));
    assert!(all_end(&engines), "its hung engines were killed");
}

#[test]
fn engines_die_with_c960_killed_at_once() {
    let dir = Dir::new();
    let mut c960 = hung_sweep(&dir, Stdio::null());
    // Both engines hung in a search, no longer reading their input: an
    // engine waiting for a command would end on its own when c960's end
    // closes its input, and prove nothing.
    let engines = pool_searching(c960.id());
    assert_eq!(engines.len(), 2, "the two engines of the pool started");
    c960.kill().unwrap();
    c960.wait().unwrap();
    let gone = all_end(&engines);
    for &pid in &engines {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(gone, "an engine outlived c960 killed by SIGKILL");
}
