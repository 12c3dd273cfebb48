//! Runs the built `c960` binary in a fresh temporary directory.

// Each test binary uses its own part of these helpers.
#![allow(dead_code)]

use std::{
    os::unix::process::CommandExt as _,
    path::{Path, PathBuf},
    process::{Command, Output},
};

/// Where Stockfish from npm is installed for the tests.
const NODE_MODULES: &str = "C960_NODE_MODULES";

/// The `node_modules` directory holding Stockfish from npm (the package
/// `stockfish`), the first of `$C960_NODE_MODULES` (directories separated
/// by `:`) that does; the test fails, saying how to install it, when none
/// does.
pub(crate) fn npm_modules() -> PathBuf {
    let dirs = std::env::var_os(NODE_MODULES)
        .map(|list| std::env::split_paths(&list).collect::<Vec<_>>())
        .unwrap_or_default();
    dirs.into_iter()
        .find(|dir| dir.join("stockfish/package.json").is_file())
        .unwrap_or_else(|| {
            panic!(
                "Stockfish 19 from npm is missing: `npm install stockfish@19.0.0` in a directory \
                 D and set C960_NODE_MODULES=D/node_modules (as .ci/run does)"
            )
        })
}

/// `$C960_NODE_MODULES` as the tests were given it (every directory), for
/// engines installed beside Stockfish 19 under aliases (`sf17`, `sf18`);
/// [`npm_modules`]'s check first.
pub(crate) fn npm_path() -> std::ffi::OsString {
    npm_modules();
    std::env::var_os(NODE_MODULES).expect("checked by npm_modules")
}

/// A temporary working directory with the binary at hand.
pub(crate) struct Dir {
    temp: tempfile::TempDir,
}

/// What one run printed and how it ended.
pub(crate) struct Run {
    /// Standard output.
    pub(crate) stdout: String,
    /// Standard error.
    pub(crate) stderr: String,
    /// Exit code.
    pub(crate) code: i32,
}

impl Dir {
    pub(crate) fn new() -> Dir {
        Dir {
            temp: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        self.temp.path()
    }

    pub(crate) fn file(&self, name: &str) -> PathBuf {
        self.temp.path().join(name)
    }

    /// `c960 ARGS...` ready to run in this directory. Stockfish from npm
    /// is hidden from it (`auto` then means Debian's Stockfish, as the
    /// tests expect); [`Dir::command_with_npm`] shows it.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_c960"));
        command
            .args(args)
            .current_dir(self.temp.path())
            .env_remove(NODE_MODULES);
        command
    }

    /// `c960 ARGS...` with Stockfish from npm installed where
    /// `$C960_NODE_MODULES` says; a missing package fails the test and says
    /// how to install it.
    pub(crate) fn command_with_npm(&self, args: &[&str]) -> Command {
        let mut command = self.command(args);
        command.env(NODE_MODULES, npm_path());
        command
    }

    /// Runs `c960 ARGS...` in this directory.
    pub(crate) fn run(&self, args: &[&str]) -> Run {
        run_command(self.command(args))
    }

    /// Runs and demands success with nothing on stderr.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let run = self.run(args);
        assert_eq!(run.code, 0, "c960 {args:?} failed: {}", run.stderr);
        assert_eq!(run.stderr, "", "c960 {args:?} wrote to stderr");
        run.stdout
    }

    /// Runs and demands exit code 2 with exactly one line on stderr and
    /// nothing on stdout; returns that line.
    pub(crate) fn bad_input(&self, args: &[&str]) -> String {
        let run = self.run(args);
        assert_eq!(run.code, 2, "c960 {args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "c960 {args:?} printed on stdout");
        assert_eq!(
            run.stderr.lines().count(),
            1,
            "not one line: {:?}",
            run.stderr
        );
        assert!(run.stderr.starts_with("c960: error: "), "{:?}", run.stderr);
        run.stderr.trim_end().to_owned()
    }
}

/// Runs a prepared command and collects what it printed.
pub(crate) fn run_command(mut command: Command) -> Run {
    let output: Output = command.output().expect("the c960 binary runs");
    Run {
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 errors"),
        code: output.status.code().expect("exit code"),
    }
}

/// The fake UCI engine of the c960-engine crate, built beside the c960
/// binary by `cargo test --workspace`.
pub(crate) fn fake_engine() -> PathBuf {
    let path = Path::new(env!("CARGO_BIN_EXE_c960")).with_file_name("c960-fake-uci");
    assert!(
        path.is_file(),
        "the fake engine {} is not built: run the tests with `cargo test --workspace` \
         (or `cargo build -p c960-engine --bins` first)",
        path.display()
    );
    path
}

/// The Chromium to run: `$C960_CHROMIUM` or `chromium`.
pub(crate) fn chromium() -> String {
    std::env::var("C960_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned())
}

/// Runs headless Chromium on `url` with `extra` flags; returns stdout and
/// stderr. Headless Chromium now and then never exits after its work
/// (seen with `--screenshot`): a run that takes over a minute is killed
/// (with its process group) and tried once more, and a second hang fails the test
/// with its output.
pub(crate) fn headless(profile: &Path, url: &str, extra: &[&str]) -> (String, String) {
    const LIMIT: std::time::Duration = std::time::Duration::from_mins(1);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut child = Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(url)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run {}: {e}. This test needs Chromium: `apt-get install chromium` \
                     (CI installs it), or set C960_CHROMIUM",
                    chromium()
                )
            });
        // Read both pipes on threads so a full pipe never blocks Chromium.
        let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
            std::thread::spawn(move || {
                let mut text = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut text);
                }
                String::from_utf8_lossy(&text).into_owned()
            })
        };
        let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
        let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
        let started = std::time::Instant::now();
        let finished = loop {
            if child.try_wait().unwrap().is_some() {
                break true;
            }
            if started.elapsed() > LIMIT {
                break false;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        if finished {
            return (stdout.join().unwrap(), stderr.join().unwrap());
        }
        // Chromium's processes may leave the group it was started in, but
        // each names its profile: kill them all by it (and the group).
        let _ = Command::new("pkill")
            .args([
                "-KILL",
                "-f",
                "--",
                &format!("--user-data-dir={}", profile.display()),
            ])
            .status();
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .status();
        let _ = child.wait();
        // The pipe readers are left behind: a helper that outlived the
        // kill would keep them waiting.
        drop((stdout, stderr));
        assert!(
            attempt < 2,
            "headless Chromium hung twice (over {LIMIT:?} each) on {url}"
        );
    }
}

/// Console messages that are page errors (Chromium logs them as
/// `CONSOLE` lines; uncaught exceptions say `Uncaught`).
pub(crate) fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("Uncaught") || (l.contains("CONSOLE") && l.contains("ERROR")))
        .collect()
}

/// A Parquet table, read whole.
pub(crate) fn read_parquet(path: &Path) -> polars::prelude::DataFrame {
    use polars::prelude::SerReader as _;
    polars::prelude::ParquetReader::new(std::fs::File::open(path).unwrap())
        .finish()
        .unwrap()
}

/// Each row of a CSV table as (column → cell), the columns `leave_out`
/// left out.
pub(crate) fn csv_records(
    path: &Path,
    leave_out: &[&str],
) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut reader =
        csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|record| {
            header
                .iter()
                .zip(record.unwrap().iter())
                .filter(|(h, _)| !leave_out.contains(&h.as_str()))
                .map(|(h, c)| (h.clone(), c.to_owned()))
                .collect()
        })
        .collect()
}

/// A column of whole numbers (no nulls) as `u32`.
pub(crate) fn u32_column(frame: &polars::prelude::DataFrame, name: &str) -> Vec<u32> {
    let c = frame
        .column(name)
        .unwrap_or_else(|e| panic!("column {name}: {e}"))
        .cast(&polars::prelude::DataType::UInt32)
        .unwrap();
    c.u32().unwrap().into_no_null_iter().collect()
}
