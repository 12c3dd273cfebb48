//! The start of a run: its engines, each started once before anything is
//! written, and what the run says it will do.

use std::{fmt, num::NonZeroU32, path::PathBuf};

use anyhow::Result;
use c960_selfplay::SelfplayConfig;
use c960_sweep::SweepConfig;

use super::{Plan, Profile, raters};

/// What a run will do, once its engines started: its first line.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The plan's profile.
    pub profile: Profile,
    /// The engines, each once.
    pub engines: Vec<String>,
    /// Positions searched.
    pub positions: usize,
    /// The sweep's searches in words (`sweep at 100000 nodes`, `sweep by
    /// 2 raters`).
    pub searches: String,
    /// The self-play in words (`no self-play`, `self-play 2 games per
    /// position at 2000 nodes per move`).
    pub selfplay: String,
    /// The run directory.
    pub out: PathBuf,
}

impl Start {
    pub(super) fn of(
        plan: &Plan,
        named: &[String],
        sweeps: &[SweepConfig],
        selfplay: Option<&SelfplayConfig>,
    ) -> Start {
        let sweep = &sweeps[0];
        let searches = if sweeps.len() == 1 {
            format!(
                "sweep at {}{}",
                sweep.limit,
                if sweep.multipv > NonZeroU32::MIN {
                    format!(" with MultiPV {}", sweep.multipv)
                } else {
                    String::new()
                }
            )
        } else {
            format!("sweep by {} raters", sweeps.len())
        };
        Start {
            profile: plan.profile,
            engines: named.to_vec(),
            positions: sweep.positions.len(),
            searches,
            selfplay: selfplay.map_or("no self-play".to_owned(), |s| {
                format!(
                    "self-play {} per position at {} per move",
                    c960_core::plural(s.games_per_position.get(), "game", "games"),
                    s.limit
                )
            }),
            out: plan.out.clone(),
        }
    }
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "c960 run ({}) with {}: {} positions; {}; {} into {}",
            self.profile.name(),
            self.engines.join(", "),
            self.positions,
            self.searches,
            self.selfplay,
            self.out.display()
        )
    }
}

/// Starts every rater's engine once before anything is written: a broken
/// engine is reported at once, and the run says which engines it uses.
/// Each sweep then searches with its engine, so it is launched once.
/// Returns the engines, their labels, and each label once for people.
pub(super) fn start_engines(
    plan: &Plan,
    sweeps: &[SweepConfig],
) -> Result<(Vec<c960_engine::AnyEngine>, Vec<String>, Vec<String>)> {
    let mut started = Vec::new();
    for sweep in sweeps {
        started.push(
            sweep
                .engine
                .with_multipv(sweep.multipv.get())
                .start()
                .map_err(c960_runner::RunError::from)?,
        );
    }
    raters::check_started_raters(&plan.raters, sweeps, &mut started)?;
    let engines: Vec<String> = started
        .iter()
        .map(|e| {
            use c960_engine::Engine as _;
            e.info().label()
        })
        .collect();
    let named: Vec<String> = engines.iter().fold(Vec::new(), |mut named, e| {
        if !named.contains(e) {
            named.push(e.clone());
        }
        named
    });
    Ok((started, engines, named))
}
