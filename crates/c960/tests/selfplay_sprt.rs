//! `c960 selfplay` matches: the SPRT and the match statistics, openings
//! from EPD and PGN books, and each engine process's traffic log.

use crate::util;

use std::{fs, path::PathBuf};

use util::{Dir, fake_engine, run_command};

use crate::selfplay_match::{fake_selfplay, manifest};

/// A fake engine that thinks its whole clock plus 30 ms: it loses every
/// game on time.
fn slow_fake(dir: &Dir) -> PathBuf {
    let path = dir.file("slow-fake");
    fs::write(
        &path,
        format!(
            "#!/bin/sh\nexec {} --overstep 30 \"$@\"\n",
            fake_engine().display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn match_json(dir: &Dir, out: &str) -> serde_json::Value {
    manifest(&dir.file(&format!("{out}/match.json")))
}

#[test]
fn the_sprt_accepts_h1_for_an_engine_that_always_wins_and_stops_the_match() {
    let dir = Dir::new();
    let (a, b) = (fake_engine(), slow_fake(&dir));
    let args = [
        "selfplay",
        "--engine",
        a.to_str().unwrap(),
        "--engine-b",
        b.to_str().unwrap(),
        "--nodes",
        "10",
        "--tc-b",
        "0.05",
        "--positions",
        "all",
        "--games-per-position",
        "2",
        "--jobs",
        "2",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--out",
        "h1",
    ];
    let run = dir.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("H1 accepted"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("pentanomial [LL LD DD/WL WD WW]: [0 0 0 0 "),
        "{}",
        run.stdout
    );
    let m = match_json(&dir, "h1");
    let stats = &m["match"];
    assert_eq!(stats["sprt"]["accepted"], "H1");
    let pairs = stats["pairs"].as_u64().unwrap();
    assert_eq!(stats["pentanomial"][4].as_u64(), Some(pairs));
    // 22 pairs of wins pass ln(19) at these bounds; far fewer than all 960.
    assert!((22..100).contains(&pairs), "{pairs} pairs");
    assert!(stats["llr"].is_null() && stats["sprt"]["llr"].as_f64().unwrap() >= (19f64).ln());
    assert_eq!(stats["los"], 1.0);
    let manifest = manifest(&dir.file("h1/manifest.json"));
    assert_eq!(manifest["match"]["sprt"]["accepted"], "H1");
    assert!(manifest["games"].as_u64().unwrap() < 1920);
    // Run again: the decision stands and nothing more is played.
    let journal = fs::read_to_string(dir.file("h1/journal.jsonl")).unwrap();
    let again = dir.run(&args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        fs::read_to_string(dir.file("h1/journal.jsonl")).unwrap(),
        journal
    );
    assert_eq!(
        match_json(&dir, "h1")["match"]["pairs"].as_u64(),
        Some(pairs)
    );
}

#[test]
fn the_sprt_accepts_h0_for_equal_engines() {
    let dir = Dir::new();
    let engine = fake_engine();
    let run = dir.run(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--engine-b",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--jitter",
        "0",
        "--max-plies",
        "20",
        "--positions",
        "all",
        "--games-per-position",
        "2",
        "--jobs",
        "2",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--out",
        "h0",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("H0 accepted"), "{}", run.stdout);
    let stats = &match_json(&dir, "h0")["match"];
    assert_eq!(stats["sprt"]["accepted"], "H0");
    let pairs = stats["pairs"].as_u64().unwrap();
    // The same engine on both sides: every pair scores one point of two.
    assert_eq!(stats["pentanomial"][2].as_u64(), Some(pairs));
    assert!((10..100).contains(&pairs), "{pairs} pairs");
    assert_eq!(stats["score"]["value"], 0.5);
    assert!(stats["sprt"]["llr"].as_f64().unwrap() <= (0.05f64 / 0.95).ln());
}

#[test]
fn a_match_without_sprt_reports_its_statistics() {
    let dir = Dir::new();
    let (a, b) = (fake_engine(), slow_fake(&dir));
    let run = dir.run(&[
        "selfplay",
        "--engine",
        a.to_str().unwrap(),
        "--engine-b",
        b.to_str().unwrap(),
        "--nodes",
        "10",
        "--st-b",
        "0.02",
        "--positions",
        "0-4",
        "--games-per-position",
        "2",
        "--out",
        "plain",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("5 pairs, +10 =0 -0"), "{}", run.stdout);
    assert!(run.stdout.contains("match.json"), "{}", run.stdout);
    let m = match_json(&dir, "plain");
    assert_eq!(
        m["match"]["pentanomial"],
        serde_json::json!([0, 0, 0, 0, 5])
    );
    assert!(m["match"]["sprt"].is_null());
    assert_eq!(m["limit_b"], "st 0.02");
    assert!(
        m["match"]["elo"].is_null(),
        "no finite Elo for a clean sweep"
    );
}

fn xfen(sp: u16) -> String {
    c960_core::StartPosition::new(sp).unwrap().to_xfen()
}

#[test]
fn epd_openings_are_played_in_order_and_in_a_seeded_random_order() {
    let dir = Dir::new();
    let epd = format!(
        "# three start positions\n{}\n\n{} id \"classical\";\n{}\n",
        xfen(959),
        xfen(518)
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" "),
        xfen(0)
    );
    fs::write(dir.file("book.epd"), epd).unwrap();
    let play = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "--openings",
            "book.epd",
            "--games-per-position",
            "2",
            "--max-plies",
            "6",
        ];
        args.extend_from_slice(extra);
        let run = run_command(fake_selfplay(&dir, out, &args));
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    play("seq", &[]);
    let m = manifest(&dir.file("seq/manifest.json"));
    assert!(
        m["openings"]
            .as_str()
            .unwrap()
            .contains("book.epd: 3 openings (sequential"),
        "{m}"
    );
    assert_eq!(m["games"], 6);
    let pgn = fs::read_to_string(dir.file("seq/games.pgn")).unwrap();
    for sp in [0, 518, 959] {
        assert_eq!(
            pgn.matches(&format!("[FEN \"{}\"]", xfen(sp))).count(),
            2,
            "{sp}"
        );
    }
    // In file order: SP 959 has games 1-2 (the first opening), SP 0 games 5-6.
    assert!(
        pgn.contains("[Round \"959.1\"]") && pgn.contains("[Round \"0.5\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[C960Opening \"line 2, 0 book plies\"]"),
        "{pgn}"
    );

    play("r1", &["--opening-order", "random", "--seed", "5"]);
    play("r1again", &["--opening-order", "random", "--seed", "5"]);
    assert_eq!(
        fs::read(dir.file("r1/games.pgn")).unwrap(),
        fs::read(dir.file("r1again/games.pgn")).unwrap(),
        "the same seed, the same order"
    );
    let rounds = |out: &str| -> Vec<String> {
        fs::read_to_string(dir.file(&format!("{out}/games.pgn")))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("[Round "))
            .map(str::to_owned)
            .collect()
    };
    let orders: Vec<Vec<String>> = (0..6)
        .map(|seed| {
            let out = format!("r-{seed}");
            play(
                &out,
                &["--opening-order", "random", "--seed", &seed.to_string()],
            );
            rounds(&out)
        })
        .collect();
    assert!(
        orders.iter().any(|o| *o != rounds("seq")),
        "some seed shuffles the openings: {orders:?}"
    );
}

#[test]
fn pgn_openings_are_played_before_the_engines_take_over() {
    let dir = Dir::new();
    let book = format!(
        "[Event \"book\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n\
         1. g3 {{fianchetto}} g6 (1... e5) 2. Ne3 Ne6 *\n\n\
         [Event \"classical\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2\n",
        xfen(0)
    );
    fs::write(dir.file("book.pgn"), book).unwrap();
    let engine = fake_engine();
    let run = dir.run(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--engine-b",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--openings",
        "book.pgn",
        "--games-per-position",
        "2",
        "--max-plies",
        "12",
        "--quiet",
        "--out",
        "pgn",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("pgn/games.pgn")).unwrap();
    assert_eq!(pgn.matches("1. g3 g6 2. Ne3 Ne6 3.").count(), 2, "{pgn}");
    assert_eq!(
        pgn.matches("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 5.")
            .count(),
        2,
        "{pgn}"
    );
    assert_eq!(
        pgn.matches("[C960Opening \"line 1, 4 book plies\"]")
            .count(),
        2
    );
    assert_eq!(
        pgn.matches("[C960Opening \"line 8, 8 book plies\"]")
            .count(),
        2
    );
    // Colour-reversed: each opening once with A as White, once with B.
    let journal = fs::read_to_string(dir.file("pgn/journal.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = journal
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    for g in &games {
        if g["sp"] == 518 {
            assert_eq!(g["book_plies"], 8);
            // Castling in the book counts as the game's castling.
            assert_eq!(g["white_castling"]["ply"], 7);
            assert_eq!(g["black_castling"]["side"], "h");
        } else {
            assert_eq!(g["book_plies"], 4);
        }
    }
    let m = match_json(&dir, "pgn");
    assert_eq!(m["match"]["pairs"], 2);
}

#[test]
fn bad_openings_are_one_line_errors_naming_the_line() {
    let dir = Dir::new();
    let check = |name: &str, text: &str, needles: &[&str]| {
        fs::write(dir.file(name), text).unwrap();
        let line = dir.bad_input(&["selfplay", "--openings", name, "--engine", "builtin"]);
        for needle in needles {
            assert!(line.contains(needle), "{name}: {line}");
        }
    };
    check(
        "illegal.pgn",
        "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n",
        &["illegal.pgn line 4", "Ke3", "not legal"],
    );
    check(
        "notstart.pgn",
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... e5 *\n",
        &["notstart.pgn line 1", "not a Chess960 start position"],
    );
    check(
        "middlegame.epd",
        &format!(
            "{}\nr1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -\n",
            xfen(3)
        ),
        &["middlegame.epd line 2", "not a Chess960 start position"],
    );
    check("short.epd", "bbqnnrkr/pppppppp\n", &["short.epd line 1"]);
    check("empty.epd", "# nothing\n", &["no opening"]);
    assert!(
        dir.bad_input(&["selfplay", "--openings", "missing.epd"])
            .contains("cannot read openings")
    );
    assert!(
        dir.bad_input(&["selfplay", "--openings", "x.epd", "--positions", "1"])
            .contains("cannot be used with")
    );
}

#[test]
fn engine_logs_hold_each_process_traffic_and_a_failed_game_names_its_logs() {
    let dir = Dir::new();
    let run = run_command(fake_selfplay(
        &dir,
        "ok",
        &[
            "--positions",
            "518",
            "--games-per-position",
            "1",
            "--max-plies",
            "4",
            "--log-engine",
            "logs",
        ],
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let logs: Vec<PathBuf> = fs::read_dir(dir.file("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    // One process per side, the first of them the engine checked up front
    // (no process is launched only to be identified).
    assert_eq!(logs.len(), 2, "{logs:?}");
    let texts: Vec<String> = logs
        .iter()
        .map(|l| fs::read_to_string(l).unwrap())
        .collect();
    for text in &texts {
        assert!(text.starts_with("# c960 engine log: "), "{text}");
        assert!(
            text.contains(" > uci\n") && text.contains(" < uciok\n"),
            "{text}"
        );
        for line in text.lines().skip(1) {
            let (time, rest) = line.split_once(' ').unwrap();
            assert!(time.parse::<f64>().is_ok(), "{line}");
            assert!(
                rest.starts_with("> ") || rest.starts_with("< ") || rest.starts_with("! "),
                "{line}"
            );
        }
    }
    let searched: Vec<&String> = texts.iter().filter(|t| t.contains("> go nodes")).collect();
    assert_eq!(searched.len(), 2);
    assert!(searched.iter().all(|t| t.contains("< bestmove ")));
    let m = manifest(&dir.file("ok/manifest.json"));
    assert_eq!(m["engine_logs"], "logs");

    let mut crash = fake_selfplay(
        &dir,
        "crash",
        &[
            "--positions",
            "1",
            "--games-per-position",
            "1",
            "--retries",
            "0",
            "--log-engine",
            "crash-logs",
        ],
    );
    crash.env("C960_FAKE_UCI", "--crash");
    let run = run_command(crash);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("engine logs: crash-logs/"),
        "{}",
        run.stderr
    );
    let m = manifest(&dir.file("crash/manifest.json"));
    let named = m["failed"][0]["logs"].as_array().unwrap();
    assert_eq!(named.len(), 2, "{m}");
    let texts: Vec<String> = named
        .iter()
        .map(|p| fs::read_to_string(dir.path().join(p.as_str().unwrap())).unwrap())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("! c960-fake-uci: asked to crash")),
        "{texts:?}"
    );
}
