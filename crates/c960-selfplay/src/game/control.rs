//! Each side's clock in a game, and the limit of each move: a fixed
//! limit jittered by the game's seed, the clocks, or a time per move
//! (the [`Control`] types are c960-engine's).

use c960_core::shakmaty::{ByColor, Color};
use c960_engine::{Clock, Control, Limit, TimeControl};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

/// One side's clock during a game.
#[derive(Copy, Clone, Debug)]
pub(super) struct SideClock {
    control: Control,
    /// Time left in milliseconds (clock controls).
    left_ms: u64,
    /// Moves this side has made.
    moves: u32,
}

impl SideClock {
    pub(super) fn new(control: Control) -> SideClock {
        let left_ms = match control {
            Control::Clock(tc) => tc.base_ms,
            _ => 0,
        };
        SideClock {
            control,
            left_ms,
            moves: 0,
        }
    }

    fn inc_ms(&self) -> u64 {
        match self.control {
            Control::Clock(tc) => tc.inc_ms,
            _ => 0,
        }
    }

    fn movestogo(&self) -> Option<u32> {
        match self.control {
            Control::Clock(TimeControl {
                moves: Some(period),
                ..
            }) => Some(period - self.moves % period),
            _ => None,
        }
    }

    /// Charges one move that took `ms`; false when the side overstepped
    /// its time by more than `margin_ms`.
    pub(super) fn charge(&mut self, ms: u64, margin_ms: u64) -> bool {
        self.moves += 1;
        match self.control {
            Control::Fixed(_) => true,
            Control::PerMove(limit) => ms <= limit + margin_ms,
            Control::Clock(tc) => {
                if ms > self.left_ms + margin_ms {
                    return false;
                }
                self.left_ms = self.left_ms.saturating_sub(ms) + tc.inc_ms;
                if tc
                    .moves
                    .is_some_and(|period| self.moves.is_multiple_of(period))
                {
                    self.left_ms += tc.base_ms;
                }
                true
            }
        }
    }
}

/// The limit for the side to move: its fixed limit (jittered), its clock
/// with the other side's, or its time per move.
pub(super) fn move_limit(
    clocks: &ByColor<SideClock>,
    turn: Color,
    jitter: f64,
    rng: &mut ChaCha8Rng,
) -> Limit {
    let (white, black) = (&clocks.white, &clocks.black);
    let mine = clocks.get(turn);
    match mine.control {
        Control::Fixed(limit) => jittered(limit, jitter, rng),
        Control::PerMove(ms) => Limit::MoveTime(ms),
        Control::Clock(_) => Limit::Clock(Clock {
            wtime_ms: white.left_ms,
            btime_ms: black.left_ms,
            winc_ms: white.inc_ms(),
            binc_ms: black.inc_ms(),
            movestogo: mine.movestogo(),
        }),
    }
}

/// The node budget for one move: `nodes × (1 − j + 2j·u)` rounded, with
/// `u = next_u64 / 2^64` from the game's `ChaCha8` stream (seeded with
/// `seed_from_u64(seed)`), at least 1. Other limits are used as they are.
#[must_use]
pub fn jittered(limit: Limit, jitter: f64, rng: &mut ChaCha8Rng) -> Limit {
    match limit {
        Limit::Nodes(n) if jitter > 0.0 => {
            #[allow(clippy::cast_precision_loss)]
            let u = rng.next_u64() as f64 / 18_446_744_073_709_551_616.0;
            #[allow(clippy::cast_precision_loss, clippy::cast_sign_loss)]
            let nodes = (n as f64 * (1.0 - jitter + 2.0 * jitter * u)).round() as u64;
            Limit::Nodes(nodes.max(1))
        }
        other => other,
    }
}
