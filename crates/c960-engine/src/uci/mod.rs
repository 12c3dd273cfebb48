//! The UCI protocol: a parser for engine output (`parse`), a driver for
//! engine processes (`driver`, started as `config` says, with its traffic
//! logged by `iolog` and its answers checked by [`sanity`]), and a server
//! that makes the built-in engine a UCI engine (`server`); Stockfish from
//! npm is found by `npm`, and `identity` names a script's package and
//! runtime.

mod config;
mod driver;
mod identity;
mod iolog;
mod npm;
mod output;
mod parent_death;
mod parse;
pub mod sanity;
mod server;

pub use config::{CONTEMPT_OPTIONS, UciConfig, find_ethereal, find_stockfish};
pub use driver::UciEngine;
pub use identity::{package_of, runtime_of};
pub use npm::{
    NODE_MODULES_VAR, NPM_HANDSHAKE, NpmBuild, NpmStockfish, NpmVersion, find_stockfish_npm,
    find_stockfish_npm_version,
};
pub use output::{MAX_LINE, kill_all};
pub use parse::{EngineLine, Info, OptionDecl, ParseError, parse_line};
pub use server::serve;
