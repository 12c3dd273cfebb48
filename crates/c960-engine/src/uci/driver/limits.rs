//! A search's answer checked against its limit, and which limits an engine
//! that broke one does honour.

use std::time::Duration;

use crate::{
    Engine, EngineError, GamePosition, Limit, Search, SearchResult,
    types::shredder_fen,
    uci::sanity::{self, Fault},
};

use super::UciEngine;

impl UciEngine {
    /// `result` if it passes the sanity checks (see [`sanity`]); otherwise
    /// the fault, and for a search short of its limit, which limits this
    /// engine does honour.
    pub(super) fn checked(
        &mut self,
        position: &GamePosition,
        search: Search,
        result: SearchResult,
    ) -> Result<SearchResult, EngineError> {
        match sanity::check(position.current(), search, &result) {
            Ok(()) => Ok(result),
            Err(Fault::Unusable(reason)) => Err(EngineError::BadAnswer {
                name: self.info.name.clone(),
                fen: shredder_fen(position.current()),
                reason,
            }),
            Err(Fault::ShortOfLimit(reached)) => Err(EngineError::LimitIgnored {
                name: self.info.name.clone(),
                limit: search.limit.to_string(),
                reached,
                rule: sanity::rule(search.limit),
                honoured: if self.probing {
                    String::new()
                } else {
                    self.honoured_limits(position, search)
                },
            }),
        }
    }

    /// Tries the kinds of limit other than the one `search` broke in the
    /// same position, each with a short watchdog, and says which ones the
    /// engine honours.
    fn honoured_limits(&mut self, position: &GamePosition, search: Search) -> String {
        const PROBE_WATCHDOG: Duration = Duration::from_secs(30);
        let saved = self.config.watchdog;
        self.config.watchdog = Some(saved.map_or(PROBE_WATCHDOG, |w| w.min(PROBE_WATCHDOG)));
        self.probing = true;
        let mut honoured = Vec::new();
        for (probe, name) in [(Limit::Depth(5), "depth"), (Limit::Nodes(50_000), "nodes")] {
            if std::mem::discriminant(&probe) == std::mem::discriminant(&search.limit) {
                continue;
            }
            let probe = Search {
                limit: probe,
                multipv: search.multipv,
            };
            if self.search(position, probe).is_ok() {
                honoured.push(name);
            }
        }
        self.probing = false;
        self.config.watchdog = saved;
        match honoured.as_slice() {
            [] => "it honours neither node nor depth limits here (time limits are not checked)"
                .to_owned(),
            kinds => {
                let flags: Vec<String> = kinds.iter().map(|k| format!("--{k} N")).collect();
                format!(
                    "this engine honours `go {}` (use {})",
                    kinds.join("` and `go "),
                    flags.join(" or ")
                )
            }
        }
    }
}
