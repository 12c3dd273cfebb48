//! A small UCI engine for tests: legal, deterministic and told by its
//! arguments (or by `C960_FAKE_UCI`, appended to them) how to misbehave.
//!
//! ```text
//! c960-fake-uci [--no-chess960] [--not-uci] [--silent] [--crash]
//!               [--crash-once FILE] [--crash-after N] [--hang] [--illegal]
//!               [--garbage] [--slow MS] [--castle] [--no-wdl] [--no-info]
//!               [--bad-wdl] [--ignore-nodes] [--ignore-depth] [--trace DIR]
//!               [--contempt] [--overstep MS] [--mate-zero] [--mate-claim]
//!               [--pv-not-best] [--endless] [--latin1-name] [--score CP]
//!               [--odd-lines]
//! ```
//!
//! The lying modes: `--mate-zero` reports `score mate 0` for its move,
//! `--mate-claim` `score mate 1` after a single node whatever its limit
//! (its line does not mate), `--pv-not-best` a principal variation that
//! starts with another move than its best move; `--endless` answers `go`
//! with output that never ends its line, and `--latin1-name` sends its
//! `id name` in Latin-1 (not UTF-8), and `--score CP` reports `score cp CP`
//! for every line (2147483647, say, far beyond any engine's range).
//! `--odd-lines` gives its `MultiPV` lines what real engines' lines can
//! carry (scores from the side to move, B the position's score): line 1
//! `cp B`, line 2 `mate -2` (the move gets mated), line 3 `cp B upperbound`
//! (a tie with the best, as a bound), line 4 `cp B-25 lowerbound`, line 5
//! `cp B-28` with White to move and `cp B-10` with Black, then `cp B-7i`.
//!
//! With `--trace DIR` it appends what it was asked to `DIR/PID.trace`, one
//! line per command: `ucinewgame`, `setoption NAME VALUE`, and `go w` /
//! `go b` with the side it searched for (then `limit ARGS`, the `go`
//! command's arguments), so tests can tell which process
//! played which side. With `--contempt` it offers the contempt options of
//! older Stockfish and of Ethereal (default 12 and 24). On the clock the
//! trace also gets `clock ARGS` (the `go` command's time arguments), and
//! `--overstep MS` makes it think its whole time (its clock, or its
//! `movetime`) plus MS.
//!
//! It plays the first legal move in UCI order (a castling move with
//! `--castle`) and reports a score derived from the position's Zobrist
//! hash, so every answer is the same for the same position. It reports the
//! depth and nodes it was asked for (depth 1 and 1 node by default), except
//! that `--ignore-nodes` and `--ignore-depth` answer those limits after
//! depth 1 and 6 nodes, as Debian's Ethereal 12 does with `go nodes`.
//! `--no-info` sends the best move alone; `--bad-wdl` a WDL of 900/900/900.

use std::{
    env,
    fmt::Write as _,
    fs,
    io::{self, BufRead, Write},
    path::PathBuf,
    process, thread,
    time::Duration,
};

use shakmaty::{
    CastlingMode, Chess, EnPassantMode, Position, Square, fen::Fen, uci::UciMove,
    zobrist::Zobrist64,
};

/// What to do wrong; a flag set, hence the bools.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)]
struct Modes {
    no_chess960: bool,
    not_uci: bool,
    silent: bool,
    crash: bool,
    crash_once: Option<PathBuf>,
    crash_after: Option<u32>,
    hang: bool,
    illegal: bool,
    garbage: bool,
    slow_ms: u64,
    castle: bool,
    no_wdl: bool,
    no_info: bool,
    bad_wdl: bool,
    ignore_nodes: bool,
    ignore_depth: bool,
    trace: Option<PathBuf>,
    contempt: bool,
    overstep_ms: Option<u64>,
    mate_zero: bool,
    mate_claim: bool,
    pv_not_best: bool,
    endless: bool,
    latin1_name: bool,
    score: Option<i64>,
    odd_lines: bool,
}

fn modes() -> Modes {
    let mut args: Vec<String> = env::args().skip(1).collect();
    if let Ok(extra) = env::var("C960_FAKE_UCI") {
        args.extend(extra.split_whitespace().map(str::to_owned));
    }
    let mut m = Modes::default();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| fail(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--no-chess960" => m.no_chess960 = true,
            "--not-uci" => m.not_uci = true,
            "--silent" => m.silent = true,
            "--crash" => m.crash = true,
            "--crash-once" => m.crash_once = Some(PathBuf::from(value())),
            "--crash-after" => m.crash_after = Some(value().parse().unwrap_or_else(|_| fail("N"))),
            "--hang" => m.hang = true,
            "--illegal" => m.illegal = true,
            "--garbage" => m.garbage = true,
            "--slow" => m.slow_ms = value().parse().unwrap_or_else(|_| fail("MS")),
            "--castle" => m.castle = true,
            "--no-wdl" => m.no_wdl = true,
            "--no-info" => m.no_info = true,
            "--bad-wdl" => m.bad_wdl = true,
            "--ignore-nodes" => m.ignore_nodes = true,
            "--ignore-depth" => m.ignore_depth = true,
            "--trace" => m.trace = Some(PathBuf::from(value())),
            "--contempt" => m.contempt = true,
            "--overstep" => m.overstep_ms = Some(value().parse().unwrap_or_else(|_| fail("MS"))),
            "--mate-zero" => m.mate_zero = true,
            "--mate-claim" => m.mate_claim = true,
            "--pv-not-best" => m.pv_not_best = true,
            "--endless" => m.endless = true,
            "--latin1-name" => m.latin1_name = true,
            "--score" => m.score = Some(value().parse().unwrap_or_else(|_| fail("CP"))),
            "--odd-lines" => m.odd_lines = true,
            other => fail(&format!("unknown argument {other}")),
        }
    }
    m
}

fn fail(message: &str) -> ! {
    eprintln!("c960-fake-uci: {message}");
    process::exit(2)
}

fn crash(message: &str) -> ! {
    // One write, as an engine's last words usually are.
    let _ = io::stderr().write_all(format!("c960-fake-uci: {message}\n").as_bytes());
    process::exit(3)
}

fn main() {
    let modes = modes();
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut position = Chess::default();
    let mut multipv = 1usize;
    let mut show_wdl = false;
    let mut searches = 0u32;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") if modes.silent => continue,
            Some("uci") if modes.not_uci => {
                let _ = writeln!(out, "hello, I speak no UCI");
                return;
            }
            Some("uci") if modes.latin1_name => {
                // "Moteur d'échecs" with é in Latin-1: one byte, 0xE9.
                let _ = out.write_all(b"id name Moteur d'\xe9checs\n");
                handshake(&modes).replacen("id name c960-fake-uci\n", "", 1)
            }
            Some("uci") => handshake(&modes),
            Some("isready") => "readyok".to_owned(),
            Some("ucinewgame") => {
                trace(&modes, "ucinewgame");
                continue;
            }
            Some("setoption") => {
                let (name, value) = setoption(&words);
                if let (Some(name), Some(value)) = (&name, &value) {
                    trace(&modes, &format!("setoption {name} {value}"));
                }
                match (name.as_deref(), value.as_deref()) {
                    (Some("MultiPV"), Some(v)) => multipv = v.parse().unwrap_or(1),
                    (Some("UCI_ShowWDL"), Some(v)) => show_wdl = v == "true",
                    _ => {}
                }
                continue;
            }
            Some("position") => {
                position = parse_position(&words).unwrap_or_else(|e| crash(&e));
                continue;
            }
            Some("go") => {
                searches += 1;
                trace(
                    &modes,
                    if position.turn().is_white() {
                        "go w"
                    } else {
                        "go b"
                    },
                );
                if modes.crash {
                    crash("asked to crash");
                }
                // Creating the file is atomic: of several engines sharing
                // it, exactly one crashes.
                if let Some(file) = &modes.crash_once
                    && fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(file)
                        .is_ok()
                {
                    crash("asked to crash once");
                }
                if modes.crash_after.is_some_and(|n| searches > n) {
                    crash("asked to crash after some searches");
                }
                if modes.hang {
                    loop {
                        thread::sleep(Duration::from_hours(1));
                    }
                }
                if modes.endless {
                    endless(&mut out);
                }
                thread::sleep(Duration::from_millis(modes.slow_ms));
                let reach = go(&modes, &position, &words);
                search(&position, &modes, multipv, show_wdl && !modes.no_wdl, reach)
            }
            Some("quit") => return,
            _ => continue,
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}

/// Handles the limits of a `go` command (tracing it, over-stepping a clock
/// when asked) and returns the depth and nodes the search reports.
fn go(modes: &Modes, position: &Chess, words: &[&str]) -> (u64, u64) {
    let arg = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|n| n.parse::<u64>().ok())
    };
    trace(modes, &format!("limit {}", words[1..].join(" ")));
    if words.contains(&"wtime") {
        trace(modes, &format!("clock {}", words[1..].join(" ")));
    }
    let own = if position.turn().is_white() {
        arg("wtime")
    } else {
        arg("btime")
    };
    if let (Some(over), Some(time)) = (modes.overstep_ms, own.or(arg("movetime"))) {
        thread::sleep(Duration::from_millis(time + over));
    }
    match (arg("nodes"), arg("depth")) {
        (Some(_), _) if modes.ignore_nodes => (1, 6),
        (_, Some(_)) if modes.ignore_depth => (1, 6),
        (nodes, depth) => (depth.unwrap_or(1), nodes.unwrap_or(1)),
    }
}

/// The name and value of a `setoption` command.
fn setoption(words: &[&str]) -> (Option<String>, Option<String>) {
    let value = words
        .iter()
        .position(|w| *w == "value")
        .map(|i| words[i + 1..].join(" "));
    let name = words.iter().position(|w| *w == "name").map(|i| {
        words[i + 1..]
            .iter()
            .take_while(|w| **w != "value")
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    });
    (name, value)
}

/// The answer to `uci`: identity, options, `uciok`.
fn handshake(modes: &Modes) -> String {
    let mut r = String::from("id name c960-fake-uci\nid author the c960 developers\n");
    r.push_str("option name Threads type spin default 1 min 1 max 512\n");
    r.push_str("option name Hash type spin default 16 min 1 max 1024\n");
    r.push_str("option name MultiPV type spin default 1 min 1 max 500\n");
    r.push_str("option name UCI_ShowWDL type check default false\n");
    if modes.contempt {
        r.push_str("option name Contempt type spin default 24 min -100 max 100\n");
        r.push_str("option name ContemptDrawPenalty type spin default 12 min -300 max 300\n");
        r.push_str("option name ContemptComplexity type spin default 12 min -100 max 100\n");
    }
    if !modes.no_chess960 {
        r.push_str("option name UCI_Chess960 type check default false\n");
    }
    r.push_str("uciok");
    r
}

/// Appends `line` to this process's trace file, if tracing.
fn trace(modes: &Modes, line: &str) {
    if let Some(dir) = &modes.trace {
        let path = dir.join(format!("{}.trace", process::id()));
        let written = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| writeln!(f, "{line}"));
        if let Err(e) = written {
            crash(&format!("cannot write {}: {e}", path.display()));
        }
    }
}

fn parse_position(words: &[&str]) -> Result<Chess, String> {
    let moves_at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let mut position: Chess = match words.get(1) {
        Some(&"startpos") => Chess::default(),
        Some(&"fen") => {
            let fen = words[2..moves_at].join(" ");
            fen.parse::<Fen>()
                .map_err(|e| format!("bad fen {fen}: {e}"))?
                .into_position(CastlingMode::Chess960)
                .map_err(|e| format!("bad position {fen}: {e}"))?
        }
        _ => return Err("bad position command".to_owned()),
    };
    for uci in words.iter().skip(moves_at + 1) {
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&position).ok())
            .ok_or_else(|| format!("illegal move {uci}"))?;
        position.play_unchecked(m);
    }
    Ok(position)
}

/// The answer to `go`, reporting `(depth, nodes)` as searched.
fn search(
    position: &Chess,
    modes: &Modes,
    multipv: usize,
    wdl: bool,
    (depth, mut nodes): (u64, u64),
) -> String {
    let mut moves: Vec<(String, shakmaty::Move)> = position
        .legal_moves()
        .into_iter()
        .map(|m| (UciMove::from_move(m, CastlingMode::Chess960).to_string(), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    if modes.castle
        && let Some(i) = moves.iter().position(|(_, m)| m.is_castle())
    {
        let castle = moves.remove(i);
        moves.insert(0, castle);
    }
    if moves.is_empty() {
        return "info depth 0 score mate 0\nbestmove (none)".to_owned();
    }
    let hash: u64 = position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    let base = i32::try_from(hash % 61).expect("small") - 30;
    let mut reply = String::new();
    let lines = if modes.no_info { 0 } else { multipv.max(1) };
    for (i, (uci, _)) in moves.iter().take(lines).enumerate() {
        let cp = base - 7 * i32::try_from(i).expect("small");
        let score = if modes.mate_zero {
            "mate 0".to_owned()
        } else if modes.mate_claim {
            nodes = 1;
            "mate 1".to_owned()
        } else if let Some(fixed) = modes.score {
            format!("cp {fixed}")
        } else if modes.odd_lines {
            odd_line(i, base, position.turn())
        } else {
            format!("cp {cp}")
        };
        // The line of the next move in UCI order, when it has one.
        let uci = if modes.pv_not_best {
            moves.get(i + 1).map_or(uci, |(next, _)| next)
        } else {
            uci
        };
        let wdl = match (wdl, modes.bad_wdl) {
            (_, true) => " wdl 900 900 900",
            (true, false) => " wdl 100 800 100",
            (false, false) => "",
        };
        let _ = writeln!(
            reply,
            "info depth {depth} seldepth {depth} multipv {} score {score}{wdl} nodes {nodes} nps 1000 time 1 pv {uci}",
            i + 1
        );
    }
    let best = if modes.garbage {
        "zz99".to_owned()
    } else if modes.illegal {
        illegal_move(position)
    } else {
        moves[0].0.clone()
    };
    let _ = write!(reply, "bestmove {best}");
    reply
}

/// The score of line `i` (from 0) with `--odd-lines`.
fn odd_line(i: usize, base: i32, turn: shakmaty::Color) -> String {
    match (i, turn) {
        (0, _) => format!("cp {base}"),
        (1, _) => "mate -2".to_owned(),
        (2, _) => format!("cp {base} upperbound"),
        (3, _) => format!("cp {} lowerbound", base - 25),
        (4, shakmaty::Color::White) => format!("cp {}", base - 28),
        (4, shakmaty::Color::Black) => format!("cp {}", base - 10),
        _ => format!("cp {}", base - 7 * i32::try_from(i).expect("small")),
    }
}

/// Writes output without a newline until the reader goes away.
fn endless(out: &mut io::Stdout) -> ! {
    let chunk = vec![b'x'; 64 * 1024];
    while out.write_all(&chunk).is_ok() {}
    process::exit(0)
}

/// A well-formed UCI move that is not legal here.
fn illegal_move(position: &Chess) -> String {
    for from in Square::ALL {
        for to in Square::ALL {
            let uci = format!("{from}{to}");
            let legal = uci
                .parse::<UciMove>()
                .ok()
                .is_some_and(|m| m.to_move(position).is_ok());
            if from != to && !legal {
                return uci;
            }
        }
    }
    unreachable!("some move is illegal")
}
