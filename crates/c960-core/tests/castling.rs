//! Castling rules in words, checked on all 960 positions, both colours,
//! both sides and every language against the board: the squares each
//! sentence names are the squares the rules (as written in the project's
//! domain notes) and shakmaty's move generation say.

use std::collections::BTreeSet;

use c960_core::{
    CastlingKind, CastlingRule, CastlingText, Lang, StartPosition, castling_rules,
    shakmaty::{
        Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Move,
        Position, Rank, Square,
    },
};

/// The squares a sentence names, in order (`a1`..`h8` standing alone).
fn squares(text: &str) -> Vec<Square> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for i in 0..chars.len().saturating_sub(1) {
        let standalone = i == 0 || !chars[i - 1].is_alphanumeric();
        let after = chars.get(i + 2).is_none_or(|c| !c.is_alphanumeric());
        if standalone
            && after
            && ('a'..='h').contains(&chars[i])
            && ('1'..='8').contains(&chars[i + 1])
        {
            out.push(format!("{}{}", chars[i], chars[i + 1]).parse().unwrap());
        }
    }
    out
}

fn set(squares: impl IntoIterator<Item = Square>) -> BTreeSet<Square> {
    squares.into_iter().collect()
}

/// Squares from `a` to `b` on one rank, both included.
fn span(a: Square, b: Square) -> BTreeSet<Square> {
    let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
    File::ALL
        .into_iter()
        .filter(|f| *f >= lo && *f <= hi)
        .map(|f| Square::from_coords(f, a.rank()))
        .collect()
}

/// The castling rule written out from the domain notes, independently of
/// the module: king to c/g, rook to d/f; every square between king and its
/// target and between rook and its target (targets included) must be
/// empty but for that king and rook; the king crosses its span.
fn check_rule_against_definition(rule: &CastlingRule) {
    let rank = match rule.color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    };
    let (king_file, rook_file) = match rule.side {
        CastlingSide::QueenSide => (File::C, File::D),
        CastlingSide::KingSide => (File::G, File::F),
    };
    assert_eq!(rule.king_to, Square::from_coords(king_file, rank));
    assert_eq!(rule.rook_to, Square::from_coords(rook_file, rank));
    let mut empty = span(rule.king_from, rule.king_to);
    empty.extend(span(rule.rook_from, rule.rook_to));
    empty.remove(&rule.king_from);
    empty.remove(&rule.rook_from);
    assert_eq!(set(rule.must_be_empty), empty, "{rule:?}");
    assert_eq!(
        set(rule.king_path.iter().copied()),
        span(rule.king_from, rule.king_to)
    );
    let kind = if rule.king_from == rule.king_to {
        CastlingKind::RookOnly
    } else if rule.rook_from == rule.rook_to {
        CastlingKind::KingOnly
    } else if rule.king_from == rule.rook_to && rule.rook_from == rule.king_to {
        CastlingKind::Swap
    } else {
        CastlingKind::Normal
    };
    assert_eq!(rule.kind, kind);
}

/// Clears the squares that must be empty and lets shakmaty castle: the king
/// and rook must land where the rule says.
fn check_rule_against_shakmaty(position: StartPosition, rule: &CastlingRule) {
    let mut board = position.board();
    for sq in rule.must_be_empty {
        board.discard_piece_at(sq);
    }
    let mut setup = position.to_position().to_setup(EnPassantMode::Legal);
    setup.board = board;
    setup.turn = rule.color;
    // Only this castling: the other rook may have been in the way.
    setup.castling_rights = Bitboard::from(rule.rook_from);
    let chess = Chess::from_setup(setup, CastlingMode::Chess960)
        .expect("clearing squares keeps a legal position");
    let castle = chess
        .legal_moves()
        .into_iter()
        .find(|m| matches!(m, Move::Castle { rook, .. } if rook == &rule.rook_from))
        .unwrap_or_else(|| {
            panic!(
                "SP {} {rule:?}: no castling with the way clear",
                position.sp()
            )
        });
    let after = chess.clone().play(castle).unwrap();
    let board = after.board();
    assert_eq!(
        board.king_of(rule.color),
        Some(rule.king_to),
        "SP {}",
        position.sp()
    );
    assert!(board.rooks().contains(rule.rook_to), "SP {}", position.sp());
    assert!(
        board.by_color(rule.color).contains(rule.rook_to),
        "SP {}",
        position.sp()
    );
    // What was not in the way stays put: nothing else moved.
    let moved = Bitboard::from(rule.king_from)
        | Bitboard::from(rule.rook_from)
        | Bitboard::from(rule.king_to)
        | Bitboard::from(rule.rook_to);
    assert_eq!(
        (board.occupied() & !moved).count(),
        (chess.board().occupied() & !moved).count()
    );
}

fn check_text(rule: &CastlingRule, text: &CastlingText) {
    assert!(squares(&text.title).is_empty(), "{}", text.title);
    assert_eq!(
        set(squares(&text.movement)),
        set([rule.king_from, rule.king_to, rule.rook_from, rule.rook_to]),
        "{}",
        text.movement
    );
    assert_eq!(
        set(squares(&text.empty)),
        set(rule.must_be_empty),
        "{}",
        text.empty
    );
    assert_eq!(
        set(squares(&text.safety)),
        set(rule.king_path.iter().copied()),
        "{}",
        text.safety
    );
    let blockers: BTreeSet<Square> = rule.in_the_way.iter().map(|b| b.0).collect();
    assert_eq!(
        set(squares(&text.first_move)),
        blockers,
        "{}",
        text.first_move
    );
    assert_eq!(rule.first_move, blockers.is_empty(), "{rule:?}");
}

#[test]
fn castling_sentences_agree_with_the_board_for_all_960_positions_and_every_language() {
    let mut kinds = BTreeSet::new();
    for position in StartPosition::all() {
        let rules = castling_rules(position);
        let start = position.to_position();
        for color in [Color::White, Color::Black] {
            for side in [CastlingSide::QueenSide, CastlingSide::KingSide] {
                let rule = rules.get(color).get(side);
                assert_eq!(rule.color, color);
                assert_eq!(rule.side, side);
                check_rule_against_definition(rule);
                check_rule_against_shakmaty(position, rule);
                // Legal on the first move exactly when shakmaty says so: for
                // White at the start, for Black after each of White's first
                // moves.
                let white_first = start.legal_moves();
                if color == Color::White {
                    assert_eq!(
                        rule.first_move,
                        white_first.iter().any(
                            |m| matches!(m, Move::Castle { rook, .. } if *rook == rule.rook_from)
                        )
                    );
                } else {
                    for first in &white_first {
                        let after = start.clone().play(*first).unwrap();
                        let legal = after.legal_moves().iter().any(
                            |m| matches!(m, Move::Castle { rook, .. } if *rook == rule.rook_from),
                        );
                        assert_eq!(
                            rule.first_move,
                            legal,
                            "SP {} after {first:?}",
                            position.sp()
                        );
                    }
                }
                kinds.insert(rule.kind.name());
                for lang in Lang::ALL {
                    check_text(rule, &CastlingText::new(rule, lang));
                }
            }
        }
    }
    assert_eq!(
        kinds.len(),
        4,
        "normal, king-only, rook-only and swap all occur"
    );
}

#[test]
fn every_language_has_every_text() {
    let table: toml::Table = toml::from_str(include_str!("../lang/castling.toml")).unwrap();
    let keys = |lang: &str| -> BTreeSet<String> {
        table[lang].as_table().unwrap().keys().cloned().collect()
    };
    for lang in Lang::ALL {
        assert_eq!(keys(lang.code()), keys("en"), "{lang}");
    }
}

#[test]
fn the_classical_position_in_english_and_german() {
    let rules = castling_rules(StartPosition::CLASSICAL);
    let long = CastlingText::new(&rules.white.queen_side, Lang::En);
    assert_eq!(
        long.title,
        "White: a-side castling (king to the c-file), O-O-O"
    );
    assert_eq!(
        long.movement,
        "The king goes from e1 to c1 and the rook from a1 to d1."
    );
    assert_eq!(
        long.empty,
        "b1, c1 and d1 must be empty (apart from this king and rook)."
    );
    assert_eq!(
        long.first_move,
        "Not possible on the first move: knight on b1, bishop on c1 and queen on d1 are in the way."
    );
    let short = CastlingText::new(&rules.black.king_side, Lang::De);
    assert_eq!(
        short.title,
        "Schwarz: g-Rochade (König auf die g-Linie), O-O"
    );
    assert_eq!(
        short.safety,
        "Der König darf nicht im Schach stehen, und keines der Felder e8, f8 und g8 darf angegriffen sein."
    );
    // King f1 and rook g1: h-side castling swaps them, on move 1.
    let swap = StartPosition::from_placement("BRNNQKRB").unwrap();
    let h = &castling_rules(swap).white.king_side;
    assert_eq!(h.kind, CastlingKind::Swap);
    assert!(h.first_move);
    let text = CastlingText::new(h, Lang::En);
    assert_eq!(
        text.movement,
        "King and rook swap places: the king goes from f1 to g1, the rook from g1 to f1."
    );
    assert_eq!(text.empty, "No other square needs to be empty.");
    assert_eq!(text.first_move, "Possible on the first move.");
}
