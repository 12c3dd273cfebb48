//! Flags shared by the commands that run engines: validated into engine
//! configurations, limits, job counts, run directories and progress bars.

use std::{
    fs,
    num::{NonZero, NonZeroU32, NonZeroUsize},
    path::PathBuf,
    thread,
    time::Duration,
};

use anyhow::{Result, bail};
use c960_engine::{EngineName, EngineSpec, Limit, Resolved, UciOption, uci::UciConfig};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{EngineArgs, InputError, LimitArgs};
use crate::output::say;

/// How a command starts its engines, from its flags
/// ([`EngineArgs::choice`]) or from a `c960 run` plan: one typed struct,
/// so a plan is never turned back into flags.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EngineChoice {
    /// Threads per engine process.
    pub(crate) threads: u32,
    /// Hash per engine process, MiB.
    pub(crate) hash: NonZeroU32,
    /// Engines at once (`None`: one per core).
    pub(crate) jobs: Option<NonZeroUsize>,
    /// Seconds to wait for one search before an engine counts as hung.
    pub(crate) watchdog: Option<f64>,
    /// Say nothing on standard error.
    pub(crate) quiet: bool,
}

impl EngineArgs {
    /// The engine settings of these flags.
    pub(crate) fn choice(&self) -> EngineChoice {
        EngineChoice {
            threads: self.threads,
            hash: self.hash,
            jobs: self.jobs,
            watchdog: self.watchdog,
            quiet: self.quiet,
        }
    }

    /// [`EngineChoice::engine_spec`] for these flags.
    pub(crate) fn engine_spec(
        &self,
        engine: &EngineName,
        options: &[UciOption],
    ) -> Result<EngineSpec> {
        self.choice().engine_spec(engine, options)
    }

    /// [`EngineChoice::jobs`] for these flags.
    pub(crate) fn jobs(&self) -> usize {
        self.choice().jobs()
    }
}

impl EngineChoice {
    /// The engine named by `engine` (see [`EngineName`]) with `options` for
    /// a UCI engine. `auto` says on standard error which engine it chose.
    pub(crate) fn engine_spec(
        &self,
        engine: &EngineName,
        options: &[UciOption],
    ) -> Result<EngineSpec> {
        // Check every flag before saying which engine `auto` chose.
        let watchdog = match self.watchdog {
            Some(secs) if !(secs > 0.0 && secs.is_finite()) => bail!(InputError(format!(
                "--watchdog {secs} must be a positive number of seconds"
            ))),
            Some(secs) => Some(
                Duration::try_from_secs_f64(secs)
                    .map_err(|_| InputError(format!("--watchdog {secs} is too long")))?,
            ),
            None => None,
        };
        self.check_hash()?;
        c960_engine::check_user_options(options).map_err(InputError)?;
        let resolved = engine.resolve().map_err(|e| InputError(e.to_string()))?;
        let mut config = match resolved {
            Resolved::Builtin => {
                if *engine == EngineName::Auto && !self.quiet {
                    say!(
                        "c960: engine auto: no Stockfish installed, using the built-in \
                         engine (apt-get install stockfish, or npm install stockfish@19.0.0, \
                         for research-grade numbers)"
                    );
                }
                return self.builtin(options, watchdog);
            }
            Resolved::Uci(config) => config,
        };
        if *engine == EngineName::Auto && !self.quiet {
            say!("c960: engine auto: {}", describe(&config));
        }
        config.threads = self.threads;
        config.hash_mb = self.hash.get();
        config.options = options.to_vec();
        config.watchdog = watchdog;
        // A missing engine is reported before any run directory is made.
        config.executable().map_err(|e| InputError(e.to_string()))?;
        Ok(EngineSpec::Uci(config))
    }

    /// `--hash` within what this machine can hold: for all engines running
    /// at once, at most the machine's memory (at least 1 MiB is its type).
    fn check_hash(&self) -> Result<()> {
        let engines = self.jobs();
        let total = u64::from(self.hash.get()).saturating_mul(engines as u64);
        if let Some(memory) = memory_mib()
            && total > memory
        {
            let each = if engines > 1 {
                format!(" for each of {engines} engines ({total} MiB in all)")
            } else {
                String::new()
            };
            bail!(InputError(format!(
                "--hash {} MiB{each} is more than this machine's memory ({memory} MiB)",
                self.hash
            )));
        }
        Ok(())
    }

    fn builtin(&self, options: &[UciOption], watchdog: Option<Duration>) -> Result<EngineSpec> {
        if let Some(option) = options.first() {
            bail!(InputError(format!(
                "the built-in engine takes no UCI options (got \"{option}\"); --hash sets its hash"
            )));
        }
        if self.threads != 1 {
            bail!(InputError(
                "the built-in engine searches with one thread".to_owned()
            ));
        }
        Ok(EngineSpec::Builtin {
            hash_mb: self.hash.get() as usize,
            watchdog,
        })
    }

    /// `--jobs`, or the number of cores.
    pub(crate) fn jobs(&self) -> usize {
        self.jobs
            .or_else(|| thread::available_parallelism().ok())
            .map_or(1, NonZero::get)
    }
}

impl EngineArgs {
    /// A progress bar counting `unit`s on standard error, hidden with
    /// `--quiet` (and by indicatif when standard error is not a terminal).
    pub(crate) fn progress_bar(&self, total: u64, unit: &str) -> ProgressBar {
        if self.quiet {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new(total);
        bar.set_style(crate::follow::with_rate(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {unit}  {{rate}}  {{eta}}  {{msg}}"
            ))
            .expect("a valid template"),
        ));
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
            Limit::Clock(_) => false,
        };
        if zero {
            bail!(InputError(format!(
                "the limit must be positive, not {limit}"
            )));
        }
        Ok(limit)
    }
}

/// The memory this process may use, in MiB: the machine's (`MemTotal` in
/// `/proc/meminfo`), or its control group's limit when lower; `None` where
/// neither can be read.
fn memory_mib() -> Option<u64> {
    let total = fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        text.lines()
            .find_map(|line| line.strip_prefix("MemTotal:"))
            .and_then(|rest| rest.trim().strip_suffix("kB"))
            .and_then(|kib| kib.trim().parse::<u64>().ok())
            .map(|kib| kib / 1024)
    });
    let group = fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .map(|bytes| bytes >> 20);
    match (total, group) {
        (Some(t), Some(g)) => Some(t.min(g)),
        (t, g) => t.or(g),
    }
}

/// Which engine `auto` chose, for standard error.
fn describe(config: &UciConfig) -> String {
    match config.args.first() {
        Some(script) => format!(
            "Stockfish from npm, {script} run by {}",
            config.path.display()
        ),
        None => format!("Stockfish at {}", config.path.display()),
    }
}

/// `runs/KIND-ENGINE-LIMIT-SUFFIX`, named after the run's settings.
pub(crate) fn default_out(kind: &str, engine: &EngineSpec, limit: Limit, suffix: &str) -> PathBuf {
    let stem = match engine {
        EngineSpec::Uci(config) => EngineName::Command {
            program: config.path.clone(),
            args: config.args.clone(),
        }
        .stem(),
        EngineSpec::Builtin { .. } => "builtin".to_owned(),
    };
    let limit = limit.to_string().replace(' ', "");
    PathBuf::from("runs").join(format!("{kind}-{stem}-{limit}-{suffix}"))
}
