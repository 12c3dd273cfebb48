//! Game rules on constructed positions, with a scripted engine that plays
//! given moves and reports given scores.

use c960_core::{
    StartPosition,
    shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove},
};
use c960_engine::{
    Bound, Engine, EngineError, EngineInfo, GamePosition, Limit, Line, Score, Search, SearchResult,
};
use c960_selfplay::{GameRecord, GameSpec, Outcome, Rules, Termination, play, write_game};
use std::num::NonZeroU32;

/// Plays `moves[ply]` at each ply, reporting `scores[ply]` (White's view,
/// centipawns; 0 when the list is shorter).
struct Scripted {
    info: EngineInfo,
    moves: Vec<String>,
    scores: Vec<i32>,
}

impl Scripted {
    fn new(moves: &str, scores: &[i32]) -> Scripted {
        Scripted {
            info: EngineInfo {
                name: "scripted".to_owned(),
                ..EngineInfo::default()
            },
            moves: moves.split_whitespace().map(str::to_owned).collect(),
            scores: scores.to_vec(),
        }
    }
}

impl Engine for Scripted {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    fn search(&mut self, position: &GamePosition, _: Search) -> Result<SearchResult, EngineError> {
        let ply = position.moves().len();
        let uci = self
            .moves
            .get(ply)
            .unwrap_or_else(|| panic!("no scripted move for ply {ply}"));
        let current = position.current();
        let m = uci.parse::<UciMove>().unwrap().to_move(current).unwrap();
        let white = Score::Cp(self.scores.get(ply).copied().unwrap_or(0));
        Ok(SearchResult {
            turn: current.turn(),
            best_move: m,
            ponder: None,
            lines: vec![Line {
                multipv: 1,
                depth: 1,
                seldepth: None,
                score: white.for_white(current.turn()),
                bound: Bound::Exact,
                wdl: None,
                pv: vec![m],
            }],
            nodes: Some(1),
            time: None,
            elapsed: std::time::Duration::ZERO,
        })
    }
}

fn from_fen(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn spec(start: Chess, rules: Rules) -> GameSpec {
    GameSpec {
        start,
        rules,
        keep_scores: true,
        ..GameSpec::from_start(StartPosition::CLASSICAL, 0, 1, Limit::Nodes(1))
    }
}

fn game(start: Chess, rules: Rules, moves: &str, scores: &[i32]) -> GameRecord {
    let mut engine = Scripted::new(moves, scores);
    play(&spec(start, rules), &mut engine, None).unwrap()
}

fn classical() -> Chess {
    StartPosition::CLASSICAL.to_position()
}

#[test]
fn checkmate_ends_the_game() {
    let g = game(classical(), Rules::default(), "f2f3 e7e5 g2g4 d8h4", &[]);
    assert_eq!(g.result, Outcome::BlackWins);
    assert_eq!(g.termination, Termination::Checkmate);
    assert_eq!(g.plies, 4);
}

#[test]
fn stalemate_is_a_draw() {
    let g = game(
        from_fen("7k/8/6K1/5Q2/8/8/8/8 w - - 0 1"),
        Rules::default(),
        "f5f7",
        &[],
    );
    assert_eq!(
        (g.result, g.termination),
        (Outcome::Draw, Termination::Stalemate)
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    let g = game(classical(), Rules::default(), shuffle, &[]);
    assert_eq!(
        (g.result, g.termination),
        (Outcome::Draw, Termination::ThreefoldRepetition)
    );
    assert_eq!(
        g.plies, 8,
        "the start position stands for the third time after ply 8"
    );
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_is_a_draw() {
    let g = game(
        from_fen("k7/8/8/8/8/8/8/KR6 w - - 98 60"),
        Rules::default(),
        "a1a2 a8a7",
        &[],
    );
    assert_eq!(
        (g.result, g.termination),
        (Outcome::Draw, Termination::FiftyMoves)
    );
    assert_eq!(g.plies, 2);
}

#[test]
fn insufficient_material_is_a_draw() {
    let g = game(
        from_fen("4k3/8/8/8/8/8/5q2/4K3 w - - 0 1"),
        Rules::default(),
        "e1f2",
        &[],
    );
    assert_eq!(
        (g.result, g.termination),
        (Outcome::Draw, Termination::InsufficientMaterial)
    );
}

#[test]
fn both_engines_agreeing_on_a_lost_position_resign() {
    let rules = Rules {
        resign_cp: 500,
        resign_plies: 4,
        ..Rules::default()
    };
    let moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5";
    // White's view: +600 from ply 3 on; four in a row after ply 6.
    let g = game(
        classical(),
        rules,
        moves,
        &[10, 20, 600, 700, 650, 800, 0, 0],
    );
    assert_eq!(
        (g.result, g.termination),
        (Outcome::WhiteWins, Termination::Resignation)
    );
    assert_eq!(g.plies, 6);
    let g = game(
        classical(),
        rules,
        moves,
        &[0, 0, -600, -700, -650, -800, 0, 0],
    );
    assert_eq!(
        (g.result, g.termination),
        (Outcome::BlackWins, Termination::Resignation)
    );
    // One engine disagreeing breaks the run.
    let g = game(
        classical(),
        Rules {
            max_plies: NonZeroU32::new(8).unwrap(),
            ..rules
        },
        moves,
        &[0, 0, 600, 700, 100, 800, 700, 600],
    );
    assert_eq!(g.termination, Termination::PlyCap);
}

#[test]
fn a_long_quiet_game_is_adjudicated_a_draw() {
    let rules = Rules {
        draw_cp: 10,
        draw_plies: 4,
        draw_after_ply: 6,
        ..Rules::default()
    };
    let moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5";
    let g = game(classical(), rules, moves, &[50, 5, -5, 0, 3, 4, 0, 0]);
    assert_eq!(
        (g.result, g.termination),
        (Outcome::Draw, Termination::DrawAdjudication)
    );
    assert_eq!(g.plies, 6);
}

#[test]
fn the_ply_cap_ends_the_game_as_a_draw() {
    let rules = Rules {
        max_plies: NonZeroU32::new(3).unwrap(),
        ..Rules::default()
    };
    let g = game(classical(), rules, "e2e4 e7e5 g1f3 b8c6", &[]);
    assert_eq!(
        (g.result, g.termination, g.plies),
        (Outcome::Draw, Termination::PlyCap, 3)
    );
}

#[test]
fn castling_on_move_one_is_recorded_with_side_and_ply() {
    // NNRKBRQB: king d1 and rook c1 swap (a-side) at once; Black does the same.
    let sp = StartPosition::from_placement("NNRKBRQB").unwrap();
    let g = game(
        sp.to_position(),
        Rules {
            max_plies: NonZeroU32::new(2).unwrap(),
            ..Rules::default()
        },
        "d1c1 d8c8",
        &[],
    );
    assert_eq!(g.moves, ["d1c1", "d8c8"]);
    let w = g.white_castling.unwrap();
    let b = g.black_castling.unwrap();
    assert_eq!((w.ply, w.side, b.ply, b.side), (1, 'a', 2, 'a'));
    let mut pgn = Vec::new();
    write_game(
        &mut pgn,
        &GameRecord {
            sp: u32::from(sp.sp()),
            ..g
        },
        false,
    )
    .unwrap();
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[FEN \"nnrkbrqb/pppppppp/8/8/8/8/PPPPPPPP/NNRKBRQB w KQkq - 0 1\"]"));
    assert!(pgn.contains("\n1. O-O-O O-O-O 1/2-1/2\n"), "{pgn}");
}

#[test]
fn the_score_curve_is_kept_from_whites_view() {
    let g = game(
        classical(),
        Rules {
            max_plies: NonZeroU32::new(4).unwrap(),
            ..Rules::default()
        },
        "e2e4 e7e5 g1f3 b8c6",
        &[30, 25, 40, -10],
    );
    assert_eq!(g.scores, Some(vec![30, 25, 40, -10]));
    let mut pgn = Vec::new();
    write_game(&mut pgn, &g, true).unwrap();
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(
        pgn.contains("1. e4 {+0.30} e5 {+0.25} 2. Nf3 {+0.40} Nc6 {-0.10} 1/2-1/2"),
        "{pgn}"
    );
}

#[test]
fn node_jitter_is_seeded_and_bounded() {
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    let draw = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..200)
            .map(
                |_| match c960_selfplay::jittered(Limit::Nodes(1000), 0.1, &mut rng) {
                    Limit::Nodes(n) => n,
                    other => panic!("{other:?}"),
                },
            )
            .collect::<Vec<u64>>()
    };
    let a = draw(7);
    assert_eq!(a, draw(7));
    assert_ne!(a, draw(8));
    assert!(a.iter().all(|n| (900..=1100).contains(n)));
    assert!(a.iter().any(|n| *n < 950) && a.iter().any(|n| *n > 1050));
}
