//! What an engine process says besides its answers: the timestamped log of
//! its UCI traffic (when asked for) and the tail of its standard error.

use std::{
    fs,
    io::{self, Read, Write},
    path::{Path, PathBuf},
    sync::Mutex,
    time::Instant,
};

/// One process's UCI traffic: a line per command sent (`>`), line received
/// (`<`) and chunk of standard error (`!`), each after the seconds since
/// the process started. Written line by line, so a crash leaves it whole.
pub(super) struct IoLog {
    pub(super) path: PathBuf,
    file: Mutex<io::LineWriter<fs::File>>,
    started: Instant,
}

impl IoLog {
    pub(super) fn create(dir: &Path, engine: &Path, pid: u32) -> io::Result<IoLog> {
        let stem = engine
            .file_stem()
            .map_or_else(|| "engine".into(), |s| s.to_string_lossy());
        let path = dir.join(format!("{stem}-{pid}.log"));
        let mut file = io::LineWriter::new(fs::File::create(&path)?);
        let unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        writeln!(
            file,
            "# c960 engine log: {} (pid {pid}), started at Unix time {:.3}; then seconds since \
             the start, > sent, < received, ! standard error",
            engine.display(),
            unix.as_secs_f64()
        )?;
        Ok(IoLog {
            path,
            file: Mutex::new(file),
            started: Instant::now(),
        })
    }

    pub(super) fn write(&self, direction: char, text: &str) {
        if let Ok(mut file) = self.file.lock() {
            let at = self.started.elapsed().as_secs_f64();
            for line in text.lines() {
                let _ = writeln!(file, "{at:.6} {direction} {line}");
            }
        }
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
            if pending.len() > super::output::MAX_LINE {
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
