//! The report in a real browser: headless Chromium (Debian package
//! `chromium`) opens the pages from disk, runs their script, and is asked
//! for the resulting DOM. CI installs Chromium; without it this test fails
//! and says how to install it.

mod util;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use util::Dir;

fn chromium() -> String {
    std::env::var("C960_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned())
}

/// Runs headless Chromium on `url` with `extra` flags; returns stdout and
/// stderr.
fn headless(profile: &Path, url: &str, extra: &[&str]) -> (String, String) {
    let output = Command::new(chromium())
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
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}. This test needs Chromium: `apt-get install chromium` \
                 (CI installs it), or set C960_CHROMIUM",
                chromium()
            )
        });
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Console messages that are page errors (Chromium logs them as
/// `CONSOLE` lines; uncaught exceptions say `Uncaught`).
fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("Uncaught") || (l.contains("CONSOLE") && l.contains("ERROR")))
        .collect()
}

#[test]
fn the_report_works_in_headless_chromium() {
    let dir = Dir::new();
    let sweep = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    dir.ok(&[
        "report",
        "--sweep",
        sweep.to_str().unwrap(),
        "--out",
        "site",
        "--quiet",
    ]);
    let site = dir.file("site");
    let profile = dir.file("profile");

    // Column 8 is the sweep's score: sorted descending, SP 794 (+85) leads.
    let index = format!("file://{}/index.html#sort=8-desc", site.display());
    let (dom, stderr) = headless(&profile, &index, &["--dump-dom"]);
    assert!(
        dom.contains("<table id=\"positions\""),
        "no DOM from {index}:\n{stderr}"
    );
    let body = &dom[dom.find("<tbody>").unwrap()..dom.find("</tbody>").unwrap()];
    assert_eq!(body.matches("<tr>").count(), 960, "960 table rows");
    let first = &body[..body.find("</tr>").unwrap()];
    assert!(
        first.contains("positions/794.html"),
        "sorted by score, highest first: {first}"
    );
    assert!(dom.contains("960 of 960 positions"), "the page script ran");
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );

    // Ascending: the lowest score first (SP 17, -2).
    let ascending = format!("file://{}/index.html#sort=8", site.display());
    let (dom, _) = headless(&profile, &ascending, &["--dump-dom"]);
    let body = &dom[dom.find("<tbody>").unwrap()..];
    let first = &body[..body.find("</tr>").unwrap()];
    assert!(first.contains("positions/17.html"), "{first}");

    let page = format!("file://{}/positions/91.html", site.display());
    let (dom, stderr) = headless(&profile, &page, &["--dump-dom"]);
    assert!(dom.contains("<svg class=\"board\""), "{stderr}");
    assert_eq!(
        dom.matches("class=\"weak\"").count(),
        6,
        "a2 b2 e2 and a7 b7 e7 ringed"
    );
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );

    // A screenshot of the index, kept under target/ for CI.
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-index.png");
    let _ = std::fs::remove_file(&shot);
    let (_, stderr) = headless(
        &profile,
        &format!("file://{}/index.html", site.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
        ],
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display()));
    assert!(png.starts_with(b"\x89PNG"));
}
