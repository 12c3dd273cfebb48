//! Who an engine is and how it was set up ([`EngineInfo`]): the
//! provenance every output records, with the network it evaluates with and
//! the WDL model it reports by.

use serde::{Deserialize, Serialize};

use crate::Limit;

/// Who an engine is and how it was set up: the provenance of its results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineInfo {
    /// The engine's name (`id name`).
    pub name: String,
    /// Its author (`id author`), if given.
    pub author: Option<String>,
    /// The executable, or `builtin`.
    pub path: String,
    /// Arguments the executable was started with (a script for a runtime
    /// such as Node); absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// The package the engine's script comes from (`stockfish@19.0.0`),
    /// for engines run from a package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// The script the runtime runs, as a path inside its package
    /// (`src/stockfish-17.1-single-a496a04.js`), for engines run from a
    /// package: no path of this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// The runtime that runs the script (`node v20.20.2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<String>,
    /// Every option set, in the order set.
    pub options: Vec<(String, String)>,
    /// The evaluation network: the names the engine gives it and the
    /// package files that carry it, for engines run from a package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Network>,
    /// Whether the engine reports win/draw/loss estimates, and by which
    /// model; absent for an engine that offers none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wdl: Option<WdlReport>,
}

/// An engine's evaluation network. Stockfish names a network file by the
/// first 12 hex digits of its SHA-256 (`nn-1c0000000000.nnue`) and says
/// which it uses (`info string NNUE evaluation using …`); a build for the
/// web carries it inside its WebAssembly (`stockfish-18-single.wasm`,
/// or parts `…-part-0.wasm` to `…-part-5.wasm`), an older one beside its
/// script (`nn-5af11540bbfe.nnue`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    /// The network files the engine says it evaluates with, in its order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// The files of the package that carry the network, as paths inside
    /// the package, in the order hashed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// The SHA-256 (hex) of those files read one after the other
    /// (`cat FILES | sha256sum`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// Whether an engine reports win/draw/loss estimates (`wdl` in its `info`
/// lines), and from which model.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WdlReport {
    /// Whether its searches carried WDL.
    pub reported: bool,
    /// The model behind them (`Stockfish 17.1 WASM's built-in WDL model,
    /// UCI_ShowWDL`).
    pub model: String,
}

impl EngineInfo {
    /// Why this engine cannot search under `limit`, for engines known to
    /// ignore it: Ethereal up to version 12 ignores `go nodes` and answers
    /// after depth 1, so a node limit would measure a one-ply engine.
    #[must_use]
    pub fn unsupported_limit(&self, limit: Limit) -> Option<String> {
        let version = self
            .name
            .strip_prefix("Ethereal ")
            .and_then(|v| v.split('.').next())
            .and_then(|major| major.trim().parse::<u32>().ok());
        match (limit, version) {
            (Limit::Nodes(_), Some(major)) if major <= 12 => Some(format!(
                "{} ignores `go nodes` (it stops after depth 1); give it a depth or a clock \
                 (--depth, --tc, --st)",
                self.name
            )),
            _ => None,
        }
    }

    /// The engine as one line for people: its name, then the package and
    /// runtime when it runs from one (`Stockfish 19 WASM (stockfish@19.0.0,
    /// node v20.20.2)`).
    #[must_use]
    pub fn label(&self) -> String {
        let extra: Vec<&str> = [self.package.as_deref(), self.runtime.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        if extra.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, extra.join(", "))
        }
    }

    /// Options as `Name=value` pairs joined with `, `.
    #[must_use]
    pub fn options_string(&self) -> String {
        self.options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
