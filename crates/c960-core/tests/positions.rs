//! Numbering, conversions and parsing errors for all 960 start positions.

use std::collections::HashSet;

use c960_core::{
    StartPosition, StartPositionError,
    shakmaty::{CastlingMode, Position},
};

/// Scharnagl's numbering written out independently from docs/domain.md#numbering-scharnagl, with
/// its own knight table, to check the code under test (which goes through
/// `shakmaty::Board::chess960` one way and its own inverse the other).
fn scharnagl_placement(n: usize) -> String {
    const KNIGHTS: [&str; 10] = [
        "NN---", "N-N--", "N--N-", "N---N", "-NN--", "-N-N-", "-N--N", "--NN-", "--N-N", "---NN",
    ];
    let mut rank = ['.'; 8];
    rank[[1, 3, 5, 7][n % 4]] = 'B';
    rank[[0, 2, 4, 6][(n / 4) % 4]] = 'B';
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|i| rank[*i] == '.').collect() };
    let q = free(&rank)[(n / 16) % 6];
    rank[q] = 'Q';
    let slots = free(&rank);
    for (slot, mark) in slots.iter().zip(KNIGHTS[n / 96].chars()) {
        if mark == 'N' {
            rank[*slot] = 'N';
        }
    }
    for (slot, piece) in free(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[slot] = piece;
    }
    rank.iter().collect()
}

#[test]
fn numbering_matches_an_independent_scharnagl_implementation() {
    for sp in StartPosition::all() {
        assert_eq!(
            sp.placement(),
            scharnagl_placement(usize::from(sp.sp())),
            "SP {}",
            sp.sp()
        );
    }
}

#[test]
fn sp_518_is_the_classical_setup() {
    let classical = StartPosition::new(518).unwrap();
    assert_eq!(classical, StartPosition::CLASSICAL);
    assert_eq!(classical.placement(), "RNBQKBNR");
    assert_eq!(
        classical.to_xfen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        classical.to_shredder_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert_eq!(StartPosition::new(0).unwrap().placement(), "BBQNNRKR");
    assert_eq!(StartPosition::new(959).unwrap().placement(), "RKRNNQBB");
}

#[test]
fn all_960_are_distinct() {
    let placements: HashSet<String> = StartPosition::all().map(StartPosition::placement).collect();
    assert_eq!(placements.len(), 960);
    let fens: HashSet<String> = StartPosition::all().map(StartPosition::to_xfen).collect();
    assert_eq!(fens.len(), 960);
}

#[test]
fn round_trips_for_all_960() {
    for sp in StartPosition::all() {
        let placement = sp.placement();
        assert_eq!(StartPosition::from_placement(&placement), Ok(sp));
        assert_eq!(
            StartPosition::from_placement(&placement.to_lowercase()),
            Ok(sp)
        );
        assert_eq!(StartPosition::from_sp_str(&sp.sp().to_string()), Ok(sp));
        assert_eq!(StartPosition::from_fen(&sp.to_xfen()), Ok(sp));
        assert_eq!(StartPosition::from_fen(&sp.to_shredder_fen()), Ok(sp));
        for text in [
            sp.sp().to_string(),
            placement,
            sp.to_xfen(),
            sp.to_shredder_fen(),
        ] {
            assert_eq!(text.parse::<StartPosition>(), Ok(sp), "{text}");
        }
    }
}

#[test]
fn positions_are_set_up_in_chess960_mode_with_all_castling_rights() {
    for sp in StartPosition::all() {
        let pos = sp.to_position();
        assert_eq!(pos.castles().mode(), CastlingMode::Chess960);
        assert_eq!(pos.castles().castling_rights().count(), 4, "{sp}");
        assert_eq!(*pos.board(), sp.board());
    }
}

#[test]
fn shredder_fen_names_the_rook_files() {
    let sp = StartPosition::from_placement("NNRKBRQB").unwrap();
    assert!(sp.to_shredder_fen().ends_with(" w FCfc - 0 1"));
    assert!(sp.to_xfen().ends_with(" w KQkq - 0 1"));
}

#[test]
fn mirror_twin_is_an_involution_and_never_the_position_itself() {
    let mut twins = HashSet::new();
    for sp in StartPosition::all() {
        let twin = sp.mirror();
        assert_ne!(twin, sp);
        assert_eq!(twin.mirror(), sp);
        let reversed: String = sp.placement().chars().rev().collect();
        assert_eq!(twin.placement(), reversed);
        twins.insert([sp.min(twin), sp.max(twin)]);
    }
    assert_eq!(twins.len(), 480);
    assert_eq!(StartPosition::CLASSICAL.mirror().placement(), "RNBKQBNR");
}

#[test]
fn out_of_range_numbers_are_rejected() {
    assert_eq!(
        StartPosition::new(960),
        Err(StartPositionError::OutOfRange(960))
    );
    let err = StartPosition::from_sp_str("960").unwrap_err();
    assert_eq!(
        err.to_string(),
        "position number 960 is out of range 0..=959"
    );
    assert_eq!(
        "-1".parse::<StartPosition>(),
        Err(StartPositionError::OutOfRange(-1))
    );
    assert!(matches!(
        "5x".parse::<StartPosition>(),
        Err(StartPositionError::NotANumber(_))
    ));
}

#[test]
fn bad_placements_name_what_is_wrong() {
    let message = |p: &str| StartPosition::from_placement(p).unwrap_err().to_string();
    assert_eq!(
        message("RNBQKBN"),
        "placement \"RNBQKBN\" has 7 squares, expected 8"
    );
    assert_eq!(
        message("RNBQKBNP"),
        "placement \"RNBQKBNP\" contains 'P', expected only K, Q, R, B and N"
    );
    assert_eq!(
        message("RNBQKBNX"),
        "placement \"RNBQKBNX\" contains 'X', expected only K, Q, R, B and N"
    );
    assert_eq!(
        message("RNBQKBQR"),
        "placement RNBQKBQR has 1 knight, expected 2"
    );
    assert_eq!(
        message("RNBKKBNR"),
        "placement RNBKKBNR has 0 queens, expected 1"
    );
    assert_eq!(
        message("RNBQKNBR"),
        "placement RNBQKNBR has both bishops on dark squares (c1 and g1); \
         they must stand on opposite colours"
    );
    assert_eq!(
        message("KRBQRBNN"),
        "placement KRBQRBNN does not have the king between the rooks"
    );
    assert!(matches!(
        StartPosition::from_placement("RNBQKBNR!"),
        Err(StartPositionError::PlacementLength { len: 9, .. })
    ));
}

#[test]
fn fens_that_are_not_start_positions_are_rejected_with_a_reason() {
    let reason = |fen: &str| match StartPosition::from_fen(fen) {
        Err(StartPositionError::NotAStartPosition { reason, .. }) => reason,
        other => panic!("{fen}: expected NotAStartPosition, got {other:?}"),
    };
    // After 1.e4.
    assert!(
        reason("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .contains("other ranks")
    );
    // Black to move.
    assert_eq!(
        reason("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
        "White must be to move"
    );
    // Missing castling rights (as in some real-world dumps).
    assert!(reason("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").contains("castling"));
    assert!(
        reason("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HEhe - 0 1").contains("castling")
    );
    // Move counters.
    assert!(
        reason("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7").contains("counters")
    );
    // Black does not mirror White.
    assert!(
        reason("nrbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").contains("other ranks")
    );
    // A valid board with an invalid White back rank gives the placement error.
    assert!(matches!(
        StartPosition::from_fen("rnbqknbr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNBR w KQkq - 0 1"),
        Err(StartPositionError::BishopsSameColour { .. })
    ));
    assert!(matches!(
        StartPosition::from_fen("not a fen/"),
        Err(StartPositionError::MalformedFen { .. })
    ));
    assert!(matches!(
        StartPosition::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"),
        Err(StartPositionError::MalformedFen { .. })
    ));
}

#[test]
fn position_sets() {
    use c960_core::parse_position_set;
    let sps = |t: &str| -> Vec<u16> {
        parse_position_set(t)
            .unwrap()
            .iter()
            .map(|p| p.sp())
            .collect()
    };
    assert_eq!(sps("0-3,518"), [0, 1, 2, 3, 518]);
    assert_eq!(sps("959, 5 ,5"), [5, 959]);
    assert_eq!(sps("ALL").len(), 960);
    assert_eq!(
        parse_position_set("0-960"),
        Err(StartPositionError::OutOfRange(960))
    );
    for bad in ["9-3", "", "1,,2", "-"] {
        assert!(parse_position_set(bad).is_err(), "{bad:?}");
    }
    for text in ["0-99,518", "5", "1,3,5-7,959", "all"] {
        assert_eq!(
            c960_core::format_position_set(&parse_position_set(text).unwrap()),
            text
        );
    }
    assert!(matches!(
        parse_position_set("a-b"),
        Err(StartPositionError::NotANumber(_))
    ));
}
