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
pub(crate) fn fake_selfplay(dir: &Dir, out: &str, extra: &[&str]) -> Command {
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
pub(crate) fn python() -> String {
    std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Runs a Python script with arguments; fails clearly without python-chess.
pub(crate) fn run_python(script: &str, args: &[&str]) -> String {
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
pub(crate) fn traces(dir: &Path) -> Vec<Vec<String>> {
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
pub(crate) fn options(engine: &serde_json::Value) -> BTreeMap<String, String> {
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

pub(crate) fn manifest(path: &Path) -> serde_json::Value {
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
pub(crate) fn ethereal() -> PathBuf {
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
