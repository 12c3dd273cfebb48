//! `c960 balance` on tables with known truth: clear positions get their
//! verdicts, noise gets none, reliability is stated, and `c960 draw
//! --verdict` draws only what the table calls balanced.

use crate::util;

use std::fs::{self, File};

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

/// The cells of column `name` of a CSV text.
pub(crate) fn column(csv: &str, name: &str) -> Vec<String> {
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
    // give the verdicts if their reliability is measured above 0, and
    // never when it is not (a ranking of noise).
    balance(&[deep], &[], "single");
    let csv = std::fs::read_to_string(dir.file("single/balance.csv")).unwrap();
    let method = column(&csv, "verdict_method");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("single/balance.json")).unwrap())
            .unwrap();
    let games = json["games"]["reliability"]["whole"].as_f64().unwrap();
    let expected = if games > 0.0 { "games" } else { "sweep" };
    assert!(method[..900].iter().all(|m| m == expected), "{games}");
    let line = dir.bad_input(&["balance", "--games", ".", "--verdicts-from", "best"]);
    assert!(line.contains("--verdicts-from"), "{line}");
}

/// Runs `c960 balance` expecting bad input and returns its one line.
fn refused(dir: &Dir, sources: &[(&str, &str)]) -> String {
    let mut args = vec!["balance"];
    for (flag, path) in sources {
        args.extend([*flag, *path]);
    }
    args.extend(["--out", "refused"]);
    let line = dir.bad_input(&args);
    assert!(
        !dir.file("refused").join("balance.csv").exists(),
        "a refused balance wrote its table"
    );
    line
}

#[test]
fn balance_given_the_same_input_twice_invents_no_certainty() {
    let dir = Dir::new();
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let sweep = data.join("sweep-stockfish-15.1-nodes1000000-mpv3");
    let sweep = sweep.to_str().unwrap();
    // The same directory twice, and the same table by another path.
    let line = refused(&dir, &[("--sweep", sweep), ("--sweep", sweep)]);
    assert!(line.contains("given twice"), "{line}");
    let table = format!("{sweep}/sweep.parquet");
    let line = refused(&dir, &[("--sweep", sweep), ("--sweep", &table)]);
    assert!(line.contains("given twice"), "{line}");
    // A copy holds the same rows: the same searches would count twice.
    std::fs::copy(&table, dir.file("copy.parquet")).unwrap();
    let line = refused(&dir, &[("--sweep", sweep), ("--sweep", "copy.parquet")]);
    assert!(line.contains("same rows"), "{line}");
    games_table(&dir, "games.parquet", &[1, 2, 3], 10, &|_| 0.5);
    std::fs::copy(dir.file("games.parquet"), dir.file("again.parquet")).unwrap();
    let line = refused(
        &dir,
        &[("--games", "games.parquet"), ("--games", "games.parquet")],
    );
    assert!(line.contains("given twice"), "{line}");
    let line = refused(
        &dir,
        &[("--games", "games.parquet"), ("--games", "again.parquet")],
    );
    assert!(line.contains("same rows"), "{line}");
}

#[test]
fn balance_never_checks_the_seal_of_the_tables_it_reads() {
    let dir = Dir::new();
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data");
    // A sealed table with one byte of its data changed.
    let mut bytes = std::fs::read(data.join("research-v2/stockfish-repeats.parquet")).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(dir.file("damaged.parquet"), bytes).unwrap();
    let line = refused(&dir, &[("--sweep", "damaged.parquet")]);
    assert!(
        line.contains("damaged.parquet") && line.contains("checksum"),
        "{line}"
    );
    // Non-finite scores and a game twice are refused, not averaged.
    let sweep = |name: &str, cp: Vec<f64>, sps: Vec<u32>| {
        let n = cp.len();
        let text = |v: &str| vec![v.to_owned(); n];
        let mut frame = DataFrame::new(
            n,
            vec![
                Column::new("sp".into(), sps),
                Column::new("engine".into(), text("Stockfish 15.1")),
                Column::new("limit".into(), text("nodes 1000")),
                Column::new("engine_options".into(), text("Threads=1, Hash=16")),
                Column::new("score_cp".into(), cp),
                Column::new("score_mate".into(), vec![None::<i32>; n]),
            ],
        )
        .unwrap();
        ParquetWriter::new(File::create(dir.file(name)).unwrap())
            .finish(&mut frame)
            .unwrap();
    };
    sweep("nan.parquet", vec![10.0, f64::NAN, 30.0], vec![0, 1, 2]);
    let line = refused(&dir, &[("--sweep", "nan.parquet")]);
    assert!(line.contains("has the score NaN"), "{line}");
    games_table(&dir, "games.parquet", &[7, 7], 3, &|_| 0.5);
    let line = refused(&dir, &[("--games", "games.parquet")]);
    assert!(line.contains("appears twice"), "{line}");
}

#[test]
fn balance_on_dfrc_tables_is_refused_in_one_line() {
    let dir = Dir::new();
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let dfrc = data.join("dfrc-sample-stockfish-15.1");
    let table = std::fs::read_dir(&dfrc)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "parquet"))
        .unwrap();
    let line = refused(&dir, &[("--sweep", table.to_str().unwrap())]);
    assert!(line.contains("Double Fischer Random"), "{line}");
}

#[test]
fn an_empty_sweep_gives_no_header_only_balance_table() {
    let dir = Dir::new();
    let mut frame = DataFrame::new(
        0,
        vec![
            Column::new("sp".into(), Vec::<u32>::new()),
            Column::new("game".into(), Vec::<u32>::new()),
            Column::new("white_score".into(), Vec::<f64>::new()),
        ],
    )
    .unwrap();
    ParquetWriter::new(File::create(dir.file("empty.parquet")).unwrap())
        .finish(&mut frame)
        .unwrap();
    let line = refused(&dir, &[("--games", "empty.parquet")]);
    assert!(line.contains("score no position"), "{line}");
}

#[test]
fn degenerate_inputs_are_not_shown_as_certain() {
    let dir = Dir::new();
    // Rater A searched each position four times with identical results;
    // rater B once. Rater A alone: no interval and no verdict, however
    // exactly it repeats.
    let sweep = |name: &str, engine: &str, repeats: u32, value: &dyn Fn(u32) -> f64| {
        let (mut sps, mut reps, mut cps) = (Vec::new(), Vec::new(), Vec::new());
        for sp in 0..200u32 {
            for r in 0..repeats {
                sps.push(sp);
                reps.push(u64::from(r));
                cps.push(value(sp));
            }
        }
        let n = sps.len();
        let text = |v: &str| vec![v.to_owned(); n];
        let mut frame = DataFrame::new(
            n,
            vec![
                Column::new("sp".into(), sps),
                Column::new("repeat".into(), reps),
                Column::new("engine".into(), text(engine)),
                Column::new("limit".into(), text("nodes 1000")),
                Column::new("engine_options".into(), text("Threads=1, Hash=16")),
                Column::new("score_cp".into(), cps),
                Column::new("score_mate".into(), vec![None::<i32>; n]),
            ],
        )
        .unwrap();
        ParquetWriter::new(File::create(dir.file(name)).unwrap())
            .finish(&mut frame)
            .unwrap();
    };
    let truth = |sp: u32| f64::from(sp % 40);
    sweep("a.parquet", "Engine A", 4, &|sp| truth(sp));
    sweep("b.parquet", "Engine B", 1, &|sp| {
        2.0 * truth(sp) + f64::from((sp * 7) % 41)
    });
    dir.ok(&["balance", "--sweep", "a.parquet", "--out", "one"]);
    let csv = std::fs::read_to_string(dir.file("one/balance.csv")).unwrap();
    assert!(column(&csv, "sweep_cp_low").iter().all(String::is_empty));
    assert!(
        column(&csv, "sweep_verdict")
            .iter()
            .all(|v| v == "unresolved")
    );
    // With rater B the interval holds their disagreement: never a point.
    dir.ok(&[
        "balance",
        "--sweep",
        "a.parquet",
        "--sweep",
        "b.parquet",
        "--out",
        "two",
    ]);
    let csv = std::fs::read_to_string(dir.file("two/balance.csv")).unwrap();
    let (low, high) = (column(&csv, "sweep_cp_low"), column(&csv, "sweep_cp_high"));
    for (l, h) in low.iter().zip(&high) {
        let width: f64 = h.parse::<f64>().unwrap() - l.parse::<f64>().unwrap();
        assert!(width > 1.0, "interval [{l}, {h}]");
    }
    assert!(
        column(&csv, "q_value")
            .iter()
            .all(|q| q.parse::<f64>().unwrap() > 0.0)
    );
    // Game scores and their (shrunk) intervals stay within [0, 1].
    games_table(
        &dir,
        "games.parquet",
        &(0..300).collect::<Vec<_>>(),
        6,
        &|sp| {
            if sp % 3 == 0 { 0.83 } else { 0.5 }
        },
    );
    dir.ok(&["balance", "--games", "games.parquet", "--out", "games"]);
    let csv = std::fs::read_to_string(dir.file("games/balance.csv")).unwrap();
    for name in [
        "balance_low",
        "balance_high",
        "games_score_low",
        "games_score_high",
    ] {
        for value in column(&csv, name) {
            let v: f64 = value.parse().unwrap();
            assert!((0.0..=1.0).contains(&v), "{name} {v}");
        }
    }
}

/// `c960 balance --out DIR` claims `DIR/balance.csv` and `balance.json`
/// before it reads a table: a directory where one goes, a `DIR` inside an
/// input run directory and a second writer are refused in one line, and a
/// refused command leaves no `DIR` it made.
#[test]
fn balance_out_is_claimed_before_any_table_is_read() {
    let dir = Dir::new();
    games_table(&dir, "games.parquet", &[0, 1, 2], 40, &|_| 0.5);
    fs::create_dir_all(dir.file("taken/balance.json")).unwrap();
    let line = dir.bad_input(&["balance", "--games", "games.parquet", "--out", "taken"]);
    assert!(
        line.contains("--out taken/balance.json is a directory; name a file"),
        "{line}"
    );
    assert!(!dir.file("taken/balance.csv").exists());
    // A file where the directory goes.
    let line = dir.bad_input(&[
        "balance",
        "--games",
        "games.parquet",
        "--out",
        "games.parquet",
    ]);
    assert!(line.contains("games.parquet: --out names a file"), "{line}");
    // Inside the directory it reads (a run's own folder).
    fs::create_dir(dir.file("run")).unwrap();
    fs::copy(dir.file("games.parquet"), dir.file("run/games.parquet")).unwrap();
    let line = dir.bad_input(&["balance", "--games", "run", "--out", "run/v"]);
    assert!(line.contains("lies inside --games run"), "{line}");
    assert!(!dir.file("run/v").exists(), "no directory left behind");
    // A table that cannot be read: refused after the claim, and the
    // directory the command made is gone again.
    let line = dir.bad_input(&["balance", "--games", "nothing.parquet", "--out", "fresh"]);
    assert!(line.contains("does not exist"), "{line}");
    assert!(!dir.file("fresh").exists(), "no directory left behind");
    // A second writer of the same file stops at once, naming the first.
    fs::create_dir(dir.file("busy")).unwrap();
    let mut holder = std::process::Command::new("flock")
        .arg("-o")
        .arg(dir.file("busy/.balance.csv.lock"))
        .args(["sleep", "30"])
        .spawn()
        .unwrap();
    let lock = dir.file("busy/.balance.csv.lock");
    for _ in 0..100 {
        if lock.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    let run = dir.run(&["balance", "--games", "games.parquet", "--out", "busy"]);
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("busy/balance.csv"), "{}", run.stderr);
    assert!(!dir.file("busy/balance.csv").exists());
    // And once free, it writes both.
    dir.ok(&["balance", "--games", "games.parquet", "--out", "busy"]);
    assert!(dir.file("busy/balance.csv").is_file() && dir.file("busy/balance.json").is_file());
}
