//! `c960 uci`: the built-in engine speaking UCI on standard input/output.

use std::io;

use anyhow::Result;

pub(crate) fn run() -> Result<()> {
    c960_engine::uci::serve(io::stdin().lock(), io::stdout())?;
    Ok(())
}
