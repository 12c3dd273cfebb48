//! How long one side of a game between engines may think: a fixed limit
//! per move, a clock, or a time per move. Self-play records it in its
//! journals and manifests as its text (`nodes 5000`, `tc 40/60+0.6`,
//! `st 1.5`); self-play keeps each side's clock during a game.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::Limit;

/// How long one side may think. Written in manifests as its text
/// (`nodes 5000`, `tc 40/60+0.6`, `st 1.5`), which parses back.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Control {
    /// A limit per move (nodes jittered by the game's seed): games replay
    /// exactly.
    Fixed(Limit),
    /// A clock; the side whose clock runs out loses on time.
    Clock(TimeControl),
    /// A time per move in milliseconds (`--st`); a side that takes longer
    /// loses on time.
    PerMove(u64),
}

impl Control {
    /// Whether games under this control replay exactly (fixed limits).
    #[must_use]
    pub fn replays(self) -> bool {
        matches!(self, Control::Fixed(Limit::Nodes(_) | Limit::Depth(_)))
    }

    /// The PGN `TimeControl` value for timed controls: `40/60+0.6`,
    /// `10+0.1`, `1.5/move`.
    #[must_use]
    pub fn pgn(self) -> Option<String> {
        match self {
            Control::Fixed(_) => None,
            Control::Clock(tc) => Some(tc.to_string()),
            Control::PerMove(ms) => Some(format!("{}/move", seconds(ms))),
        }
    }
}

impl fmt::Display for Control {
    /// `nodes 5000`, `tc 40/60+0.6`, `st 1.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::Fixed(limit) => write!(f, "{limit}"),
            Control::Clock(tc) => write!(f, "tc {tc}"),
            Control::PerMove(ms) => write!(f, "st {}", seconds(*ms)),
        }
    }
}

impl FromStr for Control {
    type Err = String;

    /// Parses what [`Control`]'s `Display` writes.
    fn from_str(text: &str) -> Result<Control, String> {
        if let Some(tc) = text.strip_prefix("tc ") {
            return tc.parse().map(Control::Clock);
        }
        if let Some(st) = text.strip_prefix("st ") {
            return match parse_seconds(st) {
                Some(ms) if ms > 0 => Ok(Control::PerMove(ms)),
                _ => Err(format!("{text:?} is not a time per move (st SECONDS)")),
            };
        }
        text.parse().map(Control::Fixed)
    }
}

impl From<Control> for String {
    fn from(control: Control) -> String {
        control.to_string()
    }
}

impl TryFrom<String> for Control {
    type Error = String;

    fn try_from(text: String) -> Result<Control, String> {
        text.parse()
    }
}

/// Milliseconds as seconds without trailing zeros: `1.5`, `60`, `0.05`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_owned()
    }
}

/// A clock time control as the match runners write it:
/// `MOVES/SECONDS+INC` (a period of MOVES moves, repeated) or
/// `SECONDS+INC` (the whole game), the increment optional.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period, if the control has periods.
    pub moves: Option<u32>,
    /// Time per period (or for the game), in milliseconds.
    pub base_ms: u64,
    /// Increment per move, in milliseconds.
    pub inc_ms: u64,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", seconds(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", seconds(self.inc_ms))?;
        }
        Ok(())
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| {
            format!(
                "time control {text:?} {why}: write MOVES/SECONDS+INC or SECONDS+INC, e.g. 40/60+0.6 or 10+0.1"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m
                    .trim()
                    .parse()
                    .map_err(|_| bad("has no whole number of moves"))?;
                if moves == 0 {
                    return Err(bad("has 0 moves per period"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = parse_seconds(base).ok_or_else(|| bad("has no valid seconds"))?;
        let inc_ms = parse_seconds(inc).ok_or_else(|| bad("has no valid increment"))?;
        if base_ms == 0 {
            return Err(bad("gives no time"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

/// Seconds (decimals allowed) as whole milliseconds, if valid.
#[must_use]
pub fn parse_seconds(text: &str) -> Option<u64> {
    let value: f64 = text.trim().parse().ok()?;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (value.is_finite() && (0.0..1e9).contains(&value)).then(|| (value * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_is_written_as_text_that_parses_back() {
        for text in [
            "nodes 5000",
            "depth 12",
            "tc 40/60+0.6",
            "tc 10+0.1",
            "st 1.5",
        ] {
            let control: Control = text.parse().unwrap();
            assert_eq!(control.to_string(), text);
            let json = serde_json::to_string(&control).unwrap();
            assert_eq!(json, format!("{text:?}"));
            assert_eq!(serde_json::from_str::<Control>(&json).unwrap(), control);
        }
        for bad in ["st 0", "st x", "tc 0+1", "nodes", "fast"] {
            assert!(bad.parse::<Control>().is_err(), "{bad}");
        }
    }
}
