//! `c960 balance` on tables with known truth: clear positions get their
//! verdicts, noise gets none, reliability is stated, and `c960 draw
//! --verdict` draws only what the table calls balanced.

use crate::util;

use std::fs::File;

use c960_balance::rng::Rng;
use polars::prelude::*;
use util::Dir;

/// A game table: `per` games for each position in `sps`, White's expected
/// score `truth(sp)`, a third of games drawn.
fn games_table(dir: &Dir, name: &str, sps: &[u32], per: u32, truth: &dyn Fn(u32) -> f64) {
    let mut rng = Rng::new(5);
    let (mut sp_col, mut game_col, mut score_col) = (Vec::new(), Vec::new(), Vec::new());
    for &sp in sps {
        let score = truth(sp);
        let draws = 0.34;
        let win = score - draws / 2.0;
        for g in 0..per {
            let u = rng.uniform();
            sp_col.push(sp);
            game_col.push(g);
            score_col.push(if u < win {
                1.0
            } else if u < win + draws {
                0.5
            } else {
                0.0
            });
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
    ParquetWriter::new(File::create(dir.file(name)).unwrap())
        .finish(&mut frame)
        .unwrap();
}

fn column(csv: &str, name: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let at = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == name)
        .unwrap();
    reader
        .records()
        .map(|r| r.unwrap()[at].to_owned())
        .collect()
}

#[test]
fn clear_positions_get_verdicts_and_the_draw_can_use_them() {
    let dir = Dir::new();
    // 60 positions: 0-19 at the mean, 20-39 far above, 40-59 far below.
    let sps: Vec<u32> = (0..60).collect();
    let truth = |sp: u32| match sp {
        0..=19 => 0.54,
        20..=39 => 0.70,
        _ => 0.38,
    };
    // Anytime-valid intervals are wider than fixed-n ones: a balanced
    // verdict within ±0.02 needs some 5,000 games.
    games_table(&dir, "games.parquet", &sps, 6000, &truth);
    let out = dir.ok(&["balance", "--games", "games.parquet", "--out", "bal"]);
    assert!(out.contains("high reliability"), "{out}");
    let csv = std::fs::read_to_string(dir.file("bal/balance.csv")).unwrap();
    let verdicts = column(&csv, "verdict");
    assert_eq!(verdicts.len(), 60);
    for (sp, v) in verdicts.iter().enumerate() {
        let expected = match sp {
            0..=19 => ["balanced", "unresolved"],
            20..=39 => ["more-for-white", "more-for-white"],
            _ => ["less-for-white", "less-for-white"],
        };
        assert!(expected.contains(&v.as_str()), "SP {sp}: {v}");
    }
    let balanced: Vec<usize> = verdicts
        .iter()
        .enumerate()
        .filter(|(_, v)| *v == "balanced")
        .map(|(i, _)| i)
        .collect();
    assert!(
        balanced.len() >= 5,
        "centred positions decided: {balanced:?}"
    );
    let q: Vec<f64> = column(&csv, "q_value")
        .iter()
        .map(|q| q.parse().unwrap())
        .collect();
    assert!(q.iter().all(|q| (0.0..=1.0).contains(q)));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("bal/balance.json")).unwrap())
            .unwrap();
    assert_eq!(json["settings"]["level"], 0.05);
    assert!(json["games"]["reliability"]["whole"].as_f64().unwrap() > 0.9);

    let drawn = dir.ok(&[
        "draw",
        "--seed",
        "3",
        "--rounds",
        "5",
        "--verdict",
        "balanced",
        "--balance",
        "bal",
        "--format",
        "json",
    ]);
    let drawn: serde_json::Value = serde_json::from_str(&drawn).unwrap();
    assert!(
        drawn["filters"]
            .as_str()
            .unwrap()
            .contains("only verdict balanced"),
        "{drawn}"
    );
    for round in drawn["rounds"].as_array().unwrap() {
        let sp = round["sp"].as_u64().unwrap() as usize;
        assert!(balanced.contains(&sp), "drew SP {sp}, not balanced");
    }
}

#[test]
fn fixed_n_tests_are_sharper_when_the_games_were_fixed_in_advance() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..60).collect();
    games_table(&dir, "games.parquet", &sps, 6000, &|sp| match sp {
        0..=39 => 0.54,
        40..=49 => 0.70,
        _ => 0.38,
    });
    dir.ok(&["balance", "--games", "games.parquet", "--out", "anytime"]);
    dir.ok(&[
        "balance",
        "--games",
        "games.parquet",
        "--fixed-n",
        "--out",
        "fixed",
    ]);
    let balanced = |out: &str| {
        let csv = std::fs::read_to_string(dir.file(out).join("balance.csv")).unwrap();
        column(&csv, "verdict")
            .iter()
            .filter(|v| *v == "balanced")
            .count()
    };
    assert!(
        balanced("fixed") > balanced("anytime"),
        "{} vs {}",
        balanced("fixed"),
        balanced("anytime")
    );
    assert!(balanced("fixed") >= 25, "{}", balanced("fixed"));
}

#[test]
fn noise_decides_nothing_and_says_so() {
    let dir = Dir::new();
    let sps: Vec<u32> = (0..960).collect();
    // Ten games a position from one true score: nothing to tell apart.
    games_table(&dir, "games.parquet", &sps, 10, &|_| 0.54);
    let out = dir.ok(&["balance", "--games", "games.parquet", "--out", "bal"]);
    assert!(out.contains("mostly noise"), "{out}");
    let csv = std::fs::read_to_string(dir.file("bal/balance.csv")).unwrap();
    assert!(column(&csv, "verdict").iter().all(|v| v == "unresolved"));
    // A single rater cannot measure its own view: no sweep verdicts and no
    // interval either.
    let sweep = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let out = dir.ok(&[
        "balance",
        "--sweep",
        sweep.to_str().unwrap(),
        "--out",
        "bal2",
    ]);
    assert!(out.contains("one rater"), "{out}");
    let csv = std::fs::read_to_string(dir.file("bal2/balance.csv")).unwrap();
    assert!(
        column(&csv, "sweep_verdict")
            .iter()
            .all(|v| v == "unresolved")
    );
    assert!(column(&csv, "sweep_cp_low").iter().all(String::is_empty));
}

#[test]
fn balance_bad_input_is_one_line() {
    let dir = Dir::new();
    let line = dir.bad_input(&["balance", "--out", "x"]);
    assert!(line.contains("--games or --sweep"), "{line}");
    let line = dir.bad_input(&["balance", "--games", "nothing.parquet", "--out", "x"]);
    assert!(line.contains("does not exist"), "{line}");
    let line = dir.bad_input(&["balance", "--games", ".", "--fdr", "2", "--out", "x"]);
    assert!(line.contains("--fdr"), "{line}");
    let line = dir.bad_input(&["draw", "--seed", "1", "--verdict", "balanced"]);
    assert!(line.contains("--balance"), "{line}");
}

#[test]
fn verdicts_come_from_the_more_reliable_method_unless_told() {
    let dir = Dir::new();
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data");
    // Two raters — four searches of every position (repeatability 0.97)
    // and one deeper search with MultiPV 3 — against ten noise games for
    // SPs 0..900 (reliability about 0).
    let repeats = data.join("research-v2/stockfish-repeats.parquet");
    let repeats = repeats.to_str().unwrap();
    let deep = data.join("sweep-stockfish-15.1-nodes1000000-mpv3");
    let deep = deep.to_str().unwrap();
    games_table(
        &dir,
        "games.parquet",
        &(0..900).collect::<Vec<_>>(),
        10,
        &|_| 0.54,
    );
    // `c960 balance` over the games and sweeps, into `out`.
    let balance = |sweeps: &[&str], extra: &[&str], out: &str| -> String {
        let mut args = vec!["balance", "--games", "games.parquet"];
        for sweep in sweeps {
            args.extend(["--sweep", sweep]);
        }
        args.extend(extra);
        args.extend(["--out", out]);
        dir.ok(&args)
    };
    let out = balance(&[repeats, deep], &[], "auto");
    assert!(out.contains("verdicts from the sweep consensus"), "{out}");
    let csv = std::fs::read_to_string(dir.file("auto/balance.csv")).unwrap();
    let method = column(&csv, "verdict_method");
    assert_eq!(method.len(), 960);
    assert!(method.iter().all(|m| m == "sweep"));
    // The primary columns are the sweep's: its verdicts are made.
    assert_eq!(column(&csv, "verdict"), column(&csv, "sweep_verdict"));
    assert!(column(&csv, "verdict").iter().any(|v| v != "unresolved"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("auto/balance.json")).unwrap())
            .unwrap();
    assert_eq!(json["verdict_method"], "sweep");
    assert_eq!(json["settings"]["verdicts_from"], "more-reliable");

    // Told to take the games: every position with games gets theirs (all
    // unresolved), the 60 without fall back to the sweep.
    let out = balance(&[repeats, deep], &["--verdicts-from", "games"], "games");
    assert!(out.contains("verdicts from the games"), "{out}");
    let csv = std::fs::read_to_string(dir.file("games/balance.csv")).unwrap();
    let method = column(&csv, "verdict_method");
    let verdict = column(&csv, "verdict");
    for (sp, m) in method.iter().enumerate() {
        assert_eq!(m, if sp < 900 { "games" } else { "sweep" }, "SP {sp}");
        if sp < 900 {
            assert_eq!(verdict[sp], "unresolved");
        }
    }

    // A single search per position has no measurable reliability: games
    // whose reliability is measured (however low) give the verdicts.
    balance(&[deep], &[], "single");
    let csv = std::fs::read_to_string(dir.file("single/balance.csv")).unwrap();
    let method = column(&csv, "verdict_method");
    assert!(method[..900].iter().all(|m| m == "games"));
    let line = dir.bad_input(&["balance", "--games", ".", "--verdicts-from", "best"]);
    assert!(line.contains("--verdicts-from"), "{line}");
}
