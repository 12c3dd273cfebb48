//! Choosing a book from an expansion: the exits inside a window (White's
//! score in centipawns, or the draw rate of the engine's WDL model),
//! deduplicated by position and spread evenly over the starts. No search
//! is made, so several windows come from one expansion.

use std::{collections::HashSet, fmt, str::FromStr};

use c960_balance::wdl::WdlModel;
use serde::Serialize;
use sha2::{Digest as _, Sha256};

use super::expand::{Exit, StartExits};

/// The largest centipawn score an engine reports short of a mate (UCI
/// engines put mates beyond it): a cp window must lie within ± this.
pub const MATE_THRESHOLD_CP: f64 = 32_000.0;

/// What a window bounds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// White's score in centipawns.
    Cp,
    /// The draw chance in percent, from the engine's WDL model.
    DrawRate,
    /// The draw chance of a game pair in percent, from a draw model fitted
    /// to games played at the book's budget, reading the exit's
    /// centipawns.
    ModelDrawRate,
}

/// A closed window `low..high` of one measure.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Window {
    /// What it bounds.
    pub measure: Measure,
    /// Lowest value kept.
    pub low: f64,
    /// Highest value kept.
    pub high: f64,
    /// The fitted model a [`Measure::ModelDrawRate`] window reads.
    #[serde(skip)]
    pub model: Option<WdlModel>,
}

/// A window's bounds as written (`90..120`), before its measure is known.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Range(pub f64, pub f64);

impl FromStr for Range {
    type Err = String;

    fn from_str(text: &str) -> Result<Range, String> {
        let (low, high) = text
            .split_once("..")
            .ok_or_else(|| format!("{text:?} is not a window LOW..HIGH (e.g. 90..120)"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{t:?} in {text:?} is not a number"))
        };
        Ok(Range(number(low)?, number(high)?))
    }
}

impl Window {
    /// The window `range` of `measure`, if it lies in the engine's range:
    /// LOW ≤ HIGH, centipawns within ± [`MATE_THRESHOLD_CP`], a draw rate
    /// within 0..100.
    ///
    /// # Errors
    /// What is wrong with it, naming the flag.
    pub fn new(measure: Measure, range: Range) -> Result<Window, String> {
        let Range(low, high) = range;
        let (flag, min, max) = match measure {
            Measure::Cp => ("--cp", -MATE_THRESHOLD_CP, MATE_THRESHOLD_CP),
            Measure::DrawRate | Measure::ModelDrawRate => ("--draw-rate", 0.0, 100.0),
        };
        if low > high {
            return Err(format!("{flag} {low}..{high}: LOW is above HIGH"));
        }
        if low < min || high > max {
            return Err(format!(
                "{flag} {low}..{high} lies outside the engine's range {min}..{max}{}",
                match measure {
                    Measure::Cp => " (beyond it scores are mates)",
                    Measure::DrawRate | Measure::ModelDrawRate => " (percent)",
                }
            ));
        }
        Ok(Window {
            measure,
            low,
            high,
            model: None,
        })
    }

    /// A draw-rate window read from `model` instead of the engine's WDL.
    #[must_use]
    pub fn with_model(self, model: WdlModel) -> Window {
        Window {
            measure: Measure::ModelDrawRate,
            model: Some(model),
            ..self
        }
    }

    /// The exit's value of this measure, if it can be in a book: not
    /// game over, not a mate score, with WDL for a draw-rate window.
    #[must_use]
    pub fn value(&self, exit: &Exit) -> Option<f64> {
        if exit.game_over || exit.mate.is_some() {
            return None;
        }
        match self.measure {
            Measure::Cp => exit.cp.map(f64::from),
            Measure::DrawRate => exit.draw_percent(),
            Measure::ModelDrawRate => {
                let model = self.model?;
                exit.cp.map(|cp| 100.0 * model.pair_draw(f64::from(cp)))
            }
        }
    }

    /// Whether `value` lies in the window.
    #[must_use]
    pub fn contains(&self, value: f64) -> bool {
        (self.low..=self.high).contains(&value)
    }

    /// The window's centre.
    #[must_use]
    pub fn centre(&self) -> f64 {
        f64::midpoint(self.low, self.high)
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.measure {
            Measure::Cp => write!(f, "cp {}..{}", self.low, self.high),
            Measure::DrawRate => write!(f, "draw rate {}..{} %", self.low, self.high),
            Measure::ModelDrawRate => {
                write!(f, "draw rate {}..{} % (fitted model)", self.low, self.high)
            }
        }
    }
}

/// How many exits to keep.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quota {
    /// Every exit in the window.
    All,
    /// This many in all, taken round-robin over the starts.
    Count(usize),
    /// At most this many per start.
    PerStart(usize),
}

/// One exit a book keeps, with the start it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    /// The start's setup number.
    pub setup: u32,
    /// The exit.
    pub exit: Exit,
    /// Its value of the window's measure.
    pub value: f64,
}

/// A chosen book: its lines in start order, and the counts behind it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Selection {
    /// The book lines.
    #[serde(skip)]
    pub lines: Vec<String>,
    /// The exits behind the lines, in the same order.
    #[serde(skip)]
    pub chosen: Vec<Chosen>,
    /// Starts expanded.
    pub starts: usize,
    /// Exits of those starts that could be in a book (not game over, no
    /// mate score, with the window's measure).
    pub candidates: usize,
    /// Candidates inside the window, each position once.
    pub in_window: usize,
    /// Lines kept.
    pub kept: usize,
    /// Starts with at least one line in the book.
    pub starts_kept: usize,
}

/// Chooses the book: each start's exits inside `window`, each position
/// once (its first occurrence in start order, exits nearest the centre
/// first), ordered by distance to the window's centre (ties by a hash of
/// `seed` and the position), then kept by `quota`: round-robin over the
/// starts in the order given, or up to K per start. Lines come in start
/// order, each start's nearest the centre first.
#[must_use]
pub fn select(starts: &[&StartExits], window: Window, quota: Quota, seed: u64) -> Selection {
    let mut seen: HashSet<String> = HashSet::new();
    let mut candidates = 0;
    let ranked: Vec<Vec<(f64, &Exit)>> = starts
        .iter()
        .map(|start| {
            let mut inside: Vec<(f64, u64, f64, &Exit)> = start
                .exits
                .iter()
                .filter_map(|exit| {
                    let value = window.value(exit)?;
                    candidates += 1;
                    window.contains(value).then(|| {
                        let distance = (value - window.centre()).abs();
                        (distance, tie_break(seed, &exit.fen), value, exit)
                    })
                })
                .collect();
            inside.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            inside
                .into_iter()
                .map(|(_, _, value, exit)| (value, exit))
                .filter(|(_, exit)| seen.insert(position_key(&exit.fen)))
                .collect()
        })
        .collect();
    let in_window = ranked.iter().map(Vec::len).sum();
    let taken: Vec<usize> = match quota {
        Quota::All => ranked.iter().map(Vec::len).collect(),
        Quota::PerStart(k) => ranked.iter().map(|r| r.len().min(k)).collect(),
        Quota::Count(n) => round_robin(&ranked, n),
    };
    let chosen: Vec<Chosen> = ranked
        .iter()
        .zip(&taken)
        .zip(starts)
        .flat_map(|((exits, &k), start)| {
            exits[..k].iter().map(|&(value, exit)| Chosen {
                setup: start.setup,
                exit: exit.clone(),
                value,
            })
        })
        .collect();
    let lines: Vec<String> = chosen.iter().map(|c| c.exit.fen.clone()).collect();
    Selection {
        kept: lines.len(),
        chosen,
        starts_kept: taken.iter().filter(|&&k| k > 0).count(),
        lines,
        starts: starts.len(),
        candidates,
        in_window,
    }
}

/// How many of each start's exits `n` round-robin picks take: one from
/// each start in order, then a second from each that has one, and so on.
fn round_robin<T>(ranked: &[Vec<T>], n: usize) -> Vec<usize> {
    let mut taken = vec![0; ranked.len()];
    let mut left = n;
    let mut round = 0;
    while left > 0 {
        let mut any = false;
        for (exits, k) in ranked.iter().zip(taken.iter_mut()) {
            if left == 0 {
                break;
            }
            if exits.len() > round {
                *k += 1;
                left -= 1;
                any = true;
            }
        }
        if !any {
            break;
        }
        round += 1;
    }
    taken
}

/// The position a book line holds, for deduplication: placement, side to
/// move, castling rooks and the (legal) en passant square; not the move
/// counters.
#[must_use]
pub fn position_key(fen: &str) -> String {
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// A tie-break from `seed` and the position: the first 8 bytes of
/// SHA-256(seed, position).
fn tie_break(seed: u64, fen: &str) -> u64 {
    let mut hash = Sha256::new();
    hash.update(seed.to_le_bytes());
    hash.update(position_key(fen).as_bytes());
    let digest = hash.finalize();
    let mut first = [0_u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

impl Selection {
    /// Puts the lines (and their exits) in a random order from `seed`:
    /// runners that start a match at line N of a book (cutechess
    /// `start=N`, fishtest's offsets) then draw a spread of starts rather
    /// than one start's exits.
    pub fn shuffle(&mut self, seed: u64) {
        let mut order: Vec<usize> = (0..self.chosen.len()).collect();
        c960_balance::rng::Rng::new(seed).shuffle(&mut order);
        self.chosen = order.iter().map(|&i| self.chosen[i].clone()).collect();
        self.lines = self.chosen.iter().map(|c| c.exit.fen.clone()).collect();
    }
}
