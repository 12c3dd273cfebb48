//! The rater consensus cannot be fooled into certainty by its inputs:
//! copies of a rater count once, a rater running against the others or
//! with too little to say is refused by name, absurd scores are refused,
//! and tables that contradict themselves are refused.

use crate::util;

use std::{fmt::Write as _, fs::File};

use polars::prelude::*;
use util::Dir;

/// Writes a sweep table `name`: engine `engine` with options `options`,
/// one search per position of `sps` scoring `value(sp)` cp.
fn sweep(
    dir: &Dir,
    name: &str,
    engine: &str,
    options: &str,
    sps: &[u32],
    value: &dyn Fn(u32) -> f64,
) {
    let n = sps.len();
    let text = |v: &str| vec![v.to_owned(); n];
    let mut frame = DataFrame::new(
        n,
        vec![
            Column::new("sp".into(), sps.to_vec()),
            Column::new("engine".into(), text(engine)),
            Column::new("limit".into(), text("nodes 5000")),
            Column::new("engine_options".into(), text(options)),
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

/// A position's balance, and as three raters of different views see it
/// (they agree at r ≈ 0.85–0.9, as distinct engines do at most).
fn truth(sp: u32) -> f64 {
    f64::from((sp * 37) % 61)
}
fn view_b(sp: u32) -> f64 {
    1.3 * truth(sp) + f64::from((sp * 7) % 31)
}
fn view_c(sp: u32) -> f64 {
    0.8 * truth(sp) + f64::from((sp * 11) % 27)
}

/// Three honest raters over `sps` in `dir`: a.parquet, b.parquet, c.parquet.
fn honest(dir: &Dir, sps: &[u32]) {
    sweep(dir, "a.parquet", "Engine A", "Hash=16", sps, &|sp| {
        truth(sp) + f64::from((sp * 5) % 29)
    });
    sweep(dir, "b.parquet", "Engine B", "Hash=16", sps, &view_b);
    sweep(dir, "c.parquet", "Engine C", "Hash=16", sps, &view_c);
}

fn balance(dir: &Dir, sweeps: &[&str], out: &str) -> util::Run {
    let mut args = vec!["balance"];
    for s in sweeps {
        args.extend(["--sweep", *s]);
    }
    args.extend(["--out", out]);
    dir.run(&args)
}

/// Runs `c960 balance` expecting a refusal: one line, exit 2, no table.
fn refused(dir: &Dir, sweeps: &[&str]) -> String {
    let mut args = vec!["balance"];
    for s in sweeps {
        args.extend(["--sweep", *s]);
    }
    args.extend(["--out", "refused"]);
    let line = dir.bad_input(&args);
    assert!(
        !dir.file("refused").exists(),
        "a refused balance wrote something"
    );
    line
}

/// The cells of column `name` of the CSV file at `path`.
fn csv_column(path: &std::path::Path, name: &str) -> Vec<String> {
    crate::balance::column(&std::fs::read_to_string(path).unwrap(), name)
}

#[test]
fn identical_raters_count_once() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..8).collect();
    // Two sweeps whose settings differ in a way that changes nothing:
    // the same scores. Together they are one rater: no interval, no
    // verdict, and the merge is named.
    sweep(&dir, "h16.parquet", "Stockfish", "Hash=16", &sps, &truth);
    sweep(&dir, "h17.parquet", "Stockfish", "Hash=17", &sps, &truth);
    // Eight positions are too few to tell copies apart by correlation or
    // to put raters on one scale, but identical scores are a copy however
    // few.
    let run = balance(&dir, &["h16.parquet", "h17.parquet"], "merged");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("is a copy of") && run.stderr.contains("Hash=17"),
        "{}",
        run.stderr
    );
    let csv = dir.file("merged/balance.csv");
    assert!(
        csv_column(&csv, "sweep_cp_low")
            .iter()
            .all(String::is_empty)
    );
    assert!(
        csv_column(&csv, "verdict")
            .iter()
            .all(|v| v == "unresolved")
    );
    let json = std::fs::read_to_string(dir.file("merged/balance.json")).unwrap();
    assert!(json.contains("\"merged\""), "{json}");
}

#[test]
fn a_relabelled_copy_of_part_of_a_rater_is_merged() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..200).collect();
    honest(&dir, &sps);
    let part: Vec<u32> = (0..100).collect();
    sweep(
        &dir,
        "copy.parquet",
        "Engine A copy",
        "Hash=16",
        &part,
        &|sp| truth(sp) + f64::from((sp * 5) % 29),
    );
    let run = balance(&dir, &["a.parquet", "b.parquet", "c.parquet"], "three");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = balance(
        &dir,
        &["a.parquet", "b.parquet", "c.parquet", "copy.parquet"],
        "four",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("copy.parquet") || run.stderr.contains("Engine A copy"));
    // The copy changes no interval and no verdict.
    for column in ["sweep_cp_low", "sweep_cp_high", "verdict"] {
        assert_eq!(
            csv_column(&dir.file("three/balance.csv"), column),
            csv_column(&dir.file("four/balance.csv"), column),
            "{column}"
        );
    }
}

#[test]
fn a_sign_flipped_rater_is_refused() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..200).collect();
    honest(&dir, &sps);
    sweep(
        &dir,
        "flipped.parquet",
        "Engine F",
        "Hash=16",
        &sps,
        &|sp| -view_b(sp),
    );
    let line = refused(&dir, &["a.parquet", "b.parquet", "flipped.parquet"]);
    assert!(
        line.contains("Engine F") && line.contains("run against"),
        "{line}"
    );
}

#[test]
fn one_degenerate_rater_is_refused_by_name() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..200).collect();
    honest(&dir, &sps);
    sweep(&dir, "two.parquet", "Engine T", "Hash=16", &[3, 4], &truth);
    let line = refused(&dir, &["a.parquet", "b.parquet", "two.parquet"]);
    assert!(
        line.contains("Engine T") && line.contains("only 2"),
        "{line}"
    );
    sweep(&dir, "flat.parquet", "Engine K", "Hash=16", &sps, &|_| 25.0);
    let line = refused(&dir, &["a.parquet", "b.parquet", "flat.parquet"]);
    assert!(
        line.contains("Engine K") && line.contains("do not vary"),
        "{line}"
    );
}

#[test]
fn absurd_finite_scores_are_refused() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..200).collect();
    honest(&dir, &sps);
    for (name, value) in [("huge.parquet", 1e300), ("int.parquet", 2_147_483_647.0)] {
        sweep(&dir, name, "Engine H", "Hash=16", &sps, &|sp| {
            if sp == 9 { value } else { view_c(sp) }
        });
        let line = refused(&dir, &["a.parquet", "b.parquet", name]);
        assert!(line.contains(name) && line.contains("SP 9"), "{line}");
    }
}

#[test]
fn a_sweep_table_with_a_position_twice_and_no_repeat_column_is_refused() {
    let dir = Dir::new();
    let mut sps: Vec<u32> = (0..20).collect();
    sps.push(5);
    sweep(&dir, "twice.parquet", "Engine A", "Hash=16", &sps, &truth);
    let line = refused(&dir, &["twice.parquet"]);
    assert!(line.contains("SP 5 appears twice"), "{line}");
}

#[test]
fn a_verdict_table_listing_a_position_twice_is_refused() {
    let dir = Dir::new();
    std::fs::write(
        dir.file("balance.csv"),
        "sp,placement,verdict\n2,BQNNRBKR,balanced\n2,BQNNRBKR,more-for-white\n3,BQNNRKRB,balanced\n",
    )
    .unwrap();
    let line = dir.bad_input(&[
        "draw",
        "--seed",
        "3",
        "--verdict",
        "balanced",
        "--balance",
        "balance.csv",
    ]);
    assert!(line.contains("SP 2 appears twice"), "{line}");
}

#[test]
fn a_ranking_of_noise_never_overrides_the_other_method() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..960).collect();
    // Games whose halves disagree: four games a position, each position's
    // total nearly the same, so one half's mean predicts the other's the
    // wrong way round (split-half reliability below 0).
    let (mut sp_col, mut game_col, mut score_col) = (Vec::new(), Vec::new(), Vec::new());
    for &sp in &sps {
        let games: [f64; 4] = if sp % 2 == 0 {
            [1.0, 1.0, 0.5, 0.0]
        } else {
            [1.0, 0.5, 0.0, 0.0]
        };
        for (g, score) in games.into_iter().enumerate() {
            sp_col.push(sp);
            game_col.push(g as u32);
            score_col.push(score);
        }
    }
    let n = sp_col.len();
    let mut frame = DataFrame::new(
        n,
        vec![
            Column::new("sp".into(), sp_col),
            Column::new("game".into(), game_col),
            Column::new("white_score".into(), score_col),
        ],
    )
    .unwrap();
    ParquetWriter::new(File::create(dir.file("games.parquet")).unwrap())
        .finish(&mut frame)
        .unwrap();
    sweep(&dir, "one.parquet", "Engine A", "Hash=16", &sps, &truth);
    let out = dir.ok(&[
        "balance",
        "--games",
        "games.parquet",
        "--sweep",
        "one.parquet",
        "--out",
        "bal",
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("bal/balance.json")).unwrap())
            .unwrap();
    let games = json["games"]["reliability"]["whole"].as_f64().unwrap();
    assert!(games <= 0.0, "the games should rank noise: {games}");
    assert!(json["sweep"]["reliability"].is_null());
    assert_eq!(json["verdict_method"], "sweep", "{out}");
    assert!(out.contains("verdicts from the sweep consensus"), "{out}");
}

#[test]
fn compare_refuses_statistics_that_overflow() {
    let dir = Dir::new();
    let (mut ours, mut theirs) = (String::from("sp,value\n"), String::from("sp,value\n"));
    for sp in 0..100u32 {
        writeln!(ours, "{sp},{}", truth(sp)).unwrap();
        let value = if sp == 5 { 1e308 } else { view_b(sp) };
        writeln!(theirs, "{sp},{value}").unwrap();
    }
    std::fs::write(dir.file("ours.csv"), ours).unwrap();
    std::fs::write(dir.file("theirs.csv"), theirs).unwrap();
    let line = dir.bad_input(&["compare", "ours.csv", "--with", "theirs.csv"]);
    assert!(
        line.contains("theirs.csv") && line.contains("too large"),
        "{line}"
    );
}

#[test]
fn balance_prints_a_hostile_engine_name_escaped() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..960).collect();
    let hostile = "Evil\u{1b}]0;owned\u{7}\u{1b}[2J\u{202e}enigne";
    sweep(&dir, "a.parquet", hostile, "Hash=16", &sps, &|sp| {
        truth(sp) + f64::from((sp * 5) % 29)
    });
    sweep(&dir, "b.parquet", "Engine B", "Hash=16", &sps, &view_b);
    sweep(&dir, "c.parquet", "Engine C", "Hash=16", &sps, &view_c);
    let run = balance(&dir, &["a.parquet", "b.parquet", "c.parquet"], "out");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for (what, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(!text.contains('\u{1b}'), "an escape on {what}: {text:?}");
        assert!(!text.contains('\u{7}'), "a bell on {what}: {text:?}");
        assert!(
            !text.contains('\u{202e}'),
            "a direction control on {what}: {text:?}"
        );
    }
    // The engine is still named, its controls shown as text.
    assert!(run.stdout.contains("Evil"), "{}", run.stdout);
}
