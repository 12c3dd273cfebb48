//! An import's manifest as the import writes it; readers of any run read
//! it as a [`super::RunManifest`].

use serde::Serialize;

use super::RunKind;

/// An import's `manifest.json`: what it read and kept, with the import's
/// own `filters`.
#[derive(Serialize)]
pub struct ImportManifest<'a, F> {
    /// Always [`RunKind::Import`].
    pub kind: RunKind,
    /// The c960 version that wrote it.
    pub c960_version: &'static str,
    /// The PGN files read, by name.
    pub files: Vec<String>,
    /// Which games were kept beyond the defects.
    pub filters: &'a F,
    /// Games kept.
    pub games: u64,
    /// Games read.
    pub read: u64,
    /// `sealed` (`SEALED_TABLES`, which the run's reader checks): its
    /// tables carry seals, so a table found without one was rewritten and
    /// is not read.
    pub tables: &'static str,
    /// When the import finished (RFC 3339).
    pub finished: String,
}
