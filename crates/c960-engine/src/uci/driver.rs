//! A UCI engine in a child process, behind the [`Engine`] trait.
//!
//! A thread reads the engine's standard output into a channel, so every
//! wait has a deadline: an engine that hangs is killed and reported, never
//! waited on forever. Standard error is collected for crash reports.
//!
//! A line is at most [`MAX_LINE`] bytes: an engine that writes more without
//! a newline is stopped, instead of growing c960's memory until the
//! watchdog acts. Bytes that are not UTF-8 are read as U+FFFD, so an odd
//! `id name` does not hide the rest of the handshake.
//!
//! The engine runs in a process group of its own, and stopping it kills the
//! whole group: an engine started by a wrapper script that does not `exec`
//! is the wrapper's child, and killing the wrapper alone would leave it
//! searching.

use std::{
    collections::BTreeMap,
    io::Write,
    os::unix::process::CommandExt as _,
    path::Path,
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        Arc, Mutex,
        mpsc::{self, Receiver, RecvTimeoutError},
    },
    thread,
    time::{Duration, Instant},
};

use shakmaty::{Chess, Move, Position, uci::UciMove};

use crate::{
    Engine, EngineError, EngineInfo, GamePosition, Line, Search, SearchResult,
    types::shredder_fen,
    uci::{
        config::{CONTEMPT_OPTIONS, UciConfig, resolve},
        identity::{packaged_script, runtime_of},
        iolog::IoLog,
        output::{Event, MAX_LINE, collect_stderr, kill_group, read_output, spawn_listed},
        parse::{EngineLine, Info, OptionDecl, parse_line},
    },
};

mod limits;
mod network;

/// A running UCI engine.
pub struct UciEngine {
    config: UciConfig,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    stderr: Arc<Mutex<String>>,
    info: EngineInfo,
    offered: BTreeMap<String, OptionDecl>,
    multipv: u32,
    /// Set while trying which limits the engine honours.
    probing: bool,
    log: Option<Arc<IoLog>>,
}

impl UciEngine {
    /// Starts the engine, completes the handshake and sets the options:
    /// `Threads`, `Hash`, `UCI_Chess960=true` (required), `UCI_ShowWDL=true`
    /// when offered, each of [`CONTEMPT_OPTIONS`] it offers at 0 unless
    /// configured, then the configured extra options.
    pub fn start(config: &UciConfig) -> Result<UciEngine, EngineError> {
        let path = resolve(&config.path)?;
        let mut command = Command::new(&path);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = spawn_listed(command).map_err(|e| EngineError::Spawn {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let log = match &config.log_dir {
            Some(dir) => match IoLog::create(dir, &path, child.id()) {
                Ok(log) => Some(Arc::new(log)),
                Err(e) => {
                    kill_group(&mut child);
                    return Err(EngineError::Spawn {
                        path,
                        reason: format!("cannot write its log in {}: {e}", dir.display()),
                    });
                }
            },
            None => None,
        };
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");

        let (tx, events) = mpsc::channel();
        let reader_log = log.clone();
        thread::spawn(move || read_output(stdout, &tx, reader_log.as_deref()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        let stderr_log = log.clone();
        thread::spawn(move || collect_stderr(stderr_pipe, &sink, stderr_log.as_deref()));

        let mut info = EngineInfo {
            name: path.display().to_string(),
            path: path.display().to_string(),
            args: config.args.clone(),
            runtime: runtime_of(&path),
            ..EngineInfo::default()
        };
        // A script from a package is recorded as its place in the package,
        // and its runtime by name: no path of this machine.
        if let Some(packaged) = packaged_script(&config.args) {
            info.args.remove(packaged.index);
            if let Some(name) = path.file_name().filter(|_| info.runtime.is_some()) {
                info.path = name.to_string_lossy().into_owned();
            }
            info.package = Some(packaged.package);
            info.script = Some(packaged.script);
            info.network = packaged.network;
        }
        let mut engine = UciEngine {
            config: config.clone(),
            child,
            stdin,
            events,
            stderr,
            info,
            offered: BTreeMap::new(),
            multipv: 1,
            probing: false,
            log,
        };
        engine.handshake(&path)?;
        engine.configure()?;
        engine.name_network()?;
        Ok(engine)
    }

    /// The file its UCI traffic is logged to, if logging.
    #[must_use]
    pub fn log_path(&self) -> Option<&Path> {
        self.log.as_deref().map(|l| l.path.as_path())
    }

    /// The options the engine offered in its handshake, by name.
    #[must_use]
    pub fn offered_options(&self) -> &BTreeMap<String, OptionDecl> {
        &self.offered
    }

    fn handshake(&mut self, path: &Path) -> Result<(), EngineError> {
        let not_uci = |reason: String| EngineError::NotUci {
            path: path.to_owned(),
            reason,
        };
        if let Some(log) = &self.log {
            log.write('>', "uci");
        }
        if self.stdin.write_all(b"uci\n").is_err() || self.stdin.flush().is_err() {
            let status = self.exit_status();
            return Err(not_uci(format!("it exited at once ({status})")));
        }
        let deadline = Instant::now() + self.config.handshake_timeout;
        loop {
            match self.next_event(deadline) {
                Ok(Event::Line(line)) => match parse_line(&line) {
                    Ok(EngineLine::UciOk) => return Ok(()),
                    Ok(EngineLine::IdName(name)) => self.info.name = name,
                    Ok(EngineLine::IdAuthor(author)) => self.info.author = Some(author),
                    Ok(EngineLine::Option(decl)) => {
                        self.offered.insert(decl.name.clone(), decl);
                    }
                    _ => {}
                },
                Ok(Event::Overlong) => {
                    self.kill();
                    return Err(not_uci(format!(
                        "it wrote a line longer than {MAX_LINE} bytes before uciok"
                    )));
                }
                Ok(Event::Eof) => {
                    let status = self.exit_status();
                    let stderr = self.stderr_text();
                    let detail = if stderr.trim().is_empty() {
                        String::new()
                    } else {
                        format!("; stderr: {}", stderr.trim().lines().last().unwrap_or(""))
                    };
                    return Err(not_uci(format!(
                        "it exited ({status}) without uciok{detail}"
                    )));
                }
                Err(()) => {
                    self.kill();
                    return Err(not_uci(format!(
                        "no uciok within {}s",
                        self.config.handshake_timeout.as_secs_f64()
                    )));
                }
            }
        }
    }

    fn configure(&mut self) -> Result<(), EngineError> {
        if !self.offered.contains_key("UCI_Chess960") {
            self.kill();
            return Err(EngineError::NoChess960 {
                name: self.info.name.clone(),
            });
        }
        if self.offered.contains_key("Threads") {
            self.set_option("Threads", &self.config.threads.to_string())?;
        } else if self.config.threads != 1 {
            return Err(self.option_error("it offers no Threads option"));
        }
        if self.offered.contains_key("Hash") {
            self.set_option("Hash", &self.config.hash_mb.to_string())?;
        }
        self.set_option("UCI_Chess960", "true")?;
        if self.offered.contains_key("UCI_ShowWDL") {
            self.set_option("UCI_ShowWDL", "true")?;
            self.info.wdl = Some(crate::WdlReport {
                reported: false,
                model: format!("{}'s built-in WDL model, UCI_ShowWDL", self.info.name),
            });
        }
        for name in CONTEMPT_OPTIONS {
            let configured = self.config.options.iter().any(|o| o.name == name);
            if !configured && self.offered.contains_key(name) {
                self.set_option(name, "0")?;
            }
        }
        for crate::UciOption { name, value } in self.config.options.clone() {
            if !self.offered.contains_key(&name) {
                return Err(self.option_error(&format!("it offers no option {name:?}")));
            }
            self.set_option(&name, &value)?;
            if name == "MultiPV" {
                self.multipv = value.parse().unwrap_or(1);
            }
        }
        self.sync("setting options")
    }

    fn option_error(&mut self, reason: &str) -> EngineError {
        self.kill();
        EngineError::Option {
            name: self.info.name.clone(),
            reason: reason.to_owned(),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        if let Some(reason) = self.offered.get(name).and_then(|d| d.refuses(value)) {
            return Err(self.option_error(&format!("option {name}={value} {reason}")));
        }
        self.send(
            &format!("setoption name {name} value {value}"),
            "setting options",
        )?;
        if let Some(slot) = self.info.options.iter_mut().find(|(n, _)| n == name) {
            value.clone_into(&mut slot.1);
        } else {
            self.info.options.push((name.to_owned(), value.to_owned()));
        }
        Ok(())
    }

    /// `isready`, then waits for `readyok`.
    fn sync(&mut self, phase: &str) -> Result<(), EngineError> {
        self.send("isready", phase)?;
        let waited = self.config.handshake_timeout;
        let deadline = Instant::now() + waited;
        loop {
            if self.wait_line(deadline, waited, phase)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    fn send(&mut self, command: &str, phase: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.write('>', command);
        }
        let written = self
            .stdin
            .write_all(command.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        if written.is_err() {
            return Err(self.crashed(phase));
        }
        Ok(())
    }

    /// The next line, or the reason there is none. `waited` is the length
    /// of the whole wait, for the report when the deadline passes.
    fn wait_line(
        &mut self,
        deadline: Instant,
        waited: Duration,
        phase: &str,
    ) -> Result<String, EngineError> {
        match self.next_event(deadline) {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::Overlong) => {
                self.kill();
                Err(EngineError::Protocol {
                    name: self.info.name.clone(),
                    reason: format!(
                        "it wrote a line longer than {MAX_LINE} bytes while {phase}; it was stopped"
                    ),
                })
            }
            Ok(Event::Eof) => Err(self.crashed(phase)),
            Err(()) => {
                self.kill();
                Err(EngineError::Timeout {
                    name: self.info.name.clone(),
                    phase: phase.to_owned(),
                    waited,
                })
            }
        }
    }

    fn next_event(&self, deadline: Instant) -> Result<Event, ()> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(event) => Ok(event),
            Err(RecvTimeoutError::Disconnected) => Ok(Event::Eof),
            Err(RecvTimeoutError::Timeout) => Err(()),
        }
    }

    fn crashed(&mut self, phase: &str) -> EngineError {
        let status = self.exit_status();
        EngineError::Crashed {
            name: self.info.name.clone(),
            phase: phase.to_owned(),
            status,
            stderr: self.stderr_text(),
        }
    }

    /// Waits briefly for the process to end and describes how it ended.
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    self.kill();
                    return "closed its output but kept running; killed".to_owned();
                }
                Err(e) => return format!("status unknown: {e}"),
            }
        }
    }

    fn stderr_text(&self) -> String {
        // Give the collector a moment to read what a dying process wrote.
        thread::sleep(Duration::from_millis(20));
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn kill(&mut self) {
        kill_group(&mut self.child);
    }

    fn convert(
        &self,
        position: &Chess,
        uci: &str,
        what: &'static str,
    ) -> Result<Move, EngineError> {
        UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|m| m.to_move(position).ok())
            .ok_or_else(|| EngineError::IllegalMove {
                name: self.info.name.clone(),
                what,
                uci: uci.to_owned(),
                fen: shredder_fen(position),
            })
    }

    /// Sets the engine's `MultiPV` to `multipv` where it differs; refuses
    /// more than one line from an engine that offers no `MultiPV`.
    fn ensure_multipv(&mut self, multipv: u32) -> Result<(), EngineError> {
        if multipv != self.multipv {
            if multipv > 1 && !self.offered.contains_key("MultiPV") {
                return Err(EngineError::Option {
                    name: self.info.name.clone(),
                    reason: "it offers no MultiPV option".to_owned(),
                });
            }
            self.set_option("MultiPV", &multipv.to_string())?;
            self.sync("setting MultiPV")?;
            self.multipv = multipv;
        }
        Ok(())
    }

    fn line_from(&self, position: &Chess, info: &Info) -> Result<Line, EngineError> {
        let mut pos = position.clone();
        let mut pv = Vec::with_capacity(info.pv.len());
        for uci in &info.pv {
            let m = self.convert(&pos, uci, "pv")?;
            pos.play_unchecked(m);
            pv.push(m);
        }
        Ok(Line {
            multipv: info.multipv.unwrap_or(1),
            depth: info.depth.unwrap_or(0),
            seldepth: info.seldepth,
            score: info.score.expect("only scored lines are kept"),
            bound: info.bound,
            wdl: info.wdl,
            pv,
        })
    }
}

impl std::fmt::Debug for UciEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UciEngine")
            .field("info", &self.info)
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl Engine for UciEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame", "starting a new game")?;
        self.sync("starting a new game")
    }

    fn search(
        &mut self,
        position: &GamePosition,
        search: Search,
    ) -> Result<SearchResult, EngineError> {
        self.ensure_multipv(search.multipv)?;
        let phase = format!("searching ({})", search.limit);
        self.send(&position.to_uci(), &phase)?;
        self.send(&format!("go {}", search.limit.to_uci()), &phase)?;
        let sent = Instant::now();
        let watchdog = self
            .config
            .watchdog
            .unwrap_or_else(|| search.limit.watchdog());
        let deadline = Instant::now() + watchdog;

        let current = position.current();
        let mut latest: BTreeMap<u32, Info> = BTreeMap::new();
        let mut nodes = None;
        let mut time_ms = None;
        loop {
            let line = self.wait_line(deadline, watchdog, &phase)?;
            if line.starts_with("info string") {
                self.note_network(&line);
            }
            match parse_line(&line) {
                Ok(EngineLine::Info(info)) => {
                    nodes = info.nodes.or(nodes);
                    time_ms = info.time_ms.or(time_ms);
                    if info.score.is_some() && !info.pv.is_empty() {
                        latest.insert(info.multipv.unwrap_or(1), info);
                    }
                }
                Ok(EngineLine::BestMove { best, ponder }) => {
                    let Some(best) = best else {
                        return Err(EngineError::NoMove {
                            name: self.info.name.clone(),
                            fen: shredder_fen(current),
                        });
                    };
                    let best_move = self.convert(current, &best, "bestmove")?;
                    let ponder = match ponder {
                        Some(p) => {
                            let mut after = current.clone();
                            after.play_unchecked(best_move);
                            // A bad ponder move is not worth failing a search for.
                            self.convert(&after, &p, "ponder").ok()
                        }
                        None => None,
                    };
                    let lines = latest
                        .values()
                        .filter(|info| info.multipv.unwrap_or(1) <= search.multipv)
                        .map(|info| self.line_from(current, info))
                        .collect::<Result<Vec<_>, _>>()?;
                    if let Some(wdl) = self.info.wdl.as_mut() {
                        wdl.reported |= lines.iter().any(|l| l.wdl.is_some());
                    }
                    let result = SearchResult {
                        turn: current.turn(),
                        best_move,
                        ponder,
                        lines,
                        nodes,
                        time: time_ms.map(Duration::from_millis),
                        elapsed: sent.elapsed(),
                    };
                    return self.checked(position, search, result);
                }
                Ok(_) => {}
                Err(e) => {
                    return Err(EngineError::Protocol {
                        name: self.info.name.clone(),
                        reason: e.to_string(),
                    });
                }
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Some(log) = &self.log {
            log.write('>', "quit");
        }
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Also when it quit: a wrapper's children may still be running.
        self.kill();
    }
}
