//! Double Fischer Random setups: every index round-trips through
//! placements and FENs, the symmetric diagonal is the Chess960 table, and
//! the per-side features (computed from per-rank tables) equal a direct
//! computation on the full board for a sample of asymmetric setups.

use std::collections::BTreeMap;

use c960_core::{
    DFRC_COUNT, DfrcFeatures, DfrcSetup, Features, StartPosition, parse_dfrc_set,
    shakmaty::{
        Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position, Rank,
        Square, san::San,
    },
    stratified_sample,
};

#[test]
fn all_921600_indices_round_trip_through_placements_and_fens() {
    for index in 0..DFRC_COUNT {
        let setup = DfrcSetup::new(index).unwrap();
        assert_eq!(setup.index(), index);
        assert_eq!(DfrcSetup::from_sides(setup.white(), setup.black()), setup);
        let placement = setup.placement();
        assert_eq!(DfrcSetup::from_placement(&placement).unwrap(), setup);
        // FENs through shakmaty (Chess960 castling) and back.
        assert_eq!(
            DfrcSetup::from_fen(&setup.to_shredder_fen()).unwrap(),
            setup
        );
        assert_eq!(DfrcSetup::from_fen(&setup.to_xfen()).unwrap(), setup);
    }
    assert!(DfrcSetup::new(DFRC_COUNT).is_err());
}

#[test]
fn the_symmetric_diagonal_is_the_chess960_table() {
    for position in StartPosition::all() {
        let setup = DfrcSetup::symmetric(position);
        assert_eq!(setup.index(), u32::from(position.sp()) * 961);
        assert!(setup.is_symmetric());
        assert_eq!(setup.to_shredder_fen(), position.to_shredder_fen());
        assert_eq!(setup.to_xfen(), position.to_xfen());
        assert_eq!(setup.board(), position.board());
        let f = Features::of(position);
        let d = DfrcFeatures::of(setup);
        assert_eq!(*d.white, f);
        assert_eq!(*d.black, f);
        let white: Vec<(Square, Vec<San>)> = d
            .white_attacks
            .iter()
            .map(|a| (a.pawn, a.moves.clone()))
            .collect();
        let expected: Vec<(Square, Vec<San>)> = f
            .first_move_attacks
            .iter()
            .map(|a| (a.pawn, a.moves.clone()))
            .collect();
        assert_eq!(white, expected, "SP {}", position.sp());
        // Black's attacks mirror White's in a symmetric setup.
        let black: Vec<Square> = d
            .black_attacks
            .iter()
            .map(|a| a.pawn.flip_vertical())
            .collect();
        let mirrored: Vec<Square> = f.first_move_attacks.iter().map(|a| a.pawn).collect();
        assert_eq!(black, mirrored);
    }
}

/// Per-side features computed directly on the full DFRC board.
struct Direct {
    undefended: [Bitboard; 2],
    king_only: [Bitboard; 2],
    attacked: [BTreeMap<Square, usize>; 2],
    castle_first: [usize; 2],
}

fn direct(setup: DfrcSetup) -> Direct {
    let start = setup.to_position();
    let board = start.board().clone();
    let pawns = |color: Color, test: &dyn Fn(Bitboard, Square) -> bool| -> Bitboard {
        let rank = if color == Color::White {
            Rank::Second
        } else {
            Rank::Seventh
        };
        (board.pawns() & board.by_color(color) & Bitboard::from_rank(rank))
            .into_iter()
            .filter(|sq| test(board.attacks_to(*sq, color, board.occupied()), *sq))
            .collect()
    };
    let mut out = Direct {
        undefended: [Bitboard::EMPTY; 2],
        king_only: [Bitboard::EMPTY; 2],
        attacked: [BTreeMap::new(), BTreeMap::new()],
        castle_first: [0; 2],
    };
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let king = board.king_of(color).unwrap();
        out.undefended[i] = pawns(color, &|d, _| d.is_empty());
        out.king_only[i] = pawns(color, &|d, _| d == Bitboard::from(king));
    }
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let mut setup_ = start.to_setup(EnPassantMode::Legal);
        setup_.turn = color;
        let pos = Chess::from_setup(setup_, CastlingMode::Chess960).unwrap();
        let targets = out.undefended[1 - i];
        for m in &pos.legal_moves() {
            if matches!(m, Move::Castle { .. }) {
                out.castle_first[i] += 1;
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            let b = after.board();
            for pawn in targets {
                if b.attacks_to(pawn, color, b.occupied()).any() {
                    *out.attacked[i].entry(pawn).or_insert(0) += 1;
                }
            }
        }
    }
    out
}

#[test]
fn per_side_features_equal_a_direct_computation_on_the_board() {
    for setup in stratified_sample(3000, 11) {
        let f = DfrcFeatures::of(setup);
        let d = direct(setup);
        let mirror =
            |b: Bitboard| -> Bitboard { b.into_iter().map(Square::flip_vertical).collect() };
        assert_eq!(
            f.white.undefended_pawns.white,
            d.undefended[0],
            "{}",
            setup.placement()
        );
        assert_eq!(
            mirror(f.black.undefended_pawns.white),
            d.undefended[1],
            "{}",
            setup.placement()
        );
        assert_eq!(f.white.king_only_pawns.white, d.king_only[0]);
        assert_eq!(mirror(f.black.king_only_pawns.white), d.king_only[1]);
        let white: BTreeMap<Square, usize> = f
            .white_attacks
            .iter()
            .map(|a| (a.pawn, a.moves.len()))
            .collect();
        let black: BTreeMap<Square, usize> = f
            .black_attacks
            .iter()
            .map(|a| (a.pawn, a.moves.len()))
            .collect();
        assert_eq!(white, d.attacked[0], "{}", setup.placement());
        assert_eq!(black, d.attacked[1], "{}", setup.placement());
        let castles = |x: &Features| x.castling.iter().filter(|c| c.legal_first_move).count();
        assert_eq!(castles(f.white), d.castle_first[0], "{}", setup.placement());
        assert_eq!(castles(f.black), d.castle_first[1], "{}", setup.placement());
    }
}

#[test]
fn sets_and_the_stratified_sample() {
    assert_eq!(parse_dfrc_set("all").unwrap().len(), 921_600);
    let symmetric = parse_dfrc_set("symmetric").unwrap();
    assert!(symmetric.iter().all(|s| s.is_symmetric()));
    assert_eq!(parse_dfrc_set("white:518").unwrap().len(), 960);
    assert!(
        parse_dfrc_set("black:0")
            .unwrap()
            .iter()
            .all(|s| s.black().sp() == 0)
    );
    assert_eq!(parse_dfrc_set("0-9, 5, 921599").unwrap().len(), 11);
    for bad in [
        "",
        "921600",
        "9-3",
        "sample:0:1",
        "sample:5",
        "white:960",
        "x",
    ] {
        assert!(parse_dfrc_set(bad).is_err(), "{bad:?}");
    }
    for n in [100, 960, 20_000] {
        let sample = stratified_sample(n, 7);
        assert_eq!(sample.len(), n as usize);
        let mut distinct = sample.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), n as usize, "no setup twice");
        let count = |side: &dyn Fn(&DfrcSetup) -> u16| {
            let mut c = [0u32; 960];
            for s in &sample {
                c[usize::from(side(s))] += 1;
            }
            (*c.iter().min().unwrap(), *c.iter().max().unwrap())
        };
        let (lo, hi) = (n / 960, n.div_ceil(960));
        for side in [
            &(|s: &DfrcSetup| s.white().sp()) as &dyn Fn(&DfrcSetup) -> u16,
            &|s| s.black().sp(),
        ] {
            let (min, max) = count(side);
            assert!(min >= lo && max <= hi, "n = {n}: {min}..{max}");
        }
        assert_eq!(stratified_sample(n, 7), sample, "seeded");
        assert_ne!(stratified_sample(n, 8), sample);
    }
}

#[test]
fn bad_setups_are_clear_errors() {
    let err = |t: &str| t.parse::<DfrcSetup>().unwrap_err().to_string();
    assert_eq!(
        err("921600"),
        "setup index 921600 is out of range 0..=921599"
    );
    assert!(
        err("BBQNNRKR/RKRNNQBX").starts_with("Black's back rank:"),
        "{}",
        err("BBQNNRKR/RKRNNQBX")
    );
    assert!(err("BBQNNKRR/RKRNNQBB").starts_with("White's back rank:"));
    assert!(
        err("rkrnnqbb/pppppppp/8/8/8/P7/1PPPPPPP/BBQNNRKR w HFca - 0 1").contains("pawns"),
        "{}",
        err("rkrnnqbb/pppppppp/8/8/8/P7/1PPPPPPP/BBQNNRKR w HFca - 0 1")
    );
    assert!(err("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w Fca - 0 1").contains("castling"));
    assert!(
        err("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b HFca - 0 1").contains("White to move")
    );
}
