//! One module per subcommand, plus the flags shared by engine commands.

pub(crate) mod balance;
pub(crate) mod book;
pub(crate) mod compare;
pub(crate) mod dice;
pub(crate) mod draw;
pub(crate) mod engine_args;
pub(crate) mod import;
pub(crate) mod merge;
pub(crate) mod openings;
pub(crate) mod positions;
pub(crate) mod reference;
pub(crate) mod report;
pub(crate) mod restore;
pub(crate) mod run;
pub(crate) mod selfplay;
pub(crate) mod show;
mod show_balance;
pub(crate) mod slurm;
pub(crate) mod sweep;
pub(crate) mod tournament;
pub(crate) mod uci;
