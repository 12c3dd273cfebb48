//! What an engine is, as observed rather than as spelled: its `id name`,
//! the options it runs with and its answer to one fixed search. A copied
//! binary or an `env`/`sh -c` wrapper starts another executable, so the
//! spelling cannot tell it from the engine it wraps; two engines that give
//! the same fingerprint make the same searches, and a run that counted
//! them as two raters would count every search twice.

use c960_core::StartPosition;
use shakmaty::Move;

use crate::{Engine, EngineError, GamePosition, Limit, Line, Search};

/// The position the fingerprint searches: SP 518, the classical setup.
pub const PROBE_SP: u16 = 518;
/// The node limit of the fingerprint's search: enough for any two engines
/// that evaluate differently to disagree, a few milliseconds of work.
pub const PROBE_NODES: u64 = 5_000;

/// An engine's identity as observed (see the module's doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// `id name`.
    pub name: String,
    /// Every option set, in the order set.
    pub options: Vec<(String, String)>,
    /// The search of [`PROBE_SP`] at [`PROBE_NODES`] from a cleared hash:
    /// its best move, expected reply, lines and nodes (no times, which
    /// vary from run to run).
    pub search: (Move, Option<Move>, Vec<Line>, Option<u64>),
}

impl Fingerprint {
    /// Takes `engine`'s fingerprint with `multipv` lines; the engine's hash
    /// is cleared before and after (`ucinewgame`), so its next search is
    /// as if the probe had not been made.
    pub fn of(engine: &mut impl Engine, multipv: u32) -> Result<Fingerprint, EngineError> {
        let start = StartPosition::new(PROBE_SP).expect("SP 518 is a start position");
        engine.new_game()?;
        let result = engine.search(
            &GamePosition::from_start(start),
            Search {
                limit: Limit::Nodes(PROBE_NODES),
                multipv,
            },
        )?;
        engine.new_game()?;
        let info = engine.info();
        Ok(Fingerprint {
            name: info.name.clone(),
            options: info.options.clone(),
            search: (result.best_move, result.ponder, result.lines, result.nodes),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineSpec;

    #[test]
    fn one_engine_gives_one_fingerprint_and_another_engine_another() {
        let start = || {
            EngineSpec::Builtin {
                hash_mb: 16,
                watchdog: None,
            }
            .start()
            .unwrap()
        };
        let (mut a, mut b) = (start(), start());
        let first = Fingerprint::of(&mut a, 1).unwrap();
        assert_eq!(first, Fingerprint::of(&mut b, 1).unwrap());
        // Probing again from a cleared hash gives the same answer.
        assert_eq!(first, Fingerprint::of(&mut a, 1).unwrap());
        assert_ne!(first, Fingerprint::of(&mut b, 2).unwrap());
    }
}
