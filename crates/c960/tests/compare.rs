//! `c960 compare` and the report's agreement with independent analyses:
//! the figures, their intervals, and one-line errors for tables that
//! cannot be compared.

use crate::util;

use std::{fmt::Write as _, fs};

use util::Dir;

/// An `sp,value` table of `f(sp)` for the SPs in `sps`.
fn table(dir: &Dir, name: &str, sps: impl Iterator<Item = u32>, f: &dyn Fn(u32) -> f64) {
    let mut text = String::from("sp,value\n");
    for sp in sps {
        let _ = writeln!(text, "{sp},{}", f(sp));
    }
    fs::write(dir.file(name), text).unwrap();
}

/// A deterministic wobble in [-1, 1] per SP and stream.
fn wobble(sp: u32, stream: u32) -> f64 {
    let x = (sp.wrapping_mul(2_654_435_761) ^ stream.wrapping_mul(40_503)) % 2001;
    f64::from(x) / 1000.0 - 1.0
}

#[test]
fn compare_gives_each_table_and_their_mean_with_intervals() {
    let dir = Dir::new();
    // Ours: a truth plus a little noise; theirs: the truth on other scales
    // with more noise, one missing the positions after 700.
    let truth = |sp: u32| f64::from(sp % 37);
    table(&dir, "ours.csv", 0..960, &|sp| {
        truth(sp) + 3.0 * wobble(sp, 1)
    });
    table(&dir, "a.csv", 0..960, &|sp| {
        2.0 * truth(sp) + 20.0 * wobble(sp, 2)
    });
    table(&dir, "b.csv", 0..700, &|sp| {
        0.01 * truth(sp) + 0.1 * wobble(sp, 3)
    });
    let json: serde_json::Value = serde_json::from_str(&dir.ok(&[
        "compare", "ours.csv", "--with", "a.csv", "--with", "b.csv", "--format", "json",
    ]))
    .unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "each table and their mean");
    assert_eq!(rows[1]["positions"], 700, "over the positions both score");
    for row in rows {
        let (r, low, high) = (
            row["pearson"]["value"].as_f64().unwrap(),
            row["pearson"]["low"].as_f64().unwrap(),
            row["pearson"]["high"].as_f64().unwrap(),
        );
        assert!(low < r && r < high && r > 0.5, "{row}");
    }
    // The mean of two noisy tables agrees better than either alone.
    let r = |i: usize| rows[i]["pearson"]["value"].as_f64().unwrap();
    assert!(r(2) > r(0).max(r(1)), "{rows:?}");
    // Seeded: the same figures again; CSV has one row per reference.
    let again = dir.ok(&[
        "compare", "ours.csv", "--with", "a.csv", "--with", "b.csv", "--format", "json",
    ]);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&again).unwrap(),
        json
    );
    let csv = dir.ok(&["compare", "ours.csv", "--with", "a.csv", "--format", "csv"]);
    assert_eq!(csv.lines().count(), 2, "{csv}");
    let text = dir.ok(&["compare", "ours.csv", "--with", "a.csv", "--with", "b.csv"]);
    assert!(text.contains("mean of the 2 (standardized)"), "{text}");
}

#[test]
fn compare_refuses_tables_that_cannot_be_compared_in_one_line() {
    let dir = Dir::new();
    table(&dir, "ours.csv", 0..960, &|sp| f64::from(sp % 13));
    fs::write(dir.file("twice.csv"), "sp,value\n1,2\n1,3\n").unwrap();
    fs::write(dir.file("words.csv"), "sp,value\n1,2\n2,high\n").unwrap();
    fs::write(dir.file("dfrc.csv"), "setup,value\n920640,2\n").unwrap();
    fs::write(dir.file("few.csv"), "sp,value\n1,2\n2,3\n3,1\n").unwrap();
    fs::write(dir.file("wide.csv"), "sp,a,b\n1,2,3\n").unwrap();
    for (reference, wanted) in [
        ("twice.csv", "SP 1 appears twice"),
        ("words.csv", "\"high\" is not a finite number"),
        ("dfrc.csv", "Double Fischer Random"),
        ("few.csv", "share 3 positions"),
        ("wide.csv", "which column?"),
        ("wide.csv:c", "no column \"c\""),
        ("missing.csv", "missing.csv"),
    ] {
        let line = dir.bad_input(&["compare", "ours.csv", "--with", reference]);
        assert!(line.contains(wanted), "{reference}: {line}");
    }
    let line = dir.bad_input(&[
        "compare",
        "ours.csv",
        "--with",
        "wide.csv:a",
        "--resamples",
        "5",
    ]);
    assert!(line.contains("--resamples"), "{line}");
    // An output that is one of the tables read is refused, the table kept.
    table(&dir, "theirs.csv", 0..960, &|sp| f64::from((sp * 7) % 11));
    let before = fs::read(dir.file("theirs.csv")).unwrap();
    for out in ["theirs.csv", "ours.csv"] {
        let line = dir.bad_input(&["compare", "ours.csv", "--with", "theirs.csv", "--out", out]);
        assert!(line.contains(out), "{out}: {line}");
    }
    assert_eq!(fs::read(dir.file("theirs.csv")).unwrap(), before);
}

/// Two Stockfish sweeps of SP 0-47 (`s1`, `s2`) and two "independent"
/// tables (`x.csv`, `y.csv`: the second sweep's scores with noise), and a
/// report of the sweeps measured against the tables into `site`.
pub(crate) fn site_with_agreement(dir: &Dir) {
    // Stockfish at two budgets agree (r ≈ 0.4 on these positions); the
    // builtin engine's scores at such budgets are noise, which the
    // consensus refuses to combine.
    for (out, nodes) in [("s1", "3000"), ("s2", "9000")] {
        dir.ok(&[
            "sweep",
            "--engine",
            "stockfish",
            "--positions",
            "0-47",
            "--nodes",
            nodes,
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out,
        ]);
    }
    // Two "independent" tables: one rater's scores with noise.
    let scores: Vec<(u32, f64)> = fs::read_to_string(dir.file("s2/sweep.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            (cells[0].parse().unwrap(), cells[9].parse().unwrap())
        })
        .collect();
    for (name, stream) in [("x.csv", 5), ("y.csv", 6)] {
        let mut text = String::from("sp,value\n");
        for (sp, cp) in &scores {
            let _ = writeln!(text, "{sp},{}", cp + 5.0 * wobble(*sp, stream));
        }
        fs::write(dir.file(name), text).unwrap();
    }
    dir.ok(&[
        "report",
        "--sweep",
        "s1",
        "--sweep",
        "s2",
        "--validation",
        "x.csv",
        "--validation",
        "y.csv",
        "--out",
        "site",
        "--quiet",
    ]);
}

#[test]
fn the_report_measures_its_estimate_against_independent_analyses() {
    let dir = Dir::new();
    site_with_agreement(&dir);
    let agreement: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("site/agreement.json")).unwrap())
            .unwrap();
    let references = agreement["references"].as_array().unwrap();
    assert_eq!(references.len(), 3);
    assert_eq!(references[0]["sha256"].as_str().unwrap().len(), 64);
    assert!(dir.file("site/charts/agreement.svg").is_file());
    let index = fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert!(index.contains("Agreement with independent analyses"));
    let fair = fs::read_to_string(dir.file("site/fair.html")).unwrap();
    assert!(
        fair.contains("Independent analyses agree with the estimate"),
        "{fair}"
    );
    // c960 compare recomputes every figure from the same files.
    let compared: serde_json::Value = serde_json::from_str(&dir.ok(&[
        "compare",
        "site/balance.csv:sweep_cp",
        "--with",
        "x.csv",
        "--with",
        "y.csv",
        "--format",
        "json",
    ]))
    .unwrap();
    for (ours, theirs) in references.iter().zip(compared["rows"].as_array().unwrap()) {
        assert_eq!(ours["comparison"]["pearson"], theirs["pearson"]);
        assert_eq!(ours["comparison"]["spearman"], theirs["spearman"]);
    }
}

#[test]
fn a_recorded_agreement_rebuilds_the_site_without_the_tables() {
    let dir = Dir::new();
    site_with_agreement(&dir);
    fs::copy(dir.file("site/agreement.json"), dir.file("record.json")).unwrap();
    let rebuild = |out: &str, tables: &[&str]| {
        let mut args = vec!["report", "--sweep", "s1", "--sweep", "s2"];
        for table in tables {
            args.extend(["--validation", table]);
        }
        args.extend(["--agreement", "record.json", "--out", out, "--quiet"]);
        dir.ok(&args);
    };
    let same = |out: &str, file: &str| {
        fs::read(dir.file("site").join(file)).unwrap()
            == fs::read(dir.file(out).join(file)).unwrap()
    };
    // With its tables, every row is recomputed: the same site byte for byte.
    rebuild("with", &["y.csv", "x.csv"]);
    for file in [
        "index.html",
        "fair.html",
        "agreement.json",
        "agreement.csv",
        "charts/agreement.svg",
    ] {
        assert!(
            same("with", file),
            "{file} differs when rebuilt with the tables"
        );
    }
    // Without them (as a published dataset regenerates), the record and
    // the chart are the same; each table's row is marked as recorded.
    fs::remove_file(dir.file("x.csv")).unwrap();
    rebuild("again", &[]);
    for file in ["fair.html", "agreement.json", "charts/agreement.svg"] {
        assert!(
            same("again", file),
            "{file} differs when rebuilt from the record"
        );
    }
    let csv = fs::read_to_string(dir.file("again/agreement.csv")).unwrap();
    assert_eq!(csv.matches(",\"false\"\n").count(), 2, "{csv}");
    assert_eq!(
        csv.replace(",\"false\"\n", ",\"true\"\n"),
        fs::read_to_string(dir.file("site/agreement.csv")).unwrap()
    );
    let index = fs::read_to_string(dir.file("again/index.html")).unwrap();
    assert_eq!(
        index
            .matches("(as recorded; not recomputed: its table was not given)")
            .count(),
        2
    );
    // A record made for other estimates is refused in one line.
    let line = dir.bad_input(&[
        "report",
        "--sweep",
        "s1",
        "--agreement",
        "record.json",
        "--out",
        "other",
        "--quiet",
    ]);
    assert!(line.contains("record.json"), "{line}");
    assert!(!dir.file("other").exists(), "a refused report wrote {line}");
}
