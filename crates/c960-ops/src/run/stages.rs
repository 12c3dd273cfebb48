//! The stages of a run, each with its line in the summary: the position
//! table, the sweep and self-play, told as they go to an [`Observer`].

use std::{
    io,
    num::NonZeroU32,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
    time::Instant,
};

use anyhow::{Context, Result, bail};
use c960_runner::Progress;
use c960_selfplay::SelfplayConfig;
use c960_sweep::SweepConfig;
use serde::Serialize;

use super::Start;

/// One line of the summary's stage table.
#[derive(Clone, Debug, Serialize)]
pub struct StageTime {
    /// The stage's name.
    pub stage: &'static str,
    /// Its time, seconds.
    pub seconds: f64,
    /// What it made, in words.
    pub what: String,
    /// Units (searches, games) this stage found in its journal, done by
    /// an earlier run.
    #[serde(skip)]
    pub resumed: u64,
}

/// What a run tells as it goes: the command shows it (a progress bar,
/// lines on standard error) or ignores it. Every method does nothing
/// unless implemented.
pub trait Observer {
    /// The engines are about to start: the moment to arm what sets the
    /// stop flag (a stop signal then stops them too).
    fn starting(&mut self) {}
    /// The engines started and the run begins: what it will do.
    fn started(&mut self, _start: &Start) {}
    /// Stage `index` of `of` begins: `total` `unit`s to do.
    fn stage(&mut self, _index: usize, _of: usize, _name: &str, _total: u64, _unit: &str) {}
    /// Progress within the current stage.
    fn progress(&mut self, _progress: Progress) {}
    /// The current stage's display is done with (the run stops, or its
    /// last stage finished).
    fn cleared(&mut self) {}
    /// Lines dropped from `journal` by a repair.
    fn repaired(&mut self, _journal: &Path, _dropped: &[c960_store::DroppedLine]) {}
}

/// An observer that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}

/// A run stopped by its stop flag: `saved` of `planned` units are in
/// `journal`, and the same command resumes it.
#[derive(Debug, thiserror::Error)]
#[error(
    "interrupted{during}: {saved} of {planned} {unit} are saved in {}; run the same command \
     again to resume",
    .journal.display()
)]
pub struct Stopped {
    /// The stage it stopped in (" during the sweep").
    pub during: &'static str,
    /// Units saved in the journal.
    pub saved: u64,
    /// Units the stage planned, as last reported.
    pub planned: u64,
    /// What a unit is ("searches", "games").
    pub unit: &'static str,
    /// The stage's journal.
    pub journal: PathBuf,
}

/// Passes a stage's progress on, keeping the units it planned: the first
/// report's total, then the largest (adaptive rounds add units).
struct Planned<'a> {
    observer: &'a mut dyn Observer,
    planned: Option<u64>,
}

impl Planned<'_> {
    fn update(&mut self, p: Progress) {
        self.planned = Some(self.planned.map_or(p.total, |planned| planned.max(p.total)));
        self.observer.progress(p);
    }

    fn planned(&self) -> u64 {
        self.planned.unwrap_or(0)
    }
}

/// Stage 1: the position table, as `c960 positions` writes it.
pub(super) fn write_positions(
    out: &Path,
    observer: &mut dyn Observer,
    stages: usize,
) -> Result<StageTime> {
    let clock = Instant::now();
    observer.stage(1, stages, "positions", 960, "positions");
    c960_store::write_atomically(&out.join("positions.csv"), |out| {
        write_position_table_csv(out)
    })?;
    observer.progress(Progress {
        done: 960,
        failed: 0,
        total: 960,
        resumed: 0,
    });
    Ok(StageTime {
        stage: "positions",
        seconds: clock.elapsed().as_secs_f64(),
        what: "960 positions with their features".to_owned(),
        resumed: 0,
    })
}

/// Stage 2: the engine sweep (resumed from its journal), or one rater's
/// part of it (`rater` = (i, of)).
pub(super) fn sweep_stage(
    sweep: &SweepConfig,
    engine: c960_engine::AnyEngine,
    rater: Option<(usize, usize)>,
    (stop, observer): (&AtomicBool, &mut dyn Observer),
    stages: usize,
) -> Result<(c960_sweep::SweepOutcome, StageTime)> {
    let clock = Instant::now();
    let name = rater.map_or_else(|| "sweep".to_owned(), |(i, of)| format!("sweep {i}/{of}"));
    observer.stage(2, stages, &name, sweep.searches(), "searches");
    let mut follow = Planned {
        observer,
        planned: None,
    };
    let swept = c960_sweep::run_with_engine(sweep, engine, stop, |p| follow.update(p))
        .with_context(|| format!("sweep into {}", sweep.out.display()))?;
    let planned = follow.planned();
    observer.repaired(&swept.journal, &swept.repaired);
    if swept.interrupted {
        observer.cleared();
        return Err(Stopped {
            during: " during the sweep",
            saved: swept.rows.len() as u64,
            planned,
            unit: "searches",
            journal: swept.journal.clone(),
        }
        .into());
    }
    if let Some(first) = swept.failed.first() {
        observer.cleared();
        bail!(
            "{} failed in the sweep, e.g. SP {}: {}; run the same command again to retry them",
            c960_core::plural(swept.failed.len(), "position", "positions"),
            first.sp,
            first.reason
        );
    }
    let time = StageTime {
        stage: "sweep",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!(
            "{} at {}{}{} ({} from the journal)",
            c960_core::plural(swept.rows.len(), "position", "positions"),
            sweep.limit,
            if sweep.multipv > NonZeroU32::MIN {
                format!(" with MultiPV {}", sweep.multipv)
            } else {
                String::new()
            },
            rater.map_or_else(String::new, |_| format!(" by {}", swept.engine.label())),
            swept.resumed
        ),
        resumed: swept.resumed as u64,
    };
    Ok((swept, time))
}

/// Stage 3: self-play (resumed from its journal).
pub(super) fn selfplay_stage(
    selfplay: &SelfplayConfig,
    (stop, observer): (&AtomicBool, &mut dyn Observer),
    stages: usize,
) -> Result<(c960_selfplay::SelfplayOutcome, StageTime)> {
    let clock = Instant::now();
    let total = selfplay.games();
    observer.stage(3, stages, "self-play", total, "games");
    let mut follow = Planned {
        observer,
        planned: None,
    };
    let outcome = c960_selfplay::run(selfplay, stop, |p| follow.update(p))
        .with_context(|| format!("self-play into {}", selfplay.out.display()))?;
    let planned = follow.planned();
    if outcome.interrupted {
        observer.cleared();
        return Err(Stopped {
            during: " during self-play",
            saved: outcome.games,
            planned,
            unit: "games",
            journal: outcome.journal.clone(),
        }
        .into());
    }
    if let Some(first) = outcome.failed.first() {
        observer.cleared();
        bail!(
            "{} failed in self-play, e.g. SP {} game {}: {}; run the same command again to retry them",
            c960_core::plural(outcome.failed.len(), "game", "games"),
            first.sp,
            first.game,
            first.reason
        );
    }
    let time = StageTime {
        stage: "self-play",
        seconds: clock.elapsed().as_secs_f64(),
        what: format!(
            "{} at {} per move ({} from the journal)",
            c960_core::plural(outcome.games, "game", "games"),
            selfplay.limit,
            outcome.resumed
        ),
        resumed: outcome.resumed,
    };
    Ok((outcome, time))
}

/// The 960 positions' table as CSV, as `c960 positions` writes it (and a
/// run's and a merge's `positions.csv`).
pub fn write_position_table_csv(out: &mut dyn io::Write) -> io::Result<()> {
    let mut frame = c960_report::features_frame().map_err(io::Error::other)?;
    c960_store::empty_text_as_missing(&mut frame).map_err(io::Error::other)?;
    c960_store::write_csv(out, &mut frame)
}
