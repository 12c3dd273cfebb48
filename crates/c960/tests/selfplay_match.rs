//! `c960 selfplay` as the standard match runners play it: one engine
//! process per side, checked with the fake engine's trace and against an
//! independent two-process driver over real Stockfish.

use crate::util;

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use util::{Dir, fake_engine, run_command};

/// `c960 selfplay` with the fake engine at 10 nodes.
fn fake_selfplay(dir: &Dir, out: &str, extra: &[&str]) -> Command {
    let engine = fake_engine();
    let mut args = vec![
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    dir.command(&args)
}

/// The Python with python-chess that the tests use.
fn python() -> String {
    std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Runs a Python script with arguments; fails clearly without python-chess.
fn run_python(script: &str, args: &[&str]) -> String {
    let python = python();
    let output = Command::new(&python)
        .args(["-c", script])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("No module named"),
        "python-chess and scipy are required for this test: `pip install chess scipy` (CI \
         installs them into a virtual environment and sets C960_PYTHON): {stderr}"
    );
    assert!(output.status.success(), "{python} failed:\n{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each trace file of the fake engine (one per process): its lines.
fn traces(dir: &Path) -> Vec<Vec<String>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trace"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

#[test]
fn each_side_has_its_own_engine_process_and_a_new_game_before_each_game() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let mut command = fake_selfplay(
        &dir,
        "sides",
        &[
            "--positions",
            "0,518",
            "--games-per-position",
            "2",
            "--max-plies",
            "12",
            "--jobs",
            "1",
        ],
    );
    command.env("C960_FAKE_UCI", format!("--trace {}", trace.display()));
    let run = run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // One process is started up front to check the engine (it searches
    // nothing); the worker has two: one searches only for White, the other
    // only for Black, so neither ever has the other side's search in its hash.
    let searching: Vec<Vec<String>> = traces(&trace)
        .into_iter()
        .filter(|t| t.iter().any(|l| l.starts_with("go")))
        .collect();
    assert_eq!(searching.len(), 2, "{searching:?}");
    let sides: Vec<&str> = searching
        .iter()
        .map(|t| {
            let gos: Vec<&String> = t.iter().filter(|l| l.starts_with("go")).collect();
            assert!(gos.iter().all(|l| *l == gos[0]), "one side only: {t:?}");
            gos[0].as_str()
        })
        .collect();
    assert!(
        sides.contains(&"go w") && sides.contains(&"go b"),
        "{sides:?}"
    );
    for t in &searching {
        // Four games, each opened with `ucinewgame` before its first search.
        assert_eq!(t.iter().filter(|l| *l == "ucinewgame").count(), 4, "{t:?}");
        let first = t.iter().find(|l| !l.starts_with("setoption"));
        assert_eq!(first.map(String::as_str), Some("ucinewgame"), "{t:?}");
        let play: Vec<String> = t
            .iter()
            .filter(|l| !l.starts_with("setoption"))
            .cloned()
            .collect();
        let games: Vec<&[String]> = play
            .split(|l| l == "ucinewgame")
            .filter(|g| !g.is_empty())
            .collect();
        assert_eq!(games.len(), 4, "{t:?}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("sides/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["processes"], "one per side");
    let pgn = fs::read_to_string(dir.file("sides/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[C960Processes \"one per side\"]").count(), 4);
}

#[test]
fn a_shared_process_is_an_explicit_flag_recorded_in_manifest_and_pgn() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let mut command = fake_selfplay(
        &dir,
        "shared",
        &[
            "--positions",
            "518",
            "--games-per-position",
            "2",
            "--max-plies",
            "12",
            "--jobs",
            "1",
            "--shared-process",
        ],
    );
    command.env("C960_FAKE_UCI", format!("--trace {}", trace.display()));
    let run = run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let searching: Vec<Vec<String>> = traces(&trace)
        .into_iter()
        .filter(|t| t.iter().any(|l| l.starts_with("go")))
        .collect();
    assert_eq!(searching.len(), 1, "{searching:?}");
    assert!(searching[0].contains(&"go w".to_owned()) && searching[0].contains(&"go b".to_owned()));
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("shared/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["processes"], "one shared by both sides");
    let pgn = fs::read_to_string(dir.file("shared/games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[C960Processes \"one shared by both sides\"]")
            .count(),
        2
    );
}

#[test]
fn a_shared_process_journal_is_never_mixed_with_per_side_games() {
    let dir = Dir::new();
    let args = [
        "--positions",
        "1",
        "--games-per-position",
        "1",
        "--max-plies",
        "10",
    ];
    let mut shared = args.to_vec();
    shared.push("--shared-process");
    assert_eq!(run_command(fake_selfplay(&dir, "run", &shared)).code, 0);
    let mut more = args.to_vec();
    more[3] = "2";
    let line = dir.bad_input(
        &{
            let engine = fake_engine();
            let mut a = vec![
                "selfplay".to_owned(),
                "--engine".to_owned(),
                engine.display().to_string(),
                "--nodes".to_owned(),
                "10".to_owned(),
                "--out".to_owned(),
                "run".to_owned(),
                "--quiet".to_owned(),
            ];
            a.extend(more.iter().map(|s| (*s).to_owned()));
            a
        }
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert!(
        line.contains("other settings") && line.contains("processes"),
        "{line}"
    );
    // The same flag resumes it: a journal of a shared process (as all
    // journals were before the sides got their own processes) stays usable.
    more.push("--shared-process");
    let resumed = run_command(fake_selfplay(&dir, "run", &more));
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(
        fs::read_to_string(dir.file("run/games.pgn"))
            .unwrap()
            .matches("[Event ")
            .count(),
        2
    );
}

/// An independent driver: python-chess with two fresh Stockfish processes
/// per game (one per side), `UCI_Chess960`, a node limit, and the game
/// rules only (no adjudication) up to a ply cap. Prints `SP move move ...`
/// per game, moves in UCI Chess960 notation.
const TWO_PROCESS_DRIVER: &str = r#"
import sys, chess, chess.engine
engine, nodes, max_plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for item in sys.argv[4:]:
    sp, fen = item.split(":", 1)
    board = chess.Board(fen, chess960=True)
    sides = [chess.engine.SimpleEngine.popen_uci(engine) for _ in range(2)]
    for e in sides:
        e.configure({"Threads": 1, "Hash": 16})
    moves = []
    while not (board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()
               or board.is_repetition(3) or board.halfmove_clock >= 100 or len(moves) >= max_plies):
        side = sides[0] if board.turn == chess.WHITE else sides[1]
        move = side.play(board, chess.engine.Limit(nodes=nodes)).move
        moves.append(board.uci(move))
        board.push(move)
    for e in sides:
        e.quit()
    print(sp, " ".join(moves))
"#;

#[test]
fn stockfish_games_equal_an_independent_two_process_driver_move_for_move() {
    let Some(stockfish) = c960_engine::uci::find_stockfish() else {
        panic!("Stockfish is required for this test: install it with `apt-get install stockfish`");
    };
    let dir = Dir::new();
    let positions = [0u16, 91, 292, 518];
    let sps: Vec<String> = positions.iter().map(ToString::to_string).collect();
    let run = dir.run(&[
        "selfplay",
        "--engine",
        stockfish.to_str().unwrap(),
        "--positions",
        &sps.join(","),
        "--games-per-position",
        "1",
        "--nodes",
        "2000",
        "--jitter",
        "0",
        "--resign-plies",
        "0",
        "--draw-plies",
        "0",
        "--max-plies",
        "100",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "c960",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // c960's games, from its journal.
    let journal = fs::read_to_string(dir.file("c960/journal.jsonl")).unwrap();
    let ours: BTreeMap<u16, Vec<String>> = journal
        .lines()
        .skip(1)
        .map(|l| {
            let game: serde_json::Value = serde_json::from_str(l).unwrap();
            let moves = game["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            (u16::try_from(game["sp"].as_u64().unwrap()).unwrap(), moves)
        })
        .collect();
    let items: Vec<String> = positions
        .iter()
        .map(|sp| {
            let fen = c960_core::StartPosition::new(*sp).unwrap().to_xfen();
            format!("{sp}:{fen}")
        })
        .collect();
    let mut args = vec![stockfish.to_str().unwrap(), "2000", "100"];
    args.extend(items.iter().map(String::as_str));
    let theirs: BTreeMap<u16, Vec<String>> = run_python(TWO_PROCESS_DRIVER, &args)
        .lines()
        .map(|l| {
            let mut words = l.split_whitespace();
            let sp = words.next().unwrap().parse().unwrap();
            (sp, words.map(str::to_owned).collect())
        })
        .collect();
    assert_eq!(ours.len(), positions.len());
    for (sp, moves) in &theirs {
        assert!(
            moves.len() > 20,
            "SP {sp}: a real game, {} plies",
            moves.len()
        );
        assert_eq!(
            ours.get(sp),
            Some(moves),
            "SP {sp}: c960's game differs from two fresh Stockfish processes"
        );
    }
}

/// The options an engine was set up with, from a manifest's engine entry.
fn options(engine: &serde_json::Value) -> BTreeMap<String, String> {
    engine["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().unwrap().to_owned(),
                pair[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn manifest(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn contempt_options_are_set_to_zero_unless_the_user_sets_them() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let fake = format!("--contempt --trace {}", trace.display());
    let mut command = fake_selfplay(
        &dir,
        "neutral",
        &[
            "--positions",
            "1",
            "--games-per-position",
            "1",
            "--max-plies",
            "6",
        ],
    );
    command.env("C960_FAKE_UCI", &fake);
    assert_eq!(run_command(command).code, 0);
    let set = options(&manifest(&dir.file("neutral/manifest.json"))["engines"][0]);
    for name in ["Contempt", "ContemptDrawPenalty", "ContemptComplexity"] {
        assert_eq!(
            set.get(name).map(String::as_str),
            Some("0"),
            "{name}: {set:?}"
        );
    }
    // The engine was told so, by every process.
    for t in traces(&trace) {
        assert!(
            t.contains(&"setoption ContemptDrawPenalty 0".to_owned()),
            "{t:?}"
        );
    }

    // The user's value wins, and is the only one sent.
    fs::remove_dir_all(&trace).unwrap();
    fs::create_dir(&trace).unwrap();
    let mut command = fake_selfplay(
        &dir,
        "user",
        &[
            "--positions",
            "1",
            "--games-per-position",
            "1",
            "--max-plies",
            "6",
            "--option",
            "ContemptDrawPenalty=7",
        ],
    );
    command.env("C960_FAKE_UCI", &fake);
    assert_eq!(run_command(command).code, 0);
    let set = options(&manifest(&dir.file("user/manifest.json"))["engines"][0]);
    assert_eq!(set["ContemptDrawPenalty"], "7");
    assert_eq!(set["ContemptComplexity"], "0");
    for t in traces(&trace) {
        assert!(
            !t.contains(&"setoption ContemptDrawPenalty 0".to_owned()),
            "{t:?}"
        );
        assert!(
            t.contains(&"setoption ContemptDrawPenalty 7".to_owned()),
            "{t:?}"
        );
    }

    // Sweeps too.
    let engine = fake_engine();
    let mut sweep = dir.command(&[
        "sweep",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "1",
        "--nodes",
        "10",
        "--quiet",
        "--out",
        "sweep",
    ]);
    sweep.env("C960_FAKE_UCI", "--contempt");
    assert_eq!(run_command(sweep).code, 0);
    let set = options(&manifest(&dir.file("sweep/manifest.json"))["engine"]);
    assert_eq!(set["Contempt"], "0");
    assert_eq!(set["ContemptDrawPenalty"], "0");
}

/// Ethereal (Debian's ethereal-chess), or a clear failure.
fn ethereal() -> PathBuf {
    c960_engine::uci::find_ethereal().unwrap_or_else(|| {
        panic!(
            "Ethereal is required for this test: install it with `apt-get install ethereal-chess`"
        )
    })
}

#[test]
fn ethereal_plays_on_a_depth_limit_with_contempt_at_zero() {
    ethereal();
    let dir = Dir::new();
    let run = dir.run(&[
        "selfplay",
        "--engine",
        "ethereal",
        "--positions",
        "0,518",
        "--games-per-position",
        "2",
        "--depth",
        "4",
        "--max-plies",
        "80",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        "eth",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("eth/manifest.json"));
    let engine = &m["engines"][0];
    assert!(
        engine["name"].as_str().unwrap().starts_with("Ethereal"),
        "{engine}"
    );
    let set = options(engine);
    assert_eq!(set["ContemptDrawPenalty"], "0");
    assert_eq!(set["ContemptComplexity"], "0");
    assert_eq!(set["UCI_Chess960"], "true");
    let pgn = fs::read_to_string(dir.file("eth/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert!(pgn.contains("[White \"Ethereal"));

    // Ethereal 12 ignores `go nodes` and would play one-ply moves: refused.
    let line = dir.bad_input(&[
        "selfplay",
        "--engine",
        "ethereal",
        "--positions",
        "1",
        "--nodes",
        "5000",
        "--out",
        "nodes",
    ]);
    assert!(line.contains("ignores `go nodes`"), "{line}");
}

/// The `clock ...` lines of a fake engine's trace (one per search on the
/// clock), as key → value maps.
fn clock_lines(trace: &[String]) -> Vec<BTreeMap<String, u64>> {
    trace
        .iter()
        .filter_map(|l| l.strip_prefix("clock "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words
                .chunks(2)
                .map(|kv| (kv[0].to_owned(), kv[1].parse().unwrap()))
                .collect()
        })
        .collect()
}

#[test]
fn clocks_are_sent_as_uci_expects_and_kept_per_side() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        fake_engine().to_str().unwrap(),
        "--tc",
        "40/60+0.5",
        "--positions",
        "518",
        "--games-per-position",
        "1",
        "--max-plies",
        "8",
        "--jobs",
        "1",
        "--out",
        "tc",
    ]);
    command.env(
        "C960_FAKE_UCI",
        format!("--slow 30 --trace {}", trace.display()),
    );
    let run = run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("do not replay exactly"),
        "{}",
        run.stdout
    );
    let searching: Vec<Vec<String>> = traces(&trace)
        .into_iter()
        .filter(|t| t.iter().any(|l| l.starts_with("go")))
        .collect();
    let white = searching
        .iter()
        .find(|t| t.contains(&"go w".to_owned()))
        .unwrap();
    let black = searching
        .iter()
        .find(|t| t.contains(&"go b".to_owned()))
        .unwrap();
    let (w, b) = (clock_lines(white), clock_lines(black));
    assert_eq!(w.len(), 4);
    // White's first move: both full clocks, both increments, 40 to go.
    let first = &w[0];
    assert_eq!(first["wtime"], 60_000);
    assert_eq!(first["btime"], 60_000);
    assert_eq!(first["winc"], 500);
    assert_eq!(first["binc"], 500);
    assert_eq!(first["movestogo"], 40);
    // Black's first move: White's clock charged (about 30 ms) and credited.
    let wtime = b[0]["wtime"];
    assert!(wtime < 60_500 - 25 && wtime > 60_500 - 1_000, "{wtime}");
    assert_eq!(b[0]["btime"], 60_000);
    assert_eq!(b[0]["movestogo"], 40);
    // White's second move: 39 to go; its clock as Black saw it.
    assert_eq!(w[1]["movestogo"], 39);
    assert_eq!(w[1]["wtime"], wtime);
    assert!(w[1]["btime"] < 60_500 - 25, "{:?}", w[1]);

    let m = manifest(&dir.file("tc/manifest.json"));
    assert_eq!(m["limit"], "tc 40/60+0.5");
    assert_eq!(m["replays_exactly"], false);
    assert!(
        m["notes"]
            .as_str()
            .unwrap()
            .contains("do not replay exactly")
    );
    let pgn = fs::read_to_string(dir.file("tc/games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"40/60+0.5\"]"), "{pgn}");
    assert!(
        pgn.contains("[C960Replay \"no: played on the clock\"]"),
        "{pgn}"
    );
    // Node-limit runs replay and say so.
    let mut nodes = fake_selfplay(
        &dir,
        "nodes",
        &["--positions", "1", "--games-per-position", "1"],
    );
    nodes.env_remove("C960_FAKE_UCI");
    assert_eq!(run_command(nodes).code, 0);
    let m = manifest(&dir.file("nodes/manifest.json"));
    assert_eq!(m["replays_exactly"], true);
    assert!(
        !fs::read_to_string(dir.file("nodes/games.pgn"))
            .unwrap()
            .contains("TimeControl")
    );
}

#[test]
fn an_engine_that_oversteps_its_time_loses_on_time_and_is_no_fault() {
    let dir = Dir::new();
    let engine = fake_engine();
    let play = |out: &str, extra: &[&str], fake: &str| {
        let mut args = vec![
            "selfplay",
            "--engine",
            engine.to_str().unwrap(),
            "--positions",
            "0,518",
            "--games-per-position",
            "1",
            "--max-plies",
            "6",
            "--retries",
            "0",
            "--quiet",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        let mut command = dir.command(&args);
        command.env("C960_FAKE_UCI", fake);
        run_command(command)
    };
    // The fake thinks its whole clock plus 100 ms: White loses on time on
    // its first move.
    let run = play("clock", &["--tc", "0.3+0.1"], "--overstep 100");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("clock/games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[C960Termination \"time-forfeit\"]").count(),
        2,
        "{pgn}"
    );
    assert_eq!(pgn.matches("[Termination \"time forfeit\"]").count(), 2);
    assert_eq!(pgn.matches("[Result \"0-1\"]").count(), 2);
    assert_eq!(pgn.matches("[PlyCount \"0\"]").count(), 2);
    assert!(pgn.contains("[TimeControl \"0.3+0.1\"]"));
    let m = manifest(&dir.file("clock/manifest.json"));
    assert_eq!(m["failed"].as_array().unwrap().len(), 0, "not a fault");
    let table = fs::read_to_string(dir.file("clock/positions.csv")).unwrap();
    let header: Vec<&str> = table.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|c| *c == "time_forfeit").unwrap();
    for row in table.lines().skip(1) {
        assert_eq!(row.split(',').nth(column), Some("1"), "{table}");
    }

    // Within the time margin it is no loss.
    let run = play(
        "margin",
        &["--tc", "0.3+0.1", "--time-margin", "2000"],
        "--overstep 100",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("margin/games.pgn")).unwrap();
    assert!(!pgn.contains("time-forfeit"), "{pgn}");

    // A time per move too.
    let run = play("st", &["--st", "0.1"], "--overstep 150");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pgn = fs::read_to_string(dir.file("st/games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[C960Termination \"time-forfeit\"]").count(),
        2,
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"0.1/move\"]"), "{pgn}");
}

#[test]
fn bad_clock_flags_are_one_line_errors() {
    let dir = Dir::new();
    for (tc, needle) in [
        ("40/abc", "--tc"),
        ("0/60+1", "0 moves"),
        ("0+1", "no time"),
        ("x", "MOVES/SECONDS+INC"),
    ] {
        let line = dir.bad_input(&["selfplay", "--tc", tc, "--positions", "1"]);
        assert!(line.contains(needle), "{tc}: {line}");
    }
    assert!(
        dir.bad_input(&["selfplay", "--st", "0", "--positions", "1"])
            .contains("--st")
    );
    assert!(
        dir.bad_input(&["selfplay", "--tc", "10+0.1", "--nodes", "100"])
            .contains("cannot be used with")
    );
}

#[test]
fn engine_b_has_its_own_limit_hash_threads_and_options() {
    let dir = Dir::new();
    let trace = dir.file("trace");
    fs::create_dir(&trace).unwrap();
    let engine = fake_engine();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--engine-b",
        engine.to_str().unwrap(),
        "--nodes",
        "10",
        "--nodes-b",
        "20",
        "--hash-b",
        "32",
        "--threads-b",
        "2",
        "--option-b",
        "MultiPV=2",
        "--jitter",
        "0",
        "--positions",
        "518",
        "--games-per-position",
        "2",
        "--max-plies",
        "6",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "ab",
    ]);
    command.env("C960_FAKE_UCI", format!("--trace {}", trace.display()));
    let run = run_command(command);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("ab/manifest.json"));
    let (a, b) = (options(&m["engines"][0]), options(&m["engines"][1]));
    assert_eq!((a["Hash"].as_str(), a["Threads"].as_str()), ("16", "1"));
    assert_eq!((b["Hash"].as_str(), b["Threads"].as_str()), ("32", "2"));
    assert_eq!(b["MultiPV"], "2");
    assert!(!a.contains_key("MultiPV"));
    assert_eq!(m["limit"], "nodes 10");
    assert_eq!(m["limit_b"], "nodes 20");
    // Each process searched with its own engine's limit only.
    for t in traces(&trace) {
        let limits: Vec<&String> = t.iter().filter(|l| l.starts_with("limit")).collect();
        if limits.is_empty() {
            continue;
        }
        let hash = t.iter().find(|l| l.starts_with("setoption Hash")).unwrap();
        let expected = if hash.ends_with("32") {
            "limit nodes 20"
        } else {
            "limit nodes 10"
        };
        assert!(limits.iter().all(|l| *l == expected), "{t:?}");
    }
    let pgn = fs::read_to_string(dir.file("ab/games.pgn")).unwrap();
    assert!(
        pgn.contains("[C960Limit \"white: nodes 10; black: nodes 20\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[C960Limit \"white: nodes 20; black: nodes 10\"]"),
        "{pgn}"
    );

    // Per-side flags need a second engine.
    for flag in ["--nodes-b", "--hash-b", "--threads-b"] {
        let line = dir.bad_input(&["selfplay", flag, "5"]);
        assert!(line.contains("--engine-b"), "{flag}: {line}");
    }
}

#[test]
fn stockfish_against_ethereal_with_a_limit_each_and_on_the_clock() {
    let stockfish = c960_engine::uci::find_stockfish().unwrap_or_else(|| {
        panic!("Stockfish is required for this test: install it with `apt-get install stockfish`")
    });
    ethereal();
    let dir = Dir::new();
    let base = [
        "selfplay",
        "--engine",
        stockfish.to_str().unwrap(),
        "--engine-b",
        "ethereal",
        "--positions",
        "0",
        "--games-per-position",
        "2",
        "--max-plies",
        "30",
        "--jobs",
        "2",
        "--quiet",
    ];
    // Stockfish on nodes, Ethereal (which ignores `go nodes`) on depth.
    let mut args = base.to_vec();
    args.extend(["--nodes", "3000", "--depth-b", "5", "--out", "limits"]);
    let run = dir.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("limits/manifest.json"));
    assert_eq!(m["limit_b"], "depth 5");
    assert_eq!(m["replays_exactly"], true);
    assert!(
        m["engines"][1]["name"]
            .as_str()
            .unwrap()
            .starts_with("Ethereal")
    );
    // Both on the clock.
    let mut args = base.to_vec();
    args.extend(["--tc", "2+0.1", "--time-margin", "300", "--out", "clock"]);
    let run = dir.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = manifest(&dir.file("clock/manifest.json"));
    assert_eq!(m["games"], 2);
    assert_eq!(m["replays_exactly"], false);
    let pgn = fs::read_to_string(dir.file("clock/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[TimeControl \"2+0.1\"]").count(), 2);
}

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
