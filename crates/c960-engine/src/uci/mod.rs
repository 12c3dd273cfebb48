//! The UCI protocol: a parser for engine output (`parse`), a driver for
//! engine processes (`driver`, started as `config` says, with its traffic
//! logged by `iolog` and its answers checked by [`sanity`]), and a server
//! that makes the built-in engine a UCI engine (`server`).

mod config;
mod driver;
mod iolog;
mod parse;
pub mod sanity;
mod server;

pub use config::{CONTEMPT_OPTIONS, UciConfig, find_ethereal, find_stockfish};
pub use driver::UciEngine;
pub use parse::{EngineLine, Info, OptionDecl, ParseError, parse_line};
pub use server::serve;
