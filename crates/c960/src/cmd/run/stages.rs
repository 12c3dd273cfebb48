//! The stages of a run, each with its line in the summary: the position
//! table, the sweep and self-play, under one progress display.

use std::{num::NonZeroU32, path::Path, time::Instant};

use anyhow::{Context, Result, bail};
use c960_selfplay::SelfplayConfig;
use c960_sweep::SweepConfig;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
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

/// The one progress display of a run: a bar per stage, reused. The bar
/// draws nothing while a stage sets it up, so no frame mixes one stage's
/// count with another's length or unit ("1920/1 games").
pub(super) struct Display {
    pub(super) bar: ProgressBar,
    /// Where the bar draws once a stage is set up (`None`: quiet).
    target: Option<fn() -> ProgressDrawTarget>,
}

impl Display {
    pub(super) fn new(quiet: bool) -> Display {
        Display::drawing_to((!quiet).then_some(ProgressDrawTarget::stderr as fn() -> _))
    }

    fn drawing_to(target: Option<fn() -> ProgressDrawTarget>) -> Display {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        bar.set_style(crate::follow::with_rate(
            ProgressStyle::with_template("{prefix:>16} {bar:32} {pos}/{len} {msg}  {rate}  {eta}")
                .expect("a valid template"),
        ));
        Display { bar, target }
    }

    pub(super) fn stage(&self, index: usize, of: usize, name: &str, total: u64, unit: &str) {
        self.bar.set_draw_target(ProgressDrawTarget::hidden());
        self.bar.set_prefix(format!("[{index}/{of}] {name}"));
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.set_message(unit.to_owned());
        self.bar.reset();
        if let Some(target) = self.target {
            self.bar.set_draw_target(target());
        }
    }
}

/// Stage 1: the position table, as `c960 positions` writes it.
pub(super) fn write_positions(out: &Path, display: &Display, stages: usize) -> Result<StageTime> {
    let clock = Instant::now();
    display.stage(1, stages, "positions", 960, "positions");
    c960_store::write_atomically(&out.join("positions.csv"), |out| {
        crate::cmd::positions::write_position_table_csv(out)
    })?;
    display.bar.set_position(960);
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
    display: &Display,
    stages: usize,
) -> Result<(c960_sweep::SweepOutcome, StageTime)> {
    let clock = Instant::now();
    let name = rater.map_or_else(|| "sweep".to_owned(), |(i, of)| format!("sweep {i}/{of}"));
    display.stage(2, stages, &name, sweep.searches(), "searches");
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
    display: &Display,
    stages: usize,
) -> Result<(c960_selfplay::SelfplayOutcome, StageTime)> {
    let clock = Instant::now();
    let total = selfplay.games();
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

#[cfg(test)]
mod tests {
    use std::{
        io,
        sync::{Arc, LazyLock, Mutex},
    };

    use indicatif::{ProgressDrawTarget, TermLike};

    use super::Display;

    /// A terminal that keeps every line drawn on it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            if !s.trim().is_empty() {
                self.0.lock().unwrap().push(s.to_owned());
            }
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    static SCREEN: LazyLock<Screen> = LazyLock::new(Screen::default);

    fn screen() -> ProgressDrawTarget {
        ProgressDrawTarget::term_like(Box::new(SCREEN.clone()))
    }

    /// Issue 29: the display showed "[1/4] positions 0/0", "1920/1 games"
    /// between stages and rates such as "51,403.7172/s".
    #[test]
    fn the_progress_display_never_mixes_stages_or_prints_long_rates() {
        let display = Display::drawing_to(Some(screen as fn() -> _));
        display.stage(1, 4, "positions", 960, "positions");
        display.bar.set_position(960);
        display.stage(3, 4, "self-play", 1920, "games");
        display.bar.set_position(1920);
        display.stage(4, 4, "report", 1, "site");
        display.bar.set_position(1);
        let lines = SCREEN.0.lock().unwrap().clone();
        assert!(
            lines.iter().any(|l| l.contains("[4/4] report")),
            "{lines:?}"
        );
        for line in &lines {
            assert!(!line.contains(" 0/0 "), "{line}");
            assert!(!line.contains("1920/1 "), "{line}");
            assert!(!line.contains("report") || line.contains("site"), "{line}");
            let decimals = line
                .split_whitespace()
                .filter_map(|w| w.strip_suffix("/s"))
                .filter_map(|r| r.split_once('.'))
                .any(|(_, fraction)| fraction.len() > 1);
            assert!(!decimals, "{line}");
        }
    }
}
