//! Ctrl-C: the first press asks long commands to stop cleanly (work in
//! progress finishes and is saved), the second quits at once.

use std::{
    process,
    sync::atomic::{AtomicBool, Ordering},
};

/// Set once the user pressed Ctrl-C.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handler; later calls do nothing.
pub(crate) fn install() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("\nc960: stopped at once");
            process::exit(130);
        }
        eprintln!("\nc960: stopping after the work in progress (Ctrl-C again to quit at once)");
    });
}

/// A long command stopped by Ctrl-C; exit code 130.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Interrupted(pub(crate) String);
