//! The one progress and interrupt path of every command that runs engine
//! work: `c960 sweep`, `c960 selfplay` and the stages of `c960 run` follow
//! a run's [`Progress`] on a bar the same way, and a run stopped by Ctrl-C
//! ends with the same error (exit 130) saying what is saved and how to
//! resume.

use std::path::Path;

use c960_runner::Progress;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use crate::interrupt::Interrupted;

/// Follows a run's progress on a bar.
pub(crate) struct Follow<'a> {
    bar: &'a ProgressBar,
    first: bool,
    planned: u64,
}

impl<'a> Follow<'a> {
    pub(crate) fn new(bar: &'a ProgressBar) -> Follow<'a> {
        Follow {
            bar,
            first: true,
            planned: 0,
        }
    }

    /// Shows `p`: the run's own total (a shard's part; adaptive rounds add
    /// units as they are decided), the units done, and failures.
    pub(crate) fn update(&mut self, p: Progress) {
        if self.bar.length() != Some(p.total) {
            self.bar.set_length(p.total);
        }
        self.planned = if self.first {
            p.total
        } else {
            self.planned.max(p.total)
        };
        self.bar.set_position(p.done);
        if self.first {
            // Units from the journal are not this run's speed.
            self.bar.reset_eta();
            self.first = false;
        }
        if p.failed > 0 {
            self.bar.set_message(format!("{} failed", p.failed));
        }
    }

    /// The units the run planned, as last reported.
    pub(crate) fn planned(&self) -> u64 {
        self.planned
    }
}

/// `style` with the key `{rate}`: units a second, whole above 100 and with
/// one decimal below (indicatif's `{per_sec}` prints four decimals), and
/// nothing until there is a rate (a stage done at once, or taken whole
/// from its journal, has none worth showing); and the key `{eta}`: the
/// time left, shown only once a unit of this run has finished (indicatif's
/// own says `0s` before any has).
pub(crate) fn with_rate(style: ProgressStyle) -> ProgressStyle {
    style
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let rate = state.per_sec();
                let shown = state.elapsed().as_secs_f64() >= 1.0 && rate.is_finite() && rate > 0.0;
                let _ = match (shown, rate >= 100.0) {
                    (false, _) => Ok(()),
                    (true, true) => write!(w, "{rate:.0}/s"),
                    (true, false) => write!(w, "{rate:.1}/s"),
                };
            },
        )
        .with_key(
            "eta",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let rate = state.per_sec();
                if rate.is_finite() && rate > 0.0 {
                    let _ = write!(w, "ETA {:#}", indicatif::HumanDuration(state.eta()));
                }
            },
        )
}

/// The error of a run stopped by Ctrl-C (exit 130): `saved` of `planned`
/// units are in `journal`, and the same command resumes. `during` names
/// the stage of a multi-stage run (" during the sweep"), or is empty.
pub(crate) fn interrupted(
    during: &str,
    saved: u64,
    planned: u64,
    unit: &str,
    journal: &Path,
) -> anyhow::Error {
    Interrupted(format!(
        "interrupted{during}: {saved} of {planned} {unit} are saved in {}; run the same command \
         again to resume",
        journal.display()
    ))
    .into()
}

#[cfg(test)]
mod tests {
    use std::{
        sync::{Arc, Mutex},
        time::Duration,
    };

    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

    /// A terminal that keeps what was drawn on it.
    #[derive(Clone, Debug, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.trim().is_empty() {
                self.0.lock().unwrap().push(s.trim().to_owned());
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Screen {
        fn last(&self) -> String {
            self.0.lock().unwrap().last().cloned().unwrap_or_default()
        }
    }

    #[test]
    fn no_eta_is_shown_before_a_unit_of_this_run_finished() {
        let screen = Screen::default();
        let bar = ProgressBar::with_draw_target(
            Some(10),
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        bar.set_style(super::with_rate(
            ProgressStyle::with_template("{pos}/{len} [{eta}]").unwrap(),
        ));
        let mut follow = super::Follow::new(&bar);
        // Three units from the journal, none searched yet.
        follow.update(c960_runner::Progress {
            done: 3,
            failed: 0,
            total: 10,
            resumed: 3,
        });
        bar.force_draw();
        assert_eq!(screen.last(), "3/10 []");
        std::thread::sleep(Duration::from_millis(200));
        follow.update(c960_runner::Progress {
            done: 4,
            failed: 0,
            total: 10,
            resumed: 3,
        });
        bar.force_draw();
        let shown = screen.last();
        assert!(
            shown.starts_with("4/10 [ETA ") && shown.ends_with("s]"),
            "{shown}"
        );
    }
}
