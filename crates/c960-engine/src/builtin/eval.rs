//! The built-in engine's evaluation: tapered middlegame/endgame terms, in
//! centipawns from the side to move. Every table is built from a simple
//! rule (centralisation, advancement, shelter) rather than typed in.

use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Rank, Role, Square, attacks};

/// Material (middlegame, endgame) per role: pawn, knight, bishop, rook,
/// queen, king.
const MATERIAL: [(i32, i32); 6] = [
    (100, 120),
    (320, 295),
    (335, 310),
    (480, 540),
    (960, 1000),
    (0, 0),
];

/// Game phase weight per role; 24 when all pieces are on the board.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Distance from the centre, 0 (d4, e4, d5, e5) to 6 (corners).
fn centre_distance(sq: Square) -> i32 {
    let f = i32::from(u8::from(sq.file()));
    let r = i32::from(u8::from(sq.rank()));
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// Square bonus (middlegame, endgame) for a piece of `color` on `sq`.
fn placement(role: Role, color: Color, sq: Square) -> (i32, i32) {
    // Rank from the piece's own side: 0 = its back rank.
    let rank = i32::from(u8::from(sq.rank()));
    let rank = if color == Color::White {
        rank
    } else {
        7 - rank
    };
    let file = i32::from(u8::from(sq.file()));
    let centre = centre_distance(sq);
    match role {
        Role::Pawn => {
            let central = if (2..=5).contains(&file) && (2..=4).contains(&rank) {
                12
            } else {
                0
            };
            (rank * 4 + central, rank * 9)
        }
        Role::Knight => (24 - 8 * centre, 18 - 6 * centre),
        Role::Bishop => (12 - 4 * centre, 10 - 3 * centre),
        Role::Rook => (if rank == 6 { 18 } else { 0 }, 0),
        Role::Queen => (6 - 2 * centre, 12 - 4 * centre),
        Role::King => {
            // Middlegame: stay home, away from the centre files.
            let home = -22 * rank.min(3);
            let files = if (2..=5).contains(&file) { -16 } else { 8 };
            (home + files, 24 - 8 * centre)
        }
    }
}

/// Bonus for a passed pawn by its rank from its own side (endgame; half in
/// the middlegame).
const PASSED: [i32; 8] = [0, 6, 12, 22, 38, 64, 105, 0];

/// Evaluates `pos` from the side to move, in centipawns.
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = board.by_color(color);
        let (m, e, p) = side_terms(board, color, ours);
        mg += sign * m;
        eg += sign * e;
        phase += p;
    }
    let phase = phase.min(MAX_PHASE);
    let score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    if pos.turn() == Color::White {
        score
    } else {
        -score
    }
}

fn side_terms(board: &Board, color: Color, ours: Bitboard) -> (i32, i32, i32) {
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    let occupied = board.occupied();
    let our_pawns = board.pawns() & ours;
    let their_pawns = board.pawns() & !ours;
    for sq in ours {
        let role = board.role_at(sq).expect("an occupied square");
        let index = role as usize - 1;
        let (m, e) = MATERIAL[index];
        let (pm, pe) = placement(role, color, sq);
        mg += m + pm;
        eg += e + pe;
        phase += PHASE[index];
        // Mobility: squares attacked that are not our own pieces.
        let mobility = match role {
            Role::Knight => (attacks::knight_attacks(sq) & !ours).count() as i32 * 4 - 16,
            Role::Bishop => (attacks::bishop_attacks(sq, occupied) & !ours).count() as i32 * 4 - 20,
            Role::Rook => (attacks::rook_attacks(sq, occupied) & !ours).count() as i32 * 2 - 12,
            Role::Queen => (attacks::queen_attacks(sq, occupied) & !ours).count() as i32 - 12,
            _ => 0,
        };
        mg += mobility;
        eg += mobility;
        if role == Role::Rook {
            let file = Bitboard::from_file(sq.file());
            if (file & board.pawns()).is_empty() {
                mg += 22;
                eg += 10;
            } else if (file & our_pawns).is_empty() {
                mg += 10;
                eg += 6;
            }
        }
    }
    if (board.bishops() & ours).count() >= 2 {
        mg += 28;
        eg += 44;
    }
    let (pm, pe) = pawn_structure(color, our_pawns, their_pawns);
    mg += pm;
    eg += pe;
    if let Some(king) = board.king_of(color) {
        mg += shelter(color, king, our_pawns, their_pawns);
    }
    (mg, eg, phase)
}

fn pawn_structure(color: Color, ours: Bitboard, theirs: Bitboard) -> (i32, i32) {
    let mut mg = 0;
    let mut eg = 0;
    for file in File::ALL {
        let on_file = (ours & Bitboard::from_file(file)).count() as i32;
        if on_file > 1 {
            mg -= 10 * (on_file - 1);
            eg -= 18 * (on_file - 1);
        }
        if on_file > 0 && (ours & adjacent_files(file)).is_empty() {
            mg -= 10 * on_file;
            eg -= 14 * on_file;
        }
    }
    for sq in ours {
        let file = sq.file();
        let front = front_span(color, sq);
        let blockers = (Bitboard::from_file(file) | adjacent_files(file)) & front;
        if (theirs & blockers).is_empty() {
            let rank = u8::from(sq.rank()) as usize;
            let rank = if color == Color::White {
                rank
            } else {
                7 - rank
            };
            mg += PASSED[rank] / 2;
            eg += PASSED[rank];
        }
    }
    (mg, eg)
}

fn adjacent_files(file: File) -> Bitboard {
    let f = u8::from(file);
    let mut files = Bitboard::EMPTY;
    if f > 0 {
        files |= Bitboard::from_file(File::new(u32::from(f) - 1));
    }
    if f < 7 {
        files |= Bitboard::from_file(File::new(u32::from(f) + 1));
    }
    files
}

/// Squares strictly in front of `sq` from `color`'s point of view, on all
/// files (combined with a file mask by the caller).
fn front_span(color: Color, sq: Square) -> Bitboard {
    let rank = u8::from(sq.rank());
    Rank::ALL
        .into_iter()
        .filter(|r| match color {
            Color::White => u8::from(*r) > rank,
            Color::Black => u8::from(*r) < rank,
        })
        .fold(Bitboard::EMPTY, |acc, r| acc | Bitboard::from_rank(r))
}

/// Middlegame king shelter: own pawns just in front of the king, open files
/// next to it.
fn shelter(color: Color, king: Square, ours: Bitboard, theirs: Bitboard) -> i32 {
    let files = Bitboard::from_file(king.file()) | adjacent_files(king.file());
    let rank = u8::from(king.rank());
    let near = Rank::ALL
        .into_iter()
        .filter(|r| {
            let r = u8::from(*r);
            match color {
                Color::White => r == rank + 1 || r == rank + 2,
                Color::Black => rank >= 2 && (r + 1 == rank || r + 2 == rank),
            }
        })
        .fold(Bitboard::EMPTY, |acc, r| acc | Bitboard::from_rank(r));
    let shield = (ours & files & near).count() as i32;
    let mut score = 12 * shield.min(3);
    for file in File::ALL {
        let mask = Bitboard::from_file(file);
        if (mask & files).any() && (mask & ours).is_empty() {
            score -= if (mask & theirs).is_empty() { 24 } else { 12 };
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn eval(fen: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        evaluate(&pos)
    }

    #[test]
    fn symmetric_positions_are_level_and_material_counts() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0
        );
        assert_eq!(
            eval("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b KQkq - 0 1"),
            0
        );
        // A whole queen up, from either side to move.
        let white_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(white_up > 800, "{white_up}");
        assert_eq!(
            eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            -white_up
        );
    }

    #[test]
    fn passed_pawns_count_more_the_further_they_are() {
        let far = eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let near = eval("4k3/8/8/8/8/P7/8/4K3 w - - 0 1");
        assert!(far > near + 50, "{far} vs {near}");
    }
}
