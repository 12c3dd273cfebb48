//! c960-report: the data behind reports, and the report itself. Loads the
//! static features of all 960 positions, any number of sweep, self-play and
//! import runs, and joins them on SP into one tidy
//! per-position table. Runs are kept apart by provenance: each run's
//! columns carry a label made from its engine and limit, and two runs with
//! the same label are refused.
//!
//! [`build`] makes the whole report, in this order (one module each):
//! - `source`: each run directory read through its typed manifest
//!   ([`c960_store::RunManifest`]) and labelled ([`source()`]);
//! - `join`: the per-position table ([`per_position`]), with the game
//!   runs' first moves and the verdicts joined on SP, written as
//!   `positions.parquet` and `positions.csv` ([`write_table`]);
//! - [`balance`]: verdicts with error control (`balance.csv`, `.json`);
//! - `chart_data`: the charts' data from the table, drawn by [`charts`];
//! - [`site`]: the static site (index, fair positions, one page per
//!   position, with [`sheet`] texts, [`board`] diagrams and [`downloads`]).
//!
//! Sweeps of Double Fischer Random Chess setups (manifest `"variant":
//! "dfrc"`) get their own report instead, [`dfrc`]; a report is of one
//! variant, so DFRC and Chess960 runs are not mixed.
//!
//! Printed material beside the site: the writers' position sheets
//! ([`sheet`]) and the organizer's tournament kit ([`kit`]: announcement,
//! round sheets, the draw record and how to verify it).
//!
//! Shared with the command line: the position table's layout
//! ([`chess960_frame`], [`dfrc_frame`], which `c960 positions` writes), the
//! frame of every HTML page ([`html::Page`]: the site, the writers' sheets
//! and the tournament kit) and the board drawing ([`board`], one list of
//! shapes rendered as SVG and PNG).
//!
//! Where things live: HTML markup is in askama templates (`templates/`):
//! the one layout of every page (`layout.html`), a page's own style sheets
//! (`style.html`), the warning banner (`banner.html`, styled by the
//! `warning` class of `style.css`), the site's pages and their parts
//! (`site/`: head, index and figures, fair positions, a position's page
//! with its openings and balance section, the provenance, the reliability
//! and balance notes, a line of the failures warning), the agreement
//! section and sentence (`agreement/`), the tournament kit's announcement
//! and round sheet (`kit/`), the writers' position sheet (`sheet.html`)
//! and the DFRC index (`dfrc/index.html`). Rust computes what a page
//! shows (numbers formatted, texts chosen) and hands it to the template.
//! Templates escape values with [`html::Escape`] (named in the crate's
//! `askama.toml`), which writes exactly what [`html::escape`] does; markup
//! made in Rust (the board's SVG, [`html::escape_prose`]) goes in with
//! `|safe`. Askama drops a template file's last newline, so a template
//! whose output ends in one ends with an empty line. Style sheets are
//! files in `assets/` (`style.css` for the site, `sheet.css` for the
//! writers' sheets, `kit.css` for the tournament kit, `nowrap.css` for
//! castling notation), read with `include_str!`. The error type is in
//! `error.rs`, the build in order in `build.rs`, the sheets' and board
//! legends' fixed texts in `lang.rs`; this file holds the docs and the
//! re-exports.

pub mod agreement;
pub mod board;
mod bounds;
mod build;
mod chart_data;
pub mod charts;
pub mod dfrc;
pub mod downloads;
mod error;
mod features;
pub mod html;
mod join;
pub mod kit;
mod lang;
pub mod sheet;
pub mod site;
mod source;
mod swap;
pub mod view;

pub use bounds::Bounds;
pub use build::{Built, Options, build, build_with};
pub use c960_store::RunKind;
pub use c960_store::lock_dir;
pub use c960_verdict::balance;
pub use chart_data::castling_opportunities;
pub use error::ReportError;
pub use features::{chess960_frame, dfrc_frame, features_frame};
pub use join::{IMPORT_TERMINATIONS, PerPosition, TERMINATIONS, Trees, per_position, write_table};
pub use site::{TREE_PLIES, TREE_SHARE};
pub use source::{Source, labels, manifest_path, source};
