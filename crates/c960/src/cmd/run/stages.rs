//! The stages of a run, each with its line in the summary: the position
//! table, the sweep and self-play, under one progress display.

use std::{path::Path, time::Instant};

use anyhow::{Context, Result, bail};
use c960_core::{Features, PositionRecord};
use c960_selfplay::SelfplayConfig;
use c960_sweep::SweepConfig;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::{
    follow::{Follow, interrupted},
    interrupt,
};

/// One line of the summary's stage table.
#[derive(Clone, Debug, Serialize)]
pub(super) struct StageTime {
    pub(super) stage: &'static str,
    pub(super) seconds: f64,
    pub(super) what: String,
    /// Units (searches, games) this stage found in its journal, done by
    /// an earlier run.
    #[serde(skip)]
    pub(super) resumed: u64,
}

/// The one progress display of a run: a bar per stage, reused.
pub(super) struct Display {
    pub(super) bar: ProgressBar,
}

impl Display {
    pub(super) fn new(quiet: bool) -> Display {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>16} {bar:32} {pos}/{len} {msg}  {per_sec}  ETA {eta}",
            )
            .expect("a valid template"),
        );
        Display { bar }
    }

    pub(super) fn stage(&self, index: usize, of: usize, name: &str, total: u64, unit: &str) {
        self.bar.set_prefix(format!("[{index}/{of}] {name}"));
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.set_message(unit.to_owned());
        self.bar.reset_eta();
    }
}

/// Stage 1: the position table, as `c960 positions` writes it.
pub(super) fn write_positions(out: &Path, display: &Display, stages: usize) -> Result<StageTime> {
    let clock = Instant::now();
    display.stage(1, stages, "positions", 960, "positions");
    let records: Vec<PositionRecord> = Features::all().iter().map(PositionRecord::from).collect();
    c960_store::write_atomically(&out.join("positions.csv"), |out| {
        crate::cmd::positions::write_csv(out, &records)
    })?;
    display.bar.set_position(960);
    Ok(StageTime {
        stage: "positions",
        seconds: clock.elapsed().as_secs_f64(),
        what: "960 positions with their features".to_owned(),
        resumed: 0,
    })
}

/// Stage 2: the engine sweep (resumed from its journal).
pub(super) fn sweep_stage(
    sweep: &SweepConfig,
    engine: c960_engine::AnyEngine,
    display: &Display,
    stages: usize,
) -> Result<(c960_sweep::SweepOutcome, StageTime)> {
    let clock = Instant::now();
    display.stage(
        2,
        stages,
        "sweep",
        sweep.positions.len() as u64,
        "positions",
    );
    let mut follow = Follow::new(&display.bar);
    let swept = c960_sweep::run_with_engine(sweep, engine, &interrupt::STOP, |p| follow.update(p))
        .with_context(|| format!("sweep into {}", sweep.out.display()))?;
    crate::cmd::sweep::report_repairs(&swept.journal, &swept.repaired);
    if swept.interrupted {
        display.bar.finish_and_clear();
        return Err(interrupted(
            " during the sweep",
            swept.rows.len() as u64,
            follow.planned(),
            "searches",
            &swept.journal,
        ));
    }
    if let Some(first) = swept.failed.first() {
        display.bar.finish_and_clear();
        bail!(
            "{} position(s) failed in the sweep, e.g. SP {}: {}; run the same command again to retry them",
            swept.failed.len(),
            first.sp,
            first.reason
        );
    }
    let time = StageTime {
        stage: "sweep",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!(
            "{} positions at {} ({} from the journal)",
            swept.rows.len(),
            sweep.limit,
            swept.resumed
        ),
        resumed: swept.resumed as u64,
    };
    Ok((swept, time))
}

/// Stage 3: self-play (resumed from its journal).
pub(super) fn selfplay_stage(
    selfplay: &SelfplayConfig,
    display: &Display,
    stages: usize,
) -> Result<(c960_selfplay::SelfplayOutcome, StageTime)> {
    let clock = Instant::now();
    let total = selfplay.positions.len() as u64 * u64::from(selfplay.games_per_position);
    display.stage(3, stages, "self-play", total, "games");
    let mut follow = Follow::new(&display.bar);
    let outcome = c960_selfplay::run(selfplay, &interrupt::STOP, |p| follow.update(p))
        .with_context(|| format!("self-play into {}", selfplay.out.display()))?;
    if outcome.interrupted {
        display.bar.finish_and_clear();
        return Err(interrupted(
            " during self-play",
            outcome.games,
            follow.planned(),
            "games",
            &outcome.journal,
        ));
    }
    if let Some(first) = outcome.failed.first() {
        display.bar.finish_and_clear();
        bail!(
            "{} game(s) failed in self-play, e.g. SP {} game {}: {}; run the same command again to retry them",
            outcome.failed.len(),
            first.sp,
            first.game,
            first.reason
        );
    }
    let time = StageTime {
        stage: "self-play",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!(
            "{} games at {} per move ({} from the journal)",
            outcome.games, selfplay.limit, outcome.resumed
        ),
        resumed: outcome.resumed,
    };
    Ok((outcome, time))
}
