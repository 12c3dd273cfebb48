//! The UCI driver against real Stockfish (Debian package `stockfish`).
//! These tests fail, rather than pass silently, when Stockfish is missing:
//! CI installs it.

use c960_core::{
    StartPosition,
    shakmaty::{Color, Move, Square, uci::UciMove},
};
use c960_engine::{
    Engine, GamePosition, Limit, Score, Search, SearchResult,
    uci::{UciConfig, UciEngine, find_stockfish},
};

fn stockfish() -> UciEngine {
    let path = find_stockfish().expect(
        "Stockfish is required for these tests and was not found on PATH or at \
         /usr/games/stockfish: install it with `apt-get install stockfish`",
    );
    UciEngine::start(&UciConfig::new(path)).expect("Stockfish starts")
}

fn play(position: &mut GamePosition, moves: &str) {
    for uci in moves.split_whitespace() {
        let m = uci
            .parse::<UciMove>()
            .unwrap()
            .to_move(position.current())
            .unwrap();
        position.push(m).unwrap();
    }
}

fn search(
    engine: &mut UciEngine,
    position: &GamePosition,
    nodes: u64,
    multipv: u32,
) -> SearchResult {
    engine.new_game().unwrap();
    engine
        .search(
            position,
            Search {
                limit: Limit::Nodes(nodes),
                multipv,
            },
        )
        .unwrap()
}

#[test]
fn stockfish_is_set_up_for_chess960() {
    let engine = stockfish();
    let info = engine.info();
    assert!(info.name.starts_with("Stockfish"), "{}", info.name);
    for option in [
        "Threads=1",
        "Hash=16",
        "UCI_Chess960=true",
        "UCI_ShowWDL=true",
    ] {
        assert!(
            info.options_string().contains(option),
            "{}",
            info.options_string()
        );
    }
}

#[test]
fn the_classical_position_scores_sanely() {
    let mut engine = stockfish();
    let r = search(
        &mut engine,
        &GamePosition::from_start(StartPosition::CLASSICAL),
        20_000,
        1,
    );
    let cp = r
        .white_score()
        .and_then(Score::cp)
        .expect("a centipawn score");
    assert!((-50..=100).contains(&cp), "SP 518 scored {cp} cp");
    let wdl = r.white_wdl().expect("Stockfish reports WDL");
    assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000);
    let line = r.best_line().unwrap();
    assert_eq!(line.pv[0], r.best_move);
    assert!(line.depth > 0);
    assert!(r.nodes.unwrap() >= 20_000);
}

#[test]
fn node_limited_searches_repeat_exactly() {
    let mut engine = stockfish();
    let sp = GamePosition::from_start(StartPosition::new(80).unwrap());
    let a = search(&mut engine, &sp, 30_000, 3);
    let b = search(&mut engine, &sp, 30_000, 3);
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.lines, b.lines);
    assert_eq!(a.nodes, b.nodes);
    let mut other = stockfish();
    assert_eq!(search(&mut other, &sp, 30_000, 3).lines, a.lines);
}

#[test]
fn multipv_gives_distinct_first_moves() {
    let mut engine = stockfish();
    let r = search(
        &mut engine,
        &GamePosition::from_start(StartPosition::new(91).unwrap()),
        20_000,
        3,
    );
    assert_eq!(r.lines.len(), 3);
    assert_eq!(r.lines[0].pv[0], r.best_move);
    let firsts: std::collections::HashSet<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
}

fn assert_castles(r: &SearchResult, king: Square, rook: Square) {
    assert_eq!(
        r.best_move,
        Move::Castle { king, rook },
        "got {:?}",
        r.best_move
    );
}

#[test]
fn castling_in_the_classical_setup_comes_back_as_king_takes_rook() {
    // Berlin defence: Stockfish castles (e1h1 on the wire in Chess960 mode).
    let mut engine = stockfish();
    let mut position = GamePosition::from_start(StartPosition::CLASSICAL);
    play(&mut position, "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6");
    let r = search(&mut engine, &position, 200_000, 1);
    assert_castles(&r, Square::E1, Square::H1);
}

#[test]
fn castling_on_move_one_in_chess960_positions() {
    let mut engine = stockfish();
    // QBBNRKRN: king f1 and rook g1 swap (h-side); NNRKRBBQ: king d1 and
    // rook c1 swap (a-side). Stockfish 15.1 castles at once in both.
    let r = search(
        &mut engine,
        &GamePosition::from_start(StartPosition::new(292).unwrap()),
        100_000,
        1,
    );
    assert_castles(&r, Square::F1, Square::G1);
    let r = search(
        &mut engine,
        &GamePosition::from_start(StartPosition::new(94).unwrap()),
        100_000,
        1,
    );
    assert_castles(&r, Square::D1, Square::C1);
}

#[test]
fn scores_are_turned_to_whites_view() {
    let mut engine = stockfish();
    let mut position = GamePosition::from_start(StartPosition::CLASSICAL);
    // 1.e4 f6 2.d4 g5: White to move mates with Qh5.
    play(&mut position, "e2e4 f7f6 d2d4 g7g5");
    let r = search(&mut engine, &position, 50_000, 1);
    assert_eq!(r.score(), Some(Score::Mate(1)));
    assert_eq!(r.white_score(), Some(Score::Mate(1)));
    assert_eq!(r.best_move.to_string(), "Qd1-h5");
    // 3.Nc3 instead: Black to move, White much better; the side-to-move
    // score is the negation of White's.
    play(&mut position, "b1c3");
    let r = search(&mut engine, &position, 50_000, 1);
    assert_eq!(r.turn, Color::Black);
    assert_eq!(r.white_score(), r.score().map(Score::negate));
    let white = r.white_score().unwrap();
    assert!(
        white.mate().is_some_and(|n| n > 0) || white.cp().is_some_and(|cp| cp > 200),
        "{white:?}"
    );
    let wdl = r.white_wdl().unwrap();
    assert_eq!(wdl, r.best_line().unwrap().wdl.unwrap().negate());
}
