//! The engine's side of the pipe: its output read line by line with a cap
//! on line length, the tail of its standard error, and killing its process
//! group. Every engine process group that is running is listed, so that a
//! process quitting at once ([`kill_all`]) leaves none behind.

use std::{
    collections::BTreeSet,
    io::{self, BufRead, BufReader, Read},
    process::{Child, Command},
    sync::{Mutex, PoisonError, mpsc},
};

use crate::uci::iolog::IoLog;

/// The longest line an engine may write, in bytes, newline excluded. A
/// UCI line is short (a 250-ply principal variation is under 2 KB); the
/// cap is there to stop an engine that never ends its line.
pub const MAX_LINE: usize = 64 * 1024;

pub(super) enum Event {
    Line(String),
    /// A line longer than [`MAX_LINE`]: the reader stopped there.
    Overlong,
    Eof,
}

/// Reads the engine's output line by line into `tx` (logging each line),
/// until the end, a read error or a line longer than [`MAX_LINE`].
pub(super) fn read_output(stdout: impl Read, tx: &mpsc::Sender<Event>, log: Option<&IoLog>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let event = match read_capped_line(&mut reader, &mut line) {
            Ok(true) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                let text = String::from_utf8_lossy(&line).into_owned();
                if let Some(log) = log {
                    log.write('<', &text);
                }
                Event::Line(text)
            }
            Ok(false) | Err(None) => break,
            Err(Some(())) => {
                if let Some(log) = log {
                    log.write(
                        '!',
                        &format!("a line longer than {MAX_LINE} bytes; stopped"),
                    );
                }
                let _ = tx.send(Event::Overlong);
                return;
            }
        };
        if tx.send(event).is_err() {
            return;
        }
    }
    let _ = tx.send(Event::Eof);
}

/// The next line into `line` (without its newline): `Ok(false)` at the end
/// of the output, `Err(Some(()))` once the line passes [`MAX_LINE`] bytes,
/// `Err(None)` on a read error. A last line without a newline is a line.
fn read_capped_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> Result<bool, Option<()>> {
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(None),
        };
        if buf.is_empty() {
            return Ok(!line.is_empty());
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(end) => (end, true),
            None => (buf.len(), false),
        };
        if line.len() + take > MAX_LINE {
            return Err(Some(()));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(if done { take + 1 } else { take });
        if done {
            return Ok(true);
        }
    }
}

/// The process groups of the engines running, by their leader's id.
static RUNNING: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Spawns `command` (an engine in a process group of its own) and lists
/// its group as running until [`kill_group`].
pub(super) fn spawn_listed(command: Command) -> io::Result<Child> {
    // Listed under the lock: `kill_all` cannot come between the two.
    let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    let child = super::parent_death::spawn(command)?;
    running.insert(child.id());
    Ok(child)
}

/// Kills the process group `child` leads (see the module documentation),
/// then the child itself, and reaps it.
pub(super) fn kill_group(child: &mut Child) {
    signal_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
    RUNNING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&child.id());
}

/// Kills the process group led by `id`; it may already be gone.
fn signal_group(id: u32) {
    if let Some(pid) = i32::try_from(id)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// Kills the process group of every engine still running, for a process
/// about to exit at once (without dropping its engines). An engine runs
/// in a group of its own, so a signal to this process (Ctrl-C, `kill`)
/// does not reach it: without this, a hung engine would outlive c960.
pub fn kill_all() {
    let running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    for &id in running.iter() {
        signal_group(id);
    }
}

/// Keeps the last 8 KiB of what the engine writes to standard error (and
/// logs all of it, if logging).
pub(super) fn collect_stderr(mut pipe: impl Read, sink: &Mutex<String>, log: Option<&IoLog>) {
    let mut buf = [0u8; 4096];
    // The log gets whole lines: an engine may write one line in pieces.
    let mut pending = String::new();
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        if let Some(log) = log {
            pending.push_str(&String::from_utf8_lossy(&buf[..n]));
            if let Some(end) = pending.rfind('\n') {
                log.write('!', &pending[..=end]);
                pending.drain(..=end);
            }
            // Endless text without a newline goes to the log in pieces
            // rather than into memory.
            if pending.len() > MAX_LINE {
                log.write('!', &pending);
                pending.clear();
            }
        }
        if let Ok(mut s) = sink.lock() {
            s.push_str(&String::from_utf8_lossy(&buf[..n]));
            if s.len() > 8192 {
                let cut = s.len() - 8192;
                let cut = (cut..s.len()).find(|i| s.is_char_boundary(*i)).unwrap_or(0);
                s.drain(..cut);
            }
        }
    }
    if let (Some(log), false) = (log, pending.is_empty()) {
        log.write('!', &pending);
    }
}
