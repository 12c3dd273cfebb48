//! The one progress display of `c960 run`, and what it shows of a run as
//! the library tells it: the start line, each stage's bar, repairs.

use c960_ops::run::{Observer, Start};
use c960_runner::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{follow::Follow, interrupt, output::say};

/// The one progress display of a run: a bar per stage, reused. The bar
/// draws nothing while a stage sets it up, so no frame mixes one stage's
/// count with another's length or unit ("1920/1 games").
pub(super) struct Display {
    bar: ProgressBar,
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

/// A run as `c960 run` shows it: the start line (unless quiet), one bar
/// per stage on the [`Display`], and the lines a repair dropped; a stop
/// signal is handled from just before its engines start.
pub(super) struct Shown<'a> {
    display: &'a Display,
    follow: Follow<'a>,
    quiet: bool,
}

impl<'a> Shown<'a> {
    pub(super) fn new(display: &'a Display, quiet: bool) -> Shown<'a> {
        Shown {
            display,
            follow: Follow::new(&display.bar),
            quiet,
        }
    }
}

impl Observer for Shown<'_> {
    /// Before any engine starts: a stop signal then stops its engines too.
    fn starting(&mut self) {
        interrupt::install();
    }

    fn started(&mut self, start: &Start) {
        if !self.quiet {
            say!("{start}");
        }
    }

    fn stage(&mut self, index: usize, of: usize, name: &str, total: u64, unit: &str) {
        self.display.stage(index, of, name, total, unit);
        self.follow = Follow::new(&self.display.bar);
    }

    fn progress(&mut self, progress: Progress) {
        self.follow.update(progress);
    }

    fn cleared(&mut self) {
        self.display.bar.finish_and_clear();
    }

    fn repaired(&mut self, journal: &std::path::Path, dropped: &[c960_store::DroppedLine]) {
        crate::cmd::sweep::report_repairs(journal, dropped);
    }
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

    /// The display once showed "[1/4] positions 0/0", "1920/1 games"
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
