//! A sweep ready to run ([`Prepared`]): the engine started and checked,
//! the journal opened and read; it evaluates what is left on the pool and
//! journals each search as it finishes.

use std::{collections::BTreeMap, sync::atomic::AtomicBool};

use c960_core::{SearchKey, Setup, Variant};
use c960_engine::{
    AnyEngine, Engine, EngineInfo, EngineSpec, GamePosition, Search, pool::PoolOptions,
};
use c960_runner::{Flow, Spare, run_journaled};
use c960_store::{DroppedLine, FailedPosition, Journal, RunDir, Validation};

use crate::{
    Entry, JOURNAL_FILE, OUTPUT_FILES, Reply, Settings, SweepConfig, SweepError, SweepRow,
    check_config, validate,
};

/// A sweep ready to run: the engine checked, the journal open and read.
pub(crate) struct Prepared {
    pub(crate) variant: Variant,
    pub(crate) engine: EngineInfo,
    /// The engine started to identify the run, until a worker takes it.
    pub(crate) spare: Spare<AnyEngine>,
    pub(crate) engine_config: EngineSpec,
    pub(crate) journal: Journal<Entry>,
    pub(crate) done: BTreeMap<SearchKey, SweepRow>,
    pub(crate) repaired: Vec<DroppedLine>,
}

impl Prepared {
    pub(crate) fn new(
        config: &SweepConfig,
        dir: &RunDir,
        started: Option<AnyEngine>,
    ) -> Result<Prepared, SweepError> {
        let variant = check_config(config)?;
        // Outputs that cannot be replaced are refused before any work.
        dir.check_outputs(&OUTPUT_FILES)?;
        let engine_config = config.engine.with_multipv(config.multipv.get());
        // Start one engine up front (or take the caller's): a wrong engine
        // is reported before any work, its identity and options label the
        // journal, and the first worker searches with it.
        let started = match started {
            Some(engine) => engine,
            None => engine_config.start()?,
        };
        let engine = started.info().clone();
        let settings = Settings {
            engine: &engine.name,
            engine_path: &engine.path,
            engine_args: &engine.args,
            engine_package: engine.package.as_deref(),
            engine_script: engine.script.as_deref(),
            engine_network: engine.network.as_ref(),
            engine_options: &engine.options,
            limit: config.limit,
            multipv: config.multipv,
            repeats: config.repeats.is_repeated().then_some(config.repeats),
            variant,
            reply: config.reply,
        };
        let (limit, plan, reply) = (config.limit, config.repeats, config.reply);
        let validation = Validation {
            check: Box::new(move |entry: &Entry| {
                validate::check_entry(entry, limit, &plan, variant, reply)
            }),
            key: Box::new(validate::entry_key),
        };
        let path = config.out.join(JOURNAL_FILE);
        let repaired = if config.repair {
            Journal::repair(&path, &validation)?
        } else {
            Vec::new()
        };
        let (journal, entries) = Journal::<Entry>::open_checked(&path, &settings, &validation)?;
        let done = entries
            .into_iter()
            .filter_map(|entry| match entry {
                Entry::Done(row) => Some((row.key(), *row)),
                Entry::Failed(_) => None,
            })
            .collect();
        Ok(Prepared {
            variant,
            engine,
            spare: Spare::new(started),
            engine_config,
            journal,
            done,
            repaired,
        })
    }

    /// Evaluates `todo` on the pool, journaling each position as it
    /// finishes; `on_finished(failed, evaluated)` (counts so far) follows
    /// each.
    /// Returns the positions that failed.
    pub(crate) fn evaluate(
        &mut self,
        config: &SweepConfig,
        todo: &[(Setup, u32)],
        stop: &AtomicBool,
        mut on_finished: impl FnMut(usize, usize),
    ) -> Result<Vec<FailedPosition>, SweepError> {
        let (limit, plan) = (config.limit, config.repeats);
        let engine_config = &self.engine_config;
        let spare = &self.spare;
        // The identifying engine first, then new ones.
        let start = || match spare.take() {
            Some(engine) => Ok(engine),
            None => engine_config.start(),
        };
        let work = |engine: &mut AnyEngine, (sp, repeat): &(Setup, u32)| {
            let search = Search {
                limit: plan.limit(limit, sp.id(), *repeat),
                multipv: config.multipv.get(),
            };
            engine.new_game()?;
            let start = GamePosition::new(sp.to_position());
            let result = engine.search(&start, search)?;
            let row = SweepRow::new(*sp, engine.info(), limit, &result)
                .for_repeat(*repeat, plan.budget(limit, sp.id(), *repeat));
            if !config.reply {
                return Ok(row);
            }
            // Black's reply: the position after the best move, searched as
            // the start was, from a cleared hash.
            let mut after = start;
            after
                .push(result.best_move)
                .map_err(|m| c960_engine::EngineError::Protocol {
                    name: engine.info().name.clone(),
                    reason: format!("best move {m:?} is not legal"),
                })?;
            engine.new_game()?;
            let reply = engine.search(&after, search)?;
            Ok(row.with_reply(Reply::new(after.current(), &reply)))
        };
        let mut failed: BTreeMap<SearchKey, FailedPosition> = BTreeMap::new();
        let mut evaluated = 0;
        let done = &mut self.done;
        run_journaled(
            &mut self.journal,
            &start,
            todo,
            &work,
            PoolOptions {
                workers: config.jobs,
                retries: config.retries,
            },
            stop,
            |finished, journal| {
                let (position, repeat) = todo[finished.index];
                let key = SearchKey::new(position.id(), repeat);
                // A failed search is journaled too: the run's outputs list
                // it until a later run retries it.
                let entry = match finished.outcome {
                    Ok(row) => Entry::Done(Box::new(row)),
                    Err(failure) => Entry::Failed(FailedPosition {
                        sp: position.id(),
                        repeat,
                        reason: failure.reason,
                        attempts: failure.attempts,
                    }),
                };
                if !journal.append(&entry) {
                    return Flow::Halt;
                }
                match entry {
                    Entry::Done(row) => {
                        done.insert(key, *row);
                        evaluated += 1;
                    }
                    Entry::Failed(f) => {
                        failed.insert(key, f);
                    }
                }
                on_finished(failed.len(), evaluated);
                Flow::Go
            },
        )?;
        Ok(failed.into_values().collect())
    }
}
