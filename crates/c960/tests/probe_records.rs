//! Per-position tables and agreement records that must be refused rather
//! than read: figures that do not follow from a record's points, tables a
//! comparison would drop, count twice or compare with themselves, headers
//! that name a column twice, empty cells; CSV that a spreadsheet would run
//! as formulas; `--out` naming a directory.

use crate::{compare::site_with_agreement, util};

use std::{fmt::Write as _, fs};

use serde_json::Value;
use util::Dir;

/// An `sp,value` table of `f(sp)` for the SPs in `sps`.
fn table(dir: &Dir, name: &str, sps: impl Iterator<Item = u32>, f: &dyn Fn(u32) -> f64) {
    let mut text = String::from("sp,value\n");
    for sp in sps {
        let _ = writeln!(text, "{sp},{}", f(sp));
    }
    fs::write(dir.file(name), text).unwrap();
}

/// A value that varies with the SP and `stream`, not linearly.
fn wobble(sp: u32, stream: u32) -> f64 {
    f64::from((sp.wrapping_mul(2_654_435_761) ^ stream.wrapping_mul(40_503)) % 2001) / 10.0
}

/// `site/agreement.json` edited by `edit`, written as `name`.
fn edited_record(dir: &Dir, name: &str, edit: &dyn Fn(&mut Value)) {
    let mut record: Value =
        serde_json::from_str(&fs::read_to_string(dir.file("site/agreement.json")).unwrap())
            .unwrap();
    edit(&mut record);
    fs::write(
        dir.file(name),
        serde_json::to_string_pretty(&record).unwrap(),
    )
    .unwrap();
}

/// `c960 report` of the two sweeps with `extra` arguments into `out`.
fn report<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["report", "--sweep", "s1", "--sweep", "s2"];
    args.extend(extra);
    args.extend(["--out", out, "--quiet"]);
    args
}

#[test]
fn report_agreement_refuses_figures_that_do_not_follow_from_its_points() {
    let dir = Dir::new();
    site_with_agreement(&dir);
    let refused = |name: &str, edit: &dyn Fn(&mut Value), wanted: &str| {
        edited_record(&dir, name, edit);
        let line = dir.bad_input(&report("again", &["--agreement", name]));
        assert!(line.contains(name) && line.contains(wanted), "{line}");
        assert!(!dir.file("again").exists(), "a refused record was shown");
    };
    // Every Pearson r set to 0.99.
    refused(
        "every-r.json",
        &|r| {
            for reference in r["references"].as_array_mut().unwrap() {
                reference["comparison"]["pearson"]["value"] = 0.99.into();
            }
        },
        "pearson 0.99",
    );
    // The headline's r and its interval edited together: recomputed from
    // the points, it is not what the record says.
    refused(
        "headline.json",
        &|r| {
            let pearson = &mut r["references"][2]["comparison"]["pearson"];
            *pearson = serde_json::json!({"value": 0.99, "low": 0.98, "high": 0.995});
        },
        "do not follow from its points: pearson 0.99 recorded",
    );
    // 960 positions claimed for a comparison of 48.
    refused(
        "positions.json",
        &|r| r["references"][2]["comparison"]["positions"] = 960.into(),
        "compared over 960 positions",
    );
    refused(
        "table-positions.json",
        &|r| r["references"][0]["comparison"]["positions"] = 960.into(),
        "compared over 960 positions",
    );
    refused(
        "deciles.json",
        &|r| r["references"][2]["comparison"]["top_decile"] = 0.3.into(),
        "top_decile",
    );
    refused(
        "label.json",
        &|r| r["references"][2]["name"] = "mean of the 5 (standardized)".into(),
        "is not the mean of the 2 (standardized)",
    );
    // A table's row that contradicts itself: an interval that does not
    // hold its r, an r beyond 1, more than 960 positions.
    refused(
        "interval.json",
        &|r| r["references"][1]["comparison"]["pearson"]["value"] = 0.999.into(),
        "is no correlation with its interval",
    );
    refused(
        "beyond-one.json",
        &|r| {
            let pearson = &mut r["references"][0]["comparison"]["pearson"];
            *pearson = serde_json::json!({"value": 1.5, "low": 1.2, "high": 1.7});
        },
        "is no correlation with its interval",
    );
    refused(
        "961.json",
        &|r| r["references"][0]["positions"] = 961.into(),
        "scores 961 positions of 960",
    );
    // The unedited record is shown.
    dir.ok(&report("again", &["--agreement", "site/agreement.json"]));
}

#[test]
fn report_agreement_recomputes_the_rows_of_the_tables_given_with_it() {
    let dir = Dir::new();
    site_with_agreement(&dir);
    // x.csv's row edited consistently: r 0.99 with its interval.
    edited_record(&dir, "edited.json", &|r| {
        let pearson = &mut r["references"][0]["comparison"]["pearson"];
        *pearson = serde_json::json!({"value": 0.99, "low": 0.985, "high": 0.995});
    });
    // With its table given, refused in one line.
    let line = dir.bad_input(&report(
        "again",
        &["--agreement", "edited.json", "--validation", "x.csv"],
    ));
    assert!(
        line.contains("edited.json")
            && line
                .contains("\"x.csv\" is not what --validation x.csv gives: pearson 0.99 recorded"),
        "{line}"
    );
    assert!(!dir.file("again").exists(), "a refused record was shown");
    // Without it (y.csv's alone given), shown as recorded and marked so;
    // y.csv's row and the headline are recomputed.
    dir.ok(&report(
        "again",
        &["--agreement", "edited.json", "--validation", "y.csv"],
    ));
    let csv = fs::read_to_string(dir.file("again/agreement.csv")).unwrap();
    let recomputed: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(recomputed, ["\"false\"", "\"true\"", "\"true\""], "{csv}");
    let index = fs::read_to_string(dir.file("again/index.html")).unwrap();
    let marked = "x.csv <span class=\"small\">(as recorded; not recomputed: its table was not \
                  given)</span></td><td>48</td><td>0.99 (";
    assert!(index.contains(marked), "{index}");
    assert_eq!(index.matches("(as recorded; not recomputed").count(), 1);
    // The headline is recomputed from the points whatever tables are given.
    edited_record(&dir, "headline.json", &|r| {
        let pearson = &mut r["references"][2]["comparison"]["pearson"];
        *pearson = serde_json::json!({"value": 0.99, "low": 0.98, "high": 0.995});
    });
    let line = dir.bad_input(&report(
        "headline",
        &[
            "--agreement",
            "headline.json",
            "--validation",
            "x.csv",
            "--validation",
            "y.csv",
        ],
    ));
    assert!(
        line.contains("do not follow from its points: pearson 0.99 recorded"),
        "{line}"
    );
    // A table the record does not name is refused.
    let line = dir.bad_input(&report(
        "other",
        &[
            "--agreement",
            "site/agreement.json",
            "--validation",
            "site/balance.csv:sweep_cp",
        ],
    ));
    assert!(line.contains("names no table with the SHA-256"), "{line}");
}

#[test]
fn report_validation_refuses_tables_it_would_drop_or_double_count() {
    let dir = Dir::new();
    site_with_agreement(&dir);
    table(&dir, "five.csv", 0..5, &|sp| wobble(sp, 1));
    for (extra, wanted) in [
        (
            vec!["--validation", "x.csv", "--validation", "five.csv"],
            "share 5 positions; at least 10 are needed",
        ),
        (
            vec!["--validation", "x.csv", "--validation", "x.csv"],
            "a table given twice",
        ),
        (
            vec![
                "--validation",
                "x.csv",
                "--validation",
                "site/balance.csv:sweep_cp",
            ],
            "the same measurement",
        ),
        (
            vec!["--validation", "site/balance.csv:sweep_cp"],
            "not an independent analysis",
        ),
    ] {
        let line = dir.bad_input(&report("other", &extra));
        assert!(line.contains(wanted), "{extra:?}: {line}");
        assert!(!dir.file("other").exists(), "{extra:?} wrote a site");
    }
    // A copy under another name is the same table.
    fs::copy(dir.file("x.csv"), dir.file("copy.csv")).unwrap();
    let line = dir.bad_input(&report(
        "other",
        &["--validation", "x.csv", "--validation", "copy.csv"],
    ));
    assert!(
        line.contains("copy.csv") && line.contains("x.csv"),
        "{line}"
    );
}

#[test]
fn compare_refuses_tables_given_twice_or_compared_with_themselves() {
    let dir = Dir::new();
    table(&dir, "ours.csv", 0..960, &|sp| wobble(sp, 1));
    table(&dir, "a.csv", 0..960, &|sp| wobble(sp, 1) + wobble(sp, 2));
    fs::copy(dir.file("a.csv"), dir.file("b.csv")).unwrap();
    let line = dir.bad_input(&["compare", "ours.csv", "--with", "a.csv", "--with", "b.csv"]);
    assert!(line.contains("a table given twice"), "{line}");
    let line = dir.bad_input(&["compare", "ours.csv", "--with", "ours.csv"]);
    assert!(line.contains("the same measurement"), "{line}");
}

#[test]
fn columns_that_contradict_themselves_are_refused() {
    let dir = Dir::new();
    table(&dir, "ours.csv", 0..960, &|sp| wobble(sp, 1));
    fs::write(dir.file("values.csv"), "sp,value,value\n1,2,3\n").unwrap();
    fs::write(dir.file("sps.csv"), "sp,sp,value\n1,2,3\n").unwrap();
    for (name, wanted) in [
        ("values.csv", "names column value twice"),
        ("sps.csv", "names column sp twice"),
    ] {
        let line = dir.bad_input(&["compare", "ours.csv", "--with", name]);
        assert!(line.contains(name) && line.contains(wanted), "{line}");
    }
}

#[test]
fn compare_refuses_an_empty_cell_naming_the_file_and_row() {
    let dir = Dir::new();
    table(&dir, "ours.csv", 0..960, &|sp| wobble(sp, 1));
    let mut text = String::from("sp,value\n");
    for sp in 0..960 {
        let value = if sp == 7 {
            String::new()
        } else {
            wobble(sp, 2).to_string()
        };
        let _ = writeln!(text, "{sp},{value}");
    }
    fs::write(dir.file("gap.csv"), text).unwrap();
    let line = dir.bad_input(&["compare", "ours.csv", "--with", "gap.csv"]);
    assert!(
        line.contains("gap.csv: row 9: the value cell of SP 7 is empty"),
        "{line}"
    );
    // A position left out is a position the table does not score.
    table(&dir, "short.csv", (0..960).filter(|sp| *sp != 7), &|sp| {
        wobble(sp, 2)
    });
    let json: Value = serde_json::from_str(&dir.ok(&[
        "compare",
        "ours.csv",
        "--with",
        "short.csv",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(json["rows"][0]["positions"], 959);
}

#[test]
fn compare_says_a_constant_reference_has_no_spread() {
    let dir = Dir::new();
    table(&dir, "ours.csv", 0..960, &|sp| wobble(sp, 1));
    table(&dir, "flat.csv", 0..960, &|_| 25.0);
    let line = dir.bad_input(&["compare", "ours.csv", "--with", "flat.csv"]);
    assert!(
        line.contains("flat.csv has no spread: the same value at all 960 positions"),
        "{line}"
    );
    let line = dir.bad_input(&["compare", "flat.csv", "--with", "ours.csv"]);
    assert!(line.contains("flat.csv:value has no spread"), "{line}");
}

#[test]
fn csv_outputs_quote_every_cell_and_keep_formulas_inert() {
    let dir = Dir::new();
    site_with_agreement(&dir);
    // `compare --format csv`: a table named like a formula.
    fs::copy(dir.file("x.csv"), dir.file("=2+5.csv")).unwrap();
    let csv = dir.ok(&[
        "compare",
        "site/balance.csv:sweep_cp",
        "--with",
        "=2+5.csv",
        "--format",
        "csv",
    ]);
    let row = csv.lines().nth(1).unwrap();
    assert!(
        row.starts_with("\"'=2+5.csv\",\"'=2+5.csv:value\",\"site/balance.csv:sweep_cp\","),
        "{row}"
    );
    for line in csv.lines() {
        assert!(line.starts_with('"') && line.ends_with('"'), "{line}");
    }
    // The report's agreement.csv: every cell quoted, names inert.
    dir.ok(&report(
        "formula",
        &["--validation", "=2+5.csv", "--validation", "y.csv"],
    ));
    let written = fs::read_to_string(dir.file("formula/agreement.csv")).unwrap();
    assert_eq!(written.lines().count(), 4, "{written}");
    assert!(
        written
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("\"'=2+5.csv\",\"")
    );
    for line in written.lines() {
        assert!(line.starts_with('"') && line.ends_with('"'), "{line}");
    }
    // A recorded SHA-256 that is not 64 hex digits (here one that would
    // add a row to agreement.csv) is refused.
    edited_record(&dir, "crafted.json", &|r| {
        r["references"][0]["sha256"] = "0\n\"=1+1\",x".into();
    });
    let line = dir.bad_input(&report("again", &["--agreement", "crafted.json"]));
    assert!(line.contains("is not 64 hex digits"), "{line}");
    assert!(!dir.file("again").exists());
}

#[test]
fn an_out_directory_is_bad_input_for_positions_show_and_compare() {
    let dir = Dir::new();
    fs::create_dir(dir.file("d")).unwrap();
    table(&dir, "ours.csv", 0..960, &|sp| wobble(sp, 1));
    table(&dir, "a.csv", 0..960, &|sp| wobble(sp, 1) + wobble(sp, 2));
    for args in [
        vec!["positions", "--out", "d"],
        vec!["show", "518", "--out", "d"],
        vec!["show", "518", "--format", "png", "--out", "d"],
        vec!["compare", "ours.csv", "--with", "a.csv", "--out", "d"],
    ] {
        let line = dir.bad_input(&args);
        assert!(line.contains("d is a directory"), "{args:?}: {line}");
        assert!(dir.file("d").is_dir() && fs::read_dir(dir.file("d")).unwrap().count() == 0);
    }
}
