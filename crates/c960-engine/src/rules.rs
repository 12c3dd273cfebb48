//! When a game between engines is stopped before the rules of chess end
//! it: resignation and draw adjudication from the engines' scores, and a
//! cap on its length. Self-play records the rules in its journals and
//! manifests and applies them move by move.

use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};

/// When a game is stopped early, and how long it may last.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// A game reaching this many plies is a draw (`ply-cap`).
    pub max_plies: NonZeroU32,
    /// Resign when the score stays beyond this many centipawns (from
    /// White's view, either sign) ...
    pub resign_cp: i32,
    /// ... for this many consecutive plies, i.e. both engines agree.
    pub resign_plies: u32,
    /// Adjudicate a draw when |score| stays within this many centipawns ...
    pub draw_cp: i32,
    /// ... in each of the last this many plies ...
    pub draw_plies: u32,
    /// ... at this ply or later. The plies counted may begin before it:
    /// with the defaults a game is drawn at ply 80 when plies 69 to 80
    /// were all within 10 cp.
    pub draw_after_ply: u32,
}

impl Default for Rules {
    /// Resign at 1000 cp for 6 plies (3 moves of each side); draw within
    /// 10 cp for 12 plies after ply 80; at most 400 plies.
    fn default() -> Rules {
        Rules {
            max_plies: NonZeroU32::new(400).unwrap(),
            resign_cp: 1000,
            resign_plies: 6,
            draw_cp: 10,
            draw_plies: 12,
            draw_after_ply: 80,
        }
    }
}
