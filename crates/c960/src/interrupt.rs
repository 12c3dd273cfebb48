//! Stopping a long command: the first Ctrl-C (SIGINT), SIGTERM or SIGHUP
//! asks it to stop cleanly (work in progress finishes and is saved, its
//! engines are stopped), the second quits at once, killing the engines
//! still running first: they run in process groups of their own, which
//! the signal does not reach.

use std::{
    process,
    sync::atomic::{AtomicBool, Ordering},
};

use crate::output::say;

/// Set once the user asked the command to stop.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handler of SIGINT, SIGTERM and SIGHUP; later calls do
/// nothing.
pub(crate) fn install() {
    // The handler only says what it does through `say!`, which never
    // fails: a standard error that cannot be written (a closed terminal or
    // pager, a full disk) must not end the handler's thread, or the second
    // signal would never be handled.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            c960_engine::uci::kill_all();
            say!("\nc960: stopped at once");
            process::exit(130);
        }
        say!(
            "\nc960: stopping after the work in progress (Ctrl-C or another stop signal to quit \
             at once)"
        );
    });
}

/// A long command stopped by Ctrl-C, SIGTERM or SIGHUP; exit code 130.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Interrupted(pub(crate) String);
