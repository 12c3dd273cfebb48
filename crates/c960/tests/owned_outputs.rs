//! Nothing lost, mixed or invented where c960 writes (issue 30): a report
//! never deletes files it did not write, a merge never replaces another
//! run, a lock file never follows a link, a merge says what it cannot
//! merge and keeps every shard in its provenance. Each test is named after
//! its defect and fails without the fix.

use crate::util;

use std::{fs, os::unix::fs::symlink};

use util::Dir;

/// `c960 sweep` of SP 0..3 with the built-in engine into `out`.
fn sweep(dir: &Dir, out: &str, extra: &[&str]) -> util::Run {
    let mut args = vec![
        "sweep",
        "--engine",
        "builtin",
        "--positions",
        "0-3",
        "--nodes",
        "300",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    dir.run(&args)
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
