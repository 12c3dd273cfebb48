//! Time controls: parsing as the match runners write them, and losses on
//! time ruled by the harness's own clocks.

use std::num::NonZeroU32;
use std::{thread, time::Duration};

use c960_core::shakmaty::{ByColor, CastlingMode, Chess, Position, fen::Fen};
use c960_engine::{
    Bound, Engine, EngineError, EngineInfo, GamePosition, Limit, Line, Score, Search, SearchResult,
};
use c960_selfplay::{
    Control, GameSpec, Outcome, Rules, Termination, TimeControl, parse_seconds, play,
};

/// Plays the first legal move after thinking `ms` milliseconds; records the
/// limits it was given.
struct Sleeper {
    info: EngineInfo,
    ms: u64,
    limits: Vec<Limit>,
}

impl Sleeper {
    fn new(ms: u64) -> Sleeper {
        Sleeper {
            info: EngineInfo {
                name: "sleeper".to_owned(),
                ..EngineInfo::default()
            },
            ms,
            limits: Vec::new(),
        }
    }
}

impl Engine for Sleeper {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    fn search(
        &mut self,
        position: &GamePosition,
        search: Search,
    ) -> Result<SearchResult, EngineError> {
        self.limits.push(search.limit);
        thread::sleep(Duration::from_millis(self.ms));
        let current = position.current();
        let m = current.legal_moves()[0];
        Ok(SearchResult {
            turn: current.turn(),
            best_move: m,
            ponder: None,
            lines: vec![Line {
                multipv: 1,
                depth: 1,
                seldepth: None,
                score: Score::Cp(0),
                bound: Bound::Exact,
                wdl: None,
                pv: vec![m],
            }],
            nodes: Some(1),
            time: None,
            elapsed: Duration::from_millis(self.ms),
        })
    }
}

fn from_fen(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn spec(start: Chess, controls: ByColor<Control>, max_plies: u32) -> GameSpec {
    GameSpec {
        start,
        controls,
        rules: Rules {
            max_plies: NonZeroU32::new(max_plies).unwrap(),
            resign_plies: 0,
            draw_plies: 0,
            ..Rules::default()
        },
        ..GameSpec::from_start(c960_core::StartPosition::CLASSICAL, 0, 1, Limit::Nodes(1))
    }
}

#[test]
fn time_controls_read_and_print_as_match_runners_write_them() {
    let tc: TimeControl = "40/60+0.6".parse().unwrap();
    assert_eq!(
        tc,
        TimeControl {
            moves: Some(40),
            base_ms: 60_000,
            inc_ms: 600
        }
    );
    assert_eq!(tc.to_string(), "40/60+0.6");
    let tc: TimeControl = "10+0.1".parse().unwrap();
    assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
    assert_eq!(tc.to_string(), "10+0.1");
    assert_eq!("300".parse::<TimeControl>().unwrap().to_string(), "300");
    assert_eq!("40/120".parse::<TimeControl>().unwrap().inc_ms, 0);
    for bad in ["", "x", "40/", "/60", "-5+1", "60+x", "0/60", "0+1"] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
    }
    assert_eq!(parse_seconds("1.5"), Some(1_500));
    assert_eq!(parse_seconds("nan"), None);
    assert_eq!(Control::PerMove(1_500).pgn().as_deref(), Some("1.5/move"));
    assert_eq!(Control::Fixed(Limit::Nodes(5)).pgn(), None);
    assert!(Control::Fixed(Limit::Nodes(5)).replays());
    assert!(!Control::PerMove(100).replays());
}

#[test]
fn a_period_refills_the_clock_and_counts_moves_to_go() {
    let tc = TimeControl {
        moves: Some(2),
        base_ms: 10_000,
        inc_ms: 0,
    };
    let mut engine = Sleeper::new(1);
    let game = play(
        &spec(
            Chess::default(),
            ByColor::new_with(|_| Control::Clock(tc)),
            6,
        ),
        &mut engine,
        None,
    )
    .unwrap();
    assert_eq!(game.termination, Termination::PlyCap);
    let clocks: Vec<_> = engine
        .limits
        .iter()
        .map(|l| match l {
            Limit::Clock(c) => *c,
            other => panic!("{other:?}"),
        })
        .collect();
    let togo: Vec<Option<u32>> = clocks.iter().map(|c| c.movestogo).collect();
    // White, Black, White, Black, ...: 2 to go, then 1, then 2 again.
    assert_eq!(togo, [Some(2), Some(2), Some(1), Some(1), Some(2), Some(2)]);
    // After two moves White's clock is refilled: more than 10 s again.
    assert!(clocks[4].wtime_ms > 10_000, "{:?}", clocks[4]);
    assert!(clocks[2].wtime_ms < 10_000, "{:?}", clocks[2]);
    assert_eq!(
        game.time_controls,
        Some(["2/10".to_owned(), "2/10".to_owned()])
    );
}

#[test]
fn a_loss_on_time_is_a_draw_when_the_other_side_cannot_mate() {
    let slow = Control::Clock(TimeControl {
        moves: None,
        base_ms: 20,
        inc_ms: 0,
    });
    // White (king and rook) oversteps: Black, a bare king, cannot mate.
    let mut engine = Sleeper::new(60);
    let game = play(
        &spec(
            from_fen("k7/8/8/8/8/8/8/KR6 w - - 0 1"),
            ByColor::new_with(|_| slow),
            10,
        ),
        &mut engine,
        None,
    )
    .unwrap();
    assert_eq!(
        (game.result, game.termination, game.plies),
        (Outcome::Draw, Termination::TimeForfeit, 0)
    );
    // Black oversteps against the rook: White wins on time.
    let game = play(
        &spec(
            from_fen("k7/8/8/8/8/8/8/KR6 b - - 0 1"),
            ByColor::new_with(|_| slow),
            10,
        ),
        &mut engine,
        None,
    )
    .unwrap();
    assert_eq!(
        (game.result, game.termination),
        (Outcome::WhiteWins, Termination::TimeForfeit)
    );
    // A fixed limit never loses on time, however slow.
    let game = play(
        &spec(
            from_fen("k7/8/8/8/8/8/8/KR6 b - - 0 1"),
            ByColor::new_with(|_| Control::Fixed(Limit::Nodes(1))),
            2,
        ),
        &mut engine,
        None,
    )
    .unwrap();
    assert_eq!(game.termination, Termination::PlyCap);
}
