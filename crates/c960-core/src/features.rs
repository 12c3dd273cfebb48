//! Static features of a start position, computed from the board with
//! shakmaty's attack and move generation.

use shakmaty::{
    Bitboard, ByCastlingSide, ByColor, Color, Move, Position, Rank, Role, Square, san::San,
};

use crate::StartPosition;

/// How king and rook move when castling on one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingKind {
    /// Both king and rook change squares, without trading places.
    Normal,
    /// The rook already stands on its target square; only the king moves.
    KingOnly,
    /// The king already stands on its target square; only the rook moves.
    RookOnly,
    /// King and rook trade squares.
    Swap,
}

impl CastlingKind {
    /// Lower-case name used in tables: `normal`, `king-only`, `rook-only`,
    /// `swap`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CastlingKind::Normal => "normal",
            CastlingKind::KingOnly => "king-only",
            CastlingKind::RookOnly => "rook-only",
            CastlingKind::Swap => "swap",
        }
    }
}

/// White's castling on one side (Black's is the same on rank 8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingFeature {
    /// The castling rook's start square.
    pub rook: Square,
    /// The king's square after castling (c1 or g1).
    pub king_to: Square,
    /// The rook's square after castling (d1 or f1).
    pub rook_to: Square,
    /// Whether castling is among White's legal first moves.
    pub legal_first_move: bool,
    /// Own pieces standing on squares that must be empty to castle.
    pub blockers: Bitboard,
    /// How king and rook move.
    pub kind: CastlingKind,
}

/// An undefended Black pawn and the legal first moves of White that attack it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstMoveAttack {
    /// The Black pawn's square (rank 7).
    pub pawn: Square,
    /// White's first moves after which some White piece attacks it, in SAN.
    pub moves: Vec<San>,
}

/// Every static feature of one start position.
///
/// Per-side data is indexed by shakmaty's `CastlingSide`: `queen_side` is
/// the a-side (king to c1), `king_side` the h-side (king to g1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The position described.
    pub position: StartPosition,
    /// Its mirror twin.
    pub mirror: StartPosition,
    /// White's king square.
    pub king: Square,
    /// White's queen square.
    pub queen: Square,
    /// White's rooks: a-side (`queen_side`) and h-side (`king_side`).
    pub rooks: ByCastlingSide<Square>,
    /// Pawns on their start squares attacked by no piece of their own side.
    pub undefended_pawns: ByColor<Bitboard>,
    /// Pawns defended by their own king only.
    pub king_only_pawns: ByColor<Bitboard>,
    /// Undefended Black pawns that some legal first move of White attacks.
    pub first_move_attacks: Vec<FirstMoveAttack>,
    /// Number of White's legal first moves.
    pub legal_first_moves: usize,
    /// White's castling on each side.
    pub castling: ByCastlingSide<CastlingFeature>,
    /// White's bishops in a corner, on a long diagonal (a1 or h1).
    pub corner_bishops: Bitboard,
}

impl Features {
    /// Computes the features of `position`.
    ///
    /// # Examples
    ///
    /// ```
    /// use c960_core::{Features, StartPosition};
    ///
    /// let f = Features::of(StartPosition::from_placement("NNRKBRQB")?);
    /// assert_eq!(f.undefended_files(), vec!['a', 'b']);
    /// // 1.g3 opens the long diagonal for the bishop on h1, hitting b7.
    /// let b7 = &f.first_move_attacks[1];
    /// assert_eq!(b7.pawn.to_string(), "b7");
    /// assert_eq!(b7.moves[0].to_string(), "g3");
    /// # Ok::<(), c960_core::StartPositionError>(())
    /// ```
    #[must_use]
    pub fn of(position: StartPosition) -> Features {
        let start = position.to_position();
        let board = start.board();
        let white = board.white();
        let king = board.king_of(Color::White).expect("White has a king");
        let queen = (board.queens() & white).first().expect("White has a queen");

        let undefended_pawns =
            ByColor::new_with(|color| pawns_defended_by(board, color, Bitboard::is_empty));
        let king_only_pawns = ByColor::new_with(|color| {
            let king = board.king_of(color).expect("each side has a king");
            pawns_defended_by(board, color, |d| d == Bitboard::from(king))
        });

        let legal = start.legal_moves();
        let castles = start.castles();
        let castling = ByCastlingSide::new_with(|side| {
            let rook = castles
                .rook(Color::White, side)
                .expect("a start position has both castling rights");
            let king_to = side.king_to(Color::White);
            let rook_to = side.rook_to(Color::White);
            let kind = CastlingKind::of(king, rook, king_to, rook_to);
            CastlingFeature {
                rook,
                king_to,
                rook_to,
                legal_first_move: legal
                    .iter()
                    .any(|m| matches!(m, Move::Castle { rook: r, .. } if *r == rook)),
                blockers: castles.path(Color::White, side) & board.occupied(),
                kind,
            }
        });

        let first_move_attacks =
            first_move_attacks(&start, &legal, *undefended_pawns.get(Color::Black));

        Features {
            position,
            mirror: position.mirror(),
            king,
            queen,
            rooks: castling.as_ref().map(|c| c.rook),
            undefended_pawns,
            king_only_pawns,
            first_move_attacks,
            legal_first_moves: legal.len(),
            castling,
            corner_bishops: board.bishops()
                & white
                & (Bitboard::from(Square::A1) | Bitboard::from(Square::H1)),
        }
    }

    /// Features of all 960 positions, in Scharnagl order.
    #[must_use]
    pub fn all() -> Vec<Features> {
        StartPosition::all().map(Features::of).collect()
    }

    /// Undefended and king-only pawns together.
    #[must_use]
    pub fn weak_pawns(&self) -> ByColor<Bitboard> {
        self.undefended_pawns
            .zip(self.king_only_pawns)
            .map(|(u, k)| u | k)
    }

    /// Files of White's undefended pawns (Black's are the same files).
    #[must_use]
    pub fn undefended_files(&self) -> Vec<char> {
        files(*self.undefended_pawns.get(Color::White))
    }

    /// Files of White's king-only pawns (Black's are the same files).
    #[must_use]
    pub fn king_only_files(&self) -> Vec<char> {
        files(*self.king_only_pawns.get(Color::White))
    }

    /// Files of White's weak pawns (Black's are the same files).
    #[must_use]
    pub fn weak_files(&self) -> Vec<char> {
        files(*self.weak_pawns().get(Color::White))
    }

    /// Number of White's undefended pawns (Black has as many).
    #[must_use]
    pub fn undefended_count(&self) -> usize {
        self.undefended_pawns.get(Color::White).count()
    }

    /// Number of White's king-only pawns (Black has as many).
    #[must_use]
    pub fn king_only_count(&self) -> usize {
        self.king_only_pawns.get(Color::White).count()
    }

    /// Number of White's weak pawns (Black has as many).
    #[must_use]
    pub fn weak_count(&self) -> usize {
        self.weak_pawns().get(Color::White).count()
    }

    /// Whether White's queen stands on a1 or h1.
    #[must_use]
    pub fn queen_in_corner(&self) -> bool {
        self.queen == Square::A1 || self.queen == Square::H1
    }

    /// Whether White can castle on some side with the first move.
    #[must_use]
    pub fn castling_on_first_move(&self) -> bool {
        self.castling.iter().any(|c| c.legal_first_move)
    }

    /// Squares of the White pieces of `role`.
    #[must_use]
    pub fn squares_of(&self, role: Role) -> Bitboard {
        let board = self.position.board();
        board.by_role(role) & board.white()
    }
}

/// Pawns of `color` on their start rank whose set of defenders (own pieces
/// attacking the square) satisfies `test`.
fn pawns_defended_by(
    board: &shakmaty::Board,
    color: Color,
    test: impl Fn(Bitboard) -> bool,
) -> Bitboard {
    let start_rank = Bitboard::from_rank(color.fold_wb(Rank::Second, Rank::Seventh));
    (board.pawns() & board.by_color(color) & start_rank)
        .into_iter()
        .filter(|sq| test(board.attacks_to(*sq, color, board.occupied())))
        .collect()
}

fn files(squares: Bitboard) -> Vec<char> {
    squares.into_iter().map(|sq| sq.file().char()).collect()
}

impl CastlingKind {
    /// How the king on `king` and the rook on `rook` castle to `king_to`
    /// and `rook_to`.
    fn of(king: Square, rook: Square, king_to: Square, rook_to: Square) -> CastlingKind {
        if king == king_to {
            CastlingKind::RookOnly
        } else if rook == rook_to {
            CastlingKind::KingOnly
        } else if king == rook_to && rook == king_to {
            CastlingKind::Swap
        } else {
            CastlingKind::Normal
        }
    }
}

/// The undefended Black pawns (`black_undefended`) that a legal first move
/// of White's attacks, each with those moves.
fn first_move_attacks(
    start: &shakmaty::Chess,
    legal: &[Move],
    black_undefended: Bitboard,
) -> Vec<FirstMoveAttack> {
    let mut first_move_attacks: Vec<FirstMoveAttack> = black_undefended
        .into_iter()
        .map(|pawn| FirstMoveAttack {
            pawn,
            moves: Vec::new(),
        })
        .collect();
    for m in legal {
        let mut after = start.clone();
        after.play_unchecked(*m);
        let after_board = after.board();
        for attack in &mut first_move_attacks {
            if after_board
                .attacks_to(attack.pawn, Color::White, after_board.occupied())
                .any()
            {
                attack.moves.push(San::from_move(start, *m));
            }
        }
    }
    first_move_attacks.retain(|a| !a.moves.is_empty());
    first_move_attacks
}
