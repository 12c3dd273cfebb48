//! The raters of a run's sweep: each an engine with its own search
//! settings. The research and quick profiles' designs, resolved against
//! the engines installed (or the one engine named), and the checks every
//! rater list passes, whether it comes from a profile or a config file.

use std::{fmt::Write as _, num::NonZeroU32};

use anyhow::{Result, bail};
use c960_engine::EngineName;
use serde::{Deserialize, Serialize};

use super::InputError;

/// One rater of a sweep: an engine and its search settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaterPlan {
    /// Its name: the directory `raters/NAME/` of its searches.
    pub(super) name: String,
    pub(super) engine: EngineName,
    pub(super) nodes: u64,
    #[serde(default = "one")]
    pub(super) multipv: NonZeroU32,
    /// Hash table, MiB.
    #[serde(default = "default_hash")]
    pub(super) hash: NonZeroU32,
    /// Searches per position (node budgets perturbed by the seed).
    #[serde(default = "one")]
    pub(super) repeats: NonZeroU32,
}

fn one() -> NonZeroU32 {
    NonZeroU32::MIN
}

fn default_hash() -> NonZeroU32 {
    DEFAULT_HASH
}

/// Engine hash per process, MiB, unless a config file or flag says: the
/// run's, and each rater's that does not set its own.
pub(super) const DEFAULT_HASH: NonZeroU32 = NonZeroU32::new(16).unwrap();

/// One rater of the research design: an engine and its search settings.
#[derive(Copy, Clone, Debug)]
pub(super) struct DesignRater {
    pub(super) engine: Installed,
    pub(super) nodes: u64,
    pub(super) multipv: NonZeroU32,
    /// Hash table, MiB.
    pub(super) hash: NonZeroU32,
}

/// The research profile's raters. Each uses its engine where `auto` finds
/// it installed, else the strongest engine that is (raters that would then
/// search alike are kept once); with an engine named, every rater uses it.
/// Chosen with `just bench-validity` (docs/validity.md).
pub(super) const RESEARCH_DESIGN: [DesignRater; 4] = [
    DesignRater {
        engine: Installed::StockfishNpm,
        nodes: 4_000_000,
        multipv: NonZeroU32::MIN,
        hash: DEFAULT_HASH,
    },
    DesignRater {
        engine: Installed::Stockfish,
        nodes: 4_000_000,
        multipv: NonZeroU32::MIN,
        hash: DEFAULT_HASH,
    },
    DesignRater {
        engine: Installed::StockfishNpm,
        nodes: 1_000_000,
        multipv: NonZeroU32::new(3).unwrap(),
        hash: DEFAULT_HASH,
    },
    DesignRater {
        engine: Installed::Stockfish,
        nodes: 1_000_000,
        multipv: NonZeroU32::MIN,
        hash: NonZeroU32::new(64).unwrap(),
    },
];

/// An engine of the research design, found where `auto` looks for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Installed {
    /// Stockfish from npm (`stockfish-npm`).
    StockfishNpm,
    /// Debian's Stockfish (`stockfish`).
    Stockfish,
}

impl Installed {
    fn engine(self) -> EngineName {
        match self {
            Installed::StockfishNpm => {
                EngineName::StockfishNpm(c960_engine::uci::NpmBuild::Full, None)
            }
            Installed::Stockfish => EngineName::Stockfish,
        }
    }

    /// The engine in words.
    pub(super) fn describe(self) -> &'static str {
        match self {
            Installed::StockfishNpm => "Stockfish 19 (npm `stockfish`)",
            Installed::Stockfish => "Stockfish (Debian)",
        }
    }

    fn present(self) -> bool {
        match self {
            Installed::StockfishNpm => {
                c960_engine::uci::find_stockfish_npm(c960_engine::uci::NpmBuild::Full).is_ok()
            }
            Installed::Stockfish => c960_engine::uci::find_stockfish().is_some(),
        }
    }
}

/// The strongest engine installed, as `auto` picks it.
fn strongest() -> EngineName {
    [Installed::StockfishNpm, Installed::Stockfish]
        .into_iter()
        .find(|e| e.present())
        .map_or(EngineName::Builtin, Installed::engine)
}

/// The research design's raters for `engine` (`auto`: each its own where
/// installed), named after their engine and settings
/// (`stockfish-npm-1m-hash64`), none twice.
pub(super) fn research_raters(engine: &EngineName) -> Vec<RaterPlan> {
    let mut raters: Vec<RaterPlan> = Vec::new();
    for DesignRater {
        engine: wanted,
        nodes,
        multipv,
        hash,
    } in RESEARCH_DESIGN
    {
        let engine = match engine {
            EngineName::Auto if wanted.present() => wanted.engine(),
            EngineName::Auto => strongest(),
            named => named.clone(),
        };
        let rater = rater(engine, nodes, multipv, hash);
        if !raters.iter().any(|r| {
            (&r.engine, r.nodes, r.multipv, r.hash) == (&rater.engine, nodes, multipv, hash)
        }) {
            raters.push(rater);
        }
    }
    raters
}

/// One rater of the quick design: an engine, its nodes beside the other
/// engine, and its nodes when it is the only engine of the design that
/// runs (the whole time then goes to its one search).
#[derive(Copy, Clone, Debug)]
pub(super) struct QuickRater {
    pub(super) engine: Installed,
    pub(super) nodes: u64,
    pub(super) alone: u64,
}

/// The quick profile's raters: Stockfish 19 and Stockfish 15.1 at node
/// counts that together fit 10 minutes on two cores (Stockfish 19 from npm
/// costs about 2.2 times the CPU time of the native Stockfish 15.1 per
/// node). Two engines agree with the v4 consensus better than either
/// alone at the same time; games at the quick budget agree with nothing
/// (docs/benchmarks.md, "The quick run").
pub(super) const QUICK_DESIGN: [QuickRater; 2] = [
    QuickRater {
        engine: Installed::StockfishNpm,
        nodes: 150_000,
        alone: 300_000,
    },
    QuickRater {
        engine: Installed::Stockfish,
        nodes: 350_000,
        alone: 700_000,
    },
];

/// The quick design's raters for `engine`: with `auto` those whose engine
/// is installed (one alone at its `alone` nodes), with one of the design's
/// engines named that one alone; none otherwise (the run's one sweep, at
/// the profile's `[sweep]` nodes, searches with the engine named or, when
/// neither Stockfish is installed, the built-in engine).
pub(super) fn quick_raters(engine: &EngineName) -> Vec<RaterPlan> {
    let chosen: Vec<(Installed, u64)> = match engine {
        EngineName::Auto => {
            let present: Vec<QuickRater> = QUICK_DESIGN
                .into_iter()
                .filter(|r| r.engine.present())
                .collect();
            match present.as_slice() {
                [only] => vec![(only.engine, only.alone)],
                all => all.iter().map(|r| (r.engine, r.nodes)).collect(),
            }
        }
        named => QUICK_DESIGN
            .into_iter()
            .filter(|r| r.engine.engine() == *named)
            .map(|r| (r.engine, r.alone))
            .collect(),
    };
    chosen
        .into_iter()
        .map(|(engine, nodes)| rater(engine.engine(), nodes, NonZeroU32::MIN, DEFAULT_HASH))
        .collect()
}

/// A rater named after its engine and settings (`stockfish-npm-1m-hash64`).
fn rater(engine: EngineName, nodes: u64, multipv: NonZeroU32, hash: NonZeroU32) -> RaterPlan {
    let mut name = format!("{}-{}", engine.stem(), count_label(nodes));
    if multipv.get() > 1 {
        let _ = write!(name, "-multipv{multipv}");
    }
    if hash != DEFAULT_HASH {
        let _ = write!(name, "-hash{hash}");
    }
    RaterPlan {
        name,
        engine,
        nodes,
        multipv,
        hash,
        repeats: NonZeroU32::MIN,
    }
}

/// `4m`, `250k`, `1500`: a node count for a name.
fn count_label(nodes: u64) -> String {
    if nodes.is_multiple_of(1_000_000) {
        format!("{}m", nodes / 1_000_000)
    } else if nodes.is_multiple_of(1_000) {
        format!("{}k", nodes / 1_000)
    } else {
        nodes.to_string()
    }
}

/// Raters with usable names and settings, none twice.
pub(super) fn check_raters(raters: &[RaterPlan]) -> Result<()> {
    for (i, r) in raters.iter().enumerate() {
        let usable = !r.name.is_empty()
            && r.name.len() <= 64
            && r.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !r.name.starts_with('.');
        if !usable {
            bail!(InputError(format!(
                "rater name {:?} must be 1 to 64 letters, digits, '-', '_' or '.' (it names its \
                 directory)",
                r.name
            )));
        }
        if r.nodes == 0 {
            bail!(InputError(format!(
                "rater {}: nodes must be at least 1",
                r.name
            )));
        }
        if let Some(other) = raters[..i].iter().find(|o| o.name == r.name) {
            bail!(InputError(format!(
                "rater name {} is used twice",
                other.name
            )));
        }
        if let Some(other) = raters[..i].iter().find(|o| {
            (&o.engine, o.nodes, o.multipv, o.hash) == (&r.engine, r.nodes, r.multipv, r.hash)
        }) {
            bail!(InputError(format!(
                "raters {} and {} search alike: the same searches would count twice",
                other.name, r.name
            )));
        }
    }
    Ok(())
}

/// Raters that are one rater under two spellings of their engine, refused
/// before any search: two raters whose engines start the same executable
/// (found on `PATH`, symbolic links followed) with the same arguments,
/// with the same hash, `MultiPV` and node limit, would make the same
/// searches twice (the run's options are every rater's). A rater whose
/// engine is not installed is left to the check that says how to
/// install it.
pub(super) fn check_rater_engines(raters: &[RaterPlan]) -> Result<()> {
    let identities: Vec<_> = raters.iter().map(|r| r.engine.identity().ok()).collect();
    for (i, r) in raters.iter().enumerate() {
        let Some(identity) = &identities[i] else {
            continue;
        };
        if let Some(other) = raters[..i].iter().zip(&identities).find_map(|(o, id)| {
            (id.as_ref() == Some(identity)
                && (o.nodes, o.multipv, o.hash) == (r.nodes, r.multipv, r.hash))
                .then_some(o)
        }) {
            bail!(InputError(format!(
                "raters {} and {} search alike: their engines {} and {} are both {identity}, with \
                 the same settings; the same searches would count twice",
                other.name, r.name, other.engine, r.engine
            )));
        }
    }
    Ok(())
}

/// Raters that are one rater under spellings no path can tell apart (a
/// copied binary, an `env` or `sh -c` wrapper), refused before any sweep:
/// two raters with the same sweep settings whose started engines give one
/// [`c960_engine::Fingerprint`] (the same `id name`, the same options and
/// the same first search of SP 518 at a fixed node count) would make the
/// same searches twice, which only the report would notice after every
/// sweep ran. `started` is each rater's engine, as `sweeps` start it; a
/// probed engine's hash is cleared again before its sweep.
pub(super) fn check_started_raters(
    raters: &[RaterPlan],
    sweeps: &[c960_sweep::SweepConfig],
    started: &mut [c960_engine::AnyEngine],
) -> Result<()> {
    let settings = |s: &c960_sweep::SweepConfig| (s.limit, s.multipv, s.repeats, s.reply);
    let mut prints: Vec<Option<c960_engine::Fingerprint>> = vec![None; started.len()];
    let mut print = |i: usize| -> Result<c960_engine::Fingerprint> {
        if let Some(known) = &prints[i] {
            return Ok(known.clone());
        }
        let taken = c960_engine::Fingerprint::of(&mut started[i], sweeps[i].multipv.get())
            .map_err(c960_runner::RunError::from)?;
        prints[i] = Some(taken.clone());
        Ok(taken)
    };
    for j in 0..raters.len().min(sweeps.len()) {
        for i in 0..j {
            if settings(&sweeps[i]) != settings(&sweeps[j]) {
                continue;
            }
            let (a, b) = (print(i)?, print(j)?);
            if a == b {
                bail!(InputError(format!(
                    "raters {} and {} are one rater: their engines {} and {} both answer as \
                     {:?} with the same options and search SP {} at {} nodes alike, so the same \
                     searches would count twice; give only one",
                    raters[i].name,
                    raters[j].name,
                    raters[i].engine,
                    raters[j].engine,
                    a.name,
                    c960_engine::PROBE_SP,
                    c960_engine::PROBE_NODES
                )));
            }
        }
    }
    Ok(())
}
