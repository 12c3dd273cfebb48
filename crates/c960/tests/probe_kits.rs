//! Draw records accepted in one form only, counts that cannot make a
//! verification run away, kits and reports that replace only the regular
//! files they wrote, and messages that say what they mean. Each test is
//! named after its defect and fails without the fix.

use crate::util;

use std::{
    fmt::Write as _,
    fs::{self, File},
    os::unix::fs::symlink,
    process::Command,
    time::{Duration, Instant},
};

use polars::prelude::*;
use serde_json::{Value, json};
use util::Dir;

/// A kit drawn by seed 11 into `kit`: three rounds, all published, or
/// with `sealed` one published and two sealed by `SECRET`.
fn kit(dir: &Dir, out: &str, sealed: bool) -> Value {
    let mut args = vec!["tournament", "--seed", "11", "--rounds", "3", "--out", out];
    if sealed {
        args.extend(["--publish-rounds", "1", "--secret", SECRET]);
    }
    dir.ok(&args);
    serde_json::from_str(&fs::read_to_string(dir.file(out).join("draw.json")).unwrap()).unwrap()
}

const SECRET: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// `c960 draw --verify` of `record` written as `name`: the refusal's
/// line, which names the file.
fn refused(dir: &Dir, name: &str, record: &Value, extra: &[&str]) -> String {
    fs::write(dir.file(name), record.to_string()).unwrap();
    let mut args = vec!["draw", "--verify", name];
    args.extend_from_slice(extra);
    let line = dir.bad_input(&args);
    assert!(line.contains(name), "{line}");
    line
}

#[test]
fn draw_verify_refuses_non_canonical_records() {
    let dir = Dir::new();
    let record = kit(&dir, "kit", false);
    let ok = dir.ok(&["draw", "--verify", "kit/draw.json"]);
    assert!(ok.contains("rounds 1-3 follow from seed 11"), "{ok}");
    let edited = |edit: &dyn Fn(&mut Value)| {
        let mut copy = record.clone();
        edit(&mut copy);
        copy
    };
    let cases: Vec<(Value, &str)> = vec![
        // No published round: "rounds 1-0 follow" and a key for any round.
        (
            edited(&|r| {
                r["rounds"] = json!([]);
                r["published_rounds"] = json!(0);
            }),
            "\"rounds\" is empty",
        ),
        // Shuffled: c960 sorted them, VERIFY.md's Python would not.
        (
            edited(&|r| {
                let mut sps = r["candidate_sps"].as_array().unwrap().clone();
                sps.reverse();
                r["candidate_sps"] = json!(sps);
            }),
            "ascending order, each once",
        ),
        // A duplicate weighs a position twice in VERIFY.md's Python.
        (
            edited(&|r| {
                let mut sps = r["candidate_sps"].as_array().unwrap().clone();
                sps.insert(1, sps[0].clone());
                r["candidate_sps"] = json!(sps);
                r["candidates"] = json!(sps.len());
            }),
            "ascending order, each once",
        ),
        (
            edited(&|r| r["total_rounds"] = json!(7)),
            "\"total_rounds\"",
        ),
        (
            edited(&|r| r["published_rounds"] = json!(2)),
            "\"published_rounds\" is 2",
        ),
        (
            edited(&|r| r["candidates"] = json!(12)),
            "\"candidates\" is 12",
        ),
        (
            edited(&|r| r["filter_settings"]["exclude"] = json!([5000])),
            "\"filter_settings.exclude\" holds 5000",
        ),
        (
            edited(&|r| r["rounds"][0]["placement"] = json!("RNBQKBNR")),
            "has placement \"RNBQKBNR\"",
        ),
        (
            edited(&|r| r["rounds"][1]["round"] = json!(5)),
            "has round \"5\"",
        ),
        (
            edited(&|r| r["filters"] = json!("at most 1 weak pawn")),
            "\"filters\"",
        ),
        (edited(&|r| r["kind"] = json!("other")), "\"kind\""),
        (edited(&|r| r["lang"] = json!("xx")), "\"lang\""),
        (edited(&|r| r["phrase"] = json!("also")), "\"phrase\": null"),
        (edited(&|r| r["extra"] = json!(1)), "unknown field `extra`"),
    ];
    for (i, (record, wanted)) in cases.iter().enumerate() {
        let line = refused(&dir, &format!("case{i}.json"), record, &[]);
        assert!(line.contains(wanted), "case {i}: {line}");
    }
    // A record of one round says so in the singular.
    dir.ok(&[
        "tournament",
        "--seed",
        "11",
        "--rounds",
        "1",
        "--out",
        "one",
    ]);
    let ok = dir.ok(&["draw", "--verify", "one/draw.json"]);
    assert!(ok.contains("round 1 follows from seed 11"), "{ok}");
}

#[test]
fn draw_verify_refuses_runaway_counts_instantly() {
    let dir = Dir::new();
    let open = kit(&dir, "kit", false);
    let sealed = kit(&dir, "sealed", true);
    let key = SECRET;
    let mut cases: Vec<(Value, Vec<&str>, &str)> = Vec::new();
    let mut huge = open.clone();
    huge["total_rounds"] = json!(1_000_000_000_u64);
    cases.push((huge, vec![], "\"total_rounds\" is 1000000000"));
    let mut huge = sealed.clone();
    huge["total_rounds"] = json!(1_000_000_000_u64);
    huge["sealed"]["rounds"] = json!(999_999_999_u64);
    cases.push((huge, vec!["--key", key], "\"total_rounds\" is 1000000000"));
    let mut huge = sealed.clone();
    huge["sealed"]["rounds"] = json!(1_000_000_000_000_u64);
    let other_key = "ab".repeat(32);
    cases.push((huge.clone(), vec![], "\"sealed.rounds\""));
    let started = Instant::now();
    for (i, (record, extra, wanted)) in cases.iter().enumerate() {
        let line = refused(&dir, &format!("case{i}.json"), record, extra);
        assert!(line.contains(wanted), "case {i}: {line}");
    }
    let line = refused(&dir, "key.json", &huge, &["--key", &other_key]);
    assert!(line.contains("\"sealed.rounds\""), "{line}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    // The kit itself opens with its secret.
    let opened = dir.ok(&["draw", "--verify", "sealed/draw.json", "--key", key]);
    assert!(opened.contains("opens sealed round 3"), "{opened}");
}

#[test]
fn a_kit_replaces_only_regular_files_it_wrote() {
    let dir = Dir::new();
    kit(&dir, "kit", false);
    // A folder named like a round page, with a file of its own.
    fs::create_dir(dir.file("kit/round-7.html")).unwrap();
    fs::write(dir.file("kit/round-7.html/mine.txt"), "mine").unwrap();
    let line = dir.bad_input(&["tournament", "--seed", "11", "--out", "kit"]);
    assert!(
        line.contains("round-7.html is not a regular file"),
        "{line}"
    );
    assert_eq!(
        fs::read_to_string(dir.file("kit/round-7.html/mine.txt")).unwrap(),
        "mine"
    );
    fs::remove_dir_all(dir.file("kit/round-7.html")).unwrap();
    // A link named like the PDF.
    fs::write(dir.file("precious.pdf"), "precious").unwrap();
    symlink("../precious.pdf", dir.file("kit/kit.pdf")).unwrap();
    let line = dir.bad_input(&["tournament", "--seed", "11", "--out", "kit"]);
    assert!(line.contains("kit.pdf is not a regular file"), "{line}");
    assert!(
        fs::symlink_metadata(dir.file("kit/kit.pdf"))
            .unwrap()
            .is_symlink()
    );
    fs::remove_file(dir.file("kit/kit.pdf")).unwrap();
    dir.ok(&["tournament", "--seed", "11", "--out", "kit"]);
}

#[test]
fn a_sealed_kit_whose_secret_file_was_moved_away_is_not_replaced() {
    let dir = Dir::new();
    let record = kit(&dir, "kit", true);
    let commitment = record["sealed"]["commitment"].as_str().unwrap().to_owned();
    fs::rename(dir.file("kit/SECRET.txt"), dir.file("safe.txt")).unwrap();
    let before = fs::read_to_string(dir.file("kit/draw.json")).unwrap();
    for args in [
        &[
            "tournament",
            "--seed",
            "11",
            "--rounds",
            "3",
            "--out",
            "kit",
        ][..],
        &[
            "tournament",
            "--seed",
            "11",
            "--rounds",
            "3",
            "--publish-rounds",
            "1",
            "--out",
            "kit",
        ],
    ] {
        let line = dir.bad_input(args);
        assert!(line.contains(&commitment), "{line}");
        assert!(line.contains("draw.json"), "{line}");
    }
    assert_eq!(
        fs::read_to_string(dir.file("kit/draw.json")).unwrap(),
        before
    );
    // The same secret makes the same kit, fingerprint and all.
    kit(&dir, "kit", true);
    assert_eq!(
        fs::read_to_string(dir.file("kit/draw.json")).unwrap(),
        before
    );
}

#[test]
fn a_report_replaces_only_regular_files_it_wrote() {
    let dir = Dir::new();
    dir.ok(&[
        "selfplay",
        "--engine",
        "builtin",
        "--jobs",
        "1",
        "--quiet",
        "--positions",
        "0-1",
        "--games-per-position",
        "2",
        "--nodes",
        "200",
        "--max-plies",
        "16",
        "--out",
        "run",
    ]);
    dir.ok(&["report", "--selfplay", "run", "--out", "site", "--quiet"]);
    let own: Vec<String> = fs::read_dir(dir.file("site"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("first-moves-"))
        .collect();
    assert_eq!(own.len(), 1, "{own:?}");
    // Its own first-move table is replaced; someone's is not.
    dir.ok(&["report", "--selfplay", "run", "--out", "site", "--quiet"]);
    fs::write(dir.file("site/first-moves-mine.csv"), "mine").unwrap();
    let line = dir.bad_input(&["report", "--selfplay", "run", "--out", "site", "--quiet"]);
    assert!(line.contains("first-moves-mine.csv"), "{line}");
    assert_eq!(
        fs::read_to_string(dir.file("site/first-moves-mine.csv")).unwrap(),
        "mine"
    );
    fs::remove_file(dir.file("site/first-moves-mine.csv")).unwrap();
    // A FIFO named like its front page.
    fs::remove_file(dir.file("site/index.html")).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.file("site/index.html"))
        .status()
        .unwrap();
    assert!(made.success());
    let line = dir.bad_input(&["report", "--selfplay", "run", "--out", "site", "--quiet"]);
    assert!(line.contains("index.html"), "{line}");
    assert!(
        !fs::symlink_metadata(dir.file("site/index.html"))
            .unwrap()
            .is_file()
    );
}

/// A sweep table of `engine` scoring SP 0..`count` by `value`.
fn sweep_table(dir: &Dir, name: &str, engine: &str, count: u32, value: &dyn Fn(u32) -> f64) {
    let sps: Vec<u32> = (0..count).collect();
    let n = sps.len();
    let text = |v: &str| vec![v.to_owned(); n];
    let mut frame = DataFrame::new(
        n,
        vec![
            Column::new("sp".into(), sps.clone()),
            Column::new("repeat".into(), vec![0u64; n]),
            Column::new("engine".into(), text(engine)),
            Column::new("limit".into(), text("nodes 1000")),
            Column::new("engine_options".into(), text("Threads=1, Hash=16")),
            Column::new(
                "score_cp".into(),
                sps.iter().map(|&sp| value(sp)).collect::<Vec<f64>>(),
            ),
            Column::new("score_mate".into(), vec![None::<i32>; n]),
        ],
    )
    .unwrap();
    ParquetWriter::new(File::create(dir.file(name)).unwrap())
        .finish(&mut frame)
        .unwrap();
}

#[test]
fn balance_never_prints_a_nan_decile() {
    // Two raters of six positions: too few for a decile (10) and for the
    // consensus's common scale, so the balance is refused in words, never
    // shown with a decile overlap of NaN.
    let dir = Dir::new();
    sweep_table(&dir, "a.parquet", "Engine A", 6, &|sp| f64::from(sp * 3));
    sweep_table(&dir, "b.parquet", "Engine B", 6, &|sp| {
        f64::from(sp * 2 + sp % 2)
    });
    let line = dir.bad_input(&[
        "balance",
        "--sweep",
        "a.parquet",
        "--sweep",
        "b.parquet",
        "--out",
        "bal",
    ]);
    assert!(!line.contains("NaN"), "{line}");
    assert!(line.contains("scores only 6 positions;"), "{line}");
}

#[test]
fn compare_names_a_column_whose_name_holds_a_colon() {
    let dir = Dir::new();
    let (mut ours, mut theirs) = ("sp,\"a:b\",c\n".to_owned(), "sp,value\n".to_owned());
    for sp in 0..30u32 {
        writeln!(ours, "{sp},{},{}", sp * 2, (sp * 7) % 13).unwrap();
        writeln!(theirs, "{sp},{}", sp * 3 + (sp * 7) % 5).unwrap();
    }
    fs::write(dir.file("t.csv"), ours).unwrap();
    fs::write(dir.file("u.csv"), theirs).unwrap();
    // Column a:b is twice the SP, column c is not: r is near 1 only for
    // a:b (not exactly: an exact rescaling is refused as the same
    // measurement).
    for spec in ["t.csv:\"a:b\"", "t.csv:a:b"] {
        let out = dir.ok(&["compare", spec, "--with", "u.csv", "--format", "json"]);
        let doc: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["ours"], "t.csv:\"a:b\"", "{doc}");
        assert!(
            doc["rows"][0]["pearson"]["value"].as_f64().unwrap() > 0.99,
            "{doc}"
        );
    }
    let line = dir.bad_input(&["compare", "t.csv:\"a:c\"", "--with", "u.csv"]);
    assert!(line.contains("no column \"a:c\""), "{line}");
    assert!(line.contains("FILE:\"a:b\""), "{line}");
}
