//! Jobs over several engines at once, one engine per worker thread.
//!
//! A job whose engine dies (crash, hang, illegal answer) is retried on a
//! fresh engine a bounded number of times; after that it is reported as
//! failed with the last reason and the pool goes on. An engine that cannot
//! be set up at all (not found, not UCI, no Chess960) stops the pool.

use std::{
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
    thread,
};

use crate::EngineError;

/// How a pool runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PoolOptions {
    /// Worker threads, each with its own engine.
    pub workers: usize,
    /// Extra attempts for a job whose engine died.
    pub retries: u32,
}

/// A job that failed on every attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobFailure {
    /// The last error.
    pub reason: String,
    /// How many times it was tried.
    pub attempts: u32,
}

/// What a finished job reports.
#[derive(Debug)]
pub struct Done<R> {
    /// Index of the job in the slice given to [`run`].
    pub index: usize,
    /// Its result, or why it failed.
    pub outcome: Result<R, JobFailure>,
    /// Attempts made (more than 1 when an engine had to be restarted).
    pub attempts: u32,
}

enum Message<R> {
    Done(Done<R>),
    Fatal(EngineError),
}

/// Runs `work` for each of `jobs` on `options.workers` engines made by
/// `start`, calling `on_done` on the calling thread as jobs finish (in
/// completion order). Once `stop` is set, no new job is started; jobs in
/// progress finish. Returns the error of an engine that cannot be set up.
pub fn run<E, J, R>(
    start: &(dyn Fn() -> Result<E, EngineError> + Sync),
    jobs: &[J],
    work: &(dyn Fn(&mut E, &J) -> Result<R, EngineError> + Sync),
    options: PoolOptions,
    stop: &AtomicBool,
    mut on_done: impl FnMut(Done<R>),
) -> Result<(), EngineError>
where
    J: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let fatal: Mutex<Option<EngineError>> = Mutex::new(None);
    // Bounded: when results come faster than `on_done` handles them (it
    // syncs each to disk), workers wait instead of piling results up.
    let (tx, rx) = mpsc::sync_channel::<Message<R>>(options.workers.max(1) * 2);
    thread::scope(|scope| {
        for _ in 0..options.workers.max(1) {
            let tx = tx.clone();
            let (next, abort) = (&next, &abort);
            scope.spawn(move || {
                let mut engine: Option<E> = None;
                while !stop.load(Ordering::SeqCst) && !abort.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(index) else { break };
                    match attempt(start, job, work, options.retries, &mut engine) {
                        Ok((outcome, attempts)) => {
                            let done = Done {
                                index,
                                outcome,
                                attempts,
                            };
                            if tx.send(Message::Done(done)).is_err() {
                                break;
                            }
                        }
                        Err(error) => {
                            abort.store(true, Ordering::SeqCst);
                            let _ = tx.send(Message::Fatal(error));
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Message::Done(done) => on_done(done),
                Message::Fatal(error) => {
                    let mut slot = fatal.lock().expect("no worker panics holding it");
                    slot.get_or_insert(error);
                }
            }
        }
    });
    match fatal.into_inner().expect("no worker panics holding it") {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

type Outcome<R> = (Result<R, JobFailure>, u32);

/// One job with retries. `Err` only for setup errors that stop the pool.
fn attempt<E, J, R>(
    start: &(dyn Fn() -> Result<E, EngineError> + Sync),
    job: &J,
    work: &(dyn Fn(&mut E, &J) -> Result<R, EngineError> + Sync),
    retries: u32,
    engine: &mut Option<E>,
) -> Result<Outcome<R>, EngineError> {
    let mut attempts = 0;
    loop {
        attempts += 1;
        let result = match engine {
            Some(e) => work(e, job),
            None => match start() {
                Ok(mut e) => {
                    let result = work(&mut e, job);
                    *engine = Some(e);
                    result
                }
                Err(error) => Err(error),
            },
        };
        match result {
            Ok(value) => return Ok((Ok(value), attempts)),
            Err(error) if error.is_setup_error() => return Err(error),
            Err(error) => {
                *engine = None;
                if attempts > retries {
                    let failure = JobFailure {
                        reason: error.to_string(),
                        attempts,
                    };
                    return Ok((Err(failure), attempts));
                }
            }
        }
    }
}
