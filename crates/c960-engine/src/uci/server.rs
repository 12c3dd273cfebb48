//! The built-in engine as a UCI engine: reads commands, answers on the
//! output. Searches run on a thread so that `stop` and `isready` are
//! answered at once. With `UCI_Chess960` on, castling is written as king
//! takes rook; both notations are read.

use std::{
    io::{self, BufRead, Write},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    thread::{self, JoinHandle},
};

use shakmaty::{CastlingMode, Chess, Color, Move, Position, fen::Fen, uci::UciMove};

use crate::{
    GamePosition, Limit, Score, Search,
    builtin::{self, BuiltinEngine, Iteration, to_score},
};

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

struct Session {
    engine: Arc<Mutex<BuiltinEngine>>,
    stop: Arc<AtomicBool>,
    out: Output,
    position: GamePosition,
    hash_mb: usize,
    multipv: u32,
    chess960: bool,
    search: Option<JoinHandle<()>>,
}

/// Serves UCI on `input` and `output` until `quit` or the end of input.
pub fn serve(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut engine = BuiltinEngine::new(16);
    engine.set_stop_flag(Arc::clone(&stop));
    let mut session = Session {
        engine: Arc::new(Mutex::new(engine)),
        stop,
        out: Arc::new(Mutex::new(Box::new(output))),
        position: GamePosition::new(Chess::default()),
        hash_mb: 16,
        multipv: 1,
        chess960: false,
        search: None,
    };
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => session.say(&format!(
                "id name {}\nid author the c960 developers\n\
                 option name Hash type spin default 16 min 1 max 4096\n\
                 option name MultiPV type spin default 1 min 1 max 256\n\
                 option name UCI_Chess960 type check default false\n\
                 uciok",
                builtin::NAME
            ))?,
            Some("isready") => session.say("readyok")?,
            Some("setoption") => session.set_option(&words)?,
            Some("ucinewgame") => {
                session.finish_search();
                session.lock_engine().searcher_clear();
            }
            Some("position") => {
                session.finish_search();
                match parse_position(&words) {
                    Ok(position) => session.position = position,
                    Err(e) => session.say(&format!("info string {e}"))?,
                }
            }
            Some("go") => session.go(&words),
            Some("stop") => session.finish_search(),
            Some("quit") => break,
            _ => {}
        }
    }
    session.finish_search();
    Ok(())
}

impl Session {
    fn say(&self, text: &str) -> io::Result<()> {
        let mut out = self.out.lock().expect("no writer panics holding it");
        writeln!(out, "{text}")?;
        out.flush()
    }

    fn lock_engine(&self) -> std::sync::MutexGuard<'_, BuiltinEngine> {
        self.engine.lock().expect("no search panics holding it")
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = handle.join();
        }
    }

    fn set_option(&mut self, words: &[&str]) -> io::Result<()> {
        let name_at = words.iter().position(|w| *w == "name");
        let value_at = words.iter().position(|w| *w == "value");
        let (Some(n), Some(v)) = (name_at, value_at) else {
            return Ok(());
        };
        let name = words[n + 1..v].join(" ");
        let value = words[v + 1..].join(" ");
        self.finish_search();
        match name.as_str() {
            "Hash" => {
                if let Ok(mb) = value.parse::<usize>() {
                    match BuiltinEngine::try_new(mb.clamp(1, 4096)) {
                        Ok(mut engine) => {
                            self.hash_mb = mb.clamp(1, 4096);
                            engine.set_stop_flag(Arc::clone(&self.stop));
                            *self.lock_engine() = engine;
                        }
                        // The table in use stays.
                        Err(e) => self.say(&format!("info string {e}"))?,
                    }
                }
            }
            "MultiPV" => self.multipv = value.parse::<u32>().unwrap_or(1).clamp(1, 256),
            "UCI_Chess960" => self.chess960 = value == "true",
            other => self.say(&format!("info string unknown option {other}"))?,
        }
        Ok(())
    }

    fn go(&mut self, words: &[&str]) {
        self.finish_search();
        self.stop.store(false, Ordering::SeqCst);
        let limit = limit(words, self.position.current().turn());
        let search = Search {
            limit,
            multipv: self.multipv,
        };
        let (engine, out, position) = (
            Arc::clone(&self.engine),
            Arc::clone(&self.out),
            self.position.clone(),
        );
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        self.search = Some(thread::spawn(move || {
            let mut engine = engine.lock().expect("one search at a time");
            let say = |text: String| {
                let mut out = out.lock().expect("no writer panics holding it");
                let _ = writeln!(out, "{text}");
                let _ = out.flush();
            };
            let result = engine.search_with(&position, search, |iteration| {
                for line in info_lines(iteration, mode) {
                    say(line);
                }
            });
            match result {
                Ok(r) => {
                    let ms = r.time.unwrap_or_default().as_millis().max(1);
                    let nodes = r.nodes.unwrap_or(0);
                    say(format!(
                        "info nodes {nodes} nps {} time {ms}",
                        u128::from(nodes) * 1000 / ms
                    ));
                    let ponder = r
                        .ponder
                        .map_or(String::new(), |p| format!(" ponder {}", uci(p, mode)));
                    say(format!("bestmove {}{ponder}", uci(r.best_move, mode)));
                }
                Err(_) => say("bestmove 0000".to_owned()),
            }
        }));
    }
}

impl BuiltinEngine {
    fn searcher_clear(&mut self) {
        let _ = crate::Engine::new_game(self);
    }
}

fn uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

fn info_lines(iteration: &Iteration, mode: CastlingMode) -> Vec<String> {
    let ms = iteration.elapsed.as_millis().max(1);
    let nps = u128::from(iteration.nodes) * 1000 / ms;
    iteration
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let score = match to_score(line.score) {
                Score::Cp(cp) => format!("cp {cp}"),
                Score::Mate(n) => format!("mate {n}"),
            };
            let pv: Vec<String> = line.pv.iter().map(|m| uci(*m, mode)).collect();
            format!(
                "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} time {ms} pv {}",
                iteration.depth,
                iteration.seldepth,
                i + 1,
                iteration.nodes,
                pv.join(" ")
            )
        })
        .collect()
}

/// The limit of a `go` command; clock time is turned into a time per move.
fn limit(words: &[&str], turn: Color) -> Limit {
    let value = |key: &str| -> Option<u64> {
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1)?.parse().ok()
    };
    if let Some(depth) = value("depth") {
        return Limit::Depth(u32::try_from(depth).unwrap_or(u32::MAX));
    }
    if let Some(nodes) = value("nodes") {
        return Limit::Nodes(nodes);
    }
    if let Some(ms) = value("movetime") {
        return Limit::MoveTime(ms);
    }
    let (time, inc) = match turn {
        Color::White => (value("wtime"), value("winc")),
        Color::Black => (value("btime"), value("binc")),
    };
    match time {
        Some(t) => {
            let moves = value("movestogo").unwrap_or(25).max(1);
            let ms = t / moves + inc.unwrap_or(0) * 3 / 4;
            Limit::MoveTime(ms.clamp(5, (t / 2).max(5)))
        }
        // `go infinite` or no limit at all: until `stop`.
        None => Limit::Depth(100),
    }
}

fn parse_position(words: &[&str]) -> Result<GamePosition, String> {
    let moves_at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let start: Chess = match words.get(1) {
        Some(&"startpos") => Chess::default(),
        Some(&"fen") => {
            let fen = words[2..moves_at].join(" ");
            fen.parse::<Fen>()
                .map_err(|e| format!("bad FEN {fen}: {e}"))?
                .into_position(CastlingMode::Chess960)
                .map_err(|e| format!("illegal position {fen}: {e}"))?
        }
        _ => return Err("position needs startpos or fen".to_owned()),
    };
    let mut position = GamePosition::new(start);
    for text in words.iter().skip(moves_at + 1) {
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(position.current()).ok())
            .ok_or_else(|| format!("illegal move {text}"))?;
        position
            .push(m)
            .map_err(|_| format!("illegal move {text}"))?;
    }
    Ok(position)
}
