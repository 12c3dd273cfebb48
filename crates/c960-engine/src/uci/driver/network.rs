//! Which network a Stockfish run from a package evaluates with, as it says.

use std::time::Instant;

use crate::EngineError;

use super::UciEngine;

impl UciEngine {
    /// Asks Stockfish run from a package which network files it evaluates
    /// with: `eval` makes it say so (`info string NNUE evaluation using
    /// nn-1c0000000000.nnue …`) without searching, and `ucinewgame` before
    /// each search clears what it leaves behind.
    pub(super) fn name_network(&mut self) -> Result<(), EngineError> {
        if self.info.network.is_none() || !self.info.name.starts_with("Stockfish") {
            return Ok(());
        }
        self.send("eval", "naming its network")?;
        self.send("isready", "naming its network")?;
        let waited = self.config.handshake_timeout;
        let deadline = Instant::now() + waited;
        loop {
            let line = self.wait_line(deadline, waited, "naming its network")?;
            if line.trim() == "readyok" {
                return Ok(());
            }
            self.note_network(&line);
        }
    }

    /// Records the network an `info string NNUE evaluation using NAME`
    /// line names.
    pub(super) fn note_network(&mut self, line: &str) {
        let Some(network) = self.info.network.as_mut() else {
            return;
        };
        let named = line
            .trim()
            .strip_prefix("info string NNUE evaluation using ")
            .and_then(|rest| rest.split_whitespace().next());
        if let Some(name) = named
            && !network.names.iter().any(|n| n == name)
        {
            network.names.push(name.to_owned());
        }
    }
}
