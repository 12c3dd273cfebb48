//! The timestamped log of an engine process's UCI traffic (when asked for).

use std::{
    fs,
    io::{self, Write},
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
