//! `c960 book balanced` and `c960 book --verify` (also `c960 book
//! verify`): the balanced starts of a balance table, and the line-by-line
//! book checker.

use std::path::PathBuf;

use clap::Args;

use super::{ReportFormat, reference_parser};

#[derive(Debug, Args)]
#[command(
    group(clap::ArgGroup::new("selection").args(["fairest", "within"]).required(true)),
    after_help = "Each position's distance from --reference is that of the farther end of \
                        its 95 % interval (balance_low..balance_high of the table, in \
                        centipawns), so a position is kept only when its whole interval is near \
                        the reference. The book lists the kept positions in SP order; its \
                        manifest names the table (file name and SHA-256), the reference, the \
                        count or window and the columns read.\n\n\
                        Examples:\n  \
                        c960 book balanced --balance data/research-v3/balance.csv --fairest 240 --out c960_FRC_balanced.epd\n  \
                        c960 book balanced --balance run/ --within 20 --reference typical --out c960_FRC_within20.epd"
)]
pub(crate) struct BookBalancedArgs {
    /// The balance table (`balance.csv`, or the directory holding it), as
    /// `c960 balance` or `c960 report` writes it; its verdicts must come
    /// from engine sweeps (intervals in centipawns).
    #[arg(long, value_name = "FILE|DIR")]
    pub(crate) balance: PathBuf,
    /// Keep the N positions nearest --reference, interval included (ties:
    /// lower SP first).
    #[arg(
        long,
        value_name = "N",
        value_parser = super::at_least_one::<std::num::NonZeroUsize>
    )]
    pub(crate) fairest: Option<std::num::NonZeroUsize>,
    /// Keep the positions whose whole 95 % interval lies within ±CP
    /// centipawns of --reference.
    #[arg(long, value_name = "CP")]
    pub(crate) within: Option<f64>,
    /// What the distance is measured from (default: equal, as fair.html
    /// and `c960 draw --fairest` rank; testers play each opening with both
    /// colours).
    #[arg(long, value_name = "REF", value_parser = reference_parser(), default_value = "equal")]
    pub(crate) reference: c960_verdict::Reference,
    /// The book file (its manifest goes beside it, extension .json).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
}

#[derive(Debug, Args)]
#[command(after_help = "The same check as `c960 book --verify FILE...`.\n\n\
                        Examples:\n  \
                        c960 book verify c960_FRC_starts.epd\n  \
                        c960 book verify --format json FRC_openings.epd DFRC_openings.epd")]
pub(crate) struct BookVerifyArgs {
    /// The books to check.
    #[arg(value_name = "FILE", required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Readable lines, or one JSON document for machines.
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: ReportFormat,
}
