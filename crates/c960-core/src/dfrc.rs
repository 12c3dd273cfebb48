//! Double Fischer Random Chess (DFRC): White's and Black's back ranks drawn
//! independently, 960 × 960 = 921,600 setups; the 960 Chess960 positions
//! are the symmetric ones.
//!
//! A setup's index `n` in `0..921600` has White's Scharnagl number
//! `n % 960` and Black's `n / 960` (the convention of engines' data
//! generators), so `n = sp × 961` is Chess960 position `sp`. Black's rank
//! copies the pieces of Black's SP file by file on the eighth rank. All
//! chess logic, castling included, is shakmaty's in Chess960 mode.
//!
//! Per-side features follow from each side's own back rank: a side's weak
//! pawns and castling depend on nothing else, and a side's first-move
//! attacks are the squares its first moves reach on the other side's pawn
//! rank (no piece of the other side can block or change a first move).
//! White's first moves are those of the start; Black's are taken with Black
//! to move in the start setup (as if White had passed), the mirror image of
//! White's. [`SideTable`] precomputes what depends on one SP, so all 921,600
//! setups are described with bit operations.

use std::{fmt, str::FromStr, sync::OnceLock};

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, Piece, Position, Rank, Square, fen::Fen,
    san::San,
};
use thiserror::Error;

use crate::{Features, StartPosition, StartPositionError};

/// Number of DFRC setups.
pub const DFRC_COUNT: u32 = 921_600;

/// Why a text is not a DFRC setup.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DfrcError {
    /// An index outside `0..921600`.
    #[error("setup index {0} is out of range 0..=921599")]
    OutOfRange(i128),
    /// One side's back rank is not a legal Chess960 rank.
    #[error("{side}'s back rank: {source}")]
    BackRank {
        /// `White` or `Black`.
        side: &'static str,
        /// What is wrong with it.
        source: StartPositionError,
    },
    /// A placement that is not `WHITE/BLACK`.
    #[error(
        "{0:?} is not a setup placement (expected White's and Black's back ranks, such as BBQNNRKR/RKRNNQBB)"
    )]
    Placement(String),
    /// A FEN that is not the start of a DFRC game.
    #[error("{fen:?} is not a DFRC start position: {reason}")]
    NotAStart {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A set of setups that cannot be read.
    #[error(
        "{0:?} is not a set of setups (expected all, symmetric, indices and ranges such as 0-999, white:SP, black:SP or sample:N:SEED, comma-separated)"
    )]
    BadSet(String),
    /// Text that is neither an index, a placement nor a FEN.
    #[error(
        "{0:?} is not a setup index (0..=921599), a placement (such as BBQNNRKR/RKRNNQBB) or a FEN"
    )]
    Unrecognised(String),
}

/// One of the 921,600 DFRC setups.
///
/// # Examples
///
/// ```
/// use c960_core::{DfrcSetup, StartPosition};
///
/// let classical = DfrcSetup::symmetric(StartPosition::CLASSICAL);
/// assert_eq!(classical.index(), 518 * 961);
/// let setup = DfrcSetup::from_sides(StartPosition::new(0)?, StartPosition::new(959)?);
/// assert_eq!(setup.placement(), "BBQNNRKR/RKRNNQBB");
/// assert_eq!(setup.to_shredder_fen(), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1");
/// assert_eq!("BBQNNRKR/RKRNNQBB".parse::<DfrcSetup>()?, setup);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DfrcSetup(u32);

impl DfrcSetup {
    /// The setup with index `index`.
    pub fn new(index: u32) -> Result<DfrcSetup, DfrcError> {
        if index < DFRC_COUNT {
            Ok(DfrcSetup(index))
        } else {
            Err(DfrcError::OutOfRange(i128::from(index)))
        }
    }

    /// The setup with these two back ranks.
    #[must_use]
    pub fn from_sides(white: StartPosition, black: StartPosition) -> DfrcSetup {
        DfrcSetup(u32::from(white.sp()) + 960 * u32::from(black.sp()))
    }

    /// The symmetric setup of a Chess960 position (`sp × 961`).
    #[must_use]
    pub fn symmetric(position: StartPosition) -> DfrcSetup {
        DfrcSetup::from_sides(position, position)
    }

    /// All setups in index order.
    pub fn all() -> impl DoubleEndedIterator<Item = DfrcSetup> + ExactSizeIterator {
        (0..DFRC_COUNT).map(DfrcSetup)
    }

    /// The index, `0..921600`.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0
    }

    /// White's back rank.
    #[must_use]
    pub fn white(self) -> StartPosition {
        StartPosition::new((self.0 % 960) as u16).expect("index below 921600")
    }

    /// Black's back rank.
    #[must_use]
    pub fn black(self) -> StartPosition {
        StartPosition::new((self.0 / 960) as u16).expect("index below 921600")
    }

    /// Whether both sides have the same back rank (a Chess960 position).
    #[must_use]
    pub fn is_symmetric(self) -> bool {
        self.white() == self.black()
    }

    /// White's and Black's back ranks, White's first: `BBQNNRKR/RKRNNQBB`.
    #[must_use]
    pub fn placement(self) -> String {
        format!("{}/{}", self.white().placement(), self.black().placement())
    }

    /// Parses `WHITE/BLACK` back ranks.
    pub fn from_placement(text: &str) -> Result<DfrcSetup, DfrcError> {
        let (white, black) = text
            .split_once('/')
            .ok_or_else(|| DfrcError::Placement(text.to_owned()))?;
        let side = |side: &'static str, rank: &str| {
            StartPosition::from_placement(rank)
                .map_err(|source| DfrcError::BackRank { side, source })
        };
        Ok(DfrcSetup::from_sides(
            side("White", white)?,
            side("Black", black)?,
        ))
    }

    /// The board: White's pieces and pawns from White's SP, Black's from
    /// Black's.
    #[must_use]
    pub fn board(self) -> Board {
        let mut board = self.white().board();
        let black = self.black().board();
        for file in File::ALL {
            let sq = Square::from_coords(file, Rank::Eighth);
            let piece = black.piece_at(sq).expect("a start position fills rank 8");
            board.set_piece_at(sq, piece);
        }
        board
    }

    /// Shredder-FEN: castling rights as rook files, White's h-side and
    /// a-side rooks then Black's (`HAha` for the classical setup).
    #[must_use]
    pub fn to_shredder_fen(self) -> String {
        let board = self.board();
        // Each side has one rook on either side of its king: the lower
        // square is the a-side rook, the higher the h-side rook.
        let rooks = |color: Color| {
            let rooks = board.rooks() & board.by_color(color);
            let a = rooks.first().expect("two rooks").file().char();
            let h = rooks.last().expect("two rooks").file().char();
            (h, a)
        };
        let (wh, wa) = rooks(Color::White);
        let (bh, ba) = rooks(Color::Black);
        format!(
            "{} w {}{}{}{} - 0 1",
            piece_placement(&board),
            wh.to_ascii_uppercase(),
            wa.to_ascii_uppercase(),
            bh,
            ba
        )
    }

    /// X-FEN: castling as `KQkq` (each side's rooks stand one on either side
    /// of its king, so the letters are never ambiguous).
    #[must_use]
    pub fn to_xfen(self) -> String {
        format!("{} w KQkq - 0 1", piece_placement(&self.board()))
    }

    /// The position, all four castling rights, White to move.
    #[must_use]
    pub fn to_position(self) -> Chess {
        self.to_shredder_fen()
            .parse::<Fen>()
            .expect("a valid FEN")
            .into_position(CastlingMode::Chess960)
            .expect("a DFRC setup is a legal position")
    }

    /// Parses any FEN (X-FEN or Shredder-FEN) of a DFRC start position:
    /// every piece and pawn on its start rank, both back ranks legal
    /// Chess960 ranks, all four castling rights, White to move.
    pub fn from_fen(text: &str) -> Result<DfrcSetup, DfrcError> {
        let not_start = |reason: &str| DfrcError::NotAStart {
            fen: text.to_owned(),
            reason: reason.to_owned(),
        };
        let fen: Fen = text
            .trim()
            .parse()
            .map_err(|e| not_start(&format!("not a FEN ({e})")))?;
        let chess: Chess = fen
            .into_position(CastlingMode::Chess960)
            .map_err(|e| not_start(&format!("not a legal position ({e})")))?;
        let board = chess.board();
        let pawn_rank = |color: Color, rank: Rank| {
            board.pawns() & board.by_color(color) == Bitboard::from_rank(rank)
        };
        if !pawn_rank(Color::White, Rank::Second) || !pawn_rank(Color::Black, Rank::Seventh) {
            return Err(not_start("pawns are not all on their start squares"));
        }
        if board.occupied().count() != 32 {
            return Err(not_start(
                "pieces are missing or stand off their back ranks",
            ));
        }
        if chess.turn() != Color::White {
            return Err(not_start("it is not White to move"));
        }
        let rank = |r: Rank, color: Color| -> Result<String, DfrcError> {
            File::ALL
                .into_iter()
                .map(|f| match board.piece_at(Square::from_coords(f, r)) {
                    Some(Piece { color: c, role }) if c == color => {
                        Ok(role.char().to_ascii_uppercase())
                    }
                    _ => Err(not_start("a back rank is not eight pieces of its side")),
                })
                .collect()
        };
        let setup = DfrcSetup::from_placement(&format!(
            "{}/{}",
            rank(Rank::First, Color::White)?,
            rank(Rank::Eighth, Color::Black)?
        ))?;
        if chess.castles().castling_rights() != board.rooks() {
            return Err(not_start("a start position has all four castling rights"));
        }
        Ok(setup)
    }
}

/// The piece placement field of a FEN.
fn piece_placement(board: &Board) -> String {
    board.to_string()
}

impl fmt::Display for DfrcSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for DfrcSetup {
    type Err = DfrcError;

    /// An index, a `WHITE/BLACK` placement or a FEN.
    fn from_str(text: &str) -> Result<DfrcSetup, DfrcError> {
        let text = text.trim();
        if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || c == '-') {
            let n: i128 = text
                .parse()
                .map_err(|_| DfrcError::Unrecognised(text.to_owned()))?;
            return u32::try_from(n)
                .ok()
                .filter(|n| *n < DFRC_COUNT)
                .map(DfrcSetup)
                .ok_or(DfrcError::OutOfRange(n));
        }
        if text.contains(' ') || text.matches('/').count() >= 7 {
            return DfrcSetup::from_fen(text);
        }
        if text.matches('/').count() == 1 {
            return DfrcSetup::from_placement(text);
        }
        Err(DfrcError::Unrecognised(text.to_owned()))
    }
}

/// What one back rank contributes to any setup it is part of, seen from
/// White's side (a Black rank is the same rank mirrored to rank 8).
#[derive(Clone, Debug)]
pub struct SideTable {
    /// The Chess960 features of the rank (its own side's values).
    pub features: Features,
    /// Each legal first move of this side with the squares it then attacks
    /// on the other side's pawn rank (rank 7, from White's view).
    pub first_moves: Vec<(San, Bitboard)>,
}

impl SideTable {
    /// The table of `position`.
    #[must_use]
    pub fn of(position: StartPosition) -> SideTable {
        let start = position.to_position();
        let rank7 = Bitboard::from_rank(Rank::Seventh);
        let first_moves = start
            .legal_moves()
            .iter()
            .map(|m| {
                let mut after = start.clone();
                after.play_unchecked(*m);
                let board = after.board();
                let attacked = rank7
                    .into_iter()
                    .filter(|sq| board.attacks_to(*sq, Color::White, board.occupied()).any())
                    .collect();
                (San::from_move(&start, *m), attacked)
            })
            .collect();
        SideTable {
            features: Features::of(position),
            first_moves,
        }
    }

    /// The tables of all 960 ranks, computed once.
    #[must_use]
    pub fn all() -> &'static [SideTable] {
        static TABLES: OnceLock<Vec<SideTable>> = OnceLock::new();
        TABLES.get_or_init(|| StartPosition::all().map(SideTable::of).collect())
    }

    /// The rank's own undefended pawns as files (a = bit 0).
    fn undefended_files(&self) -> Bitboard {
        self.features.undefended_pawns.white
    }
}

/// A pawn one side can attack with its first move, and those moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideAttack {
    /// The attacked pawn's square (on the other side's pawn rank).
    pub pawn: Square,
    /// The attacker's first moves that attack it.
    pub moves: Vec<San>,
}

/// The per-side features of a DFRC setup.
#[derive(Clone, Debug)]
pub struct DfrcFeatures {
    /// The setup.
    pub setup: DfrcSetup,
    /// Each side's own Chess960 features (weak pawns, castling, bishops),
    /// as computed for that side's SP with the side seen as White.
    pub white: &'static Features,
    /// Black's, likewise (its squares are White's view of Black's rank).
    pub black: &'static Features,
    /// Black pawns White can attack with its first move.
    pub white_attacks: Vec<SideAttack>,
    /// White pawns Black can attack with its first move (Black to move in
    /// the start setup), squares on rank 2.
    pub black_attacks: Vec<SideAttack>,
}

impl DfrcFeatures {
    /// The features of `setup`.
    #[must_use]
    pub fn of(setup: DfrcSetup) -> DfrcFeatures {
        let tables = SideTable::all();
        let w = &tables[usize::from(setup.white().sp())];
        let b = &tables[usize::from(setup.black().sp())];
        DfrcFeatures {
            setup,
            white: &w.features,
            black: &b.features,
            white_attacks: attacks(w, b),
            black_attacks: attacks(b, w)
                .into_iter()
                .map(|a| SideAttack {
                    pawn: a.pawn.flip_vertical(),
                    moves: a.moves,
                })
                .collect(),
        }
    }

    /// Weak (undefended or king-only) pawns of White, Black.
    #[must_use]
    pub fn weak_counts(&self) -> (usize, usize) {
        (self.white.weak_count(), self.black.weak_count())
    }
}

/// The other side's undefended pawns that `attacker`'s first moves attack,
/// in White's view (pawns on rank 7).
fn attacks(attacker: &SideTable, defender: &SideTable) -> Vec<SideAttack> {
    let targets: Bitboard = defender
        .undefended_files()
        .into_iter()
        .map(|sq| Square::from_coords(sq.file(), Rank::Seventh))
        .collect();
    targets
        .into_iter()
        .filter_map(|pawn| {
            let moves: Vec<San> = attacker
                .first_moves
                .iter()
                .filter(|(_, attacked)| attacked.contains(pawn))
                .map(|(san, _)| *san)
                .collect();
            (!moves.is_empty()).then_some(SideAttack { pawn, moves })
        })
        .collect()
}

/// Parses a set of DFRC setups, in ascending index order without repeats.
/// Parts are separated by commas:
///
/// - `all`: all 921,600 setups; `symmetric`: the 960 Chess960 positions
///   (`sp × 961`);
/// - `N` or `N-M`: indices and ranges;
/// - `white:SP` / `black:SP`: the 960 setups with that White (Black) rank;
/// - `sample:N:SEED`: a reproducible stratified sample of `N` distinct
///   setups (see [`stratified_sample`]).
///
/// # Examples
/// ```
/// use c960_core::parse_dfrc_set;
/// assert_eq!(parse_dfrc_set("symmetric")?.len(), 960);
/// assert_eq!(parse_dfrc_set("white:518")?.len(), 960);
/// assert_eq!(parse_dfrc_set("0-9,5,sample:100:1")?.len() >= 100, true);
/// # Ok::<(), c960_core::DfrcError>(())
/// ```
pub fn parse_dfrc_set(text: &str) -> Result<Vec<DfrcSetup>, DfrcError> {
    let bad = || DfrcError::BadSet(text.to_owned());
    let mut chosen = vec![false; DFRC_COUNT as usize];
    let mut any = false;
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        any = true;
        let index = |t: &str| -> Result<u32, DfrcError> {
            let n: i128 = t.trim().parse().map_err(|_| bad())?;
            u32::try_from(n)
                .ok()
                .filter(|n| *n < DFRC_COUNT)
                .ok_or(DfrcError::OutOfRange(n))
        };
        let sp = |t: &str| -> Result<StartPosition, DfrcError> {
            StartPosition::from_sp_str(t).map_err(|source| DfrcError::BackRank {
                side: "the set",
                source,
            })
        };
        let mut mark = |setups: &mut dyn Iterator<Item = u32>| {
            for n in setups {
                chosen[n as usize] = true;
            }
        };
        if part == "all" {
            mark(&mut (0..DFRC_COUNT));
        } else if part == "symmetric" {
            mark(&mut (0..960).map(|sp| sp * 961));
        } else if let Some(rest) = part.strip_prefix("white:") {
            let w = u32::from(sp(rest)?.sp());
            mark(&mut (0..960).map(|b| w + 960 * b));
        } else if let Some(rest) = part.strip_prefix("black:") {
            let b = u32::from(sp(rest)?.sp());
            mark(&mut (0..960).map(|w| w + 960 * b));
        } else if let Some(rest) = part.strip_prefix("sample:") {
            let (n, seed) = rest.split_once(':').ok_or_else(bad)?;
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            let seed: u64 = seed.trim().parse().map_err(|_| bad())?;
            if n == 0 || n > DFRC_COUNT {
                return Err(bad());
            }
            mark(&mut stratified_sample(n, seed).into_iter().map(DfrcSetup::index));
        } else if let Some((a, b)) = part.split_once('-') {
            let (a, b) = (index(a)?, index(b)?);
            if a > b {
                return Err(bad());
            }
            mark(&mut (a..=b));
        } else {
            mark(&mut std::iter::once(index(part)?));
        }
    }
    if !any {
        return Err(bad());
    }
    Ok(chosen
        .iter()
        .enumerate()
        .filter(|(_, c)| **c)
        .map(|(i, _)| DfrcSetup(i as u32))
        .collect())
}

/// `n` distinct setups drawn reproducibly from `seed`, stratified so that
/// every White SP and every Black SP appears `⌊n/960⌋` or `⌈n/960⌉` times,
/// in ascending index order.
///
/// From a `ChaCha8` stream seeded with `seed_from_u64(seed)`: random
/// permutations `τ` (of White SPs) and `σ` (of Black SPs) and distinct
/// random offsets `o_0, o_1, …`; round `r` pairs every White SP `w` with
/// Black SP `σ((τ(w) + o_r) mod 960)`, so each round uses every White and
/// every Black SP once and no pair repeats across rounds. Whole rounds are
/// taken while `n` allows; the last, partial round takes White SPs in a
/// random order.
///
/// # Panics
/// Panics if `n` is 0 or above 921,600.
#[must_use]
pub fn stratified_sample(n: u32, seed: u64) -> Vec<DfrcSetup> {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    assert!(
        n > 0 && n <= DFRC_COUNT,
        "sample size {n} out of 1..=921600"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut below = |k: u32| -> u32 { ((u64::from(rng.next_u32()) * u64::from(k)) >> 32) as u32 };
    let shuffled = |below: &mut dyn FnMut(u32) -> u32| {
        let mut v: Vec<u32> = (0..960).collect();
        for i in (1..960u32).rev() {
            v.swap(i as usize, below(i + 1) as usize);
        }
        v
    };
    let tau = shuffled(&mut below);
    let sigma = shuffled(&mut below);
    let offsets = shuffled(&mut below);
    let order = shuffled(&mut below);
    let rounds = n.div_ceil(960);
    let mut out = Vec::with_capacity(n as usize);
    for r in 0..rounds {
        let take = (n - r * 960).min(960);
        for &w in order.iter().take(take as usize) {
            let b = sigma[((tau[w as usize] + offsets[r as usize]) % 960) as usize];
            out.push(DfrcSetup(w + 960 * b));
        }
    }
    out.sort_unstable();
    out
}
