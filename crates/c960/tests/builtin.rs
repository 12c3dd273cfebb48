//! The built-in engine through the command line: as a UCI engine
//! (`c960 uci`), driven by c960's own UCI driver, and in sweeps and
//! self-play with `--engine builtin`.

use crate::util;

use std::{
    fs,
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    time::Duration,
};

use c960_core::StartPosition;
use c960_engine::{
    Engine, GamePosition, Limit, Search,
    uci::{UciConfig, UciEngine},
};
use util::Dir;

/// Sends `script` to `c960 uci` and returns every line it answers until the
/// first `bestmove` after the last `go`.
fn converse(script: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c960"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in script {
        writeln!(stdin, "{line}").unwrap();
    }
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    lines
}

#[test]
fn a_scripted_uci_conversation_with_chess960_castling() {
    let lines = converse(&[
        "uci",
        "setoption name UCI_Chess960 value true",
        "isready",
        "ucinewgame",
        // Castling sent as king takes rook: d1c1 and d8c8 in NNRKBRQB.
        "position fen nnrkbrqb/pppppppp/8/8/8/8/PPPPPPPP/NNRKBRQB w FCfc - 0 1 moves d1c1 d8c8",
        "go depth 3",
    ]);
    assert!(lines[0].starts_with("id name c960 builtin"), "{lines:?}");
    assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_owned()));
    assert!(lines.contains(&"uciok".to_owned()));
    assert!(lines.contains(&"readyok".to_owned()));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    let best = lines.last().unwrap();
    // The answer must be legal after both castlings.
    let mut position = GamePosition::from_start(StartPosition::from_placement("NNRKBRQB").unwrap());
    for uci in ["d1c1", "d8c8"] {
        let m = uci
            .parse::<c960_core::shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(position.current())
            .unwrap();
        assert!(m.is_castle());
        position.push(m).unwrap();
    }
    let answer = best.split_whitespace().nth(1).unwrap();
    assert!(
        answer
            .parse::<c960_core::shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(position.current())
            .is_ok(),
        "{best}"
    );

    // King f1 and rook g1 trade places for the only mate: f1g1 on the wire.
    let lines = converse(&[
        "uci",
        "setoption name UCI_Chess960 value true",
        "position fen 4rkr1/4p1p1/8/8/8/8/8/5KR1 w G - 0 1",
        "go depth 3",
    ]);
    assert_eq!(lines.last().unwrap(), "bestmove f1g1");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
}

#[test]
fn go_infinite_runs_until_stop() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c960"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "uci\nposition startpos\ngo infinite").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "isready\nstop\nquit").unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("readyok"),
        "isready is answered during a search"
    );
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

#[test]
fn c960s_own_uci_driver_drives_the_builtin_engine() {
    let mut config = UciConfig::new(env!("CARGO_BIN_EXE_c960"));
    config.args = vec!["uci".to_owned()];
    let mut engine = UciEngine::start(&config).unwrap();
    assert!(engine.info().name.starts_with("c960 builtin"));
    engine.new_game().unwrap();
    let result = engine
        .search(
            &GamePosition::from_start(StartPosition::new(292).unwrap()),
            Search {
                limit: Limit::Nodes(5000),
                multipv: 2,
            },
        )
        .unwrap();
    assert_eq!(result.lines.len(), 2);
    assert!(result.nodes.unwrap() >= 5000);
}

#[test]
fn sweeps_and_selfplay_run_with_the_builtin_engine() {
    let dir = Dir::new();
    let sweep = |out: &str| {
        dir.run(&[
            "sweep",
            "--engine",
            "builtin",
            "--positions",
            "0-3,518",
            "--nodes",
            "3000",
            "--multipv",
            "2",
            "--quiet",
            "--out",
            out,
        ])
    };
    assert_eq!(sweep("a").code, 0);
    assert_eq!(sweep("b").code, 0);
    let a = fs::read_to_string(dir.file("a/sweep.csv")).unwrap();
    let b = fs::read_to_string(dir.file("b/sweep.csv")).unwrap();
    let strip_time = |csv: &str| -> Vec<Vec<String>> {
        let mut rows: Vec<Vec<String>> = csv
            .lines()
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect();
        let col = rows[0].iter().position(|c| c == "time_ms").unwrap();
        for row in &mut rows {
            row.remove(col);
        }
        rows
    };
    assert_eq!(
        strip_time(&a),
        strip_time(&b),
        "node-limited builtin sweeps repeat"
    );
    assert_eq!(a.lines().count(), 6);
    assert!(a.lines().nth(1).unwrap().contains(",c960 builtin "), "{a}");
    let manifest = fs::read_to_string(dir.file("a/manifest.json")).unwrap();
    assert!(manifest.contains("\"path\": \"builtin\""), "{manifest}");

    let run = dir.run(&[
        "selfplay",
        "--engine",
        "builtin",
        "--positions",
        "91",
        "--games-per-position",
        "2",
        "--nodes",
        "400",
        "--max-plies",
        "40",
        "--quiet",
        "--out",
        "sp",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("sp/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[White \"c960 builtin").count(), 2);
    assert!(
        dir.bad_input(&["sweep", "--engine", "builtin", "--option", "Contempt=1"])
            .contains("no UCI options")
    );
}
