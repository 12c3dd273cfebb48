//! Engines that die with c960: on Linux every engine process gets a
//! parent-death signal (SIGKILL), so an engine outlives no c960 that is
//! killed at once (SIGKILL, the OOM killer), which no handler can see.
//!
//! The kernel sends that signal when the *thread* that started the child
//! ends, not the process; so every engine is started by one keeper thread
//! that lives as long as the process. The signal is set in the child
//! between `fork` and `exec`, the one place c960 needs `unsafe` (see
//! [`die_with_parent`]). An engine behind a wrapper that does not `exec`
//! (`sh -c`) is the wrapper's child: it is not signalled, and ends when it
//! reads the end of its input, as UCI engines do.

use std::{
    io,
    process::{Child, Command},
    sync::{Mutex, OnceLock, PoisonError, mpsc},
    thread,
};

/// A request to the keeper thread: the command, and where to answer.
type Request = (Command, mpsc::Sender<io::Result<Child>>);

/// Starts `command` from the keeper thread, its process set to die with
/// c960 (on Linux).
pub(super) fn spawn(mut command: Command) -> io::Result<Child> {
    static KEEPER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    die_with_parent(&mut command);
    let keeper = KEEPER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Request>();
        // Never joined: it ends with the process.
        thread::Builder::new()
            .name("c960-engine-keeper".to_owned())
            .spawn(move || {
                for (mut command, answer) in rx {
                    let _ = answer.send(command.spawn());
                }
            })
            .expect("a thread to start engines from");
        Mutex::new(tx)
    });
    let (answer, spawned) = mpsc::channel();
    keeper
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send((command, answer))
        .map_err(|_| io::Error::other("the thread that starts engines is gone"))?;
    spawned
        .recv()
        .map_err(|_| io::Error::other("the thread that starts engines is gone"))?
}

/// Makes the child of `command` receive SIGKILL when its parent ends; a
/// child whose parent ended before that took effect exits at once.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt as _;

    use rustix::process::{Signal, getpid, getppid, set_parent_process_death_signal};

    let parent = getpid();
    // SAFETY: `pre_exec` runs the closure in the child after `fork`, where
    // only async-signal-safe work is sound. It makes two system calls
    // (`prctl`, `getppid`) and returns; it allocates nothing (its error is
    // a raw OS error) and takes no lock.
    unsafe {
        command.pre_exec(move || {
            set_parent_process_death_signal(Some(Signal::KILL))?;
            if getppid() == Some(parent) {
                Ok(())
            } else {
                Err(io::Error::from(rustix::io::Errno::SRCH))
            }
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}
