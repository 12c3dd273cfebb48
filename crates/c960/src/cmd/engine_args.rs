//! Flags shared by the commands that run engines: validated into engine
//! configurations, limits, job counts, run directories and progress bars.

use std::{num::NonZero, path::PathBuf, thread, time::Duration};

use anyhow::{Result, bail};
use c960_engine::{
    Limit,
    uci::{UciConfig, find_stockfish},
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{EngineArgs, InputError, LimitArgs};

impl EngineArgs {
    /// The configuration for the engine at `engine` (a path, a name on
    /// PATH, or `stockfish`, also looked for in /usr/games).
    pub(crate) fn uci_config(&self, engine: &str) -> Result<UciConfig> {
        let path = if engine == "stockfish" {
            find_stockfish().unwrap_or_else(|| PathBuf::from("stockfish"))
        } else {
            PathBuf::from(engine)
        };
        let mut config = UciConfig::new(path);
        config.threads = self.threads;
        config.hash_mb = self.hash;
        for option in &self.options {
            let Some((name, value)) = option.split_once('=') else {
                bail!(InputError(format!("--option {option:?} is not NAME=VALUE")));
            };
            config
                .options
                .push((name.trim().to_owned(), value.trim().to_owned()));
        }
        if let Some(secs) = self.watchdog {
            if !(secs > 0.0 && secs.is_finite()) {
                bail!(InputError(format!(
                    "--watchdog {secs} must be a positive number of seconds"
                )));
            }
            config.watchdog = Some(Duration::from_secs_f64(secs));
        }
        Ok(config)
    }

    /// `--jobs`, or the number of cores.
    pub(crate) fn jobs(&self) -> Result<usize> {
        match self.jobs {
            Some(0) => bail!(InputError("--jobs must be at least 1".to_owned())),
            Some(jobs) => Ok(jobs),
            None => Ok(thread::available_parallelism().map_or(1, NonZero::get)),
        }
    }

    /// A progress bar counting `unit`s on standard error, hidden with
    /// `--quiet` (and by indicatif when standard error is not a terminal).
    pub(crate) fn progress_bar(&self, total: u64, unit: &str) -> ProgressBar {
        if self.quiet {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {unit}  {{per_sec}}  ETA {{eta}}  {{msg}}"
            ))
            .expect("a valid template"),
        );
        bar
    }
}

impl LimitArgs {
    /// The limit given, or `default`; zero is refused.
    pub(crate) fn limit(&self, default: Limit) -> Result<Limit> {
        let limit = match (self.depth, self.nodes, self.movetime) {
            (Some(d), _, _) => Limit::Depth(d),
            (_, Some(n), _) => Limit::Nodes(n),
            (_, _, Some(ms)) => Limit::MoveTime(ms),
            (None, None, None) => default,
        };
        let zero = match limit {
            Limit::Depth(d) => d == 0,
            Limit::Nodes(n) | Limit::MoveTime(n) => n == 0,
        };
        if zero {
            bail!(InputError(format!(
                "the limit must be positive, not {limit}"
            )));
        }
        Ok(limit)
    }
}

/// `runs/KIND-ENGINE-LIMIT-SUFFIX`, named after the run's settings.
pub(crate) fn default_out(kind: &str, engine: &UciConfig, limit: Limit, suffix: &str) -> PathBuf {
    let stem = engine
        .path
        .file_stem()
        .map_or_else(|| "engine".into(), |s| s.to_string_lossy().into_owned());
    let limit = limit.to_string().replace(' ', "");
    PathBuf::from("runs").join(format!("{kind}-{stem}-{limit}-{suffix}"))
}
