//! `c960 book --verify FILE...` (also `c960 book verify`): each book
//! checked line by line by `c960_book::verify`; every bad line printed as
//! `FILE:LINE: reason`, then a summary per book; exit code 2, naming the
//! first bad line and the count, when any line is bad.

use std::{
    fmt::Write as _,
    fs::File,
    io::{BufReader, Write as _},
    path::{Path, PathBuf},
};

use anyhow::Result;
use c960_book::{DefectKind, Report, check_book};
use c960_core::plural;
use serde_json::json;

use crate::{
    cli::{InputError, ReportFormat},
    output::shown,
};

pub(crate) fn run(files: &[PathBuf], format: ReportFormat) -> Result<()> {
    // Every book is opened before any is read: a missing one is refused
    // before anything is printed.
    let opened = files
        .iter()
        .map(|path| {
            File::open(path)
                .map(|file| (path, file))
                .map_err(|e| InputError(format!("--verify {}: cannot read it: {e}", shown(path))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut reports = Vec::with_capacity(opened.len());
    for (path, file) in opened {
        let report = check_book(BufReader::with_capacity(1 << 20, file))
            .map_err(|e| InputError(format!("--verify {}: cannot read it: {e}", shown(path))))?;
        // An empty file is no book: refused in one line, nothing printed.
        if report.lines == 0 {
            return Err(InputError(format!(
                "{}: no lines: a book holds at least one position",
                shown(path)
            ))
            .into());
        }
        reports.push((path, report));
    }
    // A reader that leaves early (`| head`) ends the printing, never the
    // verdict: bad lines still mean exit 2.
    match print(&reports, format) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        printed => printed?,
    }
    let bad: usize = reports.iter().map(|(_, r)| r.bad_lines.len()).sum();
    let Some((path, first)) = reports
        .iter()
        .find_map(|(path, r)| r.bad_lines.first().map(|b| (path, b)))
    else {
        return Ok(());
    };
    Err(InputError(format!(
        "{}:{}: {} (the first of {bad} bad line{})",
        shown(path),
        first.line,
        first.reasons(),
        if bad == 1 { "" } else { "s" }
    ))
    .into())
}

/// Every bad line and each book's summary (or the JSON report) on stdout.
fn print(reports: &[(&PathBuf, Report)], format: ReportFormat) -> std::io::Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    match format {
        ReportFormat::Text => {
            for (path, report) in reports {
                for bad in &report.bad_lines {
                    writeln!(out, "{}:{}: {}", shown(path), bad.line, bad.reasons())?;
                }
                writeln!(out, "{}", summary(path, report))?;
            }
        }
        ReportFormat::Json => {
            let books: Vec<_> = reports.iter().map(|(path, r)| to_json(path, r)).collect();
            serde_json::to_writer_pretty(&mut out, &json!({ "books": books }))?;
            writeln!(out)?;
        }
    }
    out.flush()
}

/// `FILE: N lines, M bad (counts); castling: NOTATION (counts)`.
fn summary(path: &Path, report: &Report) -> String {
    let mut text = format!(
        "{}: {}, ",
        shown(path),
        plural(report.lines, "line", "lines")
    );
    if report.bad_lines.is_empty() {
        text.push_str("all good");
    } else {
        let counts: Vec<String> = DefectKind::ALL
            .into_iter()
            .filter(|&k| report.count(k) > 0)
            .map(|k| format!("{} {}", report.count(k), k.name()))
            .collect();
        let _ = write!(
            text,
            "{} bad ({})",
            report.bad_lines.len(),
            counts.join(", ")
        );
    }
    let c = &report.castling;
    let mut kinds = Vec::new();
    for (n, name) in [
        (c.shredder, "Shredder-FEN"),
        (c.kqkq, "KQkq"),
        (c.mixed, "both in one line"),
        (c.none, "no rights"),
    ] {
        if n > 0 {
            kinds.push(format!("{n} {name}"));
        }
    }
    let _ = write!(
        text,
        "; castling notation: {}{}",
        c.describe(),
        if kinds.len() > 1 {
            format!(" ({})", kinds.join(", "))
        } else {
            String::new()
        }
    );
    if report.with_semicolon > 0 {
        let lines = plural(report.with_semicolon, "line", "lines");
        let _ = write!(text, "; {lines} with ;");
    }
    if report.crlf > 0 {
        let ends = if report.crlf == 1 { "ends" } else { "end" };
        let _ = write!(
            text,
            "; {} {ends} in CR LF",
            plural(report.crlf, "line", "lines")
        );
    }
    text
}

fn to_json(path: &Path, report: &Report) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = report
        .counts
        .iter()
        .map(|(kind, n)| {
            (
                serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                json!(n),
            )
        })
        .collect();
    json!({
        "file": path.display().to_string(),
        "lines": report.lines,
        "bad_lines": report.bad_lines.len(),
        "counts": counts,
        "castling_notation": report.castling.describe(),
        "castling": report.castling,
        "lines_with_semicolon": report.with_semicolon,
        "crlf_lines": report.crlf,
        "defects": report.bad_lines,
    })
}
