//! The UCI protocol: a parser for engine output and a driver for engine
//! processes.

mod driver;
mod parse;

pub use driver::{UciConfig, UciEngine, find_stockfish};
pub use parse::{EngineLine, Info, OptionDecl, ParseError, parse_line};
