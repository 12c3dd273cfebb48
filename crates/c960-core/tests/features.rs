//! Static features: named positions checked by hand, published counts, and
//! independent re-implementations of the defence and castling rules.

use c960_core::{
    CastlingKind, Features, StartPosition,
    shakmaty::{CastlingSide, Color, Square},
};

fn features(placement: &str) -> Features {
    Features::of(StartPosition::from_placement(placement).unwrap())
}

fn squares(list: &[Square]) -> c960_core::shakmaty::Bitboard {
    list.iter().copied().collect()
}

#[test]
fn nnrkbrqb_has_undefended_a_and_b_pawns_and_g3_hits_b7() {
    let f = features("NNRKBRQB");
    assert_eq!(f.undefended_files(), vec!['a', 'b']);
    assert_eq!(
        *f.undefended_pawns.get(Color::Black),
        squares(&[Square::A7, Square::B7])
    );
    assert_eq!(f.king_only_files(), vec!['e']);
    assert_eq!(f.weak_files(), vec!['a', 'b', 'e']);
    let b7 = f
        .first_move_attacks
        .iter()
        .find(|a| a.pawn == Square::B7)
        .expect("b7 is attackable on move 1");
    let moves: Vec<String> = b7.moves.iter().map(ToString::to_string).collect();
    assert!(moves.contains(&"g3".to_owned()), "{moves:?}");
    // 1.f3/f4 opens the queen's diagonal g1-a7.
    let a7 = f
        .first_move_attacks
        .iter()
        .find(|a| a.pawn == Square::A7)
        .unwrap();
    let moves: Vec<String> = a7.moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, vec!["f3", "f4"]);
    assert_eq!(f.corner_bishops, squares(&[Square::H1]));
    // King d1 and rook c1 trade places when castling a-side, on move 1 already.
    let a = f.castling.get(CastlingSide::QueenSide);
    assert_eq!(a.kind, CastlingKind::Swap);
    assert!(a.legal_first_move);
    let h = f.castling.get(CastlingSide::KingSide);
    assert_eq!(h.kind, CastlingKind::KingOnly);
    assert_eq!(h.blockers, squares(&[Square::E1, Square::G1]));
}

#[test]
fn classical_setup() {
    let f = Features::of(StartPosition::CLASSICAL);
    assert_eq!(f.undefended_count(), 0);
    assert!(f.first_move_attacks.is_empty());
    // f2 is defended by the king alone, as every chess player knows.
    assert_eq!(f.king_only_files(), vec!['f']);
    assert_eq!(f.legal_first_moves, 20);
    for side in CastlingSide::ALL {
        let c = f.castling.get(side);
        assert!(!c.legal_first_move);
        assert_eq!(c.kind, CastlingKind::Normal);
    }
    assert_eq!(
        f.castling.get(CastlingSide::QueenSide).blockers,
        squares(&[Square::B1, Square::C1, Square::D1])
    );
    assert_eq!(
        f.castling.get(CastlingSide::KingSide).blockers,
        squares(&[Square::F1, Square::G1])
    );
    assert!(f.corner_bishops.is_empty());
    assert!(!f.queen_in_corner());
    assert_eq!(f.mirror.placement(), "RNBKQBNR");
}

#[test]
fn king_f1_rook_g1_castles_h_side_on_move_1_as_a_swap() {
    // The 1.O-O O-O family: king f1, rook g1, so king and rook trade places.
    let family: Vec<Features> = Features::all()
        .into_iter()
        .filter(|f| f.king == Square::F1 && f.rooks.king_side == Square::G1)
        .collect();
    assert!(!family.is_empty());
    for f in &family {
        let h = f.castling.get(CastlingSide::KingSide);
        assert!(h.legal_first_move, "{}", f.position);
        assert_eq!(h.kind, CastlingKind::Swap);
        assert!(h.blockers.is_empty());
    }
    let f = features("BRNNQBKR");
    assert_eq!(
        f.castling.get(CastlingSide::KingSide).kind,
        CastlingKind::RookOnly
    );
}

#[test]
fn bishop_on_f1_blocks_h_side_castling_on_move_1() {
    // The rook's target square f1 must be empty, whatever else is free.
    for f in Features::all() {
        if f.squares_of(c960_core::shakmaty::Role::Bishop)
            .contains(Square::F1)
        {
            let h = f.castling.get(CastlingSide::KingSide);
            assert!(!h.legal_first_move, "{}", f.position);
            assert!(h.blockers.contains(Square::F1));
        }
    }
}

#[test]
fn published_weak_pawn_counts_are_reproduced() {
    // chess960frc blog (2010), quoted in docs/domain.md#what-c960-measures-per-position.
    let all = Features::all();
    assert_eq!(all.iter().filter(|f| f.weak_count() > 0).count(), 842);
    assert_eq!(all.iter().filter(|f| f.king_only_count() >= 1).count(), 472);
    assert_eq!(all.iter().filter(|f| f.king_only_count() == 2).count(), 48);
    assert!(all.iter().all(|f| f.king_only_count() <= 2));
}

#[test]
fn black_has_the_mirror_image_of_whites_weak_pawns() {
    for f in Features::all() {
        for set in [&f.undefended_pawns, &f.king_only_pawns] {
            assert_eq!(
                set.get(Color::Black).flip_vertical(),
                *set.get(Color::White),
                "{}",
                f.position
            );
        }
        assert!((f.undefended_pawns.white & f.king_only_pawns.white).is_empty());
    }
}

/// Which pieces of the back rank defend the pawn on `file` of rank 2,
/// written from the geometry alone: king, queen and bishop from an adjacent
/// file diagonally (king and queen also straight behind), rook straight
/// behind, knight from two files away.
fn defenders(rank: &[char], file: usize) -> Vec<char> {
    (0..8usize)
        .filter(|&f| {
            let d = f.abs_diff(file);
            match rank[f] {
                'K' | 'Q' => d <= 1,
                'B' => d == 1,
                'R' => d == 0,
                'N' => d == 2,
                _ => unreachable!(),
            }
        })
        .map(|f| rank[f])
        .collect()
}

#[test]
fn weak_pawns_match_an_independent_geometric_check() {
    for f in Features::all() {
        let rank: Vec<char> = f.position.placement().chars().collect();
        let undefended: Vec<char> = (0..8)
            .filter(|&file| defenders(&rank, file).is_empty())
            .map(|file| (b'a' + file as u8) as char)
            .collect();
        let king_only: Vec<char> = (0..8)
            .filter(|&file| defenders(&rank, file) == ['K'])
            .map(|file| (b'a' + file as u8) as char)
            .collect();
        assert_eq!(f.undefended_files(), undefended, "{}", f.position);
        assert_eq!(f.king_only_files(), king_only, "{}", f.position);
    }
}

#[test]
fn castling_on_move_1_matches_the_rule_applied_by_hand() {
    // docs/domain.md#castling: every square between king and its target and between rook
    // and its target (targets inclusive) must be empty except for that king
    // and rook; on move 1 no square can be attacked.
    for f in Features::all() {
        let rank: Vec<char> = f.position.placement().chars().collect();
        let king = rank.iter().position(|c| *c == 'K').unwrap();
        let rooks: Vec<usize> = (0..8).filter(|i| rank[*i] == 'R').collect();
        for (side, rook, king_to, rook_to) in [
            (CastlingSide::QueenSide, rooks[0], 2, 3),
            (CastlingSide::KingSide, rooks[1], 6, 5),
        ] {
            let span = |a: usize, b: usize| a.min(b)..=a.max(b);
            let blocked: Vec<usize> = span(king, king_to)
                .chain(span(rook, rook_to))
                .filter(|&s| s != king && s != rook)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let c = f.castling.get(side);
            assert_eq!(c.blockers.count(), blocked.len(), "{} {side:?}", f.position);
            assert_eq!(
                c.legal_first_move,
                blocked.is_empty(),
                "{} {side:?}",
                f.position
            );
            let kind = match (
                king == king_to,
                rook == rook_to,
                king == rook_to && rook == king_to,
            ) {
                (true, _, _) => CastlingKind::RookOnly,
                (_, true, _) => CastlingKind::KingOnly,
                (_, _, true) => CastlingKind::Swap,
                _ => CastlingKind::Normal,
            };
            assert_eq!(c.kind, kind, "{} {side:?}", f.position);
        }
    }
}

#[test]
fn first_move_attacks_only_target_undefended_black_pawns() {
    let all = Features::all();
    for f in &all {
        for attack in &f.first_move_attacks {
            assert!(f.undefended_pawns.get(Color::Black).contains(attack.pawn));
            assert!(!attack.moves.is_empty());
        }
    }
    // Positions without undefended pawns have nothing to attack.
    assert!(
        all.iter()
            .filter(|f| f.undefended_count() == 0)
            .all(|f| f.first_move_attacks.is_empty())
    );
    assert!(all.iter().any(|f| !f.first_move_attacks.is_empty()));
}

#[test]
fn mirror_twins_share_pawn_weakness_files_reflected() {
    for f in Features::all() {
        let twin = Features::of(f.mirror);
        let reflected: Vec<char> = twin
            .weak_files()
            .iter()
            .rev()
            .map(|c| (b'h' - (*c as u8 - b'a')) as char)
            .collect();
        assert_eq!(f.weak_files(), reflected, "{}", f.position);
    }
}

#[test]
fn positions_of_the_2018_carlsen_nakamura_match_as_published() {
    // Numbers as published in reports of the match (ChessBase, 11 Feb 2018:
    // "Position 412"; a game-by-game blog report: "Position 42" for games
    // 1-2 and "Position 671" for game 13).
    for (sp, placement) in [(42, "NNQRBBKR"), (412, "RBQNNKBR"), (671, "RNKRNQBB")] {
        assert_eq!(StartPosition::new(sp).unwrap().placement(), placement);
    }
    // The same report on SP 42: "Both the a-Pawns are undefended, [...]
    // 'King-move-only' castling on the a-side, and 'Rook-move-only' castling
    // on the h-side."
    let f = Features::of(StartPosition::new(42).unwrap());
    assert_eq!(f.undefended_files(), vec!['a']);
    assert_eq!(f.king_only_count(), 0);
    assert_eq!(
        f.castling.get(CastlingSide::QueenSide).kind,
        CastlingKind::KingOnly
    );
    assert_eq!(
        f.castling.get(CastlingSide::KingSide).kind,
        CastlingKind::RookOnly
    );
}
