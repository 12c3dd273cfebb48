//! The UCI parser on lines printed by Stockfish 15.1 (Debian package), taken
//! from real sessions.

use c960_engine::{
    Bound, Score, Wdl,
    uci::{EngineLine, Info, OptionDecl, parse_line},
};

fn info(line: &str) -> Info {
    match parse_line(line) {
        Ok(EngineLine::Info(info)) => info,
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn multipv_line_with_wdl() {
    let i = info(
        "info depth 8 seldepth 10 multipv 2 score cp 21 wdl 26 971 3 nodes 20009 nps 666966 \
         hashfull 6 tbhits 0 time 30 pv d2d4 g8f6 c2c4 e7e6 g1f3 f8e7 b1c3 e8h8 g2g3 d7d5",
    );
    assert_eq!(i.depth, Some(8));
    assert_eq!(i.seldepth, Some(10));
    assert_eq!(i.multipv, Some(2));
    assert_eq!(i.score, Some(Score::Cp(21)));
    assert_eq!(i.bound, Bound::Exact);
    assert_eq!(
        i.wdl,
        Some(Wdl {
            win: 26,
            draw: 971,
            loss: 3
        })
    );
    assert_eq!(i.nodes, Some(20009));
    assert_eq!(i.nps, Some(666_966));
    assert_eq!(i.time_ms, Some(30));
    assert_eq!(i.pv.len(), 10);
    // Chess960 castling on the wire: king takes own rook.
    assert_eq!(i.pv[7], "e8h8");
}

#[test]
fn bounds() {
    let upper = info(
        "info depth 8 seldepth 9 multipv 3 score cp 14 wdl 19 977 4 upperbound nodes 20009 \
         nps 666966 hashfull 6 tbhits 0 time 30 pv c2c4 g8f6",
    );
    assert_eq!(upper.bound, Bound::Upper);
    assert_eq!(upper.score, Some(Score::Cp(14)));
    let lower = info(
        "info depth 16 seldepth 20 multipv 1 score cp 35 lowerbound nodes 120697 nps 400986 \
         hashfull 55 tbhits 0 time 301 pv d2d4",
    );
    assert_eq!(lower.bound, Bound::Lower);
    assert_eq!(Bound::Lower.negate(), Bound::Upper);
}

#[test]
fn mate_scores() {
    let win = info(
        "info depth 5 seldepth 2 multipv 1 score mate 1 wdl 1000 0 0 nodes 85 nps 42500 \
         hashfull 0 tbhits 0 time 2 pv a1a8",
    );
    assert_eq!(win.score, Some(Score::Mate(1)));
    assert_eq!(win.score.unwrap().negate(), Score::Mate(-1));
    let loss = info(
        "info depth 12 seldepth 4 multipv 1 score mate -2 wdl 0 0 1000 nodes 4000 time 3 pv h7h6 a1a8",
    );
    assert_eq!(loss.score, Some(Score::Mate(-2)));
    let mated = info("info depth 0 score mate 0");
    assert_eq!(mated.score, Some(Score::Mate(0)));
    assert!(mated.pv.is_empty());
}

#[test]
fn info_strings_and_currmove_lines() {
    let s = info("info string NNUE evaluation using nn-ad9b42354671.nnue enabled");
    assert_eq!(
        s.string.as_deref(),
        Some("NNUE evaluation using nn-ad9b42354671.nnue enabled")
    );
    assert_eq!(s.score, None);
    let cur = info("info depth 20 currmove e2e4 currmovenumber 1");
    assert_eq!(cur.depth, Some(20));
    assert!(cur.pv.is_empty());
}

#[test]
fn bestmove_with_and_without_ponder() {
    assert_eq!(
        parse_line("bestmove e2e4 ponder c7c5"),
        Ok(EngineLine::BestMove {
            best: Some("e2e4".into()),
            ponder: Some("c7c5".into())
        })
    );
    assert_eq!(
        parse_line("bestmove a1a8"),
        Ok(EngineLine::BestMove {
            best: Some("a1a8".into()),
            ponder: None
        })
    );
    assert_eq!(
        parse_line("bestmove (none)"),
        Ok(EngineLine::BestMove {
            best: None,
            ponder: None
        })
    );
}

#[test]
fn handshake_lines() {
    assert_eq!(
        parse_line("id name Stockfish 15.1"),
        Ok(EngineLine::IdName("Stockfish 15.1".into()))
    );
    assert_eq!(
        parse_line("id author the Stockfish developers (see AUTHORS file)"),
        Ok(EngineLine::IdAuthor(
            "the Stockfish developers (see AUTHORS file)".into()
        ))
    );
    assert_eq!(
        parse_line("option name Hash type spin default 16 min 1 max 33554432"),
        Ok(EngineLine::Option(OptionDecl {
            name: "Hash".into(),
            kind: "spin".into(),
            default: Some("16".into()),
            min: Some(1),
            max: Some(33_554_432),
        }))
    );
    match parse_line("option name Debug Log File type string default ") {
        Ok(EngineLine::Option(o)) => {
            assert_eq!(o.name, "Debug Log File");
            assert_eq!(o.kind, "string");
        }
        other => panic!("{other:?}"),
    }
    match parse_line("option name Clear Hash type button") {
        Ok(EngineLine::Option(o)) => assert_eq!(o.name, "Clear Hash"),
        other => panic!("{other:?}"),
    }
    assert_eq!(parse_line("uciok"), Ok(EngineLine::UciOk));
    assert_eq!(parse_line("readyok"), Ok(EngineLine::ReadyOk));
    assert!(matches!(
        parse_line("Stockfish 15.1 by the Stockfish developers (see AUTHORS file)"),
        Ok(EngineLine::Other(_))
    ));
}

#[test]
fn malformed_lines_are_errors() {
    assert!(parse_line("info depth x").is_err());
    assert!(parse_line("info score knight 3").is_err());
    assert!(parse_line("info wdl 1 2").is_err());
    assert!(parse_line("bestmove").is_err());
    assert!(parse_line("option name Foo").is_err());
}

#[test]
fn a_wdl_that_does_not_add_up_to_1000_is_an_error() {
    let err = parse_line("info depth 5 score cp 10 wdl 900 900 900 nodes 9 pv e2e4").unwrap_err();
    assert!(
        err.reason
            .contains("wdl 900 900 900 adds up to 2700, not 1000"),
        "{err}"
    );
    assert!(parse_line("info depth 5 score cp 10 wdl 0 0 0 pv e2e4").is_err());
    assert!(parse_line("info depth 5 score cp 10 wdl 0 999 0 pv e2e4").is_err());
    assert!(parse_line("info depth 5 score cp 10 wdl 1 998 1 pv e2e4").is_ok());
}

#[test]
fn limits_and_bounds_serialize_as_their_text_and_parse_back() {
    use c960_engine::{Clock, Limit};
    let clock = Limit::Clock(Clock {
        wtime_ms: 60_000,
        btime_ms: 59_000,
        winc_ms: 600,
        binc_ms: 600,
        movestogo: Some(40),
    });
    for limit in [
        Limit::Nodes(1_000_000),
        Limit::Depth(12),
        Limit::MoveTime(500),
        clock,
    ] {
        let json = serde_json::to_string(&limit).unwrap();
        assert_eq!(json, format!("\"{limit}\""));
        assert_eq!(serde_json::from_str::<Limit>(&json).unwrap(), limit);
    }
    assert!("nodes many".parse::<Limit>().is_err());
    assert!("nodes 5 extra".parse::<Limit>().is_err());
    for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
        let json = serde_json::to_string(&bound).unwrap();
        assert_eq!(serde_json::from_str::<Bound>(&json).unwrap(), bound);
    }
    assert_eq!(serde_json::to_string(&Bound::Lower).unwrap(), "\"lower\"");
    assert!(serde_json::from_str::<Bound>("\"sideways\"").is_err());
}
