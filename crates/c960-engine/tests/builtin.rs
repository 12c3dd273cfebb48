//! The built-in engine: finds mates, never plays an illegal move, and repeats
//! node-limited searches exactly.

use c960_core::{
    StartPosition,
    shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove},
};
use c960_engine::{
    Engine, GamePosition, Limit, Score, Search, SearchResult, builtin::BuiltinEngine,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

fn position(fen: &str) -> GamePosition {
    GamePosition::new(
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap(),
    )
}

fn search(
    engine: &mut BuiltinEngine,
    pos: &GamePosition,
    limit: Limit,
    multipv: u32,
) -> SearchResult {
    engine.new_game().unwrap();
    engine.search(pos, Search { limit, multipv }).unwrap()
}

fn uci(m: c960_core::shakmaty::Move) -> String {
    UciMove::from_move(m, CastlingMode::Chess960).to_string()
}

#[test]
fn finds_mate_in_one_two_and_three() {
    let mut engine = BuiltinEngine::new(16);
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2, "c6b6"),
        ("k7/8/3K4/8/8/8/8/7R w - - 0 1", 2, "d6c7"),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
            "f8c5",
        ),
    ];
    for (fen, mate, best) in cases {
        let r = search(&mut engine, &position(fen), Limit::Depth(7), 1);
        assert_eq!(r.score(), Some(Score::Mate(mate)), "{fen}");
        assert_eq!(uci(r.best_move), best, "{fen}");
    }
}

#[test]
fn sees_that_it_is_mated_and_stalemate_scores_as_a_draw() {
    let mut engine = BuiltinEngine::new(16);
    // Black to move, mated next move whatever it does.
    let r = search(
        &mut engine,
        &position("k7/8/1K6/8/8/8/8/7R b - - 0 1"),
        Limit::Depth(4),
        1,
    );
    assert_eq!(r.score(), Some(Score::Mate(-1)));
    // Queen takes into stalemate is no win: any other queen move keeps winning.
    let r = search(
        &mut engine,
        &position("7k/5Q2/8/6K1/8/8/8/8 w - - 0 1"),
        Limit::Depth(3),
        1,
    );
    assert!(uci(r.best_move) != "g5g6" || r.score().is_some_and(|s| s.mate().is_some()));
}

#[test]
fn node_limited_searches_are_deterministic() {
    for sp in [0, 91, 518, 959] {
        let pos = GamePosition::from_start(StartPosition::new(sp).unwrap());
        let a = search(&mut BuiltinEngine::new(16), &pos, Limit::Nodes(3000), 2);
        let mut engine = BuiltinEngine::new(16);
        let b = search(&mut engine, &pos, Limit::Nodes(3000), 2);
        let c = search(&mut engine, &pos, Limit::Nodes(3000), 2);
        for other in [&b, &c] {
            assert_eq!(a.best_move, other.best_move, "SP {sp}");
            assert_eq!(a.lines, other.lines, "SP {sp}");
            assert_eq!(a.nodes, other.nodes, "SP {sp}");
        }
        assert_eq!(a.lines.len(), 2);
        assert_ne!(a.lines[0].pv[0], a.lines[1].pv[0]);
        assert!(a.nodes.unwrap() >= 3000 || a.lines[0].depth > 0);
    }
}

/// Checks that the best move and every PV move are legal in turn.
fn assert_legal(pos: &GamePosition, r: &SearchResult) {
    let current = pos.current();
    assert!(
        current.is_legal(r.best_move),
        "{:?} in {}",
        r.best_move,
        pos.start_fen()
    );
    for line in &r.lines {
        let mut board: Chess = current.clone();
        for m in &line.pv {
            assert!(board.is_legal(*m), "PV move {m:?} in {}", pos.to_uci());
            board.play_unchecked(*m);
        }
    }
}

#[test]
fn never_plays_an_illegal_move_from_all_starts_and_random_playouts() {
    let mut engine = BuiltinEngine::new(4);
    let mut rng = ChaCha8Rng::seed_from_u64(960);
    let mut searched = 0;
    for sp in StartPosition::all() {
        let mut pos = GamePosition::from_start(sp);
        // The start itself, then positions along a random playout.
        for step in 0..3 {
            if step > 0 {
                for _ in 0..=(rng.next_u32() % 24) {
                    let moves = pos.current().legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(rng.next_u32() as usize) % moves.len()];
                    pos.push(m).unwrap();
                }
            }
            if pos.current().legal_moves().is_empty() {
                break;
            }
            let r = engine.search(&pos, Search::new(Limit::Nodes(60))).unwrap();
            assert_legal(&pos, &r);
            searched += 1;
        }
    }
    assert!(searched > 2500, "{searched} positions");
}

#[test]
fn the_watchdog_stops_a_search_that_runs_too_long() {
    use std::time::{Duration, Instant};

    let mut engine = BuiltinEngine::new(16);
    engine.set_watchdog(Some(Duration::from_millis(300)));
    let started = Instant::now();
    let err = engine
        .search(
            &GamePosition::from_start(StartPosition::CLASSICAL),
            Search::new(Limit::Depth(60)),
        )
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5), "{err}");
    assert!(
        matches!(err, c960_engine::EngineError::Timeout { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("did not answer within 0.3s"),
        "{err}"
    );
    assert!(!err.is_setup_error(), "a hung search is retried");
    // The engine searches again afterwards, and results within the
    // watchdog do not depend on it.
    let pos = GamePosition::from_start(StartPosition::CLASSICAL);
    let watched = search(&mut engine, &pos, Limit::Nodes(3000), 1);
    let free = search(&mut BuiltinEngine::new(16), &pos, Limit::Nodes(3000), 1);
    assert_eq!(
        (watched.best_move, watched.lines, watched.nodes),
        (free.best_move, free.lines, free.nodes)
    );
}

#[test]
fn a_hash_table_that_cannot_be_allocated_is_an_error_not_an_abort() {
    let err = BuiltinEngine::try_new(usize::MAX >> 20).unwrap_err();
    assert!(err.is_setup_error(), "{err}");
    assert!(
        err.to_string().contains("cannot allocate a hash table of"),
        "{err}"
    );
    let spec = c960_engine::EngineSpec::Builtin {
        hash_mb: usize::MAX >> 20,
        watchdog: None,
    };
    assert!(spec.start().is_err());
}
