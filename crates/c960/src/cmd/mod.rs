//! One module per subcommand.

pub(crate) mod dice;
pub(crate) mod draw;
pub(crate) mod positions;
pub(crate) mod show;
pub(crate) mod sweep;
