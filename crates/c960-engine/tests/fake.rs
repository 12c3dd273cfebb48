//! The UCI driver and the pool against the fake engine, which can be told to
//! crash, hang, cheat or stay silent.

use std::{
    path::PathBuf,
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use c960_core::StartPosition;
use c960_core::shakmaty::uci::UciMove;
use c960_engine::{
    Engine, EngineError, GamePosition, Limit, Score, Search, SearchResult,
    pool::{self, PoolOptions},
    uci::{UciConfig, UciEngine},
};

fn fake(args: &[&str]) -> UciConfig {
    let mut config = UciConfig::new(env!("CARGO_BIN_EXE_c960-fake-uci"));
    config.args = args.iter().map(|a| (*a).to_owned()).collect();
    config.handshake_timeout = Duration::from_secs(5);
    config
}

fn start(args: &[&str]) -> Result<UciEngine, EngineError> {
    UciEngine::start(&fake(args))
}

fn search_518(engine: &mut UciEngine) -> Result<c960_engine::SearchResult, EngineError> {
    engine.new_game()?;
    engine.search(
        &GamePosition::from_start(StartPosition::CLASSICAL),
        Search::new(Limit::Nodes(1000)),
    )
}

#[test]
fn a_well_behaved_engine_answers_with_typed_results() {
    let mut engine = start(&[]).unwrap();
    let info = engine.info().clone();
    assert_eq!(info.name, "c960-fake-uci");
    assert_eq!(info.author.as_deref(), Some("the c960 developers"));
    let options: Vec<(&str, &str)> = info
        .options
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        options,
        [
            ("Threads", "1"),
            ("Hash", "16"),
            ("UCI_Chess960", "true"),
            ("UCI_ShowWDL", "true")
        ]
    );
    let result = search_518(&mut engine).unwrap();
    assert_eq!(result.best_move.to_string(), "a2-a3");
    assert_eq!(result.nodes, Some(1000));
    let line = result.best_line().unwrap();
    assert_eq!(line.pv, [result.best_move]);
    assert!(line.wdl.is_some());
    assert!(matches!(result.score(), Some(Score::Cp(_))));
    // Same position, same answer (the driver's stopwatch aside).
    let again = search_518(&mut engine).unwrap();
    assert_eq!(
        SearchResult {
            elapsed: result.elapsed,
            ..again
        },
        result
    );
    assert!(result.elapsed > Duration::ZERO);
}

#[test]
fn multipv_lines_come_back_in_order() {
    let mut engine = start(&[]).unwrap();
    let position = GamePosition::from_start(StartPosition::CLASSICAL);
    let search = Search {
        limit: Limit::Nodes(100),
        multipv: 3,
    };
    let result = engine.search(&position, search).unwrap();
    let ks: Vec<u32> = result.lines.iter().map(|l| l.multipv).collect();
    assert_eq!(ks, [1, 2, 3]);
    assert!(
        engine
            .info()
            .options
            .contains(&("MultiPV".to_owned(), "3".to_owned()))
    );
    // Back to one line.
    let one = engine
        .search(&position, Search::new(Limit::Nodes(100)))
        .unwrap();
    assert_eq!(one.lines.len(), 1);
}

#[test]
fn black_to_move_scores_are_turned_to_whites_view() {
    let mut engine = start(&[]).unwrap();
    let mut position = GamePosition::from_start(StartPosition::CLASSICAL);
    let e4 = "e2e4"
        .parse::<UciMove>()
        .unwrap()
        .to_move(position.current())
        .unwrap();
    position.push(e4).unwrap();
    let result = engine
        .search(&position, Search::new(Limit::Nodes(10)))
        .unwrap();
    assert_eq!(result.white_score(), result.score().map(Score::negate));
    assert_eq!(
        result.white_wdl().map(|w| (w.win, w.loss)),
        result.best_line().unwrap().wdl.map(|w| (w.loss, w.win))
    );
}

#[test]
fn castling_comes_back_as_a_castling_move() {
    let mut engine = start(&["--castle"]).unwrap();
    // NNRKBRQB: king d1 and rook c1 castle a-side on move 1 (d1c1 on the wire).
    let sp = StartPosition::from_placement("NNRKBRQB").unwrap();
    let result = engine
        .search(&GamePosition::from_start(sp), Search::new(Limit::Nodes(10)))
        .unwrap();
    assert!(result.best_move.is_castle(), "{:?}", result.best_move);
    assert!(result.best_move.castling_side().unwrap().is_queen_side());
}

#[test]
fn a_missing_engine_is_reported() {
    let err = UciEngine::start(&UciConfig::new("/nonexistent/stockfish")).unwrap_err();
    assert!(matches!(err, EngineError::NotFound { .. }));
    assert!(
        err.to_string().contains("apt-get install stockfish"),
        "{err}"
    );
    let err = UciEngine::start(&UciConfig::new("no-such-engine-c960")).unwrap_err();
    assert!(matches!(err, EngineError::NotFound { .. }));
    assert!(err.is_setup_error());
}

#[test]
fn a_program_that_is_not_uci_is_reported() {
    let err = start(&["--not-uci"]).unwrap_err();
    assert!(matches!(err, EngineError::NotUci { .. }), "{err}");
    assert!(err.to_string().contains("without uciok"), "{err}");

    let mut silent = fake(&["--silent"]);
    silent.handshake_timeout = Duration::from_millis(300);
    let err = UciEngine::start(&silent).unwrap_err();
    assert!(err.to_string().contains("no uciok within 0.3s"), "{err}");

    // A program that is no engine at all.
    let err = UciEngine::start(&UciConfig::new("/bin/true")).unwrap_err();
    assert!(matches!(err, EngineError::NotUci { .. }), "{err}");
}

#[test]
fn an_engine_without_chess960_is_refused() {
    let err = start(&["--no-chess960"]).unwrap_err();
    assert_eq!(
        err,
        EngineError::NoChess960 {
            name: "c960-fake-uci".to_owned()
        }
    );
}

#[test]
fn options_out_of_range_or_unknown_are_refused() {
    let mut config = fake(&[]);
    config.threads = 100_000;
    let err = UciEngine::start(&config).unwrap_err();
    assert!(
        err.to_string()
            .contains("Threads=100000 is outside 1..=512"),
        "{err}"
    );
    let mut config = fake(&[]);
    config.options.push("Contempt=10".parse().unwrap());
    let err = UciEngine::start(&config).unwrap_err();
    assert!(err.to_string().contains("no option \"Contempt\""), "{err}");
}

#[test]
fn a_crash_mid_search_keeps_exit_status_and_stderr() {
    let mut engine = start(&["--crash"]).unwrap();
    let err = search_518(&mut engine).unwrap_err();
    match &err {
        EngineError::Crashed { status, stderr, .. } => {
            assert!(status.contains("exit status: 3"), "{status}");
            assert!(stderr.contains("asked to crash"), "{stderr}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.engine_is_dead());
    // The engine is dead: the next call is an error too, not a hang.
    assert!(search_518(&mut engine).is_err());
}

#[test]
fn a_hanging_engine_is_stopped_by_the_watchdog() {
    let mut config = fake(&["--hang"]);
    config.watchdog = Some(Duration::from_millis(300));
    let mut engine = UciEngine::start(&config).unwrap();
    let started = Instant::now();
    let err = search_518(&mut engine).unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(err.to_string().contains("within 0.3s"), "{err}");
}

#[test]
fn a_slow_engine_within_the_watchdog_is_fine() {
    let mut config = fake(&["--slow", "200"]);
    config.watchdog = Some(Duration::from_secs(5));
    let mut engine = UciEngine::start(&config).unwrap();
    assert!(search_518(&mut engine).is_ok());
    config.watchdog = Some(Duration::from_millis(50));
    let mut engine = UciEngine::start(&config).unwrap();
    assert!(matches!(
        search_518(&mut engine),
        Err(EngineError::Timeout { .. })
    ));
}

#[test]
fn illegal_and_unparsable_best_moves_are_errors() {
    let mut engine = start(&["--illegal"]).unwrap();
    let err = search_518(&mut engine).unwrap_err();
    match &err {
        EngineError::IllegalMove { what, uci, fen, .. } => {
            assert_eq!(*what, "bestmove");
            assert_eq!(uci, "a1b1");
            assert!(fen.ends_with("w HAha - 0 1"), "{fen}");
        }
        other => panic!("{other:?}"),
    }
    let mut engine = start(&["--garbage"]).unwrap();
    let err = search_518(&mut engine).unwrap_err();
    assert!(err.to_string().contains("\"zz99\""), "{err}");
}

fn pool_run(
    args: &[&str],
    jobs: usize,
    retries: u32,
) -> (Vec<pool::Done<String>>, Result<(), EngineError>) {
    let config = fake(args);
    let starter = move || UciEngine::start(&config);
    let positions: Vec<StartPosition> = StartPosition::all().take(jobs).collect();
    let work = |engine: &mut UciEngine, sp: &StartPosition| {
        engine.new_game()?;
        let r = engine.search(
            &GamePosition::from_start(*sp),
            Search::new(Limit::Nodes(10)),
        )?;
        Ok(r.best_move.to_string())
    };
    let mut done = Vec::new();
    let stop = AtomicBool::new(false);
    let result = pool::run(
        &starter,
        &positions,
        &work,
        PoolOptions {
            workers: 2,
            retries,
        },
        &stop,
        |d| done.push(d),
    );
    done.sort_by_key(|d| d.index);
    (done, result)
}

#[test]
fn the_pool_restarts_a_crashed_engine_and_retries() {
    let marker = tempfile::tempdir().unwrap();
    let file: PathBuf = marker.path().join("crashed");
    let (done, result) = pool_run(&["--crash-once", file.to_str().unwrap()], 6, 2);
    result.unwrap();
    assert_eq!(done.len(), 6);
    assert!(done.iter().all(|d| d.outcome.is_ok()));
    assert_eq!(
        done.iter().map(|d| d.attempts).sum::<u32>(),
        7,
        "one retry in all"
    );
}

#[test]
fn the_pool_records_a_job_that_keeps_failing_and_goes_on() {
    let (done, result) = pool_run(&["--crash"], 5, 1);
    result.unwrap();
    assert_eq!(done.len(), 5, "every job is reported");
    for d in &done {
        let failure = d.outcome.as_ref().unwrap_err();
        assert_eq!(failure.attempts, 2);
        assert!(failure.reason.contains("crashed"), "{}", failure.reason);
    }
}

#[test]
fn the_pool_stops_at_an_engine_that_cannot_be_set_up() {
    let (done, result) = pool_run(&["--no-chess960"], 10, 3);
    assert!(matches!(result, Err(EngineError::NoChess960 { .. })));
    assert!(done.is_empty());
}

#[test]
fn a_bestmove_without_an_info_line_is_a_bad_answer() {
    let mut engine = start(&["--no-info"]).unwrap();
    let err = search_518(&mut engine).unwrap_err();
    assert!(matches!(err, EngineError::BadAnswer { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("sent bestmove without an info line with a score"),
        "{err}"
    );
    assert!(!err.is_setup_error(), "retried like a crash");
}

#[test]
fn a_wdl_of_900_900_900_is_refused() {
    let mut engine = start(&["--bad-wdl"]).unwrap();
    let err = search_518(&mut engine).unwrap_err();
    assert!(matches!(err, EngineError::Protocol { .. }), "{err:?}");
    assert!(err.to_string().contains("adds up to 2700"), "{err}");
}

#[test]
fn an_engine_that_ignores_a_limit_is_a_setup_error_naming_what_it_honours() {
    let position = GamePosition::from_start(StartPosition::CLASSICAL);
    let mut engine = start(&["--ignore-nodes"]).unwrap();
    let err = engine
        .search(&position, Search::new(Limit::Nodes(200_000)))
        .unwrap_err();
    match &err {
        EngineError::LimitIgnored {
            limit,
            reached,
            honoured,
            ..
        } => {
            assert_eq!(limit, "nodes 200000");
            assert_eq!(reached, "stopped at depth 1 after 6 nodes");
            assert_eq!(honoured, "this engine honours `go depth` (use --depth N)");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.is_setup_error(), "a pool stops at once");
    // The engine is still usable at the limit it honours.
    let result = engine
        .search(&position, Search::new(Limit::Depth(12)))
        .unwrap();
    assert_eq!(result.best_line().unwrap().depth, 12);
    // A small node limit cannot be told from a search that used it.
    engine
        .search(&position, Search::new(Limit::Nodes(24)))
        .unwrap();

    let mut engine = start(&["--ignore-depth"]).unwrap();
    let err = engine
        .search(&position, Search::new(Limit::Depth(9)))
        .unwrap_err();
    assert!(err.to_string().contains("stopped at depth 1 of 9"), "{err}");
    assert!(
        err.to_string()
            .contains("honours `go nodes` (use --nodes N)"),
        "{err}"
    );
}

#[test]
fn the_pool_stops_at_an_engine_that_ignores_its_limit() {
    let (done, result) = pool_run(&["--ignore-nodes"], 4, 2);
    // pool_run searches at 10 nodes, which the fake reports as 6: enough.
    result.unwrap();
    assert_eq!(done.len(), 4);
    let config = fake(&["--ignore-nodes"]);
    let starter = move || UciEngine::start(&config);
    let positions: Vec<StartPosition> = StartPosition::all().take(6).collect();
    let work = |engine: &mut UciEngine, sp: &StartPosition| {
        engine.search(
            &GamePosition::from_start(*sp),
            Search::new(Limit::Nodes(100_000)),
        )
    };
    let stop = AtomicBool::new(false);
    let mut finished = 0;
    let result = pool::run(
        &starter,
        &positions,
        &work,
        PoolOptions {
            workers: 2,
            retries: 2,
        },
        &stop,
        |_| finished += 1,
    );
    assert!(
        matches!(result, Err(EngineError::LimitIgnored { .. })),
        "{result:?}"
    );
    assert_eq!(finished, 0, "no position is reported done or failed");
}
