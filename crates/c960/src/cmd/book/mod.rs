//! `c960 book`: one module per subcommand.

mod exits;
mod starts;

use anyhow::Result;

use crate::cli::{BookArgs, BookCommand};

pub(crate) fn run(args: &BookArgs) -> Result<()> {
    match &args.command {
        BookCommand::Starts(args) => starts::run(args),
        BookCommand::Exits(args) => exits::run(args),
    }
}
