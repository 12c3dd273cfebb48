//! The position table: one flat row of features per start position, the
//! schema of `data/positions.csv` and of `c960 positions`.

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, CastlingSide, Color, Role};

use crate::{DfrcFeatures, Features, SideAttack};

/// One row of the position table. Lists are space-separated; squares and
/// files refer to White's side (Black's are the same files on ranks 7/8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionRecord {
    /// Scharnagl number, 0..=959.
    pub sp: u16,
    /// White's back rank, file a first (`RNBQKBNR`).
    pub placement: String,
    /// X-FEN (castling as `KQkq`).
    pub xfen: String,
    /// Shredder-FEN (castling as rook files, `HAha`).
    pub shredder_fen: String,
    /// Scharnagl number of the mirror twin.
    pub mirror_sp: u16,
    /// Placement of the mirror twin.
    pub mirror_placement: String,
    /// File of the king.
    pub king_file: char,
    /// File of the a-side rook.
    pub rook_a_file: char,
    /// File of the h-side rook.
    pub rook_h_file: char,
    /// File of the queen.
    pub queen_file: char,
    /// Files of the bishops.
    pub bishop_files: String,
    /// Files of the knights.
    pub knight_files: String,
    /// Number of White's legal first moves.
    pub legal_first_moves: usize,
    /// Number of undefended pawns per side.
    pub undefended_pawns: usize,
    /// Files of the undefended pawns.
    pub undefended_files: String,
    /// Number of pawns defended only by their king, per side.
    pub king_only_pawns: usize,
    /// Files of the king-only pawns.
    pub king_only_files: String,
    /// Undefended plus king-only pawns, per side.
    pub weak_pawns: usize,
    /// Files of the weak pawns.
    pub weak_files: String,
    /// Number of undefended Black pawns that some legal first move of White
    /// attacks.
    pub first_move_attackable: usize,
    /// Those pawns with the first moves that attack them:
    /// `b7:g3 a7:Nc3,Nb3`.
    pub first_move_attacks: String,
    /// Whether a-side castling (king to c1) is legal on move 1.
    pub castle_a_first_move: bool,
    /// How king and rook move in a-side castling.
    pub castle_a_kind: String,
    /// Number of own pieces on squares that must be empty for a-side castling.
    pub castle_a_blockers: usize,
    /// Their squares.
    pub castle_a_blocker_squares: String,
    /// Whether h-side castling (king to g1) is legal on move 1.
    pub castle_h_first_move: bool,
    /// How king and rook move in h-side castling.
    pub castle_h_kind: String,
    /// Number of own pieces on squares that must be empty for h-side castling.
    pub castle_h_blockers: usize,
    /// Their squares.
    pub castle_h_blocker_squares: String,
    /// Number of bishops on a1 or h1 (on a long diagonal).
    pub corner_bishops: usize,
    /// Their squares.
    pub corner_bishop_squares: String,
    /// Whether the queen stands on a1 or h1.
    pub queen_in_corner: bool,
}

impl From<&Features> for PositionRecord {
    fn from(f: &Features) -> PositionRecord {
        let castle = |side: CastlingSide| f.castling.get(side);
        let a = castle(CastlingSide::QueenSide);
        let h = castle(CastlingSide::KingSide);
        PositionRecord {
            sp: f.position.sp(),
            placement: f.position.placement(),
            xfen: f.position.to_xfen(),
            shredder_fen: f.position.to_shredder_fen(),
            mirror_sp: f.mirror.sp(),
            mirror_placement: f.mirror.placement(),
            king_file: f.king.file().char(),
            rook_a_file: f.rooks.queen_side.file().char(),
            rook_h_file: f.rooks.king_side.file().char(),
            queen_file: f.queen.file().char(),
            bishop_files: join_files(f.squares_of(Role::Bishop)),
            knight_files: join_files(f.squares_of(Role::Knight)),
            legal_first_moves: f.legal_first_moves,
            undefended_pawns: f.undefended_count(),
            undefended_files: join_files(*f.undefended_pawns.get(Color::White)),
            king_only_pawns: f.king_only_count(),
            king_only_files: join_files(*f.king_only_pawns.get(Color::White)),
            weak_pawns: f.weak_count(),
            weak_files: join_files(*f.weak_pawns().get(Color::White)),
            first_move_attackable: f.first_move_attacks.len(),
            first_move_attacks: f
                .first_move_attacks
                .iter()
                .map(|a| {
                    let moves: Vec<String> = a.moves.iter().map(ToString::to_string).collect();
                    format!("{}:{}", a.pawn, moves.join(","))
                })
                .collect::<Vec<_>>()
                .join(" "),
            castle_a_first_move: a.legal_first_move,
            castle_a_kind: a.kind.name().to_owned(),
            castle_a_blockers: a.blockers.count(),
            castle_a_blocker_squares: join_squares(a.blockers),
            castle_h_first_move: h.legal_first_move,
            castle_h_kind: h.kind.name().to_owned(),
            castle_h_blockers: h.blockers.count(),
            castle_h_blocker_squares: join_squares(h.blockers),
            corner_bishops: f.corner_bishops.count(),
            corner_bishop_squares: join_squares(f.corner_bishops),
            queen_in_corner: f.queen_in_corner(),
        }
    }
}

fn join_files(squares: Bitboard) -> String {
    squares
        .into_iter()
        .map(|sq| sq.file().char().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn join_squares(squares: Bitboard) -> String {
    squares
        .into_iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One row of the DFRC setup table (`c960 positions --variant dfrc`):
/// each side's features and the differences between the sides. Squares of
/// attacked pawns are on the board as it stands (rank 7 for Black's pawns,
/// rank 2 for White's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(clippy::struct_excessive_bools)] // a flat table row: one bool per column
pub struct DfrcRecord {
    /// Setup index, `white_sp + 960 × black_sp`.
    pub index: u32,
    /// White's Scharnagl number.
    pub white_sp: u16,
    /// Black's Scharnagl number.
    pub black_sp: u16,
    /// Whether both sides have the same rank (a Chess960 position).
    pub symmetric: bool,
    /// Both back ranks, White's first: `BBQNNRKR/RKRNNQBB`.
    pub placement: String,
    /// Shredder-FEN.
    pub shredder_fen: String,
    /// X-FEN.
    pub xfen: String,
    /// White's undefended pawns.
    pub white_undefended: usize,
    /// Black's undefended pawns.
    pub black_undefended: usize,
    /// White's pawns defended only by the king.
    pub white_king_only: usize,
    /// Black's pawns defended only by the king.
    pub black_king_only: usize,
    /// White's weak pawns (undefended or king-only).
    pub white_weak: usize,
    /// Black's weak pawns.
    pub black_weak: usize,
    /// Black pawns White can attack with its first move.
    pub white_attackable: usize,
    /// Those pawns with White's moves: `b7:g3,g4`.
    pub white_attacks: String,
    /// White pawns Black can attack with its first move (Black to move).
    pub black_attackable: usize,
    /// Those pawns with Black's moves: `b2:g6,g5`.
    pub black_attacks: String,
    /// White's a-side castling legal on move 1.
    pub white_castle_a_first_move: bool,
    /// White's h-side castling legal on move 1.
    pub white_castle_h_first_move: bool,
    /// Black's a-side castling legal on its first move.
    pub black_castle_a_first_move: bool,
    /// Black's h-side castling legal on its first move.
    pub black_castle_h_first_move: bool,
    /// How White's king and rook move in a-side castling.
    pub white_castle_a_kind: String,
    /// ... in h-side castling.
    pub white_castle_h_kind: String,
    /// How Black's king and rook move in a-side castling.
    pub black_castle_a_kind: String,
    /// ... in h-side castling.
    pub black_castle_h_kind: String,
    /// White's own pieces in the way of its castlings (both sides).
    pub white_castle_blockers: usize,
    /// Black's own pieces in the way of its castlings (both sides).
    pub black_castle_blockers: usize,
    /// White's bishops in a corner (on a long diagonal).
    pub white_corner_bishops: usize,
    /// Black's bishops in a corner.
    pub black_corner_bishops: usize,
    /// `white_weak − black_weak`.
    pub weak_diff: i32,
    /// `white_attackable − black_attackable`.
    pub attackable_diff: i32,
    /// Castlings legal on the first move, White's minus Black's.
    pub castle_first_move_diff: i32,
    /// `white_corner_bishops − black_corner_bishops`.
    pub corner_bishops_diff: i32,
}

impl From<&DfrcFeatures> for DfrcRecord {
    #[allow(clippy::cast_possible_wrap)]
    fn from(f: &DfrcFeatures) -> DfrcRecord {
        let attacks = |list: &[SideAttack]| {
            list.iter()
                .map(|a| {
                    let moves: Vec<String> = a.moves.iter().map(ToString::to_string).collect();
                    format!("{}:{}", a.pawn, moves.join(","))
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (w, b) = (f.white, f.black);
        let first = |x: &Features| x.castling.iter().filter(|c| c.legal_first_move).count();
        let blockers = |x: &Features| x.castling.iter().map(|c| c.blockers.count()).sum::<usize>();
        let diff = |a: usize, b: usize| a as i32 - b as i32;
        let setup = f.setup;
        DfrcRecord {
            index: setup.index(),
            white_sp: setup.white().sp(),
            black_sp: setup.black().sp(),
            symmetric: setup.is_symmetric(),
            placement: setup.placement(),
            shredder_fen: setup.to_shredder_fen(),
            xfen: setup.to_xfen(),
            white_undefended: w.undefended_count(),
            black_undefended: b.undefended_count(),
            white_king_only: w.king_only_count(),
            black_king_only: b.king_only_count(),
            white_weak: w.weak_count(),
            black_weak: b.weak_count(),
            white_attackable: f.white_attacks.len(),
            white_attacks: attacks(&f.white_attacks),
            black_attackable: f.black_attacks.len(),
            black_attacks: attacks(&f.black_attacks),
            white_castle_a_first_move: w.castling.queen_side.legal_first_move,
            white_castle_h_first_move: w.castling.king_side.legal_first_move,
            black_castle_a_first_move: b.castling.queen_side.legal_first_move,
            black_castle_h_first_move: b.castling.king_side.legal_first_move,
            white_castle_a_kind: w.castling.queen_side.kind.name().to_owned(),
            white_castle_h_kind: w.castling.king_side.kind.name().to_owned(),
            black_castle_a_kind: b.castling.queen_side.kind.name().to_owned(),
            black_castle_h_kind: b.castling.king_side.kind.name().to_owned(),
            white_castle_blockers: blockers(w),
            black_castle_blockers: blockers(b),
            white_corner_bishops: w.corner_bishops.count(),
            black_corner_bishops: b.corner_bishops.count(),
            weak_diff: diff(w.weak_count(), b.weak_count()),
            attackable_diff: diff(f.white_attacks.len(), f.black_attacks.len()),
            castle_first_move_diff: diff(first(w), first(b)),
            corner_bishops_diff: diff(w.corner_bishops.count(), b.corner_bishops.count()),
        }
    }
}
