//! The UCI protocol: a parser for engine output, a driver for engine
//! processes, and a server that makes the built-in engine a UCI engine.

mod driver;
mod parse;
pub mod sanity;
mod server;

pub use driver::{CONTEMPT_OPTIONS, UciConfig, UciEngine, find_ethereal, find_stockfish};
pub use parse::{EngineLine, Info, OptionDecl, ParseError, parse_line};
pub use server::serve;
