//! c960-verdict: each position's balance, computed once. Between the
//! statistics (`c960-balance`) and the tables on disk (`c960-store`) below,
//! and the report and the command line above, this crate owns what a user
//! reads about a position's balance:
//!
//! - [`balance`]: the verdicts computed from runs (`c960 balance`, the
//!   report's verdicts): the engines' consensus and its interval, games'
//!   scores, verdicts with false discovery rate control, reliability, and
//!   the one writer of `balance.csv` and `balance.json`;
//! - [`row`]: one position's published balance as a typed row
//!   ([`BalanceRow`]: estimate, interval, verdict, q-value, method,
//!   raters, draw chance and expected score), and [`table`] the one reader of a `balance.csv`, which
//!   refuses a table that contradicts itself;
//! - [`reference`]: what balance is measured from ([`Reference`]: equal
//!   chances, the typical position, the classical setup);
//! - [`fair`]: the positions ranked by how close their whole interval lies
//!   to a reference, with rank intervals and verdicts against it — what
//!   `fair.html`, `c960 draw --fairest` and `c960 book balanced` share;
//!   and the most drawish positions (`c960 draw --not-drawish`);
//! - [`dfrc`]: what a sweep of Double Fischer Random Chess setups says
//!   (group means by feature, the regression on the per-side features,
//!   the symmetric setups against the rest, each setup's verdict), which
//!   the DFRC report renders;
//! - [`figures`]: the figures the report's charts show beside the
//!   verdicts (a group's mean with its interval, a least-squares line with
//!   Pearson's r, a normal interval).
//!
//! The report renders these; it computes none of them.

pub mod agreement;
pub mod balance;
pub mod dfrc;
mod drawish;
mod error;
pub mod fair;
pub mod figures;
pub mod reference;
pub mod row;
pub mod table;

pub use drawish::{Character, drawish_order};
pub use error::VerdictError;
pub use reference::Reference;
pub use row::{BalanceRow, FirstMoves, Interval, Outcome};
pub use table::BalanceTable;
