//! The dice procedure for drawing a start position at the board.
//!
//! One six-sided die, rolled for each piece in turn (docs/domain.md#drawing-a-position):
//! dark-squared bishop on a1, c1, e1, g1 (1–4; reroll 5–6); light-squared
//! bishop on b1, d1, f1, h1 (1–4; reroll 5–6); queen on the k-th of the six
//! free squares (1–6); first knight on the k-th of the five free squares
//! (1–5; reroll 6); second knight on the k-th of the four free squares (1–4;
//! reroll 5–6); then rook, king, rook on the last three squares, left to
//! right. Every position comes out with probability 1/960.

use shakmaty::{File, Rank, Role, Square};

use crate::{DiceError, StartPosition};

/// What one roll did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RollOutcome {
    /// The piece was placed on this square.
    Placed(Square),
    /// The value was out of range for this piece and must be rolled again.
    Reroll,
}

/// One roll of the procedure.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DiceStep {
    /// The piece the roll was for, e.g. `dark-squared bishop`.
    pub piece: &'static str,
    /// The value rolled, 1..=6.
    pub roll: u8,
    /// What it did.
    pub outcome: RollOutcome,
}

/// The position the rolls give, with every roll explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceDraw {
    /// The resulting start position.
    pub position: StartPosition,
    /// Each roll in order, rerolls included.
    pub steps: Vec<DiceStep>,
}

impl DiceDraw {
    /// Number of rolls that had to be repeated.
    #[must_use]
    pub fn rerolls(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| s.outcome == RollOutcome::Reroll)
            .count()
    }
}

/// The five rolled steps, in order: the piece's name and its role.
const STEPS: [(&str, Role); 5] = [
    ("dark-squared bishop", Role::Bishop),
    ("light-squared bishop", Role::Bishop),
    ("queen", Role::Queen),
    ("first knight", Role::Knight),
    ("second knight", Role::Knight),
];

/// Runs the dice procedure on the given rolls.
///
/// # Examples
///
/// ```
/// use c960_core::dice;
///
/// // Dark bishop c1, light bishop f1, queen d1, knights b1 and g1: classical.
/// let draw = dice(&[2, 3, 3, 2, 3])?;
/// assert_eq!(draw.position.placement(), "RNBQKBNR");
/// // A 5 for a bishop is rolled again.
/// assert_eq!(dice(&[5, 2, 3, 3, 2, 3])?.rerolls(), 1);
/// # Ok::<(), c960_core::DiceError>(())
/// ```
pub fn dice(rolls: &[i64]) -> Result<DiceDraw, DiceError> {
    let mut values = Vec::with_capacity(rolls.len());
    for (i, &value) in rolls.iter().enumerate() {
        match u8::try_from(value) {
            Ok(v @ 1..=6) => values.push(v),
            _ => {
                return Err(DiceError::NotADieRoll {
                    index: i + 1,
                    value,
                });
            }
        }
    }

    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut steps = Vec::new();
    let mut next = values.iter().copied();
    for (step, (piece, role)) in STEPS.iter().enumerate() {
        let choices: Vec<usize> = match step {
            0 => vec![0, 2, 4, 6],
            1 => vec![1, 3, 5, 7],
            _ => (0..8).filter(|f| rank[*f].is_none()).collect(),
        };
        loop {
            let roll = next.next().ok_or(DiceError::TooFewRolls { step: piece })?;
            if let Some(&file) = choices.get(usize::from(roll) - 1) {
                rank[file] = Some(*role);
                steps.push(DiceStep {
                    piece,
                    roll,
                    outcome: RollOutcome::Placed(Square::from_coords(
                        File::new(file as u32),
                        Rank::First,
                    )),
                });
                break;
            }
            steps.push(DiceStep {
                piece,
                roll,
                outcome: RollOutcome::Reroll,
            });
        }
    }
    let extra = next.count();
    if extra > 0 {
        return Err(DiceError::TooManyRolls {
            used: steps.len(),
            extra,
        });
    }

    let mut rest = [Role::Rook, Role::King, Role::Rook].into_iter();
    let back_rank =
        rank.map(|slot| slot.unwrap_or_else(|| rest.next().expect("three free squares")));
    let position = StartPosition::from_back_rank(&back_rank)
        .expect("the dice procedure gives a start position");
    Ok(DiceDraw { position, steps })
}
