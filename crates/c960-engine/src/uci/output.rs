//! The engine's side of the pipe: its output read line by line with a cap
//! on line length, and killing its process group.

use std::{
    io::{BufRead, BufReader, Read},
    process::Child,
    sync::mpsc,
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

/// Kills the process group `child` leads (see the module documentation),
/// then the child itself, and reaps it.
pub(super) fn kill_group(child: &mut Child) {
    if let Some(pid) = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        // The group may already be gone; nothing else to do then.
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}
