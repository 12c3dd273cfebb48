//! `c960 book`: one module per subcommand.

mod balanced;
mod draw_model;
pub(crate) mod exits;
mod starts;
mod verify;

use anyhow::Result;

use crate::cli::{BookArgs, BookCommand, ReportFormat};

pub(crate) fn run(args: &BookArgs) -> Result<()> {
    let Some(command) = &args.command else {
        return verify::run(&args.verify, args.format.unwrap_or(ReportFormat::Text));
    };
    match command {
        BookCommand::Starts(args) => starts::run(args),
        BookCommand::Balanced(args) => balanced::run(args),
        BookCommand::Verify(args) => verify::run(&args.files, args.format),
        BookCommand::Exits(args) => exits::run(args),
        BookCommand::DrawModel(args) => draw_model::run(args),
    }
}
